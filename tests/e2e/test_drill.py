"""Skeletons and --root drill-downs (skeleton-and-drill-down.md, src/core/present.c's drill
target rule with anchors)."""
import os
import secrets

import pytest

import atspi_observer as obs
from e2e_helpers import (add_rows, expect_error, find_node, fixture_reset, load_refmap,
                         native_id, nodes, ref_number, refmap_path, refs_in_order, remove_rows)


@pytest.fixture(autouse=True)
def _clean_fixture(fixture_app):
    fixture_reset(fixture_app)


def skeleton(cli, app):
    data = cli.ok("snapshot", "--app", app, "--skeleton")
    assert data["complete"] is True
    return data


def cut_nodes(tree):
    """(path, node, ancestors) of every node a depth cut marked with children_count."""
    out = []

    def visit(n, path, chain):
        if "children_count" in n:
            out.append((path, n, chain))
        for i, c in enumerate(n.get("children", [])):
            visit(c, path + (i,), chain + [n])

    visit(tree, (), [])
    return out


def entry_of(refmap, ref_id):
    return refmap["refs"]["@e%d" % ref_number(ref_id)[1]]


def same_element(a, b):
    return (a["role"], a.get("name"), native_id(a), a.get("description")) == \
        (b["role"], b.get("name"), native_id(b), b.get("description"))


@pytest.mark.parametrize("app_fixture,app", [("fixture_app", "ad-fixture"),
                                             ("calculator_app", "gnome-calculator")])
def test_every_cut_node_can_be_drilled(request, cli, state_home, app_fixture, app):
    request.getfixturevalue(app_fixture)
    first = skeleton(cli, app)
    cuts = cut_nodes(first["tree"])
    assert cuts, "a skeleton of %s cuts nothing" % app
    drilled = 0
    for index in range(len(cuts)):
        # A fresh skeleton per cut: a drill replaces the refs of its region.
        data = skeleton(cli, app) if index else first
        path, node, chain = cut_nodes(data["tree"])[index]
        refmap = load_refmap(state_home, data["snapshot_id"])
        # The deepest ref'd node on the path that resolves uniquely is the drill target; the
        # window root never is one (present.c rules 1-4).
        target = None
        if "ref_id" in node:
            if entry_of(refmap, node["ref_id"])["unique_at_capture"]:
                target = node
            else:
                # A ref'd cut node that is not unique cannot be drilled by its own ref...
                expect_error(cli.run("snapshot", "--root", node["ref_id"]),
                             "AMBIGUOUS_TARGET", kind="identity_not_unique")
        if target is None:
            # ...so an ancestor covers it.
            covering = [a for a in chain[1:] if "ref_id" in a
                        and entry_of(refmap, a["ref_id"])["unique_at_capture"]]
            assert covering, "cut node %r at %r has no drillable ref on its path" % (
                {k: node.get(k) for k in ("role", "name")}, path)
            target = covering[-1]
        out = cli.ok("snapshot", "--root", target["ref_id"])
        assert out["snapshot_id"] == data["snapshot_id"]
        assert out["complete"] is True
        assert same_element(out["tree"], target)
        # The cut node appears in the drill with its children read.
        if target is node:
            shown = out["tree"]
        else:
            shown = next((n for n in nodes(out["tree"])
                          if same_element(n, node) and "children_count" not in n), None)
            assert shown is not None, "drill of %s does not show the cut node" % target["ref_id"]
        assert len(shown.get("children", [])) == node["children_count"]
        drilled += 1
    assert drilled == len(cuts)


def test_drill_refs_continue_the_counter(cli, state_home, fixture_app):
    data = skeleton(cli, "ad-fixture")
    sid = data["snapshot_id"]
    n = data["ref_count"]
    assert refs_in_order(data["tree"]) == ["@%s:e%d" % (sid, i) for i in range(1, n + 1)]
    assert load_refmap(state_home, sid)["next_ref"] == n + 1
    target = find_node(data["tree"], native_id="entry_row")  # the Credentials row
    out = cli.ok("snapshot", "--root", target["ref_id"])
    new = refs_in_order(out["tree"])
    assert len(new) == 2  # the name and password entries
    assert new == ["@%s:e%d" % (sid, i) for i in range(n + 1, n + 1 + len(new))]
    assert out["snapshot_id"] == sid
    assert "ref_id" not in out["tree"]  # the drilled root keeps its own ref, not a new one
    # ref_count counts the whole snapshot, not the drilled region.
    refmap = load_refmap(state_home, sid)
    assert out["ref_count"] == n + len(new) == len(refmap["refs"])
    assert refmap["next_ref"] == n + len(new) + 1
    # The drill's refs resolve to the live entries.
    win = fixture_app.window()
    for ref, wanted in zip(new, ("name_entry", "password_entry")):
        assert cli.ok("get", ref, "--property", "title")["value"] == \
            obs.by_id(win, wanted).name


def test_redrill_replaces_the_region(cli, state_home, fixture_app):
    data = skeleton(cli, "ad-fixture")
    sid = data["snapshot_id"]
    counter = find_node(data["tree"], native_id="counter_row")
    feature = find_node(data["tree"], native_id="feature_row")
    first = cli.ok("snapshot", "--root", counter["ref_id"])
    inc_first = find_node(first["tree"], native_id="inc_button")["ref_id"]
    second = cli.ok("snapshot", "--root", counter["ref_id"])
    inc_second = find_node(second["tree"], native_id="inc_button")["ref_id"]
    assert ref_number(inc_second)[1] > ref_number(inc_first)[1]  # numbers are never reused
    assert second["ref_count"] == first["ref_count"]
    assert "@e%d" % ref_number(inc_first)[1] not in load_refmap(state_home, sid)["refs"]
    err = expect_error(cli.run("get", inc_first), "STALE_REF")
    assert err["recovery"]["strategy"] == "refresh_snapshot_then_retry_original"
    assert cli.ok("get", inc_second, "--property", "title")["value"] == "Increment"
    # The drilled root and refs outside the region survive.
    assert cli.ok("get", counter["ref_id"], "--property", "title")["value"] == "Counter"
    assert cli.ok("get", feature["ref_id"], "--property", "title")["value"] == "Feature"


def test_redrill_shows_changed_content(cli, state_home, fixture_app):
    win = fixture_app.window()
    assert add_rows(win, 1) == ["Row 1"]
    data = skeleton(cli, "ad-fixture")
    rows = find_node(data["tree"], native_id="rows_box")
    assert rows["children_count"] == 1 and "ref_id" in rows
    first = cli.ok("snapshot", "--root", rows["ref_id"])
    assert [c.get("name") for c in first["tree"]["children"]] == ["Row 1"]
    old_row1 = first["tree"]["children"][0]["ref_id"]
    # The app changes behind our back (pyatspi clicks "Add row"), then the region is re-read.
    live = add_rows(win, 1)
    assert live == ["Row 1", "Row 2"]
    second = cli.ok("snapshot", "--root", rows["ref_id"])
    kids = second["tree"]["children"]
    assert [c.get("name") for c in kids] == live
    assert [native_id(c) for c in kids] == ["row_1", "row_2"]
    assert all(c["role"] == "button" and "ref_id" in c for c in kids)
    expect_error(cli.run("get", old_row1), "STALE_REF")
    assert cli.ok("get", kids[1]["ref_id"], "--property", "title")["value"] == "Row 2"
    remove_rows(win)


def test_drill_timeout_saves_nothing(cli, state_home, fixture_app):
    data = skeleton(cli, "ad-fixture")
    target = find_node(data["tree"], native_id="counter_row")
    path = refmap_path(state_home, data["snapshot_id"])
    with open(path, "rb") as f:
        before = f.read()
    code, env = cli.run("snapshot", "--root", target["ref_id"], "--timeout-ms", "1")
    with open(path, "rb") as f:
        assert f.read() == before, "a failed drill changed the saved snapshot"
    assert not env["ok"], env
    err = expect_error((code, env), "TIMEOUT", kind="deadline")
    assert err["details"]["timeout_ms"] == 1
    assert err["recovery"]["strategy"] == "inspect_state_then_retry_original"
    assert err["recovery"]["retry_after_ms"] == 250


def test_root_cannot_combine_with_surface(cli, fixture_app):
    data = skeleton(cli, "ad-fixture")
    ref = find_node(data["tree"], native_id="counter_row")["ref_id"]
    err = expect_error(cli.run("snapshot", "--root", ref, "--surface", "menu"), "INVALID_ARGS")
    assert "--surface" in err["message"]
    # The default surface, spelled out, is allowed.
    assert cli.ok("snapshot", "--root", ref, "--surface", "window")["tree"]["name"] == "Counter"


def test_root_in_a_missing_snapshot(cli, state_home):
    sid = "s" + "".join(secrets.choice("abcdefghijklmnopqrstuvwxyz0123456789")
                        for _ in range(13))
    for missing in ("sxyz", sid):
        assert not os.path.exists(refmap_path(state_home, missing))
        err = expect_error(cli.run("snapshot", "--root", "@%s:e1" % missing),
                           "SNAPSHOT_NOT_FOUND")
        assert err["recovery"] == {"strategy": "refresh_snapshot_then_retry_original",
                                   "retryable": True, "requires_fresh_snapshot": True}
        assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
        assert missing in err["message"]
