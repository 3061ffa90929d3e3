"""ffi_driver.py: calls libagent_desktop_ffi.so through ctypes (standard library only) and
prints one JSON line of what the calls returned. test_ffi_core.py runs it as a child process,
so the library can be the ASan build (the parent adds libasan to LD_PRELOAD) and a crash
fails only the scenario, and reads every effect itself.

    python3 ffi_driver.py LIB SCENARIO [ARG...]
"""
import ctypes as C
import json
import os
import sys


class AdScrollParams(C.Structure):
    _fields_ = [("direction", C.c_int32), ("amount", C.c_uint32)]


class AdKeyCombo(C.Structure):
    _fields_ = [("key", C.c_char_p), ("modifiers", C.POINTER(C.c_int32)),
                ("modifier_count", C.c_uint32)]


class AdPoint(C.Structure):
    _fields_ = [("x", C.c_double), ("y", C.c_double)]


class AdDragParams(C.Structure):
    _fields_ = [("from_", AdPoint), ("to", AdPoint), ("duration_ms", C.c_uint64),
                ("drop_delay_ms", C.c_uint64)]


class AdAction(C.Structure):
    _fields_ = [("kind", C.c_int32), ("text", C.c_char_p), ("scroll", AdScrollParams),
                ("key", AdKeyCombo), ("drag", AdDragParams)]


class AdOptionalU64(C.Structure):
    _fields_ = [("value", C.c_uint64), ("present", C.c_bool)]


class AdOptionalUsize(C.Structure):
    _fields_ = [("value", C.c_size_t), ("present", C.c_bool)]


class AdWaitSurfaceModes(C.Structure):
    _fields_ = [("menu", C.c_bool), ("menu_closed", C.c_bool), ("notification", C.c_bool)]


class AdWaitMode(C.Structure):
    _fields_ = [("pause", AdOptionalU64), ("element", C.c_char_p), ("window", C.c_char_p),
                ("text", C.c_char_p), ("surfaces", AdWaitSurfaceModes)]


class AdWaitPredicate(C.Structure):
    _fields_ = [("predicate", C.c_char_p), ("value", C.c_char_p), ("action", C.c_char_p),
                ("count", AdOptionalUsize)]


class AdWaitScope(C.Structure):
    _fields_ = [("timeout_ms", C.c_uint64), ("app", C.c_char_p)]


class AdWaitArgs(C.Structure):
    _fields_ = [("mode", AdWaitMode), ("predicate", AdWaitPredicate), ("scope", AdWaitScope)]


class AdDeliverySemantics(C.Structure):
    _fields_ = [("delivery", C.c_int32), ("retry", C.c_int32)]


ACTION_CLICK = 0


def load(path):
    lib = C.CDLL(path)
    lib.ad_init.argtypes = [C.c_uint32]
    lib.ad_adapter_create.restype = C.c_void_p
    lib.ad_adapter_create_with_session.restype = C.c_void_p
    lib.ad_adapter_create_with_session.argtypes = [C.c_char_p]
    lib.ad_adapter_destroy.argtypes = [C.c_void_p]
    lib.ad_status.argtypes = [C.c_void_p, C.POINTER(C.c_void_p)]
    lib.ad_snapshot.argtypes = [C.c_void_p, C.c_char_p, C.c_int32, C.c_uint8, C.c_bool,
                                C.c_bool, C.POINTER(C.c_void_p)]
    lib.ad_execute_by_ref.argtypes = [C.c_void_p, C.c_char_p, C.POINTER(AdAction), C.c_int32,
                                      C.POINTER(C.c_void_p)]
    lib.ad_execute_by_ref_timeout.argtypes = [C.c_void_p, C.c_char_p, C.POINTER(AdAction),
                                              C.c_int32, C.c_int64, C.POINTER(C.c_void_p)]
    lib.ad_wait.argtypes = [C.c_void_p, C.POINTER(AdWaitArgs), C.POINTER(C.c_void_p)]
    lib.ad_trace_show.argtypes = [C.c_void_p, C.c_int32, C.c_char_p, C.POINTER(C.c_void_p)]
    lib.ad_trace_export.argtypes = [C.c_void_p, C.c_int32, C.c_char_p, C.POINTER(C.c_void_p)]
    lib.ad_free_string.argtypes = [C.c_void_p]
    for name in ("message", "suggestion", "platform_detail", "details"):
        getattr(lib, "ad_last_error_" + name).restype = C.c_char_p
    lib.ad_last_error_delivery_semantics.argtypes = [C.POINTER(AdDeliverySemantics)]
    return lib


class Lib:
    def __init__(self, path):
        self.lib = load(path)
        assert self.lib.ad_init(7) == 0

    def envelope(self, fn, *args):
        """(rc, envelope dict or None) of a JSON entrypoint; frees the string."""
        out = C.c_void_p()
        rc = fn(*args, C.byref(out))
        env = None
        if out.value:
            env = json.loads(C.string_at(out.value).decode())
            self.lib.ad_free_string(out)
        return rc, env

    def last_error(self):
        sem = AdDeliverySemantics()
        self.lib.ad_last_error_delivery_semantics(C.byref(sem))

        def s(name):
            v = getattr(self.lib, "ad_last_error_" + name)()
            return v.decode() if v is not None else None
        return {"code": self.lib.ad_last_error_code(), "message": s("message"),
                "suggestion": s("suggestion"), "platform_detail": s("platform_detail"),
                "details": s("details"), "delivery": sem.delivery, "retry": sem.retry}

    def click(self, adapter, ref, timeout_ms=-1):
        act = AdAction()
        act.kind = ACTION_CLICK
        return self.envelope(self.lib.ad_execute_by_ref_timeout, adapter, ref.encode(),
                             C.byref(act), 0, timeout_ms)


def open_fds():
    return len(os.listdir("/proc/self/fd"))


def main():
    path, scenario, args = sys.argv[1], sys.argv[2], sys.argv[3:]
    L = Lib(path)
    lib = L.lib
    res = {}
    if scenario == "snapshot":
        a = lib.ad_adapter_create()
        res["rc"], res["envelope"] = L.envelope(lib.ad_snapshot, a, args[0].encode(), 0, 10,
                                                True, False)
        lib.ad_adapter_destroy(a)
    elif scenario == "snapshot-depths":  # APP DEPTH...: ref_count of one snapshot per depth
        a = lib.ad_adapter_create()
        res["rc"], res["ref_counts"] = [], []
        for depth in args[1:]:
            rc, env = L.envelope(lib.ad_snapshot, a, args[0].encode(), 0, int(depth), True,
                                 False)
            res["rc"].append(rc)
            res["ref_counts"].append(env["data"]["ref_count"] if rc == 0 else None)
        lib.ad_adapter_destroy(a)
    elif scenario == "click":  # REF TIMEOUT_MS
        a = lib.ad_adapter_create()
        res["rc"], res["envelope"] = L.click(a, args[0], int(args[1]))
        res["last_error"] = L.last_error()
        lib.ad_adapter_destroy(a)
    elif scenario == "act":  # REF KIND POLICY [TEXT] [DIRECTION AMOUNT]: one ad_execute_by_ref
        a = lib.ad_adapter_create()
        act = AdAction()
        act.kind = int(args[1])
        if len(args) > 3 and args[3] != "-":
            act.text = args[3].encode()
        if len(args) > 5:
            act.scroll.direction, act.scroll.amount = int(args[4]), int(args[5])
        res["rc"], res["envelope"] = L.envelope(lib.ad_execute_by_ref, a, args[0].encode(),
                                                C.byref(act), int(args[2]))
        lib.ad_adapter_destroy(a)
    elif scenario == "clicks":  # REF N: N clicks in a row, each through the lease
        a = lib.ad_adapter_create()
        res["rcs"], res["contention"] = [], []
        for _ in range(int(args[1])):
            rc, env = L.click(a, args[0], 20000)
            res["rcs"].append(rc)
            res["contention"].append(
                env["data"]["details"]["auto_wait"]["lease_contention_count"] if rc == 0 else None)
        lib.ad_adapter_destroy(a)
    elif scenario == "failure_then_success":  # REF (stale), APP
        a = lib.ad_adapter_create()
        res["rc"], res["envelope"] = L.click(a, args[0], 0)
        res["after_failure"] = L.last_error()
        res["ok_rc"], _ = L.envelope(lib.ad_snapshot, a, args[1].encode(), 0, 5, True, True)
        res["after_success"] = L.last_error()
        lib.ad_adapter_destroy(a)
    elif scenario == "wait":  # WINDOW_TITLE ABSENT_TEXT APP
        a = lib.ad_adapter_create()
        w = AdWaitArgs()
        w.mode.window = args[0].encode()
        w.scope.timeout_ms = 10000
        res["window_rc"], res["window"] = L.envelope(lib.ad_wait, a, C.byref(w))
        w = AdWaitArgs()
        w.mode.text = args[1].encode()
        w.scope.app = args[2].encode()
        w.scope.timeout_ms = 300
        res["text_rc"], res["text"] = L.envelope(lib.ad_wait, a, C.byref(w))
        res["text_error"] = L.last_error()
        lib.ad_adapter_destroy(a)
    elif scenario == "trace":  # SESSION APP OUT_HTML
        a = lib.ad_adapter_create_with_session(args[0].encode())
        res["snapshot_rc"], _ = L.envelope(lib.ad_snapshot, a, args[1].encode(), 0, 5, True,
                                           True)
        res["show_rc"], res["show"] = L.envelope(lib.ad_trace_show, a, 0, b"snapshot.")
        res["export_rc"], res["export"] = L.envelope(lib.ad_trace_export, a, 0,
                                                     args[2].encode())
        lib.ad_adapter_destroy(a)
    elif scenario == "connections":
        a = lib.ad_adapter_create()
        rc, _ = L.envelope(lib.ad_status, a)
        res["first_rc"] = rc
        res["fds_after_first"] = open_fds()
        rcs = [L.envelope(lib.ad_status, a)[0] for _ in range(10)]
        res["later_rcs"] = rcs
        res["fds_after_more"] = open_fds()
        lib.ad_adapter_destroy(a)
        res["fds_after_destroy"] = open_fds()
    else:
        raise SystemExit("unknown scenario " + scenario)
    print(json.dumps(res))


if __name__ == "__main__":
    main()
