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

uz_result uz_tag_filter_add(uz_tag_filter *f, const char *expr, uz_diag *diag)
{
    const char *p = expr;
    while (isalnum((unsigned char)*p) || *p == '_')
        p++;
    size_t name_len = (size_t)(p - expr);
    if (name_len == 0) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, 1, "a tag name expected");
        return UZ_ERR_SYNTAX;
    }
    uz_tag_op op;
    size_t op_len = 1;
    if (p[0] == '=' && p[1] == '=') {
        op = UZ_TAG_EQUALS;
        op_len = 2;
    } else if (p[0] == '=') {
        op = UZ_TAG_CONTAINS;
    } else if (p[0] == '!' && p[1] == '=') {
        op = UZ_TAG_NOT;
        op_len = 2;
    } else if (p[0] == '<') {
        op = p[1] == '=' ? UZ_TAG_LE : UZ_TAG_LT;
        op_len = p[1] == '=' ? 2 : 1;
    } else if (p[0] == '>') {
        op = p[1] == '=' ? UZ_TAG_GE : UZ_TAG_GT;
        op_len = p[1] == '=' ? 2 : 1;
    } else {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, (long)name_len + 1,
                    "one of = == != < <= > >= expected after the tag name");
        return UZ_ERR_SYNTAX;
    }
    uz_tag_cond *conds = realloc(f->conds, (f->n + 1) * sizeof *conds);
    if (!conds)
        return UZ_ERR_NOMEM;
    f->conds = conds;
    uz_tag_cond *c = &conds[f->n];
    c->op = op;
    c->name = dup_n(expr, name_len);
    c->value = dup_n(p + op_len, strlen(p + op_len));
    if (!c->name || !c->value) {
        free(c->name);
        free(c->value);
        return UZ_ERR_NOMEM;
    }
    f->n++;
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
    for (size_t i = 0; i < f->n; i++)
        if (!cond_match(&f->conds[i], uz_game_tag(game, f->conds[i].name)))
            return false;
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
