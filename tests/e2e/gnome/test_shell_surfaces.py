"""GNOME Shell surfaces (surfaces.md; platforms/linux.md "Shell surfaces"; observation.md
open-system-surface): status supported_surfaces, open-system-surface --surface action-center,
snapshot / find --surface action-center and a ref click inside it, each effect read back
through pyatspi from gnome-shell's own tree (the clock menu's calendar is showing or not).

On GNOME Wayland the clicks go through the adapter's `physical` op, which the Wayland input
session makes work; until it does, the tests that send input fail there with
ACTION_NOT_SUPPORTED wayland_session."""
import subprocess
import sys

import pytest

import atspi_observer as obs
from action_helpers import need_state, wait_state
from e2e_helpers import expect_error, nodes

BASE_KINDS = ["window", "focused", "sheet", "alert", "menu"]
# Kinds the Linux table refuses (platforms/linux.md) and kinds Linux has no shell for.
REFUSED_KINDS = ["quick-settings", "taskbar", "start-menu", "system-tray-overflow", "dock",
                 "menu-bar-extras"]


# ---- the independent read: gnome-shell's tree through pyatspi ------------------------------


def _shell():
    apps = obs.wait_until(lambda: obs.apps_named("gnome-shell"), what="gnome-shell on AT-SPI")
    return apps[0]


def _shown(acc):
    try:
        return {"showing", "visible"} <= obs.state_names(acc)
    except Exception:
        return False


def _shown_named(root, role, name, depth=0):
    """A showing descendant with this AT-SPI role and name, descending only through showing
    nodes (a closed menu is not showing, so this stays cheap)."""
    if depth > 30:
        return None
    for i in range(root.childCount):
        try:
            c = root.getChildAtIndex(i)
        except Exception:
            continue
        if c is None or not _shown(c):
            continue
        if c.getRoleName() == role and c.name == name:
            return c
        hit = _shown_named(c, role, name, depth + 1)
        if hit is not None:
            return hit
    return None


def calendar_showing():
    """The clock menu is open: its calendar's month buttons show (English desktop)."""
    stage = _shell().getChildAtIndex(0)
    return _shown_named(stage, "push button", "Previous month") is not None


def month_label():
    """The calendar's month heading ("December", "January 2027"), or None when closed."""
    stage = _shell().getChildAtIndex(0)
    prev = _shown_named(stage, "push button", "Previous month")
    if prev is None:
        return None
    row = prev.parent
    for i in range(row.childCount):
        c = row.getChildAtIndex(i)
        if c is not None and c.getRoleName() == "label":
            return c.name
    return None


# ---- helpers -----------------------------------------------------------------------------


def _close(cli):
    """Closes the clock menu with Escape (the open shell menu holds the keyboard) and waits
    until pyatspi reads it closed."""
    if calendar_showing():
        cli.ok("press", "escape")
        obs.wait_until(lambda: not calendar_showing(), what="the clock menu to close")


def _close_overview():
    """Test setup: the Overview (which covers the windows) closed, as the desktop script
    leaves it; gnome-shell may show it again when its last window goes."""
    subprocess.run(["dbus-send", "--session", "--print-reply", "--dest=org.gnome.Shell",
                    "/org/gnome/Shell", "org.freedesktop.DBus.Properties.Set",
                    "string:org.gnome.Shell", "string:OverviewActive",
                    "variant:boolean:false"], check=True, stdout=subprocess.DEVNULL)


@pytest.fixture
def closed(cli, shell_pid):
    _close_overview()
    _close(cli)
    assert not calendar_showing()
    yield
    _close(cli)


def _open(cli):
    data = cli.ok("--headed", "open-system-surface", "--surface", "action-center")
    obs.wait_until(calendar_showing, what="the clock menu to show")
    return data


# ---- status ------------------------------------------------------------------------------


def test_supported_surfaces_add_action_center(cli, closed):
    kinds = cli.ok("status")["supported_surfaces"]
    # No StatusNotifierWatcher on this desktop: no system-tray.
    assert kinds == BASE_KINDS + ["action-center"], kinds
    # Every listed kind is one snapshot accepts; a closed shell surface is WINDOW_NOT_FOUND.
    err = expect_error(cli.run("snapshot", "--surface", "action-center"), "WINDOW_NOT_FOUND")
    assert err["details"]["surface"] == "action-center", err
    for kind in REFUSED_KINDS:
        err = expect_error(cli.run("snapshot", "--surface", kind), "INVALID_ARGS")
        assert err["details"]["supported_surfaces"] == kinds, err
        assert err["details"]["requested_surface"] == kind, err


WATCHER = """
import sys
from gi.repository import Gio, GLib
loop = GLib.MainLoop()
Gio.bus_own_name(Gio.BusType.SESSION, "org.kde.StatusNotifierWatcher",
                 Gio.BusNameOwnerFlags.NONE, None,
                 lambda *a: (print("owned", flush=True)), lambda *a: loop.quit())
loop.run()
"""


def test_system_tray_only_with_a_status_notifier_watcher(cli, closed):
    assert "system-tray" not in cli.ok("status")["supported_surfaces"]
    watcher = subprocess.Popen([sys.executable, "-c", WATCHER], stdout=subprocess.PIPE,
                               text=True)
    try:
        assert watcher.stdout.readline().strip() == "owned"
        kinds = cli.ok("status")["supported_surfaces"]
        assert kinds == BASE_KINDS + ["action-center", "system-tray"], kinds
        # Headless: the tray is the top bar's status area, always on screen.
        data = cli.ok("snapshot", "--surface", "system_tray")
        names = {n.get("name") for n in nodes(data["tree"])}
        assert data["window"]["id"].startswith("w-")
        # pyatspi: the System menu button shows in the bar, and the tray read holds it.
        assert _shown_named(_shell().getChildAtIndex(0), "menu", "System") is not None
        assert "System" in names, names
        # Opening it: headless refused, headed returns the same area without a click.
        expect_error(cli.run("open-system-surface", "--surface", "system-tray"),
                     "POLICY_DENIED")
        opened = cli.ok("--headed", "open-system-surface", "--surface", "system-tray")
        assert opened["window"]["id"] == data["window"]["id"], opened
        assert not calendar_showing()
    finally:
        watcher.terminate()
        watcher.wait(timeout=10)
    obs.wait_until(lambda: "system-tray" not in cli.ok("status")["supported_surfaces"],
                   what="system-tray to leave supported_surfaces")


def test_the_shell_has_no_app_window(cli, closed, shell_pid):
    # gnome-shell's stage (pyatspi: its one full-screen window) is no app window: list-windows
    # leaves it out (on Wayland it was listed, nameless, covering the screen), and the shell
    # has no taskbar entry, so list-apps calls it a background app.
    stage = _shell().getChildAtIndex(0)
    assert stage.getRoleName() == "window" and _shown(stage)
    assert cli.ok("list-windows", "--app", "gnome-shell") == []
    assert shell_pid not in [w["pid"] for w in cli.ok("list-windows")]
    apps = cli.ok("list-apps", "--app", "gnome-shell")["apps"]
    assert [(a["pid"], a["presentation"]) for a in apps] == [(shell_pid, "background")], apps


# ---- open-system-surface -----------------------------------------------------------------


def test_open_action_center_headed(cli, closed, shell_pid):
    data = _open(cli)
    assert data["surface"] == "action-center"
    win = data["window"]
    assert win["id"].startswith("w-") and win["pid"] == shell_pid, win
    assert win["app_name"] == "gnome-shell" and win["visible"] is True, win
    # The window is one list-windows lists (and the shell's stage is not).
    listed = cli.ok("list-windows", "--app", "gnome-shell")
    assert [w["id"] for w in listed] == [win["id"]], listed
    # snapshot --surface and snapshot --window-id read the same surface.
    by_kind = cli.ok("snapshot", "--surface", "action-center")
    by_id = cli.ok("snapshot", "--window-id", win["id"])
    assert by_kind["window"]["id"] == by_id["window"]["id"] == win["id"]
    names = {n.get("name") for n in nodes(by_kind["tree"])}
    assert {"Previous month", "Next month"} <= names, names
    assert names == {n.get("name") for n in nodes(by_id["tree"])}
    # Shell surfaces belong to the OS: list-surfaces never shows them (surfaces.md).
    code, env = cli.run("list-surfaces", "--app", "gnome-shell")
    if env["ok"]:
        assert win["id"] not in [s["id"] for s in env["data"]["surfaces"]], env
    # Already open: returned again without a click (a click on the clock would close it).
    again = cli.ok("--headed", "open-system-surface", "--surface", "action-center")
    assert again["window"]["id"] == win["id"]
    assert calendar_showing()
    # Closed again with Escape: read closed, and the surface is WINDOW_NOT_FOUND.
    cli.ok("press", "escape")
    obs.wait_until(lambda: not calendar_showing(), what="the clock menu to close")
    expect_error(cli.run("snapshot", "--surface", "action-center"), "WINDOW_NOT_FOUND")
    expect_error(cli.run("snapshot", "--window-id", win["id"]), "WINDOW_NOT_FOUND")


def test_headless_open_is_policy_denied(cli, closed, fixture_app):
    state = need_state(fixture_app)
    err = expect_error(cli.run("open-system-surface", "--surface", "action-center"),
                       "POLICY_DENIED")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert "--headed" in err["suggestion"]
    # Ordering canary: a click into the fixture after the refusal, through the same raw-point
    # physical input open-system-surface uses. Had the refused command clicked the clock,
    # the open menu would take this click (and close) and the fixture would never count it;
    # once it has, the menu was still closed.
    x, y, w, h = obs.extents(obs.by_id(fixture_app.window(), "inc_button"))
    cli.ok("--headed", "mouse-click", "--xy", "%d,%d" % (x + w // 2, y + h // 2))
    wait_state(fixture_app, lambda s: s["count"] > state["count"], "the canary click")
    assert not calendar_showing()


@pytest.mark.parametrize("kind", ["start-menu", "quick-settings", "taskbar",
                                  "system-tray-overflow", "system-tray", "dock"])
def test_refused_kinds_suggest_what_works(cli, closed, kind):
    kinds = cli.ok("status")["supported_surfaces"]
    err = expect_error(cli.run("--headed", "open-system-surface", "--surface", kind),
                       "INVALID_ARGS")
    assert err["details"]["supported_surfaces"] == kinds, err
    assert err["details"]["requested_surface"] == kind, err
    assert not calendar_showing()  # refused before anything was sent
    # The suggestion names a command that works when followed.
    hint = err["suggestion"]
    command = "agent-desktop --headed open-system-surface --surface action-center"
    assert command in hint, hint
    data = cli.ok(*command.split()[1:])
    assert data["surface"] == "action-center"
    obs.wait_until(calendar_showing, what="the clock menu to show")


# ---- snapshot and refs inside the surface -----------------------------------------------


def test_snapshot_refs_resolve_and_click(cli, closed):
    _open(cli)
    before = month_label()
    assert before, "no month heading in the calendar"
    found = cli.ok("find", "--surface", "action-center", "--name", "Next month", "--first")
    target = found["match"]["ref_id"]
    assert target
    # gnome-shell offers no action: headless fails closed, nothing is pressed.
    expect_error(cli.run("click", target), "ACTION_NOT_SUPPORTED")
    assert month_label() == before
    # --headed clicks it at the element's screen point, through the normal ref path.
    data = cli.ok("--headed", "click", target)
    assert data["steps"][0]["mechanism"] == "physical_synthetic", data
    obs.wait_until(lambda: month_label() not in (None, before), what="the next month")
    assert calendar_showing()
