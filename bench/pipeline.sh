#!/usr/bin/env bash
# The download pipeline against the durable floor: the same ~200 KB JPEGs from a local site (bench/BenchSite.java),
# pacing 0, fetched by curl, by the durable floor (bench/DurableFloor.java) and by MangaCircus, in one run.
# Usage: bench/pipeline.sh [pages=2000] [mode=all]
#   mangacircus MangaCircus with default validation alone (for before/after comparisons of a change, with PROFILE)
#   default     curl, the durable floor, MangaCircus with default validation (empty queue)
#   decode      curl, the durable floor, the floor again with --decode (the decode's CPU alone), MangaCircus with
#               "validation": "decode" on the bench source
#   busy-queue  curl, the durable floor, MangaCircus on an empty queue, then MangaCircus with 2,000 other jobs already
#               in queue.json (done, 10 published chapters each, other titles of the same source; never downloaded)
#   all         all of the above (one empty-queue default run shared); the decode run goes last
#   before-after  the cost of a change, side by side: the durable floor and MangaCircus, then the floor without its
#               per-page folder fsync and MangaCircus from $BEFORE_JAR (a jar built from the commit before), each
#               with its own class-data archive
#
# Steps: start the bench site (chapters of 50 pages; it serves from memory), then:
# - curl: ONE sequential curl process over urls.txt (connection reused, files written, no fsync).
# - durable floor: `java bench/DurableFloor.java`, JDK only: sequential keep-alive GETs, and per page write .part +
#   fsync + rename + one appended checkpoint line + fdatasync, nothing else. It times itself from its first request
#   (the source launcher's compile time is not in it) and reports its process CPU over the download.
# - MangaCircus: `all` mode on a fresh data dir, the title added by POST; timed from the POST until the lane logs the
#   job done (the log is polled every 100 ms: polling GET /api/admin/jobs would cost MangaCircus CPU that grows with
#   the queue), title inspection and per-chapter page lists included; then the library is checked (one series folder,
#   every page, sampled pages byte-identical to the served files) and, with a busy queue, that the other jobs are
#   still done and were not fetched.
# For every figure: wall time, pages/s, process CPU per page, the 1-minute load average before and after, and "others":
# the CPU (in cores) everything else on the machine used meanwhile (from /proc/stat minus the measured process).
# Targets (docs/benchmarks.md#download-pipeline): MangaCircus <= 1.5x the durable floor's time and <= 2 ms of CPU per page; with decode
# validation <= 1.5x max(floor time, decode CPU / cores); with a busy queue CPU per page within 10 % of the empty one.
# PROFILE=out.jfr: a JFR recording (1 ms sampling) of each MangaCircus download (the default run writes out.jfr, the
# others out-<run>.jfr); read it with `jfr print --stack-depth 64 --events jdk.ExecutionSample out.jfr`.
# MC_JAVA_OPTS: JVM options for MangaCircus. Each MangaCircus run also prints its CPU by thread group.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (build: mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (honours TMPDIR; it needs about (3 + runs) x pages x 200 KB); KEEP_WORK=1 keeps
# it. Loopback only; every process started here is stopped again.
set -Eeuo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: bench/pipeline.sh [pages=2000] [all|default|decode|busy-queue|mangacircus|before-after]" >&2; exit 2; }
pages=${1:-2000}
mode=${2:-all}
[[ "$pages" =~ ^[0-9]+$ ]] && [ "$pages" -ge 1 ] || usage
case "$mode" in all|default|decode|busy-queue|mangacircus|before-after) ;; *) usage ;; esac
if [ "$mode" = before-after ]; then
  [ -f "${BEFORE_JAR:-}" ] || { echo "before-after needs BEFORE_JAR=<a jar built from the commit before>" >&2; exit 2; }
fi
per_chapter=$(( pages < 50 ? pages : 50 ))
chapters=$(( (pages + per_chapter - 1) / per_chapter ))
total=$(( chapters * per_chapter ))   # rounded up to whole chapters
other_jobs=${BUSY_JOBS:-2000}         # the busy queue's other jobs (10 published chapters each)
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

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
trap 'echo "bench/pipeline.sh: stopped at line $LINENO: $BASH_COMMAND" >&2' ERR

. bench/lib.sh
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

hz=$(getconf CLK_TCK)
cores=$(nproc)
now_ns() { date +%s%N; }
secs() { awk -v ns="$1" 'BEGIN { printf "%.2f", ns / 1e9 }'; }
rate() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.1f", n / (ns / 1e9) }'; }
per_page_ms() { awk -v ns="$1" -v n="$total" 'BEGIN { printf "%.2f", ns / 1e6 / n }'; }   # CPU ns -> ms per page
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }   # user + system, in CLK_TCK
jit_ticks() { # CPU of a process's JIT compiler threads (C1/C2), in CLK_TCK: warm-up of a young JVM, not a per-page cost
  for t in /proc/"$1"/task/*; do
    if grep -q 'CompilerThre' "$t/comm" 2>/dev/null; then awk '{print $14 + $15}' "$t/stat" 2>/dev/null || true; fi
  done | awk '{s += $1} END {print s + 0}'
}
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $9; exit}' /proc/stat; }       # whole machine, process context
load1() { cut -d' ' -f1 /proc/loadavg; }
# CPU (cores) the rest of the machine used: busy ticks over the interval minus the measured process's CPU (ns)
others() { awk -v b="$1" -v cpu="$2" -v ns="$3" -v hz="$hz" 'BEGIN { o = (b / hz - cpu / 1e9) / (ns / 1e9);
  printf "%.2f", o < 0 ? 0 : o }'; }
# One figure line: label, wall ns, CPU ns, load before, load after, others, note
declare -A wall cpu jit
# jit_line label: the figure's CPU per page without the JIT compiler threads' share (set jit[label] first)
jit_line() {
  echo "                    (of which JIT compilation $(per_page_ms "${jit[$1]}") ms/page; without it" \
    "$(per_page_ms $(( ${cpu[$1]} - ${jit[$1]} ))) ms CPU/page)"
}
figure() {
  wall[$1]=$2; cpu[$1]=$3
  printf '%-19s %7s s %8s pages/s %7s ms CPU/page   load %s -> %s, others %s cores   %s\n' "$1:" "$(secs "$2")" \
    "$(rate "$total" "$2")" "$(per_page_ms "$3")" "$4" "$5" "$6" "$7"
}

echo "machine: $cores cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "         work dir on $(df -T "$work" | awk 'NR==2 {print $2}'), mode $mode, load average $(cut -d' ' -f1-3 /proc/loadavg)"

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
echo "pages: $total ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$total" 'BEGIN { printf "%.1f MB, avg %.0f KB", b / 1e6, b / 1e3 / n }')"
sync   # the site's copies are on disk before anything is timed, so their write-back disturbs no run

# ---- sequential curl --------------------------------------------------------------------------------------------
run_curl() {
  local out="$work/curl" l0 b0 start ns
  mkdir -p "$out"
  awk -v out="$out" '{ n = split($0, p, "/"); printf "url = \"%s\"\noutput = \"%s/%s-%s\"\n", $0, out, p[n-1], p[n] }' \
    "$site/urls.txt" >"$work/curl.conf"
  l0=$(load1); b0=$(busy_ticks); start=$(now_ns)
  /usr/bin/time -f '%U %S' -o "$work/curl.time" curl -s -f -K "$work/curl.conf"
  ns=$(( $(now_ns) - start ))
  local c; c=$(awk '{printf "%.0f", ($1 + $2) * 1e9}' "$work/curl.time")
  figure curl "$ns" "$c" "$l0" "$(load1)" "$(others $(( $(busy_ticks) - b0 )) "$c" "$ns")" \
    "(one process, keep-alive, plain writes, no fsync)"
  start=$(now_ns); sync; echo "                    (one sync of curl's files afterwards: $(secs $(( $(now_ns) - start ))) s, not counted)"
  [ "$(find "$out" -name '*.jpg' | wc -l)" -eq "$total" ] || { echo "curl did not write $total files" >&2; exit 1; }
  cmp "$out/c1-001.jpg" "$site/c1/001.jpg"
  cmp "$out/c$chapters-$(printf %03d "$per_chapter").jpg" "$site/c$chapters/$(printf %03d "$per_chapter").jpg"
  rm -rf "$out"
}

# ---- durable floor ----------------------------------------------------------------------------------------------
# label, then DurableFloor's extra arguments (--decode)
run_floor() {
  local label=$1 out="$work/$1" l0 b0 start ns line; shift
  l0=$(load1); b0=$(busy_ticks); start=$(now_ns)
  /usr/bin/time -f '%U %S' -o "$work/$label.time" java bench/DurableFloor.java "$site/urls.txt" "$out" "$@" \
    >"$work/$label.out" 2>"$work/$label.err" || { cat "$work/$label.err" >&2; echo "$label failed" >&2; exit 1; }
  ns=$(( $(now_ns) - start ))
  line=$(grep '^FLOOR ' "$work/$label.out") || { cat "$work/$label.out" "$work/$label.err" >&2; exit 1; }
  local f_wall f_cpu f_decode f_pages
  f_pages=$(sed -E 's/.* pages=([0-9]+).*/\1/' <<<"$line"); f_wall=$(sed -E 's/.* wall_ns=([0-9]+).*/\1/' <<<"$line")
  f_cpu=$(sed -E 's/.* cpu_ns=([0-9]+).*/\1/' <<<"$line"); f_decode=$(sed -E 's/.* decode_cpu_ns=([0-9]+).*/\1/' <<<"$line")
  jit[$label]=$(sed -E 's/.* jit_cpu_ns=([0-9]+).*/\1/' <<<"$line")
  [ "$f_pages" -eq "$total" ] || { echo "$label fetched $f_pages pages, expected $total" >&2; exit 1; }
  [ "$(find "$out" -name '*.jpg' | wc -l)" -eq "$total" ] && [ "$(wc -l <"$out/checkpoint.log")" -eq "$total" ] \
    || { echo "$label did not write $total pages and checkpoint lines" >&2; exit 1; }
  cmp "$out/00001.jpg" "$site/c1/001.jpg"
  cmp "$out/$(printf %05d "$total").jpg" "$site/c$chapters/$(printf %03d "$per_chapter").jpg"
  [ "$(sha256sum "$out/00001.jpg" | cut -d' ' -f1)" = "$(head -1 "$out/checkpoint.log" | sed -E 's/.*"sha256":"([0-9a-f]+)".*/\1/')" ] \
    || { echo "$label: checkpoint hash of page 1 is wrong" >&2; exit 1; }
  # others: over the process's whole life (its compile time included), against its whole CPU
  local whole; whole=$(awk '{printf "%.0f", ($1 + $2) * 1e9}' "$work/$label.time")
  local note="(JDK HttpClient, keep-alive; per page .part + fsync + rename + folder fsync + checkpoint line + fdatasync)"
  case "${1:-}" in
    --decode) note="(as the floor, plus an ImageIO decode of every page, every 4th pixel; decode CPU alone:"\
" $(per_page_ms "$f_decode") ms/page)" ;;
    --no-dir-fsync) note="(as the floor without the folder fsync: durable across a kill, not a power cut)" ;;
  esac
  figure "$label" "$f_wall" "$f_cpu" "$l0" "$(load1)" "$(others $(( $(busy_ticks) - b0 )) "$whole" "$ns")" "$note"
  jit_line "$label"
  [ "${1:-}" != --decode ] || decode_cpu_ns=$f_decode
  rm -rf "$out"
}

# ---- MangaCircus --------------------------------------------------------------------------------------------------
# The busy queue: $other_jobs done jobs (other titles of the bench source), 10 published chapters of 50 pages each,
# written as queue.json of the current schema (scraper-verticle .../queue/QueueStore.java, Job, ChapterEntry).
busy_queue() {
  python3 - "$other_jobs" "$1" <<'EOF'
import json, sys, hashlib
n, path = int(sys.argv[1]), sys.argv[2]
jobs = []
for j in range(1, n + 1):
    title = "other-%05d" % j
    chapters = [{"id": "c%d" % c, "number": str(c), "title": "Chapter %d" % c, "stage": "published", "pages": 50,
                 "fingerprint": hashlib.sha256(("%s/%d" % (title, c)).encode()).hexdigest(), "reason": None}
                for c in range(1, 11)]
    jobs.append({"id": "j-%08x" % j, "source": "bench", "titleId": title, "title": "Other title %d" % j,
                 "state": "done", "inspected": True, "confirmed": True, "attempts": 0, "interruptions": 0,
                 "createdAt": "2026-06-01T03:30:00Z", "updatedAt": "2026-06-01T04:00:00Z", "leasedUntil": None,
                 "leaseOwner": None, "retryAt": None, "reason": None, "chapters": chapters, "networkRetries": 0,
                 "stalls": 0})
with open(path, "w") as f:
    json.dump({"schema": 3, "jobs": jobs, "lanes": {}, "incidents": []}, f, indent=2)
EOF
}

# label, validation ("" = the default), queue.json to start with ("" = none)
run_mc() {
  local label=$1 validation=$2 queue=$3
  local data="$work/data-$label" port hport token extra="" log="$work/mangacircus-$label.log"
  port=$(free_port); hport=$(free_port)
  token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
  mkdir -p "$data"
  if [ -n "$queue" ]; then mkdir -p "$data/scraper"; cp "$queue" "$data/scraper/queue.json"; fi
  [ -z "$validation" ] || extra=", \"validation\": \"$validation\""
  cat >"$work/mangacircus-$label.json" <<EOF
{"scraper": {"claimPollMs": 50, "sources": {"bench": {"type": "demo", "baseUrl": "$base_url", "pageDelayMs": 0, "chapterDelayMs": 0$extra}}}}
EOF
  MANGACIRCUS_ADMIN_TOKEN=$token java ${run_opts-$mc_opts} -jar "${run_jar:-$jar}" all --conf "$work/mangacircus-$label.json" \
    --data "$data" --port "$port" --health-port "$hport" >"$log" 2>&1 &
  mc_pid=$!
  mc_ready() {
    if ! kill -0 "$mc_pid" 2>/dev/null; then
      tail -20 "$log" >&2
      [ -z "$validation" ] || echo "$label: MangaCircus refused to start with \"validation\": \"$validation\" on the" \
        "bench source (this build does not know the option?); no figure" >&2
      exit 1
    fi
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
  }
  wait_for "MangaCircus /health/ready ($label)" 120 mc_ready
  api() { curl -s -f -H "Authorization: Bearer $token" "$@"; }

  local jfr=""
  if [ -n "${PROFILE:-}" ]; then   # the download only, 1 ms sampling (profiles read this way: docs/benchmarks/2026-12-01.md)
    jfr=$(readlink -f "$PROFILE"); [ "$label" = mangacircus ] || jfr="${jfr%.jfr}-$label.jfr"
    local jfc="$work/profile.jfc"
    sed -E '/<event name="jdk.(ExecutionSample|NativeMethodSample)">/,/<\/event>/ s|(<setting name="period"[^>]*>)[^<]*|\11 ms|' \
      "$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")/lib/jfr/profile.jfc" >"$jfc"
    jcmd "$mc_pid" JFR.start name=download settings="$jfc" filename="$jfr" >/dev/null
  fi
  local l0 b0 c0 j0 start job deadline ns c
  # The scraper may join the reader a moment after /health/ready on a loaded machine (503 scraper_unreachable): retry
  # (each try restarts the clock and the counters).
  local added tries=0
  until l0=$(load1); b0=$(busy_ticks); c0=$(cpu_ticks "$mc_pid"); j0=$(jit_ticks "$mc_pid"); start=$(now_ns); added=$(curl -s -w '\n%{http_code}' -H "Authorization: Bearer $token" -X POST -H 'Content-Type: application/json' \
      -d '{"source":"bench","title":"bench","autoConfirm":true}' "http://127.0.0.1:$port/api/admin/jobs") \
      && [ "$(tail -1 <<<"$added")" = 201 ]; do
    tries=$((tries + 1))
    [ "$tries" -lt 30 ] || { echo "$label: adding the title failed: $added" >&2; exit 1; }
    sleep 1
  done
  job=$(grep -o '"id":"j-[0-9a-f]*"' <<<"$added" | head -1 | cut -d'"' -f4 || true)
  [ -n "$job" ] || { echo "$label: adding the title gave no job id: $added" >&2; exit 1; }
  deadline=$(( $(date +%s) + 600 + total / 2 ))   # generous bound: > 2 pages/s or it is a failure anyway
  until grep -q "job $job (.*) done: " "$log"; do
    if grep -E -q "(WARN|ERROR).*\[LANE bench\]" "$log"; then
      grep -E "(WARN|ERROR).*\[LANE bench\]" "$log" | head -5 >&2
      api "http://127.0.0.1:$port/api/admin/jobs" | head -c 2000 >&2; echo >&2
      echo "$label: the lane reported a problem" >&2; exit 1
    fi
    kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$log" >&2; exit 1; }
    [ "$(date +%s)" -lt "$deadline" ] || { echo "$label: job not done in time" >&2; exit 1; }
    sleep 0.1
  done
  ns=$(( $(now_ns) - start ))
  c=$(( ( $(cpu_ticks "$mc_pid") - c0 ) * 1000000000 / hz ))
  jit[$label]=$(( ( $(jit_ticks "$mc_pid") - j0 ) * 1000000000 / hz ))
  local after busy; after=$(load1); busy=$(( $(busy_ticks) - b0 ))
  [ -z "$jfr" ] || jcmd "$mc_pid" JFR.stop name=download >/dev/null

  # where the CPU went, by thread group (whole life of the process, start-up included)
  local threads_cpu
  threads_cpu=$(for t in /proc/"$mc_pid"/task/*; do
    name=$(tr ' ' '_' <"$t/comm"); awk -v n="$name" '{print n, $14 + $15}' "$t/stat"
  done 2>/dev/null | sed -E 's/[0-9]+ / /; s/-[0-9]+ / /' | awk -v hz="$hz" '{s[$1] += $2}
    END {for (k in s) if (s[k] > 0) printf "%s=%.1fs ", k, s[k] / hz}')
  local listing; listing=$(api "http://127.0.0.1:$port/api/admin/jobs")
  kill -TERM "$mc_pid"; local mc_exit=0; wait "$mc_pid" || mc_exit=$?; mc_pid=""
  [ "$mc_exit" -eq 0 ] || { echo "$label: MangaCircus exited $mc_exit on SIGTERM" >&2; exit 1; }

  # ---- verify the library and the queue ----
  local series published samples=0 name
  series=$(find "$data/library" -mindepth 1 -maxdepth 1 -type d ! -name '.*')
  [ "$(echo "$series" | wc -l)" -eq 1 ] || { echo "$label: expected one series folder in the library, found: $series" >&2; exit 1; }
  published=$(find "$series" -path '*/chapter-*/*.jpg' | wc -l)
  [ "$published" -eq "$total" ] || { echo "$label: library holds $published pages, expected $total" >&2; exit 1; }
  for cn in 1 $(( (chapters + 1) / 2 )) "$chapters"; do
    for p in 1 $(( (per_chapter + 1) / 2 )) "$per_chapter"; do
      name=$(printf %03d "$p").jpg
      cmp "$series/$(printf chapter-%04d "$cn")/$name" "$site/c$cn/$name"
      samples=$((samples + 1))
    done
  done
  local done_jobs; done_jobs=$(grep -o '"state":"done"' <<<"$listing" | wc -l)
  local expect_done=1; [ -z "$queue" ] || expect_done=$(( other_jobs + 1 ))
  [ "$done_jobs" -eq "$expect_done" ] || { echo "$label: $done_jobs jobs done, expected $expect_done" >&2; exit 1; }
  if grep -q 'other-[0-9]' "$log"; then grep 'other-[0-9]' "$log" | head -3 >&2; echo "$label: the lane worked on other jobs" >&2; exit 1; fi

  local note="(POST to job done; $published pages verified, $samples sampled byte-identical)"
  [ -z "$queue" ] || note="(with $other_jobs other jobs in the queue, still done, none fetched; $published pages verified)"
  [ -z "$validation" ] || note="(\"validation\": \"$validation\"; $published pages verified, $samples sampled byte-identical)"
  figure "$label" "$ns" "$c" "$l0" "$after" "$(others "$busy" "$c" "$ns")" "$note"
  jit_line "$label"
  echo "                    (CPU by thread since start: $threads_cpu)"
  [ -z "$jfr" ] || echo "                    (JFR recording of the download: $jfr)"
  rm -rf "$data"
}

# ---- targets ----------------------------------------------------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
verdict() { awk -v v="$1" -v t="$2" 'BEGIN { print (v <= t ? "met" : "NOT met") }'; }
target_default() {
  local r p d bound; r=$(ratio "${wall[mangacircus]}" "${wall[floor]}"); p=$(per_page_ms "${cpu[mangacircus]}")
  local w f; w=$(per_page_ms $(( ${cpu[mangacircus]} - ${jit[mangacircus]} ))); f=$(per_page_ms $(( ${cpu[floor]} - ${jit[floor]} )))
  echo "target: MangaCircus / durable floor time: $r (target <= 1.5: $(verdict "$r" 1.5)); CPU per page $p ms (target <= 2: $(verdict "$p" 2));" \
    "$(ratio "${wall[mangacircus]}" "${wall[curl]}")x curl's time"
  echo "        without JIT compilation: MangaCircus $w ms CPU/page (target <= 2: $(verdict "$w" 2)), the durable floor $f ms:" \
    "$(ratio "$w" "$f")x the floor's CPU"
}
target_busy() {
  local r d; r=$(ratio "${cpu[mc-busy-queue]}" "${cpu[mangacircus]}")
  d=$(awk -v r="$r" 'BEGIN { printf "%+.0f", (r - 1) * 100 }')
  echo "target: busy queue: CPU per page $(per_page_ms "${cpu[mc-busy-queue]}") ms vs $(per_page_ms "${cpu[mangacircus]}") ms with an" \
    "empty queue: $d % (target within 10 %: $(awk -v r="$r" 'BEGIN { print (r <= 1.10 && r >= 0.90 ? "met" : "NOT met") }'));" \
    "time $(ratio "${wall[mc-busy-queue]}" "${wall[mangacircus]}")x"
}
target_decode() {
  local r bound
  # the decode's share of the pipeline if spread over every core, or the floor, whichever is longer
  bound=$(awk -v f="${wall[floor]}" -v d="$decode_cpu_ns" -v c="$cores" 'BEGIN { b = d / c; printf "%.0f", (b > f ? b : f) }')
  r=$(ratio "${wall[mc-decode]}" "$bound")
  echo "target: decode validation: $(secs "${wall[mc-decode]}") s vs max(floor $(secs "${wall[floor]}") s, decode CPU" \
    "$(secs "$decode_cpu_ns") s / $cores cores) = $(secs "$bound") s: $r (target <= 1.5: $(verdict "$r" 1.5));" \
    "CPU per page $(per_page_ms "${cpu[mc-decode]}") ms"
  # What the cores allow: MangaCircus's own CPU (its structure walk, fetch and store path, JIT and the decode) spread
  # perfectly over every core, and the share of the cores the run kept busy (docs/benchmarks.md#decode-validation).
  local own use
  own=$(awk -v p="${cpu[mc-decode]}" -v c="$cores" 'BEGIN { printf "%.0f", p / c }')
  use=$(awk -v p="${cpu[mc-decode]}" -v w="${wall[mc-decode]}" -v c="$cores" 'BEGIN { printf "%.0f", p / (w * c) * 100 }')
  echo "        its own CPU $(secs "${cpu[mc-decode]}") s / $cores cores = $(secs "$own") s ($(ratio "$own" "$bound")x the" \
    "bound above): no schedule of this run can be faster; it kept $use % of the cores busy;" \
    "$(secs "${wall[mc-decode]}") s vs max(floor, own CPU / cores) = $(ratio "${wall[mc-decode]}" \
    "$(awk -v a="$own" -v b="${wall[floor]}" 'BEGIN { printf "%.0f", (a > b ? a : b) }')")"
}

# ---- runs -------------------------------------------------------------------------------------------------------
decode_cpu_ns=""
echo "run                 wall      throughput    CPU per page       outside load"
if [ "$mode" = before-after ]; then
  saved_jar=$jar; jar=$BEFORE_JAR; mc_java_options; before_jar=$jar; before_opts=$mc_opts; jar=$saved_jar; mc_java_options
  run_curl; run_floor floor; run_mc mangacircus "" ""; target_default
  run_floor floor-no-dirsync --no-dir-fsync
  run_jar=$before_jar run_opts=$before_opts run_mc mc-before "" ""
  echo "before/after: MangaCircus $(secs "${wall[mc-before]}") s -> $(secs "${wall[mangacircus]}") s" \
    "($(ratio "${wall[mangacircus]}" "${wall[mc-before]}")x); the floor $(secs "${wall[floor-no-dirsync]}") s ->" \
    "$(secs "${wall[floor]}") s ($(ratio "${wall[floor]}" "${wall[floor-no-dirsync]}")x) with its folder fsync;" \
    "before: $(ratio "${wall[mc-before]}" "${wall[floor-no-dirsync]}")x its floor, after:" \
    "$(ratio "${wall[mangacircus]}" "${wall[floor]}")x its floor"
  echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores"
  exit 0
fi
if [ "$mode" != mangacircus ]; then run_curl; run_floor floor; fi
if [ "$mode" = all ] || [ "$mode" = decode ]; then run_floor floor+decode --decode; fi
if [ "$mode" != decode ]; then run_mc mangacircus "" ""; [ "$mode" = mangacircus ] || target_default; fi
if [ "$mode" = all ] || [ "$mode" = busy-queue ]; then
  busy_queue "$work/busy-queue.json"
  run_mc mc-busy-queue "" "$work/busy-queue.json"
  target_busy
fi
if [ "$mode" = all ] || [ "$mode" = decode ]; then run_mc mc-decode decode ""; target_decode; fi
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg) on $cores cores"
