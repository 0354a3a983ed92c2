#!/bin/sh
# Container HEALTHCHECK: asks the service's /health/ready (URL written by the entrypoint at start) and
# prints the answer for `docker inspect`; healthy only on HTTP 200.
url=$(cat "${TMPDIR:-/tmp}/mangacircus-health-url" 2>/dev/null) || { echo "not started yet"; exit 1; }
answer=$(curl -sS --max-time 4 -w '\nHTTP %{http_code}' "$url" 2>&1) || true
printf '%s\n' "$answer" | cut -c 1-400
case "$answer" in *'HTTP 200') exit 0 ;; *) exit 1 ;; esac
