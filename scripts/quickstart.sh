#!/usr/bin/env bash
# quickstart.sh: the main job. Installs what is missing, builds, and runs the quick start
# (spec quick-start.md) against GNOME Calculator, printing every envelope: status, the
# platform skill, a skeleton, a drill into the region that holds the 7 button, find, get, is.
# It uses the graphical session when one is reachable and otherwise starts a headless desktop
# (Xvfb, a private D-Bus session bus, openbox, the AT-SPI bus) and stops it afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
source scripts/desktop-env.sh

AD=build/agent-desktop
own_home=""
if [[ -z "${AGENT_DESKTOP_HOME:-}" ]]; then
  own_home=$(mktemp -d "${TMPDIR:-/tmp}/ad-quickstart.XXXXXX")
  export AGENT_DESKTOP_HOME=$own_home
fi
calc_pid=""
cleanup_calc() {
  if [[ -n "$calc_pid" ]]; then
    kill "$calc_pid" 2>/dev/null || true
    wait "$calc_pid" 2>/dev/null || true
  fi
}
trap 'cleanup_calc; ad_desktop_stop; [[ -z "$own_home" ]] || rm -rf -- "$own_home"' EXIT

if ! "$AD" list-apps --app gnome-calculator | jq -e '.data.apps | length > 0' >/dev/null; then
  gnome-calculator >/dev/null 2>&1 &
  calc_pid=$!
  ad_desktop_track "$calc_pid"
  ad_desktop_wait_app gnome-calculator 30
fi

step() { printf '\n$ agent-desktop %s\n' "$*"; "$AD" "$@" || true; }

echo "# 1. Check the install"
step status
"$AD" skills get platform | jq -r '.data.content | split("\n")[:12] | join("\n")'
echo "# 2. Map the app"
skeleton=$("$AD" snapshot --app gnome-calculator --skeleton -i --compact)
printf '\n$ agent-desktop snapshot --app gnome-calculator --skeleton -i --compact\n%s\n' "$skeleton"
echo "# 3. Find the 7 button and drill into the region that holds it"
seven=$("$AD" find --app gnome-calculator --role button --name 7 --first)
printf '\n$ agent-desktop find --app gnome-calculator --role button --name 7 --first\n%s\n' "$seven"
# Drill targets are refs on cut containers (children_count) and on the ancestors that cover
# unidentifiable cuts; drill the first one that answers and show it.
for target in $(jq -r '[.. | objects | select(has("ref_id") and (has("children_count") or
                  (has("children") and (has("available_actions") | not)))) | .ref_id] | .[]' \
                  <<<"$skeleton"); do
  drill=$("$AD" snapshot --root "$target" -i --compact) || continue
  printf '\n$ agent-desktop snapshot --root %s -i --compact\n%s\n' "$target" "$drill"
  break
done
ref=$(jq -r '.data.match.ref_id // empty' <<<"$seven")
if [[ -n "$ref" ]]; then
  step get "$ref"
  step get "$ref" --property bounds
  step is "$ref" --property enabled
  display=$("$AD" find --app gnome-calculator --role textfield --first | jq -r '.data.match.ref_id // empty')
  clear=$("$AD" find --app gnome-calculator --role button --description "Clear" --first |
    jq -r '.data.match.ref_id // empty')
  echo "# 4. Act: press 7"
  step click "$ref"
  if [[ -n "$display" ]]; then
    echo "# 5. Verify: the display reads 7"
    step wait --element "$display" --predicate value --value 7 --timeout 5000
    step get "$display" --property value
  fi
  if [[ -n "$clear" ]]; then
    echo "# 6. Restore the state: press C"
    step click "$clear"
  fi
fi
