"""ctypes bindings of the C library's element calls (include/agent_desktop.h, ABI 7): find,
get, is, the raw tree, native handles and actions. The library is AD_FFI_LIB, else
libagent_desktop_ffi.so beside AD_BIN (build/ or build-asan/)."""
import ctypes
import os
import subprocess

c_char_p = ctypes.c_char_p
AD_EXACT_WINDOW_INFO_VERSION = 1
AD_FIND_CONTROL_VERSION = 1

OK = 0
ERR_ELEMENT_NOT_FOUND = -2
ERR_ACTION_NOT_SUPPORTED = -5
ERR_INVALID_ARGS = -10
ERR_POLICY_DENIED = -14
ERR_AMBIGUOUS_TARGET = -15
POLICY_HEADLESS, POLICY_FOCUS_FALLBACK, POLICY_HEADED = 0, 1, 2

STRICT, FIRST, LAST, NTH = 0, 1, 2, 3
CLICK, SET_VALUE, TOGGLE, CHECK, UNCHECK, DOUBLE_CLICK, KEY_DOWN = 0, 4, 9, 10, 11, 1, 15


def library_path(ad_bin):
    return os.environ.get("AD_FFI_LIB") or os.path.join(os.path.dirname(ad_bin),
                                                        "libagent_desktop_ffi.so")


def needs_asan_runtime(path):
    """True for a library built with -fsanitize=address (it links libasan)."""
    out = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return "libasan" in out


def asan_runtime_loaded():
    with open("/proc/self/maps") as f:
        return "libasan" in f.read()


class Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("width", ctypes.c_double),
                ("height", ctypes.c_double)]


class WindowInfo(ctypes.Structure):
    _fields_ = [("id", c_char_p), ("title", c_char_p), ("app_name", c_char_p),
                ("pid", ctypes.c_uint32), ("bounds", Rect), ("has_bounds", ctypes.c_bool),
                ("is_focused", ctypes.c_bool)]


class ExactWindowInfo(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("size", ctypes.c_uint32), ("window", WindowInfo),
                ("process_instance", c_char_p), ("accessible", ctypes.c_bool)]


class NativeHandle(ctypes.Structure):
    _fields_ = [("ptr", ctypes.c_void_p)]


class FindSelection(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("nth", ctypes.c_uint32)]


class FindControl(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("selection", FindSelection),
                ("timeout_ms", ctypes.c_uint64)]


class FindIdentity(ctypes.Structure):
    _fields_ = [("role", c_char_p), ("name", c_char_p), ("description", c_char_p),
                ("native_id", c_char_p), ("value", c_char_p)]


class FindStatePredicate(ctypes.Structure):
    _fields_ = [("token", c_char_p), ("expected", ctypes.c_int32)]


class FindStateSlice(ctypes.Structure):
    _fields_ = [("items", ctypes.POINTER(FindStatePredicate)), ("count", ctypes.c_size_t)]


class FindQuery(ctypes.Structure):
    pass


class FindFilter(ctypes.Structure):
    _fields_ = [("identity", FindIdentity), ("has_text", c_char_p), ("states", FindStateSlice),
                ("has", ctypes.POINTER(FindQuery)), ("has_not", ctypes.POINTER(FindQuery)),
                ("exact", ctypes.c_bool)]


FindQuery._fields_ = [("control", FindControl), ("filter", FindFilter)]


class NodeContent(ctypes.Structure):
    _fields_ = [(k, c_char_p) for k in ("ref_id", "role", "name", "value", "description",
                                        "hint")]


class NodePresentation(ctypes.Structure):
    _fields_ = [("states", ctypes.POINTER(c_char_p)), ("bounds", Rect),
                ("state_count", ctypes.c_uint32), ("has_bounds", ctypes.c_bool)]


class NodeRelation(ctypes.Structure):
    _fields_ = [("parent_index", ctypes.c_int32), ("child_start", ctypes.c_uint32),
                ("child_count", ctypes.c_uint32)]


class Node(ctypes.Structure):
    _fields_ = [("content", NodeContent), ("presentation", NodePresentation),
                ("relation", NodeRelation)]


class NodeTree(ctypes.Structure):
    _fields_ = [("nodes", ctypes.POINTER(Node)), ("count", ctypes.c_uint32)]


class TreeOptions(ctypes.Structure):
    _fields_ = [("max_depth", ctypes.c_uint8), ("include_bounds", ctypes.c_bool),
                ("interactive_only", ctypes.c_bool), ("compact", ctypes.c_bool),
                ("surface", ctypes.c_int32)]


class Point(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double)]


class Action(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("text", c_char_p),
                ("scroll_direction", ctypes.c_int32), ("scroll_amount", ctypes.c_uint32),
                ("key", c_char_p), ("modifiers", ctypes.c_void_p),
                ("modifier_count", ctypes.c_uint32),
                ("drag_from", Point), ("drag_to", Point), ("duration_ms", ctypes.c_uint64),
                ("drop_delay_ms", ctypes.c_uint64)]


class ElementState(ctypes.Structure):
    _fields_ = [("role", c_char_p), ("states", ctypes.POINTER(c_char_p)),
                ("state_count", ctypes.c_uint32), ("value", c_char_p)]


class ActionStep(ctypes.Structure):
    _fields_ = [("label", c_char_p), ("outcome", c_char_p), ("mechanism", ctypes.c_int32),
                ("has_mechanism", ctypes.c_bool), ("verified", ctypes.c_bool),
                ("has_verified", ctypes.c_bool), ("_reserved", ctypes.c_uint64)]


class DeliverySemantics(ctypes.Structure):
    _fields_ = [("delivery", ctypes.c_int32), ("retry", ctypes.c_int32)]


class ActionResult(ctypes.Structure):
    _fields_ = [("action", c_char_p), ("ref_id", c_char_p),
                ("post_state", ctypes.POINTER(ElementState)),
                ("steps", ctypes.POINTER(ActionStep)), ("step_count", ctypes.c_uint32),
                ("details_json", c_char_p), ("disposition", DeliverySemantics)]


def load(path):
    lib = ctypes.CDLL(path)
    P = ctypes.POINTER
    sig = {
        "ad_adapter_create": ([], ctypes.c_void_p),
        "ad_adapter_destroy": ([ctypes.c_void_p], None),
        "ad_exact_window_info_size": ([], ctypes.c_size_t),
        "ad_action_size": ([], ctypes.c_size_t),
        "ad_action_result_size": ([], ctypes.c_size_t),
        "ad_find_exact": ([ctypes.c_void_p, P(ExactWindowInfo), P(FindQuery), P(NativeHandle)],
                          ctypes.c_int),
        "ad_free_handle": ([ctypes.c_void_p, P(NativeHandle)], ctypes.c_int),
        "ad_get": ([ctypes.c_void_p, P(NativeHandle), c_char_p, P(ctypes.c_void_p)],
                   ctypes.c_int),
        "ad_is_exact": ([ctypes.c_void_p, P(ExactWindowInfo), P(FindQuery), c_char_p,
                         P(ctypes.c_bool)], ctypes.c_int),
        "ad_get_tree_exact": ([ctypes.c_void_p, P(ExactWindowInfo), P(TreeOptions),
                               P(NodeTree)], ctypes.c_int),
        "ad_free_tree": ([P(NodeTree)], None),
        "ad_execute_action": ([ctypes.c_void_p, P(NativeHandle), P(Action), P(ActionResult)],
                              ctypes.c_int),
        "ad_execute_action_with_policy": ([ctypes.c_void_p, P(NativeHandle), P(Action),
                                           ctypes.c_int32, P(ActionResult)], ctypes.c_int),
        "ad_free_action_result": ([P(ActionResult)], None),
        "ad_resolve_element_exact": ([ctypes.c_void_p, ctypes.c_void_p, P(NativeHandle)],
                                     ctypes.c_int),
        "ad_execute_ref_action_exact_with_policy": ([ctypes.c_void_p, ctypes.c_void_p,
                                                     P(Action), ctypes.c_int32,
                                                     P(ActionResult)], ctypes.c_int),
        "ad_free_string": ([ctypes.c_void_p], None),
        "ad_last_error_code": ([], ctypes.c_int),
        "ad_last_error_message": ([], c_char_p),
    }
    for name, (args, res) in sig.items():
        f = getattr(lib, name)
        f.argtypes = args
        f.restype = res
    assert lib.ad_action_size() == ctypes.sizeof(Action)
    assert lib.ad_action_result_size() == ctypes.sizeof(ActionResult)
    assert lib.ad_exact_window_info_size() == ctypes.sizeof(ExactWindowInfo)
    return lib


def exact_window(lib, listed):
    """An AdExactWindowInfo built from one `list-windows` entry (keeps the bytes alive)."""
    keep = [s.encode() if s else None for s in (listed["id"], listed.get("title"),
                                                listed.get("app_name"),
                                                listed.get("process_instance"))]
    w = ExactWindowInfo(version=AD_EXACT_WINDOW_INFO_VERSION,
                        size=lib.ad_exact_window_info_size())
    w.window.id, w.window.title, w.window.app_name, w.process_instance = keep
    w.window.pid = listed.get("pid") or 0
    w._keep = keep
    return w


def query(role=None, name=None, selection=STRICT, nth=0, exact=True, states=(), value=None,
          has=None, has_not=None, has_text=None):
    q = FindQuery()
    q.control.version = AD_FIND_CONTROL_VERSION
    q.control.selection.kind = selection
    q.control.selection.nth = nth
    enc = lambda s: s.encode() if s is not None else None  # noqa: E731
    q.filter.identity.role = enc(role)
    q.filter.identity.name = enc(name)
    q.filter.identity.value = enc(value)
    q.filter.has_text = enc(has_text)
    q.filter.exact = exact
    if states:
        arr = (FindStatePredicate * len(states))(*[FindStatePredicate(t.encode(), int(e))
                                                   for t, e in states])
        q.filter.states.items = arr
        q.filter.states.count = len(states)
        q._states = arr
    if has is not None:
        q.filter.has = ctypes.pointer(has)
        q._has = has
    if has_not is not None:
        q.filter.has_not = ctypes.pointer(has_not)
        q._has_not = has_not
    return q


def take_string(lib, ptr):
    """The owned string at ptr as text (freed), or None."""
    if not ptr:
        return None
    text = ctypes.string_at(ptr).decode()
    lib.ad_free_string(ptr)
    return text
