/* Clock comment texts: see clock_text.h. */
#include "block/clock_text.h"

#include <string.h>

#define CLOCK_OPEN "[%clk "

bool uz_parse_digits(const char **p, int max, int64_t *v, int *count)
{
    int k = 0;
    int64_t x = 0;
    while (**p >= '0' && **p <= '9' && k < max) {
        x = 10 * x + (**p - '0');
        (*p)++;
        k++;
    }
    *v = x;
    if (count)
        *count = k;
    return k > 0 && !(**p >= '0' && **p <= '9');
}

const char *uz_clock_text_scan(const char *text, uz_clock_value *v, const char **at)
{
    const char *p;
    int64_t h, m, s, d = 0;
    if (!(*at = strstr(text, CLOCK_OPEN)))
        return NULL;
    p = *at + sizeof CLOCK_OPEN - 1;
    if (!uz_parse_digits(&p, 5, &h, NULL) || *p++ != ':' || !uz_parse_digits(&p, 2, &m, NULL) || *p++ != ':' ||
        !uz_parse_digits(&p, 2, &s, NULL))
        return NULL;
    if (*p == '.' && (p++, !uz_parse_digits(&p, 1, &d, NULL)))
        return NULL;
    if (*p++ != ']')
        return NULL;
    v->secs = h * 3600 + m * 60 + s;
    v->tenth = (int)d;
    return p;
}

bool uz_clock_text_residual(const char *text, uz_clock_value *v, uz_buf *out)
{
    const char *at, *p = uz_clock_text_scan(text, v, &at);
    if (!p)
        return false;
    out->size = 0;
    return uz_buf_append(out, text, (size_t)(at - text)) == UZ_OK &&
           uz_buf_append(out, UZ_CLOCK_PLACEHOLDER, sizeof UZ_CLOCK_PLACEHOLDER - 1) == UZ_OK &&
           uz_buf_append(out, p, strlen(p)) == UZ_OK;
}

/* v in decimal, at least width digits (zeros in front); returns the characters written. */
static int put_number(char *p, int64_t v, int width)
{
    char digits[20];
    int n = 0, len = 0;
    uint64_t u = (uint64_t)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    while (len + n < width)
        p[len++] = '0';
    while (n)
        p[len++] = digits[--n];
    return len;
}

uz_result uz_clock_text_render(uz_clock_value v, const char *res, size_t len, uz_buf *out)
{
    const size_t ph = sizeof UZ_CLOCK_PLACEHOLDER - 1;
    const char *at = NULL;
    out->size = 0;
    for (size_t i = 0; i + ph <= len && !at; i++)
        if (memcmp(res + i, UZ_CLOCK_PLACEHOLDER, ph) == 0)
            at = res + i;
    if (!at || v.secs < 0 || v.tenth < 0 || v.tenth > 9)
        return UZ_ERR_CORRUPT;
    char num[64];
    int n = (int)(sizeof CLOCK_OPEN - 1);
    memcpy(num, CLOCK_OPEN, (size_t)n);
    n += put_number(num + n, v.secs / 3600, 0);
    num[n++] = ':';
    n += put_number(num + n, v.secs / 60 % 60, 2);
    num[n++] = ':';
    n += put_number(num + n, v.secs % 60, 2);
    if (v.tenth) {
        num[n++] = '.';
        n += put_number(num + n, v.tenth, 0);
    }
    num[n++] = ']';
    size_t head = (size_t)(at - res), tail = len - head - ph;
    uz_result r = uz_buf_append(out, res, head);
    if (r == UZ_OK)
        r = uz_buf_append(out, num, (size_t)n);
    return r == UZ_OK ? uz_buf_append(out, at + ph, tail) : r;
}

void uz_clock_time_control(const uz_game *game, int64_t *base, int64_t *inc)
{
    *base = *inc = 0;
    for (size_t i = 0; i < game->n_tags; i++)
        if (strcmp(game->tags[i].name, "TimeControl") == 0) {
            const char *p = game->tags[i].value;
            int64_t b, k = 0;
            if (!uz_parse_digits(&p, 9, &b, NULL))
                return;
            if (*p == '+' && (p++, !uz_parse_digits(&p, 9, &k, NULL)))
                return;
            if (*p)
                return;
            *base = b;
            *inc = k;
            return;
        }
}
