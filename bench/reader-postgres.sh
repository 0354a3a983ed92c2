#!/usr/bin/env bash
# Sourced by bench/reader-db.sh and bench/reader-failover.sh (not run on its own): Debian's PostgreSQL 15 on loopback
# for a bench, and the MangaCircus starts those benches make.
#   pg_start       initdb into $work/pg (as the user postgres through runuser when this runs as root), a server on a
#                  free loopback port with its socket in that folder only, role and database "bench" with a random
#                  password; sets pg_port, pg_url (no password in it) and exports MC_BENCH_DB_PASSWORD
#   pg_stop        a fast shutdown; the caller's cleanup calls it
#   mc_start NAME MODE CONF_JSON [ARGS...]
#                  starts `mangacircus.jar MODE` ($mc_opts) on $work/NAME (data folder; made if missing) with the config
#                  CONF_JSON, waits for /health/ready (a scraper's on its health port); sets mc_pid_NAME and
#                  mc_port_NAME (NAME: letters, digits, _)
#   mc_login PORT USER PASSWORD
#                  prints "mc_session=...<TAB>csrf token" of a new session
# Uses the caller's work, jar, mc_opts and lib.sh's free_port and wait_for.

pg_bin=/usr/lib/postgresql/15/bin
pg_as() {   # pg_as COMMAND...: as the owner of the cluster's files
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_start() {
  [ -x "$pg_bin/initdb" ] || { echo "no PostgreSQL 15 at $pg_bin (Debian: apt-get install postgresql-15)" >&2; exit 2; }
  pg_dir=$work/pg
  mkdir -p "$pg_dir"
  chmod 700 "$pg_dir"
  [ "$(id -u)" != 0 ] || { chmod o+x "$work"; chown postgres: "$pg_dir"; }
  pg_port=$(free_port)
  MC_BENCH_DB_PASSWORD=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
  export MC_BENCH_DB_PASSWORD
  pg_as "$pg_bin/initdb" -D "$pg_dir/data" --username=postgres --auth-local=trust --auth-host=scram-sha-256 \
    --encoding=UTF8 --locale=C.UTF-8 >"$work/pg-initdb.log" 2>&1 || { cat "$work/pg-initdb.log" >&2; exit 1; }
  pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -l "$pg_dir/server.log" -w -s \
    -o "-c listen_addresses=127.0.0.1 -c port=$pg_port -c unix_socket_directories=$pg_dir" start \
    || { cat "$pg_dir/server.log" >&2; exit 1; }
  pg_started=1
  # The password reaches psql through its environment (\getenv), never a command line.
  pg_as env MC_BENCH_DB_PASSWORD="$MC_BENCH_DB_PASSWORD" "$pg_bin/psql" -h "$pg_dir" -p "$pg_port" -U postgres \
    -d postgres -v ON_ERROR_STOP=1 -q <<'SQL' || exit 1
\getenv password MC_BENCH_DB_PASSWORD
CREATE ROLE bench LOGIN PASSWORD :'password';
CREATE DATABASE bench OWNER bench;
SQL
  pg_url="postgresql://bench@127.0.0.1:$pg_port/bench"
  echo "PostgreSQL: $("$pg_bin/postgres" --version), $pg_url (password from MC_BENCH_DB_PASSWORD), default settings"
}

pg_stop() {
  [ "${pg_started:-0}" = 1 ] || return 0
  pg_as "$pg_bin/pg_ctl" -D "$pg_dir/data" -m fast -w -s stop || true
  pg_started=0
}

# The reader's config for the PostgreSQL run: the database of pg_start, the password from the environment.
pg_reader_conf() {
  printf '{"reader": {"database": "%s", "databasePasswordEnv": "MC_BENCH_DB_PASSWORD"}%s}\n' "$pg_url" "${1:+, $1}"
}

mc_start() {
  local name=$1 mode=$2 conf=$3; shift 3
  local port hport pid ready_port
  port=$(free_port); hport=$(free_port)
  ready_port=$port; [ "$mode" != scraper ] || ready_port=$hport
  mkdir -p "$work/$name"
  printf '%s\n' "$conf" >"$work/$name.json"
  MANGACIRCUS_ADMIN_PASSWORD=$bench_password java $mc_opts -jar "$jar" "$mode" --conf "$work/$name.json" \
    --data "$work/$name" --port "$port" --health-port "$hport" "$@" >"$work/$name.log" 2>&1 &
  pid=$!
  printf -v "mc_pid_$name" '%s' "$pid"
  printf -v "mc_port_$name" '%s' "$port"
  mc_up() {
    kill -0 "$pid" 2>/dev/null || { echo "MangaCircus $name stopped:" >&2; tail -20 "$work/$name.log" >&2; exit 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$ready_port/health/ready" || true)" = 200 ]
  }
  wait_for "MangaCircus $name /health/ready" 180 mc_up
}

mc_login() {
  local answer
  answer=$(curl -s -f -D "$work/login.headers" -H 'Content-Type: application/json' \
    -d "{\"username\":\"$2\",\"password\":\"$3\"}" "http://127.0.0.1:$1/api/login") \
    || { echo "login of $2 on port $1 failed" >&2; exit 1; }
  printf '%s\t%s\n' \
    "$(tr -d '\r' <"$work/login.headers" | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')" \
    "$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["csrfToken"])' "$answer")"
}
