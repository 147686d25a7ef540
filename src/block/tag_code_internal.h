/* Shared between the coded tags' files (tag_code.c: the models, writer and reader;
 * tag_number.c: the number models' texts). doc/format.md, "Coded tags", is the spec. */
#ifndef UCIZIP_TAG_CODE_INTERNAL_H
#define UCIZIP_TAG_CODE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

enum model {
    M_PLAIN, M_COPY, M_LASTPART, M_PLIES, M_RESULT, M_ELO, M_DIFF, M_DATE, M_TIME, M_NAME, M_RECENT,
    M_FINAL,    /* structure version 3: the FEN of the main line's final position */
    M_TEMPLATE, /* tag version 2: a recent value with the players' names as roles (Termination) */
    M_NUMTAIL,  /* tag version 2: text and a number, the number as a change (chess.com's Link) */
    M_PAIRDIFF, /* tag version 2: a rating change from the players' ratings (Lichess) */
    N_MODELS
};

enum {
    RECENT = 256,           /* entries of a recent-values list */
    ELO_DEFAULT = 1500,     /* a rating's reference when nothing came before */
    NUM_MAX = 999999999,    /* ratings and rating changes: at most 9 digits */
    DATE_MAX = 3652059,     /* day number of 9999.12.31 (0001.01.01 is 1) */
    TIME_MAX = 86399,       /* 23:59:59 */
    COPY_SCAN_NAMES = 64,   /* the writer looks for copies only in blocks with so few names */
    COPY_SCAN_TAGS = 64,    /* ... and in games with so few tags */
    MODEL_NAMES = 256,      /* the writer tries models for the first names only (each try reads the block) */
    NUM_BUF = 64,           /* room for any number model's text (and a plies count) */
    TAIL_DIGITS = 18,       /* the number of a M_NUMTAIL value: at most 18 digits */
};

/* The text of a number model's value v (in range); buf holds NUM_BUF bytes. */
void uz__tag_format_number(unsigned m, int64_t v, char *buf);
/* Whether v is a value of the number model m (M_ELO, M_DIFF, M_DATE or M_TIME). */
bool uz__tag_in_range(unsigned m, int64_t v);
/* A number model's value of s: true only if the model prints that value back as s. */
bool uz__tag_parse_number(unsigned m, const char *s, int64_t *v);

#endif
