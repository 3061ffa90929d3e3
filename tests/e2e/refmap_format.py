"""refmap_format.py: an independent reader of saved refmap.json files (src/core/refmap_codec.h).

Format 2 is "ADRM", a version byte (2), a length-prefixed JSON header (the refmap without
"refs"), a table of length-prefixed JSON values, the entries, and a little-endian FNV-1a
checksum. Format 1 (earlier versions) is the refmap as one JSON object. decode() returns the
refmap object either way and raises ValueError for anything else.
"""
import json
import struct

MAGIC = b"ADRM"
FIELDS = [("role", "intern"), ("states", "intern"), ("available_actions", "intern"),
          ("root_ref", "intern"), ("name", "text"), ("value", "text"),
          ("description", "text"), ("native_id", "text"), ("path", "path"),
          ("bounds", "bounds"), ("bounds_hash", "hash"), ("unique_at_capture", "bool"),
          ("drill_target", "bool")]
UNIQUE_VALUE, DRILL_VALUE, EXTRAS = 1 << 13, 1 << 14, 1 << 15


def checksum(data):
    h = 2166136261
    for b in data:
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return h


def rect_hash(x, y, w, h):
    """present.c's ad_rect_hash: FNV-1a 64 of "%.1f,%.1f,%.1f,%.1f"."""
    v = 1469598103934665603
    for b in ("%.1f,%.1f,%.1f,%.1f" % (x, y, w, h)).encode():
        v = ((v ^ b) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % v


class _Reader:
    def __init__(self, data):
        self.data, self.pos = data, 0

    def varint(self):
        v = shift = 0
        while True:
            if self.pos >= len(self.data) or shift > 63:
                raise ValueError("truncated")
            b = self.data[self.pos]
            self.pos += 1
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def bytes(self):
        n = self.varint()
        if self.pos + n > len(self.data):
            raise ValueError("truncated")
        self.pos += n
        return self.data[self.pos - n:self.pos]


def _unzigzag(v):
    return (v >> 1) ^ -(v & 1)


def decode(raw):
    if not raw.startswith(MAGIC):
        return json.loads(raw.decode("utf-8"))
    if len(raw) < 9 or raw[4] != 2:
        raise ValueError("unknown refmap format")
    body, (want,) = raw[:-4], struct.unpack("<I", raw[-4:])
    if checksum(body) != want:
        raise ValueError("bad checksum")
    r = _Reader(body)
    r.pos = 5
    refmap = json.loads(r.bytes())
    values = [json.loads(r.bytes()) for _ in range(r.varint())]
    refs, number, mask = {}, 0, 0
    texts, path, bounds = {}, [], [0, 0, 0, 0]
    for _ in range(r.varint()):
        head = r.varint()
        number += head >> 1
        if not head & 1:
            mask = r.data[r.pos] | r.data[r.pos + 1] << 8
            r.pos += 2
        entry = {}
        for bit, (key, kind) in enumerate(FIELDS):
            if not mask & (1 << bit):
                continue
            if kind == "intern":
                entry[key] = values[r.varint()]
            elif kind == "text":
                shared = r.varint()
                texts[key] = texts.get(key, b"")[:shared] + r.bytes()
                entry[key] = texts[key].decode("utf-8")
            elif kind == "path":
                shared, rest = r.varint(), r.varint()
                new = path[:shared]
                for i in range(shared, shared + rest):
                    v = r.varint()
                    new.append(path[i] + _unzigzag(v) if i == shared and i < len(path) else v)
                path = new
                entry[key] = list(path)
            elif kind == "bounds":
                bounds = [b + _unzigzag(r.varint()) for b in bounds]
                entry[key] = dict(zip(("x", "y", "width", "height"), map(float, bounds)))
            elif kind == "hash":
                entry[key] = rect_hash(*bounds)
            else:
                entry[key] = bool(mask & (UNIQUE_VALUE if key == "unique_at_capture"
                                          else DRILL_VALUE))
        if mask & EXTRAS:
            entry.update(values[r.varint()])
        refs["@e%d" % number] = entry
    if r.pos != len(body):
        raise ValueError("bytes after the end")
    refmap["refs"] = refs
    return refmap
