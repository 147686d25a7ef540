#!/usr/bin/python3
"""Reads and writes the player model's weights files and compiles them into C.

The format is the one src/model/player_model.c parses (see src/model/player_model.h):
a magic line with the version, the floor, one "NAME VALUE" line per feature in the C
order, and the FNV-1a 64 hash of the canonical floor and feature lines.

    scripts/pm_weights.py OUT.c --pin VERSION:FNV ... WEIGHTS-v1.txt ...

writes the built-in weight sets (src/model/player_weights.c, meson runs it at build time,
so the text files are the one copy of the weights). Each file's FNV-1a 64 (of its bytes,
comments included) must be the one pinned for its version (src/model/meson.build lists
the sets with their pins), so an edited or damaged weight set fails the build instead of
changing a frozen version: a new set is a new version. Needs only the standard library.
"""
import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv1a import fnv1a64 as fnv1a  # noqa: E402


def feature_names(header="src/model/player_model.h"):
    text = open(header).read()
    block = text[text.index("#define UZ_PM_FEATURES(X)"):text.index("#define UZ_PM_ENUM")]
    return re.findall(r"X\((\w+), '(\w)'\)", block)


PIECES = "PNBRQK"
PIECE_CODES = "PNBRQKpnbrqk"  # the board units' pieces: upper case the mover's
MAX_BOARD_UNITS = 16


def weights_text(version, floor_q16, names, weights_q16, comments=(), units=None, squares=None, board=None,
                 policy=None):
    body = "floor %d\n" % floor_q16 + "".join("%s %d\n" % (n, w) for n, w in zip(names, weights_q16))
    if units:  # hidden layer: "unit K BIAS OUT W..." (bias, W in Q32; OUT in Q16 log2 units)
        body += "hidden %d\n" % len(units) + "".join(
            "unit %d %d %d %s\n" % (k, b, o, " ".join(str(c) for c in ws)) for k, (b, o, ws) in enumerate(units))
    if squares:  # (bounds, to[b][t][64], from[b][t][64]) in Q16 log2 units
        bounds, to, frm = squares
        body += "squares %s\n" % " ".join(str(v) for v in [len(bounds) + 1] + list(bounds))
        for kind, tab in (("to", to), ("from", frm)):
            for b in range(len(bounds) + 1):
                for t in range(6):
                    body += "%s %d %s %s\n" % (kind, b, PIECES[t], " ".join(str(int(v)) for v in tab[b][t]))
    if board:  # board units: {"bias": [U], "out": [U], "piece": [U][12][64], "to"/"from": [U][6][64]}, Q16
        body += "board %d\n" % len(board["bias"])
        for j in range(len(board["bias"])):
            body += "bunit %d %d %d\n" % (j, board["bias"][j], board["out"][j])
            for c in range(12):
                body += "bpiece %d %s %s\n" % (j, PIECE_CODES[c], " ".join(str(int(v)) for v in board["piece"][j][c]))
            for kind in ("to", "from"):
                for t in range(6):
                    body += "b%s %d %s %s\n" % (kind, j, PIECES[t], " ".join(str(int(v)) for v in board[kind][j][t]))
    if policy:  # (version, the policy file's FNV-1a 64, beta Q16): the policy over the board
        body += "policy %d %016x %d\n" % policy
    h = fnv1a(body.encode())
    head = "".join("# %s\n" % c for c in comments)
    return head + "ucizip-player-model %d\n" % version + body + "hash %016x\n" % h, h


def parse(path, units=None, squares=None, board=None, policy=None):
    """(version, floor, weights) of a weights file (its hash is checked by the C parser);
    the hidden layer's units (bias, out, weights) are appended to units when given, the
    square tables set into the dict squares ("bounds", "to", "from"), the board units into
    board and the policy line into policy ("version", "hash", "beta") when given."""
    version, floor, ws = None, None, []
    for line in open(path):
        f = line.split()
        if not f or f[0].startswith("#"):
            continue
        if f[0] == "ucizip-player-model":
            version = int(f[1])
        elif f[0] == "floor":
            floor = int(f[1])
        elif f[0] == "unit":
            if units is not None:
                units.append((int(f[2]), int(f[3]), [int(c) for c in f[4:]]))
        elif f[0] == "squares":
            if squares is not None:
                squares["bounds"] = [int(v) for v in f[2:]]
                squares["to"], squares["from"] = [], []
        elif f[0] in ("to", "from"):
            if squares is not None:
                b, t = int(f[1]), PIECES.index(f[2])
                while len(squares[f[0]]) <= b:
                    squares[f[0]].append([None] * 6)
                squares[f[0]][b][t] = [int(v) for v in f[3:]]
        elif f[0] == "board":
            if board is not None:
                u = int(f[1])
                board.update(bias=[0] * u, out=[0] * u, piece=[[None] * 12 for _ in range(u)],
                             to=[[None] * 6 for _ in range(u)], **{"from": [[None] * 6 for _ in range(u)]})
        elif f[0] == "bunit":
            if board is not None:
                board["bias"][int(f[1])], board["out"][int(f[1])] = int(f[2]), int(f[3])
        elif f[0] == "bpiece":
            if board is not None:
                board["piece"][int(f[1])][PIECE_CODES.index(f[2])] = [int(v) for v in f[3:]]
        elif f[0] in ("bto", "bfrom"):
            if board is not None:
                board[f[0][1:]][int(f[1])][PIECES.index(f[2])] = [int(v) for v in f[3:]]
        elif f[0] == "policy":
            if policy is not None:
                policy.update(version=int(f[1]), hash=int(f[2], 16), beta=int(f[3]))
        elif f[0] not in ("hash", "hidden"):
            ws.append(int(f[1]))
    return version, floor, ws


def c_source(files):
    """src/model/player_weights.c from the weights files, oldest first."""
    sets, texts = [], []
    for path in files:
        text = open(path).read()
        units, squares, board, policy = [], {}, {}, {}
        version, floor_q16, ws = parse(path, units, squares, board, policy)
        h = int(re.search(r"^hash ([0-9a-f]+)$", text, re.M).group(1), 16)
        wl = ",".join(("\n            " if i % 8 == 0 else " ") + str(w) for i, w in enumerate(ws))
        hidden = ""
        if units:
            hidden = ("        .n_hidden = %d,\n        .hidden_bias = {%s},\n        .hidden_out = {%s},\n"
                      "        .hidden_weight = {%s},\n" % (
                          len(units), ", ".join("%dll" % b for b, _, _ in units), ", ".join(str(o) for _, o, _ in units),
                          ",".join("\n            {" + ", ".join("%dll" % c for c in u) + "}" for _, _, u in units)))
        if squares:
            def table(tab):
                return ",".join("\n            {" + ",".join(
                    "\n                {" + ", ".join(str(v) for v in row) + "}" for row in bucket) + "}" for bucket in tab)
            hidden += ("        .n_square_buckets = %d,\n        .square_bound = {%s},\n"
                       "        .square_to = {%s},\n        .square_from = {%s},\n" % (
                           len(squares["bounds"]) + 1, ", ".join(str(v) for v in squares["bounds"]),
                           table(squares["to"]), table(squares["from"])))
        if board:
            def by_square(tables):  # [U][K][64] -> C [K][64][MAX_BOARD_UNITS]
                pad = [0] * (MAX_BOARD_UNITS - len(tables))
                return ",".join("\n            {" + ",".join(
                    "\n                {" + ", ".join(str(v) for v in [t[k][q] for t in tables] + pad) + "}"
                    for q in range(64)) + "}" for k in range(len(tables[0])))
            hidden += ("        .n_board_units = %d,\n        .board_bias = {%s},\n        .board_out = {%s},\n"
                       "        .board_piece = {%s},\n        .board_to = {%s},\n        .board_from = {%s},\n" % (
                           len(board["bias"]), ", ".join(str(v) for v in board["bias"]),
                           ", ".join(str(v) for v in board["out"]), by_square(board["piece"]),
                           by_square(board["to"]), by_square(board["from"])))
        if policy:
            hidden += "        .policy_version = %d,\n        .policy_hash = 0x%016xull,\n        .policy_beta = %d,\n" % (
                policy["version"], policy["hash"], policy["beta"])
        sets.append("    {\n        .version = %d,\n        .hash = 0x%016xull,\n        .weight = {%s},\n"
                    "        .floor_q16 = %d,\n%s    },\n" % (version, h, wl, floor_q16, hidden))
        lines = "".join('    "%s\\n"\n' % l.replace("\\", "\\\\").replace('"', '\\"') for l in text.splitlines())
        texts.append("static const char text_v%d[] =\n%s    ;\n" % (version, lines))
    return ("/* Generated by scripts/pm_weights.py from data/player_model/weights-v*.txt: do not edit. */\n"
            '#include "model/player_model.h"\n\n'
            "const uz_player_model uz_pm_builtin_sets[] = {\n" + "".join(sets) + "};\n\n"
            "const int uz_pm_builtin_count = %d;\n\n" % len(files) + "\n".join(texts) + "\n"
            "const char *const uz_pm_builtin_texts[] = {%s};\n"
            % ", ".join("text_v%d" % parse(p)[0] for p in files))


def write(version, floor_q16, weights_q16, comments=(), root=".", units=None, squares=None, board=None,
          policy=None):
    """Writes data/player_model/weights-vVERSION.txt; returns the hash of its weights. The
    build compiles it in once src/model/meson.build lists it with its pin (pin_line)."""
    names = [n for n, _ in feature_names(root + "/src/model/player_model.h")]
    text, h = weights_text(version, floor_q16, names, weights_q16, comments, units, squares, board, policy)
    open(root + "/data/player_model/weights-v%d.txt" % version, "w").write(text)
    return h


def pin_line(version, root="."):
    """The line of src/model/meson.build's player_weight_sets that builds a set in."""
    return "  [%d, '%016x']," % (version, fnv1a(open(root + "/data/player_model/weights-v%d.txt" % version, "rb").read()))


def checked_files(paths, pins):
    """The weights files in version order, each checked against its version's pin; exits
    with a message naming the file when one is not the set its version froze."""
    pinned = {}
    for pin in pins:
        version, h = pin.split(":")
        pinned[int(version)] = int(h, 16)
    files = []
    for path in paths:
        version = parse(path)[0]
        h = fnv1a(open(path, "rb").read())
        if version not in pinned:
            sys.exit("%s: weight set version %s has no pin (src/model/meson.build)" % (path, version))
        if h != pinned[version]:
            sys.exit("%s: FNV-1a 64 %016x, but version %d froze %016x: a frozen weight set does not change "
                     "(a new one is a new version)" % (path, h, version, pinned[version]))
        files.append((version, path))
    if len(files) != len(pinned) or len({v for v, _ in files}) != len(files):
        sys.exit("the weights files and the pinned versions differ")
    return [p for _, p in sorted(files)]


def main():
    ap = argparse.ArgumentParser(description="compiles the player model's weight sets into C")
    ap.add_argument("out")
    ap.add_argument("weights", nargs="+")
    ap.add_argument("--pin", action="append", default=[], metavar="VERSION:FNV")
    args = ap.parse_args()
    source = c_source(checked_files(args.weights, args.pin))
    with open(args.out, "w") as f:
        f.write(source)


if __name__ == "__main__":
    main()
