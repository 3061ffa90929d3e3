"""The Wayland clipboard through wl-clipboard (wayland_clipboard.h), read back with wl-paste,
wl-copy and a GTK entry of the fixture."""
import os
import subprocess
import tempfile

import pytest

import atspi_observer as obs
from shell_input import focused_fixture_entry

pytestmark = pytest.mark.wayland_only


@pytest.fixture(autouse=True)
def overview_closed():
    subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o",
                    "/org/gnome/Shell", "-m", "org.freedesktop.DBus.Properties.Set",
                    "org.gnome.Shell", "OverviewActive", "<false>"],
                   capture_output=True, timeout=10, check=True)


def wl_paste():
    return subprocess.run(["wl-paste", "--no-newline"], capture_output=True, timeout=10)


def test_set_then_wl_paste(run):
    code, env = run("clipboard-set", "wayland ✓ text")
    assert code == 0 and env["ok"], env
    p = wl_paste()
    assert p.returncode == 0 and p.stdout.decode() == "wayland ✓ text"


def test_wl_copy_then_get(run):
    subprocess.run(["wl-copy", "from wl-copy"], check=True, timeout=10)
    code, env = run("clipboard-get")
    assert env["ok"] and env["data"]["text"] == "from wl-copy", env


def test_clear(run):
    assert run("clipboard-set", "soon gone")[1]["ok"]
    code, env = run("clipboard-clear")
    assert env["ok"], env
    assert wl_paste().returncode != 0
    assert run("clipboard-get")[1]["data"]["found"] is False


def test_round_trip_with_gtk_entry(fixture_app, run):
    # set -> paste into the entry (ctrl+v on the focused entry) -> read the entry
    assert run("clipboard-set", "pasted-by-ctrl-v")[1]["ok"]
    entry = focused_fixture_entry(fixture_app, run)
    assert run("press", "ctrl+v")[1]["ok"]
    obs.wait_until(lambda: obs.text_of(entry) == "pasted-by-ctrl-v", timeout=10,
                   what="the pasted text in the entry")
    # copy from the entry (select all, ctrl+c) -> clipboard-get
    obs.set_text(entry, "copied-from-entry")
    entry.queryComponent().grabFocus()
    assert run("press", "ctrl+a")[1]["ok"]
    assert run("press", "ctrl+c")[1]["ok"]
    obs.wait_until(lambda: run("clipboard-get")[1]["data"].get("text") == "copied-from-entry",
                   timeout=10, what="the entry's text on the clipboard")


def test_missing_wl_clipboard_is_platform_not_supported(run):
    empty = tempfile.mkdtemp(prefix="ad-nowl-")
    try:
        for cmd in (("clipboard-get",), ("clipboard-set", "x"), ("clipboard-clear",)):
            code, env = run(*cmd, env={"PATH": empty})
            assert not env["ok"] and env["error"]["code"] == "PLATFORM_NOT_SUPPORTED", env
            assert env["error"]["details"]["cause"] == "wl_clipboard_missing"
    finally:
        os.rmdir(empty)
