#!/usr/bin/env bash
# P4 startup recovery at size: bench/ScaleQueue.java writes a queue of JOBS jobs and OPEN open chapters in
# mixed recovery states (complete but unpublished, partial with a valid checkpoint log, torn last checkpoint line,
# corrupt checkpoint, nothing staged) plus staging folders of no job; then MangaCircus (`all`) starts on it twice.
# Usage: bench/scale-recovery.sh [jobs=10000] [open=10000]
#
# The one source, "bench", is a demo-type source at 127.0.0.1 on a closed port (nothing is contacted: every source
# look-up is refused on loopback) and its lane is saved paused, so only recovery works. Recovery settings:
# maxPerPass=$MAX_PER_PASS (default 50) source look-ups a pass, delayMs=$DELAY_MS (default 100) between them.
# Measured, each from the launch of the process (java -jar), times from its own log lines' timestamps:
#   (a) the reader ready: its login page answers 200 (the reader's own readiness), and /health/ready (every service);
#       target < 2 s, the reader does not wait for the scraper's queue or recovery;
#   (b) every chapter the library or staging decides classified (recovery's "classified from the library and staging"
#       line), target within 10 s; the counts per verdict are checked against what the generator wrote;
#   (c) source look-ups of the pass (recovery's per-chapter lines "nothing changed, next pass will look again" / "the
#       source still lists it" / "gone") counted against maxPerPass, and the smallest gap between two against delayMs;
#   (d) a second start: recovery's summary line says 0 complete, 0 gone, 0 jobs given back, and queue.json is
#       byte-identical before and after it (idempotent).
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar. KEEP_WORK=1 keeps the work folder.
set -euo pipefail
cd "$(dirname "$0")/.."
. bench/lib.sh

jobs=${1:-10000}
open=${2:-10000}
max_per_pass=${MAX_PER_PASS:-50}
delay_ms=${DELAY_MS:-100}
jar=$(realpath "${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}")
[ -f "$jar" ] || { echo "no jar at $jar (build: mvn -B -q package -DskipTests)" >&2; exit 1; }
mc_java_options   # the README's start: bin/mangacircus's JVM options and class-data archive (MC_LAUNCH=jar: none)

work=$(mktemp -d)
mc_pid=""
cleanup() {
  if [ -n "$mc_pid" ] && kill -0 "$mc_pid" 2>/dev/null; then kill "$mc_pid" 2>/dev/null || true; wait "$mc_pid" 2>/dev/null || true; fi
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "  work folder kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

cores=$(nproc)
echo "machine: $cores cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
load() { cut -d' ' -f1-3 /proc/loadavg; }
row() { echo "ROW|P4 recovery|$1|$2|$3|$4|$5"; }

data="$work/data"
gen=$(java bench/ScaleQueue.java "$data" "$jobs" "$open")
echo "  generated: $gen"
field() { sed -n "s/.* $1=\([0-9]*\).*/\1/p" <<<" $gen"; }
want_complete=$(field complete); want_partial=$(field partial); want_torn=$(field torn)
want_corrupt=$(field corrupt); want_source=$(field source); want_orphans=$(field orphans)
want_still=$((want_partial + want_torn))
echo "  queue.json: $(( $(stat -c %s "$data/scraper/queue.json") / 1024 / 1024 )) MiB; staging folders: $(find "$data/library" -maxdepth 1 -name '.staging-mcscraper-resume-*' | wc -l)"

closed=$(free_port)   # bound by nobody: every request to it is refused on loopback
cat >"$work/mangacircus.json" <<EOF
{"scraper": {"recovery": {"maxPerPass": $max_per_pass, "delayMs": $delay_ms},
  "sources": {"bench": {"type": "demo", "baseUrl": "http://127.0.0.1:$closed", "pageDelayMs": 0, "chapterDelayMs": 0}}}}
EOF

now_ms() { date +%s%3N; }
# The epoch ms of a log line's ISO timestamp (its first field).
stamp_ms() { date -d "$(cut -d' ' -f1 <<<"$1")" +%s%3N; }
log_line() { grep -m1 -F -- "$2" "$1" || true; }

# Starts MangaCircus (all) on $data, logging to $1: sets mc_pid, port, start_ms, login_ms, ready_ms.
start() {
  local log=$1
  port=$(free_port); hport=$(free_port)
  start_ms=$(now_ms)
  MANGACIRCUS_ADMIN_PASSWORD="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" java $mc_opts -jar "$jar" all \
    --conf "$work/mangacircus.json" --data "$data" --port "$port" --health-port "$hport" >"$log" 2>&1 &
  mc_pid=$!
  login_ms=""; ready_ms=""
  local deadline=$((start_ms + 120000))
  while [ -z "$ready_ms" ]; do
    kill -0 "$mc_pid" 2>/dev/null || { tail -30 "$log" >&2; exit 1; }
    [ "$(now_ms)" -lt "$deadline" ] || { echo "not ready within 120 s" >&2; tail -30 "$log" >&2; exit 1; }
    if [ -z "$login_ms" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/login.html" || true)" = 200 ]; then
      login_ms=$(( $(now_ms) - start_ms ))
    fi
    if [ -n "$login_ms" ] && [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]; then
      ready_ms=$(( $(now_ms) - start_ms ))
    fi
    sleep 0.02
  done
}
stop() {
  kill "$mc_pid"; wait "$mc_pid" 2>/dev/null || true; mc_pid=""
}
await_line() { # log, text, limit s
  local log=$1 text=$2
  summary_seen() { kill -0 "$mc_pid" 2>/dev/null || { tail -30 "$log" >&2; exit 1; }; grep -q -F -- "$text" "$log"; }
  wait_for "log line '$text'" "$3" summary_seen
}

# ---- first start ----------------------------------------------------------------------------------------------------
load_before=$(load)
bare_ms=$(bare_server_ms)
echo "  floor: a bare Vert.x Web server from the same jar answers after $bare_ms ms (load $load_before)"
load_before=$(load)
start "$work/first.log"
echo "  first start: reader login page 200 after $login_ms ms, /health/ready 200 after $ready_ms ms (load $load_before)"
await_line "$work/first.log" "[RECOVERY] done in" $((60 + max_per_pass * (delay_ms + 3000) / 1000))
local_line=$(log_line "$work/first.log" "open chapters classified from the library and staging")
summary=$(log_line "$work/first.log" "[RECOVERY] done in")
load_after=$(load)
echo "  ${local_line#*- }"
echo "  ${summary#*- }"
classified_ms=$(( $(stamp_ms "$local_line") - start_ms ))
recovery_ms=$(sed -n 's/.*classified from the library and staging in \([0-9]*\) ms.*/\1/p' <<<"$local_line")
num() { sed -n "s/.*[ ,:]\([0-9][0-9]*\) $1.*/\1/p" <<<"$2" | head -1; }
complete=$(num complete "$summary"); still=$(num still "$summary"); gone=$(num gone "$summary")
unknown=$(num unknown "$summary"); deferred=$(num deferred "$summary")
orphans=$(sed -n 's/.*; \([0-9-]*\) staging folders belong to no open chapter.*/\1/p' <<<"$local_line")
given_back=$(sed -n 's/.*; \([0-9]*\) jobs given back.*/\1/p' <<<"$summary")
lookups_line=$(sed -n 's/.*; \([0-9]*\) source look-ups (cap.*/\1/p' <<<"$summary")

# (c) the look-ups themselves, from their per-chapter lines
grep -E '\[RECOVERY\] .*(nothing changed, next pass will look again|the source still lists it|: gone \(the source says)' \
  "$work/first.log" | cut -d' ' -f1 >"$work/lookups" || true
lookups=$(wc -l <"$work/lookups")
min_gap=$(while read -r t; do date -d "$t" +%s%3N; done <"$work/lookups" \
  | awk 'NR > 1 { g = $1 - p; if (min == "" || g < min) min = g } { p = $1 } END { print (min == "" ? "-" : min) }')
want_lookups=$(( want_source < max_per_pass ? want_source : max_per_pass ))
want_deferred=$(( want_source - want_lookups ))
counts_ok=yes
[ "$complete" = "$want_complete" ] && [ "$still" = "$want_still" ] && [ "$unknown" = "$((want_corrupt + want_lookups))" ] \
  && [ "$deferred" = "$want_deferred" ] && [ "$orphans" = "$want_orphans" ] || counts_ok=no
echo "  verdicts: $complete complete (wrote $want_complete), $still still (wrote $want_partial partial + $want_torn torn)," \
  "$unknown unknown (wrote $want_corrupt corrupt + $want_lookups looked up at a closed port), $gone gone, $deferred deferred" \
  "(wrote $want_source with nothing staged), $orphans orphan staging folders (wrote $want_orphans), $given_back jobs given" \
  "back: counts as written: $counts_ok"
echo "  source look-ups: $lookups lines, summary says $lookups_line (cap $max_per_pass), smallest gap $min_gap ms (delayMs $delay_ms)"
stop

verdict() { if [ "$1" = 1 ]; then echo "met"; else echo "NOT met"; fi; }
row "reader login page answering after launch" "$login_ms ms" "bare Vert.x Web server $bare_ms ms" "< 2 s" "$(verdict $((login_ms < 2000)))"
row "/health/ready (reader+scraper+supervisor) after launch" "$ready_ms ms" "-" "-" "-"
row "$((open - want_source)) of $open open chapters classified from files, after launch (recovery's own: $recovery_ms ms)" \
  "$classified_ms ms" "-" "< 10 s" "$(verdict $((classified_ms < 10000)))$([ "$counts_ok" = yes ] || echo ', counts differ')"
gap_ok=$([ "$min_gap" = - ] || [ "$min_gap" -ge "$delay_ms" ] && echo 1 || echo 0)
row "source look-ups a pass (cap $max_per_pass), smallest gap (delayMs $delay_ms)" "$lookups, $min_gap ms" "-" \
  "<= $max_per_pass, >= $delay_ms ms" "$(verdict $(( lookups <= max_per_pass && lookups == lookups_line && gap_ok )))"

# ---- second start ---------------------------------------------------------------------------------------------------
before=$(cat "$data/scraper/queue.json" "$data/scraper/queue.json.journal" 2>/dev/null | sha256sum | cut -d' ' -f1)   # the snapshot and its journal
start "$work/second.log"
await_line "$work/second.log" "[RECOVERY] done in" $((60 + max_per_pass * (delay_ms + 3000) / 1000))
summary2=$(log_line "$work/second.log" "[RECOVERY] done in")
stop
after=$(cat "$data/scraper/queue.json" "$data/scraper/queue.json.journal" 2>/dev/null | sha256sum | cut -d' ' -f1)   # the snapshot and its journal
echo "  second start: ${summary2#*- }"
complete2=$(num complete "$summary2"); gone2=$(num gone "$summary2")
given_back2=$(sed -n 's/.*; \([0-9]*\) jobs given back.*/\1/p' <<<"$summary2")
same=$([ "$before" = "$after" ] && echo "unchanged" || echo "CHANGED")
echo "  queue.json across the second start: $same (load $(load))"
row "second start: complete + gone + jobs given back; queue.json" "$((complete2 + gone2 + given_back2)), $same" "-" \
  "0, unchanged" "$(verdict $(( complete2 + gone2 + given_back2 == 0 )) )$([ "$same" = unchanged ] || echo ' (queue.json changed)')"
echo "  load: $load_before before, $load_after after the first start"
