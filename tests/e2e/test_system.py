"""System commands, the CLI surface, global flags and the state root (commands/system.md,
json-output.md, errors-and-recovery.md, configuration of AGENT_DESKTOP_HOME/SESSION)."""
import json
import os
import platform
import re
from pathlib import Path

import pytest

from e2e_helpers import BARE_REF_SUGGESTION, REPO_ROOT, expect_error

# surfaces.md, "Surface kinds".
KNOWN_SURFACES = {"window", "focused", "menu", "menubar", "sheet", "popover", "alert",
                  "desktop", "taskbar", "system-tray", "system-tray-overflow", "quick-settings",
                  "notification-center", "toolbar", "dock", "spotlight", "menu-bar-extras",
                  "start-menu", "action-center"}
BAD_BUS = {"DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/ad-e2e/bus",
           "AT_SPI_BUS_ADDRESS": None}


@pytest.fixture(scope="module")
def skills(ad_bin):
    """The skills/ tree the binary embeds: beside its build directory (BUILD/../skills) when
    there is one, else the repo's."""
    beside = Path(ad_bin).resolve().parents[1] / "skills"
    return SkillsTree(beside if beside.is_dir() else REPO_ROOT / "skills")


class SkillsTree:
    def __init__(self, root):
        self.root = root

    def names(self):
        return sorted(d.name for d in self.root.iterdir() if (d / "SKILL.md").is_file())

    @staticmethod
    def alias(name):
        return "desktop" if name == "agent-desktop" else name.replace("agent-desktop-", "")

    def refs(self, name):
        refdir = self.root / name / "references"
        if not refdir.is_dir():
            return []
        return ["references/" + f.name for f in sorted(refdir.iterdir()) if f.suffix == ".md"]

    def text(self, name, ref=None):
        return (self.root / name / (ref or "SKILL.md")).read_text()


# ---- version, status, permissions ---------------------------------------------------------


def test_version_reports_os_and_machine(cli):
    data = cli.ok("version")
    assert data["os"] == "linux"
    assert data["target"] == platform.machine()
    assert re.fullmatch(r"\d+\.\d+\.\d+.*", data["version"]), data
    # --version prints the same release as text.
    text = cli.raw("--version")
    assert text.returncode == 0
    assert text.stdout.strip() == "agent-desktop %s" % data["version"]


def test_status_granted(cli, state_home, fixture_app):
    snap = cli.ok("snapshot", "--app", "ad-fixture", "--skeleton")
    data = cli.ok("status")
    assert data["platform"] == "linux"
    assert data["permissions"]["accessibility"] == {"state": "granted"}
    assert data["permissions"]["automation"]["state"] == "not_required"
    assert data["permissions"]["screen_recording"]["state"] == "not_required"
    surfaces = data["supported_surfaces"]
    assert surfaces[0] == "window" and len(set(surfaces)) == len(surfaces)
    assert set(surfaces) <= KNOWN_SURFACES, surfaces
    assert data["state_root"] == state_home
    assert data["version"] == cli.ok("version")["version"]
    # The latest snapshot of this namespace is the one just taken.
    assert data["snapshot_id"] == snap["snapshot_id"]
    assert data["ref_count"] == snap["ref_count"]
    assert data["session_id"] is None
    assert data["tracing"] is False


def test_supported_surfaces_are_the_ones_snapshot_accepts(cli, fixture_app):
    surfaces = cli.ok("status")["supported_surfaces"]
    for kind in surfaces:
        code, env = cli.run("snapshot", "--app", "ad-fixture", "--surface", kind)
        if not env["ok"]:
            # Absent now is fine; refused as a kind is not.
            assert env["error"]["code"] not in ("INVALID_ARGS", "PLATFORM_NOT_SUPPORTED"), \
                (kind, env["error"])
    for kind in sorted(KNOWN_SURFACES - set(surfaces)):
        err = expect_error(cli.run("snapshot", "--app", "ad-fixture", "--surface", kind),
                           "INVALID_ARGS")
        # surfaces.md: the supported list and the request come back in details.
        assert err["details"]["supported_surfaces"] == surfaces, err
        assert err["details"]["requested_surface"] == kind, err


def test_status_without_a_bus_is_ok_but_denied(cli):
    code, env = cli.run("status", env=BAD_BUS)
    assert code == 0 and env["ok"], env
    data = env["data"]
    acc = data["permissions"]["accessibility"]
    assert acc["state"] == "denied"
    assert isinstance(acc.get("platform_detail"), str) and acc["platform_detail"], acc
    assert isinstance(acc.get("suggestion"), str) and acc["suggestion"], acc
    assert data["supported_surfaces"] == []
    # Every command that needs the bus fails closed.
    err = expect_error(cli.run("snapshot", "--app", "x", env=BAD_BUS), "PLATFORM_NOT_SUPPORTED")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert err.get("platform_detail"), err


def test_permissions(cli):
    data = cli.ok("permissions")
    assert data["accessibility"] == {"state": "granted"}
    assert data["automation"] == {"state": "not_required"}
    assert data["screen_recording"] == {"state": "not_required"}
    assert data == cli.ok("status")["permissions"]
    # Linux has no prompt: --request reports the same states; --guide is macOS only.
    assert cli.ok("permissions", "--request") == data
    expect_error(cli.run("permissions", "--guide"), "PLATFORM_NOT_SUPPORTED")
    denied = cli.ok("permissions", env=BAD_BUS)
    assert denied["accessibility"]["state"] == "denied"


# ---- skills ------------------------------------------------------------------------------


def test_skills_list_matches_the_skills_directory(cli, skills):
    listed = cli.ok("skills", "list")["skills"]
    assert cli.ok("skills")["skills"] == listed  # bare `skills` is `skills list`
    names = [s["name"] for s in listed]
    assert sorted(names) == skills.names()
    assert names[0] == "agent-desktop"  # the core guide first
    for s in listed:
        assert s["aliases"] == [skills.alias(s["name"]), s["name"]]
        assert s["references"] == skills.refs(s["name"])
        if s["name"] == "agent-desktop-linux":
            assert s["platform"] == "linux" and s["current"] is True
        else:
            assert "platform" not in s or s["current"] is False


def test_skills_get_desktop(cli, skills):
    data = cli.ok("skills", "get", "desktop")
    assert data["name"] == "agent-desktop"
    assert data["content"] == skills.text("agent-desktop")
    assert data["references"] == skills.refs("agent-desktop")
    assert cli.ok("skills", "get", "agent-desktop") == data


def test_skills_get_platform_is_linux(cli, skills):
    data = cli.ok("skills", "get", "platform")
    assert data["name"] == "agent-desktop-linux"
    assert data["content"] == skills.text("agent-desktop-linux")


def test_skills_get_reference_by_stem_file_and_path(cli, skills):
    want = skills.text("agent-desktop-linux", "references/troubleshooting.md")
    for ref in ("troubleshooting", "troubleshooting.md", "references/troubleshooting.md"):
        data = cli.ok("skills", "get", "linux", ref)
        assert data["name"] == "agent-desktop-linux"
        assert data["reference"] == "references/troubleshooting.md"
        assert data["content"] == want
    err = expect_error(cli.run("skills", "get", "linux", "no-such-reference"), "INVALID_ARGS")
    for ref in skills.refs("agent-desktop-linux"):
        assert ref in err["message"]


def test_skills_get_full(cli, skills):
    data = cli.ok("skills", "get", "desktop", "--full")
    content = data["content"]
    main = skills.text("agent-desktop")
    assert content.startswith(main)
    pos = len(main)
    for ref in skills.refs("agent-desktop"):
        marker = "--- %s ---" % ref
        at = content.find(marker, pos)
        assert at >= 0, "missing or out of order: %s" % marker
        body = skills.text("agent-desktop", ref)
        assert content.find(body, at) >= 0, ref
        pos = at + len(marker)


def test_skills_path(cli, skills):
    data = cli.ok("skills", "path")
    assert data["location"] == "embedded"
    assert sorted(data["available"]) == skills.names()
    assert data["note"]


def test_skills_unknown_name_lists_aliases(cli, skills):
    err = expect_error(cli.run("skills", "get", "nope"), "INVALID_ARGS")
    assert "nope" in err["message"]
    for name in skills.names():
        assert re.search(r"\b%s\b" % re.escape(skills.alias(name)), err["message"]), name
        assert name in err["message"]


# ---- text output and the parser ----------------------------------------------------------


def _not_json(text):
    try:
        json.loads(text)
    except ValueError:
        return True
    return False


def test_help_and_version_print_text(cli):
    top = cli.raw("--help")
    assert top.returncode == 0
    assert _not_json(top.stdout)
    assert "Usage: agent-desktop" in top.stdout
    for command in ("snapshot", "find", "get", "is", "list-apps", "list-windows", "status"):
        assert re.search(r"^\s+%s\s" % re.escape(command), top.stdout, re.M), command
    snap = cli.raw("snapshot", "--help")
    assert snap.returncode == 0 and _not_json(snap.stdout)
    assert "agent-desktop snapshot" in snap.stdout
    for flag in ("--max-depth", "--skeleton", "--root", "--include-bounds", "--timeout-ms"):
        assert flag in snap.stdout, flag
    version = cli.raw("--version")
    assert version.returncode == 0 and version.stdout.startswith("agent-desktop ")


def test_bare_command_prints_help(cli):
    bare = cli.raw()
    assert bare.returncode == 0
    assert bare.stdout == cli.raw("--help").stdout


# Commands with arguments the parser accepts, in order of preference; the test uses the first
# one that --help marks "(not in this build)" (click, the brief's example, while it is one).
UNIMPLEMENTED_CANDIDATES = [
    ("click", ["@sabc:e1"]), ("double-click", ["@sabc:e1"]), ("hover", ["@sabc:e1"]),
    ("focus-window", ["--app", "ad-e2e-no-such-app"]), ("minimize", []), ("maximize", []),
    ("restore", []),
    ("list-displays", []), ("screenshot", []), ("clipboard-get", []), ("list-surfaces", []),
    ("list-notifications", []), ("launch", ["ad-e2e-no-such-app"]),
]


def test_unimplemented_command_is_platform_not_supported(cli):
    help_text = cli.raw("--help").stdout
    # [ \t], not \s: \s would run across the newline after a group heading ("Notifications:")
    # and take the heading for the group's first command.
    missing = set(re.findall(r"^[ \t]+(\S+)[ \t].*\(not in this build\)[ \t]*$", help_text,
                             re.M))
    chosen = [(c, a) for c, a in UNIMPLEMENTED_CANDIDATES if c in missing]
    if not chosen:
        pytest.skip("every candidate command is implemented in this build")
    command, args = chosen[0]
    err = expect_error(cli.run(command, *args), "PLATFORM_NOT_SUPPORTED")
    assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}
    assert err.get("details", {}).get("kind") == "not_in_this_build", err
    assert "recovery" not in err


def test_bare_ref_is_invalid_args(cli):
    for command in ("click", "get", "is"):
        err = expect_error(cli.run(command, "@e1"), "INVALID_ARGS", exit_code=1)
        assert err["suggestion"] == BARE_REF_SUGGESTION
        assert "@e1" in err["message"]
        assert err["disposition"] == {"delivery": "not_delivered", "retry": "safe"}


@pytest.mark.parametrize("argv", [["click"], ["get"], ["is"]])
def test_missing_argument_exits_2(cli, argv):
    expect_error(cli.run(*argv), "INVALID_ARGS", exit_code=2)


def test_unknown_command_and_flag_exit_2(cli):
    expect_error(cli.run("frobnicate"), "INVALID_ARGS", exit_code=2)
    expect_error(cli.run("snapshot", "--no-such-flag"), "INVALID_ARGS", exit_code=2)
    expect_error(cli.run("--no-such-flag", "status"), "INVALID_ARGS", exit_code=2)


def test_global_flag_after_the_command(cli, fixture_app):
    code, env = cli.run("snapshot", "--app", "ad-fixture", "--verbose")
    assert code == 0 and env["ok"], env
    assert env["data"]["app"] == "ad-fixture"
    assert env["data"]["tree"]["name"] == "AD Fixture"


# ---- environment and the state root ------------------------------------------------------


def test_relative_state_root_is_invalid(cli):
    err = expect_error(cli.run("status", env={"AGENT_DESKTOP_HOME": "relative/dir"}),
                       "INVALID_ARGS")
    assert "AGENT_DESKTOP_HOME" in err["message"]


def test_empty_session_is_invalid(cli):
    err = expect_error(cli.run("status", env={"AGENT_DESKTOP_SESSION": ""}), "INVALID_ARGS")
    assert "AGENT_DESKTOP_SESSION" in err["message"]


def test_group_readable_state_root_refuses_to_write(cli, fixture_app, tmp_path):
    root = tmp_path / "open-root"
    root.mkdir()
    os.chmod(root, 0o755)
    err = expect_error(cli.run("snapshot", "--app", "ad-fixture",
                               env={"AGENT_DESKTOP_HOME": str(root)}), "INTERNAL")
    assert err["message"] == "private file parent is accessible by group or other users"
    assert list(root.iterdir()) == [], "nothing may be written into a non-private root"
    # Once private, the same root works.
    os.chmod(root, 0o700)
    code, env = cli.run("snapshot", "--app", "ad-fixture", "--skeleton",
                        env={"AGENT_DESKTOP_HOME": str(root)})
    assert env["ok"], env
    assert (root / "snapshots" / env["data"]["snapshot_id"] / "refmap.json").is_file()


def test_empty_wait_selector_is_invalid(cli, fixture_app):
    err = expect_error(cli.run("snapshot", "--app", "ad-fixture", "--wait-for", ""),
                       "INVALID_ARGS")
    assert err["disposition"]["retry"] == "safe"


def test_wait_for_on_get_is_invalid(cli, fixture_app):
    found = cli.ok("find", "--app", "ad-fixture", "--native-id", "inc_button", "--exact",
                   "--first")
    ref = found["match"]["ref_id"]
    assert cli.ok("get", ref, "--property", "title")["value"] == "Increment"
    err = expect_error(cli.run("get", ref, "--property", "role", "--wait-for", "x"),
                       "INVALID_ARGS")
    assert "--wait-for" in err["message"]
