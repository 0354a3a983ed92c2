#!/bin/sh
# MangaCircus container entrypoint: chooses the service (first argument, else $MANGACIRCUS_SERVICE, else all),
# binds to the container's own address unless MANGACIRCUS_BIND or --bind says otherwise, records the
# health URL for the HEALTHCHECK, then execs the JVM so that it is PID 1 and receives SIGTERM itself.
set -eu
set -f   # JAVA_OPTS is split on spaces below; never glob it

case "${1:-}" in
  all|reader|scraper|check) mode=$1; shift ;;
  # shellcheck disable=SC2086
  reset-password) exec java ${JAVA_OPTS:-} -jar /app/mangacircus.jar "$@" ;;   # a one-off command, no service
  ''|-*) mode=${MANGACIRCUS_SERVICE:-all} ;;
  *) exec "$@" ;;   # any other command (a shell, java itself) runs as given
esac
case "$mode" in
  all|reader|scraper|check) ;;
  *) echo "mangacircus-entrypoint: MANGACIRCUS_SERVICE must be all, reader, scraper or check, not '$mode'" >&2; exit 2 ;;
esac

# The options that decide where /health/ready answers; the command line wins over the environment, as in the jar.
port=${MANGACIRCUS_PORT:-8080} health_port=${MANGACIRCUS_HEALTH_PORT:-8081} bind=${MANGACIRCUS_BIND:-}
previous=
for arg in "$@"; do
  case "$previous" in
    --port) port=$arg ;; --health-port) health_port=$arg ;; --bind) bind=$arg ;;
  esac
  case "$arg" in
    --port=*) port=${arg#*=} ;; --health-port=*) health_port=${arg#*=} ;; --bind=*) bind=${arg#*=} ;;
  esac
  previous=$arg
done

# Loopback is unreachable from other containers and 0.0.0.0 cannot be announced to cluster members,
# so by default bind HTTP, Hazelcast and the event bus to this container's IPv4 address.
if [ -z "$bind" ] && [ "$mode" != check ]; then
  bind=$(hostname -i 2>/dev/null | tr ' ' '\n' | grep -E '^[0-9]+(\.[0-9]+){3}$' | grep -v '^127\.' | head -n 1 || true)
  if [ -z "$bind" ]; then
    echo "mangacircus-entrypoint: cannot tell this container's address; set MANGACIRCUS_BIND" >&2
    exit 2
  fi
  export MANGACIRCUS_BIND="$bind"
fi

health_file=${TMPDIR:-/tmp}/mangacircus-health-url
case "$mode" in
  scraper) echo "http://$bind:$health_port/health/ready" > "$health_file" ;;
  all|reader) echo "http://$bind:$port/health/ready" > "$health_file" ;;
  check) ;;
esac

# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} -jar /app/mangacircus.jar "$mode" "$@"
