#!/usr/bin/env bash
# CBZ downloads: the reader building a chapter's CBZ on the fly (authenticated session,
# GET /api/series/<s>/chapters/<c>.cbz: a stored ZIP streamed from the page files) vs nginx serving a pre-built CBZ of
# the same chapter (the reader's own download, byte for byte, written to a file), with wrk at the same
# threads/connections/duration in the same run.
# Usage: bench/cbz.sh [seconds=10] [connections=8] [rounds=6]
#
# Steps: as bench/pages.sh (4 chapters x 50 distinct ~195 KB JPEGs, chapter.json each, MangaCircus in `all` mode on a
# fresh data folder, login with curl), then download each chapter's CBZ once from the reader into the nginx root
# (checked with `python3 -m zipfile -t` and against the page files' count), start nginx (bench/pages-nginx.conf,
# sendfile on, root = those CBZ files), and run wrk with bench/pages.lua over the 4 CBZ URLs: one warm-up run against
# each, then `rounds` measured rounds, nginx and the reader back to back (nginx first in odd rounds). Prints per run
# requests/s, MB/s, p50 and p99, the server's CPU time per request, the CPU the rest of the machine used meanwhile
# ("others", in cores) and the 1-minute load average when the run ended; then medians and the reader/nginx ratio of
# throughput per round and of the medians. Every response must be a whole CBZ (at least the smallest one's bytes),
# with no non-2xx/3xx or socket error. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (build: mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (about 100 MB); KEEP_WORK=1 keeps it. CBZ_WARMUP: seconds of warm-up per server
# (default 20).
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

seconds=${1:-10}
connections=${2:-8}
rounds=${3:-6}
for n in "$seconds" "$connections" "$rounds"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || { echo "usage: bench/cbz.sh [seconds=10] [connections=8] [rounds=6]" >&2; exit 2; }
done
threads=$(( connections < 2 ? connections : 2 ))
warmup=${CBZ_WARMUP:-20}   # seconds per server; the JVM's JIT is still compiling after 10 s
chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx is not installed" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as an unprivileged user when this runs as root: they must reach the library
site_pid=""; mc_pid=""; nginx_pid=""
cleanup() {
  for p in "$mc_pid" "$nginx_pid" "$site_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$mc_pid" "$nginx_pid" "$site_pid"; do
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
echo "library: $pages pages ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$pages" 'BEGIN { printf "%.1f MB, avg %.0f KB a page\n", b / 1e6, b / 1e3 / n }')"
sync

# ---- MangaCircus ----------------------------------------------------------------------------------------------------
unit=CBZ
start_mangacircus

# ---- the pre-built CBZ files: the reader's own downloads, written once -----------------------------------------------
cbz_root="$work/cbz"; mkdir -p "$cbz_root/$series"
: >"$work/reader.paths"; : >"$work/nginx.paths"
for c in $(seq 1 "$chapters"); do
  curl -s -f -H "Cookie: $cookie" -o "$cbz_root/$series/c$c.cbz" "http://127.0.0.1:$port/api/series/$series/chapters/c$c.cbz"
  python3 -m zipfile -t "$cbz_root/$series/c$c.cbz" >/dev/null || { echo "c$c.cbz is not a valid ZIP" >&2; exit 1; }
  entries=$(python3 -c 'import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))' "$cbz_root/$series/c$c.cbz")
  [ "$entries" = $((per_chapter + 1)) ] || { echo "c$c.cbz has $entries entries, not $((per_chapter + 1))" >&2; exit 1; }
  echo "/api/series/$series/chapters/c$c.cbz" >>"$work/reader.paths"
  echo "/$series/c$c.cbz" >>"$work/nginx.paths"
done
read -r cbz_bytes smallest < <(find "$cbz_root" -name '*.cbz' -printf '%s\n' | awk 'NR==1 {m=$1} {s+=$1; if ($1<m) m=$1} END {print s, m}')
echo "CBZ: $chapters files, $(awk -v b="$cbz_bytes" -v n="$chapters" 'BEGIN { printf "avg %.1f MB", b / 1e6 / n }'), stored (no compression)"
sync

# ---- nginx --------------------------------------------------------------------------------------------------------
start_nginx "$cbz_root"   # also checks both serve the same bytes, the reader only with the session

# ---- wrk ----------------------------------------------------------------------------------------------------------
# cpu us/req: the server's CPU time per request; others: cores' worth of CPU that everything else on the machine
# (not this server, not wrk) used during the run; load: the 1-minute load average when the run ended
header() {
  printf '%-6s %-7s %11s %9s %10s %10s %12s %7s %6s\n' round target "requests/s" "MB/s" "p50 ms" "p99 ms" \
    "cpu us/req" others load
}
row() { # round target rps p50 p99 per cpu others load
  printf '%-6s %-7s %11s %9s %10s %10s %12s %7s %6s\n' "$1" "$2" "$3" \
    "$(awk -v r="$3" -v b="$6" 'BEGIN { printf "%.0f", r * b / 1e6 }')" "$(ms "$4")" "$(ms "$5")" "$7" "$8" "$9"
}
measure_rounds
echo "machine load (1-minute average) at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
summary "target >= 0.9"
