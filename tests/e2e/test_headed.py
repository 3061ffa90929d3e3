"""Headed mode and the input commands on X11 (guides/headed-mode.md, commands/keyboard.md,
commands/mouse.md, commands/scroll.md). Physical input is checked through the fixture's
state line and pyatspi; X11 window activation and the pointer through xdotool."""
import os
import re
import shutil
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, FIXTURE_TITLE, NOT_DELIVERED, UNVERIFIED, VERIFIED,
                            activate, check_auto_wait, ensure_fixture_active, expect_count,
                            is_active, need_state, ref, scroll_value,
                            set_scroll_value, settled_state, unchanged, vscrollbar, wait_state,
                            xdotool)
from e2e_helpers import check_envelope, expect_error, fixture_reset

if not shutil.which("xdotool"):
    pytest.skip("xdotool is not installed", allow_module_level=True)


@pytest.fixture(scope="module", autouse=True)
def _give_the_fixture_its_focus_back(fixture_app):
    yield
    activate(fixture_app, FIXTURE_TITLE)


@pytest.fixture(autouse=True)
def _clean_fixture(cli, fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def _center(acc):
    x, y, w, h = obs.extents(acc)
    return x + w // 2, y + h // 2


def _inside(point, acc):
    x, y, w, h = obs.extents(acc)
    return x <= point["x"] < x + w and y <= point["y"] < y + h


def _physical(steps, label):
    return [s for s in steps if s["label"] == label and s["mechanism"] == "physical_synthetic"
            and s["outcome"] == "succeeded"]


def _pointer():
    vals = dict(line.split("=", 1) for line in xdotool("getmouselocation", "--shell").split())
    return int(vals["X"]), int(vals["Y"])


# ---- pointer actions on refs -------------------------------------------------------------


def test_headed_click(cli, fixture_app):
    before = need_state(fixture_app)
    button = obs.by_id(fixture_app.window(), "inc_button")
    data = cli.ok("--headed", "click", ref(cli, "inc_button"))
    assert data["disposition"] == UNVERIFIED
    assert _physical(data["steps"], "pointer_click"), data["steps"]
    assert all(s["mechanism"] == "physical_synthetic" for s in data["steps"])
    assert data["target"]["kind"] == "pointer" and _inside(data["target"]["point"], button)
    check_auto_wait(data["details"])
    expect_count(fixture_app, before["count"] + 1)
    assert is_active(fixture_app.window())  # a ref target focuses its window first


def test_headed_click_on_an_open_gtk3_menu_item(cli, fixture_app):
    """A GTK3 menu shows in an override-redirect popup window of the app while AT-SPI keeps
    its items under the menu bar of the main window: the point is verified against that
    popup, and the item is clicked for real."""
    before = need_state(fixture_app)
    cli.ok("click", ref(cli, "file_menu"))
    obs.wait_until(lambda: "showing" in obs.state_names(obs.by_id(fixture_app.window(),
                                                                  "about_item")),
                   what="the File menu to open")
    x, y, w, h = obs.extents(obs.by_id(fixture_app.window(), "about_item"))  # while open
    data = cli.ok("--headed", "click", ref(cli, "about_item"))
    assert data["disposition"] == UNVERIFIED
    assert _physical(data["steps"], "pointer_click"), data["steps"]
    point = data["target"]["point"]
    assert x <= point["x"] < x + w and y <= point["y"] < y + h, (point, (x, y, w, h))
    state = wait_state(fixture_app, lambda s: s["about"] == before["about"] + 1, "About to run")
    assert state["last_action"] == "about"


def test_headed_click_raises_a_covered_window(cli, fixture_app):
    """Another app's window over the target is no reason to wait: the click activates the
    element's window (which raises it), verifies the point again, and clicks."""
    before = need_state(fixture_app)
    x, y, w, h = obs.extents(obs.by_id(fixture_app.window(), "inc_button"))
    cover = subprocess.Popen(["xmessage", "-title", "ad-cover", "-geometry",
                              "400x300+%d+%d" % (x - 150, y - 120),
                              "a window over the Increment button"],
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        # (xmessage with -geometry carries no _NET_WM_PID: found by its title)
        wid = xdotool("search", "--sync", "--onlyvisible", "--name", "^ad-cover$").split()[0]
        xdotool("windowactivate", "--sync", wid)
        obs.wait_until(lambda: not is_active(fixture_app.window()), what="the cover on top")
        target = ref(cli, "inc_button")
        data = cli.ok("--headed", "click", target)
        assert data["disposition"] == UNVERIFIED
        expect_count(fixture_app, before["count"] + 1)
        assert is_active(fixture_app.window())
    finally:
        cover.kill()
        cover.wait(10)


def test_headed_click_waits_under_an_open_menu(cli, fixture_app):
    """The fixture's own File menu (a popup no window manager stacks) covers the Increment
    button: raising the window cannot help, so the click waits for it and times out, with the
    occluder in its checks, and nothing is clicked."""
    before = need_state(fixture_app)
    target = ref(cli, "inc_button")
    cli.ok("click", ref(cli, "file_menu"))
    obs.wait_until(lambda: "showing" in obs.state_names(obs.by_id(fixture_app.window(),
                                                                  "about_item")),
                   what="the File menu to open")
    err = expect_error(cli.run("--headed", "click", target, "--timeout-ms", "2000"), "TIMEOUT",
                       kind="actionability_timeout")
    check = [c for c in err["details"]["checks"] if c["check"] == "receives_events"]
    assert check and check[0]["status"] == "fail", err
    assert check[0]["occluder"]["popup"] is True and \
        check[0]["occluder"]["pid"] == fixture_app.pid, check
    assert err["details"]["last_report"]["check"] == "receives_events"
    unchanged(fixture_app, before)


def test_headed_double_click(cli, fixture_app):
    before = need_state(fixture_app)
    data = cli.ok("--headed", "double-click", ref(cli, "inc_button"))
    assert data["action"] == "double-click"
    assert data["disposition"] == UNVERIFIED
    assert _physical(data["steps"], "pointer_click"), data["steps"]
    expect_count(fixture_app, before["count"] + 2)


def test_headed_type(cli, fixture_app):
    before = need_state(fixture_app)
    assert before["name"] == ""
    text = "h\u00e9llo w\u00f6rld"
    # é and ö are outside Xvfb's US keymap: typed through remapped spare keycodes, which are
    # put back only after the readback saw the text (no blind settle that can drop them).
    code, env = cli.run("--headed", "type", ref(cli, "name_entry"), text)
    assert env["ok"], env["error"]
    data = env["data"]
    assert data["disposition"] == VERIFIED
    assert data["post_state"]["value"] == text
    assert _physical(data["steps"], "XTEST.type_text"), data["steps"]
    wait_state(fixture_app, lambda s: s["name"] == text, "the typed text")
    entry = obs.by_id(fixture_app.window(), "name_entry")
    assert obs.text_of(entry) == text
    assert "focused" in obs.state_names(entry)  # typing went through the keyboard focus
    # The spare keycodes are put back: the server's keymap holds neither character.
    assert _keymap_lacks("eacute", "odiaeresis")


def _keymap_lacks(*keysym_names):
    """True when the X server's keymap (xkbcomp's dump) maps none of these keysyms."""
    dump = subprocess.run(["xkbcomp", "-xkb", os.environ["DISPLAY"], "-"], capture_output=True,
                          text=True, timeout=15).stdout
    assert "xkb_symbols" in dump, "xkbcomp could not read the keymap"
    return not any(re.search(r"\b%s\b" % k, dump) for k in keysym_names)


def test_headed_interval_typing_outside_the_keymap(cli, fixture_app):
    """Keystrokes of one burst share the remapped keycodes, which go back after the final
    read."""
    before = need_state(fixture_app)
    assert before["name"] == ""
    text = "\u00e0\u00f6\u00e0"
    data = cli.ok("--headed", "type", ref(cli, "name_entry"), text, "--interval-ms", "40")
    assert data["keystrokes"] == 3
    assert data["disposition"] == VERIFIED, data
    wait_state(fixture_app, lambda s: s["name"] == text, "the typed text")
    assert _keymap_lacks("agrave", "odiaeresis")


def test_headed_interval_typing_stops_when_the_focus_moves(cli, fixture_app):
    """interaction.md: a headed keystroke is posted only while the target's focused element
    is unchanged, so a burst that loses focus stops with an error."""
    before = need_state(fixture_app)
    text = "abcdefghijklmnopqrst"
    name = ref(cli, "name_entry")
    proc = subprocess.Popen([cli.binary, "--headed", "type", name, text, "--interval-ms", "150"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=cli.environment(), stdin=subprocess.DEVNULL)
    try:
        wait_state(fixture_app, lambda s: len(s["name"]) >= 3, "the first keystrokes")
        xdotool("key", "Tab")  # the keyboard focus moves on to the password entry
        out, err_text = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    env = check_envelope(out, err_text, proc.returncode)
    assert not env["ok"], env
    err = env["error"]
    assert err["code"] == "ACTION_FAILED", err
    assert err["details"]["cause"] == "focus_changed", err
    typed = err["details"]["typed_keystrokes"]
    assert 3 <= typed < len(text) and err["details"]["keystrokes"] == len(text)
    assert err["disposition"]["delivery"] == "delivered_unverified"
    after = settled_state(fixture_app)
    assert after["name"] == text[:typed], after["name"]
    # The check runs under the lease just before each keystroke; at most the one keystroke
    # whose check raced the Tab can land in the field that took the focus.
    assert after["password_length"] - before["password_length"] <= 1, after


# ---- keys --------------------------------------------------------------------------------


def test_headed_focus_then_scoped_ctrl_a(cli, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    entry = obs.by_id(window, "name_entry")
    obs.set_text(entry, "select me")
    wait_state(fixture_app, lambda s: s["name"] == "select me", "the start text")
    data = cli.ok("--headed", "focus", ref(cli, "name_entry"))
    assert data["disposition"] == UNVERIFIED
    labels = [s["label"] for s in data["steps"]]
    assert "Component.GrabFocus" in labels, labels
    obs.wait_until(lambda: "focused" in obs.state_names(entry), what="the entry to be focused")
    assert is_active(window)

    data = cli.ok("press", "ctrl+a", *FIXTURE)
    assert data["disposition"] == UNVERIFIED
    assert data["steps"] == [{"label": "XTEST.press_key", "mechanism": "physical_synthetic",
                              "outcome": "succeeded", "verified": False}]
    text = entry.queryText()
    obs.wait_until(lambda: text.getNSelections() == 1 and
                   tuple(text.getSelection(0)) == (0, len("select me")),
                   what="the whole entry to be selected")
    cli.ok("press", "delete", *FIXTURE)
    wait_state(fixture_app, lambda s: s["name"] == "", "the selection to be deleted")


def test_headless_scoped_press_to_an_inactive_window(cli, fixture_app, calculator_app):
    need_state(fixture_app)
    entry = obs.by_id(fixture_app.window(), "name_entry")
    obs.set_text(entry, "keep")
    cli.ok("--headed", "focus", ref(cli, "name_entry"))  # a delivered key would land here
    before = wait_state(fixture_app, lambda s: s["name"] == "keep", "the start text")
    activate(calculator_app, "Calculator")
    assert not is_active(fixture_app.window())
    calc_texts = [obs.text_of(o.acc) for o in obs.walk(calculator_app.window())
                  if o.role == "text"]
    err = expect_error(cli.run("press", "a", *FIXTURE), "ACTION_FAILED")
    assert err["details"]["cause"] == "frame_not_active"
    assert err["disposition"] == NOT_DELIVERED
    unchanged(fixture_app, before)
    assert [obs.text_of(o.acc) for o in obs.walk(calculator_app.window())
            if o.role == "text"] == calc_texts  # and nothing reached the active app either
    activate(fixture_app, FIXTURE_TITLE)


@pytest.mark.parametrize("argv", [["press", "alt+f4"], ["press", "alt+f4", *FIXTURE],
                                  ["--headed", "press", "alt+f4", *FIXTURE]])
def test_blocked_combo_is_denied(cli, fixture_app, argv):
    before = need_state(fixture_app)
    err = expect_error(cli.run(*argv), "POLICY_DENIED")
    assert err["details"]["kind"] == "blocked_combo"
    assert "recovery" not in err  # details.retryable false: waiting cannot help
    unchanged(fixture_app, before)
    assert fixture_app.window().name == FIXTURE_TITLE  # the window is still there


def test_held_keys_are_refused(cli, fixture_app):
    need_state(fixture_app)
    cli.ok("--headed", "focus", ref(cli, "name_entry"))
    before = fixture_app.state()
    for argv in (["key-down", "shift"], ["key-up", "shift"], ["--headed", "key-down", "shift"]):
        err = expect_error(cli.run(*argv), "ACTION_NOT_SUPPORTED", delivery="unknown")
        assert err["disposition"] == {"delivery": "unknown", "retry": "unknown"}
        assert "stateless" in err["message"]
    expect_error(cli.run("key-down", "shift+nosuchkey"), "INVALID_ARGS")
    expect_error(cli.run("key-down", "alt+f4"), "POLICY_DENIED")
    unchanged(fixture_app, before)
    # No Shift is held: a pressed "a" arrives lower-case in the focused entry.
    cli.ok("press", "a", *FIXTURE)
    wait_state(fixture_app, lambda s: s["name"] == "a", "a lower-case a")


# ---- raw pointer input -------------------------------------------------------------------


def test_headed_mouse_click_at_the_increment_center(cli, fixture_app):
    before = need_state(fixture_app)
    ensure_fixture_active(fixture_app)  # raw coordinates focus nothing
    x, y = _center(obs.by_id(fixture_app.window(), "inc_button"))
    data = cli.ok("--headed", "mouse-click", "--xy", "%d,%d" % (x, y))
    assert data["action"] == "mouse-click" and data["count"] == 1
    assert data["disposition"] == UNVERIFIED
    assert data["target"] == {"kind": "pointer", "point": {"x": x, "y": y}}
    assert data["details"]["delivered_events"] == 3  # a motion, a press and a release
    assert _physical(data["steps"], "pointer_click"), data["steps"]
    expect_count(fixture_app, before["count"] + 1)
    assert _pointer() == (x, y)


@pytest.mark.parametrize("argv", [
    ["mouse-click", "--xy", "{xy}"],
    ["mouse-click", "--xy", "{xy}", "--count", "2"],
    ["mouse-move", "--xy", "{xy}"],
    ["hover", "--xy", "{xy}"],
    ["mouse-wheel", "--x", "{x}", "--y", "{y}"],
    ["drag", "--from-xy", "{xy}", "--to-xy", "5,5"],
    ["mouse-down", "--xy", "{xy}"],
    ["mouse-up", "--xy", "{xy}"],
])
def test_mouse_commands_need_headed(cli, fixture_app, argv):
    before = need_state(fixture_app)
    x, y = _center(obs.by_id(fixture_app.window(), "inc_button"))
    xdotool("mousemove", 3, 3)
    args = [a.format(xy="%d,%d" % (x, y), x=x, y=y) for a in argv]
    err = expect_error(cli.run(*args), "POLICY_DENIED")
    assert err["recovery"]["strategy"] == "request_explicit_policy_then_retry_original"
    assert _pointer() == (3, 3)  # the cursor never moved
    unchanged(fixture_app, before)  # and nothing was clicked


def test_headed_held_buttons_are_refused(cli, fixture_app):
    before = need_state(fixture_app)
    for cmd in ("mouse-down", "mouse-up"):
        err = expect_error(cli.run("--headed", cmd, "--xy", "5,5"), "ACTION_NOT_SUPPORTED",
                           delivery="unknown")
        assert err["disposition"] == {"delivery": "unknown", "retry": "unknown"}
    unchanged(fixture_app, before)


# ---- wheel -------------------------------------------------------------------------------


MIDDLE = 500.0


def _at_middle(fixture_app):
    window = fixture_app.window()
    bar = vscrollbar(window).queryValue()
    assert bar.maximumValue > MIDDLE + 100  # the 60-item list really scrolls
    set_scroll_value(window, MIDDLE)
    ensure_fixture_active(fixture_app)
    return window


def _moved(window):
    obs.wait_until(lambda: abs(scroll_value(window) - MIDDLE) > 1,
                   what="the long list to scroll", timeout=5)
    return scroll_value(window)


def test_headed_scroll_moves_the_list(cli, fixture_app):
    before = need_state(fixture_app)
    window = _at_middle(fixture_app)
    data = cli.ok("--headed", "scroll", ref(cli, "long_list"), "--direction", "down",
                  "--amount", "3")
    assert data["action"] == "scroll" and data["disposition"] == UNVERIFIED
    assert _physical(data["steps"], "pointer_wheel"), data["steps"]
    assert data["target"]["kind"] == "pointer"
    assert _inside(data["target"]["point"], obs.by_id(window, "long_list"))
    _moved(window)
    unchanged(fixture_app, before)


@pytest.mark.parametrize("direction,sign", [("down", 1), ("up", -1)])
def test_headed_scroll_direction(cli, fixture_app, direction, sign):
    window = _at_middle(fixture_app)
    cli.ok("--headed", "scroll", ref(cli, "long_list"), "--direction", direction)
    value = _moved(window)
    assert (value - MIDDLE) * sign > 0


def test_mouse_wheel_default_scrolls_down(cli, fixture_app):
    window = _at_middle(fixture_app)
    x, y = _center(obs.by_id(window, "long_list"))
    data = cli.ok("--headed", "mouse-wheel", "--x", x, "--y", y)
    value = _moved(window)
    assert data["dy"] == -3 and data["dx"] == 0
    assert value > MIDDLE


def test_mouse_wheel_explicit_dy(cli, fixture_app):
    window = _at_middle(fixture_app)
    x, y = _center(obs.by_id(window, "long_list"))
    data = cli.ok("--headed", "mouse-wheel", "--x", x, "--y", y, "--dy=-2")
    assert data["dy"] == -2 and data["dx"] == 0
    assert data["target"] == {"kind": "pointer", "point": {"x": x, "y": y}}
    assert _moved(window) > MIDDLE  # negative dy scrolls down
    assert data["details"]["delivered_events"] == 5
