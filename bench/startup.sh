#!/usr/bin/env bash
# Measures start-up of the runnable jar on this machine (JVM options as bin/mangacircus gives them): time from `java` to /health/ready 200 in
# `all` mode and for the clustered pair (started one after the other, and both at once), idle RSS of each
# process, and the jar size; beside `all`, alternating with it, the floor: a bare Vert.x Web server from the same jar
# (bench/BareServer.java) to its first 200. Loopback only; every process it starts is stopped again.
# Usage: bench/startup.sh [runs]   (build first: mvn -B -q package -DskipTests)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
jar=launcher/target/mangacircus.jar
[ -f "$jar" ] || { echo "build the jar first: mvn -B -q package -DskipTests" >&2; exit 2; }
work=$(mktemp -d)
. bench/lib.sh
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)
pids=()
cleanup() { for p in "${pids[@]:-}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
now_ms() { date +%s%3N; }
wait_ready() { # port, limit seconds
  local deadline=$(( $(now_ms) + $2 * 1000 ))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$1/health/ready" || true)" = 200 ]; do
    [ "$(now_ms)" -lt "$deadline" ] || { echo "not ready within $2 s" >&2; return 1; }
    sleep 0.05
  done
}
rss_kib() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
stop() { kill "$1"; wait "$1" 2>/dev/null || true; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : int((a[NR/2]+a[NR/2+1])/2))}'; }

echo "jar: $(du -k "$jar" | cut -f1) KiB ($(du -h "$jar" | cut -f1))"
echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1)"

all_times=(); all_rss=(); bare_times=()
for i in $(seq 1 "$runs"); do
  bare_times+=("$(bare_server_ms)")
  port=$(free_port); hport=$(free_port)
  start=$(now_ms)
  java $mc_opts -jar "$jar" all --data "$work/all-$i" --port "$port" --health-port "$hport" >"$work/all-$i.log" 2>&1 & pid=$!; pids+=("$pid")
  wait_ready "$port" 60
  all_times+=($(( $(now_ms) - start )))
  sleep 5   # let start-up garbage settle before reading idle RSS
  all_rss+=("$(rss_kib "$pid")")
  stop "$pid"
done
echo "all mode, java -jar to /health/ready 200: median $(printf '%s\n' "${all_times[@]}" | median) ms (runs: ${all_times[*]})"
echo "floor, a bare Vert.x Web server from the same jar to its first 200: median $(printf '%s\n' "${bare_times[@]}" | median) ms (runs: ${bare_times[*]})"
echo "all mode, idle RSS after 5 s: median $(printf '%s\n' "${all_rss[@]}" | median) KiB (runs: ${all_rss[*]})"

pair() { # mode: sequential | together
  local sc rc rport hport conf_s conf_r start s r t
  sc=$(free_port); rc=$(free_port); rport=$(free_port); hport=$(free_port)
  conf_s="$work/s-$RANDOM.json"; conf_r="$work/r-$RANDOM.json"
  name="bench-$RANDOM$RANDOM"
  echo "{\"cluster\":{\"name\":\"$name\",\"port\":$sc,\"members\":[\"127.0.0.1:$sc\",\"127.0.0.1:$rc\"]}}" > "$conf_s"
  echo "{\"cluster\":{\"name\":\"$name\",\"port\":$rc,\"members\":[\"127.0.0.1:$sc\",\"127.0.0.1:$rc\"]}}" > "$conf_r"
  start=$(now_ms)
  java $mc_opts -jar "$jar" scraper --cluster --conf "$conf_s" --data "$work/pair-$name" --health-port "$hport" >"$work/$name-s.log" 2>&1 & s=$!; pids+=("$s")
  if [ "$1" = sequential ]; then wait_ready "$hport" 60; fi
  java $mc_opts -jar "$jar" reader --cluster --conf "$conf_r" --data "$work/pair-$name" --port "$rport" >"$work/$name-r.log" 2>&1 & r=$!; pids+=("$r")
  wait_ready "$rport" 90
  t=$(( $(now_ms) - start ))
  sleep 5
  echo "$t $(rss_kib "$r") $(rss_kib "$s")"
  stop "$r"; stop "$s"
}
for mode in sequential together; do
  times=(); rr=(); sr=()
  for i in $(seq 1 "$runs"); do
    read -r t r s < <(pair "$mode")
    times+=("$t"); rr+=("$r"); sr+=("$s")
  done
  echo "pair ($mode start), first java -jar to reader /health/ready 200: median $(printf '%s\n' "${times[@]}" | median) ms (runs: ${times[*]})"
  echo "pair ($mode start), idle RSS reader median $(printf '%s\n' "${rr[@]}" | median) KiB, scraper median $(printf '%s\n' "${sr[@]}" | median) KiB"
done
