/* Internal declarations shared by the PGN lexer, reader, writer and game tree code. */
#ifndef UZ_PGN_INTERNAL_H
#define UZ_PGN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "common/buf.h"
#include "pgn/pgn.h"

/* ---- text in a uz_buf, kept NUL-terminated ---- */

/* Room for extra more bytes and the terminator after them. */
uz_result uz__text_reserve(uz_buf *b, size_t extra);
/* Appends and terminates (the terminator is not counted in size). */
uz_result uz__text_put(uz_buf *b, const void *data, size_t len);
uz_result uz__text_putc(uz_buf *b, char c);
/* The buffer's bytes as a string ("" while nothing was ever put). */
static inline char *uz__text(const uz_buf *b) { return b->data ? (char *)b->data : (char *)""; }

/* Grows an array holding n elements so that one more fits. Arrays of the game tree have
 * an implied capacity (see pgn.h), so no capacity field is needed. */
uz_result uz__grow(void **array, size_t n, size_t elem_size);

/* Copies len bytes into a new NUL-terminated string (NULL on allocation failure). */
char *uz__strndup(const char *s, size_t len);

/* ---- lexer: bytes to tokens with line and column ---- */

typedef enum uz__tok_type {
    UZ__TOK_EOF = 0,
    UZ__TOK_ERROR,    /* lexical error: code, message and position in the token */
    UZ__TOK_LBRACKET, /* [ */
    UZ__TOK_RBRACKET, /* ] */
    UZ__TOK_LPAREN,   /* ( */
    UZ__TOK_RPAREN,   /* ) */
    UZ__TOK_PERIOD,   /* . */
    UZ__TOK_STAR,     /* * */
    UZ__TOK_STRING,   /* "tag value", unescaped */
    UZ__TOK_SYMBOL,   /* move, move number, result, tag name */
    UZ__TOK_NAG,      /* $n or a glyph such as !? (value in nag) */
    UZ__TOK_COMMENT,  /* {...} or ;... (text without delimiters, CR and NUL dropped) */
} uz__tok_type;

#define UZ__TOK_MSG_MAX 160

typedef struct uz__token {
    uz__tok_type type;
    long line;          /* position of the token's first byte */
    long column;
    unsigned long long offset; /* byte offset of its first byte in the input */
    bool first_on_line; /* no other token before it on its line */
    bool brace;         /* comment: written in braces (else ';') */
    int nag;            /* NAG value for UZ__TOK_NAG */
    const char *text;   /* symbol / string / comment text, valid until the next token */
    size_t len;
    uz_result code;     /* UZ__TOK_ERROR: the error */
    char msg[UZ__TOK_MSG_MAX];
} uz__token;

/* Longest symbol (move, tag name) we accept; real ones are under 20 bytes. */
#define UZ__SYMBOL_MAX 255

typedef struct uz__lexer {
    FILE *f;             /* NULL when reading from memory */
    const unsigned char *mem;
    unsigned char *buf;  /* chunk buffer (FILE mode) or the memory itself */
    size_t pos, len, cap;
    bool eof;            /* no more bytes will come from f */
    bool io_error;
    int io_errno;
    long line, column;   /* position of buf[pos] */
    bool line_start;     /* buf[pos] is in column 1 (ignoring a BOM) */
    bool line_has_token;
    unsigned long long offset; /* bytes consumed so far */
    uz_buf *record;     /* when set, every consumed byte is appended here */
    bool record_failed;  /* an append failed (out of memory) */
    uz_buf text;        /* text of the current token */
    size_t text_max;     /* longest token text kept (the game size limit) */
    /* No byte at or past this offset is read: the input looks as if it ended there and
     * stopped is set (the reader's game size limit, applied as bytes stream in). */
    unsigned long long stop_at;
    bool stopped;
} uz__lexer;

uz_result uz__lex_init_file(uz__lexer *lx, FILE *f);
void uz__lex_init_mem(uz__lexer *lx, const void *data, size_t len);
void uz__lex_free(uz__lexer *lx);

/* Reads the next token. With discard, comment and string text is not kept (constant
 * memory while skipping a bad game). Never fails: problems come back as UZ__TOK_ERROR. */
void uz__lex_next(uz__lexer *lx, uz__token *tok, bool discard);

/* ---- game tree helpers ---- */

/* Canonical tag order used by the writer and by uz_game_equal: the seven-tag roster in
 * roster order, then the other tags in input order. Fills order[] (n_tags entries). */
void uz__tag_order(const uz_game *game, size_t *order);

#endif
