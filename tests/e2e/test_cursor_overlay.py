"""cursor-overlay enable|disable and session start --cursor [--multi-agent] on X11
(commands/system.md "cursor-overlay", sessions.md "Agent identity", guides/headed-mode.md
"See where actions land").

The overlay is drawn by the per-user helper (agent-desktop-linux-clipboard-owner, its
"overlay" service). Every effect is read by another client: the X server's window tree and
attributes (xwininfo), pixels of the root window (ImageMagick `import`), a real pointer click
(xdotool) that must reach the fixture through the overlay, and the fixture's own state line.
Every helper a test started is stopped by its pid."""
import json
import os
import shutil
import signal
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE_TITLE, UNVERIFIED, expect_count, need_state, xdotool)
from e2e_helpers import expect_error, fixture_ref, fixture_reset, proc_state

pytestmark = pytest.mark.skipif(
    not (shutil.which("xwininfo") and shutil.which("import") and shutil.which("xdotool")),
    reason="xwininfo, ImageMagick import and xdotool are needed (scripts/install-deps.sh)")

ACCENT = "#FF00FF"
MAGENTA = (255, 0, 255)


def helper_pid():
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    d = os.path.join(runtime, "agent-desktop") if runtime else "/tmp/agent-desktop-%d" % os.getuid()
    try:
        with open(os.path.join(d, "helper.pid")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None


def exited(pid):
    return proc_state(pid) in (None, "Z", "X")


@pytest.fixture(autouse=True)
def _clean(cli, fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)
    pid = helper_pid()  # the helper our overlay kept alive: stopped by its pid
    if pid and not exited(pid):
        with open("/proc/%d/comm" % pid) as f:
            assert f.read().strip() == "agent-desktop-l", pid
        os.kill(pid, signal.SIGTERM)
        obs.wait_until(lambda: exited(pid), what="the helper %d to exit" % pid)


def start_session(cli, *flags):
    sid = cli.ok("session", "start", *flags)["session_id"]
    return sid, {"AGENT_DESKTOP_SESSION": sid}


def overlay_windows(session):
    """{role: (id, x, y, w, h)} of this session's overlay windows, as the X server lists them."""
    out = subprocess.run(["xwininfo", "-root", "-tree"], capture_output=True, text=True,
                         timeout=15).stdout
    found = {}
    for line in out.splitlines():
        marker = '"agent-desktop '
        if marker not in line or (" %s/" % session) not in line:
            continue
        wid = line.split()[0]
        name = line.split('"')[1]
        role, owner = name[len("agent-desktop "):].split(" ", 1)
        geometry = line.rsplit(")", 1)[1].split()[0]  # WxH+X+Y
        size, x, y = geometry.split("+")[:3]
        w, h = size.split("x")
        found[(role, owner.split("/", 1)[1])] = (wid, int(x), int(y), int(w), int(h))
    return found


def window_info(wid):
    return subprocess.run(["xwininfo", "-id", wid], capture_output=True, text=True,
                          timeout=15).stdout


def root_pixels(x, y, w, h):
    """The root window's pixels in the rectangle, read by ImageMagick: {(x, y): (r, g, b)}."""
    ppm = subprocess.run(["import", "-window", "root", "-crop", "%dx%d+%d+%d" % (w, h, x, y),
                          "+repage", "-depth", "8", "ppm:-"], capture_output=True,
                         timeout=30).stdout
    # P6\nW H\n255\n then RGB bytes
    parts = ppm.split(b"\n", 3)
    pw, ph = map(int, parts[1].split())
    data = parts[3]
    return {(x + i % pw, y + i // pw): tuple(data[3 * i:3 * i + 3]) for i in range(pw * ph)}


def accent_points(x, y, w, h):
    return [p for p, rgb in root_pixels(x, y, w, h).items() if rgb == MAGENTA]


def button_box(fixture_app, native_id="inc_button"):
    window = obs.wait_for_window(fixture_app.pid, title=FIXTURE_TITLE)
    return obs.extents(obs.by_id(window, native_id))


def click_report(data):
    """What must be identical with and without the overlay: everything but timings."""
    return {k: v for k, v in data.items() if k != "details"}


def test_enable_shape_and_the_click_glides_to_the_target(cli, fixture_app):
    sid, env = start_session(cli)
    data = cli.ok("cursor-overlay", "enable", "--accent", ACCENT.lower(), "--size", "3",
                  "--label", "press the increment button now please", "--max-words", "3",
                  env=env)
    assert data == {
        "activation": {"environment": "AGENT_DESKTOP_SESSION", "value": sid},
        "cursor_overlay": {"enabled": True, "max_words": 3,
                           "style": {"accent": ACCENT, "highlight": True, "rim": "#111318",
                                     "ripple": True, "size": 3.0}},
        "next": "export AGENT_DESKTOP_SESSION=%s" % sid,
        "rendered": True,
        "session_id": sid,
    }
    windows = overlay_windows(sid)
    body = windows[("cursor", "")]
    info = window_info(body[0])
    assert "Override Redirect State: yes" in info
    assert "Map State: IsViewable" in info
    before = need_state(fixture_app)
    bx, by, bw, bh = button_box(fixture_app)
    inc = fixture_ref(cli, "inc_button", env=env)
    cli.ok("click", inc, env=env)
    expect_count(fixture_app, before["count"] + 1)
    # The cursor ended on the button's centre: its tip there, its magenta body below right.
    cx, cy = bx + bw // 2, by + bh // 2
    body = overlay_windows(sid)[("cursor", "")]
    assert abs(body[1] - cx) <= 3 and abs(body[2] - cy) <= 3, (body, cx, cy)
    assert len(accent_points(cx - 2, cy - 2, 50, 70)) > 200
    events = cli.ok("trace", "show", "--event", "cursor.glide", env=env)["events"]
    assert events and events[-1]["rendered"] is True, events


def test_a_real_click_passes_through_the_overlay(cli, fixture_app):
    sid, env = start_session(cli, "--cursor")
    cli.ok("cursor-overlay", "enable", "--accent", ACCENT, "--size", "4", env=env)
    before = need_state(fixture_app)
    bx, by, bw, bh = button_box(fixture_app)
    cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    # A point of the button that the overlay's cursor covers (a magenta pixel).
    covered = [p for p in accent_points(bx, by, bw, bh)
               if bx + 2 <= p[0] < bx + bw - 2 and by + 2 <= p[1] < by + bh - 2]
    assert covered, "the cursor does not cover the button"
    x, y = covered[len(covered) // 2]
    # The window under the pointer there is the fixture's, not the overlay's.
    body_id = int(overlay_windows(sid)[("cursor", "")][0], 16)
    xdotool("mousemove", "--sync", x, y)
    under = xdotool("getmouselocation", "--shell")
    assert "WINDOW=%d" % body_id not in under.split(), under
    xdotool("click", "1")
    expect_count(fixture_app, before["count"] + 2)


def test_the_click_result_is_the_same_with_and_without_the_overlay(cli, fixture_app):
    before = need_state(fixture_app)
    plain_sid, plain = start_session(cli)
    without = cli.ok("click", fixture_ref(cli, "inc_button", env=plain), env=plain)
    expect_count(fixture_app, before["count"] + 1)
    sid, env = start_session(cli, "--cursor")
    with_overlay = cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 2)
    assert with_overlay["disposition"] == UNVERIFIED
    assert click_report(with_overlay) == click_report(without)
    assert ("cursor", "") in overlay_windows(sid)
    assert overlay_windows(plain_sid) == {}
    cli.ok("session", "end", plain_sid)
    cli.ok("session", "end", sid)


def test_disable_and_session_end_remove_the_windows(cli, fixture_app):
    sid, env = start_session(cli)
    assert cli.ok("cursor-overlay", "enable", env=env)["rendered"] is True
    assert ("cursor", "") in overlay_windows(sid)
    pid = helper_pid()
    data = cli.ok("cursor-overlay", "disable", env=env)
    assert data["cursor_overlay"]["enabled"] is False and data["rendered"] is False
    assert overlay_windows(sid) == {}
    # Nothing else held: the helper exits by itself.
    obs.wait_until(lambda: exited(pid), what="the helper to exit after disable")
    # A disabled session's actions draw nothing.
    before = need_state(fixture_app)
    cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    assert overlay_windows(sid) == {}
    # session end stops every cursor of the session.
    sid2, env2 = start_session(cli, "--cursor")
    cli.ok("click", fixture_ref(cli, "inc_button", env=env2), env=env2)
    assert ("cursor", "") in overlay_windows(sid2)
    ended = cli.ok("session", "end", sid2)
    assert "warnings" not in ended
    assert overlay_windows(sid2) == {}


def test_multi_agent_gives_each_agent_its_own_cursor(cli, fixture_app):
    sid, env = start_session(cli, "--cursor", "--multi-agent")
    inc = fixture_ref(cli, "inc_button", env=env)
    expect_error(cli.run("click", inc, env=env), "INVALID_ARGS")
    cli.ok("--agent-id", "agent-b", "cursor-overlay", "enable", "--accent", "#00FF00",
           env=env)  # b's profile
    before = need_state(fixture_app)
    cli.ok("--agent-id", "agent-a", "click", fixture_ref(cli, "inc_button", env=env), env=env)
    cli.ok("--agent-id", "agent-b", "click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 2)
    windows = overlay_windows(sid)
    a, b = windows[("cursor", "agent-a")], windows[("cursor", "agent-b")]
    assert a[0] != b[0]
    # Each in its own profile: a the session's default accent, b its green.
    assert not accent_points(b[1], b[2], b[3], b[4])
    greens = [p for p, rgb in root_pixels(b[1], b[2], b[3], b[4]).items() if rgb == (0, 255, 0)]
    assert greens
    code, env_ = cli.run("--agent-id", "agent-a", "cursor-overlay", "enable", "--multi-agent",
                         env=env)
    expect_error((code, env_), "INVALID_ARGS")
    cli.ok("cursor-overlay", "disable", env=env)
    assert overlay_windows(sid) == {}


def test_rendered_false_without_a_display_and_the_setting_is_kept(cli, fixture_app):
    sid, env = start_session(cli)
    no_x = dict(env, DISPLAY=None)
    data = cli.ok("cursor-overlay", "enable", "--accent", ACCENT, env=no_x)
    assert data["rendered"] is False and data["cursor_overlay"]["enabled"] is True
    assert overlay_windows(sid) == {}
    # Saved: the next action with a display draws the session's accent.
    before = need_state(fixture_app)
    cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    body = overlay_windows(sid)[("cursor", "")]
    assert accent_points(body[1], body[2], body[3], body[4])


def test_needs_a_session_and_checks_every_style_flag(cli):
    expect_error(cli.run("cursor-overlay", "enable"), "INVALID_ARGS")
    sid, env = start_session(cli)
    for flags in (["--size", "5"], ["--accent", "red"], ["--travel-ms", "500,650",
                                                          "--dwell-ms", "100"],
                  ["--bow", "3.5"], ["--overshoot", "0.2"], ["--tremor", "-1"],
                  ["--max-words", "13"], ["--dwell-ms", "301"]):
        expect_error(cli.run("cursor-overlay", "enable", *flags, env=env), "INVALID_ARGS",
                     exit_code=2)
    expect_error(cli.run("cursor-overlay", "enable", "--hotspot", "1,1", env=env),
                 "INVALID_ARGS")  # a hotspot needs its image
    expect_error(cli.run("cursor-overlay", "disable", "--accent", ACCENT, env=env),
                 "INVALID_ARGS", exit_code=2)
    assert overlay_windows(sid) == {}


def test_headed_actions_and_pictures_ignore_the_overlay(cli, fixture_app):
    """The overlay's windows take no input: a headed click's hit test and a window's
    screenshot see the app under them, as without the overlay."""
    sid, env = start_session(cli, "--cursor")
    before = need_state(fixture_app)
    bx, by, bw, bh = button_box(fixture_app)
    data = cli.ok("--headed", "click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    assert data["disposition"] == UNVERIFIED
    assert all(s["mechanism"] == "physical_synthetic" for s in data["steps"]), data["steps"]
    body = overlay_windows(sid)[("cursor", "")]
    assert bx <= body[1] < bx + bw and by <= body[2] < by + bh  # it sits on the button
    # Again, now that the cursor covers the point the click aims at.
    data = cli.ok("--headed", "click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 2)
    x, y = bx + bw // 2, by + bh // 2
    data = cli.ok("--headed", "mouse-click", "--xy", "%d,%d" % (x, y), env=env)
    expect_count(fixture_app, before["count"] + 3)
    # A picture of the fixture's window is not refused as covered by the cursor.
    window_id = [w for w in cli.ok("list-windows", "--app", "ad-fixture")
                 if w["title"] == FIXTURE_TITLE][0]["id"]
    shot = cli.ok("screenshot", "--window-id", window_id, env=env)
    assert shot
    # list-windows and list-surfaces do not report the overlay's windows.
    listed = json.dumps(cli.ok("list-windows", env=env)) + json.dumps(
        cli.ok("list-surfaces", "--app", "ad-fixture", env=env))
    assert "agent-desktop cursor" not in listed


def test_the_cursor_glides_and_outlines_and_ripples_during_the_action(cli, fixture_app):
    """Read while the click runs (python-xlib, another client): the body passes points between
    where it was and the target, the outline frames the target's bounds, the ripple rings the
    click point, and both effects go away afterwards."""
    from Xlib import X, display as xdisplay
    sid, env = start_session(cli)
    xdotool("mousemove", "--sync", 5, 5)  # a new cursor starts at the pointer: far away
    cli.ok("cursor-overlay", "enable", "--travel-ms", "700,700", "--accent", ACCENT, env=env)
    windows = overlay_windows(sid)
    bx, by, bw, bh = button_box(fixture_app)
    ref = fixture_ref(cli, "inc_button", env=env)
    d = xdisplay.Display()
    win = {role: d.create_resource_object("window", int(w[0], 16))
           for (role, _), w in windows.items()}
    start = windows[("cursor", "")][1:3]

    def sample():
        out = {}
        for role, w in win.items():
            # The map state first: the helper configures a window before it maps it, so a
            # window seen mapped has its place already (read the other way round, a window
            # mapped between the two reads shows mapped with its old geometry).
            viewable = w.get_attributes().map_state == X.IsViewable
            g = w.get_geometry()
            out[role] = (viewable, g.x, g.y, g.width, g.height)
        return out

    before = need_state(fixture_app)
    p = subprocess.Popen([cli.binary, "click", ref], env=cli.environment(env),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = []
    try:
        while p.poll() is None:
            seen.append(sample())
    finally:
        p.wait(timeout=30)
    assert p.returncode == 0
    expect_count(fixture_app, before["count"] + 1)
    # After the click the effects still show for a moment, then go.
    gone = obs.wait_until(lambda: (lambda s: s if not s["cursor-outline"][0] and
                                   not s["cursor-ripple"][0] else seen.append(s))(sample()),
                          timeout=10, what="the outline and ripple to go away")
    cx, cy = bx + bw // 2, by + bh // 2
    end = (gone["cursor"][1], gone["cursor"][2])
    assert abs(end[0] - cx) <= 3 and abs(end[1] - cy) <= 3
    between = [s["cursor"][1:3] for s in seen if s["cursor"][1:3] not in (tuple(start), end)]
    assert between, "no point of the glide was seen"
    assert any(s["cursor-outline"] == (True, bx - 3, by - 3, bw + 6, bh + 6) for s in seen), \
        [s["cursor-outline"] for s in seen][-5:]
    rings = [s["cursor-ripple"] for s in seen if s["cursor-ripple"][0]]
    assert rings and all(abs(r[1] + r[3] // 2 - cx) <= 3 and abs(r[2] + r[4] // 2 - cy) <= 3
                         for r in rings), rings
    d.close()


def write_png(path, w, h, rgb):
    """A w x h RGBA PNG of one colour whose top-right quarter is transparent."""
    import struct
    import zlib
    rows = b""
    for y in range(h):
        rows += b"\0" + b"".join(bytes(rgb) + (b"\0" if x >= w // 2 and y < h // 2 else b"\xff")
                                 for x in range(w))

    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data) & 0xffffffff))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
                + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def test_image_and_pointer_image_draw_the_cursor(cli, fixture_app, tmp_path):
    image, pointer = str(tmp_path / "cursor.png"), str(tmp_path / "pointer.png")
    write_png(image, 24, 30, (0, 255, 255))
    write_png(pointer, 16, 18, (255, 255, 0))
    sid, env = start_session(cli)
    data = cli.ok("cursor-overlay", "enable", "--image", image, "--hotspot", "0,0",
                  "--pointer-image", pointer, "--pointer-hotspot", "4,6", env=env)
    assert data["rendered"] is True
    body = overlay_windows(sid)[("cursor", "")]
    assert body[3:] == (24, 30)  # the image's size, not the arrow's
    pixels = root_pixels(*body[1:])
    assert pixels[(body[1] + 2, body[2] + 20)] == (0, 255, 255)
    # A click presses its target: the pointer image, its hotspot on the button's centre.
    bx, by, bw, bh = button_box(fixture_app)
    before = need_state(fixture_app)
    cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    body = overlay_windows(sid)[("cursor", "")]
    assert body[3:] == (16, 18)
    cx, cy = bx + bw // 2, by + bh // 2
    assert abs(body[1] + 4 - cx) <= 1 and abs(body[2] + 6 - cy) <= 1, (body, cx, cy)
    pixels = root_pixels(*body[1:])
    assert pixels[(body[1] + 2, body[2] + 14)] == (255, 255, 0)
    # The transparent quarter is cut out: the button shows through there.
    assert pixels[(body[1] + 14, body[2] + 2)] != (255, 255, 0)
