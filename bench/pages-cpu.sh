#!/usr/bin/env bash
# The reader's CPU per page request by thread group, to compare builds on a busy machine (bench/cbz-cpu.sh for page
# images): for each jar given (PASSES passes, default 2, in the order given), MangaCircus on a fresh data folder with
# bench/pages.sh's library (4 chapters x 50 ~195 KB JPEGs), 30 s of wrk warm-up over the 200 page URLs with the
# session cookie, then 3 runs of 8 s (2 threads, 32 connections). Per run: requests/s and the JVM's CPU time per
# request in total and by thread group from /proc/<pid>/task/*/stat (event loops, Vert.x workers, JIT compilers, GC,
# the rest). Under load the JIT's share swamps the total; the event loops' share is the steady figure.
# Usage: bench/pages-cpu.sh jar... (e.g. a build of main and one of a branch). No nginx. Loopback only.
# $MC_JAVA_OPTS is passed to the JVM (e.g. a JFR recording).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/cbz-cpu.sh jar..." >&2; exit 2; }
bench_dir=$(pwd)/bench
work=$(mktemp -d); chmod 755 "$work"
site_pid=""; mc_pid=""
cleanup() { [ -n "$mc_pid" ] && kill "$mc_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh
chapters=4; per_chapter=50; unit=page
bench_library
groups() { # pid -> "el worker jit gc other" ticks
  for t in /proc/$1/task/*; do
    name=$(cat $t/comm 2>/dev/null || true); ticks=$(awk '{print $14+$15}' $t/stat 2>/dev/null || echo 0)
    case "$name" in
      vert.x-eventloo*) g=el;; vert.x-worker*|vert.x-internal*) g=worker;; C1*|C2*) g=jit;; G1*|GC*|VM\ Thread) g=gc;; *) g=other;;
    esac
    echo "$g $ticks"
  done | awk '{s[$1]+=$2} END {printf "%d %d %d %d %d\n", s["el"], s["worker"], s["jit"], s["gc"], s["other"]}'
}
hz=$(getconf CLK_TCK)
jars=("$@")
for pass in $(seq 1 "${PASSES:-2}"); do
for jar in "${jars[@]}"; do
  export jar
  base=$work/data; data=$work/run-$pass-$(basename $jar); mkdir -p "$data"; cp -al "$base/library" "$data/library"
  start_mangacircus
  data=$base
  PAGES_FILE=$work/reader.paths PAGES_COOKIE=$cookie wrk -t 2 -c 32 -d 30s -s "$bench_dir/pages.lua" "http://127.0.0.1:$port" >/dev/null
  for r in 1 2 3; do
    read -r a b c d e < <(groups $mc_pid)
    out=$(PAGES_FILE=$work/reader.paths PAGES_COOKIE=$cookie wrk -t 2 -c 32 -d 8s --latency -s "$bench_dir/pages.lua" "http://127.0.0.1:$port")
    read -r a2 b2 c2 d2 e2 < <(groups $mc_pid)
    set -- $(grep '^RESULT ' <<<"$out"); n=$8; rps=$2
    awk -v j="$(basename $jar)" -v n=$n -v rps=$rps -v hz=$hz -v el=$((a2-a)) -v w=$((b2-b)) -v jit=$((c2-c)) -v gc=$((d2-d)) -v o=$((e2-e)) -v load="$(cut -d' ' -f1 /proc/loadavg)" \
      'BEGIN { f=1e6/hz/n; printf "%-22s rps %6.1f  total %6.0f us/req  eventloop %6.0f  worker %5.0f  jit %5.0f  gc %5.0f  other %5.0f  load %s\n", j, rps, (el+w+jit+gc+o)*f, el*f, w*f, jit*f, gc*f, o*f, load }'
  done
  kill $mc_pid; wait $mc_pid 2>/dev/null || true; mc_pid=""
done
done
