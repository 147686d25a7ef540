/* Standard Algebraic Notation: lenient parsing of what real PGN files contain and
 * canonical printing. Depends on board.h only. */
#ifndef UCIZIP_SAN_H
#define UCIZIP_SAN_H

#include <stddef.h>

#include "ucizip/board.h"

/* Longest SAN we print ("Qa1xb2+" is 7; promotions with check 8), with NUL. */
#define UZ_SAN_MAX 12

/* Parses one move token of len bytes in pos. Accepts: O-O / 0-0 / O-O-O / 0-0-0,
 * promotions as e8=Q, e8Q, e8q, e8(Q), e.p. suffixes ("exd6 e.p.", "exd6ep"), check and
 * mate marks (+ # ++), trailing annotation glyphs (! ? !! ?? !? ?!), over-disambiguated
 * moves (Ngf3, Ng1f3), missing or superfluous 'x', and UCI long algebraic (g1f3, e7e8q).
 * Also "--" (UZ_MOVE_NULL) and "Z0". Returns UZ_OK, UZ_ERR_SYNTAX, UZ_ERR_ILLEGAL or
 * UZ_ERR_AMBIGUOUS; diag (optional) gets a message naming the move. */
uz_result uz_san_parse(const uz_position *pos, const char *text, size_t len, uz_move *out, uz_diag *diag);

/* Canonical SAN of a legal move (minimal disambiguation, "=Q", "+" or "#").
 * out has UZ_SAN_MAX bytes. UZ_MOVE_NULL prints as "--". */
void uz_san_format(const uz_position *pos, uz_move move, char *out);

#endif
