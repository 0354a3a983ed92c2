#!/usr/bin/env bash
# Queue at size, what one add costs regardless of the machine's load: MangaCircus (`all`) on a generated
# queue of 10,000 jobs (bench/ScaleQueue.java), 5 warm-up adds, then ADDS sequential `POST /api/admin/jobs`; prints the
# bytes the process wrote per add (/proc/<pid>/io write_bytes: 14 MiB when every add rewrote queue.json, a journal line
# and an events.log line since the journal), its CPU time per add (utime+stime, reader and scraper together), and p50/p99
# of the adds with the load average (these move with load).
# Usage: bench/scale-queue-io.sh [adds=100]   Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh
jar=$(realpath "${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}"); adds=${1:-100}
work=$(mktemp -d)
data=$work/data
java bench/ScaleQueue.java "$data" 10000 0 >/dev/null
closed=$(free_port)
cat >"$work/mc.json" <<J
{"scraper": {"sources": {"bench": {"type": "demo", "baseUrl": "http://127.0.0.1:$closed", "pageDelayMs": 0, "chapterDelayMs": 0}}}}
J
port=$(free_port); hport=$(free_port); token="io-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
MANGACIRCUS_ADMIN_TOKEN=$token java -jar "$jar" all --conf "$work/mc.json" --data "$data" --port "$port" --health-port "$hport" >"$work/log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -rf $work' EXIT
for i in $(seq 1 180); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/admin/jobs?page=1&size=1" || true)" = 200 ] && break; sleep 1; done
sleep 3
for i in 1 2 3 4 5; do curl -s -o /dev/null -H "Authorization: Bearer $token" -H 'Content-Type: application/json' -d "{\"source\":\"bench\",\"title\":\"warm-$i\",\"autoConfirm\":false}" "http://127.0.0.1:$port/api/admin/jobs"; done
wb0=$(awk '/^write_bytes/ {print $2}' /proc/$pid/io); cpu0=$(awk '{print $14+$15}' /proc/$pid/stat)
: > $work/t
for i in $(seq 1 "$adds"); do
  curl -s -o /dev/null -w '%{http_code} %{time_total}\n' -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    -d "{\"source\":\"bench\",\"title\":\"io-add-$i\",\"autoConfirm\":false}" "http://127.0.0.1:$port/api/admin/jobs" >> $work/t
done
wb1=$(awk '/^write_bytes/ {print $2}' /proc/$pid/io); cpu1=$(awk '{print $14+$15}' /proc/$pid/stat)
echo "jar=$jar adds=$adds statuses: $(cut -d' ' -f1 $work/t | sort | uniq -c | tr '\n' ' ')"
echo "write_bytes per add: $(( (wb1 - wb0) / adds )) B; CPU per add: $(( (cpu1 - cpu0) * 10 / adds )) ms (clock ticks 100/s)"
cut -d' ' -f2 $work/t | sort -g | awk '{a[NR]=$1} END {printf "p50 %.1f ms p99 %.1f ms max %.1f ms\n", a[int(NR*0.5+0.5)]*1000, a[int(NR*0.99+0.5)]*1000, a[NR]*1000}'
echo "load $(cut -d' ' -f1-3 /proc/loadavg)"
