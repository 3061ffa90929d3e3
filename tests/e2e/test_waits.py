"""wait in every mode, and the post-action wait flags, against ad-fixture (commands/wait.md,
guides/waiting.md, configuration.md "Post-action wait flags"). Conditions are checked
against pyatspi and the fixture's state line."""
import shutil
import subprocess
import time

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, DIALOG_TITLE, UNVERIFIED, close_dialog,
                            dialog_window, ensure_fixture_active, expect_count, json_strings,
                            live_count, menu_open, need_state, ref, semantic_step, unchanged, wait_state)
from e2e_helpers import (add_rows, check_envelope, expect_error, find_node, fixture_reset,
                         late_arrive, launch, load_refmap, ref_number, remove_rows, stop_process)


# Apps the event tests start and stop themselves (the first one installed is used).
EVENT_APPS = ["gtk3-icon-browser", "gtk3-demo"]


@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def _background_wait(cli, *args):
    """Starts `agent-desktop wait ARGS` in the background; returns a function that waits for
    it and returns (exit_code, envelope)."""
    p = subprocess.Popen([cli.binary, "wait", *map(str, args)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
                         env=cli.environment())

    def finish(timeout=60):
        try:
            out, err = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            p.kill()
            p.communicate()
            raise
        return p.returncode, check_envelope(out, err, p.returncode, ("wait",) + args)
    # The wait takes its baseline when it starts; give it time to do so before the change.
    time.sleep(1.0)
    assert p.poll() is None, "the wait ended before the change: %r" % (p.communicate(),)
    return finish


def _timeout_shape(err, predicate, timeout_ms):
    assert err["details"]["kind"] == "wait_timeout"
    assert err["details"]["predicate"] == predicate
    assert err["details"]["timeout_ms"] == timeout_ms
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert err["recovery"]["strategy"] == "inspect_state_then_retry_original"
    assert err["recovery"]["retry_after_ms"] == 250


# ---- time and modes ----------------------------------------------------------------------


def test_wait_ms(cli):
    t0 = time.monotonic()
    assert cli.ok("wait", "300") == {"waited_ms": 300}
    assert time.monotonic() - t0 >= 0.3


@pytest.mark.parametrize("argv", [
    ["wait"],
    ["wait", "100", "--menu"],
    ["wait", "--menu", "--menu-closed"],
    ["wait", "--window", "AD", "--text", "AD"],
    ["wait", "--menu", "--predicate", "exists"],
    ["wait", "--text", "AD", "--value", "x"],
    ["wait", "--menu", "--count", "1"],
])
def test_wait_needs_exactly_one_mode(cli, argv):
    t0 = time.monotonic()
    expect_error(cli.run(*argv), "INVALID_ARGS")
    assert time.monotonic() - t0 < 5  # refused, not waited


# ---- element -----------------------------------------------------------------------------


def test_wait_element_predicates(cli, fixture_app):
    window = fixture_app.window()
    count_value = ref(cli, "count_value")
    inc = ref(cli, "inc_button")
    for target, acc_id in ((count_value, "count_value"), (inc, "inc_button")):
        states = obs.state_names(obs.by_id(window, acc_id))
        got = cli.ok("wait", "--element", target, "--timeout", "5000")
        assert got["found"] is True and got["predicate"] == "exists" and got["ref"] == target
        assert got["observed"] == {"exists": True}
        assert "enabled" in states and {"visible", "showing"} <= states
        got = cli.ok("wait", "--element", target, "--predicate", "enabled", "--timeout", "5000")
        assert got["observed"] == {"applicable": True, "enabled": True}
        got = cli.ok("wait", "--element", target, "--predicate", "visible", "--timeout", "5000")
        assert got["observed"] == {"applicable": True, "visible": True}
        assert 0 <= got["elapsed_ms"] < 5000
    got = cli.ok("wait", "--element", inc, "--predicate", "actionable", "--timeout", "5000")
    assert got["observed"]["actionable"] is True
    assert {c["check"] for c in got["observed"]["checks"]} == \
        {"visible", "stable", "enabled", "supported_action", "policy"}
    assert all(c["status"] == "pass" for c in got["observed"]["checks"])
    # The editable check runs for --action type: the Name entry passes, the read-only Count
    # value never will.
    name = ref(cli, "name_entry")
    got = cli.ok("wait", "--element", name, "--predicate", "actionable", "--action", "type",
                 "--timeout", "5000")
    assert {c["check"]: c["status"] for c in got["observed"]["checks"]}["editable"] == "pass"
    assert "editable" in obs.state_names(obs.by_id(window, "name_entry"))
    assert "editable" not in obs.state_names(obs.by_id(window, "count_value"))
    err = expect_error(cli.run("wait", "--element", count_value, "--predicate", "actionable",
                               "--action", "type", "--timeout", "700"), "TIMEOUT")
    _timeout_shape(err, "actionable", 700)
    last = err["details"]["last_observed"]
    assert last["actionable"] is False
    assert {c["check"]: c["status"] for c in last["checks"]}["editable"] == "fail"


def test_wait_element_value_after_a_click(cli, fixture_app):
    before = need_state(fixture_app)
    window = fixture_app.window()
    count_value = ref(cli, "count_value")
    n = before["count"] + 1
    cli.ok("click", ref(cli, "inc_button"))
    got = cli.ok("wait", "--element", count_value, "--predicate", "value", "--value", str(n),
                 "--timeout", "5000")
    assert got["found"] is True and got["ref"] == count_value
    assert got["observed"] == {"expected_chars": len(str(n)), "matched": True,
                               "value_chars": len(str(n)), "value_present": True}
    # The same ref kept resolving while its value changed; pyatspi and the app agree.
    assert live_count(window) == (n, str(n))
    expect_count(fixture_app, n)


def test_wait_element_value_timeout_does_not_echo_values(cli, fixture_app):
    state = need_state(fixture_app)
    count_value = ref(cli, "count_value")
    expected = "never-seen-value"
    code, env, out = cli.run_full("wait", "--element", count_value, "--predicate", "value",
                                  "--value", expected, "--timeout", "800")
    err = expect_error((code, env), "TIMEOUT")
    _timeout_shape(err, "value", 800)
    assert err["details"]["ref"] == count_value
    current = state["count_value"]
    assert err["details"]["last_observed"] == {
        "expected_chars": len(expected), "matched": False, "value_chars": len(current),
        "value_present": True}
    assert expected not in out
    assert current not in list(json_strings(err))  # the live value is not echoed either
    unchanged(fixture_app, state)  # wait never changes the app


def test_wait_element_retries_until_the_element_appears(cli, fixture_app):
    window = fixture_app.window()
    add_rows(window, 1)
    row = cli.ok("find", *FIXTURE, "--native-id", "row_1", "--exact", "--first")["match"]
    assert row["name"] == "Row 1"
    remove_rows(window)
    finish = _background_wait(cli, "--element", row["ref_id"], "--timeout", "20000")
    add_rows(window, 1)  # the same row (name, id) comes back
    code, env = finish()
    assert env["ok"], env
    assert env["data"]["found"] is True and env["data"]["elapsed_ms"] >= 900
    assert obs.by_id(window, "row_1") is not None


def test_wait_timeout_zero_checks_once(cli, fixture_app):
    args = ["--element", ref(cli, "count_value")]
    assert cli.ok("wait", *args, "--timeout", "5000")["found"] is True  # it holds now
    code, env = cli.run("wait", *args, "--timeout", "0")
    assert env["ok"] and env["data"]["found"] is True


def test_wait_element_of_an_exited_process_ends_at_once(cli, fixture_bin, tmp_path):
    """The process behind the ref is gone and never comes back: the wait answers STALE_REF
    process_exited at once instead of polling until its timeout."""
    inst = launch([fixture_bin], "ad-fixture-2",
                  extra_env={"AD_FIXTURE_STATE_FILE": str(tmp_path / "second.json")},
                  ready=lambda w: obs.by_id(w, "status_label") is not None, log_dir=tmp_path)
    try:
        wid = [w["id"] for w in cli.ok("list-windows", *FIXTURE) if w["pid"] == inst.pid]
        assert len(wid) == 1
        inc = cli.ok("find", "--window-id", wid[0], "--native-id", "inc_button", "--exact",
                     "--first")["match"]["ref_id"]
        assert cli.ok("wait", "--element", inc, "--timeout", "5000")["found"] is True
    finally:
        stop_process(inst.popen)
    assert obs.app_for_pid(inst.pid) is None
    # A timeout longer than any test: only an answer that does not wait for it passes.
    err = expect_error(cli.run("wait", "--element", inc, "--timeout", "600000"),
                       "STALE_REF", kind="process_exited")
    assert err["details"]["process_state"] == "exited"
    assert err["recovery"]["strategy"] == "inspect_state_then_retry_original"


# ---- window ------------------------------------------------------------------------------


def test_wait_window(cli, fixture_app, fixture_window_id):
    rows = cli.ok("list-windows", *FIXTURE)
    got = cli.ok("wait", "--window", "fixture", *FIXTURE, "--timeout", "5000")
    assert got["found"] is True
    w = got["window"]
    assert w["id"] == fixture_window_id and w["title"] == FIXTURE_TITLE
    assert w["pid"] == fixture_app.pid
    assert w == [r for r in rows if r["id"] == fixture_window_id][0]


def test_wait_window_timeout_reports_what_it_saw(cli, fixture_app):
    titles = [w.name for w in obs.windows_of(obs.app_for_pid(fixture_app.pid))]
    err = expect_error(cli.run("wait", "--window", "No Such Title", *FIXTURE, "--timeout",
                               "700"), "TIMEOUT")
    _timeout_shape(err, "window", 700)
    assert err["details"]["title"] == "No Such Title"
    assert err["details"]["app"] == "ad-fixture"
    assert err["details"]["last_observed"] == {"count": len(titles), "titles": titles,
                                               "truncated": False}


def _popup_shown(app):
    acc = obs.app_for_pid(app.pid)
    return acc is not None and any(not w.name for w in obs.windows_of(acc))


def test_wait_window_lists_an_untitled_window(cli, fixture_app):
    """The context menu is an untitled top level of its own: it is counted and listed (as
    null, like list-windows' title), so count matches the titles."""
    cli.ok("right-click", ref(cli, "context_target"))
    try:
        obs.wait_until(lambda: _popup_shown(fixture_app), what="the context menu")
        titles = [w.name or None for w in obs.windows_of(obs.app_for_pid(fixture_app.pid))]
        assert None in titles and FIXTURE_TITLE in titles
        err = expect_error(cli.run("wait", "--window", "No Such Title", *FIXTURE, "--timeout",
                                   "700"), "TIMEOUT")
        last = err["details"]["last_observed"]
        assert last["count"] == len(last["titles"]) == len(titles)
        assert sorted(last["titles"], key=str) == sorted(titles, key=str)
        assert last["truncated"] is False
    finally:
        if _popup_shown(fixture_app):
            cli.run("--headed", "press", "escape", *FIXTURE)
            obs.wait_until(lambda: not _popup_shown(fixture_app), what="the menu to close")


# ---- text --------------------------------------------------------------------------------


def _pyatspi_text_count(window, text):
    """Nodes whose name, description or (non-secret) text contains text, case-insensitively."""
    t = text.lower()
    n = 0
    for o in obs.walk(window):
        hay = [o.name, o.description]
        if o.role in ("text", "entry"):
            hay.append(obs.text_of(o.acc))
        n += any(t in (h or "").lower() for h in hay)
    return n


def test_wait_text_count_and_its_snapshot(cli, state_home, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    twins = _pyatspi_text_count(window, "Twin")
    assert twins >= 3  # the "Twins" row and its two buttons (and a status line naming one)
    got = cli.ok("wait", "--text", "twin", "--count", str(twins), *FIXTURE, "--timeout", "5000")
    assert got["found"] is True and got["text"] == "twin"

    assert _pyatspi_text_count(window, "Enable feature") == 1
    got = cli.ok("wait", "--text", "Enable feature", "--count", "1", *FIXTURE, "--timeout",
                 "5000")
    assert got["role"] == "checkbox"
    sid, number = ref_number(got["ref"])
    assert sid == got["snapshot_id"]
    assert "@e%d" % number in load_refmap(state_home, sid)["refs"]  # saved on disk
    # The saved snapshot acts like any snapshot: its ref drives the check box.
    data = cli.ok("toggle", got["ref"])
    assert data["disposition"]["delivery"] == "delivered_verified"
    wait_state(fixture_app, lambda s: s["feature"] is True, "feature on")
    assert "checked" in obs.state_names(obs.by_id(window, "feature_check"))


def test_wait_text_timeout_shape(cli, fixture_app):
    code, env, out = cli.run_full("wait", "--text", "Enable feature", "--count", "2",
                                  *FIXTURE, "--timeout", "800")
    err = expect_error((code, env), "TIMEOUT")
    _timeout_shape(err, "text", 800)
    assert err["details"]["text_chars"] == len("Enable feature")
    assert err["details"]["expected_count"] == 2
    # What the last poll saw; that poll's read can be cut short by the deadline, so a
    # partial count (0) is possible too.
    assert err["details"]["last_observed"]["count"] in (0, 1)
    assert "Enable feature" not in out


def test_wait_text_for_a_late_label(cli, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    obs.do_action(obs.by_id(window, "show_later_button"), "click")
    wait_state(fixture_app, lambda s: s["late_pending"] and not s["late_label"],
               "the late label to be pending")
    # "Arrived" is nowhere in the window until the label comes (the status line then reads
    # "last action: arrived" too).
    assert _pyatspi_text_count(fixture_app.window(), "Arrived") == 0
    finish = _background_wait(cli, "--text", "Arrived", *FIXTURE, "--timeout", "20000")
    late_arrive(fixture_app)  # only now, while the wait is known to be running
    code, got = finish()
    assert code == 0 and got["ok"], got
    got = got["data"]
    assert got["found"] is True and got["role"] == "statictext" and got["ref"] is None
    assert got["elapsed_ms"] >= 900, got  # it started at least 1 s before the label came
    state = fixture_app.state()
    assert state["late_label"] is True
    assert obs.by_id(fixture_app.window(), "late_label").name == "Arrived"


# ---- menu --------------------------------------------------------------------------------


def test_wait_menu_around_the_file_menu(cli, fixture_app):
    window = fixture_app.window()
    assert not menu_open(window)
    # No menu yet: --menu-closed holds at once, --menu times out.
    got = cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")
    assert got["found"] is True and got["elapsed_ms"] < 2000
    err = expect_error(cli.run("wait", "--menu", *FIXTURE, "--timeout", "600"), "TIMEOUT")
    _timeout_shape(err, "menu", 600)
    ensure_fixture_active(fixture_app)
    file_menu = ref(cli, "file_menu")
    data = cli.ok("click", file_menu)
    assert data["disposition"] == UNVERIFIED
    got = cli.ok("wait", "--menu", *FIXTURE, "--timeout", "5000")
    assert got["found"] is True
    obs.wait_until(lambda: menu_open(fixture_app.window()), what="the File menu")
    data = cli.ok("press", "escape", *FIXTURE)
    assert data["disposition"] == UNVERIFIED
    assert data["steps"][0]["mechanism"] == "physical_synthetic"
    got = cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")
    assert got["found"] is True
    obs.wait_until(lambda: not menu_open(fixture_app.window()), what="the menu to close")


# ---- events ------------------------------------------------------------------------------


def _event_app():
    for name in EVENT_APPS:
        exe = shutil.which(name)
        if exe and not obs.apps_named(name):
            return name, exe
    pytest.skip("none of %s is installed (and not already running)" % EVENT_APPS)


def test_wait_event_app_launched_and_terminated(cli, app_tmp):
    name, exe = _event_app()
    finish = _background_wait(cli, "--event", "app-launched", "--app", name, "--timeout",
                              "30000")
    inst = launch([exe], name, log_dir=app_tmp)
    try:
        code, env = finish()
        assert env["ok"], env
        event = env["data"]["event"]
        assert event == {"app": name, "kind": "app_launched", "pid": inst.pid}
        assert [a for a in cli.ok("list-apps", "--app", name)["apps"]
                if a["pid"] == inst.pid]

        finish = _background_wait(cli, "--event", "app-terminated", "--app", name,
                                  "--timeout", "30000")
        stop_process(inst.popen)
        code, env = finish()
        assert env["ok"], env
        assert env["data"]["event"] == {"app": name, "kind": "app_terminated",
                                        "pid": inst.pid}
        assert obs.app_for_pid(inst.pid) is None
    finally:
        stop_process(inst.popen)


def test_wait_event_app_terminated_unresolved(cli):
    got = cli.ok("wait", "--event", "app-terminated", "--app", "no-such-app-xyz", "--timeout",
                 "5000")
    assert got["found"] is True and got["target_unresolved"] is True


def test_wait_event_window_opened_and_closed(cli, fixture_app):
    need_state(fixture_app)
    assert dialog_window(fixture_app) is None
    opener = ref(cli, "open_dialog_button")
    finish = _background_wait(cli, "--event", "window-opened", *FIXTURE, "--timeout", "20000")
    try:
        cli.ok("click", opener)
        code, env = finish()
        assert env["ok"], env
        event = env["data"]["event"]
        assert event["kind"] == "window_opened" and event["title"] == DIALOG_TITLE
        assert event["pid"] == fixture_app.pid and event["app"] == "ad-fixture"
        dialogs = [w for w in cli.ok("list-windows", *FIXTURE) if w["title"] == DIALOG_TITLE]
        assert [w["id"] for w in dialogs] == [event["window_id"]]
        assert dialog_window(fixture_app) is not None
        wait_state(fixture_app, lambda s: s["dialog_open"], "the dialog to open")

        finish = _background_wait(cli, "--event", "window-closed", *FIXTURE, "--window",
                                  DIALOG_TITLE, "--timeout", "20000")
        ok_button = cli.ok("find", "--window-id", event["window_id"], "--native-id",
                           "dialog_ok_button", "--exact", "--first")["match"]["ref_id"]
        cli.ok("click", ok_button)
        code, env = finish()
        assert env["ok"], env
        closed = env["data"]["event"]
        assert closed["kind"] == "window_closed"
        assert closed["window_id"] == event["window_id"] and closed["title"] == DIALOG_TITLE
        state = wait_state(fixture_app, lambda s: not s["dialog_open"], "the dialog to close")
        assert state["last_action"] == "dialog ok"
    finally:
        close_dialog(fixture_app)


# ---- post-action waits -------------------------------------------------------------------


def test_click_wait_for_the_new_count(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    n = before["count"] + 1
    selector = "statictext:count: %d" % n
    data = cli.ok("click", ref(cli, "inc_button"), "--wait-for", selector)
    assert data["matched_selector"] == selector
    assert isinstance(data["elapsed_ms"], int) and data["elapsed_ms"] >= 0
    assert data["window"]["id"] == fixture_window_id
    assert data["complete"] is True and data["ref_count"] > 0
    assert find_node(data["tree"], role="statictext", name="count: %d" % n) is not None
    after = data["after_action"]
    assert after["action"] == "click" and after["disposition"] == UNVERIFIED
    assert after["steps"] == [semantic_step("Action.DoAction")]
    expect_count(fixture_app, n)
    # The fresh snapshot's refs act at once.
    inc = find_node(data["tree"], native_id="inc_button")["ref_id"]
    assert ref_number(inc)[0] == data["snapshot_id"]
    cli.ok("click", inc, "--wait-for", "statictext:count: %d" % (n + 1))
    expect_count(fixture_app, n + 1)


def test_click_wait_for_gone(cli, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    clicks = fixture_app.state()["show_later_clicks"]
    obs.do_action(obs.by_id(window, "show_later_button"), "click")
    wait_state(fixture_app, lambda s: s["show_later_clicks"] == clicks + 1, "the click")
    before = late_arrive(fixture_app)
    data = cli.ok("click", ref(cli, "show_later_button"), "--wait-for-gone",
                  "statictext:Arrived")
    assert data["gone"] is True and data["target_absent"] is True
    assert data["matched_selector"] == "statictext:Arrived"
    assert data["after_action"]["disposition"] == UNVERIFIED
    state = fixture_app.state()
    assert state["show_later_clicks"] == before["show_later_clicks"] + 1
    assert state["late_label"] is False and state["late_pending"] is True
    # It comes back when it is due.
    assert late_arrive(fixture_app)["late_arrivals"] == before["late_arrivals"] + 1


def test_click_wait_for_timeout_keeps_the_delivery(cli, fixture_app):
    before = need_state(fixture_app)
    code, env = cli.run("click", ref(cli, "inc_button"), "--wait-for", "statictext:count: never",
                        "--wait-timeout", "800")
    err = expect_error((code, env), "TIMEOUT", delivery="delivered_unverified",
                       kind="wait_timeout")
    assert err["disposition"] == UNVERIFIED  # the click landed: not safe to repeat
    assert "recovery" not in err
    assert err["details"]["selector"] == "statictext:count: never"
    assert err["details"]["timeout_ms"] == 800
    after = err["details"]["after_action"]
    assert after["action"] == "click" and after["disposition"] == UNVERIFIED
    expect_count(fixture_app, before["count"] + 1)


@pytest.mark.parametrize("flags", [["--wait-for", "button"], ["--wait-for-gone", "button"],
                                   ["--wait-timeout", "100"]])
def test_wait_flags_are_rejected_on_get(cli, fixture_app, flags):
    expect_error(cli.run("get", ref(cli, "inc_button"), *flags), "INVALID_ARGS")


@pytest.mark.parametrize("flags", [["-w", "button"], ["--wait-for-gone", "button"]])
def test_snapshot_root_rejects_wait_flags(cli, fixture_app, flags):
    expect_error(cli.run("snapshot", "--root", ref(cli, "inc_button"), *flags), "INVALID_ARGS")


def test_snapshot_wait_for(cli, fixture_app):
    data = cli.ok("snapshot", *FIXTURE, "-w", "button:Increment")
    assert data["matched_selector"] == "button:Increment"
    assert find_node(data["tree"], role="button", name="Increment") is not None
