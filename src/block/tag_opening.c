/* The values of coded tags version 3 derived from the moves (doc/format.md, "Coded tags"):
 * the opening's ECO code and name (models 15, 16) and the main-line moves that end a text
 * (model 17, chess.com's ECOUrl: ".../openings/Sicilian-Defense-Canal-Attack-3...Nc6-4.O-O").
 * Shared by the writer (which looks for them in a value) and the reader (which makes the
 * value once the moves are decoded). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/opening_names.h"
#include "block/tag_code_internal.h"
#include "chess/san.h"
#include "common/limits.h"

/* Longest text of one move in a URL: "65535...Qa1xb2" and a separator. */
enum { MOVE_TEXT_MAX = 8 + UZ_SAN_MAX };

const char *uz__tag_opening(unsigned m, const uz_walk *walk)
{
    const uz__opening_row *row = uz_opening_of(walk, NULL);
    return !row ? NULL : m == M_ECO ? row->eco : row->name;
}

/* Whether main-line move i of the walk can be written: its position known, no null move. */
static bool move_known(const uz_walk *walk, size_t i)
{
    return walk->has_final && i < walk->n_main && walk->steps[walk->main[i]].node->move != UZ_MOVE_NULL;
}

/* Main-line move i as the URL writes it after the one before (first: the run's first move):
 * "-" then the move number with "." for White, "..." for Black's first move, then its SAN
 * without the check and mate marks ("-4.O-O", "-e5", "3...Nc6" for the run's first, which
 * takes no "-"). Returns the length. */
static size_t move_text(const uz_walk *walk, size_t i, bool first, char *out)
{
    uint32_t s = walk->main[i];
    const uz_position *pos = &walk->before[s];
    char san[UZ_SAN_MAX];
    uz_san_format_legal(pos, walk->steps[s].node->move, uz_walk_legal(walk, s), walk->steps[s].n_legal, san);
    san[strcspn(san, "+#")] = 0;
    const char *sep = first ? "" : "-";
    if (pos->side == UZ_WHITE)
        return (size_t)snprintf(out, MOVE_TEXT_MAX, "%s%u.%s", sep, (unsigned)pos->fullmove, san);
    if (first)
        return (size_t)snprintf(out, MOVE_TEXT_MAX, "%u...%s", (unsigned)pos->fullmove, san);
    return (size_t)snprintf(out, MOVE_TEXT_MAX, "-%s", san);
}

bool uz__tag_tail_split(const uz_walk *walk, const char *value, size_t *head_len, uint32_t *arg)
{
    size_t len = strlen(value);
    /* A run starts after a connector with a move number: "-12." or "...12." / "-12...". */
    for (size_t at = 1; at < len; at++) {
        unsigned conn = value[at - 1] == '-' ? 0 : at >= 3 && memcmp(value + at - 3, "...", 3) == 0 ? 1 : 2;
        if (conn == 2 || value[at] < '1' || value[at] > '9')
            continue;
        unsigned long number = strtoul(value + at, NULL, 10);
        for (size_t first = 0; first < walk->n_main && first <= TAIL_FIRST && move_known(walk, first); first++) {
            const uz_position *pos = &walk->before[walk->main[first]];
            if (pos->fullmove != number)
                continue;
            size_t p = at; /* match moves first, first + 1, ... against value from at */
            for (size_t n = 1; n <= TAIL_MOVES && move_known(walk, first + n - 1); n++) {
                char text[MOVE_TEXT_MAX];
                size_t t = move_text(walk, first + n - 1, n == 1, text);
                if (p + t > len || memcmp(value + p, text, t) != 0)
                    break;
                p += t;
                if (p == len) {
                    *head_len = at - (conn ? 3 : 1);
                    *arg = uz__tail_arg(conn, first, n);
                    return true;
                }
            }
        }
    }
    return false;
}

uz_result uz__tag_tail_text(const uz_walk *walk, const char *head, uint32_t arg, char **out)
{
    size_t conn = arg & 1, n = ((arg >> 1) & 31) + 1, first = arg >> 6, h = strlen(head);
    *out = NULL;
    if (!move_known(walk, first + n - 1))
        return UZ_ERR_CORRUPT;
    char *v = malloc(h + 3 + n * MOVE_TEXT_MAX + 1);
    if (!v)
        return UZ_ERR_NOMEM;
    memcpy(v, head, h);
    size_t p = h + (size_t)snprintf(v + h, 4, "%s", conn ? "..." : "-");
    for (size_t i = 0; i < n; i++)
        p += move_text(walk, first + i, i == 0, v + p);
    if (p > UZ_LIMIT_TEXT) {
        free(v);
        return UZ_ERR_CORRUPT;
    }
    *out = v;
    return UZ_OK;
}
