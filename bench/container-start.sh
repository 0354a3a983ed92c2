#!/usr/bin/env bash
# Measures the image's start with and without its class-data archive: time from `docker run` to the first 200 of
# /health/ready on the published port (`all` mode, a new anonymous volume each run, --memory 768m as in compose),
# the same image both ways: "with" uses the image's JAVA_OPTS, "without" overrides JAVA_OPTS with the same options
# less -XX:SharedArchiveFile (the JDK's own base archive is used either way). Runs alternate; each line prints the
# load average of the moment beside its figure and the JVM's RSS at that first 200. One unreported warm-up start first.
# Usage: bench/container-start.sh [image] [runs]   (default mangacircus:test, 3 runs each; build the image first)
set -euo pipefail
image=${1:-mangacircus:test}
runs=${2:-3}
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()')
name=mc-bench-cds-$$
trap 'docker rm -f -v "$name" >/dev/null 2>&1 || true' EXIT

with_opts=$(docker image inspect -f '{{range .Config.Env}}{{println .}}{{end}}' "$image" | sed -n 's/^JAVA_OPTS=//p')
without_opts=$(printf '%s\n' "$with_opts" | tr ' ' '\n' | grep -v '^-XX:SharedArchiveFile=' | paste -sd ' ')
[ "$with_opts" != "$without_opts" ] || { echo "the image's JAVA_OPTS names no archive: $with_opts" >&2; exit 2; }
echo "image $image ($(docker image inspect -f '{{.Id}}' "$image" | cut -c8-19)); $(nproc) cores"
echo "with:    JAVA_OPTS=$with_opts"
echo "without: JAVA_OPTS=$without_opts"

now_ms() { date +%s%3N; }
one() {   # one LABEL JAVA_OPTS: prints the label, ms to the first 200, load average at the start, RSS then
  local label=$1 opts=$2 load start code ms rss
  load=$(cut -d' ' -f1-3 /proc/loadavg)
  start=$(now_ms)
  docker run -d --name "$name" --memory 768m -p "127.0.0.1:$port:8080" -e JAVA_OPTS="$opts" \
    -e MANGACIRCUS_ADMIN_PASSWORD="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" "$image" > /dev/null
  until code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 2 "http://127.0.0.1:$port/health/ready"); [ "$code" = 200 ]; do
    [ $(( $(now_ms) - start )) -lt 120000 ] || { docker logs --tail 20 "$name" >&2; echo "$label: not ready within 120 s" >&2; exit 1; }
    sleep 0.05
  done
  ms=$(( $(now_ms) - start ))
  rss=$(docker exec "$name" awk '/VmRSS/ {print int($2 / 1024)}' /proc/1/status)
  printf '%-8s %6d ms to /health/ready 200   load %s   RSS %s MiB\n' "$label" "$ms" "$load" "$rss"
  docker rm -f -v "$name" > /dev/null
  sleep 5   # let the removal's I/O settle before the next start
}
one warm-up "$with_opts" > /dev/null   # brings the image's files into the page cache; not reported
for i in $(seq 1 "$runs"); do   # alternating, and which goes first alternates too
  if [ $((i % 2)) = 1 ]; then one with "$with_opts"; one without "$without_opts"
  else one without "$without_opts"; one with "$with_opts"; fi
done
