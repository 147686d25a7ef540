/* Internal: what builtin-1 froze and every version builds on (doc/builtin.md,
 * "builtin-1"): the attack tables and piece-square tables (v1_tables.c), the material
 * sums kept move by move, the hand-written evaluation (v1_eval.c: builtin-1 and builtin-2
 * use it as it is, builtin-3 blends it with its network), the quiescence search's capture
 * generator (v1_captures.c) and the fingerprint's hashing. A change here that moves one
 * score moves it in every version (test_builtin_golden fails): such a change is a new
 * version with its own copy. builtin-1's search is v1_search.h. */
#ifndef UCIZIP_BUILTIN_V1_EVAL_H
#define UCIZIP_BUILTIN_V1_EVAL_H

#include <stdbool.h>
#include <stdint.h>

#include "chess/board.h"

#define B_EVAL_MAX 20000 /* the evaluation is clamped to +-this (builtin-3's too) */

static inline int b1_lsb(uint64_t b) { return __builtin_ctzll(b); }

/* Piece-square values with material included, white's view ([type][square]; black
 * reads square ^ 56), middlegame and endgame (v1_tables.c). */
extern const int16_t uz__b1_pst_mg[7][64];
extern const int16_t uz__b1_pst_eg[7][64];

/* Attack tables (v1_tables.c): rays by direction and square (directions N, NE,
 * E, SE, S, SW, W, NW; the attack test's quick look along the lines), leapers by square,
 * pawns by colour and square; the lines through each square without it (B_LINE_FILE,
 * B_LINE_DIAGONAL a1-h8 wise, B_LINE_ANTI_DIAGONAL h1-a8 wise); a rook's attacks along the
 * first rank by its file and the occupancy of the b to g files (bit 0 = b). */
extern const uint64_t uz__b1_rays[8][64];
extern const uint64_t uz__b1_knight_attacks[64];
extern const uint64_t uz__b1_king_attacks[64];
extern const uint64_t uz__b1_pawn_attacks[2][64];
extern const uint64_t uz__b1_lines[3][64];
extern const uint8_t uz__b1_rank_attacks[8][64];

enum { B_RAY_N, B_RAY_NE, B_RAY_E, B_RAY_SE, B_RAY_S, B_RAY_SW, B_RAY_W, B_RAY_NW };
enum { B_LINE_FILE, B_LINE_DIAGONAL, B_LINE_ANTI_DIAGONAL };

/* The attacks of a slider on sq along a file or a diagonal (line: that line without
 * sq), up to and including the first occupied square each way. Subtracting sq's bit
 * from the line's occupied squares flips every square up to the first blocker above sq;
 * the same done on the byte-reversed board (ranks mirrored: a file or a diagonal stays
 * one line) gives the squares below it. No loop and no branch, unlike walking the rays. */
static inline uint64_t b1_line_attacks(int sq, uint64_t occupied, uint64_t line)
{
    uint64_t bit = (uint64_t)1 << sq;
    uint64_t up = occupied & line, down = __builtin_bswap64(up);
    up -= bit;
    down -= __builtin_bswap64(bit);
    return (up ^ __builtin_bswap64(down)) & line;
}

static inline uint64_t b1_rank_attacks(int sq, uint64_t occupied)
{
    int rank8 = sq & 56;
    return (uint64_t)uz__b1_rank_attacks[sq & 7][(occupied >> (rank8 + 1)) & 63] << rank8;
}

static inline uint64_t b1_rook_attacks(int sq, uint64_t occupied)
{
    return b1_line_attacks(sq, occupied, uz__b1_lines[B_LINE_FILE][sq]) | b1_rank_attacks(sq, occupied);
}

static inline uint64_t b1_bishop_attacks(int sq, uint64_t occupied)
{
    return b1_line_attacks(sq, occupied, uz__b1_lines[B_LINE_DIAGONAL][sq]) |
           b1_line_attacks(sq, occupied, uz__b1_lines[B_LINE_ANTI_DIAGONAL][sq]);
}

/* Squares a piece of type (knight to king) on sq attacks. */
static inline uint64_t b1_piece_attacks(int type, int sq, uint64_t occupied)
{
    switch (type) {
    case UZ_KNIGHT: return uz__b1_knight_attacks[sq];
    case UZ_BISHOP: return b1_bishop_attacks(sq, occupied);
    case UZ_ROOK: return b1_rook_attacks(sq, occupied);
    case UZ_QUEEN: return b1_bishop_attacks(sq, occupied) | b1_rook_attacks(sq, occupied);
    default: return uz__b1_king_attacks[sq];
    }
}

/* Material and piece-square sums per colour, and the game phase (uncapped sum of the
 * pieces' phase weights): kept along the search move by move (b1_material_after). */
typedef struct b1_material {
    int mg[2], eg[2];
    int phase;
} b1_material;

/* The material sums of pos from scratch. */
void uz__b1_material_init(const uz_position *pos, b1_material *m);
/* The material sums after move (legal in pos, not yet made) from those of pos
 * (b1_material_after, inlined into the searches). */
void uz__b1_material_after(const uz_position *pos, uz_move move, const b1_material *m, b1_material *out);
/* The same for castling, from scratch: the board after the move, recounted. */
void uz__b1_material_recount(const uz_position *pos, uz_move move, b1_material *out);
/* The game phase weight of each piece type (v1_eval.c). */
extern const int16_t uz__b1_phase_weight[7];

static inline void b1_material_after(const uz_position *pos, uz_move move, const b1_material *m, b1_material *out)
{
    int us = pos->side, from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move), promo = UZ_MOVE_PROMO(move);
    int type = UZ_PIECE_TYPE(pos->squares[from]);
    int target = pos->squares[to];
    if (type == UZ_KING && ((target && UZ_PIECE_COLOR(target) == us) || to - from == 2 || from - to == 2)) {
        uz__b1_material_recount(pos, move, out);
        return;
    }
    /* Each side's table is read with its own flip (black reads square ^ 56). */
    int flip = us == UZ_WHITE ? 0 : 56, new_type = promo ? promo : type;
    int mg = m->mg[us] - uz__b1_pst_mg[type][from ^ flip] + uz__b1_pst_mg[new_type][to ^ flip];
    int eg = m->eg[us] - uz__b1_pst_eg[type][from ^ flip] + uz__b1_pst_eg[new_type][to ^ flip];
    int phase = m->phase - uz__b1_phase_weight[type] + uz__b1_phase_weight[new_type];
    int their_mg = m->mg[us ^ 1], their_eg = m->eg[us ^ 1];
    int captured = UZ_NO_PIECE, captured_sq = to;
    if (target)
        captured = UZ_PIECE_TYPE(target);
    else if (type == UZ_PAWN && UZ_SQ_FILE(to) != UZ_SQ_FILE(from)) { /* en passant */
        captured = UZ_PAWN;
        captured_sq = us == UZ_WHITE ? to - 8 : to + 8;
    }
    if (captured) {
        their_mg -= uz__b1_pst_mg[captured][captured_sq ^ flip ^ 56];
        their_eg -= uz__b1_pst_eg[captured][captured_sq ^ flip ^ 56];
        phase -= uz__b1_phase_weight[captured];
    }
    out->mg[us] = mg, out->eg[us] = eg;
    out->mg[us ^ 1] = their_mg, out->eg[us ^ 1] = their_eg;
    out->phase = phase;
}
/* The static evaluation of pos (m: its material sums) from the side to move's view, in
 * +-B_EVAL_MAX. */
int uz__b1_evaluate(const uz_position *pos, const b1_material *m);

/* The pawn terms of each side, pawn structure (doubled, isolated, passed) and king
 * shelter, by the pawns and the kings' squares of both sides, kept by a searcher so that
 * positions sharing them compute them once. A cache only: an entry is used only when
 * its pawns and kings match, so the scores are those computed without it. */
#define B1_PAWN_CACHE_BITS 10
typedef struct b1_pawn_entry {
    uint64_t pawns[2];
    int32_t mg[2], eg[2];
    uint32_t kings; /* white's king square | black's << 8 | 1 << 16; 0: an unused entry */
} b1_pawn_entry;
typedef struct b1_pawn_cache {
    b1_pawn_entry entries[1u << B1_PAWN_CACHE_BITS];
} b1_pawn_cache;
/* uz__b1_evaluate with the pawn terms looked up in cache (zeroed before first use). */
int uz__b1_evaluate_cached(const uz_position *pos, const b1_material *m, b1_pawn_cache *cache);

#define B1_PHASE_MAX 24 /* the game phase is capped at this */
#define B1_TEMPO 10     /* the side to move's bonus, middlegame and endgame (parameter TEMPO) */

/* A score tapered between mg and eg by the game phase, clamped to +-B_EVAL_MAX. */
static inline int b1_taper(int mg, int eg, int phase)
{
    if (phase > B1_PHASE_MAX)
        phase = B1_PHASE_MAX;
    /* C division truncates toward zero on every compiler (C99 and later). */
    int score = (mg * phase + eg * (B1_PHASE_MAX - phase)) / B1_PHASE_MAX;
    return score > B_EVAL_MAX ? B_EVAL_MAX : score < -B_EVAL_MAX ? -B_EVAL_MAX : score;
}

static inline int b1_evaluate_material(const uz_position *pos, const b1_material *m)
{
    int us = pos->side;
    return b1_taper(m->mg[us] - m->mg[us ^ 1] + B1_TEMPO, m->eg[us] - m->eg[us ^ 1] + B1_TEMPO, m->phase);
}

/* Pseudo-legal captures (en passant included) and queen promotions (captures or not)
 * of the side to move, into moves (capacity UZ_MAX_MOVES); returns the count. The
 * caller tests legality after making the move. */
int uz__b1_generate_captures(const uz_position *pos, uz_move *moves);

/* FNV-1a 64 of text, continuing from hash (start: UZ__FNV_START). */
#define UZ__FNV_START 0xcbf29ce484222325ULL
uint64_t uz__b1_fnv(uint64_t hash, const char *text);
/* Feeds every constant of version 1's evaluation (tables and parameters, as decimal
 * text) into hash: the last part of every version's fingerprint input. */
uint64_t uz__b1_hash_eval(uint64_t hash);

#endif
