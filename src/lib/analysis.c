/* The analysis session of ucizip_experimental.h: games walked and scored in batches, each
 * main-line move priced under the move model with every coder (with the opening counts of
 * the block's earlier games, as compress codes it), the reference model and the ideal
 * model; the scored positions kept for sweeping and fitting the rank model. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_internal.h"
#include "archive/archive.h"
#include "chess/san.h"

_Static_assert(UZ_ANALYSIS_MAX_MOVES == UZ_MAX_MOVES, "uz_move_analysis arrays hold every legal move");
_Static_assert(UZ_ANALYSIS_SAN_MAX == UZ_SAN_MAX && UZ_ANALYSIS_UCI_MAX == UZ_UCI_MAX, "move texts fit");
_Static_assert(UZ_ANALYSIS_MAX_FEATURES >= UZ_PM_N_FEATURES, "every feature fits");
_Static_assert(UZ_ANALYSIS_K_MILLI_MIN == UZ_MODEL_K_MILLI_MIN && UZ_ANALYSIS_K_MILLI_MAX == UZ_MODEL_K_MILLI_MAX,
               "k limits as the model's");
_Static_assert(UZ_BLOCK_GAMES_DEFAULT == UZ_ARCHIVE_BLOCK_GAMES, "blocks of compress's default size");

static uz_result nomem(uz_diag *diag)
{
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

uz_result uz_analysis_open(uz_analysis **out, const uz_options *o, unsigned flags, uz_diag *diag)
{
    *out = NULL;
    uz_result r = uz_lib_check_options(o, diag);
    if (r != UZ_OK)
        return r;
    uz_analysis *a = calloc(1, sizeof *a);
    if (!a)
        return nomem(diag);
    a->flags = flags;
    uz_model_params params, ref_params = uz_model_default_params();
    uz_coder_kind coder;
    if ((r = uz_lib_model(o, &params, &coder, diag)) != UZ_OK || (r = uz_model_open(&a->model, &params, diag)) != UZ_OK)
        goto fail;
    if ((r = uz_model_init(&a->reference, &ref_params)) != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "the reference model does not open");
        goto fail;
    }
    a->fit_start = uz_lib_model_fit_start(&params);
    uz_lib_model_describe(&a->model.params, &a->model_desc);
    uz_lib_model_describe(&a->fit_start, &a->fitted_desc);
    if (params.opening_plies && !(a->opening = uz_opening_new(params.opening_alpha16, params.opening_plies))) {
        r = nomem(diag);
        goto fail;
    }
    if (!(flags & UZ_ANALYSIS_NO_ORACLE) && (r = uz_analysis_oracle_open(&a->oracle, o, diag)) != UZ_OK)
        goto fail;
    *out = a;
    return UZ_OK;
fail:
    uz_analysis_close(a);
    return r;
}

/* Frees the walks of the last run. */
static void clear_run(uz_analysis *a)
{
    for (size_t i = 0; i < a->n_walks; i++)
        uz_walk_free(&a->walks[i]);
    a->n_walks = a->n_plies = a->n_games = 0;
}

void uz_analysis_close(uz_analysis *a)
{
    if (!a)
        return;
    clear_run(a);
    uz_analysis_oracle_close(&a->oracle);
    uz_opening_free(a->opening);
    uz_fit_samples_free(&a->samples);
    free(a->walks);
    free(a->plies);
    free(a->step_of);
    free(a->first);
    free(a);
}

const uz_model_info *uz_analysis_model(const uz_analysis *a)
{
    return &a->model_desc.info;
}

bool uz_analysis_has_opening_counts(const uz_analysis *a)
{
    return a->opening != NULL;
}

uint32_t uz_analysis_block_games(const uz_analysis *a)
{
    (void)a;
    return UZ_ARCHIVE_BLOCK_GAMES;
}

static double index_bits(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

/* -log2 p of the unfloored model p ~ k^(score/100) in floating point, what an exact
 * arithmetic coder would pay (analysis only; the coded path is integer). */
static double ideal_bits(const uz_model *model, const int32_t *scores, int n, int played)
{
    double k = model->params.k_milli / 1000.0, vmax = -1e9, sum = 0;
    for (int i = 0; i < n; i++)
        if (uz_model_normalize_score(scores[i]) > vmax)
            vmax = uz_model_normalize_score(scores[i]);
    for (int i = 0; i < n; i++)
        sum += pow(k, (uz_model_normalize_score(scores[i]) - vmax) / 100.0);
    return -log2(pow(k, (uz_model_normalize_score(scores[played]) - vmax) / 100.0) / sum);
}

/* Rank (1 = first) of the played move by frequency, ties by lower index. */
static int freq_rank(const uint32_t *freq, int n, int played)
{
    int rank = 1;
    for (int i = 0; i < n; i++)
        rank += freq[i] > freq[played] || (freq[i] == freq[played] && i < played);
    return rank;
}

/* The costs of scored step s of w (two or more legal moves) into p. */
static void price_step(const uz_analysis *a, const uz_walk *w, size_t s, uz_ply_analysis *p)
{
    const uz_step *st = &w->steps[s];
    const uz_move *legal = uz_walk_legal(w, s);
    uint32_t freq[UZ_MAX_MOVES];
    int n = st->n_legal;
    uint32_t total = uz_model_score_frequencies(&a->reference, st->scores, n, freq);
    p->reference = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, st->played);
    total = uz_step_frequencies(&a->model, w, s, legal, st->scores, n, freq);
    p->range_no_counts = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, st->played);
    uz_opening_mix(a->opening, w, s, freq, n, total);
    p->huffman = uz_coder_cost_bits(UZ_CODER_HUFFMAN, freq, n, total, st->played);
    p->range = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, st->played);
    p->ideal = ideal_bits(&a->model, st->scores, n, st->played);
    p->rank = a->model.params.kind == UZ_MODEL_PLAYER ? freq_rank(freq, n, st->played)
                                                      : uz_model_rank(&a->model, st->scores, n, st->played);
    p->scores = st->scores;
}

static uz_result grow_plies(uz_analysis *a, size_t need)
{
    if (need <= a->cap_plies)
        return UZ_OK;
    size_t cap = a->cap_plies ? 2 * a->cap_plies : 1024;
    while (cap < need)
        cap *= 2;
    uz_ply_analysis *plies = realloc(a->plies, cap * sizeof *plies);
    if (plies)
        a->plies = plies;
    size_t *step_of = realloc(a->step_of, cap * sizeof *step_of);
    if (step_of)
        a->step_of = step_of;
    if (!plies || !step_of)
        return UZ_ERR_NOMEM;
    a->cap_plies = cap;
    return UZ_OK;
}

/* Prices the main-line moves of walk g (scored unless the session has no oracle) and adds
 * them to the plies, the samples and then the opening counts. */
static uz_result add_walk(uz_analysis *a, size_t g, uz_diag *diag)
{
    const uz_walk *w = &a->walks[g];
    bool scored = !(a->flags & UZ_ANALYSIS_NO_ORACLE);
    for (size_t s = 0; s < w->n_steps; s++) {
        const uz_step *st = &w->steps[s];
        if (!st->main_line || st->node->move == UZ_MOVE_NULL)
            continue;
        if (grow_plies(a, a->n_plies + 1) != UZ_OK)
            return nomem(diag);
        const uz_position *pos = &w->before[s];
        uz_ply_analysis *p = &a->plies[a->n_plies];
        memset(p, 0, sizeof *p);
        p->fullmove = pos->fullmove;
        p->white = pos->side == UZ_WHITE;
        uz_san_format(pos, st->node->move, p->san);
        uz_move_to_uci(st->node->move, p->uci);
        p->n_legal = st->n_legal;
        p->played = st->played;
        p->fromto = 12;
        p->index = index_bits(st->n_legal);
        if (scored && st->n_legal >= 2) {
            price_step(a, w, s, p);
            if ((a->flags & UZ_ANALYSIS_KEEP_SAMPLES) &&
                uz_fit_samples_add(&a->samples, st->scores, st->n_legal, st->played) != 0)
                return nomem(diag);
        }
        a->step_of[a->n_plies++] = s;
    }
    if (scored && a->opening && uz_opening_add_walk(a->opening, w) != UZ_OK)
        return nomem(diag);
    return UZ_OK;
}

/* Room for n walks and their first-ply indexes. */
static uz_result grow_walks(uz_analysis *a, size_t n)
{
    if (n <= a->cap_walks)
        return UZ_OK;
    uz_walk *walks = realloc(a->walks, n * sizeof *walks);
    if (walks)
        a->walks = walks;
    size_t *first = realloc(a->first, (n + 1) * sizeof *first);
    if (first)
        a->first = first;
    if (!walks || !first)
        return UZ_ERR_NOMEM;
    a->cap_walks = n;
    return UZ_OK;
}

uz_result uz_analysis_run(uz_analysis *a, uz_game *const *games, size_t n, uz_diag *diag)
{
    clear_run(a);
    if (n == 0)
        return UZ_OK;
    if (grow_walks(a, n) != UZ_OK)
        return nomem(diag);
    bool scored = !(a->flags & UZ_ANALYSIS_NO_ORACLE);
    uz_result r = scored ? uz_analysis_oracle_prepare(&a->oracle, games, n, diag) : UZ_OK;
    if (r != UZ_OK)
        return r;
    for (; a->n_walks < n; a->n_walks++)
        if (uz_walk_init(&a->walks[a->n_walks], games[a->n_walks]) != UZ_OK)
            return nomem(diag);
    r = scored ? uz_analysis_oracle_score(&a->oracle, a->walks, n, diag) : uz_score_walks(NULL, a->walks, n, diag);
    for (size_t g = 0; r == UZ_OK && g < n; g++) {
        if (a->games_seen++ % UZ_ARCHIVE_BLOCK_GAMES == 0 && a->opening)
            uz_opening_reset(a->opening); /* a new block */
        a->first[g] = a->n_plies;
        r = add_walk(a, g, diag);
    }
    a->first[n] = a->n_plies;
    a->n_games = r == UZ_OK ? n : 0; /* a failed run has no results */
    return r;
}

size_t uz_analysis_plies(const uz_analysis *a, size_t game)
{
    return game < a->n_games ? a->first[game + 1] - a->first[game] : 0;
}

const uz_ply_analysis *uz_analysis_ply(const uz_analysis *a, size_t game, size_t ply)
{
    return ply < uz_analysis_plies(a, game) ? &a->plies[a->first[game] + ply] : NULL;
}

void uz_ply_score_text(int32_t score, char *out, size_t cap)
{
    if (score > UZ_SCORE_MATE_BOUND)
        snprintf(out, cap, "#%d", (int)(UZ_SCORE_MATE - score));
    else if (score < -UZ_SCORE_MATE_BOUND)
        snprintf(out, cap, "#-%d", (int)(score + UZ_SCORE_MATE));
    else
        snprintf(out, cap, "%+d", (int)score);
}

/* The walk and step of a scored ply, or UZ_ERR_ARG. */
static uz_result scored_step(const uz_analysis *a, size_t game, size_t ply, const uz_walk **w, size_t *step,
                             uz_diag *diag)
{
    const uz_ply_analysis *p = uz_analysis_ply(a, game, ply);
    if (!p || !p->scores) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "game %zu, ply %zu: no scored position", game, ply);
        return UZ_ERR_ARG;
    }
    *w = &a->walks[game];
    *step = a->step_of[a->first[game] + ply];
    return UZ_OK;
}

typedef struct ranked {
    int index;
    uint32_t freq;
} ranked;

static int by_freq_desc(const void *x, const void *y)
{
    const ranked *a = x, *b = y;
    if (a->freq != b->freq)
        return a->freq < b->freq ? 1 : -1;
    return a->index - b->index;
}

uz_result uz_analysis_moves(const uz_analysis *a, size_t game, size_t ply, uz_move_analysis *out, size_t cap,
                            uz_diag *diag)
{
    const uz_walk *w;
    size_t s;
    uz_result r = scored_step(a, game, ply, &w, &s, diag);
    if (r != UZ_OK)
        return r;
    const uz_step *st = &w->steps[s];
    int n = st->n_legal;
    if (cap < (size_t)n) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "room for %zu moves, %d legal", cap, n);
        return UZ_ERR_ARG;
    }
    const uz_move *legal = uz_walk_legal(w, s);
    uint32_t freq[UZ_MAX_MOVES], codes[UZ_MAX_MOVES];
    uint8_t lengths[UZ_MAX_MOVES];
    ranked order[UZ_MAX_MOVES];
    uint32_t total = uz_step_frequencies(&a->model, w, s, legal, st->scores, n, freq);
    uz_huffman_code(freq, n, lengths, codes);
    for (int i = 0; i < n; i++)
        order[i] = (ranked){i, freq[i]};
    qsort(order, (size_t)n, sizeof *order, by_freq_desc);
    for (int k = 0; k < n; k++) {
        int i = order[k].index;
        uz_move_analysis *m = &out[k];
        m->index = i;
        uz_san_format(&w->before[s], legal[i], m->san);
        uz_move_to_uci(legal[i], m->uci);
        m->score = st->scores[i];
        m->freq = freq[i];
        m->total = total;
        m->code = codes[i];
        m->code_len = lengths[i];
        m->range = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, i);
    }
    return UZ_OK;
}

uz_result uz_analysis_played_features(const uz_analysis *a, size_t game, size_t ply, uz_feature_part *parts,
                                      size_t cap, size_t *n_parts, int *n_hidden, double *hidden_bits, uz_diag *diag)
{
    static _Thread_local int32_t x[UZ_MAX_MOVES * UZ_PM_N_FEATURES];
    const uz_walk *w;
    size_t s;
    uz_result r = scored_step(a, game, ply, &w, &s, diag);
    if (r != UZ_OK)
        return r;
    const uz_player_model *pm = a->model.player;
    if (a->model.params.kind != UZ_MODEL_PLAYER || !pm) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "features: not the player model");
        return UZ_ERR_ARG;
    }
    const uz_step *st = &w->steps[s];
    uz_pm_game g;
    uz_pm_history h;
    uz_walk_pm_game(w, &g);
    uz_walk_pm_history(w, s, &h);
    uz_pm_features(&w->before[s], uz_walk_legal(w, s), st->scores, st->n_legal, &g, &h, x);
    const int32_t *f = x + (size_t)st->played * UZ_PM_N_FEATURES;
    double sum = 0;
    *n_parts = 0;
    for (int k = 0; k < UZ_PM_N_FEATURES; k++) {
        double c = (double)pm->weight[k] * f[k] / 65536.0;
        sum += c;
        if (f[k] != 0 && pm->weight[k] != 0 && *n_parts < cap)
            parts[(*n_parts)++] = (uz_feature_part){uz_pm_feature_name(k), f[k], c};
    }
    *n_hidden = (int)pm->n_hidden;
    *hidden_bits = 0;
    if (pm->n_hidden) { /* the rest of the move's score: the hidden layer's part */
        int64_t total;
        uz_pm_scores(pm, f, 1, NULL, &total);
        *hidden_bits = (double)total / 65536.0 - sum;
    }
    return UZ_OK;
}

/* The kept samples as a list (malloc'd), or NULL after an error. */
static uz_fit_sample *sample_list(const uz_analysis *a, uz_diag *diag)
{
    if (!(a->flags & UZ_ANALYSIS_KEEP_SAMPLES)) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "the analysis keeps no samples (UZ_ANALYSIS_KEEP_SAMPLES)");
        return NULL;
    }
    uz_fit_sample *samples = uz_fit_samples_list(&a->samples);
    if (!samples)
        nomem(diag);
    return samples;
}

uz_result uz_analysis_sweep_k(uz_analysis *a, const uint32_t *k_milli, size_t n, double *bits, uz_diag *diag)
{
    uz_fit_sample *samples = sample_list(a, diag);
    if (!samples)
        return diag->code;
    uz_result r = UZ_OK;
    for (size_t i = 0; r == UZ_OK && i < n; i++) {
        uz_model m;
        uz_model_params p = a->fit_start;
        p.k_milli = k_milli[i];
        if ((r = uz_model_init(&m, &p)) != UZ_OK)
            uz_diag_set(diag, r, 0, 0, "k: %u thousandths is out of range", (unsigned)k_milli[i]);
        else
            bits[i] = uz_model_total_cost(&m, samples, a->samples.n_items);
    }
    free(samples);
    return r;
}

uz_result uz_analysis_fit(uz_analysis *a, bool fit_floor, const uz_model_info **fitted, double *bits, uz_diag *diag)
{
    uz_fit_sample *samples = sample_list(a, diag);
    if (!samples)
        return diag->code;
    uz_model_params best = a->fit_start;
    *bits = 0;
    uz_result r = UZ_OK;
    if (a->samples.n_items &&
        (r = uz_model_fit(samples, a->samples.n_items, &a->fit_start, fit_floor, &best, bits)) != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "fitting failed");
    free(samples);
    uz_lib_model_describe(&best, &a->fitted_desc);
    *fitted = &a->fitted_desc.info;
    return r;
}

bool uz_game_is_chess960(const uz_game *game)
{
    return game->start.chess960 != 0;
}
