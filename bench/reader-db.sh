#!/usr/bin/env bash
# The reader on PostgreSQL against the reader on SQLite, side by side in one run: two MangaCircus processes (`all`,
# the README's start), one with the default SQLite database and one with `reader.database` on Debian's PostgreSQL 15
# on loopback (bench/reader-postgres.sh; default settings, stopped at the end), the same library
# (bench/ScaleLibrary.java: SERIES series x 10 chapters x 4 pages, hard-linked into both data folders) and the same
# users (USERS readers, each signed in on both). wrk at CONNECTIONS connections, with bench/reader-db.lua, each
# request with the next user's session:
#   progress  PUT /api/progress/<series> {"chapter", "page"} (with the session's CSRF header): a page turned
#   series    GET /api/series?page=N&size=60: the library grid's pages, with each user's read counts per series
# After a warm-up of each, ROUNDS rounds of one run per workload and database, the order rotating each round; every
# run must answer only 2xx with no socket error. Prints each run (requests/s, p50, p99, the CPU per request of the
# reader and of PostgreSQL, and "others": the cores that everything else but wrk used meanwhile) and, per workload,
# the median requests/s of each and the ratio PostgreSQL / SQLite (target >= 0.8).
#
#   bench/reader-db.sh [seconds=10] [connections=64] [rounds=3]      (env SERIES=500 USERS=64 WARMUP=10 KEEP_WORK=1)
set -euo pipefail
cd "$(dirname "$0")/.."
bench_dir=$(pwd)/bench

seconds=${1:-10}
connections=${2:-64}
rounds=${3:-3}
series_count=${SERIES:-500}
users=${USERS:-64}
warmup=${WARMUP:-10}
for n in "$seconds" "$connections" "$rounds" "$series_count" "$users" "$warmup"; do
  [[ "$n" =~ ^[0-9]+$ ]] && [ "$n" -ge 1 ] \
    || { echo "usage: bench/reader-db.sh [seconds=10] [connections=64] [rounds=3] (SERIES, USERS, WARMUP: >= 1)" >&2; exit 2; }
done
threads=2
jar=${MANGACIRCUS_JAR:-launcher/target/mangacircus.jar}
[ -f "$jar" ] || { echo "no jar at $jar: build it (mvn -B -q package -DskipTests) or set MANGACIRCUS_JAR" >&2; exit 2; }
command -v wrk >/dev/null || { echo "wrk is not installed (apt-get install wrk)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 2; }

work=$(mktemp -d)
pg_started=0
mc_pid_sqlite=""; mc_pid_postgres=""
cleanup() {
  for p in "$mc_pid_sqlite" "$mc_pid_postgres"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  for p in "$mc_pid_sqlite" "$mc_pid_postgres"; do [ -n "$p" ] && wait "$p" 2>/dev/null || true; done
  pg_stop
  if [ "${KEEP_WORK:-0}" = 1 ]; then echo "work dir kept: $work" >&2; else rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

. bench/lib.sh
. bench/reader-postgres.sh

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "         $(wrk -v 2>&1 | head -1 | cut -d' ' -f1-2), work dir on $(df -T "$work" | awk 'NR==2 {print $2}'), load average $(cut -d' ' -f1-3 /proc/loadavg)"

# ---- library, database, servers -----------------------------------------------------------------------------------
out=$(java bench/ScaleLibrary.java library "$work/sqlite" "$series_count" 10 4)
read -r _ made_series made_chapters _ _ <<<"$(grep '^LIBRARY ' <<<"$out")"
mkdir -p "$work/postgres"
cp -al "$work/sqlite/library" "$work/postgres/library"
echo "library: $made_series series, $made_chapters chapters x 4 pages (bench/ScaleLibrary.java), the same files in both data folders"
pg_start
mc_java_options
bench_password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
mc_start sqlite all '{}'
mc_start postgres all "$(pg_reader_conf)"
[ -f "$work/sqlite/reader.db" ] || { echo "the SQLite reader has no data/reader.db" >&2; exit 1; }
[ ! -e "$work/postgres/reader.db" ] || { echo "the PostgreSQL reader made a data/reader.db: it is not on PostgreSQL" >&2; exit 1; }

# ---- users and sessions -------------------------------------------------------------------------------------------
for db in sqlite postgres; do
  port_var=mc_port_$db; port=${!port_var}
  IFS=$'\t' read -r admin_cookie admin_csrf <<<"$(mc_login "$port" admin "$bench_password")"
  listed() {
    local n
    n=$(curl -s -H "Cookie: $admin_cookie" "http://127.0.0.1:$port/api/series?page=1&size=1" \
      | python3 -c 'import json,sys; print(json.load(sys.stdin).get("total", 0))' 2>/dev/null || echo 0)
    [ "$n" -ge "$made_series" ]
  }
  wait_for "the $db reader listing $made_series series" 300 listed
  : >"$work/sessions-$db"
  for u in $(seq -w 1 "$users"); do
    curl -s -f -o /dev/null -H "Cookie: $admin_cookie" -H "X-CSRF-Token: $admin_csrf" -H 'Content-Type: application/json' \
      -d "{\"username\":\"reader-$u\",\"password\":\"$bench_password\",\"role\":\"reader\"}" \
      "http://127.0.0.1:$port/api/admin/users" || { echo "creating reader-$u on $db failed" >&2; exit 1; }
    mc_login "$port" "reader-$u" "$bench_password" >>"$work/sessions-$db"
  done
done
pg_users=$(pg_as "$pg_bin/psql" -h "$pg_dir" -p "$pg_port" -U postgres -d bench -tAc 'SELECT count(*) FROM users')
echo "users: admin + $users readers on each, each signed in; PostgreSQL's users table holds $pg_users"

find "$work/sqlite/library" -mindepth 2 -maxdepth 2 -type d -name 'chapter-*' -printf '%h %f 4\n' \
  | sed "s|^$work/sqlite/library/||" | sort >"$work/targets-progress"
for p in $(seq 1 $(( (made_series + 59) / 60 ))); do echo "/api/series?page=$p&size=60"; done >"$work/targets-series"
echo "progress: $(wc -l <"$work/targets-progress") chapters x 4 pages in turn; series: $(wc -l <"$work/targets-series") pages of 60"

# ---- wrk ----------------------------------------------------------------------------------------------------------
# CPU ticks of the PostgreSQL server's processes (the postmaster and its children: backends, writers), for the
# PostgreSQL runs; 0 for the SQLite ones, whose database is inside the reader.
db_ticks() {
  [ "$1" = postgres ] || { echo 0; return; }
  local m; m=$(head -1 "$pg_dir/data/postmaster.pid")
  for p in "$m" $(pgrep -P "$m"); do awk '{print $14 + $15}' "/proc/$p/stat" 2>/dev/null || true; done | awk '{s += $1} END {print s + 0}'
}
# db mode secs -> "rps p50_us p99_us reader_cpu_us_per_request database_cpu_us_per_request others_cores"
run() {
  local db=$1 mode=$2 secs=$3 port_var pid_var out line ticks dbt busy wrk_s others
  port_var=mc_port_$db; pid_var=mc_pid_$db
  ticks=$(awk '{print $14 + $15}' "/proc/${!pid_var}/stat"); dbt=$(db_ticks "$db"); busy=$(busy_ticks)
  out=$(READER_DB_MODE=$mode READER_DB_SESSIONS=$work/sessions-$db READER_DB_TARGETS=$work/targets-$mode \
    /usr/bin/time -f '%U %S' -o "$work/wrk.time" \
    wrk -t "$threads" -c "$connections" -d "${secs}s" --latency -s "$bench_dir/reader-db.lua" "http://127.0.0.1:${!port_var}")
  ticks=$(( $(awk '{print $14 + $15}' "/proc/${!pid_var}/stat") - ticks )); dbt=$(( $(db_ticks "$db") - dbt ))
  busy=$(( $(busy_ticks) - busy ))
  wrk_s=$(awk '{print $1 + $2}' "$work/wrk.time")
  others=$(awk -v b="$busy" -v t="$(( ticks + dbt ))" -v w="$wrk_s" -v hz="$(getconf CLK_TCK)" -v s="$secs" \
    'BEGIN { o = ((b - t) / hz - w) / s; printf "%.2f", o < 0 ? 0 : o }')
  echo "$out" >>"$work/wrk-$db-$mode.log"
  line=$(grep '^RESULT ' <<<"$out") || { echo "$out" >&2; echo "wrk printed no RESULT" >&2; exit 1; }
  set -- $line   # RESULT rps p50 p99 bytes_per_response non2xx socket_errors requests
  if [ "$6" != 0 ] || [ "$7" != 0 ]; then
    echo "$out" >&2
    echo "$db $mode: $6 non-2xx/3xx answers, $7 socket errors of $8 requests" >&2
    exit 1
  fi
  echo "$2 $3 $4 $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$8" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }')" \
    "$(awk -v t="$dbt" -v hz="$(getconf CLK_TCK)" -v n="$8" 'BEGIN { printf "%.0f", t / hz * 1e6 / n }') $others"
}

echo "wrk: $threads threads, $connections connections, ${seconds} s per measured run (warm-up ${warmup} s each)"
for mode in progress series; do for db in sqlite postgres; do run "$db" "$mode" "$warmup" >/dev/null; done; done
# reader cpu: the reader's process (for SQLite, its database too); db cpu: PostgreSQL's processes; others: the cores that
# everything but these and wrk used meanwhile (other jobs on the machine)
printf '%-6s %-9s %-9s %12s %10s %10s %11s %11s %7s\n' round workload database "requests/s" "p50 ms" "p99 ms" \
  "reader us/r" "db us/r" others
declare -A rps_list
for r in $(seq 1 "$rounds"); do
  for mode in progress series; do
    if [ $(( r % 2 )) = 1 ]; then order=(sqlite postgres); else order=(postgres sqlite); fi
    for db in "${order[@]}"; do
      read -r rps p50 p99 cpu dbcpu others <<<"$(run "$db" "$mode" "$seconds")"
      printf '%-6s %-9s %-9s %12s %10s %10s %11s %11s %7s\n' "$r" "$mode" "$db" "$rps" "$(ms "$p50")" "$(ms "$p99")" \
        "$cpu" "$dbcpu" "$others"
      rps_list[$mode-$db]+="$rps "
    done
  done
done

progress_rows=$(pg_as "$pg_bin/psql" -h "$pg_dir" -p "$pg_port" -U postgres -d bench -tAc 'SELECT count(*) FROM progress' 2>/dev/null || echo '?')
echo "PostgreSQL's progress table holds $progress_rows rows after the runs"
for mode in progress series; do
  s=$(printf '%s\n' ${rps_list[$mode-sqlite]} | median); p=$(printf '%s\n' ${rps_list[$mode-postgres]} | median)
  echo "$mode: median SQLite $s requests/s, PostgreSQL $p requests/s, PostgreSQL/SQLite $(awk -v a="$p" -v b="$s" 'BEGIN { printf "%.3f", a / b }') (target >= 0.8)"
done
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
