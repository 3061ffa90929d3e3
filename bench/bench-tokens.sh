#!/usr/bin/env bash
# bench-tokens.sh: bytes and tokens an agent reads per observe -> act -> verify cycle
# (issue 13), three ways, on two loops:
#   calculator  gnome-calculator's quick start: 7 + 3 =, each click verified on the display
#               (Debian 12's calculator names its buttons "7 7", "+ +": GTK 4.8 joins the
#               label and the tooltip); a fresh calculator per way
#   form        the fixture's form: type a name, check "Enable feature", select "Green"
# ways:
#   full      snapshot -i --compact to observe and again to verify after every action
#   drill     snapshot --skeleton -i --compact, drill (--root) until the target shows, act,
#             re-drill the same root to verify
#   budget    --max-bytes B snapshot -i --compact --annotate-unique to observe (drilling a
#             cut when the target is inside one, doubling B while no drill ref reaches it),
#             then the action with --wait-for and the same budget: its fresh snapshot is the
#             verify (no second call)
#   delta     snapshot -i --compact once to observe; after each action, snapshot --since
#             the last snapshot id to verify (its refs of unchanged nodes keep working, so the
#             first observation's refs drive every step); --observe (item 3) is not in this
#             build: an empty row
# Every output an agent reads is saved and counted: bytes, and tokens with gpt-tokenizer
# (o200k_base) pinned in bench/tokens/package-lock.json, installed with npm ci. A step is
# correct when an uncounted read (get, or the fixture's own state) shows its effect.
#
#   bench/bench-tokens.sh [BIN]   (default: build/agent-desktop); AD_BENCH_BUDGET (2000)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(realpath "${1:-$here/build/agent-desktop}")
cd "$here"
(cd bench/tokens && npm ci --silent --no-audit --no-fund >/dev/null)
export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck disable=SC1091
source scripts/desktop-env.sh
AD_BENCH_DIR=$here/bench /usr/bin/python3 - "$bin" "$here/build/tests/fixture-app/ad-fixture" \
  "${AD_BENCH_BUDGET:-2000}" <<'PY'
import json, os, subprocess, sys, tempfile, time
sys.path.insert(0, os.environ["AD_BENCH_DIR"])
from bench_fixture import start_fixture, stop, wait_registered
binary, fixture, budget = sys.argv[1], sys.argv[2], sys.argv[3]
home = tempfile.mkdtemp(prefix="ad-bench-tokens-home-")
out_dir = tempfile.mkdtemp(prefix="ad-bench-tokens-out-")
env = dict(os.environ, AGENT_DESKTOP_HOME=home)
seq = [0]


def run(*args, counted=None):
    p = subprocess.run([binary, *map(str, args)], capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL, timeout=120)
    if counted is not None:
        seq[0] += 1
        path = os.path.join(out_dir, "%04d.json" % seq[0])
        with open(path, "w") as f:
            f.write(p.stdout)
        counted.append(path)
    return json.loads(p.stdout)


def nodes(n):
    yield n
    for c in n.get("children", []):
        yield from nodes(c)


def tree_of(env):
    d = env.get("data", {})
    return d.get("tree")


def find_node(tree, pred):
    if tree is None:
        return None
    return next((n for n in nodes(tree) if pred(n)), None)


def drill_until(tree, pred, counted, extra=()):
    """Drills cut nodes with a ref (largest refs_cut first when a budget gave it) until the
    target shows; returns (node, root_ref)."""
    seen = set()
    stack = [tree]
    while stack:
        t = stack.pop(0)
        hit = find_node(t, pred)
        if hit is not None and "ref_id" in hit:
            return hit, None if t is tree else t.get("ref_id")
        # A drill target: a cut with a ref, or a ref whose subtree holds a cut without one
        # (skeleton-and-drill-down.md, rule 3).
        cuts = [n for n in nodes(t) if "ref_id" in n and n["ref_id"] not in seen
                and n is not t and ("children_count" in n or any(
                    "children_count" in d and "ref_id" not in d for d in nodes(n)))]
        cuts.sort(key=lambda n: -n.get("refs_cut", 0))
        for c in cuts:
            seen.add(c["ref_id"])
            d = run(*extra, "snapshot", "--root", c["ref_id"], "-i", "--compact", counted=counted)
            sub = tree_of(d)
            if sub is None:
                print("bench-tokens: drill %s: %s" % (c["ref_id"], json.dumps(d)[:300]),
                      file=sys.stderr)
                continue
            hit = find_node(sub, pred)
            if hit is not None and "ref_id" in hit:
                return hit, c["ref_id"]
            stack.append(sub)
    return None, None


def loop(app, steps, way, check):
    counted, correct = [], 0
    base = ("snapshot", "--app", app, "-i", "--compact")
    if way in ("full", "delta"):
        obs = run(*base, counted=counted)
        first_tree, last_id = tree_of(obs), obs.get("data", {}).get("snapshot_id")
    elif way == "drill":
        obs = run("snapshot", "--app", app, "--skeleton", "-i", "--compact", counted=counted)
    else:
        obs = run("--max-bytes", budget, *base, "--annotate-unique", counted=counted)
    for pred, action, selector, expect in steps:
        tree = first_tree if way == "delta" else tree_of(obs)
        extra = ("--max-bytes", budget) if way == "budget" else ()
        target, root = drill_until(tree, pred, counted, extra) if tree else (None, None)
        # A cut whose containers have no identity (GTK4's unnamed groups) has no drill ref
        # below the drilled root: an agent then doubles the budget and observes again.
        b = int(budget)
        while way == "budget" and target is None and b < 64000:
            b *= 2
            extra = ("--max-bytes", b)
            obs = run(*extra, *base, "--annotate-unique", counted=counted)
            target, root = drill_until(tree_of(obs), pred, counted, extra)
        if target is None:
            print("bench-tokens: %s %s: no target for a step" % (app, way), file=sys.stderr)
            obs = run(*base, counted=counted)
            continue
        if way == "budget":
            obs = run(*extra, "--wait-for", selector, *action(target["ref_id"]),
                      counted=counted)
            if not obs["ok"]:
                print("bench-tokens: %s %s: %s" % (app, way, json.dumps(obs["error"])[:300]),
                      file=sys.stderr)
        else:
            run(*action(target["ref_id"]), counted=counted)
            if expect:  # let the UI settle before the verify read (uncounted)
                run("wait", "--text", expect, "--app", app, "--timeout", 5000)
            if way == "full":
                obs = run(*base, counted=counted)
            elif way == "delta":
                obs = run("snapshot", "--since", last_id, "-i", "--compact", counted=counted)
                last_id = obs.get("data", {}).get("snapshot_id", last_id)
            else:
                obs = run("snapshot", "--root", root, "-i", "--compact", counted=counted) \
                    if root else run("snapshot", "--app", app, "--skeleton", "-i", "--compact",
                                     counted=counted)
                if root:  # the next step starts from the skeleton again
                    obs = run("snapshot", "--app", app, "--skeleton", "-i", "--compact",
                              counted=counted)
        correct += bool(check(expect))
    tok = subprocess.run(["node", os.path.join(os.environ["AD_BENCH_DIR"], "tokens",
                                               "count.mjs"), *counted],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    b = t = 0
    for line in tok:
        if line.strip():
            x = line.split()
            b, t = b + int(x[0]), t + int(x[1])
    return len(counted), b, t, correct, len(steps)


def named(name, role=None):
    return lambda n: n.get("name") == name and (role is None or n.get("role") == role)


def calc_shows(expect):
    d = run("find", "--app", "gnome-calculator", "--role", "textfield", "--limit", 0)
    values = [(m.get("value") or "").replace(" ", "") for m in d["data"].get("matches", [])]
    return any(expect in v for v in values)


def start_calculator():
    p = subprocess.Popen(["gnome-calculator"], env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL, start_new_session=True)

    def probe():
        assert run("snapshot", "--app", "gnome-calculator", "-i")["ok"]
    wait_registered(probe, "bench-tokens")
    return p


def stop_calculator(p):
    if p is not None:
        stop(p)


results = []
calc = None
app = start_fixture(fixture, env)
try:
    def fixture_up():
        assert run("snapshot", "--app", "ad-fixture", "-i")["ok"]
    wait_registered(fixture_up, "bench-tokens")
    calc_steps = [(named(k + " " + k, "button"), lambda r: ("click", r), "textfield:" + e, e)
                  for k, e in (("7", "7"), ("+", "+"), ("3", "3"), ("=", "10"))]
    form_steps = [
        (named("Name", "textfield"), lambda r: ("type", r, "Ada"), "textfield:Ada", "Ada"),
        (named("Enable feature", "checkbox"), lambda r: ("check", r), ":feature: on", "on"),
        (named("Color", "combobox"), lambda r: ("select", r, "Green"), "combobox:Green", "Green"),
    ]

    def form_check(expect):
        s = json.dumps(run("snapshot", "--app", "ad-fixture"))
        return expect in s

    for way in ("full", "drill", "budget", "delta"):
        calc = start_calculator()
        results.append(("calculator", way) + loop("gnome-calculator", calc_steps, way,
                                                 calc_shows))
        stop_calculator(calc)
        calc = None
        results.append(("form", way) + loop("ad-fixture", form_steps, way, form_check))
        # Reset the form for the next way: clear the name, uncheck, pick Red.
        d = run("snapshot", "--app", "ad-fixture", "-i")
        for n in nodes(d["data"]["tree"]):
            if n.get("name") == "Name" and n.get("role") == "textfield":
                run("clear", n["ref_id"])
            if n.get("name") == "Enable feature":
                run("uncheck", n["ref_id"])
            if n.get("name") == "Color" and n.get("role") == "combobox":
                run("select", n["ref_id"], "Red")
finally:
    stop(app)
    stop_calculator(calc)
print("| loop | way | calls read | bytes | tokens | bytes/token | correct steps |")
print("|---|---|---|---|---|---|---|")
for loop_name, way, calls, b, t, ok, n in results:
    print("| %s | %s | %d | %d | %d | %.2f | %d/%d |" % (loop_name, way, calls, b, t,
                                                        b / max(t, 1), ok, n))
for loop_name in ("calculator", "form"):
    print("| %s | --observe | | | | | not in this build (item 3) |" % loop_name)
PY
