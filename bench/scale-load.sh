#!/usr/bin/env bash
# R6, load: wrk on page images while the scraper publishes a chapter about every second and the console's event-bus
# bridge streams events to a connected client: against one MangaCircus process in `all` mode (default), or the daemon
# pair on loopback (`pair`: `reader --cluster` and `scraper --cluster`, one data folder, as docs/deploy.md runs them).
# Usage: bench/scale-load.sh [seconds=30] [connections=64] [all|pair]
#
# Steps:
# - library: bench/pages.sh's (lib.sh bench_library: 4 chapters x 50 distinct ~195 KB JPEGs from bench/BenchSite.java,
#   a chapter.json each; their source renamed "static" so they are no title of the bench source below).
# - source: a second bench/BenchSite.java, kept running, as source "bench" (type demo) with chapters of
#   $LOAD_PAGES (default 4) pages and pacing pageDelayMs=$LOAD_PAGE_DELAY_MS (100), chapterDelayMs=$LOAD_CHAPTER_DELAY_MS
#   (300): 700 ms of delays per chapter, aimed at about one chapter published per second (the rate measured is
#   printed: under heavy outside load it falls, to 0.56/s in `all` mode with 13-19 runnable threads on 2 cores);
#   enough chapters for the whole run.
# - MangaCircus `all` (defaults plus that source, claimPollMs 50) on a fresh data folder, or the pair (the same
#   settings; a fresh cluster name, a free cluster port each, both members on 127.0.0.1); admin login with curl.
# - bridge: bench/BridgeListener.java opens /eventbus/websocket with the admin session cookie and registers for every
#   address the bridge lets out (job progress, circuit, incidents, launcher status, library publications).
# - wrk (2 threads, `connections` connections, bench/pages.lua rotating the 200 page URLs with the session cookie):
#   a warm-up ($LOAD_WARMUP s, default 20), then `seconds` with nothing downloading (the baseline: the same process,
#   bridge open); then the title is added (POST /api/admin/jobs, autoConfirm) and, once its first chapter is
#   published, the measured `seconds` under load.
# Prints requests, errors, non-2xx, p50/p99, chapters published and bridge messages received during the measured run,
# the CPU (user+system) over it of MangaCircus and its split by thread group: in `all` mode the reader and the scraper
# share one process and its event loops, so only the process total is theirs together; `pair` gives each its own
# process and CPU figure. CPU per page request (the reader's process, or the whole `all` process) in the baseline and
# the loaded run: what publishing and the bridge add per request, whatever else the machine runs. Then the outside
# load; then ROW lines (see bench/scale.sh). Targets: 0 errors, 0 non-2xx, reader p99 < 50 ms, the bridge open throughout.
# Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. Scratch: a fresh `mktemp -d` (about 150 MB),
# KEEP_WORK=1 keeps it. MC_JAVA_OPTS: JVM options for MangaCircus.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

usage() { echo "usage: bench/scale-load.sh [seconds=30] [connections=64] [all|pair]" >&2; exit 2; }
seconds=${1:-30}
connections=${2:-64}
mode=${3:-all}
case "$mode" in all|pair) ;; *) usage ;; esac
for n in "$seconds" "$connections"; do [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || usage; done
threads=2
warmup=${LOAD_WARMUP:-20}   # s; the JIT is still compiling the page path after 10 s (bench/pages.sh)
source_pages=${LOAD_PAGES:-4}
page_delay=${LOAD_PAGE_DELAY_MS:-100}
chapter_delay=${LOAD_CHAPTER_DELAY_MS:-300}
source_chapters=$(( 2 * (seconds + warmup) + 60 ))   # more than the run can publish at ~1/s
chapters=4; per_chapter=50                            # the served library (as bench/pages.sh)
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
site_pid=""; source_pid=""; mc_pid=""; scraper_pid=""; bridge_pid=""
cleanup() {   # MangaCircus before its source, so its log shows no refused connection at the end
  for p in "$bridge_pid" "$mc_pid" "$scraper_pid" "$source_pid" "$site_pid"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/scale-load.sh: stopped at line $LINENO: $BASH_COMMAND" >&2' ERR

. bench/lib.sh
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

hz=$(getconf CLK_TCK)
load() { cut -d' ' -f1-3 /proc/loadavg; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }
ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $9; exit}' /proc/stat; }
# CPU ticks per thread group of a process ("vert.x-eventloop-thread-3" -> "vert.x-eventloop-thread"), one "name ticks"
# a line
thread_groups() {
  for t in /proc/"$1"/task/*; do
    name=$( { tr ' ' '_' <"$t/comm"; } 2>/dev/null) || continue   # a thread may end meanwhile
    awk -v n="$name" '{print n, $14 + $15}' "$t/stat" 2>/dev/null || true
  done | sed -E 's/^hz\.[^ ]* /hz.* /; s/[0-9]+ / /; s/-[0-9]+ / /; s/[-_#]+ / /' | awk '{s[$1] += $2} END {for (k in s) print k, s[k]}' | sort
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "  $({ wrk -v 2>&1 || true; } | awk 'NR == 1 {print $1, $2}'), work dir on $(df -T "$work" | awk 'NR==2 {print $2}'), load average $(load)"

# ---- the served library -------------------------------------------------------------------------------------------
bench_library
for m in "$library/$series"/*/chapter.json; do sed -i 's/"source":"bench"/"source":"static"/' "$m"; done
echo "  library: $pages pages ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$pages" 'BEGIN { printf "%.1f MB, avg %.0f KB", b / 1e6, b / 1e3 / n }')"

# ---- the source the scraper downloads from ------------------------------------------------------------------------
mkdir -p "$work/source"
java -Xmx1g bench/BenchSite.java 0 "$source_pages" "$source_chapters" "$work/source" >"$work/source.out" 2>"$work/source.err" &
source_pid=$!
source_up() { grep -q '^READY ' "$work/source.out" || { kill -0 "$source_pid" 2>/dev/null || { cat "$work/source.err" >&2; exit 1; }; false; }; }
wait_for "bench source" 120 source_up
base_url=$(awk '/^READY / {print $2; exit}' "$work/source.out")
echo "  source: $source_chapters chapters x $source_pages pages, pageDelayMs $page_delay, chapterDelayMs $chapter_delay"
sync

# ---- MangaCircus --------------------------------------------------------------------------------------------------
port=$(free_port); hport=$(free_port)
password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
source_conf="\"scraper\": {\"claimPollMs\": 50, \"sources\": {\"bench\": {\"type\": \"demo\", \"baseUrl\": \"$base_url\", \"pageDelayMs\": $page_delay, \"chapterDelayMs\": $chapter_delay}}}"
log="$work/mangacircus.log"   # the reader's process (in `all` mode the only one)
if [ "$mode" = all ]; then
  echo "{$source_conf}" >"$work/mangacircus.json"
  MANGACIRCUS_ADMIN_PASSWORD=$password MANGACIRCUS_ADMIN_TOKEN=$token java $mc_opts -jar "$jar" all \
    --conf "$work/mangacircus.json" --data "$data" --port "$port" --health-port "$hport" >"$log" 2>&1 &
  mc_pid=$!
else
  cluster_name="mc-bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
  scraper_cport=$(free_port); reader_cport=$(free_port)
  members="\"127.0.0.1:$scraper_cport\", \"127.0.0.1:$reader_cport\""
  echo "{\"cluster\": {\"name\": \"$cluster_name\", \"port\": $scraper_cport, \"members\": [$members]}, $source_conf}" \
    >"$work/scraper.json"
  echo "{\"cluster\": {\"name\": \"$cluster_name\", \"port\": $reader_cport, \"members\": [$members]}, $source_conf}" \
    >"$work/mangacircus.json"
  java $mc_opts -jar "$jar" scraper --cluster --conf "$work/scraper.json" --data "$data" --health-port "$hport" \
    >"$work/scraper.log" 2>&1 &
  scraper_pid=$!
  MANGACIRCUS_ADMIN_PASSWORD=$password MANGACIRCUS_ADMIN_TOKEN=$token java $mc_opts -jar "$jar" reader \
    --cluster --conf "$work/mangacircus.json" --data "$data" --port "$port" >"$log" 2>&1 &
  mc_pid=$!
fi
mc_ready() {
  kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$log" >&2; exit 1; }
  [ -z "$scraper_pid" ] || kill -0 "$scraper_pid" 2>/dev/null || { tail -20 "$work/scraper.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
}
wait_for "MangaCircus /health/ready" 120 mc_ready   # in `pair` mode: the reader ready and the scraper reachable
echo "  MangaCircus: $mode mode$( [ "$mode" = all ] && echo ", pid $mc_pid" || echo ": reader pid $mc_pid, scraper pid $scraper_pid (clustered, loopback)")"
cookie=$(curl -s -f -D - -o /dev/null -H 'Content-Type: application/json' \
  -d "{\"username\":\"admin\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/login" \
  | tr -d '\r' | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')
[ -n "$cookie" ] || { echo "login gave no mc_session cookie" >&2; exit 1; }
first=$(head -1 "$work/reader.paths")
cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$first") "$library/$series/c1/001.jpg" \
  || { echo "the reader does not serve $first as on disk" >&2; exit 1; }

# ---- the console's bridge -----------------------------------------------------------------------------------------
java bench/BridgeListener.java "http://127.0.0.1:$port" "$cookie" >"$work/bridge.out" 2>"$work/bridge.err" &
bridge_pid=$!
bridge_open() { grep -q '^OPEN' "$work/bridge.out" || { kill -0 "$bridge_pid" 2>/dev/null || { cat "$work/bridge.out" "$work/bridge.err" >&2; exit 1; }; false; }; }
wait_for "bridge listener" 60 bridge_open

# ---- wrk ----------------------------------------------------------------------------------------------------------
wrk_run() { # seconds, /usr/bin/time output file -> wrk's output
  PAGES_FILE="$work/reader.paths" PAGES_COOKIE=$cookie /usr/bin/time -f '%U %S' -o "$2" \
    wrk -t "$threads" -c "$connections" -d "${1}s" --latency -s "$bench_dir/pages.lua" "http://127.0.0.1:$port"
}
echo "  wrk: $threads threads, $connections connections, warm-up ${warmup} s, then ${seconds} s without downloads" \
  "(baseline) and ${seconds} s while the scraper publishes"
wrk_run "$warmup" "$work/wrk-warmup.time" >"$work/wrk-warmup.log"
# Baseline: the same wrk run with the bridge open but nothing downloading (the same process, the same moment).
bl0=$(load); bt0=$(ticks "$mc_pid")
wrk_run "$seconds" "$work/wrk-baseline.time" >"$work/wrk-baseline.log"
bt=$(( $(ticks "$mc_pid") - bt0 ))
bline=$(grep '^RESULT ' "$work/wrk-baseline.log") || { cat "$work/wrk-baseline.log" >&2; echo "wrk printed no RESULT" >&2; exit 1; }
read -r _ b_rps b_p50 b_p99 b_per b_non2xx b_errors b_requests <<<"$bline"
per_req() { awk -v t="$1" -v hz="$hz" -v n="$2" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }'; }   # ticks, requests -> us
b_cpu=$(per_req "$bt" "$b_requests")
echo "  baseline, no downloads: $b_requests requests, $b_rps requests/s, p50 $(ms "$b_p50") ms, p99 $(ms "$b_p99") ms," \
  "$b_errors socket errors, $b_non2xx non-2xx/3xx; $( [ "$mode" = all ] && echo MangaCircus || echo "the reader's process") CPU" \
  "$b_cpu us/request; load $bl0 -> $(load)"

# ---- the scraper publishing ---------------------------------------------------------------------------------------
published_dirs() { find "$data/library" -mindepth 3 -maxdepth 3 -name chapter.json -path '*/chapter-*' | wc -l; }
add_title() {
  added=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $token" -X POST -H 'Content-Type: application/json' \
    -d '{"source":"bench","title":"bench","autoConfirm":true}' "http://127.0.0.1:$port/api/admin/jobs")
  [ "$(tail -1 <<<"$added")" = 201 ]
}
added=""
wait_for "adding the title (POST /api/admin/jobs)" 30 add_title || { echo "last answer: $added" >&2; exit 1; }
first_published() { [ "$(published_dirs)" -ge 1 ] || { kill -0 "$mc_pid" 2>/dev/null || exit 1; false; }; }
wait_for "first chapter published" 120 first_published

procs="reader:$mc_pid"; [ "$mode" = all ] && procs="all:$mc_pid" || procs="$procs scraper:$scraper_pid"
snapshot() { # suffix: each process's ticks and thread groups
  local pr; for pr in $procs; do ticks "${pr#*:}" >"$work/ticks-${pr%%:*}.$1"; thread_groups "${pr#*:}" >"$work/threads-${pr%%:*}.$1"; done
}
l0=$(load); b0=$(busy_ticks); snapshot before
p0=$(published_dirs); m0=$(wc -l <"$work/bridge.out")
publ0=$(grep -c '^MSG mc.library.published' "$work/bridge.out" || true)
start=$(date +%s%N)
wrk_run "$seconds" "$work/wrk.time" >"$work/wrk.log"
ns=$(( $(date +%s%N) - start ))
busy=$(( $(busy_ticks) - b0 )); snapshot after
declare -A cpu; c=0
for pr in $procs; do
  cpu[${pr%%:*}]=$(( $(cat "$work/ticks-${pr%%:*}.after") - $(cat "$work/ticks-${pr%%:*}.before") )); c=$(( c + cpu[${pr%%:*}] ))
done
p1=$(published_dirs); m1=$(wc -l <"$work/bridge.out")
publ1=$(grep -c '^MSG mc.library.published' "$work/bridge.out" || true)
l1=$(load)
line=$(grep '^RESULT ' "$work/wrk.log") || { cat "$work/wrk.log" >&2; echo "wrk printed no RESULT" >&2; exit 1; }
read -r _ rps p50 p99 per non2xx errors requests <<<"$line"

# ---- checks and figures -------------------------------------------------------------------------------------------
bridge_alive=yes; kill -0 "$bridge_pid" 2>/dev/null || bridge_alive=no
bridge_problems=$(grep -E -c '^(ERR|CLOSED|FAILED|OTHER)' "$work/bridge.out" || true)
kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$log" >&2; echo "MangaCircus died during the run" >&2; exit 1; }
[ -z "$scraper_pid" ] || kill -0 "$scraper_pid" 2>/dev/null || { tail -20 "$work/scraper.log" >&2; echo "the scraper died during the run" >&2; exit 1; }
secs=$(awk -v ns="$ns" 'BEGIN { printf "%.1f", ns / 1e9 }')
wrk_s=$(awk '{print $1 + $2}' "$work/wrk.time")
cores() { awk -v t="$1" -v hz="$hz" -v ns="$ns" 'BEGIN { printf "%.2f", t / hz / (ns / 1e9) }'; }
cores_mc=$(cores "$c")
others=$(awk -v b="$busy" -v t="$c" -v w="$wrk_s" -v hz="$hz" -v ns="$ns" \
  'BEGIN { o = ((b - t) / hz - w) / (ns / 1e9); printf "%.2f", o < 0 ? 0 : o }')
chapters_run=$(( p1 - p0 )); messages=$(( m1 - m0 )); publ=$(( publ1 - publ0 ))
echo "  measured run: ${secs} s, load $l0 -> $l1, others (neither MangaCircus nor wrk) $others cores"
r_ticks=${cpu[all]:-${cpu[reader]:-0}}
l_cpu=$(per_req "$r_ticks" "$requests")
echo "  reader: $requests requests, $rps requests/s, p50 $(ms "$p50") ms, p99 $(ms "$p99") ms, $per bytes/response," \
  "$errors socket errors, $non2xx non-2xx/3xx; $( [ "$mode" = all ] && echo "MangaCircus CPU (reader and scraper)" || echo "the reader's process CPU")" \
  "$l_cpu us/request (baseline $b_cpu: what serving a page costs apart from the other load on the machine)"
echo "  scraper: $chapters_run chapters published during the run ($(awk -v n="$chapters_run" -v s="$secs" 'BEGIN { printf "%.2f", n / s }')/s;" \
  "$(published_dirs) in all so far)"
echo "  bridge: $messages messages received during the run ($publ library publications, by address over the whole" \
  "connection: $(grep '^MSG ' "$work/bridge.out" | awk '{n[$2]++} END {for (a in n) printf "%s=%d ", a, n[a]}')), open" \
  "throughout: $bridge_alive, error/close frames: $bridge_problems"
for pr in $procs; do
  name=${pr%%:*}
  case "$name" in
    all) what="MangaCircus (one process: reader and scraper; the reader's HTTP and the scraper's lane share its vert.x event loops, page writes and fsyncs run on its workers)" ;;
    reader) what="reader process" ;;
    scraper) what="scraper process" ;;
  esac
  echo "  CPU during the run, $what: $(awk -v t="${cpu[$name]}" -v hz="$hz" 'BEGIN { printf "%.1f", t / hz }') s =" \
    "$(cores "${cpu[$name]}") cores; by thread group (s; thread names as the kernel keeps them, 15 characters):"
  join -a 2 -e 0 -o 0,1.2,2.2 "$work/threads-$name.before" "$work/threads-$name.after" \
    | awk -v hz="$hz" '{d = ($3 - $2) / hz; if (d >= 0.05) printf "%s %.1f\n", $1, d}' | sort -k2 -g -r \
    | awk '{printf "    %-20s %6s s\n", $1, $2}'
done
echo "  wrk: $wrk_s s of CPU"
[ "$bridge_problems" -eq 0 ] || { echo "  bridge frames:"; grep -E '^(ERR|CLOSED|FAILED|OTHER)' "$work/bridge.out" | head -5 | sed 's/^/    /'; }
grep -E ' (WARN|ERROR) ' "$log" | head -5 | sed 's/^/  log: /' || true
[ -z "$scraper_pid" ] || { grep -E ' (WARN|ERROR) ' "$work/scraper.log" | head -5 | sed 's/^/  scraper log: /' || true; }

ok=$( [ "$errors" = 0 ] && [ "$non2xx" = 0 ] && [ "$b_errors" = 0 ] && [ "$b_non2xx" = 0 ] && echo met || echo "NOT met" )
p99ms=$(ms "$p99")
p99ok=$(awk -v v="$p99ms" 'BEGIN { print (v < 50 ? "met" : "NOT met") }')
bridgeok=$( [ "$bridge_alive" = yes ] && [ "$bridge_problems" -eq 0 ] && [ "$messages" -gt 0 ] && echo met || echo "NOT met" )
echo "ROW|R6 load|[$mode] page requests ($connections conns, ${secs} s): errors / non-2xx|$errors / $non2xx of $requests|-|0 / 0|$ok"
echo "ROW|R6 load|[$mode] reader p50 / p99 under load|$(ms "$p50") / $p99ms ms ($rps req/s)|no downloads $(ms "$b_p50") / $(ms "$b_p99") ms ($b_rps req/s)|p99 < 50 ms|$p99ok"
echo "ROW|R6 load|[$mode] chapters published during the run|$chapters_run ($(awk -v n="$chapters_run" -v s="$secs" 'BEGIN { printf "%.2f", n / s }')/s)|-|~1/s|-"
echo "ROW|R6 load|[$mode] bridge messages received (open throughout)|$messages ($publ publications)|-|no disconnect, no error|$bridgeok"
if [ "$mode" = all ]; then
  echo "ROW|R6 load|[$mode] CPU of reader + scraper (all mode, one process)|$cores_mc cores, $l_cpu us/request|no downloads $b_cpu us/request|-|-"
else
  echo "ROW|R6 load|[$mode] CPU of reader / scraper (pair, clustered)|$(cores "${cpu[reader]}") / $(cores "${cpu[scraper]}") cores; reader $l_cpu us/request|reader, no downloads: $b_cpu us/request|-|-"
fi
