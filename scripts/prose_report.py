#!/usr/bin/python3
"""The prose comments of annotated files against the best general-purpose coders of the
prose alone (doc/benchmarks.md, "Prose comments"): for each file, the bytes of its prose
(every comment as ucizip's comments stream keeps it: its clock commands, which ucizip
codes apart, taken out, line ends as LF; one a line, the empty ones left out; each ended
by a NUL for the prose dictionary, as ucizip frames them) raw and packed by `xz -9e`, `zstd -19 --ultra`, `zstd -19` with a dictionary that
`zstd --train` makes of the prose dictionary's texts (64 KiB), `zstd -19` over the prose
dictionary itself as raw content (what structure-stream method 3 does), and PPMd (order 6,
16 MiB: 7-Zip's PPMdH through Debian's python3-ppmd, when installed); then what ucizip's
archive of the same games spends on its comments (`ucizip info --json`, split
"comments"), with the program under test and, with --old, another one.

--part held-out (the default) measures the held-out games (tools/game_split.h, as
scripts/stream_report.py cuts them), which the prose dictionary never saw; --part all the
whole files, whose training games the dictionary holds (their figures flatter it).

Usage: scripts/prose_report.py [--part held-out|all] [--files A.pgn,B.pgn] [--corpus DIR]
                               [--ucizip PROGRAM] [--old PROGRAM] [--engine E]"""
import argparse
import io
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prose_dict import COMMENT, TAG_LINE, lf  # noqa: E402
from stream_report import CORPUS, FEATURES, ROOT, UCIZIP, held_out_text  # noqa: E402

FILES = ("cat1_uscf_otb_club_annotated.pgn", "cat4_python_chess_immortal_games_crlf.pgn",
         "cat4_pychess_lichess_studies.pgn")
DICT = os.path.join(ROOT, "data", "prose_dict", "v1.bin")
CLOCK = re.compile(rb"\[%clk [^\]]*\]")


def prose(pgn):
    """The prose of pgn (bytes): its comments without their clocks, with LF line ends (as
    the comments section keeps them)."""
    out = []
    for m in COMMENT.finditer(TAG_LINE.sub(b"", pgn)):
        text = CLOCK.sub(b"", lf(m.group(1) if m.group(1) is not None else m.group(2)))
        if text.strip():
            out.append(text)
    return out


def packed(cmd, data):
    return len(subprocess.run(cmd, input=data, capture_output=True, check=True).stdout)


def ppmd_size(data):
    try:
        import ppmd
    except ImportError:
        return None
    out = io.BytesIO()
    enc = ppmd.Ppmd7Encoder(out, 6, 16 << 20)
    enc.encode(data)
    enc.flush()
    return len(out.getvalue())


def trained_dict(tmp):
    """A 64 KiB dictionary `zstd --train` makes of the prose dictionary's texts."""
    samples = os.path.join(tmp, "samples")
    os.mkdir(samples)
    for i, text in enumerate(open(DICT, "rb").read().split(b"\0")):
        with open(os.path.join(samples, "%06d" % i), "wb") as f:
            f.write(text)
    path = os.path.join(tmp, "trained.dict")
    subprocess.run(["zstd", "--train", "-q", "-r", samples, "--maxdict=65536", "-o", path], check=True,
                   capture_output=True)
    return path


def comment_bytes(program, engine, data, tmp):
    src, arc = os.path.join(tmp, "in.pgn"), os.path.join(tmp, "in.ucz")
    with open(src, "wb") as f:
        f.write(data)
    subprocess.run([program, "compress", src, "-o", arc, "-q", "-f", "--engine", engine], check=True,
                   capture_output=True)
    back = subprocess.run([program, "decompress", arc, "-o", "-"], capture_output=True, check=True).stdout
    if back != data:
        sys.exit("%s: the archive does not decode to its input" % program)
    info = json.loads(subprocess.run([program, "info", arc, "--json"], capture_output=True, check=True).stdout)[0]
    return info["split"]["comments"], info["games"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("held-out", "all"), default="held-out")
    ap.add_argument("--files", default=",".join(FILES))
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--ucizip", default=UCIZIP)
    ap.add_argument("--old", help="a second ucizip to compare (e.g. one built before method 3)")
    ap.add_argument("--engine", default="builtin")
    ap.add_argument("--features", default=FEATURES)
    args = ap.parse_args()
    heads = ["file", "games", "prose", "xz -9e", "zstd -19", "zstd trained dict", "zstd prose dict", "PPMd o6"]
    heads += (["ucizip --old"] if args.old else []) + ["ucizip comments", "% of best coder"]
    print("| " + " | ".join(heads) + " |")
    print("|---|" + "---:|" * (len(heads) - 1))
    with tempfile.TemporaryDirectory() as tmp:
        trained = trained_dict(tmp)
        for name in args.files.split(","):
            data = open(os.path.join(args.corpus, name), "rb").read()
            if args.part == "held-out":
                data, _ = held_out_text(os.path.join(args.corpus, name), args.ucizip, args.features)
            texts = prose(data)
            text = b"".join(t + b"\n" for t in texts)  # one a line; NUL-ended as the dictionary frames them
            coders = [packed(["xz", "-9e", "-c"], text), packed(["zstd", "-19", "--ultra", "-c", "-q"], text),
                      packed(["zstd", "-19", "-D", trained, "-c", "-q"], text),
                      packed(["zstd", "-19", "-D", DICT, "-c", "-q"], b"".join(t + b"\0" for t in texts)),
                      ppmd_size(text)]
            now, games = comment_bytes(args.ucizip, args.engine, data, tmp)
            row = [name[:-4], games, len(text)] + ["n/a" if c is None else c for c in coders]
            if args.old:
                row.append(comment_bytes(args.old, args.engine, data, tmp)[0])
            # The best general-purpose coder of the prose alone, without our dictionary.
            best = min(c for c in coders[:3] + coders[4:] if c is not None)
            row += [now, "%.1f" % (100.0 * now / best)]
            print("| " + " | ".join(str(c) for c in row) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
