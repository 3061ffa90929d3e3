"""The C library's element calls through ctypes against ad-fixture (spec/ffi/api.md "Find,
get, and is", "Raw tree", "Actions, refs, and native handles"; ownership-and-threading.md):
each effect read independently through pyatspi or the fixture's own state file."""
import ctypes
import json
import os
import threading

import pytest

import atspi_observer as obs
import ffi_ctypes as ffi
from e2e_helpers import fixture_reset

# An ASan build of the library needs its runtime preloaded into this python
# (LD_PRELOAD=libasan.so:libubsan.so); the apps the tests start must not inherit it.
os.environ.pop("LD_PRELOAD", None)


@pytest.fixture(scope="module")
def lib(ad_bin, state_home):
    # The library runs in this process: give it the state root the CLI fixtures use.
    os.environ["AGENT_DESKTOP_HOME"] = state_home
    os.environ.pop("AGENT_DESKTOP_SESSION", None)
    path = ffi.library_path(ad_bin)
    if ffi.needs_asan_runtime(path) and not ffi.asan_runtime_loaded():
        pytest.skip("%s is an ASan build: run this file with LD_PRELOAD=libasan.so:libubsan.so"
                    % path)
    return ffi.load(path)


@pytest.fixture(scope="module")
def adapter(lib):
    a = lib.ad_adapter_create()
    assert a
    yield a
    lib.ad_adapter_destroy(a)


@pytest.fixture()
def win(cli, lib, fixture_app):
    fixture_reset(fixture_app)
    listed = [w for w in cli.ok("list-windows", "--app", "ad-fixture")
              if w.get("title") == "AD Fixture"]
    assert len(listed) == 1
    return ffi.exact_window(lib, listed[0])


def last_error(lib):
    msg = lib.ad_last_error_message()
    return lib.ad_last_error_code(), msg.decode() if msg else None


def find(lib, adapter, win, q):
    h = ffi.NativeHandle()
    rc = lib.ad_find_exact(adapter, ctypes.byref(win), ctypes.byref(q), ctypes.byref(h))
    return rc, h


def act(lib, adapter, h, kind, text=None):
    a = ffi.Action(kind=kind, text=text.encode() if text is not None else None)
    out = ffi.ActionResult()
    rc = lib.ad_execute_action(adapter, ctypes.byref(h), ctypes.byref(a), ctypes.byref(out))
    return rc, out


def click_picked(lib, adapter, win, q):
    """Resolves q, clicks the element and releases the handle and the result."""
    rc, h = find(lib, adapter, win, q)
    assert rc == ffi.OK, last_error(lib)
    rc, out = act(lib, adapter, h, ffi.CLICK)
    assert rc == ffi.OK, last_error(lib)
    lib.ad_free_action_result(ctypes.byref(out))
    assert lib.ad_free_handle(adapter, ctypes.byref(h)) == ffi.OK


def test_find_strict_button_and_click_it(lib, adapter, win, fixture_app):
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Increment"))
    assert rc == ffi.OK, last_error(lib)
    assert h.ptr
    before = fixture_app.state()["count"]
    rc, out = act(lib, adapter, h, ffi.CLICK)
    assert rc == ffi.OK, last_error(lib)
    assert out.action == b"click" and out.step_count >= 1
    assert out.steps[0].has_mechanism and out.steps[0].mechanism == 1  # semantic_api
    assert json.loads(out.details_json)["action"] == "click"
    assert out.post_state and out.post_state.contents.role == b"button"
    lib.ad_free_action_result(ctypes.byref(out))
    assert not out.action and not out.steps and not out.post_state
    lib.ad_free_action_result(ctypes.byref(out))  # a second free is a no-op
    obs.wait_until(lambda: fixture_app.state()["count"] == before + 1, what="count + 1")
    assert lib.ad_free_handle(adapter, ctypes.byref(h)) == ffi.OK
    assert not h.ptr
    assert lib.ad_free_handle(adapter, ctypes.byref(h)) == ffi.OK  # zeroed: a no-op


def test_duplicates_strict_is_ambiguous_first_and_nth_pick(lib, adapter, win, fixture_app):
    twins = obs.find_all(fixture_app.window(), lambda o: o.name == "Twin")
    assert len(twins) == 2
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Twin"))
    assert rc == ffi.ERR_AMBIGUOUS_TARGET and not h.ptr
    assert "2 elements" in last_error(lib)[1]
    click_picked(lib, adapter, win, ffi.query(role="button", name="Twin", selection=ffi.NTH,
                                              nth=1))
    obs.wait_until(lambda: fixture_app.state()["twin_clicks"] == [0, 1], what="twin 2 clicked")
    click_picked(lib, adapter, win, ffi.query(role="button", name="Twin", selection=ffi.FIRST))
    obs.wait_until(lambda: fixture_app.state()["twin_clicks"] == [1, 1], what="twin 1 clicked")
    # is lands on the picked twin as find does (a ref-based `is` would refuse a twin).
    enabled = ctypes.c_bool(False)
    second = ffi.query(role="button", name="Twin", selection=ffi.LAST)
    assert lib.ad_is_exact(adapter, ctypes.byref(win), ctypes.byref(second), b"enabled",
                           ctypes.byref(enabled)) == ffi.OK, last_error(lib)
    assert enabled.value is ("sensitive" in obs.state_names(twins[1].acc))
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Twin", selection=ffi.NTH,
                                              nth=2))
    assert rc == ffi.ERR_ELEMENT_NOT_FOUND and not h.ptr


def test_get_value_and_bounds_match_pyatspi(lib, adapter, win, fixture_app):
    acc = obs.by_id(fixture_app.window(), "count_value")
    rc, h = find(lib, adapter, win, ffi.query(role="textfield", name="Count value"))
    assert rc == ffi.OK, last_error(lib)
    out = ctypes.c_void_p()
    assert lib.ad_get(adapter, ctypes.byref(h), b"value", ctypes.byref(out)) == ffi.OK
    assert ffi.take_string(lib, out) == obs.text_of(acc)
    assert lib.ad_get(adapter, ctypes.byref(h), b"bounds", ctypes.byref(out)) == ffi.OK
    b = json.loads(ffi.take_string(lib, out))
    assert (b["x"], b["y"], b["width"], b["height"]) == obs.extents(acc)
    assert lib.ad_get(adapter, ctypes.byref(h), b"title", ctypes.byref(out)) == \
        ffi.ERR_INVALID_ARGS and not out.value
    lib.ad_free_handle(adapter, ctypes.byref(h))


def test_set_value_is_read_back_through_the_fixture(lib, adapter, win, fixture_app):
    rc, h = find(lib, adapter, win, ffi.query(role="textfield", name="Name"))
    assert rc == ffi.OK, last_error(lib)
    rc, out = act(lib, adapter, h, ffi.SET_VALUE, "from the library")
    assert rc == ffi.OK, last_error(lib)
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["name"] == "from the library", what="name set")
    # The handle follows the element, not its value: a get after the change reads it live.
    got = ctypes.c_void_p()
    assert lib.ad_get(adapter, ctypes.byref(h), b"value", ctypes.byref(got)) == ffi.OK
    assert ffi.take_string(lib, got) == "from the library"
    lib.ad_free_handle(adapter, ctypes.byref(h))


def test_is_exact_checked_and_toggle(lib, adapter, win, fixture_app):
    check = ffi.query(role="checkbox", name="Enable feature")
    result = ctypes.c_bool(True)
    assert lib.ad_is_exact(adapter, ctypes.byref(win), ctypes.byref(check), b"checked",
                           ctypes.byref(result)) == ffi.OK, last_error(lib)
    acc = obs.by_id(fixture_app.window(), "feature_check")
    assert result.value == ("checked" in obs.state_names(acc)) == fixture_app.state()["feature"]
    rc, h = find(lib, adapter, win, check)
    assert rc == ffi.OK, last_error(lib)
    rc, out = act(lib, adapter, h, ffi.TOGGLE)
    assert rc == ffi.OK, last_error(lib)
    post = [out.post_state.contents.states[i] for i in range(out.post_state.contents.state_count)]
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["feature"] is (not result.value), what="toggled")
    assert ("checked" in obs.state_names(acc)) is (not result.value)
    assert (b"checked" in post) is (not result.value)
    assert lib.ad_is_exact(adapter, ctypes.byref(win), ctypes.byref(check), b"checked",
                           ctypes.byref(result)) == ffi.OK
    assert result.value is fixture_app.state()["feature"]
    # check on a checked box sends nothing; uncheck unchecks it.
    rc, out = act(lib, adapter, h, ffi.CHECK if result.value else ffi.UNCHECK)
    assert rc == ffi.OK
    lib.ad_free_action_result(ctypes.byref(out))
    rc, out = act(lib, adapter, h, ffi.UNCHECK if result.value else ffi.CHECK)
    assert rc == ffi.OK
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["feature"] is (not result.value), what="flip")
    assert lib.ad_is_exact(adapter, ctypes.byref(win), ctypes.byref(check), b"bogus",
                           ctypes.byref(result)) == ffi.ERR_INVALID_ARGS
    lib.ad_free_handle(adapter, ctypes.byref(h))


def test_has_and_has_not_sub_queries(lib, adapter, win, fixture_app):
    inc = lambda **kw: ffi.query(role="button", name="Increment", **kw)  # noqa: E731
    rc, h = find(lib, adapter, win, inc(has=inc()))  # find --root: the element itself counts
    assert rc == ffi.OK, last_error(lib)
    lib.ad_free_handle(adapter, ctypes.byref(h))
    rc, h = find(lib, adapter, win, inc(has_not=inc()))
    assert rc == ffi.ERR_ELEMENT_NOT_FOUND and not h.ptr
    rc, h = find(lib, adapter, win, inc(has=ffi.query(role="checkbox")))
    assert rc == ffi.ERR_ELEMENT_NOT_FOUND and not h.ptr
    # A candidate that is not unique (a Twin) cannot scope a sub-search: fail closed.
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Twin", selection=ffi.FIRST,
                                              has=ffi.query(role="button")))
    assert rc == ffi.ERR_AMBIGUOUS_TARGET and not h.ptr


def test_tree_counts_and_roles_match_pyatspi(lib, adapter, win, fixture_app):
    tree = ffi.NodeTree()
    opts = ffi.TreeOptions(max_depth=50, include_bounds=True)
    rc = lib.ad_get_tree_exact(adapter, ctypes.byref(win), ctypes.byref(opts),
                               ctypes.byref(tree))
    assert rc == ffi.OK, last_error(lib)
    nodes = [tree.nodes[i] for i in range(tree.count)]
    live = obs.walk(fixture_app.window())
    assert tree.count == len(live)
    assert sorted(n.content.role.decode() for n in nodes) == \
        sorted(obs.canonical_role(o.role) for o in live)
    assert nodes[0].relation.parent_index == -1
    for i, n in enumerate(nodes):  # children contiguous, each naming its parent
        for k in range(n.relation.child_count):
            assert nodes[n.relation.child_start + k].relation.parent_index == i
    assert nodes[0].presentation.has_bounds
    assert all(n.content.ref_id is None for n in nodes)
    lib.ad_free_tree(ctypes.byref(tree))
    assert not tree.nodes and tree.count == 0
    lib.ad_free_tree(ctypes.byref(tree))


def test_handle_on_another_thread_is_refused(lib, adapter, win, fixture_app):
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Increment"))
    assert rc == ffi.OK, last_error(lib)
    before = fixture_app.state()["count"]
    seen = {}

    def other():
        rc, out = act(lib, adapter, h, ffi.CLICK)
        seen["act"] = rc
        got = ctypes.c_void_p()
        seen["get"] = lib.ad_get(adapter, ctypes.byref(h), b"value", ctypes.byref(got))
        seen["free"] = lib.ad_free_handle(adapter, ctypes.byref(h))
        seen["message"] = last_error(lib)[1]

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert seen["act"] == seen["get"] == seen["free"] == ffi.ERR_INVALID_ARGS
    assert "thread" in seen["message"]
    assert h.ptr  # not released by the other thread
    other_adapter = lib.ad_adapter_create()
    rc, out = act(lib, other_adapter, h, ffi.CLICK)
    assert rc == ffi.ERR_INVALID_ARGS and "adapter" in last_error(lib)[1]
    lib.ad_adapter_destroy(other_adapter)
    # Ordering canary: a click on the resolving thread lands; the refused ones never did.
    rc, out = act(lib, adapter, h, ffi.CLICK)
    assert rc == ffi.OK
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["count"] >= before + 1, what="canary click")
    assert fixture_app.state()["count"] == before + 1
    assert lib.ad_free_handle(adapter, ctypes.byref(h)) == ffi.OK


def test_gestures_follow_the_policy(lib, adapter, win, fixture_app):
    rc, h = find(lib, adapter, win, ffi.query(role="button", name="Increment"))
    assert rc == ffi.OK, last_error(lib)
    before = fixture_app.state()["count"]
    rc, out = act(lib, adapter, h, ffi.DOUBLE_CLICK)  # headless: no semantic route
    assert rc == ffi.ERR_POLICY_DENIED and not out.action
    # Ordering canary: a semantic click lands, and only it.
    rc, out = act(lib, adapter, h, ffi.CLICK)
    assert rc == ffi.OK
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["count"] >= before + 1, what="canary click")
    assert fixture_app.state()["count"] == before + 1
    a = ffi.Action(kind=ffi.DOUBLE_CLICK)
    out = ffi.ActionResult()
    rc = lib.ad_execute_action_with_policy(adapter, ctypes.byref(h), ctypes.byref(a),
                                           ffi.POLICY_HEADED, ctypes.byref(out))
    assert rc == ffi.OK, last_error(lib)
    assert out.step_count >= 1 and out.steps[0].mechanism == 2  # physical_synthetic
    lib.ad_free_action_result(ctypes.byref(out))
    obs.wait_until(lambda: fixture_app.state()["count"] == before + 3, what="two more clicks")
    a = ffi.Action(kind=ffi.KEY_DOWN)
    rc = lib.ad_execute_action_with_policy(adapter, ctypes.byref(h), ctypes.byref(a),
                                           ffi.POLICY_HEADED, ctypes.byref(out))
    assert rc == ffi.ERR_ACTION_NOT_SUPPORTED
    lib.ad_free_handle(adapter, ctypes.byref(h))


def test_exact_entry_calls_fail_closed(lib, adapter):
    out_h = ffi.NativeHandle(ptr=1)
    assert lib.ad_resolve_element_exact(adapter, None, ctypes.byref(out_h)) == \
        ffi.ERR_ACTION_NOT_SUPPORTED and not out_h.ptr
    res = ffi.ActionResult(action=b"x")
    a = ffi.Action(kind=ffi.CLICK)
    assert lib.ad_execute_ref_action_exact_with_policy(adapter, None, ctypes.byref(a), 0,
                                                       ctypes.byref(res)) == \
        ffi.ERR_ACTION_NOT_SUPPORTED and not res.action
