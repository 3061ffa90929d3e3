"""Screen coordinates and window control on GNOME (Wayland and X11).

On Wayland AT-SPI gives every toolkit's extents relative to its window; agent-desktop places
them through GNOME Shell's window list, which gnome-shell 43 gives only in unsafe mode
(org.gnome.Shell.Eval). These tests read that list themselves (gdbus, not agent-desktop) and
pyatspi's window-relative extents, and check that bounds are those screen coordinates, or
absent when the shell gives no list: never window-relative. On GNOME X11 the X server's view
(xwininfo, xdotool) is the independent read.
"""
import json
import re
import shutil
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import live_count
from e2e_helpers import find_node, nodes

FIXTURE_TITLE = "AD Fixture"


def _eval(js):
    """org.gnome.Shell.Eval through gdbus: (ok, text)."""
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o",
                          "/org/gnome/Shell", "-m", "org.gnome.Shell.Eval", js],
                         capture_output=True, text=True, timeout=10)
    assert out.returncode == 0, out.stderr
    m = re.match(r"^\((true|false), '(.*)'\)$", out.stdout.strip(), re.S)
    assert m, out.stdout
    return m.group(1) == "true", m.group(2)


def _unsafe_mode():
    ok, _ = _eval("global.context.unsafe_mode")
    return ok


_WIN_JS = ("global.get_window_actors().map(a => a.meta_window)"
           ".filter(w => w.get_pid() === %d).map(w => { const f = w.get_frame_rect(),"
           " b = w.get_buffer_rect(); return {title: w.get_title(), focused: "
           "w === global.display.get_focus_window(), frame: [f.x, f.y, f.width, f.height],"
           " buffer: [b.x, b.y, b.width, b.height]}; })")


def _shell_windows(pid):
    ok, text = _eval(_WIN_JS % pid)
    assert ok, text
    return json.loads(text)  # Eval returns JSON.stringify of the value


def _shell_window(pid):
    wins = [w for w in _shell_windows(pid) if w["title"] == FIXTURE_TITLE]
    assert len(wins) == 1, wins
    return wins[0]


def _move_frame(pid, x, y):
    ok, text = _eval("global.get_window_actors().map(a => a.meta_window).filter(w => "
                     "w.get_pid() === %d).forEach(w => w.move_frame(true, %d, %d))"
                     % (pid, x, y))
    assert ok, text
    return obs.wait_until(lambda: _shell_window(pid)["frame"][:2] == [x, y] and
                          _shell_window(pid), timeout=10.0, what="the window to move")


def _atspi_button(pid, name):
    win = obs.window_for_pid(pid, FIXTURE_TITLE)
    for o in obs.walk(win, with_extents=True):
        if o.role == "push button" and o.name == name:
            return win, o.extents
    raise AssertionError("no %s button" % name)


def _bounds(node):
    b = node.get("bounds")
    return None if b is None else (b["x"], b["y"], b["width"], b["height"])


def _snapshot_button(run, name):
    code, env = run("snapshot", "--app", "ad-fixture", "-i", "--include-bounds")
    assert code == 0 and env["ok"], env
    node = find_node(env["data"]["tree"], role="button", name=name)
    assert node is not None
    return env["data"]["tree"], node


def _fixture_row(run, pid):
    code, env = run("list-windows", "--app", "ad-fixture")
    assert code == 0 and env["ok"], env
    rows = [w for w in env["data"] if w["pid"] == pid and w["title"] == FIXTURE_TITLE]
    assert len(rows) == 1, env
    return rows[0]


def _x_window(pid):
    for t in ("xdotool", "xwininfo"):
        if not shutil.which(t):
            pytest.skip("%s is needed to read the X server's view" % t)
    found = []
    for wid in subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(pid),
                               "--name", "^%s$" % FIXTURE_TITLE], capture_output=True,
                              text=True, timeout=10).stdout.split():
        info = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True,
                              timeout=10).stdout
        v = {k: int(n) for k, n in re.findall(
            r"(Absolute upper-left X|Absolute upper-left Y|Width|Height):\s+(-?\d+)", info)}
        if v["Width"] > 1 and v["Height"] > 1:
            found.append((v["Absolute upper-left X"], v["Absolute upper-left Y"], v["Width"],
                          v["Height"]))
    assert len(found) == 1, found
    return found[0]


def _inside(inner, outer):
    return (inner[0] >= outer[0] and inner[1] >= outer[1] and
            inner[0] + inner[2] <= outer[0] + outer[2] and
            inner[1] + inner[3] <= outer[1] + outer[3])


@pytest.mark.wayland_only
def test_wayland_element_bounds_are_screen_coordinates_or_absent(fixture_app, run):
    pid = fixture_app.pid
    _, rel = _atspi_button(pid, "Increment")  # window-relative on Wayland
    if not _unsafe_mode():
        # No window list from the shell: nothing is placed, so nothing has bounds.
        tree, node = _snapshot_button(run, "Increment")
        assert "bounds" not in node, node
        assert [n for n in nodes(tree) if "bounds" in n] == []
        return
    start = _shell_window(pid)["frame"][:2]
    try:
        for x, y in ((start[0], start[1]), (start[0] + 150, start[1] + 20)):
            win = _move_frame(pid, x, y)
            _, rel = _atspi_button(pid, "Increment")
            # GTK 3 reports the window with its shadow: the buffer rect's origin is its 0,0.
            bx, by = win["buffer"][:2]
            want = (rel[0] + bx, rel[1] + by, rel[2], rel[3])
            _, node = _snapshot_button(run, "Increment")
            assert _bounds(node) == want, (node, win, rel)
            assert _inside(want, tuple(win["frame"]))
    finally:
        _move_frame(pid, start[0], start[1])


@pytest.mark.wayland_only
def test_wayland_list_windows_bounds_are_the_frame_or_absent(fixture_app, run):
    pid = fixture_app.pid
    row = _fixture_row(run, pid)
    if not _unsafe_mode():
        assert "bounds" not in row, row
        return
    win = _shell_window(pid)
    assert _bounds(row) == tuple(win["frame"]), (row, win)
    assert row["is_focused"] == win["focused"]
    assert row["minimized"] is False


@pytest.mark.x11_only
def test_x11_element_and_window_bounds_match_the_x_server(fixture_app, run):
    pid = fixture_app.pid
    _, screen = _atspi_button(pid, "Increment")
    _, node = _snapshot_button(run, "Increment")
    xwin = _x_window(pid)
    assert _bounds(node) == screen
    # The row is the visible window: the X window xdotool finds for the title (mutter may
    # reparent it under its frame) lies inside it, and so does the element.
    row = _fixture_row(run, pid)
    assert _inside(xwin, _bounds(row)), (row, xwin)
    assert _inside(screen, _bounds(row)), (row, screen)


@pytest.mark.wayland_only
@pytest.mark.parametrize("command", [
    ["focus-window"], ["move-window", "--x", "300", "--y", "60"],
    ["resize-window", "--width", "400", "--height", "500"], ["minimize"], ["maximize"],
    ["restore"],
])
def test_wayland_window_control_is_refused(fixture_app, run, command):
    pid = fixture_app.pid
    wid = _fixture_row(run, pid)["id"]
    before = _shell_window(pid) if _unsafe_mode() else None
    code, env = run(command[0], "--window-id", wid, *command[1:])
    assert code != 0 and not env["ok"], env
    assert env["error"]["code"] == "ACTION_NOT_SUPPORTED", env
    assert env["error"]["details"]["cause"] == "wayland_session", env
    assert env["error"]["disposition"]["delivery"] == "not_delivered", env
    # Nothing happened: the window is not minimized or maximized (AT-SPI), and where the shell
    # gives its frame, the frame did not change.
    states = obs.state_names(obs.window_for_pid(pid, FIXTURE_TITLE))
    assert "iconified" not in states
    if before is not None:
        assert _shell_window(pid)["frame"] == before["frame"]


@pytest.mark.wayland_only
def test_wayland_graceful_close_app_is_refused(fixture_app, run):
    pid = fixture_app.pid
    code, env = run("close-app", "ad-fixture")
    assert code != 0 and not env["ok"], env
    assert env["error"]["code"] == "ACTION_NOT_SUPPORTED", env
    assert env["error"]["details"]["cause"] == "wayland_session", env
    assert "--force" in env["error"]["suggestion"], env
    # Canary: a read that goes through the app answers, so it was running after the refusal.
    _snapshot_button(run, "Increment")
    assert obs.window_for_pid(pid, FIXTURE_TITLE) is not None


@pytest.mark.wayland_only
def test_wayland_semantic_click_works_with_or_without_proved_bounds(fixture_app, run):
    # A semantic click needs no screen point: its visible and stable checks pass on the
    # element's window-relative extents (inside its window, the same in two samples) when the
    # window's place is unknown, and on screen bounds when the shell's list gives it. The
    # count, read by pyatspi, goes up by one either way; without the list no bounds are shown.
    pid = fixture_app.pid
    win = obs.window_for_pid(pid, FIXTURE_TITLE)
    before = live_count(win)
    _, node = _snapshot_button(run, "Increment")
    assert (_bounds(node) is None) == (not _unsafe_mode()), node
    code, env = run("click", node["ref_id"], "--timeout-ms", "5000")
    assert code == 0 and env["ok"], env
    assert env["data"]["disposition"]["delivery"] != "not_delivered", env
    obs.wait_until(lambda: live_count(win)[0] == before[0] + 1, timeout=10.0,
                   what="the count to go up by one")
    code, env = run("is", node["ref_id"], "--property", "visible")
    assert code == 0 and env["ok"] and env["data"]["result"] is True, env


@pytest.mark.wayland_only
def test_wayland_headed_click_without_a_screen_point_falls_back_to_semantic(fixture_app, run):
    # --headed tries physical input first; with no proved screen point it is refused before
    # any event (never a click at a window-relative point) and the semantic route runs.
    if _unsafe_mode():
        pytest.skip("the shell's window list proves the point in unsafe mode")
    pid = fixture_app.pid
    win = obs.window_for_pid(pid, FIXTURE_TITLE)
    before = live_count(win)
    _, node = _snapshot_button(run, "Increment")
    code, env = run("--headed", "click", node["ref_id"], "--timeout-ms", "5000")
    assert code == 0 and env["ok"], env
    steps = env["data"]["steps"]
    assert steps[0]["mechanism"] == "physical_synthetic" and steps[0]["outcome"] == "attempted", env
    assert steps[-1]["mechanism"] == "semantic_api", env
    obs.wait_until(lambda: live_count(win)[0] == before[0] + 1, timeout=10.0,
                   what="the count to go up by one")
