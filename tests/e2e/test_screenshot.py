"""screenshot, list-displays, visual debug and session screenshots on X11
(commands/observation.md, guides/traces.md). Every picture is compared pixel for pixel with
an ImageMagick `import -window root` capture of the same region; the covered-window refusal
uses an xmessage window over the fixture; the visual debug page is opened in headless
Chromium and its boxes are found, in the page's own screenshot, on the elements' pixels."""
import base64
import json
import os
import shutil
import stat
import subprocess
import tempfile

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, activate, ensure_fixture_active,
                            expect_count, need_state, ref, xdotool)
from e2e_helpers import expect_error, fixture_reset

for _tool in ("import", "convert", "xdotool", "xmessage", "xwininfo"):
    if not shutil.which(_tool):
        pytest.skip("%s is not installed (scripts/install-deps.sh)" % _tool,
                    allow_module_level=True)

MAGENTA = (255, 0, 255)  # the debug page's box border (core/visual_debug.c)


@pytest.fixture(autouse=True)
def _fixture_on_top(fixture_app):
    fixture_reset(fixture_app)
    ensure_fixture_active(fixture_app)
    yield
    fixture_reset(fixture_app)


def _rgb(png, crop=None):
    """The raw RGB bytes of a PNG (ImageMagick), optionally cropped to (x, y, w, h)."""
    argv = ["convert", png]
    if crop:
        argv += ["-crop", "%dx%d+%d+%d" % (crop[2], crop[3], crop[0], crop[1]), "+repage"]
    p = subprocess.run(argv + ["-depth", "8", "rgb:-"], capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout


def _size(png):
    p = subprocess.run(["identify", "-format", "%w %h", png], capture_output=True, text=True,
                       timeout=30)
    w, h = p.stdout.split()
    return int(w), int(h)


def _import_root(tmp_path, name):
    out = str(tmp_path / name)
    subprocess.run(["import", "-window", "root", out], check=True, timeout=60,
                   stdin=subprocess.DEVNULL)
    return out


def _same_as_import(tmp_path, shot_rgb, region):
    """True when the picture equals the root's pixels at region, read by import just before
    or just after (a blinking caret may change a few pixels between two reads)."""
    for i in range(2):
        root = _import_root(tmp_path, "root-%d.png" % i)
        if _rgb(root, region) == shot_rgb:
            return True
    return False


def _shot_matches(tmp_path, capture, region, rounds=4):
    """True when a capture equals the root's pixels at region read by import just before or
    just after it, in one of a few rounds of import, capture, import. capture() returns the
    picture's RGB. A window an earlier step raised or reset may not be repainted yet: the
    server shows its background until the app draws (seen in a fresh-clone CI run: a uniform
    grey capture, then the drawn window in import), so one round proves nothing either way."""
    for i in range(rounds):
        before = _rgb(_import_root(tmp_path, "before-%d.png" % i), region)
        shot = capture()
        after = _rgb(_import_root(tmp_path, "after-%d.png" % i), region)
        if shot in (before, after):
            return True
    return False


def _masked(rgb, width, rects):
    """rgb (rows of width pixels) with every rect (x, y, w, h) blacked out."""
    out = bytearray(rgb)
    height = len(out) // (3 * width)
    for x, y, w, h in rects:
        x0, x1 = max(0, int(x)), min(width, int(x + w))
        for row in range(max(0, int(y)), min(height, int(y + h))):
            if x1 > x0:
                out[(row * width + x0) * 3:(row * width + x1) * 3] = bytes(3 * (x1 - x0))
    return bytes(out)


def _other_windows(cli, keep_pid):
    """The rectangles of the listed windows of every app but keep_pid: apps other tests left
    running (gtk4-widget-factory never stops animating) repaint between any two captures."""
    rects = []
    for w in cli.ok("list-windows"):
        b = w.get("bounds")
        if w.get("pid") != keep_pid and b and w.get("visible", True):
            rects.append((b["x"], b["y"], b["width"], b["height"]))
    return rects


def _display_matches(cli, tmp_path, shot_path, keep_pid, capture=None):
    """The display picture equals import's root read just before or after it, outside the
    windows of other apps (five rounds of import, our picture, import). capture() writes the
    picture to shot_path (default: the CLI's screenshot --screen 0; the C library's tests
    pass their own)."""
    if capture is None:
        capture = lambda: cli.ok("screenshot", "--screen", "0", shot_path)  # noqa: E731
    w, h = _root_size()
    for attempt in range(5):
        rects = _other_windows(cli, keep_pid)
        before = _rgb(_import_root(tmp_path, "before-%d.png" % attempt), (0, 0, w, h))
        capture()
        after = _rgb(_import_root(tmp_path, "after-%d.png" % attempt), (0, 0, w, h))
        ours = _masked(_rgb(shot_path), w, rects)
        if ours in (_masked(before, w, rects), _masked(after, w, rects)):
            return True
    return False


def _root_size():
    out = subprocess.run(["xwininfo", "-root"], capture_output=True, text=True,
                         timeout=15).stdout
    vals = {}
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("Width:"):
            vals["w"] = int(line.split()[1])
        if line.startswith("Height:"):
            vals["h"] = int(line.split()[1])
    return vals["w"], vals["h"]


def _fixture_bounds(cli, fixture_app):
    rows = [w for w in cli.ok("list-windows", *FIXTURE) if w["pid"] == fixture_app.pid]
    assert len(rows) == 1, rows
    b = rows[0]["bounds"]
    return rows[0]["id"], (int(b["x"]), int(b["y"]), int(b["width"]), int(b["height"]))


def test_list_displays_is_the_x_screen(cli):
    displays = cli.ok("list-displays")
    assert displays and displays[0]["is_primary"] is True
    assert sum(1 for d in displays if d["is_primary"]) == 1
    w, h = _root_size()
    b = displays[0]["bounds"]
    assert (b["x"], b["y"], b["width"], b["height"]) == (0.0, 0.0, float(w), float(h))
    assert displays[0]["scale"] == 1.0 and isinstance(displays[0]["id"], str)


def test_window_screenshot_is_the_windows_pixels(cli, fixture_app, tmp_path):
    wid, region = _fixture_bounds(cli, fixture_app)
    # The window holds its elements: the Increment button lies inside the captured region.
    bx, by, bw, bh = obs.extents(obs.by_id(fixture_app.window(), "inc_button"))
    assert region[0] <= bx and bx + bw <= region[0] + region[2]
    assert region[1] <= by and by + bh <= region[1] + region[3]
    path = str(tmp_path / "win.png")
    data = cli.ok("screenshot", "--window-id", wid, path)
    assert data == {"format": "png", "width": region[2], "height": region[3],
                    "scale_factor": 1.0, "path": path}
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert _size(path) == (region[2], region[3])
    assert [n for n in os.listdir(str(tmp_path)) if n.startswith(".")] == []  # no temp left

    def to_path():
        cli.ok("screenshot", "--window-id", wid, path)
        return _rgb(path)
    assert _shot_matches(tmp_path, to_path, region)

    # Without PATH: the same picture as base64 in data.data.
    def inline():
        data = cli.ok("screenshot", *FIXTURE)
        assert "path" not in data and (data["width"], data["height"]) == region[2:]
        out = str(tmp_path / "inline.png")
        with open(out, "wb") as f:
            f.write(base64.b64decode(data["data"]))
        return _rgb(out)
    assert _shot_matches(tmp_path, inline, region)


def test_gtk4_window_screenshot_is_the_windows_pixels(cli, calculator_app, tmp_path):
    """gnome-calculator (GTK 4.8): its bounds come from its X window (x11_geometry.h)."""
    activate(calculator_app, "Calculator")

    def window_region():
        rows = [w for w in cli.ok("list-windows", "--app", "gnome-calculator")
                if w["pid"] == calculator_app.pid]
        assert len(rows) == 1, rows
        b = rows[0]["bounds"]
        return rows[0], (int(b["x"]), int(b["y"]), int(b["width"]), int(b["height"]))

    # The calculator may still be settling its size after activation (a fresh-clone CI run
    # read 365x508, then shot 365x471): compare against bounds that held across two reads.
    def settled():
        first, second = window_region(), window_region()
        return first if first[1] == second[1] else None
    row, region = obs.wait_until(settled, what="the calculator's size to settle")
    rows = [row]
    path = str(tmp_path / "calc.png")

    def shot():
        data = cli.ok("screenshot", "--window-id", rows[0]["id"], path)
        assert (data["width"], data["height"]) == region[2:]
        return _rgb(path)
    assert _shot_matches(tmp_path, shot, region)


def test_display_screenshot_is_the_roots_pixels(cli, fixture_app, tmp_path):
    w, h = _root_size()
    path = str(tmp_path / "screen.png")
    data = cli.ok("screenshot", "--screen", "0", path)
    assert (data["width"], data["height"]) == (w, h) and data["path"] == path
    assert _display_matches(cli, tmp_path, path, fixture_app.pid)


def test_covered_window_is_refused(cli, fixture_app, tmp_path):
    wid, (x, y, w, h) = _fixture_bounds(cli, fixture_app)
    cover = subprocess.Popen(["xmessage", "-title", "ad-shot-cover", "-geometry",
                              "300x200+%d+%d" % (x + 40, y + 60), "over the fixture"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        cid = xdotool("search", "--sync", "--onlyvisible", "--name", "^ad-shot-cover$").split()[0]
        xdotool("windowactivate", "--sync", cid)
        path = str(tmp_path / "covered.png")
        err = expect_error(cli.run("screenshot", "--window-id", wid, path), "ACTION_FAILED")
        assert err["details"]["reason"] == "covered"
        assert not os.path.exists(path)
        # The display still captures, cover and all: what the screen shows.
        full = str(tmp_path / "full.png")
        assert _display_matches(cli, tmp_path, full, fixture_app.pid)
    finally:
        cover.kill()
        cover.wait(10)
    activate(fixture_app, FIXTURE_TITLE)
    # Raised again, the same window captures.
    cli.ok("screenshot", "--window-id", wid, str(tmp_path / "again.png"))


def _frame_of(client):
    """The child of the root that holds X window `client` (its window manager frame)."""
    w = client
    while True:
        out = subprocess.run(["xwininfo", "-tree", "-id", str(w)], capture_output=True,
                             text=True, timeout=15).stdout
        parent = [ln for ln in out.splitlines() if "Parent window id:" in ln][0]
        if "(the root window)" in parent:
            return w
        w = parent.split("Parent window id:")[1].split()[0]


def test_under_a_compositing_manager(cli, fixture_app, tmp_path):
    """xcompmgr owns _NET_WM_CM_S0: a display capture is refused (the root does not hold
    what the screen shows), and a covered window is read from its own pixmap."""
    if not shutil.which("xcompmgr"):
        pytest.skip("xcompmgr is not installed (scripts/install-deps.sh)")
    wid, (x, y, w, h) = _fixture_bounds(cli, fixture_app)
    client = xdotool("search", "--all", "--onlyvisible", "--pid", fixture_app.pid, "--name",
                     "^%s$" % FIXTURE_TITLE).split()[-1]
    frame = _frame_of(client)
    comp = subprocess.Popen(["xcompmgr"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    cover = None
    try:
        def refused():
            return not cli.run("screenshot", "--screen", "0")[1]["ok"]
        obs.wait_until(refused, what="the compositing manager to own its selection")
        err = expect_error(cli.run("screenshot", "--screen", "0"), "PLATFORM_NOT_SUPPORTED")
        assert err["details"]["reason"] == "compositing"
        cover = subprocess.Popen(["xmessage", "-title", "ad-comp-cover", "-geometry",
                                  "300x200+%d+%d" % (x + 40, y + 60), "over the fixture"],
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.DEVNULL, start_new_session=True)
        cid = xdotool("search", "--sync", "--onlyvisible", "--name", "^ad-comp-cover$").split()[0]
        xdotool("windowactivate", "--sync", cid)
        path = str(tmp_path / "comp.png")
        data = cli.ok("screenshot", "--window-id", wid, path)
        assert (data["width"], data["height"]) == (w, h)
        # The same window read by import from its frame: the cover is in neither.
        ref_png = str(tmp_path / "frame.png")
        subprocess.run(["import", "-window", str(frame), ref_png], check=True, timeout=60,
                       stdin=subprocess.DEVNULL)
        assert _size(ref_png) == (w, h)
        assert _rgb(path) == _rgb(ref_png)
    finally:
        if cover:
            cover.kill()
            cover.wait(10)
        comp.terminate()
        comp.wait(10)
    obs.wait_until(lambda: cli.run("screenshot", "--screen", "0")[1]["ok"],
                   what="the compositing manager's selection to go")
    activate(fixture_app, FIXTURE_TITLE)


def test_screenshot_argument_errors(cli, fixture_app, tmp_path):
    expect_error(cli.run("screenshot", "--screen", "0", *FIXTURE), "INVALID_ARGS")
    expect_error(cli.run("screenshot", "--screen", "0", "--window-id", "w-x"), "INVALID_ARGS")
    expect_error(cli.run("screenshot", "--screen", "99"), "INVALID_ARGS")
    expect_error(cli.run("screenshot", *FIXTURE, str(tmp_path / "no" / "x.png")),
                 "INVALID_ARGS")
    expect_error(cli.run("screenshot", *FIXTURE, str(tmp_path)), "INVALID_ARGS")
    expect_error(cli.run("screenshot", "--app", "no-such-app-xyz"), "APP_NOT_FOUND")
    expect_error(cli.run("screenshot", "--window-id", "w-1.999-no-such-window"),
                 "WINDOW_NOT_FOUND")
    # A Wayland session: refused, not the XWayland root's pixels.
    wayland = {"XDG_SESSION_TYPE": "wayland"}
    for argv in (("screenshot", "--screen", "0"), ("screenshot", *FIXTURE), ("list-displays",)):
        err = expect_error(cli.run(*argv, env=wayland), "PLATFORM_NOT_SUPPORTED")
        assert err["details"]["reason"] == "wayland_session", err
    assert os.listdir(str(tmp_path)) == []


# ---- visual debug -------------------------------------------------------------------------


def _chromium_shot(page, out):
    exe = shutil.which("chromium")
    if not exe:
        pytest.skip("chromium is not installed (scripts/install-deps.sh installs it)")
    profile = tempfile.mkdtemp(prefix="ad-e2e-shot-chromium-")
    try:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-dev-shm-usage", "--no-first-run",
                            "--force-device-scale-factor=1", "--hide-scrollbars",
                            "--user-data-dir=" + profile, "--window-size=1280,2000",
                            "--screenshot=" + out, "file://" + page],
                           capture_output=True, text=True, timeout=90,
                           stdin=subprocess.DEVNULL)
        assert p.returncode == 0 and os.path.exists(out), p.stderr[-2000:]
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def _pixel(rgb, width, x, y):
    i = (y * width + x) * 3
    return tuple(rgb[i:i + 3])


def _check_box_on_element(page_rgb, page_w, root_png, elem, origin):
    """The box of elem (screen x, y, w, h) sits at elem - origin in the page: its border
    pixels are the box colour and its middle row is the element's own pixels on screen."""
    ex, ey, ew, eh = elem
    x, y = ex - origin[0], ey - origin[1]
    for px, py in ((x, y + eh // 2), (x + ew - 1, y + eh // 2), (x + ew // 2, y + eh - 1),
                   (x + 1, y + eh // 2), (x + ew - 2, y + eh // 2)):
        assert _pixel(page_rgb, page_w, px, py) == MAGENTA, (px, py)
    # The middle row inside the border, below the label, is the element on screen.
    row = ey + eh // 2 + 2
    inner = bytes(b for px in range(x + 3, x + ew - 3)
                  for b in _pixel(page_rgb, page_w, px, row - origin[1]))
    assert inner == _rgb(root_png, (ex + 3, row, ew - 6, 1))


def test_debug_snapshot_boxes_sit_on_the_elements(cli, fixture_app, tmp_path):
    _, region = _fixture_bounds(cli, fixture_app)
    page = str(tmp_path / "snap-debug.html")
    data = cli.ok("--debug", "--screenshot", page, "snapshot", *FIXTURE, "-i")
    assert data["debug"] == {"path": page, "format": "html"}
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
    html = open(page, encoding="utf-8").read()
    for needle in ("http://", "https://", "<script src", "<link"):
        assert needle not in html, needle
    root = _import_root(tmp_path, "root.png")
    shot = str(tmp_path / "page.png")
    _chromium_shot(page, shot)
    pw, _ = _size(shot)
    page_rgb = _rgb(shot)
    window = fixture_app.window()
    for native in ("inc_button", "name_entry"):
        elem = obs.extents(obs.by_id(window, native))
        _check_box_on_element(page_rgb, pw, root, elem, region[:2])
    # A second run never replaces the file.
    expect_error(cli.run("--debug", "--screenshot", page, "snapshot", *FIXTURE, "-i"),
                 "INVALID_ARGS")


def test_debug_click_before_and_after(cli, fixture_app, tmp_path):
    before = need_state(fixture_app)
    page = str(tmp_path / "click-debug.html")
    data = cli.ok("--debug", "--screenshot", page, "click", ref(cli, "inc_button"))
    assert data["debug"]["path"] == page and data["debug"]["format"] == "html"
    expect_count(fixture_app, before["count"] + 1)  # the click itself went through
    html = open(page, encoding="utf-8").read()
    assert '<figure id="before"' in html and '<figure id="after"' in html
    assert 'class="box target"' in html
    # A command that does not take them, and --debug alone, are refused before anything runs.
    expect_error(cli.run("--debug", "--screenshot", str(tmp_path / "f.html"), "find",
                         *FIXTURE, "--role", "button"), "INVALID_ARGS")
    expect_error(cli.run("--debug", "snapshot", *FIXTURE), "INVALID_ARGS", exit_code=1)
    assert not os.path.exists(str(tmp_path / "f.html"))


# ---- session screenshots ------------------------------------------------------------------


def test_session_screenshots_are_embedded_by_export(cli, fixture_app, state_home, tmp_path):
    sid = cli.ok("session", "start", "--screenshots")["session_id"]
    s = ["--session", sid]
    _, region = _fixture_bounds(cli, fixture_app)
    before = need_state(fixture_app)
    snap = cli.ok("snapshot", *FIXTURE, "-i", *s)
    node = [n for n in _walk(snap["tree"]) if n.get("name") == "Increment"][0]
    screen_before = _rgb(_import_root(tmp_path, "before.png"), region)
    cli.ok("click", node["ref_id"], *s)
    expect_count(fixture_app, before["count"] + 1)
    trace = os.path.join(state_home, "sessions", sid, "trace")
    events = cli.ok("trace", "show", "--event", "action.artifacts", *s)["events"]
    assert len(events) == 1, events
    ev = events[0]
    assert ev["command"] == "click" and ev["ref"] == node["ref_id"]
    for side in ("before", "after"):
        rel = ev[side]
        assert rel.startswith("screens/") and rel.endswith(".png"), ev
        png = os.path.join(trace, rel)
        assert stat.S_IMODE(os.stat(png).st_mode) == 0o600
        assert _size(png) == (region[2], region[3])
    assert ev["refmap"] == "refmaps/%s.json" % snap["snapshot_id"]
    with open(os.path.join(trace, ev["refmap"]), encoding="utf-8") as f:
        assert json.load(f)["snapshot_id"] == snap["snapshot_id"]
    # Each picture is the window as the screen showed it at one moment: the before one as
    # before the click; the after one, taken once the click returned, as before the app
    # repainted or as after it (two observations, not proof of the click: traces.md).
    assert _rgb(os.path.join(trace, ev["before"])) == screen_before
    after = os.path.join(trace, ev["after"])
    expect_count(fixture_app, before["count"] + 1)
    assert _rgb(after) == screen_before or _same_as_import(tmp_path, _rgb(after), region)
    out = str(tmp_path / "export.html")
    data = cli.ok("trace", "export", "--out", out, *s)
    assert data["screenshots_embedded"] == 2 and data["screenshots_skipped"] == 0
    html = open(out, encoding="utf-8").read()
    with open(after, "rb") as f:
        assert base64.b64encode(f.read()).decode() in html


def _walk(node):
    yield node
    for c in node.get("children", []):
        yield from _walk(c)
