"""A window read asks only what its tree needs (walker.c, linux_adapter.c read_window; issue
12): what goes over the wire is read independently, with the agent-desktop process under
strace (every D-Bus message it sends, on the bus and on a GTK 3 app's direct connection)."""
import pyatspi

from action_helpers import FIXTURE
from e2e_helpers import traced_lines

PID_LOOKUP = "GetConnectionUnixProcessID"


def registry_apps():
    """The applications on the AT-SPI registry, read with pyatspi."""
    desktop = pyatspi.Registry.getDesktop(0)
    return sum(1 for i in range(desktop.childCount) if desktop.getChildAtIndex(i) is not None)


def test_a_gtk3_read_asks_the_bus_for_no_pid(cli, fixture_app):
    """The pid places a window-relative (GTK 4) or Wayland tree; a GTK 3 window on X11 has
    screen extents and never uses it, so the read does not ask the bus daemon for it (it did:
    one more synchronous round trip per snapshot). The app lookup before the read asks each
    application on the registry once, and that is all."""
    envelope, lines = traced_lines(cli, "sendmsg,writev", "snapshot", *FIXTURE)
    assert envelope["ok"], envelope["error"]
    asked = sum(PID_LOOKUP in line for line in lines
                if "sendmsg(" in line or "writev(" in line)
    apps = registry_apps()
    assert asked == apps, (asked, apps)
