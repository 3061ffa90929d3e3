# shellcheck shell=bash disable=SC2154  # root, FIXTURE, AD and the rest are the caller's
# bench-lib.sh: helpers the bench scripts share; sourced, never run.
#   bench_fixture_begin TAG
#                    a private headless desktop (scripts/desktop-env.sh; AD_DESKTOP_PRIVATE=1
#                    unless the caller exports 0), a work dir $work with a private
#                    AGENT_DESKTOP_HOME, ad-fixture ($FIXTURE) running with its state line
#                    in $AD_FIXTURE_STATE_FILE (pid in $app_pid), and an EXIT trap that stops
#                    the app and the desktop and removes $work. Needs $root, $FIXTURE,
#                    $APP_START_TIMEOUT_S and die.
#   bench_require_fixture
#                    dies (the caller's die) unless jq, $AD and $FIXTURE are there and
#                    $RUNS is a positive integer
#   find_ref ID      the qualified ref of the fixture's element with accessible id ID ($AD)
#   stop_app PID     SIGTERM, then SIGKILL after 5 s; reaps it (it must be our child)
#   now_us           wall clock in microseconds (EPOCHREALTIME)
#   ms US            microseconds as milliseconds with one decimal
#   stats N...       "MIN MEDIAN" of the numbers (one decimal), or "n/a n/a" for none
#   timed OUT CMD... runs CMD with stdout in OUT (stderr appended to $work/stderr.log) and
#                    sets REPLY to its whole-process wall time in ms; returns CMD's status
#   ratio A B        A/B with two decimals, or n/a
#   bench_start_app APP
#                    starts gtk3-widget-factory, gnome-calculator, gtk4-demo or
#                    ad-bench-synthetic ($SYNTH 10000), log in $work/APP.log, pid in $app_pid,
#                    and waits for its window (ad_desktop_wait_app, $APP_START_TIMEOUT_S);
#                    returns 1 (the caller's note says why; the app stopped) when it is not
#                    installed or shows no window. Needs die, note, $work, $SYNTH.
#   ours_nodes OUT   the node count of a snapshot envelope (nodes with a role in data.tree),
#                    " partial" appended when data.complete is false
#   bench_start_synthetic N
#                    starts $SYNTH (ad-bench-synthetic) with N nodes, its log in $work/app.log,
#                    its pid in $app_pid (tracked by the desktop), and waits up to
#                    $APP_START_TIMEOUT_S for its window (the caller's die otherwise)
#   bench_binaries_begin SCRIPT ARGS...
#                    for a side-by-side script: its BASELINE_BIN [CANDIDATE_BIN] arguments
#                    into $base and $cand (candidate default: $root/build/agent-desktop), the
#                    working directory $root and a private headless desktop
#                    (scripts/desktop-env.sh, whose EXIT trap stops it). Needs $root.

# shellcheck disable=SC2317  # also runs from the callers' EXIT traps
stop_app() {
  local pid=$1 i stat
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < 100; i++)); do
    stat=""
    { read -r stat <"/proc/$pid/stat"; } 2>/dev/null || break
    stat=${stat##*) }
    [[ ${stat:0:1} == Z ]] && break
    sleep 0.05
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

now_us() { echo "${EPOCHREALTIME//[.,]/}"; }
ms() { awk -v d="$1" 'BEGIN { printf "%.1f", d / 1000 }'; }

stats() {
  if (($# == 0)); then echo "n/a n/a"; return; fi
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%.1f %.1f\n", v[1], m }'
}

timed() {
  local out=$1; shift
  local t0 t1 rc=0
  t0=$(now_us)
  "$@" >"$out" 2>>"$work/stderr.log" || rc=$?
  t1=$(now_us)
  REPLY=$(ms $((t1 - t0)))
  return $rc
}

ratio() {
  if [[ "$1" == n/a || "$2" == n/a ]]; then echo n/a; return; fi
  awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'
}

bench_start_app() {
  local app=$1 cmd
  case "$app" in
    gtk3-widget-factory | gnome-calculator | gtk4-demo) cmd=("$app") ;;
    ad-bench-synthetic) cmd=("$SYNTH" 10000) ;;
    *) die "unknown app $app" ;;
  esac
  app_pid=""
  if ! command -v "${cmd[0]}" >/dev/null; then
    note "$app: ${cmd[0]} not found, skipped"
    return 1
  fi
  "${cmd[@]}" >"$work/$app.log" 2>&1 &
  app_pid=$!
  ad_desktop_track "$app_pid"
  if ! ad_desktop_wait_app "$app" "$APP_START_TIMEOUT_S"; then
    note "$app: never showed a window on the AT-SPI bus; see $work/$app.log"
    stop_app "$app_pid"
    app_pid=""
    return 1
  fi
}

ours_nodes() {
  jq -r '(.data.tree | [.. | objects | select(has("role"))] | length | tostring)
         + (if .data.complete == false then " partial" else "" end)' "$1" 2>/dev/null || echo "?"
}

bench_start_synthetic() {
  "$SYNTH" "$1" >"$work/app.log" 2>&1 &
  app_pid=$!
  ad_desktop_track "$app_pid"
  ad_desktop_wait_app ad-bench-synthetic "$APP_START_TIMEOUT_S" || die "the $1-node app never showed"
}

bench_binaries_begin() {
  local script=$1
  shift
  [[ $# -ge 1 ]] || { echo "usage: $script BASELINE_BIN [CANDIDATE_BIN]" >&2; exit 2; }
  base=$(realpath "$1")
  cand=$(realpath "${2:-$root/build/agent-desktop}")
  cd "$root"
  export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
  # shellcheck source=/dev/null
  source "$root/scripts/desktop-env.sh"
}

# shellcheck disable=SC2317  # runs from the EXIT trap
bench_cleanup() {
  if [[ -n "${app_pid:-}" ]]; then stop_app "$app_pid"; fi
  ad_desktop_stop
  rm -rf -- "$work"
}

bench_fixture_begin() {
  export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
  # shellcheck source=/dev/null
  source "$root/scripts/desktop-env.sh"
  work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-$1.XXXXXX")
  export AGENT_DESKTOP_HOME=$work/home
  mkdir -m 0700 "$AGENT_DESKTOP_HOME"
  unset AGENT_DESKTOP_SESSION AGENT_DESKTOP_POLL_ONLY
  app_pid=""
  trap bench_cleanup EXIT
  export AD_FIXTURE_STATE_FILE=$work/fixture-state.json
  "$FIXTURE" >"$work/fixture.log" 2>&1 &
  app_pid=$!
  ad_desktop_track "$app_pid"
  ad_desktop_wait_app ad-fixture "$APP_START_TIMEOUT_S" || die "ad-fixture showed no window"
}

find_ref() {
  "$AD" find --app ad-fixture --native-id "$1" --exact --first | jq -er '.data.match.ref_id'
}

bench_require_fixture() {
  command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
  [[ -x "$AD" ]] || die "$AD not built (meson setup build && ninja -C build)"
  [[ -x "$FIXTURE" ]] || die "$FIXTURE not built (it needs the GTK3 development files)"
  [[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_RUNS must be a positive integer"
}
