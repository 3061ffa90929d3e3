#!/usr/bin/env bash
# test.sh: every test. Installs what is missing, builds the normal and the ASan + UBSan
# builds, runs the unit tests in both, starts its own headless desktop, runs the end-to-end
# tests against real apps with both binaries (openbox; then tests/e2e/gnome on a headless
# GNOME Shell, Wayland and X11), stops everything it started, and prints
# "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh || exit 1
bash scripts/build.sh --asan || exit 1
# The ThreadSanitizer build of the C library's thread hammer: tests/e2e/test_ffi_core.py runs
# build-tsan/tests/unit/ffi-hammer beside the variant's own (a few seconds).
bash scripts/build.sh --tsan || exit 1

passed=0
failed=0
count() { # $1 = pytest log, $2 = its exit status
  local p f
  p=$(grep -Eo '[0-9]+ passed' "$1" | tail -n1 | grep -Eo '[0-9]+' || echo 0)
  f=$(grep -Eo '[0-9]+ (failed|error)' "$1" | awk '{s+=$1} END {print s+0}')
  # A stage that failed without a countable failure (a crash, "no tests ran") still fails.
  if [[ ${2:-0} != 0 && ${f:-0} == 0 ]]; then f=1; fi
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
}

count_tap() { # $1 = TAP output of a script, $2 = its exit status
  local p f
  p=$(grep -c '^ok ' "$1" || true)
  f=$(grep -c '^not ok ' "$1" || true)
  if [[ $2 != 0 && $f == 0 ]]; then f=1; fi
  passed=$((passed + p))
  failed=$((failed + f))
}

# The unit programs speak TAP: count their test cases ("ok N" / "not ok N" in meson's log),
# not the programs. A program that failed without a "not ok" line (a crash, a sanitizer
# report after the last case) still counts as one failure (meson's "Fail:" line).
count_unit() { # $1 = build dir, $2 = console log, $3 = exit status of meson test
  local tlog=$1/meson-logs/testlog.txt p f progs
  p=$(grep -c '^ok ' "$tlog" 2>/dev/null || true)
  f=$(grep -c '^not ok ' "$tlog" 2>/dev/null || true)
  progs=$(grep -Eo '^Fail: +[0-9]+' "$2" | grep -Eo '[0-9]+' || true)
  if [[ ${progs:-0} -gt ${f:-0} ]]; then f=$progs; fi
  if [[ $3 != 0 && ${f:-0} == 0 ]]; then f=1; fi
  echo "   $p test cases passed, $f failed ($1)"
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
}

log=$(mktemp -d "${TMPDIR:-/tmp}/ad-test.XXXXXX")
# The sanitizer runtimes a python host preloads to load the ASan build of the library.
asan_preload="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
echo "== unit tests"
meson test -C build --print-errorlogs >"$log/unit.txt" 2>&1
st=$?; tail -n 8 "$log/unit.txt"; count_unit build "$log/unit.txt" $st
echo "== unit tests (ASan + UBSan)"
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  meson test -C build-asan --print-errorlogs >"$log/unit-asan.txt" 2>&1
st=$?; tail -n 8 "$log/unit-asan.txt"; count_unit build-asan "$log/unit-asan.txt" $st

# A private desktop, always: tests must not depend on (or disturb) the user's session.
export AD_DESKTOP_PRIVATE=1
source scripts/desktop-env.sh || exit 1
for variant in build build-asan; do
  echo "== end-to-end tests ($variant)"
  # The 50,000-node window (marker scale) runs once, with the release build: under ASan its
  # three whole reads take many minutes.
  tier=()
  [[ $variant == build ]] || tier=(-m "not scale")
  AD_BIN=$PWD/$variant/agent-desktop AD_FIXTURE_BIN=$PWD/build/tests/fixture-app/ad-fixture \
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
    /usr/bin/python3 -m pytest tests/e2e "${tier[@]}" -q -p no:cacheprovider >"$log/e2e-$variant.txt" 2>&1
  st=$?
  tail -n 15 "$log/e2e-$variant.txt"
  count "$log/e2e-$variant.txt" $st
  # The MCP server through the official client SDKs (TAP, tests/mcp/run.sh).
  echo "== MCP client tests ($variant)"
  AD_BIN=$PWD/$variant/agent-desktop ASAN_OPTIONS=detect_leaks=1 \
    UBSAN_OPTIONS=halt_on_error=1 bash tests/mcp/run.sh >"$log/mcp-$variant.txt" 2>&1
  st=$?
  grep -E '^# (pass|fail)' "$log/mcp-$variant.txt"
  count_tap "$log/mcp-$variant.txt" $st
  # The C library from Python ctypes (TAP, tests/ffi-python/smoke.py). Python loads the
  # ASan library itself, so its runtime is preloaded; Python's own leaks are not ours.
  echo "== C library smoke test ($variant)"
  preload=""
  [[ $variant == build-asan ]] && preload=$asan_preload
  smoke_home=$(mktemp -d "${TMPDIR:-/tmp}/ad-smoke.XXXXXX")
  AGENT_DESKTOP_HOME=$smoke_home LD_PRELOAD=$preload \
    ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1 \
    /usr/bin/python3 tests/ffi-python/smoke.py "$variant/libagent_desktop_ffi.so" \
    include/agent_desktop.h >"$log/smoke-$variant.txt" 2>&1
  st=$?
  rm -rf "$smoke_home"
  grep -E '^(ok|not ok) ' "$log/smoke-$variant.txt"
  count_tap "$log/smoke-$variant.txt" $st
done
# The C library's element calls through ctypes, ASan build: its runtime is preloaded into
# python alone (the test file keeps LD_PRELOAD from the apps it starts). LSan also reports
# python's own exit leaks, so this fails on a sanitizer error or a leak whose stack holds
# the library, not on the exit status.
echo "== C library e2e (build-asan, runtime preloaded)"
LD_PRELOAD=$asan_preload \
  AD_BIN=$PWD/build-asan/agent-desktop AD_FIXTURE_BIN=$PWD/build/tests/fixture-app/ad-fixture \
  ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 UBSAN_OPTIONS=halt_on_error=1 \
  /usr/bin/python3 -m pytest tests/e2e/test_ffi_elements.py -q -p no:cacheprovider \
  >"$log/e2e-ffi-asan.txt" 2>&1
st=0
# No "N passed" line at all (a crash, a collection error, no tests ran) is a failure too.
grep -Eq '[0-9]+ passed' "$log/e2e-ffi-asan.txt" || st=1
if grep -q 'runtime error\|ERROR: AddressSanitizer' "$log/e2e-ffi-asan.txt" ||
   grep -A80 'leak of' "$log/e2e-ffi-asan.txt" |
     grep -qE 'libagent_desktop_ffi|/src/(ffi|core|linux|dispatch|commands|platform)/'; then
  st=1  # a symbolized frame names our source file, an unsymbolized one the library
fi
grep -E '[0-9]+ (passed|failed)' "$log/e2e-ffi-asan.txt" | tail -n1
count "$log/e2e-ffi-asan.txt" $st
ad_desktop_stop

# XTEST input checks (TAP): they start and stop their own headless desktop.
echo "== X11 input checks"
bash tests/e2e/x11_input_check.sh build >"$log/x11.txt" 2>&1
st=$?
tail -n 3 "$log/x11.txt"
count_tap "$log/x11.txt" $st

# GNOME Shell tests (tests/e2e/gnome/) on a headless GNOME Shell, on Wayland and on X11,
# each its own desktop (scripts/gnome-desktop-up.sh), stopped when the stage ends. The ASan
# build alone: the openbox stages above already run both binaries through the same code.
for kind in gnome-wayland gnome-x11; do
  echo "== GNOME end-to-end tests ($kind, build-asan)"
  AD_DESKTOP_KIND=$kind AD_BIN=$PWD/build-asan/agent-desktop \
    AD_FIXTURE_BIN=$PWD/build/tests/fixture-app/ad-fixture \
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
    bash -c 'source scripts/desktop-env.sh || exit 4
             /usr/bin/python3 -m pytest tests/e2e/gnome -q -p no:cacheprovider' \
    >"$log/e2e-$kind.txt" 2>&1
  st=$?
  tail -n 15 "$log/e2e-$kind.txt"
  count "$log/e2e-$kind.txt" $st
done

# GNOME Wayland once more in unsafe mode (AD_GNOME_UNSAFE_MODE=1), for the screen coordinates
# that only org.gnome.Shell.Eval gives (src/linux/shell_frames.h): the run above proves bounds
# are absent without it, this one that they are right with it.
echo "== GNOME end-to-end tests (gnome-wayland, unsafe mode, build-asan)"
AD_GNOME_UNSAFE_MODE=1 AD_DESKTOP_KIND=gnome-wayland AD_BIN=$PWD/build-asan/agent-desktop \
  AD_FIXTURE_BIN=$PWD/build/tests/fixture-app/ad-fixture \
  ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1 \
  bash -c 'source scripts/desktop-env.sh || exit 4
           /usr/bin/python3 -m pytest tests/e2e/gnome/test_wayland_coords.py -q \
             -p no:cacheprovider' >"$log/e2e-gnome-wayland-unsafe.txt" 2>&1
st=$?
tail -n 15 "$log/e2e-gnome-wayland-unsafe.txt"
count "$log/e2e-gnome-wayland-unsafe.txt" $st

# libFuzzer targets (TAP), a short fixed time each; scripts/fuzz.sh SECONDS runs them longer.
echo "== fuzzers"
bash scripts/fuzz.sh "${AD_FUZZ_SECONDS:-20}" >"$log/fuzz.txt" 2>&1
st=$?
cat "$log/fuzz.txt"
count_tap "$log/fuzz.txt" $st
rm -rf "$log"
echo
echo "$passed passed, $failed failed"
[[ $failed == 0 && $passed -gt 0 ]]
