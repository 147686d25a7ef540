/* Engine comment code (structure version 2), without the engine: the games of the TCEC
 * corpus files and of a near-miss file are written as one block's structure stream, read
 * back, given their main-line moves (what the move decoder would do) and their engine
 * comments decoded; every comment must come back exactly. Prints what the coded comments
 * cost (bits per principal-variation move, per comment). Damage (a byte too many, flipped
 * bits) is refused or gives other comments, never a crash (ASan) nor another error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/engine_code.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "../common/uz_test.h"
#include "same_comments.h"

enum { MAX_GAMES = 256 };

/* The moves of a line and its variations, from orig (what the move decoder gives). */
static void copy_moves(uz_line *to, const uz_line *from)
{
    for (size_t i = 0; i < to->n_nodes && i < from->n_nodes; i++) {
        to->nodes[i].move = from->nodes[i].move;
        for (size_t k = 0; k < to->nodes[i].n_variations && k < from->nodes[i].n_variations; k++)
            copy_moves(&to->nodes[i].variations[k], &from->nodes[i].variations[k]);
    }
}

/* Reads the structure and decodes the engine comments; *same when every comment is the
 * original's. UZ_ERR_CORRUPT from either step. */
static uz_result read_back(const uint8_t *data, size_t size, size_t n, const uz_game *orig, bool *same,
                           uz_engine_code_counts *counts)
{
    uz_block_game *back = uz_block_games_new(n);
    uz_diag d = {0};
    uz_result r = back ? uz_block_struct_read(data, size, UZ_STRUCT_VERSION, UZ_TAG_VERSION, 0, 0, back, n, NULL, &d) : UZ_ERR_NOMEM;
    if (r == UZ_OK)
        r = uz_block_struct_engine_code(data, size, UZ_STRUCT_VERSION, back, n);
    *same = r == UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        uz_game *g = &back[i].game;
        copy_moves(&g->main, &orig[i].main);
        uz_walk w; /* the decoded game's walk, as the move decoder leaves it */
        if ((r = uz_walk_init(&w, g)) == UZ_OK && (r = uz_walk_resolve_all(&w)) == UZ_OK)
            r = uz_engine_code_decode(&w, back[i].engine_code, back[i].engine_code_len, counts);
        uz_walk_free(&w);
        *same = *same && r == UZ_OK && same_comments(&orig[i].main, &g->main);
    }
    uz_block_games_free(back, n);
    return r;
}

static size_t read_games(const char *path, uz_game *games)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return 0;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(rd, true);
    size_t n = 0;
    while (n < MAX_GAMES) {
        uz_diag d = {0};
        uz_game_init(&games[n]);
        uz_result r = uz_pgn_read_game(rd, &games[n], &d);
        if (r != UZ_OK) {
            uz_game_clear(&games[n]);
            CHECK(r == UZ_DONE, "%s: game %zu not read", path, n + 1);
            break;
        }
        n++;
    }
    uz_pgn_reader_close(rd);
    fclose(f);
    return n;
}

/* min_coded: the share of main-line comments that must be coded, in percent; damage: the
 * last bytes of the stream (the engine code) whose bits are flipped one at a time. */
static void check_file(const char *path, unsigned min_coded, size_t damage)
{
    static uz_game games[MAX_GAMES];
    uz_buf st = {0}, st1 = {0};
    size_t n = read_games(path, games), verbatim = 0;
    CHECK(n > 0, "%s: no game", path);
    /* As the compressor makes them: a game whose text is too far from the rendering kept as it is. */
    uz_block_out_game *recs = NULL;
    CHECK(uz_block_out_games_new(&recs, games, n, NULL) == UZ_OK, "%s: records", path);
    for (size_t i = 0; i < n; i++)
        verbatim += games[i].verbatim;
    if (verbatim)
        printf("%s: %zu of %zu games kept as text (their text is too far from the rendering)\n", path, verbatim, n);
    CHECK(recs && uz_block_struct_write(&st, UZ_STRUCT_VERSION, UZ_TAG_VERSION, 0, 0, recs, n) == UZ_OK, "%s: written", path);
    CHECK(recs && uz_block_struct_write(&st1, 1, UZ_TAG_VERSION, 0, 0, recs, n) == UZ_OK, "%s: structure version 1 written", path);
    uz_block_out_games_free(recs, n);
    bool same = false;
    uz_engine_code_counts counts = {0};
    CHECK(read_back(st.data, st.size, n, games, &same, &counts) == UZ_OK && same, "%s: every comment read back", path);
    CHECK(counts.comments > 0 && counts.coded * 100 >= counts.comments * min_coded, "%s: %llu of %llu comments coded",
          path, (unsigned long long)counts.coded, (unsigned long long)counts.comments);
    printf("%s: %zu games, %llu of %llu main-line comments coded, %llu pv moves: %.2f bits/pv move, %.1f bits/comment "
           "of other fields, %.3f bits/comment of flags; structure %zu bytes raw (structure version 1: %zu)\n",
           path, n, (unsigned long long)counts.coded, (unsigned long long)counts.comments,
           (unsigned long long)counts.pv_moves,
           counts.pv_moves ? (double)counts.cost_pv / 65536 / (double)counts.pv_moves : 0.0,
           counts.coded ? (double)counts.cost_fields / 65536 / (double)counts.coded : 0.0,
           counts.comments ? (double)counts.cost_flags / 65536 / (double)counts.comments : 0.0, st.size, st1.size);
    if (damage) {
        /* A byte too many after the section is refused. */
        uz_buf bad = {0};
        uz_buf_append(&bad, st.data, st.size);
        uz_buf_push(&bad, 0x5a);
        CHECK(read_back(bad.data, bad.size, n, games, &same, NULL) == UZ_ERR_CORRUPT, "%s: extra byte refused", path);
        /* Flipped bits in the engine code (the end of the stream): refused or other comments. */
        size_t refused = 0, flips = 0;
        for (size_t i = st.size - damage; i < st.size; i++)
            for (int b = 0; b < 8; b++, flips++) {
                st.data[i] ^= (uint8_t)(1 << b);
                uz_result r = read_back(st.data, st.size, n, games, &same, NULL);
                CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: flip at %zu.%d: %d", path, i, b, (int)r);
                refused += r == UZ_ERR_CORRUPT || !same;
                st.data[i] ^= (uint8_t)(1 << b);
            }
        CHECK(refused == flips, "%s: %zu of %zu flipped bits changed nothing", path, flips - refused, flips);
        uz_buf_free(&bad);
    }
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
    uz_buf_free(&st);
    uz_buf_free(&st1);
}

int main(void)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/pgn/layout/tcec_near_miss.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_file(buf, 90, 64);
    check_file(corpus_path("cat5_chess960_tcec_double_frc.pgn", buf), 99, 4);
    /* UZ_TEST_SHORT (CI's sanitizer run): the two large files were read in full by the
     * plain run already. */
    if (!getenv("UZ_TEST_SHORT")) {
        check_file(corpus_path("cat5_chess960_tcec_frc.pgn", buf), 99, 0);
        check_file(corpus_path("cat3_tcec_engine_games_full_comments.pgn", buf), 95, 0);
    }
    return test_finish();
}
