"""Which target a command reaches: a ref whose window closed (snapshots-and-refs.md "How a ref
resolves", errors-and-recovery.md) and the window choice for --app / --window-id with
several instances of one app or a window of another app (snapshots-and-refs.md "Choose the
window", keyboard.md press, app-window.md).

A refused key press is proven absent with an ordering canary: after the refusal a known press
goes to a known window and its effect is awaited; only then is the refused key checked to be
missing from both fixtures' name entries (their own state lines)."""
import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, activate, close_dialog, dialog_window,
                            need_state, ref, clean_fixture, wait_state)  # noqa: F401
from e2e_helpers import expect_error, launch, stop_process

CALC = ["--app", "gnome-calculator"]
pytestmark = pytest.mark.usefixtures("clean_fixture")


def _refresh_recovery(err):
    assert err["recovery"]["strategy"] == "refresh_snapshot_then_retry_original", err
    assert err["recovery"]["requires_fresh_snapshot"] is True
    assert "process_state" not in err.get("details", {})


# ---- a ref whose window closed -----------------------------------------------------------


def test_ref_of_a_closed_dialog_is_stale(cli, fixture_app):
    before = need_state(fixture_app)
    assert dialog_window(fixture_app) is None
    try:
        cli.ok("click", ref(cli, "open_dialog_button"))
        wait_state(fixture_app, lambda s: s["dialog_open"], "the dialog to open")
        ok = cli.ok("find", *FIXTURE, "--surface", "sheet", "--native-id", "dialog_ok_button",
                    "--exact", "--first")["match"]["ref_id"]
        close_dialog(fixture_app)  # through pyatspi: the dialog's window is gone
        closed = wait_state(fixture_app, lambda s: not s["dialog_open"], "the dialog to close")
        assert closed["dialog_ok"] == before["dialog_ok"] + 1
        # Every command that resolves the ref answers the same: the window closed, take a
        # fresh snapshot.
        for argv in (["click", ok], ["get", ok, "--property", "title"],
                     ["is", ok, "--property", "enabled"]):
            err = expect_error(cli.run(*argv), "STALE_REF", kind="window_closed")
            _refresh_recovery(err)
        err = expect_error(cli.run("wait", "--element", ok, "--timeout", "800"), "TIMEOUT",
                           kind="wait_timeout")
        assert err["details"]["ref"] == ok
        assert err["details"]["last_observed"] == {"resolved": False, "exists": False}
        assert err["details"]["last_error"]["code"] == "STALE_REF"
        # Canary: a known click lands; only then is the refused click checked to be absent.
        cli.ok("click", ref(cli, "inc_button"))
        after = wait_state(fixture_app, lambda s: s["count"] == closed["count"] + 1,
                           "the canary click")
        assert after["dialog_ok"] == closed["dialog_ok"] and not after["dialog_open"]
        assert dialog_window(fixture_app) is None
        # The fresh observation the recovery asks for has no dialog.
        expect_error(cli.run("find", *FIXTURE, "--surface", "sheet", "--native-id",
                             "dialog_ok_button"), "ELEMENT_NOT_FOUND", kind="surface_absent")
    finally:
        close_dialog(fixture_app)


# ---- the window choice -------------------------------------------------------------------


def _focus_name_entry(app):
    """Makes the app's window active with the keyboard focus in its (empty) name entry."""
    window = activate(app, FIXTURE_TITLE)
    entry = obs.by_id(window, "name_entry")
    assert obs.text_of(entry) == ""
    entry.queryComponent().grabFocus()
    obs.wait_until(lambda: "focused" in obs.state_names(obs.by_id(app.window(), "name_entry")),
                   what="the name entry to take the focus")


def _window_id_of(cli, app):
    ids = [w["id"] for w in cli.ok("list-windows", *FIXTURE) if w["pid"] == app.pid
           and w["title"] == FIXTURE_TITLE]
    assert len(ids) == 1, ids
    return ids[0]


@pytest.fixture
def second_fixture(fixture_bin, fixture_app, tmp_path):
    """A second ad-fixture instance with its own state line; stopped by pid afterwards."""
    inst = launch([fixture_bin], "ad-fixture-2",
                  extra_env={"AD_FIXTURE_STATE_FILE": str(tmp_path / "second.json")},
                  ready=lambda w: obs.by_id(w, "status_label") is not None, log_dir=tmp_path)
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def _expect_two_instances(result, first, second):
    err = expect_error(result, "AMBIGUOUS_TARGET")
    assert err["details"]["instance_count"] == 2
    assert {c["pid"] for c in err["details"]["candidates"]} == {first.pid, second.pid}
    assert "--window-id" in err["suggestion"]
    assert "recovery" not in err
    return err


def test_several_instances_are_ambiguous(cli, fixture_app, second_fixture):
    need_state(fixture_app)
    second = second_fixture
    _focus_name_entry(fixture_app)  # the session's instance is the active one
    err = _expect_two_instances(cli.run("press", "x", *FIXTURE), fixture_app, second)
    _expect_two_instances(cli.run("snapshot", *FIXTURE, "-i"), fixture_app, second)
    _expect_two_instances(cli.run("find", *FIXTURE, "--native-id", "inc_button"), fixture_app,
                          second)
    # Canary, and the way out the error names: a --window-id from its candidates.
    wid = [c["id"] for c in err["details"]["candidates"] if c["pid"] == fixture_app.pid
           and c["title"] == FIXTURE_TITLE]
    assert wid == [_window_id_of(cli, fixture_app)]
    cli.ok("press", "y", "--window-id", wid[0])
    state = wait_state(fixture_app, lambda s: s["name"] != "", "the canary key")
    assert state["name"] == "y"  # the refused x never reached the active instance
    assert second.state()["name"] == ""  # nor the other one
    assert cli.ok("snapshot", "--window-id", wid[0], "-i")["window"]["id"] == wid[0]


def test_window_id_of_another_app_is_not_found(cli, fixture_app, calculator_app,
                                                fixture_window_id):
    need_state(fixture_app)
    _focus_name_entry(fixture_app)
    for argv in (["press", "7", *CALC, "--window-id", fixture_window_id],
                 ["snapshot", *CALC, "--window-id", fixture_window_id],
                 ["find", *CALC, "--window-id", fixture_window_id, "--native-id",
                  "inc_button"]):
        err = expect_error(cli.run(*argv), "WINDOW_NOT_FOUND", kind="window_not_of_app")
        assert err["details"]["window_app"] == "ad-fixture"
        assert "list-windows --app gnome-calculator" in err["suggestion"]
    # Canary: the right pairing is accepted and lands; the refused 7 never did.
    cli.ok("press", "z", *FIXTURE, "--window-id", fixture_window_id)
    state = wait_state(fixture_app, lambda s: s["name"] != "", "the canary key")
    assert state["name"] == "z"
