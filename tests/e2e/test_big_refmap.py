"""A snapshot of a big window fits its refmap (issue 12, item 4; snapshots-and-refs.md, "Where
refs are stored": one ref map within 1,048,576 bytes), up to a 50,000-node window read whole.

ad-bench-synthetic with 20,000 nodes exposes ~9,800 buttons, each a ref. Written as JSON
(~160 bytes per ref) that refmap passed the 1 MiB limit and the snapshot failed with
INTERNAL; the compact format 2 (src/core/refmap_codec.h) stores it in ~11 bytes per ref.
The saved file is read back by an independent decoder (refmap_format.py), and a click on a
ref deep in the window reaches exactly that button: the app's own title says so (pyatspi).
"""
import os

import pytest

import atspi_observer as obs
from e2e_helpers import REPO_ROOT, launch, load_refmap, nodes, refmap_path, stop_process

NODES = 20000
LIMIT = 1048576
# The synthetic app's own answer to one whole read costs it seconds at 50,000 nodes: every
# command here gets a deadline a loaded machine can meet.
SCALE_NODES = 50000
SCALE_TIMEOUT_MS = "600000"


def _synthetic_app(nodes):
    """A fixture: ad-bench-synthetic with `nodes` nodes, stopped by pid afterwards."""
    @pytest.fixture
    def app(app_tmp):
        exe = REPO_ROOT / "build" / "bench" / "ad-bench-synthetic"
        if not exe.exists():
            pytest.skip("%s is not built" % exe)
        inst = launch([str(exe), str(nodes)], "ad-bench-synthetic", log_dir=app_tmp,
                      ready=lambda w: w.childCount > 0, timeout=600.0)
        try:
            yield inst
        finally:
            stop_process(inst.popen)
    return app


huge_app = _synthetic_app(NODES)
scale_app = _synthetic_app(SCALE_NODES)


def _frame(pid):
    return obs.window_for_pid(pid)


def _title(pid):
    """The window's title, or None while the busy app's window is not found (under load the
    registry read may miss it for a moment)."""
    frame = _frame(pid)
    return frame.name if frame is not None else None


def _named_below(acc, name):
    """The element named `name` among the few containers above the synthetic app's grid
    (breadth first, never into the grid's rows)."""
    level = [acc]
    for _ in range(6):
        below = []
        for a in level:
            for i in range(a.childCount):
                c = a.getChildAtIndex(i)
                if c.name == name:
                    return c
                if c.childCount < 8:
                    below.append(c)
        level = below
    raise AssertionError("no %r below the frame" % name)


def test_a_big_window_snapshots_and_a_deep_ref_clicks(cli, state_home, huge_app):
    data = cli.ok("snapshot", "--app", "ad-bench-synthetic", "--max-depth", "50",
                  "--timeout-ms", "120000", timeout=180)
    assert data["complete"] is True, {k: v for k, v in data.items() if k != "tree"}
    refs = [n for n in nodes(data["tree"]) if "ref_id" in n]
    assert data["ref_count"] == len(refs) and len(refs) > 9000, data["ref_count"]
    buttons = [n for n in refs if n.get("role") == "button"]

    path = refmap_path(state_home, data["snapshot_id"])
    size = os.path.getsize(path)
    assert size <= LIMIT and size / data["ref_count"] < 20, (size, data["ref_count"])
    refmap = load_refmap(state_home, data["snapshot_id"])
    assert len(refmap["refs"]) == data["ref_count"]

    frame = obs.wait_for_window(huge_app.pid, timeout=60.0)
    assert frame.name == "AD Synthetic"
    # The button with the highest ref number inside the window (one past the visible rows is
    # offscreen and refused as such): its saved bounds, decoded independently, say where.
    wx, wy, ww, wh = obs.extents(frame)

    def inside(n):
        b = refmap["refs"]["@e" + n["ref_id"].rsplit(":e", 1)[1]].get("bounds")
        return (b is not None and b["x"] >= wx and b["y"] >= wy and b["width"] > 0 and
                b["x"] + b["width"] <= wx + ww and b["y"] + b["height"] <= wy + wh)

    deep = [n for n in buttons if inside(n)][-1]
    key = "@e" + deep["ref_id"].rsplit(":e", 1)[1]
    assert refmap["refs"][key]["name"] == deep["name"] and refmap["refs"][key]["role"] == "button"
    assert int(key[2:]) > 1000, key  # deep in the map, not one of its first entries

    # Resolving re-reads the whole window (strict identity): give it a deadline the app can
    # meet on a loaded machine, as the snapshot has.
    cli.ok("click", deep["ref_id"], "--timeout-ms", "120000", timeout=180)
    want = "Clicked " + deep["name"]
    obs.wait_until(lambda: _title(huge_app.pid) == want, timeout=60.0,
                   what="the app's title to name the clicked button")


def _scroll_to_the_end(frame):
    """Moves both scroll bars of the synthetic app to their maximum through pyatspi's Value
    (GTK3's GtkRange), so the last row's last buttons are inside the window."""
    scroller = _named_below(frame, "Synthetic scroller")
    bars = [scroller.getChildAtIndex(i) for i in range(scroller.childCount)]
    bars = [b for b in bars if b.getRoleName() == "scroll bar"]
    assert len(bars) == 2, [b.getRoleName() for b in bars]
    for b in bars:
        v = b.queryValue()
        v.currentValue = v.maximumValue


@pytest.mark.scale
def test_a_50k_window_reads_whole_and_its_last_button_clicks(cli, state_home, scale_app):
    frame = obs.wait_for_window(scale_app.pid, timeout=60.0)
    grid = _named_below(frame, "Synthetic grid")
    last_row = grid.getChildAtIndex(grid.childCount - 1)
    last_button = last_row.getChildAtIndex(last_row.childCount - 1)
    assert last_button.getRoleName() == "push button", last_button.getRoleName()
    _scroll_to_the_end(frame)
    wx, wy, ww, wh = obs.extents(frame)

    def in_view():
        x, y, w, h = obs.extents(last_button)
        return x >= wx and y >= wy and w > 0 and x + w <= wx + ww and y + h <= wy + wh

    obs.wait_until(in_view, timeout=60.0, what="the last button to scroll into the window")

    data = cli.ok("snapshot", "--app", "ad-bench-synthetic", "--max-depth", "50",
                  "--timeout-ms", SCALE_TIMEOUT_MS, timeout=900)
    assert data["complete"] is True, {k: v for k, v in data.items() if k != "tree"}
    shown = nodes(data["tree"])
    assert len(shown) > 49000, len(shown)
    refs = [n for n in shown if "ref_id" in n]
    assert data["ref_count"] == len(refs) and len(refs) > 24000, data["ref_count"]

    # The refmap, read back by the independent decoder: within the limit, compact, every ref.
    path = refmap_path(state_home, data["snapshot_id"])
    size = os.path.getsize(path)
    assert size <= LIMIT and size / data["ref_count"] < 20, (size, data["ref_count"])
    refmap = load_refmap(state_home, data["snapshot_id"])
    assert len(refmap["refs"]) == data["ref_count"]

    # The last button of the tree (the last row's last child, as pyatspi names it) has one of
    # the last refs of the map; a click resolves it strictly against a fresh whole read and
    # reaches exactly that button: the app's title says so.
    last = [n for n in refs if n.get("role") == "button"][-1]
    assert last["name"] == last_button.name, (last["name"], last_button.name)
    number = int(last["ref_id"].rsplit(":e", 1)[1])
    assert number > data["ref_count"] - 5, (number, data["ref_count"])
    assert refmap["refs"]["@e%d" % number]["name"] == last["name"]
    cli.ok("click", last["ref_id"], "--timeout-ms", SCALE_TIMEOUT_MS, timeout=900)
    want = "Clicked " + last["name"]
    obs.wait_until(lambda: _title(scale_app.pid) == want, timeout=60.0,
                   what="the app's title to name the clicked button")
