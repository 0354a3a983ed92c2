#!/usr/bin/env bash
# P6, the clustered event bus: request/reply ping reader -> scraper (PingRequest to mc.scraper.ping, the scraper's own
# handler) over Hazelcast on loopback, against the same in one JVM.
# Usage: bench/scale-bus.sh [requests=10000] [warmups=5000,50000]
#
# Steps (bench/BusPing.java does the sending, with the fat jar on its class path):
# - one JVM: BusPing builds `all` mode exactly as `mangacircus.jar all` does (VertxFactory, LaunchPlan.standard,
#   LauncherVerticle: the reader and the scraper on the local event bus), then, for each count in `warmups`, sends
#   unmeasured pings until that many were sent and then `requests` measured ones, one at a time from one event-loop
#   context (as the reader's routes send), each timed from send to reply. Two windows, so one run shows the same JVMs
#   early (the JIT still compiling the path in both) and settled.
# - clustered: the scraper as its own process (`mangacircus.jar scraper --cluster`), and BusPing as the reader
#   (`reader --cluster` built the same way in its JVM), both with a config naming a fresh cluster name, a free
#   cluster port each and both members on 127.0.0.1 (how docs/deploy.md's pair is configured, on loopback); BusPing
#   waits until the scraper answers, then the same windows.
# Prints p50/p90/p99/p99.9/max per window and the outside load, then ROW lines (docs: bench/scale.sh). Target:
# clustered p99 < 2 ms, judged on the last (settled) window; the early window is printed beside it. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. Scratch: a fresh `mktemp -d`, KEEP_WORK=1 keeps it.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: bench/scale-bus.sh [requests=10000] [warmups=5000,50000]" >&2; exit 2; }
requests=${1:-10000}
warmups=${2:-5000,50000}
[[ "$requests" =~ ^[0-9]+$ ]] && [ "$requests" -ge 1 ] || usage
[[ "$warmups" =~ ^[0-9]+(,[0-9]+)*$ ]] || usage
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }

work=$(mktemp -d)
scraper_pid=""; ping_pid=""
cleanup() {
  for p in "$ping_pid" "$scraper_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$ping_pid" "$scraper_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/scale-bus.sh: stopped at line $LINENO: $BASH_COMMAND" >&2' ERR

. bench/lib.sh
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

load() { cut -d' ' -f1-3 /proc/loadavg; }
field() { sed -E "s/.* $1=([^ ]+).*/\\1/" <<<"$2"; }
ms() { awk -v us="$1" 'BEGIN { printf "%.3f", us / 1000 }'; }

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "  $requests measured pings per window, windows once $warmups pings were sent, one outstanding at a time"

# label, BusPing mode, conf file, data dir -> sets first[label] and last[label] (the first and last window's PING line)
declare -A first last
ping_run() {
  local label=$1 mode=$2 conf=$3 data=$4 out="$work/ping-$1.out" before l after
  mkdir -p "$data"
  before=$(load)
  MANGACIRCUS_ADMIN_PASSWORD="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" \
    java $mc_jvm_opts -cp "$jar" bench/BusPing.java "$mode" "$conf" "$data" "$(free_port)" "$requests" "$warmups" \
    >"$out" 2>"$work/ping-$label.err" &
  ping_pid=$!
  local rc=0; wait "$ping_pid" || rc=$?; ping_pid=""
  first[$label]=$(grep '^PING ' "$out" | head -1 || true)
  last[$label]=$(grep '^PING ' "$out" | tail -1 || true)
  if [ "$rc" -ne 0 ] || [ -z "${last[$label]}" ]; then
    tail -30 "$work/ping-$label.err" >&2; cat "$out" >&2
    echo "$label: BusPing failed (exit $rc)" >&2; exit 1
  fi
  echo "  $label (outside load $before -> $(load)):"
  while read -r l; do
    after=$(field after "$l")
    printf '    after %6s pings: p50 %s ms, p90 %s ms, p99 %s ms, p99.9 %s ms, max %s ms, mean %s ms; %s pings/s, sender JVM CPU %s ms\n' \
      "$after" "$(ms "$(field p50_us "$l")")" "$(ms "$(field p90_us "$l")")" "$(ms "$(field p99_us "$l")")" \
      "$(ms "$(field p999_us "$l")")" "$(ms "$(field max_us "$l")")" "$(ms "$(field mean_us "$l")")" \
      "$(field rate "$l")" "$(field cpu_ms "$l")"
    echo "      sender JVM CPU by thread:$(grep "^THREADS after=$after " "$out" | cut -d' ' -f3-)"
  done < <(grep '^PING ' "$out")
}

# ---- one JVM ------------------------------------------------------------------------------------------------------
echo '{}' >"$work/local.json"
ping_run "one JVM" local "$work/local.json" "$work/data-local"

# ---- the pair on loopback -----------------------------------------------------------------------------------------
cluster_name="mc-bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
scraper_cport=$(free_port); reader_cport=$(free_port)
members="\"127.0.0.1:$scraper_cport\", \"127.0.0.1:$reader_cport\""
echo "{\"cluster\": {\"name\": \"$cluster_name\", \"port\": $scraper_cport, \"members\": [$members]}}" >"$work/scraper.json"
echo "{\"cluster\": {\"name\": \"$cluster_name\", \"port\": $reader_cport, \"members\": [$members]}}" >"$work/reader.json"
hport=$(free_port)
java $mc_opts -jar "$jar" scraper --cluster --conf "$work/scraper.json" --data "$work/data-pair" \
  --health-port "$hport" >"$work/scraper.log" 2>&1 &
scraper_pid=$!
scraper_up() {
  kill -0 "$scraper_pid" 2>/dev/null || { tail -20 "$work/scraper.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$hport/health/ready" || true)" = 200 ]
}
wait_for "scraper /health/ready" 120 scraper_up
echo "  pair: scraper pid $scraper_pid (cluster port $scraper_cport), reader = BusPing's JVM (cluster port $reader_cport)"
ping_run clustered cluster "$work/reader.json" "$work/data-pair"
grep -q 'Members {size:2' "$work/scraper.log" || echo "  (note: the scraper's log shows no two-member view)"
kill -TERM "$scraper_pid"; wait "$scraper_pid" 2>/dev/null || true; scraper_pid=""

# ---- rows ---------------------------------------------------------------------------------------------------------
window() { echo "$(ms "$(field p50_us "$1")") / $(ms "$(field p99_us "$1")") ms"; }
l1=${last["one JVM"]}; early=${first[clustered]}; l2=${last[clustered]}
p99=$(ms "$(field p99_us "$l2")")
verdict=$(awk -v v="$p99" 'BEGIN { print (v < 2 ? "met" : "NOT met") }')
echo "  load average at the end: $(load) on $(nproc) cores"
echo "ROW|P6 event bus|ping reader->scraper in one JVM ($requests after $(field after "$l1")), p50 / p99|$(window "$l1")|-|-|-"
echo "ROW|P6 event bus|ping reader->scraper clustered, Hazelcast loopback ($requests after $(field after "$l2")), p50 / p99|$(window "$l2") (after $(field after "$early"): $(window "$early"))|one JVM $(window "$l1")|p99 < 2 ms|$verdict"
