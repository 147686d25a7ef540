/* Integer fixed-point log2 / exp2 used by the model and by cost reporting (internal). */
#ifndef UZ_CODEC_FIXED_H
#define UZ_CODEC_FIXED_H

#include <stdint.h>

/* Everything here is plain uint32/uint64 arithmetic with truncating shifts and no
 * floating point, so the results are the same bits on every C17 implementation. */

/* log2(x) for x > 0 in unsigned Q32 (integer part in bits 32..37). Accurate to about
 * 2^-31; monotone non-decreasing in x. Returns 0 for x == 0 (callers never pass it). */
uint64_t uz__log2_q32(uint64_t x);

/* The same log2 with only frac_bits (<= 32) bits of fraction: exactly uz__log2_q32(x) >>
 * (32 - frac_bits), at a fraction of the cost when few bits are needed. */
uint64_t uz__log2_fixed(uint64_t x, unsigned frac_bits);

/* The constants c[j] = 2^(-2^-j) in Q31 for j = 1..31 (c[0] = 0.5), derived from 0.5 by
 * repeated integer square roots. */
typedef struct uz__exp2_table {
    uint32_t c[32];
} uz__exp2_table;

/* The one table, computed on first use (thread-safe) and shared by every caller. */
const uz__exp2_table *uz__exp2_constants(void);

/* 2^(-f) in Q31 for a fraction f = frac_q32 / 2^32 in [0, 1). Result in [2^30, 2^31];
 * exactly 2^31 for f = 0. Non-increasing in frac_q32. */
uint32_t uz__exp2_neg_q31(const uz__exp2_table *t, uint32_t frac_q32);

/* round(2^(u / 2^16)) for u in Q16, u < 31 * 2^16; used to turn a log-scale search
 * coordinate back into an integer parameter. */
uint32_t uz__exp2_q16_round(const uz__exp2_table *t, uint32_t u_q16);

#endif
