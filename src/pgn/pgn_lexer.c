/* PGN lexer: bytes read in chunks from a FILE or memory, turned into tokens with line/column. */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"

enum { CHUNK = 64 * 1024 };

uz_result uz__lex_init_file(uz__lexer *lx, FILE *f)
{
    memset(lx, 0, sizeof *lx);
    lx->f = f;
    lx->buf = malloc(CHUNK);
    if (!lx->buf)
        return UZ_ERR_NOMEM;
    lx->cap = CHUNK;
    lx->line = 1;
    lx->column = 1;
    lx->line_start = true;
    lx->text_max = (size_t)-1;
    lx->stop_at = ULLONG_MAX;
    return UZ_OK;
}

void uz__lex_init_mem(uz__lexer *lx, const void *data, size_t len)
{
    memset(lx, 0, sizeof *lx);
    lx->mem = data;
    /* The buffer is never written in memory mode; the cast only shares the field. */
    lx->buf = (unsigned char *)(uintptr_t)data;
    lx->len = len;
    lx->eof = true;
    lx->line = 1;
    lx->column = 1;
    lx->line_start = true;
    lx->text_max = (size_t)-1;
    lx->stop_at = ULLONG_MAX;
}

void uz__lex_free(uz__lexer *lx)
{
    if (!lx)
        return;
    if (lx->f)
        free(lx->buf);
    uz_buf_free(&lx->text);
    lx->buf = NULL;
}

/* Makes at least n bytes available at pos unless the input ends first. */
static void fill(uz__lexer *lx, size_t n)
{
    while (lx->len - lx->pos < n && !lx->eof) {
        if (lx->pos > 0) {
            memmove(lx->buf, lx->buf + lx->pos, lx->len - lx->pos);
            lx->len -= lx->pos;
            lx->pos = 0;
        }
        size_t got = fread(lx->buf + lx->len, 1, lx->cap - lx->len, lx->f);
        lx->len += got;
        if (got == 0) {
            if (ferror(lx->f)) {
                lx->io_error = true;
                lx->io_errno = errno;
            }
            lx->eof = true;
        }
    }
}

/* Byte at pos + k, or -1 past the end of input or at stop_at. */
static int peek(uz__lexer *lx, size_t k)
{
    if (lx->offset + k >= lx->stop_at) {
        lx->stopped = true;
        return -1;
    }
    if (lx->len - lx->pos <= k)
        fill(lx, k + 1);
    return lx->len - lx->pos > k ? lx->buf[lx->pos + k] : -1;
}

static void advance(uz__lexer *lx)
{
    unsigned char c = lx->buf[lx->pos++];
    lx->offset++;
    if (lx->record && uz__text_putc(lx->record, (char)c) != UZ_OK)
        lx->record_failed = true;
    if (c == '\n') {
        lx->line++;
        lx->column = 1;
        lx->line_start = true;
        lx->line_has_token = false;
    } else {
        lx->column++;
        lx->line_start = false;
    }
}

static bool is_symbol_char(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '+' ||
           c == '#' || c == '=' || c == ':' || c == '-' || c == '/';
}

/* A byte that starts no token and is not whitespace (c: a byte, or -1). */
static bool is_stray(int c)
{
    if (c < 0 || c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f')
        return false;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))
        return false;
    return c == 0 || !strchr("[]().*{;\"$!?-%", c);
}

static void set_error(uz__token *tok, uz_result code, const char *msg)
{
    tok->type = UZ__TOK_ERROR;
    tok->code = code;
    snprintf(tok->msg, sizeof tok->msg, "%s", msg);
}

/* Appends a byte of token text unless discarding; past text_max the token is still read
 * to its end (so the lexer stays in sync) but reported as too long. */
static void keep(uz__lexer *lx, unsigned char c, bool discard, bool *overflow, bool *nomem)
{
    if (discard || *overflow || *nomem)
        return;
    if (lx->text.size >= lx->text_max) {
        *overflow = true;
        return;
    }
    if (uz__text_putc(&lx->text, (char)c) != UZ_OK)
        *nomem = true;
}

static void lex_comment_brace(uz__lexer *lx, uz__token *tok, bool discard)
{
    bool overflow = false, nomem = false;
    advance(lx); /* '{' */
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0) {
            set_error(tok, UZ_ERR_SYNTAX, "unterminated comment: expected '}' before end of input");
            return;
        }
        advance(lx);
        if (c == '}')
            break;
        if (c == '\r' || c == 0)
            continue; /* line ends are normalised to LF; NUL cannot live in a C string */
        keep(lx, (unsigned char)c, discard, &overflow, &nomem);
    }
    tok->type = UZ__TOK_COMMENT;
    tok->brace = true;
    if (overflow)
        set_error(tok, UZ_ERR_LIMIT, "comment exceeds the game size limit");
    if (nomem)
        set_error(tok, UZ_ERR_NOMEM, "out of memory reading a comment");
}

static void lex_comment_semicolon(uz__lexer *lx, uz__token *tok, bool discard)
{
    bool overflow = false, nomem = false;
    advance(lx); /* ';' */
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n')
            break;
        advance(lx);
        if (c == '\r' || c == 0)
            continue;
        keep(lx, (unsigned char)c, discard, &overflow, &nomem);
    }
    tok->type = UZ__TOK_COMMENT;
    tok->brace = false;
    if (overflow)
        set_error(tok, UZ_ERR_LIMIT, "comment exceeds the game size limit");
    if (nomem)
        set_error(tok, UZ_ERR_NOMEM, "out of memory reading a comment");
}

static void lex_string(uz__lexer *lx, uz__token *tok, bool discard)
{
    bool overflow = false, nomem = false;
    advance(lx); /* '"' */
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0 || c == '\n' || (c == '\r' && peek(lx, 1) == '\n')) {
            set_error(tok, UZ_ERR_SYNTAX, "unterminated tag value: expected '\"' before end of line");
            return;
        }
        advance(lx);
        if (c == '"')
            break;
        if (c == '\\') {
            int d = peek(lx, 0);
            if (d == '"' || d == '\\') {
                advance(lx);
                c = d;
            }
            /* any other backslash is kept as a plain byte (e.g. Windows paths) */
        }
        if (c == 0)
            continue;
        keep(lx, (unsigned char)c, discard, &overflow, &nomem);
    }
    tok->type = UZ__TOK_STRING;
    if (overflow)
        set_error(tok, UZ_ERR_LIMIT, "tag value exceeds the game size limit");
    if (nomem)
        set_error(tok, UZ_ERR_NOMEM, "out of memory reading a tag value");
}

static void lex_symbol(uz__lexer *lx, uz__token *tok)
{
    size_t n = 0;
    bool too_long = false, nomem = false;
    for (;;) {
        int c = peek(lx, 0);
        /* "e8(Q)": a promotion written with parentheses, not a variation "(Q)" (which could
         * never be valid anyway). A check mark may follow it. */
        if (c == '(' && n >= 2 && !too_long && !nomem && (lx->text.data[lx->text.size - 1] == '1' ||
                                                         lx->text.data[lx->text.size - 1] == '8')) {
            int p = peek(lx, 1);
            if (p < 0 || !strchr("QRBNqrbn", p) || peek(lx, 2) != ')')
                break;
        } else if (!is_symbol_char(c)) {
            break;
        }
        int len = c == '(' ? 3 : 1;
        for (int i = 0; i < len; i++) {
            if (n++ < UZ__SYMBOL_MAX)
                keep(lx, (unsigned char)peek(lx, 0), false, &too_long, &nomem);
            else
                too_long = true;
            advance(lx);
        }
    }
    tok->type = UZ__TOK_SYMBOL;
    if (too_long)
        set_error(tok, UZ_ERR_SYNTAX, "symbol longer than 255 bytes");
    if (nomem)
        set_error(tok, UZ_ERR_NOMEM, "out of memory reading a symbol");
}

static void lex_nag(uz__lexer *lx, uz__token *tok)
{
    advance(lx); /* '$' */
    long v = 0;
    int digits = 0;
    while (peek(lx, 0) >= '0' && peek(lx, 0) <= '9') {
        if (v < 1000)
            v = v * 10 + (peek(lx, 0) - '0');
        digits++;
        advance(lx);
    }
    if (digits == 0) {
        set_error(tok, UZ_ERR_SYNTAX, "expected a number after '$'");
        return;
    }
    if (v > 255) {
        set_error(tok, UZ_ERR_SYNTAX, "NAG out of range: expected $0 to $255");
        return;
    }
    tok->type = UZ__TOK_NAG;
    tok->nag = (int)v;
}

static void lex_glyph(uz__lexer *lx, uz__token *tok)
{
    char g[4] = {0};
    size_t n = 0;
    for (;;) {
        int c = peek(lx, 0);
        if (c != '!' && c != '?')
            break;
        if (n < 3)
            g[n] = (char)c;
        n++;
        advance(lx);
    }
    static const char *const glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
    if (n <= 2) {
        for (int i = 0; i < 6; i++) {
            if (strcmp(g, glyphs[i]) == 0) {
                tok->type = UZ__TOK_NAG;
                tok->nag = i + 1;
                return;
            }
        }
    }
    set_error(tok, UZ_ERR_SYNTAX, "unknown annotation glyph: expected one of ! ? !! ?? !? ?!");
}

void uz__lex_next(uz__lexer *lx, uz__token *tok, bool discard)
{
    memset(tok, 0, sizeof *tok);
    lx->text.size = 0;
    /* Skip whitespace, escape lines and byte-order marks. */
    for (;;) {
        int c = peek(lx, 0);
        if (c < 0) {
            tok->type = UZ__TOK_EOF;
            tok->line = lx->line;
            tok->column = lx->column;
            tok->offset = lx->offset;
            if (lx->io_error) {
                tok->type = UZ__TOK_ERROR;
                tok->code = UZ_ERR_IO;
                snprintf(tok->msg, sizeof tok->msg, "read error: %s", strerror(lx->io_errno));
                lx->io_error = false; /* reported once; then the input counts as ended */
            }
            return;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f') {
            advance(lx);
            continue;
        }
        if (c == '%' && lx->line_start) {
            while (peek(lx, 0) >= 0 && peek(lx, 0) != '\n')
                advance(lx);
            continue;
        }
        /* A UTF-8 BOM at the start of a line (the file's, or a concatenated file's). */
        if (c == 0xEF && lx->line_start && peek(lx, 1) == 0xBB && peek(lx, 2) == 0xBF) {
            for (int i = 0; i < 3; i++)
                advance(lx);
            lx->line_start = true;
            continue;
        }
        break;
    }

    tok->line = lx->line;
    tok->column = lx->column;
    tok->offset = lx->offset;
    tok->first_on_line = !lx->line_has_token;
    lx->line_has_token = true;

    int c = peek(lx, 0);
    switch (c) {
    case '[': tok->type = UZ__TOK_LBRACKET; advance(lx); break;
    case ']': tok->type = UZ__TOK_RBRACKET; advance(lx); break;
    case '(': tok->type = UZ__TOK_LPAREN; advance(lx); break;
    case ')': tok->type = UZ__TOK_RPAREN; advance(lx); break;
    case '.': tok->type = UZ__TOK_PERIOD; advance(lx); break;
    case '*': tok->type = UZ__TOK_STAR; advance(lx); break;
    case '{': lex_comment_brace(lx, tok, discard); break;
    case ';': lex_comment_semicolon(lx, tok, discard); break;
    case '"': lex_string(lx, tok, discard); break;
    case '$': lex_nag(lx, tok); break;
    case '!':
    case '?': lex_glyph(lx, tok); break;
    default:
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
            (c == '-' && peek(lx, 1) == '-')) {
            /* "e.p." after an en-passant capture: one symbol, ignored by the reader. */
            if (c == 'e' && peek(lx, 1) == '.' && peek(lx, 2) == 'p' && peek(lx, 3) == '.') {
                for (int i = 0; i < 4; i++)
                    advance(lx);
                tok->type = UZ__TOK_SYMBOL;
                tok->text = "e.p.";
                tok->len = 4;
                return;
            }
            lex_symbol(lx, tok);
            break;
        }
        advance(lx);
        /* Skipping: a run of such bytes is one token, without a message (a long run, a
         * bomb of zeros, costs little). */
        while (discard && is_stray(peek(lx, 0)))
            advance(lx);
        if (!discard) {
            if (c >= 0x21 && c < 0x7F)
                snprintf(tok->msg, sizeof tok->msg, "unexpected character '%c'", c);
            else
                snprintf(tok->msg, sizeof tok->msg, "unexpected byte 0x%02X", (unsigned)c);
        }
        tok->type = UZ__TOK_ERROR;
        tok->code = UZ_ERR_SYNTAX;
        return;
    }
    /* Keep the text NUL-terminated (an empty string too: its buffer may hold the previous
     * token's bytes, which must not show through). */
    if (lx->text.data || lx->text.size == 0) {
        if (uz__text_putc(&lx->text, '\0') == UZ_OK)
            lx->text.size--;
        else if (tok->type != UZ__TOK_ERROR)
            set_error(tok, UZ_ERR_NOMEM, "out of memory");
    }
    tok->text = uz__text(&lx->text);
    tok->len = lx->text.size;
    lx->line_has_token = true; /* also after a multi-line comment: its end line has a token */
}
