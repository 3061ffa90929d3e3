#!/usr/bin/env bash
# bench-snapshot.sh: snapshot latency of agent-desktop against a naive libatspi walk.
#
#   bench/bench-snapshot.sh            (run from anywhere; builds nothing)
#
# For each app (gtk3-widget-factory, gtk4-demo, ad-bench-synthetic 10000) it starts the app
# on a desktop from scripts/desktop-env.sh (a private headless one unless
# AD_DESKTOP_PRIVATE=0 lets it reuse the current session), waits until the app shows a
# window on the AT-SPI bus, does one untimed warm-up of each tool (GTK builds accessibles
# lazily, so the first reader would pay for it), then runs, interleaved and alternating which
# goes first,
#   ours:  agent-desktop snapshot --app NAME --max-depth 50 --timeout-ms 60000
#   naive: bench/ad-bench-naive-walk NAME
# AD_BENCH_RUNS times each (default 5), timing each whole process. Then it times
# `agent-desktop version` AD_BENCH_VERSION_RUNS times (default 50) and prints Markdown
# tables: min and median ms, the naive/ours ratio of medians, and node counts (ours: nodes
# with a role in data.tree; naive: its own count). Every app it started is stopped by pid.
#
# Environment: AD_BUILD_DIR (default ./build beside this script's parent), AD_BENCH_APPS
# (space-separated subset of the app names), AD_BENCH_RUNS, AD_BENCH_VERSION_RUNS.
# A missing agent-desktop binary is reported as n/a and the naive half still runs. Exit
# status 1 when any measured command failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-5}
VERSION_RUNS=${AD_BENCH_VERSION_RUNS:-50}
AD=$BUILD/agent-desktop
NAIVE=$BUILD/bench/ad-bench-naive-walk
SYNTH=$BUILD/bench/ad-bench-synthetic
APPS=${AD_BENCH_APPS:-gtk3-widget-factory gtk4-demo ad-bench-synthetic}
APP_START_TIMEOUT_S=60

die() { echo "bench-snapshot: $*" >&2; exit 1; }
note() { echo "bench-snapshot: $*" >&2; }
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
[[ -x "$NAIVE" ]] || die "$NAIVE not built (meson setup build && ninja -C build)"
have_ours=1
if [[ ! -x "$AD" ]]; then
  have_ours=0
  note "$AD not built: its columns show n/a"
fi

# Benchmarks default to a private desktop, so apps of the user's session cannot interfere.
export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench.XXXXXX")
export AGENT_DESKTOP_HOME=$work/home
mkdir -m 0700 "$AGENT_DESKTOP_HOME"
app_pids=()
failed=0

# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"

# shellcheck disable=SC2317  # runs from the EXIT trap
cleanup() {
  local pid
  for pid in "${app_pids[@]}"; do stop_app "$pid"; done
  ad_desktop_stop
  rm -rf -- "$work"
}
trap cleanup EXIT


run_ours() { # NAME OUT
  timed "$2" "$AD" snapshot --app "$1" --max-depth 50 --timeout-ms 60000
}


rows=()
for app in $APPS; do
  if ! bench_start_app "$app"; then
    failed=1
    continue
  fi
  app_pids+=("$app_pid")

  # Warm-up, untimed.
  "$NAIVE" "$app" >/dev/null 2>>"$work/stderr.log" || true
  if ((have_ours)); then run_ours "$app" "$work/ours.json" || true; fi

  ours_ms=() naive_ms=() naive_walk_ms=() ours_count="n/a" naive_count="n/a"
  for ((i = 1; i <= RUNS; i++)); do
    order=(naive ours)
    ((i % 2)) && order=(ours naive)
    for tool in "${order[@]}"; do
      if [[ $tool == ours ]]; then
        ((have_ours)) || continue
        if run_ours "$app" "$work/ours.json"; then
          ours_ms+=("$REPLY")
          ours_count=$(ours_nodes "$work/ours.json")
        else
          note "$app: agent-desktop snapshot failed (run $i): $(head -c 300 "$work/ours.json")"
          failed=1
        fi
      else
        if timed "$work/naive.json" "$NAIVE" "$app"; then
          naive_ms+=("$REPLY")
          naive_walk_ms+=("$(jq -r .ms "$work/naive.json")")
          naive_count=$(jq -r .nodes "$work/naive.json")
        else
          note "$app: naive walk failed (run $i)"
          failed=1
        fi
      fi
    done
  done
  # Same node set: the multiset of accessible names of both reads must be identical.
  same="n/a"
  if ((have_ours)) && [[ -s "$work/ours.json" ]]; then
    a=$(jq -r '.data.tree | [.. | objects | select(has("role")) | (.name // "")] | .[]' \
          "$work/ours.json" | LC_ALL=C sort | md5sum)
    b=$("$NAIVE" --list-nodes "$app" 2>/dev/null | awk -F'\t' 'NF >= 3 { print $2 }' |
          LC_ALL=C sort | md5sum)
    same=no
    [[ "$a" == "$b" ]] && same=yes
  fi
  read -r ours_min ours_med <<<"$(stats "${ours_ms[@]}")"
  read -r naive_min naive_med <<<"$(stats "${naive_ms[@]}")"
  read -r _ walk_med <<<"$(stats "${naive_walk_ms[@]}")"
  rows+=("| $app | $ours_count | $naive_count | $same | $ours_min | $ours_med | $naive_min | $naive_med\
 | $walk_med | $(ratio "$naive_med" "$ours_med") |")
  stop_app "$app_pid"
done

version_ms=()
if ((have_ours)); then
  for ((i = 1; i <= VERSION_RUNS; i++)); do
    if timed "$work/version.json" "$AD" version; then
      version_ms+=("$REPLY")
    else
      note "agent-desktop version failed"
      failed=1
      break
    fi
  done
fi
read -r version_min version_med <<<"$(stats "${version_ms[@]}")"
# The floor of this harness on this machine: fork + exec + exit of /bin/true, timed the same
# way, so the startup row reads as a ratio against it.
true_ms=()
for ((i = 1; i <= VERSION_RUNS; i++)); do
  timed "$work/true.out" /bin/true && true_ms+=("$REPLY")
done
read -r true_min true_med <<<"$(stats "${true_ms[@]}")"

cat <<EOT
## Snapshot latency ($RUNS interleaved runs each, whole-process wall time, ms)

| app | nodes (ours) | nodes (naive) | same names | ours min | ours median | naive min | naive median\
 | naive walk median (in-process) | naive/ours (median) |
|---|---|---|---|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")

## Startup

| command | runs | min ms | median ms |
|---|---|---|---|
| agent-desktop version | ${#version_ms[@]} | $version_min | $version_med |
| /bin/true (harness floor) | ${#true_ms[@]} | $true_min | $true_med |
EOT
exit "$failed"
