"""snapshot against an independent pyatspi read of the same window (snapshots-and-refs.md,
skeleton-and-drill-down.md "Partial observations", commands/observation.md)."""
import json
import os
import shutil
import stat
from collections import Counter

import pytest

import atspi_observer as obs
from e2e_helpers import (GTK4_FACTORY_TITLE, INTERACTIVE_ROLES, REPO_ROOT, expect_error,
                         find_node, fixture_reset, launch, load_refmap, native_id, nodes, rect,
                         ref_number, refmap_path, refs_in_order, screen_extents, set_minimized,
                         stop_process, walk_tree)

SECRET = "hunter2-secret"  # ad-fixture's password entry text


@pytest.fixture(autouse=True)
def _clean_fixture(fixture_app):
    fixture_reset(fixture_app)


def snapshot(cli, *flags, app="ad-fixture"):
    return cli.ok("snapshot", "--app", app, *flags)


def ref_signature(tree):
    """(role, name, native id) of every ref'd node, in document order."""
    return [(n["role"], n.get("name"), native_id(n)) for n in nodes(tree) if "ref_id" in n]


def test_tree_matches_pyatspi(cli, fixture_app):
    win = fixture_app.window()
    data = snapshot(cli, "--max-depth", "50")
    theirs = obs.walk(win)
    ours = list(walk_tree(data["tree"]))
    assert data["complete"] is True
    assert data["app"] == "ad-fixture"
    assert data["window"]["title"] == win.name == "AD Fixture"
    # The same multiset of (canonical role, name) pairs...
    ours_pairs = Counter((n["role"], n.get("name")) for _, n in ours)
    theirs_pairs = Counter((obs.canonical_role(o.role), obs.presented_name(o.name))
                           for o in theirs)
    assert ours_pairs == theirs_pairs
    # ...at the same places: pre-order positions, child counts and descriptions agree.
    assert [p for p, _ in ours] == [o.path for o in theirs]
    for (path, n), o in zip(ours, theirs):
        assert n["role"] == obs.canonical_role(o.role), path
        assert len(n.get("children", [])) == o.child_count, path
        assert n.get("description") == (o.description or None), path


def test_animating_gtk4_window_reads_complete_within_the_default_deadline(
        cli, gtk4_widget_factory_app):
    """GTK 4.8 answers AT-SPI calls between frames, one batch per frame while a window animates
    (gtk4-widget-factory never stops); with few calls in flight its ~950 nodes took 6-24 s.
    The default deadline must still give the whole tree, the same one pyatspi reads."""
    app = gtk4_widget_factory_app
    # pyatspi asks one call at a time, a frame each on the shown window: read it minimized.
    set_minimized(app.pid, GTK4_FACTORY_TITLE, True)
    try:
        theirs = obs.walk(obs.window_for_pid(app.pid))
    finally:
        set_minimized(app.pid, GTK4_FACTORY_TITLE, False)
    data = cli.ok("snapshot", "--app", "gtk4-widget-factory")  # the default deadline
    assert data["complete"] is True
    ours = list(walk_tree(data["tree"]))
    assert len(ours) == len(theirs)
    assert [p for p, _ in ours] == [o.path for o in theirs]
    assert [n["role"] for _, n in ours] == [obs.canonical_role(o.role) for o in theirs]
    lists = cli.ok("find", "--app", "gtk4-widget-factory", "--role", "list")
    assert len(lists["matches"]) == sum(1 for _, n in ours if n["role"] == "list") > 0


def test_native_ids_are_the_accessible_ids(cli, fixture_app):
    win = fixture_app.window()
    data = snapshot(cli, "--max-depth", "50")
    theirs = {o.path: o for o in obs.walk(win)}
    with_id = 0
    for path, n in walk_tree(data["tree"]):
        o = theirs[path]
        if o.accessible_id:
            assert n.get("native_id") == {"kind": "ax_identifier", "value": o.accessible_id}, path
            with_id += 1
        else:
            assert "native_id" not in n, path
    assert with_id >= 30  # the fixture names nearly every widget


def test_refs_are_numbered_in_document_order(cli, state_home, fixture_app):
    data = snapshot(cli, "--max-depth", "50")
    sid = data["snapshot_id"]
    refs = refs_in_order(data["tree"])
    assert refs == ["@%s:e%d" % (sid, i) for i in range(1, len(refs) + 1)]
    assert data["ref_count"] == len(refs) > 10
    refmap = load_refmap(state_home, sid)
    assert set(refmap["refs"]) == {"@e%d" % i for i in range(1, len(refs) + 1)}
    assert refmap["next_ref"] == len(refs) + 1
    assert refmap["snapshot_id"] == sid
    assert refmap["source"]["pid"] == fixture_app.pid
    assert refmap["source"]["source_window_id"] == data["window"]["id"]
    for n in nodes(data["tree"]):
        if n["role"] in INTERACTIVE_ROLES:
            assert "ref_id" in n, "interactive node without a ref: %r" % n
        if "ref_id" in n:
            entry = refmap["refs"]["@e%d" % ref_number(n["ref_id"])[1]]
            assert entry["role"] == n["role"]
            assert entry.get("name") == n.get("name")
            assert entry.get("native_id") == native_id(n)
    # Static text and inert containers have no ref.
    assert all("ref_id" not in n for n in nodes(data["tree"]) if n["role"] == "statictext")


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_password_value_is_never_shown(cli, state_home, fixture_app):
    win = fixture_app.window()
    pw = obs.by_id(win, "password_entry")
    assert pw.getRoleName() == "password text"
    state = fixture_app.state()
    if state is not None:
        assert state["password_length"] == len(SECRET)  # the secret is really in the field
    masked = obs.text_of(pw)  # what a Text read of the field returns (GTK masks it)
    outputs = []
    code, env, out = cli.run_full("snapshot", "--app", "ad-fixture", "--max-depth", "50",
                                  "--include-bounds")
    assert env["ok"], env
    outputs.append(out)
    sid = env["data"]["snapshot_id"]
    node = find_node(env["data"]["tree"], native_id="password_entry")
    assert node["role"] == "textfield" and "secure" in node["states"]
    assert "value" not in node
    ref = node["ref_id"]
    for argv in (["get", ref, "--property", "value"], ["get", ref, "--property", "text"],
                 ["find", "--app", "ad-fixture", "--native-id", "password_entry", "--first"],
                 ["find", "--app", "ad-fixture", "--text", "hunter2", "--limit", "0"],
                 ["find", "--app", "ad-fixture", "--value", SECRET, "--limit", "0"]):
        code, env, out = cli.run_full(*argv)
        assert env["ok"], env
        outputs.append(out)
    assert json.loads(outputs[1])["data"]["value"] is None            # get value
    assert json.loads(outputs[2])["data"]["value"] == "Password"      # get text: the name
    assert json.loads(outputs[3])["data"]["match"]["value"] is None   # find match
    assert json.loads(outputs[4])["data"]["total_matches"] == 0       # --text
    assert json.loads(outputs[5])["data"]["total_matches"] == 0       # --value
    with open(refmap_path(state_home, sid), "rb") as f:
        assert SECRET.encode() not in f.read()
    refmap = load_refmap(state_home, sid)
    for value in [json.loads(text) for text in outputs] + [refmap]:
        assert SECRET not in json.dumps(value)
        decoded = list(_strings(value))
        assert not any(SECRET in s for s in decoded)
        if masked:
            assert not any(masked in s for s in decoded), "the masked value leaked"
    entry = refmap["refs"]["@e%d" % ref_number(ref)[1]]
    assert "value" not in entry


def test_twins_get_refs_not_unique_at_capture(cli, state_home, fixture_app):
    twins_live = [o for o in obs.walk(fixture_app.window())
                  if o.role == "push button" and o.name == "Twin"]
    assert len(twins_live) == 2 and not any(o.accessible_id or o.description for o in twins_live)
    data = snapshot(cli, "--max-depth", "50")
    refmap = load_refmap(state_home, data["snapshot_id"])
    twins = [n for n in nodes(data["tree"]) if n["role"] == "button" and n.get("name") == "Twin"]
    assert len(twins) == 2
    for n in twins:
        assert "ref_id" in n
        assert refmap["refs"]["@e%d" % ref_number(n["ref_id"])[1]]["unique_at_capture"] is False
    inc = find_node(data["tree"], native_id="inc_button")
    assert refmap["refs"]["@e%d" % ref_number(inc["ref_id"])[1]]["unique_at_capture"] is True


def test_interactive_only_drops_static_text(cli, fixture_app):
    full = snapshot(cli, "--max-depth", "50")
    inter = snapshot(cli, "--max-depth", "50", "-i")
    labels = [o for o in obs.walk(fixture_app.window()) if o.role == "label"]
    assert len([n for n in nodes(full["tree"]) if n["role"] == "statictext"]) == len(labels) > 0
    assert [n for n in nodes(inter["tree"]) if n["role"] == "statictext"] == []
    assert ref_signature(inter["tree"]) == ref_signature(full["tree"])
    assert inter["ref_count"] == full["ref_count"]
    for n in nodes(inter["tree"])[1:]:
        if "children" not in n:
            assert "ref_id" in n or "children_count" in n or n.get("subtree_truncated"), n


def test_compact_collapses_unnamed_wrappers(cli, fixture_app):
    full = snapshot(cli, "--max-depth", "50")
    comp = snapshot(cli, "--max-depth", "50", "--compact")
    assert ref_signature(comp["tree"]) == ref_signature(full["tree"])
    plain_keys = {"name", "value", "description", "native_id", "states", "available_actions",
                  "ref_id", "children_count", "subtree_truncated"}
    for n in nodes(comp["tree"])[1:]:
        if len(n.get("children", [])) == 1:
            assert plain_keys & set(n), "an unnamed single-child wrapper survived: %r" % n
    # The ten unnamed boxes around "Deep" are gone: Deep is the frame's direct child.
    frame_full = find_node(full["tree"], native_id="nested_frame")
    frame_comp = find_node(comp["tree"], native_id="nested_frame")
    assert native_id(frame_comp["children"][0]) == "deep_button"
    assert native_id(frame_full["children"][0]) is None  # the uncompacted tree has the box
    assert len(nodes(comp["tree"])) < len(nodes(full["tree"]))


def test_include_bounds_are_screen_extents(cli, fixture_app):
    win = fixture_app.window()
    data = snapshot(cli, "--max-depth", "50", "--include-bounds")
    checked = 0
    for path, n in walk_tree(data["tree"]):
        if n["role"] != "button":
            continue
        o = obs.read(obs.at_path(win, path), path)
        assert (obs.canonical_role(o.role) == "button" and
                obs.presented_name(o.name) == n.get("name"))
        if "bounds" not in n:
            # An unmapped button (the closed popover's Ping): GTK3 reports INT_MIN extents,
            # which are no rectangle.
            assert "showing" not in o.states and o.extents[0] == -2**31, (path, o)
            continue
        assert rect(n["bounds"]) == o.extents, (path, n.get("name"))
        checked += 1
    assert checked >= 7
    assert rect(data["tree"]["bounds"]) == obs.extents(win)
    plain = snapshot(cli, "--max-depth", "50")
    assert not any("bounds" in n for n in nodes(plain["tree"]))


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_include_bounds_gtk4_in_screen_coordinates(cli, calculator_app):
    """GTK 4 reports extents relative to its window; the snapshot gives screen coordinates."""
    win = calculator_app.window()
    data = snapshot(cli, "--max-depth", "50", "--include-bounds", app="gnome-calculator")
    checked = 0
    for path, n in walk_tree(data["tree"]):
        if n["role"] != "button" or "bounds" not in n:
            continue
        acc = obs.at_path(win, path)
        assert obs.presented_name(acc.name) == n.get("name")
        assert rect(n["bounds"]) == screen_extents(acc, win, calculator_app.pid), path
        checked += 1
    assert checked >= 20


def test_max_depth_cut_nodes_report_live_child_counts(cli, fixture_app):
    win = fixture_app.window()
    data = snapshot(cli, "--max-depth", "2")
    cut = [(p, n) for p, n in walk_tree(data["tree"]) if "children_count" in n]
    assert {native_id(n) for _, n in cut} >= {"content_box", "menubar"}
    for path, n in cut:
        acc = obs.at_path(win, path)
        assert native_id(n) == (obs.accessible_id(acc) or None), path
        assert n["children_count"] == acc.childCount > 0, path
        assert "children" not in n
    for path, n in walk_tree(data["tree"]):
        if "children" in n:
            assert len(n["children"]) == obs.at_path(win, path).childCount, path


def test_max_depth_above_50_is_invalid(cli, fixture_app):
    # The table declares 0 to 50, and a range error is a parse error for every flag: exit 2.
    err = expect_error(cli.run("snapshot", "--app", "ad-fixture", "--max-depth", "51"),
                       "INVALID_ARGS", exit_code=2)
    assert "50" in err["message"]
    assert snapshot(cli, "--max-depth", "50")["complete"] is True


def test_timeout_1ms_returns_a_partial_tree(cli, widget_factory_app):
    code, env = cli.run("snapshot", "--app", "gtk3-widget-factory", "--timeout-ms", "1")
    assert code == 0 and env["ok"], env
    data = env["data"]
    assert data["complete"] is False
    assert data["truncated"] is True
    assert isinstance(data["nodes_observed"], int) and data["nodes_observed"] >= 0
    assert data["identity_unproven"] is True


@pytest.fixture
def big_app(app_tmp):
    """ad-bench-synthetic with 5,000 nodes: its read takes far longer than window selection,
    so a growing budget cuts it part way instead of jumping from "not past selection" to
    "complete" (which gtk3-widget-factory's 25 ms read did on a loaded machine)."""
    exe = REPO_ROOT / "build" / "bench" / "ad-bench-synthetic"
    if not exe.exists():
        pytest.skip("%s is not built" % exe)
    inst = launch([str(exe), "5000"], "ad-bench-synthetic", log_dir=app_tmp,
                  ready=lambda w: w.childCount > 0, timeout=60.0)
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def test_partial_snapshot_shape(cli, big_app):
    """The smallest budgets that get past window selection return a cut tree."""
    partial = env = None
    for budget in (2, 4, 6, 8, 10, 12, 16, 20, 25, 30, 40, 50, 70, 100, 140, 200, 280, 400,
                   560, 800, 1100, 1600, 2200, 3000):
        code, env = cli.run("snapshot", "--app", "ad-bench-synthetic", "--max-depth", "50",
                            "--timeout-ms", str(budget))
        if not env["ok"]:
            continue  # selection cut by the deadline: see test_timeout_1ms_returns_a_partial_tree
        data = env["data"]
        if data["complete"]:
            break  # complete before any budget cut the read
        assert data["truncated"] is True and data["identity_unproven"] is True, data
        if data["nodes_observed"] == 0:
            continue  # cut before its first node (read_failed): look for a part-read window
        partial = data
        break
    if partial is None:
        pytest.fail("no budget up to 3 s produced a partial snapshot of ad-bench-synthetic "
                    "(last: %s)" % json.dumps(env)[:400])
    assert partial["truncated"] is True and partial["identity_unproven"] is True
    tree_nodes = nodes(partial["tree"])
    assert partial["nodes_observed"] == len(tree_nodes)
    # The cut shows: a cut subtree, or a node whose fields were not all read.
    assert any(n.get("subtree_truncated") or n.get("read_failed") for n in tree_nodes)
    refs = refs_in_order(partial["tree"])
    assert partial["ref_count"] == len(refs)
    if refs:  # refs of an unproven snapshot never resolve
        err = expect_error(cli.run("get", refs[0]), "AMBIGUOUS_TARGET",
                           kind="identity_not_unique")
        assert "recovery" not in err
    full = cli.ok("snapshot", "--app", "ad-bench-synthetic", "--max-depth", "50",
                  "--timeout-ms", "30000")
    assert full["complete"] is True
    assert not {"truncated", "nodes_observed", "identity_unproven"} & set(full)
    assert not any(n.get("subtree_truncated") for n in nodes(full["tree"]))
    assert len(nodes(full["tree"])) >= len(tree_nodes)
    # What the cut read shows as read is what the whole read shows: a node's action list is
    # whole or marked read_failed, never short (a cut read once showed buttons without Click).
    whole = dict(_by_path(full["tree"]))
    for path, n in _by_path(partial["tree"]):
        w = whole.get(path)
        if n.get("read_failed") or w is None or (w["role"], w.get("name")) != (
                n["role"], n.get("name")):
            continue
        assert n.get("available_actions") == w.get("available_actions"), (path, n, w)


def _by_path(node, path=()):
    yield path, node
    for i, c in enumerate(node.get("children", [])):
        yield from _by_path(c, path + (i,))


BUG_EMPTY_ROOT = (
    "BUG: a window read cut by the deadline before its first node returns ok with a "
    "fabricated root %s (nodes_observed 0, no subtree_truncated, no read_failed) instead of "
    "TIMEOUT or a marked cut: ad_atspi_read_tree's 'nothing could be read' check tests "
    "root->name.state == AD_FIELD_UNKNOWN, but an unvisited node's name is ABSENT")
BUG_FALSE_ABSENCE = (
    "BUG: a deadline that cuts the window probes reports an existing window as absent: "
    "WINDOW_NOT_FOUND %r (snapshot %s --timeout-ms %d) instead of TIMEOUT; "
    "ad_atspi_list_windows drops a window whose role/state probes did not answer, and "
    "ad_window_select / ad_atspi_window_lookup then claim 'has no window' / 'No window has "
    "id' (atspi_apps.c says an app that does not answer is skipped, never absent)")


def test_deadline_cut_reads_are_reported_honestly(cli, widget_factory_app):
    """Across budgets from 1 ms up to a complete read, a cut read is TIMEOUT or a marked
    partial tree: never an absent window, never an invented root."""
    win = widget_factory_app.window()
    wid = cli.ok("list-windows", "--app", "gtk3-widget-factory")[0]["id"]
    bugs = []
    partials = 0
    for selector in (["--window-id", wid], ["--app", "gtk3-widget-factory"]):
        for budget in range(1, 41):
            complete = False
            for _ in range(3):
                code, env = cli.run("snapshot", *selector, "--timeout-ms", str(budget))
                if not env["ok"]:
                    if env["error"]["code"] == "WINDOW_NOT_FOUND":
                        bugs.append(BUG_FALSE_ABSENCE % (env["error"]["message"],
                                                         " ".join(selector), budget))
                        continue
                    assert env["error"]["code"] == "TIMEOUT", env["error"]
                    continue
                data = env["data"]
                if data["complete"]:
                    complete = True
                    break
                partials += 1
                assert data["truncated"] is True and data["identity_unproven"] is True
                root = data["tree"]
                if (root["role"] == "unknown" and not root.get("read_failed")) or \
                        (data["nodes_observed"] == 0 and not root.get("subtree_truncated")):
                    bugs.append(BUG_EMPTY_ROOT % json.dumps(root))
            if complete:
                break
    # The window was there all along.
    assert obs.read(win).name == obs.read(widget_factory_app.window()).name
    assert wid in [w["id"] for w in cli.ok("list-windows", "--app", "gtk3-widget-factory")]
    assert not bugs, " | ".join(sorted(set(bugs)))
    assert partials > 0, "no budget up to 40 ms cut the read"


def test_refmap_is_private(cli, state_home, fixture_app):
    data = snapshot(cli, "--skeleton")
    path = refmap_path(state_home, data["snapshot_id"])
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    for d in (os.path.dirname(path), os.path.dirname(os.path.dirname(path)), state_home):
        assert stat.S_IMODE(os.stat(d).st_mode) == 0o700, d
    latest = os.path.join(state_home, "latest_snapshot_id")
    assert stat.S_IMODE(os.stat(latest).st_mode) == 0o600
    with open(latest) as f:
        assert f.read().strip() == data["snapshot_id"]
