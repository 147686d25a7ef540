/* cutechess engine comments: see cutechess_code.h and doc/format.md ("Coded comments",
 * "Engine"). One function binarises the fields for both directions (uz_bit_code puts or
 * gets), so the writer and the reader cannot drift apart. */
#include "block/cutechess_code.h"

#include <string.h>

#include "block/clock_text.h"

#define MAX_CP 9999999           /* 99999.99 */
#define MAX_SMALL 99999          /* depth, mate distance */
#define MAX_TIME 999999999       /* engine time in units of its precision */

static const int64_t pow10_of[4] = {1, 10, 100, 1000};

static int64_t choose(const uz_cute_choice *ch, bool both, int64_t a, int64_t b)
{
    return both && ch->err[1] < ch->err[0] ? b : a;
}

static void learn(uz_cute_choice *ch, bool both, int64_t value, int64_t a, int64_t b)
{
    if (!both)
        return;
    ch->err[0] += (uint64_t)(value > a ? value - a : a - value) - ch->err[0] / 16;
    ch->err[1] += (uint64_t)(value > b ? value - b : b - value) - ch->err[1] / 16;
}

/* cutechess prints a move's time with 3 decimals below 0.1 s, else with 2: on that scale
 * 0..99 are milliseconds and 100 + i is 0.1 s + i centiseconds. The place on the scale of
 * time t with k decimals, or -1 when the time is not printed so. */
static int64_t scaled_of(int64_t t, int prec)
{
    if (prec == 3 && t < 100)
        return t;
    if (prec == 2 && t >= 10)
        return 90 + t;
    return -1;
}

static void time_of_scaled(int64_t at, int64_t *t, int *prec)
{
    *prec = at < 100 ? 3 : 2;
    *t = at < 100 ? at : at - 90;
}

/* The evaluation: a mate score's sign and distance, or the centipawns against the side's
 * previous evaluation or the other side's last one negated (both sides of a self-play game
 * agree). *surprise: how far the centipawns were from their prediction. */
static uz_result code_eval(uz_bit_coder *bits, uz_cute_models *m, unsigned revision, uz_cute_choice *choice,
                           uz_cute_side *st, const uz_cute_side *op, uz_cute_fields *f, unsigned *surprise)
{
    unsigned mate = f->mate;
    uz_result r = uz_bit_code(bits, &m->mate[st->prev_mate + 2 * !st->has_prev], &mate);
    if (r != UZ_OK)
        return r;
    f->mate = mate;
    *surprise = UZ_CUTE_SURPRISE - 1;
    if (mate) {
        unsigned sign = (unsigned)f->sign;
        uint64_t unused = 0;
        int64_t d = f->mate_n - (st->prev_mate ? st->prev_mate_n : 0);
        if ((r = uz_bit_code(bits, &m->mate_sign[st->prev_mate ? st->prev_sign : 2], &sign)) != UZ_OK ||
            (r = uz_signed_code(bits, &m->mate_n, st->prev_mate, 2, &unused, &d)) != UZ_OK)
            return r;
        f->sign = (int)sign;
        f->mate_n = (st->prev_mate ? st->prev_mate_n : 0) + d;
        if (f->mate_n < 0 || f->mate_n > MAX_SMALL)
            return UZ_ERR_CORRUPT;
        st->prev_sign = f->sign;
        st->prev_mate_n = f->mate_n;
    } else {
        bool has_opp = op && op->has_prev && !op->prev_mate;
        int64_t own = st->prev_cp, opp = has_opp ? -op->prev_cp : own;
        int64_t pred = choose(choice, has_opp, own, opp);
        int64_t d = f->cp - pred;
        int64_t size = pred < 0 ? -pred : pred;
        uz_gamma_set24 *g = revision < 2 ? &m->cp : &m->cp_by[size == 0 ? 0 : size <= 30 ? 1 : size <= 150 ? 2 : 3];
        if ((r = uz_signed_code(bits, g, !st->has_prev, 2, &st->cp_v, &d)) != UZ_OK)
            return r;
        *surprise = d == 0 ? 0 : d >= -10 && d <= 10 ? 1 : 2;
        f->cp = pred + d;
        if (f->cp < -MAX_CP || f->cp > MAX_CP)
            return UZ_ERR_CORRUPT;
        learn(choice, has_opp, f->cp, own, opp);
        st->prev_cp = f->cp;
    }
    st->prev_mate = mate;
    return UZ_OK;
}

/* The time: revision 2 first codes whether it is printed as cutechess prints it (see
 * scaled_of), then its place on that scale; else (and in revision 1) its decimals as two
 * bits and its value in those units against the prediction in ms rounded down to them. */
static uz_result code_time(uz_bit_coder *bits, uz_cute_models *m, unsigned revision, uz_cute_side *st,
                           const uz_cute_side *op, uz_cute_fields *f)
{
    bool both = op && op->has_prev;
    int64_t pred_ms = both ? (st->prev_ms + op->prev_ms) / 2 : st->prev_ms, d;
    uz_result r;
    if (revision >= 2) {
        unsigned fits = scaled_of(f->time, f->prec) >= 0;
        if ((r = uz_bit_code(bits, &m->scale_fits[st->prev_fits], &fits)) != UZ_OK)
            return r;
        st->prev_fits = (int)fits;
        if (fits) {
            int64_t at = scaled_of(pred_ms < 100 ? pred_ms : pred_ms / 10, pred_ms < 100 ? 3 : 2);
            d = bits->enc ? scaled_of(f->time, f->prec) - at : 0;
            int64_t gap = both ? st->prev_ms - op->prev_ms : 0;
            gap = gap < 0 ? -gap : gap;
            unsigned apart = gap * 32 <= pred_ms ? 0 : gap * 8 <= pred_ms ? 1 : 2;
            if ((r = uz_signed_code(bits, &m->scaled_time[apart], at < 100, 2, &st->time_v, &d)) != UZ_OK)
                return r;
            if (at + d < 0 || at + d > MAX_TIME)
                return UZ_ERR_CORRUPT;
            time_of_scaled(at + d, &f->time, &f->prec);
            st->prev_ms = f->time * pow10_of[3 - f->prec];
            st->prev_prec = f->prec;
            return UZ_OK;
        }
    }
    unsigned hi = (unsigned)f->prec >> 1, lo = (unsigned)f->prec & 1;
    uz_bit_model *pm = m->prec[st->prev_prec];
    if ((r = uz_bit_code(bits, &pm[0], &hi)) != UZ_OK || (r = uz_bit_code(bits, &pm[1 + hi], &lo)) != UZ_OK)
        return r;
    f->prec = (int)(2 * hi + lo);
    int64_t unit = pow10_of[3 - f->prec];
    int64_t pred = pred_ms / unit;
    d = f->time - pred;
    if ((r = uz_signed_code(bits, &m->time, (unsigned)f->prec, 4, &st->time_v, &d)) != UZ_OK)
        return r;
    f->time = pred + d;
    if (f->time < 0 || f->time > MAX_TIME)
        return UZ_ERR_CORRUPT;
    st->prev_ms = f->time * unit;
    st->prev_prec = f->prec;
    return UZ_OK;
}

uz_result uz_cute_code(uz_bit_coder *bits, uz_cute_models *m, unsigned revision, uz_cute_choice *choice,
                       uz_cute_side *st, const uz_cute_side *op, uz_cute_fields *f)
{
    bool both = op && op->has_prev; /* depth: the mean of the side's previous and the other side's last */
    unsigned surprise;
    uz_result r = code_eval(bits, m, revision, choice, st, op, f, &surprise);
    if (r != UZ_OK)
        return r;
    int64_t pred = both ? (st->prev_depth + op->prev_depth + 1) / 2 : st->prev_depth;
    int64_t d = f->depth - pred;
    uz_gamma_set24 *dg = revision < 2 ? &m->depth : &m->depth_by[surprise];
    /* (revision 2: also whether the two depths predicted from differ) */
    unsigned split = revision >= 2 && both && st->prev_depth != op->prev_depth;
    if ((r = uz_signed_code(bits, dg, !st->has_prev + 2 * split, revision >= 2 ? 4 : 2, &st->depth_v, &d)) != UZ_OK)
        return r;
    f->depth = pred + d;
    if (f->depth < 0 || f->depth > MAX_SMALL)
        return UZ_ERR_CORRUPT;
    st->prev_depth = f->depth;
    if ((r = code_time(bits, m, revision, st, op, f)) != UZ_OK)
        return r;
    st->has_prev = true;
    return UZ_OK;
}

/* ---- print rule ---- */

/* v in decimal at p as printf's "%0*lld" writes it with width (zeros after the sign up to
 * width characters in all); returns the characters written (at most 20 past width).
 * render runs for every coded comment, twice (the encoder's check, the decoder), and
 * snprintf there was 2 % of compressing engine games. */
static int put_decimal(char *p, long long v, int width)
{
    char digits[20];
    int n = 0, len = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        digits[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        p[len++] = '-';
    while (len + n < width)
        p[len++] = '0';
    while (n)
        p[len++] = digits[--n];
    return len;
}

static int put_text(char *p, const char *text)
{
    size_t n = strlen(text);
    memcpy(p, text, n);
    return (int)n;
}

/* The evaluation ("+1.25", "-0.05", "0.00", "+M5", "-M3"), "/depth ", the time with its
 * decimals and "s"; or "book". */
uz_result uz_cute_render(const uz_cute_fields *f, const char *res, size_t len, uz_buf *out)
{
    char num[128]; /* the longest: five 64-bit numbers, signs, separators */
    int n = 0;
    if (f->book)
        n = put_text(num, "book");
    else {
        if (f->mate) {
            num[n++] = f->sign ? '-' : '+';
            num[n++] = 'M';
            n += put_decimal(num + n, (long long)f->mate_n, 0);
        } else {
            int64_t a = f->cp < 0 ? -f->cp : f->cp;
            n = put_text(num, f->cp > 0 ? "+" : f->cp < 0 ? "-" : "");
            n += put_decimal(num + n, (long long)(a / 100), 0);
            num[n++] = '.';
            n += put_decimal(num + n, (int)(a % 100), 2);
        }
        num[n++] = '/';
        n += put_decimal(num + n, (long long)f->depth, 0);
        num[n++] = ' ';
        n += put_decimal(num + n, (long long)(f->time / pow10_of[f->prec]), 0);
        if (f->prec) {
            num[n++] = '.';
            n += put_decimal(num + n, (long long)(f->time % pow10_of[f->prec]), f->prec);
        }
        num[n++] = 's';
    }
    uz_result r = uz_buf_append(out, num, (size_t)n);
    return r == UZ_OK ? uz_buf_append(out, res, len) : r;
}

/* "book" alone (TCEC's "book, mb=..." compresses better as text among TCEC's other
 * comments), or "EVAL/DEPTH TIMEs" at the start of text. */
const char *uz_cute_scan(const char *text, uz_cute_fields *f)
{
    const char *p = text;
    *f = (uz_cute_fields){0};
    if (strcmp(p, "book") == 0) {
        f->book = true;
        return p + 4;
    }
    int64_t a, b;
    f->sign = *p == '-';
    if (*p == '+' || *p == '-')
        p++;
    if (*p == 'M') {
        p++;
        f->mate = true;
        if (!uz_parse_digits(&p, 5, &f->mate_n, NULL))
            return NULL;
    } else {
        int k;
        if (!uz_parse_digits(&p, 5, &a, NULL) || *p++ != '.' || !uz_parse_digits(&p, 2, &b, &k) || k != 2)
            return NULL;
        f->cp = (f->sign ? -1 : 1) * (a * 100 + b);
    }
    if (*p++ != '/' || !uz_parse_digits(&p, 5, &f->depth, NULL) || *p++ != ' ' || !uz_parse_digits(&p, 6, &a, NULL))
        return NULL;
    b = 0;
    if (*p == '.' && (p++, !uz_parse_digits(&p, 3, &b, &f->prec)))
        return NULL;
    if (*p++ != 's')
        return NULL;
    f->time = a * pow10_of[f->prec] + b;
    return p;
}
