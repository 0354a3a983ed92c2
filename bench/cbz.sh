#!/usr/bin/env bash
# CBZ downloads: the reader building a chapter's CBZ on the fly (authenticated session,
# GET /api/series/<s>/chapters/<c>.cbz: a stored ZIP streamed from the page files) vs nginx serving a pre-built CBZ of
# the same chapter (the reader's own download, byte for byte, written to a file), with wrk at the same
# threads/connections/duration in the same run.
# Usage: bench/cbz.sh [seconds=10] [connections=8] [rounds=6]
#
# Steps: as bench/pages.sh (4 chapters x 50 distinct ~195 KB JPEGs, chapter.json each, MangaCircus in `all` mode on a
# fresh data folder, login with curl), then download each chapter's CBZ once from the reader into the nginx root
# (checked with `python3 -m zipfile -t` and against the page files' count), start nginx (bench/pages-nginx.conf,
# sendfile on, root = those CBZ files), and run wrk with bench/pages.lua over the 4 CBZ URLs: one warm-up run against
# each, then `rounds` measured rounds, nginx and the reader back to back (nginx first in odd rounds). Prints per run
# requests/s, MB/s, p50 and p99, the server's CPU time per request, the CPU the rest of the machine used meanwhile
# ("others", in cores) and the 1-minute load average when the run ended; then medians and the reader/nginx ratio of
# throughput per round and of the medians. Every response must be a whole CBZ (at least the smallest one's bytes),
# with no non-2xx/3xx or socket error. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (build: mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (about 100 MB); KEEP_WORK=1 keeps it. CBZ_WARMUP: seconds of warm-up per server
# (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

seconds=${1:-10}
connections=${2:-8}
rounds=${3:-6}
for n in "$seconds" "$connections" "$rounds"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || { echo "usage: bench/cbz.sh [seconds=10] [connections=8] [rounds=6]" >&2; exit 2; }
done
threads=$(( connections < 2 ? connections : 2 ))
warmup=${CBZ_WARMUP:-20}   # seconds per server; the JVM's JIT is still compiling after 10 s
chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx is not installed" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as an unprivileged user when this runs as root: they must reach the library
site_pid=""; mc_pid=""; nginx_pid=""
cleanup() {
  for p in "$mc_pid" "$nginx_pid" "$site_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$mc_pid" "$nginx_pid" "$site_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "         $("$nginx_bin" -v 2>&1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), work dir on $(df -T "$work" | awk 'NR==2 {print $2}')"

# ---- library ----------------------------------------------------------------------------------------------------
bench_library
echo "library: $pages pages ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$pages" 'BEGIN { printf "%.1f MB, avg %.0f KB a page\n", b / 1e6, b / 1e3 / n }')"
sync

# ---- MangaCircus ----------------------------------------------------------------------------------------------------
port=$(free_port); hport=$(free_port)
password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
echo '{}' >"$work/mangacircus.json"   # the defaults, not whatever conf/mangacircus.json holds
MANGACIRCUS_ADMIN_PASSWORD=$password java ${MC_JAVA_OPTS:-} -jar "$jar" all --conf "$work/mangacircus.json" --data "$data" \
  --port "$port" --health-port "$hport" >"$work/mangacircus.log" 2>&1 &
mc_pid=$!
mc_ready() {
  kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/mangacircus.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
}
wait_for "MangaCircus /health/ready" 120 mc_ready
cookie=$(curl -s -f -D - -o /dev/null -H 'Content-Type: application/json' \
  -d "{\"username\":\"admin\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/login" \
  | tr -d '\r' | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')
[ -n "$cookie" ] || { echo "login gave no mc_session cookie" >&2; exit 1; }

# ---- the pre-built CBZ files: the reader's own downloads, written once -----------------------------------------------
cbz_root="$work/cbz"; mkdir -p "$cbz_root/$series"
: >"$work/reader.paths"; : >"$work/nginx.paths"
for c in $(seq 1 "$chapters"); do
  curl -s -f -H "Cookie: $cookie" -o "$cbz_root/$series/c$c.cbz" "http://127.0.0.1:$port/api/series/$series/chapters/c$c.cbz"
  python3 -m zipfile -t "$cbz_root/$series/c$c.cbz" >/dev/null || { echo "c$c.cbz is not a valid ZIP" >&2; exit 1; }
  entries=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$cbz_root/$series/c$c.cbz")
  [ "$entries" = $((per_chapter + 1)) ] || { echo "c$c.cbz has $entries entries, not $((per_chapter + 1))" >&2; exit 1; }
  echo "/api/series/$series/chapters/c$c.cbz" >>"$work/reader.paths"
  echo "/$series/c$c.cbz" >>"$work/nginx.paths"
done
read -r cbz_bytes smallest < <(find "$cbz_root" -name '*.cbz' -printf '%s\n' | awk 'NR==1 {m=$1} {s+=$1; if ($1<m) m=$1} END {print s, m}')
echo "CBZ: $chapters files, $(awk -v b="$cbz_bytes" -v n="$chapters" 'BEGIN { printf "avg %.1f MB", b / 1e6 / n }'), stored (no compression)"
sync

# ---- nginx --------------------------------------------------------------------------------------------------------
nport=$(free_port)
sed -e "s|@WORK@|$work|g" -e "s|@ROOT@|$cbz_root|g" -e "s|@PORT@|$nport|g" "$bench_dir/pages-nginx.conf" >"$work/nginx.conf"
"$nginx_bin" -p "$work" -c "$work/nginx.conf" -g 'daemon off;' 2>>"$work/nginx-stderr.log" &
nginx_pid=$!
nginx_up() {
  kill -0 "$nginx_pid" 2>/dev/null || { tail -5 "$work/nginx-stderr.log" "$work/nginx-error.log" >&2 2>/dev/null; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$nport$(head -1 "$work/nginx.paths")" || true)" = 200 ]
}
wait_for "nginx" 20 nginx_up

# Both must serve the same bytes (and the reader only with the session).
first_r=$(head -1 "$work/reader.paths"); last_r=$(tail -1 "$work/reader.paths")
first_n=$(head -1 "$work/nginx.paths"); last_n=$(tail -1 "$work/nginx.paths")
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$first_r")" = 401 ] \
  || { echo "the reader served a CBZ without a session" >&2; exit 1; }
for pair in "$first_r $first_n" "$last_r $last_n"; do
  set -- $pair
  cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$1") <(curl -s -f "http://127.0.0.1:$nport$2") \
    || { echo "reader $1 and nginx $2 differ" >&2; exit 1; }
done

# ---- wrk ----------------------------------------------------------------------------------------------------------
# CPU time (user + system, clock ticks) of the server's processes: the JVM (every thread: event loops, JIT, GC), or
# nginx's workers. Per request it says what each server costs, whatever share of the machine it got.
server_ticks() {
  local pids
  if [ "$1" = reader ]; then pids=$mc_pid; else pids=$(pgrep -P "$nginx_pid" | tr '\n' ' '); fi
  for p in $pids; do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk '{s += $1} END {print s + 0}'
}
# CPU time of the whole machine in process context (user, nice, system, steal; not interrupts), in clock ticks.
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $9; exit}' /proc/stat; }
run() { # target, seconds -> "rps p50_us p99_us bytes_per_response server_cpu_us_per_request others_cores"
  local target=$1 secs=$2 url paths jar_cookie="" out line ticks busy wrk_s others
  if [ "$target" = reader ]; then url="http://127.0.0.1:$port"; paths="$work/reader.paths"; jar_cookie=$cookie
  else url="http://127.0.0.1:$nport"; paths="$work/nginx.paths"; fi
  ticks=$(server_ticks "$target"); busy=$(busy_ticks)
  out=$(PAGES_FILE=$paths PAGES_COOKIE=$jar_cookie /usr/bin/time -f '%U %S' -o "$work/wrk.time" \
    wrk -t "$threads" -c "$connections" -d "${secs}s" --latency -s "$bench_dir/pages.lua" "$url")
  ticks=$(( $(server_ticks "$target") - ticks )); busy=$(( $(busy_ticks) - busy ))
  wrk_s=$(awk '{print $1 + $2}' "$work/wrk.time")
  # What everything but this server and wrk used meanwhile (other jobs on the machine), in cores.
  others=$(awk -v b="$busy" -v t="$ticks" -v w="$wrk_s" -v hz="$(getconf CLK_TCK)" -v s="$secs" \
    'BEGIN { o = ((b - t) / hz - w) / s; printf "%.2f", o < 0 ? 0 : o }')
  echo "$out" >>"$work/wrk-$target.log"
  line=$(grep '^RESULT ' <<<"$out") || { echo "$out" >&2; echo "wrk printed no RESULT" >&2; exit 1; }
  set -- $line   # RESULT rps p50 p99 bytes_per_response non2xx socket_errors requests
  if [ "$6" != 0 ] || [ "$7" != 0 ] || [ "$(awk -v b="$5" -v m="$smallest" 'BEGIN { print (b >= m) }')" != 1 ]; then
    echo "$out" >&2
    echo "$target: $6 non-2xx/3xx, $7 socket errors, $5 bytes per response (smallest CBZ $smallest): not all whole" >&2
    exit 1
  fi
  echo "$2 $3 $4 $5 $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$8" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }') $others $(cut -d' ' -f1 /proc/loadavg)"
}
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }

echo "wrk: $threads threads, $connections connections, ${seconds} s per measured run (warm-up ${warmup} s each)"
run nginx "$warmup" >/dev/null
run reader "$warmup" >/dev/null
# cpu us/req: the server's CPU time per request; others: cores' worth of CPU that everything else on the machine
# (not this server, not wrk) used during the run; it takes CPU from the server and wrk alike
printf '%-6s %-7s %11s %9s %10s %10s %12s %7s %6s\n' round target "requests/s" "MB/s" "p50 ms" "p99 ms" "cpu us/req" \
  others load
nginx_rps=(); reader_rps=(); nginx_p99=(); reader_p99=(); nginx_cpu=(); reader_cpu=()
ratios=()
for r in $(seq 1 "$rounds"); do
  order="nginx reader"; [ $((r % 2)) = 0 ] && order="reader nginx"   # alternate who goes first: drift hits both
  for target in $order; do
    result=$(run "$target" "$seconds")   # a failed check inside run stops the script here
    read -r rps p50 p99 per cpu others load <<<"$result"
    printf '%-6s %-7s %11s %9s %10s %10s %12s %7s %6s\n' "$r" "$target" "$rps" \
      "$(awk -v r="$rps" -v b="$per" 'BEGIN { printf "%.0f", r * b / 1e6 }')" "$(ms "$p50")" "$(ms "$p99")" "$cpu" \
      "$others" "$load"
    if [ "$target" = nginx ]; then nginx_rps+=("$rps"); nginx_p99+=("$p99"); nginx_cpu+=("$cpu")
    else reader_rps+=("$rps"); reader_p99+=("$p99"); reader_cpu+=("$cpu"); fi
  done
  ratios+=("$(awk -v a="${reader_rps[-1]}" -v b="${nginx_rps[-1]}" 'BEGIN { printf "%.3f", a / b }')")
  echo "       ratio reader/nginx round $r: ${ratios[-1]}"
done
n_rps=$(printf '%s\n' "${nginx_rps[@]}" | median); r_rps=$(printf '%s\n' "${reader_rps[@]}" | median)
n_p99=$(printf '%s\n' "${nginx_p99[@]}" | median); r_p99=$(printf '%s\n' "${reader_p99[@]}" | median)
n_cpu=$(printf '%s\n' "${nginx_cpu[@]}" | median); r_cpu=$(printf '%s\n' "${reader_cpu[@]}" | median)
echo "machine load (1-minute average) at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "median nginx:  $n_rps requests/s, p99 $(ms "$n_p99") ms, $n_cpu us of server CPU per request"
echo "median reader: $r_rps requests/s, p99 $(ms "$r_p99") ms, $r_cpu us of server CPU per request"
echo "reader/nginx: median of the rounds' ratios $(printf '%s\n' "${ratios[@]}" | median), ratio of the medians" \
  "$(awk -v a="$r_rps" -v b="$n_rps" 'BEGIN { printf "%.3f", a / b }') (target >= 0.9);" \
  "server CPU per request $(awk -v a="$r_cpu" -v b="$n_cpu" 'BEGIN { printf "%.2f", a / b }')x nginx's"
