#!/usr/bin/env bash
# bench-wayland-input.sh: click-to-verified and type-to-verified on GNOME Wayland (Mutter
# RemoteDesktop through the helper, helper/wl_session.h) against X11 + openbox (XTEST), side
# by side.
#
#   bench/bench-wayland-input.sh      (run from anywhere; builds nothing)
#
# For each desktop (a private headless openbox desktop, then a headless GNOME Shell on
# Wayland, both from scripts/desktop-env.sh and stopped by its EXIT trap) and each measure,
# bench/bench_wayland_series.py starts a fresh ad-fixture, does one untimed warm-up pair and
# AD_BENCH_RUNS (default 5) timed ones, and prints min and median in ms; this script prints
# them as one Markdown table. What each pair is, and why the Wayland click targets
# gnome-shell's Activities toggle rather than the fixture, is in bench_wayland_series.py.
# Exit status 1 when a series failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-5}
AD=$BUILD/agent-desktop
FIXTURE=$BUILD/tests/fixture-app/ad-fixture
[[ -x $AD && -x $FIXTURE ]] || { echo "bench-wayland-input: build first" >&2; exit 1; }
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "bench-wayland-input: AD_BENCH_RUNS" >&2; exit 1; }

failed=0
rows=()
# gnome-wayland-unsafe: GNOME Shell in unsafe mode, whose window list proves the fixture's
# screen points (src/linux/shell_frames.h), so its click is a pointer click on the fixture.
for kind in openbox gnome-wayland gnome-wayland-unsafe; do
  for measure in click semantic type; do
    home=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-wl.XXXXXX")
    desktop_kind=$kind unsafe=0
    [[ $kind == openbox ]] && desktop_kind=""
    [[ $kind == gnome-wayland-unsafe ]] && desktop_kind=gnome-wayland unsafe=1
    # One bash per series, so its desktop's EXIT trap stops the desktop.
    if out=$(cd "$root" && AD_DESKTOP_KIND=$desktop_kind AD_DESKTOP_PRIVATE=1 \
               AD_GNOME_UNSAFE_MODE=$unsafe \
               AGENT_DESKTOP_HOME=$home bash -c 'source scripts/desktop-env.sh; \
               /usr/bin/python3 bench/bench_wayland_series.py "$@"' _ \
               "$AD" "$FIXTURE" "$measure" "$RUNS" | tail -1); then
      rows+=("| $kind | $measure | $(jq -r .min <<<"$out") | $(jq -r .median <<<"$out") | \
$(jq -r .runs <<<"$out") |")
    else
      rows+=("| $kind | $measure | failed | failed | 0 |")
      failed=1
    fi
    rm -rf -- "$home"
  done
done
echo "| desktop | measure | min ms | median ms | runs |"
echo "|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
exit "$failed"
