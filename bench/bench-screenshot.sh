#!/usr/bin/env bash
# bench-screenshot.sh: `agent-desktop screenshot` against ImageMagick `import` on the same
# targets, side by side: a 1280x800 display, and one window (ad-fixture).
#
#   bench/bench-screenshot.sh            (run from anywhere; builds nothing)
#
# On a private headless desktop of 1280x800 (scripts/desktop-env.sh with AD_DESKTOP_SCREEN),
# it starts build/tests/fixture-app/ad-fixture and reads its window's bounds from
# list-windows. Targets: the display (`screenshot --screen 0 PATH` / `import -window root
# PATH`) and the window (`screenshot --window-id ID PATH` / `import -window root -crop
# WxH+X+Y PATH`, the same rectangle). Both write a PNG file. First it checks that each pair
# gives the same pixels (ImageMagick compare, 0 differing), then, after a warm-up, runs
# AD_BENCH_RUNS times (default 9) interleaved, alternating which tool goes first, timing the
# whole process. Prints a Markdown table of min and median in ms and the ratio
# import / agent-desktop (above 1: agent-desktop is faster). Every process it started is
# stopped by pid. Exit status 1 when something failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-9}
AD=$BUILD/agent-desktop
FIXTURE=$BUILD/tests/fixture-app/ad-fixture
APP_START_TIMEOUT_S=30

die() { echo "bench-screenshot: $*" >&2; exit 1; }
note() { echo "bench-screenshot: $*" >&2; }
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_require_fixture
command -v import >/dev/null && command -v compare >/dev/null ||
  die "ImageMagick not found (run scripts/install-deps.sh)"

export AD_DESKTOP_SCREEN=1280x800x24
bench_fixture_begin screenshot
read -r sw sh < <("$AD" list-displays | jq -er '.data[0].bounds | "\(.width|floor) \(.height|floor)"')
[[ "$sw x $sh" == "1280 x 800" ]] || die "the display is ${sw}x${sh}, not 1280x800"
win=$("$AD" list-windows --app ad-fixture | jq -ec '.data[0]') || die "no fixture window"
wid=$(jq -er .id <<<"$win")
read -r wx wy ww wh < <(jq -er '.bounds | "\(.x|floor) \(.y|floor) \(.width|floor) \(.height|floor)"' <<<"$win")
crop="${ww}x${wh}+${wx}+${wy}"

ad_display() { "$AD" screenshot --screen 0 "$work/ad-display.png" >/dev/null; }
im_display() { import -window root "$work/im-display.png"; }
ad_window() { "$AD" screenshot --window-id "$wid" "$work/ad-window.png" >/dev/null; }
im_window() { import -window root -crop "$crop" +repage "$work/im-window.png"; }

same() { # same pixels: compare prints the count of differing pixels
  local n
  n=$(compare -metric AE "$1" "$2" null: 2>&1 || true)
  [[ "$n" == 0 ]] || { note "$1 and $2 differ in $n pixels"; failed=1; }
}

failed=0
ad_display && im_display && same "$work/ad-display.png" "$work/im-display.png"
ad_window && im_window && same "$work/ad-window.png" "$work/im-window.png"
((failed == 0)) || die "the pictures differ"
# the window as captured: its bounds clipped to the display
read -r cw ch < <(identify -format '%w %h' "$work/ad-window.png")

time_ms() { # runs "$@" and prints its wall time in microseconds
  local t0 t1
  t0=$(now_us)
  "$@" || { note "$* failed"; failed=1; }
  t1=$(now_us)
  echo $((t1 - t0))
}

declare -a a_d=() i_d=() a_w=() i_w=()
for ((r = 0; r < RUNS; r++)); do
  if ((r % 2)); then
    i_d+=("$(time_ms im_display)"); a_d+=("$(time_ms ad_display)")
    i_w+=("$(time_ms im_window)"); a_w+=("$(time_ms ad_window)")
  else
    a_d+=("$(time_ms ad_display)"); i_d+=("$(time_ms im_display)")
    a_w+=("$(time_ms ad_window)"); i_w+=("$(time_ms im_window)")
  fi
done
((failed == 0)) || die "a capture failed"

row() { # TARGET AD_US... -- IM_US...
  local target=$1; shift
  local -a ad=() im=(); local side=ad v
  for v in "$@"; do
    if [[ $v == -- ]]; then side=im; continue; fi
    if [[ $side == ad ]]; then ad+=("$(ms "$v")"); else im+=("$(ms "$v")"); fi
  done
  read -r amin amed < <(stats "${ad[@]}")
  read -r imin imed < <(stats "${im[@]}")
  printf '| %s | %s | %s | %s | %s | %s |\n' "$target" "$amin" "$amed" "$imin" "$imed" \
    "$(awk -v a="$amed" -v b="$imed" 'BEGIN { printf "%.2f", b / a }')"
}

echo "screenshot against import, $RUNS runs each, whole process, ms (PNG files)"
echo
echo "| target | agent-desktop min | median | import min | median | import / agent-desktop (median) |"
echo "|---|---|---|---|---|---|"
row "display 1280x800" "${a_d[@]}" -- "${i_d[@]}"
row "window ${cw}x${ch}" "${a_w[@]}" -- "${i_w[@]}"
