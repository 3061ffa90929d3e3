"""A Qt 5 app (tests/fixture-qt/qt_fixture.py, PyQt5): agent-desktop must read it without
crashing it (Qt 5.15's bridge segfaults on Properties.GetAll), act on it, refuse a headless
`select` on its combo with pointer_required (commands/interaction.md, "select"), and pick an
option with --headed clicks into the combo's popup list. Effects are read through pyatspi."""
import os
import subprocess

import pytest

import atspi_observer as obs
from action_helpers import UNVERIFIED
from e2e_helpers import expect_error, launch, proc_state, stop_process

HERE = os.path.dirname(os.path.abspath(__file__))
QT_FIXTURE = os.path.join(HERE, "..", "fixture-qt", "qt_fixture.py")
APP = ["--app", "ad-qt-fixture"]


def _have_pyqt5():
    return subprocess.run(["/usr/bin/python3", "-c", "import PyQt5.QtWidgets"],
                          capture_output=True).returncode == 0


@pytest.fixture(scope="module")
def qt_app(app_tmp):
    if not _have_pyqt5():
        pytest.skip("python3-pyqt5 is not installed (scripts/install-deps.sh installs it)")
    inst = launch(["/usr/bin/python3", QT_FIXTURE], "ad-qt-fixture",
                  extra_env={"QT_ACCESSIBILITY": "1"},
                  ready=lambda w: w.childCount >= 4, log_dir=app_tmp)
    try:
        yield inst
    finally:
        stop_process(inst.popen)


def _labels(app):
    window = obs.wait_for_window(app.pid)
    return {o.name.split(":")[0]: o.name for o in obs.walk(window) if o.role == "label"}


def _alive(app):
    return app.popen.poll() is None and proc_state(app.pid) not in (None, "Z")


def _find_one(cli, *args):
    data = cli.ok("find", *APP, *args)
    assert len(data["matches"]) == 1, data
    return data["matches"][0]


def test_reads_do_not_crash_qt(cli, qt_app):
    apps = cli.ok("list-apps")["apps"]
    assert any(a["name"] == "ad-qt-fixture" and a["pid"] == qt_app.pid for a in apps), apps
    windows = cli.ok("list-windows", *APP)
    assert [w["title"] for w in windows] == ["AD Qt Fixture"], windows
    snap = cli.ok("snapshot", *APP, "-i")
    assert snap["complete"] is True
    roles = {}
    def visit(n):
        roles.setdefault(n.get("role"), []).append(n.get("name"))
        for c in n.get("children", []):
            visit(c)
    visit(snap["tree"])
    assert roles["button"] == ["Press me"], roles
    assert roles["option"] == ["Apple", "Banana", "Cherry"], roles
    obs.round_trip(obs.wait_for_window(qt_app.pid))  # it still answers, after the reads
    assert _alive(qt_app), "the Qt app died while agent-desktop read it"


def test_click_a_qt_button(cli, qt_app):
    before = _labels(qt_app)["clicks"]
    data = cli.ok("click", _find_one(cli, "--role", "button", "--name", "Press me")["ref_id"])
    assert data["disposition"] == UNVERIFIED
    n = int(before.split(": ")[1])
    obs.wait_until(lambda: _labels(qt_app)["clicks"] == "clicks: %d" % (n + 1),
                   what="the click count to grow by one")


def test_select_on_a_qt_combo_needs_the_pointer(cli, qt_app):
    before = _labels(qt_app)["fruit"]
    combo = _find_one(cli, "--role", "combobox")["ref_id"]
    err = expect_error(cli.run("select", combo, "Cherry"), "ACTION_NOT_SUPPORTED",
                       kind="pointer_required")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert "--headed" in err["suggestion"]
    obs.round_trip(obs.wait_for_window(qt_app.pid))  # the canary
    assert _labels(qt_app)["fruit"] == before  # nothing was chosen


def test_headed_clicks_pick_an_option_in_the_qt_popup(cli, qt_app):
    combo = _find_one(cli, "--role", "combobox")
    want = next(o for o in ("Apple", "Banana", "Cherry") if o != combo["name"])
    cli.ok("--headed", "click", combo["ref_id"])
    # The list opens in Qt's own override-redirect popup window; its items stay in the tree
    # under the combo box.
    option = _find_one(cli, "--role", "option", "--name", want, "--exact")
    data = cli.ok("--headed", "click", option["ref_id"])
    assert data["disposition"] == UNVERIFIED
    assert data["target"]["kind"] == "pointer"
    obs.wait_until(lambda: _labels(qt_app)["fruit"] == "fruit: " + want,
                   what="the fruit label to show %s" % want)
    assert _alive(qt_app)
