#!/usr/bin/env bash
# desktop-up.sh: start a private headless desktop for tests and benchmarks.
#
#   scripts/desktop-up.sh DIR
#
# Starts, in order: Xvfb on the first free display from :90 upwards (1280x1024x24, or
# AD_DESKTOP_SCREEN such as 1280x800x24: bench/bench-screenshot.sh), a
# private D-Bus session bus, openbox, and the AT-SPI bus launcher. Each step is polled
# against a deadline (AD_DESKTOP_TIMEOUT_S, default 30 s per step). On success DIR holds:
#   pids          one line per started process: "PID STARTTIME LABEL" (tests may append
#                 their app pids, a bare "PID" is enough); desktop-down.sh kills these and
#                 the services D-Bus activated on the desktop's buses
#   env           the exports a client needs (also printed on stdout)
#   runtime-dir   the private XDG_RUNTIME_DIR created here (mode 0700)
#   display       the display number
#   bus-address, a11y-address   the session and accessibility bus addresses
#   *.log         stdout/stderr of each daemon
# On failure everything started so far is stopped again and the exit status is non-zero.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "desktop-up: $*" >&2; exit 1; }
# shellcheck source=desktop-lib.sh
source "$here/desktop-lib.sh"

[[ $# -eq 1 ]] || die "usage: desktop-up.sh DIR"
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
STEP_TIMEOUT_S=${AD_DESKTOP_TIMEOUT_S:-30}
LAUNCHER=${AD_ATSPI_BUS_LAUNCHER:-/usr/libexec/at-spi-bus-launcher}
[[ -x "$LAUNCHER" ]] || die "$LAUNCHER not found (install at-spi2-core)"
for tool in Xvfb dbus-daemon dbus-send openbox xdpyinfo xprop; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/install-deps.sh)"
done
desktop_begin desktop-up

# --- 1. Xvfb on a free display ------------------------------------------------------------
start_xvfb "${AD_DESKTOP_SCREEN:-1280x1024x24}"

# --- private runtime dir ------------------------------------------------------------------
# Always under /tmp, not $TMPDIR: the accessibility bus socket lives in it
# ($XDG_RUNTIME_DIR/at-spi/bus_N) and a unix socket path must fit in 108 bytes.
runtime_dir=$(mktemp -d /tmp/ad-xdg-runtime.XXXXXX)
chmod 0700 "$runtime_dir"
echo "$runtime_dir" >"$DIR/runtime-dir"

# The environment every daemon below and every client shares. NO_AT_BRIDGE is left out on
# purpose for the daemons: the launcher and services must not inherit "1" from the caller.
base_env=(
  -u DBUS_SESSION_BUS_ADDRESS -u NO_AT_BRIDGE -u AT_SPI_BUS_ADDRESS -u WAYLAND_DISPLAY
  DISPLAY="$display" XDG_RUNTIME_DIR="$runtime_dir" GSETTINGS_BACKEND=memory
  GDK_BACKEND=x11 GTK_A11Y=atspi QT_ACCESSIBILITY=1 LIBGL_ALWAYS_SOFTWARE=1
)

# --- 2. private session bus ---------------------------------------------------------------
bus_address=$(start_bus dbus "${base_env[@]}")
echo "$bus_address" >"$DIR/bus-address"
base_env+=(DBUS_SESSION_BUS_ADDRESS="$bus_address")

# --- 3. window manager --------------------------------------------------------------------
env "${base_env[@]}" openbox --sm-disable </dev/null >"$DIR/openbox.log" 2>&1 &
openbox_pid=$!
record_pid "$openbox_pid" openbox
wm_ready() { xprop -root -notype _NET_SUPPORTING_WM_CHECK | grep -q 'window id'; }
DISPLAY=$display wait_for "openbox to manage the screen" "$openbox_pid" wm_ready \
  || die "openbox did not start; see $DIR/openbox.log"

# --- 4. AT-SPI bus launcher ---------------------------------------------------------------
start_atspi "$bus_address" "${base_env[@]}"

# --- env file -----------------------------------------------------------------------------
{
  emit DISPLAY "$display"
  emit DBUS_SESSION_BUS_ADDRESS "$bus_address"
  emit XDG_RUNTIME_DIR "$runtime_dir"
  emit GTK_A11Y atspi
  emit NO_AT_BRIDGE 0
  emit QT_ACCESSIBILITY 1
  emit GSETTINGS_BACKEND memory
  emit GDK_BACKEND x11
  emit LIBGL_ALWAYS_SOFTWARE 1
  emit AD_DESKTOP_DIR "$DIR"
} >"$DIR/env.tmp"
mv "$DIR/env.tmp" "$DIR/env"
desktop_done
cat "$DIR/env"
