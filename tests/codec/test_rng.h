/* Fixed-seed PRNG shared by the codec tests. */
#ifndef UZ_TEST_CODEC_RNG_H
#define UZ_TEST_CODEC_RNG_H

#include <stdint.h>

/* splitmix64: fixed-seed, platform-independent test data. */
typedef struct test_rng {
    uint64_t s;
} test_rng;

static inline uint64_t rng_next(test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Uniform in [0, bound) (bound > 0; the tiny modulo bias is irrelevant here). */
static inline uint32_t rng_below(test_rng *r, uint32_t bound)
{
    return (uint32_t)(rng_next(r) % bound);
}

#endif
