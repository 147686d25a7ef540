/* Position-dependent engine comments (TCEC): see engine_code.h and doc/format.md
 * ("Engine comment code"). One set of functions binarises every field for both
 * directions (code_bit puts or gets), so the writer and the reader cannot drift apart. */
#include "block/engine_code.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/board.h"
#include "chess/san.h"
#include "block/bit_code.h"
#include "common/limits.h"

/* The fields whose values are coded; any other text stays in the residual. */
enum key { K_D, K_SD, K_PD, K_MT, K_TL, K_S, K_N, K_PV, K_TB, K_H, K_PH, K_WV, K_EV, K_R50, K_RD, K_RR, K_MB, N_KEYS };
static const char *const key_name[N_KEYS] = {"d",  "sd", "pd", "mt", "tl", "s",   "n",  "pv", "tb",
                                             "h",  "ph", "wv", "ev", "R50", "Rd", "Rr", "mb"};

#define MAX_PV 256          /* longer variations stay text */
#define SEEN_BONUS 120      /* a move of either side's last variation, in the order of the others */
#define RECAPTURE_BONUS 100 /* a move to where the last move went */
#define MAX_DIGITS 13       /* of a number's integer part */
#define MAX_DECIMALS 3
#define MAX_VALUE 9999999999999 /* of a number times 10^decimals: MAX_DIGITS nines */

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
} models;

/* One side's previous coded values and variation. */
typedef struct side_state {
    bool has[N_KEYS];
    int64_t last[N_KEYS];
    uint64_t v[N_KEYS];          /* previous coded value of the key (context) */
    int lit[N_KEYS];             /* 0 coded, 1 literal, 2 none yet */
    int prev_coded;              /* 0 text, 1 coded, 2 none yet */
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
    tt_entry pv_tt[1 << TT_BITS], game_tt[1 << TT_BITS];
    uint64_t seen[4096 / 64];    /* the moves (from, to) of both sides' last variations */
    uz_bit_coder bits;           /* writer (bits.enc) or reader (bits.dec); bits.cost: where bits count */
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
} coder;

static void init_models(models *m) { uz_bit_models_init((bit_model *)m, sizeof *m / sizeof(bit_model), CAP); }

static uz_result code_bit(coder *c, bit_model *m, unsigned *bit) { return uz_bit_code(&c->bits, m, bit); }

static uz_result code_gamma(coder *c, gamma_model *g, unsigned ctx, uint64_t *v)
{
    return uz_gamma_code(&c->bits, g->len[ctx], g->top, g->low, v);
}

/* A signed value as 2s + 1 (s >= 0) or -2s (s < 0), its context the bit length of the
 * previous value coded this way (*prev_v) halved. */
static uz_result code_signed(coder *c, gamma_model *g, uint64_t *prev_v, int64_t *s)
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

/* ---- text helpers shared by both directions ---- */

/* The next key at or after i: a known name followed by '=', at the start or after ' ' or
 * ','. Returns the key and sets *at to its first byte, or -1. */
static int find_key(const char *s, size_t len, size_t i, size_t *at)
{
    for (; i < len; i++) {
        if (i > 0 && s[i - 1] != ' ' && s[i - 1] != ',')
            continue;
        for (int k = 0; k < N_KEYS; k++) {
            size_t kl = strlen(key_name[k]);
            if (i + kl < len && memcmp(s + i, key_name[k], kl) == 0 && s[i + kl] == '=') {
                *at = i;
                return k;
            }
        }
    }
    return -1;
}

/* A value runs to the next ',' (or the end). */
static size_t value_end(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] != ',')
        i++;
    return i;
}

/* A number "[-]digits[.decimals]" printed canonically (no leading zero, no "-0"). */
static bool parse_number(const char *s, size_t len, int64_t *value, int *decimals)
{
    size_t i = 0;
    bool neg = len > 0 && s[0] == '-';
    i += neg;
    size_t d0 = i;
    int64_t x = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i - d0 < MAX_DIGITS)
        x = 10 * x + (s[i++] - '0');
    size_t nd = i - d0;
    if (nd == 0 || (nd > 1 && s[d0] == '0'))
        return false;
    int k = 0;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9' && k < MAX_DECIMALS) {
            x = 10 * x + (s[i++] - '0');
            k++;
        }
        if (k == 0)
            return false;
    }
    if (i != len || (neg && x == 0) || x > MAX_VALUE)
        return false;
    *value = neg ? -x : x;
    *decimals = k;
    return true;
}

static const int64_t pow10_of[4] = {1, 10, 100, 1000};

static int print_number(char *out, size_t cap, int64_t value, int decimals)
{
    uint64_t a = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    int n = snprintf(out, cap, "%s%llu", value < 0 ? "-" : "", (unsigned long long)(a / (uint64_t)pow10_of[decimals]));
    if (decimals)
        n += snprintf(out + n, cap - (size_t)n, ".%0*llu", decimals, (unsigned long long)(a % (uint64_t)pow10_of[decimals]));
    return n;
}

/* The material balance after a move, "+P+N+B+R+Q" (White minus Black, each signed). */
static void material(const uz_position *pos, char *out, size_t cap)
{
    int n = 0;
    for (int t = UZ_PAWN; t <= UZ_QUEEN; t++) {
        int w = __builtin_popcountll(pos->by_type[t] & pos->by_color[UZ_WHITE]);
        int b = __builtin_popcountll(pos->by_type[t] & pos->by_color[UZ_BLACK]);
        n += snprintf(out + n, cap - (size_t)n, "%+d", w - b);
    }
}

/* ---- the fields ---- */

/* The game as the coder sees it: the main-line moves and the comment's place. */
typedef struct context {
    const uz_move *moves;
    size_t n_moves;
    size_t ply;                  /* the move the comment follows */
    const uz_position *before;   /* the position before it, and after it */
    const uz_position *after;
} context;

static int64_t predict(const coder *c, const context *x, int side, int key)
{
    const side_state *own = &c->side[side], *opp = &c->side[1 - side];
    switch (key) {
    case K_TL:
        if (own->has[K_TL])
            return own->last[K_TL] - (c->cur_has[K_MT] ? c->cur[K_MT] : 0) + c->inc_ms;
        return c->base_ms - (c->cur_has[K_MT] ? c->cur[K_MT] : 0);
    case K_N:
        /* nodes = speed x time (in ms); the product only where it cannot overflow */
        if (c->cur_has[K_S] && c->cur_has[K_MT] && c->cur[K_S] >= 0 && c->cur[K_S] < 10000000000 && c->cur[K_MT] >= 0 &&
            c->cur[K_MT] < 100000000)
            return c->cur[K_S] * c->cur[K_MT] / 1000;
        break;
    case K_SD:
        if (c->cur_has[K_D])
            return c->cur[K_D] + (own->has[K_SD] && own->has[K_D] ? own->last[K_SD] - own->last[K_D] : 0);
        break;
    case K_D:
        if (!own->has[K_D] && opp->has[K_D])
            return opp->last[K_D];
        break;
    case K_WV:
    case K_EV:
        return c->has_eval[key] ? c->last_eval[key] : 0;
    case K_R50:
        return 50 - (x->after->halfmove + 1) / 2;
    default:
        break;
    }
    return own->has[key] ? own->last[key] : 0;
}

/* A number: its decimals (two bits), then its value minus the prediction. */
static uz_result code_number(coder *c, const context *x, int side, int key, int64_t *value, int *decimals)
{
    side_state *own = &c->side[side];
    unsigned hi = (unsigned)*decimals >> 1, lo = (unsigned)*decimals & 1;
    uz_result r;
    if ((r = code_bit(c, &c->m.prec[key][0], &hi)) != UZ_OK || (r = code_bit(c, &c->m.prec[key][1 + hi], &lo)) != UZ_OK)
        return r;
    *decimals = (int)(2 * hi + lo);
    if (*decimals > MAX_DECIMALS)
        return UZ_ERR_CORRUPT;
    int64_t pred = predict(c, x, side, key), d = *value - pred;
    if ((r = code_signed(c, &c->m.num[key], &own->v[key], &d)) != UZ_OK)
        return r;
    *value = pred + d;
    if (*value < -MAX_VALUE || *value > MAX_VALUE)
        return UZ_ERR_CORRUPT;
    own->has[key] = true;
    own->last[key] = *value;
    c->cur[key] = *value;
    c->cur_has[key] = true;
    if (key == K_WV || key == K_EV) {
        c->last_eval[key] = *value;
        c->has_eval[key] = true;
    }
    return UZ_OK;
}

/* A previous variation as a source of predictions: the move it has at each ply of the
 * variation being coded while the moves so far follow it. */
typedef struct source {
    const uz_move *moves;
    size_t len, off;
    bool aligned;
} source;

static source source_of(const side_state *s, const context *x)
{
    source src = {0};
    if (!s->has_pv || s->pv_root > x->ply || x->ply - s->pv_root > s->pv_len)
        return src;
    src.moves = s->pv;
    src.len = s->pv_len;
    src.off = x->ply - s->pv_root;
    src.aligned = true;
    for (size_t j = 0; j < src.off && src.aligned; j++)
        src.aligned = s->pv[j] == x->moves[s->pv_root + j];
    return src;
}

static bool source_move(const source *s, size_t i, uz_move *m)
{
    if (!s->aligned || s->off + i >= s->len)
        return false;
    *m = s->moves[s->off + i];
    return true;
}

static const int piece_value[7] = {0, 1, 3, 3, 5, 9, 0};

/* An engine-free guess of how likely a move is in a variation: captures of big pieces by
 * small ones, promotions, checks and castling first. */
static int move_score(uz_position *pos, uz_move m)
{
    int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m);
    int mover = UZ_PIECE_TYPE(pos->squares[from]);
    int victim = pos->squares[to] && UZ_PIECE_COLOR(pos->squares[to]) != pos->side ? UZ_PIECE_TYPE(pos->squares[to]) : 0;
    int score = 0;
    if (mover == UZ_PAWN && to == pos->ep_square)
        victim = UZ_PAWN;
    if (victim)
        score += 200 + 16 * piece_value[victim] - piece_value[mover];
    if (UZ_MOVE_PROMO(m) == UZ_QUEEN)
        score += 150;
    uz_undo undo;
    int us = pos->side;
    uz_make_move(pos, m, &undo);
    if (uz_in_check(pos))
        score += 100;
    /* A piece left where the other side takes it for less, or for free, rarely stays in a
     * variation. */
    uint64_t occ = pos->by_color[0] | pos->by_color[1], att = uz_attackers_to(pos, to, occ);
    uint64_t theirs = att & pos->by_color[1 - us], ours = att & pos->by_color[us];
    int moved = UZ_PIECE_TYPE(pos->squares[to]);
    if (theirs && mover != UZ_KING) {
        int cheapest = 9;
        for (int t = UZ_PAWN; t <= UZ_KING; t++)
            if (theirs & pos->by_type[t]) {
                cheapest = piece_value[t] ? piece_value[t] : 10;
                break;
            }
        if (cheapest < piece_value[moved] || !ours)
            score -= 300 + 16 * piece_value[moved] - 16 * piece_value[victim];
    }
    uz_unmake_move(pos, m, &undo);
    if (mover == UZ_KING && ((pos->squares[to] && UZ_PIECE_COLOR(pos->squares[to]) == pos->side) || to - from == 2 ||
                             from - to == 2))
        score += 30; /* castling (the king's two steps, or king takes rook in Chess960) */
    return score;
}

static bool tt_get(const tt_entry *tt, const uz_position *pos, uz_move *m)
{
    const tt_entry *e = &tt[pos->key & ((1u << TT_BITS) - 1)];
    if (e->key != pos->key || e->move == UZ_MOVE_NONE || !uz_is_legal(pos, e->move))
        return false;
    *m = e->move;
    return true;
}

static void tt_put(tt_entry *tt, const uz_position *pos, uz_move m)
{
    tt[pos->key & ((1u << TT_BITS) - 1)] = (tt_entry){pos->key, m};
}


static bool seen_has(const coder *c, uz_move m)
{
    unsigned i = m & 4095;
    return c->seen[i / 64] >> (i % 64) & 1;
}

static void seen_fill(coder *c)
{
    memset(c->seen, 0, sizeof c->seen);
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; c->side[s].has_pv && i < c->side[s].pv_len; i++) {
            unsigned k = c->side[s].pv[i] & 4095;
            c->seen[k / 64] |= 1ull << (k % 64);
        }
}

static int bucket(size_t i)
{
    return i == 0 ? 0 : i < 8 ? 1 : i < 24 ? 2 : 3;
}

/* A variation from the position before the commented move: per ply a stop bit, then the
 * candidates (the game's moves, the side's previous variation, the other side's) in that
 * order, each a bit, then the move's rank among the other legal moves. */
static uz_result code_pv(coder *c, const context *x, int side, uz_move *pv, size_t *len)
{
    source src[3] = {{0}, source_of(&c->side[side], x), source_of(&c->side[1 - side], x)};
    src[0] = (source){x->moves, x->n_moves, x->ply, true};
    uz_position pos = *x->before;
    uz_result r;
    size_t i = 0;
    uz_move prev = x->ply >= 1 ? x->moves[x->ply - 1] : UZ_MOVE_NONE; /* the last move made */
    seen_fill(c);
    for (;; i++) {
        uz_move cand[N_SOURCES];
        int from[N_SOURCES], votes[N_SOURCES], n_cand = 0;
        for (int s = 0; s < N_SOURCES; s++) {
            uz_move m;
            if (s == SRC_PV_TT || s == SRC_GAME_TT) {
                if (!tt_get(s == SRC_PV_TT ? c->pv_tt : c->game_tt, &pos, &m))
                    continue;
            } else if (!source_move(&src[s], i, &m))
                continue;
            int k = 0;
            while (k < n_cand && cand[k] != m)
                k++;
            if (k == n_cand) {
                cand[n_cand] = m;
                from[n_cand] = s;
                votes[n_cand++] = 0;
            }
            votes[k]++;
        }
        uz_move own;
        int own_state = source_move(&src[1], i, &own) ? 1 : src[1].aligned && src[1].moves ? 2 : 0;
        unsigned stop = c->bits.enc ? i == *len : 0;
        if (i >= MAX_PV)
            stop = 1;
        else if ((r = code_bit(c, &c->m.stop[bucket(i)][own_state], &stop)) != UZ_OK)
            return r;
        if (stop)
            break;
        uz_move legal[UZ_MAX_MOVES];
        int n_legal = uz_generate_legal(&pos, legal);
        uz_move m = c->bits.enc ? pv[i] : UZ_MOVE_NONE;
        bool found = false;
        for (int k = 0; k < n_cand && !found; k++) {
            unsigned hit = c->bits.enc ? m == cand[k] : 0;
            if ((r = code_bit(c, &c->m.hit[from[k]][bucket(i)][(votes[k] < 3 ? votes[k] : 3) - 1], &hit)) != UZ_OK)
                return r;
            if (hit) {
                m = cand[k];
                found = true;
            }
        }
        if (!found) {
            /* The other legal moves by score, ties in generation order. */
            int score[UZ_MAX_MOVES], n = 0;
            uz_move rest[UZ_MAX_MOVES];
            for (int j = 0; j < n_legal; j++) {
                bool is_cand = false;
                for (int k = 0; k < n_cand; k++)
                    is_cand |= cand[k] == legal[j];
                if (is_cand)
                    continue;
                int sc = move_score(&pos, legal[j]) + (seen_has(c, legal[j]) ? SEEN_BONUS : 0), at = n;
                if (prev != UZ_MOVE_NONE && UZ_MOVE_TO(legal[j]) == UZ_MOVE_TO(prev))
                    sc += RECAPTURE_BONUS;
                while (at > 0 && score[at - 1] < sc) {
                    score[at] = score[at - 1];
                    rest[at] = rest[at - 1];
                    at--;
                }
                score[at] = sc;
                rest[at] = legal[j];
                n++;
            }
            uint64_t rank = 0;
            if (c->bits.enc)
                while (rank < (uint64_t)n && rest[rank] != m)
                    rank++;
            if (c->bits.enc && rank == (uint64_t)n)
                return UZ_ERR_ARG; /* (the writer checked every move) */
            uint64_t v = rank + 1;
            unsigned nctx = uz_bit_length((uint64_t)n);
            if ((r = code_gamma(c, &c->m.rank[bucket(i)], nctx < GAMMA_CTX ? nctx : GAMMA_CTX - 1, &v)) != UZ_OK)
                return r;
            if (v > (uint64_t)n)
                return UZ_ERR_CORRUPT;
            m = rest[v - 1];
        }
        pv[i] = m;
        for (int s = SRC_GAME; s <= SRC_OPP; s++) {
            uz_move sm;
            if (src[s].aligned && (!source_move(&src[s], i, &sm) || sm != m))
                src[s].aligned = false;
        }
        tt_put(c->pv_tt, &pos, m);
        prev = m;
        uz_undo undo;
        uz_make_move(&pos, m, &undo);
    }
    *len = i;
    c->counts.pv_moves += i;
    return UZ_OK;
}

/* The variation's text: SAN moves separated by single spaces. */
static uz_result print_pv(const uz_position *before, const uz_move *pv, size_t len, uz_buf *out)
{
    uz_position pos = *before;
    for (size_t i = 0; i < len; i++) {
        char san[UZ_SAN_MAX];
        uz_san_format(&pos, pv[i], san);
        uz_result r = i ? uz_buf_push(out, ' ') : UZ_OK;
        if (r == UZ_OK)
            r = uz_buf_append(out, san, strlen(san));
        if (r != UZ_OK)
            return r;
        uz_undo undo;
        uz_make_move(&pos, pv[i], &undo);
    }
    return UZ_OK;
}

/* A variation's text as moves, when it prints back exactly. */
static bool parse_pv(const uz_position *before, const char *s, size_t len, uz_move *pv, size_t *n)
{
    uz_position pos = *before;
    size_t i = 0, k = 0;
    while (i < len) {
        size_t j = i;
        while (j < len && s[j] != ' ')
            j++;
        if (j == i || k == MAX_PV)
            return false;
        uz_move m;
        char san[UZ_SAN_MAX];
        if (uz_san_parse(&pos, s + i, j - i, &m, NULL) != UZ_OK || m == UZ_MOVE_NULL)
            return false;
        uz_san_format(&pos, m, san);
        if (strlen(san) != j - i || memcmp(san, s + i, j - i) != 0)
            return false;
        pv[k++] = m;
        uz_undo undo;
        uz_make_move(&pos, m, &undo);
        i = j + 1;
        if (j + 1 == len) /* a trailing space */
            return false;
    }
    *n = k;
    return true;
}

/* After a coded variation: the side's source for the next ones and its ponder move. */
static void keep_pv(side_state *own, const context *x, const uz_move *pv, size_t len)
{
    own->has_pv = true;
    memcpy(own->pv, pv, len * sizeof *pv);
    own->pv_len = len;
    own->pv_root = x->ply;
    own->pv1[0] = 0;
    if (len >= 2) {
        uz_position pos = *x->before;
        uz_undo undo;
        uz_make_move(&pos, pv[0], &undo);
        uz_san_format(&pos, pv[1], own->pv1);
    }
}

/* One field's value. Writer: *literal and the value given (text in val, len n); reader:
 * both decoded and the value's text appended to out. */
typedef struct field {
    int key;
    bool literal;
    const char *text;
    size_t len;
} field;

static uz_result code_field(coder *c, const context *x, int side, field *f, uz_buf *out)
{
    side_state *own = &c->side[side];
    int key = f->key;
    unsigned lit = f->literal;
    uz_result r = code_bit(c, &c->m.literal[key][own->lit[key]], &lit);
    if (r != UZ_OK)
        return r;
    f->literal = lit;
    own->lit[key] = (int)lit;
    if (key == K_PV && lit)
        own->has_pv = false;
    if (lit)
        return UZ_OK;
    char num[64];
    if (key == K_PV) {
        uz_move pv[MAX_PV];
        size_t len = 0;
        uint64_t *saved = c->bits.cost;
        c->bits.cost = &c->counts.cost_pv;
        if (c->bits.enc && !parse_pv(x->before, f->text, f->len, pv, &len))
            return UZ_ERR_ARG;
        r = code_pv(c, x, side, pv, &len);
        c->bits.cost = saved;
        if (r != UZ_OK)
            return r;
        keep_pv(own, x, pv, len);
        return out ? print_pv(x->before, pv, len, out) : UZ_OK;
    }
    if (key == K_PD) /* coded: the side's previous variation's second move */
        return out ? uz_buf_append(out, c->pd, strlen(c->pd)) : UZ_OK;
    if (key == K_MB) {
        material(x->after, num, sizeof num);
        return out ? uz_buf_append(out, num, strlen(num)) : UZ_OK;
    }
    int64_t value = 0;
    int decimals = 0;
    if (c->bits.enc && !parse_number(f->text, f->len, &value, &decimals))
        return UZ_ERR_ARG;
    if ((r = code_number(c, x, side, key, &value, &decimals)) != UZ_OK)
        return r;
    return out ? uz_buf_append(out, num, (size_t)print_number(num, sizeof num, value, decimals)) : UZ_OK;
}

/* Whether the writer can code the value of a field (else it stays in the residual). */
static bool codable(const coder *c, const context *x, int key, const char *s, size_t len)
{
    char num[64];
    int64_t v;
    int d;
    uz_move pv[MAX_PV];
    size_t n;
    switch (key) {
    case K_PV:
        return parse_pv(x->before, s, len, pv, &n);
    case K_PD:
        return c->pd[0] && strlen(c->pd) == len && memcmp(c->pd, s, len) == 0;
    case K_MB:
        material(x->after, num, sizeof num);
        return strlen(num) == len && memcmp(num, s, len) == 0;
    default:
        return parse_number(s, len, &v, &d) && print_number(num, sizeof num, v, d) == (int)len &&
               memcmp(num, s, len) == 0;
    }
}

/* ---- comments ---- */

/* Writer: the comment's fields and residual; false when it has no key. The reader's
 * rebuild is checked against the text before anything is coded. */
static bool split(const coder *c, const context *x, const char *text, size_t len, field *fields, size_t *n_fields,
                  uz_buf *residual)
{
    size_t i = 0, at, n = 0;
    int key;
    residual->size = 0;
    while ((key = find_key(text, len, i, &at)) >= 0) {
        size_t vs = at + strlen(key_name[key]) + 1, ve = value_end(text, len, vs);
        bool lit = !codable(c, x, key, text + vs, ve - vs);
        if (n == 64 || uz_buf_append(residual, text + i, (lit ? ve : vs) - i) != UZ_OK)
            return false;
        fields[n++] = (field){key, lit, text + vs, ve - vs};
        i = ve;
    }
    if (n == 0 || uz_buf_append(residual, text + i, len - i) != UZ_OK)
        return false;
    /* The reader's view of the residual: the same keys in the same places. */
    size_t k = 0;
    i = 0;
    while ((key = find_key((const char *)residual->data, residual->size, i, &at)) >= 0) {
        if (k == n || fields[k].key != key)
            return false;
        size_t vs = at + strlen(key_name[key]) + 1;
        i = fields[k].literal ? value_end((const char *)residual->data, residual->size, vs) : vs;
        if (fields[k].literal && (i - vs != fields[k].len || memcmp(residual->data + vs, fields[k].text, fields[k].len)))
            return false;
        k++;
    }
    *n_fields = n;
    return k == n;
}

/* Reader: the comment from its residual, every field decoded where the residual names it. */
static uz_result rebuild(coder *c, const context *x, int side, const char *res, size_t len, uz_buf *out)
{
    size_t i = 0, at;
    int key;
    out->size = 0;
    while ((key = find_key(res, len, i, &at)) >= 0) {
        size_t vs = at + strlen(key_name[key]) + 1;
        field f = {key, false, NULL, 0};
        uz_result r = uz_buf_append(out, res + i, vs - i);
        if (r == UZ_OK)
            r = code_field(c, x, side, &f, out);
        if (r != UZ_OK)
            return r;
        i = vs;
        if (f.literal) {
            size_t ve = value_end(res, len, vs);
            if ((r = uz_buf_append(out, res + vs, ve - vs)) != UZ_OK)
                return r;
            i = ve;
        }
        if (out->size > UZ_LIMIT_TEXT)
            return UZ_ERR_CORRUPT;
    }
    return uz_buf_append(out, res + i, len - i);
}

/* "base+inc" in seconds (1 to 9 decimal digits each, nothing else): both in ms. */
static void parse_time_control(coder *c, const char *tc)
{
    int64_t v[2] = {0, 0};
    const char *p = tc;
    for (int k = 0; k < 2; k++) {
        const char *d = p;
        while (*p >= '0' && *p <= '9' && p - d < 9)
            v[k] = 10 * v[k] + (*p++ - '0');
        if (p == d || (k == 0 ? *p++ != '+' : *p != 0))
            return;
    }
    c->base_ms = v[0] * 1000;
    c->inc_ms = v[1] * 1000;
}

/* The per-comment state: no field yet, the ponder prediction fixed. */
static void begin_comment(coder *c, int side)
{
    memset(c->cur_has, 0, sizeof c->cur_has);
    snprintf(c->pd, sizeof c->pd, "%s", c->side[side].has_pv ? c->side[side].pv1 : "");
}

static void begin_game(coder *c, const uz_game *game)
{
    init_models(&c->m);
    memset(c->pv_tt, 0, sizeof c->pv_tt);
    memset(c->game_tt, 0, sizeof c->game_tt);
    for (int s = 0; s < 2; s++) {
        c->side[s] = (side_state){0};
        c->side[s].prev_coded = 2;
        for (int k = 0; k < N_KEYS; k++)
            c->side[s].lit[k] = 2;
    }
    memset(c->has_eval, 0, sizeof c->has_eval);
    c->base_ms = c->inc_ms = 0;
    for (size_t i = 0; i < game->n_tags; i++)
        if (strcmp(game->tags[i].name, "TimeControl") == 0) {
            parse_time_control(c, game->tags[i].value);
            break;
        }
    c->bits.cost = &c->counts.cost_flags;
}

/* The game's positions and the moves made from them (the latest where one repeats). */
static void fill_game_tt(coder *c, const uz_game *game, const uz_move *mv)
{
    uz_position pos = game->start;
    for (size_t i = 0; i < game->main.n_nodes; i++) {
        tt_put(c->game_tt, &pos, mv[i]);
        uz_undo undo;
        uz_make_move(&pos, mv[i], &undo);
    }
}

/* The main line's moves, NULL when it holds a null move (not coded). */
static uz_move *main_moves(const uz_game *game)
{
    uz_move *mv = malloc((game->main.n_nodes ? game->main.n_nodes : 1) * sizeof *mv);
    for (size_t i = 0; mv && i < game->main.n_nodes; i++) {
        mv[i] = game->main.nodes[i].move;
        if (mv[i] == UZ_MOVE_NULL) {
            free(mv);
            return NULL;
        }
    }
    return mv;
}

static size_t main_comments(const uz_game *game)
{
    size_t n = 0;
    for (size_t i = 0; i < game->main.n_nodes; i++)
        n += game->main.nodes[i].n_comments;
    return n;
}

bool uz_engine_code_wanted(const uz_game *game)
{
    size_t at;
    for (size_t i = 0; !game->verbatim && !game->text_only && i < game->main.n_nodes; i++)
        for (size_t j = 0; j < game->main.nodes[i].n_comments; j++) {
            const char *s = game->main.nodes[i].comments[j];
            if (find_key(s, strlen(s), 0, &at) >= 0)
                return true;
        }
    return false;
}

uz_result uz_engine_code_encode(const uz_game *game, uz_buf *out, char ***residuals, size_t *n_residuals,
                                uz_engine_code_counts *counts)
{
    *residuals = NULL;
    *n_residuals = 0;
    size_t total = main_comments(game);
    if (game->verbatim || game->text_only || total == 0)
        return UZ_OK;
    uz_move *mv = main_moves(game);
    if (!mv)
        return UZ_OK;
    coder *c = calloc(1, sizeof *c);
    char **res = calloc(total, sizeof *res);
    uz_buf residual = {0};
    uz_result r = UZ_ERR_NOMEM;
    if (!c || !res || uz_encoder_create(&c->bits.enc, UZ_CODER_RANGE) != UZ_OK)
        goto out;
    begin_game(c, game);
    fill_game_tt(c, game, mv);
    uz_position pos = game->start, before;
    size_t k = 0;
    r = UZ_OK;
    for (size_t i = 0; i < game->main.n_nodes && r == UZ_OK; i++) {
        const uz_node *nd = &game->main.nodes[i];
        int side = pos.side;
        before = pos;
        uz_undo undo;
        uz_make_move(&pos, nd->move, &undo);
        context x = {mv, game->main.n_nodes, i, &before, &pos};
        for (size_t j = 0; j < nd->n_comments && r == UZ_OK; j++, k++) {
            field fields[64];
            size_t n_fields = 0;
            begin_comment(c, side);
            const char *text = nd->comments[j];
            c->counts.comments++;
            unsigned coded = split(c, &x, text, strlen(text), fields, &n_fields, &residual);
            c->bits.cost = &c->counts.cost_flags;
            if ((r = code_bit(c, &c->m.coded[side][c->side[side].prev_coded], &coded)) != UZ_OK)
                break;
            c->side[side].prev_coded = (int)coded;
            if (!coded)
                continue;
            c->counts.coded++;
            begin_comment(c, side);
            c->bits.cost = &c->counts.cost_fields;
            for (size_t f = 0; f < n_fields && r == UZ_OK; f++)
                r = code_field(c, &x, side, &fields[f], NULL);
            if (r == UZ_OK && !(res[k] = malloc(residual.size + 1)))
                r = UZ_ERR_NOMEM;
            if (r == UZ_OK) {
                memcpy(res[k], residual.data, residual.size);
                res[k][residual.size] = 0;
            }
        }
    }
    if (r == UZ_OK && c->counts.coded) {
        const uint8_t *data;
        size_t size;
        if ((r = uz_encoder_finish(c->bits.enc, &data, &size)) == UZ_OK)
            r = uz_buf_append(out, data, size);
    }
    if (r == UZ_OK && c->counts.coded) {
        *residuals = res;
        *n_residuals = total;
        res = NULL;
    }
out:
    if (r == UZ_OK && counts && c) {
        counts->comments += c->counts.comments;
        counts->coded += c->counts.coded;
        counts->pv_moves += c->counts.pv_moves;
        counts->cost_pv += c->counts.cost_pv;
        counts->cost_fields += c->counts.cost_fields;
        counts->cost_flags += c->counts.cost_flags;
    }
    for (size_t i = 0; res && i < total; i++)
        free(res[i]);
    free(res);
    if (c)
        uz_encoder_destroy(c->bits.enc);
    free(c);
    free(mv);
    uz_buf_free(&residual);
    return r;
}

uz_result uz_engine_code_decode(uz_game *game, const uint8_t *data, size_t size, uz_engine_code_counts *counts)
{
    if (size == 0)
        return UZ_OK;
    if (game->verbatim || game->text_only || main_comments(game) == 0)
        return UZ_ERR_CORRUPT;
    uz_move *mv = main_moves(game);
    if (!mv)
        return UZ_ERR_CORRUPT;
    coder *c = calloc(1, sizeof *c);
    uz_buf text = {0};
    uz_result r = UZ_ERR_NOMEM;
    if (!c)
        goto out;
    r = UZ_ERR_CORRUPT;
    if (uz_decoder_init(&c->bits.dec, UZ_CODER_RANGE, data, size) != UZ_OK)
        goto out;
    begin_game(c, game);
    fill_game_tt(c, game, mv);
    uz_position pos = game->start, before;
    r = UZ_OK;
    for (size_t i = 0; i < game->main.n_nodes && r == UZ_OK; i++) {
        uz_node *nd = &game->main.nodes[i];
        int side = pos.side;
        before = pos;
        uz_undo undo;
        uz_make_move(&pos, nd->move, &undo);
        context x = {mv, game->main.n_nodes, i, &before, &pos};
        for (size_t j = 0; j < nd->n_comments && r == UZ_OK; j++) {
            unsigned coded = 0;
            c->counts.comments++;
            c->bits.cost = &c->counts.cost_flags;
            if ((r = code_bit(c, &c->m.coded[side][c->side[side].prev_coded], &coded)) != UZ_OK)
                break;
            c->side[side].prev_coded = (int)coded;
            if (!coded)
                continue;
            c->counts.coded++;
            begin_comment(c, side);
            c->bits.cost = &c->counts.cost_fields;
            const char *res = nd->comments[j];
            if ((r = rebuild(c, &x, side, res, strlen(res), &text)) != UZ_OK)
                break;
            char *s = malloc(text.size + 1);
            if (!s) {
                r = UZ_ERR_NOMEM;
                break;
            }
            memcpy(s, text.data, text.size);
            s[text.size] = 0;
            if (memchr(s, 0, text.size)) {
                free(s);
                r = UZ_ERR_CORRUPT;
                break;
            }
            free(nd->comments[j]);
            nd->comments[j] = s;
        }
    }
    if (r == UZ_OK && (c->counts.coded == 0 || uz_decoder_finish(&c->bits.dec) != UZ_OK))
        r = UZ_ERR_CORRUPT;
    if (r == UZ_OK && counts) {
        counts->comments += c->counts.comments;
        counts->coded += c->counts.coded;
        counts->pv_moves += c->counts.pv_moves;
        counts->cost_pv += c->counts.cost_pv;
        counts->cost_fields += c->counts.cost_fields;
        counts->cost_flags += c->counts.cost_flags;
    }
out:
    free(c);
    free(mv);
    uz_buf_free(&text);
    return r;
}
