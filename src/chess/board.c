/* Positions: attacks, Zobrist keys, FEN in and out, make and unmake. */

/*
 * Representation. A position keeps a mailbox (squares[], "what is on e4?" in one
 * lookup) and bitboards per colour and per piece type ("where are the white rooks?",
 * "is f1 attacked?" with a few masks). make/unmake update both through put_piece and
 * remove_piece, so they cannot drift apart.
 *
 * Sliding attacks are found line by line (file, rank, diagonal, anti-diagonal): towards
 * higher squares the ray ends at its lowest blocker (isolated with b & -b), towards lower
 * squares at its highest (a bit scan), rather than with magic or rotated bitboards. That
 * has no branches: walking rays square by square, and later occluded fills
 * (Kogge-Stone), cost the move generator and the player model's features more than the
 * rest of their work together. The leapers' attacks and the lines through each square
 * are constant tables that the compiler fills from the shift formulas below, so the
 * module still has no mutable global state and no initialisation step (everything is
 * reentrant).
 *
 * The Zobrist values are computed on demand from their index with splitmix64, which
 * is a pure function of its counter; again no table and no initialisation.
 */
#include <assert.h>
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "chess_internal.h"

/* ---- attacks ---------------------------------------------------------------- */

#define FILE_A 0x0101010101010101ULL
#define FILE_B (FILE_A << 1)
#define FILE_G (FILE_A << 6)
#define FILE_H (FILE_A << 7)

/* Attack sets of a set of squares b by shifts (constant expressions: they fill the
 * tables below at compile time). SIDE1 / SIDE2: the squares one / two files to either
 * side, off-board files dropped. */
#define SIDE1(b) ((((b) >> 1) & ~FILE_H) | (((b) << 1) & ~FILE_A))
#define SIDE2(b) ((((b) >> 2) & ~(FILE_G | FILE_H)) | (((b) << 2) & ~(FILE_A | FILE_B)))
#define KNIGHT_SET(b) ((SIDE1(b) << 16) | (SIDE1(b) >> 16) | (SIDE2(b) << 8) | (SIDE2(b) >> 8))
#define KING_ROW(b) ((b) | SIDE1(b))
#define KING_SET(b) ((KING_ROW(b) | (KING_ROW(b) << 8) | (KING_ROW(b) >> 8)) & ~(b))
#define WHITE_PAWN_SET(b) (SIDE1(b) << 8)
#define BLACK_PAWN_SET(b) (SIDE1(b) >> 8)
/* The whole diagonal (a1-h8 direction) and anti-diagonal through sq. (Each shift count is
 * masked to 0..63: the branch not taken would be negative, which clang warns of even there;
 * in the branch taken it is 0..56 and the mask changes nothing.) */
#define DIAGONAL_OF(sq)                                                                            \
    ((sq) / 8 >= (sq) % 8 ? 0x8040201008040201ULL << ((8 * ((sq) / 8 - (sq) % 8)) & 63)          \
                          : 0x8040201008040201ULL >> ((8 * ((sq) % 8 - (sq) / 8)) & 63))
#define ANTI_DIAGONAL_OF(sq)                                                                       \
    ((sq) / 8 + (sq) % 8 >= 7 ? 0x0102040810204080ULL << ((8 * ((sq) / 8 + (sq) % 8 - 7)) & 63)   \
                              : 0x0102040810204080ULL >> ((8 * (7 - (sq) / 8 - (sq) % 8)) & 63))

#define KNIGHT_OF(sq) KNIGHT_SET(UZ__BB(sq))
#define KING_OF(sq) KING_SET(UZ__BB(sq))
#define WHITE_PAWN_OF(sq) WHITE_PAWN_SET(UZ__BB(sq))
#define BLACK_PAWN_OF(sq) BLACK_PAWN_SET(UZ__BB(sq))
#define RANK_OF_8(M, r) M(8 * r), M(8 * r + 1), M(8 * r + 2), M(8 * r + 3), M(8 * r + 4), M(8 * r + 5), \
                        M(8 * r + 6), M(8 * r + 7)
#define BOARD_OF(M) \
    RANK_OF_8(M, 0), RANK_OF_8(M, 1), RANK_OF_8(M, 2), RANK_OF_8(M, 3), RANK_OF_8(M, 4), RANK_OF_8(M, 5), \
        RANK_OF_8(M, 6), RANK_OF_8(M, 7)

const uint64_t uz__knight_table[64] = {BOARD_OF(KNIGHT_OF)};
const uint64_t uz__king_table[64] = {BOARD_OF(KING_OF)};
const uint64_t uz__pawn_table[2][64] = {{BOARD_OF(WHITE_PAWN_OF)}, {BOARD_OF(BLACK_PAWN_OF)}};
const uint64_t uz__diagonal_table[2][64] = {{BOARD_OF(DIAGONAL_OF)}, {BOARD_OF(ANTI_DIAGONAL_OF)}};

uint64_t uz_slider_lines(int type, int sq)
{
    uint64_t lines = 0;
    if (type == UZ_ROOK || type == UZ_QUEEN)
        lines |= uz__straight_lines(sq);
    if (type == UZ_BISHOP || type == UZ_QUEEN)
        lines |= uz__diagonal_lines(sq);
    return lines & ~UZ__BB(sq);
}

uint64_t uz__attackers_to(const uz_position *pos, int sq, uint64_t occupied)
{
    uint64_t pawns = pos->by_type[UZ_PAWN];
    uint64_t rooks = pos->by_type[UZ_ROOK] | pos->by_type[UZ_QUEEN];
    uint64_t bishops = pos->by_type[UZ_BISHOP] | pos->by_type[UZ_QUEEN];
    /* A white pawn attacks sq if sq's "black pawn attacks" contain it, and vice versa. */
    return (uz__pawn_from(UZ_BLACK, sq) & pawns & pos->by_color[UZ_WHITE])
         | (uz__pawn_from(UZ_WHITE, sq) & pawns & pos->by_color[UZ_BLACK])
         | (uz__knight_from(sq) & pos->by_type[UZ_KNIGHT])
         | (uz__king_from(sq) & pos->by_type[UZ_KING])
         /* a slider's attacks are worked out only when one stands on a line through sq */
         | (rooks & uz__straight_lines(sq) ? uz__rook_attacks(sq, occupied) & rooks : 0)
         | (bishops & uz__diagonal_lines(sq) ? uz__bishop_attacks(sq, occupied) & bishops : 0);
}

static uint64_t occupancy(const uz_position *pos)
{
    return pos->by_color[UZ_WHITE] | pos->by_color[UZ_BLACK];
}

/* Is the king of color attacked by the other side? */
static bool king_attacked(const uz_position *pos, int color)
{
    return (uz__attackers_to(pos, pos->king_sq[color], occupancy(pos)) & pos->by_color[color ^ 1]) != 0;
}

uint64_t uz_attackers_to(const uz_position *pos, int sq, uint64_t occupied)
{
    return uz__attackers_to(pos, sq, occupied);
}

uint64_t uz_piece_attacks(int type, int color, int sq, uint64_t occupied)
{
    switch (type) {
    case UZ_PAWN: return uz__pawn_from(color, sq);
    case UZ_KNIGHT: return uz__knight_from(sq);
    case UZ_BISHOP: return uz__bishop_attacks(sq, occupied);
    case UZ_ROOK: return uz__rook_attacks(sq, occupied);
    case UZ_QUEEN: return uz__bishop_attacks(sq, occupied) | uz__rook_attacks(sq, occupied);
    case UZ_KING: return uz__king_from(sq);
    default: return 0;
    }
}

bool uz_in_check(const uz_position *pos)
{
    return king_attacked(pos, pos->side);
}

/* Square of the pawn that an en-passant capture onto ep removes. */
static int ep_victim(int ep_square)
{
    /* ep squares are on rank 3 (victim on rank 4) or rank 6 (victim on rank 5). */
    return UZ_SQ_RANK(ep_square) == 5 ? ep_square - 8 : ep_square + 8;
}

bool uz__ep_capture_legal(const uz_position *pos, int from)
{
    int us = pos->side;
    int to = pos->ep_square;
    assert(to != UZ_SQ_NONE);
    int victim = ep_victim(to);
    uint64_t occupied = (occupancy(pos) ^ UZ__BB(from) ^ UZ__BB(victim)) | UZ__BB(to);
    uint64_t attackers = uz__attackers_to(pos, pos->king_sq[us], occupied) & pos->by_color[us ^ 1];
    return (attackers & ~UZ__BB(victim)) == 0;
}

/* ---- Zobrist keys ----------------------------------------------------------- */

#define ZOBRIST_SEED 0x75637A6970000000ULL /* "ucizip" */
#define Z_SIDE 1024
#define Z_CASTLE 1025
#define Z_EP 1029

/* Output number index of splitmix64 seeded with ZOBRIST_SEED: its state after index+1
 * steps is seed + (index + 1) * gamma, so any output can be computed directly. */
static uint64_t zobrist(unsigned index)
{
    uint64_t z = ZOBRIST_SEED + (uint64_t)(index + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t zobrist_piece(int piece, int sq)
{
    return zobrist(64u * (unsigned)piece + (unsigned)sq);
}

static uint64_t zobrist_castling(unsigned rights)
{
    uint64_t key = 0;
    for (unsigned b = 0; b < 4; b++)
        if (rights & (1u << b))
            key ^= zobrist(Z_CASTLE + b);
    return key;
}

static uint64_t zobrist_ep(int ep_square)
{
    return ep_square == UZ_SQ_NONE ? 0 : zobrist(Z_EP + (unsigned)UZ_SQ_FILE(ep_square));
}

uint64_t uz_position_compute_key(const uz_position *pos)
{
    uint64_t key = 0;
    for (int sq = 0; sq < 64; sq++)
        if (pos->squares[sq])
            key ^= zobrist_piece(pos->squares[sq], sq);
    if (pos->side == UZ_BLACK)
        key ^= zobrist(Z_SIDE);
    key ^= zobrist_castling(pos->castling);
    key ^= zobrist_ep(pos->ep_square);
    return key;
}

bool uz_position_equal(const uz_position *a, const uz_position *b)
{
    return memcmp(a->squares, b->squares, sizeof a->squares) == 0 && a->side == b->side
        && a->castling == b->castling && a->chess960 == b->chess960
        && (!a->chess960 || memcmp(a->castle_rook, b->castle_rook, sizeof a->castle_rook) == 0)
        && a->ep_square == b->ep_square
        && a->halfmove == b->halfmove && a->fullmove == b->fullmove;
}

/* ---- piece placement -------------------------------------------------------- */

static void put_piece(uz_position *pos, int sq, int piece)
{
    assert(pos->squares[sq] == 0 && piece != 0);
    uint64_t bit = UZ__BB(sq);
    pos->squares[sq] = (uint8_t)piece;
    pos->by_color[UZ_PIECE_COLOR(piece)] |= bit;
    pos->by_type[UZ_PIECE_TYPE(piece)] |= bit;
    pos->key ^= zobrist_piece(piece, sq);
}

static int remove_piece(uz_position *pos, int sq)
{
    int piece = pos->squares[sq];
    assert(piece != 0);
    uint64_t bit = UZ__BB(sq);
    pos->squares[sq] = 0;
    pos->by_color[UZ_PIECE_COLOR(piece)] &= ~bit;
    pos->by_type[UZ_PIECE_TYPE(piece)] &= ~bit;
    pos->key ^= zobrist_piece(piece, sq);
    return piece;
}

/* Sets ep_square to sq if the side to move can legally capture there, else clears
 * it; keeps the key in step. A position only ever stores a usable ep square. */
static void set_ep_if_usable(uz_position *pos, int sq)
{
    pos->key ^= zobrist_ep(pos->ep_square);
    pos->ep_square = UZ_SQ_NONE;
    if (sq == UZ_SQ_NONE)
        return;
    pos->ep_square = (uint8_t)sq;
    uint64_t capturers = uz__pawn_from(pos->side ^ 1, sq) & pos->by_type[UZ_PAWN]
                       & pos->by_color[pos->side];
    while (capturers) {
        if (uz__ep_capture_legal(pos, uz__pop_lsb(&capturers))) {
            pos->key ^= zobrist_ep(sq);
            return;
        }
    }
    pos->ep_square = UZ_SQ_NONE;
}

/* Castling rights lost when a piece moves from `from` to `to`: those of a rook that
 * leaves or is captured on its square, and both of a king that moves. */
static unsigned castling_lost(const uz_position *pos, int from, int to)
{
    if (!pos->castling)
        return 0; /* nothing left to lose */
    unsigned lost = 0;
    for (unsigned b = 0; b < 4; b++)
        if ((pos->castling & (1u << b)) && (from == pos->castle_rook[b] || to == pos->castle_rook[b]))
            lost |= 1u << b;
    if (from == pos->king_sq[UZ_WHITE])
        lost |= UZ_CASTLE_WK | UZ_CASTLE_WQ;
    if (from == pos->king_sq[UZ_BLACK])
        lost |= UZ_CASTLE_BK | UZ_CASTLE_BQ;
    return lost;
}

/* Chess960 castling: the king (on from) and its rook (on rook) go to the g- and f-files
 * (king side) or the c- and d-files (queen side) of their rank; either may already be
 * there. */
static void castle960(uz_position *pos, int from, int rook, bool undo)
{
    int back = UZ_SQ_RANK(from) * 8;
    bool king_side = rook > from;
    int king_to = back + (king_side ? 6 : 2), rook_to = back + (king_side ? 5 : 3);
    int us = UZ_PIECE_COLOR(pos->squares[undo ? king_to : from]);
    if (undo) {
        remove_piece(pos, king_to);
        remove_piece(pos, rook_to);
        put_piece(pos, from, UZ_PIECE(us, UZ_KING));
        put_piece(pos, rook, UZ_PIECE(us, UZ_ROOK));
        pos->king_sq[us] = (uint8_t)from;
    } else {
        remove_piece(pos, from);
        remove_piece(pos, rook);
        put_piece(pos, king_to, UZ_PIECE(us, UZ_KING));
        put_piece(pos, rook_to, UZ_PIECE(us, UZ_ROOK));
        pos->king_sq[us] = (uint8_t)king_to;
    }
}

/* ---- make / unmake ---------------------------------------------------------- */

void uz_make_move(uz_position *pos, uz_move move, uz_undo *undo)
{
    int us = pos->side;
    undo->captured = 0;
    undo->castled960 = 0;
    undo->castling = pos->castling;
    undo->ep_square = pos->ep_square;
    undo->halfmove = pos->halfmove;
    undo->key = pos->key;

    if (us == UZ_BLACK)
        pos->fullmove++;
    pos->side = (uint8_t)(us ^ 1);
    pos->key ^= zobrist(Z_SIDE);

    if (move == UZ_MOVE_NULL) {
        pos->halfmove++;
        set_ep_if_usable(pos, UZ_SQ_NONE);
        return;
    }

    int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move), promo = UZ_MOVE_PROMO(move);
    int piece = pos->squares[from];
    int type = UZ_PIECE_TYPE(piece);
    assert(piece != 0 && UZ_PIECE_COLOR(piece) == us);
    if (pos->chess960 && type == UZ_KING && pos->squares[to] == UZ_PIECE(us, UZ_ROOK)) {
        unsigned castling = pos->castling & ~castling_lost(pos, from, to);
        castle960(pos, from, to, false);
        undo->castled960 = 1;
        pos->key ^= zobrist_castling(pos->castling) ^ zobrist_castling(castling);
        pos->castling = (uint8_t)castling;
        pos->halfmove++;
        set_ep_if_usable(pos, UZ_SQ_NONE);
        return;
    }
    assert(pos->squares[to] == 0 || UZ_PIECE_COLOR(pos->squares[to]) != us);
    assert(UZ_PIECE_TYPE(pos->squares[to]) != UZ_KING);

    if (type == UZ_PAWN && to == pos->ep_square)
        undo->captured = (uint8_t)remove_piece(pos, ep_victim(to));
    else if (pos->squares[to])
        undo->captured = (uint8_t)remove_piece(pos, to);

    remove_piece(pos, from);
    put_piece(pos, to, promo ? UZ_PIECE(us, promo) : piece);

    unsigned castling = pos->castling & ~castling_lost(pos, from, to);
    if (type == UZ_KING) {
        pos->king_sq[us] = (uint8_t)to;
        if (pos->chess960)
            ; /* a Chess960 king moves two squares only when castling, handled above */
        else if (to == from + 2)
            put_piece(pos, from + 1, remove_piece(pos, from + 3));
        else if (to == from - 2)
            put_piece(pos, from - 1, remove_piece(pos, from - 4));
    }

    if (castling != pos->castling) /* most moves change no right: spare the key update */
        pos->key ^= zobrist_castling(pos->castling) ^ zobrist_castling(castling);
    pos->castling = (uint8_t)castling;

    pos->halfmove = (type == UZ_PAWN || undo->captured) ? 0 : (uint16_t)(pos->halfmove + 1);

    /* The ep square is computed after the move so the legality test sees the new board. */
    set_ep_if_usable(pos, type == UZ_PAWN && (to - from == 16 || from - to == 16) ? (from + to) / 2 : UZ_SQ_NONE);
}

void uz_unmake_move(uz_position *pos, uz_move move, const uz_undo *undo)
{
    int us = pos->side ^ 1;
    pos->side = (uint8_t)us;
    if (us == UZ_BLACK)
        pos->fullmove--;

    if (undo->castled960) {
        castle960(pos, UZ_MOVE_FROM(move), UZ_MOVE_TO(move), true);
    } else if (move != UZ_MOVE_NULL) {
        int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move);
        int piece = remove_piece(pos, to);
        if (UZ_MOVE_PROMO(move))
            piece = UZ_PIECE(us, UZ_PAWN);
        put_piece(pos, from, piece);

        if (UZ_PIECE_TYPE(piece) == UZ_KING) {
            pos->king_sq[us] = (uint8_t)from;
            if (pos->chess960)
                ;
            else if (to == from + 2)
                put_piece(pos, from + 3, remove_piece(pos, from + 1));
            else if (to == from - 2)
                put_piece(pos, from - 4, remove_piece(pos, from - 1));
        }

        if (undo->captured) {
            bool en_passant = UZ_PIECE_TYPE(piece) == UZ_PAWN && to == undo->ep_square;
            put_piece(pos, en_passant ? ep_victim(to) : to, undo->captured);
        }
    }

    pos->castling = undo->castling;
    pos->ep_square = undo->ep_square;
    pos->halfmove = undo->halfmove;
    pos->key = undo->key;
}

/* ---- FEN -------------------------------------------------------------------- */

void uz_position_startpos(uz_position *pos)
{
    uz_result r = uz_position_from_fen(pos, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", NULL);
    assert(r == UZ_OK);
    (void)r;
}

static const char piece_chars[] = " PNBRQK  pnbrqk";

static int piece_from_char(char c)
{
    const char *p = c ? strchr(piece_chars, c) : NULL;
    if (!p || *p == ' ')
        return 0;
    return (int)(p - piece_chars);
}

static bool is_blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Reports a FEN error at the character s points to. */
#if defined(__GNUC__)
__attribute__((format(printf, 5, 6)))
#endif
static uz_result fen_error(uz_diag *diag, uz_result code, const char *fen, const char *s, const char *fmt, ...)
{
    if (diag) {
        char msg[200];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        uz_diag_set(diag, code, 0, (long)(s - fen) + 1, "FEN: %s", msg);
    }
    return code;
}

/* Reads an unsigned decimal counter of at most 65535; returns false if s does not
 * start with digits or the number is too large. */
static bool read_counter(const char **s, unsigned *value)
{
    const char *p = *s;
    unsigned long v = 0;
    if (!isdigit((unsigned char)*p))
        return false;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (unsigned long)(*p - '0');
        if (v > 65535)
            return false;
        p++;
    }
    *s = p;
    *value = (unsigned)v;
    return true;
}

/* The rook that castling letter c (k, q, or a file a-h; lower case) of color names, or
 * -1 if there is none on the back rank: for k and q the outermost rook on that side of
 * the king, for a file the rook on it. */
static int castling_rook(const uz_position *pos, int color, int c)
{
    int back = color == UZ_WHITE ? 0 : 7;
    int king_file = UZ_SQ_FILE(pos->king_sq[color]);
    int rook = UZ_PIECE(color, UZ_ROOK);
    if (UZ_SQ_RANK(pos->king_sq[color]) != back)
        return -1;
    if (c == 'k' || c == 'q') {
        int step = c == 'k' ? -1 : 1;
        for (int f = c == 'k' ? 7 : 0; f != king_file; f += step)
            if (pos->squares[UZ_SQ(f, back)] == rook)
                return UZ_SQ(f, back);
        return -1;
    }
    int f = c - 'a';
    return f != king_file && pos->squares[UZ_SQ(f, back)] == rook ? UZ_SQ(f, back) : -1;
}

uz_result uz_position_from_fen(uz_position *out, const char *fen, uz_diag *diag)
{
    return uz_position_from_fen_960(out, fen, false, diag);
}

/* The FEN reader, a field at a time: each reads from *s on and leaves *s after its field
 * (fen is the whole text, for error columns). */

/* Field 1: the board, rank 8 first. */
static uz_result fen_read_board(uz_position *pos, const char *fen, const char **sp, uz_diag *diag)
{
    const char *s = *sp;
    int rank = 7, file = 0;
    for (;; s++) {
        char c = *s;
        if (c == '\0' || is_blank(c))
            break;
        if (c == '/') {
            if (file != 8)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "rank %d has %d squares, expected 8", rank + 1, file);
            if (rank == 0)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "more than 8 ranks");
            rank--;
            file = 0;
        } else if (c >= '1' && c <= '8') {
            file += c - '0';
            if (file > 8)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "rank %d has more than 8 squares", rank + 1);
        } else {
            int piece = piece_from_char(c);
            if (!piece)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' in the board", c);
            if (file >= 8)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "rank %d has more than 8 squares", rank + 1);
            if (UZ_PIECE_TYPE(piece) == UZ_PAWN && (rank == 0 || rank == 7))
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "pawn on rank %d", rank + 1);
            put_piece(pos, UZ_SQ(file, rank), piece);
            file++;
        }
    }
    *sp = s;
    if (rank != 0 || file != 8)
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "the board ends early (rank %d has %d squares)", rank + 1, file);
    return UZ_OK;
}

/* The board's material is reachable (move lists are sized for it: UZ_MAX_MOVES) and each
 * side has one king, whose square it records. */
static uz_result fen_check_material(uz_position *pos, const char *fen, const char *board_field, uz_diag *diag)
{
    for (int color = 0; color < 2; color++) {
        const char *name = color == UZ_WHITE ? "White" : "Black";
        int pieces = uz__popcount(pos->by_color[color]);
        int pawns = uz__popcount(pos->by_color[color] & pos->by_type[UZ_PAWN]);
        int promoted = 0;
        static const int initial[] = {[UZ_KNIGHT] = 2, [UZ_BISHOP] = 2, [UZ_ROOK] = 2, [UZ_QUEEN] = 1};
        for (int t = UZ_KNIGHT; t <= UZ_QUEEN; t++) {
            int n = uz__popcount(pos->by_color[color] & pos->by_type[t]);
            promoted += n > initial[t] ? n - initial[t] : 0;
        }
        if (pieces > 16)
            return fen_error(diag, UZ_ERR_SYNTAX, fen, board_field, "%s has %d pieces (at most 16)", name, pieces);
        if (pawns > 8)
            return fen_error(diag, UZ_ERR_SYNTAX, fen, board_field, "%s has %d pawns (at most 8)", name, pawns);
        if (promoted > 8 - pawns)
            return fen_error(diag, UZ_ERR_SYNTAX, fen, board_field,
                             "%s has %d promoted pieces but only %d missing pawns", name, promoted, 8 - pawns);
    }
    for (int color = 0; color < 2; color++) {
        uint64_t kings = pos->by_type[UZ_KING] & pos->by_color[color];
        if (uz__popcount(kings) != 1)
            return fen_error(diag, UZ_ERR_SYNTAX, fen, board_field, "%s has %d kings", color == UZ_WHITE ? "White" : "Black",
                             uz__popcount(kings));
        pos->king_sq[color] = (uint8_t)uz__lsb(kings);
    }
    return UZ_OK;
}

/* Field 2: side to move (the side not to move must not be in check). */
static uz_result fen_read_side(uz_position *pos, const char *fen, const char **sp, uz_diag *diag)
{
    const char *s = *sp;
    while (is_blank(*s))
        s++;
    const char *side_field = s;
    if ((*s == 'w' || *s == 'W') && (s[1] == '\0' || is_blank(s[1])))
        pos->side = UZ_WHITE;
    else if ((*s == 'b' || *s == 'B') && (s[1] == '\0' || is_blank(s[1])))
        pos->side = UZ_BLACK;
    else if (*s == '\0')
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "missing side to move");
    else
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "side to move must be 'w' or 'b'");
    *sp = s + 1;
    if (king_attacked(pos, pos->side ^ 1))
        return fen_error(diag, UZ_ERR_SYNTAX, fen, side_field, "the side not to move (%s) is in check",
                         pos->side == UZ_WHITE ? "Black" : "White");
    return UZ_OK;
}

/* Field 3: castling rights (KQkq, or rook files in Chess960). */
static uz_result fen_read_castling(uz_position *pos, const char *fen, const char **sp, bool chess960, uz_diag *diag)
{
    const char *s = *sp;
    while (is_blank(*s))
        s++;
    if (*s == '\0')
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "missing castling field");
    if (*s == '-') {
        s++;
    } else {
        for (; *s && !is_blank(*s); s++) {
            int color = isupper((unsigned char)*s) ? UZ_WHITE : UZ_BLACK;
            int c = tolower((unsigned char)*s);
            if (!chess960 && c >= 'b' && c <= 'g')
                return fen_error(diag, UZ_ERR_UNSUPPORTED, fen, s,
                                 "castling with a rook on the %c-file (Chess960) is not supported", c);
            if (c != 'k' && c != 'q' && (c < 'a' || c > 'h'))
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' in castling rights", *s);
            /* A right whose king or rook is not at home is dropped, not rejected: such
             * FENs occur in real files, and the right could never be used anyway. In
             * standard chess, home is e1/e8 and the a- and h-file rooks. */
            int back = color == UZ_WHITE ? 0 : 7;
            int rook;
            if (chess960) {
                rook = castling_rook(pos, color, c);
            } else {
                rook = UZ_SQ(c == 'k' || c == 'h' ? 7 : 0, back);
                if (pos->king_sq[color] != UZ_SQ(4, back) || pos->squares[rook] != UZ_PIECE(color, UZ_ROOK))
                    rook = -1;
            }
            if (rook < 0)
                continue;
            bool king_side = UZ_SQ_FILE(rook) > UZ_SQ_FILE(pos->king_sq[color]);
            unsigned bit = color == UZ_WHITE ? (king_side ? 0u : 1u) : (king_side ? 2u : 3u);
            pos->castling |= (uint8_t)(1u << bit);
            pos->castle_rook[bit] = (uint8_t)rook;
        }
    }
    *sp = s;
    if (*s && !is_blank(*s))
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' after castling rights", *s);
    return UZ_OK;
}

/* Field 4: the en-passant square as written (UZ_SQ_NONE for '-'); kept or not later. */
static uz_result fen_read_ep(const uz_position *pos, const char *fen, const char **sp, int *ep, uz_diag *diag)
{
    const char *s = *sp;
    while (is_blank(*s))
        s++;
    *ep = UZ_SQ_NONE;
    if (*s == '\0') {
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "missing en-passant field");
    } else if (*s == '-') {
        s++;
    } else if (*s >= 'a' && *s <= 'h' && s[1] >= '1' && s[1] <= '8') {
        int ep_rank = s[1] - '1';
        if (ep_rank != (pos->side == UZ_WHITE ? 5 : 2))
            return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "en-passant square %.2s is not on rank %d", s,
                             pos->side == UZ_WHITE ? 6 : 3);
        *ep = UZ_SQ(*s - 'a', ep_rank);
        s += 2;
    } else {
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "bad en-passant square");
    }
    *sp = s;
    if (*s && !is_blank(*s))
        return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' after the en-passant square", *s);
    return UZ_OK;
}

/* Fields 5 and 6: the counters, both optional; nothing may follow them. */
static uz_result fen_read_counters(uz_position *pos, const char *fen, const char *s, uz_diag *diag)
{
    unsigned halfmove = 0, fullmove = 1;
    while (is_blank(*s))
        s++;
    if (*s) {
        if (!read_counter(&s, &halfmove))
            return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "bad halfmove clock (a number 0-65535 expected)");
        if (*s && !is_blank(*s))
            return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' in the halfmove clock", *s);
        while (is_blank(*s))
            s++;
        if (*s) {
            if (!read_counter(&s, &fullmove))
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "bad fullmove number (a number 0-65535 expected)");
            if (*s && !is_blank(*s))
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected character '%c' in the fullmove number", *s);
            while (is_blank(*s))
                s++;
            if (*s)
                return fen_error(diag, UZ_ERR_SYNTAX, fen, s, "unexpected text after the FEN");
        }
    }
    pos->halfmove = (uint16_t)halfmove;
    pos->fullmove = (uint16_t)(fullmove ? fullmove : 1);
    return UZ_OK;
}

uz_result uz_position_from_fen_960(uz_position *out, const char *fen, bool chess960, uz_diag *diag)
{
    uz_position pos;
    memset(&pos, 0, sizeof pos);
    pos.ep_square = UZ_SQ_NONE;
    const char *s = fen;
    while (is_blank(*s))
        s++;
    const char *board_field = s;
    int ep;
    uz_result r;
    if ((r = fen_read_board(&pos, fen, &s, diag)) != UZ_OK ||
        (r = fen_check_material(&pos, fen, board_field, diag)) != UZ_OK ||
        (r = fen_read_side(&pos, fen, &s, diag)) != UZ_OK ||
        (r = fen_read_castling(&pos, fen, &s, chess960, diag)) != UZ_OK ||
        (r = fen_read_ep(&pos, fen, &s, &ep, diag)) != UZ_OK ||
        (r = fen_read_counters(&pos, fen, s, diag)) != UZ_OK)
        return r;

    pos.chess960 = chess960;
    if (pos.side == UZ_BLACK)
        pos.key ^= zobrist(Z_SIDE);
    pos.key ^= zobrist_castling(pos.castling);

    /* Keep the ep square only if a pawn could just have made the double step past it
     * (pawn in front, the square and the one behind empty) and a capture is legal. */
    if (ep != UZ_SQ_NONE) {
        int them = pos.side ^ 1;
        int victim = ep_victim(ep);
        int origin = 2 * ep - victim;
        if (pos.squares[victim] == UZ_PIECE(them, UZ_PAWN) && !pos.squares[ep] && !pos.squares[origin])
            set_ep_if_usable(&pos, ep);
    }

    assert(pos.key == uz_position_compute_key(&pos));
    *out = pos;
    return UZ_OK;
}

void uz_position_to_fen(const uz_position *pos, char *out)
{
    char *p = out;
    for (int rank = 7; rank >= 0; rank--) {
        int empty = 0;
        for (int file = 0; file < 8; file++) {
            int piece = pos->squares[UZ_SQ(file, rank)];
            if (!piece) {
                empty++;
                continue;
            }
            if (empty)
                *p++ = (char)('0' + empty);
            empty = 0;
            *p++ = piece_chars[piece];
        }
        if (empty)
            *p++ = (char)('0' + empty);
        if (rank)
            *p++ = '/';
    }
    *p++ = ' ';
    *p++ = pos->side == UZ_WHITE ? 'w' : 'b';
    *p++ = ' ';
    if (!pos->castling)
        *p++ = '-';
    for (unsigned b = 0; b < 4; b++) {
        if (!(pos->castling & (1u << b)))
            continue;
        int color = b < 2 ? UZ_WHITE : UZ_BLACK;
        char letter = "kqkq"[b];
        /* X-FEN: a Chess960 rook that is not the outermost one is named by its file. */
        if (pos->chess960 && castling_rook(pos, color, letter) != pos->castle_rook[b])
            letter = (char)('a' + UZ_SQ_FILE(pos->castle_rook[b]));
        *p++ = color == UZ_WHITE ? (char)toupper((unsigned char)letter) : letter;
    }
    *p++ = ' ';
    if (pos->ep_square == UZ_SQ_NONE) {
        *p++ = '-';
    } else {
        *p++ = (char)('a' + UZ_SQ_FILE(pos->ep_square));
        *p++ = (char)('1' + UZ_SQ_RANK(pos->ep_square));
    }
    /* At most 71 + 1 + 1 + 1 + 4 + 1 + 2 = 81 characters so far; the counters add 12. */
    snprintf(p, (size_t)(UZ_FEN_MAX - (p - out)), " %u %u", (unsigned)pos->halfmove, (unsigned)pos->fullmove);
}
