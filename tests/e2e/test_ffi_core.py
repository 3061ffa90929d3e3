"""The C library's core against the real desktop (spec/ffi/ownership-and-threading.md): the
JSON entrypoints through ctypes (ffi_driver.py, in a child process so the library may be the
ASan build), the adapter's one reused connection, the interaction lease shared with the CLI,
and the thread hammer (tests/unit/ffi_hammer.c) under the build's sanitizer, ThreadSanitizer
when build-tsan/ exists. Every effect is read independently: the fixture's state line,
pyatspi, the files written."""
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import atspi_observer as obs
from action_helpers import (NOT_DELIVERED, UNVERIFIED, ensure_fixture_active, expect_count,
                            have_xdotool, need_state, ref, scroll_value, set_scroll_value,
                            unchanged, wait_state)
from e2e_helpers import REPO_ROOT, fixture_reset
from test_concurrency import lease_holder  # noqa: F401  (a fixture)
from test_traces import make_session

DRIVER = Path(__file__).with_name("ffi_driver.py")
ERR = {"INVALID_ARGS": -10, "STALE_REF": -6, "SNAPSHOT_NOT_FOUND": -13, "TIMEOUT": -9}
DELIVERY_NOT_DELIVERED, RETRY_SAFE = 1, 1


@pytest.fixture(autouse=True)
def _clean_fixture(fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


@pytest.fixture(scope="module")
def build_dir(ad_bin):
    return Path(ad_bin).parent


def _sanitizer_env(binary):
    """The environment that lets a child load `binary`'s sanitizer runtime first: python is
    not built with it, so libasan goes in LD_PRELOAD (python's own allocations are not the
    library's leaks: leak checking is the hammer's, a C program)."""
    env = {}
    libs = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
    for line in libs.splitlines():
        if "libasan" in line and "=>" in line:
            env["LD_PRELOAD"] = line.split("=>")[1].split()[0]
            env["ASAN_OPTIONS"] = "detect_leaks=0"
    return env


def driver(cli, build_dir, scenario, *args, timeout=120):
    lib = build_dir / "libagent_desktop_ffi.so"
    env = cli.environment(_sanitizer_env(lib))
    p = subprocess.run([sys.executable, str(DRIVER), str(lib), scenario, *args], env=env,
                       capture_output=True, text=True, timeout=timeout)
    assert p.returncode == 0, "driver %s failed (%d): %s" % (scenario, p.returncode,
                                                            p.stderr[-3000:])
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_snapshot_then_click_by_ref(cli, build_dir, fixture_app):
    before = need_state(fixture_app)
    res = driver(cli, build_dir, "snapshot", "ad-fixture")
    assert res["rc"] == 0 and res["envelope"]["ok"] is True
    snap = res["envelope"]["data"]
    assert snap["app"] == "ad-fixture"
    # The snapshot holds the increment button under the name pyatspi reads for it.
    inc_name = obs.by_id(fixture_app.window(), "inc_button").name
    assert inc_name and json.dumps(inc_name) in json.dumps(snap["tree"])
    inc = ref(cli, "inc_button")
    res = driver(cli, build_dir, "click", inc, "-1")
    assert res["rc"] == 0, res
    assert res["envelope"]["command"] == "click"
    assert res["envelope"]["data"]["disposition"] == UNVERIFIED
    expect_count(fixture_app, before["count"] + 1)  # the app's own state: one click


def test_snapshot_max_depth_is_the_clis(cli, build_dir, fixture_app):
    """ad_snapshot passes max_depth as given, like `snapshot --max-depth N`: each depth gives
    the ref count the CLI gives for it (0 is the root alone, not a default)."""
    depths = ["0", "1", "10"]
    res = driver(cli, build_dir, "snapshot-depths", "ad-fixture", *depths)
    assert res["rc"] == [0, 0, 0], res
    for depth, count in zip(depths, res["ref_counts"]):
        data = cli.ok("snapshot", "--app", "ad-fixture", "-i", "--max-depth", depth)
        assert count == data["ref_count"], (depth, res)
    assert res["ref_counts"][0] < res["ref_counts"][2], res


# AdActionKind values the tests below use.
SET_VALUE, CHECK, UNCHECK, TOGGLE, SCROLL, TYPE_TEXT, CLEAR = 4, 10, 11, 9, 12, 17, 18
HEADLESS, FOCUS_FALLBACK = 0, 1
DOWN = 1


def act(cli, build_dir, ref_id, kind, policy=HEADLESS, text="-", scroll=()):
    res = driver(cli, build_dir, "act", ref_id, str(kind), str(policy), text,
                 *[str(v) for v in scroll])
    return res["rc"], res["envelope"]


def test_action_kinds_map_to_their_commands(cli, build_dir, fixture_app):
    """Each AdActionKind runs its CLI command with the AdAction's arguments; the effect is
    read from the fixture's state line and pyatspi."""
    need_state(fixture_app)
    window = fixture_app.window()
    entry = obs.by_id(window, "name_entry")
    name = ref(cli, "name_entry")
    rc, env = act(cli, build_dir, name, SET_VALUE, text="hello")
    assert rc == 0 and env["command"] == "set-value", env
    wait_state(fixture_app, lambda s: s["name"] == "hello", "name hello")
    assert obs.text_of(entry) == "hello"
    rc, env = act(cli, build_dir, name, CLEAR)
    assert rc == 0 and env["command"] == "clear", env
    wait_state(fixture_app, lambda s: s["name"] == "", "an empty name")
    rc, env = act(cli, build_dir, name, TYPE_TEXT, text="abc")
    assert rc == 0 and env["command"] == "type", env
    wait_state(fixture_app, lambda s: s["name"] == "abc", "name abc")
    assert obs.text_of(entry) == "abc"

    box = ref(cli, "feature_check")
    for kind, command, on in ((CHECK, "check", True), (UNCHECK, "uncheck", False),
                              (TOGGLE, "toggle", True)):
        rc, env = act(cli, build_dir, box, kind)
        assert rc == 0 and env["command"] == command, env
        wait_state(fixture_app, lambda s: s["feature"] is on, "feature %s" % on)
        assert ("checked" in obs.state_names(obs.by_id(window, "feature_check"))) is on


def test_scroll_kind_takes_direction_amount_and_policy(cli, build_dir, fixture_app):
    """Headless, a scroll is refused by policy and the list stays; with
    AD_POLICY_KIND_FOCUS_FALLBACK (--headed) it scrolls down."""
    before = need_state(fixture_app)
    window = fixture_app.window()
    set_scroll_value(window, 100)
    lst = ref(cli, "long_list")
    rc, env = act(cli, build_dir, lst, SCROLL, scroll=(DOWN, 3))
    assert env["error"]["code"] == "POLICY_DENIED", env
    unchanged(fixture_app, before)
    assert abs(scroll_value(window) - 100) < 0.5
    if not have_xdotool():
        set_scroll_value(window, 0)
        return
    ensure_fixture_active(fixture_app)
    rc, env = act(cli, build_dir, lst, SCROLL, policy=FOCUS_FALLBACK, scroll=(DOWN, 3))
    assert rc == 0 and env["data"]["action"] == "scroll", env
    obs.wait_until(lambda: scroll_value(window) > 101, what="the list to scroll down",
                   timeout=5)
    set_scroll_value(window, 0)


def test_stale_ref_and_the_error_accessors(cli, build_dir, fixture_app):
    need_state(fixture_app)
    window = fixture_app.window()
    if obs.by_id(window, "remove_me_button") is None:
        pytest.skip("'Remove me' was already removed in this ad-fixture instance")
    gone = ref(cli, "remove_me_button")
    cli.ok("click", gone)
    obs.wait_until(lambda: obs.by_id(fixture_app.window(), "remove_me_button") is None,
                   what="the button to leave the tree")
    removed = need_state(fixture_app)
    res = driver(cli, build_dir, "failure_then_success", gone, "ad-fixture")
    assert res["rc"] == ERR["STALE_REF"]
    # A command failure: an ok:false envelope and the same error in the last-error slot.
    assert res["envelope"]["ok"] is False
    assert res["envelope"]["error"]["code"] == "STALE_REF"
    err = res["after_failure"]
    assert err["code"] == ERR["STALE_REF"]
    assert err["message"] == res["envelope"]["error"]["message"]
    assert err["suggestion"] == res["envelope"]["error"].get("suggestion")
    details = json.loads(err["details"])
    assert details == res["envelope"]["error"]["details"]
    assert (err["delivery"], err["retry"]) == (DELIVERY_NOT_DELIVERED, RETRY_SAFE)
    # A later success leaves the slot as the failure wrote it (errno semantics).
    assert res["ok_rc"] == 0
    assert res["after_success"] == err
    unchanged(fixture_app, removed)  # the stale click did nothing


def test_missing_snapshot_and_bare_ref(cli, build_dir, fixture_app):
    before = need_state(fixture_app)
    res = driver(cli, build_dir, "click", "@snosuchsnapshot:e1", "0")
    assert res["rc"] == ERR["SNAPSHOT_NOT_FOUND"]
    assert res["envelope"]["error"]["code"] == "SNAPSHOT_NOT_FOUND"
    res = driver(cli, build_dir, "click", "@e1", "0")
    assert res["rc"] == ERR["INVALID_ARGS"] and res["envelope"] is None  # before dispatch
    assert "@s8f3k2p9:e1" in res["last_error"]["suggestion"]
    unchanged(fixture_app, before)


def test_wait_window_and_text_timeout(cli, build_dir, fixture_app):
    res = driver(cli, build_dir, "wait", "AD Fixture", "no such text 9d1f", "ad-fixture")
    assert res["window_rc"] == 0, res
    # The window the wait found is the fixture's, as pyatspi names it.
    assert fixture_app.window().name in json.dumps(res["window"]["data"])
    assert res["text_rc"] == ERR["TIMEOUT"]
    assert res["text"]["error"]["code"] == "TIMEOUT"
    assert res["text_error"]["code"] == ERR["TIMEOUT"]


def test_trace_show_and_export_of_a_session_adapter(cli, build_dir, state_home, fixture_app,
                                                    tmp_path):
    sid = make_session(state_home)
    out_html = tmp_path / "trace.html"
    res = driver(cli, build_dir, "trace", sid, "ad-fixture", str(out_html))
    assert res["snapshot_rc"] == 0 and res["show_rc"] == 0 and res["export_rc"] == 0, res
    shown = res["show"]["data"]
    assert shown["session_id"] == sid
    assert shown["events"] and all(e["event"].startswith("snapshot.") for e in shown["events"])
    # The segment the library's snapshot wrote is on disk in the session, independently.
    trace = Path(state_home) / "sessions" / sid / "trace"
    on_disk = [json.loads(line) for f in trace.iterdir() for line in f.read_text().splitlines()]
    assert any(e.get("event") == "snapshot.saved" and e.get("app") == "ad-fixture"
               for e in on_disk)
    html = out_html.read_text()
    assert html.lstrip().lower().startswith("<!doctype html") and sid in html


def test_sequential_calls_reuse_one_connection(cli, build_dir, fixture_app):
    """The adapter owns its connections: ten more calls open no descriptor, and destroy
    closes what the adapter opened."""
    res = driver(cli, build_dir, "connections")
    assert res["first_rc"] == 0 and res["later_rcs"] == [0] * 10
    assert res["fds_after_more"] == res["fds_after_first"]
    assert res["fds_after_destroy"] < res["fds_after_first"]


def test_a_library_click_waits_for_the_lease_and_times_out(cli, build_dir, fixture_app,
                                                           lease_holder):
    """The lease is the CLI's: while another process holds it, a library mutation waits and
    ends in a structured TIMEOUT, having sent nothing."""
    before = need_state(fixture_app)
    res = driver(cli, build_dir, "click", ref(cli, "inc_button"), "500")
    assert res["rc"] == ERR["TIMEOUT"]
    assert res["envelope"]["error"]["details"]["kind"] == "lock_timeout"
    assert res["envelope"]["error"]["disposition"] == NOT_DELIVERED
    assert (res["last_error"]["delivery"], res["last_error"]["retry"]) == \
        (DELIVERY_NOT_DELIVERED, RETRY_SAFE)
    unchanged(fixture_app, before)


def test_library_and_cli_mutations_serialize(cli, build_dir, fixture_app):
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    n = 8
    cli_errors = []

    def cli_clicks():
        for _ in range(n):
            code, env = cli.run("click", inc, "--timeout-ms", "20000")
            if code != 0:
                cli_errors.append(env)
    t = threading.Thread(target=cli_clicks)
    t.start()
    res = driver(cli, build_dir, "clicks", inc, str(n))
    t.join(120)
    assert res["rcs"] == [0] * n and not cli_errors, (res, cli_errors)
    # Every click of both doors landed exactly once: none was lost or doubled.
    expect_count(fixture_app, before["count"] + 2 * n)


def _hammers(build_dir):
    found = [build_dir / "tests" / "unit" / "ffi-hammer"]
    tsan = Path(os.environ.get("AD_FFI_TSAN_HAMMER",
                               REPO_ROOT / "build-tsan" / "tests" / "unit" / "ffi-hammer"))
    if tsan.is_file():
        found.append(tsan)
    return found


def _screenshots_session(state_home):
    """A tracing session whose manifest records before/after screenshots of each action."""
    sid = make_session(state_home)
    path = Path(state_home) / "sessions" / sid / "session.json"
    manifest = json.loads(path.read_text())
    manifest["screenshots"] = True
    path.write_text(json.dumps(manifest))
    return sid


@pytest.mark.parametrize("with_session", [False, True], ids=["no-session", "screenshots"])
def test_thread_hammer(cli, build_dir, state_home, fixture_app, with_session):
    """Two adapters on two threads (status, snapshot, click), a reader beside a mutator on
    one adapter, per-thread last errors, destroy while a call is in flight, calls after
    destroy; under the build's sanitizer and ThreadSanitizer (build-tsan/) when built. With
    a screenshots session, each click also writes its trace and artifacts from two threads."""
    rounds = 4
    for hammer in _hammers(build_dir):
        extra = [_screenshots_session(state_home)] if with_session else []
        # A session's refs live in the session: the ref comes from there too.
        target = cli.ok("find", "--app", "ad-fixture", "--native-id", "inc_button", "--exact",
                        "--first", *(["--session", extra[0]] if extra else []))["match"]["ref_id"]
        before = need_state(fixture_app)
        env = dict(_sanitizer_env(hammer))
        if "ASAN_OPTIONS" in env:
            env = {"ASAN_OPTIONS": "detect_leaks=1"}  # a C program: its leaks are ours
        env["TSAN_OPTIONS"] = "halt_on_error=1:second_deadlock_stack=1:suppressions=%s" % (
            REPO_ROOT / "tests" / "unit" / "tsan.supp")
        p = subprocess.run([str(hammer), "ad-fixture", target, str(rounds),
                            *extra],
                           env=cli.environment(env), capture_output=True, text=True,
                           timeout=600)
        assert p.returncode == 0, "%s failed (%d): %s" % (hammer, p.returncode,
                                                         p.stderr[-4000:])
        assert "WARNING: ThreadSanitizer" not in p.stderr, p.stderr[-4000:]
        out = json.loads(p.stdout.strip().splitlines()[-1])
        assert out["clicks"] == 2 * rounds and out["destroyed_refused"] >= 1
        expect_count(fixture_app, before["count"] + 2 * rounds)
        if with_session:  # every click's artifacts landed, none overwritten by another's
            shots = list((Path(state_home) / "sessions" / extra[0]).rglob("*.png"))
            assert len(shots) >= 2 * rounds, shots
