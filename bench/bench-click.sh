#!/usr/bin/env bash
# bench-click.sh: how long the observe-act-verify pair `click` + `wait --element` takes
# against ad-fixture, with event wake-ups and without them.
#
#   bench/bench-click.sh            (run from anywhere; builds nothing)
#
# On a private headless desktop from scripts/desktop-env.sh (AD_DESKTOP_PRIVATE=1 unless the
# caller exports 0), it starts build/tests/fixture-app/ad-fixture, finds the refs of its
# Increment button and its "Count value" entry (which shows the click count as digits),
# does one untimed warm-up pair per mode, then AD_BENCH_RUNS times (default 20), interleaved
# and alternating which mode goes first:
#   click INCREMENT_REF
#   wait --element COUNT_VALUE_REF --predicate value --value N --timeout 10000
# once normally (the wait sleeps in AT-SPI event wake-ups) and once with
# AGENT_DESKTOP_POLL_ONLY=1 (a plain 100 ms poll), timing each whole process: the pair and
# the wait alone. Every wait must succeed (found: true) and the fixture's own state line
# (AD_FIXTURE_STATE_FILE) must end at the expected count.
# Then it measures the app's own update time, from Action.DoAction to the count label's text
# change, with build/tests/unit/event-probe when it is built (tests/unit/event_probe.c: the
# first AT-SPI signal, and the change read on an event-woken poll); without it those rows
# show n/a. Prints a Markdown table of min and median in ms. Every process it started is
# stopped by pid. Exit status 1 when something failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-20}
AD=$BUILD/agent-desktop
FIXTURE=$BUILD/tests/fixture-app/ad-fixture
PROBE=$BUILD/tests/unit/event-probe
APP_START_TIMEOUT_S=30

die() { echo "bench-click: $*" >&2; exit 1; }
note() { echo "bench-click: $*" >&2; }
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_require_fixture
failed=0

# --- the app ------------------------------------------------------------------------------
bench_fixture_begin click
INCREMENT_REF=$(find_ref inc_button) || die "no Increment button"
COUNT_VALUE_REF=$(find_ref count_value) || die "no Count value entry"
count=$("$AD" get "$COUNT_VALUE_REF" --property value | jq -er '.data.value') ||
  die "cannot read the Count value"

# One pair; MODE is events or poll. Sets PAIR_MS, WAIT_MS and ELAPSED_MS (the wait's own
# data.elapsed_ms: how long it polled inside the process).
pair() {
  local mode=$1 t0 t1 t2 out
  local -a env_mode=()
  [[ $mode == poll ]] && env_mode=(AGENT_DESKTOP_POLL_ONLY=1)
  count=$((count + 1))
  t0=$(now_us)
  out=$(env "${env_mode[@]}" "$AD" click "$INCREMENT_REF" 2>>"$work/stderr.log") || {
    note "click failed ($mode): $out"; return 1; }
  t1=$(now_us)
  out=$(env "${env_mode[@]}" "$AD" wait --element "$COUNT_VALUE_REF" --predicate value \
          --value "$count" --timeout 10000 2>>"$work/stderr.log") || {
    note "wait for $count failed ($mode): $out"; return 1; }
  t2=$(now_us)
  [[ $(jq -r .data.found <<<"$out") == true ]] || { note "wait did not find $count"; return 1; }
  ELAPSED_MS=$(jq -r .data.elapsed_ms <<<"$out")
  PAIR_MS=$(ms $((t2 - t0)))
  WAIT_MS=$(ms $((t2 - t1)))
}

pair events || failed=1 # warm-up, untimed
pair poll || failed=1
pair_events=() wait_events=() pair_poll=() wait_poll=() inner_events=() inner_poll=()
for ((i = 1; i <= RUNS; i++)); do
  order=(events poll)
  ((i % 2)) || order=(poll events)
  for mode in "${order[@]}"; do
    if pair "$mode"; then
      if [[ $mode == events ]]; then
        pair_events+=("$PAIR_MS"); wait_events+=("$WAIT_MS"); inner_events+=("$ELAPSED_MS")
      else
        pair_poll+=("$PAIR_MS"); wait_poll+=("$WAIT_MS"); inner_poll+=("$ELAPSED_MS")
      fi
    else
      failed=1
    fi
  done
done
# The app's own record must show every click exactly once.
sleep 0.3
state_count=$(jq -r .count "$AD_FIXTURE_STATE_FILE")
if [[ "$state_count" != "$count" ]]; then
  note "the fixture counted $state_count clicks, expected $count"
  failed=1
fi

# --- the app's own update time (event-probe) ----------------------------------------------
probe_wake=(n/a n/a) probe_event=(n/a n/a) probe_poll=(n/a n/a)
if [[ -x "$PROBE" ]]; then
  if "$PROBE" --app ad-fixture --button Increment --observe "count: " --runs "$RUNS" \
      >"$work/probe.txt" 2>>"$work/stderr.log"; then
    # Summary lines: "LABEL min X median Y max Z ..."
    read_probe() { awk -v l="$1" '$1 == l && $2 == "min" { printf "%.1f %.1f", $3, $5 }' "$work/probe.txt"; }
    read -r -a probe_wake <<<"$(read_probe wake)"
    read -r -a probe_event <<<"$(read_probe event)"
    read -r -a probe_poll <<<"$(read_probe poll)"
  else
    note "event-probe failed; see $work/probe.txt"
    failed=1
  fi
else
  note "$PROBE not built: the app update rows show n/a"
fi

read -r pe_min pe_med <<<"$(stats "${pair_events[@]}")"
read -r pp_min pp_med <<<"$(stats "${pair_poll[@]}")"
read -r we_min we_med <<<"$(stats "${wait_events[@]}")"
read -r wp_min wp_med <<<"$(stats "${wait_poll[@]}")"
read -r ie_min ie_med <<<"$(stats "${inner_events[@]}")"
read -r ip_min ip_med <<<"$(stats "${inner_poll[@]}")"

echo
echo "ad-fixture, $RUNS interleaved runs per mode (whole-process wall time, ms)"
echo
echo "| Measurement | Mode | Min ms | Median ms |"
echo "|---|---|---:|---:|"
echo "| click + wait --element (pair) | event wake-ups | $pe_min | $pe_med |"
echo "| click + wait --element (pair) | AGENT_DESKTOP_POLL_ONLY=1 | $pp_min | $pp_med |"
echo "| wait --element alone | event wake-ups | $we_min | $we_med |"
echo "| wait --element alone | AGENT_DESKTOP_POLL_ONLY=1 | $wp_min | $wp_med |"
echo "| wait's own data.elapsed_ms | event wake-ups | $ie_min | $ie_med |"
echo "| wait's own data.elapsed_ms | AGENT_DESKTOP_POLL_ONLY=1 | $ip_min | $ip_med |"
echo "| app update: DoAction -> first AT-SPI signal | event-probe wake | ${probe_wake[0]} | ${probe_wake[1]} |"
echo "| app update: DoAction -> text change read | event-probe, event-woken | ${probe_event[0]} | ${probe_event[1]} |"
echo "| app update: DoAction -> text change read | event-probe, 100 ms poll | ${probe_poll[0]} | ${probe_poll[1]} |"
exit $failed
