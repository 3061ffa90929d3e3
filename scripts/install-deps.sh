#!/usr/bin/env bash
# install-deps.sh: install every Debian package agent-desktop needs to build, test and
# benchmark (Debian 12 / Ubuntu 24.04). Idempotent: apt-get update and apt-get install run
# only when a package is missing, so a second run is fast and silent.
#
# Usage: scripts/install-deps.sh [--print]   (--print lists the packages and exits)
set -euo pipefail

PACKAGES=(
  # toolchain and build
  gcc g++ binutils libc6-dev meson ninja-build pkg-config ca-certificates
  # g++: the header compiles as C++11 (tests/ffi); binutils: nm for the export test
  # libraries linked by agent-desktop
  libsystemd-dev libjansson-dev libpng-dev
  libxcb1-dev libxcb-ewmh-dev libxcb-icccm4-dev libxcb-randr0-dev libxcb-xtest0-dev
  libxcb-shm0-dev libxcb-render0-dev
  # X-Resource: the pid of the window manager's EWMH check window (linux/x11_wm.c)
  libxcb-res0-dev
  # the cursor overlay in the helper: an empty input region (XFixes) and shaped windows
  libxcb-xfixes0-dev libxcb-shape0-dev
  # unit tests; clang and its runtimes for the libFuzzer targets (scripts/fuzz.sh)
  libcmocka-dev clang libclang-rt-14-dev
  # fixture app, benchmark programs
  libgtk-3-dev libatspi2.0-dev
  # headless desktop and accessibility bus
  xvfb openbox at-spi2-core dbus dbus-x11 x11-utils x11-xkb-utils xdotool imagemagick procps
  # apps driven by e2e tests and benchmarks
  gnome-calculator gtk-3-examples gtk-4-examples
  # a Chromium browser (tests/e2e/test_chromium.py: web popups on the AT-SPI bus)
  chromium
  # a Qt 5 app (tests/fixture-qt: Qt's bridge, its combo popups)
  python3-pyqt5
  # the headless GNOME Shell desktops (scripts/gnome-desktop-up.sh): gjs runs the shell's
  # notification daemon, pipewire + wireplumber back Mutter's ScreenCast (pointer input over
  # RemoteDesktop needs a stream); wl-clipboard is the Wayland clipboard; notify-send
  gnome-shell mutter gjs pipewire wireplumber wl-clipboard libnotify-bin
  # test tooling
  jq python3 python3-pytest python3-pyatspi gir1.2-atspi-2.0
  # clipboard reads and writes of other clients, INCR seen on the wire (test_clipboard.py)
  xclip python3-xlib
  # a compositing manager for the screenshot tests under compositing (test_screenshot.py)
  xcompmgr
  # the MCP client SDKs' runtime (tests/mcp: node:test, npm ci from the lockfile); this
  # machine's nodejs (20, a repack) ships npm itself, and Debian's npm package would
  # conflict with it, so npm is not listed
  nodejs
)

if [[ "${1:-}" == "--print" ]]; then
  printf '%s\n' "${PACKAGES[@]}"
  exit 0
fi

# One dpkg-query for all packages (one process per package costs ~5 ms each). A package
# dpkg has never heard of prints nothing, so it counts as missing too.
declare -A installed=()
while read -r name status; do
  [[ "$status" == "install ok installed" ]] && installed["$name"]=1
done < <(dpkg-query -W -f='${Package} ${Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)

missing=()
for pkg in "${PACKAGES[@]}"; do
  [[ -n "${installed[$pkg]:-}" ]] || missing+=("$pkg")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${SUDO[@]}" apt-get update -qq
"${SUDO[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
