#!/usr/bin/env bash
# bench-hybrid.sh: whole-process `agent-desktop snapshot` against the hybrid walk (the best
# correct one-shot walk, bench/hybrid-walk.c) and the naive libatspi walk (naive-walk.c).
#
#   bench/bench-hybrid.sh            (run from anywhere; builds nothing)
#
# For each app (gtk3-widget-factory, gnome-calculator, gtk4-demo, ad-bench-synthetic 10000)
# it starts a fresh app on a desktop from scripts/desktop-env.sh (a private headless one
# unless AD_DESKTOP_PRIVATE=0), waits for its window on the AT-SPI bus, warms each tool up
# once untimed (GTK builds accessibles lazily: the first reader would pay for it), then runs,
# AD_BENCH_RUNS times each (default 7), interleaved, the order rotating every run:
#   ours:   agent-desktop snapshot --app NAME --max-depth 50 --timeout-ms 60000
#   hybrid: ad-bench-hybrid-walk NAME
#   naive:  ad-bench-naive-walk NAME
# timing each whole process, stdout to a file in the work dir (ours: the envelope it prints,
# as a user's redirect would; a file, not /dev/null, because the node count is read from it).
# The hybrid walk and the naive walk also report their own in-process walk time (the hybrid's
# from its connection to the app to the last reply: the "walk only" column of issue 12).
#
# The node sets: after the timed runs, `--list-nodes` of the hybrid and the naive walk
# (role number, name, child-index path per node) must be the same lines ("hybrid = naive");
# ours must have the same node count (nodes with a role in data.tree) and the same multiset
# of names as the naive walk, a toolkit class name counting as no name ("ours = naive"; the
# envelope carries no child-index paths).
#
# Prints a Markdown table: min / median ms of each, the ratios ours / hybrid (process and
# walk-only) and naive / ours (medians), and the node counts. Every app it started is
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
    hybrid) timed "$work/hybrid.out" "$HYBRID" "$2" ;;
    naive) timed "$work/naive.out" "$NAIVE" "$2" ;;
  esac
}

rows=()
for app in $APPS; do
  if ! bench_start_app "$app"; then
    failed=1
    continue
  fi
  for tool in naive hybrid ours; do run_tool "$tool" "$app" || true; done # warm-up

  declare -A t=() walk=()
  tools=(ours hybrid naive)
  for ((i = 0; i < RUNS; i++)); do
    for ((k = 0; k < 3; k++)); do
      tool=${tools[(i + k) % 3]}
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
  hybrid_count=$(jq -r .nodes "$work/hybrid.out" 2>/dev/null || echo "?")
  naive_count=$(jq -r .nodes "$work/naive.out" 2>/dev/null || echo "?")

  # The node sets, read once more after the timed runs.
  "$HYBRID" --list-nodes "$app" 2>>"$work/stderr.log" | grep -v '^{' | LC_ALL=C sort >"$work/h.list"
  "$NAIVE" --list-nodes --numeric-roles "$app" 2>>"$work/stderr.log" | grep -v '^{' |
    LC_ALL=C sort >"$work/n.list"
  hybrid_same=no
  cmp -s "$work/h.list" "$work/n.list" && hybrid_same=yes
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
  if [[ $hybrid_same != yes || $ours_same != yes ]]; then
    failed=1
    note "$app: node sets differ (hybrid = naive: $hybrid_same, ours = naive: $ours_same)"
    diff "$work/h.list" "$work/n.list" | head -10 >&2 || true
  fi

  # shellcheck disable=SC2086  # the lists are space-separated numbers
  {
    read -r o_min o_med <<<"$(stats ${t[ours]:-})"
    read -r h_min h_med <<<"$(stats ${t[hybrid]:-})"
    read -r hw_min hw_med <<<"$(stats ${walk[hybrid]:-})"
    read -r n_min n_med <<<"$(stats ${t[naive]:-})"
  }
  rows+=("| $app | $ours_count / $hybrid_count / $naive_count | $ours_same / $hybrid_same\
 | $o_min / $o_med | $h_min / $h_med | $hw_min / $hw_med | $n_min / $n_med\
 | $(ratio "$o_min" "$h_min") / $(ratio "$o_med" "$h_med")\
 | $(ratio "$o_min" "$hw_min") / $(ratio "$o_med" "$hw_med")\
 | $(ratio "$n_med" "$o_med") |")
  unset t walk
  stop_app "$app_pid"
  app_pid=""
done

cat <<EOT
## Snapshot against the hybrid walk ($RUNS interleaved runs each, rotating order, fresh app per series; ms min / median)

ours: whole \`agent-desktop snapshot --max-depth 50\` process, stdout to a file; hybrid and
naive: whole processes, and the hybrid's in-process walk ("walk only").

| app | nodes ours / hybrid / naive | same set ours / hybrid | ours | hybrid | hybrid walk only | naive\
 | ours / hybrid | ours / hybrid walk only | naive / ours (median) |
|---|---|---|---|---|---|---|---|---|---|
$(printf '%s\n' "${rows[@]}")
EOT
exit "$failed"
