"""Byte-level helpers for tests that take archives apart and put them back together
(doc/format.md): LEB128 varints."""


def varint(n):
    """n as an unsigned LEB128 varint."""
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def read_varint(data, pos):
    """(value, position after it) of the varint at data[pos]."""
    v = shift = 0
    while True:
        b = data[pos]
        pos += 1
        v |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return v, pos
