"""The GNOME Shell test desktops themselves: what every other GNOME test stands on."""
import os

import atspi_observer as obs
from e2e_helpers import nodes


def test_shell_registered_and_overview_closed(gnome_kind, shell_pid, run):
    # The desktop script closed the Overview; gnome-shell is on the AT-SPI bus.
    assert shell_pid > 0
    code, env = run("list-apps", "--app", "gnome-shell")
    assert code == 0 and env["ok"], env
    assert [a["pid"] for a in env["data"]["apps"]] == [shell_pid]


def test_session_type_matches_kind(gnome_kind):
    if gnome_kind == "gnome-wayland":
        sock = os.path.join(os.environ["XDG_RUNTIME_DIR"], os.environ["WAYLAND_DISPLAY"])
        assert os.path.exists(sock) and "DISPLAY" not in os.environ
    else:
        assert os.environ.get("DISPLAY") and "WAYLAND_DISPLAY" not in os.environ


def test_calculator_snapshot_matches_atspi(calculator_app, run):
    # A GTK4 app on this desktop's backend reads the same as pyatspi sees it.
    code, env = run("snapshot", "--app", "gnome-calculator", "-i")
    assert code == 0 and env["ok"], env
    names = {n.get("name") for n in nodes(env["data"]["tree"])}
    window = obs.window_for_pid(calculator_app.pid)
    seen = {obs.presented_name(o.name) for o in obs.walk(window)}
    assert "= =" in names and "= =" in seen
