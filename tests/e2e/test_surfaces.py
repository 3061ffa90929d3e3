"""Surfaces: list-surfaces, snapshot and find --surface for the File menu and the modal
dialog of ad-fixture (surfaces.md, commands/observation.md list-surfaces), checked against
pyatspi and the fixture's state line."""
import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, DIALOG_TITLE, UNVERIFIED, close_dialog,
                            dialog_window, ensure_fixture_active, menu_open, need_state, ref,
                            wait_state)
from e2e_helpers import expect_error, find_node, fixture_reset, nodes, ref_number


@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def _window_entry(window_id):
    return {"id": window_id, "title": FIXTURE_TITLE, "type": "window"}


def test_list_surfaces_with_nothing_open(cli, fixture_app, fixture_window_id):
    shown = obs.windows_of(obs.app_for_pid(fixture_app.pid))
    assert [w.name for w in shown] == [FIXTURE_TITLE]
    assert not menu_open(fixture_app.window())
    data = cli.ok("list-surfaces", *FIXTURE)
    assert data["pid"] == fixture_app.pid
    assert data["surfaces"] == [_window_entry(fixture_window_id)]


def test_menu_surface(cli, state_home, fixture_app, fixture_window_id):
    need_state(fixture_app)
    popup_items = ["Quit", "About"]
    # Closed: the menu surface is absent, and says so from a complete lookup.
    for argv in (["snapshot", *FIXTURE, "--surface", "menu"],
                 ["find", *FIXTURE, "--surface", "menu", "--name", "About"]):
        err = expect_error(cli.run(*argv), "ELEMENT_NOT_FOUND", kind="surface_absent")
        assert err["details"]["surface"] == "menu" and err["details"]["complete"] is True

    # Open the File menu with a headless click on its menu-bar item.
    data = cli.ok("click", ref(cli, "file_menu"))
    assert data["disposition"] == UNVERIFIED
    menu = {"id": fixture_window_id, "item_count": len(popup_items), "title": "File",
            "type": "menu"}
    assert data["surfaces"] == [_window_entry(fixture_window_id), menu]
    obs.wait_until(lambda: menu_open(fixture_app.window()), what="the File menu")
    listed = cli.ok("list-surfaces", *FIXTURE)
    assert listed["surfaces"] == [_window_entry(fixture_window_id), menu]

    snap = cli.ok("snapshot", *FIXTURE, "--surface", "menu", "-i", "--compact")
    tree = snap["tree"]
    assert tree["role"] == "menu" and tree["name"] == "File"
    assert snap["window"]["id"] == fixture_window_id
    items = [n for n in nodes(tree) if n is not tree]
    assert [(n["role"], n["name"]) for n in items] == [("menuitem", i) for i in popup_items]
    # Nothing from the window behind the menu.
    assert {n.get("native_id", {}).get("value") for n in nodes(tree)} == \
        {"file_menu", "quit_item", "about_item"}
    assert snap["ref_count"] == 1 + len(popup_items)
    # pyatspi sees the same items, showing.
    win = fixture_app.window()
    for acc_id in ("quit_item", "about_item"):
        assert "showing" in obs.state_names(obs.by_id(win, acc_id))

    found = cli.ok("find", *FIXTURE, "--surface", "menu", "--name", "About", "--exact",
                   "--first")
    about = found["match"]
    assert about["role"] == "menuitem" and ref_number(about["ref_id"])[0] == found["snapshot_id"]
    # The menu ref acts: About runs and the menu closes.
    before = fixture_app.state()
    cli.ok("click", about["ref_id"])
    state = wait_state(fixture_app, lambda s: s["about"] == before["about"] + 1, "About to run")
    assert state["last_action"] == "about"
    obs.wait_until(lambda: not menu_open(fixture_app.window()), what="the menu to close")
    err = expect_error(cli.run("snapshot", *FIXTURE, "--surface", "menu"), "ELEMENT_NOT_FOUND",
                       kind="surface_absent")
    assert err["details"]["complete"] is True
    assert cli.ok("list-surfaces", *FIXTURE)["surfaces"] == [_window_entry(fixture_window_id)]


def test_menu_surface_closed_with_escape(cli, fixture_app, fixture_window_id):
    ensure_fixture_active(fixture_app)
    cli.ok("click", ref(cli, "file_menu"))
    cli.ok("wait", "--menu", *FIXTURE, "--timeout", "5000")
    assert cli.ok("snapshot", *FIXTURE, "--surface", "menu")["tree"]["name"] == "File"
    data = cli.ok("press", "escape", *FIXTURE)
    assert data["disposition"] == UNVERIFIED
    cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")
    assert not menu_open(fixture_app.window())
    expect_error(cli.run("find", *FIXTURE, "--surface", "menu", "--name", "Quit"),
                 "ELEMENT_NOT_FOUND", kind="surface_absent")


@pytest.mark.parametrize("command", ["snapshot", "find"])
def test_unsupported_surface_kind(cli, fixture_app, command):
    supported = cli.ok("status")["supported_surfaces"]
    assert {"window", "sheet", "alert", "menu"} <= set(supported)
    argv = [command, *FIXTURE, "--surface", "popover"]
    if command == "find":
        argv += ["--name", "x"]
    err = expect_error(cli.run(*argv), "INVALID_ARGS")
    assert err["details"]["supported_surfaces"] == supported
    assert err["details"]["requested_surface"] == "popover"
    assert "recovery" not in err


def test_modal_dialog_surface(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    assert dialog_window(fixture_app) is None
    try:
        data = cli.ok("click", ref(cli, "open_dialog_button"))
        wait_state(fixture_app, lambda s: s["dialog_open"], "the dialog to open")
        dialog = obs.wait_until(lambda: dialog_window(fixture_app), what="the dialog window")
        states = obs.state_names(dialog)
        assert dialog.getRoleName() == "dialog" and "modal" in states
        rows = [w for w in cli.ok("list-windows", *FIXTURE) if w["title"] == DIALOG_TITLE]
        assert len(rows) == 1
        dialog_id = rows[0]["id"]
        # The kind comes from list-surfaces: a modal dialog is a sheet on Linux.
        listed = cli.ok("list-surfaces", *FIXTURE)["surfaces"]
        entry = [s for s in listed if s["id"] == dialog_id]
        assert len(entry) == 1 and entry[0]["title"] == DIALOG_TITLE
        kind = entry[0]["type"]
        assert kind == "sheet"
        assert _window_entry(fixture_window_id) in listed
        assert entry[0] in data["surfaces"]  # the click that opened it reported it too

        snap = cli.ok("snapshot", *FIXTURE, "--surface", kind)
        assert snap["window"] == {"id": dialog_id, "title": DIALOG_TITLE}
        assert snap["tree"]["role"] == "dialog" and snap["tree"]["name"] == DIALOG_TITLE
        ok_node = find_node(snap["tree"], native_id="dialog_ok_button")
        assert ok_node["role"] == "button" and ok_node["name"] == "OK"
        assert find_node(snap["tree"], native_id="inc_button") is None
        other = "alert" if kind == "sheet" else "sheet"
        expect_error(cli.run("snapshot", *FIXTURE, "--surface", other), "ELEMENT_NOT_FOUND",
                     kind="surface_absent")

        found = cli.ok("find", *FIXTURE, "--surface", kind, "--name", "OK", "--exact",
                       "--first")
        assert found["match"]["role"] == "button"
        cli.ok("click", found["match"]["ref_id"])
        state = wait_state(fixture_app, lambda s: not s["dialog_open"], "the dialog to close")
        assert state["dialog_ok"] == before["dialog_ok"] + 1
        obs.wait_until(lambda: dialog_window(fixture_app) is None, what="the dialog to go")
        assert cli.ok("list-surfaces", *FIXTURE)["surfaces"] == \
            [_window_entry(fixture_window_id)]
        expect_error(cli.run("snapshot", *FIXTURE, "--surface", kind), "ELEMENT_NOT_FOUND",
                     kind="surface_absent")
    finally:
        close_dialog(fixture_app)


def test_modal_dialog_blocks_a_click_behind_it(cli, fixture_app):
    """platforms/linux.md troubleshooting: a modal dialog blocks its window, so a semantic
    click there is refused (ACTION_FAILED, blocked_by_modal_dialog) before anything is sent."""
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    try:
        cli.ok("click", ref(cli, "open_dialog_button"))
        wait_state(fixture_app, lambda s: s["dialog_open"], "the dialog to open")
        dialog = obs.wait_until(lambda: dialog_window(fixture_app), what="the dialog window")
        assert "modal" in obs.state_names(dialog)
        err = expect_error(cli.run("click", inc), "ACTION_FAILED", delivery="not_delivered")
        assert err["details"]["cause"] == "blocked_by_modal_dialog", err
        blocking = err["details"]["blocking_surface"]
        assert blocking["title"] == DIALOG_TITLE and blocking["type"] == "sheet"
        assert blocking["id"] in [w["id"] for w in cli.ok("list-windows", *FIXTURE)
                                  if w["title"] == DIALOG_TITLE]
        # Canary: OK closes the dialog; GTK handles it after anything the refused click sent.
        close_dialog(fixture_app)
        state = wait_state(fixture_app, lambda s: s["dialog_ok"] == before["dialog_ok"] + 1,
                           "the dialog's OK")
        assert state["count"] == before["count"]
        assert obs.by_id(fixture_app.window(), "count_label").name == "count: %d" % before["count"]
        # With the dialog gone the same ref acts again.
        cli.ok("click", inc)
        wait_state(fixture_app, lambda s: s["count"] == before["count"] + 1, "the increment")
    finally:
        close_dialog(fixture_app)
