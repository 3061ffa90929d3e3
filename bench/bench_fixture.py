"""What the Python benches share: start the fixture, wait until it is on the bus, stop it."""
import subprocess
import sys
import time


def start_fixture(path, env=None):
    """Starts the fixture app in its own session; the caller stops it with stop()."""
    return subprocess.Popen([path], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def wait_registered(probe, who, timeout=30):
    """Calls probe() (a CLI snapshot of the fixture that raises AssertionError or ValueError
    until the app answers) until it succeeds; exits the bench after timeout seconds."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            probe()
            return
        except (AssertionError, ValueError):
            if time.monotonic() > deadline:
                sys.exit("%s: ad-fixture did not register" % who)
            time.sleep(0.2)


def stop(popen):
    """SIGTERM, then SIGKILL after 5 s, by pid."""
    popen.terminate()
    try:
        popen.wait(timeout=5)
    except subprocess.TimeoutExpired:
        popen.kill()
        popen.wait()
