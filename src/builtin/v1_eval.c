/* builtin-1: the static evaluation. Integer only, tapered between a middlegame and an
 * endgame score by the material on the board:
 *   material and piece-square tables (v1_tables.c), mobility of knights,
 *   bishops, rooks and queens, king safety (attacks on the king's zone, pawn shield,
 *   open file), pawn structure (doubled, isolated, passed), bishop pair, rooks on open
 *   and half-open files, threats (pieces attacked by pawns or minor pieces, hanging
 *   pieces) and a bonus for the side to move. doc/builtin.md lists every value. */
#include <stdio.h>

#include "v1_eval.h"
#include "common/hash.h"

/* Every scalar parameter, by name; frozen with the version. */
enum {
    MOB_N_MG, MOB_N_EG, MOB_N_BASE,
    MOB_B_MG, MOB_B_EG, MOB_B_BASE,
    MOB_R_MG, MOB_R_EG, MOB_R_BASE,
    MOB_Q_MG, MOB_Q_EG, MOB_Q_BASE,
    KS_WEIGHT_N, KS_WEIGHT_B, KS_WEIGHT_R, KS_WEIGHT_Q, /* attack units per zone square hit */
    KS_MIN_ATTACKERS,                                   /* fewer attacking pieces: no penalty */
    KS_PENALTY_MAX,                                     /* cap of units * units */
    SHIELD_NEAR, SHIELD_FAR, KING_OPEN_FILE,
    DOUBLED_MG, DOUBLED_EG, ISOLATED_MG, ISOLATED_EG,
    BISHOP_PAIR_MG, BISHOP_PAIR_EG,
    ROOK_OPEN_MG, ROOK_OPEN_EG, ROOK_HALF_MG, ROOK_HALF_EG,
    TEMPO,
    THREAT_PAWN_MG, THREAT_PAWN_EG,     /* per enemy piece (not pawn, king) a pawn attacks */
    THREAT_MINOR_MG, THREAT_MINOR_EG,   /* per enemy rook or queen a knight or bishop attacks */
    HANGING_MG, HANGING_EG,             /* per enemy piece (not pawn, king) attacked, undefended */
    PARAM_COUNT
};

static const int16_t params[PARAM_COUNT] = {
    [MOB_N_MG] = 4, [MOB_N_EG] = 4, [MOB_N_BASE] = 4,
    [MOB_B_MG] = 5, [MOB_B_EG] = 5, [MOB_B_BASE] = 6,
    [MOB_R_MG] = 2, [MOB_R_EG] = 4, [MOB_R_BASE] = 7,
    [MOB_Q_MG] = 1, [MOB_Q_EG] = 2, [MOB_Q_BASE] = 13,
    [KS_WEIGHT_N] = 2, [KS_WEIGHT_B] = 2, [KS_WEIGHT_R] = 3, [KS_WEIGHT_Q] = 5,
    [KS_MIN_ATTACKERS] = 2, [KS_PENALTY_MAX] = 300,
    [SHIELD_NEAR] = 12, [SHIELD_FAR] = 6, [KING_OPEN_FILE] = 20,
    [DOUBLED_MG] = 12, [DOUBLED_EG] = 20, [ISOLATED_MG] = 10, [ISOLATED_EG] = 15,
    [BISHOP_PAIR_MG] = 30, [BISHOP_PAIR_EG] = 50,
    [ROOK_OPEN_MG] = 20, [ROOK_OPEN_EG] = 10, [ROOK_HALF_MG] = 10, [ROOK_HALF_EG] = 5,
    [TEMPO] = B1_TEMPO,
    [THREAT_PAWN_MG] = 40, [THREAT_PAWN_EG] = 30,
    [THREAT_MINOR_MG] = 30, [THREAT_MINOR_EG] = 25,
    [HANGING_MG] = 25, [HANGING_EG] = 15,
};

/* Passed pawn bonus by the rank counted from the pawn's own side (0..7). */
static const int16_t passed_mg[8] = {0, 5, 10, 15, 25, 45, 70, 0};
static const int16_t passed_eg[8] = {0, 10, 20, 35, 60, 95, 140, 0};
/* Game phase: weight of each piece type (uz__b1_phase_weight, v1_eval.h); the phase is
 * their sum, capped at PHASE_MAX. */
const int16_t uz__b1_phase_weight[7] = {0, 0, 1, 1, 2, 4, 0};
#define PHASE_MAX B1_PHASE_MAX

#define FILE_A 0x0101010101010101ULL
#define FILE_H (FILE_A << 7)

/* Bit counts. Baseline x86-64 has no POPCNT instruction (__builtin_popcountll is a call
 * into libgcc there), and the evaluation counts bits a few dozen times a node: on x86-64
 * GNU/Linux it is compiled twice, once for CPUs with POPCNT, and uz__b1_evaluate picks
 * one at run time (a count is a count: the scores are the same). Elsewhere, a bit count
 * without the call. The helpers below are always inlined into the two copies. */
#if defined(__x86_64__) && defined(__GNUC__) && defined(__linux__) && !defined(__POPCNT__)
#define B1_POPCNT_DISPATCH 1
#endif
#if defined(__GNUC__) && (defined(__POPCNT__) || defined(B1_POPCNT_DISPATCH) || !defined(__x86_64__))
#define b1_popcount(b) __builtin_popcountll(b)
#else
static inline int b1_popcount(uint64_t b)
{
    b = b - ((b >> 1) & 0x5555555555555555ULL);
    b = (b & 0x3333333333333333ULL) + ((b >> 2) & 0x3333333333333333ULL);
    b = (b + (b >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((b * 0x0101010101010101ULL) >> 56);
}
#endif
#if defined(__GNUC__)
#define EVAL_PART static inline __attribute__((always_inline))
#else
#define EVAL_PART static inline
#endif

typedef struct side_eval {
    int mg, eg;
} side_eval;

/* The squares north (white) or south (black) of the set, up to the edge. */
EVAL_PART uint64_t fill_forward(int color, uint64_t b)
{
    if (color == UZ_WHITE) {
        b |= b << 8, b |= b << 16, b |= b << 32;
        return b << 8;
    }
    b |= b >> 8, b |= b >> 16, b |= b >> 32;
    return b >> 8;
}

EVAL_PART uint64_t adjacent_files(uint64_t files) { return ((files << 1) & ~FILE_A) | ((files >> 1) & ~FILE_H); }

EVAL_PART uint64_t pawn_attack_set(int color, uint64_t pawns)
{
    uint64_t side = ((pawns >> 1) & ~FILE_H) | ((pawns << 1) & ~FILE_A);
    return color == UZ_WHITE ? side << 8 : side >> 8;
}

/* The files holding any square of the set, as full files. */
EVAL_PART uint64_t file_fill(uint64_t b)
{
    b |= b << 8, b |= b << 16, b |= b << 32;
    b |= b >> 8, b |= b >> 16, b |= b >> 32;
    return b;
}

/* Each side's pawns, the squares they attack and the squares in front of them (north
 * for white, south for black): computed once per evaluation. White's front is also the
 * span that stops black's passed pawns, and the other way round. */
typedef struct pawn_sets {
    uint64_t pawns[2], attacks[2], fronts[2];
} pawn_sets;

/* Doubled (a pawn with an own pawn behind it), isolated (no own pawn on a neighbouring
 * file) and passed pawns (no enemy pawn ahead on its own or a neighbouring file). */
EVAL_PART void eval_pawns(const pawn_sets *ps, int color, side_eval *e)
{
    uint64_t own = ps->pawns[color];
    int doubled = b1_popcount(own & ps->fronts[color]);
    int isolated = b1_popcount(own & ~adjacent_files(file_fill(own)));
    e->mg -= params[DOUBLED_MG] * doubled + params[ISOLATED_MG] * isolated;
    e->eg -= params[DOUBLED_EG] * doubled + params[ISOLATED_EG] * isolated;
    uint64_t blocked = ps->fronts[color ^ 1];
    blocked |= adjacent_files(blocked);
    for (uint64_t passers = own & ~blocked; passers; passers &= passers - 1) {
        int sq = b1_lsb(passers);
        int rank = color == UZ_WHITE ? UZ_SQ_RANK(sq) : 7 - UZ_SQ_RANK(sq);
        e->mg += passed_mg[rank];
        e->eg += passed_eg[rank];
    }
}

/* What one side's pieces attack (for threats and defence). */
typedef struct attack_maps {
    uint64_t by_minor; /* knights and bishops */
    uint64_t all;      /* every piece, pawns and king included */
} attack_maps;

/* What eval_pieces gathers over one side's pieces besides the mobility sums. */
typedef struct piece_tally {
    uint64_t occupied, safe, zone, own_pawns, enemy_pawns;
    int units, attackers; /* king-zone attack units and the pieces that attack the zone */
} piece_tally;

/* The mobility, king-zone attacks and (rooks) files of one side's pieces of type (knight
 * to queen). Always inlined with a constant type, so each type reads its own parameters
 * directly. */
EVAL_PART void eval_type(int type, uint64_t pieces, piece_tally *t, side_eval *e, attack_maps *maps)
{
    static const int mob_param[7] = {0, 0, MOB_N_MG, MOB_B_MG, MOB_R_MG, MOB_Q_MG, 0};
    static const int ks_weight[7] = {0, 0, KS_WEIGHT_N, KS_WEIGHT_B, KS_WEIGHT_R, KS_WEIGHT_Q, 0};
    for (; pieces; pieces &= pieces - 1) {
        int sq = b1_lsb(pieces);
        uint64_t attacks = b1_piece_attacks(type, sq, t->occupied);
        maps->all |= attacks;
        if (type == UZ_KNIGHT || type == UZ_BISHOP)
            maps->by_minor |= attacks;
        int m = b1_popcount(attacks & t->safe) - params[mob_param[type] + 2];
        e->mg += params[mob_param[type]] * m;
        e->eg += params[mob_param[type] + 1] * m;
        if (attacks & t->zone) {
            t->units += params[ks_weight[type]] * b1_popcount(attacks & t->zone);
            t->attackers++;
        }
        if (type == UZ_ROOK) {
            uint64_t file = FILE_A << UZ_SQ_FILE(sq);
            if (!(file & t->own_pawns)) {
                bool open = !(file & t->enemy_pawns);
                e->mg += open ? params[ROOK_OPEN_MG] : params[ROOK_HALF_MG];
                e->eg += open ? params[ROOK_OPEN_EG] : params[ROOK_HALF_EG];
            }
        }
    }
}

/* Mobility, rooks' files and the attacks on the enemy king's zone of color's pieces;
 * the king-safety penalty is charged to the defender (other). Fills maps. The pieces are
 * taken type by type (every term is a sum or a union: the order does not matter). */
EVAL_PART void eval_pieces(const uz_position *pos, const pawn_sets *ps, int color, side_eval *e, side_eval *other,
                           attack_maps *maps)
{
    piece_tally t;
    uint64_t own = pos->by_color[color];
    t.occupied = pos->by_color[0] | pos->by_color[1];
    t.own_pawns = ps->pawns[color];
    t.enemy_pawns = ps->pawns[color ^ 1];
    t.safe = ~own & ~ps->attacks[color ^ 1];
    int enemy_king = pos->king_sq[color ^ 1];
    t.zone = uz__b1_king_attacks[enemy_king] | (1ULL << enemy_king);
    t.units = 0, t.attackers = 0;
    maps->by_minor = 0;
    maps->all = ps->attacks[color] | uz__b1_king_attacks[pos->king_sq[color]];
    eval_type(UZ_KNIGHT, pos->by_type[UZ_KNIGHT] & own, &t, e, maps);
    eval_type(UZ_BISHOP, pos->by_type[UZ_BISHOP] & own, &t, e, maps);
    eval_type(UZ_ROOK, pos->by_type[UZ_ROOK] & own, &t, e, maps);
    eval_type(UZ_QUEEN, pos->by_type[UZ_QUEEN] & own, &t, e, maps);
    if (t.attackers >= params[KS_MIN_ATTACKERS]) {
        int penalty = t.units * t.units;
        other->mg -= penalty < params[KS_PENALTY_MAX] ? penalty : params[KS_PENALTY_MAX];
    }
}

/* Enemy pieces that color's pawns or minor pieces attack, or that hang (attacked by
 * color, defended by nothing). */
EVAL_PART void eval_threats(const uz_position *pos, const pawn_sets *ps, int color, const attack_maps *maps,
                            side_eval *e)
{
    uint64_t enemy = pos->by_color[color ^ 1];
    uint64_t enemy_pieces = enemy & ~pos->by_type[UZ_PAWN] & ~pos->by_type[UZ_KING];
    int by_pawn = b1_popcount(ps->attacks[color] & enemy_pieces);
    int by_minor = b1_popcount(maps[color].by_minor & enemy & (pos->by_type[UZ_ROOK] | pos->by_type[UZ_QUEEN]));
    int hanging = b1_popcount(maps[color].all & enemy_pieces & ~maps[color ^ 1].all);
    e->mg += params[THREAT_PAWN_MG] * by_pawn + params[THREAT_MINOR_MG] * by_minor + params[HANGING_MG] * hanging;
    e->eg += params[THREAT_PAWN_EG] * by_pawn + params[THREAT_MINOR_EG] * by_minor + params[HANGING_EG] * hanging;
}

/* Pawn shield in front of color's king and a penalty for a king on a file without own
 * pawns (middlegame only). */
EVAL_PART void eval_king_shelter(const uz_position *pos, const pawn_sets *ps, int color, side_eval *e)
{
    int king = pos->king_sq[color];
    uint64_t own_pawns = ps->pawns[color];
    uint64_t file = FILE_A << UZ_SQ_FILE(king);
    uint64_t files = file | adjacent_files(file);
    int near_rank = UZ_SQ_RANK(king) + (color == UZ_WHITE ? 1 : -1);
    int far_rank = near_rank + (color == UZ_WHITE ? 1 : -1);
    if (near_rank >= 0 && near_rank <= 7)
        e->mg += params[SHIELD_NEAR] * b1_popcount(own_pawns & files & (0xFFULL << (8 * near_rank)));
    if (far_rank >= 0 && far_rank <= 7)
        e->mg += params[SHIELD_FAR] * b1_popcount(own_pawns & files & (0xFFULL << (8 * far_rank)));
    if (!(own_pawns & file))
        e->mg -= params[KING_OPEN_FILE];
}

void uz__b1_material_init(const uz_position *pos, b1_material *m)
{
    *m = (b1_material){{0, 0}, {0, 0}, 0};
    for (int color = 0; color < 2; color++) {
        int flip = color == UZ_WHITE ? 0 : 56;
        for (uint64_t pieces = pos->by_color[color]; pieces; pieces &= pieces - 1) {
            int sq = b1_lsb(pieces);
            int type = UZ_PIECE_TYPE(pos->squares[sq]);
            m->mg[color] += uz__b1_pst_mg[type][sq ^ flip];
            m->eg[color] += uz__b1_pst_eg[type][sq ^ flip];
            m->phase += uz__b1_phase_weight[type];
        }
    }
}

void uz__b1_material_recount(const uz_position *pos, uz_move move, b1_material *out)
{
    uz_position after = *pos;
    uz_undo undo;
    uz_make_move(&after, move, &undo);
    uz__b1_material_init(&after, out);
}

void uz__b1_material_after(const uz_position *pos, uz_move move, const b1_material *m, b1_material *out)
{
    b1_material_after(pos, move, m, out);
}

/* The tapered score of side[] from the side to move's view, with the tempo bonus. */
static int taper(const uz_position *pos, const side_eval *side, int phase)
{
    int us = pos->side;
    int mg = side[us].mg - side[us ^ 1].mg + params[TEMPO];
    int eg = side[us].eg - side[us ^ 1].eg + params[TEMPO];
    return b1_taper(mg, eg, phase);
}

/* The pawn terms of both sides, structure and king shelter: from cache when it holds
 * these pawns and kings, else computed (and kept there when there is a cache). */
EVAL_PART void pawn_terms(const uz_position *pos, const pawn_sets *ps, b1_pawn_cache *cache, side_eval terms[2])
{
    b1_pawn_entry *entry = NULL;
    uint32_t kings = (uint32_t)pos->king_sq[UZ_WHITE] | (uint32_t)pos->king_sq[UZ_BLACK] << 8 | 1u << 16;
    if (cache) {
        uint64_t mix = (ps->pawns[UZ_WHITE] ^ (ps->pawns[UZ_BLACK] * 0x9E3779B97F4A7C15ULL)) * 0xC2B2AE3D27D4EB4FULL;
        entry = &cache->entries[mix >> (64 - B1_PAWN_CACHE_BITS)];
        if (entry->pawns[UZ_WHITE] == ps->pawns[UZ_WHITE] && entry->pawns[UZ_BLACK] == ps->pawns[UZ_BLACK] &&
            entry->kings == kings) {
            for (int color = 0; color < 2; color++)
                terms[color] = (side_eval){entry->mg[color], entry->eg[color]};
            return;
        }
    }
    for (int color = 0; color < 2; color++) {
        terms[color] = (side_eval){0, 0};
        eval_pawns(ps, color, &terms[color]);
        eval_king_shelter(pos, ps, color, &terms[color]);
    }
    if (entry) {
        for (int color = 0; color < 2; color++) {
            entry->pawns[color] = ps->pawns[color];
            entry->mg[color] = terms[color].mg;
            entry->eg[color] = terms[color].eg;
        }
        entry->kings = kings;
    }
}

EVAL_PART int evaluate(const uz_position *pos, const b1_material *m, b1_pawn_cache *cache)
{
    side_eval side[2] = {{m->mg[0], m->eg[0]}, {m->mg[1], m->eg[1]}};
    pawn_sets ps;
    for (int color = 0; color < 2; color++) {
        ps.pawns[color] = pos->by_type[UZ_PAWN] & pos->by_color[color];
        ps.attacks[color] = pawn_attack_set(color, ps.pawns[color]);
        ps.fronts[color] = fill_forward(color, ps.pawns[color]);
    }
    side_eval pawns[2];
    pawn_terms(pos, &ps, cache, pawns);
    for (int color = 0; color < 2; color++) {
        if (b1_popcount(pos->by_type[UZ_BISHOP] & pos->by_color[color]) >= 2) {
            side[color].mg += params[BISHOP_PAIR_MG];
            side[color].eg += params[BISHOP_PAIR_EG];
        }
        side[color].mg += pawns[color].mg;
        side[color].eg += pawns[color].eg;
    }
    attack_maps maps[2];
    eval_pieces(pos, &ps, UZ_WHITE, &side[UZ_WHITE], &side[UZ_BLACK], &maps[UZ_WHITE]);
    eval_pieces(pos, &ps, UZ_BLACK, &side[UZ_BLACK], &side[UZ_WHITE], &maps[UZ_BLACK]);
    eval_threats(pos, &ps, UZ_WHITE, maps, &side[UZ_WHITE]);
    eval_threats(pos, &ps, UZ_BLACK, maps, &side[UZ_BLACK]);
    return taper(pos, side, m->phase);
}

#ifdef B1_POPCNT_DISPATCH
__attribute__((target("popcnt"))) static int evaluate_popcnt(const uz_position *pos, const b1_material *m,
                                                            b1_pawn_cache *cache)
{
    return evaluate(pos, m, cache);
}

int uz__b1_evaluate_cached(const uz_position *pos, const b1_material *m, b1_pawn_cache *cache)
{
    return __builtin_cpu_supports("popcnt") ? evaluate_popcnt(pos, m, cache) : evaluate(pos, m, cache);
}
#else
int uz__b1_evaluate_cached(const uz_position *pos, const b1_material *m, b1_pawn_cache *cache)
{
    return evaluate(pos, m, cache);
}
#endif

int uz__b1_evaluate(const uz_position *pos, const b1_material *m) { return uz__b1_evaluate_cached(pos, m, NULL); }

uint64_t uz__b1_fnv(uint64_t hash, const char *text) { return uz_fnv1a64_str(hash, text); }

static uint64_t hash_array(uint64_t hash, const char *name, const int16_t *values, int n)
{
    char text[16];
    hash = uz__b1_fnv(hash, name);
    for (int i = 0; i < n; i++) {
        snprintf(text, sizeof text, " %d", values[i]);
        hash = uz__b1_fnv(hash, text);
    }
    return uz__b1_fnv(hash, "\n");
}

uint64_t uz__b1_hash_eval(uint64_t hash)
{
    hash = hash_array(hash, "pst_mg", &uz__b1_pst_mg[0][0], 7 * 64);
    hash = hash_array(hash, "pst_eg", &uz__b1_pst_eg[0][0], 7 * 64);
    hash = hash_array(hash, "params", params, PARAM_COUNT);
    hash = hash_array(hash, "passed_mg", passed_mg, 8);
    hash = hash_array(hash, "passed_eg", passed_eg, 8);
    hash = hash_array(hash, "phase_weight", uz__b1_phase_weight, 7);
    return hash;
}
