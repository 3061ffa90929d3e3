"""scripts/desktop-env.sh starts a GNOME desktop a second time when the first start fails
(gnome-shell under load sometimes never ends its startup animation), shows the failed
start's logs, and gives up after AD_DESKTOP_START_ATTEMPTS. An openbox desktop gets one
start. The start script is a stand-in (AD_DESKTOP_UP_CMD) that fails a set number of times:
no desktop is started here."""
import os
import subprocess
import textwrap

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ENV_SH = os.path.join(HERE, "..", "..", "scripts", "desktop-env.sh")


def _fake_up(tmp_path, failures):
    """A start script that fails its first `failures` calls (leaving a log), then writes an
    env file as gnome-desktop-up.sh does. Each call appends its DIR to calls.txt."""
    script = tmp_path / "fake-up.sh"
    script.write_text(textwrap.dedent("""\
        #!/usr/bin/env bash
        calls=%(calls)s
        echo "$1" >>"$calls"
        if (( $(wc -l <"$calls") <= %(failures)d )); then
          echo "shell: startup animation never ended" >"$1/gnome-shell.log"
          exit 1
        fi
        echo "export AD_DESKTOP_DIR='$1'" >"$1/env"
        """ % {"calls": tmp_path / "calls.txt", "failures": failures}))
    script.chmod(0o755)
    return str(script)


def _source(tmp_path, kind, failures, attempts=None):
    env = dict(os.environ, AD_DESKTOP_KIND=kind, AD_DESKTOP_PRIVATE="1",
               AD_DESKTOP_UP_CMD=_fake_up(tmp_path, failures), TMPDIR=str(tmp_path))
    env.pop("AD_DESKTOP_START_ATTEMPTS", None)
    if attempts is not None:
        env["AD_DESKTOP_START_ATTEMPTS"] = str(attempts)
    # desktop-down.sh on the stand-in's dir finds no pids; the EXIT trap still runs it.
    p = subprocess.run(["bash", "-c", 'source "$1" && echo "dir=$AD_DESKTOP_DIR"', "bash",
                        ENV_SH], capture_output=True, text=True, env=env, timeout=60,
                       stdin=subprocess.DEVNULL)
    calls = (tmp_path / "calls.txt").read_text().split() \
        if (tmp_path / "calls.txt").exists() else []
    return p, calls


@pytest.mark.parametrize("kind", ["gnome-wayland", "gnome-x11"])
def test_a_failed_gnome_start_is_retried_once(tmp_path, kind):
    p, calls = _source(tmp_path, kind, failures=1)
    assert p.returncode == 0, p.stderr
    assert len(calls) == 2 and calls[0] != calls[1], calls
    assert "dir=" + calls[1] in p.stdout, p.stdout
    assert "attempt 1 of 2" in p.stderr, p.stderr
    assert "startup animation never ended" in p.stderr, p.stderr  # the failed start's log
    assert not os.path.exists(calls[0])  # the failed start's dir is gone
    assert not os.path.exists(calls[1])  # and the good one once the shell exited


def test_two_failed_gnome_starts_give_up(tmp_path):
    p, calls = _source(tmp_path, "gnome-wayland", failures=2)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert len(calls) == 2, calls
    assert "could not start a headless desktop" in p.stderr, p.stderr
    assert "dir=" not in p.stdout


def test_attempts_are_configurable(tmp_path):
    p, calls = _source(tmp_path, "gnome-wayland", failures=2, attempts=3)
    assert p.returncode == 0, p.stderr
    assert len(calls) == 3, calls


def test_openbox_is_started_once(tmp_path):
    p, calls = _source(tmp_path, "openbox", failures=1)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert len(calls) == 1, calls
    assert "attempt" not in p.stderr, p.stderr
