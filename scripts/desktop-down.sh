#!/usr/bin/env bash
# desktop-down.sh: stop a desktop started by desktop-up.sh.
#
#   scripts/desktop-down.sh DIR
#
# Kills exactly the processes listed in DIR/pids (the desktop's daemons plus any app pids a
# test appended, one "PID [STARTTIME [LABEL]]" per line), the processes they spawned
# (collected before anything is signalled, while the parent links still exist), and the
# services D-Bus activated on this desktop's session and accessibility buses (portals,
# gvfs, the AT-SPI registry), found by their DBUS_STARTER_ADDRESS. Apps nobody recorded
# are not signalled; GTK apps exit on their own when the X server goes. The caller and its
# ancestors are never touched. A line whose STARTTIME no longer matches /proc belongs to a
# reused pid and is skipped. Order: activated services, then the last recorded pid first,
# children before parents; SIGTERM, then SIGKILL for whatever is still alive after
# AD_DESKTOP_KILL_TIMEOUT_S (default 5 s). Finally removes the private runtime dir and any
# X lock file or socket a killed Xvfb left behind. Safe to run twice.
set -euo pipefail

[[ $# -eq 1 ]] || { echo "usage: desktop-down.sh DIR" >&2; exit 2; }
DIR=$1
[[ -d "$DIR" ]] || exit 0
KILL_TIMEOUT_S=${AD_DESKTOP_KILL_TIMEOUT_S:-5}

now_ms() { local t=${EPOCHREALTIME//[.,]/}; echo $((t / 1000)); }

# Prints "STATE PPID STARTTIME" of a pid, or fails when it is gone.
proc_info() {
  local stat
  { read -r stat <"/proc/$1/stat"; } 2>/dev/null || return 1
  stat=${stat##*) }
  local -a f
  read -r -a f <<<"$stat"
  echo "${f[0]} ${f[1]} ${f[19]}"
}

alive() {
  local info
  info=$(proc_info "$1") || return 1
  [[ ${info:0:1} != Z ]]
}

# Recorded pids, in file order, kept only while they are the process that was recorded.
recorded=()
if [[ -f "$DIR/pids" ]]; then
  while read -r pid st _; do
    [[ "$pid" =~ ^[0-9]+$ ]] || continue
    info=$(proc_info "$pid") || continue
    read -r _ _ now_st <<<"$info"
    if [[ -n "${st:-}" && "$st" =~ ^[0-9]+$ && "$st" != "$now_st" ]]; then
      continue
    fi
    recorded+=("$pid")
  done <"$DIR/pids"
fi

rt=""
if [[ -f "$DIR/runtime-dir" ]]; then
  rt=$(<"$DIR/runtime-dir")
  [[ "$rt" == */ad-xdg-runtime.* ]] || rt=""
fi
# Services our buses activated (portals, gvfs, the AT-SPI registry) double-fork and are
# reparented to init, so no parent link leads to them; dbus-daemon marks each with
# DBUS_STARTER_ADDRESS=<the bus that started it> in its environment. Matching on the bus
# address, not on XDG_RUNTIME_DIR, leaves alone every process a caller merely ran with
# this desktop's env file sourced (test runners, other desktop-down runs).
starters=()
for f in bus-address a11y-address system-bus-address; do
  if [[ -s "$DIR/$f" ]]; then starters+=(-e "DBUS_STARTER_ADDRESS=$(<"$DIR/$f")"); fi
done

declare -A children=() parent_of=() self_chain=() seen=()
members=() order=()

# Parent -> children map of the whole system; the caller's own chain is protected.
scan_processes() {
  local stat_path stat p ppid
  children=() parent_of=()
  for stat_path in /proc/[0-9]*/stat; do
    { read -r stat <"$stat_path"; } 2>/dev/null || continue
    p=${stat%% *}
    stat=${stat##*) }
    read -r _ ppid _ <<<"$stat"
    children[$ppid]+="$p "
    parent_of[$p]=$ppid
  done
  p=$$
  while [[ -n "$p" && "$p" != 0 && -z "${self_chain[$p]:-}" ]]; do
    self_chain[$p]=1
    p=${parent_of[$p]:-}
  done
}

# Sets members to the live processes our buses activated.
scan_members() {
  local env_path p
  members=()
  ((${#starters[@]} > 0)) || return 0
  while read -r env_path; do
    p=${env_path#/proc/}; p=${p%/environ}
    [[ -n "${self_chain[$p]:-}" || -z "${parent_of[$p]:-}" ]] || members+=("$p")
  done < <(grep -lzxF "${starters[@]}" /proc/[0-9]*/environ 2>/dev/null || true)
}

# Appends p's descendants, then p, to order (post-order, so children die first).
visit() {
  local p=$1 c
  [[ -n "${seen[$p]:-}" || -n "${self_chain[$p]:-}" ]] && return
  seen[$p]=1
  for c in ${children[$p]:-}; do visit "$c"; done
  order+=("$p")
}

# SIGTERM everything in order, wait (bounded) for it to go, SIGKILL the rest.
kill_order() {
  local p deadline
  local -a left
  for p in "${order[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  deadline=$(($(now_ms) + KILL_TIMEOUT_S * 1000))
  while :; do
    left=()
    for p in "${order[@]}"; do if alive "$p"; then left+=("$p"); fi; done
    ((${#left[@]} == 0)) && return 0
    if (($(now_ms) > deadline)); then
      echo "desktop-down: SIGKILL after ${KILL_TIMEOUT_S}s: ${left[*]}" >&2
      for p in "${left[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
      return 0
    fi
    sleep 0.05
  done
}

# Activated services first, then the last recorded pid first.
scan_processes
scan_members
for p in "${members[@]}"; do visit "$p"; done
for ((i = ${#recorded[@]} - 1; i >= 0; i--)); do visit "${recorded[$i]}"; done
kill_order
# A dying app can still get a service activated while the buses go down; one more pass.
scan_processes
scan_members
order=()
for p in "${members[@]}"; do visit "$p"; done
((${#order[@]} == 0)) || kill_order

# A SIGKILLed Xvfb leaves its lock file and socket behind; remove them only if the lock
# still names a pid that is gone.
if [[ -f "$DIR/display" ]]; then
  n=$(<"$DIR/display")
  if [[ "$n" =~ ^[0-9]+$ && -f /tmp/.X$n-lock ]]; then
    lock_pid=$(tr -dc 0-9 <"/tmp/.X$n-lock" || true)
    if [[ -n "$lock_pid" ]] && ! alive "$lock_pid" \
        && grep -qw "^$lock_pid" "$DIR/pids" 2>/dev/null; then
      rm -f "/tmp/.X$n-lock" "/tmp/.X11-unix/X$n"
    fi
  fi
fi

# xdg-document-portal mounts a FUSE file system on $rt/doc; its fusermount3 helper
# unmounts on exit, but a lazy unmount covers a portal that was SIGKILLed.
if [[ -n "$rt" && -d "$rt" ]]; then
  if grep -qF " $rt/" /proc/self/mounts 2>/dev/null; then
    while read -r _ mnt _; do
      [[ "$mnt" == "$rt"/* ]] || continue
      fusermount3 -u -z "$mnt" 2>/dev/null || umount -l "$mnt" 2>/dev/null || true
    done </proc/self/mounts
  fi
  # Retried briefly: a process that was just killed may still be unlinking its socket.
  for ((i = 0; i < 20; i++)); do
    rm -rf --one-file-system -- "$rt" 2>/dev/null && break
    sleep 0.05
  done
  [[ ! -e "$rt" ]] || echo "desktop-down: could not remove $rt" >&2
fi
rm -f "$DIR/pids" "$DIR/runtime-dir" "$DIR/bus-address" "$DIR/a11y-address" \
  "$DIR/system-bus-address"
exit 0
