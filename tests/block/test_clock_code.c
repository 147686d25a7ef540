/* Clock code (comment revision 4), without the engine: the games of the corpus files with
 * clocks (chess.com's 0.1 s clocks, Chess960 ones, the club file's whole seconds) and of the
 * layout tests' file of coded comments are written as one block's structure stream in
 * structure versions 4 and 1, read back, given their main-line moves (what the move decoder
 * would do) and their clocks decoded game after game; every comment must come back exactly,
 * engine comments too (the engine comment code runs under the clock code). Damage to the
 * clock code (a byte too many, one too few, each bit of its first bytes flipped) is
 * refused or gives other comments, never a crash (ASan) nor another error. Revision 4
 * codes the chess.com clocks smaller than revision 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "block/clock_code.h"
#include "block/engine_code.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "../common/uz_test.h"
#include "read_games.h"
#include "same_comments.h"

enum { MAX_GAMES = 64 };

static void copy_moves(uz_line *to, const uz_line *from)
{
    for (size_t i = 0; i < to->n_nodes && i < from->n_nodes; i++) {
        to->nodes[i].move = from->nodes[i].move;
        for (size_t k = 0; k < to->nodes[i].n_variations && k < from->nodes[i].n_variations; k++)
            copy_moves(&to->nodes[i].variations[k], &from->nodes[i].variations[k]);
    }
}

/* The structure stream with its clock code replaced by code[0..len) (the comment-code section
 * rebuilt around it, its size in the header changed). */
static void replace_clock_code(const uz_buf *in, unsigned version, const uint8_t *code, size_t len, uz_buf *out)
{
    enum { SEC_COMMENT_CODE = 5, N_SECTIONS = 7 };
    uz_cursor c = {in->data, in->data + in->size};
    uint64_t sizes[N_SECTIONS], before = 0;
    for (int s = 0; s < N_SECTIONS; s++)
        uz_cursor_varint(&c, &sizes[s]);
    for (int s = 0; s < SEC_COMMENT_CODE; s++)
        before += sizes[s];
    const uint8_t *sec = c.p + before, *old_code;
    size_t old_len;
    uint64_t n_clocks;
    uz_block_struct_clock_code(in->data, in->size, version, 4, &old_code, &old_len, &n_clocks);
    uz_buf section = {0};
    uz_buf_put_varint(&section, n_clocks);
    uz_buf_put_varint(&section, len);
    uz_buf_append(&section, code, len);
    size_t rest = (size_t)(sec + sizes[SEC_COMMENT_CODE] - (old_code + old_len));
    uz_buf_append(&section, old_code + old_len, rest);
    sizes[SEC_COMMENT_CODE] = section.size;
    out->size = 0;
    for (int s = 0; s < N_SECTIONS; s++)
        uz_buf_put_varint(out, sizes[s]);
    uz_buf_append(out, c.p, (size_t)before);
    uz_buf_append(out, section.data, section.size);
    const uint8_t *after = old_code + old_len + rest;
    uz_buf_append(out, after, (size_t)(in->data + in->size - after));
    uz_buf_free(&section);
}

/* Reads the structure, gives each game its moves and decodes its clocks and engine
 * comments; *same when every comment is the original's. UZ_ERR_CORRUPT from any step. */
static uz_result read_back(const uz_buf *st, unsigned version, size_t n, const uz_game *orig, bool *same)
{
    uz_block_game *back = uz_block_games_new(n);
    uz_diag d = {0};
    uz_clock_coder *clocks = NULL;
    const uint8_t *code;
    size_t len;
    uint64_t n_clocks;
    uz_result r = back ? uz_block_struct_read(st->data, st->size, version, UZ_TAG_VERSION, 4, 0, back, n, NULL, &d)
                       : UZ_ERR_NOMEM;
    if (r == UZ_OK)
        r = uz_block_struct_engine_code(st->data, st->size, version, back, n);
    if (r == UZ_OK)
        r = uz_block_struct_clock_code(st->data, st->size, version, 4, &code, &len, &n_clocks);
    if (r == UZ_OK)
        r = uz_clock_reader_create(&clocks, code, len, n_clocks);
    *same = r == UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        uz_game *g = &back[i].game;
        copy_moves(&g->main, &orig[i].main);
        uz_walk w;
        if ((r = uz_walk_init(&w, g)) == UZ_OK && (r = uz_walk_resolve_all(&w)) == UZ_OK &&
            (r = uz_clock_decode_game(clocks, &w)) == UZ_OK)
            r = uz_engine_code_decode(&w, UZ_ENGINE_REVISION, back[i].engine_code, back[i].engine_code_len, NULL);
        uz_walk_free(&w);
        *same = *same && r == UZ_OK && same_comments(&orig[i].main, &g->main) &&
                same_list(orig[i].trailing_comments, orig[i].n_trailing_comments, g->trailing_comments,
                          g->n_trailing_comments);
    }
    if (r == UZ_OK)
        r = uz_clock_coder_finish(clocks, NULL);
    uz_clock_coder_destroy(clocks);
    uz_block_games_free(back, n);
    return r;
}

/* The first MAX_GAMES games of path in structure version `version`, comment revision `revision`:
 * read back exactly (revision 4: with its clock code), want_clocks clocks counted; damage
 * refused (revision 4). Returns the comment-code section's bytes. */
static size_t check_file(const char *path, unsigned version, unsigned revision, uint64_t want_clocks)
{
    static uz_game games[MAX_GAMES];
    size_t n = read_games(path, games, MAX_GAMES);
    uz_buf st = {0}, bad = {0};
    uz_block_out_game *recs = NULL;
    CHECK(uz_block_out_games_new(&recs, games, n, NULL) == UZ_OK, "%s: records", path);
    CHECK(recs && uz_block_struct_write(&st, version, UZ_TAG_VERSION, revision, 0, recs, n) == UZ_OK, "%s: written", path);
    uz_block_out_games_free(recs, n);
    uz_struct_comment_info info;
    uz_diag d = {0};
    CHECK(uz_block_struct_comment_info(st.data, st.size, version, UZ_TAG_VERSION, revision, 0, n, &info, &d) == UZ_OK &&
              info.clocks == want_clocks,
          "%s (version %u, revision %u): %llu clocks counted, %llu wanted", path, version, revision,
          (unsigned long long)info.clocks, (unsigned long long)want_clocks);
    if (revision < 4)
        goto out;
    bool same = false;
    CHECK(read_back(&st, version, n, games, &same) == UZ_OK && same, "%s (version %u): every comment read back", path,
          version);
    const uint8_t *code;
    size_t len;
    uint64_t n_clocks;
    CHECK(uz_block_struct_clock_code(st.data, st.size, version, 4, &code, &len, &n_clocks) == UZ_OK && len > 0,
          "%s: a clock code", path);
    uint8_t *copy = malloc(len + 1);
    memcpy(copy, code, len);
    copy[len] = 0x5a;
    /* A byte too many is never what a writer makes; one too few: refused or other clocks. */
    replace_clock_code(&st, version, copy, len + 1, &bad);
    CHECK(read_back(&bad, version, n, games, &same) == UZ_ERR_CORRUPT, "%s: extra byte refused", path);
    replace_clock_code(&st, version, copy, len - 1, &bad);
    uz_result r = read_back(&bad, version, n, games, &same);
    CHECK(r == UZ_ERR_CORRUPT || (r == UZ_OK && !same), "%s: truncated clock code: %d", path, (int)r);
    size_t refused = 0, flips = 0;
    for (size_t i = 0; i < len && i < 24; i++)
        for (int b = 0; b < 8; b++, flips++) {
            copy[i] ^= (uint8_t)(1 << b);
            replace_clock_code(&st, version, copy, len, &bad);
            r = read_back(&bad, version, n, games, &same);
            CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: flip at %zu.%d: %d", path, i, b, (int)r);
            refused += r == UZ_ERR_CORRUPT || !same;
            copy[i] ^= (uint8_t)(1 << b);
        }
    CHECK(refused == flips, "%s: %zu of %zu flipped bits changed nothing", path, flips - refused, flips);
    free(copy);
out:
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
    check_file(own, 4, 4, 18);
    check_file(own, 1, 4, 18);
    check_file(corpus_path("cat1_uscf_otb_club_annotated.pgn", buf), 4, 4, 918);
    check_file(corpus_path("cat5_chess960_chesscom_humans_clk.pgn", buf), 4, 4, 1498);
    size_t r3 = check_file(corpus_path("cat1_chesscom_live_clk.pgn", buf), 4, 3, 1309);
    size_t r4 = check_file(buf, 4, 4, 1309);
    size_t carlsen3 = check_file(corpus_path("cat2_carlsen_chesscom_clk.pgn", buf), 4, 3, 6597);
    size_t carlsen4 = check_file(buf, 4, 4, 6597);
    printf("chess.com clocks: 17 games %zu bytes (revision 3), %zu (revision 4); Carlsen's first %d games %zu, %zu\n", r3,
           r4, MAX_GAMES, carlsen3, carlsen4);
    CHECK(carlsen4 * 100 < carlsen3 * 99, "revision 4 codes Carlsen's chess.com clocks at least 1%% smaller: %zu against %zu",
          carlsen4, carlsen3);
    return test_finish();
}
