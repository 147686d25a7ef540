/* The move model's one entry (uz_model_frequencies: each kind's implementation), opening
 * a model with its weights, and the kinds of scores only: the exponential model's integer
 * weight table and frequency assignment, and the rank mixture. */
#include "model/move_model.h"

#include <string.h>

#include "codec/fixed.h"
#include "model/opening_book.h"

/* Design (all of it is archive format; changing any bit needs a format version bump):
 *   L = log2(k) in Q32 = uz__log2_q32(k_milli) - uz__log2_q32(1000)
 *   e(d) = d * L / 100 (Q32, truncated): log2 of 1 / w(d)
 *   w(d) = (2^-frac(e) in Q31) >> int(e), 0 when int(e) >= 32, then clamped so that
 *          w(d) <= w(d - 1).
 * Frequencies, T = UZ_MODEL_TOTAL, F = floor_q16 * T / 65536:
 *   u = 1 + (F * (T - n) / T) / n to every move (the uniform floor; freq >= 1),
 *   R = T - u * n shared in proportion to the weights: q_i = R * w_i / W (truncated),
 *   the R - sum(q) leftover units (< n) go to the best move (lowest index on ties).
 * UZ_MODEL_RANK splits R first: R_rank = R * rank_q16 >> 16 is shared in proportion to
 *   rho^rank (rank 0 = best score, ties by lower index; rho^j in Q31 by repeated
 *   multiplication with decay_q16, truncated), R - R_rank by the weights as above. */

int uz_model_param_count(uz_model_kind kind)
{
    return kind == UZ_MODEL_EXP ? 2 : kind == UZ_MODEL_RANK ? 4 : kind == UZ_MODEL_PLAYER ? 3 : 0;
}

int uz_model_params_store(const uz_model_params *p, uint32_t *values)
{
    const uint32_t by_scores[] = {p->k_milli, p->floor_q16, p->rank_q16, p->decay_q16};
    const uint32_t player[] = {p->player_version, p->player_hash_lo, p->player_hash_hi};
    int n = uz_model_param_count(p->kind);
    for (int i = 0; i < n; i++)
        values[i] = p->kind == UZ_MODEL_PLAYER ? player[i] : by_scores[i];
    return n;
}

uz_result uz_model_params_load(uz_model_params *p, uz_model_kind kind, const uint32_t *values, uint32_t n)
{
    memset(p, 0, sizeof *p);
    p->kind = kind;
    if (n != (uint32_t)uz_model_param_count(kind))
        return UZ_ERR_UNSUPPORTED;
    uint32_t *by_scores[] = {&p->k_milli, &p->floor_q16, &p->rank_q16, &p->decay_q16};
    uint32_t *player[] = {&p->player_version, &p->player_hash_lo, &p->player_hash_hi};
    for (uint32_t i = 0; i < n; i++)
        *(kind == UZ_MODEL_PLAYER ? player[i] : by_scores[i]) = values[i];
    return UZ_OK;
}

uz_model_params uz_model_default_params(void)
{
    uz_model_params p = {UZ_MODEL_RANK, UZ_MODEL_DEFAULT_K_MILLI, UZ_MODEL_DEFAULT_FLOOR_Q16,
                         UZ_MODEL_DEFAULT_RANK_Q16, UZ_MODEL_DEFAULT_DECAY_Q16, 0, 0, 0, 0, 0, 0, 0, 0};
    return p;
}

uz_result uz_model_init(uz_model *m, const uz_model_params *params)
{
    if (!m || !params)
        return UZ_ERR_ARG;
    if (params->kind == UZ_MODEL_PLAYER) {
        /* The weights are attached by the caller; the tables are the reference model's. */
        uz_model_params ref = uz_model_default_params();
        ref.player_version = params->player_version;
        ref.player_hash_lo = params->player_hash_lo;
        ref.player_hash_hi = params->player_hash_hi;
        ref.opening_alpha16 = params->opening_alpha16;
        ref.opening_plies = params->opening_plies;
        ref.book_version = params->book_version;
        ref.book_hash_lo = params->book_hash_lo;
        ref.book_hash_hi = params->book_hash_hi;
        uz_result r = uz_model_init(m, &ref);
        m->params.kind = UZ_MODEL_PLAYER;
        return r;
    }
    m->player = NULL;
    m->book = NULL;
    if (uz_model_param_count(params->kind) == 0 || params->k_milli < UZ_MODEL_K_MILLI_MIN ||
        params->k_milli > UZ_MODEL_K_MILLI_MAX || params->floor_q16 > UZ_MODEL_FLOOR_ONE)
        return UZ_ERR_ARG;
    if (params->kind == UZ_MODEL_RANK &&
        (params->rank_q16 > 65536 || params->decay_q16 == 0 || params->decay_q16 > 65535))
        return UZ_ERR_ARG;
    /* Opening counts (gamecode/opening.h): alpha 1/16 .. 4096, at most 1024 plies. */
    if (params->opening_plies > 1024 || (params->opening_plies && (params->opening_alpha16 == 0 ||
                                                                   params->opening_alpha16 > 65536)))
        return UZ_ERR_ARG;
    m->params = *params;
    if (!params->opening_plies)
        m->params.opening_alpha16 = 0;
    if (params->kind == UZ_MODEL_EXP)
        m->params.rank_q16 = m->params.decay_q16 = 0;
    uint32_t rw = (uint32_t)1 << 31;
    m->rank_sum[0] = 0;
    for (int j = 0; j < UZ_MODEL_MAX_MOVES; j++) {
        m->rank_weight[j] = rw;
        m->rank_sum[j + 1] = m->rank_sum[j] + rw;
        rw = (uint32_t)(((uint64_t)rw * m->params.decay_q16) >> 16);
    }

    const uz__exp2_table *t = uz__exp2_constants();
    uint64_t l = uz__log2_q32(params->k_milli) - uz__log2_q32(UZ_MODEL_K_MILLI_MIN);
    /* l < 2^37 and d <= 2200 < 2^12, so d * l never overflows. */
    uint32_t prev = (uint32_t)1 << 31;
    for (uint32_t d = 0; d <= UZ_MODEL_MAX_DIFF; d++) {
        uint64_t e = (uint64_t)d * l / 100;
        uint64_t ip = e >> 32;
        uint32_t w = 0;
        if (ip < 32)
            w = uz__exp2_neg_q31(t, (uint32_t)(e & 0xFFFFFFFFu)) >> ip;
        /* Truncation could in principle break monotonicity; the clamp makes it a fact. */
        if (w > prev)
            w = prev;
        m->weight[d] = w;
        prev = w;
    }
    return UZ_OK;
}

int32_t uz_model_normalize_score(int32_t score)
{
    int64_t s = score;
    if (s > UZ_SCORE_MATE_BOUND) {
        int64_t n = UZ_SCORE_MATE - s; /* mate in n */
        if (n < 0)
            n = 0;
        if (n > UZ_MODEL_MATE_CAP)
            n = UZ_MODEL_MATE_CAP;
        return (int32_t)(UZ_MODEL_MATE_BASE - n);
    }
    if (s < -UZ_SCORE_MATE_BOUND) {
        int64_t n = s + UZ_SCORE_MATE; /* mated in n */
        if (n < 0)
            n = 0;
        if (n > UZ_MODEL_MATE_CAP)
            n = UZ_MODEL_MATE_CAP;
        return (int32_t)(-(UZ_MODEL_MATE_BASE - n));
    }
    if (s > UZ_MODEL_CP_CLAMP)
        return UZ_MODEL_CP_CLAMP;
    if (s < -UZ_MODEL_CP_CLAMP)
        return -UZ_MODEL_CP_CLAMP;
    return (int32_t)s;
}

/* Attaches the book params name: version 0 none, hash 0 the version's built-in book. */
static uz_result open_book(uz_model *m, const uz_model_params *params, uz_diag *diag)
{
    if (params->book_version == 0)
        return UZ_OK;
    const uz_book *b = uz_book_builtin(params->book_version);
    uint64_t want = (uint64_t)params->book_hash_hi << 32 | params->book_hash_lo;
    if (!b || (want != 0 && want != b->hash)) {
        const uz_book *latest = uz_book_builtin(UZ_BOOK_LATEST);
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "the archive needs opening book version %u with hash %016llx, which this program does not have "
                    "(its newest: version %u, hash %016llx)",
                    params->book_version, (unsigned long long)want, latest->version,
                    (unsigned long long)latest->hash);
        return UZ_ERR_MISMATCH;
    }
    m->book = b;
    m->params.book_hash_lo = (uint32_t)b->hash;
    m->params.book_hash_hi = (uint32_t)(b->hash >> 32);
    return UZ_OK;
}

uz_result uz_model_open(uz_model *m, const uz_model_params *params, uz_diag *diag)
{
    uz_result r = uz_model_init(m, params);
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "invalid model parameters");
        return r;
    }
    if ((r = open_book(m, params, diag)) != UZ_OK || params->kind != UZ_MODEL_PLAYER)
        return r;
    const uz_player_model *pm = uz_pm_builtin_version(UZ_PM_DEFAULT_VERSION_ENGINE);
    uint64_t want = (uint64_t)params->player_hash_hi << 32 | params->player_hash_lo;
    if (params->player_version == 0 && want == 0) {
        /* a new archive of a UCI engine (the builtin's name their set before): the
         * engines' default weights */
        m->params.player_version = pm->version;
        m->params.player_hash_lo = (uint32_t)pm->hash;
        m->params.player_hash_hi = (uint32_t)(pm->hash >> 32);
    } else if (!(pm = uz_pm_builtin_find(params->player_version, want))) {
        pm = uz_pm_builtin_latest();
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "the archive needs player model version %u with weights %016llx, which this program does not "
                    "have (its newest: version %u, weights %016llx)",
                    params->player_version, (unsigned long long)want, pm->version, (unsigned long long)pm->hash);
        return UZ_ERR_MISMATCH;
    }
    m->player = pm;
    return UZ_OK;
}

uint32_t uz_model_frequencies(const uz_model *m, const uz_model_context *ctx, uint32_t *freq)
{
    if (!m || !ctx)
        return 0;
    uint32_t total;
    if (m->params.kind != UZ_MODEL_PLAYER) {
        total = uz_model_score_frequencies(m, ctx->scores, ctx->n, freq);
    } else {
        if (!m->player || !ctx->pos || !ctx->moves || !ctx->scores || ctx->n < 1 || ctx->n > UZ_MAX_MOVES)
            return 0;
        int64_t sc[UZ_MAX_MOVES];
        uz_pm_move_scores(m->player, ctx->pos, ctx->moves, ctx->scores, ctx->n, &ctx->game, &ctx->history, sc);
        total = uz_pm_frequencies(m->player, sc, ctx->n, freq);
    }
    if (total && m->book && ctx->pos && ctx->moves && ctx->n >= 2 && ctx->n <= UZ_MAX_MOVES) {
        uint32_t c[UZ_MAX_MOVES];
        uint32_t books = uz_book_counts(m->book, ctx->pos, ctx->moves, ctx->n, c);
        if (books)
            uz_model_mix_counts(c, m->book->alpha16[uz_book_cell(books, ctx->pos, &ctx->game)], freq, ctx->n, total);
    }
    return total;
}

void uz_model_mix_counts(const uint32_t *c, uint32_t alpha16, uint32_t *freq, int n, uint32_t total_freq)
{
    uint64_t total = 0;
    for (int i = 0; i < n; i++)
        total += c[i];
    if (total == 0 || total > UZ_MODEL_MIX_TOTAL_MAX || n < 2 || alpha16 == 0 || total_freq > UZ_MODEL_TOTAL ||
        (uint32_t)n > total_freq)
        return;
    /* p_i = (c_i + a f_i / T) / (C + a), a = alpha16 / 16: g_i = 16 T c_i + alpha16 f_i
     * over G = T (16 C + alpha16); each frequency is 1 + (T - n) g_i / G (floored), the
     * remainder goes to the first largest g_i. With C <= 2^24, T <= 2^16 and alpha16 <=
     * 2^16: g_i < 2^45 and (T - n) g_i < 2^61, exact in 64 bits. */
    const uint64_t T = total_freq, G = T * (16 * total + alpha16);
    uint64_t sum = 0, best_g = 0;
    int best = 0;
    for (int i = 0; i < n; i++) {
        uint64_t g = 16 * T * c[i] + (uint64_t)alpha16 * freq[i];
        if (g > best_g) {
            best_g = g;
            best = i;
        }
        freq[i] = (uint32_t)(1 + (T - (uint64_t)n) * g / G);
        sum += freq[i];
    }
    freq[best] += (uint32_t)(T - sum);
}

uint32_t uz_model_score_frequencies(const uz_model *m, const int32_t *scores, int n, uint32_t *freq)
{
    if (!m || !scores || !freq || n < 1 || n > UZ_MODEL_MAX_MOVES)
        return 0;
    if (uz_model_param_count(m->params.kind) == 0 || m->params.kind == UZ_MODEL_PLAYER)
        return 0;

    const uint32_t total = UZ_MODEL_TOTAL;
    int32_t v[UZ_MODEL_MAX_MOVES];
    int best = 0;
    for (int i = 0; i < n; i++) {
        v[i] = uz_model_normalize_score(scores[i]);
        if (v[i] > v[best])
            best = i;
    }

    /* One unit per move is reserved first, so the floor's truncation never pushes a move
     * below F / n of the rest: freq_i > F (T - n) / (T n). */
    uint32_t floor_units = (uint32_t)(((uint64_t)m->params.floor_q16 * total) >> 16);
    uint32_t fp = (uint32_t)((uint64_t)floor_units * (total - (uint32_t)n) / total);
    uint32_t u = 1 + fp / (uint32_t)n;
    /* u * n <= n + fp <= n + (T - n) = T, so r >= 0. */
    uint32_t r = total - u * (uint32_t)n;

    uint32_t r_rank = (uint32_t)(((uint64_t)r * m->params.rank_q16) >> 16);
    uint32_t r_exp = r - r_rank;
    uint64_t wsum = 0;
    for (int i = 0; i < n; i++)
        wsum += m->weight[v[best] - v[i]];
    /* wsum >= weight[0] = 2^31 > 0; r * w < 2^17 * 2^31 fits in 64 bits; likewise the rank
     * sum is >= rank_weight[0] = 2^31. */
    uint32_t assigned = 0;
    for (int i = 0; i < n; i++) {
        uint32_t q = (uint32_t)((uint64_t)r_exp * m->weight[v[best] - v[i]] / wsum);
        if (r_rank) {
            int rank = 0; /* moves scored higher, or equal with a lower index */
            for (int j = 0; j < n; j++)
                rank += v[j] > v[i] || (v[j] == v[i] && j < i);
            q += (uint32_t)((uint64_t)r_rank * m->rank_weight[rank] / m->rank_sum[n]);
        }
        freq[i] = u + q;
        assigned += q;
    }
    freq[best] += r - assigned;
    return total;
}

int uz_model_rank(const uz_model *m, const int32_t *scores, int n, int played)
{
    uint32_t freq[UZ_MODEL_MAX_MOVES];
    if (played < 0 || played >= n || uz_model_score_frequencies(m, scores, n, freq) == 0)
        return 0;
    int32_t vp = uz_model_normalize_score(scores[played]);
    int rank = 1;
    for (int i = 0; i < n; i++) {
        int32_t vi = uz_model_normalize_score(scores[i]);
        if (freq[i] != freq[played])
            rank += freq[i] > freq[played];
        else if (vi != vp)
            rank += vi > vp;
        else
            rank += i < played;
    }
    return rank;
}
