"""batch against ad-fixture (commands/batch.md): a click and the wait --event whose baseline
batch reads before the click, a STALE_REF entry in the middle with and without
--stop-on-error, the CLI example of the spec, and a rejected batch (a nested batch after a
valid click) that runs nothing. Effects are read from the fixture's state line and pyatspi;
"nothing ran" is proven with an ordering canary, never with a sleep."""
import json
import time

import pytest

import atspi_observer as obs
from action_helpers import (DIALOG_TITLE, FIXTURE, NOT_DELIVERED, clean_fixture,  # noqa: F401
                            dialog_window, need_state, ref, wait_state)
from e2e_helpers import expect_error

pytestmark = pytest.mark.usefixtures("clean_fixture")


def _batch(cli, entries, *flags):
    code, env = cli.run("batch", json.dumps(entries), *flags)
    assert code == 0 and env["ok"], env
    return env["data"]


def _click(ref_id):
    return {"command": "click", "args": {"ref_id": ref_id, "timeout_ms": 0}}


def test_click_then_wait_event_reads_the_baseline_first(cli, fixture_app):
    need_state(fixture_app)
    assert dialog_window(fixture_app) is None
    data = _batch(cli, [
        _click(ref(cli, "open_dialog_button")),
        {"command": "wait", "args": {"event": "window-opened", "app": "ad-fixture",
                                     "window": DIALOG_TITLE, "timeout": 20000}},
    ], "--stop-on-error")
    assert data["completed_entries"] == 2 and data["not_started_entries"] == 0, data
    click, wait = data["results"]
    assert click["ok"] and click["index"] == 0 and click["execution"] == "completed", click
    assert wait["ok"], wait
    event = wait["data"]["event"]
    assert event["kind"] == "window_opened" and event["title"] == DIALOG_TITLE
    assert event["pid"] == fixture_app.pid
    # Independently: the dialog is there, and it is the window the event named.
    wait_state(fixture_app, lambda s: s["dialog_open"], "the dialog to open")
    assert dialog_window(fixture_app) is not None
    dialogs = [w for w in cli.ok("list-windows", *FIXTURE) if w["title"] == DIALOG_TITLE]
    assert [w["id"] for w in dialogs] == [event["window_id"]]


def _stale(ref_id):
    """A qualified ref of the same snapshot that names no element."""
    return ref_id.rsplit(":", 1)[0] + ":e99999"


@pytest.mark.parametrize("stop_on_error", [False, True])
def test_stale_ref_in_the_middle(cli, fixture_app, stop_on_error):
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    flags = ["--stop-on-error"] if stop_on_error else []
    data = _batch(cli, [_click(inc), _click(_stale(inc)), _click(inc)], *flags)
    rows = data["results"]
    assert rows[0]["ok"], rows[0]
    assert rows[1]["ok"] is False and rows[1]["execution"] == "completed", rows[1]
    assert rows[1]["error"]["code"] == "STALE_REF"
    assert rows[1]["error"]["disposition"] == NOT_DELIVERED
    want = 1 if stop_on_error else 2
    wait_state(fixture_app, lambda s: s["count"] >= before["count"] + want, "the clicks")
    if stop_on_error:
        assert len(rows) == 2 and data["stopped"] == {"index": 1, "reason": "stop_on_error"}
        assert data["completed_entries"] == 2 and data["not_started_entries"] == 1
    else:
        assert len(rows) == 3 and rows[2]["ok"] and "stopped" not in data, data
        assert data["completed_entries"] == 3 and data["not_started_entries"] == 0
    # The canary: a known click after the batch; once it shows, a third click would have too.
    obs.do_action(obs.by_id(fixture_app.window(), "deep_button"), "click")
    state = wait_state(fixture_app, lambda s: s["deep_clicks"] == before["deep_clicks"] + 1,
                       "the canary click")
    assert state["count"] == before["count"] + want, state


def test_cli_example_of_the_spec(cli):
    started = time.monotonic()
    data = _batch(cli, [{"command": "version"}, {"command": "wait", "args": {"ms": 100}}],
                  "--stop-on-error")
    assert time.monotonic() - started >= 0.1
    version, wait = data["results"]
    assert version["command"] == "version" and version["data"]["os"] == "linux"
    assert version["version"] == "2.6" and version["index"] == 0
    assert wait["data"] == {"waited_ms": 100} and wait["index"] == 1
    assert data["total_entries"] == 2 and data["completed_entries"] == 2
    assert data["not_started_entries"] == 0 and data["timeout_ms"] == 60000
    assert data["limits"] == {"max_entries": 64, "max_input_bytes": 1048576,
                              "max_output_bytes": 4194304}
    assert data["semantics"] == {
        "atomic": False, "batch_retries": False, "command_retry_contracts": "preserved",
        "error_disposition": "error.disposition", "order": "sequential",
        "successful_action_disposition": "data.disposition"}


def test_nested_batch_is_refused_with_nothing_run(cli, fixture_app):
    before = need_state(fixture_app)
    entries = [_click(ref(cli, "inc_button")),
               {"command": "batch", "args": {"json": "[]"}}]
    err = expect_error(cli.run("batch", json.dumps(entries)), "INVALID_ARGS")
    assert err["message"] == ("Batch entry 1 ('batch') failed validation: Batch commands "
                              "cannot be nested"), err
    assert err["details"] == {"batch_index": 1, "batch_command": "batch"}
    assert err["disposition"] == NOT_DELIVERED
    # The ordering canary: once its click shows, the batch's click would have shown too.
    obs.do_action(obs.by_id(fixture_app.window(), "deep_button"), "click")
    state = wait_state(fixture_app, lambda s: s["deep_clicks"] == before["deep_clicks"] + 1,
                       "the canary click")
    assert state["count"] == before["count"], "the rejected batch clicked: %r" % state


def test_budget_ends_a_long_wait(cli):
    started = time.monotonic()
    data = _batch(cli, [{"command": "wait", "args": {"ms": 100000}}, {"command": "version"}],
                  "--timeout-ms", "1000")
    took = time.monotonic() - started
    assert 1.0 <= took < 30.0, took
    assert data["results"][0]["error"]["code"] == "TIMEOUT"
    assert data["results"][1]["not_started_reason"] == "deadline"
    assert data["stopped"] == {"index": 1, "reason": "deadline"}


def test_trace_file_receives_every_entry(cli, tmp_path):
    """--trace PATH on a batch: the file holds the batch's command.start and command.end with
    each entry's own command.start / command.end between them, as a session trace nests."""
    path = tmp_path / "batch.jsonl"
    _batch(cli, [{"command": "version"}, {"command": "wait", "args": {"ms": 1}}],
           "--trace", str(path))
    events = [json.loads(line) for line in path.read_text().splitlines()]
    seen = [(e["event"], e.get("command")) for e in events if e["event"].startswith("command.")]
    assert seen == [("command.start", "batch"), ("command.start", "version"),
                    ("command.end", "version"), ("command.start", "wait"),
                    ("command.end", "wait"), ("command.end", "batch")], seen
    assert (path.stat().st_mode & 0o777) == 0o600
