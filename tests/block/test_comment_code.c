/* Coded comments (structure versions 1 and 3: models of revisions 1 and 2; revision 3 by
 * header key 17), without the
 * engine: the games of PGN files with clocks and engine comments are written as one
 * block's structure stream and read back with every comment identical; the coded kinds are
 * counted; a damaged comment-code section (a byte too many, one too few, each bit flipped;
 * a sample of them under UZ_TEST_SHORT)
 * is refused or read as some comments, never a crash (ASan) nor another error. Revision 2
 * codes cutechess self-play in fewer bytes than revision 1, and clocks in the same;
 * revision 3 codes chess.com's clocks smaller, engine comments as revision 2. Revision 4 codes
 * main-line clocks after the moves: tests/block/test_clock_code.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "../common/uz_test.h"
#include "read_games.h"
#include "same_comments.h"

enum { MAX_GAMES = 64, SEC_COMMENT_CODE = 5, N_SECTIONS = 7 };

/* The comments section's framing (header key 19) the checks write and read with. */
static unsigned comment_text;

/* Reads the structure into fresh games; frees them. */
static uz_result read_back(const uint8_t *data, size_t size, unsigned version, unsigned revision, size_t n,
                           const uz_game *orig, bool *same)
{
    uz_block_game *back = uz_block_games_new(n);
    uz_diag d = {0};
    uz_result r = back ? uz_block_struct_read(data, size, version, UZ_TAG_VERSION, revision, comment_text, back, n,
                                                        NULL, &d) : UZ_ERR_NOMEM;
    *same = r == UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK && orig; i++) {
        const uz_game *g = &back[i].game;
        *same = *same && same_comments(&orig[i].main, &g->main) &&
                same_list(orig[i].trailing_comments, orig[i].n_trailing_comments, g->trailing_comments,
                          g->n_trailing_comments);
    }
    uz_block_games_free(back, n);
    return r;
}

/* The structure stream with the comment-code section's last byte dropped (delta -1) or a
 * byte 0x5a appended (delta +1). */
static void resize_code(const uz_buf *in, int delta, uz_buf *out)
{
    uz_cursor c = {in->data, in->data + in->size};
    uint64_t sizes[N_SECTIONS], before = 0;
    for (int s = 0; s < N_SECTIONS; s++)
        uz_cursor_varint(&c, &sizes[s]);
    for (int s = 0; s < SEC_COMMENT_CODE + 1; s++)
        before += sizes[s];
    sizes[SEC_COMMENT_CODE] += (uint64_t)(int64_t)delta;
    out->size = 0;
    for (int s = 0; s < N_SECTIONS; s++)
        uz_buf_put_varint(out, sizes[s]);
    const uint8_t *body = c.p;
    size_t end = (size_t)before, total = (size_t)(in->data + in->size - body);
    uz_buf_append(out, body, delta < 0 ? end - 1 : end);
    if (delta > 0)
        uz_buf_push(out, 0x5a);
    uz_buf_append(out, body + end, total - end);
}

/* The comment-code bytes of the first max_games games of path in that structure version and comment
 * revision (0: the structure version's). */
static size_t check_file(const char *path, unsigned version, unsigned revision, size_t max_games, uint64_t want_clocks,
                         uint64_t want_engine)
{
    static uz_game games[MAX_GAMES];
    size_t n = read_games(path, games, max_games < MAX_GAMES ? max_games : MAX_GAMES);
    uz_buf st = {0}, bad = {0};
    uz_block_out_game *recs = NULL;
    CHECK(uz_block_out_games_new(&recs, games, n, NULL) == UZ_OK, "%s: records", path);
    for (size_t i = 0; i < n && recs; i++)
        CHECK(!games[i].verbatim, "%s: game %zu has a text record", path, i + 1);
    CHECK(recs && uz_block_struct_write(&st, version, UZ_TAG_VERSION, revision, comment_text, recs, n) == UZ_OK, "%s: written", path);
    uz_block_out_games_free(recs, n);
    bool same = false;
    CHECK(read_back(st.data, st.size, version, revision, n, games, &same) == UZ_OK && same, "%s (version %u, revision %u): every comment read back",
          path, version, revision);
    uz_struct_comment_info info;
    uz_diag d = {0};
    CHECK(uz_block_struct_comment_info(st.data, st.size, version, UZ_TAG_VERSION, revision, comment_text, n, &info, &d) ==
                  UZ_OK &&
              info.clocks == want_clocks && info.engine == want_engine && info.code_bytes > 0,
          "%s (version %u): %llu clocks, %llu engine comments coded, %llu bytes", path, version, (unsigned long long)info.clocks,
          (unsigned long long)info.engine, (unsigned long long)info.code_bytes);
    /* A byte too many is never what a writer makes. */
    resize_code(&st, +1, &bad);
    CHECK(read_back(bad.data, bad.size, version, revision, n, NULL, &same) == UZ_ERR_CORRUPT, "%s: extra byte refused", path);
    /* A byte too few or a flipped bit: refused, or read as other comments. */
    resize_code(&st, -1, &bad);
    uz_result r = read_back(bad.data, bad.size, version, revision, n, NULL, &same);
    CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: truncated section: %d", path, (int)r);
    size_t code_at = st.size - info.code_bytes; /* the tag-code section (last) is empty */
    size_t refused = 0, flips = 0;
    /* (CI's sanitizer run: every other byte, two of its bits in turn) */
    size_t stride = test_damage_stride();
    for (size_t i = code_at; i < st.size && i < code_at + 64; i += stride)
        for (int b = 0; b < 8; b++) {
            if (stride > 1 && (size_t)b % 4 != i / stride % 4)
                continue;
            flips++;
            st.data[i] ^= (uint8_t)(1 << b);
            r = read_back(st.data, st.size, version, revision, n, games, &same);
            CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: flip at %zu.%d: %d", path, i, b, (int)r);
            refused += r == UZ_ERR_CORRUPT || !same;
            st.data[i] ^= (uint8_t)(1 << b);
        }
    CHECK(refused == flips, "%s: %zu of %zu flipped bits changed nothing", path, flips - refused, flips);
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
    uz_buf_free(&st);
    uz_buf_free(&bad);
    return info.code_bytes;
}

int main(void)
{
    char buf[4096], own[4096];
    snprintf(own, sizeof own, "%s/pgn/layout/coded_comments.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    /* Both framings of the comments section (key 19 absent, and 2: each text then a NUL). */
    for (comment_text = 0; comment_text <= UZ_COMMENT_TEXT_NUL; comment_text += UZ_COMMENT_TEXT_NUL)
        for (unsigned version = 1; version <= UZ_STRUCT_VERSION; version += 2)
            for (unsigned revision = 0; revision <= 3; revision += 3) { /* (revision 4: test_clock_code) */
                check_file(own, version, revision, MAX_GAMES, 18, 14);
                check_file(corpus_path("cat5_chess960_cutechess_python_chess.pgn", buf), version, revision, MAX_GAMES, 0,
                           396);
            }
    comment_text = 0;
    size_t clocks1 = check_file(corpus_path("cat1_chesscom_live_clk.pgn", buf), 1, 0, MAX_GAMES, 1309, 0);
    size_t clocks3 = check_file(buf, 3, 0, MAX_GAMES, 1309, 0);
    CHECK(clocks1 == clocks3, "clocks: %zu bytes in structure version 1, %zu in structure version 3", clocks1, clocks3);
    /* Revision 3 (key 17) codes the clocks of every structure version with the think-time model. */
    size_t tenths1 = check_file(buf, 1, 3, MAX_GAMES, 1309, 0);
    size_t tenths3 = check_file(buf, 3, 3, MAX_GAMES, 1309, 0);
    size_t tenths4 = check_file(buf, 4, 3, MAX_GAMES, 1309, 0);
    CHECK(tenths4 == tenths3, "revision 3 codes clocks alike in versions 3 and 4: %zu against %zu", tenths4, tenths3);
    printf("chess.com clocks, 16 games: %zu bytes (revisions 1 and 2), %zu (revision 3)\n", clocks1, tenths3);
    CHECK(tenths1 == tenths3 && tenths3 * 100 < clocks1 * 97,
          "revision 3 codes chess.com clocks at least 3%% smaller: %zu (version 1), %zu (version 3) against %zu", tenths1,
          tenths3, clocks1);
    size_t engine1 = check_file(corpus_path("cat3_sirius_cutechess_selfplay.pgn", buf), 1, 0, MAX_GAMES, 0, 8933);
    size_t engine3 = check_file(buf, 3, 0, MAX_GAMES, 0, 8933);
    size_t engine_r3 = check_file(buf, 3, 3, MAX_GAMES, 0, 8933);
    CHECK(engine_r3 == engine3, "revision 3 codes engine comments as revision 2: %zu against %zu", engine_r3, engine3);
    printf("cutechess self-play, %d games: %zu bytes (revision 1), %zu (revision 2)\n", MAX_GAMES, engine1, engine3);
    CHECK(engine3 * 100 < engine1 * 98, "revision 2 codes cutechess comments at least 2%% smaller: %zu against %zu",
          engine3, engine1);
    return test_finish();
}
