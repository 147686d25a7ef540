/* SAN printing and lenient parsing: round trips over move trees, the accepted
 * variants, disambiguation, check and mate marks, and errors. */
#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chess/san.h"

#include "chess_positions.h"
#include "chess_test.h"

static long tree_errors, tree_moves;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void tree_fail(const uz_position *pos, const char *fmt, ...)
{
    if (tree_errors++ >= 10)
        return;
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(pos, fen);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "  in %s: ", fen);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

static uz_result parse(const uz_position *pos, const char *text, uz_move *m)
{
    return uz_san_parse(pos, text, strlen(text), m, NULL);
}

/* text parses to expected. */
static void expect_parse(const uz_position *pos, const char *text, uz_move expected)
{
    uz_move m = UZ_MOVE_NONE;
    uz_diag diag = {0};
    uz_result r = uz_san_parse(pos, text, strlen(text), &m, &diag);
    if (r != UZ_OK || m != expected)
        tree_fail(pos, "'%s' parses as %04x (%s), expected %04x", text, m, diag.message, expected);
}

/* Checks one legal move: canonical SAN, its variants, minimal disambiguation. */
static void check_move(const uz_position *pos, uz_move move)
{
    char san[UZ_SAN_MAX], buf[64];
    uz_san_format(pos, move, san);
    size_t len = strlen(san);
    tree_moves++;
    if (len == 0 || len >= UZ_SAN_MAX)
        tree_fail(pos, "bad SAN length for %04x", move);
    expect_parse(pos, san, move);

    /* The mark must match the position after the move. */
    uz_position after = *pos;
    uz_undo undo;
    uz_make_move(&after, move, &undo);
    char mark = san[len - 1];
    uz_status status = uz_position_status(&after);
    char want = status == UZ_STATUS_CHECKMATE ? '#' : uz_in_check(&after) ? '+' : 0;
    if ((mark == '+' || mark == '#' ? mark : 0) != want)
        tree_fail(pos, "%s: wrong check mark", san);

    size_t core = len - (want != 0); /* SAN without the mark */
    snprintf(buf, sizeof buf, "%.*s", (int)core, san);
    expect_parse(pos, buf, move);
    snprintf(buf, sizeof buf, "%s!?", san);
    expect_parse(pos, buf, move);
    snprintf(buf, sizeof buf, "%.*s??", (int)core, san);
    expect_parse(pos, buf, move);

    char uci[UZ_UCI_MAX];
    uz_move_to_uci(move, uci);
    expect_parse(pos, uci, move);

    int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move), promo = UZ_MOVE_PROMO(move);
    int type = UZ_PIECE_TYPE(pos->squares[from]);
    bool capture = pos->squares[to] || (type == UZ_PAWN && UZ_SQ_FILE(from) != UZ_SQ_FILE(to));
    bool castle = san[0] == 'O';
    if (castle) {
        if (type != UZ_KING)
            tree_fail(pos, "%s is not a king move", san);
        return;
    }
    if ((strchr(san, 'x') != NULL) != capture)
        tree_fail(pos, "%s: capture mark wrong", san);

    const char *letters = "  NBRQK";
    char piece[2] = {type == UZ_PAWN ? 0 : letters[type], 0};
    char dest[3] = {(char)('a' + UZ_SQ_FILE(to)), (char)('1' + UZ_SQ_RANK(to)), 0};
    char promo_text[3] = {0};
    if (promo) {
        promo_text[0] = '=';
        promo_text[1] = letters[promo];
    }
    /* Fully disambiguated, with and without 'x', and long algebraic with '-'. */
    snprintf(buf, sizeof buf, "%s%c%c%s%s%s", piece, 'a' + UZ_SQ_FILE(from), '1' + UZ_SQ_RANK(from),
             capture ? "x" : "", dest, promo_text);
    expect_parse(pos, buf, move);
    snprintf(buf, sizeof buf, "%s%c%c%s%s", piece, 'a' + UZ_SQ_FILE(from), '1' + UZ_SQ_RANK(from), dest, promo_text);
    expect_parse(pos, buf, move);
    snprintf(buf, sizeof buf, "%s%c%c-%s%s", piece, 'a' + UZ_SQ_FILE(from), '1' + UZ_SQ_RANK(from), dest, promo_text);
    expect_parse(pos, buf, move);

    if (promo) {
        /* e8Q, e8(Q), e8q and the same after a capture. */
        const char *prefix_end = strchr(san, '=');
        int pl = (int)(prefix_end - san);
        snprintf(buf, sizeof buf, "%.*s%c", pl, san, letters[promo]);
        expect_parse(pos, buf, move);
        snprintf(buf, sizeof buf, "%.*s(%c)", pl, san, letters[promo]);
        expect_parse(pos, buf, move);
        snprintf(buf, sizeof buf, "%.*s%c+", pl, san, tolower((unsigned char)letters[promo]));
        expect_parse(pos, buf, move);
    }

    if (type != UZ_PAWN) {
        /* Superfluous or missing 'x'. */
        const char *x = strchr(san, 'x');
        if (x)
            snprintf(buf, sizeof buf, "%.*s%s", (int)(x - san), san, x + 1);
        else
            snprintf(buf, sizeof buf, "%.*sx%s", (int)(core - 2), san, san + core - 2);
        expect_parse(pos, buf, move);

        /* Minimal disambiguation: dropping any part of it makes the move ambiguous. */
        size_t dis = strlen(piece);
        size_t dis_len = (x ? (size_t)(x - san) : core - 2) - dis;
        if (dis_len > 0) {
            uz_move m;
            char reduced[16];
            snprintf(reduced, sizeof reduced, "%s%s%s", piece, capture ? "x" : "", dest);
            if (parse(pos, reduced, &m) != UZ_ERR_AMBIGUOUS)
                tree_fail(pos, "%s: '%s' is not ambiguous", san, reduced);
            if (dis_len == 2) {
                for (int keep = 0; keep < 2; keep++) {
                    snprintf(reduced, sizeof reduced, "%s%c%s%s", piece, san[dis + (size_t)keep], capture ? "x" : "",
                             dest);
                    if (parse(pos, reduced, &m) != UZ_ERR_AMBIGUOUS)
                        tree_fail(pos, "%s: '%s' is not ambiguous", san, reduced);
                }
            } else if (isdigit((unsigned char)san[dis])) {
                /* Rank only when the file does not tell the pieces apart. */
                snprintf(reduced, sizeof reduced, "%s%c%s%s", piece, 'a' + UZ_SQ_FILE(from), capture ? "x" : "", dest);
                if (parse(pos, reduced, &m) != UZ_ERR_AMBIGUOUS)
                    tree_fail(pos, "%s: '%s' would have done", san, reduced);
            }
        }
    } else if (capture) {
        /* Pawn capture without 'x' ("ed5") and en-passant suffixes. */
        snprintf(buf, sizeof buf, "%c%s%s", san[0], dest, promo_text);
        expect_parse(pos, buf, move);
        if (pos->ep_square == to) {
            snprintf(buf, sizeof buf, "%s e.p.", san);
            expect_parse(pos, buf, move);
            snprintf(buf, sizeof buf, "%.*sep", (int)core, san);
            expect_parse(pos, buf, move);
            snprintf(buf, sizeof buf, "%.*se.p.+", (int)core, san);
            expect_parse(pos, buf, move);
        }
    }
}

static void walk(uz_position *pos, int depth)
{
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    for (int i = 0; i < n; i++) {
        check_move(pos, moves[i]);
        if (depth > 1) {
            uz_undo undo;
            uz_make_move(pos, moves[i], &undo);
            walk(pos, depth - 1);
            uz_unmake_move(pos, moves[i], &undo);
        }
    }
}

static uz_position from_fen(const char *fen)
{
    uz_position pos;
    uz_diag diag = {0};
    uz_result r = uz_position_from_fen(&pos, fen, &diag);
    CHECK(r == UZ_OK, "%s: %s", fen, diag.message);
    if (r != UZ_OK)
        uz_position_startpos(&pos);
    return pos;
}

static uz_move uci(const uz_position *pos, const char *text)
{
    uz_move m = UZ_MOVE_NONE;
    CHECK(uz_move_from_uci(pos, text, &m) == UZ_OK, "UCI %s not legal", text);
    return m;
}

/* In fen, move (UCI) prints as san. */
static void formats(const char *fen, const char *move, const char *san)
{
    uz_position pos = from_fen(fen);
    uz_move m = uci(&pos, move);
    char out[UZ_SAN_MAX];
    uz_san_format(&pos, m, out);
    CHECK(strcmp(out, san) == 0, "%s: %s prints as %s, expected %s", fen, move, out, san);
    uz_move back = UZ_MOVE_NONE;
    CHECK(parse(&pos, out, &back) == UZ_OK && back == m, "%s: %s does not parse back", fen, out);
}

/* In fen, text parses to move (UCI, or "--" for the null move). */
static void parses(const char *fen, const char *text, const char *move)
{
    uz_position pos = from_fen(fen);
    uz_move want = strcmp(move, "--") == 0 ? UZ_MOVE_NULL : uci(&pos, move);
    uz_move got = UZ_MOVE_NONE;
    uz_diag diag = {0};
    uz_result r = uz_san_parse(&pos, text, strlen(text), &got, &diag);
    char got_text[UZ_UCI_MAX];
    uz_move_to_uci(got, got_text);
    CHECK(r == UZ_OK && got == want, "%s: '%s' gives %s (%s), expected %s", fen, text, got_text, diag.message, move);
}

/* In fen, text fails with code and a message that names the text. */
static void rejects(const char *fen, const char *text, uz_result code)
{
    uz_position pos = from_fen(fen);
    uz_move got = 0x1234;
    uz_diag diag = {0};
    uz_result r = uz_san_parse(&pos, text, strlen(text), &got, &diag);
    CHECK(r == code && got == UZ_MOVE_NONE, "%s: '%s' gives %d, expected %d (%s)", fen, text, (int)r, (int)code,
          diag.message);
    CHECK(diag.code == code, "%s: '%s': diag code %d", fen, text, (int)diag.code);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "'%.20s", text);
    CHECK(strspn(text, " ") == strlen(text) || strstr(diag.message, quoted) != NULL, "'%s': message does not name it: %s", text,
          diag.message);
}

#define START "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"

int main(void)
{
    /* Every legal move of every test position, two plies deep (three with UZ_PERFT_DEEP=1). */
    const char *deep = getenv("UZ_PERFT_DEEP");
    int depth = deep && strcmp(deep, "1") == 0 ? 3 : 2;
    for (int i = 0; i < N_TEST_POSITIONS; i++) {
        uz_position pos = from_fen(test_positions[i]);
        tree_errors = tree_moves = 0;
        walk(&pos, depth);
        CHECK(tree_errors == 0, "%s: %ld errors in %ld moves", test_positions[i], tree_errors, tree_moves);
    }

    /* Disambiguation. */
    const char *knights = "r1bqkb1r/pppppppp/2n2n2/8/3P4/5N2/PPP1PPPP/RNBQKB1R w KQkq - 2 3";
    formats(knights, "b1d2", "Nbd2");
    formats(knights, "f3d2", "Nfd2");
    rejects(knights, "Nd2", UZ_ERR_AMBIGUOUS);
    const char *rooks = "4k3/8/8/R7/8/8/8/R3K3 w - - 0 1";
    formats(rooks, "a1a3", "R1a3");
    formats(rooks, "a5a3", "R5a3");
    rejects(rooks, "Ra3", UZ_ERR_AMBIGUOUS);
    rejects(rooks, "Raa3", UZ_ERR_AMBIGUOUS);
    parses(rooks, "R1a3", "a1a3");
    parses(rooks, "Ra1a3", "a1a3");
    const char *queens = "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1";
    formats(queens, "h4e1", "Qh4e1");
    formats(queens, "e4e1", "Qee1");
    formats(queens, "h1e1", "Q1e1");
    rejects(queens, "Qhe1", UZ_ERR_AMBIGUOUS);
    rejects(queens, "Q4e1", UZ_ERR_AMBIGUOUS);
    const char *pinned = "k3r3/8/8/8/8/1N6/4N3/4K3 w - - 0 1";
    formats(pinned, "b3d4", "Nd4");
    parses(pinned, "Nd4", "b3d4");
    parses(pinned, "Nbd4", "b3d4");
    rejects(pinned, "Ned4", UZ_ERR_ILLEGAL);

    /* Promotions, checks, mates, castling with check. */
    formats("6k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8q", "e8=Q+");
    formats("6k1/4P3/8/8/8/8/8/4K3 w - - 0 1", "e7e8n", "e8=N");
    formats("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", "e7e8q", "e8=Q#");
    formats("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", "e7e8r", "e8=R#");
    formats("k7/4P3/1K6/8/8/8/8/8 w - - 0 1", "e7e8b", "e8=B");
    formats("8/4P3/3k4/8/8/8/8/K7 w - - 0 1", "e7e8n", "e8=N+");
    formats("3qk3/2P1P3/8/8/8/8/8/4K3 w - - 0 1", "c7d8q", "cxd8=Q+");
    formats("3qk3/2P1P3/8/8/8/8/8/4K3 w - - 0 1", "e7d8n", "exd8=N");
    formats("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "g2h1q", "gxh1=Q");
    formats("n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1", "g2f1n", "gxf1=N");
    formats("5k2/8/8/8/8/8/8/4K2R w K - 0 1", "e1g1", "O-O+");
    formats("3k4/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", "O-O-O+");
    formats("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8c8", "O-O-O");
    formats("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1g1", "O-O");
    formats("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2", "d8h4", "Qh4#");
    formats("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", "h5f7", "Qxf7#");
    formats("rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3", "e5f6", "exf6");
    formats("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1", "e4d3", "exd3");
    formats("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "b2c3", "bxc3");
    formats("4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1", "d2c3", "Bxc3");
    formats(START, "g1f3", "Nf3");
    formats(START, "e2e4", "e4");

    /* Lenient forms. */
    const char *castle = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    parses(castle, "O-O", "e1g1");
    parses(castle, "0-0", "e1g1");
    parses(castle, "O-O-O", "e1c1");
    parses(castle, "0-0-0", "e1c1");
    parses(castle, "o-o", "e1g1");
    parses(castle, "OO", "e1g1");
    parses(castle, "O-O+", "e1g1");
    parses(castle, "0-0-0!", "e1c1");
    parses(castle, "e1g1", "e1g1");
    parses(castle, "e1h1", "e1g1");
    parses(castle, "e1a1", "e1c1");
    parses(castle, "Kg1", "e1g1");
    parses("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "O-O-O", "e8c8");
    parses("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1", "e8h8", "e8g8");
    const char *promo = "6k1/4P3/8/8/8/8/8/4K3 w - - 0 1";
    parses(promo, "e8Q", "e7e8q");
    parses(promo, "e8=Q", "e7e8q");
    parses(promo, "e8(Q)", "e7e8q");
    parses(promo, "e8q", "e7e8q");
    parses(promo, "e8=N", "e7e8n");
    parses(promo, "e8/R", "e7e8r");
    parses(promo, "e8=b", "e7e8b");
    parses(promo, "e8=Q+", "e7e8q");
    parses(promo, "e8Q++", "e7e8q");
    parses(promo, "e7e8q", "e7e8q");
    parses(promo, "e7e8Q", "e7e8q");
    parses(promo, "e7-e8=Q", "e7e8q");
    const char *ep = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    parses(ep, "exf6", "e5f6");
    parses(ep, "exf6 e.p.", "e5f6");
    parses(ep, "exf6e.p.", "e5f6");
    parses(ep, "exf6 ep", "e5f6");
    parses(ep, "exf6ep", "e5f6");
    parses(ep, "exf6 e.p", "e5f6");
    parses(ep, "ef6", "e5f6");
    parses(ep, "e5f6", "e5f6");
    parses(ep, "Pe5xf6", "e5f6");
    parses(START, "Nf3", "g1f3");
    parses(START, "Ngf3", "g1f3");
    parses(START, "Ng1f3", "g1f3");
    parses(START, "Ng1-f3", "g1f3");
    parses(START, "Nxf3", "g1f3");
    parses(START, "nf3", "g1f3");
    parses(START, "g1f3", "g1f3");
    parses(START, "Nf3!", "g1f3");
    parses(START, "Nf3?!", "g1f3");
    parses(START, "Nf3!!", "g1f3");
    parses(START, "Nf3??", "g1f3");
    parses(START, "Nf3?", "g1f3");
    parses(START, "Nf3+", "g1f3");   /* a wrong check mark is tolerated */
    parses(START, " e4 ", "e2e4");
    parses(START, "e2-e4", "e2e4");
    parses(START, "Pe4", "e2e4");
    parses(START, "--", "--");
    parses(START, "Z0", "--");
    parses(START, "0000", "--");
    const char *b_file = "4k3/8/8/8/8/2n5/1P1B4/4K3 w - - 0 1";
    parses(b_file, "bxc3", "b2c3");
    parses(b_file, "bc3", "b2c3");
    parses(b_file, "b2c3", "b2c3");
    parses(b_file, "Bxc3", "d2c3");
    parses(b_file, "Bc3", "d2c3");
    parses(b_file, "b4", "b2b4");
    parses("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bc4", "f1c4"); /* no b-pawn: a lower-case bishop */
    parses("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", "bxc4", "f1c4");
    parses(knights, "Nbd2", "b1d2");
    parses(knights, "N1d2", "b1d2"); /* over-disambiguated by rank */
    parses(knights, "Nb1d2", "b1d2");

    /* Errors. */
    rejects(START, "Nf6", UZ_ERR_ILLEGAL);
    rejects(START, "e5", UZ_ERR_ILLEGAL);
    rejects(START, "Ke2", UZ_ERR_ILLEGAL);
    rejects(START, "O-O", UZ_ERR_ILLEGAL);
    rejects(START, "0-0-0", UZ_ERR_ILLEGAL);
    rejects(START, "e2e5", UZ_ERR_ILLEGAL);
    rejects(START, "e4=Q", UZ_ERR_ILLEGAL);
    rejects(START, "Ng1h3=Q", UZ_ERR_ILLEGAL);
    rejects(START, "Nh3=Q", UZ_ERR_ILLEGAL);
    rejects(START, "Bb5", UZ_ERR_ILLEGAL);
    rejects(START, "xyz", UZ_ERR_SYNTAX);
    rejects(START, "", UZ_ERR_SYNTAX);
    rejects(START, "   ", UZ_ERR_SYNTAX);
    rejects(START, "Ne9", UZ_ERR_SYNTAX);
    rejects(START, "N", UZ_ERR_SYNTAX);
    rejects(START, "!", UZ_ERR_SYNTAX);
    rejects(START, "e", UZ_ERR_SYNTAX);
    rejects(START, "Nf3g", UZ_ERR_SYNTAX);
    rejects(START, "Xe4", UZ_ERR_SYNTAX);
    rejects(START, "O-O-O-O", UZ_ERR_SYNTAX);
    rejects(START, "-", UZ_ERR_SYNTAX);
    rejects(START, "e8(X)", UZ_ERR_SYNTAX);
    rejects(START, "Nf3 this is a very long token indeed", UZ_ERR_SYNTAX);
    rejects(promo, "e8", UZ_ERR_AMBIGUOUS);
    rejects(promo, "e8=K", UZ_ERR_SYNTAX);
    rejects(promo, "e8=P", UZ_ERR_SYNTAX);
    rejects(knights, "Nd2", UZ_ERR_AMBIGUOUS);
    rejects(castle, "Rb2", UZ_ERR_ILLEGAL);
    rejects(castle, "Rf2", UZ_ERR_ILLEGAL);
    rejects(castle, "Ke3", UZ_ERR_ILLEGAL);
    rejects(ep, "ef", UZ_ERR_SYNTAX);
    rejects(ep, "exf6 e.p.x", UZ_ERR_SYNTAX);

    /* A length-limited token need not be NUL-terminated. */
    uz_position start;
    uz_position_startpos(&start);
    uz_move m = UZ_MOVE_NONE;
    CHECK(uz_san_parse(&start, "Nf3 Nf6", 3, &m, NULL) == UZ_OK && m == uci(&start, "g1f3"), "length-limited token");

    /* Null move printing and UCI text. */
    char out[UZ_SAN_MAX];
    uz_san_format(&start, UZ_MOVE_NULL, out);
    CHECK(strcmp(out, "--") == 0, "null move prints as %s", out);
    char u[UZ_UCI_MAX];
    uz_move_to_uci(UZ_MOVE_NULL, u);
    CHECK(strcmp(u, "0000") == 0, "null move UCI %s", u);
    uz_move_to_uci(UZ_MOVE(UZ_SQ(4, 6), UZ_SQ(4, 7), UZ_QUEEN), u);
    CHECK(strcmp(u, "e7e8q") == 0, "promotion UCI %s", u);
    CHECK(uz_move_from_uci(&start, "0000", &m) == UZ_OK && m == UZ_MOVE_NULL, "UCI 0000");
    CHECK(uz_move_from_uci(&start, "e2e5", &m) == UZ_ERR_ILLEGAL && m == UZ_MOVE_NONE, "UCI e2e5");
    CHECK(uz_move_from_uci(&start, "e2e4q", &m) == UZ_ERR_ILLEGAL, "UCI e2e4q");
    CHECK(uz_move_from_uci(&start, "e2e4x", &m) == UZ_ERR_SYNTAX, "UCI e2e4x");
    CHECK(uz_move_from_uci(&start, "e2e", &m) == UZ_ERR_SYNTAX, "UCI e2e");
    CHECK(uz_move_from_uci(&start, "i2e4", &m) == UZ_ERR_SYNTAX, "UCI i2e4");
    CHECK(uz_move_from_uci(&start, "e2e4 ", &m) == UZ_ERR_SYNTAX, "UCI e2e4 + space");
    CHECK(uz_move_from_uci(&start, "e1h1", &m) == UZ_ERR_ILLEGAL, "UCI e1h1 in the start position");

    return test_finish();
}
