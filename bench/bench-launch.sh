#!/usr/bin/env bash
# bench-launch.sh: launch-to-registered time of gtk3-demo and gnome-calculator: `agent-desktop
# launch APP --no-attach` (returns once the process registered on the AT-SPI bus) against a
# baseline that starts the same binary itself and polls the pyatspi registry every 5 ms until
# an application with that pid appears, side by side.
#
#   bench/bench-launch.sh            (run from anywhere; builds nothing)
#
# On a private headless desktop from scripts/desktop-env.sh (AD_DESKTOP_PRIVATE=1 unless the
# caller exports 0). After one untimed warm-up of each mode and app, it runs AD_BENCH_RUNS
# times (default 7), interleaved and alternating which mode goes first. Each run must
# register (launch: ok and no data.registered false; baseline: the pid shows up), and the
# started process is stopped by pid (SIGTERM, then SIGKILL) and seen gone before the next run.
# Prints a Markdown table of min and median in ms. Exit status 1 when something failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-7}
AD=$BUILD/agent-desktop
TIMEOUT_MS=30000

die() { echo "bench-launch: $*" >&2; exit 1; }
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
[[ -x "$AD" ]] || die "$AD not built"
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_RUNS must be a positive integer"

export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-launch.XXXXXX")
export AGENT_DESKTOP_HOME=$work/home
mkdir -m 0700 "$AGENT_DESKTOP_HOME"
app_pid=""
# shellcheck disable=SC2317  # runs from the EXIT trap
cleanup() { [[ -z "$app_pid" ]] || stop_pid "$app_pid"; ad_desktop_stop; rm -rf -- "$work"; }
trap cleanup EXIT
failed=0

# SIGTERM, then SIGKILL; waits until /proc shows it gone (not our child: nothing to reap).
# shellcheck disable=SC2317
stop_pid() {
  local pid=$1 i sig stat
  for sig in TERM KILL; do
    kill "-$sig" "$pid" 2>/dev/null || return 0
    for ((i = 0; i < 200; i++)); do
      stat=""
      { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || return 0
      stat=${stat##*) }
      [[ ${stat:0:1} == Z ]] && return 0
      sleep 0.025
    done
  done
}

# The baseline: start argv, poll the registry for its pid; prints "PID ELAPSED_US".
cat >"$work/baseline.py" <<'PY'
import subprocess, sys, time
import pyatspi
def pids():
    d = pyatspi.Registry.getDesktop(0)
    out = set()
    for i in range(d.childCount):
        try:
            out.add(d.getChildAtIndex(i).get_process_id())
        except Exception:
            pass
    return out
start = time.monotonic()
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, start_new_session=True)
deadline = start + 30
while time.monotonic() < deadline and p.poll() is None and p.pid not in pids():
    time.sleep(0.005)
ok = p.poll() is None and p.pid in pids()
print(p.pid, int((time.monotonic() - start) * 1e6) if ok else -1)
PY

# One run of a mode; prints the elapsed microseconds, or fails.
run_launch() {
  local app=$1 t0 t1 out
  t0=$(now_us)
  out=$("$AD" launch "$app" --no-attach --timeout "$TIMEOUT_MS") || { echo "$out" >&2; return 1; }
  t1=$(now_us)
  app_pid=$(jq -er .data.pid <<<"$out")
  jq -e '.data.registered != false' <<<"$out" >/dev/null || return 1
  stop_pid "$app_pid"; app_pid=""
  echo $((t1 - t0))
}
run_baseline() {
  local app=$1 out
  out=$(/usr/bin/python3 "$work/baseline.py" "$(command -v "$app")" 2>/dev/null)
  app_pid=${out%% *}
  stop_pid "$app_pid"; app_pid=""
  [[ ${out##* } != -1 ]] || return 1
  echo "${out##* }"
}

echo "| app | agent-desktop launch min / median (ms) | baseline spawn+poll min / median (ms) |"
echo "|---|---|---|"
for app in gtk3-demo gnome-calculator; do
  command -v "$app" >/dev/null || { echo "| $app | not installed | |"; continue; }
  run_launch "$app" >/dev/null || failed=1
  run_baseline "$app" >/dev/null || failed=1
  a=() b=()
  for ((r = 0; r < RUNS; r++)); do
    if ((r % 2)); then
      b+=("$(run_baseline "$app")") || failed=1
      a+=("$(run_launch "$app")") || failed=1
    else
      a+=("$(run_launch "$app")") || failed=1
      b+=("$(run_baseline "$app")") || failed=1
    fi
  done
  us_a=() us_b=()
  for v in "${a[@]}"; do [[ -n "$v" ]] && us_a+=("$(ms "$v")"); done
  for v in "${b[@]}"; do [[ -n "$v" ]] && us_b+=("$(ms "$v")"); done
  read -r amin amed <<<"$(stats "${us_a[@]}")"
  read -r bmin bmed <<<"$(stats "${us_b[@]}")"
  echo "| $app | $amin / $amed | $bmin / $bmed |"
done
exit "$failed"
