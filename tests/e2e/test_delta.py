"""snapshot --since SNAPSHOT_ID (issue 13, item 1): what changed in the same window since
that snapshot, keyed by identity. Every effect is read independently: the labels and values
through pyatspi (atspi_observer.py), the fixture's own state line, the state root's files."""
import os
import re
import subprocess

import pytest

import atspi_observer as obs
from e2e_helpers import (canary, count_sent, expect_error, fixture_reset, refmap_path,
                         traced_lines, walk_tree)

FIXTURE = ["--app", "ad-fixture"]
CALC = ["--app", "gnome-calculator"]


def _snap(cli, *flags):
    return cli.ok("snapshot", *FIXTURE, "-i", "--compact", *flags)


def _since(cli, snapshot_id, *flags):
    return cli.ok("snapshot", "--since", snapshot_id, "-i", "--compact", *flags)


def _ref_of(tree, native_id):
    stack = [tree]
    while stack:
        n = stack.pop()
        if n.get("native_id", {}).get("value") == native_id:
            return n["ref_id"]
        stack.extend(n.get("children", []))
    raise AssertionError("no ref with native id %s" % native_id)


def _click_increment(cli, fixture_app, ref):
    before = fixture_app.state()["count"]
    cli.ok("click", ref)
    obs.wait_until(lambda: fixture_app.state()["count"] == before + 1, what="the increment")


def test_nothing_changed_says_unchanged_and_moves_latest(cli, fixture_app):
    fixture_reset(fixture_app)
    first = _snap(cli)
    canary(fixture_app)  # the app is idle: nothing else is on its way
    first = _snap(cli)
    data = _since(cli, first["snapshot_id"])
    assert data["unchanged"] is True, data
    assert "tree" not in data and "changed" not in data and "added" not in data
    assert data["since"] == first["snapshot_id"]
    assert data["snapshot_id"] != first["snapshot_id"]
    # The command saved a new snapshot, as a snapshot does: latest moved and its refs resolve.
    with open(os.path.join(cli.state_home, "latest_snapshot_id")) as f:
        assert f.read().strip() == data["snapshot_id"]
    assert os.path.exists(refmap_path(cli.state_home, data["snapshot_id"]))


def test_click_delta_names_exactly_the_changed_labels(cli, fixture_app):
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    _click_increment(cli, fixture_app, _ref_of(first["tree"], "inc_button"))
    data = _since(cli, first["snapshot_id"])
    assert data["unchanged"] is False and data["complete"] is True, data
    assert "added" not in data and "removed" not in data, data
    win = fixture_app.window()
    count = obs.by_id(win, "count_label").name
    status = obs.by_id(win, "status_label").name
    value = obs.text_of(obs.by_id(win, "count_value"))
    changed = {(c["role"], c.get("name"), tuple(c["changed"])) for c in data["changed"]
               if c["role"] == "statictext"}
    assert changed == {("statictext", count, ("name",)), ("statictext", status, ("name",))}
    fields = [c for c in data["changed"] if c["role"] != "statictext"]
    assert [(c.get("value"), c["changed"]) for c in fields] == [(value, ["value"])], fields
    # The changed field's new ref resolves, to the value pyatspi reads.
    got = cli.ok("get", fields[0]["ref_id"], "--property", "value")
    assert got["value"] == value


def test_refs_of_unchanged_nodes_keep_resolving_and_acting(cli, fixture_app):
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    _click_increment(cli, fixture_app, _ref_of(first["tree"], "inc_button"))
    _since(cli, first["snapshot_id"])
    # The old snapshot's ref to an unchanged button still acts, read by the fixture.
    _click_increment(cli, fixture_app, _ref_of(first["tree"], "inc_button"))
    feature = _ref_of(first["tree"], "feature_check")
    cli.ok("click", feature)
    obs.wait_until(lambda: obs.by_id(fixture_app.window(), "feature_label").name ==
                   "feature: on", what="the feature label")
    again = _since(cli, first["snapshot_id"])
    names = {c.get("name") for c in again["changed"]}
    assert "feature: on" in names


def test_added_and_removed_rows(cli, fixture_app):
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    win = fixture_app.window()
    rows = obs.by_id(win, "rows_box")
    obs.do_action(obs.by_id(win, "add_row_button"), "click")
    obs.wait_until(lambda: rows.childCount == 1, what="a row")
    data = _since(cli, first["snapshot_id"])
    added = [a for a in data.get("added", []) if a.get("role") == "button"]
    assert [a["name"] for a in added] == [rows.getChildAtIndex(0).name], data
    # The added row's new ref acts: the fixture reports the click.
    cli.ok("click", added[0]["ref_id"])
    obs.wait_until(lambda: fixture_app.state()["last_action"].startswith("clicked"),
                   what="the row click")
    second = _snap(cli)
    obs.do_action(obs.by_id(win, "remove_rows_button"), "click")
    obs.wait_until(lambda: rows.childCount == 0, what="the rows to go")
    data = _since(cli, second["snapshot_id"])
    removed = data.get("removed", [])
    assert [r.get("name") for r in removed if r["role"] == "button"] == [added[0]["name"]]
    assert removed[0]["ref_id"].startswith("@%s:" % second["snapshot_id"])
    code, env = cli.run("get", removed[0]["ref_id"])
    assert code == 1 and env["error"]["code"] == "STALE_REF", env


def test_incomplete_read_never_reports_removals(cli, fixture_app):
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    data = _since(cli, first["snapshot_id"], "--timeout-ms", "0")
    assert data["complete"] is False, data
    # Every node of the first snapshot is still live: a cut read proves no absence.
    assert "removed" not in data, data
    assert data.get("unproven_count", 0) > 0 or "tree" in data, data


def _entries(home):
    path = os.path.join(home, "snapshots")
    return sorted(os.listdir(path)) if os.path.isdir(path) else []


def _latest(home):
    with open(os.path.join(home, "latest_snapshot_id")) as f:
        return f.read()


def test_bad_and_unknown_ids_write_nothing(cli, fixture_app):
    _snap(cli)
    before, latest = _entries(cli.state_home), _latest(cli.state_home)
    expect_error(cli.run("snapshot", "--since", "not-an-id"), "INVALID_ARGS",
                 kind="since_invalid")
    expect_error(cli.run("snapshot", "--since", "s1unknown9"), "SNAPSHOT_NOT_FOUND",
                 kind="no_stored_read")
    first = _snap(cli)
    before, latest = _entries(cli.state_home), _latest(cli.state_home)
    expect_error(cli.run("snapshot", "--since", first["snapshot_id"], "--window-id", "w-0"),
                 "INVALID_ARGS", kind="since_other_window")
    expect_error(cli.run("snapshot", "--since", first["snapshot_id"], "--root",
                         _ref_of(first["tree"], "inc_button")), "INVALID_ARGS")
    assert _entries(cli.state_home) == before and _latest(cli.state_home) == latest


def test_calculator_delta_names_the_display(cli, calculator_app):
    first = cli.ok("snapshot", *CALC, "-i", "--compact")
    found = cli.ok("find", *CALC, "--role", "button", "--name", "7", "--first")
    display = [o for o in obs.walk(calculator_app.window())
               if o.role == "text" and "editable" in o.states]
    assert len(display) == 1
    before = obs.text_of(display[0].acc)
    cli.ok("click", found["match"]["ref_id"])
    obs.wait_until(lambda: obs.text_of(display[0].acc) != before, what="the display")
    data = cli.ok("snapshot", "--since", first["snapshot_id"], "-i", "--compact")
    now = obs.text_of(display[0].acc)
    values = [c for c in data.get("changed", []) if "value" in c["changed"]]
    assert [c.get("value") for c in values] == [now], data
    assert "removed" not in data


@pytest.mark.skipif(not os.environ.get("AD_BASELINE_BIN"),
                    reason="AD_BASELINE_BIN names main's binary to compare default output with")
def test_default_output_is_byte_for_byte_main(cli, fixture_app):
    base = os.environ["AD_BASELINE_BIN"]
    strip = lambda b: re.sub(rb"s[0-9a-z]{13}", b"sID", b)
    for cmd in (("snapshot",), ("snapshot", "-i", "--compact"),
                ("snapshot", "--skeleton", "-i", "--compact"), ("find", "--role", "button")):
        _, _, ours = cli.run_full(*cmd, *FIXTURE)
        theirs = subprocess.run([base, *cmd, *FIXTURE], capture_output=True,
                                env=cli.environment(None), timeout=60).stdout
        assert strip(ours.encode()) == strip(theirs), cmd


def test_find_since_lists_the_matches_that_changed(cli, fixture_app):
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    _click_increment(cli, fixture_app, _ref_of(first["tree"], "inc_button"))
    value = obs.text_of(obs.by_id(fixture_app.window(), "count_value"))
    data = cli.ok("find", *FIXTURE, "--role", "textfield", "--since", first["snapshot_id"])
    assert data["unchanged"] is False and "matches" not in data, data
    assert [(c["value"], c["changed"]) for c in data["changed"]] == [(value, ["value"])]
    assert cli.ok("get", data["changed"][0]["ref_id"], "--property", "value")["value"] == value
    # No button changed: the query's part of the delta is empty.
    buttons = cli.ok("find", *FIXTURE, "--role", "button", "--since", first["snapshot_id"])
    assert buttons["unchanged"] is True and buttons["total_matches"] > 0, buttons
    expect_error(cli.run("find", *FIXTURE, "--role", "button", "--since",
                         first["snapshot_id"], "--first"), "INVALID_ARGS", exit_code=1)


def test_find_since_chains_from_a_find_since(cli, fixture_app):
    """The id a find --since prints is the base of the next one: only what changed after it
    is listed (it failed before: a find stored no read, so its id was SNAPSHOT_NOT_FOUND)."""
    fixture_reset(fixture_app)
    canary(fixture_app)
    first = _snap(cli)
    inc = _ref_of(first["tree"], "inc_button")
    _click_increment(cli, fixture_app, inc)
    one = cli.ok("find", *FIXTURE, "--role", "textfield", "--since", first["snapshot_id"])
    assert one["changed"] and one["snapshot_id"] != first["snapshot_id"], one
    # Nothing changed since that find: the chained find says so.
    same = cli.ok("find", *FIXTURE, "--role", "textfield", "--since", one["snapshot_id"])
    assert same["unchanged"] is True, same
    _click_increment(cli, fixture_app, inc)
    value = obs.text_of(obs.by_id(fixture_app.window(), "count_value"))
    two = cli.ok("find", *FIXTURE, "--role", "textfield", "--since", one["snapshot_id"])
    assert [(c["value"], c["changed"]) for c in two["changed"]] == [(value, ["value"])], two
    assert cli.ok("get", two["changed"][0]["ref_id"], "--property", "value")["value"] == value
    # A snapshot --since chains from the find's id as well: the window is as the find read it.
    assert _since(cli, two["snapshot_id"])["unchanged"] is True


def test_a_fresh_gtk4_app_reads_the_same_twice(cli, fresh_gtk4_demo):
    """The first snapshot of a freshly started gtk4-demo finds most nodes missing from
    Cache.GetItems (GTK 4 builds accessibles on a client's first request), the second finds
    them all there. Both must show the same nodes. The read of a node missing from the cache
    used to decide whether to read a text element's text before the element's name had come
    back, so the first snapshot showed 124 labels' names again as their values, and
    `snapshot --since` it reported every one of them as changed."""
    _, window_id = fresh_gtk4_demo
    envelope, lines = traced_lines(cli, "sendmsg,writev", "snapshot", "--window-id", window_id)
    assert envelope["ok"], envelope["error"]
    # The first read was a cold one (else it would prove nothing): most nodes by index.
    assert count_sent(lines, "GetChildAtIndex") > 100
    first = envelope["data"]
    echoed = [n for _, n in walk_tree(first["tree"])
              if n.get("role") == "statictext" and "name" in n and n.get("value") == n["name"]]
    assert not echoed, echoed[:3]
    delta = cli.ok("snapshot", "--window-id", window_id, "--since", first["snapshot_id"])
    values = [c for c in delta.get("changed", []) if "value" in c["changed"]]
    assert not values, values[:3]
