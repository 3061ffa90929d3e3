"""One app that does not answer costs only its own entry (commands/app-window.md: list-apps
`complete: false` + `skipped`, list-windows APP_UNRESPONSIVE / "a timeout is not an empty
list"; observation.md: find TIMEOUT locator_incomplete). The stopped app is a throwaway
gtk3-icon-browser of this module's own, SIGSTOPped and always continued and stopped by pid."""
import os
import signal
import time

import pytest

import atspi_observer as obs
from e2e_helpers import expect_error, launch, stop_process

STOPPED_APP = "gtk3-icon-browser"


def _exe_name(pid):
    try:
        return os.path.basename(os.readlink("/proc/%d/exe" % pid))
    except OSError:
        return None


def _first_ref(tree):
    if "ref_id" in tree:
        return tree["ref_id"]
    for child in tree.get("children", []):
        ref = _first_ref(child)
        if ref:
            return ref
    return None


@pytest.fixture
def stopped_app(cli, app_tmp):
    inst = launch([STOPPED_APP], STOPPED_APP, log_dir=app_tmp)
    try:
        # A ref into the app while it still answers, for the waits on it once stopped.
        inst.ref = _first_ref(cli.ok("snapshot", "--app", STOPPED_APP, "-i")["tree"])
        assert inst.ref, "no ref in %s" % STOPPED_APP
    except BaseException:
        stop_process(inst.popen)
        raise
    os.kill(inst.pid, signal.SIGSTOP)
    try:
        yield inst
    finally:
        os.kill(inst.pid, signal.SIGCONT)
        stop_process(inst.popen)


def timed(cli, *args):
    start = time.monotonic()
    code, envelope = cli.run(*args)
    return code, envelope, time.monotonic() - start


def test_a_stopped_app_costs_only_its_own_entry(cli, fixture_app, stopped_app):
    # The healthy fixture's window as pyatspi reads it (it touches only the fixture).
    frame = obs.read(fixture_app.window())

    # list-apps: the fixture is a row, the stopped app is skipped (never a row), and the
    # inventory does not wait out its 5 s deadline for it.
    code, env, took = timed(cli, "list-apps")
    assert env["ok"], env
    data = env["data"]
    pids = [a["pid"] for a in data["apps"]]
    assert fixture_app.pid in pids
    assert stopped_app.pid not in pids
    assert data["complete"] is False, data
    skipped = [s for s in data["skipped"] if s.get("pid") == stopped_app.pid]
    assert len(skipped) == 1, data["skipped"]
    assert skipped[0]["reason"] == "unresponsive"
    assert skipped[0]["executable"] == _exe_name(stopped_app.pid)
    assert took < 4.0, "list-apps took %.1fs against its 5 s deadline" % took

    # list-windows, with and without --app: the fixture's window is listed.
    for args in (("list-windows",), ("list-windows", "--app", "ad-fixture")):
        code, env, took = timed(cli, *args)
        assert env["ok"], (args, env)
        mine = [w for w in env["data"] if w["pid"] == fixture_app.pid]
        assert [w["title"] for w in mine] == [frame.name], (args, env["data"])
        assert not [w for w in env["data"] if w["pid"] == stopped_app.pid]
        assert took < 4.0, "%s took %.1fs" % (args, took)

    # snapshot and find on the fixture are never blocked by the stopped app.
    code, env, took = timed(cli, "snapshot", "--app", "ad-fixture", "-i")
    assert env["ok"], env
    assert env["data"]["window"]["title"] == frame.name
    assert took < 3.0 + 2.0, "snapshot took %.1fs against its 3 s deadline" % took
    add = obs.by_id(fixture_app.window(), "add_row_button")
    code, env, took = timed(cli, "find", "--app", "ad-fixture", "--native-id",
                            "add_row_button", "--exact", "--first")
    assert env["ok"], env
    assert env["data"]["match"]["name"] == add.name
    assert took < 4.0, "find took %.1fs" % took


def test_a_stopped_app_is_unresponsive_not_absent(cli, fixture_app, stopped_app):
    err = expect_error(cli.run("list-windows", "--app", STOPPED_APP), "APP_UNRESPONSIVE",
                       kind="app_unresponsive")
    assert err["details"]["pid"] == stopped_app.pid
    # list-surfaces used to answer ok with "surfaces": [] (an absence) after 5 s.
    code, env, took = timed(cli, "list-surfaces", "--app", STOPPED_APP)
    err = expect_error((code, env), "APP_UNRESPONSIVE", kind="app_unresponsive")
    assert err["details"]["pid"] == stopped_app.pid
    assert took < 4.0, "list-surfaces took %.1fs" % took
    # find reports the lookup it could not finish, never APP_NOT_FOUND.
    code, env = cli.run("find", "--app", STOPPED_APP, "--role", "button")
    assert env["error"]["code"] == "APP_UNRESPONSIVE", env
    # A stopped app has not terminated: it is not "no app matches" (found/target_unresolved).
    # (3 s: its lookup read gets 2 s, past the app's own 1 s answer budget.)
    code, env = cli.run("wait", "--event", "app-terminated", "--app", STOPPED_APP, "--timeout",
                        "3000")
    err = expect_error((code, env), "APP_UNRESPONSIVE", kind="app_unresponsive")
    assert err["details"]["pid"] == stopped_app.pid
    assert stopped_app.popen.poll() is None
    # A wait keeps its deadline: the stopped app costs its own 1 s answer budget (each
    # lookup used to wait out the read's 2 s).
    for mode in (("--app", STOPPED_APP, "--text", "no such text"),
                 ("--element", stopped_app.ref, "--predicate", "value", "--value", "no such value")):
        code, env, took = timed(cli, "wait", *mode, "--timeout", "1000")
        expect_error((code, env), "TIMEOUT", kind="wait_timeout")
        assert took < 1.0 + 0.8, "wait %s --timeout 1000 took %.1fs" % (mode, took)


def test_list_apps_tiny_timeouts_list_only_what_was_read(cli, fixture_app):
    # Every app on the bus as pyatspi reads it: pid -> name (no app is stopped here).
    registered = {}
    for app in obs.desktop_apps():
        pid = obs.app_pid(app)
        if pid:
            registered[pid] = app.name or _exe_name(pid)
    for ms in (1, 2, 3, 5, 10, 20):
        code, env = cli.run("list-apps", "--timeout-ms", ms)
        if not env["ok"]:
            # The registry's own list did not come back in time: no rows at all.
            expect_error((code, env), "TIMEOUT", kind="accessibility_bus_unresponsive")
            continue
        data = env["data"]
        for row in data["apps"]:
            # A row is only what was read: a real pid with its real name.
            assert row["pid"] in registered, (ms, row, registered)
            assert row["name"] == registered[row["pid"]], (ms, row)
            assert row["process_instance"] is not None, (ms, row)
        listed = {row["pid"] for row in data["apps"]}
        if listed != set(registered):
            assert data.get("complete") is False, (ms, data)
            assert len(data["skipped"]) + len(listed) >= len(registered), (ms, data)
            for s in data["skipped"]:
                assert s["reason"] in ("deadline", "unresponsive"), s
        else:
            assert "complete" not in data, (ms, data)


def test_find_with_a_tiny_timeout_is_never_app_not_found(cli, fixture_app):
    # Each budget cuts the lookup somewhere else: the inventory, the child list, a window.
    for ms in range(0, 21):
        code, env = cli.run("list-windows", "--app", "ad-fixture", "--timeout-ms", ms)
        if env["ok"]:
            assert [w["pid"] for w in env["data"]] == [fixture_app.pid], (ms, env)
        else:
            assert env["error"]["code"] == "TIMEOUT", (ms, env)
        code, env = cli.run("find", "--app", "ad-fixture", "--timeout-ms", ms, "--role",
                            "button", "--first")
        if env["ok"]:
            assert env["data"]["match"] is not None, (ms, env)
            continue
        err = expect_error((code, env), "TIMEOUT")
        # The budget ran out in the lookup, or before the registry's own list came back.
        assert err["details"]["kind"] in ("locator_incomplete",
                                          "accessibility_bus_unresponsive"), (ms, err)
