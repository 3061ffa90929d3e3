"""A refmap is untrusted input (snapshots-and-refs.md, "What a ref stores"): an entry edited
to point at another app's window, with a malformed or a wrong process id, is refused, and
that app's state (its own state line and pyatspi) does not change. The other app is a second
ad-fixture process with identical elements, so only the process identity tells them apart."""
import json
import os

import pytest

import atspi_observer as obs
from action_helpers import expect_count, need_state
from e2e_helpers import expect_error, launch, load_refmap, refmap_path, stop_process


def _ready(window):
    return obs.by_id(window, "status_label") is not None


@pytest.fixture(scope="module")
def other_fixture(fixture_app, fixture_bin, app_tmp):
    state_file = os.path.join(app_tmp, "other-fixture-state.json")
    inst = launch([fixture_bin], "ad-fixture-other", ready=_ready, log_dir=app_tmp,
                  extra_env={"AD_FIXTURE_STATE_FILE": state_file})
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def _window_id(cli, pid):
    rows = cli.ok("list-windows", "--app", "ad-fixture")
    ids = [w["id"] for w in rows if w["pid"] == pid]
    assert len(ids) == 1, rows
    return ids[0]


def _inc_ref(cli, window_id):
    data = cli.ok("find", "--window-id", window_id, "--native-id", "inc_button", "--exact",
                  "--first")
    return data["match"]["ref_id"]


def _count_label(app):
    """The other app's counter as pyatspi reads it (independent of agent-desktop)."""
    label = obs.by_id(app.window(), "count_label")
    return obs.text_of(label) if label is not None else None


@pytest.mark.parametrize("pid", [0, -1, "4242", 2 ** 63 - 1, 2 ** 32 + 1, "real"],
                         ids=["zero", "minus-one", "string", "int64-max", "wraps", "real"])
def test_a_refmap_entry_redirected_to_another_app_is_refused(cli, state_home, fixture_app,
                                                             other_fixture, pid):
    mine = _window_id(cli, fixture_app.pid)
    theirs = _window_id(cli, other_fixture.pid)
    target = _inc_ref(cli, mine)
    snapshot_id = target[1:target.index(":")]
    refmap = load_refmap(state_home, snapshot_id)
    refmap["source"]["source_window_id"] = theirs
    if pid != "real":  # "real": keep this app's own, valid pid
        refmap["source"]["pid"] = pid
    with open(refmap_path(state_home, snapshot_id), "w", encoding="utf-8") as f:
        json.dump(refmap, f)

    theirs_before = need_state(other_fixture)
    label_before = _count_label(other_fixture)
    mine_before = need_state(fixture_app)
    if pid == "real":
        # A valid pid of another process than the window's: the process check refuses it.
        expect_error(cli.run("click", target), "STALE_REF")
    else:
        expect_error(cli.run("click", target), "SNAPSHOT_NOT_FOUND", kind="refmap_invalid")

    # Ordering canary: a genuine click on this app's own window lands ...
    cli.ok("click", _inc_ref(cli, mine))
    expect_count(fixture_app, mine_before["count"] + 1)
    # ... and by then the other app was never clicked.
    after = other_fixture.state()
    assert after["count"] == theirs_before["count"], after
    assert _count_label(other_fixture) == label_before
