"""atspi_observer: an independent read of the desktop through pyatspi.

The end-to-end tests compare agent-desktop's JSON with what this module reads from the same
window over AT-SPI, so a test checks the product against a second observer instead of
trusting `ok: true`. Nothing here imports or shells out to agent-desktop.

libatspi's own cache is left on: it is refreshed from the application's change signals,
which libatspi dispatches while it waits for any reply, so a test that polls (wait_until)
sees the new state. Switching the cache off (set_cache_mask(NONE)) is not an option: libatspi
2.46 then makes a D-Bus call from inside its signal dispatch and deadlocks.
"""
import re
import time
from collections import namedtuple

import pyatspi

# AT-SPI role name -> agent-desktop canonical role, only for the roles the test apps expose
# (GTK3 ad-fixture, GTK 4.8 gnome-calculator). A role missing here makes canonical_role()
# raise, so a new role is noticed rather than guessed.
ROLE_TO_CANONICAL = {
    "frame": "window",
    "dialog": "dialog",
    "push button": "button",
    "toggle button": "button",
    "table column header": "button",
    "column header": "button",
    "check box": "checkbox",
    "radio button": "radiobutton",
    "text": "textfield",
    "password text": "textfield",
    "entry": "textfield",
    "label": "statictext",
    "panel": "group",
    "filler": "group",
    "menu bar": "group",
    "viewport": "group",
    "menu": "menu",
    "popup menu": "menu",
    "menu item": "menuitem",
    "combo box": "combobox",
    "scroll pane": "scrollarea",
    "scroll bar": "scrollbar",
    "tree table": "outline",
    "tree": "outline",
    "table cell": "cell",
    "list": "list",
    "list box": "listbox",
    "list item": "option",
    "separator": "separator",
    "image": "image",
    "icon": "image",
    "slider": "slider",
    "spin button": "incrementor",
    "page tab": "tab",
    "page tab list": "tablist",
    "tool bar": "toolbar",
    "progress bar": "progressbar",
    "level bar": "levelindicator",
    "link": "link",
    "form": "form",
}

# AT-SPI role names that agent-desktop counts as buttons (canonical "button").
BUTTON_ROLES = {k for k, v in ROLE_TO_CANONICAL.items() if v == "button"}

# "filler": a Qt 5 top-level plain QWidget (tests/fixture-qt).
WINDOW_ROLES = {"frame", "window", "dialog", "filler"}

Observed = namedtuple(
    "Observed",
    "role name description accessible_id states child_count extents path acc",
)


def canonical_role(atspi_role_name):
    try:
        return ROLE_TO_CANONICAL[atspi_role_name]
    except KeyError:
        raise AssertionError("atspi_observer has no canonical role for AT-SPI role %r; add it "
                             "to ROLE_TO_CANONICAL" % atspi_role_name) from None


_TOOLKIT_CLASS = re.compile(r"(?:Gtk|Gdk|Gsk|Adw|Hdy|Q)([A-Z][A-Za-z0-9]*)")


def presented_name(name):
    """The name agent-desktop presents for a raw AT-SPI name: None when it is empty or a
    toolkit class name (GTK 4.8 names an unlabelled widget after its type, "GtkMenuButton";
    src/core/node.h ad_toolkit_class_name)."""
    if not name:
        return None
    m = _TOOLKIT_CLASS.fullmatch(name)
    if m and any(c.islower() for c in m.group(1)):
        return None
    return name


def desktop_apps():
    """The applications registered on the accessibility bus, live."""
    desktop = pyatspi.Registry.getDesktop(0)
    apps = []
    for i in range(desktop.childCount):
        try:
            app = desktop.getChildAtIndex(i)
        except Exception:
            continue
        if app is not None:
            apps.append(app)
    return apps


def app_pid(app):
    try:
        return app.get_process_id()
    except Exception:
        return None


def apps_named(name, timeout=20.0):
    """The registry's applications called `name`. An app whose name cannot be read (a busy
    app's reply timed out under load) is read again until `timeout`: a failed read is never
    taken for "not that app", which once made a loaded run report gnome-shell absent."""
    deadline = time.monotonic() + timeout
    while True:
        out, unread = [], 0
        for app in desktop_apps():
            try:
                if app.name == name:
                    out.append(app)
            except Exception:
                unread += 1
        if out or not unread:
            return out
        if time.monotonic() > deadline:
            raise AssertionError("%d app names could not be read within %gs looking for %s"
                                 % (unread, timeout, name))
        time.sleep(0.2)


def app_for_pid(pid):
    for app in desktop_apps():
        if app_pid(app) == pid:
            return app
    return None


def state_names(acc):
    """The element's AT-SPI states as their nicks ('sensitive', 'checked', ...)."""
    return frozenset(s.value_nick for s in acc.getState().getStates())


def windows_of(app, shown_only=True):
    """Top-level windows of an application; with shown_only, those VISIBLE and SHOWING."""
    out = []
    for i in range(app.childCount):
        try:
            w = app.getChildAtIndex(i)
            if w is None or w.getRoleName() not in WINDOW_ROLES:
                continue
            st = state_names(w)
        except Exception:
            continue
        if shown_only and not ({"visible", "showing"} <= st):
            continue
        out.append(w)
    return out


def window_for_pid(pid, title=None):
    """The first shown top-level window of the process (optionally with this title)."""
    app = app_for_pid(pid)
    if app is None:
        return None
    for w in windows_of(app):
        if title is None or w.name == title:
            return w
    return None


def wait_for_window(pid, timeout=30.0, title=None, ready=None, alive=None):
    """Polls until the process shows a window (and `ready(window)` holds); returns it.

    `alive()` returning False stops the wait early (the process died)."""
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            w = window_for_pid(pid, title)
            if w is not None and (ready is None or ready(w)):
                return w
        except Exception as e:  # the app is still registering its objects
            last_error = e
        if alive is not None and not alive():
            raise AssertionError("process %d exited before it showed a window" % pid)
        if time.monotonic() > deadline:
            raise AssertionError("process %d showed no window on the AT-SPI bus within %gs "
                                 "(last error: %r)" % (pid, timeout, last_error))
        time.sleep(0.1)


def extents(acc):
    """Screen rectangle (x, y, width, height) of the element, or None without Component."""
    try:
        comp = acc.queryComponent()
    except NotImplementedError:
        return None
    box = comp.getExtents(pyatspi.DESKTOP_COORDS)
    return (box.x, box.y, box.width, box.height)


def accessible_id(acc):
    try:
        return acc.get_accessible_id() or ""
    except Exception:
        return ""


def read(acc, path=()):
    """One element, read live."""
    return Observed(
        role=acc.getRoleName(),
        name=acc.name or "",
        description=acc.description or "",
        accessible_id=accessible_id(acc),
        states=state_names(acc),
        child_count=acc.childCount,
        extents=extents(acc),
        path=tuple(path),
        acc=acc,
    )


def walk(root, max_depth=None, with_extents=False):
    """Pre-order list of Observed for the subtree at root (the root's path is ())."""
    out = []

    def visit(acc, path):
        o = read(acc, path) if with_extents else read_light(acc, path)
        out.append(o)
        if max_depth is not None and len(path) >= max_depth:
            return
        for i in range(acc.childCount):
            child = acc.getChildAtIndex(i)
            if child is not None:
                visit(child, path + (i,))

    visit(root, ())
    return out


def read_light(acc, path=()):
    """Like read() without the extents call (cheaper for whole-tree walks)."""
    return Observed(
        role=acc.getRoleName(),
        name=acc.name or "",
        description=acc.description or "",
        accessible_id=accessible_id(acc),
        states=state_names(acc),
        child_count=acc.childCount,
        extents=None,
        path=tuple(path),
        acc=acc,
    )


def at_path(root, path):
    acc = root
    for i in path:
        acc = acc.getChildAtIndex(i)
        if acc is None:
            return None
    return acc


def find_all(root, predicate):
    return [o for o in walk(root) if predicate(o)]


def by_id(root, wanted_id):
    """The first element under root whose accessible id is wanted_id, or None."""
    stack = [root]
    while stack:
        acc = stack.pop()
        if accessible_id(acc) == wanted_id:
            return acc
        for i in range(acc.childCount - 1, -1, -1):
            child = acc.getChildAtIndex(i)
            if child is not None:
                stack.append(child)
    return None


def ancestors(acc):
    out = []
    p = acc.parent
    while p is not None and p.getRoleName() != "application":
        out.append(p)
        p = p.parent
    return out


def text_of(acc):
    """The element's text through the Text interface ('' without it)."""
    try:
        t = acc.queryText()
    except NotImplementedError:
        return ""
    return t.getText(0, -1)


def set_text(acc, text):
    return acc.queryEditableText().setTextContents(text)


def action_names(acc):
    try:
        a = acc.queryAction()
    except NotImplementedError:
        return []
    return [a.getName(i) for i in range(a.nActions)]


def do_action(acc, name=None, index=0):
    """Runs an action by name (or index) through the Action interface."""
    a = acc.queryAction()
    if name is not None:
        names = [a.getName(i) for i in range(a.nActions)]
        if name not in names:
            raise AssertionError("no action %r on %s (has %r)" % (name, acc.getRoleName(), names))
        index = names.index(name)
    return a.doAction(index)


def round_trip(acc):
    """An ordering canary for apps without a state line: one uncached call (Component
    extents) to acc's application. Its reply comes after the app handled every message the
    bus delivered to it before, so a refused action's effect that is still absent afterwards
    is not merely late. Also dispatches the change signals that arrived meanwhile."""
    acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)


def wait_until(predicate, timeout=10.0, what="condition", interval=0.05):
    """Polls predicate() until it returns a truthy value, which is returned."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %gs waiting for %s" % (timeout, what))
        time.sleep(interval)


def has_interface(acc, name):
    return name in pyatspi.listInterfaces(acc)
