/* Malformed PGN: each bad snippet gives the expected error code, line:column and message,
 * and the reader resyncs so that the games after a bad one are still read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgn/pgn.h"

#include "../common/uz_test.h"

typedef struct bad_case {
    const char *name;
    const char *pgn;
    uz_result code;     /* of the first error */
    long line, column;  /* of the first error */
    const char *fragment;
    int good_games;     /* games read without error in the whole input */
    int bad_games;      /* games refused in the whole input */
    uz_pgn_limits limits; /* zero: defaults */
} bad_case;

static const bad_case cases[] = {
    {"unterminated comment", "[Event \"x\"]\n\n1. e4 {never closed\ne5 *\n", UZ_ERR_SYNTAX, 3, 7,
     "unterminated comment", 0, 1, {0}},
    {"tag without ']'", "[Event \"x\"\n[Site \"y\"]\n\n1. e4 *\n", UZ_ERR_SYNTAX, 2, 1,
     "expected ']' after tag value", 0, 1, {0}},
    {"tag without name", "[\"x\"]\n\n1. e4 *\n", UZ_ERR_SYNTAX, 1, 2, "expected a tag name after '['", 0, 1, {0}},
    {"tag value not quoted", "[Event x]\n\n1. e4 *\n", UZ_ERR_SYNTAX, 1, 8,
     "expected a quoted tag value after tag name 'Event'", 0, 1, {0}},
    {"doubled quotes in tag", "[Event \"x\"]\n[White \"\"Mephisto\"\"]\n[Black \"y\"]\n\n1. e4 e5 1-0\n\n"
     "[Event \"next\"]\n\n1. d4 *\n", UZ_ERR_SYNTAX, 2, 10, "expected ']' after tag value", 1, 1, {0}},
    {"unterminated tag value", "[Event \"abc]\n\n1. e4 *\n", UZ_ERR_SYNTAX, 1, 8, "unterminated tag value", 0, 1,
     {0}},
    {"illegal move", "[Event \"x\"]\n\n1. e4 e5 2. Ke3 Nf6 *\n", UZ_ERR_ILLEGAL, 3, 13,
     "illegal move 'Ke3' for White at ply 3 (move 2.)", 0, 1, {0}},
    {"illegal move for Black", "1. e4 e5 2. Nf3 Nf6 3. Bc4 Nf6 *", UZ_ERR_ILLEGAL, 1, 28,
     "illegal move 'Nf6' for Black at ply 6 (move 3...)", 0, 1, {0}},
    {"illegal move in a variation", "1. e4 e5 (1... d5 2. Ke3) *", UZ_ERR_ILLEGAL, 1, 22,
     "illegal move 'Ke3' for White at ply 3", 0, 1, {0}},
    {"ambiguous move", "[FEN \"4k3/8/8/8/8/2N3N1/8/4K3 w - - 0 1\"]\n\n1. Ne4 *\n", UZ_ERR_AMBIGUOUS, 3, 4,
     "ambiguous move 'Ne4' for White at ply 1", 0, 1, {0}},
    {"not a move", "1. e4 xyz *", UZ_ERR_SYNTAX, 1, 7, "move 'xyz'", 0, 1, {0}},
    {"unclosed variation", "1. e4 (1. d4 d5 *\n", UZ_ERR_SYNTAX, 1, 17, "expected ')' before the termination marker",
     0, 1, {0}},
    {"unopened variation", "1. e4 e5) *\n", UZ_ERR_SYNTAX, 1, 9, "unexpected ')' outside a variation", 0, 1, {0}},
    {"unclosed variation at end of input", "1. e4 (1. d4", UZ_ERR_SYNTAX, 1, 13, "unterminated variation", 0, 1, {0}},
    {"missing result at end of input", "[Event \"x\"]\n\n1. e4 e5\n", UZ_ERR_SYNTAX, 4, 1,
     "missing termination marker: expected 1-0, 0-1, 1/2-1/2 or * before end of input", 0, 1, {0}},
    {"missing result before next game", "[Event \"a\"]\n\n1. e4 e5\n[Event \"b\"]\n\n1. d4 *\n", UZ_ERR_SYNTAX, 4, 1,
     "before the next game's tags", 1, 1, {0}},
    {"unknown character", "1. e4 & e5 *", UZ_ERR_SYNTAX, 1, 7, "unexpected character '&'", 0, 1, {0}},
    {"control byte", "1. e4 \x01 e5 *", UZ_ERR_SYNTAX, 1, 7, "unexpected byte 0x01", 0, 1, {0}},
    {"percent not in column 1", "1. e4 % no escape here\n e5 *", UZ_ERR_SYNTAX, 1, 7, "unexpected character '%'", 0, 1,
     {0}},
    {"string in movetext", "1. e4 \"x\" *", UZ_ERR_SYNTAX, 1, 7, "unexpected string in movetext", 0, 1, {0}},
    {"NAG out of range", "1. e4 $300 *", UZ_ERR_SYNTAX, 1, 7, "NAG out of range", 0, 1, {0}},
    {"dollar without number", "1. e4 $ *", UZ_ERR_SYNTAX, 1, 7, "expected a number after '$'", 0, 1, {0}},
    {"unknown glyph", "1. e4!!! *", UZ_ERR_SYNTAX, 1, 6, "unknown annotation glyph", 0, 1, {0}},
    {"NAG before the first move", "$1 1. e4 *", UZ_ERR_SYNTAX, 1, 1, "expected a move before NAG $1", 0, 1, {0}},
    {"variation before the first move", "(1. d4) 1. e4 *", UZ_ERR_SYNTAX, 1, 1, "expected a move before '('", 0, 1,
     {0}},
    {"null move in check", "[FEN \"4k3/8/8/8/8/8/4r3/4K3 w - - 0 1\"]\n\n1. -- *", UZ_ERR_ILLEGAL, 3, 4,
     "null move cannot be played while in check", 0, 1, {0}},
    {"variant refused", "[Event \"x\"]\n[Variant \"Atomic\"]\n\n1. e4 *\n\n[Event \"y\"]\n\n1. d4 *\n",
     UZ_ERR_UNSUPPORTED, 2, 10, "variant 'Atomic' is not supported", 1, 1, {0}},
    {"variant refused (crazyhouse)", "[Variant \"Crazyhouse\"]\n\n1. e4 e5 2. Nf3 P@e4 *\n", UZ_ERR_UNSUPPORTED, 1, 10,
     "variant 'Crazyhouse' is not supported", 0, 1, {0}},
    {"Chess960 FEN: castling letter without its rook, then an illegal castling",
     "[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEgeB - 0 1\"]\n\n1. O-O-O *\n",
     UZ_ERR_ILLEGAL, 4, 4, "cannot castle queen-side", 0, 1, {0}},
    {"invalid FEN", "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1\"]\n\n*\n", UZ_ERR_SYNTAX, 1, 49,
     "invalid FEN tag", 0, 1, {0}},
    {"FEN without a king", "[FEN \"8/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n*\n", UZ_ERR_SYNTAX, 1, 7, "invalid FEN tag", 0,
     1, {0}},
    {"result inside a variation", "1. e4 (1. d4 1-0) *", UZ_ERR_SYNTAX, 1, 14, "expected ')' before the termination marker",
     0, 1, {0}},
    {"nesting limit", "1. e4 (1. d4 (1. c4 (1. b4))) *", UZ_ERR_LIMIT, 1, 21, "nested deeper than 2", 0, 1,
     {UZ_PGN_MAX_GAME_BYTES, 2, UZ_PGN_MAX_MOVES}},
    {"game size limit", "[Event \"x\"]\n\n1. e4 {a long comment that does not fit in the limit} e5 *\n\n[Event \"y\"]\n\n1. d4 *\n",
     UZ_ERR_LIMIT, 3, 7, "game longer than 40 bytes", 1, 1, {40, UZ_PGN_MAX_DEPTH, UZ_PGN_MAX_MOVES}},
    {"game size limit (many tokens)", "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 4. Ba4 Nf6 5. O-O Be7 *\n\n1. d4 *\n", UZ_ERR_LIMIT,
     1, 28, "game longer than 28 bytes", 1, 1, {28, UZ_PGN_MAX_DEPTH, UZ_PGN_MAX_MOVES}},
    {"move limit", "1. e4 e5 2. Nf3 Nc6 *", UZ_ERR_LIMIT, 1, 17, "more than 3 moves", 0, 1,
     {UZ_PGN_MAX_GAME_BYTES, UZ_PGN_MAX_DEPTH, 3}},
    {"tag symbol too long", "[Eventxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
     "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx \"v\"]\n\n1. e4 *\n",
     UZ_ERR_SYNTAX, 1, 2, "symbol longer than 255 bytes", 0, 1, {0}},
};

static void run_case(const bad_case *c)
{
    uz_pgn_reader *r = uz_pgn_reader_open_mem(c->pgn, strlen(c->pgn), "bad.pgn");
    if (c->limits.max_game_bytes)
        uz_pgn_reader_set_limits(r, &c->limits);
    uz_game game;
    uz_diag diag, first = {0};
    uz_game_init(&game);
    int good = 0, bad = 0, calls = 0;
    uz_result rc;
    while ((rc = uz_pgn_read_game(r, &game, &diag)) != UZ_DONE && ++calls < 100) {
        if (rc == UZ_OK) {
            good++;
            continue;
        }
        if (bad++ == 0)
            first = diag;
    }
    CHECK(bad > 0, "%s: no error reported", c->name);
    if (bad > 0) {
        CHECK(first.code == c->code, "%s: code %s, expected %s (%s)", c->name, uz_result_str(first.code),
              uz_result_str(c->code), first.message);
        CHECK(first.line == c->line && first.column == c->column, "%s: at %ld:%ld, expected %ld:%ld (%s)", c->name,
              first.line, first.column, c->line, c->column, first.message);
        CHECK(strstr(first.message, c->fragment) != NULL, "%s: message '%s' lacks '%s'", c->name, first.message,
              c->fragment);
        /* Position and game are fields; the caller formats them, the message says what. */
        CHECK(strncmp(first.message, "bad.pgn", 7) != 0, "%s: message '%s' repeats the position", c->name,
              first.message);
        CHECK(first.game == 1, "%s: diag.game %ld", c->name, first.game);
    }
    CHECK(good == c->good_games && bad == c->bad_games, "%s: %d good and %d bad games, expected %d and %d", c->name,
          good, bad, c->good_games, c->bad_games);
    uz_game_clear(&game);
    uz_pgn_reader_close(r);
}

/* A file with bad games between good ones: every good game is still read, in order. */
static void test_skip_and_continue(void)
{
    static const char pgn[] =
        "[Event \"A\"]\n\n1. e4 e5 2. Nf3 Nc6 1-0\n\n"
        /* B: illegal move, then a comment holding a result and a '[' line, then more moves */
        "[Event \"B\"]\n\n1. e4 Ke7 {a comment with 1-0 inside\n[not a tag]} 2. d4 (2. c4 *) 1-0\n\n"
        "[Event \"C\"]\n\n1. d4 d5 1/2-1/2\n"
        /* D: broken tag in the middle of the tag section */
        "[Event \"D\"]\n[White \"\"Mephisto\"\"]\n[Black \"x\"]\n\n1. e4 e5 0-1\n"
        /* E: tagless */
        "1. c4 e5 *\n\n"
        /* F: tag section and movetext on one line, with a bad tag */
        "[Event \"F\"] [Result 1-0] 1. e4 1-0\n"
        "[Event \"G\"]\n\n1. Nf3 *\n"
        /* H: no termination marker before the next game */
        "[Event \"H\"]\n\n1. e4 e5\n"
        "[Event \"I\"]\n\n1. b3 *\n"
        /* J: Chess960 with castling letters: read (O-O is the king taking the g-file rook) */
        "[Event \"J\"]\n[Variant \"Chess960\"]\n[FEN \"bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w GEge - 0 1\"]\n\n"
        "1. O-O O-O 1-0\n\n"
        "[Event \"K\"]\n\n1. g3 *\n"
        /* L: garbage line between games */
        "<<< not pgn >>>\n"
        "[Event \"M\"]\n\n1. h3 *\n"
        /* N: unterminated comment at the end */
        "[Event \"N\"]\n\n1. e4 {oops\n";
    static const char *const expect[] = {"A", "!", "C", "!", "", "!", "G", "!", "I", "J", "K", "!", "M", "!"};
    static const long numbers[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    uz_pgn_reader *r = uz_pgn_reader_open_mem(pgn, sizeof pgn - 1, "mixed.pgn");
    uz_game game;
    uz_diag diag;
    uz_game_init(&game);
    size_t k = 0;
    uz_result rc;
    while ((rc = uz_pgn_read_game(r, &game, &diag)) != UZ_DONE && k < 20) {
        const char *want = k < sizeof expect / sizeof *expect ? expect[k] : "(nothing)";
        if (rc == UZ_OK) {
            const char *ev = uz_game_tag(&game, "Event");
            CHECK(strcmp(want, ev ? ev : "") == 0, "skip: call %zu read game '%s', expected '%s'", k, ev ? ev : "",
                  want);
            CHECK(game.number == numbers[k], "skip: game '%s' numbered %ld", ev ? ev : "", game.number);
        } else {
            CHECK(strcmp(want, "!") == 0, "skip: call %zu gave error '%s', expected game '%s'", k, diag.message, want);
            CHECK(diag.game == numbers[k], "skip: error '%s' for game %ld, expected %ld", diag.message, diag.game,
                  numbers[k]);
        }
        k++;
    }
    CHECK(k == sizeof expect / sizeof *expect, "skip: %zu calls before UZ_DONE, expected %zu", k,
          sizeof expect / sizeof *expect);
    CHECK(uz_pgn_read_game(r, &game, &diag) == UZ_DONE, "skip: UZ_DONE again after the end");
    CHECK(uz_pgn_reader_game_count(r) == 14, "skip: game count %ld", uz_pgn_reader_game_count(r));
    uz_game_clear(&game);
    uz_pgn_reader_close(r);
}

/* The same through a FILE, with the bad game spanning reads. */
static void test_skip_through_file(void)
{
    FILE *f = tmpfile();
    if (!f) {
        CHECK(0, "tmpfile");
        return;
    }
    for (int i = 0; i < 3000; i++) {
        if (i % 7 == 3)
            fprintf(f, "[Event \"bad %d\"]\n\n1. e4 e5 2. Qxf7 {%0*d} Nc6 1-0\n\n", i, 50 + i % 97, 0);
        else
            fprintf(f, "[Event \"good %d\"]\n\n1. e4 e5 2. Nf3 {%0*d} Nc6 1-0\n\n", i, 50 + i % 97, 0);
    }
    rewind(f);
    uz_pgn_reader *r = uz_pgn_reader_open(f, "tmp.pgn");
    uz_game game;
    uz_diag diag;
    uz_game_init(&game);
    int good = 0, bad = 0, order_ok = 1, i = 0;
    uz_result rc;
    while ((rc = uz_pgn_read_game(r, &game, &diag)) != UZ_DONE) {
        char want[32];
        snprintf(want, sizeof want, "good %d", i);
        if (rc == UZ_OK) {
            good++;
            order_ok &= i % 7 != 3 && strcmp(uz_game_tag(&game, "Event"), want) == 0;
        } else {
            bad++;
            order_ok &= i % 7 == 3 && diag.code == UZ_ERR_ILLEGAL && diag.line == 4 * i + 3;
        }
        i++;
    }
    CHECK(good == 3000 - 429 && bad == 429 && order_ok, "file skip: %d good, %d bad, order %d", good, bad, order_ok);
    uz_game_clear(&game);
    uz_pgn_reader_close(r);
    fclose(f);
}

int main(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        run_case(&cases[i]);
    test_skip_and_continue();
    test_skip_through_file();
    return test_finish();
}
