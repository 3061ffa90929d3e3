"""GTK3 overlays outside a window's own child tree, as `menu` surfaces (surfaces.md,
platforms/linux.md "Surfaces"): the fixture's "Options" GtkPopover and its right-click context
menu (an unattached GtkMenu in its own popup-menu top level), and gtk3-widget-factory's
GtkPopoverMenu. Every effect is read back through the fixture's state line and pyatspi."""
import re
import shutil

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, UNVERIFIED, activate, ensure_fixture_active,
                            need_state, ref, wait_state)
from e2e_helpers import expect_error, fixture_reset, nodes


# ---- pyatspi reads -----------------------------------------------------------------------


def _showing(acc):
    return acc is not None and {"showing", "visible"} <= obs.state_names(acc)


def _popover(window):
    return obs.by_id(window, "options_popover")


def _popup_for(acc):
    """Targets of the element's POPUP_FOR relations (how GTK3 marks a popover)."""
    out = []
    for rel in acc.getRelationSet():
        if rel.getRelationType() == obs.pyatspi.RELATION_POPUP_FOR:
            out += [rel.getTarget(i) for i in range(rel.getNTargets())]
    return out


def _context_popup(app):
    """The fixture's shown popup-menu top level (an application child, not inside the
    window), or None."""
    acc = obs.app_for_pid(app.pid)
    for i in range(acc.childCount if acc else 0):
        top = acc.getChildAtIndex(i)
        try:
            attrs = dict(a.split(":", 1) for a in top.getAttributes())
        except Exception:
            continue
        if (top.getRoleName() == "window" and attrs.get("window-type") == "popup-menu"
                and _showing(top) and obs.by_id(top, "context_menu") is not None):
            return top
    return None


def _label_number(window, acc_id, prefix):
    text = obs.by_id(window, acc_id).name
    m = re.match(r"^%s: (\d+)$" % prefix, text)
    assert m, text
    return int(m.group(1))


# ---- cleanup -----------------------------------------------------------------------------


def _close_overlays(cli, app):
    window = app.window()
    if _showing(_popover(window)):
        obs.do_action(obs.by_id(window, "options_button"), "click")
        obs.wait_until(lambda: not _showing(_popover(app.window())), what="the popover to close")
    if _context_popup(app) is not None:
        cli.run("--headed", "press", "escape", *FIXTURE)
        obs.wait_until(lambda: _context_popup(app) is None, what="the context menu to close")


@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    _close_overlays(cli, fixture_app)
    fixture_reset(fixture_app)
    yield
    _close_overlays(cli, fixture_app)
    fixture_reset(fixture_app)


def _window_entry(window_id):
    return {"id": window_id, "title": FIXTURE_TITLE, "type": "window"}


def _expect_menu_absent(cli):
    for argv in (["snapshot", *FIXTURE, "--surface", "menu"],
                 ["find", *FIXTURE, "--surface", "menu", "--name", "Ping"]):
        err = expect_error(cli.run(*argv), "ELEMENT_NOT_FOUND", kind="surface_absent")
        assert err["details"]["surface"] == "menu" and err["details"]["complete"] is True


# ---- the popover -------------------------------------------------------------------------


def test_popover_is_a_menu_surface_while_open(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    window = fixture_app.window()
    popover = _popover(window)
    # GTK3's shape: a panel among the window's children, a popup for the menu button.
    assert popover.getRoleName() == "panel" and popover.parent.getRoleName() != "application"
    assert [t.accessibleId for t in _popup_for(popover)] == ["options_button"]
    assert not _showing(popover)
    _expect_menu_absent(cli)
    assert cli.ok("list-surfaces", *FIXTURE)["surfaces"] == [_window_entry(fixture_window_id)]

    data = cli.ok("click", ref(cli, "options_button"))
    assert data["disposition"] == UNVERIFIED
    menu = {"id": fixture_window_id, "item_count": 1, "title": "Options", "type": "menu"}
    # GTK3 runs a button's AT-SPI click from an idle, so the popover may open after the
    # action's surface read (platforms/linux.md: run wait --menu before assuming a failure).
    assert data["surfaces"] in ([_window_entry(fixture_window_id)],
                                [_window_entry(fixture_window_id), menu])
    obs.wait_until(lambda: _showing(_popover(fixture_app.window())), what="the popover")
    assert cli.ok("wait", "--menu", *FIXTURE, "--timeout", "5000")["found"] is True
    assert cli.ok("list-surfaces", *FIXTURE)["surfaces"] == [_window_entry(fixture_window_id),
                                                             menu]

    snap = cli.ok("snapshot", *FIXTURE, "--surface", "menu", "-i", "--compact")
    tree = snap["tree"]
    assert tree["role"] == "group" and tree["name"] == "Options"
    assert snap["window"]["id"] == fixture_window_id
    # The popover and its button, nothing of the window behind it.
    assert {n.get("native_id", {}).get("value") for n in nodes(tree)} == \
        {"options_popover", "ping_button"}
    assert snap["ref_count"] == 1
    assert _showing(obs.by_id(fixture_app.window(), "ping_button"))

    found = cli.ok("find", *FIXTURE, "--surface", "menu", "--name", "Ping", "--exact", "--first")
    assert found["match"]["role"] == "button"
    cli.ok("click", found["match"]["ref_id"])
    state = wait_state(fixture_app, lambda s: s["pings"] == before["pings"] + 1, "Ping to run")
    assert state["last_action"] == "ping"
    assert _label_number(fixture_app.window(), "ping_label", "pings") == state["pings"]
    # Ping closes the popover: the surface is gone, from a complete lookup.
    obs.wait_until(lambda: not _showing(_popover(fixture_app.window())),
                   what="the popover to close")
    assert cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")["found"] is True
    _expect_menu_absent(cli)
    assert cli.ok("list-surfaces", *FIXTURE)["surfaces"] == [_window_entry(fixture_window_id)]


@pytest.fixture
def _factory_menu_closed(cli, widget_factory_app, fixture_app):
    """gtk3-widget-factory with its gear popover closed before and after the test."""
    def gear():
        win = widget_factory_app.window()
        return [o.acc for o in obs.walk(win) if o.role == "toggle button" and o.name == "Menu"][0]

    def close():
        if "checked" in obs.state_names(gear()):
            obs.do_action(gear(), "click")
            obs.wait_until(lambda: "checked" not in obs.state_names(gear()),
                           what="the gear menu to close")
    close()
    yield gear
    close()
    activate(fixture_app, FIXTURE_TITLE)


def test_widget_factory_popover_menu(cli, widget_factory_app, _factory_menu_closed):
    app = ["--app", "gtk3-widget-factory"]
    expect_error(cli.run("snapshot", *app, "--surface", "menu"), "ELEMENT_NOT_FOUND",
                 kind="surface_absent")
    gear = _factory_menu_closed
    obs.do_action(gear(), "click")
    assert cli.ok("wait", "--menu", *app, "--timeout", "5000")["found"] is True
    snap = cli.ok("snapshot", *app, "--surface", "menu", "-i", "--compact")
    refs = [(n["role"], n["name"]) for n in nodes(snap["tree"]) if "ref_id" in n]
    assert refs == [("button", "Get Busy"), ("checkbox", "Dark Theme"),
                    ("checkbox", "Slide Pages"), ("button", "Inspector"),
                    ("button", "Keyboard Shortcuts"), ("button", "About Widget Factory")]
    # pyatspi: those items are showing, inside a shown panel that is a popup for the gear.
    win = obs.window_for_pid(widget_factory_app.pid)
    busy = [o.acc for o in obs.walk(win) if o.name == "Get Busy"][0]
    assert _showing(busy)
    panel = [a for a in obs.ancestors(busy) if _popup_for(a)][0]
    assert _showing(panel) and _popup_for(panel)[0].name == "Menu"
    listed = cli.ok("list-surfaces", *app)["surfaces"]
    assert [s for s in listed if s["type"] == "menu"][0]["item_count"] == 6
    obs.do_action(gear(), "click")  # the toggle closes it again
    assert cli.ok("wait", "--menu-closed", *app, "--timeout", "5000")["found"] is True
    assert not _showing(panel)
    expect_error(cli.run("find", *app, "--surface", "menu", "--name", "Get Busy"),
                 "ELEMENT_NOT_FOUND", kind="surface_absent")



def test_widget_factory_unreported_checked_state_is_refused(cli, widget_factory_app,
                                                            _factory_menu_closed):
    """GTK 3.24 never reports the checked state of a popover's model button ("Dark Theme"):
    check, uncheck and toggle refuse before anything is sent (interaction.md, toggle), and no
    step claims a read. A click on a model button closes its popover, so the popover still
    open after a canary action proves nothing was clicked."""
    app = ["--app", "gtk3-widget-factory"]
    gear = _factory_menu_closed
    obs.do_action(gear(), "click")
    assert cli.ok("wait", "--menu", *app, "--timeout", "5000")["found"] is True
    win = obs.window_for_pid(widget_factory_app.pid)
    dark = [o for o in obs.walk(win) if o.name == "Dark Theme"][0]
    assert "checked" not in dark.states and "checkable" not in dark.states  # what GTK3 shows
    target = cli.ok("find", *app, "--surface", "menu", "--role", "checkbox", "--name",
                    "Dark Theme", "--exact", "--first")["match"]["ref_id"]
    for action in ("check", "uncheck", "toggle"):
        err = expect_error(cli.run(action, target), "ACTION_FAILED", delivery="not_delivered")
        assert err["details"]["cause"] == "state_unreadable", err
        assert "after_action" not in err["details"] and "steps" not in err["details"]
    # `is` does not turn the unreported state into "unchecked".
    assert cli.ok("is", target, "--property", "checked")["applicable"] is False
    # Canary: a click on the window's first enabled check button, processed by GTK after
    # anything the refused commands could have sent.
    box = [o.acc for o in obs.walk(win) if o.role == "check box" and o.name == "checkbutton"
           and "enabled" in o.states and "checked" not in o.states][0]
    obs.do_action(box, "click")
    try:
        obs.wait_until(lambda: "checked" in obs.state_names(box), what="the canary check")
        assert "checked" in obs.state_names(gear())  # the popover was never clicked shut
        assert _showing([o.acc for o in obs.walk(win) if o.name == "Dark Theme"][0])
    finally:
        obs.do_action(box, "click")
        obs.wait_until(lambda: "checked" not in obs.state_names(box), what="canary undone")

# ---- the context menu --------------------------------------------------------------------


def _open_context_menu(cli, fixture_app, fixture_window_id, headed):
    argv = (["--headed"] if headed else []) + ["right-click", ref(cli, "context_target")]
    if headed:
        ensure_fixture_active(fixture_app)
    data = cli.ok(*argv)
    assert data["disposition"] == UNVERIFIED
    labels = [s["label"] for s in data["steps"]]
    assert ("pointer_click" in labels) if headed else (labels == ["Action.DoAction"])
    popup = obs.wait_until(lambda: _context_popup(fixture_app), what="the context menu")
    # Outside the window's tree: an application child of its own.
    assert obs.by_id(fixture_app.window(), "context_menu") is None
    return data, popup


@pytest.mark.parametrize("headed", [False, True], ids=["headless", "headed"])
def test_context_menu_from_right_click(cli, fixture_app, fixture_window_id, headed):
    if headed and not shutil.which("xdotool"):
        pytest.skip("xdotool is needed to make the fixture window active")
    before = need_state(fixture_app)
    assert _context_popup(fixture_app) is None
    data, popup = _open_context_menu(cli, fixture_app, fixture_window_id, headed)
    assert cli.ok("wait", "--menu", *FIXTURE, "--timeout", "5000")["found"] is True
    listed = cli.ok("list-surfaces", *FIXTURE)["surfaces"]
    assert len(listed) == 2 and listed[0] == _window_entry(fixture_window_id), listed
    menu = listed[1]
    # The popup top level is the menu's owner, not a window surface of its own.
    assert menu["type"] == "menu" and menu["title"] == "Context" and menu["item_count"] == 2
    popup_id = menu["id"]
    assert popup_id != fixture_window_id
    # The menu pops up from an idle (an AT-SPI action) or the next event (XTEST): the
    # right-click's own read may come first, and then lists the window alone.
    assert data["surfaces"] in ([_window_entry(fixture_window_id)], listed)

    snap = cli.ok("snapshot", *FIXTURE, "--surface", "menu", "-i", "--compact")
    assert snap["window"]["id"] == popup_id
    tree = snap["tree"]
    assert tree["role"] == "menu" and tree["name"] == "Context"
    items = [(n["role"], n["name"]) for n in nodes(tree) if n is not tree]
    assert items == [("menuitem", "Mark"), ("menuitem", "Clear marks")]
    # snapshot --app still reads the window behind the menu.
    assert cli.ok("snapshot", *FIXTURE, "-i", "--compact")["window"]["id"] == fixture_window_id

    mark = [n for n in nodes(tree) if n.get("name") == "Mark"][0]
    cli.ok("click", mark["ref_id"])
    state = wait_state(fixture_app, lambda s: s["context_marks"] == before["context_marks"] + 1,
                       "Mark to run")
    assert state["last_action"] == "mark"
    assert _label_number(fixture_app.window(), "context_label", "marks") == \
        state["context_marks"]
    obs.wait_until(lambda: _context_popup(fixture_app) is None, what="the menu to close")
    assert cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")["found"] is True
    _expect_menu_absent(cli)


def test_context_menu_closed_with_escape(cli, fixture_app, fixture_window_id):
    before = need_state(fixture_app)
    _open_context_menu(cli, fixture_app, fixture_window_id, headed=False)
    assert cli.ok("snapshot", *FIXTURE, "--surface", "menu")["tree"]["name"] == "Context"
    data = cli.ok("press", "escape", *FIXTURE)
    assert data["disposition"] == UNVERIFIED
    assert cli.ok("wait", "--menu-closed", *FIXTURE, "--timeout", "5000")["found"] is True
    assert _context_popup(fixture_app) is None
    _expect_menu_absent(cli)
    state = fixture_app.state()
    assert state["context_marks"] == before["context_marks"]
    assert _label_number(fixture_app.window(), "context_label", "marks") == \
        before["context_marks"]
