/* UCI text handling for queries: "info" line parsing, score mapping, mode names. */
#include <errno.h>
#include <limits.h>
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

bool uz__line_is_garbage(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)line[i];
        if ((c < 0x20 && c != '\t') || c == 0x7f)
            return true;
    }
    return false;
}

/* Next blank-separated token of *s into tok (truncated to cap-1); false at end. */
static bool next_token(const char **s, char *tok, size_t cap)
{
    const char *p = *s;
    while (is_blank(*p))
        p++;
    if (*p == '\0')
        return false;
    size_t n = 0;
    while (*p != '\0' && !is_blank(*p)) {
        if (n + 1 < cap)
            tok[n++] = *p;
        p++;
    }
    tok[n] = '\0';
    *s = p;
    return true;
}

static bool parse_long(const char *tok, long *out)
{
    if (*tok == '\0')
        return false;
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (*end != '\0' || errno != 0)
        return false;
    *out = v;
    return true;
}

/* Reads the numeric value following a key; false if missing or malformed. */
static bool number_after(const char **s, long *out)
{
    char tok[32];
    return next_token(s, tok, sizeof tok) && parse_long(tok, out);
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
    char tok[64];
    long v;
    while (next_token(&s, tok, sizeof tok)) {
        if (strcmp(tok, "depth") == 0) {
            if (!number_after(&s, &v) || v < 0 || v > 10000)
                return false;
            out->depth = (int)v;
        } else if (strcmp(tok, "multipv") == 0) {
            if (!number_after(&s, &v) || v < 1 || v > 10000)
                return false;
            out->multipv = (int)v;
        } else if (strcmp(tok, "time") == 0) {
            if (!number_after(&s, &v) || v < 0)
                return false;
            out->time_ms = v;
        } else if (strcmp(tok, "nodes") == 0) {
            if (!number_after(&s, &v) || v < 0)
                return false;
            out->nodes = v;
        } else if (strcmp(tok, "score") == 0) {
            char kind[16];
            if (!next_token(&s, kind, sizeof kind) || !number_after(&s, &v))
                return false;
            if (strcmp(kind, "cp") == 0)
                out->score_mate = false;
            else if (strcmp(kind, "mate") == 0)
                out->score_mate = true;
            else
                return false;
            out->has_score = true;
            out->score = v;
        } else if (strcmp(tok, "lowerbound") == 0 || strcmp(tok, "upperbound") == 0) {
            out->bound = true;
        } else if (strcmp(tok, "seldepth") == 0 ||
                   strcmp(tok, "nps") == 0 || strcmp(tok, "hashfull") == 0 ||
                   strcmp(tok, "tbhits") == 0 || strcmp(tok, "cpuload") == 0 ||
                   strcmp(tok, "currmovenumber") == 0 || strcmp(tok, "sbhits") == 0) {
            if (!number_after(&s, &v))
                return false;
        } else if (strcmp(tok, "currmove") == 0) {
            if (!next_token(&s, tok, sizeof tok))
                return false;
        } else if (strcmp(tok, "wdl") == 0) {
            for (int i = 0; i < 3; i++)
                if (!number_after(&s, &v))
                    return false;
        } else if (strcmp(tok, "pv") == 0) {
            if (!next_token(&s, tok, sizeof tok) || strlen(tok) >= sizeof out->pv_first)
                return false;
            strcpy(out->pv_first, tok);
            break; /* the rest is the pv */
        } else if (strcmp(tok, "string") == 0 || strcmp(tok, "refutation") == 0 ||
                   strcmp(tok, "currline") == 0) {
            break; /* free text / move lists to the end of the line */
        }
        /* Unknown tokens are skipped, as the UCI specification asks. */
    }
    return true;
}
