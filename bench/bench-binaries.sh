#!/usr/bin/env bash
# bench-binaries.sh: two agent-desktop binaries side by side on freshly started apps.
#
#   bench/bench-binaries.sh BASELINE_BIN [CANDIDATE_BIN]   (candidate default: build/agent-desktop)
#
# For each app of AD_BENCH_APPS (default: gtk3-widget-factory gnome-calculator
# ad-bench-synthetic, the last with 10000 nodes; gtk4-demo may be added) it starts the app on a private headless
# desktop (scripts/desktop-env.sh), waits for its window, warms each binary up once (GTK
# builds accessibles lazily), then AD_BENCH_RUNS times (default 7), alternating which binary
# goes first, times two whole processes with each binary (wall time, and the process's own CPU
# time, user + system, which a loaded machine disturbs less):
#   snapshot --app NAME --max-depth 50 --timeout-ms 60000
#   get REF --property role       (REF: the first ref of that binary's own last snapshot;
#                                  a strict resolution, the read every action starts with)
# The last snapshot's stdout of each binary is compared byte for byte (its snapshot id, which
# also qualifies every ref, replaced by one placeholder): column "same output".
# Then it runs each command once more per binary under strace and counts the D-Bus messages
# the process sent (sendmsg/writev: the bus and a GTK 3 app's direct connection) and those
# asking AccessibleId. Prints a Markdown table: min / median ms per binary, the ratio of
# medians candidate / baseline, node counts and the message counts. Every app it started is
# stopped by pid; the desktop by its EXIT trap.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=bench/bench-lib.sh
source "$root/bench/bench-lib.sh"
bench_binaries_begin bench-binaries.sh "$@"
/usr/bin/python3 - "$base" "$cand" "$root/build/bench/ad-bench-synthetic" \
  "${AD_BENCH_RUNS:-7}" "${AD_BENCH_APPS:-gtk3-widget-factory gnome-calculator ad-bench-synthetic}" <<'PY'
import json, os, resource, shutil, signal, statistics, subprocess, sys, tempfile, time
base, cand, synth, runs, apps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split()
homes = {b: tempfile.mkdtemp(prefix="ad-bench-home-") for b in (base, cand)}
label = {base: "baseline", cand: "candidate"}
last_out = {}  # binary -> stdout of its last snapshot
cpu = {}  # (binary, command) -> CPU ms of each timed run

def children_cpu_ms():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (r.ru_utime + r.ru_stime) * 1000

def run(binary, *args, trace=None, counted=True):
    argv = [binary, *args]
    if trace:
        argv = ["strace", "-f", "-qq", "-e", "trace=sendmsg,writev", "-s", "4096", "-o", trace] + argv
    t, c = time.monotonic(), children_cpu_ms()
    p = subprocess.run(argv, capture_output=True, text=True,
                       env=dict(os.environ, AGENT_DESKTOP_HOME=homes[binary]))
    ms = (time.monotonic() - t) * 1000
    if counted and not trace:
        cpu.setdefault((binary, args[0]), []).append(children_cpu_ms() - c)
    env = json.loads(p.stdout)
    if args[0] == "snapshot" and not trace:
        last_out[binary] = p.stdout.replace(env["data"]["snapshot_id"], "S")
    # Under strace a read may pass its deadline: its messages are still counted, marked.
    assert env["ok"] or trace, (label[binary], args, env.get("error"))
    return ms, env.get("data")

def first_ref(node):
    if "ref_id" in node:
        return node["ref_id"]
    for c in node.get("children", []):
        r = first_ref(c)
        if r:
            return r
    return None

def count_nodes(node):
    return 1 + sum(count_nodes(c) for c in node.get("children", []))

def messages(binary, *args):
    fd, log = tempfile.mkstemp(prefix="ad-bench-strace-")
    os.close(fd)
    try:
        _, data = run(binary, *args, trace=log)
        with open(log, errors="replace") as f:
            lines = [l for l in f if "sendmsg(" in l or "writev(" in l]
    finally:
        os.unlink(log)
    return len(lines), sum("AccessibleId" in l for l in lines), "" if data else " cut"

def start(app):
    argv = {"gtk3-widget-factory": ["gtk3-widget-factory"], "gnome-calculator": ["gnome-calculator"],
            "ad-bench-synthetic": [synth, "10000"], "gtk4-demo": ["gtk4-demo"]}[app]
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        q = subprocess.run([cand, "list-windows", "--app", app], capture_output=True, text=True,
                           env=dict(os.environ, AGENT_DESKTOP_HOME=homes[cand]))
        try:
            if any(w.get("pid") == p.pid for w in json.loads(q.stdout).get("data") or []):
                return p
        except ValueError:
            pass
        time.sleep(0.3)
    stop(p)
    raise SystemExit("%s showed no window" % app)

def stop(p):
    p.send_signal(signal.SIGTERM)
    try:
        p.wait(5)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()

def fmt(v):
    return "%.1f / %.1f" % (min(v), statistics.median(v))

rows = []
for app in apps:
    p = start(app)
    try:
        snap_args = ("snapshot", "--app", app, "--max-depth", "50", "--timeout-ms", "60000")
        nodes, refs = {}, {}
        for b in (base, cand):  # warm-up
            _, d = run(b, *snap_args)
            nodes[b], refs[b] = count_nodes(d["tree"]), first_ref(d["tree"])
        t = {(b, c): [] for b in (base, cand) for c in ("snapshot", "get")}
        cpu.clear()  # the warm-up's CPU is not counted
        for i in range(runs):
            for b in ((base, cand) if i % 2 == 0 else (cand, base)):
                ms, d = run(b, *snap_args)
                t[(b, "snapshot")].append(ms)
                nodes[b], refs[b] = count_nodes(d["tree"]), first_ref(d["tree"])
                ms, _ = run(b, "get", refs[b], "--property", "role")
                t[(b, "get")].append(ms)
        same = "yes" if last_out[base] == last_out[cand] else "NO"
        msgs = {}
        for b in (base, cand):
            msgs[(b, "snapshot")] = messages(b, *snap_args)
            _, d = run(b, *snap_args, counted=False)
            msgs[(b, "get")] = messages(b, "get", first_ref(d["tree"]), "--property", "role")
        for c in ("snapshot", "get"):
            mb, mc = statistics.median(t[(base, c)]), statistics.median(t[(cand, c)])
            rows.append("| %s | %s | %d / %d | %s | %s | %.2f / %.2f | %s | %s | %d (%d Id)%s | %d (%d Id)%s | %s |" % (
                app, c, nodes[base], nodes[cand], fmt(t[(base, c)]), fmt(t[(cand, c)]),
                min(t[(cand, c)]) / min(t[(base, c)]), mc / mb,
                fmt(cpu[(base, c)]), fmt(cpu[(cand, c)]),
                *msgs[(base, c)], *msgs[(cand, c)], same if c == "snapshot" else ""))
    finally:
        stop(p)
print("%d interleaved runs each, fresh app per series; ms min / median; ratio candidate / baseline" % runs)
print("| app | command | nodes base / cand | baseline ms | candidate ms | ratio min / median "
      "| baseline CPU ms | candidate CPU ms | baseline messages | candidate messages "
      "| same output |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
print("\n".join(rows))
for h in homes.values():
    shutil.rmtree(h, ignore_errors=True)
PY
