"""The C library's apps, windows, surfaces, displays, screenshots, clipboard, mouse and
notification calls (ffi/api.md) against the real desktop, through ad-ffi-driver (one library
call per run, tests/ffi-driver/ffi_driver.c, built beside AD_BIN: the ASan build checks the
library's frees too). Every effect is read independently: xwininfo/xprop for windows and
displays, ImageMagick `import` for pixels, xclip for the clipboard, /proc for processes, the
fixture's state line for a click."""
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import atspi_observer as obs
from action_helpers import FIXTURE_TITLE, ensure_fixture_active, expect_count, need_state, \
    unchanged
from e2e_helpers import fixture_reset, proc_state
from action_helpers import scroll_value, vscrollbar
from test_headed import MIDDLE, _at_middle, _moved
from test_mcp import BUTTON1_MASK, _pointer_buttons
from test_clipboard import XclipOwner, helper_pid, exited, wait_exited, xclip_out
from test_screenshot import _display_matches, _rgb, _shot_matches, _size
from test_window_ops import near, put_back, visible_rect, x_client

for _tool in ("xwininfo", "xprop", "xdotool", "xclip", "import", "convert"):
    if not shutil.which(_tool):
        pytest.skip("%s is not installed (scripts/install-deps.sh)" % _tool,
                    allow_module_level=True)

OK = 0
STALE_REF = -6
INVALID_ARGS = -10
PLATFORM_NOT_SUPPORTED = -8
KIND = {"resize": 0, "move": 1, "minimize": 2, "maximize": 3, "restore": 4}


@pytest.fixture(scope="session")
def driver(ad_bin):
    path = Path(ad_bin).parent / "tests" / "ffi-driver" / "ad-ffi-driver"
    if not os.access(path, os.X_OK):
        pytest.exit("%s is not built (ninja -C %s)" % (path, Path(ad_bin).parent), returncode=4)
    return str(path)


@pytest.fixture(scope="session")
def call(driver, cli):
    """call(op, *args) -> the driver's JSON result; the driver itself must exit 0 (under ASan
    a leak or UB report makes it exit non-zero)."""
    def run(op, *args, timeout=90):
        p = subprocess.run([driver, op, *map(str, args)], capture_output=True, text=True,
                           env=cli.environment(), timeout=timeout, stdin=subprocess.DEVNULL)
        assert p.returncode == 0, "ad-ffi-driver %s %s: exit %d\n%s" % (op, args, p.returncode,
                                                                        p.stderr[-4000:])
        return json.loads(p.stdout)
    return run


@pytest.fixture
def fixture_window(cli, call, fixture_app):
    """The fixture's exact window as ad_list_windows_exact lists it, put back afterwards."""
    fixture_reset(fixture_app)
    ensure_fixture_active(fixture_app)
    res = call("list-windows", "app=ad-fixture")
    assert res["rc"] == OK, res
    rows = [w for w in res["windows"] if w["pid"] == fixture_app.pid
            and w["title"] == FIXTURE_TITLE]
    assert len(rows) == 1, res
    wid = x_client(fixture_app.pid, FIXTURE_TITLE)
    rect = visible_rect(wid)
    yield rows[0], wid
    put_back(cli, wid, rows[0]["id"], rect)
    fixture_reset(fixture_app)


def _rect(b):
    return (b["x"], b["y"], b["width"], b["height"])


# ---- apps and windows --------------------------------------------------------------------


def test_list_windows_exact_matches_the_cli_and_x(cli, call, fixture_window):
    win, wid = fixture_window
    assert win["version"] == 1 and win["size"] == 96
    # the id, title, pid, instance and bounds exactly as list-windows prints them
    row = [w for w in cli.ok("list-windows") if w["id"] == win["id"]][0]
    for key in ("title", "app_name", "pid", "process_instance", "accessible", "is_focused"):
        assert win[key] == row[key], key
    assert win["has_bounds"] and _rect(win["bounds"]) == _rect(row["bounds"])
    # and that rectangle is the window on screen (the X server's own reading)
    assert _rect(win["bounds"]) == visible_rect(wid)
    # process-generation evidence: "<boot id>:<start time>" of this very process
    with open("/proc/%d/stat" % win["pid"]) as f:
        start = f.read().rsplit(")", 1)[1].split()[19]
    assert win["process_instance"].endswith(":" + start)
    # focused_only keeps only the focused window; a get past the end is NULL
    res = call("list-windows", "focused=1")
    assert res["rc"] == OK and [w["id"] for w in res["windows"]] == [win["id"]]
    assert res["past_end"] is False


def test_list_apps(call, fixture_app):
    res = call("list-apps")
    assert res["rc"] == OK
    assert {"name": "ad-fixture", "pid": fixture_app.pid, "bundle_id": None} in res["apps"]


def test_window_op_resize_reads_back(call, fixture_window):
    win, wid = fixture_window
    x, y, w, h = visible_rect(wid)
    want = (w + 60, min(h + 40, 1000))
    res = call("op", win["id"], "kind=0", "width=%d" % want[0], "height=%d" % want[1])
    assert res["rc"] == OK, res
    assert near(visible_rect(wid)[2:], want), visible_rect(wid)


def test_window_op_move_then_minimize_and_restore(call, fixture_window):
    win, wid = fixture_window
    assert call("op", win["id"], "kind=1", "x=120", "y=70")["rc"] == OK
    assert near(visible_rect(wid)[:2], (120, 70)), visible_rect(wid)
    assert call("op", win["id"], "kind=2")["rc"] == OK
    hidden = subprocess.run(["xprop", "-id", wid, "_NET_WM_STATE"], capture_output=True,
                            text=True, timeout=15).stdout
    assert "_NET_WM_STATE_HIDDEN" in hidden
    assert call("op", win["id"], "kind=4")["rc"] == OK
    shown = subprocess.run(["xprop", "-id", wid, "_NET_WM_STATE"], capture_output=True,
                           text=True, timeout=15).stdout
    assert "_NET_WM_STATE_HIDDEN" not in shown


def test_stale_process_instance_is_refused_before_the_write(call, fixture_window):
    win, wid = fixture_window
    before = visible_rect(wid)
    res = call("op", win["id"], "kind=0", "width=%d" % (before[2] + 80), "height=%d" % before[3],
               "instance=00000000:1")
    assert res["rc"] == STALE_REF, res
    assert res["error"]["delivery"] == 1  # not_delivered
    # ordering canary: a real move afterwards lands, and the refused resize never did
    assert call("op", win["id"], "kind=1", "x=140", "y=60")["rc"] == OK
    obs.wait_until(lambda: near(visible_rect(wid)[:2], (140, 60)), what="the canary move")
    assert visible_rect(wid)[2:] == before[2:]


@pytest.mark.parametrize("field", ["version=2", "size=95"])
def test_wrong_version_or_size_is_invalid_args(call, fixture_window, field):
    win, wid = fixture_window
    before = visible_rect(wid)
    res = call("op", win["id"], "kind=1", "x=200", "y=90", field)
    assert res["rc"] == INVALID_ARGS, res
    assert visible_rect(wid) == before


def test_focus_window_exact(call, fixture_window, fixture_app):
    win, wid = fixture_window
    subprocess.run(["xdotool", "windowminimize", wid], check=True, timeout=15)
    obs.wait_until(lambda: subprocess.run(["xdotool", "getactivewindow"], capture_output=True,
                                          text=True).stdout.strip() != str(int(wid, 0)),
                   what="the fixture to lose the focus")
    res = call("focus", win["id"])
    assert res["rc"] == OK, res
    active = subprocess.run(["xdotool", "getactivewindow"], capture_output=True, text=True,
                            timeout=15).stdout.strip()
    assert int(active) == int(wid, 0)


def test_launch_and_force_close(call):
    """gnome-calculator when none runs (else gtk3-demo): the launch writes its first window,
    the forced close ends that process."""
    name = next((n for n in ("gnome-calculator", "gtk3-demo")
                 if shutil.which(n) and not obs.apps_named(n)), None)
    if name is None:
        pytest.skip("neither gnome-calculator nor gtk3-demo can be launched fresh here")
    res = call("launch", name, 60000, timeout=120)
    assert res["rc"] == OK, res
    win = res["window"]
    pid = win["pid"]
    try:
        assert win["version"] == 1 and win["size"] == 96 and win["id"].startswith("w-")
        assert win["app_name"] == name and win["process_instance"]
        with open("/proc/%d/comm" % pid) as f:
            assert f.read().strip() == name[:15]
        # the window it wrote is one the X server shows for that pid
        out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                             capture_output=True, text=True, timeout=15).stdout
        assert out.split(), "no visible X window of pid %d" % pid
        res = call("close", name, "force=1")
        assert res["rc"] == OK, res
        obs.wait_until(lambda: proc_state(pid) in (None, "Z", "X"), what="the app to exit")
    finally:
        if proc_state(pid) not in (None, "Z", "X"):
            os.kill(pid, 9)


# ---- surfaces ----------------------------------------------------------------------------


def test_list_surfaces_exact_is_list_surfaces(cli, call, fixture_app, fixture_window):
    res = call("surfaces", fixture_app.pid)
    assert res["rc"] == OK, res
    data = cli.ok("list-surfaces", "--app", "ad-fixture")
    assert [(s["id"], s["kind"], s["title"]) for s in res["surfaces"]] == \
        [(s["id"], s["type"], s.get("title")) for s in data["surfaces"]]
    assert all(s["version"] == 1 and s["size"] == 48 for s in res["surfaces"])
    assert call("surfaces", 999999999)["rc"] == -3  # APP_NOT_FOUND


# ---- displays and screenshots ------------------------------------------------------------


def _root_size():
    info = subprocess.run(["xwininfo", "-root"], capture_output=True, text=True,
                          timeout=15).stdout
    val = lambda k: int(info.split(k + ":", 1)[1].split()[0])
    return val("Width"), val("Height")


def test_list_displays_is_the_x_screen(call):
    res = call("displays")
    assert res["rc"] == OK, res
    d = res["displays"]
    # xrandr is not installed here; the private Xvfb has one screen: the root window
    assert len(d) == 1 and d[0]["is_primary"] and d[0]["version"] == 1 and d[0]["size"] == 64
    w, h = _root_size()
    assert _rect(d[0]["bounds"]) == (0, 0, w, h)
    assert d[0]["scale"] == 1.0


@pytest.mark.parametrize("target", [["kind=0", "screen=0"], ["kind=2"]])
def test_screenshot_is_the_screen(call, cli, tmp_path, fixture_app, fixture_window, target):
    out = tmp_path / "shot.png"
    res = call("shot", *target, "out=%s" % out)
    assert res["rc"] == OK, res
    w, h = _root_size()
    assert (res["width"], res["height"]) == (w, h) == _size(str(out))
    assert res["format"] == 0 and res["scale"] == 1.0 and res["bytes"] == out.stat().st_size
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Pixels as import reads them, outside other apps' windows (in the full suite a session
    # fixture, gtk4-widget-factory, repaints between any two captures).
    assert _display_matches(cli, tmp_path, str(out), fixture_app.pid,
                            capture=lambda: call("shot", *target, "out=%s" % out))


def test_screenshot_out_of_range_screen(call, tmp_path):
    res = call("shot", "kind=0", "screen=7", "out=%s" % (tmp_path / "x.png"))
    assert res["rc"] == INVALID_ARGS, res
    assert not (tmp_path / "x.png").exists()


def test_screenshot_window_exact_is_the_window(call, tmp_path, fixture_window):
    win, wid = fixture_window
    out = tmp_path / "win.png"
    rect = visible_rect(wid)

    def shot():
        res = call("shot-window", win["id"], "out=%s" % out)
        assert res["rc"] == OK, res
        assert (res["width"], res["height"]) == rect[2:] == _size(str(out))
        return _rgb(str(out))
    assert _shot_matches(tmp_path, shot, rect)
    assert call("shot-window", win["id"], "out=%s" % out, "instance=00000000:1")["rc"] == \
        STALE_REF


# ---- clipboard ---------------------------------------------------------------------------


@pytest.fixture
def stop_helper():
    yield
    pid = helper_pid()
    if pid and not exited(pid):
        with open("/proc/%d/comm" % pid) as f:
            assert f.read().strip() == "agent-desktop-l", pid
        os.kill(pid, 15)
        wait_exited(pid)


def test_set_clipboard_is_read_by_xclip(call, stop_helper):
    res = call("clip-set", "héllo from the library")
    assert res["rc"] == OK, res
    assert xclip_out() == "héllo from the library".encode()
    assert call("clip-clear")["rc"] == OK
    assert xclip_out() is None


def test_get_clipboard_reads_xclip(call, stop_helper):
    owner = XclipOwner("from xclip ✓".encode())
    try:
        res = call("clip-get")
        assert res["rc"] == OK and res["text"] == "from xclip ✓", res
    finally:
        owner.stop()
    # nothing on the clipboard: OK with a NULL string (clipboard-get's found: false)
    obs.wait_until(lambda: xclip_out() is None, what="xclip to let the clipboard go")
    res = call("clip-get")
    assert res["rc"] == OK and res["text"] is None, res


# ---- mouse -------------------------------------------------------------------------------


def _center(acc):
    x, y, w, h = obs.extents(acc)
    return x + w // 2, y + h // 2


def test_mouse_click_at_the_increment_center(call, fixture_app, fixture_window):
    before = need_state(fixture_app)
    x, y = _center(obs.by_id(fixture_app.window(), "inc_button"))
    res = call("mouse", "kind=3", "x=%d" % x, "y=%d" % y, "button=0", "count=1")
    assert res["rc"] == OK, res
    expect_count(fixture_app, before["count"] + 1)


def test_mouse_move_and_wheel_and_held_buttons(cli, call, fixture_app, fixture_window):
    before = need_state(fixture_app)
    assert call("mouse", "kind=0", "x=7", "y=9")["rc"] == OK
    loc = subprocess.run(["xdotool", "getmouselocation", "--shell"], capture_output=True,
                         text=True, timeout=15).stdout
    assert "X=7\n" in loc and "Y=9\n" in loc
    # mouse-down / mouse-up fail closed exactly as the CLI's reserved commands do
    code, env = cli.run("--headed", "mouse-down", "--xy", "7,9")
    res = call("mouse", "kind=1", "x=7", "y=9")
    assert not env["ok"] and res["rc"] < 0
    assert res["error"]["message"] == env["error"]["message"]
    assert call("wheel", "x=7", "y=9", "dy=-1", "mask=0x10")["rc"] == INVALID_ARGS
    unchanged(fixture_app, before)


def test_mouse_wheel_scrolls_the_list(call, fixture_app):
    window = _at_middle(fixture_app)
    x, y = _center(obs.by_id(window, "long_list"))
    res = call("wheel", "x=%d" % x, "y=%d" % y, "dy=-2")
    assert res["rc"] == OK, res
    assert _moved(window) > MIDDLE  # negative dy scrolls down, as mouse-wheel --dy


def test_drag_moves_the_scroll_bar(call, fixture_app):
    """A press on the long list's scroll bar, a motion down it and a release: GTK3 warps
    the slider to the press and follows the motion, so the list ends near its bottom (a
    click alone would leave it near 30 %), the pointer at the drop point, no button held."""
    window = _at_middle(fixture_app)
    bar = vscrollbar(window)
    bx, by, bw, bh = obs.extents(bar)
    value = bar.queryValue()
    x, y0, y1 = bx + bw // 2, by + bh * 3 // 10, by + bh * 9 // 10
    res = call("drag", "fx=%d" % x, "fy=%d" % y0, "tx=%d" % x, "ty=%d" % y1)
    assert res["rc"] == OK, res
    span = value.maximumValue - value.minimumValue
    obs.wait_until(lambda: scroll_value(window) > value.minimumValue + 0.6 * span,
                   what="the drag to carry the slider down", timeout=5)
    loc = subprocess.run(["xdotool", "getmouselocation", "--shell"], capture_output=True,
                         text=True, timeout=15).stdout
    assert "X=%d\n" % x in loc and "Y=%d\n" % y1 in loc
    assert not _pointer_buttons() & BUTTON1_MASK


# ---- notifications -----------------------------------------------------------------------


def test_notifications_fail_closed_with_the_cli_error(cli, call):
    code, env = cli.run("list-notifications")
    assert not env["ok"]
    res = call("notifications")
    assert res["rc"] == PLATFORM_NOT_SUPPORTED and res["count"] == 0
    assert res["error"]["message"] == env["error"]["message"]
    res = call("dismiss-all")
    assert res["rc"] == PLATFORM_NOT_SUPPORTED and res["null_lists"] is True
