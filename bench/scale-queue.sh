#!/usr/bin/env bash
# Queue at size: the admin jobs list, paged, and adding a job, with a queue of JOBS jobs in mixed states
# (bench/ScaleQueue.java; no open chapters, the source's lane saved paused, the source at a closed loopback port).
# Usage: bench/scale-queue.sh [jobs=10000] [requests=500] [adds=200]
#
# MangaCircus (`all`, with an admin bearer token) starts on that queue; once /health/ready answers:
#   paged list: REQUESTS sequential `GET /api/admin/jobs?page=P&size=50` (P spread over the queue; every 4th with a
#     ?state= filter) after 50 warm-up requests; p50 and p99 of curl's time_total (one keep-alive-less request each,
#     the connection set-up included). Target p99 < 50 ms. Baseline: the unpaged list (every job, as before paging),
#     median of 5.
#   add: ADDS sequential `POST /api/admin/jobs` of new titles; p50 and p99. Target p99 < 20 ms. Each add is durable
#     when it is answered (its queue.json.journal line appended and fdatasynced, its events.log line appended; before
#     the journal, the whole queue.json was rewritten and fsynced).
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. KEEP_WORK=1 keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

jobs=${1:-10000}
requests=${2:-500}
adds=${3:-200}
jar=$(realpath "${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}")
[ -f "$jar" ] || { echo "no jar at $jar (build: mvn -B -q package -DskipTests)" >&2; exit 1; }
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

work=$(mktemp -d)
mc_pid=""
cleanup() {
  if [ -n "$mc_pid" ] && kill -0 "$mc_pid" 2>/dev/null; then kill "$mc_pid" 2>/dev/null || true; wait "$mc_pid" 2>/dev/null || true; fi
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "  work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
load() { cut -d' ' -f1-3 /proc/loadavg; }
row() { echo "ROW|Queue at size|$1|$2|$3|$4|$5"; }

data="$work/data"
gen=$(java bench/ScaleQueue.java "$data" "$jobs" 0)
echo "  generated: $gen"

closed=$(free_port)
cat >"$work/mangacircus.json" <<EOF
{"scraper": {"sources": {"bench": {"type": "demo", "baseUrl": "http://127.0.0.1:$closed", "pageDelayMs": 0,
  "chapterDelayMs": 0}}}}
EOF
port=$(free_port); hport=$(free_port)
token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"   # the admin bearer token (no session, no CSRF)
MANGACIRCUS_ADMIN_TOKEN=$token java $mc_opts -jar "$jar" all --conf "$work/mangacircus.json" \
  --data "$data" --port "$port" --health-port "$hport" >"$work/mangacircus.log" 2>&1 &
mc_pid=$!
mc_ready() {
  kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/mangacircus.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
}
wait_for "MangaCircus /health/ready" 180 mc_ready
base="http://127.0.0.1:$port"

# One timed request: prints "status seconds".
timed() { curl -s -o "$work/body" -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $token" "$@"; }
# p50 and p99 in ms of the seconds in file $1
percentiles() { sort -g "$1" | awk '{a[NR]=$1} END { i50 = int(NR * 0.50 + 0.5); i99 = int(NR * 0.99 + 0.5);
  if (i50 < 1) i50 = 1; if (i99 < 1) i99 = 1; printf "%.1f %.1f\n", a[i50] * 1000, a[i99] * 1000 }'; }

# /health/ready can answer before the scraper's operator requests are registered (its ping is answered first).
list_answers() { [ "$(timed "$base/api/admin/jobs?page=1&size=1" | cut -d' ' -f1)" = 200 ]; }
wait_for "the paged jobs list" 60 list_answers
echo "  queue: $(sed -n 's/.*"total":\([0-9]*\).*/\1/p' "$work/body") jobs, $(( $(stat -c %s "$data/scraper/queue.json") / 1024 / 1024 )) MiB queue.json"

# Baseline: every job in one answer (the list before paging)
# (a long queue may not be answered within reader.scraperRequestTimeoutMs: then the answer is 503, which is said)
: >"$work/unpaged"; unpaged_statuses=""
for i in 1 2 3 4 5; do
  read -r status secs < <(timed "$base/api/admin/jobs")
  unpaged_statuses="$unpaged_statuses $status"
  echo "$secs" >>"$work/unpaged"
done
unpaged_bytes=$(stat -c %s "$work/body")
unpaged_ms=$(median <"$work/unpaged" | awk '{printf "%.0f", $1 * 1000}')
if [ "$(echo $unpaged_statuses | tr ' ' '\n' | grep -vcx 200 || true)" = 0 ]; then unpaged_ms="$unpaged_ms ms"
else unpaged_ms="$unpaged_ms ms (HTTP$unpaged_statuses)"; fi

pages=$(( (jobs + 49) / 50 ))
states=(pending ready active paused retry_wait unavailable quarantined done)
paged_url() { # i -> a page URL
  if [ $(( $1 % 4 )) = 3 ]; then echo "$base/api/admin/jobs?state=${states[$(( $1 % 8 ))]}&page=$(( $1 % 20 + 1 ))&size=50"
  else echo "$base/api/admin/jobs?page=$(( ($1 * 7919) % pages + 1 ))&size=50"; fi
}
for i in $(seq 1 50); do timed "$(paged_url "$i")" >/dev/null; done
load_get=$(load)
: >"$work/paged"
for i in $(seq 1 "$requests"); do
  read -r status secs < <(timed "$(paged_url "$i")")
  [ "$status" = 200 ] || { echo "GET $(paged_url "$i") answered $status: $(cat "$work/body")" >&2; exit 1; }
  echo "$secs" >>"$work/paged"
done
page_bytes=$(stat -c %s "$work/body")
read -r get_p50 get_p99 < <(percentiles "$work/paged")
echo "  paged GET: $requests requests, p50 $get_p50 ms, p99 $get_p99 ms (a page ~$((page_bytes / 1024)) KiB); unpaged GET of every job:" \
  "median $unpaged_ms, $((unpaged_bytes / 1024)) KiB (load $load_get -> $(load))"

load_add=$(load)
: >"$work/adds"
for i in $(seq 1 "$adds"); do
  read -r status secs < <(timed -H 'Content-Type: application/json' \
    -d "{\"source\":\"bench\",\"title\":\"scale-add-$i\",\"autoConfirm\":false}" "$base/api/admin/jobs")
  [ "$status" = 201 ] || { echo "POST answered $status: $(cat "$work/body")" >&2; exit 1; }
  echo "$secs" >>"$work/adds"
done
read -r add_p50 add_p99 < <(percentiles "$work/adds")
echo "  add (POST): $adds requests, p50 $add_p50 ms, p99 $add_p99 ms, queue.json now" \
  "$(( $(stat -c %s "$data/scraper/queue.json") / 1024 / 1024 )) MiB (load $load_add -> $(load))"

met() { awk -v v="$1" -v t="$2" 'BEGIN { print (v < t ? "met" : "NOT met") }'; }
row "GET /api/admin/jobs?page=&size=50 p99 ($jobs jobs; p50 $get_p50 ms)" "$get_p99 ms" "unpaged $unpaged_ms" "< 50 ms" \
  "$(met "$get_p99" 50)"
row "POST /api/admin/jobs p99 ($jobs jobs; p50 $add_p50 ms)" "$add_p99 ms" "-" "< 20 ms" "$(met "$add_p99" 20)"
