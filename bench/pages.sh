#!/usr/bin/env bash
# Page-image serving: the reader (authenticated session, GET /api/series/<s>/chapters/<c>/pages/<n>) vs nginx
# serving the same files, with wrk at the same threads/connections/duration in the same run.
# Usage: bench/pages.sh [seconds=10] [connections=32] [rounds=8]
#
# Steps: write a library of 4 chapters x 50 distinct ~195 KB JPEGs (bench/BenchSite.java's generator; it is stopped
# as soon as the files are written) with a chapter.json per chapter (sha256 of each file = the reader's ETag), start
# MangaCircus (`all` mode) on a fresh data folder holding that library and log in with curl, start nginx
# (bench/pages-nginx.conf: foreground, loopback, sendfile on, access log off, root = the same library folder), then
# wrk with bench/pages.lua (rotates through all 200 page URLs; for the reader with the session cookie; no
# conditional headers, so every answer is a full 200): one warm-up run against each, then `rounds` measured rounds,
# each one run against nginx and one against the reader, back to back (nginx first in odd rounds, the reader first in
# even ones). Prints for every run requests/s, p50 and p99, the server's CPU time per request and how much CPU the
# rest of the machine used meanwhile ("others", in cores); then medians, and the ratio reader/nginx per round (its
# median is the least sensitive to other load on the machine, which moves both runs of a round alike) and of the
# medians.
# Every response must carry at least the smallest page's bytes, and there must be no non-2xx/3xx or socket error.
# Loopback only; every process started here is stopped again.
# PAGES_FLOOR=1 adds a third server to every round: bench/BarePages.java, a bare Vert.x server from the same jar and
# JVM options serving the same files by path (no router, session or metrics), the floor of the reader's own stack;
# the summary then also gives floor/nginx and reader/floor.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (build: mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (honours TMPDIR; about 50 MB); KEEP_WORK=1 keeps it. PAGES_WARMUP: seconds of
# warm-up per server (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

seconds=${1:-10}
connections=${2:-32}
rounds=${3:-8}
for n in "$seconds" "$connections" "$rounds"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || { echo "usage: bench/pages.sh [seconds=10] [connections=32] [rounds=8]" >&2; exit 2; }
done
threads=$(( connections < 2 ? connections : 2 ))
warmup=${PAGES_WARMUP:-20}   # seconds per server; the JVM's JIT is still compiling the page path after 10 s
chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx is not installed" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as an unprivileged user when this runs as root: they must reach the library
site_pid=""; mc_pid=""; nginx_pid=""; floor_pid=""
cleanup() {
  for p in "$mc_pid" "$nginx_pid" "$site_pid" "$floor_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$mc_pid" "$nginx_pid" "$site_pid" "$floor_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "         $("$nginx_bin" -v 2>&1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), work dir on $(df -T "$work" | awk 'NR==2 {print $2}')"

# ---- library ----------------------------------------------------------------------------------------------------
bench_library
echo "library: $pages pages ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$pages" 'BEGIN { printf "%.1f MB, avg %.0f KB\n", b / 1e6, b / 1e3 / n }')"
sync

# ---- MangaCircus and nginx ------------------------------------------------------------------------------------------
unit=page
start_mangacircus
start_nginx "$library"   # also checks both serve the same bytes, the reader only with the session
if [ "${PAGES_FLOOR:-0}" = 1 ]; then   # the bare Vert.x server as a third target in every round
  fport=$(free_port)
  java $mc_jvm_opts -cp "$jar" bench/BarePages.java "$library" "$fport" >"$work/floor.out" 2>"$work/floor.err" &
  floor_pid=$!
  floor_up() { grep -q '^READY ' "$work/floor.out" || { kill -0 "$floor_pid" 2>/dev/null || { cat "$work/floor.err" >&2; exit 1; }; false; }; }
  wait_for "floor server" 120 floor_up
  first=$(head -1 "$work/nginx.paths")
  cmp <(curl -s -f "http://127.0.0.1:$fport$first") <(curl -s -f "http://127.0.0.1:$nport$first") \
    || { echo "the floor server and nginx differ on $first" >&2; exit 1; }
  echo "floor: bench/BarePages.java, transport $(awk '/^READY/ {print $2}' "$work/floor.out"), java ${mc_jvm_opts}-cp $jar"
fi

# ---- wrk ----------------------------------------------------------------------------------------------------------
# cpu us/req: the server's CPU time per request; others: cores' worth of CPU that everything else on the machine
# (not this server, not wrk) used during the run; it takes CPU from the server and wrk alike
header() {
  printf '%-6s %-7s %12s %10s %10s %12s %12s %7s\n' round target "requests/s" "p50 ms" "p99 ms" "bytes/resp" \
    "cpu us/req" others
}
row() { # round target rps p50 p99 per cpu others load
  printf '%-6s %-7s %12s %10s %10s %12s %12s %7s\n' "$1" "$2" "$3" "$(ms "$4")" "$(ms "$5")" "$6" "$7" "$8"
}
measure_rounds
summary "target >= 1.0, p99 <= 1.2x nginx's"
