"""Headed input finds its X window by the mapping the window commands use (pid, title and the
bounds list-windows reports: ad_x11_client_of_window), not by pid and title alone: two
same-titled windows of one process are told apart by their place.

The fixture started with AD_FIXTURE_TWIN=1 shows a second top-level window titled
"AD Fixture" too (300x200, content "twin"). Which X window is which is read from the X
server alone (xwininfo sizes); which one is active from _NET_ACTIVE_WINDOW (xdotool)."""
import os
import subprocess

import pytest

import atspi_observer as obs
from test_window_ops import active_window, bounds, visible_rect

pytestmark = pytest.mark.usefixtures("cli")

LAUNCH_TIMEOUT_MS = 60000


def _x_clients_of(pid):
    ids = subprocess.run(["xdotool", "search", "--onlyvisible", "--pid", str(pid)],
                         capture_output=True, text=True, timeout=15).stdout.split()
    return {w: visible_rect(w) for w in ids}


@pytest.fixture
def twins(cli, fixture_bin):
    """(main, twin): each a dict of the list-windows row and its X window."""
    name = "adfx-twin-%d" % os.getpid()
    code, env = cli.run("launch", fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name,
                        "--env", "AD_FIXTURE_TWIN=1", "--timeout", LAUNCH_TIMEOUT_MS,
                        timeout=LAUNCH_TIMEOUT_MS / 1000 + 30)
    assert code == 0, env
    pid = env["data"]["pid"]
    try:
        rows = obs.wait_until(
            lambda: (lambda r: r if len(r) == 2 else None)(
                [w for w in cli.ok("list-windows", "--app", name) if w["pid"] == pid]),
            timeout=30, what="both windows of the twin fixture on AT-SPI")
        xs = obs.wait_until(lambda: (lambda c: c if len(c) == 2 else None)(_x_clients_of(pid)),
                            timeout=30, what="both X windows of the twin fixture")
        assert {r["title"] for r in rows} == {"AD Fixture"}
        # The X server alone says which is the small one; list-windows must agree on places.
        twin_x = min(xs, key=lambda w: xs[w][2] * xs[w][3])
        main_x = max(xs, key=lambda w: xs[w][2] * xs[w][3])
        by_rect = {bounds(r): r for r in rows}
        assert set(by_rect) == set(xs.values()), (rows, xs)
        yield ({"row": by_rect[xs[main_x]], "x": main_x},
               {"row": by_rect[xs[twin_x]], "x": twin_x})
    finally:
        try:
            os.kill(pid, 9)
        except ProcessLookupError:
            pass


def test_headed_press_focuses_the_same_titled_window_it_names(cli, twins):
    main, twin = twins
    # Each in turn, so the test sees the focus move both ways (openbox focuses a new window).
    for target, other in ((twin, main), (main, twin), (twin, main)):
        cli.ok("press", "shift", "--window-id", target["row"]["id"], "--headed")
        assert int(active_window()) == int(target["x"]), (target, other)


def test_headed_press_finds_a_window_whose_x_title_changed(cli, twins):
    """The X title no longer equals the one AT-SPI reports (set on the X window alone, as an
    app that retitles itself shows until AT-SPI catches up): the window is still found by
    its process and place. By pid and title it was WINDOW_NOT_FOUND."""
    main, twin = twins
    subprocess.run(["xdotool", "set_window", "--name", "Renamed on X", twin["x"]], check=True,
                   timeout=15)
    obs.wait_until(lambda: "Renamed on X" in subprocess.run(
        ["xprop", "-id", twin["x"], "_NET_WM_NAME"], capture_output=True, text=True,
        timeout=15).stdout, what="the new X title")
    for target in (twin, main, twin):
        cli.ok("press", "shift", "--window-id", target["row"]["id"], "--headed")
        assert int(active_window()) == int(target["x"])
