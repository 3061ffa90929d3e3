"""clipboard-get, clipboard-set, clipboard-clear on X11 (commands/clipboard.md), and the
per-user agent-desktop-linux-clipboard-owner that owns the selection after the command exits.

Every effect is read back by another X client: xclip (-o to read what we wrote, -i -quiet to
own the selection in the foreground, so the test has its pid), the fixture app pasting with
ctrl+v, and /proc and stat for the helper process and its socket."""
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time

import pytest

import atspi_observer as obs
from action_helpers import FIXTURE_TITLE, UNVERIFIED, activate, need_state, ref, wait_state
from e2e_helpers import (REPO_ROOT, expect_error, fixture_reset, helper_dir, helper_pid,
                         proc_state, stop_process)

pytestmark = pytest.mark.skipif(shutil.which("xclip") is None,
                                reason="xclip is needed (scripts/install-deps.sh)")

SET_REPORT = {
    "action": "clipboard-set",
    "disposition": UNVERIFIED,
    "steps": [{"label": "clipboard_write", "mechanism": "semantic_api",
               "outcome": "succeeded"}],
    "target": {"kind": "clipboard"},
}


def exited(pid):
    """Gone, or a zombie its new parent has not reaped yet: either way it runs no more."""
    return proc_state(pid) in (None, "Z", "X")


def wait_exited(pid, timeout=10.0):
    obs.wait_until(lambda: exited(pid), timeout=timeout, what="process %d to exit" % pid)


@pytest.fixture(autouse=True)
def stop_helper():
    """Every helper a test started is stopped by its pid when the test ends."""
    yield
    pid = helper_pid()
    if pid and not exited(pid):
        with open("/proc/%d/comm" % pid) as f:
            assert f.read().strip() == "agent-desktop-l", pid  # comm is cut at 15 bytes
        os.kill(pid, signal.SIGTERM)
        wait_exited(pid)


def xclip_out(target="UTF8_STRING"):
    """What another client reads from CLIPBOARD: bytes, or None when nobody serves it."""
    p = subprocess.run(["xclip", "-o", "-selection", "clipboard", "-t", target],
                       capture_output=True, timeout=30)
    return p.stdout if p.returncode == 0 else None


class XclipOwner:
    """xclip owning CLIPBOARD in the foreground (its pid is ours to stop)."""

    def __init__(self, data, target=None):
        args = ["xclip", "-i", "-quiet", "-selection", "clipboard"]
        if target:
            args += ["-t", target]
        self.popen = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL)
        self.popen.stdin.write(data)
        self.popen.stdin.close()
        # Owned once another client reads it back from xclip itself.
        obs.wait_until(lambda: xclip_out(target or "UTF8_STRING") == data, timeout=20,
                       what="xclip to own the clipboard")

    def stop(self):
        stop_process(self.popen)


def set_text(cli, text, *extra):
    data = cli.ok("clipboard-set", *extra, "--", text) if text.startswith("-") else \
        cli.ok("clipboard-set", *extra, text)
    return data


def test_set_text_is_served_by_the_helper_after_the_command(cli):
    data = cli.ok("clipboard-set", "héllo from agent-desktop")
    assert data == dict(SET_REPORT, type="text")
    assert xclip_out() == "héllo from agent-desktop".encode()
    assert cli.ok("clipboard-get") == {"text": "héllo from agent-desktop", "type": "text"}
    pid = helper_pid()
    assert pid and not exited(pid)


def test_stdin_keeps_every_byte_including_the_final_newline(cli):
    text = "line one\n\ttab\r\nlast line\n"
    p = subprocess.run([cli.binary, "clipboard-set", "--stdin"], input=text.encode(),
                       capture_output=True, env=cli.environment(), timeout=60)
    assert p.returncode == 0, p.stdout
    assert xclip_out() == text.encode()
    assert cli.ok("clipboard-get")["text"] == text


def test_empty_text_is_content_not_absence(cli):
    cli.ok("clipboard-set", "not empty")
    assert cli.ok("clipboard-set", "") == dict(SET_REPORT, type="text")
    assert xclip_out() == b""
    assert cli.ok("clipboard-get") == {"text": "", "type": "text"}


def test_stdin_with_image_is_refused_before_anything_changes(cli):
    cli.ok("clipboard-set", "before")
    png = os.path.join(tempfile.mkdtemp(), "a.png")
    subprocess.run(["convert", "-size", "4x4", "xc:blue", png], check=True, timeout=60)
    p = subprocess.run([cli.binary, "clipboard-set", "--stdin", "--image", png],
                       input=b"x", capture_output=True, env=cli.environment(), timeout=60)
    assert p.returncode == 1, p.stdout
    assert b'"code":"INVALID_ARGS"' in p.stdout
    assert xclip_out() == b"before"


def test_reads_text_another_client_copied(cli):
    owner = XclipOwner("copied by xclip ✓\n".encode())
    try:
        assert cli.ok("clipboard-get") == {"text": "copied by xclip ✓\n", "type": "text"}
        assert cli.ok("clipboard-get", "--format", "auto")["text"] == "copied by xclip ✓\n"
        assert cli.ok("clipboard-get", "--format", "image") == {"found": False,
                                                                "type": "image"}
    finally:
        owner.stop()


def test_fixture_pastes_what_clipboard_set_wrote(cli, fixture_app):
    need_state(fixture_app)
    fixture_reset(fixture_app)
    try:
        activate(fixture_app, FIXTURE_TITLE)
        entry = obs.by_id(fixture_app.window(), "name_entry")
        name = ref(cli, "name_entry")
        cli.ok("clear", name)
        cli.ok("--headed", "focus", name)
        obs.wait_until(lambda: "focused" in obs.state_names(entry), what="the entry focused")
        cli.ok("clipboard-set", "pasted by GTK")
        cli.ok("press", "ctrl+v", "--app", "ad-fixture")
        wait_state(fixture_app, lambda s: s["name"] == "pasted by GTK", "the pasted name")
        assert obs.text_of(entry) == "pasted by GTK"
        # And the other way: what GTK copies, clipboard-get reads (GTK now owns the
        # selection, so the helper lets go and exits).
        pid = helper_pid()
        cli.ok("set-value", name, "copied by GTK")
        cli.ok("press", "ctrl+a", "--app", "ad-fixture")
        cli.ok("press", "ctrl+c", "--app", "ad-fixture")
        obs.wait_until(lambda: xclip_out() == b"copied by GTK", what="GTK to own the copy")
        assert cli.ok("clipboard-get") == {"text": "copied by GTK", "type": "text"}
        wait_exited(pid)
    finally:
        fixture_reset(fixture_app)


def _png(tmp, size):
    path = os.path.join(tmp, "img-%s.png" % size)
    # Noise does not compress: a 600x600 PNG is over 1 MiB, past the helper's 256 KiB chunk.
    subprocess.run(["convert", "-size", size, "xc:", "+noise", "Random", "-depth", "8", path],
                   check=True, timeout=120)
    with open(path, "rb") as f:
        return path, f.read()


def test_image_round_trip_through_another_client(cli, tmp_path):
    path, data = _png(str(tmp_path), "40x30")
    assert cli.ok("clipboard-set", "--image", path) == dict(SET_REPORT, type="image")
    assert xclip_out("image/png") == data
    got = cli.ok("clipboard-get", "--format", "image")
    assert (got["type"], got["width"], got["height"]) == ("image", 40, 30)
    assert "data" not in got and "bytes" not in got  # never inline
    assert got["path"].startswith(cli.state_home + "/tmp/")
    assert stat.S_IMODE(os.stat(got["path"]).st_mode) == 0o600
    with open(got["path"], "rb") as f:
        assert f.read() == data
    out = str(tmp_path / "out.png")
    assert cli.ok("clipboard-get", "--format", "auto", "--out", out)["path"] == out
    with open(out, "rb") as f:
        assert f.read() == data


def test_image_from_another_client_and_unwritable_out(cli, tmp_path):
    _, data = _png(str(tmp_path), "16x8")
    owner = XclipOwner(data, target="image/png")
    try:
        got = cli.ok("clipboard-get", "--format", "image", "--out", str(tmp_path / "x.png"))
        assert (got["width"], got["height"]) == (16, 8)
        expect_error(cli.run("clipboard-get", "--format", "image", "--out",
                             str(tmp_path / "missing" / "x.png")), "INVALID_ARGS")
    finally:
        owner.stop()


def test_bad_image_is_refused_and_the_clipboard_kept(cli, tmp_path):
    cli.ok("clipboard-set", "kept")
    not_png = tmp_path / "not.png"
    not_png.write_bytes(b"GIF89a not a png at all, really not")
    expect_error(cli.run("clipboard-set", "--image", str(not_png)), "INVALID_ARGS")
    expect_error(cli.run("clipboard-set", "--image", str(tmp_path)), "INVALID_ARGS")
    assert xclip_out() == b"kept"


def test_incr_large_image_out_and_large_text_in(cli, tmp_path):
    """Over one chunk each way: the helper sends a 1 MiB+ PNG by INCR (its chunk is 256 KiB),
    and xclip sends 2 MiB of text by INCR (xclip's chunk is about 1 MiB)."""
    path, data = _png(str(tmp_path), "600x600")
    assert len(data) > 1024 * 1024
    cli.ok("clipboard-set", "--image", path, timeout=120)
    assert xclip_out("image/png") == data
    text = ("0123456789abcdef" * 64 + "\n") * 2048  # 2 MiB + 2 KiB
    owner = XclipOwner(text.encode())
    try:
        assert cli.ok("clipboard-get", timeout=120)["text"] == text
    finally:
        owner.stop()


def test_file_urls(cli, tmp_path):
    a = tmp_path / "a file.txt"
    a.write_text("a")
    b = tmp_path / "b.txt"
    b.write_text("b")
    data = cli.ok("clipboard-set", "--file-url", str(a), "--file-url", str(b),
                  "--image", "/nonexistent.png", "ignored text")  # file-url wins
    assert data["type"] == "file_urls"
    urls = ["file://" + str(a).replace(" ", "%20"), "file://" + str(b)]
    assert xclip_out("text/uri-list") == ("\r\n".join(urls) + "\r\n").encode()
    assert cli.ok("clipboard-get", "--format", "file-urls") == {"type": "file_urls",
                                                                 "file_urls": urls}
    assert cli.ok("clipboard-get", "--format", "auto")["file_urls"] == urls
    assert cli.ok("clipboard-get", "--format", "text") == {"found": False, "type": "text"}
    expect_error(cli.run("clipboard-set", "--file-url", str(tmp_path / "missing")),
                 "INVALID_ARGS")
    assert cli.ok("clipboard-get", "--format", "file-urls")["file_urls"] == urls


def test_clear_leaves_no_owner(cli):
    cli.ok("clipboard-set", "to be cleared")
    pid = helper_pid()
    data = cli.ok("clipboard-clear")
    assert data == {k: v for k, v in SET_REPORT.items() if k != "action"} | {
        "action": "clipboard-clear"}
    assert xclip_out() is None
    assert cli.ok("clipboard-get") == {"found": False, "type": "text"}
    wait_exited(pid)  # nothing held: the helper goes


def test_helper_socket_is_private_and_exits_when_another_owner_takes_over(cli):
    cli.ok("clipboard-set", "held by the helper")
    pid = helper_pid()
    assert pid and not exited(pid)
    d = os.stat(helper_dir())
    assert stat.S_IMODE(d.st_mode) == 0o700 and d.st_uid == os.getuid()
    s = os.stat(os.path.join(helper_dir(), "helper.sock"))
    assert stat.S_ISSOCK(s.st_mode) and stat.S_IMODE(s.st_mode) == 0o600
    owner = XclipOwner(b"xclip took it")
    try:
        wait_exited(pid)
        assert not os.path.exists(os.path.join(helper_dir(), "helper.sock"))
        # The next set starts a new helper.
        cli.ok("clipboard-set", "again")
        assert xclip_out() == b"again"
        assert helper_pid() not in (None, pid)
    finally:
        owner.stop()


def test_helper_missing_is_platform_not_supported(cli, tmp_path):
    cli.ok("clipboard-set", "unchanged")
    # The CLI links the core and the Linux adapter statically: alone it runs, helperless.
    shutil.copy2(cli.binary, tmp_path / "agent-desktop")
    lone = str(tmp_path / "agent-desktop")
    p = subprocess.run([lone, "clipboard-set", "new text"], capture_output=True, text=True,
                       env=cli.environment(), timeout=60)
    import json
    env = json.loads(p.stdout)
    assert env["ok"] is False and env["error"]["code"] == "PLATFORM_NOT_SUPPORTED", env
    assert "agent-desktop-linux-clipboard-owner" in env["error"]["message"]
    assert xclip_out() == b"unchanged"


def test_helper_sends_by_incr_over_one_chunk_and_directly_below(cli, tmp_path):
    """Seen on the wire by an independent requestor (python3-xlib): the property the helper
    answers with is of type INCR for 1 MiB+, the plain target for a short text."""
    import x11_selection
    path, data = _png(str(tmp_path), "600x600")
    cli.ok("clipboard-set", "--image", path, timeout=120)
    assert x11_selection.convert("image/png") == ("image/png", data, True)
    cli.ok("clipboard-set", "short")
    assert x11_selection.convert("UTF8_STRING") == ("UTF8_STRING", b"short", False)
    assert x11_selection.convert("image/png") is None  # not offered now


def test_reads_one_mib_of_text_sent_by_incr(cli):
    import x11_selection
    text = ("abcdefghijklmnopqrstuvwxyz01234\n" * 32768)  # exactly 1 MiB
    assert len(text.encode()) == 1024 * 1024
    owner = x11_selection.IncrOwner(text.encode())
    try:
        assert cli.ok("clipboard-get", timeout=120) == {"text": text, "type": "text"}
        assert owner.completed == 1
    finally:
        owner.stop()


def test_a_killed_helper_loses_the_content_and_the_next_set_starts_another(cli):
    """Correctness never rests on the helper being alive: killed (SIGKILL, its socket left
    behind), the clipboard reads as empty, and the next set starts a fresh helper."""
    cli.ok("clipboard-set", "first")
    pid = helper_pid()
    os.kill(pid, signal.SIGKILL)
    wait_exited(pid)
    assert os.path.exists(os.path.join(helper_dir(), "helper.sock"))  # stale
    assert cli.ok("clipboard-get") == {"found": False, "type": "text"}
    cli.ok("clipboard-set", "second")
    assert xclip_out() == b"second"
    assert helper_pid() not in (None, pid)


def test_helper_runs_in_root_not_the_callers_directory(cli, tmp_path):
    """The helper outlives the command that started it: it must not pin that command's
    working directory (or its mount). Before b2a01c4 it inherited the caller's."""
    work = tmp_path / "caller-dir"
    work.mkdir()
    p = subprocess.run([cli.binary, "clipboard-set", "from a directory"], cwd=str(work),
                       capture_output=True, text=True, env=cli.environment(), timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    pid = helper_pid()
    assert pid and not exited(pid)
    assert os.readlink("/proc/%d/cwd" % pid) == "/"


def test_helper_ends_cleanly_on_sigterm(cli):
    """SIGTERM ends the helper's loop (b5d588e): it exits, its socket and pid file go with it
    (a helper killed by the default action leaves both behind, as SIGKILL does above), the
    selection has no owner, and the next set starts a fresh helper."""
    from Xlib import X, display
    cli.ok("clipboard-set", "held until SIGTERM")
    pid = helper_pid()
    assert pid and not exited(pid)
    os.kill(pid, signal.SIGTERM)
    wait_exited(pid)
    assert not os.path.exists(os.path.join(helper_dir(), "helper.sock"))
    assert not os.path.exists(os.path.join(helper_dir(), "helper.pid"))
    d = display.Display()
    try:
        assert d.get_selection_owner(d.intern_atom("CLIPBOARD")) == X.NONE
    finally:
        d.close()
    assert xclip_out() is None
    cli.ok("clipboard-set", "after")
    assert xclip_out() == b"after"
    assert helper_pid() not in (None, pid)
