"""screenshot and list-displays on GNOME Shell (commands/observation.md, platforms/linux.md
Capture row; src/linux/gnome_capture.h says why the route is GNOME Shell's Screenshot API).

Pixels are checked against a window whose pixels are known (colour_card.py: a magenta card
with a cyan corner marker), found in the picture by colour because no client can place a
window on Wayland; the display is checked against the monitor the desktop was started with
(AD_GNOME_MONITOR) and against Mutter's DisplayConfig read here with gdbus. Pictures are
decoded by ImageMagick, not by agent-desktop."""
import base64
import os
import re
import select
import shutil
import stat
import struct
import subprocess
import time
from pathlib import Path

import pytest

import atspi_observer as obs
from e2e_helpers import expect_error, launch, stop_process

if not shutil.which("convert") or not shutil.which("gdbus"):
    pytest.skip("convert (ImageMagick) and gdbus are needed (scripts/install-deps.sh)",
                allow_module_level=True)

HERE = Path(__file__).resolve().parent
CARD = "ad-colour-card"
CARD_W, CARD_H, MARKER = 320, 200, 40  # colour_card.py
MAGENTA, CYAN = (255, 0, 255), (0, 255, 255)
PY = "/usr/bin/python3"  # the Debian python with gi (Gtk, Gio)
CALLER_NAME = "org.gnome.Screenshot"


def _monitor_size():
    w, h = os.environ.get("AD_GNOME_MONITOR", "1280x800").split("x")
    return int(w), int(h)


@pytest.fixture(scope="module")
def colour_card(tmp_path_factory):
    inst = launch([PY, str(HERE / "colour_card.py")], CARD,
                  log_dir=str(tmp_path_factory.mktemp("card")))
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def _rgb(png_bytes):
    """(width, height, raw RGB bytes) of a PNG, decoded by ImageMagick."""
    p = subprocess.run(["convert", "png:-", "-depth", "8", "rgb:-"], input=png_bytes,
                       capture_output=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert png_bytes[:8] == b"\x89PNG\r\n\x1a\n" and png_bytes[12:16] == b"IHDR"
    w, h = struct.unpack(">II", png_bytes[16:24])
    assert len(p.stdout) == w * h * 3
    return w, h, p.stdout


def _px(img, x, y):
    w, _, raw = img
    i = (y * w + x) * 3
    return tuple(raw[i:i + 3])


def _card_in(img):
    """The card's (x, y) in the picture, or None when it is not there as painted: the cyan
    pixels are exactly the MARKER square at (x, y), the magenta ones lie inside the
    CARD_W x CARD_H rectangle there and reach its corners, and at least 90% of that
    rectangle is the card's. GNOME Shell's chrome may cover the rest: a headless shell is
    always idle, so it keeps notification banners (such as "Logged in as a privileged user"
    for root) on screen with their shadows."""
    w, h, raw = img
    cyan, magenta = [], []
    for y in range(h):
        row = raw[y * w * 3:(y + 1) * w * 3]
        if bytes(CYAN) not in row and bytes(MAGENTA) not in row:
            continue
        for x in range(w):
            p = row[x * 3:x * 3 + 3]
            if p == bytes(CYAN):
                cyan.append((x, y))
            elif p == bytes(MAGENTA):
                magenta.append((x, y))
    if len(cyan) != MARKER * MARKER or not magenta:
        return None
    x0, y0 = min(c[0] for c in cyan), min(c[1] for c in cyan)
    if set(cyan) != {(x0 + i, y0 + j) for i in range(MARKER) for j in range(MARKER)}:
        return None
    inside = all(x0 <= x < x0 + CARD_W and y0 <= y < y0 + CARD_H for x, y in magenta)
    corners = {(x0 + MARKER, y0), (x0, y0 + MARKER), (x0 + CARD_W - 1, y0 + CARD_H - 1)}
    if not inside or not corners <= set(magenta):
        return None
    if len(cyan) + len(magenta) < 0.9 * CARD_W * CARD_H:
        return None
    return x0, y0


def _display_config():
    """Mutter's logical monitors [(x, y, scale, primary, first connector)] and current mode
    sizes, read with gdbus (its GVariant text)."""
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Mutter.DisplayConfig",
                          "-o", "/org/gnome/Mutter/DisplayConfig", "-m",
                          "org.gnome.Mutter.DisplayConfig.GetCurrentState"],
                         capture_output=True, text=True, timeout=30, check=True).stdout
    modes = [(int(w), int(h)) for w, h in
             re.findall(r"\('[^']*', (\d+), (\d+), [\d.]+, [\d.]+, \[[^\]]*\], "
                        r"\{[^}]*'is-current': <true>", out)]
    logical = [(int(x), int(y), float(s), p == "true", c) for x, y, s, p, c in
               re.findall(r"\((-?\d+), (-?\d+), ([\d.]+), uint32 \d+, (true|false), "
                          r"\[\('([^']*)'", out)]
    return logical, modes


def _private_dirs_left():
    run_dir = os.environ["XDG_RUNTIME_DIR"]
    return [n for n in os.listdir(run_dir) if n.startswith("agent-desktop-shot-")]


# ---- list-displays ------------------------------------------------------------------------


def test_list_displays_is_the_virtual_monitor(gnome_kind, cli):
    displays = cli.ok("list-displays")
    w, h = _monitor_size()
    assert len(displays) == 1, displays
    d = displays[0]
    assert d["bounds"] == {"x": 0.0, "y": 0.0, "width": float(w), "height": float(h)}
    assert d["is_primary"] is True and d["scale"] == 1.0 and isinstance(d["id"], str)
    # The same monitor as Mutter's DisplayConfig says, read independently.
    logical, modes = _display_config()
    assert [m[:4] for m in logical] == [(0, 0, 1.0, True)] and modes == [(w, h)], logical
    if gnome_kind == "gnome-wayland":  # the id is Mutter's connector (X11: the RandR monitor)
        assert d["id"] == logical[0][4], (d, logical)


# ---- GNOME Wayland ------------------------------------------------------------------------


def _shot(cli, *argv):
    return cli.ok("screenshot", "--screen", "0", *argv)


@pytest.mark.wayland_only
def test_display_screenshot_shows_the_known_pixels(cli, colour_card, tmp_path):
    w, h = _monitor_size()
    path = tmp_path / "screen.png"
    seen = {}

    def card_visible():
        data = _shot(cli, str(path))
        seen["data"] = data
        seen["img"] = _rgb(path.read_bytes())
        return _card_in(seen["img"]) is not None

    obs.wait_until(card_visible, timeout=30.0, what="the colour card wholly in the screenshot")
    data, img = seen["data"], seen["img"]
    assert (data["width"], data["height"]) == (w, h) and img[:2] == (w, h)
    assert data["format"] == "png" and data["scale_factor"] == 1.0
    assert data["path"] == str(path)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    # GNOME's top bar is near-black at its left edge (Activities is text further right).
    assert all(c < 40 for c in _px(img, 2, 2)), _px(img, 2, 2)
    # Inline: the same picture, base64 in data.data.
    inline = cli.ok("screenshot", "--screen", "0")
    assert "path" not in inline
    img2 = _rgb(base64.b64decode(inline["data"]))
    assert img2[:2] == (w, h) and _card_in(img2) == _card_in(img)
    assert _private_dirs_left() == []


@pytest.mark.wayland_only
def test_window_targets_are_not_supported(cli, colour_card, tmp_path):
    wid = [x["id"] for x in cli.ok("list-windows", "--app", CARD)][0]
    path = tmp_path / "win.png"
    for argv in (("--app", CARD), ("--window-id", wid)):
        err = expect_error(cli.run("screenshot", *argv, str(path)), "PLATFORM_NOT_SUPPORTED")
        assert err["details"]["reason"] == "wayland_session", err
        assert "--screen 0" in err["suggestion"]
    expect_error(cli.run("screenshot", "--screen", "1", str(path)), "INVALID_ARGS")
    assert os.listdir(tmp_path) == [] and _private_dirs_left() == []


HOLDER = r"""
import sys
from gi.repository import Gio, GLib
bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
def dbus(member, sig, args):
    return bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                         "org.freedesktop.DBus", member, GLib.Variant(sig, args), None,
                         Gio.DBusCallFlags.NONE, 5000, None).unpack()
r = dbus("RequestName", "(su)", (sys.argv[1], 4))[0]
print("owned" if r == 1 else "refused %d" % r, bus.get_unique_name(), flush=True)
for line in sys.stdin:
    if line.strip() == "release":
        dbus("ReleaseName", "(s)", (sys.argv[1],))
        print("released", flush=True)
"""


def _name_owner_pid(name):
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.freedesktop.DBus", "-o",
                          "/org/freedesktop/DBus", "-m",
                          "org.freedesktop.DBus.GetConnectionUnixProcessID", name],
                         capture_output=True, text=True, timeout=30)
    m = re.search(r"uint32 (\d+)", out.stdout)
    return int(m.group(1)) if m else None


@pytest.fixture
def name_holder():
    """A process that holds org.gnome.Screenshot (as gnome-screenshot would) until told
    'release' on stdin."""
    p = subprocess.Popen([PY, "-c", HOLDER, CALLER_NAME], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        first = p.stdout.readline().split()
        assert first and first[0] == "owned", first
        yield p
    finally:
        stop_process(p)


@pytest.mark.wayland_only
def test_held_caller_name_is_never_taken(cli, name_holder, tmp_path):
    path = tmp_path / "busy.png"
    err = expect_error(cli.run("screenshot", "--screen", "0", str(path)), "ACTION_FAILED")
    assert err["details"]["reason"] == "capture_busy", err
    assert "pid %d" % name_holder.pid in err["message"], err
    # The holder still owns the name, and nothing was written.
    assert _name_owner_pid(CALLER_NAME) == name_holder.pid
    assert os.listdir(tmp_path) == [] and _private_dirs_left() == []


def _monitor_until(mon, needle, poke=None, timeout=30.0):
    """Reads dbus-monitor's output until a line holds needle, calling poke() (which makes
    traffic that matches) every half second; False at the timeout."""
    buf = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if poke:
            poke()
        ready, _, _ = select.select([mon.stdout], [], [], 0.5)
        if ready:
            chunk = os.read(mon.stdout.fileno(), 65536)
            if not chunk:
                return False
            buf += chunk
            if needle.encode() in buf:
                return True
    return False


def _request_canary_name():
    subprocess.run(["gdbus", "call", "--session", "-d", "org.freedesktop.DBus", "-o",
                    "/org/freedesktop/DBus", "-m", "org.freedesktop.DBus.RequestName",
                    "org.agentdesktop.MonitorCanary", "4"],
                   capture_output=True, timeout=30)


@pytest.mark.wayland_only
def test_capture_waits_for_the_holder(cli, name_holder, tmp_path):
    # Ordering canary: dbus-monitor shows the capture's RequestName being made while the
    # holder has the name; only then is the holder told to let go, and the capture succeeds.
    if not shutil.which("dbus-monitor"):
        pytest.skip("dbus-monitor is not installed")
    mon = subprocess.Popen(["dbus-monitor", "--session",
                            "type='method_call',member='RequestName'"],
                           stdout=subprocess.PIPE, start_new_session=True)
    shot = None
    try:
        assert _monitor_until(mon, "MonitorCanary", poke=_request_canary_name), \
            "dbus-monitor never showed the canary's RequestName"
        path = tmp_path / "waited.png"
        shot = subprocess.Popen([cli.binary, "screenshot", "--screen", "0", str(path)],
                                env=cli.environment(), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, start_new_session=True)
        assert _monitor_until(mon, '"%s"' % CALLER_NAME), "the capture never asked for the name"
        assert _name_owner_pid(CALLER_NAME) == name_holder.pid
        name_holder.stdin.write("release\n")
        name_holder.stdin.flush()
        assert name_holder.stdout.readline().strip() == "released"
        out, errout = shot.communicate(timeout=60)
        assert shot.returncode == 0, (out, errout)
        w, h = _monitor_size()
        assert _rgb(path.read_bytes())[:2] == (w, h)
    finally:
        if shot and shot.poll() is None:
            stop_process(shot)
        stop_process(mon)


# ---- GNOME X11 ----------------------------------------------------------------------------


@pytest.mark.x11_only
def test_x11_display_capture_is_refused_under_compositing(cli, tmp_path):
    # GNOME Shell composites: the root window does not hold what the display shows, and the
    # spec keeps display captures PLATFORM_NOT_SUPPORTED there (platforms/linux.md).
    path = tmp_path / "screen.png"
    err = expect_error(cli.run("screenshot", "--screen", "0", str(path)),
                       "PLATFORM_NOT_SUPPORTED")
    assert err["details"]["reason"] == "compositing", err
    assert os.listdir(tmp_path) == []


@pytest.mark.x11_only
def test_x11_window_screenshot_is_the_known_pixels(cli, colour_card, tmp_path):
    # Read from the window's own pixmap (x11_capture.h), covered or not. The app is on
    # AT-SPI before the window manager maps it (ACTION_FAILED not_viewable until then) and
    # before its first frame is drawn (the pixmap is grey until then): wait for both.
    path = tmp_path / "card.png"

    def painted():
        _, env = cli.run("screenshot", "--app", CARD, str(path))
        if not env["ok"]:
            assert env["error"]["details"]["reason"] == "not_viewable", env
            return None
        data = env["data"]
        assert (data["width"], data["height"]) == (CARD_W, CARD_H), data
        return _card_in(_rgb(path.read_bytes()))

    assert obs.wait_until(painted, timeout=30.0, what="the card's pixels") == (0, 0)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
