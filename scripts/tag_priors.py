#!/usr/bin/env python3
"""The priors of tag version 2 (doc/format.md, "Coded tags"): for tag names, the values
(as model 12's templates: a player's name as a role) that many games of some source
share, which a block's recent lists start from, so that a file of five games
starts where a large one ends.

  scripts/tag_priors.py train UCIZIP FEATURES TRAINING_DIR CORPUS_DIR > data/tag_priors/v2.tsv
      counts the games of ../shared/training/ and the training part of the corpus (the
      games whose hash is not 0 mod 5, tools/game_split.h: never the held-out part), each
      file on its own
  scripts/tag_priors.py c data/tag_priors/v2.tsv OUT.c --pin FNV
      the table as C (meson runs it at build time, src/block/meson.build: the TSV is the
      one copy of the table); the build fails unless the TSV's FNV-1a 64 is the pinned one

The TSV: one line per entry, name TAB value, values escaped as \\\\, \\t, \\n, \\x01, \\x02;
a name's entries in order (entry 0, the most frequent, first). Frozen: a changed table is
a new tag version."""
import argparse
import os
import collections
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fnv1a import check_pin, fnv1a64  # noqa: E402

TAG = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]\s*$')
MIN_SHARE = 0.05  # a value's share of a source's games with its name ...
MIN_GAMES = 3     # ... and at least so many of them
MAX_ENTRIES = 16


def games_of(lines):
    """Tag dicts (in file order) of PGN text lines."""
    tags = None
    for line in lines:
        m = TAG.match(line)
        if m:
            if tags is None:
                tags = {}
            tags[m.group(1)] = re.sub(r'\\(.)', r'\1', m.group(2))
        elif tags is not None and line.strip():
            yield tags
            tags = None
    if tags is not None:
        yield tags


def template(value, tags):
    """Model 12's template of value in a game with these tags (None: none)."""
    if "\x01" in value or "\x02" in value:
        return None
    white, black = tags.get("White", ""), tags.get("Black", "")
    roles = (black, white) if tags.get("Result") == "0-1" else (white, black)
    out, i = [], 0
    while i < len(value):
        for r, role in enumerate(roles):
            if role and value.startswith(role, i):
                out.append(chr(1 + r))
                i += len(role)
                break
        else:
            out.append(value[i])
            i += 1
    return "".join(out)


def sources(ucizip, features, training, corpus):
    """(source name, its games' tag dicts) of each training file and of each corpus file's
    training part."""
    import glob
    import os
    for path in sorted(glob.glob(os.path.join(training, "*.pgn.zst"))):
        text = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout.decode("utf-8", "replace")
        yield path, games_of(text.splitlines())
    for path in sorted(glob.glob(os.path.join(corpus, "*.pgn"))):
        hashes = [int(h, 16) for h in subprocess.run([features, path, "--hashes"], capture_output=True, text=True,
                                                     check=True).stdout.split()]
        text = subprocess.run([ucizip, "pgn", path], capture_output=True, check=True).stdout.decode("utf-8", "replace")
        games = ["[Event " + g if i else g for i, g in enumerate(text.split("\n[Event "))]
        if len(games) != len(hashes):  # (games the hashes skip: the split is not known game by game)
            print(f"{path}: {len(games)} games, {len(hashes)} hashes: left out", file=sys.stderr)
            continue
        yield path, (t for g, h in zip(games, hashes) if h % 5 != 0 for t in games_of(g.splitlines() + [""]))


def escape(s):
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\x01", "\\x01").replace("\x02", "\\x02")


def unescape(s):
    return re.sub(r"\\(x01|x02|t|n|\\)", lambda m: {"x01": "\x01", "x02": "\x02", "t": "\t", "n": "\n", "\\": "\\"}[m.group(1)], s)


def train(argv):
    """Each source counts alone, so that a small export (a chess.com file) weighs as much as
    378,000 master games: a value enters its name's priors when some source has it in at
    least MIN_SHARE of its games with that name (and MIN_GAMES of them); a name's entries
    are ordered by their best share, at most MAX_ENTRIES."""
    best = collections.defaultdict(dict)  # name -> value -> best share
    for _, games in sources(*argv):
        names, values = collections.Counter(), collections.defaultdict(collections.Counter)
        for tags in games:
            for name, value in tags.items():
                names[name] += 1
                t = template(value, tags)
                if t is not None:
                    values[name][t] += 1
        for name, counts in values.items():
            for v, c in counts.items():
                share = c / names[name]
                if c >= MIN_GAMES and share >= MIN_SHARE and v and len(v.encode()) < 200:
                    best[name][v] = max(best[name].get(v, 0), share)
    for name in sorted(best):
        for v, _ in sorted(best[name].items(), key=lambda x: (-x[1], x[0]))[:MAX_ENTRIES]:
            if v not in ("\x01", "\x02"):  # (a value equal to a player's name: "?" in both)
                print(f"{name}\t{escape(v)}")


def read_tsv(path):
    table = collections.OrderedDict()
    for line in open(path, encoding="utf-8"):
        name, value = line.rstrip("\n").split("\t", 1)
        table.setdefault(name, []).append(unescape(value))
    return table


def c_string(s):
    out = []
    for b in s.encode("utf-8"):
        out.append(chr(b) if 32 <= b < 127 and chr(b) not in '"\\?' else "\\%03o" % b)
    return '"' + "".join(out) + '"'


def to_c(argv):
    ap = argparse.ArgumentParser(prog="tag_priors.py c")
    ap.add_argument("tsv")
    ap.add_argument("out")
    ap.add_argument("--pin", required=True, help="the FNV-1a 64 the table froze, in hex")
    args = ap.parse_args(argv)
    h = fnv1a64(open(args.tsv, "rb").read())
    check_pin(h, args.pin, args.tsv, "table", "a new tag version")
    with open(args.out, "w", encoding="utf-8") as out:
        out.write(c_source(read_tsv(args.tsv)))


def c_source(table):
    """The C file of the table (the lines of src/block/tag_prior.c)."""
    lines = []
    lines.append("/* Generated by scripts/tag_priors.py from data/tag_priors/v2.tsv: do not edit. The priors of")
    lines.append(" * tag version 2 (doc/format.md, \"Coded tags\"): frozen, as every archive of that version")
    lines.append(" * depends on them. */")
    lines.append('#include "block/tag_prior.h"\n')
    lines.append("#include <string.h>\n")
    for i, (name, vals) in enumerate(table.items()):
        lines.append(f"static const char *const prior_{i}[] = {{")
        for v in vals:
            lines.append(f"    {c_string(v)},")
        lines.append("};")
    lines.append("\nstatic const struct {\n    const char *name;\n    const char *const *values;\n    size_t n;\n} priors[] = {")
    for i, (name, vals) in enumerate(table.items()):
        lines.append(f"    {{{c_string(name)}, prior_{i}, {len(vals)}}},")
    lines.append("};\n")
    lines.append("const char *const *uz__tag_prior(const char *name, size_t *n)\n{")
    lines.append("    for (size_t i = 0; i < sizeof priors / sizeof priors[0]; i++)")
    lines.append("        if (strcmp(priors[i].name, name) == 0) {")
    lines.append("            *n = priors[i].n;")
    lines.append("            return priors[i].values;")
    lines.append("        }")
    lines.append("    *n = 0;\n    return NULL;\n}")
    return "".join(line + "\n" for line in lines)


if __name__ == "__main__":
    if len(sys.argv) >= 2 and sys.argv[1] == "train" and len(sys.argv) == 6:
        train(sys.argv[2:])
    elif len(sys.argv) >= 2 and sys.argv[1] == "c":
        to_c(sys.argv[2:])
    else:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
