/* FEN input and output: round trips, lenient forms and their normalisation, and
 * errors with their code and column. */
#include <string.h>

#include "chess/board.h"

#include "chess_positions.h"
#include "chess_test.h"

/* in parses and prints as out. */
static void normalises(const char *in, const char *out)
{
    uz_position pos;
    uz_diag diag = {0};
    uz_result r = uz_position_from_fen(&pos, in, &diag);
    CHECK(r == UZ_OK, "'%s' does not parse: %s", in, diag.message);
    if (r != UZ_OK)
        return;
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(&pos, fen);
    CHECK(strcmp(fen, out) == 0, "'%s' prints as '%s', expected '%s'", in, fen, out);
    CHECK(pos.key == uz_position_compute_key(&pos), "'%s': key", in);
}

/* in fails with code, and the column points at the first character of marker (the
 * first occurrence at or after the position given by skip). */
static void fails(const char *in, uz_result code, const char *marker, int skip)
{
    uz_position pos;
    uz_position_startpos(&pos);
    uz_position untouched = pos;
    uz_diag diag = {0};
    uz_result r = uz_position_from_fen(&pos, in, &diag);
    const char *at = strstr(in + skip, marker);
    long column = at ? (long)(at - in) + 1 : -1;
    CHECK(r == code, "'%s' gives %d, expected %d (%s)", in, (int)r, (int)code, diag.message);
    CHECK(diag.code == code && diag.column == column, "'%s': column %ld, expected %ld (%s)", in, diag.column, column,
          diag.message);
    CHECK(diag.message[0] != '\0', "'%s': no message", in);
    CHECK(uz_position_equal(&pos, &untouched), "'%s': pos written on error", in);
    if (r != code || diag.column != column)
        fprintf(stderr, "  message: %s\n", diag.message);
}

int main(void)
{
    /* Round trip of every test position, which are all written in normal form. */
    for (int i = 0; i < N_TEST_POSITIONS; i++)
        normalises(test_positions[i], test_positions[i]);

    uz_position start, parsed;
    uz_position_startpos(&start);
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(&start, fen);
    CHECK(strcmp(fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1") == 0, "startpos FEN %s", fen);
    CHECK(uz_position_from_fen(&parsed, fen, NULL) == UZ_OK && uz_position_equal(&parsed, &start)
              && parsed.key == start.key,
          "startpos round trip");

    /* Lenient input. */
    normalises("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -",
               "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    normalises("4k3/8/8/8/8/8/8/4K3 b - - 7", "4k3/8/8/8/8/8/8/4K3 b - - 7 1");
    normalises("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    normalises("  4k3/8/8/8/8/8/8/4K3   w  -\t-  12   40  \n", "4k3/8/8/8/8/8/8/4K3 w - - 12 40");
    normalises("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    normalises("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    normalises("r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    normalises("r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 9", "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 3 9");
    normalises("4k3/8/8/8/8/8/8/4K3 w - - 65535 65535", "4k3/8/8/8/8/8/8/4K3 w - - 65535 65535");
    /* Castling rights that cannot be used (king or rook away from home) are dropped:
     * a lichess study in the corpus has "Kq" with the kings on c1 and g8. */
    normalises("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    normalises("4k2r/8/8/8/8/8/8/R3K3 w Qkq - 0 1", "4k2r/8/8/8/8/8/8/R3K3 w Qk - 0 1");
    normalises("r3k2r/8/8/8/8/8/8/R4K1R w KQkq - 0 1", "r3k2r/8/8/8/8/8/8/R4K1R w kq - 0 1");
    normalises("1rr3k1/p3ppbp/3pbnp1/7P/qP1BP1P1/5P2/1PPQ4/1NKR1B1R b Kq - 0 1",
               "1rr3k1/p3ppbp/3pbnp1/7P/qP1BP1P1/5P2/1PPQ4/1NKR1B1R b - - 0 1");

    /* En passant: kept only when a capture is legal. */
    normalises("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
               "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    normalises("rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3",
               "rnbqkbnr/ppp1pppp/8/8/3pP3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 3");
    normalises("8/8/8/KPp4r/8/8/8/7k w - c6 0 1", "8/8/8/KPp4r/8/8/8/7k w - - 0 1");   /* pinned on the rank */
    normalises("8/8/4B3/8/2pP4/8/k7/6K1 b - d3 0 1", "8/8/4B3/8/2pP4/8/k7/6K1 b - - 0 1"); /* pinned diagonally */
    normalises("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1"); /* captures the checker */
    normalises("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");     /* no pawn at all */
    normalises("4k3/8/4p3/3P4/8/8/8/4K3 w - e6 0 1", "4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1"); /* pawn not on e5 */
    normalises("4k3/4p3/8/3Pp3/8/8/8/4K3 w - e6 0 1", "4k3/4p3/8/3Pp3/8/8/8/4K3 w - - 0 1"); /* e7 occupied */
    normalises("4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1", "4k3/8/8/3Pp3/8/8/8/4K3 w - e6 0 1");
    /* The king is in check from a rook; the ep capture does not help. */
    normalises("4k3/8/8/3Pp3/8/8/8/r3K3 w - e6 0 1", "4k3/8/8/3Pp3/8/8/8/r3K3 w - - 0 1");
    /* Same key whether the unusable ep square is written or not. */
    uz_position a, b;
    uz_position_from_fen(&a, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1", NULL);
    uz_position_from_fen(&b, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", NULL);
    CHECK(a.key == b.key && uz_position_equal(&a, &b), "unusable ep square changes the position");

    /* Errors and where they are reported. */
    fails("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", UZ_ERR_SYNTAX, "X", 0);
    fails("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_ERR_SYNTAX, "9", 0);
    fails("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_ERR_SYNTAX, "p/", 0);
    fails("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_ERR_SYNTAX, "/8", 0);
    fails("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", UZ_ERR_SYNTAX, " w", 0);
    fails("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", UZ_ERR_SYNTAX, "/4K3", 0);
    fails("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/ w KQkq - 0 1", UZ_ERR_SYNTAX, "/ w", 0);
    fails("rnbqkbnr/pppppppp/8/8/45/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_ERR_SYNTAX, "5/", 0);
    fails("rnbqkbnr/pppppppp/8/8/8p/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_ERR_SYNTAX, "p/8/P", 0);
    fails("", UZ_ERR_SYNTAX, "", 0);
    fails("4k3/8/8/8/8/8/8/4K3", UZ_ERR_SYNTAX, "", 19);
    fails("4k3/8/8/8/8/8/8/4K3 x - - 0 1", UZ_ERR_SYNTAX, "x", 0);
    fails("4k3/8/8/8/8/8/8/4K3 white - - 0 1", UZ_ERR_SYNTAX, "white", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w", UZ_ERR_SYNTAX, "", 21);
    fails("4k3/8/8/8/8/8/8/4K3 w -", UZ_ERR_SYNTAX, "", 23);
    fails("4k3/8/8/8/8/8/8/8 w - - 0 1", UZ_ERR_SYNTAX, "4k3", 0);
    fails("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", UZ_ERR_SYNTAX, "4k3", 0);
    fails("  4k3/8/8/8/8/8/8/3KK3 w - - 0 1", UZ_ERR_SYNTAX, "4k3", 0);
    fails("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", UZ_ERR_SYNTAX, "P", 0);
    fails("4k3/8/8/8/8/8/8/4K2p w - - 0 1", UZ_ERR_SYNTAX, "p", 0);
    fails("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", UZ_ERR_SYNTAX, "b -", 0);  /* white in check, black to move */
    fails("4k2R/8/8/8/8/8/8/4K3 w - - 0 1", UZ_ERR_SYNTAX, "w", 0);     /* black in check, white to move */
    fails("r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", UZ_ERR_SYNTAX, "X", 0);
    fails("r3k2r/8/8/8/8/8/8/R3K2R w K-q - 0 1", UZ_ERR_SYNTAX, "-q", 0);
    fails("1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", UZ_ERR_UNSUPPORTED, "GBgb", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", UZ_ERR_SYNTAX, "e9", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - e3 0 1", UZ_ERR_SYNTAX, "e3", 0);
    fails("4k3/8/8/8/8/8/8/4K3 b - e6 0 1", UZ_ERR_SYNTAX, "e6", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - e6x 0 1", UZ_ERR_SYNTAX, "x", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - a 1", UZ_ERR_SYNTAX, "a", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - -1 1", UZ_ERR_SYNTAX, "-1", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - 0 1x", UZ_ERR_SYNTAX, "x", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", UZ_ERR_SYNTAX, "extra", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - 65536 1", UZ_ERR_SYNTAX, "65536", 0);
    fails("4k3/8/8/8/8/8/8/4K3 w - - 0 99999", UZ_ERR_SYNTAX, "99999", 0);

    /* Material no game can reach: these overflowed a 256-move list before. */
    fails("QQQQQQnk/Q4Qpp/Q5QQ/Q6Q/Q6Q/Q6Q/Q6Q/KQQQQQQQ w - - 0 1", UZ_ERR_SYNTAX, "QQQ", 0);
    fails("4k3/8/8/8/8/8/QQQ5/QQQQKQQQ w - - 0 1", UZ_ERR_SYNTAX, "4k3", 0);    /* 10 queens */
    fails("4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1", UZ_ERR_SYNTAX, "4k3", 0);   /* 9 pawns */
    fails("4k3/8/8/8/8/PP6/PPPPPPPP/RNBQKBNR w - - 0 1", UZ_ERR_SYNTAX, "4k3", 0); /* 17 pieces */
    /* The record position (218 legal moves: 9 queens after 8 promotions) is accepted. */
    uz_position rec;
    uz_move moves[UZ_MAX_MOVES];
    CHECK(uz_position_from_fen(&rec, "R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", NULL) == UZ_OK &&
              uz_generate_legal(&rec, moves) == 218,
          "the 218-move record position");

    return test_finish();
}
