"""A window read asks only what its tree needs (walker.c, linux_adapter.c read_window; issue
12): what goes over the wire is read independently, with the agent-desktop process under
strace (every D-Bus message it sends, on the bus and on a GTK 3 app's direct connection)."""
import pyatspi

from action_helpers import FIXTURE
from e2e_helpers import count_sent, traced_lines

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


def test_a_fresh_gtk4_read_takes_what_gtk_announces(cli, fresh_gtk4_demo):
    """GTK 4 builds an element's accessible only when a client first asks for it, and
    announces it (Cache.AddAccessible) before it answers the GetChildAtIndex that caused it.
    The first read of a fresh gtk4-demo takes role, states, interfaces and name from those
    announcements instead of asking GetRole, GetState, GetInterfaces and GetAll of every node
    it reaches by index (bench/bench-gtk4-cold.sh: 3,315 -> 1,836 method calls)."""
    _, window_id = fresh_gtk4_demo
    envelope, lines = traced_lines(cli, "sendmsg,writev", "snapshot", "--window-id", window_id)
    assert envelope["ok"], envelope["error"]
    by_index = count_sent(lines, "GetChildAtIndex")
    asked = {m: count_sent(lines, m) for m in ("GetRole", "GetState", "GetInterfaces", "GetAll")}
    assert by_index > 100, by_index  # the read was cold: most nodes were reached by index
    # A node built by someone else between GetItems and the match is still read live.
    assert all(n <= by_index // 20 for n in asked.values()), (by_index, asked)
