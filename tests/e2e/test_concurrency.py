"""The interaction lease: concurrent agents take turns, and a dead holder frees it
(articles/delivery-and-identity.md, commands/interaction.md auto_wait). The count is read
from the fixture's own state line."""
import os
import signal
import stat
import subprocess
import threading
import time

import pytest

from action_helpers import (UNVERIFIED, check_auto_wait, expect_count, need_state, ref,
                            unchanged)
from e2e_helpers import expect_error

AGENTS = 4
CLICKS_PER_AGENT = 25


def _lock_path(cli):
    return os.path.join(cli.lease_dir, "interaction.lock")


def _private_dir(path):
    st = os.lstat(path)
    assert stat.S_ISDIR(st.st_mode), path
    assert st.st_uid == os.getuid() and (st.st_mode & 0o777) == 0o700, oct(st.st_mode)


def test_the_lease_lives_in_a_private_runtime_directory(cli, fixture_app):
    """$XDG_RUNTIME_DIR/agent-desktop/interaction.lock, or without XDG_RUNTIME_DIR
    /tmp/agent-desktop-<uid>/interaction.lock, each in a directory only its owner can enter."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if not runtime:
        pytest.skip("the desktop exports no XDG_RUNTIME_DIR")
    before = need_state(fixture_app)
    cli.ok("click", ref(cli, "inc_button"))
    expect_count(fixture_app, before["count"] + 1)
    path = os.path.join(runtime, "agent-desktop", "interaction.lock")
    assert os.path.isfile(path)
    _private_dir(os.path.dirname(path))
    cli.ok("click", ref(cli, "inc_button"), env={"XDG_RUNTIME_DIR": None})
    expect_count(fixture_app, before["count"] + 2)
    fallback = "/tmp/agent-desktop-%d" % os.getuid()
    assert os.path.isfile(os.path.join(fallback, "interaction.lock"))
    _private_dir(fallback)


def test_a_bad_runtime_directory_fails_closed(cli, fixture_app, tmp_path):
    before = need_state(fixture_app)
    shared = tmp_path / "shared-runtime"
    shared.mkdir()
    os.chmod(shared, 0o755)
    err = expect_error(cli.run("click", ref(cli, "inc_button"),
                               env={"XDG_RUNTIME_DIR": str(shared)}), "INTERNAL")
    assert "XDG_RUNTIME_DIR" in err["message"] and "XDG_RUNTIME_DIR" in err["suggestion"]
    assert list(shared.iterdir()) == []
    # Canary: the next click lands, and it is the only one.
    cli.ok("click", ref(cli, "inc_button"))
    expect_count(fixture_app, before["count"] + 1)


def test_concurrent_find_and_click(cli, fixture_app):
    before = need_state(fixture_app)
    results, failures = [], []
    lock = threading.Lock()

    def agent(n):
        for i in range(CLICKS_PER_AGENT):
            try:
                target = ref(cli, "inc_button")  # a fresh ref for every click
                code, env = cli.run("click", target)
            except Exception as e:  # an envelope contract violation, a find that failed
                with lock:
                    failures.append("agent %d click %d: %r" % (n, i, e))
                continue
            with lock:
                if env["ok"]:
                    results.append(env["data"])
                else:
                    failures.append("agent %d click %d: %s" % (n, i, env["error"]))

    threads = [threading.Thread(target=agent, args=(n,)) for n in range(AGENTS)]
    t0 = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=600)
    assert not any(t.is_alive() for t in threads)
    elapsed = time.monotonic() - t0
    assert failures == [], failures[:5]
    assert len(results) == AGENTS * CLICKS_PER_AGENT
    for data in results:
        assert data["disposition"] == UNVERIFIED
        check_auto_wait(data["details"])
    contended = [d for d in results if d["details"]["auto_wait"]["lease_contention_count"] > 0]
    assert contended, "no click ever waited for the lease in %.1fs" % elapsed
    # Every click landed exactly once.
    expect_count(fixture_app, before["count"] + AGENTS * CLICKS_PER_AGENT)


@pytest.fixture
def lease_holder(cli):
    """A process holding the interaction lease (flock ... sleep 30) in its own process
    group; killed with SIGKILL by the test (and here, if the test did not)."""
    path = _lock_path(cli)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    p = subprocess.Popen(["flock", path, "sleep", "30"], start_new_session=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    # Wait until the lock is really held (a non-blocking flock from here fails).
    deadline = time.monotonic() + 10
    while subprocess.run(["flock", "-n", "-E", "99", path, "true"]).returncode != 99:
        assert p.poll() is None, "flock exited early"
        assert time.monotonic() < deadline, "flock did not take the lock"
        time.sleep(0.05)
    yield p
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGKILL)
    p.wait(10)


def test_lease_held_by_a_process_that_dies(cli, fixture_app, lease_holder):
    before = need_state(fixture_app)
    target = ref(cli, "inc_button")
    t0 = time.monotonic()
    err = expect_error(cli.run("click", target, "--timeout-ms", "500"), "TIMEOUT",
                       kind="lock_timeout")
    assert 0.4 < time.monotonic() - t0 < 5
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    unchanged(fixture_app, before)  # nothing was clicked

    # The holder dies mid-lease (its whole process group: flock and the sleep that
    # inherited the locked descriptor); the kernel drops the lock with it.
    os.killpg(lease_holder.pid, signal.SIGKILL)
    lease_holder.wait(10)
    t0 = time.monotonic()
    data = cli.ok("click", target)
    assert time.monotonic() - t0 < 3
    assert data["disposition"] == UNVERIFIED
    aw = check_auto_wait(data["details"])
    assert aw["lease_contention_count"] == 0  # nobody holds it any more
    expect_count(fixture_app, before["count"] + 1)


def test_ad_lease_dir_no_longer_escapes_the_lease(cli, fixture_app, lease_holder, tmp_path):
    """The old test-only AD_LEASE_DIR let any process act while another held the lease."""
    before = need_state(fixture_app)
    target = ref(cli, "inc_button")
    escape = tmp_path / "escape"
    escape.mkdir(mode=0o700)
    expect_error(cli.run("click", target, "--timeout-ms", "2000",
                         env={"AD_LEASE_DIR": str(escape)}), "TIMEOUT", kind="lock_timeout")
    assert list(escape.iterdir()) == []
    # Canary: once the holder is gone a click lands, and it is the only one.
    os.killpg(lease_holder.pid, signal.SIGKILL)
    lease_holder.wait(10)
    cli.ok("click", target)
    expect_count(fixture_app, before["count"] + 1)
