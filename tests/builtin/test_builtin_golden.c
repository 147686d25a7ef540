/* Golden values of builtin-1, builtin-2 and builtin-3: a hash of their scores over fixed positions
 * (tests/data's perft positions and their children, the Chess960 perft positions, sample.pgn, and a
 * few games of the shared corpus) at depths 1 and 2. The same on every compiler,
 * optimisation level and CPU: a frozen version's scores may never change. If this
 * fails, the change altered a frozen version's scores: make it a new version instead. */
#include <inttypes.h>

#include "builtin_test.h"

#define GOLDEN_DATA_D1 UINT64_C(0x3ef31909ca83ce50)
#define GOLDEN_DATA_D2 UINT64_C(0xb45c4d3b3e703572)
#define GOLDEN_CORPUS_D1 UINT64_C(0x500c39837ef18534)
#define GOLDEN2_DATA_D1 UINT64_C(0x23e25f6dbc905b8a)
#define GOLDEN2_DATA_D2 UINT64_C(0x463190e671c5d9b9)
#define GOLDEN2_CORPUS_D1 UINT64_C(0x61b46bb523250422)
#define GOLDEN3_DATA_D1 UINT64_C(0xae960b6eb71c632d)
#define GOLDEN3_DATA_D2 UINT64_C(0x48ab758579668eb3)
#define GOLDEN3_CORPUS_D1 UINT64_C(0x8e1a97a86509131d)

static uint64_t score_all(const test_positions *p, int version, int depth)
{
    uz_builtin *b;
    uz_diag diag = {0};
    if (uz_builtin_create(&b, version, depth, &diag) != UZ_OK) {
        CHECK(false, "%s", diag.message);
        return 0;
    }
    uint64_t h = 0xcbf29ce484222325ULL;
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    for (size_t i = 0; i < p->n; i++) {
        int n = uz_generate_legal(&p->items[i], moves);
        uz_builtin_score_moves(b, &p->items[i], moves, n, scores);
        h = hash_scores(h, scores, n);
    }
    uz_builtin_destroy(b);
    return h;
}

static void check_golden(const char *what, const test_positions *p, int version, int depth, uint64_t expected)
{
    uint64_t got = score_all(p, version, depth);
    printf("builtin-%d, %s, %zu positions, depth %d: %016" PRIx64 "\n", version, what, p->n, depth, got);
    CHECK(got == expected, "builtin-%d, %s depth %d: scores hash %016" PRIx64 ", golden %016" PRIx64, version, what,
          depth, got, expected);
}

int main(void)
{
    char path[4096];
    test_positions data = {0}, perft = {0}, corpus = {0};
    positions_from_epd(&perft, data_path("perft.epd", path, sizeof path), false, false);
    positions_from_epd(&data, data_path("perft.epd", path, sizeof path), false, true);
    positions_from_epd(&data, data_path("perft960.epd", path, sizeof path), true, false);
    positions_from_pgn(&data, data_path("sample.pgn", path, sizeof path), 0);
    CHECK(data.n > 900 && perft.n > 20);
    check_golden("tests/data", &data, 1, 1, GOLDEN_DATA_D1);
    check_golden("perft.epd", &perft, 1, 2, GOLDEN_DATA_D2);
    check_golden("tests/data", &data, 2, 1, GOLDEN2_DATA_D1);
    check_golden("perft.epd", &perft, 2, 2, GOLDEN2_DATA_D2);
    check_golden("tests/data", &data, 3, 1, GOLDEN3_DATA_D1);
    check_golden("perft.epd", &perft, 3, 2, GOLDEN3_DATA_D2);

    /* The corpus part: amateur, master and engine games (the first 10 of each file). */
    static const char *const files[] = {"cat1_lichess_rated_blitz_rapid.pgn", "cat2_london_1851_crlf.pgn",
                                        "cat3_tcec_engine_games_full_comments.pgn"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        if (!corpus_file(files[i], path, sizeof path)) {
            corpus.n = 0;
            break;
        }
        positions_from_pgn(&corpus, path, 10);
    }
    if (corpus.n) {
        check_golden("corpus", &corpus, 1, 1, GOLDEN_CORPUS_D1);
        check_golden("corpus", &corpus, 2, 1, GOLDEN2_CORPUS_D1);
        check_golden("corpus", &corpus, 3, 1, GOLDEN3_CORPUS_D1);
    }
    free(data.items);
    free(perft.items);
    free(corpus.items);
    return test_finish();
}
