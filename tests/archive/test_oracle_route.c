/* The routing oracle on real games: sample games with Chess960 corpus games between them.
 * Recorded synthetic scores show that each position goes to the oracle of its kind, with
 * the scores that oracle gives, also where a completion callback submits to the other
 * side; its identity is the standard side's; without a Chess960 side such a position fails
 * with the message users see. Then the real Stockfish at depth 1 through the library:
 * such a block (opening counts on, so that standard games wait for the Chess960 games
 * before them) compresses, decodes to the input's exact bytes, and each game alone. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test_games.h"
#include "gamecode/gamecode.h"
#include "oracle/score_table.h"

#define MAX_GAMES 16

typedef struct game_list {
    uz_game games[MAX_GAMES];
    size_t n;
} game_list;

static void read_games(const char *path, size_t first, size_t count, game_list *l)
{
    uz_test_read_games(path, first, count, l->games, MAX_GAMES, &l->n);
}

static void walks_init(uz_walk *walks, game_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        CHECK(uz_walk_init(&walks[i], &l->games[i]) == UZ_OK, "walk %zu", i);
}

static void walks_free(uz_walk *walks, size_t n)
{
    for (size_t i = 0; i < n; i++)
        uz_walk_free(&walks[i]);
}

/* Every scored position is in the table of its kind with the scores the walk got, and
 * each table holds positions of its kind only. */
static void check_routed(const uz_walk *walks, size_t n, const uz_score_table *standard, const uz_score_table *c960)
{
    size_t checked = 0, bad = 0;
    for (size_t g = 0; g < n; g++)
        for (size_t s = 0; s < walks[g].n_steps; s++) {
            const uz_step *st = &walks[g].steps[s];
            if (st->n_legal < 2)
                continue;
            char key[UZ_FEN_MAX];
            bool is960 = walks[g].before[s].chess960 != 0;
            uz_position_key_text(&walks[g].before[s], key);
            const uz__score_entry *e = uz__score_table_find(is960 ? c960 : standard, key, is960);
            bad += !st->scores || !e || e->n != st->n_legal ||
                   memcmp(e->scores, st->scores, (size_t)e->n * sizeof *e->scores) != 0;
            checked++;
        }
    CHECK(checked > 500 && bad == 0, "%zu of %zu positions not answered by their side", bad, checked);
    for (size_t i = 0; i < standard->n; i++)
        bad += standard->entries[i].chess960;
    for (size_t i = 0; i < c960->n; i++)
        bad += !c960->entries[i].chess960;
    CHECK(bad == 0 && standard->n > 0 && c960->n > 0, "tables of one kind each: %zu and %zu entries, %zu stray",
          standard->n, c960->n, bad);
}

static void test_dispatch(game_list *l)
{
    /* The first two games alone fill every scoring slot: the Chess960 positions are
     * submitted from the standard side's callbacks, and the later standard ones from
     * the Chess960 side's. */
    size_t leading = 0;
    uz_walk walks[MAX_GAMES];
    walks_init(walks, l);
    CHECK(uz_score_walks(NULL, walks, l->n, NULL) == UZ_OK, "resolve");
    for (size_t g = 0; g < 2; g++)
        for (size_t s = 0; s < walks[g].n_steps; s++)
            leading += walks[g].steps[s].n_legal >= 2;
    CHECK(leading > 64, "%zu positions in the leading standard games", leading);
    walks_free(walks, l->n);

    uz_score_table *t_std = NULL, *t_960 = NULL;
    uz_oracle *synth_std = NULL, *synth_960 = NULL, *rec_std = NULL, *rec_960 = NULL, *route = NULL;
    CHECK(uz_score_table_create(&t_std) == UZ_OK && uz_score_table_create(&t_960) == UZ_OK, "tables");
    CHECK(uz_oracle_synthetic_create(&synth_std) == UZ_OK && uz_oracle_synthetic_create(&synth_960) == UZ_OK &&
              uz_oracle_record_create(&rec_std, synth_std, t_std) == UZ_OK &&
              uz_oracle_record_create(&rec_960, synth_960, t_960) == UZ_OK,
          "oracles");
    CHECK(uz_oracle_route_create(&route, rec_std, rec_960) == UZ_OK, "router");
    walks_init(walks, l);
    uz_diag d = {0};
    CHECK(uz_score_walks(route, walks, l->n, &d) == UZ_OK, "scoring through the router: %s", d.message);
    check_routed(walks, l->n, t_std, t_960);
    walks_free(walks, l->n);
    uz_oracle_destroy(route);

    /* The identity is the standard side's. */
    uz_score_table *named = NULL;
    uz_oracle *replay = NULL;
    const uz_oracle_identity id = {"standard engine", "0123456789abcdef", "depth=1\n"};
    CHECK(uz_score_table_create(&named) == UZ_OK && uz__score_table_set_identity(named, &id) == UZ_OK &&
              uz_oracle_replay_create(&replay, named) == UZ_OK,
          "named table");
    CHECK(uz_oracle_route_create(&route, replay, synth_960) == UZ_OK, "router");
    uz_oracle_identity got = uz_oracle_identity_of(route);
    CHECK(strcmp(got.engine_name, id.engine_name) == 0 && strcmp(got.fingerprint, id.fingerprint) == 0 &&
              strcmp(got.settings_text, id.settings_text) == 0,
          "identity %s %s", got.engine_name, got.fingerprint);
    uz_oracle_destroy(route);
    CHECK(uz_oracle_route_create(&route, synth_std, replay) == UZ_OK, "router");
    CHECK(strcmp(uz_oracle_identity_of(route).engine_name, "synthetic") == 0, "not the Chess960 side's identity");
    uz_oracle_destroy(route);

    /* No Chess960 side: standard games score, a Chess960 position fails. */
    CHECK(uz_oracle_route_create(&route, synth_std, NULL) == UZ_OK, "router");
    walks_init(walks, l);
    CHECK(uz_score_walks(route, walks, 2, &d) == UZ_OK, "standard games without a Chess960 side: %s", d.message);
    walks_free(walks, l->n);
    walks_init(walks, l);
    memset(&d, 0, sizeof d);
    uz_result r = uz_score_walks(route, walks, l->n, &d);
    CHECK(r == UZ_ERR_ARG && strcmp(d.message, "Chess960 games need an engine with UCI_Chess960") == 0,
          "a Chess960 game without a Chess960 side: %d %s", r, d.message);
    walks_free(walks, l->n);
    uz_oracle_destroy(route);
    CHECK(uz_oracle_route_create(&route, NULL, synth_960) == UZ_ERR_ARG && route == NULL, "no standard side refused");

    uz_oracle_destroy(replay);
    uz_oracle_destroy(rec_std);
    uz_oracle_destroy(rec_960);
    uz_oracle_destroy(synth_std);
    uz_oracle_destroy(synth_960);
    uz_score_table_destroy(named);
    uz_score_table_destroy(t_std);
    uz_score_table_destroy(t_960);
}

/* The games' exact bytes, one after the other; game i starts at starts[i]. */
static char *concat(const game_list *l, size_t *size, size_t *starts)
{
    *size = 0;
    for (size_t i = 0; i < l->n; i++)
        *size += l->games[i].raw_len;
    char *text = malloc(*size + 1);
    for (size_t i = 0, at = 0; text && i < l->n; at += l->games[i++].raw_len) {
        starts[i] = at;
        memcpy(text + at, l->games[i].raw, l->games[i].raw_len);
    }
    return text;
}

/* Stockfish at depth 1: one block of the interleaved games through compress and decompress. */
static void test_stockfish_block(const game_list *l)
{
    size_t size, starts[MAX_GAMES + 1];
    char *text = concat(l, &size, starts);
    starts[l->n] = size;
    uz_options o;
    uz_options_init(&o);
    o.depth = 1;
    o.workers = 2;
    char *archive = NULL;
    size_t archive_size = 0;
    FILE *mem = open_memstream(&archive, &archive_size);
    uz_compressor *c = NULL;
    uz_diag d = {0};
    uz_result r = uz_compressor_open(&c, &o, &d);
    if (r == UZ_OK && (r = uz_compressor_begin(c, mem, &d)) == UZ_OK &&
        (r = uz_compressor_add_text(c, text, size, "mixed.pgn", &d)) == UZ_OK)
        r = uz_compressor_finish(c, &d);
    uz_compress_stats st = {0};
    if (r == UZ_OK)
        uz_compressor_stats(c, &st);
    uz_compressor_close(c);
    fclose(mem);
    CHECK(r == UZ_OK && st.blocks == 1 && st.games == l->n && st.games_as_text == 0, "compress: %s", d.message);

    uz_decompressor *dec = NULL;
    CHECK(uz_decompressor_open(&dec, &o, &d) == UZ_OK, "decompressor: %s", d.message);
    FILE *in = fmemopen(archive, archive_size, "rb");
    char *back = NULL;
    size_t back_size = 0;
    FILE *out = open_memstream(&back, &back_size);
    uint64_t games = 0;
    r = uz_decompressor_decode(dec, in, "mixed.ucz", out, &games, &d);
    fclose(out);
    CHECK(r == UZ_OK && games == l->n && back_size == size && memcmp(back, text, size) == 0,
          "decodes to the input's bytes: %s", d.message);
    for (size_t i = 0; i < l->n; i++) { /* each alone: the opening counts of the games before it */
        const char *g;
        size_t len;
        r = uz_decompressor_game(dec, in, "mixed.ucz", i + 1, &g, &len, &d);
        CHECK(r == UZ_OK && len == starts[i + 1] - starts[i] && memcmp(g, text + starts[i], len) == 0,
              "game %zu alone: %s", i + 1, d.message);
    }
    fclose(in);
    uz_decompressor_close(dec);
    free(back);
    free(archive);
    free(text);
}

int main(void)
{
    char path[4096];
    static game_list games;
    const char *c960 = "cat5_chess960_cutechess_python_chess.pgn";
    read_games(samples_path("master.pgn", path), 0, 2, &games);
    read_games(corpus_path(c960, path), 0, 2, &games);
    read_games(samples_path("amateur.pgn", path), 0, 2, &games);
    read_games(corpus_path(c960, path), 2, 2, &games);
    read_games(samples_path("engine.pgn", path), 0, 1, &games);
    CHECK(games.n == 9, "games read: %zu", games.n);
    if (games.n == 9) {
        test_dispatch(&games);
        test_stockfish_block(&games);
    }
    for (size_t i = 0; i < games.n; i++)
        uz_game_clear(&games.games[i]);
    return test_finish();
}
