"""--observe on the ref actions and press (issue 13.3): the acted window's delta between just
before dispatch and the settle, with the app's AT-SPI events as evidence under details.

Every delta is checked against an independent read: pyatspi (atspi_observer) for the names,
values and states it reports, the fixture's own state line for what the app did. An absence
("unchanged") is checked after the app proved, through its state line, that it handled the
click; nothing here sleeps to prove that nothing happened."""
import json
import subprocess
import sys

import pytest

import atspi_observer as obs
from action_helpers import (UNVERIFIED, VERIFIED, ensure_fixture_active, expect_count,
                            need_state, ref, unchanged, wait_state)
from e2e_helpers import expect_error, fixture_reset
from test_actions import _calc_display, _clear_button, _seven_button  # the quick start's

@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def _changed(data):
    """{(role, name): sorted changed fields} of data.changes, which must hold changes only."""
    ch = data["changes"]
    assert ch["complete"] is True and ch["unchanged"] is False, ch
    assert "added" not in ch and "removed" not in ch, ch
    return {(c["role"], c.get("name")): sorted(c["changed"]) for c in ch["changed"]}, ch


def _sources(data):
    """[(role, name)] of details.events' groups. None of them is a node data.changes lists as
    added or changed: those events are counted in details.events_explained, not listed."""
    ch = data["changes"]
    listed = {(c["role"], c.get("name")) for k in ("added", "changed") for c in ch.get(k, [])}
    out = []
    for e in data["details"]["events"]:
        assert "path" not in e, e
        src = (e.get("role"), e.get("name"))
        assert src not in listed, (e, ch)
        out.append(src)
    return out


def _explained(data):
    """details.events_explained: events whose source is an entry of data.changes."""
    d = data["details"]
    n = d.get("events_explained", 0)
    assert 0 <= n <= d["events_count"], d
    return n


def _entry(ch, role, name):
    found = [c for c in ch["changed"] if c["role"] == role and c.get("name") == name]
    assert len(found) == 1, ch
    return found[0]


def _status(window):
    return obs.by_id(window, "status_label").name


def test_click_observe_names_exactly_the_changed_label(cli, fixture_app):
    before = need_state(fixture_app)
    data = cli.ok("click", ref(cli, "inc_button"), "--observe")
    after = expect_count(fixture_app, before["count"] + 1)
    window = fixture_app.window()
    label = obs.by_id(window, "count_label").name  # pyatspi: "count: N"
    assert label == "count: %d" % after["count"]
    changed, ch = _changed(data)
    # The counter label (renamed), the Count value entry and the status line: nothing else.
    assert changed == {("statictext", label): ["name"],
                       ("textfield", "Count value"): ["value"],
                       ("statictext", _status(window)): ["name"]}, ch
    assert _entry(ch, "textfield", "Count value")["value"] == \
        obs.text_of(obs.by_id(window, "count_value"))
    assert ch["settled"] in ("quiet", "max_wait")
    # Events the app sent, yet no read can confirm a click: it stays delivered_unverified.
    assert data["disposition"] == UNVERIFIED
    # The label's own events are explained by its change entry: counted, not listed again.
    events = data["details"]["events"]
    assert _explained(data) > 0, data["details"]
    assert ("statictext", label) not in _sources(data), events
    assert data["details"]["events_count"] >= len(events) + _explained(data)


def test_toggle_observe_reports_the_checked_state(cli, fixture_app):
    window = fixture_app.window()
    assert "checked" not in obs.state_names(obs.by_id(window, "feature_check"))
    data = cli.ok("toggle", ref(cli, "feature_check"), "--observe")
    assert data["disposition"] == VERIFIED
    wait_state(fixture_app, lambda s: s.get("feature") is True or s.get("last_action") ==
               "feature on", "the feature to turn on")
    window = fixture_app.window()
    assert "checked" in obs.state_names(obs.by_id(window, "feature_check"))
    changed, ch = _changed(data)
    assert changed[("checkbox", "Enable feature")] == ["states"], ch
    assert "checked" in _entry(ch, "checkbox", "Enable feature")["states"]
    new_ref = _entry(ch, "checkbox", "Enable feature")["ref_id"]
    assert new_ref.startswith("@%s:e" % ch["snapshot_id"]), ch
    assert "checked" in json.dumps(cli.ok("get", new_ref, "--property", "states"))
    feature_label = obs.by_id(window, "feature_label").name
    assert feature_label == "feature: on"
    assert changed[("statictext", feature_label)] == ["name"], ch
    # state-changed:checked=true came from the checkbox, a change entry: counted only.
    assert _explained(data) > 0, data["details"]
    assert all(src[0] != "checkbox" for src in _sources(data)), data["details"]["events"]


def test_click_that_changes_nothing_says_unchanged(cli, fixture_app):
    deep = ref(cli, "deep_button")
    first = need_state(fixture_app)["deep_clicks"]
    cli.ok("click", deep)  # the status line now reads "last action: deep"
    wait_state(fixture_app, lambda s: s["deep_clicks"] == first + 1, "the first deep click")
    status = _status(fixture_app.window())
    data = cli.ok("click", deep, "--observe")
    # The app handled this click (its own count), and the window shows the same as before.
    wait_state(fixture_app, lambda s: s["deep_clicks"] == first + 2, "the second deep click")
    assert data["changes"]["unchanged"] is True, data["changes"]
    assert data["changes"]["complete"] is True
    assert "changed" not in data["changes"] and "added" not in data["changes"]
    assert "snapshot_id" not in data["changes"]  # nothing new: no snapshot saved
    assert _status(fixture_app.window()) == status
    assert data["disposition"] == UNVERIFIED


def test_without_observe_the_output_is_the_same(cli, fixture_app):
    data = cli.ok("click", ref(cli, "inc_button"))
    assert "changes" not in data
    assert set(data["details"]) == {"auto_wait"}


def test_type_with_stdin_hides_the_value(cli, fixture_app):
    name = ref(cli, "name_entry")
    p = subprocess.run([cli.binary, "type", name, "--stdin", "--observe"], input="Ada-secret",
                       capture_output=True, text=True, env=cli.environment(), timeout=60)
    out = json.loads(p.stdout)
    assert out["ok"], out
    wait_state(fixture_app, lambda s: s["name"] == "Ada-secret", "the name to be typed")
    assert "Ada-secret" not in p.stdout
    changed = {(c["role"], c.get("name")): c for c in out["data"]["changes"]["changed"]}
    assert changed[("textfield", "Name")]["changed"] == ["value"]
    assert "value" not in changed[("textfield", "Name")]


def test_press_observe(cli, fixture_app):
    """Space on the focused Increment button: the keys' effect in the delta, read back by
    pyatspi; press is always delivered_unverified."""
    ensure_fixture_active(fixture_app)
    before = need_state(fixture_app)
    window = fixture_app.window()
    if "focused" not in obs.state_names(obs.by_id(window, "inc_button")):
        pytest.skip("the Increment button does not hold the keyboard focus")
    data = cli.ok("press", "space", "--app", "ad-fixture", "--observe")
    after = expect_count(fixture_app, before["count"] + 1)
    label = obs.by_id(fixture_app.window(), "count_label").name
    assert label == "count: %d" % after["count"]
    changed, ch = _changed(data)
    assert changed[("statictext", label)] == ["name"], ch
    assert data["disposition"] == UNVERIFIED


def test_observe_under_load(cli, fixture_app):
    """Two busy processes on the two cores: the delta still names the label the click
    changed (the settle waits for quiet, bounded; no timing is asserted)."""
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]
    try:
        before = need_state(fixture_app)
        data = cli.ok("click", ref(cli, "inc_button"), "--observe")
        after = expect_count(fixture_app, before["count"] + 1)
    finally:
        for h in hogs:
            h.kill()
            h.wait()
    label = obs.by_id(fixture_app.window(), "count_label").name
    assert label == "count: %d" % after["count"]
    ch = data["changes"]
    if ch["settled"] == "max_wait" and "unchanged" not in ch:
        pytest.fail("the settle ran out without a complete delta: %r" % ch)
    changed, ch = _changed(data)
    assert changed[("statictext", label)] == ["name"], ch


def test_observe_where_not_supported_is_refused_before_the_desktop(cli, fixture_app):
    before = need_state(fixture_app)
    expect_error(cli.run("snapshot", "--app", "ad-fixture", "--observe"), "INVALID_ARGS",
                 exit_code=2)
    batch = json.dumps([{"command": "find", "args": {"app": "ad-fixture", "observe": True}},
                        {"command": "click", "args": {"ref_id": ref(cli, "inc_button")}}])
    code, env = cli.run("batch", batch)
    assert env["ok"] is False and env["error"]["code"] == "INVALID_ARGS", env
    assert env["error"]["details"]["argument"] == "observe" or "observe" in \
        env["error"]["message"], env
    e = expect_error(cli.run("type", ref(cli, "name_entry"), "x", "--interval-ms", "5",
                             "--observe"), "INVALID_ARGS")
    assert "--interval-ms" in e["suggestion"]
    # Neither the refused batch's click nor the refused type ran: once the canary shows the
    # app handled everything sent before it, its state is what it was.
    unchanged(fixture_app, before)


# ---- GTK 4 -------------------------------------------------------------------------------


def _calc_display_text(calculator_app):
    return obs.text_of(_calc_display(calculator_app))


def test_gtk4_calculator_click_observe(cli, calculator_app):
    clear = _clear_button(cli)
    if _calc_display_text(calculator_app) != "":
        cli.ok("click", clear)
        obs.wait_until(lambda: _calc_display_text(calculator_app) == "",
                       what="an empty display")
    try:
        data = cli.ok("click", _seven_button(cli), "--observe")
        obs.wait_until(lambda: _calc_display_text(calculator_app) == "7",
                       what="7 on the display")
        assert data["disposition"] == UNVERIFIED
        ch = data["changes"]
        assert ch["unchanged"] is False, ch
        shown = [c for c in ch.get("changed", []) if c.get("value") == "7"]
        shown += [a for a in ch.get("added", []) if a.get("value") == "7"]
        assert shown, ch  # the display's new text, as pyatspi reads it
        assert "events" in data["details"]  # GTK 4.8 emits without registration
    finally:
        cli.ok("click", clear)
        obs.wait_until(lambda: _calc_display_text(calculator_app) == "",
                       what="the display to clear")


def test_batch_observes_each_entrys_own_app(cli, fixture_app, calculator_app):
    """A batch is one process: its first entry arms the event watch on the calculator, the
    second acts on the fixture. The fixture's own events are its evidence (before, the watch
    stayed on the calculator and the fixture's click listed none)."""
    before = need_state(fixture_app)
    clear = _clear_button(cli)
    batch = json.dumps([{"command": "click", "args": {"ref_id": clear, "observe": True}},
                        {"command": "click", "args": {"ref_id": ref(cli, "inc_button"),
                                                      "observe": True}}])
    env = cli.ok("batch", batch)
    after = expect_count(fixture_app, before["count"] + 1)
    label = obs.by_id(fixture_app.window(), "count_label").name
    assert label == "count: %d" % after["count"]
    second = env["results"][1]
    assert second["ok"], second
    # The fixture's events were seen: its changed label explains some of them.
    assert _explained(second["data"]) > 0, second["data"]["details"]
    _sources(second["data"])


def test_added_node_carries_a_ref_that_acts(cli, fixture_app):
    """An action that adds a node saves the window it left as a snapshot: the added row shows
    with a ref of changes.snapshot_id, and that ref clicks the row with no read in between.
    The new snapshot is a plain one: snapshot --since can start from it."""
    window = fixture_app.window()
    rows = obs.by_id(window, "rows_box")
    assert rows.childCount == 0
    data = cli.ok("click", ref(cli, "add_row_button"), "--observe")
    obs.wait_until(lambda: rows.childCount == 1, what="a row")
    row_name = rows.getChildAtIndex(0).name  # pyatspi: "Row N"
    ch = data["changes"]
    sid = ch["snapshot_id"]
    added = [a for a in ch.get("added", []) if a.get("role") == "button"]
    assert [a["name"] for a in added] == [row_name], ch
    assert added[0]["ref_id"].startswith("@%s:e" % sid), added
    cli.ok("click", added[0]["ref_id"])
    wait_state(fixture_app, lambda s: s.get("last_action") == "clicked " + row_name,
               "the row click")
    again = cli.ok("snapshot", "--since", sid)
    assert again["since"] == sid, again

