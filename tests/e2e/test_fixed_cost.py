"""A command's fixed cost (issue 12): what one snapshot process does besides the walk.

Read independently: the process runs under strace and its syscalls are counted; the state it
leaves is read from the files (state-and-sessions: private, atomic). A snapshot flushes its
refmap once and writes the latest-snapshot pointer atomically without a second flush (an
empty pointer after a crash reads as "no latest snapshot")."""
import json
import os
import shutil
import stat

import pytest

from action_helpers import FIXTURE
from e2e_helpers import check_envelope, refmap_path, traced_lines


def _private_file(path):
    st = os.stat(path, follow_symlinks=False)
    return stat.S_ISREG(st.st_mode) and stat.S_IMODE(st.st_mode) == 0o600


def test_a_snapshot_flushes_once(cli, state_home, fixture_app):
    envelope, lines = traced_lines(cli, "fsync,fdatasync,sync_file_range,renameat,renameat2,"
                                        "rename", "snapshot", *FIXTURE, "-i")
    assert envelope["ok"], envelope["error"]
    sid = envelope["data"]["snapshot_id"]
    flushes = [line for line in lines if "sync" in line.split("(")[0]]
    renames = [line for line in lines if "rename" in line.split("(")[0]]
    assert len(flushes) == 1, flushes
    # Both files still replaced by rename (atomic): the refmap and the pointer.
    assert any('"refmap.json"' in line for line in renames), renames
    assert any('"latest_snapshot_id"' in line for line in renames), renames
    with open(os.path.join(state_home, "latest_snapshot_id")) as f:
        assert f.read() == sid
    assert _private_file(os.path.join(state_home, "latest_snapshot_id"))
    assert _private_file(refmap_path(state_home, sid))
    # No temp file stays behind.
    assert not [n for n in os.listdir(state_home) if n.startswith(".latest_snapshot_id.")]


# ---- what a process loads (the executable binds its heavy libraries at first call) ----------

# The libraries only desktop work needs, and what they pull in (libsystemd alone brings cap,
# gcrypt, gpg-error, lzma, zstd, lz4).
HEAVY = ("libsystemd.so", "libxcb", "libpng", "libgcrypt", "libzstd", "liblz4", "liblzma",
         "libXau", "libXdmcp")


def _loaded_objects(cli, *args, env=None):
    """(exit code, envelope, the shared objects the dynamic loader opened), read from the
    loader's own LD_DEBUG=files log (stderr), not from the program."""
    e = {"LD_DEBUG": "files"}
    e.update(env or {})
    p = cli.raw(*args, env=e)
    files = set()
    for line in p.stderr.splitlines():
        part = line.split("file=", 1)
        if len(part) == 2 and ";" in part[1]:
            files.add(os.path.basename(part[1].split()[0].rstrip(";")))
    lines = [l for l in p.stdout.splitlines() if l.strip()]
    assert len(lines) == 1, (args, p.stdout[:400], p.stderr[-400:])
    return p.returncode, json.loads(lines[0]), files


@pytest.mark.parametrize("args", [("version",), ("skills",)])
def test_commands_without_the_desktop_load_no_desktop_library(cli, args):
    code, envelope, files = _loaded_objects(cli, *args)
    assert envelope["ok"], envelope
    assert code == 0
    assert files, "LD_DEBUG=files logged nothing"
    heavy = sorted(f for f in files if f.startswith(HEAVY))
    assert heavy == [], heavy


def test_a_bus_command_loads_libsystemd_when_it_needs_it(cli, fixture_app):
    code, envelope, files = _loaded_objects(cli, "list-apps")
    assert envelope["ok"], envelope["error"]
    assert any(a["pid"] == fixture_app.pid for a in envelope["data"]["apps"])
    assert "libsystemd.so.0" in files, sorted(files)


def _library_without_symbols(tmp_path, soname):
    """A directory whose `soname` is a real shared object that defines none of the library's
    functions (a copy of libz): loadable, but useless."""
    libz = next(p for p in ("/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1",
                            "/lib64/libz.so.1") if os.path.exists(p))
    shutil.copy(libz, tmp_path / soname)
    return {"LD_LIBRARY_PATH": str(tmp_path)}


def test_a_broken_libsystemd_gives_an_error_envelope(cli, tmp_path):
    env = _library_without_symbols(tmp_path, "libsystemd.so.0")
    # version needs no bus, so a broken libsystemd does not touch it.
    p = cli.raw("version", env=env)
    assert json.loads(p.stdout)["ok"], (p.stdout, p.stderr[-400:])
    p = cli.raw("list-apps", env=env)
    envelope = check_envelope(p.stdout, p.stderr, p.returncode, ("list-apps",))
    assert p.returncode == 1, (p.returncode, p.stderr[-400:])
    err = envelope["error"]
    assert err["code"] == "INTERNAL", err
    assert "libsystemd.so.0" in err["message"], err
    assert err["disposition"]["delivery"] == "not_delivered", err


def test_a_snapshot_makes_one_x11_connection(cli, state_home, fixture_app):
    """The window reads of a snapshot (client list, origins, screen size) share one X
    connection: main made two (a second one for the screen size)."""
    envelope, lines = traced_lines(cli, "connect", "snapshot", *FIXTURE, "-i")
    assert envelope["ok"], envelope["error"]
    x11 = [line for line in lines if " connect(" in line and ".X11-unix" in line]
    assert len(x11) == 1, x11
    envelope, lines = traced_lines(cli, "connect", "list-apps")
    assert envelope["ok"], envelope["error"]
    assert not [line for line in lines if ".X11-unix" in line], "list-apps needs no X11"


def test_a_broken_libsystemd_in_a_batch_leaves_delivery_unknown(cli, tmp_path):
    """A batch may have run a mutating entry before the library failed: its delivery is
    unknown, never a safe retry."""
    env = _library_without_symbols(tmp_path, "libsystemd.so.0")
    p = cli.raw("batch", json.dumps([{"command": "list-apps"}]), env=env)
    envelope = check_envelope(p.stdout, p.stderr, p.returncode, ("batch",))
    err = envelope["error"]
    assert err["code"] == "INTERNAL" and "libsystemd.so.0" in err["message"], err
    assert err["disposition"] == {"delivery": "unknown", "retry": "unknown"}, err
