#!/usr/bin/env bash
# build.sh: configure (once) and build agent-desktop into build/ (and, with --asan, the
# AddressSanitizer + UndefinedBehaviorSanitizer build into build-asan/).
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
