/* Tag conditions for selecting games, and the tag section of a verbatim game. */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn/tagfilter.h"

static char *dup_n(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = '\0';
    }
    return d;
}

/* pgn-extract's pseudo-tags, which name no tag of a game: what to use instead. */
static const char *pseudo_tag_hint(const char *name, size_t len)
{
    static const struct {
        const char *name, *hint;
    } pseudo[] = {
        {"Player", "Player is pgn-extract's pseudo-tag, not a tag of the games: use --player NAME or "
                   "'White=NAME|Black=NAME'"},
        {"FENPattern", "FENPattern is pgn-extract's pseudo-tag, not a tag of the games: use extract --fen FEN"},
        {"FENPatternI", "FENPatternI is pgn-extract's pseudo-tag, not a tag of the games: use extract --fen FEN"},
    };
    for (size_t i = 0; i < sizeof pseudo / sizeof pseudo[0]; i++)
        if (strlen(pseudo[i].name) == len && memcmp(pseudo[i].name, name, len) == 0)
            return pseudo[i].hint;
    return NULL;
}

/* Reads the operator at p into *op; its length, or 0 if there is none. */
static size_t parse_op(const char *p, uz_tag_op *op)
{
    if (p[0] == '=' && p[1] == '=')
        return *op = UZ_TAG_EQUALS, 2;
    if (p[0] == '=')
        return *op = UZ_TAG_CONTAINS, 1;
    if (p[0] == '!' && p[1] == '=')
        return *op = UZ_TAG_NOT, 2;
    if (p[0] == '<' || p[0] == '>') {
        bool eq = p[1] == '=';
        *op = p[0] == '<' ? (eq ? UZ_TAG_LE : UZ_TAG_LT) : (eq ? UZ_TAG_GE : UZ_TAG_GT);
        return eq ? 2 : 1;
    }
    return 0;
}

/* Parses one alternative "Name OP value" of expr starting at *pos, up to an unescaped
 * '|' or the end, into c; *pos is left after it (at the '|' or the end). */
static uz_result parse_cond(const char *expr, size_t *pos, uz_tag_cond *c, uz_diag *diag)
{
    const char *start = expr + *pos, *p = start;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t name_len = (size_t)(p - start);
    long col = (long)*pos + 1;
    if (name_len == 0) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, col, "a tag name expected");
        return UZ_ERR_SYNTAX;
    }
    const char *hint = pseudo_tag_hint(start, name_len);
    if (hint) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, col, "%s", hint);
        return UZ_ERR_SYNTAX;
    }
    size_t op_len = parse_op(p, &c->op);
    if (op_len == 0) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, col + (long)name_len, "one of = == != < <= > >= expected after the tag name");
        return UZ_ERR_SYNTAX;
    }
    if (p[op_len] && strchr("<>=!", p[op_len])) { /* ">>", "=<", "=>", "!==": a typo, not a value */
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, col + (long)name_len,
                    "'%.*s' is not an operator: one of = == != < <= > >= expected", (int)op_len + 1, p);
        return UZ_ERR_SYNTAX;
    }
    p += op_len;
    /* The value: up to an unescaped '|'; "\|" is a '|' of the value. */
    char *value = malloc(strlen(p) + 1);
    c->name = dup_n(start, name_len);
    if (!value || !c->name) {
        free(value);
        free(c->name);
        return UZ_ERR_NOMEM;
    }
    size_t n = 0;
    for (; *p && *p != '|'; p++) {
        if (p[0] == '\\' && p[1] == '|')
            p++;
        value[n++] = *p;
    }
    value[n] = '\0';
    c->value = value;
    *pos = (size_t)(p - expr);
    return UZ_OK;
}

uz_result uz_tag_filter_add(uz_tag_filter *f, const char *expr, uz_diag *diag)
{
    size_t n_alt = 1;
    for (const char *p = expr; *p; p++)
        if (*p == '|' && (p == expr || p[-1] != '\\'))
            n_alt++;
    uz_tag_cond *conds = realloc(f->conds, (f->n + n_alt) * sizeof *conds);
    if (!conds)
        return UZ_ERR_NOMEM;
    f->conds = conds;
    size_t pos = 0, added = 0;
    uz_result r = UZ_OK;
    for (;;) {
        uz_tag_cond *c = &conds[f->n + added];
        c->group = f->n_groups;
        if ((r = parse_cond(expr, &pos, c, diag)) != UZ_OK)
            break;
        added++;
        if (expr[pos] != '|')
            break;
        pos++;
    }
    if (r != UZ_OK) { /* nothing of expr is kept */
        for (size_t i = 0; i < added; i++) {
            free(conds[f->n + i].name);
            free(conds[f->n + i].value);
        }
        return r;
    }
    f->n += added;
    f->n_groups++;
    return UZ_OK;
}

uz_result uz_tag_filter_add_player(uz_tag_filter *f, const char *name, uz_diag *diag)
{
    if (!*name) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, 1, "a player's name expected");
        return UZ_ERR_SYNTAX;
    }
    uz_tag_cond *conds = realloc(f->conds, (f->n + 2) * sizeof *conds);
    if (!conds)
        return UZ_ERR_NOMEM;
    f->conds = conds;
    static const char *const sides[2] = {"White", "Black"};
    for (size_t i = 0; i < 2; i++) {
        uz_tag_cond *c = &conds[f->n + i];
        c->op = UZ_TAG_CONTAINS;
        c->group = f->n_groups;
        c->name = dup_n(sides[i], strlen(sides[i]));
        c->value = dup_n(name, strlen(name));
        if (!c->name || !c->value) {
            for (size_t j = 0; j <= i; j++) {
                free(conds[f->n + j].name);
                free(conds[f->n + j].value);
            }
            return UZ_ERR_NOMEM;
        }
    }
    f->n += 2;
    f->n_groups++;
    return UZ_OK;
}

static bool contains_nocase(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return n == 0;
}

/* A whole decimal number (sign, digits, one optional point), as in ratings and counts. */
static bool as_number(const char *s, double *v)
{
    if (!*s || isspace((unsigned char)*s))
        return false;
    char *end;
    errno = 0;
    *v = strtod(s, &end);
    return *end == '\0' && errno == 0 && !strpbrk(s, "xXpPeEnN");
}

static bool cond_match(const uz_tag_cond *c, const char *value)
{
    if (!value)
        return c->op == UZ_TAG_NOT;
    int cmp;
    double a, b;
    switch (c->op) {
    case UZ_TAG_CONTAINS: return contains_nocase(value, c->value);
    case UZ_TAG_EQUALS: return strcmp(value, c->value) == 0;
    case UZ_TAG_NOT: return !contains_nocase(value, c->value);
    default: break;
    }
    if (as_number(c->value, &b)) {
        /* A number: the value's leading number ("1901" of "1901.??.??"); a value with
         * none ("?", "-") is neither above nor below it. */
        char *end;
        if (!isdigit((unsigned char)value[value[0] == '-' || value[0] == '+']))
            return false;
        a = strtod(value, &end);
        cmp = a < b ? -1 : a > b;
    } else {
        cmp = strcmp(value, c->value);
    }
    switch (c->op) {
    case UZ_TAG_LT: return cmp < 0;
    case UZ_TAG_LE: return cmp <= 0;
    case UZ_TAG_GT: return cmp > 0;
    default: return cmp >= 0;
    }
}

bool uz_tag_filter_match(const uz_tag_filter *f, const uz_game *game)
{
    for (size_t i = 0; i < f->n;) {
        size_t group = f->conds[i].group;
        bool any = false;
        for (; i < f->n && f->conds[i].group == group; i++)
            any = any || cond_match(&f->conds[i], uz_game_tag(game, f->conds[i].name));
        if (!any)
            return false;
    }
    return true;
}

void uz_tag_filter_free(uz_tag_filter *f)
{
    for (size_t i = 0; i < f->n; i++) {
        free(f->conds[i].name);
        free(f->conds[i].value);
    }
    free(f->conds);
    f->conds = NULL;
    f->n = 0;
    f->n_groups = 0;
}

uz_result uz_game_verbatim_tags(uz_game *game)
{
    if (!game->verbatim || !game->raw)
        return UZ_OK;
    const char *p = game->raw, *end = p + game->raw_len;
    char *value = malloc(game->raw_len + 1);
    if (!value)
        return UZ_ERR_NOMEM;
    uz_result r = UZ_OK;
    for (;;) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
            p++;
        if (p >= end || *p != '[')
            break;
        const char *name = ++p;
        while (p < end && (isalnum((unsigned char)*p) || *p == '_'))
            p++;
        size_t name_len = (size_t)(p - name);
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (name_len == 0 || name_len > 255 || p >= end || *p != '"')
            break;
        size_t n = 0;
        for (p++; p < end && *p != '"' && *p != '\n'; p++) {
            if (*p == '\\' && p + 1 < end && (p[1] == '"' || p[1] == '\\'))
                p++;
            value[n++] = *p;
        }
        if (p >= end || *p != '"')
            break;
        value[n] = '\0';
        while (++p < end && *p != ']' && *p != '\n')
            ;
        if (p >= end || *p != ']')
            break;
        p++;
        char name_buf[256];
        memcpy(name_buf, name, name_len);
        name_buf[name_len] = '\0';
        if ((r = uz_game_add_tag(game, name_buf, value)) != UZ_OK)
            break;
    }
    free(value);
    const char *res = uz_game_tag(game, "Result");
    if (res)
        game->result = strcmp(res, "1-0") == 0       ? UZ_RESULT_WHITE
                     : strcmp(res, "0-1") == 0       ? UZ_RESULT_BLACK
                     : strcmp(res, "1/2-1/2") == 0   ? UZ_RESULT_DRAW
                                                      : UZ_RESULT_UNKNOWN;
    return r;
}
