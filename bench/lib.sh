#!/usr/bin/env bash
# Shared by the bench scripts that source it (pages.sh, cbz.sh, notify-hang.sh, pipeline.sh, memory.sh): small helpers, and the bench library
# that pages.sh and cbz.sh serve. Not run on its own.

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
