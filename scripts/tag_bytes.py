#!/usr/bin/env python3
"""Tag bytes of an archive: for each block, the structure stream's tag sections (names,
values and, in structure versions 1-3, tag_code) compressed on their own the way the writer compresses
a structure stream (raw LZMA2 preset 9e and zstd level 19, the smaller kept), summed over
the blocks. Reads the archive with tools/edu_decode.py (no engine).

usage: scripts/tag_bytes.py ARCHIVE.ucz... [--models]
  prints: archive, games, tag bytes, bytes/game; --models also the model each tag name
  got in each block (structure version 1)"""
import ctypes
import ctypes.util
import importlib.util
import lzma
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("edu_decode", os.path.join(_here, "..", "tools", "edu_decode.py"))
edu = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(edu)

MODEL_NAMES = ["plain", "copy", "lastpart", "plies", "result", "elo", "diff", "date", "time", "name", "recent", "final",
               "template", "numtail", "pairdiff"]
_zstd = ctypes.CDLL(ctypes.util.find_library("zstd"))
_zstd.ZSTD_compressBound.restype = ctypes.c_size_t
_zstd.ZSTD_compress.restype = ctypes.c_size_t
_zstd.ZSTD_compress.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def packed(data):
    """Bytes of data compressed as the writer compresses a structure stream."""
    bound = _zstd.ZSTD_compressBound(len(data))
    out = ctypes.create_string_buffer(bound)
    z = _zstd.ZSTD_compress(out, bound, data, len(data), 19)
    dict_size = 4096
    while dict_size < len(data):
        dict_size *= 2
    x = lzma.compress(data, format=lzma.FORMAT_RAW,
                      filters=[{"id": lzma.FILTER_LZMA2, "preset": 9 | lzma.PRESET_EXTREME, "dict_size": dict_size}])
    return min(z, len(x))


def structures(data):
    """(structure version, structure stream) of every block of every member."""
    captured = []
    real = edu.read_structure

    def spy(structure, n_games, version, *rest):  # (tag version, comment framing: as edu_decode passes them)
        captured.append((version, structure))
        return real(structure, n_games, version, *rest)

    edu.read_structure = spy
    try:
        pos, games = 0, 0
        while pos < len(data):
            _, _, g, pos = edu.read_member(data, pos)
            games += len(g)
    finally:
        edu.read_structure = real
    return captured, games


def tag_sections(version, structure):
    r = edu.Reader(structure)
    sizes = [r.varint() for _ in range(5 if version == 0 else 7)]
    secs, pos = [], r.pos
    for s in sizes:
        secs.append(structure[pos:pos + s])
        pos += s
    return secs


def main(argv):
    paths = [a for a in argv[1:] if not a.startswith("--")]
    if not paths:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    for path in paths:
        blocks, games = structures(open(path, "rb").read())
        total = 0
        for i, (version, structure) in enumerate(blocks):
            secs = tag_sections(version, structure)
            total += packed(secs[0] + secs[2] + (secs[6] if version else b""))
            if "--models" in argv and version and secs[6]:
                rn = edu.Reader(secs[0])
                names = [rn.string().decode("utf-8", "replace") for _ in range(rn.varint())]
                rc = edu.Reader(secs[6])
                models = []
                for _ in names:
                    m = rc.varint()
                    p = rc.varint() if m in (1, 2, 5, 7, 8, 14) else None
                    p2 = rc.varint() if m == 14 else None
                    models.append(MODEL_NAMES[m] + ("" if p is None else f"({names[p] if p < len(names) else '-'}"
                                                    + ("" if p2 is None else f",{names[p2]}") + ")"))
                print(f"  block {i}: " + ", ".join(f"{n}={m}" for n, m in zip(names, models) if m != "plain"))
        print(f"{path}\t{games} games\t{total} tag bytes\t{total / max(games, 1):.1f} B/game")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
