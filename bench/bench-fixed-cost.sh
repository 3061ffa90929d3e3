#!/usr/bin/env bash
# bench-fixed-cost.sh: a command's fixed cost per step, two agent-desktop binaries side by side.
#
#   bench/bench-fixed-cost.sh BASELINE_BIN [CANDIDATE_BIN]   (candidate: build/agent-desktop)
#
# On a private headless desktop (scripts/desktop-env.sh) each series times whole processes,
# AD_BENCH_RUNS times (default 15, at least 7), interleaved, alternating which binary goes
# first; each series that reads an app gets a freshly started ad-fixture (a small GTK 3 app,
# so the walk is a small part of the total). Each step adds one thing to the one above it:
#   /bin/true                          process start of a program that does nothing
#   version                            our process start: loader, startup, one envelope
#   list-apps                          + session and accessibility bus open, app probe,
#                                        desktop entries
#   list-windows --app ad-fixture      + the --app lookup and the window probe
#   snapshot --app ad-fixture -i       + peer connection, walk, refmap and pointer writes
# The CPU time (user + system) of each process is shown too: a loaded machine disturbs it less
# than the wall time. Then each command runs once more per binary under strace, counting fsyncs, connects (bus,
# X11) and .desktop files opened. Prints a Markdown table: min / median ms per binary, the
# differences between consecutive steps (medians) and the counts. Every app it started is
# stopped by pid; the desktop by its EXIT trap.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_binaries_begin bench-fixed-cost.sh "$@"
AD_BENCH_DIR=$root/bench /usr/bin/python3 - "$base" "$cand" "$root/build/tests/fixture-app/ad-fixture" \
  "${AD_BENCH_RUNS:-15}" <<'PY'
import json, os, resource, shutil, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.environ["AD_BENCH_DIR"])
from bench_fixture import start_fixture, stop, wait_registered
base, cand, fixture, runs = sys.argv[1], sys.argv[2], sys.argv[3], max(7, int(sys.argv[4]))
homes = {b: tempfile.mkdtemp(prefix="ad-bench-home-") for b in (base, cand)}
APP = ("--app", "ad-fixture")
STEPS = [("/bin/true", None, False), ("version", ("version",), False),
         ("list-apps", ("list-apps",), True),
         ("list-windows --app", ("list-windows",) + APP, True),
         ("snapshot --app -i", ("snapshot",) + APP + ("-i",), True)]

def argv(binary, args):
    return ["/bin/true"] if args is None else [binary, *args]

def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000

last_cpu = [0.0]  # the CPU ms (user + system) of the last run

def run(binary, args, prefix=()):
    t, c = time.monotonic(), children_cpu_ms()
    p = subprocess.run([*prefix, *argv(binary, args)], capture_output=True, text=True,
                       env=dict(os.environ, AGENT_DESKTOP_HOME=homes[binary]))
    ms = (time.monotonic() - t) * 1000
    last_cpu[0] = children_cpu_ms() - c
    if args is not None and not prefix:
        assert json.loads(p.stdout)["ok"], (binary, args, p.stdout[:400])
    return ms

def counts(binary, args):
    if args is None:
        return "", "", ""
    fd, log = tempfile.mkstemp(prefix="ad-bench-strace-")
    os.close(fd)
    try:
        run(binary, args, prefix=("strace", "-f", "-qq", "-e", "trace=fsync,fdatasync,connect,openat",
                                  "-o", log))
        with open(log, errors="replace") as f:
            lines = f.readlines()
    finally:
        os.unlink(log)
    fsyncs = sum(1 for l in lines if " fsync(" in l or " fdatasync(" in l)
    x11 = sum(1 for l in lines if " connect(" in l and ".X11-unix" in l)
    bus = sum(1 for l in lines if " connect(" in l and ".X11-unix" not in l)
    desktop = sum(1 for l in lines if " openat(" in l and '.desktop"' in l)
    return fsyncs, "%d / %d" % (bus, x11), desktop

def start():
    p = start_fixture(fixture)
    def probe():
        q = subprocess.run([cand, "list-windows", *APP], capture_output=True, text=True,
                           env=dict(os.environ, AGENT_DESKTOP_HOME=homes[cand]))
        assert any(w.get("pid") == p.pid for w in json.loads(q.stdout).get("data") or [])
    wait_registered(probe, "bench-fixed-cost", timeout=60)
    return p

def fmt(v):
    return "%.2f / %.2f" % (min(v), statistics.median(v))

t, cpu, c = {}, {}, {}
for name, args, needs_app in STEPS:
    p = start() if needs_app else None
    try:
        for b in (base, cand):  # warm-up: GTK builds accessibles lazily
            run(b, args)
        for b in (base, cand):
            t[(b, name)], cpu[(b, name)] = [], []
        for i in range(runs):
            for b in ((base, cand) if i % 2 == 0 else (cand, base)):
                t[(b, name)].append(run(b, args))
                cpu[(b, name)].append(last_cpu[0])
        for b in (base, cand):
            c[(b, name)] = counts(b, args)
    finally:
        if p:
            stop(p)
print("%d interleaved runs per step, fresh ad-fixture per series; ms min / median; "
      "step = median minus the step above" % runs)
print("| step | baseline ms | candidate ms | baseline step | candidate step "
      "| baseline CPU ms | candidate CPU ms "
      "| fsyncs base / cand | connects bus / X11, base ; cand | .desktop opened base / cand |")
print("|---|---|---|---|---|---|---|---|---|---|")
prev = None
for name, _, _ in STEPS:
    med = {b: statistics.median(t[(b, name)]) for b in (base, cand)}
    step = {b: ("%+.2f" % (med[b] - prev[b]) if prev else "") for b in (base, cand)}
    cb, cc = c[(base, name)], c[(cand, name)]
    print("| %s | %s | %s | %s | %s | %s | %s | %s / %s | %s ; %s | %s / %s |" % (
        name, fmt(t[(base, name)]), fmt(t[(cand, name)]), step[base], step[cand],
        fmt(cpu[(base, name)]), fmt(cpu[(cand, name)]),
        cb[0], cc[0], cb[1], cc[1], cb[2], cc[2]))
    prev = med
for h in homes.values():
    shutil.rmtree(h, ignore_errors=True)
PY
