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

[[ $# -eq 1 ]] || die "usage: desktop-up.sh DIR"
mkdir -p "$1"
DIR=$(cd "$1" && pwd)
STEP_TIMEOUT_S=${AD_DESKTOP_TIMEOUT_S:-30}
LAUNCHER=${AD_ATSPI_BUS_LAUNCHER:-/usr/libexec/at-spi-bus-launcher}
[[ -x "$LAUNCHER" ]] || die "$LAUNCHER not found (install at-spi2-core)"
for tool in Xvfb dbus-daemon dbus-send openbox xdpyinfo xprop; do
  command -v "$tool" >/dev/null || die "$tool not found (run scripts/install-deps.sh)"
done

now_ms() { local t=${EPOCHREALTIME//[.,]/}; echo $((t / 1000)); }

# Field 22 of /proc/PID/stat (start time in clock ticks) tells a pid from its reuse.
starttime() {
  local stat
  local -a f
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  read -r -a f <<<"$stat"
  echo "${f[19]}"
}

if [[ -s "$DIR/pids" ]]; then
  while read -r pid st _; do
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    now_st=$(starttime "$pid") || continue
    if [[ -z "${st:-}" || "$st" == "$now_st" ]]; then
      die "$DIR already holds a running desktop (pid $pid); run desktop-down.sh first"
    fi
  done <"$DIR/pids"
fi
: >"$DIR/pids"
rm -f "$DIR/env" "$DIR/display" "$DIR/runtime-dir" "$DIR/bus-address" "$DIR/a11y-address"

ok=0
cleanup_on_failure() {
  if [[ $ok -eq 0 ]]; then
    echo "desktop-up: failed; stopping what was started (logs in $DIR)" >&2
    "$here/desktop-down.sh" "$DIR" >&2 || true
  fi
}
trap cleanup_on_failure EXIT

record_pid() { # PID LABEL
  local st
  st=$(starttime "$1") || die "$2 (pid $1) exited right after it started; see $DIR/$2.log"
  echo "$1 $st $2" >>"$DIR/pids"
}

# A zombie counts as dead: nobody may reap the daemons once this script has exited.
alive() {
  local stat
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

# wait_for DESCRIPTION PID_TO_WATCH CMD...: poll CMD every 50 ms until it succeeds, the
# watched process dies (status 2) or the step deadline passes (status 1).
wait_for() {
  local what=$1 watch=$2; shift 2
  local deadline=$(($(now_ms) + STEP_TIMEOUT_S * 1000))
  while ! "$@" >/dev/null 2>&1; do
    if [[ -n "$watch" ]] && ! alive "$watch"; then return 2; fi
    if (($(now_ms) > deadline)); then
      echo "desktop-up: timed out after ${STEP_TIMEOUT_S}s waiting for $what" >&2
      return 1
    fi
    sleep 0.05
  done
}

# Ready when the display answers and its lock file names our Xvfb: with several desktops
# starting at once, another Xvfb may own :N and answer while ours is exiting.
xvfb_ready() { # N PID
  local lock_pid
  lock_pid=$(tr -dc 0-9 <"/tmp/.X$1-lock" 2>/dev/null) || return 1
  [[ "$lock_pid" == "$2" ]] && DISPLAY=":$1" xdpyinfo >/dev/null 2>&1
}

# --- 1. Xvfb on a free display ------------------------------------------------------------
xvfb_pid="" display=""
for ((n = 90; n < 190; n++)); do
  [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
  Xvfb ":$n" -screen 0 "${AD_DESKTOP_SCREEN:-1280x1024x24}" -nolisten tcp -noreset </dev/null >"$DIR/xvfb.log" 2>&1 &
  xvfb_pid=$!
  rc=0
  wait_for "Xvfb :$n" "$xvfb_pid" xvfb_ready "$n" "$xvfb_pid" || rc=$?
  if [[ $rc -eq 0 ]]; then display=":$n"; break; fi
  if [[ $rc -eq 1 ]]; then kill "$xvfb_pid" 2>/dev/null || true; exit 1; fi
  wait "$xvfb_pid" 2>/dev/null || true   # lost a race for :$n; try the next one
  xvfb_pid=""
done
[[ -n "$display" ]] || die "no free X display between :90 and :189"
record_pid "$xvfb_pid" xvfb
echo "${display#:}" >"$DIR/display"

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
# --fork: the parent returns once the daemon listens; it prints the address, then the pid.
# The fds must be given: a bare --print-address swallows the next argument as its fd.
bus_out=$(env "${base_env[@]}" dbus-daemon --session --fork --print-address=1 --print-pid=1 \
  </dev/null 2>"$DIR/dbus.log") || die "dbus-daemon failed; see $DIR/dbus.log"
bus_address=$(sed -n 1p <<<"$bus_out")
bus_pid=$(sed -n 2p <<<"$bus_out")
[[ -n "$bus_address" && "$bus_pid" =~ ^[0-9]+$ ]] || die "unexpected dbus-daemon output: $bus_out"
record_pid "$bus_pid" dbus
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
# --launch-immediately starts the accessibility bus now instead of on first GetAddress.
# --a11y=1 (at-spi2-core >= 2.34) overrides the org.gnome.desktop.interface
# toolkit-accessibility setting, which reads false from the memory GSettings backend.
launcher_args=(--launch-immediately)
grep -qa -- '--a11y=' "$LAUNCHER" && launcher_args+=(--a11y=1)
env "${base_env[@]}" "$LAUNCHER" "${launcher_args[@]}" </dev/null >"$DIR/atspi.log" 2>&1 &
launcher_pid=$!
record_pid "$launcher_pid" at-spi-bus-launcher

session_send() {
  DBUS_SESSION_BUS_ADDRESS=$bus_address dbus-send --session --reply-timeout=2000 --print-reply "$@"
}
# Wait for the launcher to own org.a11y.Bus before calling it: calling an unowned name
# would make dbus-daemon activate a second launcher from org.a11y.Bus.service.
a11y_name_owned() {
  session_send --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
    string:org.a11y.Bus | grep -q 'boolean true'
}
wait_for "org.a11y.Bus on the session bus" "$launcher_pid" a11y_name_owned \
  || die "at-spi-bus-launcher did not register org.a11y.Bus; see $DIR/atspi.log"
a11y_address=""
get_a11y_address() {
  a11y_address=$(session_send --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress \
    | sed -n 's/^ *string "\(.*\)"$/\1/p')
  [[ -n "$a11y_address" ]]
}
wait_for "org.a11y.Bus.GetAddress" "$launcher_pid" get_a11y_address || die "GetAddress failed"
get_a11y_address
echo "$a11y_address" >"$DIR/a11y-address"
# The registry daemon is activated on the accessibility bus on first use; start it now so
# the first client does not pay for it, and so a broken registry fails here, loudly.
registry_ready() {
  dbus-send --bus="$a11y_address" --reply-timeout=2000 --print-reply \
    --dest=org.a11y.atspi.Registry /org/a11y/atspi/accessible/root \
    org.freedesktop.DBus.Properties.Get string:org.a11y.atspi.Accessible string:ChildCount
}
wait_for "the AT-SPI registry" "$launcher_pid" registry_ready \
  || die "org.a11y.atspi.Registry does not answer on $a11y_address"

# --- env file -----------------------------------------------------------------------------
emit() { # NAME VALUE: quote only when the value holds characters the shell would parse
  if [[ "$2" =~ ^[A-Za-z0-9_:/.,=+@%-]*$ ]]; then
    echo "export $1=$2"
  else
    echo "export $1='$2'"
  fi
}
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
ok=1
cat "$DIR/env"
