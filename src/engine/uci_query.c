/* UCI text handling for queries: "info" line parsing, score mapping, mode names. */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

int32_t uz_engine_score_from_uci(bool is_mate, long value)
{
    if (is_mate) {
        /* Mate distances beyond this are meaningless; keep the ranges disjoint. */
        if (value > UZ_SCORE_CP_MAX - 1)
            value = UZ_SCORE_CP_MAX - 1;
        if (value < -(UZ_SCORE_CP_MAX - 1))
            value = -(UZ_SCORE_CP_MAX - 1);
        return value > 0 ? (int32_t)(UZ_SCORE_MATE - value) : (int32_t)(-UZ_SCORE_MATE - value);
    }
    if (value > UZ_SCORE_CP_MAX)
        return UZ_SCORE_CP_MAX;
    if (value < -UZ_SCORE_CP_MAX)
        return -UZ_SCORE_CP_MAX;
    return (int32_t)value;
}

const char *uz_engine_mode_name(uz_engine_mode mode)
{
    return mode == UZ_MODE_SEARCHMOVES ? "searchmoves" : mode == UZ_MODE_PERMOVE ? "permove" : "multipv";
}

bool uz_engine_mode_parse(const char *text, uz_engine_mode *out)
{
    if (strcmp(text, "multipv") == 0) {
        *out = UZ_MODE_MULTIPV;
        return true;
    }
    if (strcmp(text, "permove") == 0) {
        *out = UZ_MODE_PERMOVE;
        return true;
    }
    if (strcmp(text, "searchmoves") == 0) {
        *out = UZ_MODE_SEARCHMOVES;
        return true;
    }
    return false;
}

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

bool uz__line_starts(const char *line, const char *kw, const char **rest)
{
    while (is_blank(*line))
        line++;
    size_t n = strlen(kw);
    if (strncmp(line, kw, n) != 0 || (line[n] != '\0' && !is_blank(line[n])))
        return false;
    line += n;
    while (is_blank(*line))
        line++;
    if (rest)
        *rest = line;
    return true;
}

/* Eight bytes at a time: a word is looked at byte by byte only when one of its bytes
 * might be a control character (below 0x20, or 0x7f). Engines print such lines
 * thousands of times a second, and tabs, the one control character allowed, are rare. */
bool uz__line_is_garbage(const char *line, size_t len)
{
    const uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t x;
        memcpy(&x, line + i, 8);
        /* Nonzero when a byte is below 0x20 or equals 0x7f (may flag a byte >= 0x80 too). */
        uint64_t low = (x - 0x20 * ones) & ~x & highs;
        uint64_t del = x ^ (0x7f * ones);
        del = (del - ones) & ~del & highs;
        if (low | del)
            break;
    }
    for (; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return true;
    }
    return false;
}

/* A token of a line: [p, p + len), not NUL-terminated. */
typedef struct token {
    const char *p;
    size_t len;
} token;

/* Next blank-separated token of *s; false at the end of the line. */
static bool next_token(const char **s, token *t)
{
    const char *p = *s;
    while (is_blank(*p))
        p++;
    if (*p == '\0')
        return false;
    t->p = p;
    while (*p != '\0' && !is_blank(*p))
        p++;
    t->len = (size_t)(p - t->p);
    *s = p;
    return true;
}

static bool token_is(const token *t, const char *word)
{
    size_t n = strlen(word);
    return t->len == n && memcmp(t->p, word, n) == 0;
}

/* A decimal number with an optional sign filling the whole token, as strtol reads it;
 * false when malformed or out of range. */
static bool token_long(const token *t, long *out)
{
    size_t i = 0;
    bool negative = false;
    if (i < t->len && (t->p[i] == '+' || t->p[i] == '-'))
        negative = t->p[i++] == '-';
    if (i == t->len)
        return false;
    unsigned long v = 0;
    const unsigned long limit = negative ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;
    for (; i < t->len; i++) {
        unsigned d = (unsigned char)t->p[i] - (unsigned)'0';
        if (d > 9 || v > (limit - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = negative ? (v == (unsigned long)LONG_MAX + 1 ? LONG_MIN : -(long)v) : (long)v;
    return true;
}

/* Reads the numeric value following a key; false if missing or malformed. */
static bool number_after(const char **s, long *out)
{
    token t;
    return next_token(s, &t) && token_long(&t, out);
}

bool uz__parse_info(const char *line, uz__info *out)
{
    memset(out, 0, sizeof *out);
    out->depth = -1;
    out->multipv = 1;
    out->time_ms = -1;
    out->nodes = -1;
    const char *s;
    if (!uz__line_starts(line, "info", &s))
        return false;
    token tok;
    long v;
    while (next_token(&s, &tok)) {
        if (token_is(&tok, "depth")) {
            if (!number_after(&s, &v) || v < 0 || v > 10000)
                return false;
            out->depth = (int)v;
        } else if (token_is(&tok, "multipv")) {
            if (!number_after(&s, &v) || v < 1 || v > 10000)
                return false;
            out->multipv = (int)v;
        } else if (token_is(&tok, "time")) {
            if (!number_after(&s, &v) || v < 0)
                return false;
            out->time_ms = v;
        } else if (token_is(&tok, "nodes")) {
            if (!number_after(&s, &v) || v < 0)
                return false;
            out->nodes = v;
        } else if (token_is(&tok, "score")) {
            token kind;
            if (!next_token(&s, &kind) || !number_after(&s, &v))
                return false;
            if (token_is(&kind, "cp"))
                out->score_mate = false;
            else if (token_is(&kind, "mate"))
                out->score_mate = true;
            else
                return false;
            out->has_score = true;
            out->score = v;
        } else if (token_is(&tok, "lowerbound") || token_is(&tok, "upperbound")) {
            out->bound = true;
        } else if (token_is(&tok, "seldepth") || token_is(&tok, "nps") || token_is(&tok, "hashfull") ||
                   token_is(&tok, "tbhits") || token_is(&tok, "cpuload") || token_is(&tok, "currmovenumber") ||
                   token_is(&tok, "sbhits")) {
            if (!number_after(&s, &v))
                return false;
        } else if (token_is(&tok, "currmove")) {
            if (!next_token(&s, &tok))
                return false;
        } else if (token_is(&tok, "wdl")) {
            for (int i = 0; i < 3; i++)
                if (!number_after(&s, &v))
                    return false;
        } else if (token_is(&tok, "pv")) {
            if (!next_token(&s, &tok) || tok.len >= sizeof out->pv_first)
                return false;
            memcpy(out->pv_first, tok.p, tok.len);
            out->pv_first[tok.len] = '\0';
            break; /* the rest is the pv */
        } else if (token_is(&tok, "string") || token_is(&tok, "refutation") || token_is(&tok, "currline")) {
            break; /* free text / move lists to the end of the line */
        }
        /* Unknown tokens are skipped, as the UCI specification asks. */
    }
    return true;
}
