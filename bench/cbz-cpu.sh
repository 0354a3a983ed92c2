#!/usr/bin/env bash
# The reader's CPU per CBZ download by thread group, to compare builds on a busy machine: for each jar given (PASSES passes, default 2,
# in the order given), MangaCircus on a fresh data folder with bench/cbz.sh's library (4 chapters x 50 ~195 KB JPEGs),
# 40 s of wrk warm-up over the 4 CBZ URLs, then 3 runs of 8 s (2 threads, 8 connections). Per run: requests/s and the
# JVM's CPU time per CBZ in total and by thread group from /proc/<pid>/task/*/stat: event loops (the sends), Vert.x
# workers (layout checks, file opens), JIT compilers, GC, the rest. Under load the JIT's share stays large long after
# start-up and swamps the total; the event loops' share is the steady figure.
# Usage: [PASSES=n] bench/cbz-cpu.sh jar... (e.g. a build of main and one of a branch). No nginx. Loopback only.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/cbz-cpu.sh jar..." >&2; exit 2; }
bench_dir=$(pwd)/bench
work=$(mktemp -d); chmod 755 "$work"
site_pid=""; mc_pid=""
cleanup() { [ -n "$mc_pid" ] && kill "$mc_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh
chapters=4; per_chapter=50; unit=CBZ
bench_library
for c in $(seq 1 $chapters); do echo "/api/series/$series/chapters/c$c.cbz"; done >"$work/reader.paths"
cpu_by_thread_group 8 40 "$@"
