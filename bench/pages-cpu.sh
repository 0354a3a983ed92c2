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
[ $# -ge 1 ] || { echo "usage: bench/pages-cpu.sh jar..." >&2; exit 2; }
bench_dir=$(pwd)/bench
work=$(mktemp -d); chmod 755 "$work"
site_pid=""; mc_pid=""
cleanup() { [ -n "$mc_pid" ] && kill "$mc_pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
. bench/lib.sh
chapters=4; per_chapter=50; unit=page
bench_library
cpu_by_thread_group 32 30 "$@"
