#!/usr/bin/env bash
# check_lazy_needed.sh EXECUTABLE SYMBOLS: fails when the executable records as NEEDED a
# library it should bind lazily (src/cli/lazy_libs.h), naming the calls that brought it back,
# so a call missing from SYMBOLS (src/cli/lazy_symbols.txt) fails `meson test` at once
# instead of only the e2e check of what `version` maps.
set -euo pipefail
exe=$1 symbols=$2
mapfile -t lazy < <(awk '!/^#/ && NF == 2 { print $1 }' "$symbols" | sort -u)
bad=0
for so in "${lazy[@]}"; do
  if readelf -d "$exe" | grep "NEEDED.*\[$so\]" >/dev/null; then
    echo "$exe: $so is NEEDED; add these calls to $symbols:" >&2
    path=$(ldconfig -p | awk -v so="$so" '$1 == so && !p { print $NF; p = 1 }')
    # The executable's undefined calls that this library defines and SYMBOLS lacks.
    comm -12 <(nm -D --undefined-only "$exe" | awk '{ sub(/@.*/, "", $2); print $2 }' | sort -u) \
      <(nm -D --defined-only "$path" | awk '{ sub(/@.*/, "", $3); print $3 }' | sort -u) |
      while read -r name; do
        grep -qx "$so $name" "$symbols" || echo "  $so $name" >&2
      done
    bad=1
  fi
done
exit "$bad"
