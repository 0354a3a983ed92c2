#!/usr/bin/env bash
# A lane's page rate with hanging notification destinations vs none: a destination that never answers must not slow
# the downloads (target: within 5 %). Usage: bench/notify-hang.sh [pages=500] [rounds=2]
#
# Starts the bench site (bench/BenchSite.java) and a "hanging" TCP server that accepts connections and never answers,
# then runs MangaCircus on a fresh data dir per run, alternating two configs, `rounds` times each:
#   none: no notifications configured;
#   hang: ntfy, Gotify and webhook destinations plus a 1 s heartbeat, all pointing at the hanging server
#         (requestTimeoutSeconds 10, dedup off, 3600 messages/hour).
# In both, a second source `dead` points at a closed port and gets a job, so incidents and circuit changes are
# recorded during the download (in `hang` each becomes three deliveries that hang until their timeout).
# Reported: pages/s of the bench lane (POST to job done) per run, the mean per config and the ratio; the machine's
# load average before and after. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-500}
rounds=${2:-2}
per_chapter=$(( pages < 50 ? pages : 50 ))
chapters=$(( (pages + per_chapter - 1) / per_chapter ))
total=$(( chapters * per_chapter ))
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }

work=$(mktemp -d)
site_pid=""; mc_pid=""; hang_pid=""
cleanup() {
  for p in "$mc_pid" "$site_pid" "$hang_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$mc_pid" "$site_pid" "$hang_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ns() { date +%s%N; }
. bench/lib.sh

echo "machine: $(nproc) cores, load average before: $(cut -d' ' -f1-3 /proc/loadavg)"

site="$work/site"; mkdir -p "$site"
java -Xmx512m bench/BenchSite.java 0 "$per_chapter" "$chapters" "$site" >"$work/site.out" 2>"$work/site.err" &
site_pid=$!
site_up() { grep -q '^READY ' "$work/site.out" || { kill -0 "$site_pid" 2>/dev/null || { cat "$work/site.err" >&2; exit 1; }; false; }; }
wait_for "bench site" 120 site_up
base_url=$(awk '/^READY / {print $2; exit}' "$work/site.out")

hang_port=$(free_port)
python3 - "$hang_port" >"$work/hang.out" 2>&1 <<'PY' &
import socket, sys, threading
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(512)
held = []
print("READY", flush=True)
while True:
    c, _ = s.accept(); held.append(c)   # read nothing, answer nothing, close nothing
PY
hang_pid=$!
wait_for "hanging server" 30 grep -q READY "$work/hang.out"
dead_port=$(free_port)   # nobody listens here

run() { # config name -> prints pages/s
  local name=$1 data="$work/data-$1-$2" port hport token notifications
  port=$(free_port); hport=$(free_port)
  token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  notifications='{}'
  if [ "$name" = hang ]; then
    local h="http://127.0.0.1:$hang_port"
    notifications='{"dedupMinutes": 0, "requestTimeoutSeconds": 10, "heartbeat": {"url": "'$h'/ping", "intervalSeconds": 1},
      "destinations": [
        {"name": "n", "type": "ntfy", "url": "'$h'", "topic": "t", "maxPerHour": 3600},
        {"name": "g", "type": "gotify", "url": "'$h'", "token": "x", "maxPerHour": 3600},
        {"name": "w", "type": "webhook", "url": "'$h'/hook", "maxPerHour": 3600}]}'
  fi
  cat >"$work/$name.json" <<JSON
{"notifications": $notifications,
 "scraper": {"claimPollMs": 50, "failures": {"retryWaitSeconds": 1, "requestRetries": 0, "retryBackoffMs": 1,
   "circuitMaxFailures": 1, "circuitOpenSeconds": 1},
   "sources": {"bench": {"type": "demo", "baseUrl": "$base_url", "pageDelayMs": 0, "chapterDelayMs": 0},
               "dead": {"type": "demo", "baseUrl": "http://127.0.0.1:$dead_port", "pageDelayMs": 0, "chapterDelayMs": 0}}}}
JSON
  MANGACIRCUS_ADMIN_TOKEN=$token java -jar "$jar" all --conf "$work/$name.json" --data "$data" \
    --port "$port" --health-port "$hport" >"$work/$name-$2.log" 2>&1 &
  mc_pid=$!
  mc_ready() {
    kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/$name-$2.log" >&2; exit 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
  }
  wait_for "MangaCircus /health/ready" 120 mc_ready
  api() { curl -s -f -H "Authorization: Bearer $token" "$@"; }
  api -o /dev/null -X POST -H 'Content-Type: application/json' \
    -d '{"source":"dead","title":"nowhere","autoConfirm":true}' "http://127.0.0.1:$port/api/admin/jobs"
  local start; start=$(now_ns)
  local id
  id=$(api -X POST -H 'Content-Type: application/json' -d '{"source":"bench","title":"bench","autoConfirm":true}' \
    "http://127.0.0.1:$port/api/admin/jobs" | grep -o '"id":"[^"]*"' | head -1 | cut -d'"' -f4)
  local deadline=$(( $(date +%s) + 600 + total / 2 ))
  while :; do
    state=$({ api "http://127.0.0.1:$port/api/admin/jobs" || true; } | python3 -c '
import json, sys
jobs = json.load(sys.stdin)["jobs"]
print(next(j["state"] for j in jobs if j["id"] == sys.argv[1]))' "$id" 2>/dev/null || true)
    [ "$state" = done ] && break
    [ "$(date +%s)" -lt "$deadline" ] || { echo "job not done in time (state $state)" >&2; exit 1; }
    sleep 0.1
  done
  local ns=$(( $(now_ns) - start ))
  local incidents notified
  incidents=$({ api "http://127.0.0.1:$port/api/admin/incidents" || true; } | grep -o '"kind"' | wc -l)
  notified=$(grep -c '\[NOTIFY\] delivery to' "$work/$name-$2.log" || true)
  kill -TERM "$mc_pid"; local stop0; stop0=$(now_ns); wait "$mc_pid" || true; mc_pid=""
  local stop_ms=$(( ($(now_ns) - stop0) / 1000000 ))
  awk -v n="$total" -v ns="$ns" -v name="$name" -v inc="$incidents" -v fail="$notified" -v stop="$stop_ms" \
    'BEGIN { printf "%-5s %7.1f pages/s  (%d pages in %.2f s; %d incidents recorded, %d failed deliveries logged; SIGTERM to exit %d ms)\n", name, n / (ns / 1e9), n, ns / 1e9, inc, fail, stop }' >&2
  awk -v n="$total" -v ns="$ns" 'BEGIN { printf "%.3f\n", n / (ns / 1e9) }'
}

declare -a none_rates hang_rates
for r in $(seq 1 "$rounds"); do
  none_rates+=("$(run none "$r")")
  hang_rates+=("$(run hang "$r")")
done
mean() { printf '%s\n' "$@" | awk '{ s += $1 } END { printf "%.1f", s / NR }'; }
none_mean=$(mean "${none_rates[@]}"); hang_mean=$(mean "${hang_rates[@]}")
echo "pages per run: $total ($chapters chapters x $per_chapter); rounds: $rounds (alternating none, hang)"
echo "mean none: $none_mean pages/s; mean hang: $hang_mean pages/s; hang/none = $(awk -v h="$hang_mean" -v n="$none_mean" 'BEGIN { printf "%.3f", h / n }') (issue target: within 5 %)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
