#!/usr/bin/env bash
# fuzz.sh: builds the libFuzzer targets of tests/fuzz with clang (build-fuzz/, ASan + UBSan,
# core instrumented for coverage) and runs each one for a fixed time from its seed corpus.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]    (default: 20 s each, every target)
#
# Prints TAP: "ok N - TARGET: E execs in S s" or "not ok N - TARGET: ..." with the crash
# input's path. New corpus entries and crash inputs go to a temp dir (kept, and named, on a
# failure), never into tests/fuzz/corpus. A hang (an input over 10 s) is a failure too.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-20}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(fuzz_argv fuzz_ref fuzz_refmap fuzz_validate)

bash scripts/install-deps.sh || exit 1
if [[ ! -f build-fuzz/build.ninja ]]; then
  CC=clang meson setup build-fuzz -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args=-fsanitize=fuzzer-no-link >/dev/null || exit 1
fi
ninja -C build-fuzz "${targets[@]/#/tests/fuzz/}" >/dev/null || exit 1

work=$(mktemp -d "${TMPDIR:-/tmp}/ad-fuzz.XXXXXX")
echo "1..${#targets[@]}"
n=0 failed=0
for t in "${targets[@]}"; do
  n=$((n + 1))
  mkdir -p "$work/$t/corpus" "$work/$t/artifacts"
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
    "build-fuzz/tests/fuzz/$t" -max_total_time="$seconds" -timeout=10 -print_final_stats=1 \
    -artifact_prefix="$work/$t/artifacts/" "$work/$t/corpus" "tests/fuzz/corpus/$t" \
    >"$work/$t/log" 2>&1
  st=$?
  execs=$(grep -Eo 'number_of_executed_units: [0-9]+' "$work/$t/log" | grep -Eo '[0-9]+$')
  if [[ $st == 0 ]]; then
    echo "ok $n - $t: ${execs:-0} execs in $seconds s"
  else
    failed=1
    echo "not ok $n - $t: exit $st; log and inputs in $work/$t"
    grep -E 'ERROR|SUMMARY|fuzz:|runtime error' "$work/$t/log" | head -n 5 | sed 's/^/# /'
  fi
done
if [[ $failed == 0 ]]; then rm -rf "$work"; fi
exit $failed
