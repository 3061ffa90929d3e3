"""Every mutation takes the interaction lock (ffi/ownership-and-threading.md, "Concurrent
calls"): while another process holds it, clipboard-set, clipboard-clear, launch (its spawn
and --activate's focus) and close-app return TIMEOUT with details.kind lock_timeout
(commands/clipboard.md) and change nothing; once it is free they work.

Effects are read independently: xclip for the clipboard (an xclip owning CLIPBOARD exits when
another client takes it), /proc for the processes launch would start, the fixture's own state
line and pyatspi for the app close-app would quit, xdotool for the focused window."""
import os
import shutil
import signal
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import expect_count, need_state
from e2e_helpers import expect_error, launch, stop_process
from test_clipboard import XclipOwner, stop_helper, xclip_out  # noqa: F401 (stop_helper: autouse)
from test_concurrency import lease_holder  # noqa: F401 (a fixture)


def _release(holder):
    """Kills the holder's process group (flock and the sleep that inherited its fd)."""
    os.killpg(holder.pid, signal.SIGKILL)
    holder.wait(10)


def _lock_timeout(result):
    err = expect_error(result, "TIMEOUT", kind="lock_timeout")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}, err
    return err


def _pids_with_env(key, value):
    """Pids of our processes whose environment has key=value, read from /proc."""
    want = ("%s=%s" % (key, value)).encode()
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/environ" % entry, "rb") as f:
                if want in f.read().split(b"\0"):
                    found.append(int(entry))
        except OSError:
            continue
    return found


def _name(tag):
    return "adfx-lock-%s-%d" % (tag, os.getpid())


@pytest.mark.skipif(shutil.which("xclip") is None, reason="xclip is needed")
def test_clipboard_writes_wait_for_the_lock(cli, lease_holder):
    owner = XclipOwner(b"old content")
    try:
        _lock_timeout(cli.run("clipboard-set", "new content"))
        _lock_timeout(cli.run("clipboard-clear"))
        # Canary: a clipboard read through agent-desktop after both refusals, a round trip
        # through the X server; then another client reads the old content, and xclip still
        # owns it (it exits once anyone takes CLIPBOARD).
        assert cli.ok("clipboard-get")["text"] == "old content"
        assert xclip_out() == b"old content"
        assert owner.popen.poll() is None
        _release(lease_holder)
        cli.ok("clipboard-set", "new content")
        assert xclip_out() == b"new content"
        owner.popen.wait(20)  # it lost the selection
        cli.ok("clipboard-clear")
        assert xclip_out() is None
    finally:
        owner.stop()


def test_launch_waits_for_the_lock_and_starts_nothing(cli, fixture_bin, lease_holder):
    refused, canary = _name("refused"), _name("canary")
    started = []
    try:
        _lock_timeout(cli.run("launch", fixture_bin, "--no-attach", "--env",
                              "AD_FIXTURE_NAME=" + refused, "--timeout", "1500"))
        _release(lease_holder)
        # Canary: a launch after the refused one starts and registers; only then is the
        # refused one's absence checked.
        code, env = cli.run("launch", fixture_bin, "--no-attach", "--env",
                            "AD_FIXTURE_NAME=" + canary, "--timeout", "30000", timeout=90)
        assert code == 0, env
        started.append(env["data"]["pid"])
        assert obs.app_for_pid(env["data"]["pid"]) is not None
        assert _pids_with_env("AD_FIXTURE_NAME", refused) == []
        assert obs.apps_named(refused) == []
    finally:
        for pid in started + _pids_with_env("AD_FIXTURE_NAME", refused):
            os.kill(pid, signal.SIGKILL)


def _own_fixture(fixture_bin, tmp_path, tag):
    name = _name(tag)
    return launch([fixture_bin], name, log_dir=str(tmp_path),
                  extra_env={"AD_FIXTURE_NAME": name,
                             "AD_FIXTURE_STATE_FILE": str(tmp_path / "state.json")})


def _click(cli, app, native_id):
    data = cli.ok("find", "--app", app, "--native-id", native_id, "--exact", "--first")
    cli.ok("click", data["match"]["ref_id"])


def test_close_app_waits_for_the_lock_and_the_app_runs_on(cli, fixture_bin, tmp_path,
                                                          lease_holder):
    inst = _own_fixture(fixture_bin, tmp_path, "close")
    try:
        before = need_state(inst)
        _lock_timeout(cli.run("close-app", inst.name))
        _lock_timeout(cli.run("close-app", inst.name, "--force"))
        _release(lease_holder)
        # Canary: a click sent after both refusals lands, so the app handled what came
        # before it; it still runs and still shows its window.
        _click(cli, inst.name, "inc_button")
        expect_count(inst, before["count"] + 1)
        assert inst.popen.poll() is None
        assert obs.app_for_pid(inst.pid) is not None
        data = cli.ok("close-app", inst.name)
        assert data["disposition"]["delivery"] == "delivered_verified"
        inst.popen.wait(20)
    finally:
        stop_process(inst.popen)


def test_launch_activate_focuses_only_under_the_lock(cli, fixture_bin):
    """The app launch starts takes the lock itself once it runs (flock APP: the lock is held
    for the app's life), so the spawn gets the lock and --activate's focus does not: TIMEOUT
    lock_timeout, delivered_unverified because the app was started. The registered app is
    flock's child, a launcher we started."""
    name = _name("activate")
    lock = os.path.join(cli.lease_dir, "interaction.lock")
    try:
        err = expect_error(cli.run("launch", shutil.which("flock"), "--no-attach", "--activate",
                                   "--arg", lock, "--arg", fixture_bin,
                                   "--env", "AD_FIXTURE_NAME=" + name, "--timeout", "8000",
                                   timeout=90),
                           "TIMEOUT", delivery="delivered_unverified", kind="lock_timeout")
        assert err["disposition"]["retry"] == "unsafe"
        # It runs, registered, and holds the lock: the app was started once.
        pids = _pids_with_env("AD_FIXTURE_NAME", name)
        assert len(pids) == 2, pids  # flock and the fixture it runs
        assert obs.apps_named(name)
        assert subprocess.run(["flock", "-n", "-E", "99", lock, "true"]).returncode == 99
    finally:
        for pid in _pids_with_env("AD_FIXTURE_NAME", name):
            os.kill(pid, signal.SIGKILL)
