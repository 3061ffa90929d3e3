"""Notifications without GNOME Shell (commands/notifications.md): on this openbox desktop
nothing owns org.freedesktop.Notifications, and a stand-in daemon that owns it is named, never
read as an empty list. The ownership is read independently over D-Bus (Gio)."""
import os
import subprocess
import sys

import pytest

import atspi_observer as obs
from e2e_helpers import expect_error

from gi.repository import Gio, GLib

NAME = "org.freedesktop.Notifications"

# A stand-in notification daemon: owns the name and answers nothing else.
FAKE_DAEMON = r"""
import sys
from gi.repository import Gio, GLib
loop = GLib.MainLoop()
Gio.bus_own_name(Gio.BusType.SESSION, "org.freedesktop.Notifications",
                 Gio.BusNameOwnerFlags.NONE, None,
                 lambda *a: print("owned", flush=True), lambda *a: loop.quit())
loop.run()
"""


def _name_has_owner():
    bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
    reply = bus.call_sync("org.freedesktop.DBus", "/org/freedesktop/DBus",
                          "org.freedesktop.DBus", "NameHasOwner", GLib.Variant("(s)", (NAME,)),
                          None, Gio.DBusCallFlags.NONE, 5000, None)
    return reply.unpack()[0]


NOT_SUPPORTED_COMMANDS = [
    ("list-notifications",),
    ("wait", "--notification", "--timeout", "2000"),
    ("--headed", "dismiss-all-notifications"),
    ("--headed", "dismiss-notification", "1", "--expected-title", "x"),
]


@pytest.mark.parametrize("args", NOT_SUPPORTED_COMMANDS, ids=lambda a: a[-1] if len(a) < 3
                         else a[1])
def test_no_service_is_platform_not_supported(run, args):
    assert not _name_has_owner()
    err = expect_error(run(*args), "PLATFORM_NOT_SUPPORTED")
    assert err["message"] == "No notification service is running in this session"
    assert err["details"]["daemon"] == "absent"
    assert err["details"]["detail"] == "no service owns org.freedesktop.Notifications"


@pytest.fixture
def fake_daemon():
    p = subprocess.Popen([sys.executable, "-c", FAKE_DAEMON], stdout=subprocess.PIPE, text=True)
    try:
        assert p.stdout.readline().strip() == "owned"
        obs.wait_until(_name_has_owner, timeout=10.0, what="the stand-in owns the name")
        yield p
    finally:
        p.kill()
        p.wait(timeout=10)


def test_another_owner_is_named(run, fake_daemon):
    exe = os.path.basename(os.readlink("/proc/%d/exe" % fake_daemon.pid))
    for args in (("list-notifications",), ("--headed", "dismiss-all-notifications")):
        err = expect_error(run(*args), "PLATFORM_NOT_SUPPORTED")
        assert err["message"] == "The notification service is not GNOME Shell"
        assert err["details"]["daemon"] == exe
        assert err["details"]["detail"] == ("org.freedesktop.Notifications is owned by %s, "
                                            "not GNOME Shell" % exe)
    assert fake_daemon.poll() is None
