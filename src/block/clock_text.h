/* The text of a clock comment ("[%clk 1:02:03]", "[%clk 0:02:59.9]"), shared by the coded
 * comments (comment_code.c: revisions 1-3, and every clock off the main line) and the clock
 * code of revision 4 (clock_code.c): the clock found in a comment, the comment's residual
 * with the placeholder "[%clk]" where the clock was, and the comment rebuilt from the two;
 * the game's time control; and the spend both predict a clock from. doc/format.md, "Coded
 * comments", gives the print rule. */
#ifndef UCIZIP_CLOCK_TEXT_H
#define UCIZIP_CLOCK_TEXT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/buf.h"
#include "common/common.h"
#include "pgn/pgn.h"

#define UZ_CLOCK_PLACEHOLDER "[%clk]"
#define UZ_CLOCK_MAX_SECS 359999999 /* 99999:59:59 */

typedef struct uz_clock_value {
    int64_t secs; /* whole seconds */
    int tenth;    /* 0..9 */
} uz_clock_value;

/* Up to max decimal digits at *p (at least one, and no digit after them): their value
 * (and *count, when not NULL, how many), *p moved past them. */
bool uz_parse_digits(const char **p, int max, int64_t *v, int *count);

/* The first "[%clk " of text read as a clock: its value and *at where it starts; returns
 * where it ends, or NULL when there is none or it does not read. */
const char *uz_clock_text_scan(const char *text, uz_clock_value *v, const char **at);

/* text's clock (the first, as uz_clock_text_scan reads it) and text with the placeholder in
 * its place (in out); false when text has none. */
bool uz_clock_text_residual(const char *text, uz_clock_value *v, uz_buf *out);

/* The comment from its clock and residual res[0..len): the residual's first placeholder
 * replaced by "[%clk H:MM:SS]", ".d" after SS when d != 0 (into out, replacing what it
 * held). UZ_ERR_CORRUPT when the residual has no placeholder. */
uz_result uz_clock_text_render(uz_clock_value v, const char *res, size_t len, uz_buf *out);

/* The game's TimeControl tag as "base" or "base+inc" in seconds (at most 9 digits each):
 * *base and *inc, both 0 when it is absent or reads otherwise. */
void uz_clock_time_control(const uz_game *game, int64_t *base, int64_t *inc);

/* A side's next spend in tenths, from its last two (spend[0] the last; n_spends of them so
 * far) and the other side's last (op_n_spends of its spends so far, op_last the last), as much
 * of one as of the other (players keep a rhythm, and answer quickly what was played quickly);
 * -1 when the side has spent nothing yet, else at least 0. */
static inline int64_t uz_clock_predicted_spend(int n_spends, const int64_t spend[2], int op_n_spends, int64_t op_last)
{
    if (n_spends == 0)
        return -1;
    int64_t own = n_spends > 1 ? (3 * spend[0] + spend[1]) / 4 : spend[0];
    int64_t p = op_n_spends == 0 ? own : (own + op_last) / 2;
    return p < 0 ? 0 : p;
}

#endif
