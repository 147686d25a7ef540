/* The principal variations of engine comments ("pv=Kc1 Kf5 ..."), coded move by move
 * against the game's moves and the previous variations (doc/format.md, "Engine comment
 * code"). */
#include <stdlib.h>
#include <string.h>

#include "block/engine_code_internal.h"
#include "builtin/builtin.h"

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

/* Revision 2: the built-in oracle's scores of the legal moves (canonical order), builtin-1
 * at depth 1, clamped to +-SCORE_CLAMP centipawns (mates too); the searcher is made at the
 * first need. */
static uz_result builtin_scores(coder *c, const uz_position *pos, const uz_move *legal, int n, int32_t *scores)
{
    if (!c->searcher) {
        uz_diag d = {0};
        if (uz_builtin_create(&c->searcher, 1, 1, &d) != UZ_OK)
            return UZ_ERR_NOMEM;
    }
    uz_builtin_score_moves(c->searcher, pos, legal, n, scores);
    for (int j = 0; j < n; j++)
        scores[j] = scores[j] > SCORE_CLAMP ? SCORE_CLAMP : scores[j] < -SCORE_CLAMP ? -SCORE_CLAMP : scores[j];
    return UZ_OK;
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

/* The legal moves that are not candidates, by score, highest first, ties in generation
 * order: rest[0..*n) and their scores. Revision 1 scores by move_score, revision 2 by the
 * built-in oracle; both add the bonuses of a move seen in the last variations and of a
 * recapture (prev: the last move made, or none). */
static uz_result rank_rest(coder *c, uz_position *pos, const uz_move *legal, int n_legal, const uz_move *cand,
                           int n_cand, uz_move prev, uz_move *rest, int *score, int *n)
{
    int32_t searched[UZ_MAX_MOVES];
    uz_result r;
    if (c->revision >= 2 && (r = builtin_scores(c, pos, legal, n_legal, searched)) != UZ_OK)
        return r;
    *n = 0;
    for (int j = 0; j < n_legal; j++) {
        bool is_cand = false;
        for (int k = 0; k < n_cand; k++)
            is_cand |= cand[k] == legal[j];
        if (is_cand)
            continue;
        bool seen = seen_has(c, legal[j]), recapture = prev != UZ_MOVE_NONE && UZ_MOVE_TO(legal[j]) == UZ_MOVE_TO(prev);
        int at = *n, sc = c->revision >= 2
                              ? searched[j] + (seen ? SEEN_BONUS_CP : 0) + (recapture ? RECAPTURE_BONUS_CP : 0)
                              : move_score(pos, legal[j]) + (seen ? SEEN_BONUS : 0) + (recapture ? RECAPTURE_BONUS : 0);
        while (at > 0 && score[at - 1] < sc) {
            score[at] = score[at - 1];
            rest[at] = rest[at - 1];
            at--;
        }
        score[at] = sc;
        rest[at] = legal[j];
        (*n)++;
    }
    return UZ_OK;
}

/* A variation from the position before the commented move: per ply a stop bit, then the
 * candidates (the game's moves, the side's previous variation, the other side's) in that
 * order, each a bit, then the move's rank among the other legal moves. */
uz_result uz__pv_code(coder *c, const context *x, int side, uz_move *pv, size_t *len)
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
        uint64_t before = c->counts.cost_pv;
        if (i >= MAX_PV)
            stop = 1;
        else if ((r = code_bit(c, &c->m.stop[bucket(i)][own_state], &stop)) != UZ_OK)
            return r;
        c->counts.cost_pv_stop += c->counts.cost_pv - before;
        if (stop)
            break;
        uz_move legal[UZ_MAX_MOVES];
        int n_legal = uz_generate_legal(&pos, legal);
        uz_move m = c->bits.enc ? pv[i] : UZ_MOVE_NONE;
        bool found = false;
        before = c->counts.cost_pv;
        for (int k = 0; k < n_cand && !found; k++) {
            unsigned hit = c->bits.enc ? m == cand[k] : 0;
            if ((r = code_bit(c, &c->m.hit[from[k]][bucket(i)][(votes[k] < 3 ? votes[k] : 3) - 1], &hit)) != UZ_OK)
                return r;
            if (hit) {
                m = cand[k];
                found = true;
            }
        }
        c->counts.cost_pv_hit += c->counts.cost_pv - before;
        if (!found) {
            before = c->counts.cost_pv;
            c->counts.pv_ranked++;
            int score[UZ_MAX_MOVES], n = 0;
            uz_move rest[UZ_MAX_MOVES];
            if ((r = rank_rest(c, &pos, legal, n_legal, cand, n_cand, prev, rest, score, &n)) != UZ_OK)
                return r;
            uint64_t rank = 0;
            if (c->bits.enc)
                while (rank < (uint64_t)n && rest[rank] != m)
                    rank++;
            if (c->bits.enc && rank == (uint64_t)n)
                return UZ_ERR_ARG; /* (the writer checked every move) */
            uint64_t v = rank + 1;
            unsigned nctx = uz_bit_length((uint64_t)n);
            if (c->revision >= 2) { /* how far the first stands out, and many moves or few */
                int gap = n >= 2 ? score[0] - score[1] : 8 * GAP_UNIT;
                nctx = (gap < GAP_UNIT ? 0 : gap < 3 * GAP_UNIT ? 1 : gap < 8 * GAP_UNIT ? 2 : 3) + 4 * (n > 12);
            }
            if ((r = code_gamma(c, &c->m.rank[bucket(i)], nctx < GAMMA_CTX ? nctx : GAMMA_CTX - 1, &v)) != UZ_OK)
                return r;
            if (v > (uint64_t)n)
                return UZ_ERR_CORRUPT;
            m = rest[v - 1];
            c->counts.cost_pv_rank += c->counts.cost_pv - before;
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
uz_result uz__pv_print(const uz_position *before, const uz_move *pv, size_t len, uz_buf *out)
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
bool uz__pv_parse(const uz_position *before, const char *s, size_t len, uz_move *pv, size_t *n)
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
void uz__pv_keep(side_state *own, const context *x, const uz_move *pv, size_t len)
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

/* The game's positions and the moves made from them (the latest where one repeats). */
void uz__pv_fill_game_tt(coder *c, const uz_move *mv, const uz_walk *walk)
{
    for (size_t i = 0; i < walk->n_main; i++)
        tt_put(c->game_tt, uz_walk_main_before(walk, i), mv[i]);
}
