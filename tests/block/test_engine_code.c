/* Engine comment code (structure version 2), without the engine: the games of the TCEC
 * corpus files (of the large one the first 60) and of a near-miss file are written as one block's structure stream in each
 * revision of the code (header key 18), read back, given their main-line moves (what the
 * move decoder would do) and their engine comments decoded; every comment must come back
 * exactly, and revision 2 must be smaller than revision 1. Prints what the coded comments
 * cost (bits per principal-variation move, per comment, per key). Damage (a byte too many,
 * flipped bits) is refused or gives other comments, never a crash (ASan) nor another
 * error. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/engine_code.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "../common/uz_test.h"
#include "read_games.h"
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
static uz_result read_back(const uint8_t *data, size_t size, unsigned revision, size_t n, const uz_game *orig,
                           bool *same, uz_engine_code_counts *counts)
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
            r = uz_engine_code_decode(&w, revision, back[i].engine_code, back[i].engine_code_len, counts);
        uz_walk_free(&w);
        *same = *same && r == UZ_OK && same_comments(&orig[i].main, &g->main);
    }
    uz_block_games_free(back, n);
    return r;
}

/* The file's games written in revision (header key 18) and read back: their coded
 * comments' cost in counts, the stream's size returned. damage: the last bytes of the
 * stream (the engine code) whose bits are flipped one at a time. */
static size_t check_revision(const char *path, unsigned revision, uz_game *games, size_t n, unsigned min_coded,
                             size_t damage)
{
    uz_block_bytes st = {0};
    uz_block_out_game *recs = NULL;
    /* As the compressor makes them: a game whose text is too far from the rendering kept as it is. */
    CHECK(uz_block_out_games_new(&recs, games, n, NULL) == UZ_OK, "%s: records", path);
    CHECK(recs && uz_block_struct_write_block(&st, UZ_STRUCT_VERSION, UZ_TAG_VERSION, 0, 0, revision, recs, n) == UZ_OK,
          "%s: written in revision %u", path, revision);
    uz_block_out_games_free(recs, n);
    const uz_buf *s = &st.structure;
    bool same = false;
    uz_engine_code_counts counts = {0};
    CHECK(read_back(s->data, s->size, revision, n, games, &same, &counts) == UZ_OK && same,
          "%s: every comment read back (revision %u)", path, revision);
    CHECK(counts.comments > 0 && counts.coded * 100 >= counts.comments * min_coded, "%s: %llu of %llu comments coded",
          path, (unsigned long long)counts.coded, (unsigned long long)counts.comments);
    printf("%s, revision %u: %zu games, %llu of %llu main-line comments coded, %llu pv moves: %.2f bits/pv move, "
           "%.1f bits/comment of other fields, %.3f bits/comment of flags; structure %zu bytes raw\n",
           path, uz_engine_revision(revision), n, (unsigned long long)counts.coded, (unsigned long long)counts.comments,
           (unsigned long long)counts.pv_moves,
           counts.pv_moves ? (double)counts.cost_pv / 65536 / (double)counts.pv_moves : 0.0,
           counts.coded ? (double)counts.cost_fields / 65536 / (double)counts.coded : 0.0,
           counts.comments ? (double)counts.cost_flags / 65536 / (double)counts.comments : 0.0, s->size);
    printf("  pv: stop bits %.1f KB, candidates %.1f KB, ranks %.1f KB (%llu moves ranked, %.2f bits each)\n",
           (double)counts.cost_pv_stop / 65536 / 8000, (double)counts.cost_pv_hit / 65536 / 8000,
           (double)counts.cost_pv_rank / 65536 / 8000, (unsigned long long)counts.pv_ranked,
           counts.pv_ranked ? (double)counts.cost_pv_rank / 65536 / (double)counts.pv_ranked : 0.0);
    printf("  per key: bits a field (fields; KB in all)\n");
    for (int k = 0; k < UZ_ENGINE_KEYS; k++)
        if (counts.n_key[k])
            printf("  %-4s %8.2f (%llu; %.1f KB)\n", uz_engine_code_key(k),
                   (double)counts.cost_key[k] / 65536 / (double)counts.n_key[k], (unsigned long long)counts.n_key[k],
                   (double)counts.cost_key[k] / 65536 / 8 / 1000);
    if (damage) {
        /* A byte too many after the section is refused. */
        uz_buf bad = {0};
        uz_buf_append(&bad, s->data, s->size);
        uz_buf_push(&bad, 0x5a);
        CHECK(read_back(bad.data, bad.size, revision, n, games, &same, NULL) == UZ_ERR_CORRUPT,
              "%s: extra byte refused (revision %u)", path, revision);
        /* Flipped bits in the engine code (the end of the stream): refused or other comments. */
        size_t refused = 0, flips = 0;
        for (size_t i = s->size - damage; i < s->size; i++)
            for (int b = 0; b < 8; b++, flips++) {
                s->data[i] ^= (uint8_t)(1 << b);
                uz_result r = read_back(s->data, s->size, revision, n, games, &same, NULL);
                CHECK(r == UZ_OK || r == UZ_ERR_CORRUPT, "%s: flip at %zu.%d: %d", path, i, b, (int)r);
                refused += r == UZ_ERR_CORRUPT || !same;
                s->data[i] ^= (uint8_t)(1 << b);
            }
        CHECK(refused == flips, "%s: %zu of %zu flipped bits changed nothing (revision %u)", path, flips - refused,
              flips, revision);
        uz_buf_free(&bad);
    }
    size_t size = s->size;
    uz_block_bytes_free(&st);
    return size;
}

/* min_coded: the share of main-line comments that must be coded, in percent; damage as
 * check_revision's, for revision 2 (and revision 1 on a file that need not shrink: the
 * near-miss file, quick to decode). Revision 1 (the key absent) and revision 2 both read
 * back; revision 2 is smaller when shrinks (a file of whole games: its models have comments
 * to learn from). */
static void check_file(const char *path, unsigned min_coded, size_t damage, bool shrinks, size_t max_games)
{
    static uz_game games[MAX_GAMES];
    size_t n = read_games(path, games, max_games < MAX_GAMES ? max_games : MAX_GAMES), verbatim = 0;
    CHECK(n > 0, "%s: no game", path);
    for (size_t i = 0; i < n; i++)
        verbatim += games[i].verbatim;
    if (verbatim)
        printf("%s: %zu of %zu games kept as text (their text is too far from the rendering)\n", path, verbatim, n);
    size_t old = check_revision(path, 0, games, n, min_coded, shrinks ? 0 : damage);
    size_t now = check_revision(path, UZ_ENGINE_REVISION, games, n, min_coded, damage);
    CHECK(!shrinks || now < old, "%s: revision %d is smaller: %zu bytes against %zu", path, UZ_ENGINE_REVISION, now, old);
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
}

/* With arguments: those PGN files only, measured in both revisions (for development). */
int main(int argc, char **argv)
{
    char buf[4096];
    if (argc > 1) {
        for (int i = 1; i < argc; i++)
            check_file(argv[i], 0, 0, false, MAX_GAMES);
        return test_finish();
    }
    snprintf(buf, sizeof buf, "%s/pgn/layout/tcec_near_miss.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    /* UZ_TEST_SHORT (CI's sanitizer run): a quarter of the damaged bytes (each one decoded
     * eight times, every variation move ranked again by the built-in oracle), and not the
     * two large files: the plain run did all of it already. */
    bool short_run = getenv("UZ_TEST_SHORT") != NULL;
    check_file(buf, 90, short_run ? 16 : 64, false, MAX_GAMES);
    check_file(corpus_path("cat5_chess960_tcec_double_frc.pgn", buf), 99, short_run ? 1 : 4, true, MAX_GAMES);
    if (!short_run) {
        /* (the large files' first games, 20 of 41 and 30 of 150, each coded four times: CI's
         * corpus stage round-trips every game; `test_engine_code FILE` measures a whole file) */
        check_file(corpus_path("cat5_chess960_tcec_frc.pgn", buf), 99, 0, true, 20);
        check_file(corpus_path("cat3_tcec_engine_games_full_comments.pgn", buf), 95, 0, true, 30);
    }
    return test_finish();
}
