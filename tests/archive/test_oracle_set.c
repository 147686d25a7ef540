/* The oracle set with the real Stockfish at depth 1 and the builtin: a Chess960 game is
 * refused until the set starts its Chess960 engine, then scored; the header gets that
 * engine's fingerprint; decoding, the set refuses a Chess960 engine whose fingerprint is
 * not the expected one (the message users see), accepts the right one, and drops it when
 * the next member expects another; the builtin codes both kinds itself (key 12 = key 2).
 * Readying a batch starts the Chess960 engine only for a batch that holds a Chess960 game,
 * and a header filled before then is no longer current (a compressor's new member);
 * decoding, a Chess960 game in a member whose header names no Chess960 engine is refused. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test_games.h"
#include "../common/uz_test_engine.h"
#include "builtin/builtin.h"
#include "gamecode/gamecode.h"
#include "gamecode/member.h"
#include "gamecode/oracle_set.h"

/* Scores every position of game with the set's oracle; the result, diag the message. */
static uz_result score_game(uz_oracle_set *set, uz_game *game, uz_diag *diag)
{
    uz_walk w;
    memset(diag, 0, sizeof *diag);
    uz_result r = uz_walk_init(&w, game);
    if (r == UZ_OK)
        r = uz_score_walks(uz_oracle_set_oracle(set), &w, 1, diag);
    uz_walk_free(&w);
    return r;
}

static void header_of(const uz_oracle_set *set, uz_archive_header *h)
{
    uz_model_params params = uz_model_default_params();
    uz_oracle_set_fill_header(set, h, &params, UZ_CODER_RANGE, 16);
}

/* Compressing: returns the Chess960 fingerprint the set puts in headers. */
static void coding_set(const uz_engine_settings *base, uz_game *games, char *fp960, size_t cap)
{
    uz_oracle_set *set = NULL;
    uz_diag d = {0};
    uz_archive_header h;
    CHECK(uz_oracle_set_open_engine(&set, base, 1, &d) == UZ_OK, "engine set: %s", d.message);
    if (!set)
        return;
    uz_game *standard = &games[0], *c960 = &games[1];
    CHECK(uz_oracle_set_pool(set) && !uz_oracle_set_builtin(set) && !uz_oracle_set_codes_chess960(set), "engine only");
    CHECK(score_game(set, standard, &d) == UZ_OK, "standard game scored: %s", d.message);
    uz_result r = score_game(set, c960, &d);
    CHECK(r == UZ_ERR_ARG && strcmp(d.message, "Chess960 games need an engine with UCI_Chess960") == 0,
          "a Chess960 game before the Chess960 engine: %d %s", r, d.message);
    header_of(set, &h);
    CHECK(h.chess960_fingerprint[0] == 0 && strcmp(h.fingerprint, uz_pool_fingerprint(uz_oracle_set_pool(set))) == 0,
          "a header without key 12");

    CHECK(uz_oracle_set_prepare_games(set, standard, 1, &d) == UZ_OK && !uz_oracle_set_codes_chess960(set) &&
              uz_oracle_set_header_current(set, &h),
          "a batch of standard games starts no Chess960 engine: %s", d.message);
    CHECK(uz_oracle_set_prepare_games(set, games, 2, &d) == UZ_OK && uz_oracle_set_codes_chess960(set) &&
              !c960->verbatim,
          "Chess960 engine started for the batch: %s", d.message);
    CHECK(!uz_oracle_set_header_current(set, &h), "the header without key 12 is no longer current");
    CHECK(score_game(set, c960, &d) == UZ_OK, "Chess960 game scored: %s", d.message);
    header_of(set, &h);
    CHECK(uz_oracle_set_header_current(set, &h), "the header filled since is current");
    CHECK(strlen(h.chess960_fingerprint) == 16 && strcmp(h.chess960_fingerprint, h.fingerprint) != 0,
          "key 12 names the Chess960 engine: %s", h.chess960_fingerprint);
    snprintf(fp960, cap, "%s", h.chess960_fingerprint);
    uz_pool_stats st;
    uz_oracle_set_pool_stats(set, &st);
    CHECK(st.queries > (uint64_t)(standard->main.n_nodes + c960->main.n_nodes) / 2,
          "both engines' queries counted: %llu", (unsigned long long)st.queries);
    uz_oracle_set_close(set);
}

/* Decoding: the Chess960 engine checked against the member header's fingerprint. */
static void decoding_set(const uz_engine_settings *base, uz_game *standard, uz_game *c960, const char *fp960)
{
    uz_oracle_set *set = NULL;
    uz_diag d = {0};
    CHECK(uz_oracle_set_open_engine(&set, base, 1, &d) == UZ_OK, "engine set: %s", d.message);
    if (!set)
        return;
    const char *wrong = "0123456789abcdef";
    CHECK(uz_oracle_set_expect_chess960(set, "", &d) == UZ_OK && uz_oracle_set_prepare_decode(set, false, &d) == UZ_OK,
          "a batch without Chess960 games in a member without key 12");
    CHECK(uz_oracle_set_prepare_decode(set, true, &d) == UZ_ERR_CORRUPT && !uz_oracle_set_codes_chess960(set),
          "a Chess960 game in a member without key 12 refused");
    CHECK(uz_oracle_set_expect_chess960(set, wrong, &d) == UZ_OK && uz_oracle_set_expects_chess960(set), "expect");
    uz_result r = uz_oracle_set_start_chess960(set, &d);
    char want[256];
    snprintf(want, sizeof want,
             "wrong engine: with UCI_Chess960 it gives fingerprint %s, the archive's Chess960 games need %s", fp960,
             wrong);
    CHECK(r == UZ_ERR_MISMATCH && strcmp(d.message, want) == 0 && !uz_oracle_set_codes_chess960(set),
          "a wrong Chess960 engine refused: %d %s", r, d.message);

    CHECK(uz_oracle_set_expect_chess960(set, fp960, &d) == UZ_OK && uz_oracle_set_start_chess960(set, &d) == UZ_OK &&
              uz_oracle_set_codes_chess960(set),
          "the right one accepted: %s", d.message);
    CHECK(score_game(set, c960, &d) == UZ_OK, "Chess960 game decoded with it: %s", d.message);

    /* The next member names none: the Chess960 engine is gone, standard games still go. */
    CHECK(uz_oracle_set_expect_chess960(set, "", &d) == UZ_OK && !uz_oracle_set_expects_chess960(set) &&
              !uz_oracle_set_codes_chess960(set),
          "a member without key 12");
    CHECK(score_game(set, standard, &d) == UZ_OK, "standard game after: %s", d.message);
    CHECK(score_game(set, c960, &d) == UZ_ERR_ARG, "no Chess960 engine left");
    uz_oracle_set_close(set);
}

/* The builtin: no engine, both kinds scored, key 12 = key 2 once asked for. */
static void builtin_set(uz_game *c960)
{
    uz_oracle_set *set = NULL;
    uz_diag d = {0};
    uz_archive_header h;
    CHECK(uz_oracle_set_open_builtin(&set, UZ_BUILTIN_DEFAULT, 0, 1, &d) == UZ_OK, "builtin set: %s", d.message);
    if (!set)
        return;
    CHECK(!uz_oracle_set_pool(set) && uz_oracle_set_builtin(set) && !uz_oracle_set_codes_chess960(set), "builtin");
    header_of(set, &h);
    CHECK(h.chess960_fingerprint[0] == 0 && uz_header_is_builtin(&h), "a builtin header without key 12");
    CHECK(uz_oracle_set_prepare_games(set, c960, 1, &d) == UZ_OK && uz_oracle_set_codes_chess960(set) &&
              !uz_oracle_set_header_current(set, &h),
          "builtin codes Chess960");
    CHECK(score_game(set, c960, &d) == UZ_OK, "Chess960 game scored by the builtin: %s", d.message);
    header_of(set, &h);
    CHECK(strcmp(h.chess960_fingerprint, h.fingerprint) == 0, "builtin key 12 = key 2");
    uz_pool_stats st;
    uz_oracle_set_pool_stats(set, &st);
    CHECK(st.queries == 0, "no engine counters");
    uz_oracle_set_close(set);
}

int main(void)
{
    char path[1024], path960[1024];
    uz_game games[2];
    size_t n = 0;
    uz_test_read_games(samples_path("master.pgn", path), 0, 1, games, 2, &n);
    uz_test_read_games(corpus_path("cat5_chess960_cutechess_python_chess.pgn", path960), 0, 1, games, 2, &n);
    CHECK(n == 2 && !games[0].start.chess960 && games[1].start.chess960, "a standard and a Chess960 game");
    if (n != 2)
        return test_finish();

    uz_engine_settings base;
    if (!uz_test_stockfish_settings(&base, 1))
        return 1;
    char fp960[64] = "";
    coding_set(&base, games, fp960, sizeof fp960);
    if (fp960[0])
        decoding_set(&base, &games[0], &games[1], fp960);
    builtin_set(&games[1]);
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
    return test_finish();
}
