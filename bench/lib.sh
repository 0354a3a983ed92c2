#!/usr/bin/env bash
# Shared by the bench scripts that source it (pages.sh, cbz.sh, notify-hang.sh, pipeline.sh, memory.sh, startup.sh, the
# scale-*.sh scripts): small
# helpers, the bench library that pages.sh and cbz.sh serve, and their reader-against-nginx rounds. Not run on its own.

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
wait_for() { # description, limit seconds, command...: polls every 50 ms until the command succeeds
  local what=$1 limit=$2; shift 2
  local deadline=$(( $(date +%s) + limit ))
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || { echo "$what: not within $limit s" >&2; return 1; }
    sleep 0.05
  done
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# Writes the bench library into $work/data/library/bench: $chapters chapters x $per_chapter distinct ~195 KB JPEGs from
# bench/BenchSite.java, each chapter with its chapter.json; sets data, library, series, pages, bytes and smallest, and
# lists the page paths for the reader ($work/reader.paths) and for nginx ($work/nginx.paths). Uses site_pid, which the
# caller's cleanup stops.
bench_library() {
  data="$work/data"; library="$data/library"; series=bench
  mkdir -p "$library/$series" "$work/site"
  java -Xmx1g bench/BenchSite.java 0 "$per_chapter" "$chapters" "$library/$series" >"$work/site/out" 2>"$work/site/err" &
  site_pid=$!
  site_up() { grep -q '^READY ' "$work/site/out" || { kill -0 "$site_pid" 2>/dev/null || { cat "$work/site/err" >&2; exit 1; }; false; }; }
  wait_for "page generator" 120 site_up
  kill "$site_pid"; wait "$site_pid" 2>/dev/null || true; site_pid=""   # only its files are used
  rm -f "$library/$series/urls.txt"
  : >"$work/reader.paths"; : >"$work/nginx.paths"
  for c in $(seq 1 "$chapters"); do
    dir="$library/$series/c$c"
    {
      printf '{"schema":1,"source":"bench","titleId":"%s","series":"Bench Series","chapterId":"c%d","number":"%d","title":"","language":"en","publishedAt":"2026-11-29T10:00:00Z","pages":[' "$series" "$c" "$c"
      for p in $(seq 1 "$per_chapter"); do
        f=$(printf %03d.jpg "$p")
        [ "$p" -gt 1 ] && printf ','
        printf '{"index":%d,"file":"%s","size":%d,"sha256":"%s"}' "$p" "$f" "$(stat -c %s "$dir/$f")" \
          "$(sha256sum "$dir/$f" | cut -d' ' -f1)"
        echo "/api/series/$series/chapters/c$c/pages/$p" >>"$work/reader.paths"
        echo "/$series/c$c/$f" >>"$work/nginx.paths"
      done
      printf ']}\n'
    } >"$dir/chapter.json"
  done
  pages=$(wc -l <"$work/nginx.paths")
  read -r bytes smallest < <(find "$library" -name '*.jpg' -printf '%s\n' | awk 'NR==1 {m=$1} {s+=$1; if ($1<m) m=$1} END {print s, m}')
}

# "used/committed" MiB of a JVM's heap from `jcmd <pid> GC.heap_info` (read without a collection): G1's one "heap"
# line, or the serial collector's generations added up; empty when jcmd cannot attach.
heap_mib() {
  jcmd "$1" GC.heap_info 2>/dev/null | awk '/ total .* used / && !/Metaspace|class space/ {
      for (i = 1; i <= NF; i++) { if ($i == "total") t = $(i+1); if ($i == "used") u = $(i+1) }
      gsub(/[K,]/, "", t); gsub(/[K,]/, "", u); tt += t; uu += u; n++ }
    END { if (n) printf "%.0f/%.0f", uu / 1024, tt / 1024 }'
}

# ---- how MangaCircus is started -----------------------------------------------------------------------------------
# Sets mc_opts, the JVM options of every MangaCircus start in a bench run, and mc_jvm_opts, the same without the
# class-data archive (for other programs on the jar's class path): by default the README's start, bin/mangacircus (its
# collector and heap options and its class-data archive for $jar, trained here if missing, before anything is timed);
# MC_JAVA_OPTS, when set, replaces the script's collector and heap options as its JAVA_OPTS does. MC_LAUNCH=jar: plain
# `java -jar` with $MC_JAVA_OPTS only (the JVM's own defaults), as every figure dated before 2026-12-03 was taken.
mc_java_options() {
  jar=$(realpath "$jar")   # the archive holds the jar's path as given; the absolute one fits any working folder
  if [ "${MC_LAUNCH:-script}" = jar ]; then
    mc_opts=${MC_JAVA_OPTS:-}
  else
    local -a env=(MANGACIRCUS_JAR="$jar")
    [ -z "${MC_JAVA_OPTS+x}" ] || env+=(JAVA_OPTS="$MC_JAVA_OPTS")
    env "${env[@]}" bin/mangacircus prepare || { echo "bin/mangacircus prepare failed" >&2; exit 1; }
    mc_opts=$(env "${env[@]}" bin/mangacircus java-options)
  fi
  mc_opts=$(echo $mc_opts)   # no leading or doubled spaces
  mc_jvm_opts=${mc_opts%%-XX:SharedArchiveFile=*}
  echo "MangaCircus starts as: java ${mc_opts:+$mc_opts }-jar $jar   (MC_LAUNCH=${MC_LAUNCH:-script})"
}

# ---- reader against nginx (pages.sh, cbz.sh) ------------------------------------------------------------------------
# These use the caller's variables: work, jar, data, nginx_bin, bench_dir, threads, connections, warmup, seconds,
# rounds, smallest, unit (what one response is: "page", "CBZ"), and $work/reader.paths, $work/nginx.paths.

# Starts MangaCircus (`all`, default config, $mc_opts) on $data, waits for ready and logs in as admin: sets mc_pid,
# port, cookie and csrf (the session's X-CSRF-Token).
start_mangacircus() {
  port=$(free_port); hport=$(free_port)
  local password; password="bench-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')"
  # The defaults (or $mc_conf when the caller sets it), not whatever conf/mangacircus.json holds.
  printf '%s\n' "${mc_conf:-{\}}" >"$work/mangacircus.json"
  [ -n "${mc_opts+x}" ] || mc_java_options
  MANGACIRCUS_ADMIN_PASSWORD=$password java $mc_opts -jar "$jar" all --conf "$work/mangacircus.json" \
    --data "$data" --port "$port" --health-port "$hport" >"$work/mangacircus.log" 2>&1 &
  mc_pid=$!
  mc_ready() {
    kill -0 "$mc_pid" 2>/dev/null || { tail -20 "$work/mangacircus.log" >&2; exit 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health/ready" || true)" = 200 ]
  }
  wait_for "MangaCircus /health/ready" 120 mc_ready
  local login
  login=$(curl -s -f -D "$work/login.headers" -H 'Content-Type: application/json' \
    -d "{\"username\":\"admin\",\"password\":\"$password\"}" "http://127.0.0.1:$port/api/login")
  cookie=$(tr -d '\r' <"$work/login.headers" \
    | awk 'tolower($1) == "set-cookie:" && $2 ~ /^mc_session=/ { sub(/;.*/, "", $2); print $2; exit }')
  [ -n "$cookie" ] || { echo "login gave no mc_session cookie" >&2; exit 1; }
  csrf=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["csrfToken"])' "$login")
}

# Starts nginx (bench/pages-nginx.conf) serving the folder $1, then checks that both servers serve the same bytes for
# the first and last path, and the reader only with the session: sets nginx_pid and nport.
start_nginx() {
  nport=$(free_port)
  # The reader makes its data folder owner-only; nginx's workers run as another user when this runs as root and must
  # pass through it to the library (search permission only: they still cannot list it or read reader.db).
  chmod o+x "$data"
  sed -e "s|@WORK@|$work|g" -e "s|@ROOT@|$1|g" -e "s|@PORT@|$nport|g" "$bench_dir/pages-nginx.conf" >"$work/nginx.conf"
  "$nginx_bin" -p "$work" -c "$work/nginx.conf" -g 'daemon off;' 2>>"$work/nginx-stderr.log" &
  nginx_pid=$!
  nginx_up() {
    kill -0 "$nginx_pid" 2>/dev/null || { tail -5 "$work/nginx-stderr.log" "$work/nginx-error.log" >&2 2>/dev/null; exit 1; }
    [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$nport$(head -1 "$work/nginx.paths")" || true)" = 200 ]
  }
  wait_for "nginx" 20 nginx_up
  local first_r last_r first_n last_n pair
  first_r=$(head -1 "$work/reader.paths"); last_r=$(tail -1 "$work/reader.paths")
  first_n=$(head -1 "$work/nginx.paths"); last_n=$(tail -1 "$work/nginx.paths")
  [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port$first_r")" = 401 ] \
    || { echo "the reader served a $unit without a session" >&2; exit 1; }
  for pair in "$first_r $first_n" "$last_r $last_n"; do
    set -- $pair
    cmp <(curl -s -f -H "Cookie: $cookie" "http://127.0.0.1:$port$1") <(curl -s -f "http://127.0.0.1:$nport$2") \
      || { echo "reader $1 and nginx $2 differ" >&2; exit 1; }
  done
}

# CPU time (user + system, clock ticks) of the server's processes: the JVM (every thread: event loops, JIT, GC), or
# nginx's workers. Per request it says what each server costs, whatever share of the machine it got.
server_ticks() {
  local pids
  case $1 in
    reader) pids=$mc_pid ;;
    floor) pids=$floor_pid ;;   # PAGES_FLOOR=1 bench/pages.sh's bare server
    *) pids=$(pgrep -P "$nginx_pid" | tr '\n' ' ') ;;
  esac
  for p in $pids; do awk '{print $14 + $15}' "/proc/$p/stat"; done | awk '{s += $1} END {print s + 0}'
}
# CPU time of the whole machine in process context (user, nice, system, steal; not interrupts), in clock ticks.
busy_ticks() { awk '/^cpu / {print $2 + $3 + $4 + $9; exit}' /proc/stat; }
# target, seconds -> "rps p50_us p99_us bytes_per_response server_cpu_us_per_request others_cores load1"
run() {
  local target=$1 secs=$2 url paths jar_cookie="" out line ticks busy wrk_s others
  case $target in
    reader) url="http://127.0.0.1:$port"; paths="$work/reader.paths"; jar_cookie=$cookie ;;
    floor) url="http://127.0.0.1:$fport"; paths="$work/nginx.paths" ;;
    *) url="http://127.0.0.1:$nport"; paths="$work/nginx.paths" ;;
  esac
  ticks=$(server_ticks "$target"); busy=$(busy_ticks)
  out=$(PAGES_FILE=$paths PAGES_COOKIE=$jar_cookie /usr/bin/time -f '%U %S' -o "$work/wrk.time" \
    wrk -t "$threads" -c "$connections" -d "${secs}s" --latency -s "$bench_dir/pages.lua" "$url")
  ticks=$(( $(server_ticks "$target") - ticks )); busy=$(( $(busy_ticks) - busy ))
  wrk_s=$(awk '{print $1 + $2}' "$work/wrk.time")
  # What everything but this server and wrk used meanwhile (other jobs on the machine), in cores.
  others=$(awk -v b="$busy" -v t="$ticks" -v w="$wrk_s" -v hz="$(getconf CLK_TCK)" -v s="$secs" \
    'BEGIN { o = ((b - t) / hz - w) / s; printf "%.2f", o < 0 ? 0 : o }')
  echo "$out" >>"$work/wrk-$target.log"
  line=$(grep '^RESULT ' <<<"$out") || { echo "$out" >&2; echo "wrk printed no RESULT" >&2; exit 1; }
  set -- $line   # RESULT rps p50 p99 bytes_per_response non2xx socket_errors requests
  if [ "$6" != 0 ] || [ "$7" != 0 ] || [ "$(awk -v b="$5" -v m="$smallest" 'BEGIN { print (b >= m) }')" != 1 ]; then
    echo "$out" >&2
    echo "$target: $6 non-2xx/3xx, $7 socket errors, $5 bytes per response (smallest $unit $smallest): not all whole 200s" >&2
    exit 1
  fi
  echo "$2 $3 $4 $5 $(awk -v t="$ticks" -v hz="$(getconf CLK_TCK)" -v n="$8" 'BEGIN { printf "%.1f", t / hz * 1e6 / n }') $others $(cut -d' ' -f1 /proc/loadavg)"
}
ms() { awk -v us="$1" 'BEGIN { printf "%.2f", us / 1000 }'; }

# Warm-up of each server, then $rounds rounds of one run against each, back to back (who goes first rotates, so
# drift hits all alike); each run's row is printed by the caller's `row round target rps p50 p99 per cpu others load`,
# after the caller's header. The servers: nginx and the reader, and the bare floor server too when the caller set
# floor_pid (PAGES_FLOOR=1 bench/pages.sh). Sets nginx_rps reader_rps floor_rps nginx_p99 … ratios (reader/nginx per round)
# and floor_ratios (floor/nginx).
measure_rounds() {
  local r order target result rps p50 p99 per cpu others load targets=(nginx reader) i
  [ -z "${floor_pid:-}" ] || targets=(nginx floor reader)
  echo "wrk: $threads threads, $connections connections, ${seconds} s per measured run (warm-up ${warmup} s each)"
  for target in "${targets[@]}"; do run "$target" "$warmup" >/dev/null; done
  header
  nginx_rps=(); reader_rps=(); floor_rps=(); nginx_p99=(); reader_p99=(); floor_p99=()
  nginx_cpu=(); reader_cpu=(); floor_cpu=()
  ratios=(); floor_ratios=()
  for r in $(seq 1 "$rounds"); do
    order=()
    for i in "${!targets[@]}"; do order+=("${targets[$(( (i + r - 1) % ${#targets[@]} ))]}"); done
    for target in "${order[@]}"; do
      result=$(run "$target" "$seconds")   # a failed check inside run stops the script here
      read -r rps p50 p99 per cpu others load <<<"$result"
      row "$r" "$target" "$rps" "$p50" "$p99" "$per" "$cpu" "$others" "$load"
      case $target in
        nginx) nginx_rps+=("$rps"); nginx_p99+=("$p99"); nginx_cpu+=("$cpu") ;;
        floor) floor_rps+=("$rps"); floor_p99+=("$p99"); floor_cpu+=("$cpu") ;;
        *) reader_rps+=("$rps"); reader_p99+=("$p99"); reader_cpu+=("$cpu") ;;
      esac
    done
    ratios+=("$(awk -v a="${reader_rps[-1]}" -v b="${nginx_rps[-1]}" 'BEGIN { printf "%.3f", a / b }')")
    if [ -n "${floor_pid:-}" ]; then
      floor_ratios+=("$(awk -v a="${floor_rps[-1]}" -v b="${nginx_rps[-1]}" 'BEGIN { printf "%.3f", a / b }')")
      echo "       ratio reader/nginx round $r: ${ratios[-1]}, floor/nginx ${floor_ratios[-1]}"
    else
      echo "       ratio reader/nginx round $r: ${ratios[-1]}"
    fi
  done
}

# The medians of measure_rounds and the ratios against nginx ($1: the throughput target printed).
summary() {
  local n_rps r_rps n_p99 r_p99 n_cpu r_cpu
  n_rps=$(printf '%s\n' "${nginx_rps[@]}" | median); r_rps=$(printf '%s\n' "${reader_rps[@]}" | median)
  n_p99=$(printf '%s\n' "${nginx_p99[@]}" | median); r_p99=$(printf '%s\n' "${reader_p99[@]}" | median)
  n_cpu=$(printf '%s\n' "${nginx_cpu[@]}" | median); r_cpu=$(printf '%s\n' "${reader_cpu[@]}" | median)
  echo "median nginx:  $n_rps requests/s, p99 $(ms "$n_p99") ms, $n_cpu us of server CPU per request"
  echo "median reader: $r_rps requests/s, p99 $(ms "$r_p99") ms, $r_cpu us of server CPU per request"
  echo "reader/nginx: median of the rounds' ratios $(printf '%s\n' "${ratios[@]}" | median), ratio of the medians" \
    "$(awk -v a="$r_rps" -v b="$n_rps" 'BEGIN { printf "%.3f", a / b }') ($1);" \
    "server CPU per request $(awk -v a="$r_cpu" -v b="$n_cpu" 'BEGIN { printf "%.2f", a / b }')x nginx's"
  if [ ${#floor_rps[@]} -gt 0 ]; then
    local f_rps f_p99 f_cpu
    f_rps=$(printf '%s\n' "${floor_rps[@]}" | median); f_p99=$(printf '%s\n' "${floor_p99[@]}" | median)
    f_cpu=$(printf '%s\n' "${floor_cpu[@]}" | median)
    echo "median floor:  $f_rps requests/s, p99 $(ms "$f_p99") ms, $f_cpu us of server CPU per request"
    echo "floor/nginx: median of the rounds' ratios $(printf '%s\n' "${floor_ratios[@]}" | median), ratio of the" \
      "medians $(awk -v a="$f_rps" -v b="$n_rps" 'BEGIN { printf "%.3f", a / b }'); server CPU per request" \
      "$(awk -v a="$f_cpu" -v b="$n_cpu" 'BEGIN { printf "%.2f", a / b }')x nginx's; reader/floor ratio of the medians" \
      "$(awk -v a="$r_rps" -v b="$f_rps" 'BEGIN { printf "%.3f", a / b }')"
  fi
}

# The JVM $1's CPU ticks (user+system) by thread group, from /proc/<pid>/task/*/stat: "eventloop worker jit gc other".
thread_group_ticks() {
  for t in /proc/$1/task/*; do
    name=$(cat $t/comm 2>/dev/null || true); ticks=$(awk '{print $14+$15}' $t/stat 2>/dev/null || echo 0)
    case "$name" in
      vert.x-eventloo*) g=el;; vert.x-worker*|vert.x-internal*) g=worker;; C1*|C2*) g=jit;; G1*|GC*|VM\ Thread) g=gc;; *) g=other;;
    esac
    echo "$g $ticks"
  done | awk '{s[$1]+=$2} END {printf "%d %d %d %d %d\n", s["el"], s["worker"], s["jit"], s["gc"], s["other"]}'
}

# For each jar given, PASSES times (default 2, in the order given): MangaCircus on a copy of $work/data's library, wrk
# (2 threads, $1 connections) over $work/reader.paths with the session cookie for $2 s of warm-up, then 3 runs of 8 s;
# per run, requests/s and the JVM's CPU per request in total and by thread group (bench/cbz-cpu.sh, bench/pages-cpu.sh).
cpu_by_thread_group() {
  local connections=$1 warmup=$2; shift 2
  local hz; hz=$(getconf CLK_TCK)
  local jars=("$@") pass r a b c d e a2 b2 c2 d2 e2 out n rps base
  for pass in $(seq 1 "${PASSES:-2}"); do
    for jar in "${jars[@]}"; do
      export jar
      base=$work/data; data=$work/run-$pass-$(basename "$jar"); mkdir -p "$data"; cp -al "$base/library" "$data/library"
      start_mangacircus
      data=$base
      PAGES_FILE=$work/reader.paths PAGES_COOKIE=$cookie wrk -t 2 -c "$connections" -d "${warmup}s" -s "$bench_dir/pages.lua" \
        "http://127.0.0.1:$port" >/dev/null
      for r in 1 2 3; do
        read -r a b c d e < <(thread_group_ticks "$mc_pid")
        out=$(PAGES_FILE=$work/reader.paths PAGES_COOKIE=$cookie wrk -t 2 -c "$connections" -d 8s --latency \
          -s "$bench_dir/pages.lua" "http://127.0.0.1:$port")
        read -r a2 b2 c2 d2 e2 < <(thread_group_ticks "$mc_pid")
        set -- $(grep '^RESULT ' <<<"$out"); n=$8; rps=$2
        awk -v j="$(basename "$jar")" -v n="$n" -v rps="$rps" -v hz="$hz" -v el=$((a2-a)) -v w=$((b2-b)) -v jit=$((c2-c)) \
          -v gc=$((d2-d)) -v o=$((e2-e)) -v load="$(cut -d' ' -f1 /proc/loadavg)" \
          'BEGIN { f=1e6/hz/n; printf "%-22s rps %6.1f  total %6.0f us/req  eventloop %6.0f  worker %5.0f  jit %5.0f  gc %5.0f  other %5.0f  load %s\n", j, rps, (el+w+jit+gc+o)*f, el*f, w*f, jit*f, gc*f, o*f, load }'
      done
      kill "$mc_pid"; wait "$mc_pid" 2>/dev/null || true; mc_pid=""
    done
  done
}

# ---- start-up floor (startup.sh, scale-recovery.sh) ------------------------------------------------------------------
# Milliseconds from `java` to the first 200 of a bare Vert.x Web server (bench/BareServer.java, compiled once into
# $work/bare beforehand) on the same jar's class path: what any Vert.x server on this machine and JVM costs to start.
# Uses the caller's work and jar, and the product's JVM options without its archive ($mc_jvm_opts).
bare_server_ms() {
  mkdir -p "$work/bare"
  [ -f "$work/bare/BareServer.class" ] || javac -d "$work/bare" -cp "$jar" bench/BareServer.java
  local port start pid ms=""
  [ -n "${mc_opts+x}" ] || mc_java_options >&2
  port=$(free_port)
  start=$(date +%s%3N)
  java $mc_jvm_opts -cp "$jar:$work/bare" BareServer "$port" >"$work/bare/out" 2>&1 & pid=$!
  local deadline=$((start + 60000))
  until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/login.html" || true)" = 200 ]; do
    kill -0 "$pid" 2>/dev/null || { cat "$work/bare/out" >&2; return 1; }
    [ "$(date +%s%3N)" -lt "$deadline" ] || { echo "BareServer did not answer within 60 s" >&2; kill "$pid"; return 1; }
    sleep 0.02
  done
  ms=$(( $(date +%s%3N) - start ))
  kill "$pid"; wait "$pid" 2>/dev/null || true
  echo "$ms"
}
