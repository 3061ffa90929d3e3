"""The post-action wait flags against ad-fixture (configuration.md, "Post-action wait flags"):
a malformed selector is refused before any input is sent, an error after the action keeps
the action's delivery, --wait-timeout 0 checks once, and timeouts beyond the 24-hour maximum
are refused. Effects are read through the fixture's state line and pyatspi; "nothing was
delivered" is proven with an ordering canary (a known action after the refused one, whose
effect must arrive alone), never with a sleep."""
import os

import pytest

import atspi_observer as obs
from action_helpers import (FIXTURE, NOT_DELIVERED, UNVERIFIED, clean_fixture,  # noqa: F401
                            have_xdotool, need_state, ref, wait_state, xdotool)
from e2e_helpers import expect_error, find_node

INT64_MAX = "9223372036854775807"


pytestmark = pytest.mark.usefixtures("clean_fixture")


def _no_click_landed(fixture_app, before):
    """The ordering canary: clicks the Deep button through pyatspi and waits for that click.
    GTK3 runs an accessible click from an idle callback, in order, so once the canary shows,
    a click sent before it would have shown too: the count must not have moved."""
    obs.do_action(obs.by_id(fixture_app.window(), "deep_button"), "click")
    state = wait_state(fixture_app, lambda s: s["deep_clicks"] == before["deep_clicks"] + 1,
                       "the canary click")
    assert state["count"] == before["count"], "the refused click landed: %r" % state


# ---- the selector is checked before the command runs ------------------------------------


@pytest.mark.parametrize("flags", [
    ["-w", ":"],
    ["--wait-for-gone", ":"],
    ["-w", "b" * 200 + ":Increment"],
    ["--wait-for-gone", "b" * 200],
])
def test_malformed_selector_is_refused_before_the_click(cli, fixture_app, flags):
    before = need_state(fixture_app)
    err = expect_error(cli.run("click", ref(cli, "inc_button"), *flags), "INVALID_ARGS")
    assert err["disposition"] == NOT_DELIVERED
    _no_click_landed(fixture_app, before)


def test_malformed_selector_is_refused_before_the_press(cli, fixture_app):
    need_state(fixture_app)
    entry = obs.by_id(fixture_app.window(), "name_entry")
    obs.set_text(entry, "")
    cli.ok("--headed", "focus", ref(cli, "name_entry"))  # a delivered key would land here
    obs.wait_until(lambda: "focused" in obs.state_names(entry), what="the entry to be focused")
    err = expect_error(cli.run("press", "q", *FIXTURE, "-w", ":"), "INVALID_ARGS")
    assert err["disposition"] == NOT_DELIVERED
    # The canary key: once its "w" is in the entry, a "q" sent before it would be too.
    cli.ok("press", "w", *FIXTURE)
    state = wait_state(fixture_app, lambda s: s["name"] != "", "the canary key")
    assert state["name"] == "w", "the refused press landed: %r" % state


def _pointer():
    vals = dict(line.split("=", 1) for line in xdotool("getmouselocation", "--shell").split())
    return int(vals["X"]), int(vals["Y"])


@pytest.mark.skipif(not have_xdotool(), reason="xdotool is not installed")
@pytest.mark.parametrize("argv", [
    ["--headed", "hover", "--xy", "{x},{y}", "-w", "button"],
    ["--headed", "drag", "--from-xy", "{x},{y}", "--to-xy", "{x},{y}", "-w", "button"],
    ["--headed", "drag", "--from", "{inc}", "--to-xy", "{x},{y}", "--wait-for-gone", "button"],
])
def test_wait_on_a_screen_point_is_refused_before_the_pointer_moves(cli, fixture_app, argv):
    """A point has no window to poll: refused before the move, not after it."""
    xdotool("mousemove", 5, 5)
    start = _pointer()
    target = {"x": start[0] + 100, "y": start[1] + 100, "inc": ref(cli, "inc_button")}
    err = expect_error(cli.run(*[a.format(**target) for a in argv]), "INVALID_ARGS")
    assert err["disposition"] == NOT_DELIVERED
    # The X server handles a client's requests before its disconnect: this query comes after.
    assert _pointer() == start


# ---- an error after the action keeps its delivery ---------------------------------------


def test_state_root_failure_after_the_click_keeps_the_delivery(cli, fixture_app):
    """The selector holds, but saving the fresh snapshot fails (a group-writable state root
    is refused): whatever the error, its disposition must say what happened to the click."""
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    os.chmod(cli.state_home, 0o770)
    try:
        code, env = cli.run("click", inc, "--wait-for", "button:Increment")
    finally:
        os.chmod(cli.state_home, 0o700)
    assert not env["ok"], env
    err = env["error"]
    if err["disposition"] == NOT_DELIVERED:  # refused before the click: nothing may land
        _no_click_landed(fixture_app, before)
        return
    assert err["disposition"] == UNVERIFIED, err  # the click landed: not safe to repeat
    assert "recovery" not in err
    assert err["details"]["after_action"]["action"] == "click"
    wait_state(fixture_app, lambda s: s["count"] == before["count"] + 1, "the click")


# ---- --wait-timeout 0 is one check ------------------------------------------------------


def test_click_wait_timeout_zero_checks_once(cli, fixture_app):
    before = need_state(fixture_app)
    data = cli.ok("click", ref(cli, "inc_button"), "--wait-for", "button:Increment",
                  "--wait-timeout", "0")
    assert data["matched_selector"] == "button:Increment"
    assert data["after_action"]["disposition"] == UNVERIFIED
    wait_state(fixture_app, lambda s: s["count"] == before["count"] + 1, "the click")


def test_snapshot_wait_timeout_zero_checks_once(cli, fixture_app):
    data = cli.ok("snapshot", *FIXTURE, "-w", "button:Increment", "--wait-timeout", "0")
    assert data["matched_selector"] == "button:Increment"
    assert find_node(data["tree"], role="button", name="Increment") is not None


# ---- timeouts beyond 24 hours -----------------------------------------------------------


def _range_exit_code(cli):
    """The exit code of a range error the table has always declared (wait --timeout)."""
    code, env = cli.run("wait", "--menu", "--timeout", "86400001")
    expect_error((code, env), "INVALID_ARGS", exit_code=code)
    assert code in (1, 2)
    return code


@pytest.mark.parametrize("argv", [
    ["snapshot", *FIXTURE, "--timeout-ms", INT64_MAX],
    ["snapshot", *FIXTURE, "--timeout-ms", "86400001"],
    ["snapshot", *FIXTURE, "-w", "button", "--wait-timeout", INT64_MAX],
    ["find", *FIXTURE, "--role", "button", "--timeout-ms", INT64_MAX],
    ["list-windows", "--timeout-ms", INT64_MAX],
])
def test_timeouts_beyond_the_maximum_are_refused(cli, fixture_app, argv):
    err = expect_error(cli.run(*argv), "INVALID_ARGS", exit_code=_range_exit_code(cli))
    assert "86400000" in err["message"], err


def test_huge_click_timeout_is_refused_before_the_click(cli, fixture_app):
    before = need_state(fixture_app)
    expect_error(cli.run("click", ref(cli, "inc_button"), "--timeout-ms", INT64_MAX),
                 "INVALID_ARGS", exit_code=_range_exit_code(cli))
    _no_click_landed(fixture_app, before)


def test_the_maximum_timeout_reads_the_tree(cli, fixture_app):
    data = cli.ok("snapshot", *FIXTURE, "--timeout-ms", "86400000")
    assert data["complete"] is True and data["ref_count"] > 0
    assert find_node(data["tree"], role="button", name="Increment") is not None


# ---- an action's -i / --compact shape the snapshot its --wait-for returns ----------------


def _shape(tree):
    """(nodes without a ref and without children, unnamed nodes with exactly one child)."""
    leaves, wrappers = 0, 0
    stack = [tree]
    while stack:
        n = stack.pop()
        kids = n.get("children", [])
        leaves += not kids and not n.get("ref_id")
        wrappers += len(kids) == 1 and not n.get("name")
        stack.extend(kids)
    return leaves, wrappers


@pytest.mark.parametrize("flags", [["-i"], ["--compact"], ["-i", "--compact"]])
def test_click_wait_for_snapshot_takes_the_actions_view_flags(cli, fixture_app, flags):
    # The same as a plain snapshot with those flags (which pyatspi's count of the click and
    # the snapshot command itself read independently); without them, snapshot's defaults.
    before = need_state(fixture_app)
    plain = cli.ok("click", ref(cli, "inc_button"), "--wait-for", "button:Increment")
    wait_state(fixture_app, lambda s: s["count"] == before["count"] + 1, "the first click")
    data = cli.ok("click", ref(cli, "inc_button"), "--wait-for", "button:Increment", *flags)
    wait_state(fixture_app, lambda s: s["count"] == before["count"] + 2, "the second click")
    want = _shape(cli.ok("snapshot", *FIXTURE, *flags)["tree"])
    assert _shape(data["tree"]) == want, (flags, want)
    assert _shape(plain["tree"]) == _shape(cli.ok("snapshot", *FIXTURE)["tree"])
    assert _shape(plain["tree"]) != want
    assert data["after_action"]["action"] == "click"


def test_view_flags_without_wait_for_are_refused_before_the_click(cli, fixture_app):
    before = need_state(fixture_app)
    err = expect_error(cli.run("click", ref(cli, "inc_button"), "-i"), "INVALID_ARGS")
    assert err["disposition"] == NOT_DELIVERED
    _no_click_landed(fixture_app, before)
