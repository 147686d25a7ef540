/* The experimental game filter and the tag reader's decoding (include/ucizip_experimental.h)
 * on a builtin fixture archive (decodes with no engine installed) and the PGN file it was
 * made from: a game selected by its tags decodes, alone, to its exact bytes in that file;
 * a position filter finds the games that start there or pass through it (counted in the
 * PGN text); a player condition matches either colour; bad conditions are refused. */
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

#include "../common/uz_test.h"

static const char *data_path(const char *file, char *buf, size_t cap)
{
    const char *dir = getenv("UZ_TEST_DATA");
    snprintf(buf, cap, "%s/builtin/%s", dir ? dir : "tests/data", file);
    return buf;
}

/* Visits the archive with filter: every selected game that may reach the filter's position
 * is decoded (twice) and must be a slice of pgn that reaches it. Returns the games decoded. */
static size_t select_and_decode(const char *archive, const uz_game_filter *filter, const char *pgn, size_t pgn_len,
                                size_t *may_reach)
{
    FILE *f = fopen(archive, "rb");
    CHECK(f != NULL, "%s", archive);
    if (!f)
        return 0;
    uz_tag_reader *r = NULL;
    uz_game *game = NULL;
    uz_diag d = {0};
    uz_options o;
    uz_options_init(&o);
    o.engine = "builtin"; /* the member names its builtin */
    CHECK(uz_tag_reader_open(&r, f, archive, &d) == UZ_OK && uz_game_new(&game, &d) == UZ_OK);
    CHECK(uz_tag_reader_decode(r, game, &d) == UZ_ERR_ARG); /* nothing to decode yet */
    CHECK(uz_tag_reader_decode_with(r, &o, &d) == UZ_OK, "%s", d.message);
    uz_game_tags tags;
    size_t decoded = 0;
    *may_reach = 0;
    uz_result res;
    while ((res = uz_tag_reader_next(r, &tags, &d)) == UZ_OK) {
        const uz_game *listed = uz_tag_reader_game(r);
        if (!tags.is_game || !uz_game_filter_match(filter, listed))
            continue;
        if (!uz_game_filter_may_reach(filter, listed))
            continue;
        ++*may_reach;
        CHECK(uz_tag_reader_decode(r, game, &d) == UZ_OK, "game %llu: %s", (unsigned long long)tags.number,
              d.message);
        size_t len;
        const char *bytes = uz_game_bytes(game, &len);
        bool found = false;
        for (size_t at = 0; !found && len && at + len <= pgn_len; at++)
            found = memcmp(pgn + at, bytes, len) == 0;
        CHECK(found, "game %llu: its decoded bytes are not in the PGN file", (unsigned long long)tags.number);
        /* Decoded again (the reader hands a game decoded ahead out once): the same bytes. */
        size_t first_len = len;
        char *first = malloc(len + 1);
        memcpy(first, bytes, len);
        CHECK(uz_tag_reader_decode(r, game, &d) == UZ_OK, "game %llu again: %s", (unsigned long long)tags.number,
              d.message);
        bytes = uz_game_bytes(game, &len);
        CHECK(len == first_len && memcmp(first, bytes, len) == 0, "game %llu decoded twice: other bytes",
              (unsigned long long)tags.number);
        free(first);
        CHECK(uz_game_filter_match(filter, game) && uz_game_plies(game) == uz_game_plies(listed));
        decoded += uz_game_filter_reaches(filter, game);
    }
    CHECK(res == UZ_DONE, "%s", d.message);
    uz_game_free(game);
    uz_tag_reader_close(r);
    fclose(f);
    return decoded;
}

int main(void)
{
    char path[1024], archive[1024];
    size_t pgn_len, may;
    char *pgn = test_slurp(data_path("fixture_builtin1.pgn", path, sizeof path), &pgn_len);
    CHECK(pgn && pgn_len > 0, "%s", path);
    data_path("fixture_builtin1.ucz", archive, sizeof archive);
    uz_game_filter *f = NULL;
    uz_diag d = {0};

    /* One game by its White player: decoded alone, its exact bytes. */
    CHECK(uz_game_filter_new(&f, &d) == UZ_OK && uz_game_filter_conditions(f) == 0);
    CHECK(uz_game_filter_add_tag(f, "White==Giri, Anish", &d) == UZ_OK && uz_game_filter_conditions(f) == 1);
    CHECK(select_and_decode(archive, f, pgn, pgn_len, &may) == 1 && may == 1);
    uz_game_filter_free(f);

    /* A player of either colour: Caruana is White in one game of the file. */
    CHECK(uz_game_filter_new(&f, &d) == UZ_OK && uz_game_filter_add_player(f, "caruana", &d) == UZ_OK);
    CHECK(select_and_decode(archive, f, pgn, pgn_len, &may) == 1);
    uz_game_filter_free(f);

    /* The start position: every game of the file that has no FEN tag starts there. */
    size_t games = 0, from_fen = 0, d4d5 = 0;
    for (const char *p = pgn; (p = strstr(p, "\n[Event ")); p++)
        games++;
    for (const char *p = pgn; (p = strstr(p, "\n[FEN ")); p++)
        from_fen++;
    for (const char *p = pgn; (p = strstr(p, "\n1. d4 d5 ")); p++)
        d4d5++;
    games += strncmp(pgn, "[Event ", 7) == 0;
    CHECK(games == 6 && from_fen == 2 && d4d5 == 1, "%zu games, %zu from a FEN, %zu open 1. d4 d5", games, from_fen,
          d4d5);
    CHECK(uz_game_filter_new(&f, &d) == UZ_OK);
    CHECK(uz_game_filter_set_position(f, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &d) == UZ_OK);
    CHECK(uz_game_filter_has_position(f));
    CHECK(select_and_decode(archive, f, pgn, pgn_len, &may) == games - from_fen && may == games);
    /* The position after 1. d4 d5: the games that open so, and no other. */
    CHECK(uz_game_filter_set_position(f, "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq d6 0 2", &d) == UZ_OK);
    CHECK(select_and_decode(archive, f, pgn, pgn_len, &may) == d4d5 && may == games);
    /* A position with a white king and queen alone: more pieces gone than the shortest
     * games have plies? No game is that short, so every game may reach it; none does. */
    CHECK(uz_game_filter_set_position(f, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", &d) == UZ_OK);
    CHECK(select_and_decode(archive, f, pgn, pgn_len, &may) == 0);
    CHECK(uz_game_filter_set_position(f, "not a position", &d) != UZ_OK && d.column > 0);
    uz_game_filter_free(f);

    CHECK(uz_game_filter_new(&f, &d) == UZ_OK);
    CHECK(uz_game_filter_add_tag(f, "White", &d) != UZ_OK, "a condition without an operator");
    uz_game_filter_free(f);
    free(pgn);
    return test_finish();
}
