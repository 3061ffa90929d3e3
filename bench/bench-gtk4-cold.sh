#!/usr/bin/env bash
# bench-gtk4-cold.sh: the messages of the first, second and third `snapshot` of a freshly
# started gtk4-demo (issue 12, item 6: the cold first read), counted on the accessibility bus
# by dbus-monitor --profile, per D-Bus member, with each whole process's wall time.
#
#   bench/bench-gtk4-cold.sh            (AD_BIN, default build/agent-desktop; AD_BENCH_RUNS
#                                        fresh apps, default 2)
#
# Measured 2026-12-02 (GTK 4, private headless openbox desktop), identical in both trials:
#   first snapshot:  3,439 method calls, 457 signals (439 of them Cache.AddAccessible), ~260 ms
#   second, third:   1,119 method calls,   8 signals, 60-90 ms
# The difference is GTK 4's: it creates an accessible object only when a client first asks
# for it, so the first Cache.GetItems returns the few objects that exist, the walker finds the
# cached links incomplete and reads the rest live (GetChildAtIndex, GetRole, GetState,
# GetInterfaces, GetAll: ~440 each, one per node), and each GetChildAtIndex makes GTK 4 build
# that child and announce it (the AddAccessible signals). From the second read on, GetItems
# holds every node and those five per-node calls disappear.
# Since 2026-12-03 the walker takes role, states, interfaces and name from those AddAccessible
# signals (walker.c, watch_announcements), so GetRole, GetState, GetInterfaces and GetAll are
# gone from the first read too; GetChildAtIndex stays, and ChildCount is asked of each node
# with children (Properties.Get). Measured on a quiet machine, two trials each:
#   first snapshot:  3,315 -> 1,836 method calls (+1 AddMatch, +1 RemoveMatch),
#                    466 / 454 -> 284 / 287 ms
#   second, third:   1,119 -> 1,121 method calls (the match is added on every GTK 4 read)
# Every app it starts is stopped by pid; the desktop by ad_desktop_stop in the EXIT trap.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck source=scripts/desktop-env.sh
source "$root/scripts/desktop-env.sh"
bin=${AD_BIN:-$root/build/agent-desktop}
work=$(mktemp -d /tmp/ad-bench-gtk4-cold-XXXXXX)
export AGENT_DESKTOP_HOME=$work/home
app=""
mon=""
cleanup() {
  [ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
  [ -n "$app" ] && kill "$app" 2>/dev/null && wait "$app" 2>/dev/null
  rm -rf "$work"
}
trap 'cleanup; ad_desktop_stop' EXIT
a11y=$(dbus-send --session --print-reply=literal --dest=org.a11y.Bus /org/a11y/bus \
  org.a11y.Bus.GetAddress | tr -d ' ')
# Waits until the monitor's log has a line matching $2 (its own NameAcquired: it listens).
wait_for_line() {
  for _ in $(seq 200); do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.05; done
  return 1
}
for trial in $(seq "${AD_BENCH_RUNS:-2}"); do
  gtk4-demo >/dev/null 2>&1 &
  app=$!
  for _ in $(seq 200); do
    "$bin" list-windows --app gtk4-demo 2>/dev/null | grep -q '"window_id"' && break
    sleep 0.05
  done
  for n in 1 2 3; do
    log=$work/monitor.$trial.$n
    dbus-monitor --address "$a11y" --profile >"$log" 2>/dev/null &
    mon=$!
    wait_for_line "$log" NameAcquired
    s=$(date +%s%N)
    "$bin" snapshot --app gtk4-demo --max-depth 50 --timeout-ms 60000 >"$work/snap" ||
      echo "snapshot $n failed" >&2
    e=$(date +%s%N)
    # The monitor prints what it received before it is stopped (a bench, not a test).
    sleep 0.3
    kill "$mon"; wait "$mon" 2>/dev/null || true
    mon=""
    echo "gtk4-demo run $trial snapshot $n: $(((e - s) / 1000000)) ms," \
      "method calls $(grep -c '^mc' "$log")," \
      "signals $(grep -c '^sig' "$log")"
    awk '$1 == "mc" { print $7 "." $8 }' "$log" | sort | uniq -c | sort -rn | head -10 |
      sed 's/^/    /'
  done
  kill "$app"; wait "$app" 2>/dev/null || true
  app=""
done
