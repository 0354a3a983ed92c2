#!/bin/sh
# Training start for class-data sharing (docs/operations.md#start-up-time), run by the Docker build and by
# bin/mangacircus: runs the jar once with -XX:ArchiveClassesAtExit, so that the archive is made by the JDK, jar path and
# options that use it. Starts
# `all` on a throw-away data folder and loopback ports with a throw-away admin password (no password notice in the
# build log), waits for /health/ready, stops the JVM with SIGTERM (the archive is written while the JVM exits) and
# removes the data folder again: no account, token, library or log of this start stays behind. Needs curl.
# Usage: train-cds.sh JAR ARCHIVE    Options (environment): JAVA_OPTS (the starts', added to the training start),
#        MC_TRAIN_PORT (default 18480; +1 for the health port), MC_TRAIN_READY_WITHIN (seconds, default 180)
set -eu
set -f   # JAVA_OPTS is split on spaces below; never glob it

[ $# -eq 2 ] || { echo "usage: train-cds.sh JAR ARCHIVE" >&2; exit 2; }
jar=$1 archive=$2
port=${MC_TRAIN_PORT:-18480}
ready_within=${MC_TRAIN_READY_WITHIN:-180}
stop_within=60
case " ${JAVA_OPTS:-} " in
  *-XX:SharedArchiveFile=*) echo "train-cds: JAVA_OPTS already names an archive; train with the options before it" >&2; exit 2 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/mangacircus-train.XXXXXX")
java_pid=
cleanup() {
  [ -z "$java_pid" ] || kill -KILL "$java_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() {
  echo "train-cds: $*" >&2
  if [ -s "$work/start.log" ]; then echo "train-cds: last lines of the training start:" >&2; tail -n 40 "$work/start.log" >&2; fi
  rm -f "$archive"
  exit 1
}
now() { date +%s; }
ready() { curl -fs -o /dev/null --max-time 2 "http://127.0.0.1:$port/health/ready"; }

rm -f "$archive"
! ready || fail "something already answers on 127.0.0.1:$port; set MC_TRAIN_PORT to a free port"
started=$(now)
mkdir "$work/tmp"
# The embedded defaults, never a config file of the working folder: its sources, notification hooks or cluster
# settings have no business in a training start.
echo '{}' > "$work/defaults.json"
# -Xmx: a small heap keeps compressed oops on whatever the build machine's memory, as in a container with a limit;
# the JDK's base archive differs with and without them, and the archive is tied to the base it was made on.
# Temporary files (native libraries unpacked from the jar) go to the work folder, the JVM's perf data nowhere.
# shellcheck disable=SC2086
MANGACIRCUS_ADMIN_PASSWORD=$(head -c 18 /dev/urandom | base64 | tr '+/' '-_') MANGACIRCUS_DATA="$work/data" \
  java ${JAVA_OPTS:-} -Xmx512m -XX:-UsePerfData -Djava.io.tmpdir="$work/tmp" -XX:ArchiveClassesAtExit="$archive" \
  -jar "$jar" all --conf "$work/defaults.json" \
  --bind 127.0.0.1 --port "$port" --health-port "$((port + 1))" > "$work/start.log" 2>&1 &
java_pid=$!

until ready; do
  kill -0 "$java_pid" 2>/dev/null || { wait "$java_pid" && rc=0 || rc=$?; java_pid=; fail "the training start ended with exit code $rc before it was ready"; }
  [ "$(( $(now) - started ))" -lt "$ready_within" ] || fail "http://127.0.0.1:$port/health/ready did not answer 200 within ${ready_within}s"
  sleep 0.5
done
ready_after=$(( $(now) - started ))
# The login page too: its first answer loads classes that a start's first visitor needs.
curl -fs -o /dev/null --max-time 10 "http://127.0.0.1:$port/" || fail "GET / did not answer 200 after readiness"

kill -TERM "$java_pid"
stop_asked=$(now)
while kill -0 "$java_pid" 2>/dev/null; do
  [ "$(( $(now) - stop_asked ))" -lt "$stop_within" ] || fail "the training start did not end within ${stop_within}s of SIGTERM"
  sleep 0.5
done
wait "$java_pid" && rc=0 || rc=$?
java_pid=
[ "$rc" = 0 ] || fail "the training start exited with $rc after SIGTERM"
[ -s "$archive" ] || fail "no archive at $archive after the JVM exited"
chmod 644 "$archive"
# The JVM names each class it leaves out of the archive (picocli's are Java 5 bytecode, which Java 17 cannot archive).
skipped=$(grep -c '\[warning\]\[cds\]' "$work/start.log" || true)
echo "train-cds: ready after ${ready_after}s, stopped by SIGTERM in $(( $(now) - stop_asked ))s (exit 0);" \
  "$archive: $(( $(wc -c < "$archive") / 1024 / 1024 )) MiB, ${skipped} classes left out"
