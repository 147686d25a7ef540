/* Shared between the engine comment code's files (engine_code.c: the fields and the
 * comments; engine_pv.c: the principal variations): the models, the coder's state and the
 * binarisations both directions use (doc/format.md, "Engine comment code"). */
#ifndef UCIZIP_ENGINE_CODE_INTERNAL_H
#define UCIZIP_ENGINE_CODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block/bit_code.h"
#include "block/engine_code.h"
#include "chess/board.h"
#include "chess/san.h"

/* The fields whose values are coded; any other text stays in the residual. */
enum key { K_D, K_SD, K_PD, K_MT, K_TL, K_S, K_N, K_PV, K_TB, K_H, K_PH, K_WV, K_EV, K_R50, K_RD, K_RR, K_MB, N_KEYS };

#define MAX_PV 256          /* longer variations stay text */
#define SEEN_BONUS 120      /* a move of either side's last variation, in the order of the others */
#define RECAPTURE_BONUS 100 /* a move to where the last move went */
/* Revision 2 ranks by the built-in oracle's scores (centipawns, clamped) plus these (chosen
 * on the training part of the TCEC corpus file), and codes the rank in a context of the
 * gap between the first two scores in GAP_UNIT steps. */
#define SEEN_BONUS_CP 60
#define RECAPTURE_BONUS_CP 40
#define SCORE_CLAMP 1500
#define GAP_UNIT 40
#define MAX_DIGITS 13       /* of a number's integer part */
#define MAX_DECIMALS 3
#define MAX_VALUE 9999999999999 /* of a number times 10^decimals: MAX_DIGITS nines */
#define SEARCH_TIME_MAX 100000000 /* ms: revision 2 codes n from s and a search time below it */

/* ---- adaptive binary models (block/bit_code.h; n capped at 60) ---- */

typedef uz_bit_model bit_model;
#define CAP 60

#define GAMMA_MAX UZ_GAMMA_MAX
#define GAMMA_CTX 8
typedef struct gamma_model {
    bit_model len[GAMMA_CTX][GAMMA_MAX];
    bit_model top[GAMMA_MAX][4];
    bit_model low[GAMMA_MAX][GAMMA_MAX];
} gamma_model;

#define N_BUCKETS 4 /* a variation's ply: 0, 1-7, 8-23, 24+ */
/* Where a variation's next move is predicted from: the game's moves while the variation
 * follows them, the side's previous variation and the other side's (while it follows
 * them), the move last seen from the same position in a variation of the game, the
 * game's move from the same position. */
enum { SRC_GAME, SRC_OWN, SRC_OPP, SRC_PV_TT, SRC_GAME_TT, N_SOURCES };
#define TT_BITS 15

typedef struct models {
    bit_model coded[2][3];           /* by side and its previous comment: 0 text, 1 coded, 2 none */
    bit_model literal[N_KEYS][3];    /* by the key's previous state for the side: 0 coded, 1 literal, 2 none */
    bit_model prec[N_KEYS][3];       /* decimals as two bits */
    bit_model stop[N_BUCKETS][3];    /* variation ends: by ply bucket, own previous variation state */
    bit_model hit[N_SOURCES][N_BUCKETS][3]; /* a candidate is the move: by source, ply bucket, proposers - 1 */
    gamma_model num[N_KEYS];
    gamma_model rank[N_BUCKETS];     /* the move's rank among the others */
    gamma_model search_time;         /* revision 2: n's search time less mt */
} models;

/* One side's previous coded values and variation. */
typedef struct side_state {
    bool has[N_KEYS];
    int64_t last[N_KEYS];
    uint64_t v[N_KEYS];          /* previous coded value of the key (context) */
    int lit[N_KEYS];             /* 0 coded, 1 literal, 2 none yet */
    int prev_coded;              /* 0 text, 1 coded, 2 none yet */
    uint64_t v_search_time;      /* revision 2: previous coded search time less mt (context) */
    int64_t ponder_moves, ponder_hits; /* revision 2: its comments with a pd, those whose pd was played */
    bool has_pv;
    uz_move pv[MAX_PV];
    size_t pv_len, pv_root;      /* moves, the ply of its first */
    char pv1[UZ_SAN_MAX];        /* SAN of its second move ("" none): the next ponder move */
} side_state;

/* Positions (Zobrist keys) and the move made from them, direct-mapped: a newer entry
 * replaces an older one of the same index. */
typedef struct tt_entry {
    uint64_t key;
    uz_move move;
} tt_entry;

typedef struct coder {
    unsigned revision;           /* of the code: 1 or 2 */
    tt_entry pv_tt[1 << TT_BITS], game_tt[1 << TT_BITS];
    uint64_t seen[4096 / 64];    /* the moves (from, to) of both sides' last variations */
    uz_bit_coder bits;           /* writer (bits.enc) or reader (bits.dec); bits.cost: where bits count */
    struct uz_builtin *searcher; /* revision 2: ranks variation moves (made at the first need) */
    models m;
    side_state side[2];
    int64_t last_eval[N_KEYS];   /* wv, ev: the last value of either side */
    bool has_eval[N_KEYS];
    int64_t inc_ms, base_ms;     /* TimeControl */
    uz_engine_code_counts counts;
    /* the comment being coded */
    int64_t cur[N_KEYS];
    bool cur_has[N_KEYS];
    char pd[UZ_SAN_MAX];         /* the side's ponder prediction when the comment began ("" none) */
    bool has_pd;                 /* the comment has a pd field (coded or literal), its value cur_pd */
    char cur_pd[UZ_SAN_MAX];     /* ("" when longer than a SAN) */
} coder;

static inline void init_models(models *m) { uz_bit_models_init((bit_model *)m, sizeof *m / sizeof(bit_model), CAP); }

static inline uz_result code_bit(coder *c, bit_model *m, unsigned *bit) { return uz_bit_code(&c->bits, m, bit); }

static inline uz_result code_gamma(coder *c, gamma_model *g, unsigned ctx, uint64_t *v)
{
    return uz_gamma_code(&c->bits, g->len[ctx], g->top, g->low, v);
}

/* A signed value as 2s + 1 (s >= 0) or -2s (s < 0), its context the bit length of the
 * previous value coded this way (*prev_v) halved. */
static inline uz_result code_signed(coder *c, gamma_model *g, uint64_t *prev_v, int64_t *s)
{
    unsigned ctx = uz_bit_length(*prev_v) / 2;
    uint64_t v = uz_zigzag1(*s);
    uz_result r = code_gamma(c, g, ctx < GAMMA_CTX ? ctx : GAMMA_CTX - 1, &v);
    if (r != UZ_OK)
        return r;
    *s = uz_unzigzag1(v);
    *prev_v = v;
    return UZ_OK;
}

/* The game as the coder sees it: the main-line moves and the comment's place. */
typedef struct context {
    const uz_move *moves;
    size_t n_moves;
    size_t ply;                  /* the move the comment follows */
    const uz_position *before;   /* the position before it, and after it */
    const uz_position *after;
    const char *last_san;        /* the SAN of the main line's move before it ("" at ply 0) */
} context;

/* ---- principal variations (engine_pv.c) ---- */

/* Codes a variation from the position before the commented move (x->before): per ply a
 * stop bit, then the candidates (the game's moves, the side's previous variation, the
 * other side's, the tables of moves seen) each a bit, then the move's rank among the
 * other legal moves. Writer: pv[0..*len) given; reader: decoded into them. */
uz_result uz__pv_code(coder *c, const context *x, int side, uz_move *pv, size_t *len);
/* Appends the variation's text, played from before: SAN moves separated by single spaces. */
uz_result uz__pv_print(const uz_position *before, const uz_move *pv, size_t len, uz_buf *out);
/* A variation's text s[0..len) as moves from before (at most MAX_PV), when it prints back
 * exactly (uz__pv_print); false otherwise. */
bool uz__pv_parse(const uz_position *before, const char *s, size_t len, uz_move *pv, size_t *n);
/* After a coded variation: the side's source for the next ones and its ponder move. */
void uz__pv_keep(side_state *own, const context *x, const uz_move *pv, size_t len);
/* The game's positions and the moves made from them (mv: its main line's moves; the
 * latest where one repeats), from its walk (resolved). */
void uz__pv_fill_game_tt(coder *c, const uz_move *mv, const uz_walk *walk);

#endif
