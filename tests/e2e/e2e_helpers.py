"""Helpers shared by the end-to-end tests: the CLI runner, envelope checks, tree walks."""
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

import atspi_observer as obs
import refmap_format

REPO_ROOT = Path(__file__).resolve().parents[2]

CONTRACT_VERSION = "2.6"
SNAPSHOT_ID_RE = r"s[a-z0-9]+"
REF_RE = re.compile(r"^@(" + SNAPSHOT_ID_RE + r"):e([1-9][0-9]*)$")

# snapshots-and-refs.md, "Which elements get a ref".
INTERACTIVE_ROLES = {
    "button", "cell", "checkbox", "colorwell", "combobox", "dockitem", "incrementor", "link",
    "listbox", "menubutton", "menuitem", "option", "radiobutton", "slider", "switch", "tab",
    "textfield", "treeitem",
}

BARE_REF_SUGGESTION = ("Use the snapshot-qualified ref that snapshot prints, for example "
                       "@s8f3k2p9:e1. A bare @eN ref is not accepted.")


def _looks_like_json(line):
    line = line.strip()
    if not line or line[0] not in "{[":
        return False
    try:
        json.loads(line)
    except ValueError:
        return False
    return True


class Cli:
    """Runs agent-desktop with a private state root and checks the output contract."""

    def __init__(self, binary, state_home):
        self.binary = binary
        self.state_home = state_home
        # The interaction lease lives in $XDG_RUNTIME_DIR/agent-desktop: the private desktop
        # gives this test run its own runtime directory, so other agent-desktop users of
        # this uid on the machine (another test run) show up as no contention here. There is
        # no override variable; the /tmp fallback is checked by test_concurrency.py.
        runtime = os.environ.get("XDG_RUNTIME_DIR")
        self.lease_dir = (os.path.join(runtime, "agent-desktop") if runtime
                          else "/tmp/agent-desktop-%d" % os.getuid())

    def environment(self, env=None):
        e = dict(os.environ)
        # A caller's session would move every snapshot into another namespace.
        e.pop("AGENT_DESKTOP_SESSION", None)
        e["AGENT_DESKTOP_HOME"] = self.state_home
        for k, v in (env or {}).items():
            if v is None:
                e.pop(k, None)
            else:
                e[k] = v
        return e

    def raw(self, *args, env=None, timeout=60):
        """Runs the CLI and returns the CompletedProcess, without checks (text output)."""
        return subprocess.run([self.binary, *map(str, args)], capture_output=True, text=True,
                              env=self.environment(env), timeout=timeout, stdin=subprocess.DEVNULL)

    def run_full(self, *args, env=None, timeout=60):
        """Runs a JSON command; returns (exit_code, envelope, stdout). Checks the envelope."""
        p = self.raw(*args, env=env, timeout=timeout)
        envelope = check_envelope(p.stdout, p.stderr, p.returncode, args)
        return p.returncode, envelope, p.stdout

    def run(self, *args, env=None, timeout=60):
        code, envelope, _ = self.run_full(*args, env=env, timeout=timeout)
        return code, envelope

    def ok(self, *args, env=None, timeout=60):
        """Runs a command that must succeed; returns data."""
        code, envelope = self.run(*args, env=env, timeout=timeout)
        assert envelope["ok"], "agent-desktop %s failed: %s" % (" ".join(map(str, args)),
                                                               json.dumps(envelope["error"]))
        return envelope["data"]


def check_envelope(stdout, stderr, code, args=()):
    """The output contract of json-output.md for one command; returns the envelope."""
    what = "agent-desktop %s" % " ".join(map(str, args))
    assert stdout.endswith("\n") and stdout.count("\n") == 1, \
        "%s: stdout is not exactly one line: %r (exit %r, stderr %r)" % (
            what, stdout[:500], code, stderr[-500:])
    envelope = json.loads(stdout)
    assert isinstance(envelope, dict), what
    assert envelope.get("version") == CONTRACT_VERSION, (what, envelope.get("version"))
    assert isinstance(envelope.get("ok"), bool), (what, envelope)
    assert isinstance(envelope.get("command"), str) and envelope["command"], (what, envelope)
    has_data, has_error = "data" in envelope, "error" in envelope
    assert has_data != has_error, "%s: exactly one of data/error expected: %r" % (what, envelope)
    assert has_data == envelope["ok"], (what, envelope)
    for line in stderr.splitlines():
        assert not _looks_like_json(line), "%s: JSON on stderr: %r" % (what, line)
    if envelope["ok"]:
        assert code == 0, "%s: ok envelope with exit %d" % (what, code)
    else:
        assert code in (1, 2), "%s: error envelope with exit %d" % (what, code)
        err = envelope["error"]
        assert isinstance(err.get("code"), str) and isinstance(err.get("message"), str), err
        disp = err.get("disposition")
        assert isinstance(disp, dict), "%s: error without disposition: %r" % (what, err)
        expected_retry = {"not_delivered": "safe", "unknown": "unknown"}.get(
            disp.get("delivery"), "unsafe")
        assert disp.get("retry") == expected_retry, (what, disp)
        if "recovery" in err:
            assert disp["retry"] == "safe", "%s: recovery without a safe retry" % what
        if code == 2:
            assert err["code"] == "INVALID_ARGS", "%s: exit 2 is only for parse errors" % what
    return envelope


def expect_error(code_and_envelope, error_code, exit_code=1, delivery="not_delivered",
                 kind=None):
    """Asserts an error envelope; returns its error object."""
    code, envelope = code_and_envelope
    assert not envelope["ok"], "expected %s, got success: %s" % (error_code,
                                                                 json.dumps(envelope)[:800])
    err = envelope["error"]
    assert err["code"] == error_code, "expected %s, got %s" % (error_code, json.dumps(err))
    assert code == exit_code, "expected exit %d, got %d (%s)" % (exit_code, code, err)
    if delivery is not None:
        assert err["disposition"]["delivery"] == delivery, err
    if kind is not None:
        assert err.get("details", {}).get("kind") == kind, err
    return err


def walk_tree(node, path=()):
    """Pre-order (path, node) pairs of a JSON snapshot tree; path is the child index chain."""
    yield path, node
    for i, child in enumerate(node.get("children", [])):
        yield from walk_tree(child, path + (i,))


def nodes(tree):
    return [n for _, n in walk_tree(tree)]


def ref_number(ref_id):
    m = REF_RE.match(ref_id)
    assert m, "not a qualified ref: %r" % ref_id
    return m.group(1), int(m.group(2))


def refs_in_order(tree):
    return [n["ref_id"] for n in nodes(tree) if "ref_id" in n]


def native_id(node):
    nid = node.get("native_id")
    return nid["value"] if nid else None


def find_node(tree, **fields):
    """First node whose fields equal the given ones (native_id compares the value)."""
    for _, n in walk_tree(tree):
        if all((native_id(n) if k == "native_id" else n.get(k)) == v for k, v in fields.items()):
            return n
    return None


def refmap_path(state_home, snapshot_id):
    return os.path.join(state_home, "snapshots", snapshot_id, "refmap.json")


def load_refmap(state_home, snapshot_id):
    """The saved refmap in either format (refmap_format.py)."""
    with open(refmap_path(state_home, snapshot_id), "rb") as f:
        return refmap_format.decode(f.read())


def rect(bounds):
    return (bounds["x"], bounds["y"], bounds["width"], bounds["height"])


def traced_lines(cli, syscalls, *args):
    """Runs one command under strace -f for the given syscalls ("sendmsg,writev"); returns
    (envelope, the lines of the trace). Skips when strace or ptrace is not available. The
    envelope contract is checked; the caller reads ok."""
    if not shutil.which("strace"):
        pytest.skip("strace is not installed")
    fd, log = tempfile.mkstemp(prefix="ad-e2e-strace-")
    os.close(fd)
    env = cli.environment()
    # LeakSanitizer cannot run under ptrace; the same commands run untraced in other tests.
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") + ":detect_leaks=0").lstrip(":")
    try:
        p = subprocess.run(["strace", "-f", "-qq", "-e", "trace=" + syscalls, "-s", "4096",
                            "-o", log, cli.binary, *args], capture_output=True, text=True,
                           env=env, timeout=60, stdin=subprocess.DEVNULL)
        if "ptrace" in p.stderr and "Operation not permitted" in p.stderr:
            pytest.skip("ptrace is not permitted here")
        envelope = check_envelope(p.stdout, p.stderr, p.returncode, args)
        with open(log, errors="replace") as f:
            lines = f.readlines()
    finally:
        os.unlink(log)
    return envelope, lines


def count_sent(lines, member):
    """How many D-Bus messages naming `member` a traced_lines("sendmsg,writev", ...) trace
    sent."""
    return sum(member in line for line in lines if "sendmsg(" in line or "writev(" in line)


# ---- processes ---------------------------------------------------------------------------


def proc_starttime(pid):
    """Field 22 of /proc/PID/stat, or None when the process is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            stat = f.read()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[19])


def proc_state(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None


def _track_for_desktop_down(pid):
    """Records the pid in the desktop's pids file, so desktop-down.sh stops it even when this
    session dies before its teardown."""
    d = os.environ.get("AD_DESKTOP_DIR")
    st = proc_starttime(pid)
    if d and st is not None and os.path.isfile(os.path.join(d, "pids")):
        with open(os.path.join(d, "pids"), "a") as f:
            f.write("%d %d app\n" % (pid, st))


def stop_process(popen, timeout=5.0):
    """SIGTERM, then SIGKILL after timeout; always reaps."""
    if popen.poll() is None:
        try:
            popen.send_signal(signal.SIGTERM)
        except ProcessLookupError:
            pass
        try:
            popen.wait(timeout)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait(timeout)


class AppInstance:
    def __init__(self, name, pid, popen=None, state_file=None, log=None):
        self.name = name
        self.pid = pid
        self.popen = popen
        self.state_file = state_file
        self.log = log

    @property
    def started_here(self):
        return self.popen is not None

    def window(self, timeout=10.0):
        """The app's main window, read fresh through pyatspi."""
        return obs.wait_for_window(self.pid, timeout=timeout)

    def state(self):
        """The fixture's own state line (AD_FIXTURE_STATE_FILE), or None without one."""
        if not self.state_file or not os.path.exists(self.state_file):
            return None
        with open(self.state_file) as f:
            return json.loads(f.read())


def _spawn(argv, name, extra_env, log_dir):
    """Starts argv in its own session with its output in a log file; returns (popen, log)
    with log.name the file. Tracked so desktop-down.sh stops it too."""
    env = dict(os.environ)
    env.update(extra_env or {})
    log_dir = log_dir or tempfile.gettempdir()
    log = tempfile.NamedTemporaryFile(prefix="ad-e2e-%s-" % name, suffix=".log", dir=log_dir,
                                      delete=False)
    popen = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=log,
                             stderr=subprocess.STDOUT, start_new_session=True)
    log.close()
    _track_for_desktop_down(popen.pid)
    return popen, log


def log_tail(path, chars):
    """The last `chars` characters of a process's log file."""
    with open(path, errors="replace") as f:
        return f.read()[-chars:]


def launch(argv, name, extra_env=None, ready=None, timeout=30.0, log_dir=None):
    """Starts argv in its own session and waits (polling, with a deadline) until pyatspi shows
    its window; returns the AppInstance. The caller stops it with stop_process."""
    popen, log = _spawn(argv, name, extra_env, log_dir)
    try:
        obs.wait_for_window(popen.pid, timeout=timeout, ready=ready,
                            alive=lambda: popen.poll() is None)
    except BaseException:
        stop_process(popen)
        raise AssertionError("%s did not show a window; its output:\n%s" % (
            name, log_tail(log.name, 2000)))
    return AppInstance(name, popen.pid, popen=popen,
                       state_file=(extra_env or {}).get("AD_FIXTURE_STATE_FILE"), log=log.name)


# ---- the fixture app ---------------------------------------------------------------------


def fixture_reset(app):
    """Puts ad-fixture back in its start state: its one reset entry point (SIGUSR1, see
    tests/fixture-app/reset.c) closes every dialog, menu and popover, cancels the late label,
    and restores every input; waits until the app's state line says it is done.

    `app` is the AppInstance. A bare pyatspi window (older callers) gets the same reset when
    it belongs to the fixture's process, found by its pid."""
    if not isinstance(app, AppInstance):
        app = AppInstance("ad-fixture", app.get_process_id(), state_file=_state_file_of(
            app.get_process_id()))
    if app.state_file is None:
        raise AssertionError("ad-fixture runs without AD_FIXTURE_STATE_FILE: cannot reset it")
    before = app.state()
    resets = before["resets"] if before else -1
    os.kill(app.pid, signal.SIGUSR1)
    obs.wait_until(lambda: (app.state() or {}).get("resets", -1) > resets,
                   what="the fixture to reset")


def _state_file_of(pid):
    try:
        with open("/proc/%d/environ" % pid, "rb") as f:
            for item in f.read().split(b"\0"):
                if item.startswith(b"AD_FIXTURE_STATE_FILE="):
                    return item.split(b"=", 1)[1].decode() or None
    except OSError:
        pass
    return None


def late_arrive(app):
    """Makes the fixture's pending "Arrived" label arrive now (SIGUSR2; the suite starts the
    fixture with a "Show later" delay of an hour) and waits for it; returns the state line."""
    before = app.state()
    assert before["late_pending"], before
    os.kill(app.pid, signal.SIGUSR2)
    return obs.wait_until(lambda: (lambda s: s if s and s["late_arrivals"] > before[
        "late_arrivals"] else None)(app.state()), what="the late label to arrive")


def canary(app):
    """The ordering canary: clicks the fixture's Canary button through AT-SPI and waits for
    its count. Everything sent to the app before this call has then been handled, so an
    effect that is still absent will not come late. Returns the state line."""
    before = app.state()["canaries"]
    obs.do_action(obs.by_id(app.window(), "canary_button"), "click")
    return obs.wait_until(lambda: (lambda s: s if s and s["canaries"] > before else None)(
        app.state()), what="the canary")


def fruits_cell(window):
    tree = obs.by_id(window, "fruit_tree")
    for i in range(tree.childCount):
        c = tree.getChildAtIndex(i)
        if c is not None and c.getRoleName() == "table cell" and c.name == "Fruits":
            return c
    return None


def add_rows(window, n):
    """Clicks "Add row" n times through pyatspi and waits for the rows; returns their names."""
    rows = obs.by_id(window, "rows_box")
    before = rows.childCount
    add = obs.by_id(window, "add_row_button")
    for i in range(n):
        obs.do_action(add, "click")
        obs.wait_until(lambda: rows.childCount == before + i + 1, what="row %d" % (before + i + 1))
    return [rows.getChildAtIndex(i).name for i in range(rows.childCount)]


def remove_rows(window):
    rows = obs.by_id(window, "rows_box")
    obs.do_action(obs.by_id(window, "remove_rows_button"), "click")
    obs.wait_until(lambda: rows.childCount == 0, what="the rows to be removed")


def fixture_ref(cli, native_id_value, **kw):
    """A fresh ref to the ad-fixture element with this accessible id (find --native-id)."""
    args = ["find", "--app", "ad-fixture", "--native-id", native_id_value, "--exact", "--first"]
    data = cli.ok(*args, **kw)
    assert data["match"] is not None, "no element with native id %r" % native_id_value
    return data["match"]["ref_id"]


# ---- gtk4-widget-factory -------------------------------------------------------------------

GTK4_FACTORY_TITLE = "GTK Widget Factory"


def _x11_windows(pid, title):
    """The process's managed X windows with this title (GDK also keeps a 1x1 helper window
    with the same title, which the window manager never maps)."""
    found = subprocess.run(["xdotool", "search", "--pid", str(pid), "--name",
                            "^%s$" % re.escape(title)], capture_output=True, text=True,
                           timeout=10).stdout.split()
    out = []
    for wid in found:
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                             capture_output=True, text=True, timeout=10).stdout
        vals = dict(line.split("=", 1) for line in geo.split() if "=" in line)
        if int(vals.get("WIDTH", 0)) > 1 and int(vals.get("HEIGHT", 0)) > 1:
            out.append(wid)
    return out


def set_minimized(pid, title, minimized):
    """Minimizes (True) or restores and raises (False) the process's X window with this title.

    gtk4-widget-factory 4.8 animates without pause (a spinner and pulsing progress on page 1),
    so its frame clock never stops while the window is shown. Minimized, it does not draw."""
    for wid in _x11_windows(pid, title):
        cmd = "windowminimize" if minimized else "windowactivate"
        subprocess.run(["xdotool", cmd, "--sync", wid], capture_output=True, timeout=10)


def launch_gtk4_widget_factory(argv, name, timeout=60.0, log_dir=None):
    """Starts gtk4-widget-factory and waits until it is on the AT-SPI bus; returns the
    AppInstance (the caller stops it with stop_process).

    GTK 4.8 registers its root with the AT-SPI registry from a default-priority idle source,
    and the redraw of this always-animating window (a higher priority, one frame after the
    other under software GL on a busy machine) can starve that idle for good: the app stays
    connected to the accessibility bus but exports nothing. While the window is minimized it
    does not draw, the idle runs and the app registers; the window is then restored.
    (GTK 4.8 does not report the minimized window as iconified: xdotool --sync waits on X.)"""
    popen, log = _spawn(argv, name, None, log_dir)
    try:
        deadline = time.monotonic() + timeout
        nudge_at = time.monotonic() + 3.0
        while True:
            try:
                w = obs.window_for_pid(popen.pid)
                if w is not None and w.childCount > 0:
                    break
            except Exception:
                pass
            if popen.poll() is not None:
                raise AssertionError("%s exited before it registered" % name)
            if time.monotonic() > deadline:
                raise AssertionError("%s did not register on the AT-SPI bus within %gs"
                                     % (name, timeout))
            if time.monotonic() > nudge_at:
                set_minimized(popen.pid, GTK4_FACTORY_TITLE, True)
                nudge_at = time.monotonic() + 3.0
            time.sleep(0.1)
        set_minimized(popen.pid, GTK4_FACTORY_TITLE, False)
    except BaseException:
        stop_process(popen)
        raise
    return AppInstance(name, popen.pid, popen=popen, log=log.name)


# ---- geometry ----------------------------------------------------------------------------


def x11_window_rect(pid, title):
    """Root rectangle (x, y, w, h) of the process's top-level X window with this title
    (xdotool), or None."""
    import shutil
    if not shutil.which("xdotool"):
        return None
    found = subprocess.run(["xdotool", "search", "--pid", str(pid), "--name",
                            "^%s$" % re.escape(title)], capture_output=True, text=True,
                           timeout=10).stdout.split()
    best = None
    for wid in found:
        geo = subprocess.run(["xdotool", "getwindowgeometry", "--shell", wid],
                             capture_output=True, text=True, timeout=10).stdout
        vals = dict(line.split("=", 1) for line in geo.split() if "=" in line)
        if int(vals.get("WIDTH", 0)) > 1 and int(vals.get("HEIGHT", 0)) > 1:
            best = (int(vals["X"]), int(vals["Y"]), int(vals["WIDTH"]), int(vals["HEIGHT"]))
    return best


def screen_extents(acc, window, pid):
    """pyatspi extents in true screen coordinates. GTK 4 reports DESKTOP_COORDS relative to
    its window's content box (the frame itself at 0,0), which sits centred in its X window
    (5 px in on Debian 12's openbox, no _GTK_FRAME_EXTENTS there): that origin is added."""
    ext = obs.extents(acc)
    frame = obs.extents(window)
    if ext is None or frame is None or frame[:2] != (0, 0):
        return ext
    x11 = x11_window_rect(pid, window.name)
    assert x11 is not None, "cannot find the X window of pid %d" % pid
    ox = x11[0] + (x11[2] - frame[2]) // 2
    oy = x11[1] + (x11[3] - frame[3]) // 2
    return (ext[0] + ox, ext[1] + oy, ext[2], ext[3])


def helper_dir():
    """The per-user helper's directory (helper_proto.h)."""
    return os.path.join(os.environ["XDG_RUNTIME_DIR"], "agent-desktop")


def helper_pid():
    """The running helper's pid from helper.pid, or None."""
    try:
        with open(os.path.join(helper_dir(), "helper.pid")) as f:
            return int(f.read().strip())
    except (OSError, ValueError):
        return None
