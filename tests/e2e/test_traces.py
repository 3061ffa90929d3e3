"""Traces (guides/traces.md, commands/system.md#trace, configuration.md --trace and
--trace-strict) against ad-fixture: the session's segments read directly from disk (each line
parsed, seq per segment, private modes), trace show's counts and filters checked against
those files, --trace PATH, a secret typed into the password field absent from every trace
byte, eight concurrent writers, and the exported viewer opened in headless Chromium (a
screenshot that is not blank, a DOM dump that holds every event).

The session directory and its manifest are made here (make_session), in the format the
session engineer's `session start` writes, so these tests do not depend on that command."""
import json
import os
import shutil
import stat
import struct
import subprocess
import tempfile
import zlib
from concurrent.futures import ThreadPoolExecutor

import pytest

import atspi_observer as obs
from action_helpers import FIXTURE_PASSWORD, need_state, ref, wait_state
from e2e_helpers import canary, expect_error, fixture_reset

FIXTURE = ["--app", "ad-fixture"]
_counter = [0]


@pytest.fixture(autouse=True)
def _clean_fixture(fixture_app):
    fixture_reset(fixture_app)
    yield
    fixture_reset(fixture_app)


def make_session(state_home, trace="on"):
    """A session directory with a manifest (sessions.md), as `session start` writes it."""
    _counter[0] += 1
    sid = "run-e2e-traces-%d-%d" % (os.getpid(), _counter[0])
    sessions = os.path.join(state_home, "sessions")
    os.makedirs(sessions, mode=0o700, exist_ok=True)
    os.mkdir(os.path.join(sessions, sid), 0o700)
    manifest = {"schema": 1, "session_id": sid, "name": None, "created_at": 1,
                "ended_at": None, "trace": trace, "artifacts": "events",
                "screenshots": False, "cursor": False, "multi_agent": False}
    fd = os.open(os.path.join(sessions, sid, "session.json"),
                 os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(manifest, f)
    return sid


def trace_dir(state_home, sid):
    return os.path.join(state_home, "sessions", sid, "trace")


def read_segments(state_home, sid):
    """{segment name: [event, ...]} read straight from the files; every line must parse."""
    out = {}
    d = trace_dir(state_home, sid)
    if not os.path.isdir(d):
        return out
    for name in sorted(os.listdir(d)):
        if not name.endswith(".jsonl"):
            continue
        path = os.path.join(d, name)
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o600, path
        with open(path, "rb") as f:
            data = f.read()
        assert data.endswith(b"\n"), "%s ends in a torn line" % path
        out[name[:-len(".jsonl")]] = [json.loads(line) for line in data.splitlines()]
    return out


def check_segment(name, events):
    """A segment starts with trace.meta and numbers its lines 0, 1, 2, ..."""
    assert events[0]["event"] == "trace.meta", events[0]
    assert events[0]["schema"] == 1 and events[0]["os"] == "linux"
    assert [e["seq"] for e in events] == list(range(len(events))), name
    pid, start = name.split("-")
    for e in events:
        assert e["segment"] == name
        assert e["writer_pid"] == int(pid) and e["writer_proc_start_ms"] == int(start)
    ts = [e["ts_ms"] for e in events]
    assert ts == sorted(ts), name


def all_bytes(state_home, sid):
    d = trace_dir(state_home, sid)
    blob = b""
    for name in os.listdir(d):
        with open(os.path.join(d, name), "rb") as f:
            blob += f.read()
    return blob


def test_session_trace_and_show_counts(cli, state_home, fixture_app):
    before = need_state(fixture_app)
    sid = make_session(state_home)
    s = ["--session", sid]
    assert cli.ok("status", *s)["tracing"] is True
    snap = cli.ok("snapshot", *FIXTURE, "-i", *s)
    inc = cli.ok("find", *FIXTURE, "--native-id", "inc_button", "--exact", "--first",
                 *s)["match"]["ref_id"]
    cli.ok("click", inc, *s)
    # The click happened once: the fixture's own state says so.
    wait_state(fixture_app, lambda st: st["count"] == before["count"] + 1, "one increment")

    d = trace_dir(state_home, sid)
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
    segments = read_segments(state_home, sid)
    assert len(segments) == 4  # one per process
    for name, events in segments.items():
        check_segment(name, events)
    flat = [e for events in segments.values() for e in events]
    names = [e["event"] for e in flat]
    for want in ("snapshot.saved", "locator.resolve", "ref.resolve.ok",
                 "actionability.check.ok"):
        assert want in names, want
    saved = [e for e in flat if e["event"] == "snapshot.saved"][0]
    assert saved["snapshot_id"] == snap["snapshot_id"] and saved["app"] == "ad-fixture"
    ends = {e["command"]: e for e in flat if e["event"] == "command.end"}
    assert set(ends) == {"status", "snapshot", "find", "click"}
    assert all(e["ok"] is True and isinstance(e["duration_ms"], int) for e in ends.values())

    shown = cli.ok("trace", "show", "--limit", "0", *s)
    # Everything on disk, plus this show's own trace.meta and command.start.
    assert shown["session_id"] == sid
    assert shown["segments"] == 5
    assert shown["total_events"] == len(flat) + 2
    assert shown["returned_events"] == shown["total_events"]
    assert shown["truncated"] is False and "warnings" not in shown
    merged = [(e["segment"], e["seq"]) for e in shown["events"]]
    assert set(merged) >= {(e["segment"], e["seq"]) for e in flat}
    # One timeline: the commands in the order they ran.
    order = [e["command"] for e in shown["events"] if e["event"] == "command.start"]
    assert order == ["status", "snapshot", "find", "click", "trace"]


def test_show_event_prefix_and_limit(cli, state_home, fixture_app):
    sid = make_session(state_home)
    s = ["--session", sid]
    for _ in range(3):
        cli.ok("find", *FIXTURE, "--role", "button", "--count", *s)
    on_disk = [e for events in read_segments(state_home, sid).values() for e in events]
    ends = sorted((e for e in on_disk if e["event"] == "command.end"),
                  key=lambda e: (e["ts_ms"], e["segment"], e["seq"]))
    shown = cli.ok("trace", "show", "--event", "command.end", "--limit", "2", *s)
    assert shown["matched_events"] == len(ends) == 3
    assert shown["returned_events"] == 2 and shown["truncated"] is True
    assert [e["event"] for e in shown["events"]] == ["command.end"] * 2
    # The last two: the limit applies after the prefix.
    assert [(e["segment"], e["seq"]) for e in shown["events"]] == \
        [(e["segment"], e["seq"]) for e in ends[-2:]]
    assert cli.ok("trace", "show", *s)["returned_events"] <= 500


def test_trace_needs_a_session_that_recorded(cli, state_home):
    expect_error(cli.run("trace", "show"), "INVALID_ARGS")
    sid = make_session(state_home, trace="off")
    expect_error(cli.run("trace", "show", "--session", sid), "INVALID_ARGS")
    assert not os.path.exists(trace_dir(state_home, sid))
    assert cli.ok("status", "--session", sid)["tracing"] is False
    fresh = make_session(state_home)
    expect_error(cli.run("trace", "export", "--session", fresh), "INVALID_ARGS")


def test_trace_path_gets_the_events_not_the_session(cli, state_home, fixture_app, tmp_path):
    sid = make_session(state_home)
    cli.ok("status", "--session", sid)
    before = read_segments(state_home, sid)
    path = str(tmp_path / "run.jsonl")
    cli.ok("--trace", path, "find", *FIXTURE, "--role", "button", "--count",
           "--session", sid)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    with open(path) as f:
        events = [json.loads(line) for line in f]
    check_segment(events[0]["segment"], events)
    assert [e["event"] for e in events] == ["trace.meta", "command.start", "locator.resolve",
                                           "command.end"]
    assert events[1]["args"]["app"] == "ad-fixture"
    assert read_segments(state_home, sid) == before  # the session's trace received nothing


def test_trace_strict_fails_before_the_action(cli, state_home, fixture_app, tmp_path):
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    expect_error(cli.run("--trace-strict", "click", inc), "INVALID_ARGS")
    # A trace file that cannot be opened (its path is a directory): refused, nothing sent.
    code, env = cli.run("--trace", str(tmp_path), "--trace-strict", "click", inc)
    expect_error((code, env), "INTERNAL")
    assert env["error"]["details"]["kind"] == "trace_unavailable"
    # Ordering canary: every earlier input has been handled, and the count did not move.
    assert canary(fixture_app)["count"] == before["count"]
    # Without --trace-strict the same trace failure does not stop the click.
    cli.ok("--trace", str(tmp_path), "click", inc)
    wait_state(fixture_app, lambda st: st["count"] == before["count"] + 1, "one increment")


def test_secret_never_reaches_the_trace(cli, state_home, fixture_app):
    need_state(fixture_app)
    sid = make_session(state_home)
    s = ["--session", sid]
    secret = "Quokka-tr4ce-%d" % os.getpid()
    cli.ok("snapshot", *FIXTURE, *s)  # the password field's start text is in this tree
    pw = cli.ok("find", *FIXTURE, "--native-id", "password_entry", "--exact", "--first",
                *s)["match"]["ref_id"]
    cli.ok("set-value", pw, secret, *s)
    wait_state(fixture_app, lambda st: st["password_length"] == len(secret), "the new password")
    cli.ok("type", pw, secret + "x", *s)
    wait_state(fixture_app, lambda st: st["password_length"] == 2 * len(secret) + 1,
               "the typed password")
    blob = all_bytes(state_home, sid)
    assert b"set-value" in blob and b"redacted" in blob
    for s_ in (secret, FIXTURE_PASSWORD):
        assert s_.encode() not in blob
    obs.set_text(obs.by_id(fixture_app.window(), "password_entry"), FIXTURE_PASSWORD)


def _run_many(cli, argv_list):
    with ThreadPoolExecutor(max_workers=len(argv_list)) as pool:
        return list(pool.map(lambda a: cli.run(*a), argv_list))


def test_eight_concurrent_writers(cli, state_home, fixture_app, tmp_path):
    sid = make_session(state_home)
    path = str(tmp_path / "shared.jsonl")
    # Sixteen reads at once on a loaded 2-core machine can outlast find's 5 s default; the
    # test is about the writers, so the reads get a budget they cannot run out of.
    find = ("find", *FIXTURE, "--role", "button", "--count", "--timeout-ms", "120000")
    argv = [(*find, "--session", sid)] * 8
    argv += [("--trace", path, *find)] * 8
    results = _run_many(cli, argv)
    assert all(env["ok"] for _, env in results), results
    segments = read_segments(state_home, sid)
    assert len(segments) == 8
    for name, events in segments.items():
        check_segment(name, events)
        assert [e["event"] for e in events] == ["trace.meta", "command.start",
                                               "locator.resolve", "command.end"]
    # Eight processes appending to one --trace file: every line whole, four per process.
    with open(path, "rb") as f:
        lines = f.read().splitlines()
    events = [json.loads(line) for line in lines]
    by_writer = {}
    for e in events:
        by_writer.setdefault(e["segment"], []).append(e)
    assert len(by_writer) == 8 and all(len(v) == 4 for v in by_writer.values())
    for name, evs in by_writer.items():
        check_segment(name, evs)
    shown = cli.ok("trace", "show", "--limit", "0", "--session", sid)
    assert shown["total_events"] == 8 * 4 + 2 and "warnings" not in shown


# ---- the exported viewer in a real browser -------------------------------------------------


def _png_pixels(path):
    """(width, height, channels, rows of bytes) of an 8-bit RGB/RGBA PNG, unfiltered."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b, c = prev[i], prev[i - channels] if i >= channels else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, channels, rows


def _chromium(args, profile, timeout=90):
    exe = shutil.which("chromium")
    if not exe:
        pytest.skip("chromium is not installed (scripts/install-deps.sh installs it)")
    # As root (CI containers) Chromium refuses to start with its sandbox.
    argv = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--no-first-run", "--user-data-dir=" + profile, "--window-size=1280,1000", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


def test_export_renders_in_chromium(cli, state_home, fixture_app, tmp_path):
    sid = make_session(state_home)
    s = ["--session", sid]
    cli.ok("snapshot", *FIXTURE, "-i", *s)
    cli.ok("find", *FIXTURE, "--role", "button", "--count", *s)
    expect_error(cli.run("click", "@s0000000:e1", *s), "SNAPSHOT_NOT_FOUND")
    out = str(tmp_path / "run.html")
    data = cli.ok("trace", "export", "--out", out, "--limit", "0", *s)
    assert data["path"] == out and data["bytes"] == os.path.getsize(out)
    assert data["event_count"] == data["returned_events"] == data["total_events"]
    assert data["truncated"] is False and data["screenshots_embedded"] == 0
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    html = open(out, encoding="utf-8").read()
    # Self-contained: nothing to fetch.
    for needle in ("http://", "https://", "<script src", "<link"):
        assert needle not in html, needle
    # --out never replaces a file.
    expect_error(cli.run("trace", "export", "--out", out, *s), "INVALID_ARGS")
    # The default path: trace-<session>.html in the session directory.
    default = cli.ok("trace", "export", *s)["path"]
    assert default == os.path.join(state_home, "sessions", sid, "trace-%s.html" % sid)
    assert stat.S_IMODE(os.stat(default).st_mode) == 0o600

    # What the first export embedded: the three commands' segments and its own first two
    # lines (trace.meta, command.start); the later exports ran after it.
    segments = read_segments(state_home, sid)
    embedded = []
    for events in segments.values():
        start = events[1]
        if start["command"] != "trace":
            embedded += events
        elif start.get("args", {}).get("out") == out and start["args"].get("limit") == 0:
            embedded += events[:2]
    assert len(embedded) == data["event_count"]
    profile = tempfile.mkdtemp(prefix="ad-e2e-trace-chromium-")
    try:
        dom = _chromium(["--dump-dom", "file://" + out], profile)
        assert dom.returncode == 0, dom.stderr[-2000:]
        png = os.environ.get("AD_TRACE_SHOT") or str(tmp_path / "shot.png")
        shot = _chromium(["--screenshot=" + png, "file://" + out], profile)
        assert shot.returncode == 0 and os.path.exists(png), shot.stderr[-2000:]
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    # Every event the export held is a row.
    for e in embedded:
        row = 'data-seq="%d" data-event="%s" data-segment="%s"' % (e["seq"], e["event"],
                                                                     e["segment"])
        assert row in dom.stdout, row
    assert dom.stdout.count('<tr class="ev') == data["event_count"]
    # The script ran: the shown count is filled in.
    assert '<span id="shown">%d</span>' % data["event_count"] in dom.stdout
    assert "SNAPSHOT_NOT_FOUND" in dom.stdout and "snapshot.saved" in dom.stdout
    # The failed resolution shows its code too, not only the failed command.
    assert dom.stdout.count("error SNAPSHOT_NOT_FOUND") == 3  # commands, command.end, ref
    # The page is drawn: many distinct colours and a real spread of brightness.
    width, height, channels, rows = _png_pixels(png)
    assert (width, height) == (1280, 1000)
    colours, lum = set(), []
    for y in range(0, height, 4):
        row = rows[y]
        for x in range(0, width * channels, channels * 4):
            px = row[x:x + 3]
            colours.add(px)
            lum.append(sum(px) / 3)
    mean = sum(lum) / len(lum)
    variance = sum((v - mean) ** 2 for v in lum) / len(lum)
    assert len(colours) > 20 and variance > 50, (len(colours), variance)


def test_session_start_traces_until_the_session_ends(cli, state_home, fixture_app):
    """With the real `session start` and `session end` (sessions.md): the new session traces,
    its end is recorded, and once sealed a repeated `session end` writes nothing."""
    sid = cli.ok("session", "start", "--name", "trace-e2e")["session_id"]
    s = ["--session", sid]
    assert cli.ok("status", *s)["tracing"] is True
    cli.ok("find", *FIXTURE, "--role", "button", "--count", *s)
    shown = cli.ok("trace", "show", "--event", "command.end", *s)
    assert [e["command"] for e in shown["events"]] == ["status", "find"]
    cli.ok("session", "end", *s)
    sealed = read_segments(state_home, sid)
    ends = [e for events in sealed.values() for e in events if e["event"] == "command.end"]
    assert ends[-1]["command"] == "session" and ends[-1]["ok"] is True
    cli.ok("session", "end", *s)  # ending again succeeds, and records nothing
    assert read_segments(state_home, sid) == sealed
    code, env = cli.run("trace", "show", *s)
    expect_error((code, env), "INVALID_ARGS")
    assert env["error"]["details"]["kind"] == "session_ended"
