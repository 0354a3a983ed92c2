#!/bin/sh
# PostgreSQL container entrypoint: on the first start (an empty $PGDATA) makes the cluster, the role $POSTGRES_USER
# with the password from $POSTGRES_PASSWORD_FILE or $POSTGRES_PASSWORD and the database $POSTGRES_DB it owns; then
# execs the server listening on every address, password (SCRAM) logins only over TCP.
set -eu
: "${PGDATA:?}" "${POSTGRES_USER:?}" "${POSTGRES_DB:?}"

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -n "${POSTGRES_PASSWORD_FILE:-}" ]; then
    [ -r "$POSTGRES_PASSWORD_FILE" ] || { echo "mangacircus-postgres: POSTGRES_PASSWORD_FILE $POSTGRES_PASSWORD_FILE is not readable" >&2; exit 2; }
    POSTGRES_PASSWORD=$(cat "$POSTGRES_PASSWORD_FILE")
  fi
  [ -n "${POSTGRES_PASSWORD:-}" ] || { echo "mangacircus-postgres: the first start needs POSTGRES_PASSWORD or POSTGRES_PASSWORD_FILE" >&2; exit 2; }
  export POSTGRES_PASSWORD
  echo "mangacircus-postgres: first start: creating the cluster in $PGDATA, role $POSTGRES_USER, database $POSTGRES_DB"
  # The superuser 'postgres' logs in only over the local socket as the OS user postgres (peer); nobody over TCP.
  initdb -D "$PGDATA" --username=postgres --auth-local=peer --auth-host=scram-sha-256 --encoding=UTF8 \
    --locale=C.UTF-8 > /tmp/initdb.log 2>&1 || { cat /tmp/initdb.log >&2; exit 1; }
  cat >> "$PGDATA/postgresql.conf" <<CONF
listen_addresses = '*'
unix_socket_directories = '/tmp'
password_encryption = 'scram-sha-256'
CONF
  cat >> "$PGDATA/pg_hba.conf" <<HBA
host all postgres 0.0.0.0/0 reject
host all postgres ::/0 reject
host all all 0.0.0.0/0 scram-sha-256
host all all ::/0 scram-sha-256
HBA
  pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w -s start
  # The password reaches psql through its environment (\getenv), never a command line or a log.
  psql -h /tmp -U postgres -d postgres -v ON_ERROR_STOP=1 -q <<'SQL'
\getenv password POSTGRES_PASSWORD
\getenv role POSTGRES_USER
\getenv db POSTGRES_DB
CREATE ROLE :"role" LOGIN PASSWORD :'password';
CREATE DATABASE :"db" OWNER :"role";
SQL
  pg_ctl -D "$PGDATA" -m fast -w -s stop
  unset POSTGRES_PASSWORD
fi
exec postgres -D "$PGDATA"
