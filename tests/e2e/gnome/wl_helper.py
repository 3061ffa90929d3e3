"""The per-user helper's "wlinput" service, read directly over its socket (helper_proto.h
frames), so tests see the RemoteDesktop session independently of agent-desktop's output."""
import json
import os
import signal
import socket
import struct
import time

from e2e_helpers import helper_dir, helper_pid


def request(obj, timeout=20.0):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(os.path.join(helper_dir(), "helper.sock"))
    body = dict(obj, v=1, bytes=0)
    data = json.dumps(body).encode()
    s.sendall(struct.pack(">I", len(data)) + data)
    buf = b""
    while len(buf) < 4:
        chunk = s.recv(4 - len(buf))
        assert chunk, "the helper closed without a reply"
        buf += chunk
    n = struct.unpack(">I", buf)[0]
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        assert chunk, "the helper closed mid-reply"
        buf += chunk
    s.close()
    return json.loads(buf)


def status():
    """The service's status, or None when no helper runs."""
    if helper_pid() is None:
        return None
    try:
        return request({"service": "wlinput", "op": "status"})
    except OSError:
        return None


def stop_helper():
    """Stops the running helper by its pid and waits until it is gone."""
    pid = helper_pid()
    if pid is None:
        return
    try:
        os.kill(pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    raise AssertionError("helper %d did not stop" % pid)
