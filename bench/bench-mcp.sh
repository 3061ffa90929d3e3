#!/usr/bin/env bash
# bench-mcp.sh: what an MCP tools/call costs against the same CLI call, side by side.
#
#   bench/bench-mcp.sh [BIN]   (default: build/agent-desktop)
#
# On a private headless desktop it starts build/tests/fixture-app/ad-fixture and one
# `agent-desktop mcp` server (2026-07-28 requests, newline-delimited JSON-RPC on its stdin),
# then AD_BENCH_RUNS times (default 10), alternating which goes first, times:
#   version                         CLI process   vs  tools/call desktop_version
#   snapshot --app ad-fixture -i    CLI process   vs  tools/call desktop_snapshot
# The MCP time is the round trip from writing the request to reading its response; each
# response must carry an ok envelope. Prints a Markdown table: min and median in ms, the
# median ratio MCP / CLI and the median overhead per call. Every process it started is
# stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bin=$(realpath "${1:-$here/build/agent-desktop}")
cd "$here"
export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck disable=SC1091
source scripts/desktop-env.sh
AD_BENCH_DIR=$here/bench /usr/bin/python3 - "$bin" "$here/build/tests/fixture-app/ad-fixture" \
  "${AD_BENCH_RUNS:-10}" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.environ["AD_BENCH_DIR"])
from bench_fixture import start_fixture, stop, wait_registered
binary, fixture, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
home = tempfile.mkdtemp(prefix="ad-bench-mcp-home-")
env = dict(os.environ, AGENT_DESKTOP_HOME=home)
app = start_fixture(fixture, env)
server = subprocess.Popen([binary, "mcp"], env=env, stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
next_id = [0]

def cli(*args):
    t = time.monotonic()
    p = subprocess.run([binary, *args], capture_output=True, text=True, env=env,
                       stdin=subprocess.DEVNULL)
    ms = (time.monotonic() - t) * 1000
    envelope = json.loads(p.stdout)
    assert envelope["ok"], envelope
    return ms

def mcp(tool, arguments):
    next_id[0] += 1
    req = {"jsonrpc": "2.0", "id": next_id[0], "method": "tools/call",
           "params": {"_meta": META, "name": tool, "arguments": arguments}}
    t = time.monotonic()
    server.stdin.write(json.dumps(req) + "\n")
    server.stdin.flush()
    resp = json.loads(server.stdout.readline())
    ms = (time.monotonic() - t) * 1000
    assert resp["id"] == next_id[0] and resp["result"]["structuredContent"]["ok"], resp
    return ms

cases = [
    ("version", ("version",), ("desktop_version", {})),
    ("snapshot -i", ("snapshot", "--app", "ad-fixture", "-i"),
     ("desktop_snapshot", {"app": "ad-fixture", "interactive_only": True})),
]
try:
    wait_registered(lambda: cli("snapshot", "--app", "ad-fixture", "-i"), "bench-mcp")
    times = {name: {"cli": [], "mcp": []} for name, _, _ in cases}
    for name, argv, (tool, arguments) in cases:  # untimed warm-up
        cli(*argv)
        mcp(tool, arguments)
    for i in range(runs):
        for name, argv, (tool, arguments) in cases:
            order = ("cli", "mcp") if i % 2 == 0 else ("mcp", "cli")
            for kind in order:
                times[name][kind].append(cli(*argv) if kind == "cli" else mcp(tool, arguments))
    print("| call | CLI min | CLI median | MCP min | MCP median | MCP / CLI | overhead |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, _, _ in cases:
        c, m = times[name]["cli"], times[name]["mcp"]
        mc, mm = statistics.median(c), statistics.median(m)
        print("| %s | %.1f | %.1f | %.1f | %.1f | %.2f | %+.1f ms |"
              % (name, min(c), mc, min(m), mm, mm / mc, mm - mc))
    print("\n%d interleaved runs each, ms." % runs)
finally:
    server.stdin.close()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    stop(app)
PY
