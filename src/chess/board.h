/* Chess positions: FEN, legal move generation in canonical order, make/unmake,
 * Zobrist keys, perft. Standard chess and Chess960 (Fischer random chess). Depends on
 * nothing but common.h.
 * The module has no global state: every function is reentrant and may be called from
 * any thread on positions that thread owns.
 *
 * Frozen for the built-in search (src/builtin): its scores, which archives depend on
 * forever, depend on parts of this module, each marked "The builtin's scores" below: the
 * Zobrist keys (its transposition table is indexed and matched by them, so other keys
 * change which entries collide), the canonical move order (ties in its move ordering)
 * and the unsorted generator (which moves it yields; its order does not matter). A
 * change to any of them changes builtin scores: test_builtin_golden fails. */
#ifndef UCIZIP_BOARD_H
#define UCIZIP_BOARD_H

#include <stdbool.h>
#include <stdint.h>

#include "common/common.h"

/* Squares: a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63. */
#define UZ_SQ(file, rank) ((file) + 8 * (rank))
#define UZ_SQ_FILE(sq) ((sq) & 7)
#define UZ_SQ_RANK(sq) ((sq) >> 3)
#define UZ_SQ_NONE 64

enum uz_color { UZ_WHITE = 0, UZ_BLACK = 1 };

/* Piece types; a coloured piece on a square is type | (color << 3); 0 is empty. */
enum uz_piece_type { UZ_NO_PIECE = 0, UZ_PAWN = 1, UZ_KNIGHT, UZ_BISHOP, UZ_ROOK, UZ_QUEEN, UZ_KING };
#define UZ_PIECE(color, type) ((uint8_t)((type) | ((color) << 3)))
#define UZ_PIECE_TYPE(p) ((p) & 7)
#define UZ_PIECE_COLOR(p) ((p) >> 3)

/* A move is a 16-bit value: from (6 bits) | to (6 bits) << 6 | promotion (3 bits) << 12.
 * Promotion is 0 (none) or UZ_KNIGHT..UZ_QUEEN. Castling is the king's move (e1g1) in
 * standard chess; in a Chess960 position (uz_position.chess960) it is the king's move to
 * its own rook's square (b1a1, e1h1), as UCI engines with UCI_Chess960 write it.
 * UZ_MOVE_NONE (0) is "no move"; UZ_MOVE_NULL is the PGN null move "--" (passes the turn). */
typedef uint16_t uz_move;
#define UZ_MOVE(from, to, promo) ((uz_move)((from) | ((to) << 6) | ((promo) << 12)))
#define UZ_MOVE_FROM(m) ((m) & 63)
#define UZ_MOVE_TO(m) (((m) >> 6) & 63)
#define UZ_MOVE_PROMO(m) (((m) >> 12) & 7)
#define UZ_MOVE_NONE ((uz_move)0)
#define UZ_MOVE_NULL ((uz_move)0x7FFF)

/* Upper bound on legal moves in any position this module accepts (the known maximum of
 * a reachable position is 218). uz_position_from_fen refuses material no game can reach
 * (more than 16 pieces or 8 pawns a side, more promoted pieces than missing pawns), so a
 * side has at most its king (8 steps + 2 castlings) and 15 other pieces, of which at most
 * 1 + 8 queens (27 moves each), 2 rooks (14), 2 bishops (13) and 2 knights (8):
 * 10 + 243 + 28 + 26 + 16 = 323. */
#define UZ_MAX_MOVES 324
/* Longest FEN we ever print, with terminating NUL. */
#define UZ_FEN_MAX 100
/* Longest UCI move text ("e7e8q") with NUL. */
#define UZ_UCI_MAX 6

/* Castling rights bits. */
enum { UZ_CASTLE_WK = 1, UZ_CASTLE_WQ = 2, UZ_CASTLE_BK = 4, UZ_CASTLE_BQ = 8 };

/* A position is a plain value: copy it with '=' to keep a snapshot.
 * squares[] is the public mailbox view; the other fields may be read by anyone. */
typedef struct uz_position {
    uint8_t squares[64];   /* coloured piece per square, 0 = empty */
    uint64_t by_color[2];  /* occupancy bitboards */
    uint64_t by_type[7];   /* by_type[UZ_PAWN..UZ_KING] bitboards, both colours */
    uint8_t side;          /* UZ_WHITE or UZ_BLACK: the side to move */
    uint8_t castling;      /* UZ_CASTLE_* bits */
    uint8_t ep_square;     /* en-passant target square, UZ_SQ_NONE if none (see uz_position_from_fen) */
    uint8_t king_sq[2];
    uint8_t castle_rook[4]; /* square of the rook of each castling right (bit order of UZ_CASTLE_*),
                               meaningful while the right is held: a1/h1/a8/h8 in standard chess */
    uint8_t chess960;      /* 1: Chess960 rules and notation (castling as king takes rook,
                              X-FEN castling field); 0: standard chess */
    uint16_t halfmove;     /* plies since the last capture or pawn move (50-move rule) */
    uint16_t fullmove;     /* starts at 1, incremented after Black's move */
    uint64_t key;          /* Zobrist key of pieces, side, castling and a *usable* ep square */
} uz_position;

/* The ep square kept in a position (and so in its FEN and its key) is always a usable
 * one: it is set only when the side to move has a legal en-passant capture on it, so
 * two positions that allow the same moves have the same key.
 *
 * Zobrist key: XOR of Z(i) over the features present, where Z(i) is output number i
 * (counting from 0) of splitmix64 seeded with 0x75637A6970000000, so the values are the
 * same on every machine and in every build:
 *   piece p (coloured piece code, 1..14) on square s: i = 64 * p + s
 *   black to move: i = 1024
 *   castling right bit b (UZ_CASTLE_WK = bit 0 ... UZ_CASTLE_BQ = bit 3): i = 1025 + b
 *   en-passant square on file f (only when set, see above): i = 1029 + f
 * The builtin's scores depend on these values and on the usable-ep rule (see above). */

/* What make needs to restore the position on unmake. */
typedef struct uz_undo {
    uint8_t captured;
    uint8_t castled960;    /* the move was a Chess960 castling */
    uint8_t castling;
    uint8_t ep_square;
    uint16_t halfmove;
    uint64_t key;
} uz_undo;

typedef enum uz_status {
    UZ_STATUS_PLAYING = 0,
    UZ_STATUS_CHECKMATE,
    UZ_STATUS_STALEMATE,
} uz_status;

/* The standard initial position. */
void uz_position_startpos(uz_position *pos);

/* Parses a FEN (6 fields; the two counters may be missing and default to 0 1).
 * Lenient where real files are: runs of blanks between fields, leading and trailing
 * blanks, fullmove 0 (read as 1), "w"/"b" in either case, Shredder castling letters
 * for the standard rooks (HAha); rights whose king or rook is not on its home square
 * and an ep square (on the right rank) that no capture can use are accepted and
 * dropped, so the FEN printed back may differ from the input.
 * Rejects impossible positions: missing/extra kings, pawns on rank 1/8, side not to
 * move in check, bad ep square (wrong rank), material no game can reach (more than 16
 * pieces or 8 pawns a side, or more queens, rooks, bishops and knights beyond the
 * initial 1, 2, 2, 2 than the side's missing pawns could have promoted to). On error returns UZ_ERR_SYNTAX with
 * diag->column (1-based; diag->line 0) at the offending character, or
 * UZ_ERR_UNSUPPORTED for Chess960 castling letters (b-g). pos is written only on success. */
uz_result uz_position_from_fen(uz_position *pos, const char *fen, uz_diag *diag);

/* Parses a FEN as uz_position_from_fen does; with chess960 the position follows Chess960
 * rules: castling letters KQkq name the outermost rook on that side of the king (X-FEN),
 * A-H/a-h the rook on that file (Shredder-FEN); the king may stand on any file. A right
 * whose rook is missing is dropped, as in standard chess. */
uz_result uz_position_from_fen_960(uz_position *pos, const char *fen, bool chess960, uz_diag *diag);

/* The Zobrist key of pos computed from scratch (equals pos->key for every position
 * built by this module). */
uint64_t uz_position_compute_key(const uz_position *pos);

/* True if a and b are the same position: pieces, side, castling, ep square and both
 * counters. (Compare positions with this, not memcmp: the struct has padding.) */
bool uz_position_equal(const uz_position *a, const uz_position *b);

/* Writes the FEN into out (at least UZ_FEN_MAX bytes). The ep square is written only
 * when an en-passant capture is actually legal, as Stockfish and python-chess do. A
 * Chess960 position's castling field is X-FEN: K/Q/k/q for the outermost rook on that
 * side, the rook's file letter otherwise. */
void uz_position_to_fen(const uz_position *pos, char *out);

/* The one key of a position for everything that keeps scores (the engine pool's cache and
 * the text it sends the engine, recorded score tables, the persistent LMDB cache): its FEN
 * with the fullmove number written as 1. A search depends on everything else the FEN
 * holds (the halfmove clock too: the fifty-move rule), so equal keys get equal scores.
 * out: at least UZ_FEN_MAX bytes. */
void uz_position_key_text(const uz_position *pos, char *out);
/* The hash of a key text and the Chess960 flag (equal positions of the two kinds are
 * searched by different engines), for in-memory tables; never stored. */
uint64_t uz_position_key_hash(const char *key_text, bool chess960);

/* Fills moves[] (capacity UZ_MAX_MOVES) with the legal moves in canonical order:
 * by from-square file, from-square rank, to-square file, to-square rank, then promotion
 * piece N, B, R, Q. Returns the count. No allocation. The builtin's scores depend on this
 * order (its quiescence search in check keeps it among equal keys). */
int uz_generate_legal(const uz_position *pos, uz_move *moves);

/* The legal moves in generation order (not canonical), for callers to whom the order
 * does not matter (perft, legality checks, SAN matching) or who order them with
 * uz__canonical_key among keys of their own (the builtin's search). Returns the count.
 * The builtin's scores depend on which moves it yields (every legal move, once), not on
 * their order. */
int uz__generate_unsorted(const uz_position *pos, uz_move *moves);

/* The canonical order's sort key (uz_generate_legal), 15 bits, one per move of a
 * position: from file, from rank, to file, to rank, promotion (N < B < R < Q is already
 * the order of the piece type numbers). The builtin's scores depend on it (its ordering
 * keys break ties with it). */
static inline unsigned uz__canonical_key(uz_move m)
{
    unsigned from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m);
    unsigned from_t = (from & 7) << 3 | from >> 3;
    unsigned to_t = (to & 7) << 3 | to >> 3;
    return (from_t << 9) | (to_t << 3) | (unsigned)UZ_MOVE_PROMO(m);
}

/* True if move is legal in pos (UZ_MOVE_NULL is never legal here). */
bool uz_is_legal(const uz_position *pos, uz_move move);

/* Plays a legal move (or UZ_MOVE_NULL); undo receives what unmake needs.
 * The null move passes the turn, clears the ep square, counts as a reversible ply for
 * the halfmove clock and increments fullmove after Black, as a real move would. */
void uz_make_move(uz_position *pos, uz_move move, uz_undo *undo);
void uz_unmake_move(uz_position *pos, uz_move move, const uz_undo *undo);

bool uz_in_check(const uz_position *pos);

/* Pieces of both colours that attack square sq when the board's occupancy is occupied
 * (pass by_color[0] | by_color[1] for the board as it is; clear a square to see through it). */
uint64_t uz_attackers_to(const uz_position *pos, int sq, uint64_t occupied);

/* Squares a piece of type (UZ_PAWN..UZ_KING) and color on sq attacks, sliders blocked
 * by occupied. */
uint64_t uz_piece_attacks(int type, int color, int sq, uint64_t occupied);
/* The squares a piece of type UZ_ROOK, UZ_BISHOP or UZ_QUEEN on sq attacks on an empty
 * board (its lines, sq itself left out; 0 for other types): a slider elsewhere cannot
 * attack sq, and occupancy off these lines does not change what a slider on sq attacks.
 * Cheaper than uz_piece_attacks. */
uint64_t uz_slider_lines(int type, int sq);

uz_status uz_position_status(const uz_position *pos);

/* Leaf count of the legal move tree to depth (perft); 1 for depth <= 0. pos is used as
 * scratch space and is restored on return. */
uint64_t uz_perft(uz_position *pos, int depth);

/* "e2e4", "e7e8q", "0000" for the null move (and for UZ_MOVE_NONE). out has UZ_UCI_MAX bytes. */
void uz_move_to_uci(uz_move move, char *out);

/* Parses UCI move text and checks it is legal in pos. Castling may also be given
 * as king-takes-rook (e1h1) as some GUIs write it; the promotion letter may be upper
 * case. "0000" gives UZ_MOVE_NULL. Returns UZ_OK, UZ_ERR_SYNTAX (not 4-5 characters of
 * UCI move text) or UZ_ERR_ILLEGAL; *out is UZ_MOVE_NONE on error. */
uz_result uz_move_from_uci(const uz_position *pos, const char *text, uz_move *out);

#endif
