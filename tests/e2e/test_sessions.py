"""Sessions through the real binary (sessions.md, commands/system.md "session",
configuration.md "Layout"): start, list, end and gc, with the files on disk read directly;
the ended-session refusal; the multi-agent refusal of a desktop action (with an ordering
canary that nothing was clicked); and snapshots namespaced per session.

Every effect is read independently: the manifest and modes with os.stat/json, the click count
from ad-fixture's own state line, the use lock with fcntl.flock."""
import fcntl
import json
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time

import pytest

from action_helpers import expect_count, need_state, settled_state
from e2e_helpers import Cli, expect_error, fixture_ref, fixture_reset

ID_RE = re.compile(r"^run-[0-9]{13}-[0-9]+-[0-9]+$")


@pytest.fixture(autouse=True)
def _clean_fixture(fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def in_session(sid):
    return {"AGENT_DESKTOP_SESSION": sid}


def session_dir(state_home, sid):
    return os.path.join(state_home, "sessions", sid)


def manifest(state_home, sid):
    with open(os.path.join(session_dir(state_home, sid), "session.json")) as f:
        return json.load(f)


def mode(path):
    return stat.S_IMODE(os.lstat(path).st_mode)


def start(cli, *flags):
    return cli.ok("session", "start", *flags)


def test_start_writes_the_manifest_and_prints_the_activation(cli, state_home):
    data = start(cli, "--name", "docs-example")
    sid = data["session_id"]
    assert ID_RE.match(sid), sid
    assert data["name"] == "docs-example"
    assert data["trace"] == "on" and data["artifacts"] == "events"
    assert data["next"] == "export AGENT_DESKTOP_SESSION=%s" % sid
    assert data["activation"] == {"environment": "AGENT_DESKTOP_SESSION", "value": sid}
    assert "warnings" not in data
    d = session_dir(state_home, sid)
    assert mode(os.path.join(state_home, "sessions")) == 0o700
    assert mode(d) == 0o700
    assert mode(os.path.join(d, "session.json")) == 0o600
    assert mode(os.path.join(d, "snapshots")) == 0o700
    assert os.path.isdir(os.path.join(d, "trace"))
    m = manifest(state_home, sid)
    assert m == {"schema": 1, "session_id": sid, "name": "docs-example",
                 "created_at": data["created_at"], "ended_at": None, "trace": "on",
                 "artifacts": "events", "screenshots": False, "cursor": False,
                 "multi_agent": False}
    assert abs(m["created_at"] - time.time() * 1000) < 10 * 60 * 1000
    # `start` does not activate the session: status outside it names none.
    assert cli.ok("status")["session_id"] is None
    status = cli.ok("status", env=in_session(sid))
    assert status["session_id"] == sid
    assert status["tracing"] is True and status["artifacts"] == "events"


def test_start_flags_are_recorded_in_the_manifest(cli, state_home):
    data = start(cli, "--screenshots", "--cursor", "--multi-agent")
    # Every flag is in effect (test_screenshot.py, test_cursor_overlay.py): no warning.
    assert "warnings" not in data
    m = manifest(state_home, data["session_id"])
    assert (m["screenshots"], m["cursor"], m["multi_agent"], m["artifacts"]) == (
        True, True, True, "full")
    quiet = start(cli, "--no-trace")
    assert quiet["trace"] == "off"
    assert manifest(state_home, quiet["session_id"])["trace"] == "off"
    assert not os.path.exists(os.path.join(session_dir(state_home, quiet["session_id"]),
                                           "trace"))
    assert cli.ok("status", env=in_session(quiet["session_id"]))["tracing"] is False


def test_start_rules_and_subcommand_flags(cli, state_home):
    before = set(os.listdir(os.path.join(state_home, "sessions"))) if os.path.isdir(
        os.path.join(state_home, "sessions")) else set()
    expect_error(cli.run("session", "start", "--multi-agent"), "INVALID_ARGS", exit_code=2)
    expect_error(cli.run("session", "start", "--screenshots", "--no-trace"), "INVALID_ARGS",
                 exit_code=1)
    expect_error(cli.run("session", "start", "--name", ""), "INVALID_ARGS")
    expect_error(cli.run("session", "start", "--name", "x" * 129), "INVALID_ARGS")
    expect_error(cli.run("session", "list", "--ended"), "INVALID_ARGS", exit_code=2)
    expect_error(cli.run("session", "gc", "--no-trace"), "INVALID_ARGS", exit_code=2)
    after = set(os.listdir(os.path.join(state_home, "sessions"))) if os.path.isdir(
        os.path.join(state_home, "sessions")) else set()
    assert after == before  # no refused start made a session
    expect_error(cli.run("status", env={"AGENT_DESKTOP_SESSION": ""}), "INVALID_ARGS")
    expect_error(cli.run("--session", "bad id", "status"), "INVALID_ARGS")


def test_list_is_oldest_first_and_end_is_idempotent(cli, state_home):
    a = start(cli, "--name", "first")["session_id"]
    b = start(cli, "--name", "second")["session_id"]
    listed = cli.ok("session", "list")["sessions"]
    ids = [s["session_id"] for s in listed]
    assert ids.index(a) < ids.index(b)
    created = [s["created_at"] for s in listed]
    assert created == sorted(created)
    entry = next(s for s in listed if s["session_id"] == a)
    assert set(entry) == {"session_id", "name", "created_at", "ended_at", "trace", "artifacts"}
    assert entry["ended_at"] is None and entry["name"] == "first"

    ended = cli.ok("session", "end", a)
    assert ended["session_id"] == a and isinstance(ended["ended_at"], int)
    assert manifest(state_home, a)["ended_at"] == ended["ended_at"]
    assert mode(os.path.join(session_dir(state_home, a), "session.json")) == 0o600
    # Again, by id and as the selected session: success, the same seal.
    assert cli.ok("session", "end", a) == ended
    assert cli.ok("session", "end", env=in_session(a)) == ended
    assert manifest(state_home, a)["ended_at"] == ended["ended_at"]
    listed = cli.ok("session", "list")["sessions"]
    assert next(s for s in listed if s["session_id"] == a)["ended_at"] == ended["ended_at"]
    assert manifest(state_home, b)["ended_at"] is None
    expect_error(cli.run("session", "end", "run-0-0-nonexistent"), "INVALID_ARGS",
                 kind="session_not_found")
    expect_error(cli.run("session", "end"), "INVALID_ARGS")  # no id, no session


def test_ended_session_refuses_all_but_version_and_skills(cli, state_home, fixture_app):
    before = need_state(fixture_app)
    sid = start(cli)["session_id"]
    inc = fixture_ref(cli, "inc_button", env=in_session(sid))
    cli.ok("session", "end", sid)
    for argv in (["snapshot", "--app", "ad-fixture", "-i"], ["click", inc], ["status"]):
        err = expect_error(cli.run(*argv, env=in_session(sid)), "INVALID_ARGS",
                           kind="session_ended")
        assert err["details"]["session_id"] == sid
        assert err["message"] == "Session '%s' has ended" % sid
    # --session names it the same way.
    expect_error(cli.run("--session", sid, "click", inc), "INVALID_ARGS", kind="session_ended")
    # Selection order: --session wins over the variable, so another session still runs.
    other = start(cli)["session_id"]
    assert cli.ok("--session", other, "status", env=in_session(sid))["session_id"] == other
    assert cli.ok("version", env=in_session(sid))["version"]
    assert "skills" in cli.ok("skills", env=in_session(sid))
    # The canary: everything sent before it was handled, and no click came.
    assert settled_state(fixture_app)["count"] == before["count"]


def test_multi_agent_session_refuses_a_desktop_action_without_an_agent_id(cli, fixture_app):
    before = need_state(fixture_app)
    sid = start(cli, "--cursor", "--multi-agent")["session_id"]
    # Observation needs no agent id.
    snap = cli.ok("snapshot", "--app", "ad-fixture", "-i", env=in_session(sid))
    assert snap["snapshot_id"]
    inc = fixture_ref(cli, "inc_button", env=in_session(sid))
    err = expect_error(cli.run("click", inc, env=in_session(sid)), "INVALID_ARGS",
                       kind="agent_id_required")
    assert err["details"]["session_id"] == sid
    assert settled_state(fixture_app)["count"] == before["count"]  # canary: nothing clicked
    # With an agent id (flag or variable) the same click lands, once each.
    cli.ok("--agent-id", "agent-a", "click", inc, env=in_session(sid))
    expect_count(fixture_app, before["count"] + 1)
    env = dict(in_session(sid), AGENT_DESKTOP_AGENT_ID="agent-b")
    cli.ok("click", inc, env=env)
    expect_count(fixture_app, before["count"] + 2)
    expect_error(cli.run("--agent-id", "no spaces", "click", inc, env=in_session(sid)),
                 "INVALID_ARGS")
    assert settled_state(fixture_app)["count"] == before["count"] + 2


def test_snapshots_are_namespaced_per_session(cli, state_home, fixture_app):
    a = start(cli)["session_id"]
    b = start(cli)["session_id"]
    snap = cli.ok("snapshot", "--app", "ad-fixture", "-i", env=in_session(a))
    sid = snap["snapshot_id"]
    assert os.path.isfile(os.path.join(session_dir(state_home, a), "snapshots", sid,
                                       "refmap.json"))
    assert not os.path.exists(os.path.join(state_home, "snapshots", sid))
    inc = fixture_ref(cli, "inc_button", env=in_session(a))
    expect_error(cli.run("get", inc, "--property", "role", env=in_session(b)),
                 "SNAPSHOT_NOT_FOUND")
    # The global namespace does not see it either.
    expect_error(cli.run("get", inc, "--property", "role"), "SNAPSHOT_NOT_FOUND")
    assert cli.ok("get", inc, "--property", "role", env=in_session(a))["value"] == "button"


def _lock_is_held(path):
    """True when some process holds a flock on path (an independent read of the use lock)."""
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


@pytest.fixture
def own_home(ad_bin):
    """A state root of this test alone: gc's "nothing removed" must not count the sessions
    other tests left in the shared one (the ASan run passed five minutes, their gc age)."""
    home = tempfile.mkdtemp(prefix="ad-e2e-gc-")  # mode 0700
    yield Cli(ad_bin, home), home
    shutil.rmtree(home, ignore_errors=True)


def test_gc_removes_ended_sessions_nothing_uses(own_home, ad_bin):
    cli, state_home = own_home
    ended = start(cli)["session_id"]
    opened = start(cli)["session_id"]
    busy = start(cli)["session_id"]
    # A command running in `busy`: a long wait, which holds the session's use lock.
    waiter = subprocess.Popen([ad_bin, "wait", "600000"], env=cli.environment(in_session(busy)),
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lock = os.path.join(session_dir(state_home, busy), "session.lock")
        deadline = time.monotonic() + 30
        while not (os.path.exists(lock) and _lock_is_held(lock)):
            assert waiter.poll() is None and time.monotonic() < deadline, "no use lock"
            time.sleep(0.05)
        cli.ok("session", "end", ended)
        cli.ok("session", "end", busy)
        # Without --ended, a session that wrote in the last five minutes stays.
        assert cli.ok("session", "gc")["removed"] == []
        # --older-than: nothing here is an hour old.
        assert cli.ok("session", "gc", "--older-than", "3600", "--ended")["removed"] == []
        # An open session that wrote just now is not stale.
        assert opened not in cli.ok("session", "gc", "--older-than", "0")["removed"]
        removed = cli.ok("session", "gc", "--ended")["removed"]
        assert ended in removed and busy not in removed and opened not in removed
        assert not os.path.exists(session_dir(state_home, ended))
        assert os.path.isfile(os.path.join(session_dir(state_home, busy), "session.json"))
        assert manifest(state_home, opened)["ended_at"] is None
    finally:
        waiter.kill()
        waiter.wait()
    # Its command gone, the ended session goes too.
    assert busy in cli.ok("session", "gc", "--ended")["removed"]
    assert not os.path.exists(session_dir(state_home, busy))
    listed = [s["session_id"] for s in cli.ok("session", "list")["sessions"]]
    assert ended not in listed and busy not in listed and opened in listed
