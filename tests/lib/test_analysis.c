/* The experimental analysis API (include/ucizip_experimental.h, uz_analysis_*) on corpus
 * games with the builtin oracle, against data it does not compute itself: each ply's move
 * is the game's own main line (uz_game_write_uci), its legal moves and played index those
 * of the perft-proven move generator on a replayed board, its scores those of the builtin
 * asked directly about that position, each cost the -log2 of its frequency, the Huffman
 * code complete; the sums over a file are what `ucizip stats --json` reports; opening
 * counts lower the cost of a game played a second time; misuse is refused.
 *
 *     test_analysis UCIZIP */
#include <math.h>

#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"
#include "chess/board.h"
#include "builtin/builtin_pool.h"
#include "oracle/oracle_spec.h"

#include "../common/uz_test.h"

#define N_GAMES 8

static uz_game *games[N_GAMES];
static char corpus_file[1024];

/* The first n games of path into games[]. */
static size_t read_games(const char *path, size_t n)
{
    uz_pgn_source *s = NULL;
    uz_diag d = {0};
    uz_pgn_source_policy policy = {.max_games = n};
    size_t got = 0;
    uz_result r = uz_pgn_source_open(&s, &path, 1, false, NULL, NULL, &d);
    while (r == UZ_OK && got < n && (r = uz_pgn_source_read(s, games[got], &policy, &d)) == UZ_OK)
        got++;
    uz_pgn_source_close(s);
    return got;
}

static uz_analysis *open_session(unsigned flags)
{
    uz_options o;
    uz_options_init(&o);
    o.engine = "builtin";
    o.workers = 2;
    uz_analysis *a = NULL;
    uz_diag d = {0};
    uz_result r = uz_analysis_open(&a, &o, flags, &d);
    CHECK(r == UZ_OK, "%s", d.message);
    return a;
}

static double ceil_log2(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

/* -log2 p of the unfloored p ~ k^(score/100), computed here (no mate scores given). */
static double ideal(const int32_t *scores, int n, int played, double k)
{
    double best = -1e18, sum = 0;
    for (int i = 0; i < n; i++)
        best = scores[i] > best ? scores[i] : best;
    for (int i = 0; i < n; i++)
        sum += pow(k, (scores[i] - best) / 100.0);
    return -log2(pow(k, (scores[played] - best) / 100.0) / sum);
}

/* The legal moves of a scored ply: frequencies that add up, a complete prefix code,
 * likeliest first, each cost -log2 of its probability. Returns the played move's entry. */
static const uz_move_analysis *check_moves(const uz_analysis *a, size_t g, size_t i, const uz_ply_analysis *p,
                                           bool first_in_block)
{
    static uz_move_analysis m[UZ_ANALYSIS_MAX_MOVES];
    uz_diag d = {0};
    CHECK(uz_analysis_moves(a, g, i, m, UZ_ANALYSIS_MAX_MOVES, &d) == UZ_OK, "%s", d.message);
    uint64_t sum = 0;
    double kraft = 0;
    const uz_move_analysis *played = NULL;
    for (int k = 0; k < p->n_legal; k++) {
        sum += m[k].freq;
        kraft += ldexp(1.0, -m[k].code_len);
        CHECK(k == 0 || m[k].freq <= m[k - 1].freq, "likeliest first");
        CHECK(fabs(m[k].range + log2((double)m[k].freq / m[k].total)) < 1e-6, "range cost is -log2 p");
        CHECK(m[k].score == p->scores[m[k].index]);
        if (m[k].index == p->played) {
            played = &m[k];
            CHECK(strcmp(m[k].uci, p->uci) == 0 && strcmp(m[k].san, p->san) == 0);
            if (first_in_block) /* (the rank is the one with the opening counts) */
                CHECK(p->rank == k + 1 || m[k - 1].freq == m[k].freq, "rank %d at %d", p->rank, k + 1);
        }
    }
    CHECK(sum == m[0].total && fabs(kraft - 1.0) < 1e-9, "frequencies add up, the code is complete");
    CHECK(played != NULL);
    return played;
}

static void noop(uz_query *q, void *user)
{
    (void)q, (void)user;
}

/* Replays game g of the session's last run on a board: every ply against the move
 * generator and the builtin asked directly. */
static void check_game(const uz_analysis *a, size_t g, uz_oracle *direct, double k)
{
    char *line = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&line, &len);
    CHECK(mem && uz_game_write_uci(mem, games[g]) == UZ_OK);
    fclose(mem);
    CHECK(strncmp(line, "fen ", 4) != 0, "games from the start position");
    uz_position pos;
    uz_position_startpos(&pos);
    static uz_query q;
    size_t plies = uz_analysis_plies(a, g), i = 0;
    CHECK(plies > 0 && plies == uz_game_plies(games[g]), "game %zu: %zu plies", g, plies);
    for (char *save = NULL, *tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save), i++) {
        const uz_ply_analysis *p = uz_analysis_ply(a, g, i);
        CHECK(p && strcmp(p->uci, tok) == 0, "game %zu ply %zu: %s", g, i, tok);
        if (!p)
            break;
        uz_move move;
        CHECK(uz_move_from_uci(&pos, tok, &move) == UZ_OK);
        q.pos = pos;
        q.n_moves = uz_generate_legal(&pos, q.moves);
        int played = -1;
        for (int j = 0; j < q.n_moves; j++)
            played = q.moves[j] == move ? j : played;
        CHECK(p->n_legal == q.n_moves && p->played == played && p->fullmove == pos.fullmove &&
              p->white == (pos.side == UZ_WHITE));
        CHECK(p->fromto == 12 && p->index == ceil_log2(q.n_moves));
        CHECK((p->scores != NULL) == (q.n_moves >= 2), "scored when there is a choice");
        if (p->scores) {
            uz_diag d = {0};
            q.done = noop;
            uz_oracle_submit(direct, &q);
            CHECK(uz_oracle_run(direct, &d) == UZ_OK && q.status == UZ_OK);
            CHECK(memcmp(q.scores, p->scores, sizeof *p->scores * (size_t)q.n_moves) == 0, "the builtin's scores");
            const uz_move_analysis *m = check_moves(a, g, i, p, g == 0);
            if (g == 0) /* no earlier game in the block: no opening counts */
                CHECK(p->range == p->range_no_counts && fabs(p->range - m->range) < 1e-12);
            CHECK(p->reference > 0 && p->huffman >= 1 && p->range > 0);
            bool mate = false;
            for (int j = 0; j < q.n_moves; j++)
                mate |= abs(q.scores[j]) > 50000;
            if (!mate)
                CHECK(fabs(p->ideal - ideal(q.scores, q.n_moves, played, k)) < 1e-6, "ideal cost %g, %g here", p->ideal, ideal(q.scores, q.n_moves, played, k));
        }
        uz_undo undo;
        uz_make_move(&pos, move, &undo);
    }
    CHECK(i == plies, "every ply is a move of the main line");
    free(line);
}

/* The sums of the bits object of `ucizip stats --json` for the first n games of the file. */
static int stats_bits(const char *ucizip, size_t n, double bits[6])
{
    char cmd[3000];
    snprintf(cmd, sizeof cmd, "'%s' stats '%s' --engine builtin --json --max-games %zu --workers 2", ucizip,
             corpus_file, n);
    FILE *p = popen(cmd, "r");
    static char out[1 << 16];
    size_t len = p ? fread(out, 1, sizeof out - 1, p) : 0;
    out[len] = 0;
    if (!p || pclose(p) != 0)
        return -1;
    const char *b = strstr(out, "\"bits\":{");
    const char *names[6] = {"fromto", "index", "huffman", "range", "ideal", "reference"};
    for (int m = 0; b && m < 6; m++) {
        char key[32];
        snprintf(key, sizeof key, "\"%s\":", names[m]);
        const char *at = strstr(b, key);
        if (!at)
            return -1;
        bits[m] = strtod(at + strlen(key), NULL);
    }
    return b ? 0 : -1;
}

static void check_against_stats(const uz_analysis *a, size_t n, const char *ucizip)
{
    double sum[6] = {0}, want[6];
    for (size_t g = 0; g < n; g++)
        for (size_t i = 0; i < uz_analysis_plies(a, g); i++) {
            const uz_ply_analysis *p = uz_analysis_ply(a, g, i);
            double v[6] = {p->fromto, p->index, p->huffman, p->range, p->ideal, p->reference};
            for (int m = 0; m < 6; m++)
                sum[m] += v[m];
        }
    CHECK(stats_bits(ucizip, n, want) == 0, "ucizip stats --json runs");
    for (int m = 0; m < 6; m++)
        CHECK(fabs(sum[m] - want[m]) <= 0.051, "method %d: %.3f here, %.1f from stats", m, sum[m], want[m]);
}

/* The same game twice in a block: its second time costs less where the counts apply. */
static void check_opening_counts(void)
{
    uz_analysis *a = open_session(0);
    uz_game *twice[2] = {games[0], games[0]};
    uz_diag d = {0};
    CHECK(a && uz_analysis_has_opening_counts(a) && uz_analysis_block_games(a) == UZ_BLOCK_GAMES_DEFAULT);
    CHECK(uz_analysis_run(a, twice, 2, &d) == UZ_OK, "%s", d.message);
    int lower = 0;
    for (size_t i = 0; i < uz_analysis_plies(a, 1); i++) {
        const uz_ply_analysis *first = uz_analysis_ply(a, 0, i), *second = uz_analysis_ply(a, 1, i);
        if (!second->scores)
            continue;
        CHECK(second->range_no_counts == first->range_no_counts);
        if (i < 32)
            lower += second->range < second->range_no_counts;
        else
            CHECK(second->range == second->range_no_counts, "no counts past 32 plies");
    }
    CHECK(lower > 16, "%d of the first 32 plies cheaper the second time", lower);
    uz_analysis_close(a);
}

/* No oracle: the legal moves alone; and what the API refuses. */
static void check_without_oracle_and_misuse(const uz_analysis *scored)
{
    uz_analysis *a = open_session(UZ_ANALYSIS_NO_ORACLE);
    uz_diag d = {0};
    CHECK(a && uz_analysis_run(a, games, 1, &d) == UZ_OK);
    CHECK(uz_analysis_plies(a, 0) == uz_analysis_plies(scored, 0) && strcmp(uz_analysis_engine_name(a), "") == 0);
    for (size_t i = 0; i < uz_analysis_plies(a, 0); i++) {
        const uz_ply_analysis *p = uz_analysis_ply(a, 0, i), *q = uz_analysis_ply(scored, 0, i);
        CHECK(!p->scores && p->n_legal == q->n_legal && p->played == q->played && p->index == q->index);
    }
    uz_move_analysis m[UZ_ANALYSIS_MAX_MOVES];
    CHECK(uz_analysis_moves(a, 0, 0, m, UZ_ANALYSIS_MAX_MOVES, &d) == UZ_ERR_ARG, "no scores, no moves");
    CHECK(uz_analysis_ply(a, 0, uz_analysis_plies(a, 0)) == NULL && uz_analysis_ply(a, 1, 0) == NULL);
    double bits;
    uint32_t k = 20000;
    CHECK(uz_analysis_sweep_k(a, &k, 1, &bits, &d) == UZ_ERR_ARG, "no samples kept");
    CHECK(uz_analysis_run(a, NULL, 0, &d) == UZ_OK && uz_analysis_plies(a, 0) == 0, "an empty run");
    uz_analysis_close(a);
    CHECK(uz_analysis_moves(scored, 0, 0, m, 1, &d) == UZ_ERR_ARG, "a list too short is refused");

    uz_options o;
    uz_options_init(&o);
    o.engine = "builtin";
    o.nodes = 100;
    CHECK(uz_analysis_open(&a, &o, 0, &d) == UZ_ERR_ARG && !a, "the builtin takes no node limit");
    uz_options_init(&o);
    o.model = "nonsense";
    CHECK(uz_analysis_open(&a, &o, UZ_ANALYSIS_NO_ORACLE, &d) == UZ_ERR_ARG && !a);
}

/* Sweep and fit over the kept positions; what `ucizip engine` shows. */
static void check_fit_and_info(uz_analysis *a)
{
    uint32_t ks[3] = {5000, 20000, 80000};
    double bits[3], fitted_bits;
    const uz_model_info *fitted = NULL;
    uz_diag d = {0};
    CHECK(uz_analysis_sweep_k(a, ks, 3, bits, &d) == UZ_OK, "%s", d.message);
    CHECK(bits[0] > 0 && bits[1] > 0 && bits[2] > 0 && bits[0] != bits[1]);
    CHECK(uz_analysis_fit(a, true, &fitted, &fitted_bits, &d) == UZ_OK, "%s", d.message);
    CHECK(fitted && strcmp(fitted->kind, "rank") == 0 && fitted_bits > 0 && fitted_bits <= bits[1] + 1e-6,
          "fitted %.1f bits, k=20 %.1f", fitted_bits, bits[1]);

    uz_engine_info e;
    uz_analysis_engine_info(a, &e);
    char desc[256];
    uz_analysis_describe(a, desc, sizeof desc);
    CHECK(e.builtin && e.builtin_version >= 1 && strncmp(e.name, "ucizip builtin-", 15) == 0 &&
          strncmp(desc, e.name, strlen(e.name)) == 0 && strcmp(e.fingerprint, uz_analysis_fingerprint(a)) == 0);
    CHECK(strcmp(uz_analysis_model(a)->kind, "player") == 0 && strncmp(uz_analysis_model(a)->text, "player v", 8) == 0);
    CHECK(uz_analysis_score_fen(a, "8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 w - - 0 42", &d) == UZ_OK);
    CHECK(uz_analysis_score_fen(a, "not a fen", &d) != UZ_OK);
    CHECK(uz_engine_is_builtin("builtin") && uz_engine_is_builtin("builtin-1") && !uz_engine_is_builtin("stockfish"));
}

/* A Chess960 game is scored by the builtin too. */
static void check_chess960(void)
{
    char path[1024];
    if (!corpus_path("cat5_chess960_tcec_frc.pgn", path))
        return;
    size_t n = read_games(path, 1);
    CHECK(n == 1 && uz_game_is_chess960(games[0]));
    uz_analysis *a = open_session(0);
    uz_diag d = {0};
    CHECK(a && uz_analysis_run(a, games, 1, &d) == UZ_OK, "%s", d.message);
    CHECK(!uz_game_is_text(games[0]) && uz_analysis_plies(a, 0) == uz_game_plies(games[0]));
    CHECK(uz_analysis_ply(a, 0, 0) && uz_analysis_ply(a, 0, 0)->scores, "Chess960 moves scored");
    uz_analysis_close(a);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_analysis UCIZIP\n");
        return 2;
    }
    if (!corpus_path("cat2_tata_steel_2022_masters.pgn", corpus_file))
        return UZ_TEST_SKIP;
    uz_diag d = {0};
    for (size_t i = 0; i < N_GAMES; i++)
        CHECK(uz_game_new(&games[i], &d) == UZ_OK);
    CHECK(read_games(corpus_file, N_GAMES) == N_GAMES);
    uz_analysis *a = open_session(UZ_ANALYSIS_KEEP_SAMPLES);
    CHECK(a != NULL);
    if (!a)
        return test_finish();
    CHECK(uz_analysis_run(a, games, N_GAMES, &d) == UZ_OK, "%s", d.message);
    check_against_stats(a, N_GAMES, argv[1]);

    uz_builtin_pool *direct = NULL;
    int version;
    CHECK(uz_oracle_spec_builtin("builtin", &version) && uz_builtin_pool_create(&direct, version, 0, 1, &d) == UZ_OK);
    double k = strtod(uz_analysis_model(a)->k, NULL);
    for (size_t g = 0; g < N_GAMES; g++)
        check_game(a, g, uz_builtin_pool_oracle(direct), k);
    uz_builtin_pool_destroy(direct);

    check_fit_and_info(a);
    check_without_oracle_and_misuse(a);
    check_opening_counts();
    uz_analysis_close(a);
    check_chess960();
    for (size_t i = 0; i < N_GAMES; i++)
        uz_game_free(games[i]);
    return test_finish();
}
