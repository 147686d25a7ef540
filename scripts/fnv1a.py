"""FNV-1a 64, the hash every frozen data file is pinned by (the build's generators and
their C checks, src/common: the same function)."""

FNV_OFFSET, FNV_PRIME, MASK = 0xcbf29ce484222325, 0x100000001b3, (1 << 64) - 1


def fnv1a64(data, h=FNV_OFFSET):
    """The hash of the bytes data, continued from h."""
    for b in data:
        h = ((h ^ b) * FNV_PRIME) & MASK
    return h
