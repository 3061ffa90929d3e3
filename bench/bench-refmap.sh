#!/usr/bin/env bash
# bench-refmap.sh: refmap size and snapshot time of ad-bench-synthetic at several sizes,
# for one or two agent-desktop binaries side by side (e.g. before and after a change).
#
#   bench/bench-refmap.sh [BINARY_A [BINARY_B]]    (default: ./build/agent-desktop)
#
# For each node count in AD_BENCH_NODES (default "1000 10000") it starts ad-bench-synthetic
# on a desktop from scripts/desktop-env.sh (private unless AD_DESKTOP_PRIVATE=0), waits for
# its window, does one untimed warm-up per binary, then runs, interleaved and alternating
# which goes first, `snapshot --app ad-bench-synthetic --max-depth 50 --timeout-ms 60000`
# AD_BENCH_RUNS times (default 5) with each binary, in its own AGENT_DESKTOP_HOME. It prints
# a Markdown table: refs, refmap.json bytes and bytes per ref of the last run (or the error
# code when the snapshot failed), and the min and median whole-process ms (failed runs are
# timed too). The app is
# stopped by pid at the end of each size.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SYNTH=${AD_BUILD_DIR:-$root/build}/bench/ad-bench-synthetic
RUNS=${AD_BENCH_RUNS:-5}
NODES=${AD_BENCH_NODES:-1000 10000}
APP_START_TIMEOUT_S=120
bins=("$@")
((${#bins[@]})) || bins=("$root/build/agent-desktop")

die() { echo "bench-refmap: $*" >&2; exit 1; }
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
[[ -x "$SYNTH" ]] || die "$SYNTH not built"
for b in "${bins[@]}"; do [[ -x "$b" ]] || die "$b is not executable"; done

export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-refmap.XXXXXX")
app_pid=""
# shellcheck disable=SC2317  # runs from the EXIT trap
cleanup() {
  if [[ -n "$app_pid" ]]; then stop_app "$app_pid"; fi
  ad_desktop_stop
  rm -rf -- "$work"
}
trap cleanup EXIT

# Runs binary number $1 once; sets REPLY to its wall ms; its envelope goes to $work/out.$1.
run_one() {
  local i=$1 t0 t1 rc=0
  t0=$(now_us)
  AGENT_DESKTOP_HOME=$work/home.$i "${bins[$i]}" snapshot --app ad-bench-synthetic \
    --max-depth 50 --timeout-ms 60000 >"$work/out.$i" 2>>"$work/stderr.log" || rc=$?
  t1=$(now_us)
  REPLY=$(ms $((t1 - t0)))
  return $rc
}

echo "| nodes | binary | refs | refmap bytes | bytes/ref | min ms | median ms |"
echo "|---|---|---|---|---|---|---|"
for n in $NODES; do
  bench_start_synthetic "$n"
  declare -A times=()
  for i in "${!bins[@]}"; do
    mkdir -p -m 0700 "$work/home.$i"
    run_one "$i" || true
    times[$i]=""
  done
  for ((r = 1; r <= RUNS; r++)); do
    order=("${!bins[@]}")
    ((r % 2)) || order=($(printf '%s\n' "${!bins[@]}" | tac))
    for i in "${order[@]}"; do
      run_one "$i" || true
      times[$i]+=" $REPLY" # a failed run is timed too: the time it took to fail
    done
  done
  for i in "${!bins[@]}"; do
    out=$work/out.$i
    if [[ $(jq -r .ok "$out" 2>/dev/null) == true ]]; then
      sid=$(jq -r .data.snapshot_id "$out")
      refs=$(jq -r .data.ref_count "$out")
      bytes=$(stat -c %s "$work/home.$i/snapshots/$sid/refmap.json")
      per=$(awk -v b="$bytes" -v r="$refs" 'BEGIN { printf "%.1f", r ? b / r : 0 }')
    else
      refs="failed: $(jq -r '.error.code + " " + .error.message' "$out" 2>/dev/null | head -c 120)"
      bytes=n/a per=n/a
    fi
    # shellcheck disable=SC2086  # the list of times
    read -r tmin tmed <<<"$(stats ${times[$i]})"
    echo "| $n | ${bins[$i]} | $refs | $bytes | $per | $tmin | $tmed |"
  done
  unset times
  stop_app "$app_pid"
  app_pid=""
done
