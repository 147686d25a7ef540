#!/usr/bin/env python3
"""Writes src/builtin/v1_tables.c: builtin-1's piece-square tables (material
included), from the formulas below, and the attack tables of its move generator (rays,
knight, king and pawn attacks by square; the lines through each square and the attacks
along a rank, which compute the same slider attacks as the rays with fewer steps). Run once
when version 1 was made, the line and rank tables added later; the C file is the frozen
definition (doc/builtin.md gives its hash), this script only its provenance."""
import sys

MATERIAL_MG = [0, 82, 337, 365, 477, 1025, 0]
MATERIAL_EG = [0, 94, 281, 297, 512, 936, 0]
KING_MG_BACK = [15, 25, 5, -10, -10, 5, 25, 15]
KING_MG_SECOND = [0, 0, -15, -25, -25, -15, 0, 0]


def pst(piece, f, r, phase):
    fc, rc = min(f, 7 - f), min(r, 7 - r)
    centre = fc + rc
    if piece == 1:  # pawn
        if r in (0, 7):
            return 0
        if phase == 'mg':
            return 5 * (r - 1) + ([0, 0, 5, 15][fc] if 2 <= r <= 4 else 0)
        return 8 * (r - 1)
    if piece == 2:  # knight
        return 8 * centre - 24 - (8 if r == 0 else 0) if phase == 'mg' else 6 * centre - 18
    if piece == 3:  # bishop
        return 4 * centre - 10 - (6 if r == 0 else 0) if phase == 'mg' else 3 * centre - 9
    if piece == 4:  # rook
        if phase == 'mg':
            return (15 if r == 6 else 0) + (4 if fc >= 2 else 0)
        return 10 if r == 6 else 0
    if piece == 5:  # queen
        return 2 * centre - 6 if phase == 'mg' else 4 * centre - 12
    if piece == 6:  # king
        if phase == 'mg':
            if r == 0:
                return KING_MG_BACK[f]
            if r == 1:
                return KING_MG_SECOND[f]
            return -30 - 10 * (r - 2)
        return 8 * centre - 24
    return 0


def table(phase):
    material = MATERIAL_MG if phase == 'mg' else MATERIAL_EG
    rows = []
    for piece in range(7):
        vals = [0 if piece == 0 else material[piece] + pst(piece, sq & 7, sq >> 3, phase) for sq in range(64)]
        lines = ['        ' + ', '.join('%5d' % v for v in vals[r * 8:r * 8 + 8]) + ',' for r in range(8)]
        rows.append('    {\n' + '\n'.join(lines) + '\n    },')
    return '\n'.join(rows)


DIRS = [(0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1)]  # N NE E SE S SW W NW


def bb(squares):
    v = 0
    for f, r in squares:
        if 0 <= f < 8 and 0 <= r < 8:
            v |= 1 << (f + 8 * r)
    return v


def ray(sq, d):
    f, r = sq & 7, sq >> 3
    out = []
    for k in range(1, 8):
        out.append((f + d[0] * k, r + d[1] * k))
    return bb(out)


def bb_table(name, dims, values):
    def rows_of(vals, indent):
        return ',\n'.join(indent + ', '.join('0x%016xULL' % v for v in vals[i:i + 4]) for i in range(0, len(vals), 4))
    if len(values) == 64:
        body = rows_of(values, '    ')
    else:
        body = ',\n'.join('    {\n' + rows_of(values[i:i + 64], '        ') + ',\n    }' for i in range(0, len(values), 64))
    return 'const uint64_t %s%s = {\n%s,\n};' % (name, dims, body)


def attack_tables():
    rays = [ray(sq, d) for d in DIRS for sq in range(64)]
    knight = [bb([((sq & 7) + a, (sq >> 3) + b) for a, b in
                  [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]]) for sq in range(64)]
    king = [bb([((sq & 7) + a, (sq >> 3) + b) for a in (-1, 0, 1) for b in (-1, 0, 1) if a or b]) for sq in range(64)]
    pawn = [bb([((sq & 7) - 1, (sq >> 3) + dr), ((sq & 7) + 1, (sq >> 3) + dr)]) for dr in (1, -1) for sq in range(64)]
    # the file, the diagonal and the anti-diagonal through each square, the square left out
    lines = [rays[4 * 64 + sq] | rays[sq] for sq in range(64)] + \
            [rays[64 + sq] | rays[5 * 64 + sq] for sq in range(64)] + \
            [rays[7 * 64 + sq] | rays[3 * 64 + sq] for sq in range(64)]
    return '\n\n'.join([bb_table('uz__b1_rays', '[8][64]', rays), bb_table('uz__b1_knight_attacks', '[64]', knight),
                         bb_table('uz__b1_king_attacks', '[64]', king),
                         bb_table('uz__b1_pawn_attacks', '[2][64]', pawn),
                         bb_table('uz__b1_lines', '[3][64]', lines), rank_table()])


def rank_attacks(f, inner):
    """The squares of the first rank a rook on file f attacks, the rank's b to g files
    occupied as the bits of inner (the a and h squares never block anything further)."""
    occupied, out = inner << 1, 0
    for d in (1, -1):
        g = f + d
        while 0 <= g < 8:
            out |= 1 << g
            if occupied >> g & 1:
                break
            g += d
    return out


def rank_table():
    rows = []
    for f in range(8):
        vals = [rank_attacks(f, inner) for inner in range(64)]
        rows.append('    {\n' + ',\n'.join('        ' + ', '.join('%3d' % v for v in vals[i:i + 16])
                                           for i in range(0, 64, 16)) + ',\n    },')
    return 'const uint8_t uz__b1_rank_attacks[8][64] = {\n%s\n};' % '\n'.join(rows)


out = ['/* builtin-1: piece-square tables with material included, white\'s view (a1 = 0;',
       ' * black uses square ^ 56), indexed [piece type][square]; attack tables. Written by',
       ' * scripts/builtin_v1_tables.py; frozen (doc/builtin.md gives their hash). */',
       '#include "v1_eval.h"', '',
       'const int16_t uz__b1_pst_mg[7][64] = {', table('mg'), '};', '',
       'const int16_t uz__b1_pst_eg[7][64] = {', table('eg'), '};', '',
       '/* Attack tables: rays by direction (N, NE, E, SE, S, SW, W, NW) and square, the',
       ' * squares attacked by a knight, a king and a pawn (white, black) on each square; the',
       ' * lines (file, diagonal, anti-diagonal) through each square without it, and a rook\'s',
       ' * attacks along the first rank by its file and the occupancy of files b to g. */',
       attack_tables()]
sys.stdout.write('\n'.join(out) + '\n')
