#!/usr/bin/env bash
# Scale and load: runs the scale parts in order and prints every measured row as one table at the end.
# Usage: bench/scale.sh [series=10000]
#
# Parts, in this order, each a script that also runs alone: scale-inventory (P3 inventory and reader responsiveness
# during a scan, memory), scale-recovery (P4 startup recovery), scale-queue (queue at size), scale-load (R6 load),
# scale-bus (P6 clustered event bus). `series` goes to scale-inventory (series x 10 chapters), and as the size to
# scale-recovery (open staging chapters), scale-queue (jobs) and scale-bus (pings); scale-load has no size (its
# defaults: 30 s, 64 connections). The defaults, 10,000 each, are the sizes the targets are set for.
# Env: SCALE_PARTS="inventory queue" runs only those parts (names without "scale-"); a part whose script is missing
# is skipped with a note. Every part's output is passed through as it comes; each part prints ROW lines
# (ROW|area|measure|MangaCircus figure|baseline|target|verdict), gathered here into the table. A part that fails is
# reported and the others still run; the exit status is then 1.
# Jar: $MANGACIRCUS_JAR, default launcher/target/mangacircus.jar (every part uses it).
set -uo pipefail
cd "$(dirname "$0")/.."

all_parts="inventory recovery queue load bus"
series=${1:-10000}
[[ "$series" =~ ^[0-9]+$ ]] && [ "$series" -ge 1 ] || { echo "usage: bench/scale.sh [series=10000]" >&2; exit 2; }
parts=${SCALE_PARTS:-$all_parts}
for p in $parts; do
  [[ " $all_parts " == *" $p "* ]] || { echo "SCALE_PARTS: unknown part '$p' (known: $all_parts)" >&2; exit 2; }
done

rows=$(mktemp); part_out=$(mktemp)
trap 'rm -f "$rows" "$part_out"' EXIT
trap 'exit 130' INT TERM

args_of() {
  case "$1" in
    inventory|recovery|queue|bus) echo "$series" ;;
    *) echo "" ;;
  esac
}

echo "machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(java -version 2>&1 | head -1)"
echo "scale: series=$series, parts: $parts; load average $(cut -d' ' -f1-3 /proc/loadavg)"
failed=()
for p in $all_parts; do
  [[ " $parts " == *" $p "* ]] || continue
  script="bench/scale-$p.sh"
  echo
  if [ ! -f "$script" ]; then
    echo "==== scale-$p: skipped ($script is missing)"
    echo "ROW|$p|(part not run: $script is missing)|-|-|-|-" >>"$rows"
    continue
  fi
  echo "==== scale-$p: bash $script $(args_of "$p")   (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  start=$(date +%s)
  bash "$script" $(args_of "$p") 2>&1 | tee "$part_out"
  rc=${PIPESTATUS[0]}
  grep '^ROW|' "$part_out" >>"$rows"
  echo "==== scale-$p: exit $rc after $(( $(date +%s) - start )) s"
  if [ "$rc" -ne 0 ]; then
    failed+=("$p")
    echo "ROW|$p|(part failed: exit $rc, see its output above)|-|-|-|-" >>"$rows"
  fi
done

echo
echo "==== scale: every row (load average at the end $(cut -d' ' -f1-3 /proc/loadavg))"
{ echo "ROW|area|measure|MangaCircus|baseline|target|verdict"; cat "$rows"; } | awk -F'|' '
  { n = NR; for (i = 2; i <= 7; i++) { cell[n, i] = $i; if (length($i) > w[i]) w[i] = length($i) } }
  END {
    for (r = 1; r <= n; r++) {
      line = ""
      for (i = 2; i <= 7; i++) line = line sprintf("%-" w[i] "s", cell[r, i]) (i < 7 ? " | " : "")
      sub(/ +$/, "", line); print line
      if (r == 1) { sep = ""; for (i = 2; i <= 7; i++) { s = sprintf("%" w[i] "s", ""); gsub(/ /, "-", s); sep = sep s (i < 7 ? "-|-" : "") } print sep }
    }
  }'
if [ "${#failed[@]}" -gt 0 ]; then
  echo "failed parts: ${failed[*]}" >&2
  exit 1
fi
