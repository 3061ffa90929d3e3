"""Chromium: a web page's <select> dropdown as a menu surface, `select` and `click` on its
options, a button and a text field, read back through pyatspi (tests/fixture-web/form.html).

What Chromium 156 exposes (measured on Debian 12, X11, at-spi2-core 2.46):
  - the app registers as "Chromium" only with --force-renderer-accessibility; the browser
    window is a `frame` child of the application, the page a `document web` inside it;
  - a <select> is a `combo box` (no Selection, no value) with one `menu` child holding one
    `menu item` per option, whatever the popup's state; each option's only verb is "select";
  - opening the dropdown makes that menu and its items showing and the combo box expanded,
    and adds a nameless, childless `frame` child to the application: the override-redirect
    popup window, outside the browser window's tree. It appears on the bus after the menu.
"""
import os
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import atspi_observer as obs
from action_helpers import xdotool
from e2e_helpers import REPO_ROOT, expect_error, launch, nodes, ref_number

APP = ["--app", "Chromium"]
PAGE = Path(REPO_ROOT, "tests", "fixture-web", "form.html").as_uri()
WINDOW_TITLE = "AD Web Fixture - Chromium"
OPTIONS = ["Apple", "Banana", "Cherry", "Damson"]
LAUNCH_DEADLINE_S = 60.0


def _find(root, role, name=None):
    stack = [root]
    while stack:
        acc = stack.pop()
        try:
            if acc.getRoleName() == role and (name is None or acc.name == name):
                return acc
            stack.extend(c for c in (acc.getChildAtIndex(i)
                                     for i in range(acc.childCount - 1, -1, -1)) if c)
        except Exception:
            continue
    return None


def _ready(window):
    return window.name == WINDOW_TITLE and _find(window, "combo box", "Fruit") is not None


def _stop_chromium(popen, profile, timeout=10.0):
    """Chromium forks zygotes, renderer, GPU and utility processes into the process group
    the launch created, and chrome_crashpad_handler into sessions of its own (whose command
    line names the profile directory): stop all of them, then check that none is left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pid in _chromium_processes(popen.pid, profile):
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and _chromium_processes(popen.pid, profile):
            popen.poll()  # reap the leader, so that it does not linger as a zombie
            time.sleep(0.05)
        if not _chromium_processes(popen.pid, profile):
            break
    popen.wait(timeout)
    left = _chromium_processes(popen.pid, profile)
    assert not left, "chromium processes still running: %r" % left


def _chromium_processes(pgid, profile):
    """Live (non-zombie) processes of our uid in the group `pgid` or naming `profile`."""
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            if os.stat("/proc/" + d).st_uid != os.getuid():
                continue
            with open("/proc/%s/stat" % d) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            with open("/proc/%s/cmdline" % d, "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if fields[0] != "Z" and (int(fields[2]) == pgid or profile.encode() in cmdline):
            out.append(int(d))
    return out


@pytest.fixture(scope="module")
def chromium():
    exe = shutil.which("chromium")
    if not exe:
        pytest.skip("chromium is not installed (scripts/install-deps.sh installs it)")
    profile = tempfile.mkdtemp(prefix="ad-e2e-chromium-")
    argv = [exe,
            # Renderer accessibility is off unless forced (platforms/linux.md).
            "--force-renderer-accessibility",
            # As root (CI containers) Chromium refuses to start with its sandbox.
            "--no-sandbox",
            "--user-data-dir=" + profile, "--no-first-run", "--no-default-browser-check",
            "--disable-gpu", "--disable-dev-shm-usage", "--ozone-platform=x11",
            "--window-position=0,0", "--window-size=1000,800", PAGE]
    started = time.monotonic()
    inst = launch(argv, "chromium", extra_env={"ACCESSIBILITY_ENABLED": "1"}, ready=_ready,
                  timeout=LAUNCH_DEADLINE_S, log_dir=profile)
    inst.ready_after_s = time.monotonic() - started
    try:
        yield inst
    finally:
        _stop_chromium(inst.popen, profile)
        shutil.rmtree(profile, ignore_errors=True)


def _document(inst):
    window = obs.wait_for_window(inst.pid, title=WINDOW_TITLE, ready=_ready)
    return _find(window, "document web", "AD Web Fixture")


def _combo(inst):
    return _find(_document(inst), "combo box", "Fruit")


def _paragraph_texts(inst):
    doc = _document(inst)
    out = []
    for i in range(doc.childCount):
        p = doc.getChildAtIndex(i)
        if p is not None and p.getRoleName() == "paragraph" and p.childCount:
            out.append(p.getChildAtIndex(0).name)
    return out


def _fruit_status(inst):
    return [t for t in _paragraph_texts(inst) if t.startswith("Fruit: ")][0]


def _selected_option(inst):
    menu = _combo(inst).getChildAtIndex(0)
    picked = [menu.getChildAtIndex(i).name for i in range(menu.childCount)
              if "selected" in obs.state_names(menu.getChildAtIndex(i))]
    assert len(picked) == 1, picked
    return picked[0]


def _expanded(inst):
    return "expanded" in obs.state_names(_combo(inst))


def _popup_frames(inst):
    """Nameless, childless frames of the app: the <select> popup windows."""
    app = obs.app_for_pid(inst.pid)
    return [w for w in obs.windows_of(app) if w.getRoleName() == "frame" and not w.name and
            w.childCount == 0]


def _close_popup(cli, inst):
    if _expanded(inst):
        cli.ok("press", "escape", *APP)
        obs.wait_until(lambda: not _expanded(inst), what="the dropdown to close")
    obs.wait_until(lambda: not _popup_frames(inst), what="the popup window to go")


def _combo_ref(cli):
    return cli.ok("find", *APP, "--role", "combobox", "--name", "Fruit", "--exact",
                  "--first")["match"]["ref_id"]


@pytest.fixture
def page(cli, chromium):
    _close_popup(cli, chromium)
    yield chromium
    _close_popup(cli, chromium)


def test_chromium_registers_with_its_page(cli, page):
    apps = [a for a in cli.ok("list-apps", "--app", "Chromium")["apps"] if a["pid"] == page.pid]
    assert len(apps) == 1 and apps[0]["name"] == "Chromium"
    windows = [w for w in cli.ok("list-windows", *APP) if w["title"] == WINDOW_TITLE]
    assert len(windows) == 1 and windows[0]["pid"] == page.pid
    snap = cli.ok("snapshot", *APP, "-i")
    assert snap["window"]["title"] == WINDOW_TITLE
    combo = [n for n in nodes(snap["tree"]) if n["role"] == "combobox" and
             n.get("name") == "Fruit"]
    assert len(combo) == 1
    # The combo box reads the selected option as its value (pyatspi: the option's state).
    assert combo[0]["value"] == _selected_option(page)
    assert "Select" in combo[0]["available_actions"]
    assert [n["name"] for n in nodes(combo[0]) if n["role"] == "menuitem"] == OPTIONS
    for role, name in (("button", "Count"), ("textfield", "Name")):
        assert [n for n in nodes(snap["tree"]) if n["role"] == role and n.get("name") == name]


def test_select_dropdown_is_a_menu_surface(cli, page):
    window_id = [w["id"] for w in cli.ok("list-windows", *APP) if w["title"] == WINDOW_TITLE][0]
    # Closed: no menu surface, and the snapshot says so.
    assert not [s for s in cli.ok("list-surfaces", *APP)["surfaces"] if s["type"] == "menu"]
    err = expect_error(cli.run("snapshot", *APP, "--surface", "menu"), "ELEMENT_NOT_FOUND",
                       kind="surface_absent")
    assert err["details"]["surface"] == "menu"

    before = _selected_option(page)
    target = [o for o in OPTIONS if o != before][-1]
    data = cli.ok("click", _combo_ref(cli))
    assert data["disposition"]["delivery"] == "delivered_unverified"
    # The popup opens asynchronously (the browser process creates its window).
    cli.ok("wait", "--menu", *APP, "--timeout", "5000")
    obs.wait_until(lambda: _expanded(page), what="the combo box to expand")
    popup = obs.wait_until(lambda: _popup_frames(page), what="the popup window on the bus")
    assert len(popup) == 1
    # agent-desktop lists the popup window too: an unnamed window with the popup's bounds.
    px, py, pw, ph = obs.extents(popup[0])
    hosts = [w for w in cli.ok("list-windows", *APP)
             if w["title"] is None and w["bounds"] == {"x": px, "y": py, "width": pw,
                                                        "height": ph}]
    assert len(hosts) == 1

    surfaces = cli.ok("list-surfaces", *APP)["surfaces"]
    menus = [s for s in surfaces if s["type"] == "menu"]
    # One menu, read from the browser window that holds its items; the empty popup window is
    # that menu's host, not a window of its own.
    assert menus == [{"id": window_id, "item_count": len(OPTIONS), "type": "menu"}]
    assert {"id": window_id, "title": WINDOW_TITLE, "type": "window"} in surfaces
    assert hosts[0]["id"] not in [s["id"] for s in surfaces]

    snap = cli.ok("snapshot", *APP, "--surface", "menu", "-i")
    assert snap["window"]["id"] == window_id
    tree = snap["tree"]
    assert tree["role"] == "menu"
    items = [n for n in nodes(tree) if n is not tree]
    assert [(n["role"], n["name"]) for n in items] == [("menuitem", o) for o in OPTIONS]
    assert snap["ref_count"] == len(OPTIONS)

    found = cli.ok("find", *APP, "--surface", "menu", "--name", target, "--exact", "--first")
    assert ref_number(found["match"]["ref_id"])[0] == found["snapshot_id"]
    clicked = cli.ok("click", found["match"]["ref_id"])
    assert clicked["steps"][0]["label"] == "Action.DoAction"
    # The page's change handler ran, and the option is the selected one.
    obs.wait_until(lambda: _fruit_status(page) == "Fruit: " + target.lower(),
                   what="the page to report %s" % target)
    assert _selected_option(page) == target
    # Chromium's "select" verb picks the option but leaves the dropdown open.
    assert _expanded(page)
    assert [s for s in clicked["surfaces"] if s["type"] == "menu"] == menus

    cli.ok("press", "escape", *APP)
    obs.wait_until(lambda: not _expanded(page), what="the dropdown to close")
    obs.wait_until(lambda: not _popup_frames(page), what="the popup window to go")
    assert not [s for s in cli.ok("list-surfaces", *APP)["surfaces"] if s["type"] == "menu"]
    expect_error(cli.run("snapshot", *APP, "--surface", "menu"), "ELEMENT_NOT_FOUND",
                 kind="surface_absent")


def test_select_command_on_the_select(cli, page):
    before = _selected_option(page)
    target = [o for o in OPTIONS if o != before][0]
    ref = _combo_ref(cli)
    data = cli.ok("select", ref, target)
    assert data["disposition"]["delivery"] == "delivered_verified"
    assert data["post_state"]["value"] == target
    assert data["steps"] == [{"label": "Action.DoAction", "mechanism": "semantic_api",
                              "outcome": "succeeded", "verified": True}]
    # Independent: the option is selected and the page's change handler ran.
    assert _selected_option(page) == target
    obs.wait_until(lambda: _fruit_status(page) == "Fruit: " + target.lower(),
                   what="the page to report %s" % target)
    # Picked without opening the dropdown.
    assert not _expanded(page) and not _popup_frames(page)

    again = cli.ok("select", ref, target)
    assert again["disposition"]["delivery"] == "not_delivered"
    assert again["steps"][0]["outcome"] == "skipped"
    expect_error(cli.run("select", ref, "Elderberry"), "ELEMENT_NOT_FOUND", kind="option_absent")
    assert _selected_option(page) == target


def test_click_button_and_type_in_page(cli, page):
    texts = _paragraph_texts(page)
    count = [t for t in texts if t.startswith("Clicked ")][0]
    n = int(count.split()[1])
    button = cli.ok("find", *APP, "--role", "button", "--name", "Count", "--exact",
                    "--first")["match"]["ref_id"]
    cli.ok("click", button)
    obs.wait_until(lambda: "Clicked %d times" % (n + 1) in _paragraph_texts(page),
                   what="the click count to grow")

    # Chromium 156 exposes no EditableText on a text input (Accessible, Action, Component,
    # Text... only), so a headless value write has no semantic route and must refuse
    # without touching the field.
    field = cli.ok("find", *APP, "--role", "textfield", "--name", "Name", "--exact",
                   "--first")["match"]["ref_id"]
    entry = _find(_document(page), "entry", "Name")
    assert "EditableText" not in entry.get_interfaces()
    before = obs.text_of(entry)
    err = expect_error(cli.run("set-value", field, "Ada"), "ACTION_NOT_SUPPORTED")
    assert {"check": "supported_action", "status": "fail",
            "reason": "the element exposes no value write"} in err["details"]["checks"]
    assert obs.text_of(entry) == before


def _hidden_frames(inst):
    """Nameless frames with children that claim to be shown: the address bar's suggestion
    popup, whose X windows are unmapped."""
    app = obs.app_for_pid(inst.pid)
    return [w for w in obs.windows_of(app) if w.getRoleName() == "frame" and not w.name and
            w.childCount > 0]


def test_hidden_nameless_frames_are_not_windows(cli, page):
    """Chromium's unmapped suggestion-popup frames claim VISIBLE and SHOWING; the X server
    says otherwise, so they are neither windows nor surfaces, and --app picks the one real
    window even when Chromium is not the active app."""
    assert _hidden_frames(page), "Chromium no longer keeps hidden frames: revisit this test"
    windows = [w for w in cli.ok("list-windows", *APP) if w["pid"] == page.pid]
    assert [w["title"] for w in windows] == [WINDOW_TITLE], windows
    surfaces = cli.ok("list-surfaces", *APP)["surfaces"]
    assert [s["title"] for s in surfaces if s["type"] == "window"] == [WINDOW_TITLE]
    # Another window takes the focus: the choice no longer rests on "active".
    other = subprocess.Popen(["xmessage", "-center", "focus thief"], stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                             start_new_session=True)
    try:
        xdotool("search", "--sync", "--onlyvisible", "--pid", other.pid, "--name", "xmessage")
        wid = xdotool("search", "--onlyvisible", "--pid", other.pid, "--name", "xmessage")
        xdotool("windowactivate", "--sync", wid.split()[0])
        snap = cli.ok("snapshot", *APP, "-i")
        assert snap["window"]["title"] == WINDOW_TITLE
    finally:
        other.kill()
        other.wait(10)


def test_headed_type_into_a_page_field(cli, page):
    """Chromium's text inputs have Text but no EditableText: headless writes refuse, and
    --headed typing goes through the keyboard and is read back from the Text interface."""
    field = cli.ok("find", *APP, "--role", "textfield", "--name", "Name", "--exact",
                   "--first")["match"]["ref_id"]
    entry = _find(_document(page), "entry", "Name")
    before = obs.text_of(entry)
    data = cli.ok("--headed", "type", field, "\u00e9t\u00e9")
    assert data["disposition"] == {"delivery": "delivered_verified", "retry": "unsafe"}
    assert "\u00e9t\u00e9" in data["post_state"]["value"]
    obs.wait_until(lambda: len(obs.text_of(entry)) == len(before) + 3 and
                   "\u00e9t\u00e9" in obs.text_of(entry), what="the typed text in the page")


# ---- window commands on the Chromium window (commands/app-window.md) ----------------------


def test_window_commands_on_the_chromium_window(cli, page, fixture_app):
    """focus-window, move-window, resize-window, minimize, maximize and restore on a real
    Chromium window, each read back from the X server alone (xwininfo, xprop, xdotool: the
    helpers of test_window_ops.py), with list-windows reporting what the command observed."""
    import test_window_ops as wo
    from action_helpers import UNVERIFIED, VERIFIED
    wo._move_and_resize(cli, "Chromium", page.pid, WINDOW_TITLE)
    window_id = wo.window_id_of(cli, "Chromium", page.pid, WINDOW_TITLE)
    wid = wo.x_client(page.pid, WINDOW_TITLE)
    rect = wo.visible_rect(wid)
    maximized = {"_NET_WM_STATE_MAXIMIZED_VERT", "_NET_WM_STATE_MAXIMIZED_HORZ"}
    try:
        # Partly off screen to the left (--x=-100), read back.
        data = cli.ok("move-window", "--window-id", window_id, "--x=-100", "--y=30")
        assert data["disposition"] == VERIFIED
        assert wo.near(wo.visible_rect(wid)[:2], (-100, 30)), wo.visible_rect(wid)
        assert wo.bounds(wo.listed(cli, window_id)) == wo.visible_rect(wid)
        # Chromium keeps a minimum size: the window manager clamps a 5x5 request.
        err = expect_error(cli.run("resize-window", "--window-id", window_id, "--width", "5",
                                   "--height", "5"), "ACTION_FAILED",
                           delivery="delivered_unverified")
        o = err["details"]["observed"]
        assert (o["x"], o["y"], o["width"], o["height"]) == wo.visible_rect(wid)
        assert o["width"] > 5 + wo.TOLERANCE or o["height"] > 5 + wo.TOLERANCE
        # Focus away to another app's window and back.
        cli.ok("focus-window", "--app", "ad-fixture")
        assert wo.active_window() != wid
        data = cli.ok("focus-window", "--window-id", window_id)
        assert data["focused"]["id"] == window_id
        assert wo.active_window() == wid
        data = cli.ok("maximize", "--window-id", window_id)
        assert data["disposition"] == VERIFIED
        assert maximized <= wo.wm_state(wid)
        assert wo.bounds(wo.listed(cli, window_id)) == wo.visible_rect(wid)
        assert cli.ok("restore", "--window-id", window_id)["disposition"] == UNVERIFIED
        obs.wait_until(lambda: not wo.wm_state(wid) & maximized, what="the maximize to go")
        data = cli.ok("minimize", "--window-id", window_id)
        assert data["disposition"] == VERIFIED
        assert "_NET_WM_STATE_HIDDEN" in wo.wm_state(wid)
        assert wo.map_state(wid) == "IsUnMapped"
        assert wo.listed(cli, window_id)["minimized"] is True
        # focus-window brings the minimized window back and makes it the active one.
        data = cli.ok("focus-window", "--window-id", window_id)
        assert data["focused"]["id"] == window_id and data["focused"]["is_focused"] is True
        assert wo.active_window() == wid and wo.map_state(wid) == "IsViewable"
        assert data["focused"]["bounds"] == wo.listed(cli, window_id)["bounds"]
        cli.ok("minimize", "--window-id", window_id)
        assert cli.ok("restore", "--window-id", window_id)["disposition"] == UNVERIFIED
        obs.wait_until(lambda: wo.map_state(wid) == "IsViewable" and
                       "_NET_WM_STATE_HIDDEN" not in wo.wm_state(wid),
                       what="the window to come back")
    finally:
        wo.put_back(cli, wid, window_id, rect)
