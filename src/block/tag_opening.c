/* The values of coded tags version 3 derived from the moves (doc/format.md, "Coded tags"):
 * the opening's ECO code and name (models 15, 16), and an opening name and the main-line moves
 * in a text (model 17, chess.com's ECOUrl: ".../openings/Sicilian-Defense-Open-2...Nc6-3.d4").
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

/* An opening name as a URL writes it (into out, URL_NAME_MAX bytes; truncated there): its
 * words joined by '-', a word a run of ASCII letters and digits, apostrophes dropped and the
 * accented letters of Latin-1 (UTF-8 C3 80 to C3 BF) and c acute as their base letter;
 * every other byte ends a word ("King's Indian Defense: Normal Variation" ->
 * "Kings-Indian-Defense-Normal-Variation", "Réti Opening" -> "Reti-Opening"). */
enum { URL_NAME_MAX = 256 };
static void url_name(const char *name, char *out)
{
    static const char latin1[] = "AAAAAAACEEEEIIIIDNOOOOO-OUUUUY-saaaaaaaceeeeiiiidnooooo-ouuuuy-y";
    const unsigned char *s = (const unsigned char *)name;
    size_t n = 0;
    bool gap = false;
    for (; *s && n + 2 < URL_NAME_MAX; s++) {
        char c = 0;
        if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
            c = (char)*s;
        else if (*s == 0xC3 && s[1] >= 0x80 && s[1] <= 0xBF)
            c = latin1[*++s - 0x80];
        else if (*s == 0xC4 && (s[1] == 0x86 || s[1] == 0x87))
            c = *++s == 0x86 ? 'C' : 'c';
        else if (*s == '\'')
            continue;
        if (c == 0 || c == '-') {
            gap = n > 0;
            continue;
        }
        if (gap)
            out[n++] = '-';
        out[n++] = c;
        gap = false;
    }
    out[n] = 0;
}

char *uz__tag_head_template(const uz_walk *walk, const char *head, size_t len, unsigned *name)
{
    const char *names[HEAD_NAMES];
    size_t n = uz_opening_names_of(walk, names, HEAD_NAMES), best_len = 0, at = 0;
    *name = 0;
    for (size_t j = 0; j < n; j++) {
        char text[URL_NAME_MAX];
        url_name(names[j], text);
        size_t t = strlen(text);
        for (size_t p = 0; t > best_len && p + t <= len; p++)
            if (memcmp(head + p, text, t) == 0) {
                best_len = t, at = p, *name = (unsigned)j;
                break;
            }
    }
    char *tmpl = malloc(len + 1);
    if (!tmpl)
        return NULL;
    size_t o = 0;
    memcpy(tmpl, head, best_len ? at : len), o = best_len ? at : len;
    if (best_len) {
        tmpl[o++] = 1;
        memcpy(tmpl + o, head + at + best_len, len - at - best_len), o += len - at - best_len;
    }
    tmpl[o] = 0;
    return tmpl;
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

uz_result uz__tag_tail_text(const uz_walk *walk, const char *tmpl, uint32_t arg, char **out)
{
    uint32_t moves = arg / HEAD_NAMES, tail = moves - 1;
    size_t conn = tail & 1, n = moves ? ((tail >> 1) & 31) + 1 : 0, first = tail >> 6, h = strlen(tmpl);
    const char *names[HEAD_NAMES];
    char name[URL_NAME_MAX] = "";
    const char *slot = strchr(tmpl, 1);
    *out = NULL;
    if (slot) {
        if (uz_opening_names_of(walk, names, HEAD_NAMES) <= arg % HEAD_NAMES)
            return UZ_ERR_CORRUPT;
        url_name(names[arg % HEAD_NAMES], name);
    }
    if (n && !move_known(walk, first + n - 1))
        return UZ_ERR_CORRUPT;
    size_t name_len = strlen(name);
    char *v = malloc(h + name_len + 3 + n * MOVE_TEXT_MAX + 1);
    if (!v)
        return UZ_ERR_NOMEM;
    size_t p = slot ? (size_t)(slot - tmpl) : h;
    memcpy(v, tmpl, p);
    if (slot) {
        memcpy(v + p, name, name_len), p += name_len;
        memcpy(v + p, slot + 1, h - (size_t)(slot + 1 - tmpl)), p += h - (size_t)(slot + 1 - tmpl);
    }
    if (n)
        p += (size_t)snprintf(v + p, 4, "%s", conn ? "..." : "-");
    for (size_t i = 0; i < n; i++)
        p += move_text(walk, first + i, i == 0, v + p);
    v[p] = 0;
    if (p > UZ_LIMIT_TEXT) {
        free(v);
        return UZ_ERR_CORRUPT;
    }
    *out = v;
    return UZ_OK;
}
