#!/usr/bin/env bash
# The Komga-compatible API that Mihon browses, on a large library: the series list under load, and page images through
# /komga side by side with the reader's own page route.
# Usage: bench/komga.sh [series=10000] [seconds=20] [connections=64] [rounds=4]
#
# Steps:
# - library: bench/ScaleLibrary.java's (`series` series x 10 chapters x 4 small pages: 100,000 chapters by default, the
#   library of bench/scale.sh), plus bench/pages.sh's 4 chapters x 50 distinct ~195 KB JPEGs as series "bench" (lib.sh
#   bench_library), in one data folder.
# - MangaCircus `all` (the README's start, defaults) on it; admin login with curl, then an app password made through
#   POST /api/me/app-passwords, as a Mihon user makes one; waits until the Komga series list counts every series.
# - series list: wrk (2 threads, `connections` connections) with Basic credentials, rotating through
#   GET /komga/api/v1/series?page=N&size=20 for every page N of the list in a shuffled order (Mihon's "popular" browse,
#   sorted by title), beside the reader's own list route (GET /api/series?page=N+1&size=20, session cookie) over the
#   same pages: a warm-up of each, then `rounds` rounds of one run each, back to back (which goes first alternates).
#   Median p99 of each. Target: Komga's p99 <= 20 ms, no error, no non-2xx.
# - page images: `rounds` rounds, each one run of the reader's own route (GET /api/series/bench/chapters/cN/pages/P,
#   session cookie) and one of the Komga route (GET /komga/api/v1/books/<id>/pages/P, Basic), back to back over the
#   same 200 files (which goes first alternates), after a warm-up of each. Ratio Komga/reader per round and its
#   median. Target: >= 0.95.
# Prints the outside load with every figure. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. Scratch: a fresh `mktemp -d` (about 120 MB for the
# default library; page files are hard links); KEEP_WORK=1 keeps it. MC_JAVA_OPTS as in bench/lib.sh.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

usage() { echo "usage: bench/komga.sh [series=10000] [seconds=20] [connections=64] [rounds=4]" >&2; exit 2; }
n_series=${1:-10000}; seconds=${2:-20}; connections=${3:-64}; rounds=${4:-4}
for n in "$n_series" "$seconds" "$connections" "$rounds"; do [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || usage; done
threads=2; warmup=${KOMGA_WARMUP:-10}
chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed" >&2; exit 2; }

work=$(mktemp -d)
site_pid=""; mc_pid=""
cleanup() {
  for p in "$mc_pid" "$site_pid"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/komga.sh: stopped at line $LINENO: $BASH_COMMAND" >&2' ERR

. bench/lib.sh
load() { cut -d' ' -f1-3 /proc/loadavg; }
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }
b64url() { printf '%s' "$1" | base64 -w0 | tr '+/' '-_' | tr -d '='; }

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "  $({ wrk -v 2>&1 || true; } | awk 'NR == 1 {print $1, $2}'), load average $(load)"

# ---- the library ----------------------------------------------------------------------------------------------------
data="$work/data"
out=$(java bench/ScaleLibrary.java library "$data" "$n_series" 10 4)
read -r _ made_series made_chapters _ gen_s <<<"$(grep '^LIBRARY ' <<<"$out")"
bench_library   # series "bench": 4 chapters x 50 pages, $work/reader.paths
total_series=$(( made_series + 1 ))
echo "  library: $total_series series, $(( made_chapters + chapters )) chapters (scale library written in $gen_s s)"
: >"$work/komga-pages.paths"
while IFS= read -r path; do   # /api/series/bench/chapters/cN/pages/P -> /komga/api/v1/books/<id>/pages/P
  IFS=/ read -r _ _ _ s _ c _ p <<<"$path"
  echo "/komga/api/v1/books/$(b64url "$s/$c")/pages/$p" >>"$work/komga-pages.paths"
done <"$work/reader.paths"
list_pages=$(( (total_series + 19) / 20 ))
seq 0 $(( list_pages - 1 )) | awk 'BEGIN { srand(1) } { print rand() "\t" $0 }' | sort -k1,1 | cut -f2 \
  >"$work/list.order"
sed 's|^|/komga/api/v1/series?size=20\&page=|' "$work/list.order" >"$work/series.paths"
awk '{ print "/api/series?size=20&page=" $1 + 1 }' "$work/list.order" >"$work/reader-series.paths"   # pages from 1

# ---- MangaCircus and an app password --------------------------------------------------------------------------------
start_mangacircus   # lib.sh: the README's start on $data, admin logged in (cookie, csrf)
made=$(curl -s -f -H "Cookie: $cookie" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' \
  -d '{"name":"bench Mihon","scope":"read"}' "http://127.0.0.1:$port/api/me/app-passwords")
app=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["password"])' "$made")
basic="Basic $(printf 'admin:%s' "$app" | base64 -w0)"
counted() {
  local n
  n=$(curl -s -H "Authorization: $basic" "http://127.0.0.1:$port/komga/api/v1/series?size=1" \
    | python3 -c 'import json,sys; print(json.load(sys.stdin).get("totalElements", 0))' 2>/dev/null || echo 0)
  [ "$n" -ge "$total_series" ]
}
wait_for "the Komga series list counting $total_series series" 600 counted
first_r=$(head -1 "$work/reader.paths"); first_k=$(head -1 "$work/komga-pages.paths")
cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$first_r") \
  <(curl -s -f -H "Authorization: $basic" "http://127.0.0.1:$port$first_k") \
  || { echo "the Komga route does not serve $first_k as the reader serves $first_r" >&2; exit 1; }
echo "  MangaCircus: pid $mc_pid, all mode; app password made (scope read); load $(load)"

wrk_run() { # seconds, paths file, cookie, authorization -> the RESULT fields
  PAGES_FILE="$2" PAGES_COOKIE="$3" PAGES_AUTHORIZATION="$4" \
    wrk -t "$threads" -c "$connections" -d "${1}s" --latency -s "$bench_dir/pages.lua" "http://127.0.0.1:$port" \
    | grep '^RESULT ' || { echo "wrk printed no RESULT" >&2; exit 1; }
}

# The reader's own route (session cookie) and the Komga route (Basic) over the same things: a warm-up of each, then
# $rounds rounds of one run each, back to back, which goes first alternating. Prints every run; sets reader_p99s,
# komga_p99s, ratios (Komga / reader requests/s per round), reader_all, komga_all (requests/s) and bad (1 when a run
# had an error, a non-2xx answer or, with min_bytes > 0, answers smaller than min_bytes).
side_by_side() { # reader paths, komga paths, min_bytes
  wrk_run "$warmup" "$1" "$cookie" "" >/dev/null
  wrk_run "$warmup" "$2" "" "$basic" >/dev/null
  reader_p99s=(); komga_p99s=(); ratios=(); reader_all=(); komga_all=(); bad=0
  local r who order line l0 rps p50 p99 per non2xx errors requests reader_rps komga_rps
  for r in $(seq 1 "$rounds"); do
    order="reader komga"; [ $(( r % 2 )) -eq 0 ] && order="komga reader"
    for who in $order; do
      l0=$(load)
      if [ "$who" = reader ]; then line=$(wrk_run "$seconds" "$1" "$cookie" ""); else line=$(wrk_run "$seconds" "$2" "" "$basic"); fi
      read -r _ rps p50 p99 per non2xx errors requests <<<"$line"
      [ "$non2xx" = 0 ] && [ "$errors" = 0 ] && [ "${per%.*}" -ge "$3" ] || bad=1
      printf '  round %d %-6s %8.1f requests/s, p50 %6s ms, p99 %6s ms, %s bytes/answer, %s non-2xx, %s errors; load %s -> %s\n' \
        "$r" "$who" "$rps" "$(ms "$p50")" "$(ms "$p99")" "$per" "$non2xx" "$errors" "$l0" "$(load)"
      if [ "$who" = reader ]; then reader_rps=$rps; reader_p99s+=("$(ms "$p99")"); else komga_rps=$rps; komga_p99s+=("$(ms "$p99")"); fi
    done
    ratios+=("$(awk -v k="$komga_rps" -v r="$reader_rps" 'BEGIN { printf "%.3f", k / r }')")
    reader_all+=("$reader_rps"); komga_all+=("$komga_rps")
  done
}

# ---- the series list ------------------------------------------------------------------------------------------------
echo
echo "==== series list: GET /komga/api/v1/series?page=N&size=20 (Basic) beside the reader's own GET /api/series?page=N+1&size=20"
echo "     (session cookie), $list_pages pages each, $connections connections, $rounds rounds of $seconds s"
side_by_side "$work/reader-series.paths" "$work/series.paths" 0
s_p99=$(printf '%s\n' "${komga_p99s[@]}" | median)
r_p99=$(printf '%s\n' "${reader_p99s[@]}" | median)
s_bad=$bad
echo "  median p99: komga $s_p99 ms, the reader's own list $r_p99 ms"

# ---- page images ----------------------------------------------------------------------------------------------------
echo
echo "==== page images: reader route (cookie) vs /komga route (Basic), $((chapters * per_chapter)) files, $rounds rounds of $seconds s"
side_by_side "$work/reader.paths" "$work/komga-pages.paths" "$smallest"
ratio=$(printf '%s\n' "${ratios[@]}" | median)
echo "  per-round ratio komga/reader: ${ratios[*]}; median $ratio"
echo "  medians: reader $(printf '%s\n' "${reader_all[@]}" | median) requests/s," \
  "komga $(printf '%s\n' "${komga_all[@]}" | median) requests/s"

echo
echo "==== summary (load average at the end $(load))"
awk -v p99="$s_p99" -v r="$r_p99" -v bad="$s_bad" 'BEGIN {
  printf "  series list median p99 %s ms, the reader'"'"'s own list %s ms (target <= 20 ms, every answer 2xx): %s\n", p99, r,
    (p99 <= 20 && !bad ? "met" : "NOT met") }'
awk -v r="$ratio" -v bad="$bad" 'BEGIN {
  printf "  page images komga/reader %s (target >= 0.95, every answer full): %s\n", r, (r >= 0.95 && !bad ? "met" : "NOT met") }'
