#!/usr/bin/env bash
# bench-batch.sh: one `batch` of 20 entries against the same 20 commands as 20 separate
# processes, against ad-fixture, side by side.
#
#   bench/bench-batch.sh            (run from anywhere; builds nothing)
#
# On a private headless desktop from scripts/desktop-env.sh (AD_DESKTOP_PRIVATE=1 unless the
# caller exports 0), it starts build/tests/fixture-app/ad-fixture, finds the refs of its
# Increment button and its "Count value" entry, and builds 20 commands: 10 times
#   click INCREMENT_REF --timeout-ms 0
#   get COUNT_VALUE_REF --property value
# After one untimed warm-up of each mode, it runs AD_BENCH_RUNS times (default 7),
# interleaved and alternating which mode goes first: the 20 commands as one batch process,
# and as 20 processes one after another, timing the whole wall time of each. Every entry and
# every process must succeed, and the fixture's own state line (AD_FIXTURE_STATE_FILE) must
# end at the expected click count. Prints a Markdown table of min and median in ms, the
# ratio, and the overhead per call saved by the batch ((separate - batch) / 20). Every
# process it started is stopped by pid. Exit status 1 when something failed.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_RUNS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-7}
AD=$BUILD/agent-desktop
FIXTURE=$BUILD/tests/fixture-app/ad-fixture
APP_START_TIMEOUT_S=30
ENTRIES=20

die() { echo "bench-batch: $*" >&2; exit 1; }
note() { echo "bench-batch: $*" >&2; }
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_require_fixture
failed=0

# --- the app ------------------------------------------------------------------------------
bench_fixture_begin batch
INCREMENT_REF=$(find_ref inc_button) || die "no Increment button"
COUNT_VALUE_REF=$(find_ref count_value) || die "no Count value entry"
clicks=$(jq -r .count "$AD_FIXTURE_STATE_FILE" 2>/dev/null || echo 0)

# The same 20 commands, as argv lines and as batch entries.
separate_argv=() entries=()
for ((i = 0; i < ENTRIES / 2; i++)); do
  separate_argv+=("click $INCREMENT_REF --timeout-ms 0" "get $COUNT_VALUE_REF --property value")
  entries+=("{\"command\":\"click\",\"args\":{\"ref_id\":\"$INCREMENT_REF\",\"timeout_ms\":0}}"
            "{\"command\":\"get\",\"args\":{\"ref_id\":\"$COUNT_VALUE_REF\",\"property\":\"value\"}}")
done
BATCH_JSON="[$(IFS=,; echo "${entries[*]}")]"

# One run of a mode; sets RUN_MS. Returns 1 when a command failed.
run_separate() {
  local t0 t1 line out
  t0=$(now_us)
  for line in "${separate_argv[@]}"; do
    # shellcheck disable=SC2086  # each line is a fixed argv without spaces in its words
    out=$("$AD" $line 2>>"$work/stderr.log") || { note "failed: $line: $out"; return 1; }
  done
  t1=$(now_us)
  clicks=$((clicks + ENTRIES / 2))
  RUN_MS=$(ms $((t1 - t0)))
}
run_batch() {
  local t0 t1 out
  t0=$(now_us)
  out=$("$AD" batch "$BATCH_JSON" 2>>"$work/stderr.log") || { note "batch failed: $out"; return 1; }
  t1=$(now_us)
  clicks=$((clicks + ENTRIES / 2))
  [[ $(jq -r '[.data.results[] | select(.ok)] | length' <<<"$out") == "$ENTRIES" ]] || {
    note "a batch entry failed: $out"; return 1; }
  RUN_MS=$(ms $((t1 - t0)))
}

run_batch || failed=1 # warm-up, untimed
run_separate || failed=1
batch_ms=() separate_ms=()
for ((i = 1; i <= RUNS; i++)); do
  order=(batch separate)
  ((i % 2)) || order=(separate batch)
  for mode in "${order[@]}"; do
    if "run_$mode"; then
      if [[ $mode == batch ]]; then batch_ms+=("$RUN_MS"); else separate_ms+=("$RUN_MS"); fi
    else
      failed=1
    fi
  done
done
# The app's own record must show every click exactly once (the last get read it, but this
# is the fixture's own count).
for ((i = 0; i < 50; i++)); do
  [[ $(jq -r .count "$AD_FIXTURE_STATE_FILE") == "$clicks" ]] && break
  sleep 0.1
done
state_count=$(jq -r .count "$AD_FIXTURE_STATE_FILE")
if [[ "$state_count" != "$clicks" ]]; then
  note "the fixture counted $state_count clicks, expected $clicks"
  failed=1
fi

read -r b_min b_med <<<"$(stats "${batch_ms[@]}")"
read -r s_min s_med <<<"$(stats "${separate_ms[@]}")"
ratio=$(awk -v s="$s_med" -v b="$b_med" 'BEGIN { if (b > 0) printf "%.2f", s / b; else print "n/a" }')
per_call=$(awk -v s="$s_med" -v b="$b_med" -v n="$ENTRIES" 'BEGIN { printf "%.1f", (s - b) / n }')
per_call_min=$(awk -v s="$s_min" -v b="$b_min" -v n="$ENTRIES" 'BEGIN { printf "%.1f", (s - b) / n }')

echo
echo "ad-fixture, $ENTRIES commands (10 x click + get), $RUNS interleaved runs per mode (whole wall time, ms)"
echo
echo "| Mode | Min ms | Median ms | Per command (median) ms |"
echo "|---|---:|---:|---:|"
echo "| one batch process, $ENTRIES entries | $b_min | $b_med | $(awk -v b="$b_med" -v n="$ENTRIES" 'BEGIN { printf "%.1f", b / n }') |"
echo "| $ENTRIES separate processes | $s_min | $s_med | $(awk -v s="$s_med" -v n="$ENTRIES" 'BEGIN { printf "%.1f", s / n }') |"
echo
echo "separate / batch (median): ${ratio}x; process overhead per call saved by batch: $per_call ms median, $per_call_min ms min"
exit $failed
