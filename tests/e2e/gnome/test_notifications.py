"""Notifications on GNOME Shell (commands/notifications.md, commands/wait.md "Notification"):
notify-send posts them; the effects are read independently: the shell's own AT-SPI tree
through pyatspi (the message list's rows and the banner, with their labels and buttons) and
notify-send's process (`--wait` exits when the notification closes and prints the action
chosen with -A). app_name comes from the helper's D-Bus monitor (helper/notify_monitor.h),
which sees only what is posted after a notification command started it: tests that expect a
name run `list-notifications` before they post.

Every title is unique per test, so rows the desktop posted itself (GNOME warns a root
session with "Logged in as a privileged user") never match. The mutations press the shell
with the adapter's physical op: XTEST on GNOME X11; on GNOME Wayland they need the
RemoteDesktop input session (the wlinput branch) and fail with ACTION_NOT_SUPPORTED
wayland_session before it is merged."""
import json
import os
import signal
import subprocess
import time
import uuid

import pytest
import pyatspi

import atspi_observer as obs
from e2e_helpers import expect_error, helper_pid

# gnome-shell 43: a banner's notification object sits 4 levels below the application, the
# message list's rows 15 (the same layout facts the adapter documents).
BANNER_MAX_DEPTH = 8


def _shell():
    apps = obs.apps_named("gnome-shell")
    assert apps, "gnome-shell is not on the AT-SPI bus"
    return apps[0]


def _notification_nodes():
    """(depth, accessible) of every notification object in the shell's tree."""
    found = []

    def walk(acc, depth):
        try:
            if acc.getRoleName() == "notification":
                found.append((depth, acc))
                return
            for i in range(acc.childCount):
                child = acc.getChildAtIndex(i)
                if child is not None:
                    walk(child, depth + 1)
        except Exception:  # a row that left during the walk
            pass
    walk(_shell(), 0)
    return found


def _named(acc, role):
    """The names of the nodes with this role under acc, in document order, empty ones left
    out."""
    out = []

    def walk(a):
        if a.getRoleName() == role and a.name:
            out.append(a.name)
        for i in range(a.childCount):
            c = a.getChildAtIndex(i)
            if c is not None:
                walk(c)
    walk(acc)
    return out


def shell_rows():
    """The message list's rows as pyatspi reads them: each row's labels, in list order. A
    read that meets an object the shell just destroyed (a banner going) is read again."""
    for attempt in range(5):
        try:
            return [_named(a, "label") for d, a in _notification_nodes()
                    if d > BANNER_MAX_DEPTH]
        except Exception as e:  # GLib.GError: "... does not exist"
            if "does not exist" not in str(e) or attempt == 4:
                raise
            time.sleep(0.2)


def shell_titles():
    return [labels[0] for labels in shell_rows() if labels]


def banner():
    """(labels, named buttons) of the banner showing now, or None."""
    for d, a in _notification_nodes():
        if d <= BANNER_MAX_DEPTH and a.getState().contains(pyatspi.STATE_SHOWING):
            return _named(a, "label"), _named(a, "push button")
    return None


class Notes:
    """notify-send processes started by a test, each stopped by pid at its end."""

    def __init__(self):
        self.procs = []

    def send(self, title, body=None, actions=(), critical=False, wait=True, app=None,
             copies=1):
        """Posts one notification and waits until the shell lists `copies` rows with its
        title."""
        argv = ["notify-send"]
        if app:
            argv += ["-a", app]
        if wait:
            argv.append("--wait")
        if critical:
            argv += ["-u", "critical"]
        for name, label in actions:
            argv += ["-A", "%s=%s" % (name, label)]
        argv.append(title)
        if body is not None:
            argv.append(body)
        p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.append(p)
        obs.wait_until(lambda: shell_titles().count(title) >= copies, timeout=30.0,
                       what="%r in the shell's message list" % title)
        return p

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait(timeout=10)


@pytest.fixture
def notes(gnome_kind):
    n = Notes()
    yield n
    n.stop()


def tag():
    return uuid.uuid4().hex[:8]


def listed(run, *args):
    code, env = run("list-notifications", *args)
    assert code == 0 and env["ok"], env
    return env["data"]


def index_of(rows, title):
    hits = [r for r in rows["notifications"] if r["title"] == title]
    assert len(hits) == 1, rows
    return hits[0]


# ---- list ------------------------------------------------------------------------------


def test_list_matches_the_shell(run, notes):
    listed(run)  # starts the helper's monitor: what follows is named
    t = tag()
    notes.send("first %s" % t, "body one %s" % t)
    notes.send("second %s" % t)  # no body
    data = listed(run)
    assert data["count"] == len(data["notifications"])
    # The same rows, in the same order, as the shell's own tree.
    assert [r["title"] for r in data["notifications"]] == shell_titles()
    assert [r["index"] for r in data["notifications"]] == list(range(1, data["count"] + 1))
    first, second = index_of(data, "first %s" % t), index_of(data, "second %s" % t)
    assert first["body"] == "body one %s" % t
    assert "body" not in second
    # The shell's tree never names the sender; the monitor saw notify-send's Notify calls
    # (the one without a body too: an empty body equals a missing one).
    assert first["app_name"] == second["app_name"] == "notify-send"


def test_filters_and_limit_keep_the_unfiltered_index(run, notes):
    listed(run)
    t = tag()
    notes.send("filter-a %s" % t, "alpha")
    notes.send("filter-b %s" % t, "beta %s" % t)
    full = listed(run)
    a, b = index_of(full, "filter-a %s" % t), index_of(full, "filter-b %s" % t)
    only = listed(run, "--text", "ALPHA")
    assert [r["index"] for r in only["notifications"] if r["title"].endswith(t)] == \
        [a["index"]]
    both = listed(run, "--text", t)
    assert sorted(r["index"] for r in both["notifications"]) == sorted([a["index"], b["index"]])
    assert listed(run, "--limit", "1")["notifications"] == [full["notifications"][0]]
    # --app matches the proved app_name, case-insensitively; another app matches none.
    ours = listed(run, "--app", "NOTIFY-SEND")
    assert sorted(r["index"] for r in ours["notifications"] if r["title"].endswith(t)) == \
        sorted([a["index"], b["index"]])
    assert all(r["app_name"] == "notify-send" for r in ours["notifications"])
    assert listed(run, "--app", "nobody-sends-this")["count"] == 0


def test_banner_actions_are_listed(run, notes):
    t = tag()
    notes.send("actions %s" % t, "pick one", actions=[("yes", "Yes"), ("no", "No")],
               critical=True)
    shown = banner()
    row = index_of(listed(run), "actions %s" % t)
    if shown and shown[0][0] == "actions %s" % t:
        assert row["actions"] == shown[1] == ["Yes", "No"]
    else:
        # Another banner (the desktop's own critical one) holds the screen: GNOME 43 shows
        # action buttons on the banner only, so none are listed.
        assert "actions" not in row


# ---- guard and policy --------------------------------------------------------------------


def test_mutations_need_headed(run, notes):
    t = tag()
    p = notes.send("headless %s" % t)
    idx = index_of(listed(run), "headless %s" % t)["index"]
    expect_error(run("dismiss-notification", str(idx), "--expected-title", "headless %s" % t),
                 "POLICY_DENIED")
    expect_error(run("dismiss-all-notifications"), "POLICY_DENIED")
    expect_error(run("notification-action", str(idx), "x", "--expected-title",
                     "headless %s" % t), "POLICY_DENIED")
    # Canary: a notification posted after the refusals is listed, and the old one still is.
    notes.send("canary %s" % t)
    assert "headless %s" % t in shell_titles() and p.poll() is None


def test_identity_is_required(run, notes):
    t = tag()
    notes.send("noid %s" % t)
    err = expect_error(run("--headed", "dismiss-notification", "1"), "INVALID_ARGS")
    assert "--expected-title" in err["message"]


def test_identity_guard_presses_nothing(run, notes, gnome_kind):
    listed(run)
    t = tag()
    keep = notes.send("keep %s" % t, "stay")
    gone = notes.send("gone %s" % t, "go")
    data = listed(run)
    ki, gi = index_of(data, "keep %s" % t)["index"], index_of(data, "gone %s" % t)["index"]
    # The row at keep's index is named with the other's title, and with an app that did not
    # send it: both refused before any input.
    err = expect_error(run("--headed", "dismiss-notification", str(ki), "--expected-title",
                           "gone %s" % t), "NOTIFICATION_NOT_FOUND")
    assert err["details"]["index"] == ki
    err = expect_error(run("--headed", "dismiss-notification", str(ki), "--expected-app",
                           "another-app"), "NOTIFICATION_NOT_FOUND")
    assert err["details"]["index"] == ki and "another app" in err["message"]
    # Canary: the right identity dismisses `gone`; once it has left the shell's tree, `keep`
    # must still be there, its sender still waiting.
    code, env = run("--headed", "dismiss-notification", str(gi), "--expected-title",
                    "gone %s" % t)
    assert code == 0 and env["ok"], env
    gone.wait(timeout=30)
    assert "gone %s" % t not in shell_titles()
    assert "keep %s" % t in shell_titles() and keep.poll() is None


# ---- dismiss, action ---------------------------------------------------------------------


def test_dismiss_one(run, notes):
    t = tag()
    p = notes.send("dismiss %s" % t, "bye")
    row = index_of(listed(run), "dismiss %s" % t)
    code, env = run("--headed", "dismiss-notification", str(row["index"]), "--expected-title",
                    "dismiss %s" % t)
    assert code == 0 and env["ok"], env
    assert env["data"]["dismissed"] == row
    assert env["data"]["disposition"]["delivery"] == "delivered_verified"
    # Independent reads: the sender's --wait returns (the notification closed) and the row
    # left the shell's tree.
    p.wait(timeout=30)
    assert "dismiss %s" % t not in shell_titles()


def test_dismiss_all(run, notes):
    t = tag()
    procs = [notes.send("all-%d %s" % (i, t)) for i in range(2)]
    code, env = run("--headed", "dismiss-all-notifications", timeout=120)
    assert code == 0 and env["ok"], env
    assert env["data"]["dismissed_count"] == len(env["data"]["dismissed"]) >= 2
    assert "failures" not in env["data"], env
    for p in procs:
        p.wait(timeout=30)
    assert not [x for x in shell_titles() if x.endswith(t)]
    assert shell_rows() == []


def test_notification_action_reaches_the_sender(run, notes):
    # The desktop's own critical banner holds the banner slot: clear the list first so this
    # notification's banner (the only place GNOME 43 shows action buttons) comes up.
    code, env = run("--headed", "dismiss-all-notifications", timeout=120)
    assert code == 0 and env["ok"], env
    t = tag()
    p = notes.send("act %s" % t, "choose", actions=[("yes", "Yes"), ("no", "No")],
                   critical=True)
    obs.wait_until(lambda: (banner() or ([None], []))[0][0] == "act %s" % t, timeout=30.0,
                   what="the banner of the notification")
    row = index_of(listed(run), "act %s" % t)
    assert row["actions"] == ["Yes", "No"]
    # An action the notification does not offer: refused, nothing pressed.
    expect_error(run("--headed", "notification-action", str(row["index"]), "Later",
                     "--expected-title", "act %s" % t), "ACTION_NOT_SUPPORTED")
    assert p.poll() is None
    code, env = run("--headed", "notification-action", str(row["index"]), "No",
                    "--expected-title", "act %s" % t)
    assert code == 0 and env["ok"], env
    assert env["data"]["disposition"]["delivery"] == "delivered_unverified"
    out, _ = p.communicate(timeout=30)
    assert out.strip() == "no"


# ---- wait --notification -----------------------------------------------------------------


def wait_while_posting(cli, args, post):
    """Runs `wait --notification ARGS` and, until it ends (at most 20 rounds), calls post(k);
    returns the wait's envelope."""
    w = subprocess.Popen([cli.binary, "wait", "--notification"] + list(args),
                         stdout=subprocess.PIPE, text=True, env=cli.environment())
    try:
        for k in range(20):
            if w.poll() is not None:
                break
            post(k)
        out, _ = w.communicate(timeout=40)
    finally:
        if w.poll() is None:
            w.kill()
            w.wait(timeout=10)
    return json.loads(out)


def test_wait_sees_only_a_new_notification(cli, notes):
    t = tag()
    notes.send("old %s" % t, "already here")
    # The old one matches --text but is in the baseline: the wait times out.
    code, env = cli.run("wait", "--notification", "--text", "old %s" % t, "--timeout", "1500")
    assert env["error"]["code"] == "TIMEOUT", env
    # A running wait returns the first matching notification posted after its baseline;
    # a non-matching one posted just before each matching one is skipped.
    sent = []

    def post(k):
        notes.send("other-%d %s" % (k, t), wait=False)
        notes.send("new %s %d" % (t, k), wait=False)
        sent.append("new %s %d" % (t, k))
    env = wait_while_posting(cli, ["--text", "new " + t, "--timeout", "30000"], post)
    assert env["ok"], env
    got = env["data"]["notification"]
    assert env["data"]["condition"] == "notification" and env["data"]["matched"] is True
    assert got["title"] in sent and got["title"] != "old %s" % t


# ---- app_name from the helper's monitor --------------------------------------------------


def test_monitored_app_name_filters_and_guards(run, notes):
    listed(run)  # the first notification command starts the monitor
    t = tag()
    p = notes.send("named %s" % t, "from my app %s" % t, app="MyApp")
    row = index_of(listed(run), "named %s" % t)
    assert row["app_name"] == "MyApp"
    only = listed(run, "--app", "myapp")["notifications"]
    assert [r["title"] for r in only if r["title"].endswith(t)] == ["named %s" % t]
    assert all(r["app_name"] == "MyApp" for r in only)
    # Another app's name is refused before any input ...
    expect_error(run("--headed", "dismiss-notification", str(row["index"]), "--expected-app",
                     "OtherApp"), "NOTIFICATION_NOT_FOUND")
    # ... ordering canary: a notification posted after the refusal is listed, and ours is
    # still there, its sender still waiting.
    notes.send("canary %s" % t)
    assert "named %s" % t in shell_titles() and p.poll() is None
    # The proved app dismisses it (case-insensitive): the sender's --wait returns and the
    # row left the shell's tree.
    row = index_of(listed(run), "named %s" % t)
    code, env = run("--headed", "dismiss-notification", str(row["index"]), "--expected-app",
                    "myapp")
    assert code == 0 and env["ok"], env
    assert env["data"]["dismissed"]["app_name"] == "MyApp"
    p.wait(timeout=30)
    assert "named %s" % t not in shell_titles()


def test_twins_have_no_app_name(run, notes):
    listed(run)
    t = tag()
    notes.send("twin %s" % t, "same text", app="AppA")
    notes.send("twin %s" % t, "same text", app="AppB", copies=2)
    twins = [r for r in listed(run)["notifications"] if r["title"] == "twin %s" % t]
    # Two senders with the same title and body: neither row can be proved to be either's.
    assert len(twins) == 2 and not [r for r in twins if "app_name" in r], twins
    assert not [r for r in listed(run, "--app", "appa")["notifications"]
                if r["title"] == "twin %s" % t]


def test_wait_names_the_app(cli, run, notes):
    listed(run)
    t = tag()

    def post(k):  # another app's notification does not end the wait; ours does
        notes.send("not ours %d %s" % (k, t), app="OtherApp", wait=False)
        notes.send("waited %d %s" % (k, t), app="WaitApp", wait=False)
    env = wait_while_posting(cli, ["--app", "WaitApp", "--timeout", "30000"], post)
    assert env["ok"], env
    got = env["data"]["notification"]
    assert got["app_name"] == "WaitApp" and got["title"].startswith("waited ")


def test_without_the_helper_app_name_is_left_out(run, notes):
    listed(run)
    t = tag()
    notes.send("seen %s" % t, "b", app="MyApp")
    assert index_of(listed(run), "seen %s" % t)["app_name"] == "MyApp"
    # Killed by pid: the list still works; the new helper's monitor never saw the post.
    pid = helper_pid()
    assert pid
    os.kill(pid, signal.SIGKILL)
    obs.wait_until(lambda: not os.path.exists("/proc/%d" % pid), timeout=10,
                   what="the killed helper gone")
    row = index_of(listed(run), "seen %s" % t)
    assert "app_name" not in row and row["body"] == "b"
    expect_error(run("--headed", "dismiss-notification", str(row["index"]), "--expected-app",
                     "MyApp"), "NOTIFICATION_NOT_FOUND")
    # A helper that cannot answer (stopped by pid): the list still works, unnamed.
    pid = helper_pid()
    assert pid
    notes.send("stalled %s" % t, "b", app="MyApp")
    os.kill(pid, signal.SIGSTOP)
    try:
        code, env = run("list-notifications", timeout=60)
    finally:
        os.kill(pid, signal.SIGCONT)
    assert code == 0 and env["ok"], env
    row = index_of(env["data"], "stalled %s" % t)
    assert "app_name" not in row and "seen %s" % t in [r["title"] for r in
                                                       env["data"]["notifications"]]
