"""How often one command asks GNOME Shell for its window list (GNOME Wayland).

A ref action's actionability loop reads its window on every poll, and on Wayland every read
places the tree through GNOME Shell's window list (org.gnome.Shell.Eval). An adapter keeps
one session-bus connection for those reads, and once the shell has said it is not in unsafe
mode it remembers that, with the shell's pid and stage size, instead of asking again
(src/linux/shell_frames.h). The independent read is dbus-monitor on the session bus: the
calls themselves and the connections that sent them, between two marker calls that order
the capture (no sleeps).
"""
import os
import re
import subprocess
import tempfile

import pytest

import atspi_observer as obs
from action_helpers import live_count
from e2e_helpers import find_node

FIXTURE_TITLE = "AD Fixture"
# A fragment of agent-desktop's list expression (shell_frames.c), in no other caller's Eval.
LIST_JS_MARK = "get_window_actors().map(a => { const w = a.meta_window;"
RULES = ["type='method_call',interface='org.gnome.Shell',member='Eval'",
         "type='method_call',member='GetConnectionUnixProcessID'",
         "type='method_call',interface='org.freedesktop.DBus.Properties',"
         "path='/org/gnome/Shell/Introspect'"]


def _eval(js):
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o",
                          "/org/gnome/Shell", "-m", "org.gnome.Shell.Eval", js],
                         capture_output=True, text=True, timeout=10)
    assert out.returncode == 0, out.stderr
    return out.stdout.strip().startswith("(true,")


def _calls(text):
    """The method calls dbus-monitor printed: dicts of sender, member, body."""
    calls = []
    for block in re.split(r"\n(?=\S)", text):
        m = re.match(r"method call .*?sender=(\S+) .*?member=(\S+)", block)
        if m:
            calls.append({"sender": m.group(1), "member": m.group(2), "body": block})
    return calls


class _Monitor:
    """dbus-monitor on the session bus, its output in a file; started and stopped by pid."""

    def __init__(self, tmp):
        self.path = os.path.join(tmp, "monitor.txt")
        self.out = open(self.path, "w")
        self.proc = subprocess.Popen(["dbus-monitor", "--session"] + RULES, stdout=self.out,
                                     stderr=subprocess.STDOUT)

    def mark(self, name):
        """An Eval of a marker string, waited for in the capture: what the monitor printed
        before it was sent before it."""
        # Sent again until seen: dbus-monitor may not be a monitor yet when the first one
        # goes out (a loaded run missed it), and a repeated marker orders the same.
        def seen():
            if name in self.text():
                return True
            _eval("'%s'" % name)
            return name in self.text()
        obs.wait_until(seen, timeout=20.0, interval=0.5,
                       what="the monitor to see marker %s" % name)

    def text(self):
        with open(self.path) as f:
            return f.read()

    def stop(self):
        self.proc.terminate()
        self.proc.wait(timeout=10)
        self.out.close()


@pytest.mark.wayland_only
def test_one_click_asks_the_shell_on_one_connection(fixture_app, run):
    # Before: every read of the window opened its own session-bus connection and asked Eval,
    # and outside unsafe mode one GetConnectionUnixProcessID and one ScreenSize more: one
    # round of each per poll. After: one connection for the command; outside unsafe mode
    # Eval, the pid and ScreenSize at most once each.
    unsafe = _eval("global.context.unsafe_mode")
    win = obs.window_for_pid(fixture_app.pid, FIXTURE_TITLE)
    before = live_count(win)
    code, env = run("snapshot", "--app", "ad-fixture", "-i")
    assert code == 0 and env["ok"], env
    node = find_node(env["data"]["tree"], role="button", name="Increment")
    assert node is not None
    with tempfile.TemporaryDirectory() as tmp:
        mon = _Monitor(tmp)
        try:
            mon.mark("ad-shell-reads-start")
            code, env = run("click", node["ref_id"], "--timeout-ms", "5000")
            assert code == 0 and env["ok"], env
            mon.mark("ad-shell-reads-end")
        finally:
            mon.stop()
        text = mon.text()
    # The click happened (pyatspi reads the count), so its reads were real ones.
    obs.wait_until(lambda: live_count(win)[0] == before[0] + 1, timeout=10.0,
                   what="the count to go up by one")
    calls = _calls(text[text.index("ad-shell-reads-start"):text.index("ad-shell-reads-end")])
    lists = [c for c in calls if c["member"] == "Eval" and LIST_JS_MARK in c["body"]]
    assert lists, text  # the click read its window at least once through the shell's list
    senders = {c["sender"] for c in lists}
    assert len(senders) == 1, senders
    ours = [c for c in calls if c["sender"] in senders]
    pids = [c for c in ours if c["member"] == "GetConnectionUnixProcessID"]
    sizes = [c for c in ours if c["member"] == "Get" and "ScreenSize" in c["body"]]
    if unsafe:
        # The list answers; positions move, so each read asks, on the one connection.
        assert not pids and not sizes, ours
    else:
        assert len(lists) == 1 and len(pids) <= 1 and len(sizes) <= 1, ours
