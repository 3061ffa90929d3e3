"""End-to-end test setup for agent-desktop.

The caller exports a desktop (DISPLAY, DBUS_SESSION_BUS_ADDRESS, ... as scripts/desktop-up.sh
writes them). These fixtures add:
  - the binaries: --ad-bin / AD_BIN (default build/agent-desktop under the repo root) and
    --ad-fixture-bin / AD_FIXTURE_BIN (default build/tests/fixture-app/ad-fixture);
  - state_home: a private AGENT_DESKTOP_HOME for every CLI call of the session;
  - run / cli: the CLI runner that checks the one-line JSON envelope contract;
  - fixture_app, calculator_app, widget_factory_app: the apps under test, started once per
    session (or reused when an instance already runs on this desktop) and stopped by pid.
"""
import os
import shutil
import tempfile
from pathlib import Path

import pytest

import atspi_observer as obs
from e2e_helpers import (REPO_ROOT, AppInstance, Cli, launch, launch_gtk4_widget_factory,
                         log_tail, proc_state, stop_process)


# The GNOME Shell tests (tests/e2e/gnome/) run only on a GNOME desktop
# (AD_DESKTOP_KIND=gnome-wayland or gnome-x11, scripts/gnome-desktop-up.sh); every other file
# here runs on the openbox desktop alone, which is what it was written against.
GNOME_KIND = os.environ.get("AD_DESKTOP_KIND", "openbox")
if GNOME_KIND.startswith("gnome-"):
    collect_ignore_glob = ["test_*.py"]
else:
    collect_ignore = ["gnome"]


def pytest_addoption(parser):
    group = parser.getgroup("agent-desktop")
    group.addoption("--ad-bin", default=None,
                    help="agent-desktop binary (env AD_BIN; default build/agent-desktop)")
    group.addoption("--ad-fixture-bin", default=None,
                    help="ad-fixture binary (env AD_FIXTURE_BIN; default "
                         "build/tests/fixture-app/ad-fixture)")


def _binary(config, option, env_name, default):
    value = config.getoption(option) or os.environ.get(env_name) or str(REPO_ROOT / default)
    path = Path(value)
    if not path.is_absolute():
        path = REPO_ROOT / path
    if not (path.is_file() and os.access(path, os.X_OK)):
        pytest.exit("%s is not an executable file (set %s or %s)" % (path, env_name,
                                                                    "--" + option.replace("_", "-")),
                    returncode=4)
    return str(path)


@pytest.fixture(scope="session")
def ad_bin(pytestconfig):
    return _binary(pytestconfig, "ad_bin", "AD_BIN", "build/agent-desktop")


@pytest.fixture(scope="session")
def fixture_bin(pytestconfig):
    return _binary(pytestconfig, "ad_fixture_bin", "AD_FIXTURE_BIN",
                   "build/tests/fixture-app/ad-fixture")


@pytest.fixture(scope="session")
def state_home():
    path = tempfile.mkdtemp(prefix="ad-e2e-home-")  # mode 0700
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def cli(ad_bin, state_home):
    return Cli(ad_bin, state_home)


@pytest.fixture(scope="session")
def run(cli):
    """run(*args, env=None) -> (exit_code, envelope); the envelope contract is asserted."""
    return cli.run


@pytest.fixture(scope="session", autouse=True)
def _desktop_present():
    display = "WAYLAND_DISPLAY" if GNOME_KIND == "gnome-wayland" else "DISPLAY"
    for var in (display, "DBUS_SESSION_BUS_ADDRESS"):
        if not os.environ.get(var):
            pytest.exit("%s is not set: export a desktop first (scripts/desktop-up.sh DIR && "
                        "source DIR/env)" % var, returncode=4)


def _running_instance(cli, name):
    """A pid of an instance of `name` already registered on this desktop, owned by us."""
    code, envelope = cli.run("list-apps", "--app", name)
    if not envelope["ok"]:
        return None
    for app in envelope["data"]["apps"]:
        pid = app["pid"]
        if app["name"] != name or pid <= 0:
            continue
        try:
            if os.stat("/proc/%d" % pid).st_uid != os.getuid():
                continue
        except OSError:
            continue
        if proc_state(pid) not in (None, "Z"):
            return pid
    return None


def _environ_of(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            items = f.read().split(b"\0")
    except OSError:
        return {}
    out = {}
    for item in items:
        if b"=" in item:
            k, v = item.split(b"=", 1)
            out[k.decode(errors="replace")] = v.decode(errors="replace")
    return out


def _session_app(request, cli, name, argv, extra_env, ready, tmp_dir):
    pid = _running_instance(cli, name)
    if pid is not None:
        obs.wait_for_window(pid, timeout=30.0, ready=ready)
        state_file = _environ_of(pid).get("AD_FIXTURE_STATE_FILE") or None
        yield AppInstance(name, pid, state_file=state_file)
        return
    inst = launch(argv, name, extra_env=extra_env, ready=ready, log_dir=tmp_dir)
    _SESSION_APPS[request.fixturename] = inst
    try:
        yield inst
    finally:
        _SESSION_APPS.pop(request.fixturename, None)
        stop_process(inst.popen)


# The apps this session started, by fixture name, and the test during which each one exited: a
# session app that dies fails every later test that uses it, and those failures alone
# (an app "not found") do not say when or how it died.
_SESSION_APPS = {}
_DIED_DURING = {}


def _exit_report(fixture, inst):
    status = inst.popen.returncode
    how = "killed by signal %d" % -status if status < 0 else "exited with status %d" % status
    tail = " ".join(log_tail(inst.log, 600).split()) if inst.log else ""
    # The cause first: a summary line is cut at the terminal's width.
    return "%s %s during %s (pid %d); the end of its output: %s" % (
        inst.name, how, _DIED_DURING.get(fixture, "an earlier test"), inst.pid,
        tail or "(none)")


@pytest.fixture(autouse=True)
def _session_apps_alive(request):
    """Fails a test that uses a session app which has exited, saying when and how."""
    for fixture, inst in _SESSION_APPS.items():
        if inst.popen.poll() is not None and fixture in request.fixturenames:
            pytest.fail(_exit_report(fixture, inst))
    yield
    for fixture, inst in _SESSION_APPS.items():
        if inst.popen.poll() is not None:
            _DIED_DURING.setdefault(fixture, request.node.nodeid)


def _installed_app(request, cli, exe_name, ready, app_tmp):
    """A Debian app run by its executable's name (its AT-SPI name too); skips when absent."""
    exe = shutil.which(exe_name)
    if not exe:
        pytest.skip("%s is not installed (scripts/install-deps.sh)" % exe_name)
    yield from _session_app(request, cli, exe_name, [exe], None, ready, app_tmp)


def _fixture_ready(window):
    return obs.by_id(window, "status_label") is not None


def _calculator_ready(window):
    return any(o.role in obs.BUTTON_ROLES for o in obs.walk(window))


def _factory_ready(window):
    return window.childCount > 0


@pytest.fixture(scope="session")
def app_tmp():
    path = tempfile.mkdtemp(prefix="ad-e2e-apps-")
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def fixture_app(request, cli, fixture_bin, app_tmp):
    state_file = os.path.join(app_tmp, "fixture-state.json")
    yield from _session_app(request, cli, "ad-fixture", [fixture_bin],
                            {"AD_FIXTURE_STATE_FILE": state_file,
                             # "Show later" waits for e2e_helpers.late_arrive, not a timer
                             "AD_FIXTURE_LATE_MS": "3600000"}, _fixture_ready, app_tmp)


@pytest.fixture(scope="session")
def calculator_app(request, cli, app_tmp):
    yield from _installed_app(request, cli, "gnome-calculator", _calculator_ready, app_tmp)


@pytest.fixture(scope="session")
def widget_factory_app(request, cli, app_tmp):
    yield from _installed_app(request, cli, "gtk3-widget-factory", _factory_ready, app_tmp)


def _demo_ready(window):
    return any(o.role == "list" for o in obs.walk(window))


@pytest.fixture(scope="session")
def gtk4_demo_app(request, cli, app_tmp):
    yield from _installed_app(request, cli, "gtk4-demo", _demo_ready, app_tmp)


@pytest.fixture
def fresh_gtk4_demo(cli, app_tmp):
    """(app, window id) of a gtk4-demo started for one test and stopped after it by pid. Ready
    as soon as its window has children: nothing walks it first, so GTK 4 has built few of its
    accessibles (they are built on a client's first request) and the test's first read is a
    cold one."""
    exe = shutil.which("gtk4-demo")
    if not exe:
        pytest.skip("gtk4-demo is not installed (scripts/install-deps.sh)")
    app = launch([exe], "gtk4-demo-fresh", ready=lambda w: w.childCount > 0, log_dir=app_tmp)
    try:
        ids = [w["id"] for w in cli.ok("list-windows", "--app", "gtk4-demo")
               if w["pid"] == app.pid]
        assert len(ids) == 1, ids
        yield app, ids[0]
    finally:
        stop_process(app.popen)


@pytest.fixture(scope="session")
def gtk4_widget_factory_app(cli, app_tmp):
    """gtk4-widget-factory: a GTK 4 window that never stops animating."""
    exe = shutil.which("gtk4-widget-factory")
    if not exe:
        pytest.skip("gtk4-widget-factory is not installed")
    if not shutil.which("xdotool"):
        pytest.skip("xdotool is not installed (scripts/install-deps.sh)")
    pid = _running_instance(cli, "gtk4-widget-factory")
    if pid is not None:
        obs.wait_for_window(pid, timeout=30.0, ready=_factory_ready)
        yield AppInstance("gtk4-widget-factory", pid)
        return
    inst = launch_gtk4_widget_factory([exe], "gtk4-widget-factory", log_dir=app_tmp)
    try:
        yield inst
    finally:
        stop_process(inst.popen)


@pytest.fixture(scope="session")
def fixture_window_id(cli, fixture_app):
    """list-windows id of the session's fixture window."""
    rows = cli.ok("list-windows", "--app", "ad-fixture")
    ids = [w["id"] for w in rows if w["pid"] == fixture_app.pid]
    assert len(ids) == 1, rows
    return ids[0]
