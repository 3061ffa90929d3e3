"""The window manager as EWMH names it (linux/x11_wm.c): the root's _NET_SUPPORTING_WM_CHECK
window, valid only when it points at itself, its _NET_WM_NAME, and the pid of the X client
that created it (X-Resource). close-app refuses that process whatever its executable is
called; the executable-name list is only the fallback.

Independent reads: /proc/<pid>/comm for openbox's pid, the X properties written and read
back with python-xlib, the process and its window still there after the refusal."""
import os
import subprocess

import pytest
from Xlib import X, Xatom, display

import atspi_observer as obs
from e2e_helpers import expect_error, proc_state

pytestmark = pytest.mark.usefixtures("cli")

LAUNCH_TIMEOUT_MS = 60000


def _x11_drive(ad_bin):
    """x11-drive (tests/unit/x11_drive.c) of the build that holds ad_bin."""
    path = os.path.join(os.path.dirname(ad_bin), "tests", "unit", "x11-drive")
    assert os.access(path, os.X_OK), "build %s first" % path
    return path


def _comm(pid):
    with open("/proc/%d/comm" % pid) as f:
        return f.read().strip()


def _stop(pid):
    try:
        os.kill(pid, 9)
    except ProcessLookupError:
        pass


def test_openbox_is_named_by_its_check_window(ad_bin):
    out = subprocess.run([_x11_drive(ad_bin), "wm"], capture_output=True, text=True,
                         timeout=30)
    assert out.returncode == 0, out.stderr
    pid, name = out.stdout.strip().split(" ", 1)
    assert name == "Openbox"  # the check window's _NET_WM_NAME, not the executable name
    assert _comm(int(pid)) == "openbox"  # X-Resource named the process that runs it


def _toplevel_of(pid):
    """The fixture's top-level X window (GTK sets _NET_WM_PID on it)."""
    out = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                         capture_output=True, text=True, timeout=10).stdout.split()
    assert out, "no window of pid %d" % pid
    return int(out[0])


def test_close_app_refuses_the_process_the_check_window_names(cli, ad_bin, fixture_bin):
    """The fixture's own window made the EWMH check window: close-app must refuse the
    fixture as the window manager although 'ad-fixture' is on no list. Before x11_wm.c it
    closed it."""
    name = "adfx-wm-%d" % os.getpid()
    code, env = cli.run("launch", fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name,
                        "--timeout", LAUNCH_TIMEOUT_MS, timeout=LAUNCH_TIMEOUT_MS / 1000 + 30)
    assert code == 0, env
    pid = env["data"]["pid"]
    d = display.Display()
    root = d.screen().root
    check = d.intern_atom("_NET_SUPPORTING_WM_CHECK")
    saved = root.get_full_property(check, Xatom.WINDOW)
    assert saved is not None, "the desktop's window manager publishes no check window"
    try:
        w = d.create_resource_object("window", _toplevel_of(pid))
        # The root alone pointing at it is a stale check: not a window manager.
        root.change_property(check, Xatom.WINDOW, 32, [w.id])
        d.sync()
        drive = subprocess.run([_x11_drive(ad_bin), "wm"], capture_output=True, text=True,
                               timeout=30)
        assert drive.returncode == 1, drive.stdout
        # Now it names itself too, as EWMH asks of a window manager's check window.
        w.change_property(check, Xatom.WINDOW, 32, [w.id])
        d.sync()
        assert w.get_full_property(check, Xatom.WINDOW).value[0] == w.id
        code, env = cli.run("close-app", name, "--force")
        expect_error((code, env), "INVALID_ARGS")
        assert env["error"]["details"]["kind"] == "protected_process"
        assert env["error"]["details"]["pid"] == pid
        assert "the window manager (AD Fixture)" in env["error"]["message"]
        # Refused before any request or signal: the process and its window are there.
        assert proc_state(pid) not in (None, "Z")
        assert obs.window_for_pid(pid) is not None
    finally:
        root.change_property(check, Xatom.WINDOW, 32, [saved.value[0]])
        d.sync()
        d.close()
        _stop(pid)
