"""A snapshot of a big window fits its refmap (issue 12, item 4; snapshots-and-refs.md, "Where
refs are stored": one ref map within 1,048,576 bytes).

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


@pytest.fixture
def huge_app(app_tmp):
    exe = REPO_ROOT / "build" / "bench" / "ad-bench-synthetic"
    if not exe.exists():
        pytest.skip("%s is not built" % exe)
    inst = launch([str(exe), str(NODES)], "ad-bench-synthetic", log_dir=app_tmp,
                  ready=lambda w: w.childCount > 0, timeout=120.0)
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def _frame(pid):
    return obs.window_for_pid(pid)


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

    frame = _frame(huge_app.pid)
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
    obs.wait_until(lambda: _frame(huge_app.pid).name == want, timeout=30.0,
                   what="the app's title to name the clicked button")
