/* Coded comments (structure layout 1), without the engine: the games of PGN files with
 * clocks and engine comments are written as one block's structure stream and read back
 * with every comment identical; the coded kinds are counted; a damaged comment-code
 * section (a byte too many, one too few, each bit flipped) is refused or read as some
 * comments, never a crash (ASan) nor another error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "../common/uz_test.h"
#include "same_comments.h"

enum { MAX_GAMES = 64, SEC_COMMENT_CODE = 5, N_SECTIONS = 7 };

/* Reads the structure into fresh games; frees them. */
static uz_result read_back(const uint8_t *data, size_t size, size_t n, const uz_game *orig, bool *same)
{
    uz_game back[MAX_GAMES];
    size_t lens[MAX_GAMES], rec_lens[MAX_GAMES];
    uint32_t crcs[MAX_GAMES];
    const uint8_t *recs[MAX_GAMES];
    for (size_t i = 0; i < n; i++)
        uz_game_init(&back[i]);
    uz_diag d = {0};
    uz_result r = uz_block_struct_read(data, size, UZ_STRUCT_VERSION, back, n, lens, crcs, recs, rec_lens, &d);
    *same = r == UZ_OK;
    for (size_t i = 0; i < n; i++) {
        if (r == UZ_OK && orig)
            *same = *same && same_comments(&orig[i].main, &back[i].main) &&
                    same_list(orig[i].trailing_comments, orig[i].n_trailing_comments, back[i].trailing_comments,
                              back[i].n_trailing_comments);
        uz_game_clear(&back[i]);
    }
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

static void check_file(const char *path, size_t max_games, uint64_t want_clocks, uint64_t want_engine)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(rd, true);
    static uz_game games[MAX_GAMES];
    size_t n = 0, lens[MAX_GAMES] = {0};
    uint32_t crcs[MAX_GAMES] = {0};
    uz_buf texts = {0}, st = {0}, bad = {0};
    uz_pgn_layout prev;
    bool have_prev = false;
    while (n < max_games) {
        uz_diag d = {0};
        uz_game_init(&games[n]);
        uz_result r = uz_pgn_read_game(rd, &games[n], &d);
        if (r != UZ_OK) {
            uz_game_clear(&games[n]);
            CHECK(r == UZ_DONE, "%s: game %zu not read", path, n + 1);
            break;
        }
        CHECK(uz_game_text_encode(&games[n], &prev, &have_prev, &texts) == UZ_OK, "%s: text record", path);
        n++;
    }
    uz_pgn_reader_close(rd);
    fclose(f);
    CHECK(uz_block_struct_write(&st, UZ_STRUCT_VERSION, games, n, lens, crcs, &texts) == UZ_OK, "%s: written", path);
    bool same = false;
    CHECK(read_back(st.data, st.size, n, games, &same) == UZ_OK && same, "%s: every comment read back", path);
    uz_struct_comment_info info;
    uz_diag d = {0};
    CHECK(uz_block_struct_comment_info(st.data, st.size, UZ_STRUCT_VERSION, n, &info, &d) == UZ_OK &&
              info.clocks == want_clocks && info.engine == want_engine && info.code_bytes > 0,
          "%s: %llu clocks, %llu engine comments coded", path, (unsigned long long)info.clocks,
          (unsigned long long)info.engine);
    /* A byte too many is never what a writer makes. */
    resize_code(&st, +1, &bad);
    CHECK(read_back(bad.data, bad.size, n, NULL, &same) == UZ_ERR_CORRUPT, "%s: extra byte refused", path);
    /* A byte too few or a flipped bit: refused, or read as other comments. */
    resize_code(&st, -1, &bad);
    uz_result r = read_back(bad.data, bad.size, n, NULL, &same);
    CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: truncated section: %d", path, (int)r);
    size_t code_at = st.size - info.code_bytes; /* the tag-code section (last) is empty */
    size_t refused = 0, flips = 0;
    for (size_t i = code_at; i < st.size && i < code_at + 64; i++)
        for (int b = 0; b < 8; b++, flips++) {
            st.data[i] ^= (uint8_t)(1 << b);
            r = read_back(st.data, st.size, n, games, &same);
            CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: flip at %zu.%d: %d", path, i, b, (int)r);
            refused += r == UZ_ERR_CORRUPT || !same;
            st.data[i] ^= (uint8_t)(1 << b);
        }
    CHECK(refused == flips, "%s: %zu of %zu flipped bits changed nothing", path, flips - refused, flips);
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
    uz_buf_free(&texts);
    uz_buf_free(&st);
    uz_buf_free(&bad);
}

int main(void)
{
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/pgn/layout/coded_comments.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_file(buf, MAX_GAMES, 18, 14);
    check_file(corpus_path("cat1_chesscom_live_clk.pgn", buf), MAX_GAMES, 1309, 0);
    check_file(corpus_path("cat5_chess960_cutechess_python_chess.pgn", buf), MAX_GAMES, 0, 396);
    return test_finish();
}
