"""Helpers for the acting half of the end-to-end suite (test_actions, test_waits,
test_surfaces, test_concurrency, test_headed).

Every effect is read back independently of agent-desktop: from ad-fixture's own state line
(AD_FIXTURE_STATE_FILE) or through pyatspi (atspi_observer), never from `ok: true` alone.
"""
import re
import shutil
import subprocess

import pytest

import atspi_observer as obs
from e2e_helpers import canary, fixture_ref, fixture_reset

FIXTURE = ["--app", "ad-fixture"]
FIXTURE_TITLE = "AD Fixture"
DIALOG_TITLE = "AD Dialog"
FIXTURE_PASSWORD = "hunter2-secret"  # the password entry's start text (test_snapshot.py)

NOT_DELIVERED = {"delivery": "not_delivered", "retry": "safe"}
UNVERIFIED = {"delivery": "delivered_unverified", "retry": "unsafe"}
VERIFIED = {"delivery": "delivered_verified", "retry": "unsafe"}

AUTO_WAIT_KEYS = {"lease_contention_count", "lease_hold_ms", "read_only_preflight_attempts",
                  "read_only_resolve_attempts"}


# ---- the fixture's state line ------------------------------------------------------------


def need_state(app):
    """The fixture's state line; skips the test when the instance writes none."""
    state = app.state()
    if state is None:
        pytest.skip("this ad-fixture instance runs without AD_FIXTURE_STATE_FILE")
    return state


def wait_state(app, predicate, what, timeout=10.0):
    """Polls the state line until predicate(state) holds; returns that state."""
    def probe():
        s = app.state()
        return s if s is not None and predicate(s) else None
    return obs.wait_until(probe, timeout=timeout, what=what)


def settled_state(app):
    """The state line once the app has handled everything sent to it so far (the ordering
    canary, e2e_helpers.canary), for "nothing (more) happened" checks. The canary changes
    only its own count ("canaries"), which comparisons leave out."""
    return canary(app)


def expect_count(app, expected):
    """The click count reaches `expected` and stays there (no duplicate delivery: the
    canary comes after any second click)."""
    wait_state(app, lambda s: s["count"] >= expected, "count to reach %d" % expected)
    state = settled_state(app)
    assert state["count"] == expected, state
    assert state["count_value"] == str(expected), state
    return state


def unchanged(app, before, ignore=()):
    """Asserts the state line is what it was, once the canary shows the app has handled
    everything sent before it."""
    after = settled_state(app)
    # main_loop_sources: the app's count of GSources (test_long_run.py), which GTK's own
    # timers and idles move; it is no input an action sets.
    ignore = set(ignore) | {"canaries", "main_loop_sources"}
    a = {k: v for k, v in after.items() if k not in ignore}
    b = {k: v for k, v in before.items() if k not in ignore}
    assert a == b, "the app changed: %r -> %r" % (b, a)
    return after


# ---- reading the fixture through pyatspi -------------------------------------------------


def live_count(window):
    """(count label number, Count value text) read through pyatspi."""
    label = obs.by_id(window, "count_label").name
    m = re.match(r"^count: (\d+)$", label)
    assert m, label
    return int(m.group(1)), obs.text_of(obs.by_id(window, "count_value"))


def menu_open(window):
    """Is the File menu popped up? Its items are showing only while it is."""
    item = obs.by_id(window, "quit_item")
    return item is not None and "showing" in obs.state_names(item)


def dialog_window(app):
    """The fixture's "AD Dialog" window through pyatspi, or None."""
    acc = obs.app_for_pid(app.pid)
    if acc is None:
        return None
    for w in obs.windows_of(acc):
        if w.name == DIALOG_TITLE:
            return w
    return None


def close_dialog(app):
    """Closes the dialog through pyatspi (its OK button), if it is open."""
    d = dialog_window(app)
    if d is None:
        return
    obs.do_action(obs.by_id(d, "dialog_ok_button"), "click")
    obs.wait_until(lambda: dialog_window(app) is None, what="the dialog to close")


def surfaces_of_window(surfaces, window_id):
    return [s for s in surfaces if s["id"] == window_id]


# ---- X11 (xdotool) -----------------------------------------------------------------------


def have_xdotool():
    return shutil.which("xdotool") is not None


def xdotool(*args, check=True):
    p = subprocess.run(["xdotool", *map(str, args)], capture_output=True, text=True, timeout=15)
    if check:
        assert p.returncode == 0, "xdotool %s: %s" % (" ".join(map(str, args)), p.stderr)
    return p.stdout.strip()


def x_window_of(pid, title):
    """The mapped top-level X window of pid with this exact title."""
    # --all: xdotool ORs its conditions by default, so another app's window with the same
    # title (a second instance) would match too.
    out = xdotool("search", "--all", "--onlyvisible", "--pid", pid, "--name",
                  "^%s$" % re.escape(title), check=False)
    ids = out.split()
    assert ids, "no visible X window %r of pid %d" % (title, pid)
    return ids[-1]


def is_active(window):
    return "active" in obs.state_names(window)


def activate(app, title):
    """Makes the app's window the active one (xdotool windowactivate) and waits until
    pyatspi reports it active."""
    if not have_xdotool():
        pytest.skip("xdotool is needed to make a window active")
    window = obs.wait_for_window(app.pid, title=title)
    if is_active(window):
        return window
    xdotool("windowactivate", "--sync", x_window_of(app.pid, title))
    obs.wait_until(lambda: is_active(obs.wait_for_window(app.pid, title=title)),
                   what="%s to become the active window" % title)
    return obs.wait_for_window(app.pid, title=title)


def ensure_fixture_active(app):
    """A headless scoped press needs the fixture's window active."""
    window = obs.wait_for_window(app.pid, title=FIXTURE_TITLE)
    if is_active(window):
        return window
    return activate(app, FIXTURE_TITLE)


def close_file_menu(cli, app):
    """Closes the File menu (press escape --app ad-fixture) if it is open."""
    window = app.window()
    if not menu_open(window):
        return
    ensure_fixture_active(app)
    cli.run("press", "escape", *FIXTURE)
    obs.wait_until(lambda: not menu_open(app.window()), what="the File menu to close")


@pytest.fixture
def clean_fixture(fixture_app):
    """The fixture's reset before and after a test. A module uses it with
    `pytestmark = pytest.mark.usefixtures("clean_fixture")` after importing it."""
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


# ---- result checks -----------------------------------------------------------------------


def check_auto_wait(details, contention=None):
    aw = details["auto_wait"]
    assert set(aw) == AUTO_WAIT_KEYS, aw
    for k in AUTO_WAIT_KEYS:
        assert isinstance(aw[k], int) and aw[k] >= 0, aw
    assert aw["read_only_preflight_attempts"] >= 1, aw
    # One resolution per preflight poll plus the strict one under the lease.
    assert aw["read_only_resolve_attempts"] >= aw["read_only_preflight_attempts"], aw
    if contention is not None:
        assert aw["lease_contention_count"] == contention, aw
    return aw


def semantic_step(label, outcome="succeeded", verified=None):
    s = {"label": label, "mechanism": "semantic_api", "outcome": outcome}
    if verified is not None:
        s["verified"] = verified
    return s


def json_strings(value):
    """Every string (keys too) inside a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from json_strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from json_strings(v)


def ref(cli, native_id):
    return fixture_ref(cli, native_id)


# ---- more reads and runners --------------------------------------------------------------


def vscrollbar(window, list_id="long_list"):
    """The vertical scroll bar of a GTK3 scrolled window, through pyatspi."""
    pane = obs.by_id(window, list_id)
    for i in range(pane.childCount):
        c = pane.getChildAtIndex(i)
        if c is not None and c.getRoleName() == "scroll bar" and \
                "vertical" in obs.state_names(c):
            return c
    raise AssertionError("%s has no vertical scroll bar" % list_id)


def scroll_value(window, list_id="long_list"):
    return vscrollbar(window, list_id).queryValue().currentValue


def set_scroll_value(window, value, list_id="long_list"):
    bar = vscrollbar(window, list_id).queryValue()
    bar.currentValue = value
    obs.wait_until(lambda: abs(scroll_value(window, list_id) - value) < 0.5,
                   what="the scroll bar to move to %s" % value)


def run_piped(cli, shell_producer, *args, env=None, timeout=60):
    """Runs `SHELL_PRODUCER | agent-desktop ARGS` (for example "printf '%s' secret") through
    bash; returns (exit_code, envelope, stdout, stderr) after the envelope checks."""
    from e2e_helpers import check_envelope
    import shlex
    cmd = "%s | %s" % (shell_producer, " ".join(shlex.quote(str(a))
                                                for a in [cli.binary, *args]))
    p = subprocess.run(["bash", "-c", cmd], capture_output=True, text=True,
                       env=cli.environment(env), timeout=timeout)
    envelope = check_envelope(p.stdout, p.stderr, p.returncode, args)
    return p.returncode, envelope, p.stdout, p.stderr
