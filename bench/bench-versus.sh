#!/usr/bin/env bash
# bench-versus.sh: one binary against another, side by side, on a freshly started ad-fixture.
#
#   bench/bench-versus.sh BASELINE_BIN [CANDIDATE_BIN]   (candidate default: build/agent-desktop)
#
# For a change that adds checks to every action (this one: the modal-dialog check, the
# re-checks under the lease), what does the loop cost? On a private headless desktop it starts
# build/tests/fixture-app/ad-fixture, then AD_BENCH_RUNS times (default 10), alternating which
# binary goes first, times three whole processes with each binary:
#   snapshot --app ad-fixture -i
#   click INCREMENT_REF           (a fresh ref of that binary's own snapshot)
#   wait --element COUNT_VALUE_REF --predicate value --value N
# Every wait must find its value and the fixture's state line must end at the expected count.
# Prints a Markdown table: min and median in ms per binary, and the median ratio
# candidate / baseline. Every process it started is stopped by pid.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_binaries_begin bench-versus.sh "$@"
/usr/bin/python3 - "$base" "$cand" "$root/build/tests/fixture-app/ad-fixture" \
  "${AD_BENCH_RUNS:-10}" <<'PY'
import json, os, signal, statistics, subprocess, sys, tempfile, time
base, cand, fixture, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
tmp = tempfile.mkdtemp(prefix="ad-bench-versus-")
state = os.path.join(tmp, "state.json")
env = dict(os.environ, AD_FIXTURE_STATE_FILE=state)
app = subprocess.Popen([fixture], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       start_new_session=True)
homes = {b: tempfile.mkdtemp(prefix="ad-bench-home-") for b in (base, cand)}

def run(binary, *args):
    t = time.monotonic()
    p = subprocess.run([binary, *args], capture_output=True, text=True,
                       env=dict(os.environ, AGENT_DESKTOP_HOME=homes[binary]))
    ms = (time.monotonic() - t) * 1000
    return ms, json.loads(p.stdout)

def refs(binary):
    ms, env = run(binary, "snapshot", "--app", "ad-fixture", "-i")
    assert env["ok"], env
    found = {}
    def walk(n):
        if n.get("name") == "Increment" and n.get("role") == "button":
            found["inc"] = n["ref_id"]
        if n.get("name") == "Count value":
            found["count"] = n["ref_id"]
        for c in n.get("children", []):
            walk(c)
    walk(env["data"]["tree"])
    return ms, found

def count():
    with open(state) as f:
        return json.load(f)["count"]

try:
    deadline = time.monotonic() + 30
    while True:  # the fixture registers on the bus
        _, env = run(cand, "list-apps", "--app", "ad-fixture")
        if env["ok"] and env["data"]["apps"] and os.path.exists(state):
            try:
                refs(cand)
                break
            except (AssertionError, KeyError):
                pass
        if time.monotonic() > deadline:
            sys.exit("bench-versus: ad-fixture did not register")
        time.sleep(0.2)
    times = {b: {"snapshot -i": [], "click": [], "wait --element": []} for b in (base, cand)}
    for b in (base, cand):  # untimed warm-up
        refs(b)
    for i in range(runs):
        for b in ((base, cand) if i % 2 == 0 else (cand, base)):
            ms, r = refs(b)
            times[b]["snapshot -i"].append(ms)
            want = count() + 1
            ms, env = run(b, "click", r["inc"])
            assert env["ok"], env
            times[b]["click"].append(ms)
            ms, env = run(b, "wait", "--element", r["count"], "--predicate", "value", "--value",
                          str(want), "--timeout", "10000")
            assert env["ok"] and env["data"]["found"], env
            times[b]["wait --element"].append(ms)
            assert count() == want, (count(), want)
    print("| step | baseline min / median ms | candidate min / median ms | ratio (median) |")
    print("|---|---|---|---|")
    for step in times[base]:
        a, c = times[base][step], times[cand][step]
        print("| %s | %.1f / %.1f | %.1f / %.1f | %.2f |" % (
            step, min(a), statistics.median(a), min(c), statistics.median(c),
            statistics.median(c) / statistics.median(a)))
    print("(%d interleaved runs; baseline %s, candidate %s)" % (runs, base, cand))
finally:
    os.killpg(app.pid, signal.SIGTERM)
    app.wait(timeout=10)
PY
