/* Adaptive binary models, range-coded, and the Elias-gamma binarisation built on them:
 * the common ground of the coded comments (comment_code.c) and the engine comment code
 * (engine_code.c). One function serves both directions: with an encoder it puts *bit,
 * without one it gets *bit from the decoder, so writers and readers cannot drift apart.
 * doc/format.md ("Coded comments", "Adaptive binary models") is the spec. */
#ifndef UCIZIP_BIT_CODE_H
#define UCIZIP_BIT_CODE_H

#include <stddef.h>
#include <stdint.h>

#include "codec/coder.h"
#include "common/common.h"

/* P(bit = 1) in 1/65536, adapting at rate 1 / (n + 1.5) with n capped at cap. */
typedef struct uz_bit_model {
    uint16_t p;
    uint8_t n, cap;
} uz_bit_model;

/* count models at p = 1/2, n = 0 with the given cap. */
void uz_bit_models_init(uz_bit_model *m, size_t count, uint8_t cap);

typedef struct uz_bit_coder {
    uz_encoder *enc; /* writer; NULL in a reader */
    uz_decoder dec;  /* reader */
    uint64_t *cost;  /* where each coded bit's ideal length is added, in 1/65536 bit */
} uz_bit_coder;

/* Codes *bit with m (put or get) and adapts m. UZ_ERR_CORRUPT on a bad stream. */
uz_result uz_bit_code(uz_bit_coder *c, uz_bit_model *m, unsigned *bit);

/* Bit lengths of gamma-coded values stay below this. */
#define UZ_GAMMA_MAX 48

/* *v >= 1 (writer: below 2^(UZ_GAMMA_MAX - 1)): its bit length L in unary with the models
 * len[1..], then the bits below the leading one, the first two with top[L][bits so far],
 * the others with low[L][position]. */
uz_result uz_gamma_code(uz_bit_coder *c, uz_bit_model *len, uz_bit_model (*top)[4], uz_bit_model (*low)[UZ_GAMMA_MAX],
                        uint64_t *v);

/* A model set for gamma-coded values in UZ_GAMMA_SET24_CTX contexts (the coded comments'
 * and the cutechess comments' numbers). */
#define UZ_GAMMA_SET24_CTX 24
typedef struct uz_gamma_set24 {
    uz_bit_model len[UZ_GAMMA_SET24_CTX][UZ_GAMMA_MAX];
    uz_bit_model top[UZ_GAMMA_MAX][4];             /* first two mantissa bits: by L and the bits so far */
    uz_bit_model low[UZ_GAMMA_MAX][UZ_GAMMA_MAX];  /* the others: by L and position */
} uz_gamma_set24;

/* A signed value *s as zigzag + 1 with set g in context
 * min(bitlen(*prev_v) / 2, UZ_GAMMA_SET24_CTX / n_extra - 1) * n_extra + extra, *prev_v the
 * value (zigzag + 1) last coded this way, which it becomes (doc/format.md, "Coded comments",
 * "Numbers"). */
uz_result uz_signed_code(uz_bit_coder *c, uz_gamma_set24 *g, unsigned extra, unsigned n_extra, uint64_t *prev_v,
                         int64_t *s);

/* Signed values as zigzag + 1: 0, -1, 1, -2, ... as 1, 2, 3, 4, ... */
static inline uint64_t uz_zigzag1(int64_t s) { return s >= 0 ? 2 * (uint64_t)s + 1 : 2 * (uint64_t)(-(s + 1)) + 2; }
static inline int64_t uz_unzigzag1(uint64_t v) { return v & 1 ? (int64_t)(v >> 1) : -(int64_t)(v >> 1); }

/* Number of significant bits of v (0 for 0). */
unsigned uz_bit_length(uint64_t v);

#endif
