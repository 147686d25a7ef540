/* The player model's fast path against its original dense code (pm_reference.c): for
 * every position of games from the corpus (main lines and variations, standard chess and
 * Chess960, games from a FEN), with the history the codec gives each position and
 * made-up engine scores of several kinds (spread, tied, mates both ways, clamped), the
 * features, the scores (every built-in weight set, and made-up sets up to the largest
 * hidden layer and weights at their limits, with and without an ablation mask) and the
 * frequencies must be the same bits. Any difference is an archive format break. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "model/move_model.h"
#include "gamecode/gamecode.h"
#include "model/player_model.h"
#include "model/policy.h"
#include "pgn/pgn.h"
#include "pm_reference.h"

static uint64_t mix(uint64_t z) /* splitmix64's finaliser: the test's made-up numbers */
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Engine scores of one of five kinds, chosen by the position's key. */
static void made_up_scores(uint64_t key, int n, int32_t *scores)
{
    const int kind = (int)(mix(key) % 5);
    for (int i = 0; i < n; i++) {
        uint64_t r = mix(key ^ (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ULL);
        switch (kind) {
        case 0: scores[i] = (int32_t)(r % 801) - 400; break;              /* spread */
        case 1: scores[i] = (int32_t)(r % 5) * 20 - 40; break;            /* many ties */
        case 2: scores[i] = 17; break;                                    /* all tied */
        case 3:                                                           /* mates both ways */
            scores[i] = r % 4 == 0   ? UZ_SCORE_MATE - (int32_t)(r >> 8) % 60
                        : r % 4 == 1 ? -UZ_SCORE_MATE + (int32_t)(r >> 8) % 60
                                     : (int32_t)(r >> 8) % 3001 - 1500;
            break;
        default: scores[i] = (int32_t)((r >> 4) % 4001) - 2000; break;    /* beyond the clamp */
        }
    }
}

/* The game context from the tags, or made up (every rating and time-control case). */
static void game_context(const uz_walk *w, uint64_t key, uz_pm_game *g)
{
    static const int base_times[] = {0, 60, 599, 600, 3599, 3600, 7200};
    uint64_t r = mix(key + 12345);
    if (r % 3 == 0) {
        uz_walk_pm_game(w, g);
        return;
    }
    g->elo[0] = r % 5 == 0 ? 0 : 100 + (int)((r >> 8) % 3901);
    g->elo[1] = r % 7 == 0 ? 0 : 100 + (int)((r >> 20) % 3901);
    g->base_time = base_times[(r >> 40) % 7];
}

/* Weight sets: the built-in ones and made-up ones with 0, 1 and 16 hidden units, their
 * weights up to the parser's limits (|weight| < 2^24, |hidden weight| < 2^40), the last
 * also with square tables of every bucket and the most board units. */
#define N_MADE_UP 3
static uz_player_model made_up[N_MADE_UP];

static void make_models(void)
{
    static const int hidden[N_MADE_UP] = {0, 1, UZ_PM_MAX_HIDDEN};
    for (int s = 0; s < N_MADE_UP; s++) {
        uz_player_model *m = &made_up[s];
        memset(m, 0, sizeof *m);
        m->version = 100 + (uint32_t)s;
        m->floor_q16 = 66;
        m->n_hidden = hidden[s];
        for (int f = 0; f < UZ_PM_N_FEATURES; f++) {
            uint64_t r = mix((uint64_t)s * 1000 + (uint64_t)f);
            m->weight[f] = (int32_t)(r % ((1u << 25) - 1)) - ((1 << 24) - 1);
        }
        for (int j = 0; j < m->n_hidden; j++) {
            uint64_t r = mix((uint64_t)s * 7777 + (uint64_t)j);
            m->hidden_bias[j] = (int64_t)(r % ((1ull << 41) - 1)) - (((int64_t)1 << 40) - 1);
            m->hidden_out[j] = (int32_t)((r >> 20) % 400001) - 200000;
            for (int f = 0; f < UZ_PM_N_FEATURES; f++) {
                uint64_t q = mix(r + (uint64_t)f);
                /* mostly modest (so the units are not all saturated), some at the limit */
                int64_t lim = q % 8 == 0 ? ((int64_t)1 << 40) - 1 : (int64_t)1 << 31;
                m->hidden_weight[j][f] = (int64_t)(q % (2 * (uint64_t)lim + 1)) - lim;
            }
        }
    }
    static const int32_t bounds[UZ_PM_MAX_SQUARE_BUCKETS - 1] = {6, 16, 40, 80, 160};
    uz_player_model *m = &made_up[N_MADE_UP - 1];
    m->n_square_buckets = UZ_PM_MAX_SQUARE_BUCKETS;
    memcpy(m->square_bound, bounds, sizeof bounds);
    for (int b = 0; b < UZ_PM_MAX_SQUARE_BUCKETS; b++)
        for (int p = 0; p < UZ_PM_PIECE_TYPES; p++)
            for (int sq = 0; sq < 64; sq++) {
                uint64_t r = mix((uint64_t)(b * 1000 + p * 64 + sq));
                m->square_to[b][p][sq] = (int32_t)(r % ((1u << 25) - 1)) - ((1 << 24) - 1);
                m->square_from[b][p][sq] = (int32_t)((r >> 32) % ((1u << 25) - 1)) - ((1 << 24) - 1);
            }
    m->n_board_units = UZ_PM_MAX_BOARD_UNITS;
    for (int j = 0; j < UZ_PM_MAX_BOARD_UNITS; j++) {
        uint64_t r = mix((uint64_t)j + 99999);
        m->board_bias[j] = (int32_t)(r % ((1u << 25) - 1)) - ((1 << 24) - 1);
        m->board_out[j] = (int32_t)((r >> 32) % ((1u << 25) - 1)) - ((1 << 24) - 1);
        for (int sq = 0; sq < 64; sq++) {
            /* mostly modest (so the units are not all saturated), some at the limit */
            for (int c = 0; c < UZ_PM_PIECE_CODES; c++) {
                uint64_t q = mix(r + (uint64_t)(c * 64 + sq));
                int32_t lim = q % 8 == 0 ? (1 << 24) - 1 : 1 << 14;
                m->board_piece[c][sq][j] = (int32_t)((q >> 8) % (2 * (uint64_t)lim + 1)) - lim;
            }
            for (int t = 0; t < UZ_PM_PIECE_TYPES; t++) {
                uint64_t q = mix(r ^ (uint64_t)(t * 64 + sq + 1000));
                int32_t lim = q % 8 == 0 ? (1 << 24) - 1 : 1 << 15;
                m->board_to[t][sq][j] = (int32_t)((q >> 8) % (2 * (uint64_t)lim + 1)) - lim;
                m->board_from[t][sq][j] = (int32_t)((q >> 36) % (2 * (uint64_t)lim + 1)) - lim;
            }
        }
    }
}

/* The square tables' part, written out plainly: the ply's bucket by a linear search,
 * ranks counted from the mover's side. */
static void ref_square_scores(const uz_player_model *m, const uz_position *pos, const uz_move *legal, int n,
                              int64_t *s)
{
    if (!m->n_square_buckets)
        return;
    int ply = 2 * (pos->fullmove - 1) + (pos->side == UZ_BLACK), bucket = 0;
    for (int k = 0; k + 1 < m->n_square_buckets; k++)
        if (ply >= m->square_bound[k])
            bucket = k + 1;
    for (int i = 0; i < n; i++) {
        int from = legal[i] & 63, to = (legal[i] >> 6) & 63, piece = pos->squares[from] & 7;
        if (pos->side == UZ_BLACK) {
            from = (7 - from / 8) * 8 + from % 8;
            to = (7 - to / 8) * 8 + to % 8;
        }
        s[i] += m->square_to[bucket][piece - 1][to] + m->square_from[bucket][piece - 1][from];
    }
}

/* The policy's part: beta x each move's logit (the logits themselves are checked against
 * their own reference, scripts/policy_net.py, by the test policy). */
static void ref_policy_scores(const uz_player_model *m, const uz_position *pos, const uz_move *legal, int n,
                              int64_t *s)
{
    if (!m->policy_version)
        return;
    int32_t logit[UZ_MAX_MOVES];
    uz_policy_logits(uz_policy_version(m->policy_version), pos, legal, n, logit);
    for (int i = 0; i < n; i++)
        s[i] += (int64_t)m->policy_beta * logit[i] / 65536;
}

typedef struct totals {
    long positions, moves, mismatches;
} totals;

static int32_t x_new[UZ_MAX_MOVES * UZ_PM_N_FEATURES], x_ref[UZ_MAX_MOVES * UZ_PM_N_FEATURES];

/* Every check of one position under one weight set. */
static void check_model(const uz_player_model *m, const uz_position *pos, const uz_move *legal, const int32_t *scores,
                        int n, const uz_pm_game *g, const uz_pm_history *h, totals *t, const char *where)
{
    int64_t s_ref[UZ_MAX_MOVES], s_dense[UZ_MAX_MOVES], s_fast[UZ_MAX_MOVES];
    uint32_t f_ref[UZ_MAX_MOVES], f_fast[UZ_MAX_MOVES];
    bool mask[UZ_PM_N_FEATURES];
    ref_pm_scores(m, x_ref, n, NULL, s_ref);
    ref_square_scores(m, pos, legal, n, s_ref);
    ref_pm_board_units(m, pos, legal, n, s_ref);
    ref_policy_scores(m, pos, legal, n, s_ref);
    uz_pm_scores(m, x_new, n, NULL, s_dense);
    uz_pm_board_scores(m, pos, legal, n, s_dense);
    uz_pm_move_scores(m, pos, legal, scores, n, g, h, s_fast);
    bool same = memcmp(s_ref, s_dense, (size_t)n * sizeof *s_ref) == 0 &&
                memcmp(s_ref, s_fast, (size_t)n * sizeof *s_ref) == 0;
    if (n <= UZ_MODEL_MAX_MOVES) {
        uint32_t a = uz_pm_frequencies(m, s_ref, n, f_ref), b = uz_pm_frequencies(m, s_fast, n, f_fast);
        same = same && a == b && memcmp(f_ref, f_fast, (size_t)n * sizeof *f_ref) == 0;
    }
    uint64_t r = mix(pos->key ^ m->version);
    for (int f = 0; f < UZ_PM_N_FEATURES; f++)
        mask[f] = (r >> (f % 64)) & 1;
    ref_pm_scores(m, x_ref, n, mask, s_ref);
    uz_pm_scores(m, x_new, n, mask, s_dense);
    same = same && memcmp(s_ref, s_dense, (size_t)n * sizeof *s_ref) == 0;
    if (!same && t->mismatches++ < 10)
        CHECK(false, "%s: weight set %u: the scores differ from the reference", where, m->version);
}

static void check_position(const uz_walk *w, size_t s, totals *t, const char *where)
{
    const uz_position *pos = &w->before[s];
    const uz_move *legal = uz_walk_legal(w, s);
    const int n = w->steps[s].n_legal;
    int32_t scores[UZ_MAX_MOVES];
    uz_pm_game g;
    uz_pm_history h;
    made_up_scores(pos->key, n, scores);
    game_context(w, pos->key, &g);
    uz_walk_pm_history(w, s, &h);
    ref_pm_features(pos, legal, scores, n, &g, &h, x_ref);
    uz_pm_features(pos, legal, scores, n, &g, &h, x_new);
    if (memcmp(x_ref, x_new, (size_t)n * UZ_PM_N_FEATURES * sizeof *x_ref) != 0 && t->mismatches++ < 10)
        CHECK(false, "%s: the features differ from the reference", where);
    for (int i = 0; i < uz_pm_builtin_count; i++)
        check_model(&uz_pm_builtin_sets[i], pos, legal, scores, n, &g, &h, t, where);
    for (int i = 0; i < N_MADE_UP; i++)
        check_model(&made_up[i], pos, legal, scores, n, &g, &h, t, where);
    t->positions++;
    t->moves += n;
}

/* The first max_games games of a corpus file (every position of each). */
static void check_file(const char *file, int max_games, totals *t)
{
    char path[4096];
    corpus_path(file, path);
    FILE *in = fopen(path, "rb");
    CHECK(in != NULL, "%s: cannot open", path);
    if (!in)
        return;
    uz_pgn_reader *rd = uz_pgn_reader_open(in, path);
    uz_game game;
    uz_game_init(&game);
    uz_diag diag = {0};
    int games = 0;
    while (games < max_games) {
        uz_result r = uz_pgn_read_game(rd, &game, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK || game.verbatim)
            continue;
        uz_walk w;
        CHECK(uz_walk_init(&w, &game) == UZ_OK, "%s: game %d: walk", file, games + 1);
        bool ok = true;
        while (ok && w.resolved < w.n_steps)
            ok = uz_walk_resolve_next(&w) == UZ_OK;
        CHECK(ok, "%s: game %d: every step resolves", file, games + 1);
        for (size_t s = 0; ok && s < w.n_steps; s++) {
            if (w.steps[s].n_legal < 1)
                continue; /* a null move */
            char where[256];
            snprintf(where, sizeof where, "%s: game %d, step %zu", file, games + 1, s);
            check_position(&w, s, t, where);
        }
        uz_walk_free(&w);
        games++;
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(in);
}

int main(void)
{
    const bool short_run = getenv("UZ_TEST_SHORT") != NULL;
    make_models();
    totals t = {0, 0, 0};
    check_file("cat1_lichess_rated_blitz_rapid.pgn", short_run ? 20 : 150, &t);
    check_file("cat2_kasparov_career_crlf.pgn", short_run ? 5 : 40, &t);
    check_file("cat3_sirius_cutechess_selfplay.pgn", short_run ? 3 : 20, &t);
    check_file("cat4_pychess_lichess_studies.pgn", short_run ? 10 : 1000, &t); /* variations */
    check_file("cat4_pychess_mate_in_n_fen.pgn", 1000, &t);                    /* from a FEN */
    check_file("cat4_handwritten_edge_cases.pgn", 1000, &t);
    check_file("cat5_chess960_tcec_frc.pgn", short_run ? 3 : 20, &t);
    printf("%ld positions, %ld moves, %d weight sets each: %ld mismatches\n", t.positions, t.moves,
           uz_pm_builtin_count + N_MADE_UP, t.mismatches);
    CHECK(t.positions > (short_run ? 2000 : 20000), "enough positions checked (%ld)", t.positions);
    CHECK(t.mismatches == 0, "the fast player model matches the reference everywhere");
    return test_finish();
}
