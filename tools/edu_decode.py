#!/usr/bin/env python3
"""Educational decoder of .ucz archives, written from doc/format.md alone.

It reads every member of an archive: the header (and its fields), each block (its crc,
the structure stream decompressed with zstd, raw LZMA2 or zstd over the prose dictionary), the structure stream's
sections (tag names, game records with their tree shapes, tag values column by column,
comments, text records; in structure version 1 the coded tags too; in structure versions 2 to 4 the engine-comment
code's per-game streams, checked but not decoded: their values need the game's moves; in
structure versions 4 and 5 the range-coded game records), the index (checked against the
blocks, with the member digest) and the footer (version 2) or the index length (version 3).
It prints each game's tags and move counts. It does not decode the moves:
that needs the engine (doc/format.md, "Engine queries") and the move models.

    tools/edu_decode.py ARCHIVE.ucz            a summary per game
    tools/edu_decode.py ARCHIVE.ucz --json     one JSON object per game (tags, counts)
    tools/edu_decode.py ARCHIVE.ucz --header   the member headers too

Needs only Python 3 and libzstd (through ctypes) for blocks stored with zstd, and
data/prose_dict/v1.bin for those of method 3, and src/block/record_prior5.inc for structure
version 5.
"""
import ctypes
import ctypes.util
import datetime
import json
import lzma
import os
import re
import struct
import sys
import zlib


class Corrupt(Exception):
    pass


# ---- primitives (doc/format.md, "Conventions") ----

class Reader:
    """Bounds-checked reading of bytes; every read past the end is corruption."""

    def __init__(self, data, pos=0, end=None):
        self.data = data
        self.pos = pos
        self.end = len(data) if end is None else end

    def left(self):
        return self.end - self.pos

    def bytes(self, n, what="bytes"):
        if n > self.left():
            raise Corrupt(f"truncated {what} at byte {self.pos}")
        b = self.data[self.pos:self.pos + n]
        self.pos += n
        return b

    def u32(self):
        return struct.unpack("<I", self.bytes(4, "u32"))[0]

    def u64(self):
        return struct.unpack("<Q", self.bytes(8, "u64"))[0]

    def varint(self):
        value = 0
        for shift in range(0, 70, 7):
            byte = self.bytes(1, "varint")[0]
            if shift == 63 and byte > 1:
                raise Corrupt(f"varint overflows 64 bits at byte {self.pos - 1}")
            value |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return value
        raise Corrupt(f"varint longer than 10 bytes at byte {self.pos}")

    def string(self, limit=None, nul_ok=False):
        n = self.varint()
        if limit is not None and n > limit:
            raise Corrupt(f"string of {n} bytes over the limit {limit}")
        s = self.bytes(n, "string")
        if not nul_ok and b"\0" in s:
            raise Corrupt("NUL byte in a text field")
        return s


class NulTexts(Reader):
    """The comments section when header key 19 is 2: each comment text then a NUL byte; the
    bytes of verbatim and text-only records (nul_ok) stay strings."""

    def string(self, limit=None, nul_ok=False):
        if nul_ok:
            return Reader.string(self, limit, nul_ok)
        end = self.data.find(b"\0", self.pos, self.end)
        if end < 0 or (limit is not None and end - self.pos > limit):
            raise Corrupt("a comment text without its NUL")
        s = self.data[self.pos:end]
        self.pos = end + 1
        return s


def crc32(*parts):
    c = 0
    for p in parts:
        c = zlib.crc32(p, c)
    return c


# XXH64 with seed 0 (the xxHash specification), for the member digest.
P1, P2, P3, P4, P5 = (0x9E3779B185EBCA87, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9,
                      0x85EBCA77C2B2AE63, 0x27D4EB2F165667C5)
M64 = (1 << 64) - 1


def _rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M64


def _round(acc, lane):
    return (_rotl((acc + lane * P2) & M64, 31) * P1) & M64


def _merge(acc, v):
    return ((acc ^ _round(0, v)) * P1 + P4) & M64


def xxh64(data, seed=0):
    n, i = len(data), 0
    if n >= 32:
        v = [(seed + P1 + P2) & M64, (seed + P2) & M64, seed, (seed - P1) & M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _round(v[k], struct.unpack_from("<Q", data, i + 8 * k)[0])
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & M64
        for k in range(4):
            h = _merge(h, v[k])
    else:
        h = (seed + P5) & M64
    h = (h + n) & M64
    while i + 8 <= n:
        h = (_rotl(h ^ _round(0, struct.unpack_from("<Q", data, i)[0]), 27) * P1 + P4) & M64
        i += 8
    if i + 4 <= n:
        h = (_rotl(h ^ (struct.unpack_from("<I", data, i)[0] * P1) & M64, 23) * P2 + P3) & M64
        i += 4
    while i < n:
        h = (_rotl(h ^ (data[i] * P5) & M64, 11) * P1) & M64
        i += 1
    h ^= h >> 33
    h = (h * P2) & M64
    h ^= h >> 29
    h = (h * P3) & M64
    return h ^ (h >> 32)


# ---- the structure stream's compression (doc/format.md, "Block") ----

_zstd = None


PROSE_DICT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "prose_dict", "v1.bin")


def unzstd(data, size, dictionary=b""):
    """One zstd frame of exactly size bytes; with a dictionary (method 3: the prose
    dictionary, raw content), the frame is decoded as if the dictionary came before it."""
    global _zstd
    if _zstd is None:
        name = ctypes.util.find_library("zstd")
        if not name:
            raise Corrupt("a block is stored with zstd and libzstd was not found")
        _zstd = ctypes.CDLL(name)
        _zstd.ZSTD_createDCtx.restype = ctypes.c_void_p
        _zstd.ZSTD_freeDCtx.argtypes = [ctypes.c_void_p]
        _zstd.ZSTD_decompress_usingDict.restype = ctypes.c_size_t
        _zstd.ZSTD_decompress_usingDict.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p,
                                                    ctypes.c_size_t, ctypes.c_void_p, ctypes.c_size_t]
        _zstd.ZSTD_isError.argtypes = [ctypes.c_size_t]
    out = ctypes.create_string_buffer(max(size, 1))
    dctx = _zstd.ZSTD_createDCtx()
    got = _zstd.ZSTD_decompress_usingDict(dctx, out, size, data, len(data), dictionary, len(dictionary))
    _zstd.ZSTD_freeDCtx(dctx)
    if _zstd.ZSTD_isError(got) or got != size:
        raise Corrupt("the structure stream does not decompress to its size")
    return out.raw[:size]


def unlzma2(data, size):
    dict_size = 4096
    while dict_size < size:
        dict_size *= 2
    d = lzma.LZMADecompressor(lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": dict_size}])
    try:
        out = d.decompress(data, max_length=size + 1)
    except lzma.LZMAError as e:
        raise Corrupt(f"the structure stream does not decompress: {e}")
    if len(out) != size:
        raise Corrupt("the structure stream does not decompress to its size")
    return out


# ---- header (doc/format.md, "Header") ----

MAGIC = b"\x89UCZ\r\n\x1a\n"
TEXT_KEYS = {1: ("engine_name", 128), 2: ("fingerprint", 64), 8: ("engine_settings", 2048),
             12: ("chess960_fingerprint", 64), 64: ("settings_text", 256), 65: ("created_by", 64)}
INT_KEYS = {3: ("depth", 1000), 4: ("nodes", M64), 5: ("mode", 2), 6: ("hash_mb", 0xFFFFFFFF),
            7: ("threads", 0xFFFFFFFF), 10: ("coder", 255), 11: ("block_games", 65536),
            13: ("struct_version", 5), 16: ("tag_version", 5), 17: ("comment_revision", 4),
            18: ("engine_revision", 2), 19: ("comment_text", 2)}
MODEL_PARAMS = {1: 2, 2: 4, 3: 3}


def read_header(r):
    start = r.pos
    if r.bytes(8, "magic") != MAGIC:
        raise Corrupt(f"not a ucizip archive (bad magic) at byte {start}")
    version = struct.unpack("<H", r.bytes(2, "header"))[0]
    if version == 2:
        flags, hlen = struct.unpack("<HI", r.bytes(6, "header"))
        if flags:
            raise Corrupt("unknown header flags")
    elif version == 3:
        hlen = r.varint()
    else:
        raise Corrupt(f"archive format version {version} is not supported (this reads versions 2 and 3)")
    if hlen == 0 or hlen > 1 << 20:
        raise Corrupt("header body size out of range")
    body = r.bytes(hlen, "header body")
    if r.u32() != crc32(body):
        raise Corrupt("header checksum mismatch")
    h, c, last = {}, Reader(body), 0
    while c.left():
        key = c.varint()
        if key <= last:
            raise Corrupt("header keys not increasing")
        last = key
        value = c.string(nul_ok=True)
        if version == 3 and key in (2, 12):  # fingerprints: 8 bytes, shown as 16 hex digits
            if len(value) != 8:
                raise Corrupt(f"header field {TEXT_KEYS[key][0]} malformed")
            h[TEXT_KEYS[key][0]] = value.hex()
        elif key in TEXT_KEYS:
            name, cap = TEXT_KEYS[key]
            if len(value) >= cap or b"\0" in value or (key == 12 and not value):
                raise Corrupt(f"header field {name} malformed")
            h[name] = value.decode("utf-8", "replace")
        elif key == 14:  # opening counts: alpha in sixteenths, plies (moves only: not decoded here)
            v, ints = Reader(value), []
            while v.left():
                ints.append(v.varint())
            if len(ints) != 2 or not 1 <= ints[0] <= 65536 or not 1 <= ints[1] <= 1024:
                raise Corrupt("header field opening malformed")
            h["opening"] = ints
        elif key == 15:  # opening book: version, hash low and high 32 bits (moves only: not decoded here)
            v, ints = Reader(value), []
            while v.left():
                ints.append(v.varint())
            if len(ints) != 3 or ints[0] == 0 or max(ints) > 0xFFFFFFFF:
                raise Corrupt("header field book malformed")
            h["book"] = {"version": ints[0], "hash": "%08x%08x" % (ints[2], ints[1])}
        elif key in INT_KEYS or key == 9:
            v, ints = Reader(value), []
            while v.left():
                ints.append(v.varint())
            if key == 9:
                if not ints or len(ints) - 1 != MODEL_PARAMS.get(ints[0], -1) or max(ints) > 0xFFFFFFFF:
                    raise Corrupt("header field model malformed")
                h["model"] = ints
            else:
                name, cap = INT_KEYS[key]
                if len(ints) != 1 or ints[0] > cap or (key == 13 and ints[0] == 0 and version == 2) or \
                        (key in (16, 17, 19) and ints[0] == 0):  # 17, comment models (not decoded here): 1 to 3
                    raise Corrupt(f"header field {name} malformed")
                h[name] = ints[0]
        elif key < 64:
            raise Corrupt(f"unknown header key {key} (needed for decoding)")
    h["version"] = version
    required = range(1, 12)
    if version == 3:
        # Keys 3-8 all or none (none: the engine profile's default settings); 10, 11 and
        # 13 have defaults.
        settings = [TEXT_KEYS.get(k, INT_KEYS.get(k, ("",)))[0] in h for k in range(3, 9)]
        if any(settings) and not all(settings):
            raise Corrupt("header keys 3-8 must be all present or all absent")
        h["settings_from_profile"] = not any(settings)
        h.setdefault("coder", 2)
        h.setdefault("block_games", 1024)
        h.setdefault("struct_version", 1)
        required = (1, 2, 9)
    h.setdefault("tag_version", 1)
    for key in required:
        name = (TEXT_KEYS.get(key) or INT_KEYS.get(key) or ("model",))[0]
        if name not in h:
            raise Corrupt(f"header field {name} (key {key}) missing")
    return h


# ---- structure stream (doc/format.md, "Structure stream") ----

LIMIT_TEXT = 16 << 20
LIMIT_LIST = 1 << 20
LIMIT_GAME_BYTES = 64 << 20
RESULTS = ["*", "1-0", "0-1", "1/2-1/2"]


def read_line(rec, comments, depth, counts):
    """One line of a game tree: returns its node count (counts gets every node)."""
    if depth > 256:
        raise Corrupt("variations nested too deep")
    for _ in range(count(rec)):
        comments.string(LIMIT_TEXT)
    n_nodes = rec.varint()
    n_annotated = count(rec)
    if n_annotated > n_nodes:
        raise Corrupt("more annotated nodes than nodes")
    counts["nodes"] += n_nodes
    nxt = 0
    for _ in range(n_annotated):
        gap, flags = rec.varint(), rec.varint()
        if gap >= n_nodes - nxt or not 1 <= flags <= 31:
            raise Corrupt("bad annotated node")
        nxt += gap + 1
        if flags & 1:
            counts["null"] += 1
        if flags & 2:
            n = count(rec, 1)
            counts["nags"] += n
            for _ in range(n):
                if rec.varint() > 255:
                    raise Corrupt("NAG above 255")
        if flags & 4:
            n = count(rec, 1)
            counts["comments"] += n
            for _ in range(n):
                comments.string(LIMIT_TEXT)
        if flags & 8:
            n = count(rec, 1)
            counts["variations"] += n
            for _ in range(n):
                read_line(rec, comments, depth + 1, counts)
        if flags & 16:
            order = rec.string(LIMIT_TEXT)
            if set(order) - set(b"ncv"):
                raise Corrupt("bad annotation order")
    return n_nodes


# ---- coded records (structure version 4; doc/format.md, "Coded records" and "Coders") ----

class RangeDecoder:
    """The range decoder of "Coders" with the binary models of "Coded comments"."""

    def __init__(self, data):
        self.data, self.pos = data, 0
        self.range, self.code, self.window = 0xFFFFFFFF, 0, 0
        for _ in range(4):
            self.code = (self.code << 8) | self.next_byte()
        if self.code >= self.range:
            raise Corrupt("a coded records stream that cannot start")

    def next_byte(self):
        b = self.data[self.pos] if self.pos < len(self.data) else 0
        self.pos += 1
        self.window = ((self.window << 8) | b) & 0xFFFFFFFF
        return b

    def get(self, freq, total):
        r = self.range // total
        v = min(self.code // r, total - 1)
        cum, s = 0, 0
        while s < len(freq) - 1 and cum + freq[s] <= v:
            cum += freq[s]
            s += 1
        self.code -= r * cum
        self.range = r * freq[s] if cum + freq[s] < total else self.range - r * cum
        if self.code >= self.range:
            raise Corrupt("impossible coded records stream")
        while self.range < 1 << 24:
            self.code = ((self.code << 8) | self.next_byte()) & 0xFFFFFFFF
            self.range <<= 8
        return s

    def bit(self, model):
        """model: [p, n, cap]; adapts it."""
        q = min(max(model[0] >> 4, 1), 4095)
        b = self.get([4096 - q, q], 4096)
        step = (b * 65536 - model[0]) * 2
        den = 2 * model[1] + 3
        model[0] += step // den if step >= 0 else -((-step) // den)  # C division: toward zero
        model[1] = min(model[1] + 1, model[2])
        return b

    def finish(self):
        """The stream is exactly what the encoder wrote: consumed, and its flush."""
        if not len(self.data) <= self.pos <= len(self.data) + 4:
            raise Corrupt("coded records stream not consumed exactly")
        low = (self.window - self.code) & 0xFFFFFFFF
        delta = 0
        for sh in (32, 24, 16, 8):
            x = -(-low // (1 << sh)) * (1 << sh)
            if x - low < self.range:
                delta = x - low
                break
        if self.code != delta:
            raise Corrupt("coded records stream does not end as the encoder ends it")


RECORD_CAP = 60
RECORD_PRIOR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "block", "record_prior5.inc")
# The record models in the order of structure version 5's table (doc/format.md, "Coded records"):
# the bits (name, the sizes of their indexes), then the gamma sets (name, their indexes).
RECORD_BITS = (("special", 2), ("text_only",), ("has_fen",), ("chess960", 2), ("result", 2, 3), ("tag_hit", 2),
               ("annotated", 2, 2), ("null", 2), ("has_nags", 2), ("has_comments", 2, 2), ("has_variations", 2),
               ("order",))
RECORD_SETS = ([("tag_name",)] + [("pre_comments", v) for v in (0, 1)] + [("nodes", v) for v in (0, 1)] +
               [("comments", v) for v in (0, 1)] + [("trailing",), ("nag_count",), ("nag",), ("variations",)] +
               [("moves_len", x) for x in range(12)] + [("text_rec",)])
RECORD_N_TEXTS = 16


def record_model_keys():
    """Every record model's key (as Records names it), in the table's order."""
    keys = []
    for name, *dims in RECORD_BITS:
        idx = [()]
        for d in dims:
            idx = [i + (k,) for i in idx for k in range(d)]
        keys += [(name,) + i for i in idx]
    for key in RECORD_SETS:
        keys += [(key, "len", k) for k in range(48)]
        keys += [(key, "top", k, t) for k in range(48) for t in range(4)]
        keys += [(key, "low", k, i) for k in range(48) for i in range(48)]
    return keys


_record_prior = None


def record_prior():
    """Structure version 5's table: the initial states {key: (p, n)} from its {index, p, n} entries,
    and its common text records (bytes)."""
    global _record_prior
    if _record_prior is None:
        keys = record_model_keys()
        text = open(RECORD_PRIOR).read()
        at = text.index("record_priors")
        texts = [bytes.fromhex(h.replace("\\x", "")) for n, h in
                 re.findall(r'\{(\d+), "((?:\\x[0-9a-f]{2})*)"\}', text[text.index("record_texts"):at])]
        if len(texts) != RECORD_N_TEXTS:
            raise Corrupt("record_prior5.inc does not hold 16 text records")
        models = {keys[int(i)]: (int(p), int(n)) for i, p, n in re.findall(r"\{(\d+), (\d+), (\d+)\}", text[at:])}
        _record_prior = models, texts
    return _record_prior


class Records:
    """The models of a block's coded records, made on first use (p = 1/2, n = 0; structure version 5:
    the trained state of its table where it has one)."""

    def __init__(self, data, check_bits, version=4):
        self.dec = RangeDecoder(data)
        self.models = {}
        if version >= 5:
            self.models = {k: [p, n, RECORD_CAP] for k, (p, n) in record_prior()[0].items()}
        self.version = version
        self.check_bits = check_bits
        self.prev_special = 0
        self.sum_len = self.sum_moves = 0
        self.succ = {}
        self.names_seen = 0
        self.prev_text = None

    def text_record(self, text):
        """A game's text record (step 4): structure version 4 the next of the text section;
        version 5 the previous game's, a common one of the table, or the next of the section."""
        c = self.count(RECORD_N_TEXTS + 1, "text_rec") if self.version >= 5 else RECORD_N_TEXTS + 1
        if c == 0:
            if self.prev_text is None:
                raise Corrupt("a text record like the previous one in a block's first game")
            layout = read_text_record(Reader(self.prev_text))
        elif c <= RECORD_N_TEXTS:
            self.prev_text = record_prior()[1][c - 1]
            layout = read_text_record(Reader(self.prev_text))
        else:
            start = text.pos
            layout = read_text_record(text)
            self.prev_text = text.data[start:text.pos]
        return layout

    def bit(self, *key):
        return self.dec.bit(self.models.setdefault(key, [32768, 0, RECORD_CAP]))

    def gamma(self, *key):
        k = 1
        while self.bit(key, "len", k):
            k += 1
            if k >= 48:
                raise Corrupt("gamma code too long")
        x = 1
        for i in range(1, k):
            x = 2 * x + (self.bit(key, "top", k, x) if i <= 2 else self.bit(key, "low", k, i))
        return x

    def count(self, maximum, *key):
        v = self.gamma(*key) - 1
        if v > maximum:
            raise Corrupt("coded count out of range")
        return v

    def tag_name(self, state, n_names):
        pred = self.succ.get(state)
        if pred is None and self.version >= 5:  # the next new name (the names are numbered in first use)
            pred = self.names_seen + 1
        if pred is not None and self.bit("tag_hit", int(pred == 0)):
            if pred > n_names:
                raise Corrupt("a predicted tag name past the names")
            v = pred
        else:
            v = self.count(n_names, "tag_name")
            if v == pred:
                raise Corrupt("a missed tag name prediction coded as itself")
        self.succ[state] = v
        self.names_seen = max(self.names_seen, v)
        return v

    def moves_len(self, moves):
        pred = (self.sum_len * moves + self.sum_moves // 2) // self.sum_moves if self.sum_moves else moves // 2
        v = self.gamma("moves_len", min(pred.bit_length(), 11))
        got = pred + (v >> 1 if v & 1 else -(v >> 1))
        if got < 0 or got > 1 << 30 or self.sum_len + got > 1 << 30:
            raise Corrupt("move-stream length out of range")
        self.sum_len += got
        self.sum_moves += moves
        return got

    def check(self):
        c = 0
        for _ in range(self.check_bits):
            c = 2 * c + self.dec.get([2048, 2048], 4096)
        return c


def read_line_coded(rc, strings, comments, depth, counts):
    """One line of structure version 4's coded records: returns its node count and its coded moves."""
    if depth > 256:
        raise Corrupt("variations nested too deep")
    v = int(depth > 0)
    for _ in range(rc.count(LIMIT_LIST, "pre_comments", v)):
        comments.string(LIMIT_TEXT)
    n_nodes = rc.count(1 << 20, "nodes", v)
    counts["nodes"] += n_nodes
    moves, prev = 0, 0
    for _ in range(n_nodes):
        prev = rc.bit("annotated", v, prev)
        if not prev:
            moves += 1
            continue
        null, nags = rc.bit("null", v), rc.bit("has_nags", v)
        comm, var = rc.bit("has_comments", v, nags), rc.bit("has_variations", v)
        if not null | nags | comm | var:
            raise Corrupt("an annotated node with nothing")
        order = rc.bit("order") if nags + comm + var >= 2 else 0
        moves += not null
        counts["null"] += null
        if nags:
            n = rc.count(LIMIT_LIST - 1, "nag_count") + 1
            counts["nags"] += n
            for _ in range(n):
                rc.count(255, "nag")
        if comm:
            n = rc.count(LIMIT_LIST - 1, "comments", v) + 1
            counts["comments"] += n
            for _ in range(n):
                comments.string(LIMIT_TEXT)
        if var:
            n = rc.count(LIMIT_LIST - 1, "variations") + 1
            counts["variations"] += n
            for _ in range(n):
                moves += read_line_coded(rc, strings, comments, depth + 1, counts)[1]
        if order and set(strings.string(LIMIT_TEXT)) - set(b"ncv"):
            raise Corrupt("bad annotation order")
    return n_nodes, moves


def read_game_coded(rc, strings, comments, text, n_names):
    """One game of structure version 4's coded records."""
    special = rc.bit("special", rc.prev_special)
    rc.prev_special = special
    if special:
        kind = "text-only" if rc.bit("text_only") else "verbatim"
        return {"moves_len": 0, "tag_names": [], "kind": kind, "raw": comments.string(LIMIT_GAME_BYTES, nul_ok=True)}
    g = {"kind": "game"}
    fen = rc.bit("has_fen")
    g["chess960"] = bool(rc.bit("chess960", fen))
    if fen:
        g["fen"] = strings.string(LIMIT_TEXT).decode()
    names, state = [], 0
    while True:
        state = rc.tag_name(state, n_names)
        if state == 0:
            break
        names.append(state - 1)
    if len(names) > LIMIT_LIST:
        raise Corrupt("too many tags")
    g["tag_names"] = names
    g["layout"] = rc.text_record(text)
    counts = {"nodes": 0, "null": 0, "nags": 0, "comments": 0, "variations": 0}
    g["plies"], moves = read_line_coded(rc, strings, comments, 0, counts)
    odd = g["plies"] & 1
    hi = rc.bit("result", odd, 0)
    g["result"] = RESULTS[2 * hi + rc.bit("result", odd, 1 + hi)]
    n_trailing = rc.count(LIMIT_LIST, "trailing")
    for _ in range(n_trailing):
        comments.string(LIMIT_TEXT)
    counts["comments"] += n_trailing
    g["counts"] = counts
    g["moves_len"] = rc.moves_len(moves)
    g["check"] = rc.check()
    return g


def count(r, minimum=0):
    n = r.varint()
    if n > LIMIT_LIST or n < minimum:
        raise Corrupt("count out of range")
    return n


def read_text_record(text):
    eol, flags, wrap, tag_gap, end_eols = (text.varint() for _ in range(5))
    if eol > 2 or flags > 16383 or wrap > 65535 or tag_gap > 255 or end_eols > 255:
        raise Corrupt("bad layout")
    n_ops = text.varint()
    if n_ops > text.left():
        raise Corrupt("bad patch")
    for _ in range(n_ops):
        text.varint()
        text.varint()
        text.string(nul_ok=True)
    return {"eol": ["LF", "CRLF", "CR"][eol], "flags": flags, "wrap": wrap, "tag_gap": tag_gap,
            "end_eols": end_eols, "patch_ops": n_ops}


def read_structure(data, n_games, version, tag_version=1, comment_text=1):
    """The games of a block's structure stream (structure version `version`, header key 13; its tags
    coded in `tag_version`, key 16; its comment texts framed by `comment_text`, key 19):
    tags, tree counts, text records."""
    r = Reader(data)
    sizes = [r.varint() for _ in range(5 if version == 0 else 7)]
    sec, pos = [], r.pos
    for s in sizes:
        if s > len(data) - pos:
            raise Corrupt("structure section past the end")
        sec.append(Reader(data, pos, pos + s))
        pos += s
    # Structure versions 2 and 3: the engine-comment code is every byte after the seventh section.
    engine = Reader(data, pos, len(data))
    if pos != len(data) and version < 2:
        raise Corrupt("bytes after the structure sections")
    # The comments section serves the trees and the trailing comments in record order.
    names_r, rec, values, comments, text = sec[:5]
    if comment_text == 2:
        comments = NulTexts(data, comments.pos, comments.end)
    names = [names_r.string(LIMIT_TEXT).decode("utf-8", "replace") for _ in range(count(names_r))]
    if names_r.left():
        raise Corrupt("bytes after the tag names")
    games = []
    if version >= 4:
        check_bits, code_size = rec.varint(), rec.varint()
        if check_bits > 32:
            raise Corrupt("a check wider than 32 bits")
        rc = Records(rec.bytes(code_size, "coded records"), check_bits, version)
        for _ in range(n_games):
            g = read_game_coded(rc, rec, comments, text, len(names))
            if any(k >= len(names) for k in g["tag_names"]):
                raise Corrupt("tag name index out of range")
            games.append(g)
        rc.dec.finish()
    for _ in range(n_games if version < 4 else 0):
        g = {"moves_len": rec.varint(), "crc": rec.u32()}
        g["tag_names"] = [rec.varint() for _ in range(count(rec))]
        if any(k >= len(names) for k in g["tag_names"]):
            raise Corrupt("tag name index out of range")
        flags = rec.varint()
        if flags in (8, 32):
            if g["tag_names"] or g["moves_len"]:
                raise Corrupt("a verbatim record with tags or moves")
            g["kind"] = "verbatim" if flags == 8 else "text-only"
            g["raw"] = comments.string(LIMIT_GAME_BYTES, nul_ok=True)
            if crc32(g["raw"]) != g["crc"]:
                raise Corrupt("a verbatim record's crc does not match its bytes")
        else:
            if flags & ~16 > 7:
                raise Corrupt("bad game flags")
            g["kind"] = "game"
            g["result"] = RESULTS[(flags >> 1) & 3]
            g["chess960"] = bool(flags & 16)
            if flags & 1:
                g["fen"] = rec.string(LIMIT_TEXT).decode()
            counts = {"nodes": 0, "null": 0, "nags": 0, "comments": 0, "variations": 0}
            g["plies"] = read_line(rec, comments, 0, counts)
            n_trailing = count(rec)
            for _ in range(n_trailing):
                comments.string(LIMIT_TEXT)
            counts["comments"] += n_trailing
            g["counts"] = counts
            g["layout"] = read_text_record(text)
        games.append(g)
    for s, what in ((rec, "records"), (comments, "comments"), (text, "text records")):
        if s.left():
            raise Corrupt(f"bytes left over in the {what} section")
    # Tag values: column by column, in names order; each column holds one value per use.
    uses = [0] * len(names)
    for g in games:
        for k in g["tag_names"]:
            uses[k] += 1
    if version == 0:
        columns = [[values.string(LIMIT_TEXT) for _ in range(uses[k])] for k in range(len(names))]
        if values.left():
            raise Corrupt("bytes left over in the values section")
        taken = [0] * len(names)
        for g in games:
            g["tags"] = []
            for k in g["tag_names"]:
                g["tags"].append((names[k], columns[k][taken[k]].decode("utf-8", "replace")))
                taken[k] += 1
    else:
        read_coded_tags(sec[6], values, names, games, uses, version, tag_version)
    read_engine_code(engine, games)
    return games


# ---- engine comment code (doc/format.md, "Engine comment code") ----

def read_engine_code(r, games):
    """Structure version 2: empty, or each game's range-coded stream with its size. Its values (TCEC
    comments' numbers and principal variations) are coded against the game's positions,
    which need the moves and so the engine: this tool checks the framing only and counts
    the bytes; the comments it would print are their residuals."""
    if not r.left():
        return
    for g in games:
        n = r.varint()
        if n > r.left() or (n and g["kind"] != "game"):
            raise Corrupt("bad engine-code size")
        r.bytes(n, "engine code")
        g["engine_code_bytes"] = n
    if r.left():
        raise Corrupt("bytes left over in the engine-code section")


# ---- coded tags (doc/format.md, "Coded tags") ----

PLAIN, COPY, LASTPART, PLIES, RESULT, ELO, DIFF, DATE, TIME, NAME, RECENT, FINAL, TEMPLATE, NUMTAIL, PAIRDIFF, \
    ECO, OPENING, MOVETAIL, TOKEN = range(19)
TOKEN_ALPHABET = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_"  # model 18's symbols
TOKEN_MAX = 64
DERIVED = (FINAL, ECO, OPENING, MOVETAIL)  # models whose values may come from the moves
HEADS = 257  # model 17: a head is a text (0) or an entry of the name's recent heads
DERIVED_MAX = 8
WITH_PARAM = (COPY, LASTPART, ELO, DATE, TIME, PAIRDIFF)
TAIL_MAX = 10 ** 18 - 1
RECENT_MAX = 256
DATE_MAX = 3652059


def parse_number(model, s):
    """A number model's value of the bytes s, or None when the model does not print it back as s."""
    try:
        t = s.decode("ascii")
    except UnicodeDecodeError:
        return None
    if model == DATE:
        if len(t) != 10 or t[4] != "." or t[7] != "." or not (t[:4] + t[5:7] + t[8:]).isdigit():
            return None
        try:
            return datetime.date(int(t[:4]), int(t[5:7]), int(t[8:])).toordinal()
        except ValueError:
            return None
    if model == TIME:
        if len(t) != 8 or t[2] != ":" or t[5] != ":" or not (t[:2] + t[3:5] + t[6:]).isdigit():
            return None
        h, m, sec = int(t[:2]), int(t[3:5]), int(t[6:])
        return h * 3600 + m * 60 + sec if h < 24 and m < 60 and sec < 60 else None
    if model == ELO:
        v = int(t) if 1 <= len(t) <= 9 and t.isdigit() else None
    else:
        v = int(t) if 2 <= len(t) <= 10 and t[0] in "+-" and t[1:].isdigit() else None
    return v if v is not None and format_number(model, v) == s else None


def format_number(model, v):
    if model == ELO:
        return b"%d" % v
    if model == DIFF:
        return b"%c%d" % (b"-"[0] if v < 0 else b"+"[0], abs(v))
    if model == DATE:
        d = datetime.date.fromordinal(v)
        return b"%04d.%02d.%02d" % (d.year, d.month, d.day)
    return b"%02d:%02d:%02d" % (v // 3600, v // 60 % 60, v % 60)


NUMBER_RANGE = {ELO: (0, 999999999), DIFF: (-999999999, 999999999), DATE: (1, DATE_MAX), TIME: (0, 86399)}


def recent_put(lst, s, rating=0):
    """Moves s to the front of a recent list (a list of [text, rating]), at most RECENT_MAX long."""
    for i, e in enumerate(lst):
        if e[0] == s:
            del lst[i]
            break
    else:
        if len(lst) == RECENT_MAX:
            lst.pop()
    lst.insert(0, [s, rating])


def template_roles(g, seen, white_k, black_k):
    """Model 12's roles: winner and loser of a decided game, else White and Black."""
    white, black = seen.get(white_k, b""), seen.get(black_k, b"")
    return (black, white) if g["result"] == "0-1" else (white, black)


def template_of(value, roles):
    """Model 12's template of a value (None for a value holding a byte 1 or 2)."""
    if b"\x01" in value or b"\x02" in value:
        return None
    out, i = bytearray(), 0
    while i < len(value):
        for r, role in enumerate(roles):
            if role and value.startswith(role, i):
                out.append(1 + r)
                i += len(role)
                break
        else:
            out.append(value[i])
            i += 1
    return bytes(out)


def tail_split(value):
    """Model 13's (text, number) of a value ending in 1-18 digits without a leading zero, or None."""
    d = len(value)
    while d > 0 and value[d - 1:d].isdigit():
        d -= 1
    digits = value[d:]
    if not digits or len(digits) > 18 or (digits[:1] == b"0" and len(digits) > 1):
        return None
    return value[:d], int(digits)


_priors = None


def tag_priors():
    """Tag version 2's priors (data/tag_priors/v2.tsv): name -> its values, entry 0 first."""
    global _priors
    if _priors is None:
        _priors = {}
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "tag_priors", "v2.tsv")
        escapes = {"x01": b"\x01", "x02": b"\x02", "t": b"\t", "n": b"\n", "\\": b"\\"}
        for line in open(path, "rb"):
            name, value = line.rstrip(b"\n").split(b"\t", 1)
            value = re.sub(rb"\\(x01|x02|t|n|\\)", lambda m: escapes[m.group(1).decode()], value)
            _priors.setdefault(name.decode(), []).append(value)
    return _priors


def tag_token_ranged(rc):
    """Tag version 5, model 18: an identifier after its code, its length then its symbols down a tree."""
    n = rc.gamma("token_len")
    if n > TOKEN_MAX:
        raise Corrupt("identifier too long")
    out = bytearray()
    for _ in range(n):
        node = 1
        for _ in range(6):
            node = 2 * node + rc.dec.bit(rc.models.setdefault(("token_tree", node), [32768, 0, 255]))
        out.append(TOKEN_ALPHABET[node - 64])
    return bytes(out)


def tag_code_ranged(rc):
    """Tag version 4: one code of a column, in the context of whether its previous code was 0."""
    ctx = 1 if getattr(rc, "prev_code", 1) else 0
    if rc.bit("escape"):  # a code of 2^46 or more: its high and low 32 bits
        hi, lo = rc.gamma("code", ctx) - 1, rc.gamma("code", ctx) - 1
        if hi >= 1 << 32 or lo >= 1 << 32 or hi < 1 << 14:
            raise Corrupt("bad escaped tag code")
        v = hi << 32 | lo
    else:
        v = rc.gamma("code", ctx) - 1
    rc.prev_code = v
    return v


def read_coded_tags(code, values, names, games, uses, version=1, tag_version=1):
    n = len(names)
    models = []
    top = (TOKEN if tag_version >= 5 else MOVETAIL if version >= 3 else PAIRDIFF) if tag_version >= 3 \
        else PAIRDIFF if tag_version >= 2 else FINAL if version >= 3 else RECENT
    for k in range(n):
        if not code.left() and k == 0:  # an empty section: every name plain
            models = [(PLAIN, 0, 0)] * n
            break
        m = code.varint()
        p = code.varint() if m in WITH_PARAM else 0
        p2 = code.varint() if m == PAIRDIFF else 0
        if m > top or (m == FINAL and version < 3) or \
                (m in (ECO, OPENING, MOVETAIL) and version < 3) or \
                (m in WITH_PARAM and (p == k or p > n or (p == n and m not in (DATE, TIME)))) or \
                (m == PAIRDIFF and (p2 == k or p2 == p or p2 >= n)):
            raise Corrupt("bad tag model")
        models.append((m, p, p2))
    white_k = names.index("White") if "White" in names else n
    black_k = names.index("Black") if "Black" in names else n
    tails = [None] * n  # model 13: each name's last (text, number)
    codes, n_texts = [], []
    tokens = [[] for _ in range(n)]  # model 18: each column's identifiers, in order
    ranged = None
    if tag_version >= 4 and any(m[0] != PLAIN for m in models):  # the codes range-coded, to the section's end
        ranged = Records(code.bytes(code.left(), "tag codes"), 0)
    for k in range(n):
        if models[k][0] == PLAIN:
            col = [0] * uses[k]
        elif ranged:
            col = []
            for _ in range(uses[k]):
                col.append(tag_code_ranged(ranged))
                if models[k][0] == TOKEN and col[-1]:
                    tokens[k].append(tag_token_ranged(ranged))
        else:
            col = [code.varint() for _ in range(uses[k])]
        if ranged:  # the next column's models start afresh
            ranged.models, ranged.prev_code = {}, 1
        codes.append(iter(col))
        n_texts.append(sum(1 for c in col if c == 0 or (models[k][0] == MOVETAIL and (c - 1) % HEADS == 0)
                           or (models[k][0] == TOKEN and c == 1)))
    tokens = [iter(t) for t in tokens]
    if ranged:
        ranged.dec.finish()
    if code.left():
        raise Corrupt("bytes left over in the tag code section")
    texts = [iter([values.string(LIMIT_TEXT) for _ in range(n_texts[k])]) for k in range(n)]
    if values.left():
        raise Corrupt("bytes left over in the values section")
    recent_names, players = [], []
    own_recent = [[] for _ in range(n)]  # model RECENT: each name's own list
    if tag_version >= 2:  # models 10 and 12: the lists start as the name's priors
        for k in range(n):
            if models[k][0] in (RECENT, TEMPLATE, ECO, OPENING):
                own_recent[k] = [[v, 0] for v in tag_priors().get(names[k], [])]
    last_elo = None
    prev = [None] * n
    def pair_reference(g, seen, j, j2):
        """Model 14's reference: a linear Elo expectation (K 12) from the two ratings and the result."""
        a = parse_number(ELO, seen[j]) if j in seen else None
        b = parse_number(ELO, seen[j2]) if j2 in seen else None
        if a is None or b is None or g["result"] == "*" or models[j][0] != ELO or models[j][1] not in (white_k, black_k):
            return 0
        white = models[j][1] == white_k
        score2 = 1 if g["result"] == "1/2-1/2" else 2 if (g["result"] == "1-0") == white else 0
        x = 6 * (score2 - 1) * 58 - max(-400, min(400, a - b))
        return (x + 29) // 58 if x >= 0 else -((-x + 29) // 58)

    for g in games:
        tags, seen = [], {}
        g["tags"] = tags
        final_taken = False
        n_derived = 0
        for k in g["tag_names"]:
            m, p, p2 = models[k]
            c = next(codes[k])
            ref = seen.get(p)
            v = None
            derived = (m == FINAL and c != 0) or (m in (ECO, OPENING) and c == 1)
            n_derived += derived
            if n_derived > DERIVED_MAX:
                raise Corrupt("more than 8 values of a game derived from the moves")
            if m == MOVETAIL:  # a template: with an opening name (byte 1), the ECO (2) or moves, not known here
                head_i, a = (c - 1) % HEADS, (c - 1) // HEADS
                if c and (head_i > len(own_recent[k]) or a // 16 > 65536 * 64):
                    raise Corrupt("bad template or moves")
                head = next(texts[k]) if c == 0 or head_i == 0 else own_recent[k][head_i - 1][0]
                if c and b"\x01" not in head and a % 16:
                    raise Corrupt("an opening name's index without a name")
                derived = c != 0 and (b"\x01" in head or b"\x02" in head or a >= 16)
                n_derived += derived
                if n_derived > DERIVED_MAX:
                    raise Corrupt("more than 8 values of a game derived from the moves")
                recent_put(own_recent[k], head)
                value = None if derived else head
            elif m == TOKEN and c:  # a head (a text, or a recent one), then the identifier
                if c - 1 > len(own_recent[k]):
                    raise Corrupt("bad recent head")
                head = next(texts[k]) if c == 1 else own_recent[k][c - 2][0]
                recent_put(own_recent[k], head)
                value = head + next(tokens[k])
            elif m in (ECO, OPENING) and c >= 1:  # 1: the opening's (not known here); 2...: a recent value
                if c - 2 >= len(own_recent[k]):
                    raise Corrupt("bad recent value")
                value = None if c == 1 else own_recent[k][c - 2][0]
            elif c == 0:
                value = next(texts[k])
            elif m in (COPY, LASTPART, PLIES, RESULT):
                if c != 1 or (m in (COPY, LASTPART) and ref is None):
                    raise Corrupt("bad tag code")
                value = (ref if m == COPY else ref[ref.rfind(b"/") + 1:] if m == LASTPART
                         else b"%d" % g["plies"] if m == PLIES else g["result"].encode())
            elif m == FINAL:  # the final position's FEN (c = 1) or its first four fields (2)
                if c > 2 or final_taken:
                    raise Corrupt("bad tag code")
                final_taken = True
                value = None  # derived from the moves: not known without them
            elif m in (NAME, RECENT, TEMPLATE):
                lst = recent_names if m == NAME else own_recent[k]
                if c > len(lst):
                    raise Corrupt("bad recent value")
                value = lst[c - 1][0]
                if m == TEMPLATE:
                    roles = template_roles(g, seen, white_k, black_k)
                    value = b"".join(roles[b - 1] if b in (1, 2) else bytes([b]) for b in value)
                    if len(value) > LIMIT_TEXT:
                        raise Corrupt("a template's value too long")
            elif m == NUMTAIL:
                u = c - 1
                d = -(u >> 1) - 1 if u & 1 else u >> 1
                if tails[k] is None or abs(d) > TAIL_MAX or not 0 <= tails[k][1] + d <= TAIL_MAX:
                    raise Corrupt("bad number change")
                value = tails[k][0] + b"%d" % (tails[k][1] + d)
            else:
                u = c - 1
                d = -(u >> 1) - 1 if u & 1 else u >> 1
                if m == ELO:
                    hit = [e[1] for e in players if ref is not None and e[0] == ref]
                    base = hit[0] if hit else last_elo if last_elo is not None else 1500
                elif m == DIFF:
                    base = 0
                elif m == PAIRDIFF:
                    base = pair_reference(g, seen, p, p2)
                else:
                    r = parse_number(m, ref) if ref is not None else None
                    base = r if r is not None else prev[k] if prev[k] is not None else 0
                v = base + d
                kind = DIFF if m == PAIRDIFF else m
                lo, hi = NUMBER_RANGE[kind]
                if not lo <= v <= hi:
                    raise Corrupt("coded tag value out of range")
                value = format_number(kind, v)
            if m in (NAME, RECENT) or (m in (ECO, OPENING) and c != 1):
                recent_put(recent_names if m == NAME else own_recent[k], value)
            elif m == TEMPLATE:
                t = template_of(value, template_roles(g, seen, white_k, black_k))
                if t is not None:
                    recent_put(own_recent[k], t)
            elif m == NUMTAIL:
                tails[k] = tail_split(value) or tails[k]
            elif v is not None and m == ELO:
                last_elo = v
                if ref is not None:
                    recent_put(players, ref, v)
            elif v is not None:
                prev[k] = v
            if m not in DERIVED:  # (a value of a column that derives values is never referred to)
                seen[k] = value
            tags.append((names[k], value.decode("utf-8", "replace") if value is not None else None))
    return games


# ---- blocks, index, footer ----

def read_member(data, pos):
    r = Reader(data, pos)
    header = read_header(r)
    v3 = header["version"] == 3
    block_magic, index_magic = (b"B", b"I") if v3 else (b"UCZB", b"UCZI")
    blocks, games = [], []
    while True:
        start = r.pos
        magic = r.bytes(len(block_magic), "block or index magic")
        if magic == index_magic:
            break
        if magic != block_magic:
            raise Corrupt(f"expected a block or the index at byte {start}")
        head_start = r.pos
        n_games, n_moves, method, raw, zsize, moves_size = (r.varint() for _ in range(6))
        if not 1 <= n_games <= 65536 or max(raw, zsize, moves_size) > 1 << 30:
            raise Corrupt(f"impossible block sizes at byte {start}")
        digest = r.u64()
        head = data[head_start:r.pos]
        crc = r.u32()
        stored = r.bytes(zsize, "structure stream")
        moves = r.bytes(moves_size, "move streams")
        if crc != crc32(head, stored, moves):
            raise Corrupt(f"block checksum mismatch at byte {start}")
        if method == 1:
            structure = unzstd(stored, raw)
        elif method == 2:
            structure = unlzma2(stored, raw)
        elif method == 3:
            with open(PROSE_DICT, "rb") as f:
                structure = unzstd(stored, raw, f.read())
        else:
            raise Corrupt(f"unknown structure method {method}")
        block_games = read_structure(structure, n_games, header.get("struct_version", 0), header["tag_version"],
                                     header.get("comment_text", 1))
        if sum(g["moves_len"] for g in block_games) != moves_size:
            raise Corrupt("the games' move streams do not add up to the block's")
        nodes = sum(g["counts"]["nodes"] for g in block_games if g["kind"] == "game")
        if nodes != n_moves:
            raise Corrupt("the block's move count does not match its games")
        off = 0
        for g in block_games:
            g["move_stream"] = moves[off:off + g["moves_len"]]
            off += g["moves_len"]
        blocks.append((start - pos, n_games, n_moves, digest, method, raw, zsize))
        games.extend(block_games)
    index_start = r.pos - len(index_magic)
    body_start = r.pos if not v3 else index_start  # version 3: the crc covers the tag too
    n_blocks = r.varint()
    entries = [(r.varint(), r.varint(), r.varint()) for _ in range(n_blocks)]
    member_digest = r.u64() if not v3 or n_blocks >= 2 else None
    index_offset = r.varint() if v3 else None
    if r.u32() != crc32(data[body_start:r.pos - 4]):
        raise Corrupt("index checksum mismatch")
    if entries != [b[:3] for b in blocks]:
        raise Corrupt("index does not match the blocks")
    if member_digest is not None and member_digest != xxh64(b"".join(struct.pack("<Q", b[3]) for b in blocks)):
        raise Corrupt("the member's blocks do not match its digest")
    if v3:
        # the index's length as a varint with its bytes reversed ends the member
        length, n = r.pos - index_start, bytearray()
        while True:
            n.append((length & 0x7F) | (0x80 if length > 0x7F else 0))
            length >>= 7
            if not length:
                break
        if index_offset != index_start - pos or r.bytes(len(n), "index length") != bytes(reversed(n)):
            raise Corrupt("index offset or length does not match the member")
        return header, blocks, games, r.pos
    footer = r.bytes(32, "footer")
    magic, index_offset, length, total, fcrc = struct.unpack("<4sQQQI", footer)
    if magic != b"UCZF" or fcrc != crc32(footer[:28]):
        raise Corrupt("bad footer")
    if index_offset != index_start - pos or length != r.pos - pos or total != len(games):
        raise Corrupt("footer does not match the member")
    return header, blocks, games, r.pos


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    as_json, show_header = "--json" in argv, "--header" in argv
    data = open(args[0], "rb").read()
    pos, number, out = 0, 0, []
    try:
        while pos < len(data):
            header, blocks, games, pos = read_member(data, pos)
            if show_header and not as_json:
                print("member:", json.dumps(header, indent=1))
                print(f"  {len(blocks)} blocks: " + ", ".join(
                    f"{b[1]} games, {b[2]} moves, {'zstd' if b[4] == 1 else 'lzma2'} {b[6]}/{b[5]} bytes" for b in blocks))
            for g in games:
                number += 1
                if g["kind"] == "text-only":
                    continue
                if as_json:
                    out.append({"game": number, "kind": g["kind"], "tags": g.get("tags", []),
                                "result": g.get("result"), "plies": g.get("plies", -1),
                                "counts": g.get("counts"), "move_stream_bytes": g["moves_len"],
                                "engine_code_bytes": g.get("engine_code_bytes", 0)})
                else:
                    tags = " ".join(f'[{n} "{v}"]' if v is not None else f"[{n} (from the moves)]"
                                    for n, v in g.get("tags", []))
                    if g["kind"] == "verbatim":
                        print(f"game {number}: verbatim, {len(g['raw'])} bytes")
                    else:
                        c = g["counts"]
                        print(f"game {number}: {tags} result {g['result']}; {g['plies']} plies, "
                              f"{c['nodes']} moves with variations, {c['comments']} comments, "
                              f"{c['variations']} variations; move stream {g['moves_len']} bytes"
                              + (f"; engine comments {g['engine_code_bytes']} bytes (not decoded: they need "
                                 "the moves)" if g.get("engine_code_bytes") else ""))
    except Corrupt as e:
        print(f"{args[0]}: corrupt archive: {e}", file=sys.stderr)
        return 1
    if as_json:
        print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
