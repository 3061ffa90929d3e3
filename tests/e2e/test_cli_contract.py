"""The argv contract of the CLI (issue 7, items 12, 13 and 23): every argv, even bytes that are
not UTF-8, prints one envelope with `command` and `error.message`; a range the command table
declares exits 2 for every flag and positional; an invalid agent id refuses before anything
runs (json-output.md, sessions.md, configuration.md)."""
import os
import subprocess

import atspi_observer as obs
from action_helpers import expect_count, need_state, ref
from e2e_helpers import check_envelope, expect_error

SEVENTY = "a" * 70


def run_bytes(cli, *args, env=None):
    """Runs the CLI with argv given as bytes (which text-mode runners cannot pass)."""
    argv = [os.fsencode(cli.binary)] + [a if isinstance(a, bytes) else a.encode() for a in args]
    p = subprocess.run(argv, capture_output=True, env=cli.environment(env), timeout=60,
                       stdin=subprocess.DEVNULL)
    stdout = p.stdout.decode("ascii")  # JSON_ENSURE_ASCII: the envelope is plain ASCII
    return p.returncode, check_envelope(stdout, p.stderr.decode(errors="replace"),
                                        p.returncode, args)


def test_invalid_utf8_argv_keeps_command_and_message(cli):
    cases = [
        ([b"\xff"], "\\xFF", "Unknown command"),
        ([b"get", b"@s1:e1", b"\xff"], "get", "Unexpected argument"),
        ([b"snapshot", b"--app", b"\xff\xfe"], "snapshot", "not valid UTF-8"),
        ([b"--\xff", b"status"], "agent-desktop", "Unknown flag"),
    ]
    for argv, command, message in cases:
        code, env = run_bytes(cli, *argv)
        err = expect_error((code, env), "INVALID_ARGS", exit_code=2)
        assert env["command"] == command, env
        assert message in err["message"], env


def test_key_combo_of_multibyte_characters_keeps_its_message(cli):
    # 64 x U+00E9 is 128 bytes: the old 127-byte buffer cut the last character in half and
    # jansson dropped error.message and details.key.
    code, env = run_bytes(cli, "press", "\u00e9" * 64)
    err = expect_error((code, env), "INVALID_ARGS", exit_code=1)
    assert env["command"] == "press"
    assert "longer than 127 bytes" in err["message"], err


def test_global_flags_alone_or_a_lone_dashdash_print_an_envelope(cli):
    # json-output.md: only --help, --version and a bare agent-desktop print text.
    for argv in (["--headed"], ["--"], ["-v"], ["--session", "run-1"]):
        code, env = cli.run(*argv)
        err = expect_error((code, env), "INVALID_ARGS", exit_code=2)
        assert env["command"] == "agent-desktop"
        assert "No command" in err["message"], err
    p = cli.raw()
    assert p.returncode == 0 and p.stdout.startswith("agent-desktop "), p.stdout[:200]


def test_range_errors_exit_2_for_flags_and_positionals(cli):
    for argv in (["snapshot", "--max-depth", "60"], ["snapshot", "--max-depth", "-1"],
                 ["wait", "86400001"], ["wait", "--timeout", "86400001"],
                 ["wait", "--", "-1"], ["scroll", "@s1:e1", "--amount", "0"]):
        code, env = cli.run(*argv)
        err = expect_error((code, env), "INVALID_ARGS", exit_code=2)
        assert "out of range" in err["message"], (argv, err)


def test_invalid_agent_id_is_refused_for_every_command(cli):
    for args, env in ((["--agent-id", "x y", "status"], None),
                      (["--agent-id", "", "version"], None),
                      (["--agent-id", SEVENTY, "list-apps"], None),
                      (["version"], {"AGENT_DESKTOP_AGENT_ID": "bad id"})):
        code, envelope = cli.run(*args, env=env)
        err = expect_error((code, envelope), "INVALID_ARGS", exit_code=1)
        assert "AGENT_DESKTOP_AGENT_ID" in err["message"] or "--agent-id" in err["message"]
    # The flag wins over the variable, and a valid id runs the command.
    assert cli.ok("--agent-id", "agent-1", "version",
                  env={"AGENT_DESKTOP_AGENT_ID": "bad id"})["version"]


def test_click_with_invalid_agent_id_sends_nothing(cli, fixture_app):
    before = need_state(fixture_app)
    inc = ref(cli, "inc_button")
    expect_error(cli.run("click", inc, "--agent-id", "x y"), "INVALID_ARGS")
    expect_error(cli.run("click", inc, env={"AGENT_DESKTOP_AGENT_ID": SEVENTY}),
                 "INVALID_ARGS")
    # Ordering canary: a valid click after the refused ones; once its effect is seen, the
    # count shows exactly one increment, so the refused clicks delivered nothing.
    cli.ok("click", inc, "--agent-id", "agent-1")
    expect_count(fixture_app, before["count"] + 1)


NAMELESS_APP = """
import gi
gi.require_version("Gtk", "3.0")
from gi.repository import GLib, Gtk
GLib.set_prgname("")
GLib.set_application_name("")
w = Gtk.Window(title="AD nameless")
w.add(Gtk.Button(label="Nameless"))
w.show_all()
Gtk.main()
"""


def test_app_named_from_a_non_utf8_executable_keeps_its_name(cli, tmp_path):
    # With no AT-SPI name the adapter names an app from /proc/PID/exe; a file name is bytes,
    # and json_string dropped the "name" key of such an app from list-apps.
    script = tmp_path / "nameless.py"
    script.write_text(NAMELESS_APP)
    exe = os.path.join(os.fsencode(str(tmp_path)), b"py-\xff")
    with open("/usr/bin/python3", "rb") as src, open(exe, "wb") as dst:
        dst.write(src.read())
    os.chmod(exe, 0o755)
    app = subprocess.Popen([exe, str(script)], env=cli.environment(), stdin=subprocess.DEVNULL)
    try:
        def listed():
            for a in cli.ok("list-apps")["apps"]:
                if a["pid"] == app.pid:
                    return a
            return None
        row = obs.wait_until(listed, timeout=20.0, what="the nameless app in list-apps")
        assert row.get("name") == "py-\\xFF", row
    finally:
        app.kill()
        app.wait()
