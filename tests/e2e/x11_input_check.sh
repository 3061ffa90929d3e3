#!/usr/bin/env bash
# x11_input_check.sh: end-to-end check of src/linux/x11_input.c on a private headless desktop.
#
#   tests/e2e/x11_input_check.sh [BUILD_DIR]      (default: build)
#
# Builds x11-drive (tests/unit/x11_drive.c) and ad-fixture, starts a desktop with
# scripts/desktop-up.sh, runs the fixture with AD_FIXTURE_STATE_FILE, reads widget extents
# through AT-SPI (/usr/bin/python3 + pyatspi), drives real XTEST input with x11-drive and
# checks every effect in the fixture's state file, never through AT-SPI actions. Prints one
# "ok N - ..." line per check; exits non-zero at the first failure. Everything it started
# (the fixture, the desktop) is stopped by pid from an EXIT trap. Every wait polls against a
# deadline (AD_CHECK_TIMEOUT_S, default 5 s per wait; the app start gets 30 s).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-build}
[[ "$build" = /* ]] || build="$root/$build"
timeout_s=${AD_CHECK_TIMEOUT_S:-5}
PY=/usr/bin/python3

die() { echo "not ok - $*" >&2; exit 1; }
n=0
ok() { n=$((n + 1)); echo "ok $n - $*"; }

for tool in xdotool "$PY"; do
  command -v "$tool" >/dev/null || die "$tool not found"
done
"$PY" -c 'import pyatspi' 2>/dev/null || die "pyatspi is not importable by $PY"
ninja -C "$build" tests/unit/x11-drive tests/fixture-app/ad-fixture >/dev/null \
  || die "build failed (ninja -C $build)"
drive=$build/tests/unit/x11-drive
fixture=$build/tests/fixture-app/ad-fixture

dir=$(mktemp -d "${TMPDIR:-/tmp}/ad-x11-check.XXXXXX")
fixture_pid=""
cleanup() {
  local rc=$?
  if [[ -n "$fixture_pid" ]]; then kill "$fixture_pid" 2>/dev/null || true; fi
  "$root/scripts/desktop-down.sh" "$dir" >/dev/null 2>&1 || true
  if [[ $rc -ne 0 || "${AD_KEEP_LOGS:-0}" == 1 ]]; then
    echo "# logs kept in $dir" >&2
  else
    rm -rf -- "$dir"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

bash "$root/scripts/desktop-up.sh" "$dir" >/dev/null || die "desktop-up.sh failed"
# shellcheck disable=SC1091
source "$dir/env"
unset AT_SPI_BUS_ADDRESS WAYLAND_DISPLAY

state=$dir/state.json
AD_FIXTURE_STATE_FILE=$state "$fixture" >"$dir/fixture.log" 2>&1 &
fixture_pid=$!
echo "$fixture_pid" >>"$dir/pids"

now_ms() { local t=${EPOCHREALTIME//[.,]/}; echo $((t / 1000)); }

# field NAME: one field of the state file as JSON text ("abc" for strings, 3 for numbers).
field() {
  "$PY" -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]],
            ensure_ascii=False))' "$state" "$1"
}

# wait_field NAME EXPECTED [S]: poll the state file until field NAME reads EXPECTED.
wait_field() {
  local deadline=$(($(now_ms) + ${3:-$timeout_s} * 1000)) got=""
  while :; do
    got=$(field "$1" 2>/dev/null || true)
    [[ "$got" == "$2" ]] && return 0
    (($(now_ms) > deadline)) && die "state field $1 is $got, expected $2"
    sleep 0.05
  done
}

# GTK reads presses under 400 ms apart (its double-click time) as one multi-click: unrelated
# clicks on one spot keep this gap. Pacing between gestures, not a wait for an effect.
click_gap() { sleep 0.5; }

# extents NAME...: "x y w h" per name from AT-SPI (screen coordinates; GTK3 reports them).
extents() {
  "$PY" - "$fixture_pid" "$@" <<'PY'
import sys, time
import pyatspi
pid, names = int(sys.argv[1]), sys.argv[2:]
deadline = time.monotonic() + 30
while True:
    found = {}
    for app in pyatspi.Registry.getDesktop(0):
        if app is None or app.get_process_id() != pid:
            continue
        stack = [(app, 0)]
        while stack:
            node, depth = stack.pop()
            for child in node:
                if child is None:
                    continue
                if child.name in names and child.name not in found:
                    e = child.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
                    if e.width > 0 and e.x > -100000:
                        found[child.name] = (e.x, e.y, e.width, e.height)
                if depth < 40:
                    stack.append((child, depth + 1))
    if len(found) == len(names):
        for name in names:
            print(*found[name])
        sys.exit(0)
    if time.monotonic() > deadline:
        sys.exit("no extents for %s" % [n for n in names if n not in found])
    time.sleep(0.1)
PY
}

# --- the window ---------------------------------------------------------------------------
wait_field count 0 30
deadline=$(($(now_ms) + 30000))
find_xwin() { xdotool search --all --pid "$fixture_pid" --name '^AD Fixture$' 2>/dev/null; }
until xwin=$(find_xwin | head -n1) && [[ -n "$xwin" ]]; do
  (($(now_ms) > deadline)) && die "xdotool found no 'AD Fixture' window of pid $fixture_pid"
  sleep 0.05
done
win=$("$drive" find "$fixture_pid" "AD Fixture")
[[ "$win" == "$xwin" ]] || die "find_window gave $win, xdotool $xwin"
ok "ad_x11_find_window finds the window xdotool finds ($win)"

ext=$(extents Increment Name 2>&1) || die "AT-SPI extents: $ext"
{ read -r bx by bw bh; read -r ex ey ew eh; } <<<"$ext"
bcx=$((bx + bw / 2)) bcy=$((by + bh / 2)) ecx=$((ex + ew / 2)) ecy=$((ey + eh / 2))

# --- focus and window_at ------------------------------------------------------------------
out=$("$drive" focus "$win" 5000)
[[ "$out" == "$win $fixture_pid" ]] || die "focus then active read '$out'"
[[ "$("$drive" active)" == "$win $fixture_pid" ]] || die "active window is not the fixture"
ok "ad_x11_focus_window + ad_x11_active_window round trip ($out)"

[[ "$("$drive" at "$bcx" "$bcy")" == "$win $fixture_pid" ]] \
  || die "window_at($bcx,$bcy) is not the fixture"
ok "ad_x11_window_at reports the fixture's pid at the Increment button"
[[ "$("$drive" at 1279 1023)" != *" $fixture_pid" ]] || die "window_at(1279,1023) is the fixture"
ok "ad_x11_window_at reports another window or none away from the fixture"

# --- pointer ------------------------------------------------------------------------------
before=$(field count)
"$drive" click "$bcx" "$bcy"
wait_field count $((before + 1))
sleep 0.5 # a second, late increment would show up within this window
[[ "$(field count)" == $((before + 1)) ]] || die "one click incremented more than once"
ok "a left click at the Increment button centre incremented count by exactly 1"

click_gap
"$drive" click "$bcx" "$bcy" 1 2
wait_field count $((before + 3))
ok "a double click (count 2, 30 ms apart) incremented count by 2"

# --- keyboard -----------------------------------------------------------------------------
click_gap
"$drive" click "$ecx" "$ecy"
"$drive" type abc
wait_field name '"abc"'
ok "click into the Name entry, then type 'abc'"

"$drive" key ctrl+a
"$drive" type xyz
wait_field name '"xyz"'
ok "ctrl+a, then type 'xyz', replaced the text"

"$drive" key ctrl+a
"$drive" type 'Hello, World! ~_+{}|:<>?'
wait_field name '"Hello, World! ~_+{}|:<>?"'
ok "shifted characters are typed with shift"

keymap_before=$("$drive" keymap)
"$drive" key ctrl+a
"$drive" type 'é€→✓ αβγ'
wait_field name '"é€→✓ αβγ"'
[[ "$("$drive" keymap)" == "$keymap_before" ]] || die "the keyboard mapping was not restored"
ok "characters outside the keymap are typed through a spare keycode, mapping restored"

# 49 distinct characters outside the keymap: 49 remaps plus a restore per spare keycode
# (Xvfb's evdev keymap has 19 empty keycodes: 68 changes).
many='一二三四五六七八九十百千万亿上下左右前后东西南北'
many+='中大小多少天地人日月水火木金土山川风雨雪电花草鸟鱼'
if "$drive" type "$many" 2>"$dir/err.txt"; then die "a text needing > 64 keymap changes went"; fi
grep -Eq 'INVALID_ARGS: The text needs [0-9]+ keyboard mapping changes' "$dir/err.txt" \
  || die "$(cat "$dir/err.txt")"
[[ "$("$drive" keymap)" == "$keymap_before" ]] || die "a refused text changed the keymap"
wait_field name '"é€→✓ αβγ"'
ok "a text needing more than 64 keymap changes is refused before anything is sent"

"$drive" key ctrl+a
"$drive" key caps_lock
"$drive" type 'aB1é'
"$drive" key caps_lock
wait_field name '"aB1é"'
ok "type_text with Caps Lock on types the text as given"

if "$drive" key ctrl+nosuchkey 2>"$dir/err.txt"; then die "an unknown key was accepted"; fi
grep -q "INVALID_ARGS: Unknown key name 'nosuchkey'" "$dir/err.txt" || die "$(cat "$dir/err.txt")"
ok "an unknown key is INVALID_ARGS and sends nothing"

"$drive" key ctrl+a
"$drive" type 'one two three'
wait_field name '"one two three"'
click_gap
"$drive" click "$ecx" "$ecy" 1 3
"$drive" type Q
wait_field name '"Q"'
ok "a triple click selected the whole entry line"

"$drive" key ctrl+a
"$drive" type 'hello world'
wait_field name '"hello world"'
"$drive" key End
click_gap
# From inside the text area (GTK3 ignores a drag that starts in the entry's right padding).
"$drive" drag $((ex + ew - 16)) "$ecy" $((ex + 2)) "$ecy" 200
"$drive" type Z
wait_field name '"Z"'
ok "a drag across the entry selected its text"

"$drive" key ctrl+a
"$drive" type 'hello world'
wait_field name '"hello world"'
"$drive" key Home
click_gap
"$drive" click $((ex + ew - 16)) "$ecy" 1 1 shift
"$drive" type Y
wait_field name '"Y"'
ok "a shift+click extended the selection (modifiers held around the click)"

# --- wheel --------------------------------------------------------------------------------
# The list box inside the scroller: its top moves up as the view scrolls down.
ext=$(extents "Long list items" 2>&1) || die "AT-SPI extents: $ext"
read -r lx ly lw _ <<<"$ext"
"$drive" wheel $((lx + lw / 2)) $((ly + 40)) 0 -3
deadline=$(($(now_ms) + timeout_s * 1000))
ny=$ly
while ((ny == ly)); do
  (($(now_ms) > deadline)) && die "wheel down did not scroll the long list"
  sleep 0.05
  ext=$(extents "Long list items" 2>&1) || die "AT-SPI extents: $ext"
  read -r _ ny _ _ <<<"$ext"
done
((ny < ly)) || die "wheel down moved the list down (y $ly -> $ny)"
ok "wheel down over the long list scrolled it (its top moved from y=$ly to $ny)"

# --- focus after iconify ------------------------------------------------------------------
xdotool windowminimize --sync "$win"
[[ "$("$drive" at "$bcx" "$bcy")" != "$win $fixture_pid" ]] || die "minimized window still hit"
"$drive" focus "$win" 5000 >/dev/null
[[ "$("$drive" at "$bcx" "$bcy")" == "$win $fixture_pid" ]] \
  || die "window_at right after focus_window of an iconified window missed it"
ok "focus_window restores an iconified window and returns once its frame is in place"

echo "1..$n"
