#!/usr/bin/env python3
"""How much our engine's scores could tell about cutechess evaluations (a measurement).

For each game of a PGN file with cutechess engine comments ("+0.10/8 0.30s"), it asks
`ucizip explain --all` for the depth-1 scores of every main-line position (use a warm
--cache: the scores then come without the engine) and simulates the adaptive binary coder
of doc/format.md "Coded comments" (models (p, n), cap 120, Elias-gamma numbers, contexts
from the previous value's bit length) on the centipawn residuals and the mate bit, with
and without extra contexts or predictions taken from the scores. It prints the cost per
evaluation of each variant, so a change of the format can be judged before it is made.

    tools/eval_vs_score.py FILE.pgn [--games N] [--tcec] [--ucizip PATH] [--cache PATH]

With --tcec the evaluations are TCEC's `wv=` values (White's view, in hundredths as
`wv=` prints them, predicted from the game's last one as structure version 2 does).

Scores are from the mover's side: `played` is our score of the move played, `best` the
best score in the position before it, `next` minus the best score of the position after it
(the opponent's view, negated). Games with variations are skipped.
"""
import argparse
import math
import re
import subprocess
import sys

MATE = 100000
TCEC = False
HEAD = re.compile(r'^\s*\d+\.+\s+(\S+)\s+\((\d+) legal moves?\)')
CAND = re.compile(r'^\s*(>)?\s*(\S+)\s+(#-?\d+|[-+]?\d+)\s+p=')
EVAL = re.compile(r'^([+-]?)(M?)(\d+)(?:\.(\d\d))?/(\d+) ')
WV = re.compile(r'(?:^|[ ,])wv=([-+]?)(M?)(\d+)(?:\.(\d+))?(?:,|$)')
TOKEN = re.compile(r'\{([^}]*)\}|(\d+\.+)|([^\s{}()]+)|([()])')


def score(s):
    if s.startswith('#'):
        n = int(s[1:])
        return MATE - n if n > 0 else -MATE - n
    return int(s)


def explain(args, g):
    """[(played, best)] per main-line position; None for a forced move."""
    out = subprocess.run([args.ucizip, 'explain', args.pgn, '--game', str(g), '--all', '--cache', args.cache],
                         capture_output=True, text=True, check=True).stdout
    pos = []
    for line in out.splitlines():
        if HEAD.match(line):
            pos.append(None if 'forced' in line else [None, -2 * MATE])
            continue
        m = CAND.match(line)
        if m and pos and pos[-1] is not None:
            v = score(m.group(3))
            pos[-1][1] = max(pos[-1][1], v)
            if m.group(1):
                pos[-1][0] = v
    return pos


def games_of(path):
    text = open(path, encoding='utf-8', errors='replace').read()
    for g in re.split(r'\n(?=\[Event )', text):
        if '\n\n' not in g:
            continue
        moves, variation = [], False
        for m in TOKEN.finditer(g.split('\n\n', 1)[1]):
            if m.group(4):
                variation = True
            elif m.group(1) is not None:
                if moves:
                    moves[-1].append(m.group(1))
            elif m.group(3):
                if m.group(3) in ('1-0', '0-1', '1/2-1/2', '*'):
                    break
                moves.append([])
        yield None if variation else moves


class Bit:
    __slots__ = ('p', 'n')

    def __init__(self):
        self.p, self.n = 32768, 0

    def code(self, b, cap=120):
        q = min(max(self.p >> 4, 1), 4095)
        cost = -math.log2((q if b else 4096 - q) / 4096)
        d = (b * 65536 - self.p) * 2
        self.p += int(d / (2 * self.n + 3))  # C division truncates toward zero
        self.n = min(self.n + 1, cap)
        return cost


class Gamma:
    """Signed values in Elias-gamma form under contexts, as "Coded comments" does."""

    def __init__(self):
        self.models = {}

    def bit(self, key, b):
        return self.models.setdefault(key, Bit()).code(b)

    def code(self, s, ctx):
        v = 2 * s + 1 if s >= 0 else -2 * s
        L = v.bit_length()
        cost = sum(self.bit(('len', ctx, k), 1) for k in range(1, L)) + self.bit(('len', ctx, L), 0)
        t = 1
        for i in range(L - 2, -1, -1):
            b = (v >> i) & 1
            pos = L - 1 - i
            cost += self.bit(('top', L, t) if pos <= 2 else ('low', L, pos), b)
            t = t * 2 + b
        return cost


def bucket(d):
    """A context from a score difference: its sign and rough size."""
    if d is None:
        return 0
    m = min(abs(d).bit_length() // 2, 5)
    return 1 + m * 2 + (d < 0)


def simulate(games, variant):
    g_cp, mate_bits, cost_cp, cost_mate, n = Gamma(), {}, 0.0, 0.0, 0
    for moves, pos in games:
        last, lastv, prev_mate, first, game_last = [None, None], [0, 0], [2, 2], [1, 1], 0
        for ply, comments in enumerate(moves):
            side = ply & 1
            val = None
            for c in comments:
                m = WV.search(c) if TCEC else EVAL.match(c + ' ')
                if m:
                    sign = -1 if m.group(1) == '-' else 1
                    frac = (m.group(4) or '0')[:2].ljust(2, '0')
                    val = ('M', sign * int(m.group(3))) if m.group(2) else sign * (int(m.group(3)) * 100 + int(frac))
                    break
            if val is None:
                continue
            n += 1
            here = pos[ply] if ply < len(pos) else None
            after = pos[ply + 1] if ply + 1 < len(pos) else None
            played = here[0] if here else None
            nxt = -after[1] if after and after[1] > -2 * MATE else None
            sc = nxt if variant.get('source') == 'next' else played
            if TCEC and sc is not None and side:
                sc = -sc  # wv is White's view
            is_mate = isinstance(val, tuple)
            mctx = prev_mate[side]
            if variant.get('mate_ctx'):
                mctx = (mctx, 3 if sc is None else 2 if abs(sc) >= MATE // 2 else 1 if abs(sc) >= 400 else 0)
            cost_mate += mate_bits.setdefault(mctx, Bit()).code(int(is_mate))
            prev_mate[side] = int(is_mate)
            if is_mate:
                last[side] = None
                continue
            if TCEC:  # the game's last value, either side (structure version 2's prediction)
                p = game_last
            else:
                p = -last[1 - side] if last[1 - side] is not None else (last[side] if last[side] is not None else 0)
            cp_sc = sc if sc is not None and abs(sc) < MATE // 2 else None
            if variant.get('mix') and cp_sc is not None:
                p += int((cp_sc - p) / variant['mix'])  # a share of the way toward our score (C division)
            extra = bucket(cp_sc - p if cp_sc is not None else None) if variant.get('cp_ctx') else 0
            ctx = (min(lastv[side].bit_length() // 2, 11), first[side], extra)
            s = val - p
            if variant.get('flip') and cp_sc is not None and cp_sc < p:
                s = -s  # the residual's sign relative to where our score points
            cost_cp += g_cp.code(s, ctx)
            lastv[side] = 2 * s + 1 if s >= 0 else -2 * s
            last[side], first[side], game_last = val, 0, val
    return n, cost_cp, cost_mate


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('pgn')
    ap.add_argument('--games', type=int, default=0, help='the first N games (default all)')
    ap.add_argument('--ucizip', default='build/ucizip')
    ap.add_argument('--cache', default='/work/bench/corpus.lmdb')
    ap.add_argument('--tcec', action='store_true', help='the evaluations of TCEC comments (wv=, White\'s view)')
    args = ap.parse_args()
    global TCEC
    TCEC = args.tcec
    games, skipped = [], 0
    for g, moves in enumerate(games_of(args.pgn), 1):
        if args.games and g > args.games:
            break
        if moves is None:
            skipped += 1
            continue
        games.append((moves, explain(args, g)))
    scored = sum(1 for _, pos in games for x in pos if x and x[0] is not None)
    print(f'{len(games)} games ({skipped} with variations skipped), {scored} positions with our score of the move played')
    variants = [('today: previous evaluations only', {}),
                ('+ mate bit context from our played-move score', {'mate_ctx': 1}),
                ('+ cp context from (played score - prediction)', {'mate_ctx': 1, 'cp_ctx': 1}),
                ('+ cp residual signed toward our score', {'mate_ctx': 1, 'cp_ctx': 1, 'flip': 1}),
                ('prediction 1/4 of the way to our score', {'mate_ctx': 1, 'mix': 4}),
                ('prediction 1/16 of the way to our score', {'mate_ctx': 1, 'mix': 16}),
                ('+ both, from the next position\'s best score', {'mate_ctx': 1, 'cp_ctx': 1, 'source': 'next'})]
    base = None
    for name, v in variants:
        n, cp, mate = simulate(games, v)
        total = (cp + mate) / 8
        base = base or total
        print(f'{name:52s} {n} evaluations: cp {cp / 8:9.0f} B, mate bit {mate / 8:6.0f} B, '
              f'{(cp + mate) / max(n, 1):.3f} bits/evaluation ({total - base:+.0f} B)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
