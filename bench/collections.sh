#!/usr/bin/env bash
# Collections read in place: scans of a large collection beside `find` + each archive's central directory read by
# zipinfo, the reader's memory during a scan, and page images from stored CBZs beside the same images as loose files.
# Usage: bench/collections.sh [archives=10000] [rounds=3] [seconds=15] [connections=64]
#
# Steps:
# - collection "scale": bench/CollectionGen.java writes archives/10 series folders x 10 stored CBZs x 10 pages of 1 KB
#   of distinct random bytes. Collection "pages": the 4 chapters x 50 distinct ~195 KB JPEGs of bench/pages.sh (lib.sh
#   bench_library, also in the downloads library as series "bench") each as one stored CBZ.
# - scans, `rounds` rounds, each: `find` alone over the collection; the issue's baseline in two forms, `find` +
#   `zipinfo -1` per archive (zipinfo reads one archive a run; the first round only: a minute of process starts) and `find` + `unzip -l` per series folder (unzip takes
#   a wildcard of archives in one folder: 10 times fewer processes, the cheaper of the two and the one the target is
#   judged against); then MangaCircus `all` (the README's start) with both collections configured and a fresh data
#   folder but the downloads library (data/collections, the kept inventory and reader.db removed): its
#   first scan's time as its log line "[LIBRARY] library scanned in N ms" says (the JVM starting at the same time), the
#   largest VmRSS sampled every 100 ms until then; then POST /api/admin/library/rescan with nothing changed and the
#   next scan's time. Medians. Targets: first scan <= 1.5 x the baseline, rescan <= 0.2 x the first scan, RSS <= 250 MB.
# - page images (the last round's MangaCircus): wrk, `rounds` rounds of one run each of the reader's page route over the
#   loose files (GET /api/series/bench/chapters/cN/pages/P) and over the same images in the stored CBZs
#   (GET /api/series/<id>/chapters/<book>/pages/P), back to back (which goes first alternates), after a warm-up of
#   each. Ratio CBZ/loose per round and its median. Target: >= 0.9.
# Prints the outside load with every figure. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. Scratch: a fresh `mktemp -d` (about 250 MB for the
# default); KEEP_WORK=1 keeps it. MC_JAVA_OPTS as in bench/lib.sh.
set -Eeuo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

usage() { echo "usage: bench/collections.sh [archives=10000] [rounds=3] [seconds=15] [connections=64]" >&2; exit 2; }
archives=${1:-10000}; rounds=${2:-3}; seconds=${3:-15}; connections=${4:-64}
for n in "$archives" "$rounds" "$seconds" "$connections"; do [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] || usage; done
[ $(( archives % 10 )) -eq 0 ] || usage
warmup=${COLLECTIONS_WARMUP:-5}; chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
for tool in wrk zipinfo unzip; do command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 2; }; done

work=$(mktemp -d)
site_pid=""; mc_pid=""; sampler_pid=""
cleanup() {
  for p in "$sampler_pid" "$mc_pid" "$site_pid"; do
    if [ -n "$p" ]; then kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; fi
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM
trap 'echo "bench/collections.sh: stopped at line $LINENO: $BASH_COMMAND" >&2' ERR

. bench/lib.sh
load() { cut -d' ' -f1-3 /proc/loadavg; }
now_ms() { date +%s%3N; }

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "  load average $(load)"

# ---- the collections ------------------------------------------------------------------------------------------------
scale="$work/scale"; pagecoll="$work/pagecoll"
read -r _ made pages_made gen_s <<<"$(java bench/CollectionGen.java scale "$scale" $(( archives / 10 )) 10 10 1024 | grep '^COLLECTION ')"
bench_library   # series "bench" in the downloads library: $work/reader.paths, $smallest
read -r _ page_archives _ _ <<<"$(java bench/CollectionGen.java from "$pagecoll" "$library/$series" | grep '^COLLECTION ')"
echo "  collection scale: $made stored CBZs, $pages_made pages, $(du -sm "$scale" | cut -f1) MB (written in $gen_s s);" \
  "collection pages: $page_archives CBZs of the bench library's $((chapters * per_chapter)) JPEGs"
mc_conf=$(printf '{"reader":{"libraries":[%s,%s]}}' \
  "{\"name\":\"scale\",\"kind\":\"collection\",\"path\":\"$scale\",\"watch\":false,\"rescanMinutes\":0}" \
  "{\"name\":\"pages\",\"kind\":\"collection\",\"path\":\"$pagecoll\",\"watch\":false,\"rescanMinutes\":0}")

scan_ms() { # the Nth "library scanned in" time of the log, or nothing yet
  grep -o 'library scanned in [0-9]* ms' "$work/mangacircus.log" 2>/dev/null | sed -n "${1}p" | grep -o '[0-9]*' | head -1
}

# Samples the VmRSS (KB) of the MangaCircus process on $data every 100 ms from its start until its log has $1 scan
# lines; writes the largest to $work/rss.max.
sample_rss() {
  local pid="" max=0 rss
  until pid=$(pgrep -f -- "--data $data" | head -1); do sleep 0.02; done
  until [ -n "$(scan_ms "$1")" ]; do
    rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null || echo 0)
    [ "${rss:-0}" -gt "$max" ] && max=$rss
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "$max" >"$work/rss.max"
}

# ---- scans ----------------------------------------------------------------------------------------------------------
echo
echo "==== scans of $made archives: find alone, find + zipinfo per archive, find + unzip -l per series folder, then"
echo "     MangaCircus's first scan and a rescan, $rounds rounds"
base_all=(); first_all=(); rescan_all=(); rss_all=(); zipinfo_all=(); find_all=()
for r in $(seq 1 "$rounds"); do
  l0=$(load); t0=$(now_ms)
  find "$scale" -name '*.cbz' -type f >/dev/null
  found=$(( $(now_ms) - t0 ))
  l1=$(load); t0=$(now_ms)
  # A minute of process starts: the first round only.
  [ "$r" = 1 ] && find "$scale" -name '*.cbz' -type f -exec zipinfo -1 {} \; >/dev/null
  zipinfo_ms=$(( $(now_ms) - t0 ))
  l2=$(load); t0=$(now_ms)
  find "$scale" -mindepth 1 -maxdepth 1 -type d -print0 | xargs -0 -I{} unzip -lqq '{}/*.cbz' >/dev/null 2>&1
  base=$(( $(now_ms) - t0 ))
  printf '  round %d find alone: %6d ms; load %s\n' "$r" "$found" "$l0"
  [ "$r" = 1 ] && printf '  round %d find + zipinfo per archive: %6d ms; load %s\n' "$r" "$zipinfo_ms" "$l1"
  printf '  round %d find + unzip -l per series folder (baseline): %6d ms; load %s -> %s\n' "$r" "$base" "$l2" "$(load)"
  if [ -n "$mc_pid" ]; then kill "$mc_pid"; wait "$mc_pid" 2>/dev/null || true; mc_pid=""; fi
  rm -rf "$data/collections" "$data/library-inventory.json" "$data"/reader.db*
  l0=$(load)
  sample_rss 1 & sampler_pid=$!
  start_mangacircus
  until [ -n "$(scan_ms 1)" ]; do sleep 0.1; done
  wait "$sampler_pid"; sampler_pid=""
  first=$(scan_ms 1); rss=$(( $(cat "$work/rss.max") / 1024 ))
  printf '  round %d MangaCircus first scan:     %6d ms, largest RSS until then %d MB; load %s -> %s\n' "$r" "$first" \
    "$rss" "$l0" "$(load)"
  l0=$(load)
  curl -s -f -o /dev/null -X POST -H "Cookie: $cookie" -H "X-CSRF-Token: $csrf" \
    "http://127.0.0.1:$port/api/admin/library/rescan"
  until [ -n "$(scan_ms 2)" ]; do sleep 0.05; done
  rescan=$(scan_ms 2)
  printf '  round %d MangaCircus rescan, nothing changed: %4d ms; load %s -> %s\n' "$r" "$rescan" "$l0" "$(load)"
  base_all+=("$base"); first_all+=("$first"); rescan_all+=("$rescan"); rss_all+=("$rss")
  [ "$r" = 1 ] && zipinfo_all+=("$zipinfo_ms")
  find_all+=("$found")
done
base_m=$(printf '%s\n' "${base_all[@]}" | median); first_m=$(printf '%s\n' "${first_all[@]}" | median)
rescan_m=$(printf '%s\n' "${rescan_all[@]}" | median); rss_m=$(printf '%s\n' "${rss_all[@]}" | sort -g | tail -1)
echo "  medians: find alone $(printf '%s\n' "${find_all[@]}" | median) ms, find + zipinfo" \
  "$(printf '%s\n' "${zipinfo_all[@]}" | median) ms, baseline (find + unzip -l) $base_m ms, first scan $first_m ms," \
  "rescan $rescan_m ms; largest RSS $rss_m MB"

# ---- page images ----------------------------------------------------------------------------------------------------
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
coll_id=$(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port/api/series?q=Bench%20Series" \
  | json '[s["id"] for s in d["series"] if s["library"] == "pages"][0]')
curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port/api/series/$coll_id" \
  | json '"\n".join(c["title"] + " " + c["id"] for c in d["chapters"])' >"$work/books"
: >"$work/cbz.paths"
while IFS= read -r path; do   # /api/series/bench/chapters/cN/pages/P -> the same page of book cN
  IFS=/ read -r _ _ _ _ _ c _ p <<<"$path"
  book=$(awk -v c="$c" '$1 == c {print $2}' "$work/books")
  echo "/api/series/$coll_id/chapters/$book/pages/$p" >>"$work/cbz.paths"
done <"$work/reader.paths"
first_r=$(head -1 "$work/reader.paths"); first_c=$(head -1 "$work/cbz.paths")
cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$first_r") \
  <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$first_c") \
  || { echo "the CBZ page $first_c is not the loose file $first_r" >&2; exit 1; }

wrk_run() { # seconds, paths file -> the RESULT fields
  PAGES_FILE="$2" PAGES_COOKIE="$cookie" \
    wrk -t 2 -c "$connections" -d "${1}s" --latency -s "$bench_dir/pages.lua" "http://127.0.0.1:$port" \
    | grep '^RESULT ' || { echo "wrk printed no RESULT" >&2; exit 1; }
}
echo
echo "==== page images: loose files vs stored CBZs through the reader's page route, $((chapters * per_chapter)) images," \
  "$rounds rounds of $seconds s, $connections connections"
wrk_run "$warmup" "$work/reader.paths" >/dev/null; wrk_run "$warmup" "$work/cbz.paths" >/dev/null
ratios=(); bad=0
for r in $(seq 1 "$rounds"); do
  order="loose cbz"; [ $(( r % 2 )) -eq 0 ] && order="cbz loose"
  for who in $order; do
    l0=$(load)
    if [ "$who" = loose ]; then line=$(wrk_run "$seconds" "$work/reader.paths"); else line=$(wrk_run "$seconds" "$work/cbz.paths"); fi
    read -r _ rps p50 p99 per non2xx errors requests <<<"$line"
    [ "$non2xx" = 0 ] && [ "$errors" = 0 ] && [ "${per%.*}" -ge "$smallest" ] || bad=1
    printf '  round %d %-5s %8.1f requests/s, p99 %6.2f ms, %s bytes/answer, %s non-2xx, %s errors; load %s -> %s\n' \
      "$r" "$who" "$rps" "$(awk -v u="$p99" 'BEGIN {print u/1000}')" "$per" "$non2xx" "$errors" "$l0" "$(load)"
    if [ "$who" = loose ]; then loose_rps=$rps; else cbz_rps=$rps; fi
  done
  ratios+=("$(awk -v c="$cbz_rps" -v l="$loose_rps" 'BEGIN { printf "%.3f", c / l }')")
done
ratio=$(printf '%s\n' "${ratios[@]}" | median)
echo "  per-round ratio cbz/loose: ${ratios[*]}; median $ratio"

echo
echo "==== summary (load average at the end $(load))"
awk -v b="$base_m" -v f="$first_m" -v s="$rescan_m" -v m="$rss_m" -v r="$ratio" -v bad="$bad" 'BEGIN {
  printf "  first scan %s ms = %.2f x find + unzip -l %s ms (target <= 1.5): %s\n", f, f / b, b, (f <= 1.5 * b ? "met" : "NOT met")
  printf "  rescan %s ms = %.3f x the first scan (target <= 0.2): %s\n", s, s / f, (s <= 0.2 * f ? "met" : "NOT met")
  printf "  largest RSS during a first scan %s MB (target <= 250): %s\n", m, (m <= 250 ? "met" : "NOT met")
  printf "  page images cbz/loose %s (target >= 0.9, every answer full): %s\n", r, (r >= 0.9 && !bad ? "met" : "NOT met") }'
