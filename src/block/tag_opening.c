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

/* Where text (t bytes, t >= 1) first occurs in s (n bytes), or SIZE_MAX. */
static size_t find(const char *s, size_t n, const char *text, size_t t)
{
    for (size_t p = 0; p + t <= n; p++)
        if (memcmp(s + p, text, t) == 0)
            return p;
    return SIZE_MAX;
}

/* s (n bytes) with its t bytes at `at` replaced by the byte hole, in place: the new length. */
static size_t punch(char *s, size_t n, size_t at, size_t t, char hole)
{
    s[at] = hole;
    memmove(s + at + 1, s + at + t, n - at - t);
    return n - t + 1;
}

char *uz__tag_head_template(const uz_walk *walk, const char *head, size_t len, const char *eco, unsigned *name)
{
    const char *names[HEAD_NAMES];
    size_t n = uz_opening_names_of(walk, names, HEAD_NAMES), best_len = 0, at = 0;
    char text[URL_NAME_MAX];
    *name = 0;
    for (size_t j = 0; j < n; j++) {
        url_name(names[j], text);
        size_t t = strlen(text), p = t > best_len ? find(head, len, text, t) : SIZE_MAX;
        if (p != SIZE_MAX)
            best_len = t, at = p, *name = (unsigned)j;
    }
    char *tmpl = malloc(len + 1);
    if (!tmpl)
        return NULL;
    memcpy(tmpl, head, len);
    if (best_len)
        len = punch(tmpl, len, at, best_len, 1);
    size_t e = eco ? strlen(eco) : 0, p = e && !strpbrk(eco, "\x01\x02") ? find(tmpl, len, eco, e) : SIZE_MAX;
    if (p != SIZE_MAX)
        len = punch(tmpl, len, p, e, 2);
    tmpl[len] = 0;
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

uz_result uz__tag_tail_text(const uz_walk *walk, const char *tmpl, uint32_t arg, const char *eco, char **out)
{
    uint32_t moves = arg / HEAD_NAMES, tail = moves - 1;
    size_t conn = tail & 1, n = moves ? ((tail >> 1) & 31) + 1 : 0, first = tail >> 6;
    const char *names[HEAD_NAMES];
    char name[URL_NAME_MAX] = "";
    const char *hole_name = strchr(tmpl, 1), *hole_eco = strchr(tmpl, 2);
    *out = NULL;
    if (hole_name) {
        if (uz_opening_names_of(walk, names, HEAD_NAMES) <= arg % HEAD_NAMES)
            return UZ_ERR_CORRUPT;
        url_name(names[arg % HEAD_NAMES], name);
    }
    if ((hole_eco && !eco) || (n && !move_known(walk, first + n - 1)))
        return UZ_ERR_CORRUPT;
    size_t h = strlen(tmpl), name_len = strlen(name), eco_len = hole_eco ? strlen(eco) : 0;
    if (h + name_len + eco_len > UZ_LIMIT_TEXT)
        return UZ_ERR_CORRUPT;
    char *v = malloc(h + name_len + eco_len + 3 + n * MOVE_TEXT_MAX + 1);
    if (!v)
        return UZ_ERR_NOMEM;
    size_t p = 0;
    for (const char *t = tmpl; *t; t++) /* the first byte 1 and the first byte 2 filled in */
        if (t == hole_name)
            memcpy(v + p, name, name_len), p += name_len;
        else if (t == hole_eco)
            memcpy(v + p, eco, eco_len), p += eco_len;
        else
            v[p++] = *t;
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
