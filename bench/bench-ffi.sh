#!/usr/bin/env bash
# bench-ffi.sh: what a C library call costs against the same CLI call, side by side.
#
#   bench/bench-ffi.sh [BUILD_DIR]   (default: build)
#
# On a private headless desktop it starts BUILD_DIR/tests/fixture-app/ad-fixture, loads
# BUILD_DIR/libagent_desktop_ffi.so into this python (ctypes) with one adapter kept for the
# whole run, then AD_BENCH_RUNS times (default 10), alternating which goes first, times:
#   version                      agent-desktop version           vs  ad_version
#   snapshot --app ad-fixture -i agent-desktop snapshot ... -i   vs  ad_snapshot(..., 10, true)
#   status                       agent-desktop status            vs  ad_status
# Each answer must be an ok envelope. Prints a Markdown table: min and median in ms and the
# median ratio library / CLI. Every process it started is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=$(realpath "${1:-$here/build}")
cd "$here"
export AD_DESKTOP_PRIVATE=${AD_DESKTOP_PRIVATE:-1}
# shellcheck disable=SC1091
source scripts/desktop-env.sh
AD_BENCH_DIR=$here/bench /usr/bin/python3 - "$build" "${AD_BENCH_RUNS:-10}" <<'PY'
import ctypes as C, json, os, statistics, subprocess, sys, tempfile, time
sys.path.insert(0, os.environ["AD_BENCH_DIR"])
from bench_fixture import start_fixture, stop, wait_registered
build, runs = sys.argv[1], int(sys.argv[2])
home = tempfile.mkdtemp(prefix="ad-bench-ffi-home-")
os.environ["AGENT_DESKTOP_HOME"] = home
binary = os.path.join(build, "agent-desktop")
app = start_fixture(os.path.join(build, "tests/fixture-app/ad-fixture"))
lib = C.CDLL(os.path.join(build, "libagent_desktop_ffi.so"))
lib.ad_adapter_create.restype = C.c_void_p
lib.ad_adapter_destroy.argtypes = [C.c_void_p]
lib.ad_free_string.argtypes = [C.c_void_p]
lib.ad_version.argtypes = [C.POINTER(C.c_void_p)]
lib.ad_status.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
lib.ad_snapshot.argtypes = [C.c_void_p, C.c_char_p, C.c_int32, C.c_uint8, C.c_bool, C.c_bool,
                            C.POINTER(C.c_void_p)]
assert lib.ad_init(7) == 0

def cli(*args):
    t = time.monotonic()
    p = subprocess.run([binary, *args], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL)
    ms = (time.monotonic() - t) * 1000
    assert json.loads(p.stdout)["ok"], p.stdout
    return ms

def call(fn, *args):
    out = C.c_void_p()
    t = time.monotonic()
    rc = fn(*args, C.byref(out))
    ms = (time.monotonic() - t) * 1000
    envelope = json.loads(C.string_at(out.value))
    lib.ad_free_string(out)
    assert rc == 0 and envelope["ok"], envelope
    return ms

adapter = C.c_void_p(lib.ad_adapter_create())
cases = [
    ("version", ("version",), lambda: call(lib.ad_version)),
    ("snapshot -i", ("snapshot", "--app", "ad-fixture", "-i"),
     lambda: call(lib.ad_snapshot, adapter, b"ad-fixture", 0, 10, True, False)),
    ("status", ("status",), lambda: call(lib.ad_status, adapter)),
]
try:
    wait_registered(lambda: cli("snapshot", "--app", "ad-fixture", "-i"), "bench-ffi")
    times = {name: {"cli": [], "lib": []} for name, _, _ in cases}
    for name, argv, fn in cases:  # untimed warm-up
        cli(*argv)
        fn()
    for i in range(runs):
        for name, argv, fn in cases:
            for kind in (("cli", "lib") if i % 2 == 0 else ("lib", "cli")):
                times[name][kind].append(cli(*argv) if kind == "cli" else fn())
    print("| call | CLI min | CLI median | library min | library median | library / CLI |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, _, _ in cases:
        c, l = times[name]["cli"], times[name]["lib"]
        print("| %s | %.1f | %.1f | %.1f | %.1f | %.2f |"
              % (name, min(c), statistics.median(c), min(l), statistics.median(l),
                 statistics.median(l) / statistics.median(c)))
    print("\n%d interleaved runs each, ms; one adapter for the library's whole run." % runs)
finally:
    lib.ad_adapter_destroy(adapter)
    stop(app)
PY
