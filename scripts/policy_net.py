#!/usr/bin/python3
"""The frozen integer policy over the board (data/policy/vN.bin): made from a network
scripts/policy_experiment.py trained, compiled into C at build time, and the reference of
its integer arithmetic (what src/model/policy.c computes, the same bits).

    scripts/policy_net.py build NET.npz OUT.bin     quantise a trained net (needs numpy)
    scripts/policy_net.py c BIN OUT.c --pin HEX     the C the build compiles (refuses a
                                                    file whose FNV-1a 64 is not HEX)
    scripts/policy_net.py check BIN PREFIX...       the reference's logits of every move of
        ucizip-features' PREFIX.pos/.board/.moves against the C's PREFIX.policy: prints
        the positions, the moves and the FNV-1a 64 of the logits; exit 1 on a difference
    scripts/policy_net.py hash BIN                  the file's FNV-1a 64 (the build's pin)

The network (policy_experiment.py): the board as 768 one-hot inputs (piece code c = 1..6
the mover's pawn..king, 7..12 the opponent's, square q seen from the mover: ranks mirrored
for Black; input (c - 1) * 64 + q), one layer of ReLU units, and each move key k (the
moving piece's type 1..6 << 12 | from << 6 | to, squares seen from the mover, castling as
the move list has it: e1g1, or king takes rook in Chess960; a promotion's key is its
pawn move's) an output row: logit = hidden . V[k] + c[k], natural log units.

The integer version, every step exact:
    acc[j]  = b1[j] + sum over occupied squares q of w1[c(q)][q][j]     (int32, Q12)
    h[j]    = max(acc[j], 0)
    dot     = sum over j of h[j] * v[k][j]                              (int64; v int8)
    logit   = cq[k] + floor((dot * m[k]) / 2^SHIFT)                     (Q16 log2 units)
with v[k] = round(V[k] / ln 2 / s_k), s_k = max |V[k] / ln 2| / 127, m[k] = round(s_k *
2^(SHIFT + 4)), cq[k] = round(c[k] / ln 2 * 65536). A key the file does not hold (no piece
can make that move) has logit 0. The log-sum-exp of a position's logits is the same for
every move, so the player model adds beta x logit to each move's score without it.

The file (little-endian): "UZPOLICY", then uint32 version, hidden units H, keys K, the
input scale's bits (12) and SHIFT; int32 b1[H]; int16 w1[12][64][H]; uint16 keys[K]
(rising); int32 m[K]; int32 cq[K]; int8 v[K][H]."""
import argparse
import array
import math
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv1a import check_pin, fnv1a64  # noqa: E402

MAGIC = b"UZPOLICY"
INPUT_BITS = 12
SHIFT = 24
HEADER = struct.Struct("<8s5I")
POS_RECORD = 56  # ucizip-features' pos_record (train_player_model.POS_DTYPE)
POS_N_OFFSET = 24


def reachable_keys():
    """Every move key a piece can make, squares seen from the mover (pawns move up)."""
    keys = set()

    def on(f, r):
        return 0 <= f < 8 and 0 <= r < 8

    def slides(f, r, dirs, limit):
        for df, dr in dirs:
            for d in range(1, limit + 1):
                if not on(f + d * df, r + d * dr):
                    break
                yield (r + d * dr) * 8 + f + d * df

    diag = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
    line = [(1, 0), (-1, 0), (0, 1), (0, -1)]
    jumps = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
    for sq in range(64):
        f, r = sq % 8, sq // 8
        targets = {
            1: [],
            2: [(r + dr) * 8 + f + df for df, dr in jumps if on(f + df, r + dr)],
            3: list(slides(f, r, diag, 7)),
            4: list(slides(f, r, line, 7)),
            5: list(slides(f, r, diag + line, 7)),
            # a step, or on the first rank castling: e1g1, or king takes rook (Chess960)
            6: list(slides(f, r, diag + line, 1)) + ([t for t in range(8) if t != sq] if r == 0 else []),
        }
        if 1 <= r <= 6:
            targets[1] = [sq + 8] + ([sq + 16] if r == 1 else []) + [sq + 8 + df for df in (-1, 1) if on(f + df, r)]
        for piece, tos in targets.items():
            keys.update(piece << 12 | sq << 6 | to for to in tos)
    return sorted(keys)


class Policy:
    """A frozen policy file, read with the standard library only."""

    def __init__(self, data):
        magic, self.version, self.hidden, n_keys, input_bits, self.shift = HEADER.unpack_from(data, 0)
        if magic != MAGIC or input_bits != INPUT_BITS:
            raise ValueError("not a policy file")
        h, off = self.hidden, HEADER.size

        def take(code, count):
            nonlocal off
            a = array.array(code)
            a.frombytes(data[off:off + count * a.itemsize])
            off += count * a.itemsize
            if sys.byteorder != "little":
                a.byteswap()
            return a

        self.b1 = list(take("i", h))
        w1 = take("h", 12 * 64 * h)
        self.w1 = [list(w1[i * h:(i + 1) * h]) for i in range(12 * 64)]
        self.keys = list(take("H", n_keys))
        self.m = list(take("i", n_keys))
        self.cq = list(take("i", n_keys))
        v = take("b", n_keys * h)
        self.v = [list(v[i * h:(i + 1) * h]) for i in range(n_keys)]
        if off != len(data) or self.keys != sorted(set(self.keys)):
            raise ValueError("policy file: wrong size or keys")
        self.row = {k: i for i, k in enumerate(self.keys)}

    def logits(self, board, keys):
        """Q16 log2 logits of the move keys, board: 64 piece codes seen from the mover."""
        acc = self.b1
        for q, c in enumerate(board):
            if c:
                acc = [a + w for a, w in zip(acc, self.w1[(c - 1) * 64 + q])]
        h = [a if a > 0 else 0 for a in acc]
        out = []
        for k in keys:
            i = self.row.get(k)
            if i is None:
                out.append(0)
                continue
            dot = sum(x * y for x, y in zip(h, self.v[i]))
            out.append(self.cq[i] + ((dot * self.m[i]) >> self.shift))  # >> floors, as in C
        return out


def build(args):
    import numpy as np
    net = np.load(args.net)
    w1, b1, v, c = (np.asarray(net[k], np.float64) for k in ("w1", "b1", "v", "c"))
    hidden = w1.shape[1]
    keys = reachable_keys()
    trained = np.nonzero(c)[0]
    missing = sorted(set(trained.tolist()) - set(keys))
    if missing:
        sys.exit("policy_net.py: the net has trained keys no piece can make: %s" % missing[:8])
    w1q = np.round(w1 * (1 << INPUT_BITS))
    b1q = np.round(b1 * (1 << INPUT_BITS))
    if np.abs(w1q).max() > 32767:
        sys.exit("policy_net.py: the input weights do not fit 16 bits at this scale")
    vl = v[keys] / math.log(2)
    scale = np.maximum(np.abs(vl).max(axis=1), 1e-9) / 127
    vq = np.clip(np.round(vl / scale[:, None]), -127, 127)
    m = np.round(scale * 2.0 ** (SHIFT + 4))
    cq = np.round(c[keys] / math.log(2) * 65536)
    out = HEADER.pack(MAGIC, args.version, hidden, len(keys), INPUT_BITS, SHIFT)
    out += b1q.astype("<i4").tobytes() + w1q.astype("<i2").tobytes()
    out += np.asarray(keys, "<u2").tobytes() + m.astype("<i4").tobytes() + cq.astype("<i4").tobytes()
    out += vq.astype("i1").tobytes()
    with open(args.out + ".tmp", "wb") as f:
        f.write(out)
    os.replace(args.out + ".tmp", args.out)
    print("%s: %d keys, %d hidden units, %d bytes, FNV-1a 64 %016x" % (args.out, len(keys), hidden, len(out),
                                                                      fnv1a64(out)))


def c_array(ctype, name, values, per_line=24):
    lines = ["%s const %s[%d] = {" % (ctype, name, len(values))]
    for i in range(0, len(values), per_line):
        lines.append("    " + ",".join(str(x) for x in values[i:i + per_line]) + ",")
    lines.append("};")
    return lines


def to_c(args):
    data = open(args.bin, "rb").read()
    h = fnv1a64(data)
    check_pin(h, args.pin, args.bin, "policy", "a new policy version")
    p = Policy(data)
    if not 1 <= p.hidden <= 256:  # policy.c's MAX_HIDDEN
        sys.exit(f"{args.bin}: {p.hidden} hidden units, policy.c takes 1..256")
    row = [0] * (7 << 12)
    for i, k in enumerate(p.keys):
        row[k] = i + 1
    pre = "uz__policy_v%d_" % p.version
    lines = ["/* Generated by scripts/policy_net.py from data/policy/v%d.bin: do not edit. The" % p.version,
             " * frozen policy over the board (src/model/policy.h): every archive whose weight set",
             " * names it depends on these numbers. */",
             '#include "model/policy_data.h"', ""]
    lines += c_array("static int32_t", pre + "b1", p.b1)
    lines += c_array("static int16_t", pre + "w1", [x for r in p.w1 for x in r])
    lines += c_array("static uint16_t", pre + "row", row)
    lines += c_array("static int32_t", pre + "m", p.m)
    lines += c_array("static int32_t", pre + "cq", p.cq)
    lines += c_array("static int8_t", pre + "v", [x for r in p.v for x in r])
    lines += ["", "const uz_policy_net uz__policy_v%d = {" % p.version,
              "    .version = %d, .hidden = %d, .n_keys = %d, .shift = %d, .hash = 0x%016xULL," % (
                  p.version, p.hidden, len(p.keys), p.shift, h),
              "    .b1 = %sb1, .w1 = %sw1, .row = %srow, .m = %sm, .cq = %scq, .v = %sv," % ((pre,) * 6),
              "};"]
    with open(args.out, "w", encoding="ascii") as out:
        out.write("".join(line + "\n" for line in lines))


def read_prefix(prefix):
    pos = open(prefix + ".pos", "rb").read()
    ns = [struct.unpack_from("<i", pos, i + POS_N_OFFSET)[0] for i in range(0, len(pos), POS_RECORD)]
    boards = open(prefix + ".board", "rb").read()
    moves = array.array("H")
    moves.frombytes(open(prefix + ".moves", "rb").read())
    got = array.array("i")
    got.frombytes(open(prefix + ".policy", "rb").read())
    if sys.byteorder != "little":
        moves.byteswap()
        got.byteswap()
    return ns, boards, moves, got


def check(args):
    p = Policy(open(args.bin, "rb").read())
    positions = n_moves = bad = 0
    h = 0xcbf29ce484222325
    for prefix in args.prefix:
        ns, boards, moves, got = read_prefix(prefix)
        if len(moves) != sum(ns) or len(got) != len(moves) or len(boards) != 64 * len(ns):
            sys.exit(f"{prefix}: the files do not agree in length")
        at = 0
        for i, n in enumerate(ns):
            want = p.logits(boards[64 * i:64 * i + 64], moves[at:at + n])
            if want != list(got[at:at + n]):
                if bad < 5:
                    print(f"{prefix}: position {i}: reference {want[:6]}..., C {list(got[at:at + 6])}...")
                bad += 1
            h = fnv1a64(struct.pack("<%di" % n, *want), h)
            at += n
            positions += 1
            n_moves += n
    print("%d positions, %d moves, logits FNV-1a 64 %016x, %d positions differ" % (positions, n_moves, h, bad))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build")
    b.add_argument("net")
    b.add_argument("out")
    b.add_argument("--version", type=int, default=1)
    c = sub.add_parser("c")
    c.add_argument("bin")
    c.add_argument("out")
    c.add_argument("--pin", required=True, help="the FNV-1a 64 the policy froze, in hex")
    k = sub.add_parser("check")
    k.add_argument("bin")
    k.add_argument("prefix", nargs="+")
    hs = sub.add_parser("hash")
    hs.add_argument("bin")
    args = ap.parse_args()
    if args.cmd == "build":
        build(args)
    elif args.cmd == "c":
        to_c(args)
    elif args.cmd == "check":
        sys.exit(check(args))
    else:
        print("%016x" % fnv1a64(open(args.bin, "rb").read()))


if __name__ == "__main__":
    main()
