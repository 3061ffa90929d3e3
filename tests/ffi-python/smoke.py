#!/usr/bin/env python3
"""smoke.py: the C library from Python ctypes, standard library only (spec/ffi.md,
ffi/build-and-link.md "Smoke test").

  python3 tests/ffi-python/smoke.py LIBRARY HEADER

Loads LIBRARY (build/libagent_desktop_ffi.so) and reads HEADER (include/agent_desktop.h,
whose declarations are api.md's: tests/ffi checks that), from which it defines every
struct and the prototype of every function it calls; nothing is typed by hand twice. Then
it runs the legs below against gnome-calculator on the current desktop (started here, and
stopped by pid, when none runs), prints a TAP line for each ("ok N - LEG" or
"not ok N - LEG: why"), and ends with "All legs passed." (exit 0) or the number that
failed (exit 1).

The click and the windows leg are read back through AT-SPI with pyatspi (Debian's
python3-pyatspi, not the standard library) when it can be imported; without it those checks
are reported as not verified, which fails the leg. Every other check uses the standard
library and the X11 command-line tools.
"""
import ctypes
import json
import os
import re
import shutil
import subprocess
import sys
import time

CALC = "gnome-calculator"

# ---- the header, as ctypes -------------------------------------------------------------

SCALARS = {
    "bool": ctypes.c_bool, "char": ctypes.c_char, "double": ctypes.c_double,
    "float": ctypes.c_float, "size_t": ctypes.c_size_t, "void": None,
    "int8_t": ctypes.c_int8, "uint8_t": ctypes.c_uint8, "int16_t": ctypes.c_int16,
    "uint16_t": ctypes.c_uint16, "int32_t": ctypes.c_int32, "uint32_t": ctypes.c_uint32,
    "int64_t": ctypes.c_int64, "uint64_t": ctypes.c_uint64,
}


def strip_c(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = re.sub(r"#ifdef __cplusplus.*?#endif", " ", text, flags=re.S)
    return re.sub(r"^\s*#[^\n]*", " ", text, flags=re.M)


class Header:
    """The header's structs (ctypes.Structure classes), enum typedefs (int32_t), macros
    with integer values, and function prototypes."""

    def __init__(self, path):
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        self.macros = {m.group(1): int(m.group(2)) for m in re.finditer(
            r"^#define (AD_\w+) \(*(?:\(size_t\))?(\d+)u?\)*\s*$", raw, flags=re.M)}
        text = strip_c(raw)
        self.enums = {}
        for body, name in re.findall(r"typedef enum\s*\{(.*?)\}\s*(\w+);", text, flags=re.S):
            self.enums[name] = {k: int(v) for k, v in re.findall(r"(\w+)\s*=\s*(-?\d+)", body)}
        self.structs = {}
        for name, body in re.findall(r"typedef struct (\w+)\s*\{(.*?)\}\s*\w+;", text,
                                     flags=re.S):
            fields = []
            for decl in body.split(";"):
                decl = " ".join(decl.split())
                if decl:
                    m = re.fullmatch(r"(.*?)(\w+)", decl)
                    fields.append((m.group(2), self.ctype(m.group(1))))
            cls = type(name, (ctypes.Structure,), {})
            cls._fields_ = fields
            self.structs[name] = cls
        self.protos = {}
        for ret, name, args in re.findall(r"([\w\s\*]+?)\b(ad_\w+)\s*\(([^;{}]*?)\)\s*;", text):
            self.protos[name] = (ret, args)

    def ctype(self, spelled):
        """The ctypes type of a C type as spelled in the header ("const char *")."""
        s = spelled.replace("const", " ").replace("struct", " ")
        stars = s.count("*")
        base = s.replace("*", " ").split()
        base = base[0] if base else "void"
        if stars:
            if base == "char" and stars == 1:
                return ctypes.c_void_p  # kept as a pointer: owned strings go back to free
            if base in self.structs and stars == 1:
                return ctypes.POINTER(self.structs[base])
            return ctypes.c_void_p
        if base in self.structs:
            return self.structs[base]
        if base in self.enums or base == "AdResult":
            return ctypes.c_int32
        if base in SCALARS:
            return SCALARS[base]
        raise ValueError("no ctypes type for %r" % spelled)

    def bind(self, lib, name):
        """lib.name with the header's argument and result types."""
        ret, args = self.protos[name]
        fn = getattr(lib, name)
        fn.restype = self.ctype(ret)
        params = [] if args.strip() in ("", "void") else args.split(",")
        fn.argtypes = [self.ctype(re.sub(r"\w+\s*$", "", p.strip())) for p in params]
        return fn


# ---- the legs ---------------------------------------------------------------------------


class Smoke:
    def __init__(self, lib_path, header_path):
        self.h = Header(header_path)
        self.lib = ctypes.CDLL(os.path.abspath(lib_path))
        self.fn = {name: self.h.bind(self.lib, name) for name in self.h.protos
                   if name != "ad_set_log_callback"}  # a function-pointer argument
        self.failed = 0
        self.legs = 0
        self.adapter = None
        self.calc = None  # the gnome-calculator this script started, or None
        self.snapshot_data = None
        try:
            import pyatspi  # noqa: F401  (Debian's python3-pyatspi)
            self.pyatspi = pyatspi
        except ImportError:
            self.pyatspi = None

    def call_json(self, name, *args):
        """(rc, envelope dict or None) of a JSON entrypoint; frees the envelope."""
        out = ctypes.c_void_p()
        rc = self.fn[name](*args, ctypes.byref(out))
        envelope = None
        if out.value:
            envelope = json.loads(ctypes.string_at(out.value).decode("utf-8"))
            self.fn["ad_free_string"](out)
        return rc, envelope

    def last_error(self):
        msg = self.fn["ad_last_error_message"]()
        return (self.fn["ad_last_error_code"](),
                ctypes.string_at(msg).decode() if msg else None)

    def leg(self, name, body):
        """Runs one leg and prints its TAP line (scripts/test.sh counts them)."""
        self.legs += 1
        try:
            body()
        except Exception as e:  # a leg's failure is reported, and the next leg runs
            self.failed += 1
            print("not ok %d - %s: %s" % (self.legs, name, e))
            return
        print("ok %d - %s" % (self.legs, name))

    def expect_ok(self, rc, what):
        if rc != 0:
            code, msg = self.last_error()
            raise AssertionError("%s returned %d (last error %d: %s)" % (what, rc, code, msg))

    # -- legs --

    def init(self):
        major = self.h.macros["AD_ABI_VERSION_MAJOR"]
        assert self.fn["ad_abi_version"]() == major, "ad_abi_version != header major"
        assert self.fn["ad_init"](major + 1) == self.h.enums["AdResult"][
            "AD_RESULT_ERR_INVALID_ARGS"], "a wrong major was accepted"
        self.expect_ok(self.fn["ad_init"](major), "ad_init")
        self.adapter = ctypes.c_void_p(self.fn["ad_adapter_create"]())
        assert self.adapter.value, "ad_adapter_create returned NULL"

    def sizes(self):
        """Every size getter against the ctypes struct defined from the header, and the
        header's AD_*_SIZE constant."""
        checked = 0
        for name in self.h.protos:
            m = re.fullmatch(r"ad_(\w+)_size", name)
            if not m:
                continue
            struct = "Ad" + "".join(w.capitalize() for w in m.group(1).split("_"))
            if struct not in self.h.structs:
                continue  # ad_image_buffer_size: the size of an image, not of a struct
            got = self.fn[name]()
            mine = ctypes.sizeof(self.h.structs[struct])
            macro = self.h.macros["AD_" + m.group(1).upper() + "_SIZE"]
            assert got == mine == macro, "%s: library %d, ctypes %d, header %d" % (
                struct, got, mine, macro)
            checked += 1
        assert checked == 11, "%d size getters, expected 11" % checked

    def version(self):
        rc, env = self.call_json("ad_version")
        self.expect_ok(rc, "ad_version")
        assert env["ok"] and env["command"] == "version" and env["data"]["version"], env

    def status(self):
        rc, env = self.call_json("ad_status", self.adapter)
        self.expect_ok(rc, "ad_status")
        assert env["ok"] and env["command"] == "status", env
        assert env["data"]["platform"] == "linux", env

    def snapshot(self):
        surface = self.h.enums["AdSnapshotSurface"]["AD_SNAPSHOT_SURFACE_WINDOW"]
        rc, env = self.call_json("ad_snapshot", self.adapter, CALC.encode(), surface, 10,
                                 True, False)  # max_depth 10, interactive only, not compact
        self.expect_ok(rc, "ad_snapshot")
        assert env["ok"] and env["data"]["app"] == CALC, env
        self.snapshot_data = env["data"]
        refs = [n for n in walk(env["data"]["tree"]) if "ref_id" in n]
        assert len(refs) == env["data"]["ref_count"] > 0, (len(refs), env["data"]["ref_count"],
                                                           env["data"].get("complete"))

    def click(self):
        button = [n for n in walk(self.snapshot_data["tree"])
                  if n.get("ref_id") and "button" in n["role"]
                  and (n.get("name") or "").split()[:1] == ["7"]]  # GTK 4 names it "7 7"
        assert len(button) == 1, "one button '7' in the snapshot, found %d" % len(button)
        before = self.calc_display()
        action = self.h.structs["AdAction"]()  # zeroed: no text, no scroll, no key, no drag
        action.kind = self.h.enums["AdActionKind"]["AD_ACTION_KIND_CLICK"]
        policy = self.h.enums["AdPolicyKind"]["AD_POLICY_KIND_HEADLESS"]
        rc, env = self.call_json("ad_execute_by_ref", self.adapter,
                                 button[0]["ref_id"].encode(), ctypes.byref(action), policy)
        self.expect_ok(rc, "ad_execute_by_ref")
        assert env["ok"], env
        if self.pyatspi is None:
            raise AssertionError("clicked, not verified: pyatspi is not installed")
        deadline = time.monotonic() + 10
        while self.calc_display() == before and time.monotonic() < deadline:
            time.sleep(0.05)
        after = self.calc_display()
        assert after != before and after.endswith("7"), (before, after)

    def windows(self):
        out = ctypes.c_void_p()
        self.expect_ok(self.fn["ad_list_windows_exact"](self.adapter, CALC.encode(), False,
                                                        ctypes.byref(out)),
                       "ad_list_windows_exact")
        try:
            n = self.fn["ad_exact_window_list_count"](out)
            assert n >= 1, "no window of %s" % CALC
            titles = []
            for i in range(n):
                w = self.fn["ad_exact_window_list_get"](out, i).contents
                assert w.version == self.h.macros["AD_EXACT_WINDOW_INFO_VERSION"]
                assert w.size == ctypes.sizeof(self.h.structs["AdExactWindowInfo"])
                assert ctypes.string_at(w.window.app_name).decode() == CALC
                titles.append(ctypes.string_at(w.window.title).decode())
                if self.calc_pids():
                    assert w.window.pid in self.calc_pids(), w.window.pid
            assert not self.fn["ad_exact_window_list_get"](out, n), "get past the end"
        finally:
            self.fn["ad_exact_window_list_free"](out)
        if self.pyatspi is None:
            raise AssertionError("listed, not verified: pyatspi is not installed")
        assert set(titles) & set(self.calc_window_names()), (titles, self.calc_window_names())

    def screenshot(self):
        target = self.h.structs["AdScreenshotTarget"]()
        target.kind = self.h.enums["AdScreenshotKind"]["AD_SCREENSHOT_KIND_SCREEN"]
        target.screen_index = 0
        out = ctypes.c_void_p()
        self.expect_ok(self.fn["ad_screenshot"](self.adapter, ctypes.byref(target),
                                                ctypes.byref(out)), "ad_screenshot")
        try:
            size = self.fn["ad_image_buffer_size"](out)
            data = ctypes.string_at(self.fn["ad_image_buffer_data"](out), size)
            width = self.fn["ad_image_buffer_width"](out)
            height = self.fn["ad_image_buffer_height"](out)
        finally:
            self.fn["ad_image_buffer_free"](out)
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        png_w, png_h = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert (png_w, png_h) == (width, height), ((png_w, png_h), (width, height))
        root = root_size()
        if root:
            assert (png_w, png_h) == root, ((png_w, png_h), root)

    def errors(self):
        results = self.h.enums["AdResult"]
        rc, env = self.call_json("ad_snapshot", self.adapter, b"no-such-app-smoke", 0, 0,
                                 True, False)
        assert rc == results["AD_RESULT_ERR_APP_NOT_FOUND"], rc
        assert env and not env["ok"] and env["error"]["code"] == "APP_NOT_FOUND", env
        code, msg = self.last_error()
        assert code == rc and msg == env["error"]["message"], (code, msg)
        sugg = self.fn["ad_last_error_suggestion"]()
        assert (ctypes.string_at(sugg).decode() if sugg else None) == env["error"].get(
            "suggestion"), "suggestion differs from the envelope's"
        details = self.fn["ad_last_error_details"]()
        if details:
            json.loads(ctypes.string_at(details).decode())
        # An argument failure: no envelope, and only the last error explains it.
        rc, env = self.call_json("ad_snapshot", self.adapter, CALC.encode(), 99, 0, True,
                                 False)
        assert rc == results["AD_RESULT_ERR_INVALID_ARGS"] and env is None, (rc, env)
        assert self.last_error()[0] == rc
        # A success leaves the last error as it was (like errno).
        self.expect_ok(self.call_json("ad_version")[0], "ad_version")
        assert self.last_error()[0] == rc, "a success replaced the last error"

    # -- gnome-calculator, read independently --

    def calc_apps(self):
        desktop = self.pyatspi.Registry.getDesktop(0)
        return [desktop.getChildAtIndex(i) for i in range(desktop.childCount)
                if desktop.getChildAtIndex(i) is not None
                and desktop.getChildAtIndex(i).name == CALC]

    def calc_pids(self):
        return [a.get_process_id() for a in self.calc_apps()] if self.pyatspi else []

    def calc_window_names(self):
        return [a.getChildAtIndex(i).name for a in self.calc_apps()
                for i in range(a.childCount)]

    def calc_display(self):
        """The text of the calculator's editable display, through AT-SPI ('' unknown)."""
        if self.pyatspi is None:
            return ""
        for app in self.calc_apps():
            found = self.pyatspi.findAllDescendants(
                app, lambda a: a.getRole() == self.pyatspi.ROLE_TEXT and
                a.getState().contains(self.pyatspi.STATE_EDITABLE))
            for acc in found:
                t = acc.queryText()
                return t.getText(0, -1)
        return ""

    def start_calculator(self):
        if self.pyatspi is None or self.calc_apps():
            return
        self.calc = subprocess.Popen([CALC], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if any(a.childCount for a in self.calc_apps()) and self.calc_display() is not None:
                try:
                    if self.pyatspi.findDescendant(self.calc_apps()[0], lambda a: a.name == "7"):
                        return
                except Exception:
                    pass
            time.sleep(0.2)
        raise RuntimeError("%s did not show its window" % CALC)

    def stop_calculator(self):
        if self.calc is not None:
            self.calc.terminate()
            try:
                self.calc.wait(10)
            except subprocess.TimeoutExpired:
                self.calc.kill()
                self.calc.wait()

    def run(self):
        self.start_calculator()
        try:
            for name, body in [("init and ABI handshake", self.init),
                               ("size getters against ctypes structs", self.sizes),
                               ("version", self.version), ("status", self.status),
                               ("snapshot of gnome-calculator", self.snapshot),
                               ("the error accessors", self.errors),
                               ("ref click, read through AT-SPI", self.click),
                               ("list windows", self.windows),
                               ("screenshot to bytes", self.screenshot)]:
                if self.adapter is None and body not in (self.init, self.sizes, self.version):
                    body = no_adapter
                self.leg(name, body)
        finally:
            if self.adapter is not None:
                self.fn["ad_adapter_destroy"](self.adapter)
            self.stop_calculator()
        if self.failed:
            print("1..%d" % self.legs)
            print("# %d of %d legs failed." % (self.failed, self.legs))
            return 1
        print("1..%d" % self.legs)
        print("All legs passed.")
        return 0


def no_adapter():
    raise AssertionError("not run: the init leg created no adapter")


def walk(node):
    yield node
    for child in node.get("children", []):
        yield from walk(child)


def root_size():
    """The X root window's (width, height) from xwininfo, or None without it."""
    if not shutil.which("xwininfo"):
        return None
    out = subprocess.run(["xwininfo", "-root"], capture_output=True, text=True).stdout
    w = re.search(r"Width: (\d+)", out)
    h = re.search(r"Height: (\d+)", out)
    return (int(w.group(1)), int(h.group(1))) if w and h else None


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    return Smoke(argv[1], argv[2]).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv))
