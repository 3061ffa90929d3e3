"""One series of bench-wayland-input.sh on the desktop this process runs in: a fresh
ad-fixture, then RUNS timed pairs of one measure, printed as one JSON line.

  python3 bench/bench_wayland_series.py AD_BIN FIXTURE_BIN type|click|semantic RUNS

type:  `press K` into the fixture's name entry (focused through AT-SPI, untimed), then
       `wait --element ENTRY --predicate value --value TEXT`: key to verified text.
click: X11: `click --headed INC` on the Increment button, then `wait --element COUNT
       --predicate value --value N`. Wayland: app windows have no screen points in this
       build, so `mouse-click --headed --xy` at gnome-shell's Activities toggle, verified by
       polling org.gnome.Shell's OverviewActive (closed again over D-Bus, untimed); with
       AD_GNOME_UNSAFE_MODE=1 the shell's window list proves the fixture's screen points,
       and the click is the X11 one (`click --headed INC` through RemoteDesktop).
semantic: `click INC` headless (AT-SPI Action, every desktop), then the same wait.
"""
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests", "e2e"))
import atspi_observer as obs  # noqa: E402
from bench_fixture import start_fixture, stop  # noqa: E402

AD, FIXTURE, MEASURE, RUNS = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
WAYLAND = os.environ.get("AD_DESKTOP_KIND") == "gnome-wayland"
PROVED = os.environ.get("AD_GNOME_UNSAFE_MODE") == "1"  # screen points on Wayland


def ad(*args):
    p = subprocess.run([AD, *map(str, args)], capture_output=True, text=True, timeout=60)
    env = json.loads(p.stdout)
    if not env["ok"]:
        sys.exit("bench-wayland-input: %s failed: %s" % (args[0], env["error"]))
    return env["data"]


def ref_of(native_id):
    return ad("find", "--app", "ad-fixture", "--native-id", native_id, "--exact",
              "--first")["match"]["ref_id"]


def overview(active=None):
    base = ["gdbus", "call", "--session", "-d", "org.gnome.Shell", "-o", "/org/gnome/Shell",
            "-m"]
    if active is None:
        out = subprocess.run(base + ["org.freedesktop.DBus.Properties.Get", "org.gnome.Shell",
                                     "OverviewActive"], capture_output=True, text=True).stdout
        return "true" in out
    subprocess.run(base + ["org.freedesktop.DBus.Properties.Set", "org.gnome.Shell",
                           "OverviewActive", "<%s>" % str(active).lower()],
                   capture_output=True, check=True)
    obs.wait_until(lambda: overview() == active, timeout=10, what="OverviewActive")


def activities_point():
    for o in obs.walk(obs.apps_named("gnome-shell")[0]):
        e = obs.extents(o.acc) if o.name == "Activities" else None
        if e and e[2] > 0:
            return e[0] + e[2] // 2, e[1] + e[3] // 2
    sys.exit("bench-wayland-input: no Activities toggle")


def now_ms():
    return time.monotonic() * 1000


def series():
    times = []
    if MEASURE == "type":
        window = obs.wait_for_window(app.pid)
        entry = obs.by_id(window, "name_entry")
        ref = ref_of("name_entry")
        obs.set_text(entry, "")
        entry.queryComponent().grabFocus()
        obs.wait_until(lambda: "focused" in obs.state_names(entry), timeout=10, what="focus")
        text = ""
        for i in range(RUNS + 1):  # the first pair is an untimed warm-up
            key = "abcdefghij"[i % 10]
            text += key
            t0 = now_ms()
            ad("press", key)
            if not ad("wait", "--element", ref, "--predicate", "value", "--value", text,
                      "--timeout", 10000)["found"]:
                sys.exit("bench-wayland-input: the typed text was not read back")
            if i:
                times.append(now_ms() - t0)
    elif MEASURE == "click" and WAYLAND and not PROVED:
        x, y = activities_point()
        for i in range(RUNS + 1):
            overview(False)
            time.sleep(0.5)  # untimed: the closing animation ends before the next click
            t0 = now_ms()
            ad("mouse-click", "--headed", "--xy", "%d,%d" % (x, y))
            while not overview():
                if now_ms() - t0 > 10000:
                    sys.exit("bench-wayland-input: the click did not open the Overview")
            if i:
                times.append(now_ms() - t0)
        overview(False)
    else:
        obs.wait_for_window(app.pid)
        inc, count = ref_of("inc_button"), ref_of("count_value")
        n = int(ad("get", count, "--property", "value")["value"] or 0)
        for i in range(RUNS + 1):
            n += 1
            t0 = now_ms()
            ad("click", *(["--headed"] if MEASURE == "click" else []), inc)
            if not ad("wait", "--element", count, "--predicate", "value", "--value", n,
                      "--timeout", 10000)["found"]:
                sys.exit("bench-wayland-input: the click count was not read back")
            if i:
                times.append(now_ms() - t0)
    return times


# On Wayland the input session first (windows are active only while it exists), then the
# fixture, whose new window takes the focus; a present() after the session's last key may be
# refused as focus stealing.
ad("press", "shift")
app = start_fixture(FIXTURE, env=dict(os.environ))
try:
    obs.wait_for_window(app.pid, timeout=30)
    t = sorted(series())
    median = (t[len(t) // 2] if len(t) % 2 else (t[len(t) // 2 - 1] + t[len(t) // 2]) / 2)
    print(json.dumps({"measure": MEASURE, "min": round(t[0], 1), "median": round(median, 1),
                      "runs": len(t)}))
finally:
    stop(app)
