/* Tag conditions (list/extract/ratings --tag) and the tags of verbatim games. */
#include <string.h>

#include "../common/uz_test.h"
#include "pgn/tagfilter.h"

static uz_game game_with(const char *const *tags)
{
    uz_game g;
    uz_game_init(&g);
    for (; tags[0]; tags += 2)
        uz_game_add_tag(&g, tags[0], tags[1]);
    return g;
}

/* expr applied alone to g gives want. */
static void expect(const uz_game *g, const char *expr, bool want)
{
    uz_tag_filter f = {0};
    uz_diag d = {0};
    CHECK(uz_tag_filter_add(&f, expr, &d) == UZ_OK, "%s: %s", expr, d.message);
    CHECK(uz_tag_filter_match(&f, g) == want, "%s should %smatch", expr, want ? "" : "not ");
    uz_tag_filter_free(&f);
}

int main(void)
{
    static const char *const tags[] = {"White", "Carlsen, Magnus", "WhiteElo", "2865", "BlackElo", "?",
                                       "Date", "2022.01.15", "Round", "1.1", "Event", "", NULL};
    uz_game g = game_with(tags);
    expect(&g, "White=carlsen", true);
    expect(&g, "White=Giri", false);
    expect(&g, "White==Carlsen", false);
    expect(&g, "White==Carlsen, Magnus", true);
    expect(&g, "White!=Giri", true);
    expect(&g, "Black!=Giri", true); /* missing tag */
    expect(&g, "Black=", false);     /* missing tag */
    expect(&g, "Event==", true);     /* empty value */
    expect(&g, "WhiteElo>2500", true);
    expect(&g, "WhiteElo>=2865", true);
    expect(&g, "WhiteElo<2865", false);
    expect(&g, "WhiteElo<=2865.0", true);
    expect(&g, "BlackElo<3000", false); /* "?" is no number */
    expect(&g, "BlackElo>0", false);
    expect(&g, "Date>=2022.01.01", true); /* text: dates compare as dates */
    expect(&g, "Date<2022.01.15", false);
    expect(&g, "Date<2023", true);        /* its leading number */
    expect(&g, "Round<1.2", true);

    /* All conditions must hold. */
    uz_tag_filter f = {0};
    uz_tag_filter_add(&f, "White=Carlsen", NULL);
    uz_tag_filter_add(&f, "WhiteElo>2900", NULL);
    CHECK(!uz_tag_filter_match(&f, &g), "conditions combine");
    uz_tag_filter_free(&f);

    /* Bad conditions: the column of the fault. */
    uz_diag d = {0};
    CHECK(uz_tag_filter_add(&f, "=x", &d) == UZ_ERR_SYNTAX && d.column == 1, "no name");
    CHECK(uz_tag_filter_add(&f, "White~x", &d) == UZ_ERR_SYNTAX && d.column == 6, "bad operator");
    CHECK(f.n == 0, "nothing added");

    /* Alternatives: one of a group must hold; groups combine. */
    expect(&g, "Black=Carlsen|White=Carlsen", true);
    expect(&g, "Black=Carlsen|White=Giri", false);
    expect(&g, "White=Giri|WhiteElo>2800|Date<1900", true);
    static const char *const piped[] = {"Event", "A|B", NULL};
    uz_game pg = game_with(piped);
    expect(&pg, "Event==A\\|B", true); /* "\|" is a '|' of the value */
    expect(&pg, "Event==A|Event==B", false);
    uz_game_clear(&pg);
    uz_tag_filter_add(&f, "White=Giri|White=Carlsen", NULL);
    uz_tag_filter_add(&f, "WhiteElo>2900|Date>=2022", NULL);
    CHECK(f.n == 4 && f.n_groups == 2 && uz_tag_filter_match(&f, &g), "two groups of two");
    uz_tag_filter_add(&f, "Round==2|Round==3", NULL);
    CHECK(!uz_tag_filter_match(&f, &g), "a third group that fails");
    uz_tag_filter_free(&f);

    /* --player: either colour, contained, any case. */
    static const char *const as_black[] = {"White", "Giri, Anish", "Black", "Carlsen, Magnus", NULL};
    uz_game bg = game_with(as_black);
    CHECK(uz_tag_filter_add_player(&f, "carlsen", &d) == UZ_OK, "--player");
    CHECK(uz_tag_filter_match(&f, &g) && uz_tag_filter_match(&f, &bg), "--player finds both colours");
    uz_tag_filter_add_player(&f, "Giri", &d);
    CHECK(!uz_tag_filter_match(&f, &g) && uz_tag_filter_match(&f, &bg), "two players: their games together");
    uz_tag_filter_free(&f);
    CHECK(uz_tag_filter_add_player(&f, "", &d) == UZ_ERR_SYNTAX && f.n == 0, "--player ''");
    uz_game_clear(&bg);

    /* Operators that are not understood, and pgn-extract's pseudo-tags: refused, not
     * silently matching nothing. */
    CHECK(uz_tag_filter_add(&f, "WhiteElo>>2500", &d) == UZ_ERR_SYNTAX && d.column == 9 && strstr(d.message, "'>>'"),
          ">>: %ld %s", d.column, d.message);
    CHECK(uz_tag_filter_add(&f, "WhiteElo=>2500", &d) == UZ_ERR_SYNTAX && strstr(d.message, "'=>'"), "=>");
    CHECK(uz_tag_filter_add(&f, "WhiteElo=<2500", &d) == UZ_ERR_SYNTAX, "=<");
    CHECK(uz_tag_filter_add(&f, "White!==x", &d) == UZ_ERR_SYNTAX, "!==");
    CHECK(uz_tag_filter_add(&f, "White=A|", &d) == UZ_ERR_SYNTAX && d.column == 9, "empty alternative: %ld",
          d.column);
    CHECK(uz_tag_filter_add(&f, "White=A|Black>>3", &d) == UZ_ERR_SYNTAX && d.column == 14, "bad second: %ld",
          d.column);
    CHECK(uz_tag_filter_add(&f, "Player=Tal", &d) == UZ_ERR_SYNTAX && strstr(d.message, "--player"),
          "Player: %s", d.message);
    CHECK(uz_tag_filter_add(&f, "White=x|Player==Tal", &d) == UZ_ERR_SYNTAX, "Player as an alternative");
    CHECK(uz_tag_filter_add(&f, "FENPattern=*/*", &d) == UZ_ERR_SYNTAX && strstr(d.message, "--fen"), "FENPattern");
    CHECK(f.n == 0 && f.n_groups == 0, "nothing added by refused conditions");
    uz_tag_filter_free(&f);
    expect(&g, "Players=x", false); /* a tag name like any other */
    uz_game_clear(&g);

    /* A verbatim game's tag section, escapes resolved; its result from the Result tag. */
    static const char text[] = "[Event \"Odd \\\"one\\\"\"]\n[White \"A\\\\B\"]\n[Result \"0-1\"]\n"
                               "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 P@e4 0-1";
    uz_game_init(&g);
    CHECK(uz_game_set_verbatim(&g, text, sizeof text - 1) == UZ_OK, "verbatim");
    CHECK(uz_game_verbatim_tags(&g) == UZ_OK && g.n_tags == 4, "verbatim tags: %zu", g.n_tags);
    CHECK(g.n_tags == 4 && strcmp(uz_game_tag(&g, "Event"), "Odd \"one\"") == 0 &&
              strcmp(uz_game_tag(&g, "White"), "A\\B") == 0 && g.result == UZ_RESULT_BLACK,
          "verbatim tag values");
    uz_game_clear(&g);
    return test_finish();
}
