"""A stalled bus (issue 7, item 20): with the accessibility bus daemon, the session bus daemon,
the registry or the bus launcher stopped (SIGSTOP), every command ends within its deadline plus
a margin, with one valid envelope that names what stayed silent (errors-and-recovery.md,
platforms/linux.md "Check the accessibility bus"; commands/system.md "status").

The processes are the private desktop's own (scripts/desktop-up.sh: $AD_DESKTOP_DIR/pids and
their children); a test never stops a bus it did not start, and resumes it in a finally, then
waits until the desktop answers again for the tests that follow.
"""
import os
import signal
import subprocess
import time

import pytest

from action_helpers import expect_count, need_state, wait_state
from e2e_helpers import check_envelope, fixture_ref, proc_state

# Deadline plus this much: process start, the envelope, a loaded 2-core machine.
MARGIN_S = 1.5

# The budgets each command runs under (commands/*.md defaults; status has none of its own).
STATUS_S = 2.0
LIST_APPS_S = 1.0
SNAPSHOT_S = 3.0
ACTION_S = 5.0
PRESS_S = 5.0
LIST_WINDOWS_S = 5.0
FIND_S = 5.0

UNRESPONSIVE = "accessibility_bus_unresponsive"


def _processes():
    """(pid, ppid, comm, environ bytes) of every process of ours."""
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:  # bytes: another user's process may name itself in any encoding
            with open("/proc/%s/stat" % name, "rb") as f:
                stat = f.read().decode(errors="replace")
            with open("/proc/%s/comm" % name, "rb") as f:
                comm = f.read().decode(errors="replace").strip()
            with open("/proc/%s/environ" % name, "rb") as f:
                environ = f.read()
        except OSError:
            continue
        yield int(name), int(stat.rsplit(")", 1)[1].split()[1]), comm, environ


def _only(what, found):
    assert len(found) == 1, "expected one %s, found %r" % (what, found)
    return found[0]


@pytest.fixture(scope="module")
def desktop_pids():
    """pid of each part of the private desktop's accessibility stack."""
    d = os.environ.get("AD_DESKTOP_DIR")
    if not d or not os.path.isfile(os.path.join(d, "pids")):
        pytest.skip("needs the private desktop of scripts/desktop-up.sh (AD_DESKTOP_DIR)")
    labels = {}
    with open(os.path.join(d, "pids")) as f:
        for line in f:
            parts = line.split()
            if len(parts) >= 3:
                labels[parts[2]] = int(parts[0])
    launcher = labels["at-spi-bus-launcher"]
    procs = list(_processes())
    a11y = _only("accessibility bus daemon", [pid for pid, ppid, comm, _ in procs
                                              if ppid == launcher and comm == "dbus-daemon"])
    # The accessibility bus activates the registry through a helper, so it is nobody's child
    # here: it is the one that runs with this desktop's runtime dir (comm is cut at 15).
    runtime = ("XDG_RUNTIME_DIR=%s" % os.environ["XDG_RUNTIME_DIR"]).encode()
    registry = _only("registry", [pid for pid, _, comm, env in procs
                                  if comm == "at-spi2-registr" and runtime in env.split(b"\0")])
    return {"session_bus": labels["dbus"], "bus_launcher": launcher,
            "accessibility_bus": a11y, "registry": registry}


class Stopped:
    """SIGSTOP pid for a with-block; SIGCONT on the way out, whatever happened."""

    def __init__(self, pid):
        self.pid = pid

    def __enter__(self):
        os.kill(self.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while proc_state(self.pid) != "T":
            assert time.monotonic() < deadline, "pid %d did not stop" % self.pid
            time.sleep(0.01)
        return self

    def __exit__(self, *exc):
        os.kill(self.pid, signal.SIGCONT)
        return False


def timed(cli, budget_s, *args):
    """Runs one command; asserts it ended within budget_s + MARGIN_S with one valid envelope.
    Returns (exit code, envelope)."""
    started = time.monotonic()
    try:
        p = cli.raw(*args, timeout=budget_s + MARGIN_S + 10)
    except subprocess.TimeoutExpired:
        pytest.fail("agent-desktop %s still ran after %.1f s" % (" ".join(args),
                                                                budget_s + MARGIN_S + 10))
    took = time.monotonic() - started
    envelope = check_envelope(p.stdout, p.stderr, p.returncode, args)
    assert took <= budget_s + MARGIN_S, "agent-desktop %s took %.2f s (budget %.1f s): %s" % (
        " ".join(args), took, budget_s, p.stdout[:400])
    return p.returncode, envelope


def expect_silent(result, component, delivery="not_delivered"):
    """TIMEOUT naming the silent part, with a suggestion and the raw error."""
    code, envelope = result
    assert not envelope["ok"], envelope
    err = envelope["error"]
    assert code == 1, err
    assert err["code"] == "TIMEOUT", err
    assert err["details"]["kind"] == UNRESPONSIVE, err
    assert err["details"]["component"] == component, err
    assert err["disposition"]["delivery"] == delivery, err
    assert err.get("suggestion") and err.get("platform_detail"), err
    return err


def expect_status_unknown(result):
    code, envelope = result
    assert code == 0 and envelope["ok"], envelope
    acc = envelope["data"]["permissions"]["accessibility"]
    assert acc["state"] == "unknown", acc  # not answered is not denied
    assert acc.get("suggestion") and acc.get("platform_detail"), acc
    assert envelope["data"]["supported_surfaces"] == [], envelope["data"]


def wait_healthy(cli, app, timeout=30.0):
    """After SIGCONT: the bus answers again and lists the fixture (bounded poll)."""
    deadline = time.monotonic() + timeout
    while True:
        p = cli.raw("list-apps", "--app", "ad-fixture", timeout=30)
        if p.returncode == 0 and '"pid":%d' % app.pid in p.stdout.replace(" ", ""):
            return
        assert time.monotonic() < deadline, "the desktop did not recover: %s" % p.stdout[:400]
        time.sleep(0.1)


def _read_commands(cli, component):
    expect_status_unknown(timed(cli, STATUS_S, "status"))
    expect_silent(timed(cli, LIST_APPS_S, "list-apps", "--timeout-ms", "1000"), component)
    expect_silent(timed(cli, SNAPSHOT_S, "snapshot", "--app", "ad-fixture"), component)
    expect_silent(timed(cli, LIST_WINDOWS_S, "list-windows"), component)
    expect_silent(timed(cli, FIND_S, "find", "--app", "ad-fixture", "--role", "button"),
                  component)


def _press_tab(cli):
    # Unscoped press needs no bus: XTEST sends it, the surfaces it reports are best effort.
    code, envelope = timed(cli, PRESS_S, "press", "tab")
    assert code == 0 and envelope["ok"], envelope


@pytest.mark.parametrize("component", ["accessibility_bus", "session_bus", "bus_launcher"])
def test_stalled_bus_ends_every_command_in_time(cli, fixture_app, desktop_pids, component):
    before = need_state(fixture_app)
    inc = fixture_ref(cli, "inc_button")
    try:
        with Stopped(desktop_pids[component]):
            _read_commands(cli, component)
            # The connection never completed: nothing reached the app.
            expect_silent(timed(cli, ACTION_S, "click", inc), component)
            _press_tab(cli)
    finally:
        wait_healthy(cli, fixture_app)
    # Ordering canary: a click now lands after anything the refused one could have queued.
    cli.ok("click", fixture_ref(cli, "inc_button"))
    expect_count(fixture_app, before["count"] + 1)


def test_stalled_registry_ends_every_command_in_time(cli, fixture_app, desktop_pids):
    before = need_state(fixture_app)
    inc = fixture_ref(cli, "inc_button")
    try:
        with Stopped(desktop_pids["registry"]):
            _read_commands(cli, "registry")
            # A ref action talks to the app, not to the registry: it still lands.
            code, envelope = timed(cli, ACTION_S, "click", inc)
            assert code == 0 and envelope["ok"], envelope
            assert envelope["data"]["disposition"]["delivery"] == "delivered_unverified"
            # The fixture's own state line shows it; pyatspi (the canary) needs the registry.
            wait_state(fixture_app, lambda st: st["count"] >= before["count"] + 1,
                       "the click to land")
            _press_tab(cli)
    finally:
        wait_healthy(cli, fixture_app)
    expect_count(fixture_app, before["count"] + 1)  # exactly once, proven by the canary
