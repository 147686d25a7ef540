/* Shared between the coded tags' files (tag_code.c: the models, writer and reader;
 * tag_number.c: the number models' texts; tag_opening.c: the values of tag version 3
 * derived from the moves). doc/format.md, "Coded tags", is the spec. */
#ifndef UCIZIP_TAG_CODE_INTERNAL_H
#define UCIZIP_TAG_CODE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "pgn/game_walk.h"

enum model {
    M_PLAIN, M_COPY, M_LASTPART, M_PLIES, M_RESULT, M_ELO, M_DIFF, M_DATE, M_TIME, M_NAME, M_RECENT,
    M_FINAL,    /* structure version 3: the FEN of the main line's final position */
    M_TEMPLATE, /* tag version 2: a recent value with the players' names as roles (Termination) */
    M_NUMTAIL,  /* tag version 2: text and a number, the number as a change (chess.com's Link) */
    M_PAIRDIFF, /* tag version 2: a rating change from the players' ratings (Lichess) */
    M_ECO,      /* tag version 3: the ECO code of the game's opening (opening_names.h) */
    M_OPENING,  /* tag version 3: the name of the game's opening */
    M_MOVETAIL, /* tag version 3: a text with an opening's name, then main-line moves (chess.com's ECOUrl) */
    M_TOKEN,    /* tag version 5: a recent head, then an identifier coded by its characters (Lichess's Site) */
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
    HEADS = RECENT + 1,     /* M_MOVETAIL's heads: a text, or an entry of the recent list */
    HEAD_NAMES = 16,        /* ... an opening name in a head: one of the line's last 16 */
    TAIL_MOVES = 32,        /* M_MOVETAIL's moves: at most 32 */
    TAIL_FIRST = 65535,     /* ... from a main-line move of index at most this */
    TOKEN_MAX = 64,         /* M_TOKEN's identifier: at most 64 characters ... */
    TOKEN_SYMBOLS = 64,     /* ... of uz__token_alphabet */
};

/* M_TOKEN's characters, symbol i being uz__token_alphabet[i]: digits, capitals, small letters,
 * '-' and '_' (base64url's, in ASCII order but for the last two). */
extern const char uz__token_alphabet[TOKEN_SYMBOLS + 1];
/* The symbol of character ch, or -1 when it is not one of them. */
int uz__token_symbol(int ch);
/* The length of value's identifier (M_TOKEN): its longest tail of the alphabet's characters, 0
 * when that is empty or longer than TOKEN_MAX. */
size_t uz__token_length(const char *value);

/* What a derived tag (pgn.h, uz_derived_tag) of a game read from an archive is made from. */
enum derived_kind {
    DERIVED_FEN = 1, /* the FEN of the main line's final position; arg: its form (1 whole, 2 four fields) */
    DERIVED_ECO,     /* the ECO code of the game's opening */
    DERIVED_OPENING, /* its name */
    DERIVED_MOVES,   /* M_MOVETAIL's head (the value read so far) with its name, then main-line moves;
                        arg: the name's index + HEAD_NAMES x (0, or 1 + uz__tail_arg) */
};

/* The text of a number model's value v (in range); buf holds NUM_BUF bytes. */
void uz__tag_format_number(unsigned m, int64_t v, char *buf);
/* Whether v is a value of the number model m (M_ELO, M_DIFF, M_DATE or M_TIME). */
bool uz__tag_in_range(unsigned m, int64_t v);
/* A number model's value of s: true only if the model prints that value back as s. */
bool uz__tag_parse_number(unsigned m, const char *s, int64_t *v);

/* M_MOVETAIL's moves: the connector (0 "-", 1 "..."), the index of the first main-line move
 * and how many, as an arg. */
static inline uint32_t uz__tail_arg(unsigned conn, size_t first, size_t n)
{
    return (uint32_t)(conn | (n - 1) << 1 | first << 6);
}

/* The opening of the walk's game (opening_names.h): its ECO code (M_ECO) or name (M_OPENING),
 * NULL when it has none. */
const char *uz__tag_opening(unsigned m, const uz_walk *walk);
/* M_MOVETAIL's split of value: the length of its head and the arg of the main-line moves
 * that end it, as chess.com writes them in a URL (doc/format.md); false when it does not end
 * so. The walk resolved, its moves known. */
bool uz__tag_tail_split(const uz_walk *walk, const char *value, size_t *head_len, uint32_t *arg);
/* M_MOVETAIL's template of the head (its first len bytes, no byte 1 or 2) into *tmpl
 * (malloc'd): the longest of the walk's opening names written as in a URL (HEAD_NAMES of
 * them, from the last position back) found in it, its first occurrence replaced by the byte
 * 1 (*name its index; 0 when none is found), then the first occurrence of eco (the game's
 * ECO tag, NULL: none) in what is left by the byte 2. NULL: out of memory. */
char *uz__tag_head_template(const uz_walk *walk, const char *head, size_t len, const char *eco, unsigned *name);
/* A DERIVED_MOVES value (malloc'd, into *out): the template with its first byte 1 as the
 * name of arg and its first byte 2 as eco, then arg's moves; UZ_ERR_CORRUPT when the walk has
 * no such name or moves, or there is no eco for a byte 2. */
uz_result uz__tag_tail_text(const uz_walk *walk, const char *tmpl, uint32_t arg, const char *eco, char **out);

/* Tag version 4 (tag_code_range.c): what the codes of one column of model m cost range-coded,
 * in bits: the column's codes as varints, each code of M_TOKEN that is not 0 followed by its
 * identifier's length and symbols as varints. */
uint64_t uz__tag_codes_cost(const uz_buf *col, unsigned m);
/* Range-codes the columns' codes (cols[k]: name k's codes as varints, as above; plain names
 * skipped) in names order, appending the stream to out. */
uz_result uz__tag_codes_pack(uz_buf *out, const uz_buf *cols, const uint8_t *model, size_t n_names);
/* Reads such a stream (exactly size bytes) back: count[k] codes of each name k whose model is
 * not plain, appended to cols[k] as varints (with M_TOKEN's identifiers, as above).
 * UZ_ERR_CORRUPT on a bad stream. */
uz_result uz__tag_codes_unpack(const uint8_t *data, size_t size, const uint8_t *model, const size_t *count,
                               size_t n_names, uz_buf *cols);

#endif
