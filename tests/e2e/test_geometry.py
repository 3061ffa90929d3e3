"""Window and element geometry against what the X server shows: bounds are where the pixels
are (GTK 4's window-relative extents placed inside the real X window), and a window AT-SPI
leaves nameless carries its X title."""
import re
import shutil
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import FIXTURE_TITLE, activate
from e2e_helpers import nodes, rect

CALC_TITLE = "Calculator"


def _need(*tools):
    for t in tools:
        if not shutil.which(t):
            pytest.skip("%s is needed to read the X server's view" % t)


def _extents(wid, prop):
    out = subprocess.run(["xprop", "-id", wid, prop], capture_output=True, text=True,
                         timeout=10).stdout
    nums = [int(n) for n in re.findall(r"\d+", out.split("=", 1)[1])] if "=" in out else []
    return nums if len(nums) == 4 else [0, 0, 0, 0]


def _xwininfo(wid):
    """(x, y, w, h) of the window in root coordinates."""
    info = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True,
                          timeout=10).stdout
    v = {k: int(n) for k, n in re.findall(
        r"(Absolute upper-left X|Absolute upper-left Y|Width|Height):\s+(-?\d+)", info)}
    return (v["Absolute upper-left X"], v["Absolute upper-left Y"], v["Width"], v["Height"])


def _x_client(pid, title):
    """The managed X client window of pid with this _NET_WM_NAME: (id, x, y, w, h), read with
    xdotool, and its visible rectangle: minus _GTK_FRAME_EXTENTS (GTK's invisible shadow),
    plus _NET_FRAME_EXTENTS (the window manager's frame), read with xprop."""
    found = []
    for wid in subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid", str(pid),
                               "--name", "^%s$" % re.escape(title)], capture_output=True,
                              text=True, timeout=10).stdout.split():
        # xwininfo, not xdotool getwindowgeometry: that one adds a window manager's frame
        # offset to a framed window's position.
        v = _xwininfo(wid)
        if v[2] > 1 and v[3] > 1:
            found.append((wid,) + v)
    assert len(found) == 1, found
    wid, x, y, w, h = found[0]
    gl, gr, gt, gb = _extents(wid, "_GTK_FRAME_EXTENTS")
    ml, mr, mt, mb = _extents(wid, "_NET_FRAME_EXTENTS")
    visible = (x + gl - ml, y + gt - mt, w - gl - gr + ml + mr, h - gt - gb + mt + mb)
    return found[0], visible


def _screenshot():
    """The root window's pixels, px(x, y) -> (r, g, b), through ImageMagick's PPM output."""
    raw = subprocess.run(["import", "-silent", "-window", "root", "-depth", "8", "ppm:-"],
                         capture_output=True, timeout=30).stdout
    parts = raw.split(b"\n", 3)  # P6, "W H", maxval, pixels
    width, height = (int(n) for n in parts[1].split())
    assert parts[0] == b"P6" and parts[2] == b"255", parts[:3]
    data = parts[3]

    def px(x, y):
        i = (y * width + x) * 3
        return tuple(data[i:i + 3])
    px.size = (width, height)
    return px


def _close(a, b):
    return all(abs(p - q) <= 6 for p, q in zip(a, b))


def _fill_run(px, y, x0, lo, hi):
    """The run [a, b) of pixels on row y around x0 with x0's colour (within 6 per channel)."""
    seed = px(x0, y)
    a = x0
    while a - 1 >= lo and _close(px(a - 1, y), seed):
        a -= 1
    b = x0 + 1
    while b < hi and _close(px(b, y), seed):
        b += 1
    return a, b


def _fill_column(px, x, y0, lo, hi):
    seed = px(x, y0)
    a = y0
    while a - 1 >= lo and _close(px(x, a - 1), seed):
        a -= 1
    b = y0 + 1
    while b < hi and _close(px(x, b), seed):
        b += 1
    return a, b


def _bounds(cli, app, role, name):
    match = cli.ok("find", "--app", app, "--role", role, "--name", name)["matches"]
    assert len(match) == 1, match
    b = cli.ok("get", match[0]["ref_id"], "--property", "bounds")
    return b["bounds"] if "bounds" in b else b["value"]


def _assert_drawn_where_reported(px, b, vertical=True):
    """The element's drawn box (a uniform fill around our rectangle's centre, sampled off
    its label) is centred on our rectangle: along a row near its bottom and, where the fill
    has no gradient, a column near its left edge."""
    x, y, w, h = (int(b[k]) for k in ("x", "y", "width", "height"))
    cx, cy = x + w / 2.0, y + h / 2.0
    a, e = _fill_run(px, int(cy + h * 0.35), int(cx - w * 0.3), x - 20, x + w + 20)
    assert abs((a + e) / 2.0 - cx) <= 1.5, ("row", (a, e), b)
    if vertical:
        a, e = _fill_column(px, int(cx - w * 0.35), int(cy + h * 0.3), y - 20, y + h + 20)
        assert abs((a + e) / 2.0 - cy) <= 1.5, ("column", (a, e), b)


def test_gtk4_window_bounds_are_the_visible_x_window(cli, calculator_app):
    """gnome-calculator (GTK 4.8): list-windows reports its X window minus the invisible
    _GTK_FRAME_EXTENTS (none under openbox: the solid CSD border is drawn), not the content
    box AT-SPI gives (10 px smaller on Debian 12), and every element lies inside it."""
    _need("xdotool", "xprop", "xwininfo")
    _, visible = _x_client(calculator_app.pid, CALC_TITLE)
    rows = [r for r in cli.ok("list-windows", "--app", "gnome-calculator")
            if r["pid"] == calculator_app.pid]
    assert len(rows) == 1, rows
    wb = rows[0]["bounds"]
    assert rect(wb) == visible
    tree = cli.ok("snapshot", "--app", "gnome-calculator", "--include-bounds")["tree"]
    for n in nodes(tree):
        b = n.get("bounds")
        if b and b["width"] > 0 and b["height"] > 0:
            assert wb["x"] <= b["x"] and b["x"] + b["width"] <= wb["x"] + wb["width"], n
            assert wb["y"] <= b["y"] and b["y"] + b["height"] <= wb["y"] + wb["height"], n


def test_gtk4_element_bounds_are_where_the_pixels_are(cli, calculator_app, fixture_app):
    """A calculator key's reported rectangle is centred on the key drawn on the screen: GTK 4.8
    reports extents relative to the window's content box, 5 px inside the X window here."""
    _need("xdotool", "import")
    activate(calculator_app, CALC_TITLE)
    try:
        seven = _bounds(cli, "gnome-calculator", "button", "7 7")
        _assert_drawn_where_reported(_screenshot(), seven)
    finally:
        activate(fixture_app, FIXTURE_TITLE)


def _x_popups(pid):
    """Viewable override-redirect top levels of pid (GTK 4 popover surfaces): (x, y, w, h)."""
    out = []
    tree = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True,
                          timeout=10).stdout
    for wid in re.findall(r"^\s+(0x[0-9a-f]+) ", tree, re.M):
        info = subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True,
                              timeout=10).stdout
        if "Override Redirect State: yes" not in info or "IsViewable" not in info:
            continue
        owner = subprocess.run(["xprop", "-id", wid, "_NET_WM_PID"], capture_output=True,
                               text=True, timeout=10).stdout
        if owner.strip().endswith("= %d" % pid):
            out.append(_xwininfo(wid))
    return out


def test_gtk4_popover_bounds_are_its_own_surface(cli, calculator_app, fixture_app):
    """A GTK 4.8 popover is its own X surface, but AT-SPI places it at its button: the menu
    and its items must be reported on the popover's X window (xwininfo)."""
    _need("xdotool", "xprop", "xwininfo")
    opener = cli.ok("find", "--app", "gnome-calculator", "--role", "button", "--name",
                    "Basic")["matches"]
    assert len(opener) == 1, opener
    try:
        cli.ok("click", opener[0]["ref_id"])
        assert cli.ok("wait", "--menu", "--app", "gnome-calculator",
                      "--timeout", "5000")["found"] is True
        obs.wait_until(lambda: len(_x_popups(calculator_app.pid)) == 1,
                       what="the popover's X surface")
        surface = _x_popups(calculator_app.pid)[0]
        tree = cli.ok("snapshot", "--app", "gnome-calculator", "--surface", "menu",
                      "--include-bounds")["tree"]
        assert rect(tree["bounds"]) == surface, (tree["bounds"], surface)
        items = [n for n in nodes(tree) if n.get("role") == "menuitem"]
        assert items
        for n in items:
            b = n["bounds"]
            assert surface[0] <= b["x"] and b["x"] + b["width"] <= surface[0] + surface[2], n
            assert surface[1] <= b["y"] and b["y"] + b["height"] <= surface[1] + surface[3], n
    finally:
        cli.run("--headed", "press", "escape", "--app", "gnome-calculator")
        cli.run("wait", "--menu-closed", "--app", "gnome-calculator", "--timeout", "5000")
        activate(fixture_app, FIXTURE_TITLE)


def test_gtk3_element_bounds_are_where_the_pixels_are(cli, fixture_app):
    """The fixture (GTK 3 reports screen coordinates): its window is the X window with the
    window manager's frame, and the same pixel check on a button (Adwaita's GTK 3 buttons
    have a vertical gradient: the row only)."""
    _need("xdotool", "xprop", "xwininfo", "import")
    activate(fixture_app, FIXTURE_TITLE)
    _, visible = _x_client(fixture_app.pid, FIXTURE_TITLE)
    rows = [r for r in cli.ok("list-windows", "--app", "ad-fixture")
            if r["pid"] == fixture_app.pid]
    assert len(rows) == 1 and rect(rows[0]["bounds"]) == visible, (rows, visible)
    b = _bounds(cli, "ad-fixture", "button", "Deep")
    _assert_drawn_where_reported(_screenshot(), b, vertical=False)


def test_nameless_gtk3_window_takes_its_x_title(cli, widget_factory_app):
    """gtk3-widget-factory's frame has no accessible name; its X window has _NET_WM_NAME."""
    _need("xprop")
    frames = [wnd for wnd in obs.windows_of(obs.app_for_pid(widget_factory_app.pid))]
    assert frames and all(not f.name for f in frames), [f.name for f in frames]
    rows = [r for r in cli.ok("list-windows", "--app", "gtk3-widget-factory")
            if r["pid"] == widget_factory_app.pid]
    assert len(rows) == 1, rows
    wids = subprocess.run(["xdotool", "search", "--all", "--onlyvisible", "--pid",
                           str(widget_factory_app.pid), "--name", "."], capture_output=True,
                          text=True, timeout=10).stdout.split()
    titles = set()
    for wid in wids:
        out = subprocess.run(["xprop", "-id", wid, "_NET_WM_NAME"], capture_output=True,
                             text=True, timeout=10).stdout
        m = re.search(r'= "(.*)"', out)
        if m:
            titles.add(m.group(1))
    assert rows[0]["title"] in titles and rows[0]["title"], (rows[0], titles)
