"""AccessibleId is asked only where it can change a result (identity.c, rule 8; issue 12).

What goes over the wire is read independently: the agent-desktop process runs under strace
and every D-Bus message it sends (sendmsg/writev, the bus and the direct connection to a GTK 3
app alike) is counted, with the ones that ask for AccessibleId. What the app holds is read
with pyatspi. A snapshot still shows every id the app sets (snapshots-and-refs.md: a node
carries native_id when it exists), a GTK 4.8 app is never asked (its AccessibleId is a
constant ""), and an action asks only the nodes that may carry its ref's identity."""
import atspi_observer as obs
from action_helpers import FIXTURE, expect_count, need_state
from e2e_helpers import find_node, native_id, nodes, traced_lines

CALC = ("--app", "gnome-calculator")


def traced(cli, *args):
    """Runs one command under strace; returns (data, messages sent, AccessibleId asks)."""
    envelope, lines = traced_lines(cli, "sendmsg,writev", *args)
    assert envelope["ok"], envelope["error"]
    lines = [line for line in lines if "sendmsg(" in line or "writev(" in line]
    return envelope["data"], len(lines), sum("AccessibleId" in line for line in lines)


def test_gtk3_snapshot_still_shows_every_id(cli, fixture_app):
    """GTK 3's atk-bridge answers what the app set: every node is asked, every id shown."""
    window = fixture_app.window()
    data, _, asked = traced(cli, "snapshot", *FIXTURE)
    shown = {native_id(n) for n in nodes(data["tree"])} - {None}
    live = {o.accessible_id for o in obs.walk(window)} - {""}
    assert {"inc_button", "twin_row", "status_label"} <= shown
    assert shown == live
    assert asked >= len(live)


def test_a_click_asks_the_ids_of_its_candidates_only(cli, fixture_app):
    before = need_state(fixture_app)
    window = fixture_app.window()
    snap, _, snapshot_asked = traced(cli, "snapshot", *FIXTURE)
    inc = find_node(snap["tree"], native_id="inc_button")
    _, _, click_asked = traced(cli, "click", inc["ref_id"])
    expect_count(fixture_app, before["count"] + 1)
    # Only the live nodes of its role and name can carry its identity; a click reads the
    # window a few times (before and under the lease), each time asking only those.
    candidates = [o for o in obs.walk(window)
                  if obs.canonical_role(o.role) == inc["role"] and o.name == inc["name"]]
    assert len(candidates) == 1
    assert 1 <= click_asked <= 4 * len(candidates), click_asked
    assert snapshot_asked > 10 * click_asked


def test_a_wait_for_count_asks_no_ids(cli, fixture_app):
    """--wait-for counts selector matches, which compare no identity: the click with it asks
    no more ids than its own strict resolution plus the fresh snapshot it returns (bc663fe;
    the count used to read every node's id on each poll)."""
    before = need_state(fixture_app)
    snap = cli.ok("snapshot", *FIXTURE)
    inc = find_node(snap["tree"], native_id="inc_button")
    _, _, snapshot_asked = traced(cli, "snapshot", *FIXTURE)
    data, _, asked = traced(cli, "click", inc["ref_id"], "--wait-for", "button:Increment")
    expect_count(fixture_app, before["count"] + 1)
    assert data["snapshot_id"] != snap["snapshot_id"]  # the satisfied wait's fresh snapshot
    # The click's candidates (at most 4 asks, as above) plus the fresh snapshot, which shows
    # every id; a count that read ids would add a whole window's worth per poll.
    assert asked <= snapshot_asked + 4, (asked, snapshot_asked)


def test_twins_still_fail_closed(cli, fixture_app):
    """Ids are read for both twins at resolution time: the ref still cannot pick one, and
    neither twin is clicked."""
    before = need_state(fixture_app)
    snap = cli.ok("snapshot", *FIXTURE)
    twins = [n for n in find_node(snap["tree"], native_id="twin_row")["children"]
             if n.get("name") == "Twin"]
    assert len(twins) == 2
    assert all("ref_id" in t for t in twins)
    code, env = cli.run("click", twins[0]["ref_id"])
    assert not env["ok"] and env["error"]["code"] == "AMBIGUOUS_TARGET", env
    # The ordering canary: a known click lands, and only then is the twins' count read.
    inc = find_node(snap["tree"], native_id="inc_button")
    cli.ok("click", inc["ref_id"])
    expect_count(fixture_app, before["count"] + 1)
    assert fixture_app.state()["twin_clicks"] == before["twin_clicks"]


def test_gtk4_app_is_never_asked(cli, calculator_app):
    """GTK 4.8 answers AccessibleId with a constant "": no call is sent and no node shows an
    id, as when each one was asked."""
    window = obs.window_for_pid(calculator_app.pid)
    assert {o.accessible_id for o in obs.walk(window)} == {""}
    data, sent, asked = traced(cli, "snapshot", *CALC)
    assert asked == 0 and sent > 20
    assert all(native_id(n) is None for n in nodes(data["tree"]))
    assert any(n.get("ref_id") for n in nodes(data["tree"]))
