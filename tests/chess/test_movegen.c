/* Move generator invariants over the move trees of the test positions: canonical
 * order, make/unmake, incremental Zobrist key, FEN and UCI round trips, null moves,
 * uz_is_legal, status (three plies; four with UZ_PERFT_DEEP=1); and the documented
 * Zobrist definition. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "chess/board.h"

#include "chess_positions.h"
#include "chess_test.h"

static long walk_errors;
static long walk_nodes;

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static void walk_fail(const uz_position *pos, const char *fmt, ...)
{
    if (walk_errors++ >= 10)
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

/* Reference Zobrist values, generated the way board.h documents them. */
static uint64_t zobrist_table[1037];

static void init_zobrist_reference(void)
{
    uint64_t state = 0x75637A6970000000ULL;
    for (int i = 0; i < 1037; i++) {
        state += 0x9E3779B97F4A7C15ULL;
        uint64_t z = state;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        zobrist_table[i] = z ^ (z >> 31);
    }
}

static uint64_t reference_key(const uz_position *pos)
{
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->squares[sq])
            key ^= zobrist_table[64 * pos->squares[sq] + sq];
    if (pos->side == UZ_BLACK)
        key ^= zobrist_table[1024];
    for (int b = 0; b < 4; b++)
        if (pos->castling & (1 << b))
            key ^= zobrist_table[1025 + b];
    if (pos->ep_square != UZ_SQ_NONE)
        key ^= zobrist_table[1029 + UZ_SQ_FILE(pos->ep_square)];
    return key;
}

/* Mailbox, bitboards, king squares and key agree. */
static bool consistent(const uz_position *pos)
{
    uint64_t color[2] = {0, 0}, type[7] = {0};
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->squares[sq];
        if (!p)
            continue;
        if (UZ_PIECE_TYPE(p) < UZ_PAWN || UZ_PIECE_TYPE(p) > UZ_KING || UZ_PIECE_COLOR(p) > 1)
            return false;
        color[UZ_PIECE_COLOR(p)] |= (uint64_t)1 << sq;
        type[UZ_PIECE_TYPE(p)] |= (uint64_t)1 << sq;
    }
    if (memcmp(color, pos->by_color, sizeof color) != 0 || memcmp(type + 1, pos->by_type + 1, 6 * sizeof type[0]) != 0)
        return false;
    for (int c = 0; c < 2; c++)
        if (pos->squares[pos->king_sq[c]] != UZ_PIECE(c, UZ_KING))
            return false;
    return pos->key == uz_position_compute_key(pos) && pos->key == reference_key(pos);
}

static bool same(const uz_position *a, const uz_position *b)
{
    return uz_position_equal(a, b) && a->key == b->key && memcmp(a->by_color, b->by_color, sizeof a->by_color) == 0
        && memcmp(a->by_type + 1, b->by_type + 1, 6 * sizeof a->by_type[0]) == 0
        && a->king_sq[0] == b->king_sq[0] && a->king_sq[1] == b->king_sq[1];
}

static int promo_rank(int promo)
{
    return promo; /* 0 none, then N=2 < B=3 < R=4 < Q=5 */
}

/* a before b in canonical order, computed from the board.h definition. */
static bool canonical_less(uz_move a, uz_move b)
{
    int ka[5] = {UZ_SQ_FILE(UZ_MOVE_FROM(a)), UZ_SQ_RANK(UZ_MOVE_FROM(a)), UZ_SQ_FILE(UZ_MOVE_TO(a)),
                 UZ_SQ_RANK(UZ_MOVE_TO(a)), promo_rank(UZ_MOVE_PROMO(a))};
    int kb[5] = {UZ_SQ_FILE(UZ_MOVE_FROM(b)), UZ_SQ_RANK(UZ_MOVE_FROM(b)), UZ_SQ_FILE(UZ_MOVE_TO(b)),
                 UZ_SQ_RANK(UZ_MOVE_TO(b)), promo_rank(UZ_MOVE_PROMO(b))};
    for (int i = 0; i < 5; i++)
        if (ka[i] != kb[i])
            return ka[i] < kb[i];
    return false;
}

static void walk(uz_position *pos, int depth)
{
    walk_nodes++;
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    for (int i = 1; i < n; i++)
        if (!canonical_less(moves[i - 1], moves[i]))
            walk_fail(pos, "moves %d and %d are not in canonical order", i - 1, i);
    if ((uint64_t)n != uz_perft(pos, 1))
        walk_fail(pos, "generate and perft(1) disagree");
    uz_status status = uz_position_status(pos);
    uz_status expected = n ? UZ_STATUS_PLAYING : uz_in_check(pos) ? UZ_STATUS_CHECKMATE : UZ_STATUS_STALEMATE;
    if (status != expected)
        walk_fail(pos, "status %d, expected %d", (int)status, (int)expected);

    for (int i = 0; i < n; i++) {
        uz_move m = moves[i];
        char uci[UZ_UCI_MAX];
        uz_move_to_uci(m, uci);
        uz_move back = UZ_MOVE_NONE;
        if (uz_move_from_uci(pos, uci, &back) != UZ_OK || back != m)
            walk_fail(pos, "UCI round trip of %s", uci);
        if (!uz_is_legal(pos, m))
            walk_fail(pos, "uz_is_legal(%s) is false", uci);

        uz_position before = *pos;
        uz_undo undo;
        uz_make_move(pos, m, &undo);
        if (!consistent(pos))
            walk_fail(&before, "inconsistent after %s", uci);
        uz_position flipped = *pos;
        flipped.side ^= 1;
        if (uz_in_check(&flipped))
            walk_fail(&before, "%s leaves the king in check", uci);
        if (pos->ep_square != UZ_SQ_NONE) {
            /* A stored ep square must be usable: some legal move captures on it. */
            uz_move replies[UZ_MAX_MOVES];
            int k = uz_generate_legal(pos, replies), found = 0;
            for (int j = 0; j < k; j++)
                found |= UZ_MOVE_TO(replies[j]) == pos->ep_square
                      && UZ_PIECE_TYPE(pos->squares[UZ_MOVE_FROM(replies[j])]) == UZ_PAWN;
            if (!found)
                walk_fail(&before, "ep square after %s cannot be used", uci);
        }

        char fen[UZ_FEN_MAX];
        uz_position_to_fen(pos, fen);
        uz_position parsed;
        uz_diag diag = {0};
        if (uz_position_from_fen(&parsed, fen, &diag) != UZ_OK)
            walk_fail(&before, "after %s: FEN %s does not parse: %s", uci, fen, diag.message);
        else if (!same(&parsed, pos))
            walk_fail(&before, "after %s: FEN %s does not round trip", uci, fen);

        if (depth > 1)
            walk(pos, depth - 1);
        uz_unmake_move(pos, m, &undo);
        if (!same(pos, &before))
            walk_fail(&before, "unmake of %s does not restore", uci);
    }

    if (!uz_in_check(pos)) {
        uz_position before = *pos;
        uz_undo undo;
        uz_make_move(pos, UZ_MOVE_NULL, &undo);
        if (!consistent(pos) || pos->side == before.side || pos->ep_square != UZ_SQ_NONE
            || pos->halfmove != before.halfmove + 1 || pos->fullmove != before.fullmove + (before.side == UZ_BLACK))
            walk_fail(&before, "bad null move");
        uz_unmake_move(pos, UZ_MOVE_NULL, &undo);
        if (!same(pos, &before))
            walk_fail(&before, "null move unmake does not restore");
    }
}

/* Every from/to/promotion combination: uz_is_legal agrees with the generator. */
static void check_is_legal_exhaustive(const uz_position *pos, const char *fen)
{
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    long bad = 0, legal = 0;
    for (int from = 0; from < 64; from++)
        for (int to = 0; to < 64; to++)
            for (int promo = 0; promo <= UZ_QUEEN; promo++) {
                if (promo == UZ_PAWN)
                    continue;
                uz_move m = UZ_MOVE(from, to, promo);
                bool listed = false;
                for (int i = 0; i < n; i++)
                    listed |= moves[i] == m;
                bad += uz_is_legal(pos, m) != listed;
                legal += listed;
            }
    CHECK(bad == 0 && legal == n, "%s: uz_is_legal disagrees with the generator %ld times", fen, bad);
    CHECK(!uz_is_legal(pos, UZ_MOVE_NULL) && !uz_is_legal(pos, UZ_MOVE_NONE), "%s: null move reported legal", fen);
}

static void check_status(const char *fen, uz_status expected)
{
    uz_position pos;
    CHECK(uz_position_from_fen(&pos, fen, NULL) == UZ_OK, "%s does not parse", fen);
    CHECK(uz_position_status(&pos) == expected, "%s: status %d, expected %d", fen, (int)uz_position_status(&pos),
          (int)expected);
}

/* uz_slider_lines against the geometry: a rook's lines are its file and rank, a
 * bishop's the squares as far away in files as in ranks, a queen's both. */
static void check_slider_lines(void)
{
    for (int sq = 0; sq < 64; sq++) {
        uint64_t rook = 0, bishop = 0;
        for (int t = 0; t < 64; t++) {
            int df = UZ_SQ_FILE(t) - UZ_SQ_FILE(sq), dr = UZ_SQ_RANK(t) - UZ_SQ_RANK(sq);
            if (t != sq && (df == 0 || dr == 0))
                rook |= (uint64_t)1 << t;
            if (t != sq && (df == dr || df == -dr))
                bishop |= (uint64_t)1 << t;
        }
        CHECK(uz_slider_lines(UZ_ROOK, sq) == rook && uz_slider_lines(UZ_BISHOP, sq) == bishop &&
                  uz_slider_lines(UZ_QUEEN, sq) == (rook | bishop) && uz_slider_lines(UZ_KNIGHT, sq) == 0,
              "slider lines of square %d", sq);
        CHECK(uz_slider_lines(UZ_ROOK, sq) == uz_piece_attacks(UZ_ROOK, UZ_WHITE, sq, 0) &&
                  uz_slider_lines(UZ_BISHOP, sq) == uz_piece_attacks(UZ_BISHOP, UZ_WHITE, sq, 0),
              "slider lines of square %d are the attacks on an empty board", sq);
    }
}

/* The leapers' attacks (uz_piece_attacks, read from board.c's tables) against the
 * geometry: the squares at a knight's, king's or pawn's step that are on the board. */
static uint64_t steps_from(int sq, const int (*step)[2], int n)
{
    uint64_t set = 0;
    for (int k = 0; k < n; k++) {
        int f = UZ_SQ_FILE(sq) + step[k][0], r = UZ_SQ_RANK(sq) + step[k][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8)
            set |= (uint64_t)1 << UZ_SQ(f, r);
    }
    return set;
}

static void check_leaper_attacks(void)
{
    static const int knight[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    static const int king[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    static const int white_pawn[2][2] = {{-1, 1}, {1, 1}}, black_pawn[2][2] = {{-1, -1}, {1, -1}};
    for (int sq = 0; sq < 64; sq++) {
        CHECK(uz_piece_attacks(UZ_KNIGHT, UZ_WHITE, sq, 0) == steps_from(sq, knight, 8), "knight attacks of %d", sq);
        CHECK(uz_piece_attacks(UZ_KING, UZ_BLACK, sq, 0) == steps_from(sq, king, 8), "king attacks of %d", sq);
        CHECK(uz_piece_attacks(UZ_PAWN, UZ_WHITE, sq, 0) == steps_from(sq, white_pawn, 2) &&
                  uz_piece_attacks(UZ_PAWN, UZ_BLACK, sq, 0) == steps_from(sq, black_pawn, 2),
              "pawn attacks of %d", sq);
    }
}

int main(void)
{
    check_slider_lines();
    check_leaper_attacks();
    init_zobrist_reference();
    const char *deep = getenv("UZ_PERFT_DEEP");
    int depth = deep && strcmp(deep, "1") == 0 ? 4 : 3;

    for (int i = 0; i < N_TEST_POSITIONS; i++) {
        const char *fen = test_positions[i];
        uz_position pos;
        uz_diag diag = {0};
        uz_result r = uz_position_from_fen(&pos, fen, &diag);
        CHECK(r == UZ_OK, "%s: %s", fen, diag.message);
        if (r != UZ_OK)
            continue;
        CHECK(consistent(&pos), "%s: inconsistent after parsing", fen);
        check_is_legal_exhaustive(&pos, fen);
        walk_errors = 0;
        walk_nodes = 0;
        walk(&pos, depth);
        CHECK(walk_errors == 0, "%s: %ld errors in %ld nodes", fen, walk_errors, walk_nodes);
    }

    /* The key is part of what other machines must reproduce: pin one value. */
    uz_position start;
    uz_position_startpos(&start);
    CHECK(start.key == reference_key(&start), "startpos key differs from the documented definition");
    CHECK(start.key == 0x6A378132FC2DC89AULL, "startpos key is %016llx", (unsigned long long)start.key);

    /* Same position reached by different move orders: same key; ep square only when usable. */
    uz_position a, b;
    uz_position_startpos(&a);
    uz_position_startpos(&b);
    const char *line_a[] = {"g1f3", "g8f6", "b1c3", "b8c6"};
    const char *line_b[] = {"b1c3", "b8c6", "g1f3", "g8f6"};
    for (int i = 0; i < 4; i++) {
        uz_move m;
        uz_undo u;
        CHECK(uz_move_from_uci(&a, line_a[i], &m) == UZ_OK, "%s", line_a[i]);
        uz_make_move(&a, m, &u);
        CHECK(uz_move_from_uci(&b, line_b[i], &m) == UZ_OK, "%s", line_b[i]);
        uz_make_move(&b, m, &u);
    }
    CHECK(a.key == b.key && uz_position_equal(&a, &b), "transposition gives different keys");
    uz_position c;
    uz_position_startpos(&c);
    uz_move e4;
    uz_undo u;
    uz_move_from_uci(&c, "e2e4", &e4);
    uz_make_move(&c, e4, &u);
    CHECK(c.ep_square == UZ_SQ_NONE, "1.e4 sets an unusable ep square");
    CHECK(c.halfmove == 0 && c.fullmove == 1 && c.side == UZ_BLACK, "counters after 1.e4");

    check_status("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4", UZ_STATUS_CHECKMATE);
    check_status("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", UZ_STATUS_STALEMATE);
    check_status("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", UZ_STATUS_PLAYING);
    check_status("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", UZ_STATUS_CHECKMATE);
    check_status("k7/2R5/1K6/8/8/8/8/8 b - - 0 1", UZ_STATUS_PLAYING);
    check_status("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", UZ_STATUS_CHECKMATE);
    check_status("k7/8/1Q6/8/8/8/8/7K b - - 0 1", UZ_STATUS_STALEMATE);

    /* Double check: only king moves. */
    uz_position dc;
    CHECK(uz_position_from_fen(&dc, "4k3/8/8/8/1b6/8/4r3/R3K2R w KQ - 0 1", NULL) == UZ_OK, "double check FEN");
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(&dc, moves);
    bool only_king = n > 0;
    for (int i = 0; i < n; i++)
        only_king &= UZ_MOVE_FROM(moves[i]) == dc.king_sq[UZ_WHITE];
    CHECK(only_king, "double check allows non-king moves");

    return test_finish();
}
