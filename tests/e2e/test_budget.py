"""--max-bytes / --max-tokens (issue 13, item 2) on real apps: the whole envelope line never
exceeds the budget, the same budget gives the same bytes, every ref of the unbudgeted snapshot
is shown or counted by a cut, a cut's drill ref reads its subtree, long texts are clipped with
their full length stated, and without a budget the output is unchanged. The counts are
checked against an independent pyatspi walk where the shape allows."""
import json
import os
import re
import subprocess

import pytest

from action_helpers import expect_count, need_state
from tree_walk import nodes, refs

SIZES = (1100, 1500, 2500, 4000, 7000, 12000, 20000, 40000, 80000)


def _line(cli, *args):
    code, env, out = cli.run_full(*args)
    assert code == 0, env
    return env, out.encode()


def _refs(tree, _unused=None):
    return refs(tree)


def _cut_nodes(tree, _unused=None):
    return [n for n in nodes(tree) if "refs_cut" in n]


def _strip_ids(text):
    return re.sub(rb"s[0-9a-z]{13}", b"sID", text)


def _check_budgets(cli, app, flags=("-i", "--compact")):
    full_env, full_out = _line(cli, "snapshot", "--app", app, *flags)
    full_refs = full_env["data"]["ref_count"]
    for n in SIZES:
        env, out = _line(cli, "--max-bytes", n, "snapshot", "--app", app, *flags)
        assert len(out) <= n, (n, len(out))
        blk = env["data"]["budget"]
        shown = _refs(env["data"]["tree"], [])
        assert len(shown) == env["data"]["ref_count"]
        cuts = _cut_nodes(env["data"]["tree"], [])
        assert sum(c["refs_cut"] for c in cuts) == blk["refs_cut"]
        assert len(cuts) == blk["cut"]
        assert all("children_count" in c for c in cuts)
        # Never a ref hidden silently: shown (less the cuts' own drill refs) plus counted.
        assert len(shown) - blk["drill_refs"] + blk["refs_cut"] == full_refs, (n, blk)
        if len(full_out) + 200 < n:
            assert blk["truncated"] is False
        # Deterministic: the same budget twice prints the same bytes (ids aside).
        if n in (2500, 12000):
            _, again = _line(cli, "--max-bytes", n, "snapshot", "--app", app, *flags)
            assert _strip_ids(again) == _strip_ids(out)
    return full_env


def test_widget_factory_budgets(cli, widget_factory_app):
    _check_budgets(cli, "gtk3-widget-factory")


def test_fixture_budgets(cli, fixture_app):
    _check_budgets(cli, "ad-fixture")
    _check_budgets(cli, "ad-fixture", flags=())


def test_gtk4_demo_clips_the_source_view(cli, gtk4_demo_app):
    _check_budgets(cli, "gtk4-demo")
    env, out = _line(cli, "--max-bytes", 20000, "snapshot", "--app", "gtk4-demo", "-i",
                     "--compact")
    clipped = []

    def visit(node):
        for k in ("name", "value", "description"):
            if k + "_length" in node:
                clipped.append((node, k))
        for c in node.get("children", []):
            visit(c)
    visit(env["data"]["tree"])
    assert clipped and env["data"]["budget"]["texts_clipped"] == len(clipped)
    for node, k in clipped:
        assert len(node[k].encode()) <= env["data"]["budget"]["clip_bytes"]
        assert node[k + "_length"] > env["data"]["budget"]["clip_bytes"]


def test_tokens_budget(cli, fixture_app):
    env, out = _line(cli, "--max-tokens", 700, "snapshot", "--app", "ad-fixture", "-i")
    assert len(out) <= 700 * env["data"]["budget"]["bytes_per_token"]
    assert env["data"]["budget"]["max_tokens"] == 700


def test_a_cut_drills_to_its_subtree(cli, widget_factory_app):
    env, _ = _line(cli, "--max-bytes", 4000, "snapshot", "--app", "gtk3-widget-factory",
                   "-i", "--compact")
    drillable = [c for c in _cut_nodes(env["data"]["tree"], []) if "ref_id" in c
                 and c["refs_cut"] > 0]
    assert drillable
    for c in drillable[:4]:
        d = cli.ok("snapshot", "--root", c["ref_id"], "-i", "--compact")
        assert d["tree"]["role"] == c["role"]
        assert len(d["tree"].get("children", [])) > 0
        # The drill's refs cover at least what the cut counted.
        assert len(_refs(d["tree"], [])) >= c["refs_cut"]


def test_unbounded_budget_changes_nothing_but_the_block(cli, fixture_app):
    plain, plain_out = _line(cli, "snapshot", "--app", "ad-fixture", "-i", "--compact")
    assert "budget" not in plain["data"]
    roomy, _ = _line(cli, "--max-bytes", 100000000, "snapshot", "--app", "ad-fixture", "-i",
                     "--compact")
    assert roomy["data"].pop("budget")["truncated"] is False
    strip = lambda d: _strip_ids(json.dumps(d, sort_keys=True).encode())
    assert strip(roomy["data"]) == strip(plain["data"])


@pytest.mark.skipif(not os.environ.get("AD_BASELINE_BIN"),
                    reason="AD_BASELINE_BIN names main's binary to compare default output with")
def test_default_output_is_byte_for_byte_main(cli, fixture_app, widget_factory_app):
    base = os.environ["AD_BASELINE_BIN"]
    for app in ("ad-fixture", "gtk3-widget-factory"):
        for flags in ((), ("-i", "--compact"), ("--skeleton", "-i", "--compact")):
            _, ours = _line(cli, "snapshot", "--app", app, *flags)
            theirs = subprocess.run([base, "snapshot", "--app", app, *flags],
                                    capture_output=True, env=cli.environment(None),
                                    timeout=60).stdout
            assert _strip_ids(ours) == _strip_ids(theirs), (app, flags)


def test_post_action_wait_fits(cli, fixture_app):
    snap = cli.ok("snapshot", "--app", "ad-fixture", "-i")
    button = next(r for r in _refs(snap["tree"], []) if r["role"] == "button"
                  and "unique" not in r and r.get("name"))
    env, out = _line(cli, "--max-bytes", 1500, "--wait-for", "button", "click",
                     button["ref_id"])
    assert len(out) <= 1500
    assert "after_action" in env["data"] and "budget" in env["data"]


@pytest.mark.parametrize("budget", (1500, 2500, 4000))
def test_post_action_wait_with_observe_fits(cli, fixture_app, budget):
    """The action's --observe report is part of the line the budget bounds: it was added
    after the fresh snapshot had been fitted, and the line passed the budget."""
    snap = cli.ok("snapshot", "--app", "ad-fixture", "-i")
    inc = next(r for r in _refs(snap["tree"], []) if r.get("name") == "Increment")
    count = need_state(fixture_app)["count"]
    env, out = _line(cli, "--max-bytes", budget, "--wait-for", "button", "click", "--observe",
                     inc["ref_id"])
    assert len(out) <= budget, (len(out), env)
    expect_count(fixture_app, count + 1)  # the click happened, read by the app
    action = env["data"]["after_action"]
    changes = action["changes"]
    # Whatever was cut of the report says so: no silent loss of a change or of the evidence.
    if "events" not in action.get("details", {}):
        assert action["details"].get("events_cut") is True or \
            action["details"].get("events_available") is False, action
    if changes.get("truncated"):
        assert changes["entries_cut"] > 0 and changes["complete"] is False
    else:
        assert changes.get("unchanged") is not True  # the count label changed
    assert "budget" in env["data"]


@pytest.mark.parametrize("budget", SIZES[:6])
@pytest.mark.parametrize("folder", ("plain", "d\u00e9bogage-" + "\u00e9" * 40))
def test_visual_debug_fits_the_budget(cli, widget_factory_app, tmp_path, budget, folder):
    """--debug adds data.debug (the page's path) to a budgeted snapshot: it is part of the
    line too, as printed (a non-ASCII folder prints each character as a 6-byte escape)."""
    os.mkdir(str(tmp_path / folder))
    page = str(tmp_path / folder / "debug.html")
    env, out = _line(cli, "--max-bytes", budget, "--debug", "--screenshot", page, "snapshot",
                     "--app", "gtk3-widget-factory", "-i")
    assert len(out) <= budget, (len(out), env["data"].get("debug"))
    assert os.path.exists(env["data"]["debug"]["path"])
    assert "budget" in env["data"]


def test_budget_flags_are_refused_where_they_mean_nothing(cli, fixture_app):
    snap = cli.ok("snapshot", "--app", "ad-fixture", "-i")
    ref = _refs(snap["tree"], [])[0]["ref_id"]
    code, env = cli.run("--max-bytes", 5000, "get", ref)
    assert code == 1 and env["error"]["code"] == "INVALID_ARGS"
    code, env = cli.run("--max-bytes", 10, "snapshot", "--app", "ad-fixture")
    assert code == 2 and env["error"]["code"] == "INVALID_ARGS"


def test_find_budget_drops_matches_and_says_so(cli, widget_factory_app):
    full = cli.ok("find", "--app", "gtk3-widget-factory", "--role", "button", "--limit", "0")
    for n in (1500, 3000, 6000):
        env, out = _line(cli, "--max-bytes", n, "find", "--app", "gtk3-widget-factory",
                         "--role", "button", "--limit", "0")
        assert len(out) <= n
        kept = env["data"]["matches"]
        assert len(kept) + env["data"]["budget"]["matches_cut"] == len(full["matches"])
        # The kept ones are the first ones, in the same order.
        assert [m["path"] for m in kept] == [m["path"] for m in full["matches"][:len(kept)]]
