"""agent-desktop mcp against GNOME Calculator through the official MCP client SDKs.

tests/mcp/calc_click.mjs snapshots the calculator, finds the 7 and clicks it over MCP (both
eras); the display is then read here through pyatspi, not through agent-desktop. The
protocol tests (schemas, cancellation, limits, end of input) are tests/mcp/mcp.test.mjs.
"""
import ctypes
import json
import os
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import expect_count, need_state, ref
from test_actions import _calc_display, _clear_button

MCP_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "mcp")


@pytest.fixture(scope="session")
def mcp_clients():
    """The pinned SDKs (npm ci from tests/mcp/package-lock.json)."""
    subprocess.run(["bash", os.path.join(MCP_DIR, "install.sh")], check=True, timeout=600,
                   stdin=subprocess.DEVNULL)
    return MCP_DIR


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_mcp_click_seven_on_the_calculator(cli, calculator_app, mcp_clients, era):
    display = _calc_display(calculator_app)
    if obs.text_of(display) != "":
        cli.ok("click", _clear_button(cli))
        obs.wait_until(lambda: obs.text_of(display) == "", what="an empty display")
    env = cli.environment({"AD_BIN": cli.binary})
    # The SDK's stdio transport passes the server's stderr through to the script's.
    out = subprocess.run(["node", os.path.join(mcp_clients, "calc_click.mjs"), era],
                         capture_output=True, text=True, env=env, timeout=120,
                         stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    # The server's and its children's stderr: an ASan build's reports land here.
    assert "Sanitizer" not in out.stderr and "runtime error:" not in out.stderr, out.stderr
    result = json.loads(out.stdout)
    snap = result["snapshot"]
    assert snap["ok"] is True and snap["command"] == "snapshot", snap
    assert snap["data"]["ref_count"] > 0
    assert result["click"]["ok"] is True, result["click"]
    # The effect, read independently of agent-desktop.
    obs.wait_until(lambda: obs.text_of(display) == "7", what="7 in the calculator's display")


MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {}}


def _click_request(request_id, ref_id):
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"_meta": MODERN_META, "name": "desktop_click",
                       "arguments": {"ref_id": ref_id}}}


def test_mcp_a_call_cancelled_before_it_started_never_runs(cli, fixture_app):
    """A tools/call and its notifications/cancelled in one write: the click never happens
    (the fixture's own count), and it gets no response. The canary is a second click in the
    same write, whose effect shows the first one would have landed by then. Hand-written
    JSON here: only the wire can put the two messages into one read."""
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    server = subprocess.Popen([cli.binary, "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=cli.environment())
    try:
        batch = [_click_request(1, inc),
                 {"jsonrpc": "2.0", "method": "notifications/cancelled",
                  "params": {"requestId": 1, "reason": "test"}},
                 _click_request(2, inc)]
        server.stdin.write("".join(json.dumps(m) + "\n" for m in batch))
        server.stdin.flush()
        first = json.loads(server.stdout.readline())
        assert first["id"] == 2, first
        assert first["result"]["structuredContent"]["ok"] is True, first
        expect_count(fixture_app, before["count"] + 1)
        server.stdin.close()
        rest = server.stdout.read()
        assert server.wait(timeout=30) == 0
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert rest == "", "no response for the cancelled call: %r" % rest
    err = server.stderr.read()
    assert "Sanitizer" not in err and "runtime error:" not in err, err
    # A child that started and was stopped at once would leave the count alone as well; the
    # server's log tells the two apart: it never had a child to cancel.
    assert "cancelling desktop_click" not in err, err
    assert "cancelled before it started" in err, err


BUTTON1_MASK = 1 << 8


def _pointer_buttons():
    """The X pointer's button mask through libX11's XQueryPointer: not through agent-desktop."""
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XDefaultRootWindow.restype = ctypes.c_ulong
    x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    assert display, "cannot open the X display"
    try:
        root = x11.XDefaultRootWindow(display)
        win, child = ctypes.c_ulong(), ctypes.c_ulong()
        ints = [ctypes.c_int() for _ in range(4)]
        mask = ctypes.c_uint()
        x11.XQueryPointer(ctypes.c_void_p(display), ctypes.c_ulong(root), ctypes.byref(win),
                          ctypes.byref(child), *[ctypes.byref(i) for i in ints],
                          ctypes.byref(mask))
        return mask.value
    finally:
        x11.XCloseDisplay(display)


def _children_of(ppid):
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % name) as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[1]) == ppid and fields[0] != "Z":
            out.append(int(name))
    return out


def test_mcp_a_cancelled_drag_releases_its_button(cli, fixture_app):
    """SIGTERM during a long headed drag: the child releases button 1 before it ends (read
    through XQueryPointer), instead of leaving it down on the X server."""
    assert not _pointer_buttons() & BUTTON1_MASK
    server = subprocess.Popen([cli.binary, "mcp", "--headed"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env=cli.environment())
    try:
        call = {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                "params": {"_meta": MODERN_META, "name": "desktop_drag",
                           "arguments": {"from_xy": "20,20", "to_xy": "80,80",
                                         "duration": 60000, "timeout_ms": 120000}}}
        server.stdin.write(json.dumps(call) + "\n")
        server.stdin.flush()
        obs.wait_until(lambda: _pointer_buttons() & BUTTON1_MASK, timeout=20,
                       what="the drag to hold button 1")
        children = _children_of(server.pid)
        assert len(children) == 1, children
        server.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                       "params": {"requestId": 7}}) + "\n")
        server.stdin.flush()
        obs.wait_until(lambda: not os.path.exists("/proc/%d/stat" % children[0]) or
                       children[0] not in _children_of(server.pid), timeout=20,
                       what="the cancelled drag to end")
        assert not _pointer_buttons() & BUTTON1_MASK, "button 1 is still held"
        server.stdin.close()
        assert server.stdout.read() == "", "no response for the cancelled call"
        assert server.wait(timeout=30) == 0
    finally:
        if _pointer_buttons() & BUTTON1_MASK:  # leave the desktop as it was for later tests
            subprocess.run(["xdotool", "mouseup", "1"], check=False)
        if server.poll() is None:
            server.kill()
            server.wait()
