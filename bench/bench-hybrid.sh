#!/usr/bin/env bash
# bench-hybrid.sh: whole-process `agent-desktop snapshot` against the hybrid walk (the best
# correct one-shot walk, bench/hybrid-walk.c) by both of its routes and the naive libatspi
# walk (naive-walk.c).
#
#   bench/bench-hybrid.sh            (run from anywhere; builds nothing)
#
# For each app (gtk3-widget-factory, gnome-calculator, gtk4-demo, ad-bench-synthetic 10000)
# it starts a fresh app on a desktop from scripts/desktop-env.sh (a private headless one
# unless AD_DESKTOP_PRIVATE=0), waits for its window on the AT-SPI bus, warms each tool up
# once untimed (GTK builds accessibles lazily: the first reader would pay for it), then runs,
# AD_BENCH_RUNS times each (default 7), interleaved, the order rotating every run:
#   ours:          agent-desktop snapshot --app NAME --max-depth 50 --timeout-ms 60000
#   hybrid (peer): ad-bench-hybrid-walk --route peer NAME (peer-to-peer where the app gives
#                  its bus address: GTK 3; the route of the numbers taken before --route)
#   hybrid (bus):  ad-bench-hybrid-walk --route bus NAME (every call through the
#                  accessibility bus, as agent-desktop since GTK 3's atk-bridge leaks each
#                  accepted peer-to-peer connection: src/linux/atspi_bus.h)
#   naive:         ad-bench-naive-walk NAME
# timing each whole process, stdout to a file in the work dir (ours: the envelope it prints,
# as a user's redirect would; a file, not /dev/null, because the node count is read from it).
# The hybrid walks and the naive walk also report their own in-process walk time (the hybrid's
# from its connection to the app to the last reply: the "walk only" columns of issue 12).
# Each peer run leaves one more connection in a GTK 3 app, for the rest of its series.
#
# The node sets: after the timed runs, `--list-nodes` of each hybrid route and of the naive
# walk (role number, name, child-index path per node) must be the same lines ("peer = naive",
# "bus = naive");
# ours must have the same node count (nodes with a role in data.tree) and the same multiset
# of names as the naive walk, a toolkit class name counting as no name ("ours = naive"; the
# envelope carries no child-index paths).
#
# Prints a Markdown table: min / median ms of each, the ratios ours / hybrid (peer) and
# ours / hybrid (bus) (process and walk-only) and naive / ours (medians), and the node counts. Every app it started is
# stopped by pid; the desktop by its EXIT trap. Environment: AD_BUILD_DIR (default ./build),
# AD_BIN (default $AD_BUILD_DIR/agent-desktop), AD_BENCH_APPS (a subset of the app names),
# AD_BENCH_RUNS. Exit status 1 when any measured command failed or a node set differs.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${AD_BUILD_DIR:-$root/build}
RUNS=${AD_BENCH_RUNS:-7}
AD=${AD_BIN:-$BUILD/agent-desktop}
HYBRID=$BUILD/bench/ad-bench-hybrid-walk
NAIVE=$BUILD/bench/ad-bench-naive-walk
SYNTH=$BUILD/bench/ad-bench-synthetic
APPS=${AD_BENCH_APPS:-gtk3-widget-factory gnome-calculator gtk4-demo ad-bench-synthetic}
APP_START_TIMEOUT_S=60

die() { echo "bench-hybrid: $*" >&2; exit 1; }
note() { echo "bench-hybrid: $*" >&2; }
command -v jq >/dev/null || die "jq not found (run scripts/install-deps.sh)"
for b in "$AD" "$HYBRID" "$NAIVE"; do
  [[ -x "$b" ]] || die "$b not built (meson setup build && ninja -C build)"
done
[[ "$RUNS" =~ ^[1-9][0-9]*$ ]] || die "AD_BENCH_RUNS must be a positive integer"

export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=/dev/null
source "$root/scripts/desktop-env.sh"
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"

work=$(mktemp -d "${TMPDIR:-/tmp}/ad-bench-hybrid.XXXXXX")
export AGENT_DESKTOP_HOME=$work/home
mkdir -m 0700 "$AGENT_DESKTOP_HOME"
app_pid=""
failed=0

# shellcheck disable=SC2317  # runs from the EXIT trap
cleanup() {
  if [[ -n "$app_pid" ]]; then stop_app "$app_pid"; fi
  ad_desktop_stop
  rm -rf -- "$work"
}
trap cleanup EXIT

run_tool() { # TOOL APP -> REPLY ms, stdout in $work/TOOL.out
  case "$1" in
    ours) timed "$work/ours.out" "$AD" snapshot --app "$2" --max-depth 50 --timeout-ms 60000 ;;
    peer) timed "$work/peer.out" "$HYBRID" --route peer "$2" ;;
    bus) timed "$work/bus.out" "$HYBRID" --route bus "$2" ;;
    naive) timed "$work/naive.out" "$NAIVE" "$2" ;;
  esac
}

rows=()
for app in $APPS; do
  if ! bench_start_app "$app"; then
    failed=1
    continue
  fi
  for tool in naive bus peer ours; do run_tool "$tool" "$app" || true; done # warm-up

  declare -A t=() walk=()
  tools=(ours peer bus naive)
  for ((i = 0; i < RUNS; i++)); do
    for ((k = 0; k < ${#tools[@]}; k++)); do
      tool=${tools[(i + k) % ${#tools[@]}]}
      if ! run_tool "$tool" "$app"; then
        note "$app: $tool failed (run $i): $(head -c 300 "$work/$tool.out")"
        failed=1
        continue
      fi
      t[$tool]+=" $REPLY"
      [[ $tool == ours ]] || walk[$tool]+=" $(jq -r .ms "$work/$tool.out")"
    done
  done
  ours_count=$(ours_nodes "$work/ours.out")
  peer_count=$(jq -r .nodes "$work/peer.out" 2>/dev/null || echo "?")
  bus_count=$(jq -r .nodes "$work/bus.out" 2>/dev/null || echo "?")
  naive_count=$(jq -r .nodes "$work/naive.out" 2>/dev/null || echo "?")

  # The node sets, read once more after the timed runs.
  for route in peer bus; do
    "$HYBRID" --route "$route" --list-nodes "$app" 2>>"$work/stderr.log" | grep -v '^{' |
      LC_ALL=C sort >"$work/$route.list"
  done
  "$NAIVE" --list-nodes --numeric-roles "$app" 2>>"$work/stderr.log" | grep -v '^{' |
    LC_ALL=C sort >"$work/n.list"
  peer_same=no bus_same=no
  cmp -s "$work/peer.list" "$work/n.list" && peer_same=yes
  cmp -s "$work/bus.list" "$work/n.list" && bus_same=yes
  names_ours=$(jq -r '.data.tree | [.. | objects | select(has("role")) | (.name // "")] | .[]' \
    "$work/ours.out" | LC_ALL=C sort | md5sum)
  # agent-desktop prints no name where the toolkit gave its class name (GtkButton, AdwLeaflet:
  # core/node.c ad_toolkit_class_name), so those compare as empty.
  names_naive=$(cut -f2 "$work/n.list" |
    awk '{ r = $0; if (r ~ /^(Gtk|Gdk|Gsk|Adw|Hdy|Q)[A-Z][A-Za-z0-9]*$/ &&
                   sub(/^(Gtk|Gdk|Gsk|Adw|Hdy|Q)/, "", r) && r ~ /[a-z]/) print ""; else print }' |
    LC_ALL=C sort | md5sum)
  ours_same=no
  [[ "$names_ours" == "$names_naive" && "$ours_count" == "$(wc -l <"$work/n.list")" ]] &&
    ours_same=yes
  if [[ $peer_same != yes || $bus_same != yes || $ours_same != yes ]]; then
    failed=1
    note "$app: node sets differ (peer = naive: $peer_same, bus = naive: $bus_same," \
      "ours = naive: $ours_same)"
    for route in peer bus; do
      diff "$work/$route.list" "$work/n.list" | head -10 >&2 || true
    done
  fi

  # shellcheck disable=SC2086  # the lists are space-separated numbers
  {
    read -r o_min o_med <<<"$(stats ${t[ours]:-})"
    read -r p_min p_med <<<"$(stats ${t[peer]:-})"
    read -r pw_min pw_med <<<"$(stats ${walk[peer]:-})"
    read -r b_min b_med <<<"$(stats ${t[bus]:-})"
    read -r bw_min bw_med <<<"$(stats ${walk[bus]:-})"
    read -r n_min n_med <<<"$(stats ${t[naive]:-})"
  }
  rows+=("| $app | $ours_count / $peer_count / $bus_count / $naive_count\
 | $ours_same / $peer_same / $bus_same\
 | $o_min / $o_med | $p_min / $p_med | $b_min / $b_med | $pw_min / $pw_med | $bw_min / $bw_med\
 | $n_min / $n_med\
 | $(ratio "$o_min" "$p_min") / $(ratio "$o_med" "$p_med")\
 | $(ratio "$o_min" "$b_min") / $(ratio "$o_med" "$b_med")\
 | $(ratio "$o_min" "$pw_min") / $(ratio "$o_med" "$pw_med")\
 | $(ratio "$o_min" "$bw_min") / $(ratio "$o_med" "$bw_med")\
 | $(ratio "$n_med" "$o_med") |")
  unset t walk
  stop_app "$app_pid"
  app_pid=""
done

cat <<EOT
## Snapshot against the hybrid walk ($RUNS interleaved runs each, rotating order, fresh app per series; ms min / median)

ours: whole \`agent-desktop snapshot --max-depth 50\` process, stdout to a file; hybrid (peer:
peer-to-peer where the app offers it; bus: every call through the accessibility bus, as ours)
and naive: whole processes, and the hybrid's in-process walk ("walk only"). Same set: each
against the naive walk.

| app | nodes ours / peer / bus / naive | same set ours / peer / bus | ours | hybrid (peer)\
 | hybrid (bus) | peer walk only | bus walk only | naive | ours / hybrid (peer)\
 | ours / hybrid (bus) | ours / peer walk only | ours / bus walk only | naive / ours (median) |
|---|---|---|---|---|---|---|---|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
EOT
exit "$failed"
