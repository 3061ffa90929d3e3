"""launch and close-app (commands/app-window.md) against the fixture, gtk3-demo,
gnome-calculator and Chromium. Every effect is read independently: /proc/<pid> (the process,
its session, its stdio, cwd, environment and arguments), the pyatspi registry, xprop, and an
HTTP GET of the DevTools endpoint. Each test stops every process it started, by pid."""
import json
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest

import atspi_observer as obs
from e2e_helpers import expect_error, proc_state

pytestmark = pytest.mark.usefixtures("cli")

LAUNCH_TIMEOUT_MS = 60000


def _gone(pid):
    return proc_state(pid) in (None, "Z")


def _stop(pid, timeout=10.0):
    """SIGTERM, then SIGKILL: for a process a test launched through agent-desktop (not our
    child, so there is nothing to reap)."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not _gone(pid):
            time.sleep(0.05)
        if _gone(pid):
            return
    raise AssertionError("pid %d did not stop" % pid)


def _stat_fields(pid):
    with open("/proc/%d/stat" % pid) as f:
        return f.read().rsplit(")", 1)[1].split()


def _cmdline(pid):
    with open("/proc/%d/cmdline" % pid, "rb") as f:
        return [a.decode() for a in f.read().split(b"\0")[:-1]]


def _environ(pid):
    with open("/proc/%d/environ" % pid, "rb") as f:
        return dict(i.decode().split("=", 1) for i in f.read().split(b"\0") if b"=" in i)


def _registered(pid):
    app = obs.app_for_pid(pid)
    return app is not None and app.name


def _launch(cli, *args, timeout_ms=LAUNCH_TIMEOUT_MS):
    return cli.run("launch", *args, "--timeout", timeout_ms, timeout=timeout_ms / 1000 + 30)


@pytest.fixture
def launched():
    """Pids the test launched; each is stopped after the test."""
    pids = []
    yield pids
    for pid in pids:
        _stop(pid)


def _fixture_name(tag):
    return "adfx-%s-%d" % (tag, os.getpid())


# ---- launch ------------------------------------------------------------------------------


def test_launch_path_detaches_registers_and_passes_args_env_cwd(cli, fixture_bin, launched,
                                                                  tmp_path):
    name = _fixture_name("path")
    # cli.run captures stdout and stderr through pipes: it returns only because the app
    # holds neither of them.
    code, env = _launch(cli, fixture_bin, "--no-attach", "--arg=--first", "--arg", "second",
                        "--env", "AD_FIXTURE_NAME=" + name, "--env", "AD_LAUNCH_PROBE=42",
                        "--cwd", str(tmp_path))
    assert code == 0, env
    d = env["data"]
    pid = d["pid"]
    launched.append(pid)
    assert not _gone(pid)
    assert d["app"] == name
    assert "registered" not in d
    # registered on the AT-SPI bus, read by pyatspi
    assert _registered(pid) == name
    # the process instance is this pid's start time
    assert d["process_instance"].split(":")[1] == _stat_fields(pid)[19]
    # its own session (setsid), stdio on /dev/null, no descriptor of ours
    assert int(_stat_fields(pid)[3]) == pid
    for fd in (0, 1, 2):
        assert os.readlink("/proc/%d/fd/%d" % (pid, fd)) == "/dev/null"
    # arguments in order, the environment, the working directory
    assert _cmdline(pid)[1:3] == ["--first", "second"]
    assert _environ(pid)["AD_LAUNCH_PROBE"] == "42"
    assert os.readlink("/proc/%d/cwd" % pid) == str(tmp_path)
    assert d["window"]["pid"] == pid and d["window"]["title"] == "AD Fixture"


def test_launch_returns_while_the_app_runs_under_a_pipe(ad_bin, fixture_bin, launched,
                                                        state_home):
    name = _fixture_name("pipe")
    env = dict(os.environ, AGENT_DESKTOP_HOME=state_home)
    p = subprocess.run([ad_bin, "launch", fixture_bin, "--no-attach", "--env",
                        "AD_FIXTURE_NAME=" + name], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, env=env, timeout=90)
    out = json.loads(p.stdout)
    assert p.returncode == 0, out
    pid = out["data"]["pid"]
    launched.append(pid)
    assert not _gone(pid)


def test_launch_attaches_to_the_running_instance(cli, fixture_bin, launched):
    name = _fixture_name("attach")
    code, env = _launch(cli, fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name)
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    # the running instance is matched by the app's name: a path to its executable names it
    # when the name is the executable's, so attach by a bare command named like the app
    link = os.path.join(tempfile.mkdtemp(prefix="ad-e2e-attach-"), name)
    os.symlink(fixture_bin, link)
    try:
        code, env = _launch(cli, link)
    finally:
        shutil.rmtree(os.path.dirname(link))
    assert code == 0, env
    assert env["data"]["attached"] is True
    assert env["data"]["pid"] == pid
    assert len(obs.apps_named(name)) == 1


def test_launch_by_desktop_entry_name_and_id(cli, launched):
    if not shutil.which("gnome-calculator"):
        pytest.skip("gnome-calculator is not installed")
    for app in ("Calculator", "org.gnome.Calculator"):
        code, env = _launch(cli, app)
        assert code == 0, env
        pid = env["data"]["pid"]
        if not env["data"].get("attached") and pid not in launched:
            launched.append(pid)
        assert os.path.basename(os.readlink("/proc/%d/exe" % pid)) == "gnome-calculator"
        assert _registered(pid) == "gnome-calculator"


def _write_entry(data_dir, entry_id, name, exec_line):
    apps = os.path.join(data_dir, "applications")
    os.makedirs(apps, exist_ok=True)
    with open(os.path.join(apps, entry_id + ".desktop"), "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=%s\nExec=%s\n" % (name, exec_line))


def test_launch_desktop_entry_that_runs_env(cli, fixture_bin, launched, tmp_path):
    """Exec=env NAME=VALUE... prog: the real executable is the fixture (verified, started
    directly), the assignments reach its environment, Exec='s own arguments come before
    --arg, and --env wins over the entry. Entries are read from XDG_DATA_HOME first, then
    XDG_DATA_DIRS (each a temporary directory here)."""
    name = _fixture_name("env")
    entry_id = "org.example.AdEnv%d" % os.getpid()
    home, dirs = str(tmp_path / "home"), str(tmp_path / "dirs")
    _write_entry(home, entry_id, "AD Env Fixture %d" % os.getpid(),
                 'env AD_FIXTURE_NAME=%s AD_LAUNCH_PROBE=entry "AD_ENTRY_SPACED=a b" %s '
                 '--from-entry %%U' % (name, fixture_bin))
    # The same id in a later directory is shadowed; another id there is found.
    _write_entry(dirs, entry_id, "Shadowed", "/nonexistent/prog")
    _write_entry(dirs, entry_id + "Sys", "AD Sys Fixture %d" % os.getpid(),
                 "/usr/bin/env AD_FIXTURE_NAME=%s-sys %s" % (name, fixture_bin))
    xdg = {"XDG_DATA_HOME": home, "XDG_DATA_DIRS": dirs}
    code, env = cli.run("launch", "AD Env Fixture %d" % os.getpid(), "--no-attach",
                        "--arg", "--from-cli", "--env", "AD_LAUNCH_PROBE=cli",
                        "--timeout", LAUNCH_TIMEOUT_MS, env=xdg,
                        timeout=LAUNCH_TIMEOUT_MS / 1000 + 30)
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    assert os.path.realpath("/proc/%d/exe" % pid) == os.path.realpath(fixture_bin)
    assert _cmdline(pid)[1:] == ["--from-entry", "--from-cli"]
    environ = _environ(pid)
    assert environ["AD_FIXTURE_NAME"] == name
    assert environ["AD_ENTRY_SPACED"] == "a b"
    assert environ["AD_LAUNCH_PROBE"] == "cli"
    assert _registered(pid) == name
    # list-apps matches the running fixture to the entry by the program after env.
    apps = cli.ok("list-apps", "--app", name, env=xdg)["apps"]
    assert [a.get("bundle_id") for a in apps if a["pid"] == pid] == [entry_id]
    code, env = cli.run("launch", entry_id + "Sys", "--no-attach", "--timeout",
                        LAUNCH_TIMEOUT_MS, env=xdg, timeout=LAUNCH_TIMEOUT_MS / 1000 + 30)
    assert code == 0, env
    launched.append(env["data"]["pid"])
    assert _environ(env["data"]["pid"])["AD_FIXTURE_NAME"] == name + "-sys"
    # env with an option is not unwrapped: the entry names no verified executable.
    _write_entry(home, entry_id + "Opt", "AD Opt", "env -i %s" % fixture_bin)
    expect_error(cli.run("launch", entry_id + "Opt", "--no-attach", env=xdg), "APP_NOT_FOUND")


def _bundle(root, files):
    """A copy of the fixture's executable in its own directory with `files` beside it (a
    copy, not a link: /proc/<pid>/exe names the link's target)."""
    def make(fixture_bin, exe_name):
        os.makedirs(root)
        exe = os.path.join(root, exe_name)
        shutil.copy2(fixture_bin, exe)
        for rel in files:
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(b"\0")
        return exe
    return make


def test_launch_reports_the_chromium_renderer_of_an_electron_layout(cli, fixture_bin, launched,
                                                                     tmp_path):
    """renderer: "chromium" comes from the files beside the running executable
    (linux/launch_spawn.c): resources.pak and v8_context_snapshot.bin, which Chromium
    (/usr/lib/chromium here, test_launch_chromium_cdp) and every Electron release ship
    next to the binary (electron-vNN-linux-x64.zip: electron, resources.pak,
    v8_context_snapshot.bin, resources/app.asar, ...). No Electron is installed here, so the
    app below is the fixture copied into that layout under an app's name.

    Proven: the detector reads the layout of the process's own executable (by pid, through
    /proc/<pid>/exe), names it chromium with both files present, and not with one of them or
    none. Not proven: that a given Electron app keeps this layout (a build that drops
    v8_context_snapshot.bin would read as not Chromium), or anything about Electron's
    accessibility tree."""
    cases = [
        ("electron", ["resources.pak", "v8_context_snapshot.bin", "resources/app.asar"], True),
        ("half", ["resources.pak", "resources/app.asar"], False),
        ("plain", [], False),
    ]
    for tag, files, chromium in cases:
        name = _fixture_name("renderer-" + tag)
        exe = _bundle(str(tmp_path / tag), files)(fixture_bin, "slack-like-" + tag)
        code, env = _launch(cli, exe, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name)
        assert code == 0, env
        pid = env["data"]["pid"]
        launched.append(pid)
        assert os.readlink("/proc/%d/exe" % pid) == exe
        assert _registered(pid) == name
        assert env["data"].get("renderer") == ("chromium" if chromium else None), (tag, env)


def test_launch_unknown_app_and_early_exit(cli, tmp_path):
    expect_error(_launch(cli, "no-such-app-anywhere"), "APP_NOT_FOUND")
    plain = tmp_path / "not-executable"
    plain.write_text("#!/bin/sh\n")
    plain.chmod(0o644)
    expect_error(_launch(cli, str(plain)), "APP_NOT_FOUND")
    code, env = _launch(cli, "/bin/false", "--no-attach")
    assert env["error"]["code"] == "APP_UNRESPONSIVE", env
    assert _gone(env["error"]["details"]["pid"])


def test_launch_unregistered_process_says_so_at_the_timeout(cli, launched):
    # sleep never joins the accessibility bus: the launch returns at --timeout, ok, with the
    # process running and registered false
    code, env = _launch(cli, "sleep", "--no-attach", "--arg", "600", timeout_ms=1500)
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    assert env["data"]["registered"] is False
    assert "window" not in env["data"]
    assert not _gone(pid)
    assert _cmdline(pid) == ["sleep", "600"]
    assert obs.app_for_pid(pid) is None


def test_launch_argument_errors(cli, fixture_bin, tmp_path):
    expect_error(_launch(cli, fixture_bin, "--cwd", str(tmp_path / "missing")), "INVALID_ARGS")
    code, env = _launch(cli, fixture_bin, "--env", "A=1", "--env", "A=2")
    expect_error((code, env), "INVALID_ARGS")
    assert env["error"]["details"]["kind"] == "env_key_repeated"
    code, env = _launch(cli, "chromium", "--cdp", "--arg=--remote-debugging-port=9")
    expect_error((code, env), "INVALID_ARGS")
    assert env["error"]["details"]["kind"] == "cdp_switch_conflict"


def _active_window_pid():
    out = subprocess.run(["xprop", "-root", "_NET_ACTIVE_WINDOW"], capture_output=True,
                         text=True, timeout=10).stdout
    wid = out.strip().split()[-1]
    out = subprocess.run(["xprop", "-id", wid, "_NET_WM_PID"], capture_output=True, text=True,
                         timeout=10).stdout
    return int(out.strip().split()[-1])


def test_launch_activate_focuses_its_window(cli, fixture_bin, launched):
    name = _fixture_name("activate")
    code, env = _launch(cli, fixture_bin, "--no-attach", "--activate", "--env",
                        "AD_FIXTURE_NAME=" + name)
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    assert _active_window_pid() == pid
    assert env["data"]["window"]["is_focused"] is True


# ---- close-app ---------------------------------------------------------------------------


def _graceful_target(cli, fixture_bin):
    """gtk3-demo when it is installed and no other one runs (in the full suite a session
    fixture keeps one open), else the fixture under a name of its own: either way an app
    this test alone started, so the graceful path always runs."""
    if shutil.which("gtk3-demo") and not obs.apps_named("gtk3-demo"):
        return "gtk3-demo", _launch(cli, "gtk3-demo")
    name = _fixture_name("close")
    return name, _launch(cli, fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name)


def test_close_app_graceful(cli, fixture_bin, launched):
    app, (code, env) = _graceful_target(cli, fixture_bin)
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    assert env["data"]["window"]["pid"] == pid
    code, env = cli.run("close-app", app)
    assert code == 0, env
    d = env["data"]
    assert d["method"] == "graceful"
    assert d["disposition"]["delivery"] == "delivered_verified"
    assert d["details"]["evidence"] == "process_instance_exited"
    assert d["target"]["process"]["pid"] == pid
    assert _gone(pid)
    # closed, not killed: no window of it is left either
    out = subprocess.run(["xdotool", "search", "--pid", str(pid)], capture_output=True,
                         text=True, timeout=10).stdout
    assert out.strip() == ""
    # Again: the registry may still list the exited app for a moment (then the report says
    # the instance is not running, not_delivered), or has dropped it (APP_NOT_FOUND).
    code, env = cli.run("close-app", app)
    if env["ok"]:
        assert env["data"]["disposition"]["delivery"] == "not_delivered"
        assert env["data"]["details"]["evidence"] == "process_instance_not_running"
    else:
        expect_error((code, env), "APP_NOT_FOUND")


def test_close_app_save_prompt_keeps_the_app_then_force(cli, fixture_bin, launched):
    name = _fixture_name("prompt")
    code, env = _launch(cli, fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name,
                        "--env", "AD_FIXTURE_CONFIRM_CLOSE=1")
    assert code == 0, env
    pid = env["data"]["pid"]
    launched.append(pid)
    code, env = cli.run("close-app", name)
    expect_error((code, env), "ACTION_FAILED", delivery="delivered_unverified")
    assert env["error"]["details"]["kind"] == "close_prompt"
    assert env["error"]["details"]["prompt"]["title"] == "Unsaved changes"
    assert not _gone(pid)
    assert obs.window_for_pid(pid, title="Unsaved changes") is not None
    code, env = cli.run("snapshot", "--app", name, "--surface", "sheet", "-i")
    assert code == 0, env
    assert "Close without saving" in json.dumps(env["data"])
    code, env = cli.run("close-app", name, "--force")
    assert code == 0, env
    assert env["data"]["method"] == "force"
    assert env["data"]["disposition"]["delivery"] == "delivered_verified"
    assert [s["label"] for s in env["data"]["steps"]][0] == "terminate_signal"
    assert _gone(pid)


def test_close_app_ambiguous_instances(cli, fixture_bin, launched):
    name = _fixture_name("twin")
    for _ in range(2):
        code, env = _launch(cli, fixture_bin, "--no-attach", "--env", "AD_FIXTURE_NAME=" + name)
        assert code == 0, env
        launched.append(env["data"]["pid"])
    expect_error(cli.run("close-app", name), "AMBIGUOUS_TARGET")
    link = os.path.join(tempfile.mkdtemp(prefix="ad-e2e-twin-"), name)
    os.symlink(fixture_bin, link)
    try:
        expect_error(_launch(cli, link), "AMBIGUOUS_TARGET")
    finally:
        shutil.rmtree(os.path.dirname(link))
    assert len(obs.apps_named(name)) == 2
    for pid in launched:
        assert not _gone(pid)


# ---- Chromium and --cdp ------------------------------------------------------------------


def _loopback_listener(port):
    """(on 127.0.0.1, on any address) for a LISTEN socket of port, read from /proc/net/tcp."""
    local = anywhere = False
    with open("/proc/net/tcp") as f:
        for line in f.readlines()[1:]:
            fields = line.split()
            addr, p = fields[1].split(":")
            if int(p, 16) == port and fields[3] == "0A":
                local |= addr == "0100007F"
                anywhere |= addr == "00000000"
    return local, anywhere


def _chromium_pids(profile):
    out = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if profile.encode() in open("/proc/%s/cmdline" % d, "rb").read() and \
                        not _gone(int(d)):
                    out.append(int(d))
            except OSError:
                pass
    return out


def test_launch_chromium_cdp(cli):
    if not shutil.which("chromium"):
        pytest.skip("chromium is not installed")
    profile = tempfile.mkdtemp(prefix="ad-e2e-cdp-")
    args = ["--env", "ACCESSIBILITY_ENABLED=1", "--arg=--force-renderer-accessibility",
            "--arg=--no-sandbox", "--arg=--user-data-dir=" + profile, "--arg=--no-first-run",
            "--arg=--no-default-browser-check", "--arg=--disable-gpu",
            "--arg=--ozone-platform=x11", "--arg=about:blank"]
    try:
        if obs.apps_named("Chromium"):
            code, env = _launch(cli, "chromium", "--cdp", *args)
            expect_error((code, env), "ACTION_FAILED")
            assert env["error"]["details"]["kind"] == "cdp_requires_fresh_launch"
            return
        # a bound port is refused before anything starts
        busy = socket.socket()
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        try:
            code, env = _launch(cli, "chromium", "--cdp", busy.getsockname()[1], *args)
        finally:
            busy.close()
        expect_error((code, env), "INVALID_ARGS")
        assert env["error"]["details"]["kind"] == "cdp_port_in_use"
        assert _chromium_pids(profile) == []

        code, env = _launch(cli, "chromium", "--cdp", *args)
        assert code == 0, env
        d = env["data"]
        pid = d["pid"]
        assert d["renderer"] == "chromium"
        cdp = d["cdp"]
        port = cdp["port"]
        assert cdp["http_endpoint"] == "http://127.0.0.1:%d" % port
        with urllib.request.urlopen(cdp["http_endpoint"] + "/json/version", timeout=10) as r:
            version = json.loads(r.read())
        assert version["Browser"] == cdp["product"]
        assert version["webSocketDebuggerUrl"] == cdp["websocket_url"]
        assert _loopback_listener(port) == (True, False)
        assert _registered(pid) == "Chromium"
        # a running Chromium has no port: --cdp refuses to attach
        code, env = _launch(cli, "chromium", "--cdp", *args)
        expect_error((code, env), "ACTION_FAILED")
        assert env["error"]["details"]["kind"] == "cdp_requires_fresh_launch"
        code, env = cli.run("close-app", "Chromium")
        assert code == 0, env
        assert env["data"]["disposition"]["delivery"] == "delivered_verified"
        assert _gone(pid)
        assert _loopback_listener(port) == (False, False)
    finally:
        for pid in _chromium_pids(profile):
            _stop(pid)
        shutil.rmtree(profile, ignore_errors=True)
