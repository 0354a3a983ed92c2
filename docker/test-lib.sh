# docker/test-lib.sh - what docker/test.sh and docker/test-scale.sh share, sourced by them (not run by itself):
# timed steps and their PASS lines, waiting for a condition, finding a Docker-compatible engine (starting
# ../shared/tools/container-lab.sh as root when none answers) and docker-compose, and the HTTP and JSON helpers.
# Expects ROOT (the checkout) set by the script; the helpers use BASE, ADMIN_TOKEN and cid (the script's container id
# of a service).

begin_test() {   # begin_test NAME: the run's clock, its private work folder, and no MANGACIRCUS_* setting but its own
  LAB=$ROOT/../shared/tools/container-lab.sh
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/mangacircus-$1.XXXXXX")
  chmod 700 "$WORK"
  START=$(date +%s%N)
  STEP_START=$START
  started_lab=0
  failed=1
  summary=()
  local v
  for v in $(compgen -v | grep '^MANGACIRCUS_' || true); do unset "$v"; done
}

# ---- output and timing ---------------------------------------------------------------------------------------
secs() { awk -v a="$1" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }'; }
step() { STEP_START=$(date +%s%N); echo; echo "== $*"; }
note() { echo "   $*"; }
pass() { local line; line=$(printf 'PASS %7ss (at %6ss)  %s' "$(secs "$STEP_START")" "$(secs "$START")" "$*"); echo "$line"; summary+=("$line"); }
fail() { echo "FAIL after $(secs "$START")s: $*" >&2; exit 1; }
wait_for() {   # wait_for SECONDS DESCRIPTION COMMAND...: retry COMMAND every 0.5 s until it succeeds
  local limit=$1 what=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$what: not within ${limit}s"
    sleep 0.5
  done
}
secret() { head -c "$1" /dev/urandom | base64 | tr '+/' '-_'; }   # secret BYTES: random, URL- and env-file-safe

# ---- engine and compose --------------------------------------------------------------------------------------
# Sets COMPOSE_BIN; sets started_lab=1 when it started the lab (the script's cleanup stops it again).
use_engine() {
  command -v curl >/dev/null || fail "curl is needed"
  command -v python3 >/dev/null || fail "python3 is needed"
  if ! docker info >/dev/null 2>&1; then
    if [ -x "$LAB" ] && [ "$(id -u)" = 0 ]; then
      echo "no Docker engine answers; starting $LAB (first use installs podman and builds base images)"
      local lab_was_up
      lab_was_up=$("$LAB" status 2>/dev/null | grep -c '^api socket: running' || true)
      eval "$("$LAB" up)"
      [ "$lab_was_up" = 1 ] || started_lab=1
    elif [ -x "$LAB" ]; then
      eval "$("$LAB" env)"
    fi
    docker info >/dev/null 2>&1 || fail "no Docker-compatible engine (and cannot start $LAB: it needs root)"
  fi
  # Podman without systemd runs no health checks by itself, and the lab's loop that stands in for its timers can leave
  # all but one container "starting" (its `podman healthcheck run` reads the loop's own list from standard input),
  # while compose up waits for them (depends_on: service_healthy). On Podman this run checks its project's starting
  # containers itself, every 2 s, until cleanup stops it (stop_health_checks).
  # (The version is read whole before matching: with pipefail, grep -q closing the pipe early fails the command.)
  local server; server=$(docker version 2>/dev/null || true)
  if [[ $server == *'Podman Engine'* ]] && command -v podman >/dev/null; then
    ( set +e   # ends with the run: cleanup stops it, or it sees the run's shell ($$) gone
      while kill -0 $$ 2>/dev/null && sleep 2; do
        podman ps --filter "label=com.docker.compose.project=$PROJECT" --format '{{.ID}} {{.Status}}' </dev/null \
          2>/dev/null | while read -r id status; do
            case "$status" in *'(starting)'*) podman healthcheck run "$id" </dev/null >/dev/null 2>&1 ;; esac
          done
      done ) &
    HEALTH_CHECKS=$!
  fi
  if command -v docker-compose >/dev/null; then COMPOSE_BIN=(docker-compose)
  elif docker compose version >/dev/null 2>&1; then COMPOSE_BIN=(docker compose)
  else fail "neither docker-compose nor 'docker compose' is installed"; fi
}

port_free() {   # port_free PORT: fails the run when something on 127.0.0.1 listens on it
  if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then
    fail "port $1 on 127.0.0.1 is in use; stop what uses it or run with MC_TEST_PORT=<free port>"
  fi
}

# ---- HTTP and JSON helpers -----------------------------------------------------------------------------------
http_code() { curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" || true; }
json() { python3 -c "import json,sys; d=json.load(sys.stdin); print($1)"; }
admin_jobs() { curl -sf --max-time 5 -H "Authorization: Bearer $ADMIN_TOKEN" "$BASE/api/admin/jobs"; }
job_field() {   # job_field TITLE EXPRESSION(j): EXPRESSION of the job for TITLE, or nothing
  admin_jobs 2>/dev/null | json "next((str($2) for j in d['jobs'] if j['titleId'] == '$1'), '')" 2>/dev/null || true
}
session_get() { curl -sf --max-time 5 -b "$WORK/cookies" "$BASE$1"; }
health() { docker inspect -f '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$1" 2>/dev/null; }
stop_health_checks() { if [ -n "${HEALTH_CHECKS:-}" ]; then kill "$HEALTH_CHECKS" 2>/dev/null; HEALTH_CHECKS=; fi; }
is_healthy() { [ "$(health "$(cid "$1")")" = healthy ]; }
series_listed() { session_get /api/series | json "[s['chapters'] for s in d['series'] if s['id'] == '$1'][0]" 2>/dev/null | grep -q '^[1-9]'; }
