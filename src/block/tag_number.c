/* The number models of coded tags (doc/format.md, "Coded tags"): the texts of ratings,
 * rating changes, dates and times, and their values. A text codes as a number only when
 * the number prints back as exactly that text. */
#include <stdio.h>
#include <string.h>

#include "block/tag_code_internal.h"

static bool leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(int64_t y, int64_t m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Day number of a proleptic Gregorian date, 0001.01.01 = 1 (Python's date.toordinal). */
static int64_t day_number(int64_t y, int64_t m, int64_t d)
{
    int64_t py = y - 1, n = py * 365 + py / 4 - py / 100 + py / 400;
    for (int64_t k = 1; k < m; k++)
        n += month_days(y, k);
    return n + d;
}

static void from_day_number(int64_t n, int64_t *y, int64_t *m, int64_t *d)
{
    /* 400 years hold 146097 days; then years one by one (at most 399 steps). */
    int64_t q = (n - 1) / 146097;
    n -= q * 146097;
    *y = 400 * q + 1;
    while (n > (leap(*y) ? 366 : 365))
        n -= leap(*y) ? 366 : 365, (*y)++;
    *m = 1;
    while (n > month_days(*y, *m))
        n -= month_days(*y, *m), (*m)++;
    *d = n;
}

static bool digits(const char *s, size_t n, int64_t *v)
{
    *v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        *v = *v * 10 + (s[i] - '0');
    }
    return true;
}

/* The text of a number model's value v (in range); buf holds NUM_BUF bytes. */
void uz__tag_format_number(unsigned m, int64_t v, char *buf)
{
    if (m == M_ELO)
        snprintf(buf, NUM_BUF, "%lld", (long long)v);
    else if (m == M_DIFF)
        snprintf(buf, NUM_BUF, "%c%lld", v < 0 ? '-' : '+', (long long)(v < 0 ? -v : v));
    else if (m == M_DATE) {
        int64_t y, mo, d;
        from_day_number(v, &y, &mo, &d);
        snprintf(buf, NUM_BUF, "%04lld.%02lld.%02lld", (long long)y, (long long)mo, (long long)d);
    } else
        snprintf(buf, NUM_BUF, "%02lld:%02lld:%02lld", (long long)(v / 3600), (long long)(v / 60 % 60), (long long)(v % 60));
}

bool uz__tag_in_range(unsigned m, int64_t v)
{
    switch (m) {
    case M_ELO: return v >= 0 && v <= NUM_MAX;
    case M_DIFF: return v >= -NUM_MAX && v <= NUM_MAX;
    case M_DATE: return v >= 1 && v <= DATE_MAX;
    default: return v >= 0 && v <= TIME_MAX;
    }
}

/* A number model's value of s: true only if the model prints that value back as s. */
bool uz__tag_parse_number(unsigned m, const char *s, int64_t *v)
{
    size_t n = strlen(s);
    int64_t y, mo, d, h, mi, se;
    char buf[NUM_BUF];
    switch (m) {
    case M_ELO:
        if (n < 1 || n > 9 || !digits(s, n, v))
            return false;
        break;
    case M_DIFF:
        if (n < 2 || n > 10 || (s[0] != '+' && s[0] != '-') || !digits(s + 1, n - 1, v))
            return false;
        *v = s[0] == '-' ? -*v : *v;
        break;
    case M_DATE:
        if (n != 10 || s[4] != '.' || s[7] != '.' || !digits(s, 4, &y) || !digits(s + 5, 2, &mo) || !digits(s + 8, 2, &d) ||
            y < 1 || mo < 1 || mo > 12 || d < 1 || d > month_days(y, mo))
            return false;
        *v = day_number(y, mo, d);
        break;
    default:
        if (n != 8 || s[2] != ':' || s[5] != ':' || !digits(s, 2, &h) || !digits(s + 3, 2, &mi) || !digits(s + 6, 2, &se) ||
            h > 23 || mi > 59 || se > 59)
            return false;
        *v = h * 3600 + mi * 60 + se;
        break;
    }
    uz__tag_format_number(m, *v, buf);
    return strcmp(buf, s) == 0; /* leading zeros, "-0" and the like stay text */
}
