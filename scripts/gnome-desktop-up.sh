#!/usr/bin/env bash
# gnome-desktop-up.sh: start a private headless GNOME Shell desktop for tests and benchmarks.
#
#   scripts/gnome-desktop-up.sh [--x11] DIR
#
# Default: GNOME Shell as a headless Wayland compositor (gnome-shell --wayland --headless
# --virtual-monitor, AD_GNOME_MONITOR, default 1280x800). --x11: Xvfb plus
# gnome-shell --x11 --replace (GNOME on X11, with XTEST). Starts, in order: a private
# runtime dir and HOME, a private session bus, a second private bus exported as
# DBUS_SYSTEM_BUS_ADDRESS (without a system bus gnome-shell 43 dies in LoginManager), the
# AT-SPI bus launcher, pipewire + wireplumber (Mutter's ScreenCast, which pointer input over
# RemoteDesktop needs), Xvfb for --x11, and gnome-shell. Ready when org.freedesktop.Notifications
# has an owner (gnome-shell's notification daemon; 2-7 s) and the Overview, where the shell
# starts, is closed. Every step is polled against AD_DESKTOP_TIMEOUT_S (default 60 s).
#
# DIR gets the same files as desktop-up.sh (pids, env, runtime-dir, bus-address,
# a11y-address, display for --x11, *.log), plus system-bus-address and kind
# ("gnome-wayland" or "gnome-x11"). Stop it with desktop-down.sh DIR.
#
# --no-x11 on Wayland is deliberate: without it gnome-shell starts Xwayland on a public
# display and leaves X lock files behind.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
die() { echo "gnome-desktop-up: $*" >&2; exit 1; }
# shellcheck source=desktop-lib.sh
source "$here/desktop-lib.sh"

kind=gnome-wayland
if [[ "${1:-}" == "--x11" ]]; then kind=gnome-x11; shift; fi
[[ $# -eq 1 ]] || die "usage: gnome-desktop-up.sh [--x11] DIR"
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
STEP_TIMEOUT_S=${AD_DESKTOP_TIMEOUT_S:-60}
MONITOR=${AD_GNOME_MONITOR:-1280x800}
LAUNCHER=${AD_ATSPI_BUS_LAUNCHER:-/usr/libexec/at-spi-bus-launcher}
[[ -x "$LAUNCHER" ]] || die "$LAUNCHER not found (install at-spi2-core)"
for tool in gnome-shell gjs pipewire wireplumber dbus-daemon dbus-send; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/install-deps.sh)"
done
if [[ $kind == gnome-x11 ]]; then
  for tool in Xvfb xdpyinfo xprop; do
    command -v "$tool" >/dev/null || die "$tool not found (run scripts/install-deps.sh)"
  done
fi

desktop_begin gnome-desktop-up

# --- private runtime dir and HOME ---------------------------------------------------------
# Under /tmp: the AT-SPI and Wayland sockets live in it and a socket path fits in 108 bytes.
runtime_dir=$(mktemp -d /tmp/ad-xdg-runtime.XXXXXX)
chmod 0700 "$runtime_dir"
echo "$runtime_dir" >"$DIR/runtime-dir"
# gnome-shell and the apps write ~/.local and ~/.config; keep them out of the real HOME.
home_dir="$DIR/home"
mkdir -p "$home_dir"
chmod 0700 "$home_dir"

base_env=(
  -u DBUS_SESSION_BUS_ADDRESS -u NO_AT_BRIDGE -u AT_SPI_BUS_ADDRESS -u WAYLAND_DISPLAY
  -u DISPLAY -u XDG_SESSION_TYPE -u GDK_BACKEND
  XDG_RUNTIME_DIR="$runtime_dir" HOME="$home_dir" GSETTINGS_BACKEND=memory
  GTK_A11Y=atspi QT_ACCESSIBILITY=1 LIBGL_ALWAYS_SOFTWARE=1 XDG_CURRENT_DESKTOP=GNOME
)

# --- 1. Xvfb (GNOME on X11 only) ----------------------------------------------------------
display=""
[[ $kind == gnome-x11 ]] && start_xvfb "${MONITOR}x24"

# --- 2. session bus and the stand-in system bus -------------------------------------------
bus_address=$(start_bus dbus "${base_env[@]}")
echo "$bus_address" >"$DIR/bus-address"
system_bus_address=$(start_bus system-dbus "${base_env[@]}")
echo "$system_bus_address" >"$DIR/system-bus-address"
base_env+=(DBUS_SESSION_BUS_ADDRESS="$bus_address" DBUS_SYSTEM_BUS_ADDRESS="$system_bus_address")

session_send() {
  DBUS_SESSION_BUS_ADDRESS=$bus_address dbus-send --session --reply-timeout=2000 --print-reply "$@"
}
name_owned() { # NAME
  session_send --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    "string:$1" | grep -q 'boolean true'
}

# --- 3. AT-SPI bus launcher (before the shell, so the shell and apps find it) --------------
start_atspi "$bus_address" "${base_env[@]}"

# --- 4. pipewire and wireplumber ------------------------------------------------------------
env "${base_env[@]}" pipewire </dev/null >"$DIR/pipewire.log" 2>&1 &
pipewire_pid=$!
record_pid "$pipewire_pid" pipewire
wait_for "the pipewire socket" "$pipewire_pid" test -S "$runtime_dir/pipewire-0" \
  || die "pipewire did not start; see $DIR/pipewire.log"
env "${base_env[@]}" wireplumber </dev/null >"$DIR/wireplumber.log" 2>&1 &
record_pid "$!" wireplumber

# --- 5. gnome-shell -----------------------------------------------------------------------
# AD_GNOME_UNSAFE_MODE=1 adds --unsafe-mode: org.gnome.Shell.Eval answers, which is where
# agent-desktop reads window frames on Wayland (src/linux/shell_frames.h).
shell_flags=()
[[ "${AD_GNOME_UNSAFE_MODE:-0}" == 1 ]] && shell_flags+=(--unsafe-mode)
if [[ $kind == gnome-wayland ]]; then
  env "${base_env[@]}" XDG_SESSION_TYPE=wayland gnome-shell --wayland --headless \
    --virtual-monitor "$MONITOR" --no-x11 "${shell_flags[@]}" </dev/null >"$DIR/gnome-shell.log" 2>&1 &
else
  env "${base_env[@]}" DISPLAY="$display" XDG_SESSION_TYPE=x11 gnome-shell --x11 --replace \
    "${shell_flags[@]}" </dev/null >"$DIR/gnome-shell.log" 2>&1 &
fi
shell_pid=$!
record_pid "$shell_pid" gnome-shell
# gnome-shell's notification daemon is the last of its services to come up.
wait_for "gnome-shell to own org.freedesktop.Notifications" "$shell_pid" \
  name_owned org.freedesktop.Notifications \
  || die "gnome-shell did not start; see $DIR/gnome-shell.log"
if [[ $kind == gnome-wayland ]]; then
  wait_for "the Wayland socket" "$shell_pid" test -S "$runtime_dir/wayland-0" \
    || die "gnome-shell made no wayland-0 socket; see $DIR/gnome-shell.log"
fi
# The shell starts in the Overview, which covers every window; close it and check, but only
# after its startup animation has ended. gnome-shell 43's Overview.runStartupAnimation ends
# in an ease's onComplete (overviewControls.js); a hide() that lands during it (our first
# OverviewActive=false came as soon as the D-Bus name was up) cut that ease, so
# 'startup-complete' never came: Main.layoutManager._startingUp stayed true (read with Eval
# in unsafe mode after a start that "succeeded"), and under load the Overview sometimes
# never closed at all ("timed out ... waiting for the Overview to close"). At
# startup-complete the shell logs "GNOME Shell started at" (main.js, a structured message
# that reaches stderr without a journal): wait for that line first, with its own bound.
startup_complete() {
  grep -q 'GNOME Shell started at' "$DIR/gnome-shell.log"
}
# Where the shell was when it never got there (Eval answers in unsafe mode only).
startup_state() {
  session_send --dest=org.gnome.Shell /org/gnome/Shell org.gnome.Shell.Eval \
    string:'JSON.stringify({starting_up: Main.layoutManager._startingUp, overview:
      Main.overview._shownState, animating: Main.overview.animationInProgress})' 2>&1 | tail -1
}
if ! STEP_TIMEOUT_S=${AD_GNOME_STARTUP_TIMEOUT_S:-120} \
  wait_for "gnome-shell's startup animation to end" "$shell_pid" startup_complete; then
  echo "gnome-desktop-up: the shell's state: $(startup_state)" >&2
  die "gnome-shell's startup did not complete; see $DIR/gnome-shell.log"
fi
overview_closed() {
  session_send --dest=org.gnome.Shell /org/gnome/Shell org.freedesktop.DBus.Properties.Set \
    string:org.gnome.Shell string:OverviewActive variant:boolean:false >/dev/null &&
    session_send --dest=org.gnome.Shell /org/gnome/Shell org.freedesktop.DBus.Properties.Get \
      string:org.gnome.Shell string:OverviewActive | grep -q 'boolean false'
}
wait_for "the Overview to close" "$shell_pid" overview_closed \
  || die "could not close the Overview; see $DIR/gnome-shell.log"
echo "$kind" >"$DIR/kind"

# --- env file -----------------------------------------------------------------------------
{
  if [[ $kind == gnome-wayland ]]; then
    emit WAYLAND_DISPLAY wayland-0
    emit XDG_SESSION_TYPE wayland
    emit GDK_BACKEND wayland
    emit QT_QPA_PLATFORM wayland
    echo "unset DISPLAY"
  else
    emit DISPLAY "$display"
    emit XDG_SESSION_TYPE x11
    emit GDK_BACKEND x11
    echo "unset WAYLAND_DISPLAY"
  fi
  emit DBUS_SESSION_BUS_ADDRESS "$bus_address"
  emit DBUS_SYSTEM_BUS_ADDRESS "$system_bus_address"
  emit XDG_RUNTIME_DIR "$runtime_dir"
  emit XDG_CURRENT_DESKTOP GNOME
  emit HOME "$home_dir"
  emit GTK_A11Y atspi
  emit NO_AT_BRIDGE 0
  emit QT_ACCESSIBILITY 1
  emit GSETTINGS_BACKEND memory
  emit LIBGL_ALWAYS_SOFTWARE 1
  emit AD_DESKTOP_DIR "$DIR"
  emit AD_DESKTOP_KIND "$kind"
} >"$DIR/env.tmp"
mv "$DIR/env.tmp" "$DIR/env"
desktop_done
cat "$DIR/env"
