/* Standard Algebraic Notation: lenient parsing of what real PGN files contain and
 * canonical printing. Depends on board.h only. */
#ifndef UCIZIP_SAN_H
#define UCIZIP_SAN_H

#include <stddef.h>

#include "chess/board.h"

/* Longest SAN we print ("Qa1xb2+" is 7; promotions with check 8), with NUL. */
#define UZ_SAN_MAX 12

/* Parses one move token of len bytes in pos (text need not be NUL-terminated; blanks
 * around it are ignored). Accepts: O-O / 0-0 / O-O-O / 0-0-0 (also lower-case o, without
 * hyphens, or as the king move Kg1), promotions as e8=Q, e8Q, e8q, e8(Q), e8/Q, e.p.
 * suffixes ("exd6 e.p.", "exd6ep"), check and mate marks (+ # ++, right or wrong),
 * trailing annotation glyphs (! ? !! ?? !? ?!), over-disambiguated moves (Ngf3, Ng1f3),
 * missing or superfluous 'x' (also ':'), long algebraic (Ng1-f3, e2-e4), UCI (g1f3,
 * e7e8q, king-takes-rook e1h1), an explicit pawn letter (Pe4) and lower-case piece
 * letters (nf3). "bxc3" is a pawn capture; a lower-case b is read as a bishop only when
 * no pawn move fits. Also "--", "Z0" and "0000" (UZ_MOVE_NULL).
 * Returns UZ_OK, UZ_ERR_SYNTAX, UZ_ERR_ILLEGAL or UZ_ERR_AMBIGUOUS (including a
 * promotion without its piece); *out is UZ_MOVE_NONE on error and diag (optional) gets
 * a message quoting the move text (line and column 0: the caller knows where it was). */
uz_result uz_san_parse(const uz_position *pos, const char *text, size_t len, uz_move *out, uz_diag *diag);

/* Canonical SAN of a legal move (minimal disambiguation, "=Q", "+" or "#").
 * out has UZ_SAN_MAX bytes. UZ_MOVE_NULL prints as "--". */
void uz_san_format(const uz_position *pos, uz_move move, char *out);
/* The same, given the n legal moves of pos (in any order), as a walk of the game has them:
 * they are not generated again. */
void uz_san_format_legal(const uz_position *pos, uz_move move, const uz_move *legal, int n, char *out);

#endif
