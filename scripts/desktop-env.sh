# shellcheck shell=bash
# desktop-env.sh: give the sourcing script a desktop with a working AT-SPI bus.
#
#   source scripts/desktop-env.sh
#
# Reuses the current session when $DISPLAY answers (xdpyinfo), $DBUS_SESSION_BUS_ADDRESS is
# set and org.a11y.Bus answers GetAddress on it. Otherwise (or with AD_DESKTOP_PRIVATE=1)
# starts a private headless desktop with desktop-up.sh in a temp dir, exports its
# environment into the sourcing shell, and stops it from an EXIT trap (any EXIT trap set
# before sourcing still runs after it; a script that sets its own EXIT trap later must call
# ad_desktop_stop in it). AD_DESKTOP_KEEP_LOGS=1 keeps the temp dir with the daemons' logs.
# AD_DESKTOP_KIND picks the private desktop: openbox (default: Xvfb + openbox),
# gnome-wayland (headless GNOME Shell on Wayland) or gnome-x11 (GNOME Shell on Xvfb), both
# from gnome-desktop-up.sh; a GNOME kind always starts a private one.
#
# Defines:
#   ad_desktop_track PID           record an app pid so desktop-down.sh stops it too (a
#                                  no-op on a reused session: stop your apps yourself)
#   ad_desktop_wait_app NAME [S]   wait up to S seconds (default 30) until an application
#                                  named NAME shows a frame/window on the AT-SPI registry
#   ad_desktop_stop                stop the private desktop now (no-op for a reused one)
#
# Safe under set -euo pipefail; sets no shell options itself.

_ad_scripts_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
AD_DESKTOP_OWNED=${AD_DESKTOP_OWNED:-0}

_ad_session_usable() {
  # Never let dbus-send autolaunch a bus: without an address, accept only the systemd
  # user bus socket.
  if [[ -z "${DBUS_SESSION_BUS_ADDRESS:-}" && -S "${XDG_RUNTIME_DIR:-/nonexistent}/bus" ]]; then
    export DBUS_SESSION_BUS_ADDRESS="unix:path=$XDG_RUNTIME_DIR/bus"
  fi
  [[ -n "${DISPLAY:-}" && -n "${DBUS_SESSION_BUS_ADDRESS:-}" ]] || return 1
  xdpyinfo >/dev/null 2>&1 || return 1
  # Activation is fine here: on a real session org.a11y.Bus has no owner until first use.
  dbus-send --session --reply-timeout=5000 --print-reply --dest=org.a11y.Bus \
    /org/a11y/bus org.a11y.Bus.GetAddress 2>/dev/null | grep -q 'string "'
}

ad_desktop_track() {
  local pid=$1 st=""
  if [[ -n "${AD_DESKTOP_DIR:-}" && -f "$AD_DESKTOP_DIR/pids" ]]; then
    if [[ -r /proc/$pid/stat ]]; then
      st=$(sed 's/.*) //' "/proc/$pid/stat" | cut -d' ' -f20)
    fi
    echo "$pid $st app" >>"$AD_DESKTOP_DIR/pids"
  fi
}

ad_desktop_wait_app() {
  /usr/bin/python3 - "$1" "${2:-30}" <<'PY'
import sys, time
import pyatspi
name, timeout = sys.argv[1], float(sys.argv[2])
deadline = time.monotonic() + timeout
while True:
    desktop = pyatspi.Registry.getDesktop(0)
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is None or app.name != name:
            continue
        for j in range(app.childCount):
            win = app.getChildAtIndex(j)
            if win is not None and win.getRole() in (pyatspi.ROLE_FRAME, pyatspi.ROLE_WINDOW,
                                                     pyatspi.ROLE_DIALOG):
                sys.exit(0)
    if time.monotonic() > deadline:
        sys.stderr.write("desktop-env: %s did not show a window on the AT-SPI bus within %gs\n"
                         % (name, timeout))
        sys.exit(1)
    time.sleep(0.1)
PY
}

ad_desktop_stop() {
  if [[ "$AD_DESKTOP_OWNED" == 1 && -n "${_ad_desktop_tmp:-}" ]]; then
    "$_ad_scripts_dir/desktop-down.sh" "$_ad_desktop_tmp" || true
    if [[ "${AD_DESKTOP_KEEP_LOGS:-0}" == 1 ]]; then
      echo "desktop-env: logs kept in $_ad_desktop_tmp" >&2
    else
      rm -rf -- "$_ad_desktop_tmp"
    fi
    _ad_desktop_tmp=""
    AD_DESKTOP_OWNED=0
  fi
}

if [[ "${AD_DESKTOP_PRIVATE:-0}" != 1 && "${AD_DESKTOP_KIND:-openbox}" == openbox ]] \
    && _ad_session_usable; then
  : # reuse the caller's session
else
  _ad_desktop_tmp=$(mktemp -d "${TMPDIR:-/tmp}/ad-desktop.XXXXXX")
  case "${AD_DESKTOP_KIND:-openbox}" in
    openbox) _ad_up=("$_ad_scripts_dir/desktop-up.sh") ;;
    gnome-wayland) _ad_up=("$_ad_scripts_dir/gnome-desktop-up.sh") ;;
    gnome-x11) _ad_up=("$_ad_scripts_dir/gnome-desktop-up.sh" --x11) ;;
    *) echo "desktop-env: AD_DESKTOP_KIND must be openbox, gnome-wayland or gnome-x11" >&2
       # shellcheck disable=SC2317
       return 1 2>/dev/null || exit 1 ;;
  esac
  # A headless gnome-shell under load sometimes never finishes its startup animation and
  # stops answering D-Bus (NoReply; 1 start in ~5 with two busy loops beside it, none
  # unloaded): a GNOME kind gets a second start, on a new dir, after the first one's logs
  # are shown. The failed start stopped everything it had started (desktop-lib.sh's trap).
  # AD_DESKTOP_UP_CMD (tests only: tests/e2e/test_desktop_env.py) replaces the start script.
  [[ -z "${AD_DESKTOP_UP_CMD:-}" ]] || read -r -a _ad_up <<<"$AD_DESKTOP_UP_CMD"
  _ad_attempts=1
  [[ "${AD_DESKTOP_KIND:-openbox}" == openbox ]] || _ad_attempts=${AD_DESKTOP_START_ATTEMPTS:-2}
  _ad_up_ok=0
  for ((_ad_try = 1; _ad_try <= _ad_attempts; _ad_try++)); do
    if "${_ad_up[@]}" "$_ad_desktop_tmp" >/dev/null; then
      _ad_up_ok=1
      break
    fi
    # The daemons' logs go with the temp dir: show the ends of them first.
    for _ad_log in "$_ad_desktop_tmp"/*.log; do
      [[ -s "$_ad_log" ]] || continue
      echo "desktop-env: last lines of ${_ad_log##*/}:" >&2
      tail -n 5 -- "$_ad_log" >&2
    done
    rm -rf -- "$_ad_desktop_tmp"
    if ((_ad_try < _ad_attempts)); then
      echo "desktop-env: the desktop did not start (attempt $_ad_try of $_ad_attempts);" \
        "starting it again" >&2
      _ad_desktop_tmp=$(mktemp -d "${TMPDIR:-/tmp}/ad-desktop.XXXXXX")
    fi
  done
  if [[ $_ad_up_ok != 1 ]]; then
    echo "desktop-env: could not start a headless desktop" >&2
    # shellcheck disable=SC2317  # exit is reached when the file is run, not sourced
    return 1 2>/dev/null || exit 1
  fi
  # shellcheck disable=SC1091
  source "$_ad_desktop_tmp/env"
  unset AT_SPI_BUS_ADDRESS
  [[ "${AD_DESKTOP_KIND:-openbox}" == gnome-wayland ]] || unset WAYLAND_DISPLAY
  AD_DESKTOP_OWNED=1
  _ad_prev_exit_trap=$(trap -p EXIT)
  _ad_prev_exit_trap=${_ad_prev_exit_trap#"trap -- "}
  _ad_prev_exit_trap=${_ad_prev_exit_trap%" EXIT"}
  if [[ -n "$_ad_prev_exit_trap" ]]; then
    eval "_ad_prev_exit_trap=$_ad_prev_exit_trap"
  fi
  # shellcheck disable=SC2064
  trap "ad_desktop_stop; ${_ad_prev_exit_trap:-:}" EXIT
  # Turn INT/TERM into a normal exit so the EXIT trap runs, unless the caller handles them.
  [[ -n "$(trap -p INT)" ]] || trap 'exit 130' INT
  [[ -n "$(trap -p TERM)" ]] || trap 'exit 143' TERM
fi
