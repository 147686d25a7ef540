/* Recorded scores with the real Stockfish at depth 1 on real games (a few games of each
 * sample file and a Chess960 corpus file): compress through recording oracles, save the
 * table, load it, decompress with the replaying oracle and no engine at all (the engine
 * path given does not exist) -> the input's exact bytes; the same archive as without
 * recording; a table with one position removed fails naming that position; malformed
 * table files are refused with file:line. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../common/uz_test_games.h"
#include "../common/uz_test_engine.h"
#include "block/block_codec.h"
#include "../../src/lib/lib_internal.h"

#define GAMES_PER_SAMPLE 6
#define BLOCK 16

typedef struct game_list {
    uz_game games[64];
    size_t n;
} game_list;

/* Appends up to max games (0: all) of path. */
static void read_games(const char *path, size_t max, game_list *l)
{
    uz_test_read_games(path, 0, max, l->games, sizeof l->games / sizeof *l->games, &l->n);
}

/* Compresses the games with the oracle into a malloc'd archive whose header is pool's. */
static uz_result compress(uz_pool *pool, uz_pool *pool960, uz_oracle *oracle, game_list *l, char **data, size_t *size)
{
    uz_model_params params = uz_model_default_params();
    uz_model model;
    uz_model_open(&model, &params, NULL);
    uz_encoder *enc = NULL;
    uz_encoder_create(&enc, UZ_CODER_RANGE);
    FILE *mem = open_memstream(data, size);
    uz_archive_header header;
    uz_header_fill(&header, pool, &model.params, UZ_CODER_RANGE, BLOCK);
    snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s", uz_pool_fingerprint(pool960));
    uz_archive_writer *w = NULL;
    uz_diag d = {0};
    uz_result r = uz_archive_writer_open(&w, mem, &header, &d);
    for (size_t i = 0; r == UZ_OK && i < l->n; i += BLOCK) {
        size_t k = l->n - i < BLOCK ? l->n - i : BLOCK;
        uz_block_coder bc = {.moves = {.oracle = oracle, .model = &model, .enc = enc},
                             .struct_version = header.struct_version,
                             .comment_revision = header.comment_revision,
                             .engine_revision = header.engine_revision};
        uz_block_bytes out = {0};
        r = uz_block_encode(&bc, l->games + i, k, &out, &d);
        if (r == UZ_OK)
            r = uz_archive_write_block(w, &out, &d);
        uz_block_bytes_free(&out);
    }
    if (r == UZ_OK)
        r = uz_archive_writer_finish(w, &d);
    else
        uz_archive_writer_abort(w);
    CHECK(r == UZ_OK, "compress: %s", d.message);
    fclose(mem);
    uz_encoder_destroy(enc);
    return r;
}

/* Decompresses with the oracle alone; the output in *text. */
static uz_result decompress(uz_oracle *oracle, const char *data, size_t size, char **text, size_t *text_size,
                            uz_diag *d)
{
    uz_options o;
    uz_options_init(&o);
    o.engine = "/nonexistent/engine"; /* nothing may start it */
    o.workers = 1;
    uz_decompressor *dec = NULL;
    uz_result r = uz_decompressor_open(&dec, &o, d);
    if (r != UZ_OK)
        return r;
    uz_decompressor_use_oracle(dec, oracle);
    FILE *in = fmemopen((void *)data, size, "rb");
    FILE *out = open_memstream(text, text_size);
    uint64_t games = 0;
    r = uz_decompressor_decode(dec, in, "mem.ucz", out, &games, d);
    fclose(out);
    fclose(in);
    uz_decompressor_close(dec);
    return r;
}

/* A position of the games the decoder asks about: game g's first position with two or
 * more legal moves after ply 10. */
static uz_position some_position(uz_game *game)
{
    uz_walk w;
    uz_position pos;
    uz_position_startpos(&pos);
    if (uz_walk_init(&w, game) != UZ_OK || uz_score_walks(NULL, &w, 1, NULL) != UZ_OK) {
        CHECK(0, "walk");
        return pos;
    }
    for (size_t s = 10; s < w.n_steps; s++)
        if (w.steps[s].n_legal >= 2) {
            pos = w.before[s];
            break;
        }
    uz_walk_free(&w);
    return pos;
}

static void check_bad_file(const char *dir, const char *text, long line)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bad.scores", dir);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    uz_score_table *t = NULL;
    uz_diag d = {0};
    uz_result r = uz_score_table_load(&t, path, &d);
    char where[600];
    snprintf(where, sizeof where, "%s:%ld:", path, line);
    CHECK(r == UZ_ERR_SYNTAX && t == NULL && strstr(d.message, where) == d.message, "bad file refused: %d %s", r,
          d.message);
    unlink(path);
}

int main(void)
{
    static const char *const samples[] = {"amateur.pgn", "engine.pgn", "master.pgn"};
    char path[4096];
    static game_list games;
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++)
        read_games(samples_path(samples[i], path), GAMES_PER_SAMPLE, &games);
    size_t n_standard = games.n;
    read_games(corpus_path("cat5_chess960_cutechess_python_chess.pgn", path), 0, &games);
    CHECK(n_standard == 3 * GAMES_PER_SAMPLE && games.n == n_standard + 4, "games read: %zu", games.n);
    size_t input_size = 0;
    for (size_t i = 0; i < games.n; i++)
        input_size += games.games[i].raw_len;
    char *input = malloc(input_size + 1), *p = input;
    for (size_t i = 0; i < games.n; i++, p += games.games[i - 1].raw_len)
        memcpy(p, games.games[i].raw, games.games[i].raw_len);

    uz_engine_settings base;
    uz_diag d = {0};
    if (!uz_test_stockfish_settings(&base, 1))
        return 1;
    uz_pool *pool = NULL, *pool960 = NULL;
    if (uz_pool_create(&pool, &base, 2, &d) != UZ_OK || uz_pool_create_chess960(&pool960, pool, 1, &d) != UZ_OK) {
        fprintf(stderr, "stockfish: %s\n", d.message);
        return 1;
    }

    /* Compress while recording (one recorder in front of the routing oracle of both
     * engines); then without: the same archive. */
    uz_score_table *table = NULL;
    uz_oracle *route = NULL, *rec = NULL;
    CHECK(uz_score_table_create(&table) == UZ_OK, "table");
    CHECK(uz_oracle_route_create(&route, uz_pool_oracle(pool), uz_pool_oracle(pool960)) == UZ_OK &&
              uz_oracle_record_create(&rec, route, table) == UZ_OK,
          "router and recorder");
    char *archive = NULL, *plain = NULL;
    size_t archive_size = 0, plain_size = 0;
    compress(pool, pool960, rec, &games, &archive, &archive_size);
    compress(pool, pool960, route, &games, &plain, &plain_size);
    CHECK(archive_size == plain_size && memcmp(archive, plain, plain_size) == 0, "recording changes no byte");
    uz_oracle_identity id = uz_oracle_identity_of(rec);
    CHECK(strcmp(id.fingerprint, uz_pool_fingerprint(pool)) == 0, "a recorder has its engine's identity");
    size_t recorded = uz_score_table_count(table);
    CHECK(recorded > 500, "positions recorded: %zu", recorded);
    uz_oracle_destroy(rec);
    uz_oracle_destroy(route);
    uz_pool_destroy(pool960);
    uz_pool_destroy(pool);

    /* Saved and loaded back; replayed with no engine. */
    char dir[] = "/tmp/uz_oracle_XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "temp dir");
    char file[512];
    snprintf(file, sizeof file, "%s/scores.txt", dir);
    CHECK(uz_score_table_save(table, file, &d) == UZ_OK, "save: %s", d.message);
    uz_score_table_destroy(table);
    table = NULL;
    CHECK(uz_score_table_load(&table, file, &d) == UZ_OK, "load: %s", d.message);
    unlink(file);
    if (!table)
        return test_finish();
    CHECK(uz_score_table_count(table) == recorded, "%zu entries loaded", uz_score_table_count(table));
    uz_oracle *replay = NULL;
    CHECK(uz_oracle_replay_create(&replay, table) == UZ_OK, "replayer");
    id = uz_oracle_identity_of(replay);
    CHECK(strncmp(id.engine_name, "Stockfish", 9) == 0 && strlen(id.fingerprint) == 16 &&
              strstr(id.settings_text, "depth=1\n") != NULL,
          "the table keeps the identity: %s %s", id.engine_name, id.fingerprint);
    char *text = NULL;
    size_t text_size = 0;
    uz_result r = decompress(replay, archive, archive_size, &text, &text_size, &d);
    CHECK(r == UZ_OK, "replayed decompress: %s", d.message);
    CHECK(text_size == input_size && memcmp(text, input, input_size) == 0, "replayed output is the input (%zu of %zu)",
          text_size, input_size);
    free(text);

    /* One position missing: the decoder fails and the message names it. */
    uz_position gone = some_position(&games.games[1]);
    char key[UZ_FEN_MAX];
    uz_position_key_text(&gone, key);
    CHECK(uz_score_table_remove(table, &gone), "remove %s", key);
    CHECK(!uz_score_table_remove(table, &gone), "removed once");
    text = NULL;
    memset(&d, 0, sizeof d);
    r = decompress(replay, archive, archive_size, &text, &text_size, &d);
    CHECK(r == UZ_ERR_MISMATCH && strstr(d.message, key) != NULL, "missing position named: %d %s", r, d.message);
    free(text);
    printf("%zu games, %zu positions recorded, archive %zu bytes; missing: %s\n", games.n, recorded, archive_size,
           d.message);

    check_bad_file(dir, "not scores\n", 1);
    check_bad_file(dir, "ucizip-scores 1\nengine x\n0\tnot a fen\te2e4:1\n", 3);
    check_bad_file(dir, "ucizip-scores 1\n0\t8/8/8/8/8/8/8/K1k5 w - - 0 1\ta1b2:5\n", 2);
    rmdir(dir);

    uz_oracle_destroy(replay);
    uz_score_table_destroy(table);
    free(archive);
    free(plain);
    free(input);
    for (size_t i = 0; i < games.n; i++)
        uz_game_clear(&games.games[i]);
    return test_finish();
}
