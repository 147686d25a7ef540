/* Chess960: X-FEN and Shredder-FEN castling fields, castling as king takes rook in the
 * canonical move list, make/unmake of castling on both sides (the king or the rook
 * already on its destination, the king crossing the rook's square), SAN O-O/O-O-O
 * both ways, and the standard position played under Chess960 rules. */
#include <string.h>

#include "chess/san.h"

#include "chess_test.h"

static uz_position fen960(const char *fen)
{
    uz_position pos;
    uz_diag d = {0};
    uz_result r = uz_position_from_fen_960(&pos, fen, true, &d);
    CHECK(r == UZ_OK, "%s: %s", fen, d.message);
    if (r != UZ_OK)
        uz_position_startpos(&pos);
    return pos;
}

static void expect_fen(const char *in, const char *out)
{
    uz_position pos = fen960(in);
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(&pos, fen);
    CHECK(strcmp(fen, out) == 0, "%s prints as %s, expected %s", in, fen, out);
    uz_position again = fen960(fen);
    CHECK(uz_position_equal(&pos, &again), "%s does not read back equal", fen);
}

/* Castles (san "O-O" or "O-O-O") in fen: checks the move (king takes rook, uci), that
 * SAN prints and parses it, the position after it (after_fen) and unmake. */
static void expect_castle(const char *fen, const char *san, const char *uci, const char *after_fen)
{
    uz_position pos = fen960(fen), before = pos;
    uz_move m = UZ_MOVE_NONE;
    uz_diag d = {0};
    CHECK(uz_san_parse(&pos, san, strlen(san), &m, &d) == UZ_OK, "%s in %s: %s", san, fen, d.message);
    char text[UZ_SAN_MAX], u[UZ_UCI_MAX], after[UZ_FEN_MAX];
    uz_move_to_uci(m, u);
    CHECK(strcmp(u, uci) == 0, "%s in %s is %s, expected %s", san, fen, u, uci);
    uz_san_format(&pos, m, text);
    CHECK(strncmp(text, san, strlen(san)) == 0, "%s prints as %s", uci, text);
    uz_move by_uci;
    CHECK(uz_move_from_uci(&pos, uci, &by_uci) == UZ_OK && by_uci == m, "uci %s", uci);
    uz_undo undo;
    uz_make_move(&pos, m, &undo);
    uz_position_to_fen(&pos, after);
    CHECK(strcmp(after, after_fen) == 0, "after %s: %s, expected %s", san, after, after_fen);
    CHECK(pos.key == uz_position_compute_key(&pos), "key after %s", san);
    uz_unmake_move(&pos, m, &undo);
    CHECK(uz_position_equal(&pos, &before) && pos.key == before.key, "unmake %s", san);
}

int main(void)
{
    /* X-FEN out: K/Q for the outermost rook, the file letter for an inner one. */
    expect_fen("bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
               "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    expect_fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1", "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    expect_fen("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1", "4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1");
    expect_fen("rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1", "rk2r3/8/8/8/8/8/8/RK2R3 w KQkq - 0 1");
    /* A right without its rook is dropped. */
    expect_fen("4k3/8/8/8/8/8/8/4K3 w H - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1");

    /* Standard chess keeps refusing Chess960 castling letters. */
    uz_position p;
    CHECK(uz_position_from_fen(&p, "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1", NULL) == UZ_ERR_UNSUPPORTED, "C in standard");

    /* Both sides, the king crossing: king b1, rooks a1 and e1. */
    expect_castle("1k6/8/8/8/8/8/8/RK2R3 w KQ - 0 1", "O-O-O", "b1a1", "1k6/8/8/8/8/8/8/2KRR3 b - - 1 1");
    expect_castle("1k6/8/8/8/8/8/8/RK2R3 w KQ - 0 1", "O-O", "b1e1", "1k6/8/8/8/8/8/8/R4RK1 b - - 1 1");
    /* King already on g1: only the rook moves. Black both ways. */
    expect_castle("6k1/8/8/8/8/8/8/6KR w K - 0 1", "O-O", "g1h1", "6k1/8/8/8/8/8/8/5RK1 b - - 1 1");
    expect_castle("rk5r/8/8/8/8/8/8/4K3 b kq - 0 1", "O-O-O", "b8a8", "2kr3r/8/8/8/8/8/8/4K3 w - - 1 2");
    expect_castle("rk5r/8/8/8/8/8/8/4K3 b kq - 0 1", "O-O", "b8h8", "r4rk1/8/8/8/8/8/8/4K3 w - - 1 2");
    /* The king may not cross an attacked square (d8, by the d1 rook). */
    uz_position p2 = fen960("rk5r/8/8/8/8/8/8/3RK3 b kq - 0 1");
    uz_move m2;
    CHECK(uz_san_parse(&p2, "O-O", 3, &m2, NULL) == UZ_ERR_ILLEGAL, "castling through d8");
    /* The standard position under Chess960 rules: e1h1 is O-O. */
    expect_castle("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O", "e1h1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    expect_castle("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "O-O-O", "e1a1", "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");

    /* Castling is illegal when the castling rook shielded the king: king c1, rook b1,
     * black queen a1; after O-O-O (king stays on c1, rook to d1) the queen gives check. */
    uz_position pos = fen960("7k/8/8/8/8/8/8/qRK5 w B - 0 1");
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(&pos, moves);
    for (int i = 0; i < n; i++)
        CHECK(moves[i] != UZ_MOVE(2, 1, 0), "castling out of the pin of the b1 rook is not legal");

    /* Canonical order: the castling move sorts as the king's move to the rook's square. */
    pos = fen960("1k6/8/8/8/8/8/8/RK2R3 w KQ - 0 1");
    n = uz_generate_legal(&pos, moves);
    int castles = 0;
    for (int i = 0; i < n; i++)
        castles += moves[i] == UZ_MOVE(1, 0, 0) || moves[i] == UZ_MOVE(1, 4, 0);
    CHECK(castles == 2, "both castling moves listed (%d)", castles);
    return test_finish();
}
