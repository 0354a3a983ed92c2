#!/usr/bin/env bash
# docker/test.sh - proves the containerised deployment end to end on whatever Docker-compatible engine the
# machine has (without one, as root, it starts ../shared/tools/container-lab.sh and stops it again at the end):
#   1. builds the image (docker-compose build), whose     5. SIGKILL of the scraper's JVM: the container is
#      class-data archive loads with -Xshare:on             restarted, the reader's readiness recovers and the
#   2. both services of the pair become healthy             interrupted download finishes
#   3. the reader UI answers on its port 8080 (3b: the   6. docker-compose down ends within the 30 s grace period,
#      memory yield reads the container's cgroup limit)     exit 0 and state flushed (check on the volume)
#   4. a demo download publishes a chapter that the      7. data survives down and up
#      reader lists (admin token + a logged-in session)
# Each step prints its timing. Everything it creates (containers, network, volume) is removed on exit, pass or
# fail; the image mangacircus:test is kept unless MC_TEST_RMI=1. Needs bash, curl, python3, docker-compose
# (or `docker compose`) and, for step 5, root (the engine's processes are root's).
# Options (environment): MC_TEST_PORT  host port for the reader (default 8080; 127.0.0.1 only)
#                        MC_TEST_RMI=1 also remove the image;  MC_TEST_KEEP_LAB=1 leave a lab this script started
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PROJECT=mctest
IMAGE=mangacircus:test
PORT=${MC_TEST_PORT:-8080}
# shellcheck source=docker/test-lib.sh
. "$ROOT/docker/test-lib.sh"
begin_test docker-test
use_engine

umask 077
cat > "$WORK/test.env" <<EOF
MANGACIRCUS_IMAGE=$IMAGE
MANGACIRCUS_VOLUME=${PROJECT}-data
MANGACIRCUS_PUBLISH=127.0.0.1:$PORT
MANGACIRCUS_ADMIN_PASSWORD=$(secret 18)
MANGACIRCUS_ADMIN_TOKEN=$(secret 24)
MANGACIRCUS_METRICS_TOKEN=$(secret 24)
MANGACIRCUS_CLUSTER_NAME=mctest
EOF
umask 022
ADMIN_PASSWORD=$(sed -n 's/^MANGACIRCUS_ADMIN_PASSWORD=//p' "$WORK/test.env")
ADMIN_TOKEN=$(sed -n 's/^MANGACIRCUS_ADMIN_TOKEN=//p' "$WORK/test.env")
compose() { "${COMPOSE_BIN[@]}" --env-file "$WORK/test.env" -p "$PROJECT" -f docker/compose.yml -f docker/compose.demo.yml "$@"; }
cid() { compose ps -q "$1"; }
BASE=http://127.0.0.1:$PORT

cleanup() {
  local rc=$?
  set +e
  if [ "$failed" = 1 ]; then
    echo; echo "---- last log lines (scraper, reader) ----"
    compose logs --no-color --tail=40 scraper reader 2>&1 | grep -v '^\s*at ' | tail -80
  fi
  echo; echo "cleaning up: containers, network and volume of project $PROJECT"
  compose down -v --remove-orphans -t 30 >/dev/null 2>&1
  docker volume rm -f "${PROJECT}-data" >/dev/null 2>&1
  [ "${MC_TEST_RMI:-0}" = 1 ] && docker rmi "$IMAGE" >/dev/null 2>&1
  stop_health_checks
  rm -rf "$WORK"
  if [ "$started_lab" = 1 ] && [ "${MC_TEST_KEEP_LAB:-0}" != 1 ]; then "$LAB" down; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- HTTP and JSON helpers -----------------------------------------------------------------------------------
login() {
  rm -f "$WORK/cookies"
  curl -sf --max-time 10 -c "$WORK/cookies" -H 'Content-Type: application/json' \
    -d "{\"username\":\"admin\",\"password\":\"$ADMIN_PASSWORD\"}" "$BASE/api/login" | json "d['csrfToken']" > "$WORK/csrf"
}
ready() { [ "$(http_code "$BASE/health/ready")" = 200 ]; }
not_ready() { [ "$(http_code "$BASE/health/ready")" != 200 ]; }
series_chapters() {   # series_chapters SERIES: published chapter ids the reader lists for it
  session_get "/api/series/$1" | json "' '.join(c['id'] for c in d['chapters'])"
}
wait_both_healthy() {   # prints when each became healthy
  local s_at='' r_at=''
  local deadline=$(( $(date +%s) + $1 ))
  while [ -z "$s_at" ] || [ -z "$r_at" ]; do
    [ -n "$s_at" ] || { is_healthy scraper && s_at=$(secs "$STEP_START"); }
    [ -n "$r_at" ] || { is_healthy reader && r_at=$(secs "$STEP_START"); }
    [ "$(date +%s)" -lt "$deadline" ] || fail "not healthy within $1 s: scraper=$(health "$(cid scraper)") reader=$(health "$(cid reader)")"
    sleep 0.5
  done
  note "scraper healthy after ${s_at}s, reader healthy after ${r_at}s"
}

port_free "$PORT"
compose down -v --remove-orphans -t 30 >/dev/null 2>&1 || true   # leftovers of an interrupted run

# ---- 1. build ------------------------------------------------------------------------------------------------
step "1. build the image ($IMAGE) with ${COMPOSE_BIN[*]}"
compose build > "$WORK/build.log" 2>&1 || { tail -40 "$WORK/build.log"; fail "image build failed"; }
docker run --rm --entrypoint id "$IMAGE" -u | grep -qv '^0$' || fail "the image runs as root"
env_in_image=$(docker image inspect -f '{{json .Config.Env}}' "$IMAGE")
case "$env_in_image" in *PASSWORD*|*TOKEN*) fail "the image carries a secret in its environment: $env_in_image" ;; esac
# The class-data archive of the build's training start: the image's own JAVA_OPTS maps classes from it (-Xshare:on
# makes a missing or mismatched archive an error instead of a warning); the training start's work folder is gone.
shared=$(docker run --rm --entrypoint sh "$IMAGE" -c 'exec java $JAVA_OPTS -Xshare:on -Xlog:class+load -jar /app/mangacircus.jar --help' 2>&1 \
  | grep -c 'source: shared objects file (top)' || true)
[ "$shared" -gt 0 ] || fail "the image's JAVA_OPTS does not map classes from /app/mangacircus.jsa: $(docker run --rm --entrypoint sh "$IMAGE" -c 'java $JAVA_OPTS -Xshare:on -version' 2>&1 | head -3)"
leftover=$(docker run --rm --entrypoint find "$IMAGE" /tmp -maxdepth 1 -name 'mangacircus-train*')
[ -z "$leftover" ] || fail "the training start left its work folder in the image: $leftover"
pass "image built; runs as uid $(docker run --rm --entrypoint id "$IMAGE" -u); no password or token in its environment; $shared classes of \`--help\` mapped from /app/mangacircus.jsa"

# ---- 2. up and healthy ---------------------------------------------------------------------------------------
step "2. docker-compose up: both services become healthy"
compose up -d > "$WORK/up.log" 2>&1 || { cat "$WORK/up.log"; fail "docker-compose up failed"; }
wait_both_healthy 180
pass "scraper and reader healthy"

# ---- 3. reader UI --------------------------------------------------------------------------------------------
step "3. the reader UI answers on port 8080 (published on 127.0.0.1:$PORT)"
code=$(http_code "$BASE/")
[ "$code" = 200 ] || fail "GET / answered $code"
curl -sf --max-time 5 -o "$WORK/index.html" "$BASE/" && grep -qE '<title>[^<]*MangaCircus' "$WORK/index.html" \
  || fail "GET / is not the MangaCircus page"
ready || fail "GET /health/ready is not 200 from the host"
METRICS_TOKEN=$(sed -n 's/^MANGACIRCUS_METRICS_TOKEN=//p' "$WORK/test.env")
[ "$(http_code "$BASE/metrics")" = 401 ] || fail "GET /metrics without the token did not answer 401"
curl -sf --max-time 5 -H "Authorization: Bearer $METRICS_TOKEN" -o "$WORK/metrics" "$BASE/metrics" \
  && grep -q '^mc_service_up' "$WORK/metrics" || fail "GET /metrics with the token from the environment did not answer the metrics"
pass "GET / 200 (MangaCircus page), GET /health/ready 200, /metrics 401 without and 200 with the token from .env"

# ---- 3b. memory readings come from the container's cgroup ----------------------------------------------------
step "3b. memory yield reads the scraper container's cgroup limit (mem_limit ${MANGACIRCUS_MEM_LIMIT:-768m}), not the host"
scraper_id=$(cid scraper)
limit_bytes=$(docker inspect -f '{{.HostConfig.Memory}}' "$scraper_id")
[ "${limit_bytes:-0}" -gt 0 ] || fail "the scraper container has no memory limit (HostConfig.Memory=$limit_bytes)"
limit_mib=$(( limit_bytes / 1024 / 1024 ))
# What the kernel says inside the container: cgroup v2 memory.max, else v1 memory.limit_in_bytes.
inside=$(docker exec "$scraper_id" sh -c 'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes' | tr -d '\r')
note "inside the scraper container: cgroup memory limit $inside bytes ($limit_mib MiB from docker inspect)"
docker exec "$scraper_id" java -jar /app/mangacircus.jar check > "$WORK/check-memory.log" 2>&1 || true
memory_line=$(grep -E '^ok +memory: ' "$WORK/check-memory.log" || true)
note "check inside the container: ${memory_line:-<no memory line>}"
case "$memory_line" in
  *"readings from cgroup v"[12]" limit $limit_mib MiB: "*"% used"*) ;;
  *) cat "$WORK/check-memory.log"; fail "check inside the container does not read the cgroup limit of $limit_mib MiB" ;;
esac
compose logs --no-color scraper 2>&1 | grep -F '[MEMORY] memory-yield readings come from' | tail -1 > "$WORK/memory-log" || true
note "scraper log: $(sed -E 's/.*\[MEMORY\] //' "$WORK/memory-log")"
grep -qE "readings come from cgroup v[12] limit $limit_mib MiB" "$WORK/memory-log" \
  || fail "the scraper's launcher does not say it reads the cgroup limit of $limit_mib MiB"
memory_status() {   # the scraper launcher's memory reading as the reader's status API shows it
  curl -sf --max-time 5 -H "Authorization: Bearer $ADMIN_TOKEN" "$BASE/api/admin/status" \
    | json "next((s['memory'] for s in d['supervisors'] if s['node'].startswith('scraper@') and s.get('memory') and '% used' in s['memory']), '')" 2>/dev/null || true
}
has_memory_status() { [ -n "$(memory_status)" ]; }
wait_for 30 "the status API shows the scraper's memory reading" has_memory_status
reading=$(memory_status)
note "GET /api/admin/status (health page): $reading"
case "$reading" in "cgroup v"[12]" limit $limit_mib MiB: "*) ;; *) fail "the health data names another source: $reading" ;; esac
pass "memory figure inside the container: $reading (check, log and health page agree)"

# ---- 4. demo download ----------------------------------------------------------------------------------------
step "4. a demo download publishes a chapter that the reader lists"
published_at_least() { [ "$(job_field "$1" "j['chaptersPublished']")" -ge "$2" ] 2>/dev/null; }
wait_for 120 "the demo job publishes a chapter" published_at_least circus-nights 1
note "scraper: circus-nights has $(job_field circus-nights "j['chaptersPublished']") chapter(s) published after $(secs "$STEP_START")s (GET /api/admin/jobs, admin token)"
login || fail "POST /api/login with the admin password failed"
wait_for 90 "the reader lists circus-nights" series_listed circus-nights
chapters=$(series_chapters circus-nights)
case " $chapters " in *' chapter-0001 '*) ;; *) fail "the reader does not list chapter-0001 (lists: $chapters)" ;; esac
page=$(curl -s -o "$WORK/page" -w '%{http_code} %{content_type}' -b "$WORK/cookies" "$BASE/api/series/circus-nights/chapters/chapter-0001/pages/1")
[ "${page%% *}" = 200 ] || fail "page 1 of chapter-0001 answered $page"
pass "reader lists circus-nights: $chapters; page 1 served ($page, $(wc -c < "$WORK/page") bytes)"

# ---- 5. SIGKILL of the scraper's main process --------------------------------------------------------------
step "5. SIGKILL of the scraper's JVM: restart, reader readiness recovers, the interrupted download finishes"
[ "$(id -u)" = 0 ] || fail "killing the scraper's process from the host needs root"
curl -sf --max-time 5 -X PUT -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
  -d '{"pageDelayMs": 300, "chapterDelayMs": 500}' "$BASE/api/admin/lanes/demo/pacing" > /dev/null || fail "pacing refused"
curl -sf --max-time 5 -H "Authorization: Bearer $ADMIN_TOKEN" -H 'Content-Type: application/json' \
  -d '{"source":"demo","title":"tightrope-walker","autoConfirm":true}' "$BASE/api/admin/jobs" > /dev/null || fail "queueing tightrope-walker refused"
active_with_progress() { [ "$(job_field tightrope-walker "j['state'] == 'active' and 'progress' in j")" = True ]; }
wait_for 120 "tightrope-walker is downloading" active_with_progress
scraper_id=$(cid scraper)
old_pid=$(docker inspect -f '{{.State.Pid}}' "$scraper_id")
old_restarts=$(docker inspect -f '{{.RestartCount}}' "$scraper_id")
note "tightrope-walker active ($(job_field tightrope-walker "j['chaptersPublished']") of $(job_field tightrope-walker "j['chapters']") chapters published); kill -KILL $old_pid (the scraper container's PID 1, java)"
ps -o args= -p "$old_pid" | grep -q '^java ' || fail "PID $old_pid is not the JVM: $(ps -o args= -p "$old_pid")"
STEP_START=$(date +%s%N)
kill -KILL "$old_pid"
restarted() { local p; p=$(docker inspect -f '{{.State.Running}} {{.State.Pid}}' "$scraper_id" 2>/dev/null); [ "${p%% *}" = true ] && [ "${p#* }" != "$old_pid" ] && [ "${p#* }" != 0 ]; }
wait_for 60 "reader readiness reports the scraper gone" not_ready
t=$(secs "$STEP_START")
note "reader /health/ready: $(curl -s --max-time 5 "$BASE/health/ready" | json "[c['id'] + ' ' + c['status'] + ' ' + str(c.get('data', {}).get('reason', '')) for c in d['checks'] if c['status'] != 'UP']" 2>/dev/null) ${t}s after the kill"
wait_for 60 "the scraper container is restarted" restarted
t=$(secs "$STEP_START")
note "scraper container restarted ${t}s after the kill (restart count $old_restarts -> $(docker inspect -f '{{.RestartCount}}' "$scraper_id"), new PID $(docker inspect -f '{{.State.Pid}}' "$scraper_id"))"
wait_for 120 "the reader's readiness recovers" ready
t=$(secs "$STEP_START")
note "reader /health/ready 200 again ${t}s after the kill"
wait_for 120 "the scraper container is healthy again" is_healthy scraper
t=$(secs "$STEP_START")
note "scraper container healthy again ${t}s after the kill"
job_done() { [ "$(job_field tightrope-walker "j['state']")" = done ]; }
wait_for 180 "the interrupted tightrope-walker download finishes" job_done
t=$(secs "$STEP_START")
tw=$(job_field tightrope-walker "'%d/%d chapters published, %d failed, attempts %d, interruptions %d' % (j['chaptersPublished'], j['chapters'], j['chaptersFailed'], j['attempts'], j['interruptions'])")
note "tightrope-walker done ${t}s after the kill: $tw"
[ "$(job_field tightrope-walker "j['chaptersPublished'] == j['chapters']")" = True ] || fail "tightrope-walker: $tw"
is_healthy reader || fail "the reader container is $(health "$(cid reader)")"
pass "scraper restarted and healthy, reader ready again, interrupted download finished ($tw)"

# ---- 6. down -------------------------------------------------------------------------------------------------
step "6. docker-compose down: within the 30 s grace period, exit 0, state flushed"
login
csrf=$(cat "$WORK/csrf")
curl -sf --max-time 5 -X PUT -b "$WORK/cookies" -H "X-CSRF-Token: $csrf" -H 'Content-Type: application/json' \
  -d '{"read": true}' "$BASE/api/series/circus-nights/chapters/chapter-0001/read" > /dev/null || fail "marking chapter-0001 read failed"
library_caught_up() {   # the reader lists as many series and chapters as the scraper's jobs published
  local want have
  want=$(admin_jobs | json "(len(d['jobs']), sum(j['chaptersPublished'] for j in d['jobs']))") || return 1
  have=$(session_get /api/series | json "(len(d['series']), sum(s['chapters'] for s in d['series']))") || return 1
  [ "$want" = "$have" ]
}
wait_for 90 "the reader lists every published chapter" library_caught_up
jobs_before=$(admin_jobs | json "sorted((j['id'], j['titleId'], j['state'], j['chaptersPublished']) for j in d['jobs'])")
series_before=$(session_get /api/series | json "sorted((s['id'], s['chapters']) for s in d['series'])")
reader_id=$(cid reader)
scraper_id=$(cid scraper)
timeout 90 docker wait "$scraper_id" > "$WORK/scraper.exit" 2>&1 &
wait_scraper=$!
timeout 90 docker wait "$reader_id" > "$WORK/reader.exit" 2>&1 &
wait_reader=$!
compose logs -f -t --no-color --tail=0 scraper reader > "$WORK/stop.log" 2>&1 &
logs_pid=$!
sleep 0.5
STEP_START=$(date +%s%N)
compose down > "$WORK/down.log" 2>&1 || { cat "$WORK/down.log"; fail "docker-compose down failed"; }
down_secs=$(secs "$STEP_START")
wait "$wait_scraper" "$wait_reader" || true
kill "$logs_pid" 2>/dev/null || true
grep -E 'stop requested|stopped cleanly|did not stop' "$WORK/stop.log" | sed -E 's/^([a-z]+)_1 +\| ([^ ]+) .*LauncherProcess - /\1 \2 /' | sed 's/^/   log: /' || true
note "docker-compose down took ${down_secs}s; exit codes: scraper $(cat "$WORK/scraper.exit"), reader $(cat "$WORK/reader.exit")"
awk -v s="$down_secs" 'BEGIN { exit !(s < 30) }' || fail "docker-compose down took ${down_secs}s (grace period 30 s)"
[ "$(cat "$WORK/scraper.exit")" = 0 ] || fail "the scraper exited with $(cat "$WORK/scraper.exit") (137 = killed at the end of the grace period)"
[ "$(cat "$WORK/reader.exit")" = 0 ] || fail "the reader exited with $(cat "$WORK/reader.exit")"
volume=${PROJECT}-data
docker run --rm -v "$volume:/data" "$IMAGE" check > "$WORK/check.log" 2>&1 || { cat "$WORK/check.log"; fail "check on the stopped volume found problems"; }
sed 's/^/   check: /' "$WORK/check.log"
statuses=$(for f in runtime-reader.json scraper/runtime.json; do
  docker run --rm -v "$volume:/data" --entrypoint cat "$IMAGE" "/data/$f" | json "' '.join(k + '=' + v['status'] for k, v in d['services'].items())"
done | tr '\n' ' ')
statuses=${statuses% }
note "runtime files: $statuses"
[ "$statuses" = "reader=stopped scraper=stopped" ] || fail "runtime files do not say stopped: $statuses"
pass "down in ${down_secs}s, both exited 0, runtime files say stopped, check passes on the volume"

# ---- 7. data survives down and up ----------------------------------------------------------------------------
step "7. docker-compose up again: the data survived"
compose up -d > "$WORK/up2.log" 2>&1 || { cat "$WORK/up2.log"; fail "second docker-compose up failed"; }
wait_both_healthy 180
login || fail "the admin account did not survive (login failed)"
wait_for 90 "the reader lists the library again" library_caught_up
jobs_after=$(admin_jobs | json "sorted((j['id'], j['titleId'], j['state'], j['chaptersPublished']) for j in d['jobs'])")
series_after=$(session_get /api/series | json "sorted((s['id'], s['chapters']) for s in d['series'])")
read_state=$(session_get /api/series/circus-nights | json "[c['state'] for c in d['chapters'] if c['id'] == 'chapter-0001'][0]")
note "jobs: $jobs_after"
note "series: $series_after; chapter-0001 is '$read_state' for admin"
[ "$jobs_after" = "$jobs_before" ] || fail "the queue changed across down/up: before $jobs_before"
[ "$series_after" = "$series_before" ] || fail "the library changed across down/up: before $series_before"
[ "$read_state" = read ] || fail "the read mark did not survive: chapter-0001 is $read_state"
pass "queue, library, account and read mark unchanged after down and up"

failed=0
echo
echo "== all checks passed in $(secs "$START")s"
printf '%s\n' "${summary[@]}"
