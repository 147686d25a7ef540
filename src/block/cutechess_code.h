/* cutechess engine comments: `EVAL/DEPTH TIMEs` after an engine's move ("+0.10/8 0.30s",
 * "-M3/99 1.2s, Black mates"; the text after the time is the comment's residual) and
 * "book" after a book move. Their print rule (scan, render) and the binarisation of their
 * fields (the evaluation against the side's previous one or the other side's last, the
 * depth and the time against the mean of the two sides' last ones) are shared by "Coded
 * comments" (comment_code.c: models for the whole block) and revision 3 of "Engine comment
 * code" (engine_cutechess.c: models per game from a trained state). doc/format.md,
 * "Coded comments" ("Engine"), is the spec. */
#ifndef UCIZIP_CUTECHESS_CODE_H
#define UCIZIP_CUTECHESS_CODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "block/bit_code.h"
#include "common/buf.h"
#include "common/common.h"

#define UZ_CUTE_CP_BUCKETS 4 /* |predicted cp|: 0, 1-30, 31-150, more */
#define UZ_CUTE_SURPRISE 4   /* |cp - predicted cp|: 0, 1-10, more; 3 for a mate score */

/* The models of the fields (only uz_bit_model arrays: a coder initialises them as one). */
typedef struct uz_cute_models {
    uz_bit_model mate[4]; /* mate score, by the previous one being a mate score and first comment */
    uz_bit_model mate_sign[3];
    uz_gamma_set24 mate_n;
    uz_gamma_set24 cp;
    uz_gamma_set24 depth;
    uz_bit_model prec[5][3]; /* the time's decimals (0..3), by the previous ones */
    uz_gamma_set24 time;
    /* revision 2 of "Coded comments" (and after): */
    uz_gamma_set24 cp_by[UZ_CUTE_CP_BUCKETS];    /* cp, by the prediction's size */
    uz_gamma_set24 depth_by[UZ_CUTE_SURPRISE];   /* depth, by the size of the cp's error */
    uz_bit_model scale_fits[3];                /* the time printed as cutechess does, by the slot's last */
    uz_gamma_set24 scaled_time[3];               /* its place on it, by how far apart the two times predicted from are */
} uz_cute_models;

/* One side's previous engine comment (reset per game with uz_cute_side_init). */
typedef struct uz_cute_side {
    bool has_prev;
    bool prev_mate;
    int prev_sign;     /* of the previous mate score */
    int64_t prev_mate_n, prev_cp, prev_depth, prev_ms;
    int prev_prec;     /* 4: none yet */
    int prev_fits;     /* revision 2: 2 none yet, else whether the last time fitted the scale */
    uint64_t cp_v, depth_v, time_v;
} uz_cute_side;

static inline uz_cute_side uz_cute_side_init(void) { return (uz_cute_side){.prev_prec = 4, .prev_fits = 2}; }

/* The two predictions of the evaluation (the side's previous one, the other side's last
 * one negated) and their recent errors, decaying sums: the one that erred less is used. */
typedef struct uz_cute_choice {
    uint64_t err[2];
} uz_cute_choice;

/* The fields of one comment. */
typedef struct uz_cute_fields {
    bool book;         /* "book": no other field */
    bool mate;         /* mate score (sign, mate_n) or centipawns (cp) */
    int sign;          /* 1: negative */
    int64_t mate_n, cp, depth, time;
    int prec;          /* decimals of time (seconds) */
} uz_cute_fields;

/* "book" alone, or "EVAL/DEPTH TIMEs..." at the start of text: its fields, and where the
 * residual starts; NULL when text is neither. (A writer then checks that uz_cute_render
 * gives the text back.) */
const char *uz_cute_scan(const char *text, uz_cute_fields *f);

/* Appends the comment of f then the residual res[0..len) to out. */
uz_result uz_cute_render(const uz_cute_fields *f, const char *res, size_t len, uz_buf *out);

/* The evaluation, depth and time of an engine comment (not book) of a side (st), the
 * other side's state op (NULL for a comment of no side), in revision 1 or 2 of "Coded
 * comments": put (bits->enc) or got into f. */
uz_result uz_cute_code(uz_bit_coder *bits, uz_cute_models *m, unsigned revision, uz_cute_choice *choice,
                       uz_cute_side *st, const uz_cute_side *op, uz_cute_fields *f);

#endif
