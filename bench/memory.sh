#!/usr/bin/env bash
# Idle memory of the runnable jar, started as the README starts it (bin/mangacircus; MC_LAUNCH=jar: java -jar): RSS
# and heap before any download and 60 s after a download of PAGES pages from a local site (bench/BenchSite.java), in
# `all` mode and for the clustered pair (scraper and reader as two processes). Usage: bench/memory.sh [pages=2000] [all|pair|both=both]
#
# Each figure is printed with the outside load (`uptime`'s load averages) at the moment it was read. Heap figures come
# from `jcmd <pid> GC.heap_info`, which reads them without starting a collection. Loopback only; every process started
# here is stopped again. Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (mvn -B -q package -DskipTests).
# Scratch space: a fresh `mktemp -d` (honours TMPDIR; about 2 x pages x 200 KB per run); KEEP_WORK=1 keeps it.
# Diagnostics only (they change what is measured, so never for the reported figures): MC_JAVA_OPTS passes JVM options
# (e.g. -XX:NativeMemoryTracking=summary); DIAG=<dir> writes, after the 60 s figures are taken, a class histogram of
# live objects (this runs a full GC), native memory summary, thread dump, metaspace and code cache of each process.
set -euo pipefail
cd "$(dirname "$0")/.."

pages=${1:-2000}
which=${2:-both}
[[ "$pages" =~ ^[0-9]+$ ]] && [ "$pages" -ge 1 ] || { echo "usage: bench/memory.sh [pages=2000] [all|pair|both]" >&2; exit 2; }
case "$which" in all|pair|both) ;; *) echo "usage: bench/memory.sh [pages=2000] [all|pair|both]" >&2; exit 2 ;; esac
per_chapter=$(( pages < 50 ? pages : 50 ))
chapters=$(( (pages + per_chapter - 1) / per_chapter ))
total=$(( chapters * per_chapter ))
idle_after=${IDLE_SECONDS:-60}
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
[ -z "${DIAG:-}" ] || mkdir -p "$DIAG"

work=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]:-}"; do [ -n "$p" ] && wait "$p" 2>/dev/null || true; done
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh   # free_port, wait_for
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)
ready() { # pid, port, log
  kill -0 "$1" 2>/dev/null || { tail -20 "$3" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$2/health/ready" || true)" = 200 ]
}
load() { awk '{print $1, $2, $3}' /proc/loadavg; }
mib() { awk -v k="$1" 'BEGIN { printf "%.0f", k / 1024 }'; }
figures() { # pid: "RSS MiB, heap used/committed MiB, threads" read without disturbing the process
  local rss heap threads
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$1/status")
  threads=$(awk '/^Threads/ {print $2}' "/proc/$1/status")
  heap=$(heap_mib "$1")
  printf 'RSS %s MiB, heap used/committed %s MiB, %s threads' "$(mib "$rss")" "${heap:-?}" "$threads"
}
report() { echo "  $1: $(figures "$2")   (load $(load))"; }
diagnose() { # pid, label
  [ -n "${DIAG:-}" ] || return 0
  local f="$DIAG/$2"
  awk '/^Vm|^Rss|^Threads/' "/proc/$1/status" >"$f.status"
  cat "/proc/$1/smaps_rollup" >"$f.smaps_rollup" 2>/dev/null || true
  # resident KiB per mapping (the biggest first): heap, code cache, jars, libjvm, malloc arenas, thread stacks
  awk '/^[0-9a-f]+-[0-9a-f]+ / { name = $6 == "" ? "[anon]" : $6 } /^Rss:/ { rss[name] += $2 }
    END { for (n in rss) printf "%8d KiB  %s\n", rss[n], n }' "/proc/$1/smaps" 2>/dev/null | sort -rn >"$f.smaps_by_file" || true
  jcmd "$1" GC.heap_info >"$f.heap_info" 2>&1 || true
  jcmd "$1" VM.native_memory summary >"$f.nmt" 2>&1 || true
  jcmd "$1" Thread.print >"$f.threads" 2>&1 || true
  jcmd "$1" VM.metaspace >"$f.metaspace" 2>&1 || true
  jcmd "$1" Compiler.codecache >"$f.codecache" 2>&1 || true
  jcmd "$1" VM.flags -all 2>/dev/null | grep -E 'HeapFreeRatio|G1PeriodicGC|HeapSize|UseG1GC ' >"$f.flags" || true
  jcmd "$1" System.trim_native_heap >"$f.trim" 2>&1 || true   # returns free C heap to the system (glibc)
  awk '/^VmRSS/ {print "after System.trim_native_heap:", $0}' "/proc/$1/status" >>"$f.status"
  jcmd "$1" GC.class_histogram >"$f.histogram" 2>&1 || true   # last: it runs a full collection
  awk '/^VmRSS/ {print "after class histogram (full GC):", $0}' "/proc/$1/status" >>"$f.status"
  echo "  (diagnostics of $2 in $DIAG/$2.*)"
}

echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2 / 1048576}' /proc/meminfo), $(java -version 2>&1 | head -1)"
echo "command: java ${mc_opts:+$mc_opts }-jar $jar ..."

# ---- bench site -------------------------------------------------------------------------------------------------
site="$work/site"; mkdir -p "$site"
java -Xmx1g bench/BenchSite.java 0 "$per_chapter" "$chapters" "$site" >"$work/site.out" 2>"$work/site.err" &
site_pid=$!; pids+=("$site_pid")
site_up() { grep -q '^READY ' "$work/site.out" || { kill -0 "$site_pid" 2>/dev/null || { cat "$work/site.err" >&2; exit 1; }; false; }; }
wait_for "bench site" 180 site_up
base_url=$(awk '/^READY / {print $2; exit}' "$work/site.out")
rm -rf "${site:?}"/c*   # only the served copies (in the site's memory) are needed
token="bench-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
source_conf="\"scraper\": {\"claimPollMs\": 50, \"sources\": {\"bench\": {\"type\": \"demo\", \"baseUrl\": \"$base_url\", \"pageDelayMs\": 0, \"chapterDelayMs\": 0}}}"

download() { # reader port, data dir: adds the title and waits until the job is done
  local port=$1 data=$2 state deadline
  curl -s -f -H "Authorization: Bearer $token" -o /dev/null -X POST -H 'Content-Type: application/json' \
    -d '{"source":"bench","title":"bench","autoConfirm":true}' "http://127.0.0.1:$port/api/admin/jobs"
  deadline=$(( $(date +%s) + 600 + total / 2 ))
  while :; do
    state=$({ curl -s -f -H "Authorization: Bearer $token" "http://127.0.0.1:$port/api/admin/jobs" || true; } \
      | grep -o '"state":"[a-z_]*"' | head -1 | cut -d'"' -f4 || true)
    [ "$state" = done ] && break
    case "$state" in paused|unavailable|quarantined|retry_wait) echo "job went $state" >&2; exit 1 ;; esac
    [ "$(date +%s)" -lt "$deadline" ] || { echo "job not done in time (state $state)" >&2; exit 1; }
    sleep 0.2
  done
  local got; got=$(find "$data/library" -path '*/chapter-*/*.jpg' | wc -l)
  [ "$got" -eq "$total" ] || { echo "library holds $got pages, expected $total" >&2; exit 1; }
}
stop() { # pid: SIGTERM, must exit 0
  local code=0; kill -TERM "$1"; wait "$1" || code=$?
  [ "$code" -eq 0 ] || { echo "process $1 exited $code on SIGTERM" >&2; exit 1; }
}

# ---- all mode ---------------------------------------------------------------------------------------------------
if [ "$which" != pair ]; then
  port=$(free_port); hport=$(free_port); data="$work/all"
  echo "{$source_conf}" >"$work/all.json"
  # shellcheck disable=SC2086
  MANGACIRCUS_ADMIN_TOKEN=$token java $mc_opts -jar "$jar" all --conf "$work/all.json" --data "$data" \
    --port "$port" --health-port "$hport" >"$work/all.log" 2>&1 &
  pid=$!; pids+=("$pid")
  wait_for "all /health/ready" 120 ready "$pid" "$port" "$work/all.log"
  grep -m1 'memory:' "$work/all.log" | sed 's/^/  log: /' || true
  sleep 10
  echo "all mode ($total pages):"
  report "idle 10 s after ready, before any download" "$pid"
  start=$(date +%s%N); download "$port" "$data"
  echo "  download: $(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }') s"
  report "right after the job is done" "$pid"
  sleep "$idle_after"
  report "idle $idle_after s after the download" "$pid"
  diagnose "$pid" all
  stop "$pid"
fi

# ---- the clustered pair -----------------------------------------------------------------------------------------
if [ "$which" != all ]; then
  sc=$(free_port); rc=$(free_port); rport=$(free_port); hport=$(free_port); data="$work/pair"
  name="memory-$RANDOM$RANDOM"
  for m in s r; do
    p=$sc; [ "$m" = r ] && p=$rc
    echo "{\"cluster\":{\"name\":\"$name\",\"port\":$p,\"members\":[\"127.0.0.1:$sc\",\"127.0.0.1:$rc\"]}, $source_conf}" >"$work/pair-$m.json"
  done
  # shellcheck disable=SC2086
  java $mc_opts -jar "$jar" scraper --cluster --conf "$work/pair-s.json" --data "$data" --health-port "$hport" \
    >"$work/pair-s.log" 2>&1 &
  s=$!; pids+=("$s")
  wait_for "scraper /health/ready" 120 ready "$s" "$hport" "$work/pair-s.log"
  # shellcheck disable=SC2086
  MANGACIRCUS_ADMIN_TOKEN=$token java $mc_opts -jar "$jar" reader --cluster --conf "$work/pair-r.json" \
    --data "$data" --port "$rport" >"$work/pair-r.log" 2>&1 &
  r=$!; pids+=("$r")
  wait_for "reader /health/ready" 120 ready "$r" "$rport" "$work/pair-r.log"
  sleep 10
  echo "pair ($total pages, scraper and reader as two processes, --cluster):"
  report "reader,  idle 10 s after ready, before any download" "$r"
  report "scraper, idle 10 s after ready, before any download" "$s"
  start=$(date +%s%N); download "$rport" "$data"
  echo "  download: $(awk -v ns=$(( $(date +%s%N) - start )) 'BEGIN { printf "%.1f", ns / 1e9 }') s"
  sleep "$idle_after"
  report "reader,  idle $idle_after s after the download" "$r"
  report "scraper, idle $idle_after s after the download" "$s"
  diagnose "$r" pair-reader
  diagnose "$s" pair-scraper
  stop "$r"; stop "$s"
fi
