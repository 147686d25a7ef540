/* Special cases of PGN reading and writing: BOM, CRLF, escape lines, ';' comments, null
 * moves, FEN starts, empty games, comment placement, glyphs, exact writer output. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/pgn.h"
#include "chess/san.h"

#include "../common/uz_test.h"

/* Reads all games of text (len bytes) into games[] (max 8); returns how many, -1 on error. */
static int read_all(const char *text, size_t len, uz_game *games, int max, uz_diag *diag)
{
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, len, "special.pgn");
    int n = 0;
    uz_result rc = UZ_OK;
    while (n < max) {
        uz_game_init(&games[n]);
        rc = uz_pgn_read_game(r, &games[n], diag);
        if (rc != UZ_OK)
            break;
        n++;
    }
    uz_pgn_reader_close(r);
    return rc == UZ_OK || rc == UZ_DONE ? n : -1;
}

static void clear_all(uz_game *games, int n)
{
    for (int i = 0; i < n; i++)
        uz_game_clear(&games[i]);
}

/* Main line of a game as space-separated SAN. */
static void main_line(const uz_game *g, char *out, size_t size)
{
    uz_position pos = g->start;
    out[0] = '\0';
    for (size_t i = 0; i < g->main.n_nodes; i++) {
        char san[UZ_SAN_MAX];
        uz_san_format(&pos, g->main.nodes[i].move, san);
        snprintf(out + strlen(out), size - strlen(out), "%s%s", i ? " " : "", san);
        uz_undo undo;
        uz_make_move(&pos, g->main.nodes[i].move, &undo);
    }
}

/* Reads exactly one game from a C string, checks it round-trips, returns its written text
 * in written (if not NULL). */
static bool one_game(const char *pgn, size_t len, uz_game *g, char *written, size_t wsize)
{
    uz_game extra[2];
    uz_diag diag;
    int n = read_all(pgn, len, extra, 2, &diag);
    CHECK(n == 1, "expected one game, got %d (%s) in: %.60s", n, n < 0 ? diag.message : "", pgn);
    if (n != 1) {
        if (n > 0)
            clear_all(extra, n);
        return false;
    }
    *g = extra[0];
    char *text;
    size_t tlen;
    CHECK(uz_pgn_game_to_string(g, &text, &tlen) == UZ_OK, "write");
    uz_game back;
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, tlen, "written");
    uz_game_init(&back);
    CHECK(uz_pgn_read_game(r, &back, &diag) == UZ_OK && uz_game_equal(g, &back), "round trip of: %.60s\nwritten:\n%s", pgn,
          text);
    uz_pgn_reader_close(r);
    uz_game_clear(&back);
    if (written)
        snprintf(written, wsize, "%s", text);
    free(text);
    return true;
}

#define ONE(pgn, g) one_game(pgn, sizeof pgn - 1, g, NULL, 0)

static void test_bom_crlf_escape(void)
{
    uz_game g;
    char line[512];
    static const char bom[] = "\xEF\xBB\xBF[Event \"b\xC3\xA9\"]\n\n1. e4 e5 *\n";
    if (ONE(bom, &g)) {
        CHECK(strcmp(uz_game_tag(&g, "Event"), "b\xC3\xA9") == 0, "BOM: tag value");
        CHECK(g.main.n_nodes == 2 && g.first_line == 1, "BOM: moves");
        uz_game_clear(&g);
    }
    static const char bom_escape[] = "\xEF\xBB\xBF% escape line right after the BOM\n[Event \"x\"]\n\n1. d4 *\n";
    if (ONE(bom_escape, &g)) {
        CHECK(g.first_line == 2, "BOM + escape: first line %ld", g.first_line);
        uz_game_clear(&g);
    }
    static const char crlf[] = "[Event \"x\"]\r\n[Site \"y\"]\r\n\r\n1. e4 {two\r\nlines} e5 2. Nf3\r\nNc6 1-0\r\n";
    if (ONE(crlf, &g)) {
        CHECK(strcmp(uz_game_tag(&g, "Site"), "y") == 0, "CRLF: tag value without CR");
        CHECK(g.main.n_nodes == 4 && g.result == UZ_RESULT_WHITE, "CRLF: moves and result");
        CHECK(g.main.nodes[0].n_comments == 1 && strcmp(g.main.nodes[0].comments[0], "two\nlines") == 0,
              "CRLF: comment line end normalised to LF");
        uz_game_clear(&g);
    }
    static const char escapes[] = "% file header\n[Event \"x\"]\n\n1. e4\n% escape inside movetext\ne5 *\n"
                                  "% between games\n[Event \"y\"]\n\n1. d4 {a comment\n% not an escape inside braces} *\n";
    uz_game gs[4];
    uz_diag diag;
    int n = read_all(escapes, sizeof escapes - 1, gs, 4, &diag);
    CHECK(n == 2, "escape lines: %d games (%s)", n, n < 0 ? diag.message : "");
    if (n == 2) {
        main_line(&gs[0], line, sizeof line);
        CHECK(strcmp(line, "e4 e5") == 0, "escape lines: main line '%s'", line);
        CHECK(gs[1].main.nodes[0].n_comments == 1 &&
                  strcmp(gs[1].main.nodes[0].comments[0], "a comment\n% not an escape inside braces") == 0,
              "escape lines: '%%' inside a comment kept");
        CHECK(gs[1].first_line == 8 && gs[1].number == 2, "escape lines: game 2 at line %ld", gs[1].first_line);
    }
    if (n > 0)
        clear_all(gs, n);
}

static void test_semicolon_comments(void)
{
    uz_game g;
    char written[1024];
    static const char semi[] = "1. e4 ; hello {x} (y)\ne5 ;\n2. Nf3 *\n";
    if (one_game(semi, sizeof semi - 1, &g, written, sizeof written)) {
        CHECK(g.main.n_nodes == 3, "';': moves");
        CHECK(g.main.nodes[0].n_comments == 1 && strcmp(g.main.nodes[0].comments[0], " hello {x} (y)") == 0,
              "';': comment text kept exactly");
        CHECK(g.main.nodes[1].n_comments == 1 && g.main.nodes[1].comments[0][0] == '\0', "';': empty comment");
        /* it holds '}', so it stays a ';' comment */
        CHECK(strcmp(written, "1. e4 ; hello {x} (y)\n1... e5 {} 2. Nf3 *\n\n") == 0, "';': written as '%s'", written);
        uz_game_clear(&g);
    }
    /* a ';' comment holding '}' is written back as a ';' comment */
    static const char close[] = "1. e4 ;see } here\ne5 * ; after the end }\n";
    if (one_game(close, sizeof close - 1, &g, written, sizeof written)) {
        CHECK(strcmp(written, "1. e4 ;see } here\n1... e5 * ; after the end }\n\n") == 0, "'}' in comment: written '%s'",
              written);
        CHECK(g.n_trailing_comments == 1, "trailing ';' comment");
        uz_game_clear(&g);
    }
}

static void test_null_moves(void)
{
    uz_game g;
    char written[1024];
    static const char var[] = "1. e4 (1. -- e5 2. Nf3) 1... e5 2. Z0 Nc6 *";
    if (one_game(var, sizeof var - 1, &g, written, sizeof written)) {
        CHECK(g.main.nodes[0].n_variations == 1 && g.main.nodes[0].variations[0].nodes[0].move == UZ_MOVE_NULL,
              "null move in a variation");
        CHECK(g.main.nodes[2].move == UZ_MOVE_NULL, "Z0 in the main line");
        CHECK(strcmp(written, "1. e4 (1. -- e5 2. Nf3) 1... e5 2. -- Nc6 *\n\n") == 0, "null moves written '%s'",
              written);
        uz_game_clear(&g);
    }
}

static void test_fen_games(void)
{
    uz_game g;
    char written[1024];
    static const char black[] = "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 Ke6 *\n";
    if (one_game(black, sizeof black - 1, &g, written, sizeof written)) {
        CHECK(g.has_fen && g.start.side == UZ_BLACK, "FEN: Black to move");
        CHECK(strcmp(written, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 1\"]\n\n1... Kd7 2. e4 Ke6 *\n\n") == 0,
              "FEN: written '%s'", written);
        uz_game_clear(&g);
    }
    static const char bare[] = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 37\"]\n\n37. e4 Kd7 38. e5 *\n";
    if (ONE(bare, &g)) {
        CHECK(g.has_fen && g.start.fullmove == 37 && g.main.n_nodes == 3, "bare FEN without SetUp");
        uz_game_clear(&g);
    }
    static const char zero[] = "[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 0\"]\n\n*\n";
    if (ONE(zero, &g)) {
        CHECK(g.has_fen && g.main.n_nodes == 0, "FEN with fullmove 0");
        uz_game_clear(&g);
    }
    /* castling rights the position cannot have are ignored (king not on e1) */
    static const char bad_castle[] = "[FEN \"r3k2r/8/8/8/8/8/8/R1K4R w KQkq - 0 1\"]\n\n1. Rh2 O-O *\n";
    if (ONE(bad_castle, &g)) {
        CHECK(g.start.castling == (UZ_CASTLE_BK | UZ_CASTLE_BQ), "impossible castling rights dropped: %d",
              g.start.castling);
        uz_game_clear(&g);
    }
    static const char variants[] = "[Variant \"From Position\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n*\n\n"
                                   "[Variant \"STANDARD\"]\n\n*\n\n[Variant \"normal\"]\n\n*\n";
    uz_game gs[4];
    uz_diag diag;
    int n = read_all(variants, sizeof variants - 1, gs, 4, &diag);
    CHECK(n == 3, "standard variant names accepted: %d (%s)", n, n < 0 ? diag.message : "");
    if (n > 0)
        clear_all(gs, n);
    /* a tree with has_fen but no FEN tag gets SetUp/FEN from its start position */
    uz_game_init(&g);
    uz_position_from_fen(&g.start, "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", NULL);
    g.has_fen = true;
    uz_line_add_move(&g.main, UZ_MOVE(UZ_SQ(4, 1), UZ_SQ(4, 3), 0));
    char *text;
    size_t len;
    CHECK(uz_pgn_game_to_string(&g, &text, &len) == UZ_OK &&
              strcmp(text, "[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 *\n\n") == 0,
          "synthesised FEN tag");
    free(text);
    uz_game_clear(&g);
}

static void test_empty_games(void)
{
    uz_game g;
    char written[1024];
    static const char nomoves[] = "[Event \"forfeit\"]\n[Result \"1-0\"]\n\n1-0\n";
    if (one_game(nomoves, sizeof nomoves - 1, &g, written, sizeof written)) {
        CHECK(g.main.n_nodes == 0 && g.result == UZ_RESULT_WHITE, "game with no moves");
        CHECK(strcmp(written, "[Event \"forfeit\"]\n[Result \"1-0\"]\n\n1-0\n\n") == 0, "no moves written '%s'", written);
        uz_game_clear(&g);
    }
    static const char bare[] = "*";
    if (one_game(bare, 1, &g, written, sizeof written)) {
        CHECK(g.n_tags == 0 && g.main.n_nodes == 0, "empty tagless game");
        CHECK(strcmp(written, "*\n\n") == 0, "empty game written '%s'", written);
        uz_game_clear(&g);
    }
    static const char comment_only[] = "[Event \"x\"]\n\n{ not started } *\n";
    if (ONE(comment_only, &g)) {
        CHECK(g.main.n_pre_comments == 1 && strcmp(g.main.pre_comments[0], " not started ") == 0, "comment only game");
        uz_game_clear(&g);
    }
    uz_game gs[4];
    uz_diag diag;
    CHECK(read_all("", 0, gs, 4, &diag) == 0, "empty input");
    static const char nogames[] = "\n\n% only an escape\n{orphan comment}\n";
    CHECK(read_all(nogames, sizeof nogames - 1, gs, 4, &diag) == 0, "input without games");
    uz_game_clear(NULL); /* no-op */
}

static void test_comment_placement(void)
{
    uz_game g;
    char written[1024];
    static const char pgn[] = "{before} {twice} 1. e4 {after e4} ({variation start} 1. d4 d5 {end}) ({alt} 1. c4) "
                              "e5 $1 {c} $2 2. Nf3 * {trailing}";
    if (one_game(pgn, sizeof pgn - 1, &g, written, sizeof written)) {
        CHECK(g.main.n_pre_comments == 2 && strcmp(g.main.pre_comments[1], "twice") == 0, "comments before first move");
        const uz_node *e4 = &g.main.nodes[0];
        CHECK(e4->n_comments == 1 && e4->n_variations == 2, "comment and variations of e4");
        CHECK(e4->variations[0].n_pre_comments == 1 && strcmp(e4->variations[0].pre_comments[0], "variation start") == 0,
              "comment at the start of a variation");
        CHECK(e4->variations[0].nodes[1].n_comments == 1, "comment at the end of a variation");
        const uz_node *e5 = &g.main.nodes[1];
        CHECK(e5->n_nags == 2 && e5->nags[0] == 1 && e5->nags[1] == 2 && e5->n_comments == 1, "NAGs around a comment");
        CHECK(g.n_trailing_comments == 1 && strcmp(g.trailing_comments[0], "trailing") == 0, "trailing comment");
        CHECK(strcmp(written, "{before} {twice} 1. e4 {after e4} ({variation start} 1. d4 d5 {end}) ({alt} 1.\n"
                              "c4) 1... e5 $1 {c} $2 2. Nf3 * {trailing}\n\n") == 0, /* NAGs and comments in file order */
              "comments written '%s'", written);
        uz_game_clear(&g);
    }
    /* after a game's result, comments go to the game before tags, to the next game before
     * a tagless one */
    static const char two[] = "1. e4 * {t1}\n\n[Event \"x\"]\n\n1. d4 * {t2}\n1. c4 *\n";
    uz_game gs[4];
    uz_diag diag;
    int n = read_all(two, sizeof two - 1, gs, 4, &diag);
    CHECK(n == 3, "trailing comments: %d games", n);
    if (n == 3) {
        CHECK(gs[0].n_trailing_comments == 1 && gs[1].n_trailing_comments == 0 && gs[2].main.n_pre_comments == 1 &&
                  strcmp(gs[2].main.pre_comments[0], "t2") == 0,
              "trailing comment attribution");
        CHECK(gs[2].first_line == 5, "tagless game after a comment starts at the comment's line: %ld", gs[2].first_line);
    }
    if (n > 0)
        clear_all(gs, n);
}

static void test_glyphs_and_numbers(void)
{
    uz_game g;
    char line[512], written[1024];
    static const char glyphs[] = "1. e4! e5? 2. Nf3!! Nc6?? 3. Bb5!? a6?! 4. Ba4 ! Nf6 $14 !? *";
    if (one_game(glyphs, sizeof glyphs - 1, &g, written, sizeof written)) {
        int ok = 1;
        for (int i = 0; i < 6; i++)
            ok &= g.main.nodes[i].n_nags == 1 && g.main.nodes[i].nags[0] == i + 1;
        CHECK(ok, "attached glyphs map to $1..$6");
        CHECK(g.main.nodes[6].n_nags == 1 && g.main.nodes[6].nags[0] == 1, "standalone glyph");
        CHECK(g.main.nodes[7].n_nags == 2 && g.main.nodes[7].nags[0] == 14 && g.main.nodes[7].nags[1] == 5, "$14 !?");
        CHECK(strcmp(written, "1. e4 $1 e5 $2 2. Nf3 $3 Nc6 $4 3. Bb5 $5 a6 $6 4. Ba4 $1 Nf6 $14 $5 *\n\n") == 0,
              "glyphs written '%s'", written);
        uz_game_clear(&g);
    }
    static const char numbers[] = "1.e4 e5 2 Nf3 2...Nc6 3. Bb5 3 ... a6 4.Ba4 ... Nf6 5 . O-O *";
    if (ONE(numbers, &g)) {
        main_line(&g, line, sizeof line);
        CHECK(strcmp(line, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O") == 0, "move numbers in every style: '%s'", line);
        uz_game_clear(&g);
    }
    static const char sans[] = "[FEN \"4k3/8/8/3pP3/8/8/1p6/4K3 w - d6 0 1\"]\n\n1. exd6 e.p. b1(Q)+ 2. Kd2 Qb4+ *";
    if (ONE(sans, &g)) {
        main_line(&g, line, sizeof line);
        CHECK(strcmp(line, "exd6 b1=Q+ Kd2 Qb4+") == 0, "e.p. suffix and e8(Q) promotion: '%s'", line);
        uz_game_clear(&g);
    }
    static const char uci[] = "1. g1f3 c7c5 2. e2e4 *";
    if (ONE(uci, &g)) {
        main_line(&g, line, sizeof line);
        CHECK(strcmp(line, "Nf3 c5 e4") == 0, "UCI movetext: '%s'", line);
        uz_game_clear(&g);
    }
}

static void test_tags(void)
{
    uz_game g;
    char written[1024];
    static const char tags[] = "[White \"Kasparov, G\\\\\\\"Garry\\\"\"]\n[Annotator \"C:\\games\"]\n[Event \"x\"]\n\n"
                               "[Site \"blank line inside the tag section\"]\n[Latin1 \"Andr\xE9\"] 1. e4 *";
    if (one_game(tags, sizeof tags - 1, &g, written, sizeof written)) {
        CHECK(strcmp(uz_game_tag(&g, "White"), "Kasparov, G\\\"Garry\"") == 0, "tag escapes: '%s'",
              uz_game_tag(&g, "White"));
        CHECK(strcmp(uz_game_tag(&g, "Annotator"), "C:\\games") == 0, "lone backslash kept");
        CHECK(strcmp(uz_game_tag(&g, "Latin1"), "Andr\xE9") == 0, "Latin-1 byte kept");
        CHECK(g.n_tags == 5 && g.main.n_nodes == 1, "blank line in tag section, movetext on the tag line");
        CHECK(strcmp(written, "[Event \"x\"]\n[Site \"blank line inside the tag section\"]\n"
                              "[White \"Kasparov, G\\\\\\\"Garry\\\"\"]\n[Annotator \"C:\\\\games\"]\n"
                              "[Latin1 \"Andr\xE9\"]\n\n1. e4 *\n\n") == 0,
              "tags written '%s'", written);
        uz_game_clear(&g);
    }
    /* games separated by no blank line, result tag disagreeing with the marker */
    static const char packed[] = "[Event \"a\"]\n[Result \"1-0\"]\n1. e4 0-1\n[Event \"b\"]\n1. d4 1/2-1/2[Event \"c\"]*";
    uz_game gs[4];
    uz_diag diag;
    int n = read_all(packed, sizeof packed - 1, gs, 4, &diag);
    CHECK(n == 3, "packed games: %d (%s)", n, n < 0 ? diag.message : "");
    if (n == 3) {
        CHECK(gs[0].result == UZ_RESULT_BLACK && strcmp(uz_game_tag(&gs[0], "Result"), "1-0") == 0,
              "Result tag and marker kept apart");
        CHECK(gs[1].result == UZ_RESULT_DRAW && gs[2].number == 3 && gs[2].first_line == 5, "packed game numbering");
    }
    if (n > 0)
        clear_all(gs, n);
    /* an empty value is empty (not the text of the token before it) */
    static const char empty[] = "[WhiteElo \"\"]\n[BlackElo \"\"]\n\n1. e4 *";
    if (ONE(empty, &g)) {
        CHECK(strcmp(uz_game_tag(&g, "WhiteElo"), "") == 0 && strcmp(uz_game_tag(&g, "BlackElo"), "") == 0,
              "empty tag values: '%s' '%s'", uz_game_tag(&g, "WhiteElo"), uz_game_tag(&g, "BlackElo"));
        uz_game_clear(&g);
    }
    /* NUL bytes: dropped inside comments and tag values, an error elsewhere */
    static const char nul[] = "[Event \"a\0b\"]\n\n1. e4 {x\0y} *";
    if (ONE(nul, &g)) {
        CHECK(strcmp(uz_game_tag(&g, "Event"), "ab") == 0 && strcmp(g.main.nodes[0].comments[0], "xy") == 0,
              "NUL bytes dropped");
        uz_game_clear(&g);
    }
    static const char nul_move[] = "1. e4 \0 *";
    CHECK(read_all(nul_move, sizeof nul_move - 1, gs, 4, &diag) < 0 && strstr(diag.message, "unexpected byte 0x00"),
          "NUL byte in movetext");
}

static void test_writer(void)
{
    uz_game g;
    char written[4096];
    /* wrapping at 79 columns, "N..." after a variation, nested variations */
    static const char pgn[] =
        "[Event \"w\"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O (4. d3 d6) 4... Nxe4) 4. Ba4 Nf6 5. O-O Be7 "
        "6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12. cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 1/2-1/2";
    if (one_game(pgn, sizeof pgn - 1, &g, written, sizeof written)) {
        CHECK(strcmp(written,
                     "[Event \"w\"]\n\n"
                     "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 (3... Nf6 4. O-O (4. d3 d6) 4... Nxe4) 4. Ba4 Nf6\n"
                     "5. O-O Be7 6. Re1 b5 7. Bb3 d6 8. c3 O-O 9. h3 Nb8 10. d4 Nbd7 11. c4 c6 12.\n"
                     "cxb5 axb5 13. Nc3 Bb7 14. Bg5 b4 1/2-1/2\n\n") == 0,
              "wrapped output '%s'", written);
        uz_game_clear(&g);
    }
    /* a long comment is not broken */
    char long_comment[400];
    snprintf(long_comment, sizeof long_comment, "1. e4 {%0150d} e5 *", 7);
    if (one_game(long_comment, strlen(long_comment), &g, written, sizeof written)) {
        CHECK(strstr(written, "1. e4\n{") && strstr(written, "}\n1... e5 *"), "long comment on its own line: '%s'",
              written);
        uz_game_clear(&g);
    }
    /* an illegal move in a hand-built tree is refused */
    uz_game_init(&g);
    uz_line_add_move(&g.main, UZ_MOVE(UZ_SQ(4, 1), UZ_SQ(4, 4), 0));
    char *text;
    size_t len;
    CHECK(uz_pgn_game_to_string(&g, &text, &len) == UZ_ERR_ARG, "illegal tree refused by the writer");
    uz_game_clear(&g);
    /* a comment with both '}' and a newline (not producible by the reader) */
    uz_game_init(&g);
    uz_node *node = uz_line_add_move(&g.main, UZ_MOVE(UZ_SQ(4, 1), UZ_SQ(4, 3), 0));
    uz_node_add_comment(node, "a}\nb", 4);
    CHECK(uz_pgn_game_to_string(&g, &text, &len) == UZ_OK && strcmp(text, "1. e4 {a)\nb} *\n\n") == 0,
          "'}' with newline written as ')'");
    free(text);
    uz_game_clear(&g);
    /* uz_pgn_write_game to a FILE gives the same text */
    static const char small[] = "[Event \"f\"]\n\n1. d4 d5 *";
    if (one_game(small, sizeof small - 1, &g, written, sizeof written)) {
        FILE *f = tmpfile();
        char buf[256] = {0};
        CHECK(f && uz_pgn_write_game(f, &g) == UZ_OK, "write to FILE");
        if (f) {
            rewind(f);
            size_t got = fread(buf, 1, sizeof buf - 1, f);
            CHECK(got == strlen(written) && strcmp(buf, written) == 0, "FILE output equals string output");
            fclose(f);
        }
        uz_game_clear(&g);
    }
}

/* Tokens and games spanning the reader's 64 KiB chunks, through a FILE. */
static void test_chunk_boundaries(void)
{
    FILE *f = tmpfile();
    if (!f) {
        CHECK(0, "tmpfile");
        return;
    }
    size_t big = 200000;
    char *comment = malloc(big + 1);
    memset(comment, 'x', big);
    comment[big] = '\0';
    for (int i = 0; i < 400; i++)
        fprintf(f, "[Event \"g%d\"]\n\n1. e4 {%.*s} e5 2. Nf3 *\n\n", i, (int)((size_t)i * 997 % big), comment);
    fprintf(f, "[Event \"huge\"]\n\n1. e4 {%s} *\n", comment);
    rewind(f);
    uz_pgn_reader *r = uz_pgn_reader_open(f, "chunks.pgn");
    uz_game g;
    uz_diag diag;
    uz_game_init(&g);
    int ok = 0, bad = 0;
    while (uz_pgn_read_game(r, &g, &diag) != UZ_DONE) {
        if (g.main.n_nodes >= 1 && g.main.nodes[0].n_comments == 1) {
            int i = ok + bad;
            size_t want = i < 400 ? (size_t)i * 997 % big : big;
            if (strlen(g.main.nodes[0].comments[0]) == want)
                ok++;
            else
                bad++;
        } else {
            bad++;
            printf("  %s\n", diag.message);
        }
    }
    CHECK(ok == 401 && bad == 0, "chunk boundaries: %d ok, %d bad", ok, bad);
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
    fclose(f);
    free(comment);
}

/* The exact text of each game, read or refused, for keeping games verbatim. */
static void test_last_text(void)
{
    static const char pgn[] = "[Event \"a\"]\n\n1. e4 e5 1-0\n\n"
                              "[Event \"b\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n"
                              "[Event \"c\"]\n\n1. d4 {x} 0-1\n";
    static const char *const want[] = {"[Event \"a\"]\n\n1. e4 e5 1-0\n\n",
                                       "[Event \"b\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n",
                                       "[Event \"c\"]\n\n1. d4 {x} 0-1\n"};
    uz_pgn_reader *r = uz_pgn_reader_open_mem(pgn, sizeof pgn - 1, "mem");
    uz_game g;
    uz_game_init(&g);
    for (int i = 0; i < 3; i++) {
        uz_diag d;
        uz_result rc = uz_pgn_read_game(r, &g, &d);
        CHECK(rc == (i == 1 ? UZ_ERR_UNSUPPORTED : UZ_OK), "game %d: %s", i + 1, d.message);
        const char *text = NULL;
        size_t len = 0;
        bool ok = uz_pgn_reader_last_text(r, &text, &len) == UZ_OK;
        size_t wl = strlen(want[i]);
        while (len && (text[len - 1] == '\n' || text[len - 1] == ' ')) /* blanks after a game may or may not be in */
            len--;
        while (wl && want[i][wl - 1] == '\n')
            wl--;
        CHECK(ok && len == wl && memcmp(text, want[i], len) == 0,
              "game %d text '%.*s'", i + 1, (int)len, text ? text : "");
    }
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
}

int main(void)
{
    test_bom_crlf_escape();
    test_semicolon_comments();
    test_null_moves();
    test_fen_games();
    test_empty_games();
    test_comment_placement();
    test_glyphs_and_numbers();
    test_tags();
    test_writer();
    test_chunk_boundaries();
    test_last_text();
    return test_finish();
}
