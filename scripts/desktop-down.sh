#!/usr/bin/env bash
# desktop-down.sh: stop a desktop started by desktop-up.sh.
#
#   scripts/desktop-down.sh DIR
#
# Kills exactly the processes listed in DIR/pids (the desktop's daemons plus any app pids a
# test appended, one "PID [STARTTIME [LABEL]]" per line), the processes they spawned
# (collected before anything is signalled, while the parent links still exist), and the
# processes whose environment holds this desktop's private XDG_RUNTIME_DIR: apps a test did
# not record, and D-Bus activated services (portals, gvfs, the AT-SPI registry). The caller
# and its ancestors are never touched. A line whose STARTTIME no longer matches /proc
# belongs to a reused pid and is skipped. Order: unrecorded members, then the last recorded
# pid first, children before parents; SIGTERM, then SIGKILL for whatever is still alive
# after AD_DESKTOP_KILL_TIMEOUT_S (default 5 s). Finally removes the private runtime dir and
# any X lock file or socket a killed Xvfb left behind. Safe to run twice.
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

# Parent -> children map of the whole system, taken once. Also the processes that carry
# this desktop's private XDG_RUNTIME_DIR (a unique mktemp path) in their environment:
# services D-Bus activated for our apps (portals, gvfs, the AT-SPI registry) double-fork
# and are reparented to init, so no parent link leads to them.
# This script and its callers may carry that environment too; they are never members.
declare -A children=() parent_of=() self_chain=()
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
members=()
if [[ -n "$rt" ]]; then
  while read -r env_path; do
    p=${env_path#/proc/}; p=${p%/environ}
    [[ -n "${self_chain[$p]:-}" || -z "${parent_of[$p]:-}" ]] || members+=("$p")
  done < <(grep -lzxF "XDG_RUNTIME_DIR=$rt" /proc/[0-9]*/environ 2>/dev/null || true)
fi

# Kill order: post-order over each recorded pid's descendants, last recorded pid first.
order=()
declare -A seen=()
visit() {
  local p=$1 c
  [[ -n "${seen[$p]:-}" || -n "${self_chain[$p]:-}" ]] && return
  seen[$p]=1
  for c in ${children[$p]:-}; do visit "$c"; done
  order+=("$p")
}
for ((i = ${#recorded[@]} - 1; i >= 0; i--)); do visit "${recorded[$i]}"; done
# Unrecorded members go first: they are apps and services, the recorded daemons come last.
if ((${#members[@]} > 0)); then
  daemons=("${order[@]}")
  order=()
  for p in "${members[@]}"; do visit "$p"; done
  order+=("${daemons[@]}")
fi

for p in "${order[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
deadline=$(($(now_ms) + KILL_TIMEOUT_S * 1000))
while :; do
  left=()
  for p in "${order[@]}"; do alive "$p" && left+=("$p"); done
  ((${#left[@]} == 0)) && break
  if (($(now_ms) > deadline)); then
    echo "desktop-down: SIGKILL after ${KILL_TIMEOUT_S}s: ${left[*]}" >&2
    for p in "${left[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    break
  fi
  sleep 0.05
done

# A SIGKILLed Xvfb leaves its lock file and socket behind; remove them only if the lock
# still names a pid that is gone.
if [[ -f "$DIR/display" ]]; then
  n=$(<"$DIR/display")
  if [[ "$n" =~ ^[0-9]+$ && -f /tmp/.X$n-lock ]]; then
    lock_pid=$(tr -dc 0-9 </tmp/.X$n-lock || true)
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
  rm -rf --one-file-system -- "$rt"
fi
rm -f "$DIR/pids" "$DIR/runtime-dir"
exit 0
