#!/usr/bin/env bash
# bench-notifications.sh: notification latencies on GNOME Shell (issue 10, "Measured"):
#   list-notifications   the whole command, with AD_BENCH_ROWS (default 3) notifications
#                        in the message list;
#   notify -> wait       `wait --notification --text TAG` runs; notify-send posts TAG at t0;
#                        the wait process exits at t1 (its result checked: matched, the
#                        title posted). The wait is given 1 s to take its baseline first.
# on a headless GNOME Shell, Wayland and X11 (scripts/gnome-desktop-up.sh through
# desktop-env.sh, one desktop per kind, stopped by its EXIT trap). AD_BENCH_RUNS runs
# (default 7) of each after a warm-up; prints a Markdown table of min and median in ms.
# Every notify-send and wait it starts is stopped by pid.
#
#   bench/bench-notifications.sh [KIND...]     (default: gnome-wayland gnome-x11)
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-7}
ROWS=${AD_BENCH_ROWS:-3}
AD=$BUILD/agent-desktop
die() { echo "bench-notifications: $*" >&2; exit 1; }
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
[[ -x $AD ]] || die "$AD not built"
for tool in jq notify-send; do
  command -v "$tool" >/dev/null || die "$tool missing (run scripts/install-deps.sh)"
done
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_RUNS must be a positive integer"
kinds=("$@")
((${#kinds[@]})) || kinds=(gnome-wayland gnome-x11)

# One kind, inside its own desktop: prints "KIND LIST_MIN LIST_MED WAIT_MIN WAIT_MED".
measure_kind() {
  local kind=$1 i t0 t1 out tag wpid
  local -a list_ms=() wait_ms=()
  export AD_DESKTOP_KIND=$kind
  # shellcheck source=/dev/null
  source "$root/scripts/desktop-env.sh"
  export AGENT_DESKTOP_HOME
  AGENT_DESKTOP_HOME=$(mktemp -d)
  for ((i = 0; i < ROWS; i++)); do notify-send "bench row $i" "body $i"; done
  "$AD" list-notifications >/dev/null # warm-up
  for ((i = 0; i < RUNS; i++)); do
    t0=$(now_us)
    out=$("$AD" list-notifications)
    t1=$(now_us)
    jq -e '.ok and .data.count >= '"$ROWS" <<<"$out" >/dev/null || die "$kind: list failed: $out"
    list_ms+=("$(ms $((t1 - t0)))")
  done
  for ((i = 0; i < RUNS; i++)); do
    tag="bench-wait-$i-$RANDOM"
    "$AD" wait --notification --text "$tag" --timeout 20000 >"$AGENT_DESKTOP_HOME/wait.out" &
    wpid=$!
    sleep 1 # the wait's baseline read; a bench, not a proof of absence
    t0=$(now_us)
    notify-send "$tag" "latency"
    wait "$wpid" || true
    t1=$(now_us)
    jq -e --arg t "$tag" '.ok and .data.notification.title == $t' \
      "$AGENT_DESKTOP_HOME/wait.out" >/dev/null || die "$kind: wait failed: $(cat "$AGENT_DESKTOP_HOME/wait.out")"
    wait_ms+=("$(ms $((t1 - t0)))")
  done
  rm -rf "$AGENT_DESKTOP_HOME"
  echo "$kind $(stats "${list_ms[@]}") $(stats "${wait_ms[@]}")"
}

echo "| desktop | list-notifications min | median | notify -> wait min | median |"
echo "|---|---|---|---|---|"
for kind in "${kinds[@]}"; do
  # A subshell per kind: desktop-env.sh's EXIT trap stops that desktop.
  read -r k lmin lmed wmin wmed < <(bash -c "$(declare -f measure_kind stop_app now_us ms stats die); \
    root='$root' AD='$AD' RUNS=$RUNS ROWS=$ROWS; measure_kind $kind")
  echo "| $k | $lmin ms | $lmed ms | $wmin ms | $wmed ms |"
done
