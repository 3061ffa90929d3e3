"""The ref actions against ad-fixture, GNOME Calculator and GTK Widget Factory
(commands/interaction.md, commands/scroll.md, errors-and-recovery.md, json-output.md).

Each effect is verified through an independent read: the fixture's state line
(AD_FIXTURE_STATE_FILE) or pyatspi; `ok: true` alone proves nothing."""
import json
import os
import time

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_PASSWORD, NOT_DELIVERED, UNVERIFIED, VERIFIED,
                            check_auto_wait, expect_count, have_xdotool,
                            live_count, need_state, ref, run_piped,
                            scroll_value, semantic_step, set_scroll_value, unchanged,
                            wait_state, activate, FIXTURE_TITLE)
from e2e_helpers import (BARE_REF_SUGGESTION, check_envelope, expect_error, fixture_reset,
                         fruits_cell, nodes, screen_extents)

CALC = ["--app", "gnome-calculator"]


@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    """Every test starts from the fixture's start state and leaves it there."""
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


# ---- click -------------------------------------------------------------------------------


def test_click_increments_once(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    window = fixture_app.window()
    assert live_count(window) == (before["count"], str(before["count"]))
    inc = ref(cli, "inc_button")
    data = cli.ok("click", inc)
    assert data["action"] == "click"
    assert data["disposition"] == UNVERIFIED  # a click proves nothing by itself
    assert data["steps"] == [semantic_step("Action.DoAction")]
    assert "post_state" not in data
    # surfaces: the fixture's one window, as list-windows and pyatspi see it.
    shown = obs.windows_of(obs.app_for_pid(fixture_app.pid))
    assert [w.name for w in shown] == [FIXTURE_TITLE]
    assert data["surfaces"] == [{"id": fixture_window_id, "title": FIXTURE_TITLE,
                                 "type": "window"}]
    check_auto_wait(data["details"], contention=0)
    # Exactly one increment, in the app's own state and in the live tree.
    after = expect_count(fixture_app, before["count"] + 1)
    assert after["last_action"] == "increment"
    obs.wait_until(lambda: live_count(window) == (after["count"], str(after["count"])),
                   what="the count label and Count value to update")


def test_click_timeout_zero_tries_once(cli, fixture_app):
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    data = cli.ok("click", inc, "--timeout-ms", "0")
    assert data["disposition"] == UNVERIFIED
    aw = check_auto_wait(data["details"])
    assert aw["read_only_preflight_attempts"] == 1  # no polling
    expect_count(fixture_app, before["count"] + 1)


# ---- check, uncheck, toggle --------------------------------------------------------------


def _feature(fixture_app):
    window = fixture_app.window()
    return ("checked" in obs.state_names(obs.by_id(window, "feature_check")),
            obs.by_id(window, "feature_label").name)


def _expect_checkbox_report(data, action, checked):
    assert data["action"] == action
    assert data["disposition"] == VERIFIED
    assert data["details"]["verification_scope"] == "element_state"
    ps = data["post_state"]
    assert ps["role"] == "checkbox" and ps["enabled"] is True
    assert ("checked" in ps["states"]) is checked
    assert data["steps"] == [semantic_step("Action.DoAction", verified=True)]
    check_auto_wait(data["details"])
    assert "surfaces" not in data  # check/uncheck/toggle do not report surfaces


def test_check_uncheck_toggle(cli, fixture_app):
    need_state(fixture_app)
    assert _feature(fixture_app) == (False, "feature: off")
    box = ref(cli, "feature_check")

    _expect_checkbox_report(cli.ok("check", box), "check", True)
    wait_state(fixture_app, lambda s: s["feature"] is True, "feature on")
    assert _feature(fixture_app) == (True, "feature: on")

    _expect_checkbox_report(cli.ok("uncheck", box), "uncheck", False)
    wait_state(fixture_app, lambda s: s["feature"] is False, "feature off")
    assert _feature(fixture_app) == (False, "feature: off")

    _expect_checkbox_report(cli.ok("toggle", box), "toggle", True)
    wait_state(fixture_app, lambda s: s["feature"] is True, "feature on after toggle")
    assert _feature(fixture_app) == (True, "feature: on")
    _expect_checkbox_report(cli.ok("toggle", box), "toggle", False)
    state = wait_state(fixture_app, lambda s: s["feature"] is False, "feature off after toggle")
    assert state["last_action"] == "feature off"
    assert _feature(fixture_app) == (False, "feature: off")


@pytest.mark.parametrize("action,start_checked", [("check", True), ("uncheck", False)])
def test_already_satisfied_is_not_delivered(cli, fixture_app, action, start_checked):
    need_state(fixture_app)
    box = obs.by_id(fixture_app.window(), "feature_check")
    if start_checked:
        obs.do_action(box, "click")
        wait_state(fixture_app, lambda s: s["feature"] is True, "feature on")
    before = fixture_app.state()
    data = cli.ok(action, ref(cli, "feature_check"))
    assert data["disposition"] == NOT_DELIVERED
    assert data["steps"] == [semantic_step("Action.DoAction", outcome="skipped", verified=True)]
    assert data["details"]["verification_scope"] == "element_state"
    assert ("checked" in data["post_state"]["states"]) is start_checked
    aw = check_auto_wait(data["details"], contention=0)
    assert aw["lease_hold_ms"] == 0  # nothing was dispatched, so the lease was never taken
    unchanged(fixture_app, before)  # no toggled signal, no state write
    assert _feature(fixture_app)[0] is start_checked


# ---- set-value, clear, type --------------------------------------------------------------


def _value_report(data, action, label, value):
    assert data["action"] == action
    assert data["disposition"] == VERIFIED
    assert data["details"]["verification_scope"] == "element_value"
    assert data["details"]["application_commit"] == "not_verified"
    assert data["post_state"]["role"] == "textfield"
    assert data["post_state"]["value"] == value
    assert data["steps"] == [semantic_step(label, verified=True)]


def test_set_value_clear_and_type_at_caret(cli, fixture_app):
    need_state(fixture_app)
    entry = obs.by_id(fixture_app.window(), "name_entry")
    name = ref(cli, "name_entry")

    _value_report(cli.ok("set-value", name, "hello"), "set-value",
                  "EditableText.SetTextContents", "hello")
    wait_state(fixture_app, lambda s: s["name"] == "hello", "name hello")
    assert obs.text_of(entry) == "hello"

    # type inserts at the caret, wherever pyatspi put it; it does not replace.
    assert entry.queryText().setCaretOffset(2)
    obs.wait_until(lambda: entry.queryText().caretOffset == 2, what="the caret at 2")
    _value_report(cli.ok("type", name, "XY"), "type", "EditableText.InsertText", "heXYllo")
    wait_state(fixture_app, lambda s: s["name"] == "heXYllo", "name heXYllo")
    assert obs.text_of(entry) == "heXYllo"

    _value_report(cli.ok("clear", name), "clear", "EditableText.SetTextContents", "")
    wait_state(fixture_app, lambda s: s["name"] == "", "an empty name")
    assert obs.text_of(entry) == ""



@pytest.mark.parametrize("action,value", [("set-value", "hello"), ("clear", None)])
def test_value_already_held_is_not_delivered(cli, fixture_app, action, value):
    """observe-act-verify.md: a field that already holds the value gets nothing; the
    fixture counts every "changed" signal of the entry (name_changes)."""
    need_state(fixture_app)
    entry = obs.by_id(fixture_app.window(), "name_entry")
    if value:
        obs.set_text(entry, value)
        wait_state(fixture_app, lambda s: s["name"] == value, "the name to be set")
    before = fixture_app.state()
    argv = [action, ref(cli, "name_entry")] + ([value] if value else [])
    data = cli.ok(*argv)
    assert data["disposition"] == NOT_DELIVERED
    assert data["steps"] == [semantic_step("EditableText.SetTextContents", outcome="skipped",
                                           verified=True)]
    assert data["post_state"]["value"] == (value or "")
    assert check_auto_wait(data["details"])["lease_hold_ms"] == 0
    # Canary: an increment lands after anything the command could have sent.
    cli.ok("click", ref(cli, "inc_button"))
    after = wait_state(fixture_app, lambda s: s["count"] == before["count"] + 1, "the canary")
    assert after["name_changes"] == before["name_changes"], (before, after)
    assert after["name"] == (value or "") and obs.text_of(entry) == (value or "")

def test_type_text_starting_with_a_hyphen(cli, fixture_app):
    need_state(fixture_app)
    name = ref(cli, "name_entry")
    _value_report(cli.ok("type", name, "--", "-first"), "type", "EditableText.InsertText",
                  "-first")
    wait_state(fixture_app, lambda s: s["name"] == "-first", "the text after --")
    code, env = cli.run("type", name, "-dash")
    assert env["ok"], env
    # type inserts at the caret; after the previous insertion GTK leaves the caret at its end
    # or (for an unfocused entry) at the start, so either order is an insertion.
    value = env["data"]["post_state"]["value"]
    assert value in ("-first-dash", "-dash-first"), value
    wait_state(fixture_app, lambda s: s["name"] == value, "the hyphenated text")


def test_type_stdin_with_printf(cli, fixture_app):
    need_state(fixture_app)
    name = ref(cli, "name_entry")
    before = fixture_app.state()
    code, env, out, err = run_piped(cli, "printf '%s' 'from a pipe'", "type", name, "--stdin")
    assert env["ok"], env
    data = env["data"]
    assert data["disposition"] == VERIFIED
    # --stdin omits observed values from the result.
    assert "value" not in data["post_state"]
    assert "from a pipe" not in out and "from a pipe" not in err
    state = wait_state(fixture_app, lambda s: s["name"] == "from a pipe", "the piped text")
    assert state["name_changes"] == before["name_changes"] + 1  # one insertion
    # A literal "--stdin" goes after --.
    cli.ok("clear", name)
    data = cli.ok("type", name, "--", "--stdin")
    assert data["post_state"]["value"] == "--stdin"
    wait_state(fixture_app, lambda s: s["name"] == "--stdin", "the literal --stdin")


def test_type_empty_stdin_into_empty_field(cli, fixture_app):
    before = need_state(fixture_app)
    assert before["name"] == ""
    name = ref(cli, "name_entry")
    code, env, out, err = run_piped(cli, "printf ''", "type", name, "--stdin")
    unchanged(fixture_app, before)
    assert env["ok"], env
    assert env["data"]["disposition"]["delivery"] in ("delivered_verified", "not_delivered")


def _drawn_value_scale(widget_factory_app):
    """gtk3-widget-factory's scale that draws its value: pyatspi reads its Description as
    that text ("50.0" for Value 50)."""
    found = []
    for o in obs.walk(widget_factory_app.window()):
        if o.role != "slider" or "enabled" not in o.states:
            continue
        try:
            shown = float(o.acc.description)
        except ValueError:
            continue
        if abs(shown - o.acc.queryValue().currentValue) < 0.05:
            found.append(o.acc)
    assert len(found) == 1, found
    return found[0]


def test_set_value_on_a_slider_that_describes_its_value(cli, widget_factory_app):
    """Regression (issue 7 item 11): the description changed with the value, the ref went
    stale (saved_ref_absent) and set-value ended delivered_unverified without post_state."""
    scale = _drawn_value_scale(widget_factory_app)
    value = scale.queryValue()
    start = value.currentValue
    target = 42.0 if abs(start - 42.0) > 0.5 else 37.0
    snap = cli.ok("snapshot", "--app", "gtk3-widget-factory", "-i")
    mine = [n for n in nodes(snap["tree"]) if n["role"] == "slider"
            and n.get("description") == scale.description]
    assert len(mine) == 1, mine
    try:
        data = cli.ok("set-value", mine[0]["ref_id"], "%g" % target)
        assert data["disposition"] == VERIFIED, data
        assert data["details"]["verification_scope"] == "element_value"
        assert data["post_state"]["role"] == "slider"
        assert float(data["post_state"]["value"]) == target
        assert data["steps"][0]["verified"] is True
        # pyatspi: the value moved and the description followed it.
        obs.wait_until(lambda: abs(value.currentValue - target) < 0.01, what="the new value")
        assert abs(float(scale.description) - target) < 0.05
        # The same ref still resolves: the description that shows the value is state.
        got = cli.ok("get", mine[0]["ref_id"], "--property", "value")
        assert float(got["value"]) == target
    finally:
        value.currentValue = start


def test_set_value_secret_is_never_echoed(cli, state_home, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    pw = obs.by_id(window, "password_entry")
    assert pw.getRoleName() == "password text"
    secrets = ["Zebra-s3cret-%d-argv" % os.getpid(), "Zebra-s3cret-%d-pipe" % os.getpid()]
    pw_ref = ref(cli, "password_entry")
    p = cli.raw("set-value", pw_ref, secrets[0])
    runs = [(secrets[0], check_envelope(p.stdout, p.stderr, p.returncode), p.stdout, p.stderr)]
    code, env, out, err = run_piped(cli, "printf '%%s' '%s'" % secrets[1], "set-value", pw_ref,
                                    "--stdin")
    runs.append((secrets[1], env, out, err))
    for secret, env, out, err in runs:
        assert secret not in out and secret not in err
        assert env["ok"], env
        data = env["data"]
        assert data["disposition"] == UNVERIFIED
        assert data["details"]["verification_scope"] == "unavailable"
        assert data["details"]["verification_reason"] == "secure_field"
        assert "value" not in data["post_state"]
        assert "secure" in data["post_state"]["states"]
        assert data["steps"] == [semantic_step("EditableText.SetTextContents", verified=False)]
        # The write landed: the app holds a password of that length.
        wait_state(fixture_app, lambda s, n=len(secret): s["password_length"] == n,
                   "password length %d" % len(secret))
    # Nothing under the state root holds either secret.
    for dirpath, _, files in os.walk(state_home):
        for f in files:
            path = os.path.join(dirpath, f)
            with open(path, "rb") as fh:
                content = fh.read()
            for secret in secrets:
                assert secret.encode() not in content, "%s holds the secret" % path
    # Back to the start password, through pyatspi.
    obs.set_text(pw, FIXTURE_PASSWORD)
    wait_state(fixture_app, lambda s: s["password_length"] == len(FIXTURE_PASSWORD),
               "the start password")


def test_type_interval_counts_keystrokes(cli, fixture_app):
    before = need_state(fixture_app)
    name = ref(cli, "name_entry")
    # a, e + combining acute, b, thumbs up + skin tone, z: five keystrokes.
    text = "ae\u0301b\U0001F44D\U0001F3FDz"
    t0 = time.monotonic()
    data = cli.ok("type", name, text, "--interval-ms", "60")
    elapsed = time.monotonic() - t0
    assert data["keystrokes"] == 5 and data["interval_ms"] == 60
    assert data["disposition"] == VERIFIED
    assert data["post_state"]["value"] == text
    assert elapsed >= 4 * 0.060  # four pauses between five keystrokes
    state = wait_state(fixture_app, lambda s: s["name"] == text, "the typed text")
    # The app saw five separate insertions (one "changed" signal each).
    assert state["name_changes"] - before["name_changes"] == 5, state
    assert obs.text_of(obs.by_id(fixture_app.window(), "name_entry")) == text


# ---- select, expand, collapse, scroll-to -------------------------------------------------


def test_select_combo(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    assert before["color"] == "Red"
    combo = ref(cli, "color_combo")
    data = cli.ok("select", combo, "Green")
    assert data["disposition"] == VERIFIED
    assert data["post_state"]["value"] == "Green" and data["post_state"]["role"] == "combobox"
    assert data["steps"] == [semantic_step("Selection.SelectChild", verified=True)]
    assert {"id": fixture_window_id, "title": FIXTURE_TITLE, "type": "window"} \
        in data["surfaces"]
    state = wait_state(fixture_app, lambda s: s["color"] == "Green", "colour Green")
    # The combo keeps its name, so the same ref still resolves; a second select is a no-op.
    again = cli.ok("select", combo, "Green")
    assert again["disposition"] == NOT_DELIVERED
    assert again["steps"] == [semantic_step("Selection.SelectChild", outcome="skipped",
                                            verified=True)]
    unchanged(fixture_app, state)
    # An option that does not exist: nothing is selected.
    expect_error(cli.run("select", combo, "Purple"), "ELEMENT_NOT_FOUND", kind="option_absent")
    unchanged(fixture_app, state)
    cli.ok("select", combo, "Red")
    wait_state(fixture_app, lambda s: s["color"] == "Red", "colour Red")


def test_select_in_a_gtk3_list(cli, fixture_app):
    """A GTK3 list box: its rows have no name of their own, the text is a label inside; the
    row that shows the text is picked and the list is read back through that row's state."""
    before = need_state(fixture_app)
    want = "Fish" if before["pet"] == "Dog" else "Dog"
    pets = ref(cli, "pet_list")
    data = cli.ok("select", pets, want)
    assert data["disposition"] == VERIFIED, data
    assert data["details"]["verification_scope"] == "element_state"
    assert data["post_state"]["role"] == "listbox" and "value" not in data["post_state"]
    assert data["steps"] == [semantic_step("Selection.SelectChild", verified=True)]
    state = wait_state(fixture_app, lambda s: s["pet"] == want, "the pet %s" % want)
    rows = obs.by_id(fixture_app.window(), "pet_list")
    chosen = [r for r in (rows.getChildAtIndex(i) for i in range(rows.childCount))
              if "selected" in obs.state_names(r)]
    assert [r.getChildAtIndex(0).name for r in chosen] == [want]
    again = cli.ok("select", pets, want)
    assert again["disposition"] == NOT_DELIVERED
    expect_error(cli.run("select", pets, "Hamster"), "ELEMENT_NOT_FOUND", kind="option_absent")
    unchanged(fixture_app, state)


def _selected_rows(acc):
    sel = acc.querySelection()
    return sorted(sel.getSelectedChild(i).getIndexInParent()
                  for i in range(sel.nSelectedChildren))


def test_select_on_a_gtk4_list_is_refused(cli, gtk4_demo_app):
    """interaction.md, select: a GTK4 list refuses with selection_index_unproven, because
    GTK 4.8 maps a selection index to its model, not to the row widgets it exposes."""
    window = obs.wait_for_window(gtk4_demo_app.pid)
    demo_list = next(o for o in obs.walk(window) if o.role == "list")
    before = _selected_rows(demo_list.acc)
    found = cli.ok("find", "--app", "gtk4-demo", "--role", "list", "--name", "Demo list")
    assert len(found["matches"]) == 1, found
    err = expect_error(cli.run("select", found["matches"][0]["ref_id"], "Clipboard"),
                       "ACTION_NOT_SUPPORTED", kind="selection_index_unproven")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert err["suggestion"]
    obs.round_trip(window)  # the canary: the app handled whatever reached it before
    assert _selected_rows(demo_list.acc) == before  # nothing was selected


def test_expand_collapse_tree_row(cli, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    assert "expanded" not in obs.state_names(fruits_cell(window))
    row = cli.ok("find", *FIXTURE, "--role", "cell", "--name", "Fruits", "--exact",
                 "--first")["match"]["ref_id"]

    data = cli.ok("expand", row)
    assert data["disposition"] == VERIFIED
    assert data["details"]["verification_scope"] == "element_state"
    assert "expanded" in data["post_state"]["states"]
    assert data["steps"] == [semantic_step("Action.DoAction", verified=True)]
    state = wait_state(fixture_app, lambda s: s["fruits_expanded"], "the tree to expand")
    assert "expanded" in obs.state_names(fruits_cell(window))
    again = cli.ok("expand", row)
    assert again["disposition"] == NOT_DELIVERED
    assert again["steps"][0]["outcome"] == "skipped"
    unchanged(fixture_app, state)

    data = cli.ok("collapse", row)
    assert data["disposition"] == VERIFIED
    assert "expanded" not in data["post_state"]["states"]
    state = wait_state(fixture_app, lambda s: not s["fruits_expanded"], "the tree to collapse")
    assert "expanded" not in obs.state_names(fruits_cell(window))
    again = cli.ok("collapse", row)
    assert again["disposition"] == NOT_DELIVERED
    unchanged(fixture_app, state)


def test_expand_leaf_row_is_not_supported(cli, fixture_app):
    window = fixture_app.window()
    obs.do_action(fruits_cell(window), "expand or contract")
    state = wait_state(fixture_app, lambda s: s["fruits_expanded"], "the tree to expand")
    apple = cli.ok("find", *FIXTURE, "--role", "cell", "--name", "Apple", "--exact",
                   "--first")["match"]["ref_id"]
    err = expect_error(cli.run("expand", apple), "ACTION_NOT_SUPPORTED")
    failed = [c for c in err["details"]["checks"] if c["status"] == "fail"]
    assert [c["check"] for c in failed] == ["supported_action"]
    unchanged(fixture_app, state)


def test_scroll_to_visible_element(cli, fixture_app):
    before = need_state(fixture_app)
    window = fixture_app.window()
    inc = obs.by_id(window, "inc_button")
    assert {"showing", "visible"} <= obs.state_names(inc)
    code, env = cli.run("scroll-to", ref(cli, "inc_button"))
    unchanged(fixture_app, before)
    assert env["ok"], env
    assert {"showing", "visible"} <= obs.state_names(inc)


# ---- right-click -------------------------------------------------------------------------


def _calc_display(calculator_app):
    """The calculator's editable display through pyatspi."""
    found = [o for o in obs.walk(calculator_app.window())
             if o.role == "text" and "editable" in o.states]
    assert len(found) == 1, found
    return found[0].acc


def _calc_popup_shown(calculator_app):
    return [o for o in obs.walk(calculator_app.window())
            if o.role in ("menu", "popup menu") and "visible" in o.states
            and any("visible" in obs.state_names(o.acc.getChildAtIndex(i))
                    for i in range(o.child_count))]


def test_right_click_opens_the_display_context_menu(cli, calculator_app, fixture_app):
    if not have_xdotool():
        pytest.skip("closing the calculator's popover needs a headed press and xdotool to "
                    "give the fixture its focus back")
    skeleton = cli.ok("snapshot", *CALC, "--skeleton", "-i", "--compact")
    displays = [n for n in nodes(skeleton["tree"]) if n.get("role") == "textfield"
                and "RightClick" in n.get("available_actions", [])
                and "SetValue" in n.get("available_actions", [])]
    assert len(displays) == 1, displays
    assert not _calc_popup_shown(calculator_app)
    try:
        data = cli.ok("right-click", displays[0]["ref_id"])
        assert data["disposition"] == UNVERIFIED
        assert data["steps"] == [semantic_step("Action.DoAction")]
        menus = [s for s in data["surfaces"] if s["type"] == "menu"]
        assert len(menus) == 1 and menus[0]["item_count"] >= 1, data["surfaces"]
        # The popover is really up, as pyatspi sees it.
        obs.wait_until(lambda: _calc_popup_shown(calculator_app),
                       what="the display's context menu")
        assert cli.ok("wait", "--menu", *CALC, "--timeout", "3000")["found"] is True
    finally:
        cli.run("--headed", "press", "escape", *CALC)
        cli.run("wait", "--menu-closed", *CALC, "--timeout", "5000")
        activate(fixture_app, FIXTURE_TITLE)
    assert not _calc_popup_shown(calculator_app)


def test_right_click_entry_without_context_action(cli, fixture_app):
    before = need_state(fixture_app)
    code, env = cli.run("right-click", ref(cli, "name_entry"))
    unchanged(fixture_app, before)
    assert not env["ok"]
    err = env["error"]
    assert err["disposition"] == NOT_DELIVERED
    checks = {c["check"]: c for c in err["details"]["checks"]}
    assert checks["supported_action"]["status"] == "fail"
    assert err["code"] == "POLICY_DENIED"


# ---- refs that went away or were never unique --------------------------------------------


def test_stale_ref_after_the_element_went_away(cli, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    if obs.by_id(window, "remove_me_button") is None:
        pytest.skip("'Remove me' was already removed in this ad-fixture instance")
    gone = ref(cli, "remove_me_button")
    data = cli.ok("click", gone)
    assert data["disposition"] == UNVERIFIED
    removed = wait_state(fixture_app, lambda s: not s["remove_me_present"], "Remove me to go")
    assert removed["last_action"] == "removed me"
    obs.wait_until(lambda: obs.by_id(fixture_app.window(), "remove_me_button") is None,
                   what="the button to leave the tree")

    err = expect_error(cli.run("click", gone), "STALE_REF")
    assert err["recovery"]["strategy"] == "refresh_snapshot_then_retry_original"
    assert err["recovery"]["requires_fresh_snapshot"] is True
    assert err["details"].get("process_state") != "exited"
    unchanged(fixture_app, removed)  # the stale click did nothing
    # The refresh the recovery asks for confirms the element is gone.
    again = cli.ok("find", *FIXTURE, "--native-id", "remove_me_button", "--exact", "--first")
    assert again["match"] is None


def test_ambiguous_twin_is_never_clicked(cli, fixture_app):
    before = need_state(fixture_app)
    twins = [o for o in obs.walk(fixture_app.window()) if o.role == "push button"
             and o.name == "Twin"]
    assert len(twins) == 2
    found = cli.ok("find", *FIXTURE, "--role", "button", "--name", "Twin", "--exact", "--first")
    err = expect_error(cli.run("click", found["match"]["ref_id"]), "AMBIGUOUS_TARGET",
                       kind="identity_not_unique")
    assert "recovery" not in err
    unchanged(fixture_app, before)
    assert before["twin_clicks"] == fixture_app.state()["twin_clicks"]


# ---- headless refusals -------------------------------------------------------------------


@pytest.mark.parametrize("action,target", [("focus", "name_entry"),
                                           ("double-click", "inc_button"),
                                           ("triple-click", "name_entry")])
def test_headless_refuses_physical_gestures(cli, fixture_app, action, target):
    before = need_state(fixture_app)
    window = fixture_app.window()
    element = obs.by_id(window, target)
    focused_before = "focused" in obs.state_names(element)
    err = expect_error(cli.run(action, ref(cli, target)), "POLICY_DENIED")
    assert err["recovery"]["strategy"] == "request_explicit_policy_then_retry_original"
    assert err["details"]["actionable"] is False
    checks = {c["check"]: c for c in err["details"]["checks"]}
    assert set(checks) == {"visible", "stable", "enabled", "supported_action", "policy"}
    for name in ("visible", "stable", "enabled"):
        assert checks[name]["status"] == "pass", checks
    assert checks["supported_action"]["status"] == "fail"
    if action == "focus":
        assert err["details"]["foreground_effect"] is True
        assert checks["policy"]["status"] == "fail"
    else:
        assert checks["policy"]["status"] == "pass"
    unchanged(fixture_app, before)
    assert ("focused" in obs.state_names(element)) == focused_before


def test_headless_scroll_is_refused(cli, fixture_app):
    before = need_state(fixture_app)
    window = fixture_app.window()
    set_scroll_value(window, 100)
    err = expect_error(cli.run("scroll", ref(cli, "long_list"), "--direction", "down"),
                       "POLICY_DENIED")
    assert err["recovery"]["strategy"] == "request_explicit_policy_then_retry_original"
    unchanged(fixture_app, before)
    assert abs(scroll_value(window) - 100) < 0.5  # the list did not move
    set_scroll_value(window, 0)


# ---- a readback that contradicts the request ---------------------------------------------


def test_verification_contradiction(cli, widget_factory_app):
    """A GTK radio button cannot be unchecked by clicking it: `uncheck` delivers the click
    and the readback still shows checked, a readable contradiction."""
    def radios():
        return {o.name: o for o in obs.walk(widget_factory_app.window())
                if o.role == "radio button" and o.name.startswith("Page ")}
    page1 = radios()["Page 1"]
    if "checked" not in page1.states:
        obs.do_action(page1.acc, "click")
        obs.wait_until(lambda: "checked" in radios()["Page 1"].states, what="Page 1")
    target = cli.ok("find", "--app", "gtk3-widget-factory", "--role", "radiobutton", "--name",
                    "Page 1", "--exact", "--first")["match"]["ref_id"]
    code, env = cli.run("uncheck", target)
    err = expect_error((code, env), "ACTION_FAILED", delivery="delivered_unverified",
                       kind="post_action_verification")
    assert err["disposition"] == UNVERIFIED
    assert "recovery" not in err
    assert "checked" in err["details"]["post_state"]["states"]
    after = err["details"]["after_action"]
    assert after["action"] == "uncheck"
    assert after["post_state"] == err["details"]["post_state"]
    assert after["steps"] == [semantic_step("Action.DoAction", verified=False)]
    # pyatspi agrees: Page 1 is still the checked page.
    now = radios()
    assert "checked" in now["Page 1"].states
    assert all("checked" not in o.states for n, o in now.items() if n != "Page 1")


# ---- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize("argv,exit_code,stdin", [
    (["click", "@e1"], 1, None),
    (["click"], 2, None),
    (["type", "{name}"], 1, None),
    (["type", "{name}", "hello", "--stdin"], 1, "printf '%s' piped"),
    (["set-value", "{name}"], 1, None),
    (["set-value", "{name}", "v", "--stdin"], 1, "printf '%s' piped"),
    (["click", "{inc}", "--timeout-ms", "-1"], 2, None),
    (["click", "{inc}", "--wait-for", ""], 1, None),
])
def test_bad_input_is_refused(cli, fixture_app, argv, exit_code, stdin):
    before = need_state(fixture_app)
    refs = {"name": ref(cli, "name_entry"), "inc": ref(cli, "inc_button")}
    args = [a.format(**refs) for a in argv]
    if stdin:
        code, env, out, _ = run_piped(cli, stdin, *args)
        assert "piped" not in out
    else:
        code, env = cli.run(*args)
    err = expect_error((code, env), "INVALID_ARGS", exit_code=exit_code)
    assert "recovery" not in err
    if args[1:2] == ["@e1"]:
        assert err["suggestion"] == BARE_REF_SUGGESTION
    unchanged(fixture_app, before)


# ---- the quick start on GNOME Calculator -------------------------------------------------


def _seven_button(cli):
    for name in ("7", "7 7"):  # GTK 4.8 names the button from its label and its text
        m = cli.ok("find", *CALC, "--role", "button", "--name", name, "--exact", "--first")
        if m["match"] is not None:
            return m["match"]["ref_id"]
    raise AssertionError("no 7 button")


def _clear_button(cli):
    m = cli.ok("find", *CALC, "--role", "button", "--name", "C", "--exact", "--first")["match"]
    if m is None:
        m = cli.ok("find", *CALC, "--role", "button", "--description", "Clear Display",
                   "--first")["match"]
    assert m is not None, "no clear button"
    return m["ref_id"]


def test_calculator_quick_start(cli, calculator_app):
    display = _calc_display(calculator_app)
    clear = _clear_button(cli)
    if obs.text_of(display) != "":
        cli.ok("click", clear)
        obs.wait_until(lambda: obs.text_of(display) == "", what="an empty display")
    # 2. Map the app.
    skeleton = cli.ok("snapshot", *CALC, "--skeleton", "-i", "--compact")
    assert skeleton["complete"] is True and skeleton["ref_count"] > 0
    fields = [n for n in nodes(skeleton["tree"]) if n.get("role") == "textfield"
              and "SetValue" in n.get("available_actions", [])]
    if not fields:  # a deeper tree: drill into the cut branches until the display shows
        for n in nodes(skeleton["tree"]):
            if "children_count" in n and "ref_id" in n:
                drill = cli.ok("snapshot", "--root", n["ref_id"], "-i", "--compact")
                fields += [m for m in nodes(drill["tree"]) if m.get("role") == "textfield"
                           and "SetValue" in m.get("available_actions", [])]
    assert len(fields) == 1, fields
    disp = fields[0]["ref_id"]
    # 4. Act.
    data = cli.ok("click", _seven_button(cli))
    assert data["disposition"] == UNVERIFIED
    assert data["steps"] == [semantic_step("Action.DoAction")]
    assert [s["type"] for s in data["surfaces"]] == ["window"]
    assert data["surfaces"][0]["title"] == "Calculator"
    # 5. Verify.
    got = cli.ok("wait", "--element", disp, "--predicate", "value", "--value", "7",
                 "--timeout", "5000")
    assert got["found"] is True and got["predicate"] == "value" and got["ref"] == disp
    assert got["observed"] == {"expected_chars": 1, "matched": True, "value_chars": 1,
                               "value_present": True}
    assert obs.text_of(display) == "7"
    assert cli.ok("get", disp, "--property", "value")["value"] == "7"
    # 6. Restore.
    cli.ok("click", clear)
    obs.wait_until(lambda: obs.text_of(display) == "", what="the display to clear")


def test_calculator_headed_click_and_scoped_press(cli, calculator_app, fixture_app):
    """GTK 4 under --headed: the click lands at the button's screen point (window-relative
    extents plus the X11 origin), then a scoped press types into the now active window."""
    display = _calc_display(calculator_app)
    clear = _clear_button(cli)
    if obs.text_of(display) != "":
        cli.ok("click", clear)
        obs.wait_until(lambda: obs.text_of(display) == "", what="an empty display")
    try:
        data = cli.ok("--headed", "click", _seven_button(cli))
        assert data["disposition"] == UNVERIFIED
        assert [s["label"] for s in data["steps"]][-1] == "pointer_click"
        # The pointer went to the 7 button's screen rectangle (pyatspi's window-relative
        # extents plus the X origin): a miss is a failure, never the xfail below.
        window = calculator_app.window()
        point = data["target"]["point"]
        sevens = [screen_extents(o.acc, window, calculator_app.pid)
                  for o in obs.walk(window)
                  if o.role in obs.BUTTON_ROLES and o.name in ("7", "7 7")]
        assert any(x <= point["x"] < x + w and y <= point["y"] < y + h
                   for x, y, w, h in sevens), (point, sevens)
        try:
            obs.wait_until(lambda: obs.text_of(display) == "7", timeout=5.0,
                           what="7 on the display")
        except AssertionError:
            # Seen once in about 50 runs under load: the click was delivered (XTEST,
            # hit-tested on the calculator) and GTK 4 did nothing with it. That is what
            # delivered_unverified warns of; a wrong digit would be a real failure.
            assert obs.text_of(display) == "", (obs.text_of(display), json.dumps(data))
            pytest.xfail("GTK 4 ignored a delivered synthetic click: %s" % json.dumps(data))
        pressed = cli.ok("press", "8", *CALC)  # the click made the calculator active
        assert pressed["disposition"] == UNVERIFIED
        obs.wait_until(lambda: obs.text_of(display) == "78", what="78 on the display")
    finally:
        cli.ok("click", clear)
        obs.wait_until(lambda: obs.text_of(display) == "", what="the display to clear")
        activate(fixture_app, FIXTURE_TITLE)


def test_calculator_wait_for_the_empty_display(cli, calculator_app):
    """The quick start's restore step, verified with wait: C, then an empty display."""
    display = _calc_display(calculator_app)
    skeleton = cli.ok("snapshot", *CALC, "--skeleton", "-i", "--compact")
    fields = [n for n in nodes(skeleton["tree"]) if n.get("role") == "textfield"
              and "SetValue" in n.get("available_actions", [])]
    assert len(fields) == 1, fields
    disp = fields[0]["ref_id"]
    cli.ok("click", _seven_button(cli))
    cli.ok("wait", "--element", disp, "--predicate", "value", "--value", "7", "--timeout",
           "5000")
    cli.ok("click", _clear_button(cli))
    code, env = cli.run("wait", "--element", disp, "--predicate", "value", "--value", "",
                        "--timeout", "3000")
    obs.wait_until(lambda: obs.text_of(display) == "", what="the display to clear")
    assert env["ok"], env
