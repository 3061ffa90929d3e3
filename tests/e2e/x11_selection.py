"""An independent X11 CLIPBOARD client for the clipboard tests (python3-xlib): a requestor
that reports whether the owner answered by INCR, and an owner that always sends by INCR.
Neither shares code with agent-desktop."""
import threading
import time

from Xlib import X, Xatom, display
from Xlib.protocol import event


def _atom(d, name):
    return d.intern_atom(name)


def convert(target, timeout=30.0):
    """Asks the CLIPBOARD owner for target. Returns (type_name, data, by_incr), or None when
    there is no owner or it refuses."""
    d = display.Display()
    try:
        win = d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent,
                                            event_mask=X.PropertyChangeMask)
        clip, prop = _atom(d, "CLIPBOARD"), _atom(d, "_AD_TEST_SEL")
        incr, tgt = _atom(d, "INCR"), _atom(d, target)
        win.convert_selection(clip, tgt, prop, X.CurrentTime)
        d.flush()
        deadline = time.monotonic() + timeout
        while True:
            ev = _next_event(d, deadline)
            if ev.type == X.SelectionNotify and ev.requestor.id == win.id:
                break
        if ev.property == X.NONE:
            return None
        r = win.get_full_property(prop, X.AnyPropertyType, sizehint=1 << 24)
        win.delete_property(prop)
        d.flush()
        if r.property_type != incr:
            return d.get_atom_name(r.property_type), bytes(r.value), False
        data, kind = bytearray(), None
        while True:
            ev = _next_event(d, deadline)
            if not (ev.type == X.PropertyNotify and ev.atom == prop
                    and ev.state == X.PropertyNewValue):
                continue
            r = win.get_full_property(prop, X.AnyPropertyType, sizehint=1 << 24)
            win.delete_property(prop)
            d.flush()
            if r is None:
                continue
            kind = r.property_type
            if len(r.value) == 0:
                return d.get_atom_name(kind), bytes(data), True
            data += bytes(r.value)
    finally:
        d.close()


def _next_event(d, deadline):
    while not d.pending_events():
        if time.monotonic() > deadline:
            raise AssertionError("no answer from the clipboard owner")
        time.sleep(0.005)  # polls the connection against the deadline above
    return d.next_event()


class IncrOwner:
    """Owns CLIPBOARD from a thread and sends `data` as UTF8_STRING, always by INCR in
    `chunk`-byte pieces (ICCCM 2.7.2). `completed` counts the transfers that ended."""

    def __init__(self, data, chunk=64 * 1024):
        self.data, self.chunk, self.completed = data, chunk, 0
        self.d = display.Display()
        self.win = self.d.screen().root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
        self.clip = _atom(self.d, "CLIPBOARD")
        self.utf8, self.incr = _atom(self.d, "UTF8_STRING"), _atom(self.d, "INCR")
        self.targets = _atom(self.d, "TARGETS")
        self.win.set_selection_owner(self.clip, X.CurrentTime)
        self.d.flush()
        assert self.d.get_selection_owner(self.clip) == self.win
        self.transfers = {}
        self.stop_flag = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _notify(self, req, prop):
        ev = event.SelectionNotify(time=req.time, requestor=req.requestor,
                                   selection=req.selection, target=req.target, property=prop)
        req.requestor.send_event(ev)

    def _serve(self):
        while not self.stop_flag:
            if not self.d.pending_events():
                time.sleep(0.002)  # polls; the test's own waits have deadlines
                continue
            ev = self.d.next_event()
            if ev.type == X.SelectionRequest:
                req, prop = ev, ev.property or ev.target
                if req.target == self.targets:
                    req.requestor.change_property(prop, Xatom.ATOM, 32,
                                                  [self.targets, self.utf8])
                    self._notify(req, prop)
                elif req.target == self.utf8:
                    req.requestor.change_attributes(event_mask=X.PropertyChangeMask)
                    req.requestor.change_property(prop, self.incr, 32, [len(self.data)])
                    self.transfers[(req.requestor.id, prop)] = [req.requestor, 0]
                    self._notify(req, prop)
                else:
                    self._notify(req, X.NONE)
            elif ev.type == X.PropertyNotify and ev.state == X.PropertyDelete:
                t = self.transfers.get((ev.window.id, ev.atom))
                if t is None:
                    continue
                w, off = t
                piece = self.data[off:off + self.chunk]
                w.change_property(ev.atom, self.utf8, 8, piece)
                t[1] = off + len(piece)
                if not piece:
                    del self.transfers[(ev.window.id, ev.atom)]
                    self.completed += 1
            self.d.flush()

    def stop(self):
        self.stop_flag = True
        self.thread.join(10)
        self.d.close()
