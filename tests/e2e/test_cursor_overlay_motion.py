"""The cursor overlay around real input, hover and drag, several agents at once, the effect
flags and the label's text (guides/headed-mode.md "See where actions land", sessions.md
"Agent identity", commands/system.md "cursor-overlay").

Every effect is read by another X client (python-xlib): the overlay windows' Map/Unmap,
Destroy and geometry, XInput 2 raw events for the input's arrival, pixels of the root window
(ImageMagick), and the fixture's own state line."""
import json
import os
import socket
import struct
import subprocess
import time

import pytest

import atspi_observer as obs
from action_helpers import FIXTURE_TITLE, expect_count, need_state, xdotool
from e2e_helpers import fixture_ref, helper_dir
from test_cursor_overlay import (_clean, accent_points, button_box, exited, helper_pid,  # noqa: F401
                                 overlay_windows, root_pixels, start_session, ACCENT)

Xlib = pytest.importorskip("Xlib")
from Xlib import X, display as xdisplay  # noqa: E402
from Xlib.ext import xinput  # noqa: E402

GENERIC_EVENT = 35  # the core protocol's GenericEvent (XInput 2 events); not in Xlib.X here


class Watcher:
    """One X connection that watches the given overlay windows' structure events and, when
    asked, every device's raw pointer events (the real input as the server receives it)."""

    def __init__(self, windows, raw=False):
        self.d = xdisplay.Display()
        self.windows = {}
        self.xi = None
        for role, wid in windows.items():
            w = self.d.create_resource_object("window", int(wid, 16))
            w.change_attributes(event_mask=X.StructureNotifyMask)
            self.windows[w.id] = role
        if raw:
            self.d.xinput_query_version()
            self.xi = self.d.query_extension("XInputExtension").major_opcode
            self.d.screen().root.xinput_select_events([(xinput.AllDevices,
                                                        xinput.RawButtonPressMask |
                                                        xinput.RawButtonReleaseMask |
                                                        xinput.RawMotionMask)])
        self.d.sync()

    def events(self):
        """What arrived so far, in the server's order: (kind, role or None)."""
        self.d.sync()
        out = []
        while self.d.pending_events():
            ev = self.d.next_event()
            names = {X.UnmapNotify: "unmap", X.MapNotify: "map", X.DestroyNotify: "destroy"}
            if ev.type in names and ev.window.id in self.windows:
                out.append((names[ev.type], self.windows[ev.window.id]))
            elif ev.type == GENERIC_EVENT and getattr(ev, "extension", None) == self.xi:
                raw = {xinput.RawButtonPress: "press", xinput.RawButtonRelease: "release",
                       xinput.RawMotion: "motion"}
                if ev.evtype in raw:
                    out.append((raw[ev.evtype], None))
        return out

    def geometry(self, wid):
        w = self.d.create_resource_object("window", int(wid, 16))
        viewable = w.get_attributes().map_state == X.IsViewable  # before the geometry, as
        g = w.get_geometry()                                     # test_cursor_overlay does
        return (viewable, g.x, g.y)

    def close(self):
        self.d.close()


def move_pointer(x, y):
    """The real pointer to (x, y). Not --sync: that waits for a motion event, which never
    comes when the pointer is there already."""
    xdotool("mousemove", x, y)
    obs.wait_until(lambda: {"X=%d" % x, "Y=%d" % y} <=
                   set(xdotool("getmouselocation", "--shell").split()),
                   what="the pointer at %d,%d" % (x, y))


def check_hidden_around_input(events):
    """The body is unmapped before the first input event and mapped again after the last."""
    kinds = [k for k, role in events if role in (None, "cursor")]
    inputs = [i for i, k in enumerate(kinds) if k in ("press", "release", "motion")]
    assert inputs and "press" in kinds, kinds
    assert "unmap" in kinds[:inputs[0]], kinds
    assert "map" not in kinds[kinds.index("unmap"):inputs[-1]], kinds
    assert "map" in kinds[inputs[-1]:], kinds


def test_real_input_hides_the_cursors_while_it_is_sent(cli, fixture_app):
    sid, env = start_session(cli)
    cli.ok("cursor-overlay", "enable", "--label", "watch", env=env)
    windows = overlay_windows(sid)
    before = need_state(fixture_app)
    bx, by, bw, bh = button_box(fixture_app)
    w = Watcher({"cursor": windows[("cursor", "")][0],
                 "cursor-label": windows[("cursor-label", "")][0]}, raw=True)
    try:
        # A raw point (commands/input.c) and a ref (core/action.c's physical dispatch).
        cli.ok("--headed", "mouse-click", "--xy", "%d,%d" % (bx + bw // 2, by + bh // 2),
               env=env)
        expect_count(fixture_app, before["count"] + 1)
        events = w.events()
        check_hidden_around_input(events)
        assert ("unmap", "cursor-label") in events and events[-1][0] == "map", events
        cli.ok("--headed", "click", fixture_ref(cli, "inc_button", env=env), env=env)
        expect_count(fixture_app, before["count"] + 2)
        check_hidden_around_input(w.events())
        # Shown again: viewable, on the button.
        viewable, x, y = w.geometry(windows[("cursor", "")][0])
        assert viewable and bx <= x < bx + bw and by <= y < by + bh, (x, y)
        # A headless click sends no real input: nothing is hidden.
        cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
        expect_count(fixture_app, before["count"] + 3)
        assert [k for k, _ in w.events() if k in ("unmap", "map")] == []
    finally:
        w.close()


def sample_during(cli, env, args, w, wids):
    """Runs the command, reading the windows' (viewable, x, y) until it exits."""
    p = subprocess.Popen([cli.binary, *args], env=cli.environment(env),
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    seen = []
    try:
        while p.poll() is None:
            seen.append({k: w.geometry(v) for k, v in wids.items()})
            time.sleep(0.002)  # the helper draws on the same cores
    finally:
        p.wait(timeout=30)
    assert p.returncode == 0, args
    seen.append({k: w.geometry(v) for k, v in wids.items()})
    return seen


def free_point(fixture_app, dx, dy):
    """A point of the desktop outside the fixture's window (a drag there changes nothing)."""
    window = obs.wait_for_window(fixture_app.pid, title=FIXTURE_TITLE)
    x, y, ww, wh = obs.extents(window)
    px, py = min(x + ww + dx, 1270), min(y + wh + dy, 1010)
    assert not (x <= px < x + ww and y <= py < y + wh)
    return px, py


def test_hover_and_drag_glide_the_cursor(cli, fixture_app):
    sid, env = start_session(cli)
    move_pointer(5, 5)  # a new cursor starts at the pointer
    cli.ok("cursor-overlay", "enable", "--travel-ms", "600,600", env=env)
    body = overlay_windows(sid)[("cursor", "")][0]
    w = Watcher({})
    try:
        hx, hy = free_point(fixture_app, 20, 10)
        seen = sample_during(cli, env, ["--headed", "hover", "--xy", "%d,%d" % (hx, hy)], w,
                             {"body": body})
        points = [s["body"][1:] for s in seen]
        assert abs(points[-1][0] - hx) <= 3 and abs(points[-1][1] - hy) <= 3, points[-1]
        assert seen[-1]["body"][0]
        between = [p for p in points if p not in (points[0], points[-1])]
        assert between, "no point of the hover's glide was seen"
        fx, fy = free_point(fixture_app, 120, 60)
        tx, ty = free_point(fixture_app, 200, 110)
        seen = sample_during(cli, env, ["--headed", "drag", "--from-xy", "%d,%d" % (fx, fy),
                                        "--to-xy", "%d,%d" % (tx, ty)], w, {"body": body})
        points = [s["body"][1:] for s in seen]
        # It glided to the press (passing points between), then shows at the drop.
        assert any(abs(p[0] - fx) <= 3 and abs(p[1] - fy) <= 3 for p in points), points
        assert [p for p in points if p not in ((hx, hy), (fx, fy), (tx, ty))], points
        # The cursor reappears at the drop once the helper handles the drag's "unhide", which
        # the command waits for at most AD_OVERLAY_HIDE_MS (150 ms): under load it can come
        # after the command exited (CI saw it mid-glide at exit), so poll for it to arrive.
        def shown_at_drop():
            viewable, x, y = w.geometry(body)
            return viewable and abs(x - tx) <= 3 and abs(y - ty) <= 3
        obs.wait_until(shown_at_drop, timeout=10.0, what="the cursor at the drop point")
        pointer = xdotool("getmouselocation", "--shell").split()
        assert "X=%d" % tx in pointer and "Y=%d" % ty in pointer, pointer
    finally:
        w.close()


def effect_events(cli, fixture_app, *flags):
    """The Map and Destroy events of the outline and ripple windows over a click and the
    disable that follows (the Destroy is the canary: any Map comes before it)."""
    sid, env = start_session(cli)
    bx, by, bw, bh = button_box(fixture_app)
    cx, cy = bx + bw // 2, by + bh // 2
    # The new cursor starts at the pointer: on the click point, so its glide crosses no pixel
    # the ripple check reads.
    move_pointer(cx, cy)
    cli.ok("cursor-overlay", "enable", "--accent", ACCENT, *flags, env=env)
    windows = overlay_windows(sid)
    w = Watcher({role: windows[(role, "")][0] for role in ("cursor-outline", "cursor-ripple")})
    try:
        before = need_state(fixture_app)
        p = subprocess.Popen([cli.binary, "click", fixture_ref(cli, "inc_button", env=env)],
                             env=cli.environment(env), stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        # The ring's left edge (16 px from the point) just above the point: the body lies
        # below right of the point and the outline on the button's edges, so accent pixels
        # there are the ripple's.
        assert bw // 2 > 24, (bw, bh)
        ring = []
        try:
            while p.poll() is None and not ring:
                ring = accent_points(cx - 19, cy - 4, 7, 4)
        finally:
            p.wait(timeout=30)
        expect_count(fixture_app, before["count"] + 1)
        ring = ring or accent_points(cx - 19, cy - 4, 7, 4)
        cli.ok("cursor-overlay", "disable", env=env)
        events = []
        obs.wait_until(lambda: events.extend(w.events()) or
                       {e for e in events if e[0] == "destroy"} ==
                       {("destroy", "cursor-outline"), ("destroy", "cursor-ripple")},
                       what="the effect windows to be destroyed")
        return {role for kind, role in events if kind == "map"}, ring
    finally:
        w.close()


def test_ripple_and_outline_show_by_default(cli, fixture_app):
    mapped, ring = effect_events(cli, fixture_app)
    assert mapped == {"cursor-outline", "cursor-ripple"}
    assert ring, "no ripple pixel around the click point"


@pytest.mark.parametrize("flag,absent", [("--no-ripple", "cursor-ripple"),
                                         ("--no-highlight", "cursor-outline")])
def test_no_ripple_and_no_highlight_draw_no_effect_window(cli, fixture_app, flag, absent):
    mapped, ring = effect_events(cli, fixture_app, flag)
    assert mapped == {"cursor-outline", "cursor-ripple"} - {absent}
    if absent == "cursor-ripple":
        assert ring == [], ring


def glide_both(cli, env, w, wids, targets):
    """Both agents' mouse-move at once; the samples in which both cursors moved."""
    procs = [subprocess.Popen([cli.binary, "--agent-id", a, "--headed", "mouse-move", "--xy",
                               "%d,%d" % targets[a]], env=cli.environment(env),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
             for a in wids]
    seen = []
    try:
        while any(p.poll() is None for p in procs):
            seen.append({a: w.geometry(v)[1:] for a, v in wids.items()})
            time.sleep(0.002)  # the helper draws on the same cores
    finally:
        for p in procs:
            p.wait(timeout=30)
    assert all(p.returncode == 0 for p in procs)

    def settled():  # a glide outlives a client that stopped waiting: it ends on its point
        seen.append({a: w.geometry(v)[1:] for a, v in wids.items()})
        return all(abs(seen[-1][a][0] - tx) <= 3 and abs(seen[-1][a][1] - ty) <= 3
                   for a, (tx, ty) in targets.items())
    obs.wait_until(settled, what="both cursors on their targets")
    return [i for i in range(1, len(seen)) if all(seen[i][a] != seen[i - 1][a] for a in wids)]


def test_two_agents_cursors_glide_at_the_same_time(cli, fixture_app):
    """sessions.md: several agents' cursors travel at the same time. Each agent's glide moves
    its own cursor while the other's does; served one after the other, at most one sample
    (the hand-over) would see both move. Two processes can start far apart on a loaded
    machine (then even concurrent glides do not overlap), so up to three tries; glides
    served one at a time never overlap in any."""
    sid, env = start_session(cli, "--cursor", "--multi-agent")
    for agent in ("agent-a", "agent-b"):
        cli.ok("--agent-id", agent, "cursor-overlay", "enable", "--travel-ms", "700,700",
               env=env)
    windows = overlay_windows(sid)
    wids = {a: windows[("cursor", a)][0] for a in ("agent-a", "agent-b")}
    w = Watcher({})
    try:
        for attempt in range(3):
            targets = ({"agent-a": (900, 900), "agent-b": (1000, 40)} if attempt % 2 == 0
                       else {"agent-a": (100, 900), "agent-b": (200, 40)})
            both = glide_both(cli, env, w, wids, targets)
            if len(both) >= 3:
                break
        assert len(both) >= 3, both
    finally:
        w.close()


def test_one_cursors_glides_take_turns(cli, fixture_app):
    """sessions.md: commands that draw the same cursor take turns from its travel to its click
    effect. Two mouse-moves of one session at once: the shared cursor ends the first glide on
    its target and puts the ripple there, and only then heads for the other target, getting
    closer to it in every later sample (two glides at once would pull it both ways)."""
    sid, env = start_session(cli, "--cursor")
    # Short glides: the second command's wait (travel plus a slack) covers the first's turn.
    cli.ok("cursor-overlay", "enable", "--travel-ms", "150,150", env=env)
    windows = overlay_windows(sid)
    body, ripple = windows[("cursor", "")][0], windows[("cursor-ripple", "")][0]
    targets = [(150, 850), (1100, 850)]

    def near(p, t, slack=3):
        return abs(p[0] - t[0]) <= slack and abs(p[1] - t[1]) <= slack
    w = Watcher({})

    def sample():
        # The ripple's place, mapped or not: the real input that follows each glide hides it
        # at once, but it stays where the glide that drew it ended.
        g = w.d.create_resource_object("window", int(ripple, 16)).get_geometry()
        seen.append((w.geometry(body)[1:], (g.x + g.width // 2, g.y + g.height // 2)))
        return seen[-1]
    procs = [subprocess.Popen([cli.binary, "--headed", "mouse-move", "--xy", "%d,%d" % t],
                              env=cli.environment(env), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for t in targets]
    seen = []
    try:
        while any(p.poll() is None for p in procs):
            sample()
            time.sleep(0.002)
    finally:
        for p in procs:
            p.wait(timeout=30)
        # A glide outlives a client that stopped waiting: it still ends on its point.
        obs.wait_until(lambda: any(near(sample()[0], t) for t in targets),
                       what="the cursor to settle")
        w.close()
    assert all(p.returncode == 0 for p in procs)
    last = [t for t in targets if near(seen[-1][0], t)][0]
    first = [t for t in targets if t != last][0]
    turn = [i for i, (_, r) in enumerate(seen) if r and near(r, first, 4)]
    assert turn, "no ripple on the first target"
    after = [abs(b[0] - last[0]) for b, _ in seen[turn[0]:]]
    # Overshoot (at most 3.5 % of the 950 px) and tremor aside, never farther again.
    assert all(later <= earlier + 40 for earlier, later in zip(after, after[1:])), after


def test_a_utf8_label_is_drawn_one_cell_per_character(cli, fixture_app):
    sid, env = start_session(cli)
    label = "caf\u00e9 \u2615 na\u00efve \u65e5\u672c\u8a9e"  # "caf? ? na?ve ???" in the font
    data = cli.ok("cursor-overlay", "enable", "--label", label, env=env)
    assert data["rendered"] is True
    pid = helper_pid()
    pill = overlay_windows(sid)[("cursor-label", "")]
    assert pill[3] == len("caf? ? na?ve ???") * 6 + 12, pill
    pixels = root_pixels(*pill[1:])
    assert [p for p, rgb in pixels.items() if rgb == (255, 255, 255)], "no text in the pill"
    # The helper still serves: a click glides the same cursor, its pill beside it.
    before = need_state(fixture_app)
    cli.ok("click", fixture_ref(cli, "inc_button", env=env), env=env)
    expect_count(fixture_app, before["count"] + 1)
    assert helper_pid() == pid and not exited(pid)
    assert overlay_windows(sid)[("cursor-label", "")][3] == pill[3]


def test_a_stopped_helper_only_costs_the_bounded_waits(cli, fixture_app):
    """The helper does not answer (SIGSTOP): the headed click is still sent and lands; the
    glide, the hide and the unhide that timed out are trace events, not errors."""
    import os
    import signal
    sid, env = start_session(cli)
    assert cli.ok("cursor-overlay", "enable", env=env)["rendered"] is True
    pid = helper_pid()
    before = need_state(fixture_app)
    bx, by, bw, bh = button_box(fixture_app)
    os.kill(pid, signal.SIGSTOP)
    try:
        data = cli.ok("--headed", "mouse-click", "--xy", "%d,%d" % (bx + bw // 2, by + bh // 2),
                      env=env)
        expect_count(fixture_app, before["count"] + 1)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert data["details"]["delivered_events"] > 0
    errors = cli.ok("trace", "show", "--event", "cursor.hide.error", env=env)["events"]
    assert sorted(e["op"] for e in errors) == ["hide", "unhide"], errors
    assert cli.ok("trace", "show", "--event", "cursor.glide.error", env=env)["events"]


def helper_request(req):
    """Sends one request to the running helper's socket (helper_proto.h: a 4-byte big-endian
    length, then the JSON header) and returns the connected socket, for its reply."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(30)
    s.connect(os.path.join(helper_dir(), "helper.sock"))
    body = json.dumps(dict(req, v=1, service="overlay", display=os.environ["DISPLAY"])).encode()
    s.sendall(struct.pack(">I", len(body)) + body)
    return s


def helper_reply(s):
    """The reply frame on s (closed after)."""
    def exactly(n):
        data = b""
        while len(data) < n:
            part = s.recv(n - len(data))
            assert part, "the helper closed the connection before its reply"
            data += part
        return data
    try:
        return json.loads(exactly(struct.unpack(">I", exactly(4))[0]))
    finally:
        s.close()


def test_an_unhide_during_a_glide_ends_it_at_the_drop_point(cli, fixture_app):
    """3184b04, driven through the helper's socket: a drag's unhide names the drop point
    while the cursor's glide is still under way (its client stopped waiting on a loaded
    machine). The glide ends at once, at that point: the body is there when the unhide's
    reply comes, and the glide's own reply comes then. A 60 s glide is surely under way;
    before the fix the point was ignored and the body went on along the path."""
    sid, env = start_session(cli)
    move_pointer(100, 100)  # a new cursor starts at the pointer
    cli.ok("cursor-overlay", "enable", env=env)
    body = overlay_windows(sid)[("cursor", "")][0]
    w = Watcher({})
    glide = None
    try:
        glide = helper_request({"op": "glide", "session": sid, "cursor": "", "point": [900, 100],
                                "style": {"travel_ms": [60000, 60000]}})
        obs.wait_until(lambda: w.geometry(body)[1] > 103, timeout=30.0,
                       what="the glide to be under way")
        drop = (500, 600)  # off the glide's path
        reply = helper_reply(helper_request({"op": "unhide", "session": sid, "cursor": "",
                                             "point": list(drop)}))
        assert reply["ok"], reply
        viewable, x, y = w.geometry(body)
        assert viewable and abs(x - drop[0]) <= 3 and abs(y - drop[1]) <= 3, (x, y)
        ended = helper_reply(glide)  # well before its 60 s of travel
        glide = None
        assert ended["ok"], ended
        viewable, x, y = w.geometry(body)
        assert abs(x - drop[0]) <= 3 and abs(y - drop[1]) <= 3, (x, y)
    finally:
        if glide is not None:
            glide.close()
        w.close()
