/* Tests of the opening book: the compiled-in book is the data file of data/opening_book/
 * (its FNV-1a 64, which the build checks too), real counts where the training games' most
 * played moves are known, the weight table's cells, the refusal of a book this program
 * does not have (a changed or damaged one has another hash), and golden frequencies with
 * the book mixed in: the same bits in every build (gcc, clang, -O0, -O3, sanitizers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "chess/board.h"
#include "model/move_model.h"
#include "model/opening_book.h"
#include "model/player_model.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static void test_data_file(void)
{
    const uz_book *b = uz_book_builtin(1);
    CHECK(b && b->version == 1 && b->hash == UZ_BOOK1_FNV, "book 1 is compiled in with its frozen hash");
    CHECK(uz_book_builtin(0) == NULL && uz_book_builtin(UZ_BOOK_LATEST + 1) == NULL, "no other version");
    const char *root = getenv("UZ_SRC_ROOT");
    char path[4096];
    snprintf(path, sizeof path, "%s/data/opening_book/book-1.txt", root ? root : ".");
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "%s opens", path);
    if (!f)
        return;
    uint64_t h = 0xcbf29ce484222325ull;
    long lines = 0;
    for (int c; (c = getc(f)) != EOF;) {
        unsigned char byte = (unsigned char)c;
        h = fnv(h, &byte, 1);
        lines += c == '\n';
    }
    fclose(f);
    CHECK(h == b->hash, "the compiled book is the data file (%016llx vs %016llx)", (unsigned long long)h,
          (unsigned long long)b->hash);
    CHECK(b->n_positions > 10000 && b->n_positions < (uint32_t)lines, "%u positions from %ld lines", b->n_positions,
          lines);
    for (uint32_t i = 1; i < b->n_positions; i++)
        if (b->keys[i] <= b->keys[i - 1]) {
            CHECK(0, "keys increase (position %u)", i);
            break;
        }
}

static int index_of(const uz_position *pos, const uz_move *legal, int n, const char *uci)
{
    uz_move m;
    if (uz_move_from_uci(pos, uci, &m) != UZ_OK)
        return -1;
    for (int i = 0; i < n; i++)
        if (legal[i] == m)
            return i;
    return -1;
}

static void test_counts(void)
{
    const uz_book *b = uz_book_builtin(UZ_BOOK_LATEST);
    uz_position pos;
    uz_position_startpos(&pos);
    uz_move legal[UZ_MAX_MOVES];
    uint32_t c[UZ_MAX_MOVES];
    int n = uz_generate_legal(&pos, legal);
    uint32_t total = uz_book_counts(b, &pos, legal, n, c);
    int e4 = index_of(&pos, legal, n, "e2e4"), d4 = index_of(&pos, legal, n, "d2d4");
    int h4 = index_of(&pos, legal, n, "h2h4");
    /* 399,509 games from the start position, most of them 1. e4 or 1. d4 */
    CHECK(total > 300000 && total <= 399509, "the start position's total %u", total);
    CHECK(c[e4] + c[d4] > total / 2 && c[e4] > c[h4] && c[d4] > c[h4], "e4 %u d4 %u h4 %u", c[e4], c[d4], c[h4]);
    /* a transposition meets: 1. Nf3 d5 2. d4 and 1. d4 d5 2. Nf3 reach the same position */
    const char *a[] = {"g1f3", "d7d5", "d2d4"}, *t[] = {"d2d4", "d7d5", "g1f3"};
    uz_position p1 = pos, p2 = pos;
    for (int i = 0; i < 3; i++) {
        uz_move m1 = UZ_MOVE_NONE, m2 = UZ_MOVE_NONE;
        uz_undo u;
        CHECK(uz_move_from_uci(&p1, a[i], &m1) == UZ_OK && uz_move_from_uci(&p2, t[i], &m2) == UZ_OK, "moves");
        uz_make_move(&p1, m1, &u);
        uz_make_move(&p2, m2, &u);
    }
    uint32_t c2[UZ_MAX_MOVES];
    n = uz_generate_legal(&p1, legal);
    uint32_t t1 = uz_book_counts(b, &p1, legal, n, c);
    uint32_t t2 = uz_book_counts(b, &p2, legal, n, c2);
    CHECK(t1 > 1000 && t1 == t2 && memcmp(c, c2, (size_t)n * sizeof *c) == 0, "the transposition's counts: %u, %u",
          t1, t2);
    /* a position no game reaches: nothing */
    uz_position odd;
    CHECK(uz_position_from_fen(&odd, "8/8/8/4k3/8/8/8/4K2R w K - 0 1", NULL) == UZ_OK, "fen");
    n = uz_generate_legal(&odd, legal);
    CHECK(uz_book_counts(b, &odd, legal, n, c) == 0 && c[0] == 0, "an endgame is not in the book");
}

static void test_cells(void)
{
    uz_position pos;
    uz_position_startpos(&pos);
    uz_pm_game none = {{0, 0}, 0}, strong = {{2600, 2500}, 5400}, blitz = {{1500, 1700}, 180};
    CHECK(uz_book_cell(3, &pos, &none) == 0, "the first cell");
    CHECK(uz_book_cell(100000, &pos, &strong) == (((7 * 5 + 0) * 5 + 4) * 4 + 3), "count, ply, rating, time control");
    pos.side = UZ_BLACK; /* ply 1: Black's rating */
    CHECK(uz_book_cell(20, &pos, &blitz) == (((2 * 5 + 0) * 5 + 2) * 4 + 1), "Black's rating");
    pos.fullmove = 20; /* ply 39 */
    CHECK(uz_book_cell(20, &pos, &blitz) == (((2 * 5 + 4) * 5 + 2) * 4 + 1), "a late ply");
}

static void test_refusals(void)
{
    const uz_book *b = uz_book_builtin(UZ_BOOK_LATEST);
    uz_model m;
    uz_diag diag = {0};
    uz_model_params p = uz_model_default_params();
    p.book_version = UZ_BOOK_LATEST;
    CHECK(uz_model_open(&m, &p, &diag) == UZ_OK && m.book == b, "a new archive takes the book");
    CHECK(((uint64_t)m.params.book_hash_hi << 32 | m.params.book_hash_lo) == b->hash, "and records its hash");
    uz_model_params named = m.params;
    CHECK(uz_model_open(&m, &named, &diag) == UZ_OK && m.book == b, "an archive naming it opens");
    named.book_hash_lo ^= 1; /* a changed book */
    memset(&diag, 0, sizeof diag);
    CHECK(uz_model_open(&m, &named, &diag) == UZ_ERR_MISMATCH && strstr(diag.message, "opening book version 1"),
          "a changed book is refused: %s", diag.message);
    named = m.params;
    named.book_version = UZ_BOOK_LATEST + 1;
    named.book_hash_lo = 1;
    memset(&diag, 0, sizeof diag);
    CHECK(uz_model_open(&m, &named, &diag) == UZ_ERR_MISMATCH && strstr(diag.message, "which this program does not"),
          "a newer book is refused: %s", diag.message);
    p.book_version = 0;
    CHECK(uz_model_open(&m, &p, &diag) == UZ_OK && m.book == NULL, "version 0: no book (archives before it)");
}

/* Frequencies of the first plies of a Sicilian Najdorf under weight set 2 (named: the
 * engines' default is v15 now) with and without the book, with made-up scores (a fixed
 * pattern: the arithmetic, not the engine, is pinned), folded into one hash. */
static uint64_t golden(uint32_t book_version, int *mixed)
{
    const char *line[] = {"e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4", "f3d4", "g8f6", "b1c3", "a7a6",
                          "c1e3", "e7e5", "d4b3", "c8e6", "f2f3", "f8e7"};
    uz_model m, plain;
    const uz_player_model *v2 = uz_pm_builtin_version(2);
    if (!v2)
        return 0;
    uz_model_params p = {.kind = UZ_MODEL_PLAYER, .player_version = 2, .player_hash_lo = (uint32_t)v2->hash,
                         .player_hash_hi = (uint32_t)(v2->hash >> 32), .book_version = book_version};
    uz_model_params q = p;
    q.book_version = 0;
    uz_diag diag = {0};
    if (uz_model_open(&m, &p, &diag) != UZ_OK || uz_model_open(&plain, &q, &diag) != UZ_OK)
        return 0;
    uz_position pos;
    uz_position_startpos(&pos);
    uz_move legal[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    uint32_t freq[UZ_MAX_MOVES], base[UZ_MAX_MOVES];
    uint64_t h = 0xcbf29ce484222325ull;
    *mixed = 0;
    for (size_t k = 0; k < sizeof line / sizeof line[0]; k++) {
        int n = uz_generate_legal(&pos, legal);
        for (int i = 0; i < n; i++)
            scores[i] = 40 - (int32_t)((i * 37 + k * 11) % 97);
        uz_model_context ctx = {.pos = &pos, .moves = legal, .scores = scores, .n = n,
                                .game = {{2450, 2380}, 5400}, .history = {0}};
        uint32_t total = uz_model_frequencies(&m, &ctx, freq);
        uint32_t total0 = uz_model_frequencies(&plain, &ctx, base);
        uint64_t sum = 0;
        for (int i = 0; i < n; i++)
            sum += freq[i];
        CHECK(total == UZ_MODEL_TOTAL && sum == total && total0 == total, "ply %zu: frequencies sum up", k);
        *mixed += memcmp(freq, base, (size_t)n * sizeof *freq) != 0;
        h = fnv(h, freq, (size_t)n * sizeof *freq);
        uz_move mv;
        uz_undo u;
        if (uz_move_from_uci(&pos, line[k], &mv) != UZ_OK)
            return 0;
        uz_make_move(&pos, mv, &u);
    }
    return h;
}

static void test_golden(void)
{
    int mixed;
    uint64_t h = golden(1, &mixed);
    CHECK(mixed >= 12, "the book changes %d of the 16 plies", mixed);
    CHECK(h == 0xdf454bf797fc16d2ULL, "golden frequencies with book 1: %016llx", (unsigned long long)h);
    golden(0, &mixed);
    CHECK(mixed == 0, "no book: the model's frequencies");
}

int main(void)
{
    test_data_file();
    test_counts();
    test_cells();
    test_refusals();
    test_golden();
    return test_finish();
}
