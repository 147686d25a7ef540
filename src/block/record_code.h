/* Structure versions 4 and 5's game records, range-coded (doc/format.md, "Coded records"): the
 * models and the value codes that the records writer (game_struct_write.c) and reader
 * (game_struct.c) share. Like bit_code.h, each function serves both directions: with an
 * encoder it puts the value, without one it gets it, so the two sides cannot drift apart.
 * A standard file's records are nearly all alike (the same tag names in the same order,
 * no annotations, a text record like the one before), so most of their decisions cost a
 * thousandth of a bit; what is left is each game's length, result, move-stream length and
 * its short check. Structure version 5 starts the models from a trained state (record_prior5.inc)
 * instead of p = 1/2, so that a small file starts where a big one ends, and predicts a tag
 * name not seen yet in its place as the next new name (the names are numbered in first use). */
#ifndef UCIZIP_RECORD_CODE_H
#define UCIZIP_RECORD_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block/bit_code.h"
#include "common/buf.h"

/* The cap of every record model's count (doc/format.md: adaptation rate 2 / (2n + 3)). */
#define UZ_RECORD_CAP 60
/* Contexts of the move-stream length: the bit length of its prediction, at most this. */
#define UZ_RECORD_LEN_CONTEXTS 12
/* Structure version 5: the common text records of record_prior5.inc. */
#define UZ_RECORD_N_TEXTS 16
/* The widest per-game check. */
#define UZ_RECORD_MAX_CHECK_BITS 32

/* One Elias-gamma model set (bit_code.h: uz_gamma_code). */
typedef struct uz_gamma_set {
    uz_bit_model len[UZ_GAMMA_MAX];
    uz_bit_model top[UZ_GAMMA_MAX][4];
    uz_bit_model low[UZ_GAMMA_MAX][UZ_GAMMA_MAX];
} uz_gamma_set;

/* Every model of a block's records ([v]: 0 main line, 1 inside a variation). */
typedef struct uz_record_models {
    uz_bit_model special[2], text_only;          /* verbatim or text-only record (by the previous game's) */
    uz_bit_model has_fen, chess960[2];           /* a tree game's flags */
    uz_bit_model result[2][3];                   /* [the main line's length is odd][bit: 0, 1 + the first] */
    uz_bit_model tag_hit[2];                     /* the predicted tag name (by: the prediction is the end) */
    uz_bit_model annotated[2][2];                /* [v][the line's previous node was annotated] */
    uz_bit_model null[2], has_nags[2], has_comments[2][2], has_variations[2], order;
    uz_gamma_set tag_name;                       /* a tag name not predicted (0 the end, k + 1 name k) */
    uz_gamma_set pre_comments[2], nodes[2], comments[2], trailing, nag_count, nag, variations;
    uz_gamma_set moves_len[UZ_RECORD_LEN_CONTEXTS];
    uz_gamma_set text_rec;                       /* structure version 5: where a game's text record is */
} uz_record_models;

typedef struct uz_record_coder {
    uz_bit_coder bits;   /* bits.enc: writer; else reader */
    unsigned version;    /* the structure version: 4 or 5 */
    uint64_t cost;       /* coded bits, in 1/65536 bit (bits.cost points here) */
    uz_record_models *m; /* owned */
    unsigned check_bits; /* of each game with a tree */
    int prev_special;    /* the previous record: 0 a game with a tree, 1 verbatim or text-only */
    uint64_t sum_len, sum_moves; /* the block's move-stream bytes and coded moves so far */
    /* The tag name that followed each state last time: state 0 before a game's first tag,
     * k + 1 after name k; a value 0 is the end, k + 1 name k, UINT32_MAX none yet. */
    uint32_t *succ;
    size_t n_succ;
    uint32_t names_seen; /* the block's tag names so far (they are numbered in first use) */
    const uint8_t *prev_text; /* structure version 5: the previous game's text record (NULL: none yet) */
    size_t prev_text_len;
    /* Training (uz_record_train): every decision coded again with train_m into a stream thrown away. */
    uz_record_models *train_m; /* borrowed; NULL: not training */
    uz_bit_coder train;
} uz_record_coder;

/* What learns a reader's decisions (uz_record_train): models, and the decisions' cost with them
 * (in 1/65536 bit) added to cost. */
typedef struct uz_record_training {
    uz_record_models *models;
    uint64_t cost;
} uz_record_training;

/* A writer (c->bits.enc set, coding into its own encoder) or a reader of size bytes at
 * code (borrowed), of structure version `version` (4 or later; a later one codes as 5).
 * UZ_ERR_NOMEM, UZ_ERR_CORRUPT (a reader's stream cannot start). */
uz_result uz_record_writer_init(uz_record_coder *c, unsigned version, unsigned check_bits);
uz_result uz_record_reader_init(uz_record_coder *c, unsigned version, unsigned check_bits, const uint8_t *code,
                                size_t size);
/* Writer: the coded bytes appended to out; reader: UZ_OK when the stream was consumed
 * exactly (uz_decoder_finish). */
uz_result uz_record_finish(uz_record_coder *c, uz_buf *out);
void uz_record_coder_free(uz_record_coder *c);

/* For the training of record_prior5.inc (tools/record_bits.c): from now on, every decision is
 * also coded with t->models (borrowed) as a writer would, which thereby learn it, its cost added
 * to t->cost. UZ_ERR_NOMEM. */
uz_result uz_record_train(uz_record_coder *c, uz_record_training *t);

/* A bit with model m. */
uz_result uz_record_bit(uz_record_coder *c, uz_bit_model *m, unsigned *bit);
/* *v >= 0 (at most max; a reader's larger value is corrupt) as gamma(v + 1) with set g. */
uz_result uz_record_count(uz_record_coder *c, uz_gamma_set *g, uint64_t max, uint64_t *v);
/* The next tag name after state *state: *v = 0 the end, k + 1 name k (a reader's k must
 * be below n_names); *state becomes *v. The prediction is the name that followed the state
 * last time in the block; with none yet, in structure version 5, the next new name (the
 * block's names are numbered in first use). */
uz_result uz_record_tag_name(uz_record_coder *c, uint32_t *state, size_t n_names, uint64_t *v);
/* A game's move-stream length given its coded moves (tree nodes less null moves), against
 * the block's bytes per move so far. */
uz_result uz_record_moves_len(uz_record_coder *c, uint64_t moves, uint64_t *len);
/* A game's text record (step 4 of "Coded records"): in structure version 4 the next of the text
 * section; in structure version 5 where it is, as a count with the set text_rec: 0 the same
 * as the previous game's with a tree in the block (none: corrupt), k + 1 the common text record k
 * of record_prior5.inc, UZ_RECORD_N_TEXTS + 1 the next of the text section. Writer: the record is
 * *rec (*len bytes), appended to text when it is the next of the section; reader: *rec and *len
 * are set, the section's read from text (advanced past it). UZ_ERR_CORRUPT, UZ_ERR_NOMEM. */
uz_result uz_record_text(uz_record_coder *c, const uint8_t **rec, size_t *len, uz_buf *text_out, uz_cursor *text_in);

/* The low check_bits of crc (raw bits, most significant first); a reader gets them into
 * *crc (the other bits 0). */
uz_result uz_record_check(uz_record_coder *c, uint32_t *crc);

/* Every record model, one after the other (a uz_record_models seen as an array): the
 * index of record_prior5.inc's entries; the count is frozen with it. */
#define UZ_RECORD_N_MODELS 61085
/* The trained initial state of structure version 5's models set in m (the others untouched). */
void uz_record_models_prior(uz_record_models *m);

#endif
