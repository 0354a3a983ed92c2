#!/usr/bin/env bash
# Scraper throughput vs plain curl: same ~200 KB JPEGs from a local site (bench/BenchSite.java), pacing 0. Usage: bench/pipeline.sh [pages=2000]
#
# Steps: start the bench site (chapters of 50 pages), fetch every image with ONE sequential curl process (connection
# reused, files written, no fsync), then start MangaCircus on a fresh data dir, add the title and time from the POST
# until the job is `done` (title inspection and per-chapter page lists included), check the library and compare
# sampled pages byte for byte with the served files. Loopback only; every process started here is stopped again.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (build: mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (honours TMPDIR; it needs about 3x pages x 200 KB); KEEP_WORK=1 keeps it.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-2000}
[[ "$pages" =~ ^[0-9]+$ ]] && [ "$pages" -ge 1 ] || { echo "usage: bench/pipeline.sh [pages=2000]" >&2; exit 2; }
per_chapter=$(( pages < 50 ? pages : 50 ))
chapters=$(( (pages + per_chapter - 1) / per_chapter ))
total=$(( chapters * per_chapter ))   # rounded up to whole chapters
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }

work=$(mktemp -d)
site_pid=""; mc_pid=""
cleanup() {
  for p in "$mc_pid" "$site_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$mc_pid" "$site_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }
rate() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.1f", n / (ns / 1e9) }'; }
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }   # user + system, in CLK_TCK
wait_for() { # description, limit seconds, command...: polls every 50 ms until the command succeeds
  local what=$1 limit=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "$what: not within $limit s" >&2; return 1; }
    sleep 0.05
  done
}

echo "machine: $(nproc) cores, $(java -version 2>&1 | head -1), work dir on $(df -T "$work" | awk 'NR==2 {print $2}')"

# ---- bench site -------------------------------------------------------------------------------------------------
site="$work/site"; mkdir -p "$site"
java -Xmx1g bench/BenchSite.java 0 "$per_chapter" "$chapters" "$site" >"$work/site.out" 2>"$work/site.err" &
site_pid=$!
site_up() { grep -q '^READY ' "$work/site.out" || { kill -0 "$site_pid" 2>/dev/null || { cat "$work/site.err" >&2; exit 1; }; false; }; }
wait_for "bench site" 120 site_up
base_url=$(awk '/^READY / {print $2; exit}' "$work/site.out")
sed 's/^/  /' "$work/site.err"
[ "$(wc -l <"$site/urls.txt")" -eq "$total" ] || { echo "urls.txt does not list $total URLs" >&2; exit 1; }
bytes=$(find "$site" -name '*.jpg' -printf '%s\n' | awk '{s += $1} END {print s}')
sync   # the site's copies are on disk before anything is timed, so their write-back disturbs neither run

# ---- sequential curl --------------------------------------------------------------------------------------------
out="$work/curl"; mkdir -p "$out"
awk -v out="$out" '{ n = split($0, p, "/"); printf "url = \"%s\"\noutput = \"%s/%s-%s\"\n", $0, out, p[n-1], p[n] }' \
  "$site/urls.txt" >"$work/curl.conf"
start=$(now_ns)
curl -s -f -K "$work/curl.conf"
curl_ns=$(( $(now_ns) - start ))
start=$(now_ns); sync; sync_ns=$(( $(now_ns) - start ))   # not part of curl's time; keeps write-back out of the next run
[ "$(find "$out" -name '*.jpg' | wc -l)" -eq "$total" ] || { echo "curl did not write $total files" >&2; exit 1; }
cmp "$out/c1-001.jpg" "$site/c1/001.jpg"
cmp "$out/c$chapters-$(printf %03d "$per_chapter").jpg" "$site/c$chapters/$(printf %03d "$per_chapter").jpg"

# ---- MangaCircus --------------------------------------------------------------------------------------------------
data="$work/data"; port=$(free_port); hport=$(free_port)
token="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cat >"$work/mangacircus.json" <<EOF
{"scraper": {"claimPollMs": 50, "sources": {"bench": {"type": "demo", "baseUrl": "$base_url", "pageDelayMs": 0, "chapterDelayMs": 0}}}}
EOF
MANGACIRCUS_ADMIN_TOKEN=$token java ${MC_JAVA_OPTS:-} -jar "$jar" all --conf "$work/mangacircus.json" --data "$data" \
  --port "$port" --health-port "$hport" >"$work/mangacircus.log" 2>&1 &
mc_pid=$!
mc_ready() {
  kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/mangacircus.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
}
wait_for "MangaCircus /health/ready" 120 mc_ready
api() { curl -s -f -H "Authorization: Bearer $token" "$@"; }

if [ -n "${PROFILE:-}" ]; then   # PROFILE=out.jfr: a JFR recording of the download only (1 ms sampling), see docs/benchmarks.md
  jfc="$work/profile.jfc"
  sed -E '/<event name="jdk.(ExecutionSample|NativeMethodSample)">/,/<\/event>/ s|(<setting name="period"[^>]*>)[^<]*|\11 ms|' \
    "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" >"$jfc"
  jcmd "$mc_pid" JFR.start name=download settings="$jfc" filename="$(readlink -f "$PROFILE")" >/dev/null
fi
cpu0=$(cpu_ticks "$mc_pid")
start=$(now_ns)
api -o /dev/null -X POST -H 'Content-Type: application/json' \
  -d '{"source":"bench","title":"bench","autoConfirm":true}' "http://127.0.0.1:$port/api/admin/jobs"
deadline=$(( $(date +%s) + 600 + total / 2 ))   # generous bound: > 2 pages/s or it is a failure anyway
state=""
while :; do
  state=$({ api "http://127.0.0.1:$port/api/admin/jobs" || true; } | grep -o '"state":"[a-z_]*"' | head -1 | cut -d'"' -f4 || true)
  [ "$state" = done ] && break
  case "$state" in
    paused|unavailable|quarantined|retry_wait)
      echo "job went $state:" >&2; api "http://127.0.0.1:$port/api/admin/jobs" >&2; echo >&2; exit 1 ;;
  esac
  [ "$(date +%s)" -lt "$deadline" ] || { echo "job not done in time (state $state)" >&2; exit 1; }
  sleep 0.1
done
mc_ns=$(( $(now_ns) - start ))
mc_cpu=$(awk -v t=$(( $(cpu_ticks "$mc_pid") - cpu0 )) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }')

[ -z "${PROFILE:-}" ] || jcmd "$mc_pid" JFR.stop name=download >/dev/null
# where the CPU went, by thread group (whole life of the process, start-up included)
threads_cpu=$(for t in /proc/"$mc_pid"/task/*; do
  name=$(tr ' ' '_' <"$t/comm"); awk -v n="$name" '{print n, $14 + $15}' "$t/stat"
done 2>/dev/null | sed -E 's/[0-9]+ / /; s/-[0-9]+ / /' | awk -v hz="$(getconf CLK_TCK)" '{s[$1] += $2}
  END {for (k in s) if (s[k] > 0) printf "%s=%.1fs ", k, s[k] / hz}')
kill -TERM "$mc_pid"; mc_exit=0; wait "$mc_pid" || mc_exit=$?; mc_pid=""
[ "$mc_exit" -eq 0 ] || { echo "MangaCircus exited $mc_exit on SIGTERM" >&2; exit 1; }

# ---- verify the library -----------------------------------------------------------------------------------------
series=$(find "$data/library" -mindepth 1 -maxdepth 1 -type d ! -name '.*')
[ "$(echo "$series" | wc -l)" -eq 1 ] || { echo "expected one series folder in the library, found: $series" >&2; exit 1; }
published=$(find "$series" -path '*/chapter-*/*.jpg' | wc -l)
[ "$published" -eq "$total" ] || { echo "library holds $published pages, expected $total" >&2; exit 1; }
samples=0
for c in 1 $(( (chapters + 1) / 2 )) "$chapters"; do
  for p in 1 $(( (per_chapter + 1) / 2 )) "$per_chapter"; do
    name=$(printf %03d "$p").jpg
    cmp "$series/$(printf chapter-%04d "$c")/$name" "$site/c$c/$name"
    samples=$((samples + 1))
  done
done

# ---- report -----------------------------------------------------------------------------------------------------
echo "pages:        $total ($chapters chapters x $per_chapter), $(awk -v b="$bytes" 'BEGIN { printf "%.1f MB, avg %.0f KB", b / 1e6, b / 1e3 / '"$total"' }')"
echo "curl:         $(secs "$curl_ns") s, $(rate "$total" "$curl_ns") pages/s (one process, keep-alive, plain writes, no fsync)"
echo "              (one sync of all curl files afterwards took another $(secs "$sync_ns") s; not counted above)"
echo "MangaCircus:  $(secs "$mc_ns") s, $(rate "$total" "$mc_ns") pages/s (POST to job done, polled every 100 ms)"
echo "              (MangaCircus process CPU meanwhile: $mc_cpu s user+system)"
echo "              (CPU by thread since start: $threads_cpu)"
echo "ratio:        $(awk -v m="$mc_ns" -v c="$curl_ns" 'BEGIN { printf "%.2f", m / c }')x curl time (target <= 1.25)"
echo "verified:     $published pages in $(basename "$series")/, $samples sampled pages byte-identical to the served files"
echo "note: MangaCircus fetches pages one at a time and, per page, fully decodes the image (magic bytes, end marker,"
echo "      ImageIO.read), writes it to a .part file, fsyncs it, renames it, then rewrites checkpoint.json atomically"
echo "      (temp file + fsync + rename + fsync of the staging folder); each chapter is then published by one rename."
