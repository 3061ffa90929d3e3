#!/usr/bin/env bash
# bench-long-run.sh: does an app get slower the longer agent-desktop works on it?
#
#   bench/bench-long-run.sh            (run from anywhere; builds nothing)
#
# For each app (ad-fixture, gtk3-widget-factory), fresh, on a private headless desktop from
# scripts/desktop-env.sh (AD_DESKTOP_PRIVATE=1 unless the caller exports 0), it runs
# AD_BENCH_COMMANDS (default 1000) consecutive commands, a repeating mix of
#   snapshot --app NAME -i,  find --app NAME --role ROLE --name TEXT --first,  click REF
# (REF: the ref the find before it returned, of a harmless button: the fixture's Increment,
# the widget factory's "Page 1" switcher, already on page 1), and every AD_BENCH_STEP commands (default 100, and at 0) samples
# AD_BENCH_SAMPLES (default 3) extra snapshots --max-depth 50: for each, the app's own CPU
# (the sum of the first field of /proc/PID/task/*/schedstat, time on CPU, before and after)
# and agent-desktop's wall time. It also counts the app's open unix sockets (/proc/PID/fd)
# there. Prints one Markdown table per app: commands done, app CPU per walk (min / median
# ms), wall time per snapshot (min / median ms), the app's sockets. Every app it started is
# stopped by pid. Exit status 1 when a command failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_APPS
# (a subset of "ad-fixture gtk3-widget-factory"), AD_BENCH_COMMANDS, AD_BENCH_STEP,
# AD_BENCH_SAMPLES.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
AD=$BUILD/agent-desktop
FIXTURE=$BUILD/tests/fixture-app/ad-fixture
APPS=${AD_BENCH_APPS:-ad-fixture gtk3-widget-factory}
COMMANDS=${AD_BENCH_COMMANDS:-1000}
STEP=${AD_BENCH_STEP:-100}
SAMPLES=${AD_BENCH_SAMPLES:-3}
APP_START_TIMEOUT_S=60

die() { echo "bench-long-run: $*" >&2; exit 1; }
note() { echo "bench-long-run: $*" >&2; }
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
[[ -x "$AD" ]] || die "$AD not built (meson setup build && ninja -C build)"
for n in "$COMMANDS" "$STEP" "$SAMPLES"; do
  [[ "$n" =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_COMMANDS, _STEP and _SAMPLES must be positive"
done

export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-long.XXXXXX")
export AGENT_DESKTOP_HOME=$work/home
mkdir -m 0700 "$AGENT_DESKTOP_HOME"
unset AGENT_DESKTOP_SESSION AGENT_DESKTOP_POLL_ONLY
export AD_FIXTURE_STATE_FILE=$work/fixture-state.json
app_pid=""
failed=0
trap bench_cleanup EXIT

# The app's time on CPU so far, in ns: every thread's schedstat (time on CPU, wait, slices).
app_cpu_ns() {
  local f total=0 on
  for f in /proc/"$app_pid"/task/*/schedstat; do
    { read -r on _ <"$f"; } 2>/dev/null || continue
    total=$((total + on))
  done
  echo "$total"
}

# The app's open unix sockets (its end of every connection it still holds).
app_sockets() {
  local n=0 fd target
  for fd in /proc/"$app_pid"/fd/*; do
    target=$(readlink "$fd" 2>/dev/null) || continue
    [[ $target == socket:* ]] && n=$((n + 1))
  done
  echo "$n"
}

# One command of the mix (I counts from 0); its output is checked, never timed.
mixed_command() {
  local i=$1 out
  case $((i % 3)) in
    0) out=$("$AD" snapshot --app "$app" -i 2>>"$work/stderr.log") &&
         jq -e '.ok' <<<"$out" >/dev/null ;;
    # The click takes the ref this find returned: an older snapshot may be gone by now.
    1) out=$("$AD" find --app "$app" --role "$find_role" --name "$find_name" --exact --first \
               2>>"$work/stderr.log") && click_ref=$(jq -er '.data.match.ref_id' <<<"$out") ;;
    2) out=$("$AD" click "$click_ref" 2>>"$work/stderr.log") &&
         jq -e '.ok' <<<"$out" >/dev/null ;;
  esac || { note "$app: command $i failed: ${out:0:300}"; failed=1; }
}

# Samples the app's CPU and our wall time around SAMPLES snapshots; prints one table row.
sample_row() {
  local done_n=$1 k c0 c1 t0 t1 out
  local -a cpu=() wall=()
  for ((k = 0; k < SAMPLES; k++)); do
    c0=$(app_cpu_ns)
    t0=$(now_us)
    out=$("$AD" snapshot --app "$app" --max-depth 50 2>>"$work/stderr.log") || {
      note "$app: sample snapshot failed: ${out:0:300}"; failed=1; }
    t1=$(now_us)
    # The app may still be answering the last replies' aftermath (event emission): give
    # its main loop a moment to finish, so the delta holds the whole walk.
    sleep 0.2
    c1=$(app_cpu_ns)
    cpu+=("$(awk -v d=$((c1 - c0)) 'BEGIN { printf "%.1f", d / 1e6 }')")
    wall+=("$(ms $((t1 - t0)))")
  done
  read -r cmin cmed < <(stats "${cpu[@]}")
  read -r wmin wmed < <(stats "${wall[@]}")
  echo "| $done_n | $cmin / $cmed | $wmin / $wmed | $(app_sockets) |"
}

for app in $APPS; do
  case $app in
    ad-fixture)
      [[ -x "$FIXTURE" ]] || { note "$FIXTURE not built: skipped"; continue; }
      "$FIXTURE" >"$work/app.log" 2>&1 &
      find_role=button find_name=Increment ;;
    gtk3-widget-factory)
      command -v gtk3-widget-factory >/dev/null || { note "$app not installed: skipped"; continue; }
      gtk3-widget-factory >"$work/app.log" 2>&1 &
      find_role=radiobutton find_name="Page 1" ;;
    *) die "unknown app $app" ;;
  esac
  app_pid=$!
  ad_desktop_track "$app_pid"
  ad_desktop_wait_app "$app" "$APP_START_TIMEOUT_S" || die "$app showed no window"
  "$AD" snapshot --app "$app" --max-depth 50 >/dev/null 2>&1 || true # GTK builds lazily
  "$AD" find --app "$app" --role "$find_role" --name "$find_name" --exact --first |
    jq -er '.data.match.ref_id' >/dev/null || die "$app: no $find_role named $find_name"
  echo
  echo "### $app ($COMMANDS commands, $SAMPLES sampled walks per row)"
  echo
  echo "| commands | app CPU per walk ms (min / median) | snapshot wall ms (min / median) | app sockets |"
  echo "|---|---|---|---|"
  sample_row 0
  for ((i = 0; i < COMMANDS; i++)); do
    mixed_command "$i"
    if (((i + 1) % STEP == 0)); then sample_row $((i + 1)); fi
  done
  stop_app "$app_pid"
  app_pid=""
done
exit "$failed"
