"""A command's fixed cost (issue 12): what one snapshot process does besides the walk.

Read independently: the process runs under strace and its syscalls are counted; the state it
leaves is read from the files (state-and-sessions: private, atomic). A snapshot flushes its
refmap once and writes the latest-snapshot pointer atomically without a second flush (an
empty pointer after a crash reads as "no latest snapshot")."""
import os
import stat

from action_helpers import FIXTURE
from e2e_helpers import refmap_path, traced_lines


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
