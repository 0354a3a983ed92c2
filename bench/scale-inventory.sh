#!/usr/bin/env bash
# P3 inventory at scale and the reader's responsiveness during a scan.
# Usage: bench/scale-inventory.sh [series=10000] [chapters=10] [pages=4]
#
# Steps: write a synthetic library of series x chapters chapters (bench/ScaleLibrary.java: as the scraper publishes
# it, each chapter a valid chapter.json and `pages` page files hard-linked to a few small real JPEGs) in a fresh data
# folder; time `find data/library -name chapter.json | xargs cat > /dev/null` on it (once to warm the caches, then
# BASELINE_RUNS times, median). Then start the reader alone (`reader` mode, as the README starts it: bin/mangacircus's
# JVM options, MC_LAUNCH=jar plain java -jar; the inventory and its memory are the reader's; in `all` mode the
# scraper's first start reads every chapter.json too, to seed its follows, at the same time; SCALE_MODE=all measures that) on that data folder without any kept
# inventory (data/library-inventory.json absent) and measure (in reader mode /health/ready answers 503, as no scraper
# answers its ping: that answer is what is timed):
#   (a) cold start: from launching the JVM to the first complete `GET /api/series` answer (every series listed,
#       not partial), polled about every 250 ms with curl after logging in as admin (MANGACIRCUS_ADMIN_PASSWORD);
#   (b) full rescan: `POST /api/admin/library/rescan` (it answers when the scan is done), RESCANS times, median;
#   (c) the process's RSS with this library: the peak (VmHWM) over the whole run, and VmRSS once idle again (the
#       launcher gives memory back after 10 s idle; docs/operations.md#memory), read up to 30 s after the last scan;
#   (d) while RESCANS more rescans run back to back: p50/p99 of `GET /api/series?page=1`, one page image and
#       `/health/ready`, each request timed by a small JDK client (ScaleLibrary.java probe) going round-robin, one
#       request at a time, after 100 rounds of warm-up;
#   (e) a restart (SIGTERM, then the same command) with the inventory the first run kept
#       (data/library-inventory.json): from launching the JVM to the first `GET /api/series` answer that lists every
#       series and is not partial (the kept inventory, served while the scan that checks it runs), and to the end of
#       that check (libraryStatus no longer "refreshing"). Every restart after the first start is this case.
# (a) and (b) are compared with find's time; both run with warm caches (this script never drops the caches: that
# needs root on the host, /proc/sys/vm/drop_caches is read-only in a container).
# Prints the machine line, each figure with the load (`uptime`'s load averages), and one ROW| line per measured row.
# Loopback only; every process started here is stopped again. Jar: $MANGACIRCUS_JAR, default
# launcher/target/mangacircus.jar. Scratch space: a fresh `mktemp -d` (honours TMPDIR; about 1 KB of manifests and
# folders per chapter, the page bytes are hard links); KEEP_WORK=1 keeps it. RESCANS (default 3), BASELINE_RUNS
# (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."

series=${1:-10000}
chapters=${2:-10}
pages=${3:-4}
for n in "$series" "$chapters" "$pages"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || { echo "usage: bench/scale-inventory.sh [series=10000] [chapters=10] [pages=4]" >&2; exit 2; }
done
rescans=${RESCANS:-3}
mode=${SCALE_MODE:-reader}
case "$mode" in all|reader) ;; *) echo "SCALE_MODE is all or reader" >&2; exit 2 ;; esac
baseline_runs=${BASELINE_RUNS:-3}
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }

work=$(mktemp -d)
mc_pid=""; probe_pid=""
cleanup() {
  for p in "$probe_pid" "$mc_pid"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for p in "$probe_pid" "$mc_pid"; do [ -n "$p" ] && wait "$p" 2>/dev/null || true; done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh   # free_port, wait_for, median
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

load() { awk '{print $1, $2, $3}' /proc/loadavg; }
now_ms() { date +%s%3N; }
secs() { awk -v ms="$1" 'BEGIN { printf "%.2f", ms / 1000 }'; }
verdict() { # figure limit: "met (r x)" when figure <= limit * 1.5 ... generic: $1 value, $2 limit, $3 ratio text
  awk -v v="$1" -v l="$2" -v r="$3" 'BEGIN { print (v <= l ? "met" : "NOT met") (r == "" ? "" : " (" r ")") }'
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "  work dir on $(df -T "$work" | awk 'NR==2 {print $2}'); load $(load)"

# ---- library ----------------------------------------------------------------------------------------------------
data="$work/data"
out=$(java bench/ScaleLibrary.java library "$data" "$series" "$chapters" "$pages")
read -r _ n_series n_chapters n_pages gen_s <<<"$(grep '^LIBRARY ' <<<"$out")"
echo "library: $n_series series x $chapters chapters = $n_chapters chapters, $n_pages page files (hard links), written in $gen_s s (load $(load))"

# ---- baseline: find + cat of every manifest -----------------------------------------------------------------------
baseline() { find "$data/library" -name chapter.json -print0 | xargs -0 cat >/dev/null; }
baseline   # warms the caches
runs=(); cpus=()
for _ in $(seq 1 "$baseline_runs"); do
  t0=$(now_ms)
  /usr/bin/time -f '%U %S' -o "$work/find.time" bash -c "$(declare -f baseline); data='$data'; baseline"
  runs+=("$(( $(now_ms) - t0 ))"); cpus+=("$(awk '{printf "%.0f", ($1 + $2) * 1000}' "$work/find.time")")
done
find_ms=$(printf '%s\n' "${runs[@]}" | median)
find_cpu_ms=$(printf '%s\n' "${cpus[@]}" | median)
echo "  find+cat of every chapter.json (warm caches): runs ${runs[*]} ms, median $find_ms ms; CPU (user+sys) median $find_cpu_ms ms (load $(load))"
if [ -w /proc/sys/vm/drop_caches ]; then
  echo "  (drop_caches is writable here, but this script compares warm caches only)"
else
  echo "  (caches cannot be dropped here: /proc/sys/vm/drop_caches is read-only; both sides run with warm caches)"
fi

# ---- (a) cold start to the first complete /api/series ------------------------------------------------------------
port=$(free_port); hport=$(free_port)
password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
echo '{}' >"$work/mangacircus.json"
[ ! -e "$data/library-inventory.json" ] || { echo "a kept inventory exists before the cold start" >&2; exit 1; }
base="http://127.0.0.1:$port"
launch() { # log file: starts the reader (or all) on $data, sets mc_pid and t0
  t0=$(now_ms)
  MANGACIRCUS_ADMIN_PASSWORD=$password java $mc_opts -jar "$jar" "$mode" --conf "$work/mangacircus.json" \
    --data "$data" --port "$port" --health-port "$hport" >"$1" 2>&1 &
  mc_pid=$!
}
launch "$work/reader.log"
logged_in() {
  kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/reader.log" >&2; exit 1; }
  curl -s -f -D "$work/login.headers" -o "$work/login.json" -H 'Content-Type: application/json' \
    -d "{\"username\":\"admin\",\"password\":\"$password\"}" "$base/api/login" >/dev/null 2>&1
}
wait_for "reader login" 120 logged_in
login_ms=$(( $(now_ms) - t0 ))
cookie=$(tr -d '\r' <"$work/login.headers" | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')
csrf=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["csrfToken"])' "$work/login.json")
[ -n "$cookie" ] && [ -n "$csrf" ] || { echo "login gave no session" >&2; exit 1; }
first_answer_ms=""
complete() { # the answer lists every series and is not partial (curl and grep only: light on the CPU it measures)
  curl -s -f -o "$work/series.json" -H "Cookie: $cookie" "$base/api/series?page=1&size=1" || { sleep 0.2; return 1; }
  [ -n "$first_answer_ms" ] || first_answer_ms=$(( $(now_ms) - t0 ))
  grep -q '"partial":false' "$work/series.json" && grep -q "\"total\":$n_series," "$work/series.json" \
    && ! grep -q '"libraryStatus":"refreshing"' "$work/series.json" || { sleep 0.2; return 1; }
}
wait_for "a complete /api/series" 170 complete
cold_ms=$(( $(now_ms) - t0 ))
cold_cpu_ms=$(( $(awk '{print $14 + $15}' "/proc/$mc_pid/stat") * 1000 / $(getconf CLK_TCK) ))
echo "  (a) cold start ($mode mode, no kept inventory): logged in after $(secs "$login_ms") s, first /api/series answer after $(secs "$first_answer_ms") s, first complete one after $(secs "$cold_ms") s (load $(load))"
echo "      CPU of the JVM from its start to that answer (start-up, scan, JIT, GC): $cold_cpu_ms ms = $(awk -v a="$cold_cpu_ms" -v b="$find_cpu_ms" 'BEGIN { printf "%.2fx", a / b }') find+cat's CPU"
ratio=$(awk -v a="$cold_ms" -v b="$find_ms" 'BEGIN { printf "%.2fx", a / b }')
echo "ROW|P3 inventory|cold start to first complete /api/series ($mode mode)|$(secs "$cold_ms") s|find+cat $(secs "$find_ms") s|<= 1.5x find|$(verdict "$cold_ms" "$(( find_ms * 3 / 2 ))" "$ratio")"

# ---- (b) full rescans ---------------------------------------------------------------------------------------------
ticks() { awk '{print $14 + $15}' "/proc/$mc_pid/stat"; }
rescan() { # prints the milliseconds the rescan took and the CPU milliseconds the whole process used meanwhile
  local t c; t=$(now_ms); c=$(ticks)
  curl -s -f -o "$work/rescan.json" -X POST -H "Cookie: $cookie" -H "X-CSRF-Token: $csrf" "$base/api/admin/library/rescan" \
    || { echo "the rescan failed: $(cat "$work/rescan.json" 2>/dev/null)" >&2; exit 1; }
  echo "$(( $(now_ms) - t )) $(( ($(ticks) - c) * 1000 / $(getconf CLK_TCK) ))"
}
runs=(); cpus=()
for _ in $(seq 1 "$rescans"); do read -r ms cpu <<<"$(rescan)"; runs+=("$ms"); cpus+=("$cpu"); done
rescan_ms=$(printf '%s\n' "${runs[@]}" | median)
rescan_cpu_ms=$(printf '%s\n' "${cpus[@]}" | median)
echo "  (b) full rescan (POST /api/admin/library/rescan): runs ${runs[*]} ms, median $rescan_ms ms; answer $(cat "$work/rescan.json") (load $(load))"
echo "      CPU of the whole JVM per rescan (scan, GC, JIT): ${cpus[*]} ms, median $rescan_cpu_ms ms = $(awk -v a="$rescan_cpu_ms" -v b="$find_cpu_ms" 'BEGIN { printf "%.2fx", a / b }') find+cat's CPU (a figure the outside load moves less than wall time)"
ratio=$(awk -v a="$rescan_ms" -v b="$find_ms" 'BEGIN { printf "%.2fx", a / b }')
echo "ROW|P3 inventory|full rescan|$(secs "$rescan_ms") s|find+cat $(secs "$find_ms") s|<= 1.5x find|$(verdict "$rescan_ms" "$(( find_ms * 3 / 2 ))" "$ratio")"

# ---- (d) responsiveness while rescans run -------------------------------------------------------------------------
folders=("$data"/library/*/)   # a glob, not `ls | head` (whose SIGPIPE would stop this script under pipefail)
page_path="/api/series/$(basename "${folders[0]}")/chapters/chapter-0001/pages/1"
paths=("/api/series?page=1" "$page_path" "/health/ready")
PROBE_HEALTH_503=$([ "$mode" = reader ] && echo 1 || echo 0) java bench/ScaleLibrary.java probe "$base" "$cookie" "$work/probe.stop" "${paths[@]}" >"$work/probe.out" 2>"$work/probe.err" &
probe_pid=$!
probe_ready() { grep -q '^READY' "$work/probe.out" || { kill -0 "$probe_pid" 2>/dev/null || { cat "$work/probe.err" >&2; exit 1; }; false; }; }
wait_for "probe warm-up" 120 probe_ready
runs=()
for _ in $(seq 1 "$rescans"); do read -r ms _ <<<"$(rescan)"; runs+=("$ms"); done
touch "$work/probe.stop"
wait "$probe_pid"; probe_pid=""
echo "  (d) while $rescans rescans ran back to back (${runs[*]} ms), one request at a time, round-robin (load $(load)):"
while read -r _ path count errors p50 p99 max; do
  echo "      $path: $count requests, $errors errors, p50 $p50 ms, p99 $p99 ms, max $max ms"
  ok=$(awk -v p="$p99" -v e="$errors" 'BEGIN { print (p < 100 && e == 0) ? "met" : "NOT met" }')
  echo "ROW|responsiveness during rescan|GET $path p99 ($count requests, $errors errors)|$p99 ms|-|< 100 ms p99|$ok"
done < <(grep '^PROBE ' "$work/probe.out")

# ---- (c) memory ---------------------------------------------------------------------------------------------------
hwm=$(awk '/^VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$mc_pid/status")
rss=$(awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$mc_pid/status")
heap=$(heap_mib "$mc_pid")
echo "  (c) $mode mode with $n_chapters chapters right after $(( rescans * 2 )) rescans: RSS $rss MiB, peak (VmHWM) $hwm MiB, heap used/committed ${heap:-?} MiB (load $(load))"
idle_rss() { awk '/^VmRSS/ {printf "%.0f", $2 / 1024}' "/proc/$mc_pid/status"; }
settled=$rss
for _ in $(seq 1 30); do
  sleep 1   # the idle collection runs after 10 s idle: read RSS each second until it drops, at most 30 s
  settled=$(idle_rss)
  [ "$settled" -lt $(( rss * 3 / 4 )) ] && break
done
heap=$(heap_mib "$mc_pid")
echo "      idle again: RSS $settled MiB, heap used/committed ${heap:-?} MiB (load $(load))"
echo "ROW|P3 inventory|$mode RSS with $n_chapters chapters, peak during scans|$hwm MB|-|<= 250 MB|$(verdict "$hwm" 250 "")"
echo "ROW|P3 inventory|$mode RSS with $n_chapters chapters, idle after scans|$settled MB|-|<= 250 MB|$(verdict "$settled" 250 "")"

# ---- (e) a restart with the kept inventory ------------------------------------------------------------------------
kill "$mc_pid"; wait "$mc_pid" 2>/dev/null || true; mc_pid=""
[ -s "$data/library-inventory.json" ] || { echo "no kept inventory after a clean stop" >&2; exit 1; }
launch "$work/restart.log"
wait_for "reader login after the restart" 120 logged_in
cookie=$(tr -d '\r' <"$work/login.headers" | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')
listed_ms=""
checked() { # the answer lists every series, not partial; the first such answer is timed, then the end of the check
  curl -s -f -o "$work/series.json" -H "Cookie: $cookie" "$base/api/series?page=1&size=1" || { sleep 0.2; return 1; }
  grep -q '"partial":false' "$work/series.json" && grep -q "\"total\":$n_series," "$work/series.json" \
    || { sleep 0.2; return 1; }
  [ -n "$listed_ms" ] || listed_ms=$(( $(now_ms) - t0 ))
  ! grep -q '"libraryStatus":"refreshing"' "$work/series.json" || { sleep 0.2; return 1; }
}
wait_for "the kept inventory checked" 170 checked
checked_ms=$(( $(now_ms) - t0 ))
echo "  (e) restart with the kept inventory: every series listed after $(secs "$listed_ms") s, the check scan done after $(secs "$checked_ms") s (load $(load))"
echo "ROW|P3 inventory|restart with the kept inventory: every series listed / check done|$(secs "$listed_ms") / $(secs "$checked_ms") s|find+cat $(secs "$find_ms") s|-|-"
