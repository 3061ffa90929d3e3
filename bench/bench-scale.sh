#!/usr/bin/env bash
# bench-scale.sh: how a whole snapshot scales from 1k to 50k nodes (issue 12, "cost linear
# from 1k to 50k"), beside the walk-only baseline program.
#
#   bench/bench-scale.sh [BINARY]    (default: ./build/agent-desktop)
#
# For each node count in AD_BENCH_NODES (default "1000 5000 10000 20000 50000") it starts a
# fresh ad-bench-synthetic with that many nodes on a desktop from scripts/desktop-env.sh
# (private unless AD_DESKTOP_PRIVATE=0), waits for its window, does one untimed warm-up, then
# AD_BENCH_RUNS times (default 3) alternates
#   BINARY snapshot --app ad-bench-synthetic --max-depth 50 --timeout-ms 120000
# under /usr/bin/time (wall time, the process's peak RSS) and the walk-only baseline
# (build/bench/ad-bench-hybrid-walk when built, else ad-bench-naive-walk). It prints a Markdown
# table: nodes shown, refs, snapshot wall min / median ms, the snapshot process's own CPU ms
# (user + system, median) and the app's CPU ms per snapshot (from /proc/PID/stat; on a loaded
# machine CPU is the linear measure, wall time mostly waits for a core), peak RSS, RSS bytes
# per node, refmap bytes and bytes per ref, stdout bytes, and the baseline's min / median ms
# and peak RSS. A failed snapshot shows its error code. The app is stopped by pid after each
# size, the desktop by its EXIT trap.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${AD_BUILD_DIR:-$root/build}
SYNTH=$build/bench/ad-bench-synthetic
BIN=$(realpath "${1:-$build/agent-desktop}")
RUNS=${AD_BENCH_RUNS:-3}
NODES=${AD_BENCH_NODES:-1000 5000 10000 20000 50000}
APP_START_TIMEOUT_S=300
WALK=$build/bench/ad-bench-hybrid-walk
[[ -x "$WALK" ]] || WALK=$build/bench/ad-bench-naive-walk

die() { echo "bench-scale: $*" >&2; exit 1; }
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
[[ -x /usr/bin/time ]] || die "/usr/bin/time not found (Debian package time)"
[[ -x "$SYNTH" ]] || die "$SYNTH not built"
[[ -x "$BIN" ]] || die "$BIN is not executable"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_RUNS must be a positive integer"

export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-scale.XXXXXX")
export AGENT_DESKTOP_HOME=$work/home
mkdir -m 0700 "$AGENT_DESKTOP_HOME"
unset AGENT_DESKTOP_SESSION
app_pid=""
trap bench_cleanup EXIT

median() { stats "$@" | cut -d' ' -f2; }

# The app's CPU time so far, in clock ticks (utime + stime).
app_ticks() { sed 's/.*) //' "/proc/$app_pid/stat" | awk '{ print $12 + $13 }'; }

# Runs "$@" under /usr/bin/time; REPLY is "WALL_MS PEAK_KB CPU_MS APP_CPU_MS" (the process's
# user + system time, the app's during the run); stdout goes to $work/out.
timed() {
  local rc=0 t0 t1 a0 a1 hz
  hz=$(getconf CLK_TCK)
  a0=$(app_ticks)
  t0=$(now_us)
  /usr/bin/time -f '%M %U %S' -o "$work/time" "$@" >"$work/out" 2>>"$work/stderr.log" || rc=$?
  t1=$(now_us)
  a1=$(app_ticks)
  REPLY="$(ms $((t1 - t0))) $(tail -n 1 "$work/time" | awk '{ printf "%s %.0f", $1, ($2 + $3) * 1000 }')"
  REPLY+=" $(awk -v d=$((a1 - a0)) -v hz="$hz" 'BEGIN { printf "%.0f", d * 1000 / hz }')"
  return $rc
}

echo "| nodes | refs | snapshot min / median ms | its CPU ms | app CPU ms | CPU µs/node |" \
  "peak RSS KiB | RSS B/node | refmap B | B/ref | stdout B |" \
  "$(basename "$WALK") min / median ms | its CPU ms | app CPU ms | its peak RSS KiB |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for n in $NODES; do
  bench_start_synthetic "$n"
  snap=("$BIN" snapshot --app ad-bench-synthetic --max-depth 50 --timeout-ms 120000)
  timed "${snap[@]}" || true # warm-up: GTK builds its accessibles lazily
  s_ms=() s_kb=() s_cpu=() s_app=() w_ms=() w_kb=() w_cpu=() w_app=()
  for ((r = 1; r <= RUNS; r++)); do
    timed "${snap[@]}" || true # a failed run is timed too: the time it took to fail
    read -r t kb cpu appc <<<"$REPLY"
    s_ms+=("$t") s_kb+=("$kb") s_cpu+=("$cpu") s_app+=("$appc")
    cp "$work/out" "$work/snap.json"
    timed "$WALK" ad-bench-synthetic || true
    read -r t kb cpu appc <<<"$REPLY"
    w_ms+=("$t") w_kb+=("$kb") w_cpu+=("$cpu") w_app+=("$appc")
  done
  s_wall=$(stats "${s_ms[@]}") w_wall=$(stats "${w_ms[@]}")
  skb=$(median "${s_kb[@]}") scpu=$(median "${s_cpu[@]}") sapp=$(median "${s_app[@]}")
  wkb=$(median "${w_kb[@]}") wcpu=$(median "${w_cpu[@]}") wapp=$(median "${w_app[@]}")
  out=$work/snap.json
  obytes=$(stat -c %s "$out")
  if [[ $(jq -r .ok "$out" 2>/dev/null) == true ]]; then
    shown=$(jq '[.data.tree | recurse(.children[]?)] | length' "$out")
    refs=$(jq -r .data.ref_count "$out")
    sid=$(jq -r .data.snapshot_id "$out")
    rbytes=$(stat -c %s "$AGENT_DESKTOP_HOME/snapshots/$sid/refmap.json")
    per_ref=$(awk -v b="$rbytes" -v r="$refs" 'BEGIN { printf "%.1f", r ? b / r : 0 }')
    per_node=$(awk -v k="$skb" -v n="$shown" 'BEGIN { printf "%.0f", k * 1024 / n }')
    us=$(awk -v m="$scpu" -v n="$shown" 'BEGIN { printf "%.1f", m * 1000 / n }')
  else
    shown="$n (failed: $(jq -r '.error.code' "$out" 2>/dev/null))"
    refs=n/a rbytes=n/a per_ref=n/a per_node=n/a us=n/a
  fi
  echo "| $shown | $refs | ${s_wall/ / \/ } | $scpu | $sapp | $us | $skb | $per_node | $rbytes |" \
    "$per_ref | $obytes | ${w_wall/ / \/ } | $wcpu | $wapp | $wkb |"
  stop_app "$app_pid"
  app_pid=""
done
