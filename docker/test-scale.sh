#!/usr/bin/env bash
# docker/test-scale.sh - proves docker/compose.scale.yml end to end on whatever Docker-compatible engine the machine
# has (without one, as root, it starts ../shared/tools/container-lab.sh and stops it again at the end):
#   1. builds the three images (MangaCircus, PostgreSQL, nginx)
#   2. every service becomes healthy: postgres, scraper, reader-a, reader-b, nginx
#   3. through nginx: /health/ready and the UI answer; the readers keep their accounts in PostgreSQL, not SQLite;
#      the database password (a compose secret file) is in no log and no container's environment
#   4. a login through nginx gives a session that both readers accept (asked directly on the compose network), and
#      nginx spreads requests over both readers
#   5. a demo download publishes a chapter that the readers list and serve through nginx (library mounted read-only)
#   6. docker-compose stop reader-a: login, the old session and page reads through nginx still answer, every one 200
# Each step prints its timing. Everything it creates (containers, network, volumes) is removed on exit, pass or fail;
# the images are kept unless MC_TEST_RMI=1. Needs bash, curl, python3 and docker-compose (or `docker compose`).
# Options (environment): MC_TEST_PORT  host port for nginx (default 8080; 127.0.0.1 only)
#                        MC_TEST_RMI=1 also remove the images;  MC_TEST_KEEP_LAB=1 leave a lab this script started
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PROJECT=mcscale
PORT=${MC_TEST_PORT:-8080}
# shellcheck source=docker/test-lib.sh
. "$ROOT/docker/test-lib.sh"
begin_test scale-test
use_engine

# PostgreSQL and nginx are built from Debian 12; where debian:bookworm-slim cannot be had (no registry), the
# MangaCircus runtime image's own base, also Debian 12, stands in.
debian_image=debian:bookworm-slim
docker image inspect "$debian_image" >/dev/null 2>&1 || docker pull -q "$debian_image" >/dev/null 2>&1 \
  || debian_image=eclipse-temurin:17-jre

# The database password as the compose file wants it: a file, readable inside the containers, in a folder only
# this run's user may enter.
install -d -m 700 "$WORK/secrets"
(umask 022; secret 18 > "$WORK/secrets/database-password")
umask 077
cat > "$WORK/test.env" <<EOF
MANGACIRCUS_IMAGE=mangacircus:test
MANGACIRCUS_POSTGRES_IMAGE=mangacircus-postgres:test
MANGACIRCUS_NGINX_IMAGE=mangacircus-nginx:test
MANGACIRCUS_DEBIAN_IMAGE=$debian_image
MANGACIRCUS_SCALE_VOLUMES=$PROJECT
MANGACIRCUS_PUBLISH=127.0.0.1:$PORT
MANGACIRCUS_DATABASE_PASSWORD_FILE=$WORK/secrets/database-password
MANGACIRCUS_ADMIN_PASSWORD=$(secret 18)
MANGACIRCUS_ADMIN_TOKEN=$(secret 24)
MANGACIRCUS_CLUSTER_NAME=$PROJECT
EOF
umask 022
ADMIN_PASSWORD=$(sed -n 's/^MANGACIRCUS_ADMIN_PASSWORD=//p' "$WORK/test.env")
ADMIN_TOKEN=$(sed -n 's/^MANGACIRCUS_ADMIN_TOKEN=//p' "$WORK/test.env")
DB_PASSWORD=$(cat "$WORK/secrets/database-password")
compose() { "${COMPOSE_BIN[@]}" --env-file "$WORK/test.env" -p "$PROJECT" -f docker/compose.scale.yml -f docker/compose.demo.yml "$@"; }
cid() { compose ps -q "$1"; }
BASE=http://127.0.0.1:$PORT
SERVICES=(postgres scraper reader-a reader-b nginx)
VOLUMES=(postgres scraper library reader-a reader-b)

cleanup() {
  local rc=$?
  set +e
  if [ "$failed" = 1 ]; then
    echo; echo "---- last log lines ----"
    compose logs --no-color --tail=30 2>&1 | grep -v '^\s*at ' | tail -150
  fi
  echo; echo "cleaning up: containers, network and volumes of project $PROJECT"
  compose down -v --remove-orphans -t 30 >/dev/null 2>&1
  for v in "${VOLUMES[@]}"; do docker volume rm -f "$PROJECT-$v" >/dev/null 2>&1; done
  [ "${MC_TEST_RMI:-0}" = 1 ] && docker rmi mangacircus:test mangacircus-postgres:test mangacircus-nginx:test >/dev/null 2>&1
  stop_health_checks
  rm -rf "$WORK"
  if [ "$started_lab" = 1 ] && [ "${MC_TEST_KEEP_LAB:-0}" != 1 ]; then "$LAB" down; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- HTTP and JSON helpers -----------------------------------------------------------------------------------
login() {   # login COOKIE_FILE: a session through nginx (the cookie jar COOKIE_FILE)
  rm -f "$1"
  curl -sf --max-time 10 -c "$1" -H 'Content-Type: application/json' \
    -d "{\"username\":\"admin\",\"password\":\"$ADMIN_PASSWORD\"}" "$BASE/api/login" | json "d['csrfToken']" > /dev/null
}
all_healthy() { local s; for s in "${SERVICES[@]}"; do is_healthy "$s" || return 1; done; }
health_list() { local s; for s in "${SERVICES[@]}"; do printf '%s=%s ' "$s" "$(health "$(cid "$s")")"; done; }
reader_ip() { docker inspect -f '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$(cid "$1")"; }
# direct READER PATH: the HTTP status of GET PATH on that reader itself (asked from nginx's container, on the compose
# network) with the session of $WORK/cookies
direct() {
  local session; session=$(awk '$6 == "mc_session" {print $7}' "$WORK/cookies")
  compose exec -T nginx curl -s -o /dev/null -w '%{http_code}' --max-time 5 -H "Cookie: mc_session=$session" \
    "http://$(reader_ip "$1"):8080$2" || true
}

port_free "$PORT"
compose down -v --remove-orphans -t 30 >/dev/null 2>&1 || true   # leftovers of an interrupted run

# ---- 1. build ------------------------------------------------------------------------------------------------
step "1. build the images with ${COMPOSE_BIN[*]} (PostgreSQL and nginx from $debian_image)"
compose build > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; fail "image build failed"; }
for image in mangacircus:test mangacircus-postgres:test mangacircus-nginx:test; do
  [ "$(docker run --rm --entrypoint id "$image" -u)" != 0 ] || fail "$image runs as root"
  env_in_image=$(docker image inspect -f '{{json .Config.Env}}' "$image")
  case "$env_in_image" in *PASSWORD=*|*TOKEN=*) fail "$image carries a secret in its environment: $env_in_image" ;; esac
done
pass "three images built; none runs as root or carries a password or token"

# ---- 2. up and healthy ---------------------------------------------------------------------------------------
step "2. docker-compose up: ${SERVICES[*]} become healthy"
compose up -d > "$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; fail "docker-compose up failed"; }
wait_for 300 "every service healthy" all_healthy
pass "every service healthy: $(health_list)"

# ---- 3. through nginx ----------------------------------------------------------------------------------------
step "3. through nginx on 127.0.0.1:$PORT: readiness, the UI; accounts in PostgreSQL"
code=$(http_code "$BASE/health/ready")
[ "$code" = 200 ] || fail "GET /health/ready through nginx answered $code"
curl -sf --max-time 5 -o "$WORK/index.html" "$BASE/" && grep -qE '<title>[^<]*MangaCircus' "$WORK/index.html" \
  || fail "GET / through nginx is not the MangaCircus page"
users=$(compose exec -T postgres psql -h /tmp -U postgres -d mangacircus -tAc "SELECT count(*) FROM users" 2>&1 | tr -d '\r') \
  || fail "the users table is not in PostgreSQL: $users"
[ "$users" -ge 1 ] 2>/dev/null || fail "PostgreSQL holds no user: $users"
for r in reader-a reader-b; do
  if compose exec -T "$r" ls /data/reader.db >/dev/null 2>&1; then fail "$r made a SQLite reader.db"; fi
done
if compose logs --no-color 2>&1 | grep -qF "$DB_PASSWORD"; then fail "a log line holds the database password"; fi
for s in postgres reader-a reader-b; do
  if docker inspect -f '{{json .Config.Env}}' "$(cid "$s")" | grep -qF "$DB_PASSWORD"; then
    fail "$s has the database password in its environment (docker inspect shows it)"
  fi
done
pass "GET /health/ready 200 and the UI through nginx; $users user(s) in PostgreSQL, no reader.db; no log or container environment holds the password"

# ---- 4. one session, two readers -----------------------------------------------------------------------------
step "4. a login through nginx; both readers accept its session; nginx uses both"
login "$WORK/cookies" || fail "POST /api/login through nginx failed"
for r in reader-a reader-b; do
  code=$(direct "$r" /api/me)
  [ "$code" = 200 ] || fail "$r answered $code to GET /api/me with the session made through nginx"
done
for _ in $(seq 1 10); do session_get /api/me >/dev/null || fail "GET /api/me through nginx failed"; done
upstreams=$(compose logs --no-color nginx 2>&1 | grep -o 'upstream=[0-9.:]*' | sort -u | wc -l)
[ "$upstreams" -ge 2 ] || fail "nginx sent every request to one reader: $(compose logs --no-color nginx | grep -o 'upstream=[0-9.:]*' | sort | uniq -c | tr '\n' ' ')"
pass "GET /api/me 200 on reader-a and reader-b with the cookie from nginx; nginx used $upstreams readers"

# ---- 5. demo download ----------------------------------------------------------------------------------------
step "5. a demo download publishes a chapter that the readers list and serve through nginx"
published_at_least() { [ "$(job_field "$1" "j['chaptersPublished']")" -ge "$2" ] 2>/dev/null; }
wait_for 180 "the demo job publishes a chapter" published_at_least circus-nights 1
wait_for 90 "the readers list circus-nights" series_listed circus-nights
PAGE=/api/series/circus-nights/chapters/chapter-0001/pages/1
for r in reader-a reader-b; do
  code=$(direct "$r" "$PAGE"); [ "$code" = 200 ] || fail "$r answered $code for $PAGE"
done
page=$(curl -s -o "$WORK/page" -w '%{http_code} %{content_type}' -b "$WORK/cookies" "$BASE$PAGE")
[ "${page%% *}" = 200 ] || fail "page 1 of chapter-0001 through nginx answered $page"
if compose exec -T reader-a touch /data/library/.write-test >/dev/null 2>&1; then fail "reader-a can write the library"; fi
pass "chapter-0001 listed; page 1 served by both readers and through nginx ($page, $(wc -c < "$WORK/page") bytes); the readers cannot write the library"

# ---- 6. one reader stopped -----------------------------------------------------------------------------------
step "6. docker-compose stop reader-a: login, the session and page reads through nginx still answer"
compose stop -t 30 reader-a > "$WORK/stop.log" 2>&1 || { cat "$WORK/stop.log"; fail "stopping reader-a failed"; }
note "reader-a stopped after $(secs "$STEP_START")s"
codes=()
for _ in $(seq 1 10); do
  codes+=("$(http_code -b "$WORK/cookies" "$BASE$PAGE")" "$(http_code -b "$WORK/cookies" "$BASE/api/me")")
done
bad=$(printf '%s\n' "${codes[@]}" | grep -vc '^200$' || true)
[ "$bad" = 0 ] || fail "with reader-a stopped, $bad of ${#codes[@]} page and /api/me reads through nginx were not 200: ${codes[*]}"
login "$WORK/cookies2" || fail "POST /api/login through nginx failed with reader-a stopped"
code=$(http_code -b "$WORK/cookies2" "$BASE$PAGE")
[ "$code" = 200 ] || fail "page read with the new session answered $code"
code=$(http_code "$BASE/health/ready")
[ "$code" = 200 ] || fail "GET /health/ready through nginx answered $code with reader-a stopped"
pass "${#codes[@]} reads with the old session all 200, a new login and its page read 200, readiness 200"

failed=0
echo
echo "== all checks passed in $(secs "$START")s"
printf '%s\n' "${summary[@]}"
