"""FNV-1a 64, the hash every frozen data file is pinned by (the build's generators and
their C checks, src/common: the same function)."""
import sys

FNV_OFFSET, FNV_PRIME, MASK = 0xcbf29ce484222325, 0x100000001b3, (1 << 64) - 1


def fnv1a64(data, h=FNV_OFFSET):
    """The hash of the bytes data, continued from h."""
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h


def check_pin(h, pin, name, what, change):
    """Exits unless h, the hash of name's bytes, is pin (hex), the hash the frozen data
    froze: `a changed WHAT is CHANGE` (a new version, never an edit in place)."""
    if h != int(pin, 16):
        sys.exit(f"{name}: FNV-1a 64 {h:016x}, but the {what} froze {pin}: a changed {what} is {change}")
