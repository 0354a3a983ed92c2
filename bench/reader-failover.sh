#!/usr/bin/env bash
# A reader killed under load behind nginx: one scraper and two readers (`reader --cluster`, the README's start) in a
# cluster on loopback, both readers on Debian's PostgreSQL 15 (bench/reader-postgres.sh), each with its own data
# folder whose library is a link to the scraper's (bench_library of bench/lib.sh: 4 chapters x 50 page images of
# ~195 KB); nginx on the host with docker/nginx/nginx.conf (the scaled deployment's own config, its upstreams and
# paths pointed at loopback and this run's folder). wrk GETs the page images through nginx with one admin session
# (bench/pages.lua) for SECONDS; after a third of them reader A gets `kill -9`. Prints wrk's totals, the non-2xx
# answers and socket errors (target: 0 failed page GETs: nginx sends a request that meets the dead reader to the
# other one), the requests nginx sent twice (from its log), and "others": the cores that everything but this run's
# processes (readers, scraper, PostgreSQL, nginx, wrk) used meanwhile.
#
#   bench/reader-failover.sh [seconds=30] [connections=32]        (env KEEP_WORK=1 keeps the work folder)
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

seconds=${1:-30}
connections=${2:-32}
for n in "$seconds" "$connections"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 3 ] || { echo "usage: bench/reader-failover.sh [seconds=30] [connections=32] (each >= 3)" >&2; exit 2; }
done
threads=2
chapters=4; per_chapter=50
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx is not installed (apt-get install nginx)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as another user when this runs as root: they write their temp files here
pg_started=0
site_pid=""; nginx_pid=""; mc_pid_scraper=""; mc_pid_reader_a=""; mc_pid_reader_b=""
cleanup() {
  for p in "$nginx_pid" "$mc_pid_reader_a" "$mc_pid_reader_b" "$mc_pid_scraper" "$site_pid"; do
    [ -n "$p" ] && kill "$p" 2>/dev/null || true
  done
  for p in "$nginx_pid" "$mc_pid_reader_a" "$mc_pid_reader_b" "$mc_pid_scraper" "$site_pid"; do
    [ -n "$p" ] && wait "$p" 2>/dev/null || true
  done
  pg_stop
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh
. bench/reader-postgres.sh

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "         $("$nginx_bin" -v 2>&1), $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- library, database, cluster -----------------------------------------------------------------------------------
bench_library   # lib.sh: $work/data/library/bench, $work/reader.paths
echo "library: $pages pages ($chapters chapters x $per_chapter), $(awk -v b="$bytes" -v n="$pages" 'BEGIN { printf "%.1f MB, avg %.0f KB", b / 1e6, b / 1e3 / n }')"
pg_start
mc_java_options
bench_password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
cluster_name="mc-bench-$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')"
c_scraper=$(free_port); c_a=$(free_port); c_b=$(free_port)
members="\"127.0.0.1:$c_scraper\", \"127.0.0.1:$c_a\", \"127.0.0.1:$c_b\""
cluster() { printf '"cluster": {"name": "%s", "port": %d, "members": [%s]}' "$cluster_name" "$1" "$members"; }
mv "$work/data" "$work/scraper"
mkdir -p "$work/reader_a" "$work/reader_b"
ln -s "$work/scraper/library" "$work/reader_a/library"
ln -s "$work/scraper/library" "$work/reader_b/library"
mc_start scraper scraper "{$(cluster "$c_scraper")}" --cluster
# A first, alone: it migrates the empty database and makes the admin; then B.
mc_start reader_a reader "$(pg_reader_conf "$(cluster "$c_a")")" --cluster
mc_start reader_b reader "$(pg_reader_conf "$(cluster "$c_b")")" --cluster
echo "cluster $cluster_name on loopback: scraper (pid $mc_pid_scraper), reader A (pid $mc_pid_reader_a, port $mc_port_reader_a), reader B (pid $mc_pid_reader_b, port $mc_port_reader_b)"

# ---- nginx: the deployment's config on loopback -------------------------------------------------------------------
nport=$(free_port)
sed -e "s|reader-a:8080|127.0.0.1:$mc_port_reader_a|g" -e "s|reader-b:8080|127.0.0.1:$mc_port_reader_b|g" \
    -e "s|listen 8080;|listen 127.0.0.1:$nport;|" -e "s|/tmp/|$work/|g" \
    -e "s|access_log /dev/stdout upstreams;|access_log $work/nginx-access.log upstreams;|" \
    -e "s|error_log stderr warn;|error_log $work/nginx-error.log warn;|" \
    docker/nginx/nginx.conf >"$work/nginx.conf"
"$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/nginx-stderr.log" -g 'daemon off;' &
nginx_pid=$!
base=http://127.0.0.1:$nport
nginx_up() {
  kill -0 "$nginx_pid" 2>/dev/null || { cat "$work/nginx-stderr.log" >&2; exit 1; }
  [ "$(curl -s -o /dev/null -w '%{http_code}' "$base/nginx-health" || true)" = 200 ]
}
wait_for "nginx" 20 nginx_up
IFS=$'\t' read -r cookie _ <<<"$(mc_login "$nport" admin "$bench_password")"
first=$(head -1 "$work/reader.paths"); last=$(tail -1 "$work/reader.paths")
page_ok() { [ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "$base$last")" = 200 ]; }
wait_for "the readers serving the last page through nginx" 120 page_ok
for p in "$first" "$last"; do
  cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$mc_port_reader_a$p") \
      <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$mc_port_reader_b$p") \
    || { echo "reader A and reader B differ on $p with the session made through nginx" >&2; exit 1; }
done
echo "nginx $base in front of both; one admin session (made through nginx) serves the same page bytes on A and B"

# ---- wrk, and kill -9 of reader A -----------------------------------------------------------------------------------
pg_pids() { local m; m=$(head -1 "$pg_dir/data/postmaster.pid" 2>/dev/null) && { echo "$m"; pgrep -P "$m" || true; }; }
ticks_of() { local p; for p in "$@"; do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || true; done | awk '{s += $1} END {print s + 0}'; }
ours() { echo "$mc_pid_scraper $mc_pid_reader_a $mc_pid_reader_b $nginx_pid $(pgrep -P "$nginx_pid" | tr '\n' ' ') $(pg_pids | tr '\n' ' ')"; }
: >"$work/nginx-access.log"
kill -USR1 "$nginx_pid"   # reopen the log: only the measured run's requests in it
kill_after=$(( seconds / 3 ))
echo "wrk: $threads threads, $connections connections, ${seconds} s of page GETs through nginx; kill -9 of reader A after ${kill_after} s"
busy=$(busy_ticks); ours_before=$(ticks_of $(ours))
PAGES_FILE=$work/reader.paths PAGES_COOKIE=$cookie /usr/bin/time -f '%U %S' -o "$work/wrk.time" \
  wrk -t "$threads" -c "$connections" -d "${seconds}s" --latency -s "$bench_dir/pages.lua" "$base" >"$work/wrk.out" &
wrk_pid=$!
sleep "$kill_after"
a_ticks=$(ticks_of "$mc_pid_reader_a")
kill -9 "$mc_pid_reader_a"
wait "$mc_pid_reader_a" 2>/dev/null || true
mc_pid_reader_a=""
echo "reader A killed (kill -9) at $(date -u +%H:%M:%S) UTC"
wait "$wrk_pid"
busy=$(( $(busy_ticks) - busy ))
ours_after=$(( $(ticks_of $(ours)) + a_ticks ))
wrk_s=$(awk '{print $1 + $2}' "$work/wrk.time")
others=$(awk -v b="$busy" -v t="$(( ours_after - ours_before ))" -v w="$wrk_s" -v hz="$(getconf CLK_TCK)" -v s="$seconds" \
  'BEGIN { o = ((b - t) / hz - w) / s; printf "%.2f", o < 0 ? 0 : o }')

sed -n '/Thread Stats/,/Transfer\/sec/p' "$work/wrk.out"
read -r _ rps p50 p99 per non2xx errors requests <<<"$(grep '^RESULT ' "$work/wrk.out")"
# The log's upstream field names two readers ("a, b") for a request nginx sent to the second after the first failed.
retried=$(grep -c 'upstream=[^ ]*, ' "$work/nginx-access.log" || true)
statuses=$(awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^"?[A-Z]+$/ && $(i+1) ~ /^\// ) { print $(i+3); break } }' "$work/nginx-access.log" \
  | sort | uniq -c | awk '{printf "%s%s x %s", (NR > 1 ? ", " : ""), $2, $1}')
b_ok=$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: $cookie" "$base$first")
echo "requests: $requests in ${seconds} s ($rps requests/s, p50 $(ms "$p50") ms, p99 $(ms "$p99") ms, $per bytes per answer)"
echo "failed page GETs: $non2xx non-2xx answers, $errors socket errors (target 0); nginx's log: statuses $statuses; $retried requests sent to the second reader after the first failed"
# What nginx met at reader A: refused connections and resets before an answer are retried on B; an answer already
# begun when its reader dies cannot be (its status line went out), so nginx closes that client's connection.
echo "nginx's error log: $(grep -oE 'upstream prematurely closed connection|Connection refused|Connection reset by peer|upstream timed out' "$work/nginx-error.log" \
  | sort | uniq -c | awk '{c = $1; $1 = ""; printf "%s%s x%s", (NR > 1 ? ", " : ""), c, $0}')"
echo "after the run: the same session through nginx (reader B alone) answers $b_ok"
echo "others: $others cores (everything but the readers, scraper, PostgreSQL, nginx and wrk); load average $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$non2xx" = 0 ] && [ "$errors" = 0 ] && [ "$b_ok" = 200 ]; then echo "target met: 0 failed page GETs"; else echo "target NOT met"; exit 1; fi
