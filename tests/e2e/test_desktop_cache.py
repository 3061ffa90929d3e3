"""The desktop entry cache (platforms/linux.md "App naming"): an entry installed in a temp
XDG_DATA_DIRS directory names the running fixture, and an edit to it is seen by the next
command although the first one left a cache in the state root."""
import os
import stat


def _write_entry(path, name):
    with open(path, "w") as f:
        f.write("[Desktop Entry]\nType=Application\nName=%s\nExec=ad-fixture --x\n" % name)


def _matches(cli, env, query, pid):
    rows = cli.ok("list-apps", "--app", query, env=env)["apps"]
    return [a for a in rows if a["pid"] == pid]


def test_an_edited_entry_is_seen_through_the_cache(cli, fixture_app, state_home, tmp_path):
    apps = tmp_path / "applications"
    apps.mkdir()
    entry = apps / "org.example.AdCacheProbe.desktop"
    _write_entry(entry, "CacheProbeFirst")
    env = {"XDG_DATA_DIRS": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "none")}
    rows = _matches(cli, env, "CacheProbeFirst", fixture_app.pid)
    assert [a["bundle_id"] for a in rows] == ["org.example.AdCacheProbe"], rows
    cache = os.path.join(state_home, "desktop-entries.cache")
    st = os.stat(cache)
    assert stat.S_IMODE(st.st_mode) == 0o600
    with open(cache, "rb") as f:
        assert b"CacheProbeFirst" in f.read()
    # The same file rewritten in place (the directory's mtime stays): the next command sees
    # the new Name= and no longer the old one.
    _write_entry(entry, "CacheProbeOther")
    assert _matches(cli, env, "CacheProbeFirst", fixture_app.pid) == []
    rows = _matches(cli, env, "CacheProbeOther", fixture_app.pid)
    assert [a["bundle_id"] for a in rows] == ["org.example.AdCacheProbe"], rows
    # A corrupt cache is ignored, not trusted: the answer comes from the entry and the cache
    # is rebuilt.
    with open(cache, "wb") as f:
        f.write(b"agent-desktop desktop-entries 1\n3:bad\n")
    rows = _matches(cli, env, "CacheProbeOther", fixture_app.pid)
    assert [a["bundle_id"] for a in rows] == ["org.example.AdCacheProbe"], rows
    with open(cache, "rb") as f:
        assert b"CacheProbeOther" in f.read()
