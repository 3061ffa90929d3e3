# shellcheck shell=bash
# desktop-lib.sh: the steps desktop-up.sh (openbox) and gnome-desktop-up.sh (GNOME Shell)
# share, sourced by both. The sourcing script sets DIR (the desktop's directory),
# STEP_TIMEOUT_S, and a die() that exits; it calls desktop_begin first, which installs the
# EXIT trap that stops everything started so far unless desktop_done ran.
#
#   desktop_begin NAME          refuse a DIR that holds a running desktop; reset its files
#   record_pid PID LABEL        add a started process to DIR/pids (desktop-down.sh stops it)
#   wait_for WHAT PID CMD...    poll CMD every 50 ms: 0 ok, 2 PID died, 1 deadline passed
#   start_xvfb SCREEN           Xvfb on the first free display from :90; sets `display`
#   start_bus LABEL             a private bus (dbus-daemon --session); prints its address
#   start_atspi ENV...          the AT-SPI bus launcher with ENV; sets `a11y_address`
#   emit NAME VALUE             one quoted export line for the env file
#   desktop_done                the desktop is up: the EXIT trap no longer stops it

_desktop_lib_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
_desktop_ok=0
_desktop_name=desktop-up

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

# A zombie counts as dead: nobody may reap the daemons once the script has exited.
alive() {
  local stat
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}

_desktop_cleanup_on_failure() {
  if [[ $_desktop_ok -eq 0 ]]; then
    echo "$_desktop_name: failed; stopping what was started (logs in $DIR)" >&2
    "$_desktop_lib_dir/desktop-down.sh" "$DIR" >&2 || true
  fi
}

desktop_begin() { # NAME (for messages)
  _desktop_name=$1
  local pid st now_st
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
  rm -f "$DIR/env" "$DIR/display" "$DIR/runtime-dir" "$DIR/bus-address" "$DIR/a11y-address" \
    "$DIR/system-bus-address" "$DIR/kind"
  trap _desktop_cleanup_on_failure EXIT
}

desktop_done() { _desktop_ok=1; }

record_pid() { # PID LABEL
  local st
  st=$(starttime "$1") || die "$2 (pid $1) exited right after it started; see $DIR/$2.log"
  echo "$1 $st $2" >>"$DIR/pids"
}

wait_for() { # WHAT PID_TO_WATCH CMD...
  local what=$1 watch=$2; shift 2
  local deadline=$(($(now_ms) + STEP_TIMEOUT_S * 1000))
  while ! "$@" >/dev/null 2>&1; do
    if [[ -n "$watch" ]] && ! alive "$watch"; then return 2; fi
    if (($(now_ms) > deadline)); then
      echo "$_desktop_name: timed out after ${STEP_TIMEOUT_S}s waiting for $what" >&2
      return 1
    fi
    sleep 0.05
  done
}

# Ready when the display answers and its lock file names our Xvfb: with several desktops
# starting at once, another Xvfb may own :N and answer while ours is exiting.
_xvfb_ready() { # N PID
  local lock_pid
  lock_pid=$(tr -dc 0-9 <"/tmp/.X$1-lock" 2>/dev/null) || return 1
  [[ "$lock_pid" == "$2" ]] && DISPLAY=":$1" xdpyinfo >/dev/null 2>&1
}

start_xvfb() { # SCREEN (WxHxD) -> sets display, records the pid and DIR/display
  local n rc xvfb_pid=""
  display=""
  for ((n = 90; n < 190; n++)); do
    [[ -e /tmp/.X11-unix/X$n || -e /tmp/.X$n-lock ]] && continue
    Xvfb ":$n" -screen 0 "$1" -nolisten tcp -noreset </dev/null >"$DIR/xvfb.log" 2>&1 &
    xvfb_pid=$!
    rc=0
    wait_for "Xvfb :$n" "$xvfb_pid" _xvfb_ready "$n" "$xvfb_pid" || rc=$?
    if [[ $rc -eq 0 ]]; then display=":$n"; break; fi
    if [[ $rc -eq 1 ]]; then kill "$xvfb_pid" 2>/dev/null || true; exit 1; fi
    wait "$xvfb_pid" 2>/dev/null || true   # lost a race for :$n; try the next one
    xvfb_pid=""
  done
  [[ -n "$display" ]] || die "no free X display between :90 and :189"
  record_pid "$xvfb_pid" xvfb
  echo "${display#:}" >"$DIR/display"
}

# A private bus. --fork: the parent returns once the daemon listens; it prints the address,
# then the pid. The fds must be given: a bare --print-address swallows the next argument.
start_bus() { # LABEL ENV... -> prints the address
  local label=$1 out addr pid; shift
  out=$(env "$@" dbus-daemon --session --fork --print-address=1 --print-pid=1 \
    </dev/null 2>"$DIR/$label.log") || die "dbus-daemon ($label) failed; see $DIR/$label.log"
  addr=$(sed -n 1p <<<"$out")
  pid=$(sed -n 2p <<<"$out")
  [[ -n "$addr" && "$pid" =~ ^[0-9]+$ ]] || die "unexpected dbus-daemon output: $out"
  record_pid "$pid" "$label"
  echo "$addr"
}

# The AT-SPI bus launcher on the session bus named by DBUS_SESSION_BUS_ADDRESS in ENV, then
# its registry. --launch-immediately starts the accessibility bus now instead of on first
# GetAddress; --a11y=1 (at-spi2-core >= 2.34) overrides the org.gnome.desktop.interface
# toolkit-accessibility setting, which reads false from the memory GSettings backend.
start_atspi() { # BUS_ADDRESS ENV... -> sets a11y_address, writes DIR/a11y-address
  local bus_address=$1 launcher=${AD_ATSPI_BUS_LAUNCHER:-/usr/libexec/at-spi-bus-launcher}
  shift
  local -a launcher_args=(--launch-immediately)
  grep -qa -- '--a11y=' "$launcher" && launcher_args+=(--a11y=1)
  env "$@" "$launcher" "${launcher_args[@]}" </dev/null >"$DIR/atspi.log" 2>&1 &
  local launcher_pid=$!
  record_pid "$launcher_pid" at-spi-bus-launcher
  _session_send() {
    DBUS_SESSION_BUS_ADDRESS=$bus_address dbus-send --session --reply-timeout=2000 \
      --print-reply "$@"
  }
  # Wait for the launcher to own org.a11y.Bus before calling it: calling an unowned name
  # would make dbus-daemon activate a second launcher from org.a11y.Bus.service.
  _a11y_name_owned() {
    _session_send --dest=org.freedesktop.DBus / org.freedesktop.DBus.NameHasOwner \
      string:org.a11y.Bus | grep -q 'boolean true'
  }
  wait_for "org.a11y.Bus on the session bus" "$launcher_pid" _a11y_name_owned \
    || die "at-spi-bus-launcher did not register org.a11y.Bus; see $DIR/atspi.log"
  a11y_address=""
  _get_a11y_address() {
    a11y_address=$(_session_send --dest=org.a11y.Bus /org/a11y/bus org.a11y.Bus.GetAddress \
      | sed -n 's/^ *string "\(.*\)"$/\1/p')
    [[ -n "$a11y_address" ]]
  }
  wait_for "org.a11y.Bus.GetAddress" "$launcher_pid" _get_a11y_address \
    || die "GetAddress failed"
  _get_a11y_address
  echo "$a11y_address" >"$DIR/a11y-address"
  # The registry daemon is activated on the accessibility bus on first use; start it now so
  # the first client does not pay for it, and so a broken registry fails here, loudly.
  _registry_ready() {
    dbus-send --bus="$a11y_address" --reply-timeout=2000 --print-reply \
      --dest=org.a11y.atspi.Registry /org/a11y/atspi/accessible/root \
      org.freedesktop.DBus.Properties.Get string:org.a11y.atspi.Accessible string:ChildCount
  }
  wait_for "the AT-SPI registry" "$launcher_pid" _registry_ready \
    || die "org.a11y.atspi.Registry does not answer on $a11y_address"
}

emit() { # NAME VALUE: quote only when the value holds characters the shell would parse
  if [[ "$2" =~ ^[A-Za-z0-9_:/.,=+@%-]*$ ]]; then
    echo "export $1=$2"
  else
    echo "export $1='$2'"
  fi
}
