/* The builtin search on real positions: scores do not depend on what was scored before
 * (order, other positions, a fresh searcher, the table's generation wrapping); a move
 * scores mate in 1 exactly when it checkmates; winning a hanging queen scores far above
 * every other move; mated-in-1 is seen at depth 2; positions with very many moves stay
 * within the score range and the node bound; bad versions and depths are refused. Every
 * version is tested (builtin-2 reports moves far below the best at a floor, doc/builtin.md). */
#include "builtin_test.h"
#include "engine/engine.h"

static int version; /* the version under test */

/* Scores of every position of p with a new searcher, in the order given by order[]
 * (NULL: as stored), into out (n * UZ_MAX_MOVES). */
static void score_in_order(const test_positions *p, int depth, const size_t *order, int32_t *out)
{
    uz_builtin *b;
    CHECK(uz_builtin_create(&b, version, depth, NULL) == UZ_OK);
    uz_move moves[UZ_MAX_MOVES];
    for (size_t k = 0; k < p->n; k++) {
        size_t i = order ? order[k] : k;
        int n = uz_generate_legal(&p->items[i], moves);
        uz_builtin_score_moves(b, &p->items[i], moves, n, out + i * UZ_MAX_MOVES);
    }
    uz_builtin_destroy(b);
}

static bool same_scores(const test_positions *p, const int32_t *a, const int32_t *b)
{
    uz_move moves[UZ_MAX_MOVES];
    for (size_t i = 0; i < p->n; i++) {
        int n = uz_generate_legal(&p->items[i], moves);
        if (memcmp(a + i * UZ_MAX_MOVES, b + i * UZ_MAX_MOVES, (size_t)n * sizeof *a) != 0)
            return false;
    }
    return true;
}

static void test_determinism(const test_positions *p, int depth)
{
    size_t n = p->n;
    int32_t *forward = calloc(n * UZ_MAX_MOVES, sizeof *forward);
    int32_t *other = calloc(n * UZ_MAX_MOVES, sizeof *other);
    size_t *order = malloc(n * sizeof *order);
    score_in_order(p, depth, NULL, forward);
    for (size_t i = 0; i < n; i++)
        order[i] = n - 1 - i;
    score_in_order(p, depth, order, other);
    CHECK(same_scores(p, forward, other), "depth %d: reverse order changes scores", depth);
    /* A shuffled order (a fixed LCG), each position after an unrelated one. */
    uint64_t x = 12345;
    for (size_t i = n - 1; i > 0; i--) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        size_t j = (size_t)(x >> 33) % (i + 1), t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    memset(other, 0, n * UZ_MAX_MOVES * sizeof *other);
    score_in_order(p, depth, order, other);
    CHECK(same_scores(p, forward, other), "depth %d: shuffled order changes scores", depth);
    /* Every position with a fresh searcher. */
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    bool fresh_same = true;
    for (size_t i = 0; i < n; i += 7) {
        uz_builtin *b;
        CHECK(uz_builtin_create(&b, version, depth, NULL) == UZ_OK);
        int k = uz_generate_legal(&p->items[i], moves);
        uz_builtin_score_moves(b, &p->items[i], moves, k, scores);
        fresh_same &= memcmp(scores, forward + i * UZ_MAX_MOVES, (size_t)k * sizeof *scores) == 0;
        uz_builtin_destroy(b);
    }
    CHECK(fresh_same, "depth %d: a fresh searcher gives other scores", depth);
    free(forward);
    free(other);
    free(order);
}

/* The table's generation tag wraps after 65,535 positions: a position scored before and
 * after the wrap (with a cheap position scored in between) gets the same scores. */
static void test_generation_wrap(const uz_position *pos)
{
    uz_builtin *b;
    CHECK(uz_builtin_create(&b, version, 2, NULL) == UZ_OK);
    uz_move moves[UZ_MAX_MOVES], small_moves[UZ_MAX_MOVES];
    int32_t before[UZ_MAX_MOVES], after[UZ_MAX_MOVES], scratch[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    uz_builtin_score_moves(b, pos, moves, n, before);
    uz_position small;
    CHECK(uz_position_from_fen(&small, "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1", NULL) == UZ_OK);
    int k = uz_generate_legal(&small, small_moves);
    for (int i = 0; i < 70000; i++)
        uz_builtin_score_moves(b, &small, small_moves, k, scratch);
    uz_builtin_score_moves(b, pos, moves, n, after);
    CHECK(memcmp(before, after, (size_t)n * sizeof *before) == 0, "scores change across the generation wrap");
    uz_builtin_destroy(b);
}

/* Mate in 1 exactly for the checkmating moves; every score within the convention. */
static void test_mates_and_bounds(const test_positions *p, int depth)
{
    uz_builtin *b;
    CHECK(uz_builtin_create(&b, version, depth, NULL) == UZ_OK);
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    int mates = 0, wrong = 0, out_of_range = 0;
    for (size_t i = 0; i < p->n; i++) {
        int n = uz_generate_legal(&p->items[i], moves);
        uz_builtin_score_moves(b, &p->items[i], moves, n, scores);
        for (int k = 0; k < n; k++) {
            uz_position after = p->items[i];
            uz_undo undo;
            uz_make_move(&after, moves[k], &undo);
            bool mates_now = uz_position_status(&after) == UZ_STATUS_CHECKMATE;
            mates += mates_now;
            wrong += mates_now != (scores[k] == UZ_SCORE_MATE - 1);
            bool is_mate = scores[k] > UZ_SCORE_CP_MAX || scores[k] < -UZ_SCORE_CP_MAX;
            out_of_range += scores[k] > UZ_SCORE_MATE - 1 || scores[k] < -UZ_SCORE_MATE + 1 ||
                            (is_mate && scores[k] < UZ_SCORE_MATE - 64 && scores[k] > -UZ_SCORE_MATE + 64);
        }
    }
    printf("depth %d: %zu positions, %d mating moves\n", depth, p->n, mates);
    CHECK(mates > 0, "no checkmating move among the test positions");
    CHECK(wrong == 0, "depth %d: %d moves where mate in 1 and the score disagree", depth, wrong);
    CHECK(out_of_range == 0, "depth %d: %d scores outside the convention", depth, out_of_range);
    uz_builtin_destroy(b);
}

static int32_t score_of(uz_builtin *b, const char *fen, const char *uci, int32_t *best_other)
{
    uz_position pos;
    uz_move moves[UZ_MAX_MOVES], wanted = UZ_MOVE_NONE;
    int32_t scores[UZ_MAX_MOVES];
    CHECK(uz_position_from_fen(&pos, fen, NULL) == UZ_OK, "%s", fen);
    CHECK(uz_move_from_uci(&pos, uci, &wanted) == UZ_OK, "%s in %s", uci, fen);
    int n = uz_generate_legal(&pos, moves);
    uz_builtin_score_moves(b, &pos, moves, n, scores);
    int32_t found = 0;
    *best_other = -UZ_SCORE_MATE;
    for (int i = 0; i < n; i++) {
        if (moves[i] == wanted)
            found = scores[i];
        else if (scores[i] > *best_other)
            *best_other = scores[i];
    }
    return found;
}

static void test_tactics(void)
{
    uz_builtin *b1, *b2;
    CHECK(uz_builtin_create(&b1, version, 1, NULL) == UZ_OK && uz_builtin_create(&b2, version, 2, NULL) == UZ_OK);
    static const struct {
        const char *fen, *move;
    } hanging[] = {
        /* the queen on g5 en prise to the bishop on c1, on d4 to the pawn on e3 */
        {"rnb1kbnr/pppp1ppp/8/4p1q1/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 1 3", "c1g5"},
        {"rnb1kbnr/pppp1ppp/8/4p3/3q4/4P3/PPPP1PPP/RNBQKBNR w KQkq - 0 3", "e3d4"},
        /* black takes a queen left on h5 by the knight on f6 */
        {"rnbqkb1r/pppp1ppp/5n2/4p2Q/4P3/8/PPPP1PPP/RNB1KBNR b KQkq - 3 3", "f6h5"},
    };
    /* builtin-2 reports every move more than 400 below the best at best - 401 */
    int32_t gap = version == 1 ? 500 : 400;
    for (size_t i = 0; i < sizeof hanging / sizeof hanging[0]; i++) {
        for (int d = 1; d <= 2; d++) {
            int32_t other, s = score_of(d == 1 ? b1 : b2, hanging[i].fen, hanging[i].move, &other);
            CHECK(s > other + gap, "depth %d: %s in %s scores %d, another move %d", d, hanging[i].move,
                  hanging[i].fen, (int)s, (int)other);
        }
    }
    /* Fool's mate: 2.g4 allows Qh4#, mated in 1 seen at depth 2 (and not at depth 1, whose
     * quiescence search plays no quiet move). */
    const char *fool = "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2";
    int32_t other;
    if (version == 1)
        CHECK(score_of(b2, fool, "g2g4", &other) == -UZ_SCORE_MATE + 1);
    else /* far below the best: at the floor */
        CHECK(score_of(b2, fool, "g2g4", &other) == other - 401);
    CHECK(score_of(b1, fool, "g2g4", &other) > -UZ_SCORE_CP_MAX);
    uz_builtin_destroy(b1);
    uz_builtin_destroy(b2);
}

/* The record position (218 moves, the most any game can reach) and a made-up one with
 * more (16 queens): scores in range, nodes within the bound of doc/builtin.md. */
static void test_many_moves(void)
{
    uz_position pos[2];
    CHECK(uz_position_from_fen(&pos[0], "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", NULL) == UZ_OK);
    pos[1] = position_from_board("2Q1Q1Q1/Q6Q/3Q1Q1Q/Q6Q/4Q3/1Q5Q/pp2Q3/kBQ3QK", UZ_WHITE);
    for (int d = 1; d <= 2; d++) {
        uz_builtin *b;
        CHECK(uz_builtin_create(&b, version, d, NULL) == UZ_OK);
        for (int i = 0; i < 2; i++) {
            uz_move moves[UZ_MAX_MOVES];
            int32_t scores[UZ_MAX_MOVES];
            int n = uz_generate_legal(&pos[i], moves);
            CHECK(n == (i == 0 ? 218 : 241), "%d moves", n);
            uz_builtin_score_moves(b, &pos[i], moves, n, scores);
            bool in_range = true;
            for (int k = 0; k < n; k++)
                in_range &= scores[k] <= UZ_SCORE_MATE - 1 && scores[k] >= -UZ_SCORE_MATE + 1;
            CHECK(in_range);
            /* per root move: its budget, plus at most one leaf visit per move of each node
             * on the path (32 plies) after the budget ran out */
            uint64_t budget = d == 1 ? 2000 : 16000;
            CHECK(uz_builtin_last_nodes(b) <= (uint64_t)n * (budget + 32 * UZ_MAX_MOVES), "%llu nodes",
                  (unsigned long long)uz_builtin_last_nodes(b));
        }
        uz_builtin_destroy(b);
    }
}

static void test_errors(void)
{
    uz_builtin *b = (uz_builtin *)&b;
    uz_diag diag = {0};
    CHECK(uz_builtin_create(&b, 0, 1, &diag) == UZ_ERR_UNSUPPORTED && b == NULL && strstr(diag.message, "no builtin-0"));
    CHECK(uz_builtin_create(&b, 4, 1, &diag) == UZ_ERR_UNSUPPORTED && strstr(diag.message, "no builtin-4"));
    for (int v = 1; v <= UZ_BUILTIN_LATEST; v++) {
        CHECK(uz_builtin_create(&b, v, 0, &diag) == UZ_ERR_UNSUPPORTED && strstr(diag.message, "depth"));
        CHECK(uz_builtin_create(&b, v, 4, &diag) == UZ_ERR_UNSUPPORTED && strstr(diag.message, "not 4"));
        CHECK(uz_builtin_min_depth(v) == 1 && uz_builtin_max_depth(v) == 3 && uz_builtin_default_depth(v) == 1);
    }
    CHECK(uz_builtin_default_depth(4) == 0 && uz_builtin_max_depth(4) == 0 && UZ_BUILTIN_LATEST == 3);
    uz_builtin_destroy(NULL);
}

int main(void)
{
    char path[4096];
    test_positions p = {0}, mates = {0};
    positions_from_epd(&p, data_path("perft.epd", path, sizeof path), false, true);
    positions_from_epd(&p, data_path("perft960.epd", path, sizeof path), true, false);
    positions_from_pgn(&p, data_path("sample.pgn", path, sizeof path), 0);
    bool short_run = getenv("UZ_TEST_SHORT") != NULL;
    mates = p;
    mates.items = malloc(p.cap * sizeof *p.items);
    memcpy(mates.items, p.items, p.n * sizeof *p.items);
    if (corpus_file("cat4_pychess_mate_in_n_fen.pgn", path, sizeof path))
        positions_from_pgn(&mates, path, 0);
    for (version = 1; version <= UZ_BUILTIN_LATEST; version++) {
        printf("builtin-%d\n", version);
        test_determinism(&p, 1);
        if (!short_run)
            test_determinism(&p, 2);
        test_generation_wrap(&p.items[1]);
        test_mates_and_bounds(&mates, 1);
        if (!short_run)
            test_mates_and_bounds(&mates, 2);
        test_tactics();
        test_many_moves();
    }
    test_errors();
    free(p.items);
    free(mates.items);
    return test_finish();
}
