"""GNOME Shell as the Wayland tests drive it: the Overview over D-Bus, and making an app's
window the active one through the dash with agent-desktop's own mouse-click."""
import subprocess

import atspi_observer as obs


def overview_active():
    out = subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o",
                          "/org/gnome/Shell", "-m", "org.freedesktop.DBus.Properties.Get",
                          "org.gnome.Shell", "OverviewActive"],
                         capture_output=True, text=True, timeout=10, check=True).stdout
    return "true" in out


def set_overview(active):
    subprocess.run(["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o",
                    "/org/gnome/Shell", "-m", "org.freedesktop.DBus.Properties.Set",
                    "org.gnome.Shell", "OverviewActive", "<%s>" % str(active).lower()],
                   capture_output=True, timeout=10, check=True)
    obs.wait_until(lambda: overview_active() == active, timeout=10, what="OverviewActive")


def dash_button(label):
    """The center of the Overview dash's button for a running app, in screen points."""
    def find():
        for o in obs.walk(obs.apps_named("gnome-shell")[0]):
            e = obs.extents(o.acc) if o.name == label and o.role == "push button" else None
            if e and e[0] >= 0 and e[2] > 0:
                return e[0] + e[2] // 2, e[1] + e[3] // 2
        return None
    return obs.wait_until(find, timeout=10, what="the dash button %r" % label)


def activate_from_dash(run, label, pid):
    """Makes the app's window the active one the way a user would on Wayland (no window
    control exists there): open the Overview and click the app's dash button with our own
    mouse-click. Mutter's focus-stealing prevention keeps a window launched after the last
    key from taking the focus itself."""
    run("press", "shift")  # the session first: windows are active only while it exists
    set_overview(True)
    x, y = dash_button(label)
    code, env = run("mouse-click", "--headed", "--xy", "%d,%d" % (x, y))
    assert env["ok"], env
    obs.wait_until(lambda: "active" in obs.state_names(obs.window_for_pid(pid)), timeout=10,
                   what="%s active after the dash click" % label)
    obs.wait_until(lambda: not overview_active(), timeout=10, what="the Overview closed")


def focused_fixture_entry(fixture_app, run):
    """The fixture's name entry, emptied and focused in the active fixture window."""
    run("press", "shift")  # windows are active only while an input session exists
    if "active" not in obs.state_names(obs.window_for_pid(fixture_app.pid)):
        activate_from_dash(run, "ad-fixture", fixture_app.pid)
    window = obs.wait_for_window(fixture_app.pid)
    entry = obs.by_id(window, "name_entry")
    obs.set_text(entry, "")
    entry.queryComponent().grabFocus()
    obs.wait_until(lambda: "focused" in obs.state_names(entry), timeout=10, what="entry focus")
    return entry
