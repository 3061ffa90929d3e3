"""list-apps, list-windows and window selection (commands/app-window.md, platforms/linux.md
"App naming", snapshots-and-refs.md "Choose the window")."""
import re
import shutil
import subprocess

import pytest

import atspi_observer as obs
from e2e_helpers import expect_error, proc_starttime, rect


def boot_prefix():
    with open("/proc/sys/kernel/random/boot_id") as f:
        return f.read().strip().replace("-", "")[:8]


def app_row(rows, pid):
    match = [a for a in rows if a["pid"] == pid]
    assert len(match) == 1, "pid %d listed %d times in %r" % (pid, len(match), rows)
    return match[0]


def test_list_apps_reports_real_processes(cli, fixture_app, calculator_app):
    rows = cli.ok("list-apps")["apps"]
    fixture = app_row(rows, fixture_app.pid)
    assert fixture["name"] == "ad-fixture"
    calc = app_row(rows, calculator_app.pid)
    assert calc["name"] == "gnome-calculator"
    assert calc["bundle_id"] == "org.gnome.Calculator"
    for row, inst in ((fixture, fixture_app), (calc, calculator_app)):
        # The pid is the process we started (or found), and the one AT-SPI reports.
        assert obs.app_pid(obs.app_for_pid(inst.pid)) == row["pid"]
        assert row["presentation"] == "foreground"
        # process_instance is BOOTID8:STARTTIME of /proc/PID/stat.
        m = re.fullmatch(r"([0-9a-f]+):(\d+)", row["process_instance"])
        assert m, row
        assert m.group(1) == boot_prefix()
        assert int(m.group(2)) == proc_starttime(row["pid"])
    # Every application registered on the bus is listed, with the pid AT-SPI gives it, and
    # an application without a window is a background one.
    registered = {obs.app_pid(a): a for a in obs.desktop_apps()}
    assert {a["pid"] for a in rows} == set(registered)
    for row in rows:
        windowless = registered[row["pid"]].childCount == 0
        assert row["presentation"] == ("background" if windowless else "foreground"), row


def test_list_apps_substring_filter(cli, fixture_app, calculator_app):
    for query in ("calc", "CALC", "Calculator"):
        rows = cli.ok("list-apps", "--app", query)["apps"]
        assert calculator_app.pid in [a["pid"] for a in rows], (query, rows)
        for a in rows:
            hay = " ".join([a["name"], a.get("bundle_id", "")]).lower()
            assert query.lower() in hay, (query, a)
        assert fixture_app.pid not in [a["pid"] for a in rows]
    assert cli.ok("list-apps", "--app", "no-such-app-e2e")["apps"] == []


def test_list_windows_fields(cli, fixture_app):
    rows = cli.ok("list-windows", "--app", "ad-fixture")
    mine = [w for w in rows if w["pid"] == fixture_app.pid]
    assert len(mine) == 1, rows
    w = mine[0]
    assert w["id"].startswith("w-")
    assert w["title"] == "AD Fixture"
    assert w["app_name"] == "ad-fixture"
    assert isinstance(w["is_focused"], bool)
    assert w["visible"] is True and w["minimized"] is False and w["accessible"] is True
    assert w["process_instance"] == app_row(cli.ok("list-apps")["apps"],
                                            fixture_app.pid)["process_instance"]
    frame = fixture_app.window()
    o = obs.read(frame)
    assert w["title"] == o.name
    assert rect(w["bounds"]) == o.extents
    assert w["is_focused"] == ("active" in o.states)
    # Without --app every app's windows are listed, the fixture's among them.
    assert w in cli.ok("list-windows")


def test_list_windows_app_is_exact(cli, fixture_app, calculator_app):
    exact = cli.ok("list-windows", "--app", "ad-fixture")
    assert exact and all(w["app_name"] == "ad-fixture" for w in exact)
    assert fixture_app.pid in [w["pid"] for w in exact]
    assert calculator_app.pid not in [w["pid"] for w in exact]
    # Case-insensitive: the same windows.
    assert cli.ok("list-windows", "--app", "AD-FIXTURE") == exact
    calc = cli.ok("list-windows", "--app", "gnome-calculator")
    assert calc and all(w["pid"] == calculator_app.pid for w in calc)
    # A substring is not a name for list-windows (list-apps --app is the substring filter).
    expect_error(cli.run("list-windows", "--app", "ad-fix"), "APP_NOT_FOUND")
    expect_error(cli.run("list-windows", "--app", "calc"), "APP_NOT_FOUND")


def test_unknown_app(cli):
    for argv in (["list-windows", "--app", "no-such-app-e2e"],
                 ["snapshot", "--app", "no-such-app-e2e"],
                 ["find", "--app", "no-such-app-e2e", "--role", "button"]):
        err = expect_error(cli.run(*argv), "APP_NOT_FOUND")
        assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
        assert "recovery" not in err


def _activate(title):
    subprocess.run(["xdotool", "search", "--name", "^%s$" % title, "windowactivate", "--sync"],
                   check=True, capture_output=True, timeout=30)


def _focused_row(cli, pid):
    rows = [w for w in cli.ok("list-windows") if w["pid"] == pid and w["is_focused"]]
    return rows[0] if rows else None


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_snapshot_without_app_reads_the_focused_window(cli, fixture_app, calculator_app):
    for title, inst, app in (("AD Fixture", fixture_app, "ad-fixture"),
                             ("Calculator", calculator_app, "gnome-calculator")):
        _activate(title)
        row = obs.wait_until(lambda: _focused_row(cli, inst.pid), timeout=15,
                             what="%s to be reported focused" % title)
        assert "active" in obs.state_names(inst.window())
        snap = cli.ok("snapshot", "--skeleton")
        assert snap["app"] == app
        assert snap["window"] == {"id": row["id"], "title": title}
        assert snap["tree"]["name"] == title
        found = cli.ok("find", "--role", "window", "--first")
        assert found["match"]["name"] == title
