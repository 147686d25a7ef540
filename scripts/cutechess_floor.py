#!/usr/bin/python3
"""What cutechess engine comments carry: their forms, and the bits a comment of each field
under the predictions a coder can make from the comment before it.

cutechess-cli writes after every engine move `{EVAL/DEPTH TIMEs}` (`-0.10/8 0.30s`,
`+M5/23 0.012s`), optionally followed by `, ` and the adjudication message, and `{book}`
for book moves. For every such main-line comment of the given files this prints:

- the forms: how many are `book`, centipawn or mate evaluations, carry a trailing message,
  and print back exactly under the print rule of "Coded comments" (doc/format.md), so that
  a coder can take every one of them;
- the empirical entropy (bits a comment) of each field's residual under several
  predictions, alone and in contexts: the evaluation against the side's previous one and
  against the opponent's last one negated, in contexts of the prediction's size, of the
  move (a capture, a check: from its SAN) and of how far the two predictions disagree;
  the depth against the mean of the two sides' last depths, in a context of the
  evaluation's surprise; the time on cutechess's printing scale (ms below 0.1 s,
  centiseconds above) against the mean of the two sides' last times and against the
  side's previous time scaled by the clock it had left (a cutechess clock simulated from
  TimeControl `MOVES/BASE+INC` or `BASE+INC`), in contexts of the evaluation's surprise
  and the depth's residual.

The floor is the entropy of fixed histograms, one per context, fitted to the very data they
measure: an adaptive coder with the same predictions and contexts pays for learning the
histograms besides. The adaptive figure is a naive such coder's cost (adaptive counts per
context over the whole file, as the block-wide models of "Coded comments" adapt, but over
a flat alphabet where the real coder's Elias-gamma binarisation shares what it learns
between nearby values): compare its rows with each other (does a context pay for what it
costs to learn?) rather than with the archive. Neither is a format. With `--report JSON` (the `--json` of
scripts/stream_report.py for the same part) it also prints the bits a comment that the
engine comment stream may take for the archive to be a given share of `xz -9`.

Usage: scripts/cutechess_floor.py [--part all|held-out] [--files A.pgn,B.pgn] [--corpus DIR]
                                  [--report STREAMS.json] [--share 0.28]"""
import argparse
import collections
import json
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from stream_report import CORPUS, FEATURES, UCIZIP, held_out_text  # noqa: E402

ENGINE = re.compile(r"^([+-]?)(?:M(\d+)|(\d+)\.(\d\d))/(\d+) (\d+)(?:\.(\d+))?s(.*)$", re.S)
TOKEN = re.compile(r"(\{[^}]*\})|(\([^)]*\))|([A-Za-z][A-Za-z0-9+#=\-]*)|(\d+\.+)")
POW10 = (1, 10, 100, 1000)


def render(sign, mate, cp, depth, t, k, rest):
    """The comment as cutechess prints it (the print rule of "Coded comments")."""
    if mate is not None:
        ev = "%sM%d" % (sign, mate)
    else:
        a = abs(cp)
        ev = "%s%d.%02d" % ("+" if cp > 0 else "-" if cp < 0 else "", a // 100, a % 100)
    tt = "%d" % (t // POW10[k]) + (".%0*d" % (k, t % POW10[k]) if k else "")
    return "%s/%d %ss%s" % (ev, depth, tt, rest)


def parse(text):
    """The fields of an engine comment that prints back exactly, else None."""
    m = ENGINE.match(text)
    if not m:
        return None
    sign, mate, whole, cents, depth, secs, dec, rest = m.groups()
    dec = dec or ""
    if len(dec) > 3:
        return None
    k = len(dec)
    f = {"sign": sign, "mate": int(mate) if mate else None, "depth": int(depth),
         "ms": (int(secs) * POW10[k] + (int(dec) if dec else 0)) * POW10[3 - k], "t": int(secs) * POW10[k] + (int(dec) if dec else 0),
         "k": k, "rest": rest}
    f["cp"] = None if mate else (-1 if sign == "-" else 1) * (int(whole) * 100 + int(cents))
    out = render(sign, f["mate"], f["cp"], f["depth"], f["t"], k, rest)
    return f if out == text else None


def scaled(ms):
    """cutechess's printing scale: ms below 0.1 s, then centiseconds (from 100 on)."""
    return ms if ms < 100 else 90 + ms // 10


def time_control(tags):
    m = re.fullmatch(r"(?:(\d+)/)?(\d+(?:\.\d+)?)\+(\d+(?:\.\d+)?)", tags.get("TimeControl", ""))
    if not m:
        return None
    return int(m.group(1) or 0), float(m.group(2)) * 1000, float(m.group(3)) * 1000


def games_of(data):
    """(tags, [(san, comment)]) for every game: the comments of its main line, each with the
    SAN of the move it follows."""
    text = data.decode("utf-8", "replace").replace("\r\n", "\n")
    for chunk in re.split(r"\n(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', chunk, re.M))
        body = re.sub(r'^\[.*\]$', "", chunk, flags=re.M)
        san, out = None, []
        for m in TOKEN.finditer(body):
            if m.group(2):
                continue  # (a variation without nesting: not the main line)
            if m.group(1) and san is not None:
                out.append((san, m.group(1)[1:-1]))
            elif m.group(3):
                san = m.group(3)
        yield tags, out


SPAN = 64  # the adaptive estimate's alphabet: residuals -SPAN..SPAN, and an escape


class Floor:
    """Histograms of residuals by (field, prediction, context); and the cost of coding them
    in that order with adaptive counts per context (a Krichevsky-Trofimov estimate over
    -SPAN..SPAN and an escape, the escaped value then in Elias-gamma bits), which pays for
    the learning as a coder does."""

    def __init__(self):
        self.h = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
        self.seen = collections.defaultdict(lambda: collections.defaultdict(collections.Counter))
        self.adaptive = collections.Counter()

    def add(self, name, ctx, value):
        v = int(value)
        self.h[name][ctx][v] += 1
        c = self.seen[name][ctx]
        sym = v if -SPAN <= v <= SPAN else "esc"
        self.adaptive[name] -= math.log2((c[sym] + 0.5) / (sum(c.values()) + 0.5 * (2 * SPAN + 2)))
        if sym == "esc":
            self.adaptive[name] += 2 * math.floor(math.log2(2 * abs(v) + 1)) + 1
        c[sym] += 1

    def bits(self, name):
        """The fixed histograms' entropy and the count of values."""
        total, n = 0.0, 0
        for c in self.h[name].values():
            m = sum(c.values())
            n += m
            total -= sum(v * math.log2(v / m) for v in c.values())
        return total, n


def measure(games, fl, forms):
    for tags, comments in games:
        tc = time_control(tags)
        cp, depth, ms, rem, rem_at, moves = [None, None], [None, None], [None, None], [0, 0], [0, 0], [0, 0]
        if tc:
            rem = [tc[1], tc[1]]
        last_mate = [2, 2]
        for i, (san, text) in enumerate(comments):
            s = i % 2
            t_ms = 0
            if text == "book":
                forms["book"] += 1
            else:
                f = parse(text)
                if f is None:
                    forms["engine-like, not exact" if ENGINE.match(text) else "other"] += 1
                    continue
                forms["mate" if f["mate"] is not None else "centipawns"] += 1
                forms["with a message"] += bool(f["rest"])
                forms["time with %d decimals" % f["k"]] += 1
                fl.add("mate flag", last_mate[s], f["mate"] is not None)
                last_mate[s] = int(f["mate"] is not None)
                surprise = 3
                v = f["cp"]
                if v is not None and cp[s] is not None and cp[1 - s] is not None:
                    own, opp = cp[s], -cp[1 - s]
                    r = v - opp
                    size = abs(opp)
                    b = 0 if size == 0 else 1 if size <= 30 else 2 if size <= 150 else 3
                    fl.add("eval: own previous", 0, v - own)
                    fl.add("eval: opponent's last", 0, r)
                    fl.add("eval: opponent's last, by |prediction|", b, r)
                    fl.add("eval: opponent's last, by |prediction|, capture, check", (b, "x" in san, "+" in san), r)
                    fl.add("eval: opponent's last, by |prediction|, capture, disagreement",
                           (b, "x" in san, min(abs(own - opp) // 5, 4)), r)
                    surprise = 0 if r == 0 else 1 if abs(r) <= 10 else 2
                cp[s] = v
                d = f["depth"]
                rd = None
                if depth[s] is not None and depth[1 - s] is not None:
                    rd = d - (depth[s] + depth[1 - s] + 1) // 2
                    fl.add("depth: mean of the two", 0, rd)
                    fl.add("depth: mean of the two, by surprise", surprise, rd)
                    fl.add("depth: mean of the two, by surprise, the two differ", (surprise, depth[s] != depth[1 - s]), rd)
                depth[s] = d
                t_ms = f["ms"]
                if ms[s] is not None and ms[1 - s] is not None:
                    at = scaled(t_ms)
                    fl.add("time: mean of the two", 0, at - scaled((ms[s] + ms[1 - s]) // 2))
                    fl.add("time: mean of the two, by surprise, depth residual",
                           (surprise, max(-2, min(2, rd if rd is not None else 0))), at - scaled((ms[s] + ms[1 - s]) // 2))
                    if tc and rem_at[s] > 0 and rem[s] > 0:
                        fl.add("time: own previous scaled by the clock", 0, at - scaled(int(ms[s] * rem[s] / rem_at[s])))
                    fl.add("time: own previous", 0, at - scaled(ms[s]))
                ms[s] = t_ms
                rem_at[s] = rem[s]
            if tc:
                rem[s] += tc[2] - t_ms
                moves[s] += 1
                if tc[0] and moves[s] % tc[0] == 0:
                    rem[s] += tc[1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", choices=("held-out", "all"), default="all")
    ap.add_argument("--files", default="cat3_sirius_cutechess_selfplay.pgn,cat5_chess960_cutechess_python_chess.pgn")
    ap.add_argument("--corpus", default=CORPUS)
    ap.add_argument("--ucizip", default=UCIZIP)
    ap.add_argument("--features", default=FEATURES)
    ap.add_argument("--report", help="stream_report.py --json of the same files and part")
    ap.add_argument("--share", type=float, default=0.28)
    args = ap.parse_args()
    report = {r["file"]: r for r in json.load(open(args.report))} if args.report else {}
    for name in args.files.split(","):
        path = os.path.join(args.corpus, name)
        data = open(path, "rb").read() if args.part == "all" else held_out_text(path, args.ucizip, args.features)[0]
        fl, forms = Floor(), collections.Counter()
        measure(games_of(data or b""), fl, forms)
        n = sum(forms[k] for k in ("book", "centipawns", "mate"))
        print("## %s (%s)\n" % (name, "whole file" if args.part == "all" else "held-out games"))
        print("Main-line comments after a move: " + ", ".join("%s %d" % kv for kv in sorted(forms.items())))
        print("\n| field: prediction, contexts | values | floor: bits each | adaptive: bits each | adaptive: bits a"
              " cutechess comment |\n|---|---:|---:|---:|---:|")
        for key in fl.h:
            total, m = fl.bits(key)
            print("| %s | %d | %.3f | %.3f | %.3f |" % (key, m, total / max(m, 1), fl.adaptive[key] / max(m, 1),
                                                     fl.adaptive[key] / max(n, 1)))
        r = report.get(name)
        if r and n:
            others = r["bytes"] - r["split"]["engine_comments"]
            allowed = args.share * r["xz"] - others
            print("\nArchive %d bytes (%.1f %% of xz -9 %d), engine comments %d bytes = %.2f bits a comment; at %.0f %% of"
                  " xz the engine comments may take %d bytes = %.2f bits a comment." % (
                      r["bytes"], 100.0 * r["bytes"] / r["xz"], r["xz"], r["split"]["engine_comments"],
                      8.0 * r["split"]["engine_comments"] / n, 100 * args.share, allowed, 8.0 * allowed / n))
        print()


if __name__ == "__main__":
    main()
