#!/usr/bin/env bash
# build.sh: configure (once) and build agent-desktop into build/ (and, with --asan, the
# AddressSanitizer + UndefinedBehaviorSanitizer build into build-asan/; with --tsan, the
# ThreadSanitizer build of the C library and its thread hammer into build-tsan/).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ! -f build/build.ninja ]]; then
  meson setup build >/dev/null
fi
ninja -C build >/dev/null
if [[ "${1:-}" == "--asan" ]]; then
  if [[ ! -f build-asan/build.ninja ]]; then
    meson setup build-asan -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
  fi
  ninja -C build-asan >/dev/null
fi
# --tsan: the ThreadSanitizer build into build-tsan/, for the C library's thread tests
# (tests/e2e/test_ffi_core.py runs build-tsan/tests/unit/ffi-hammer when it exists).
if [[ "${1:-}" == "--tsan" ]]; then
  if [[ ! -f build-tsan/build.ninja ]]; then
    meson setup build-tsan -Db_sanitize=thread -Db_lundef=false >/dev/null
  fi
  ninja -C build-tsan tests/unit/ffi-hammer >/dev/null
fi
