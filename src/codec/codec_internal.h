/* Internal interfaces shared by the coder sources. */
#ifndef UZ_CODEC_INTERNAL_H
#define UZ_CODEC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/buf.h"
#include "codec/coder.h"

/* Checks a frequency vector and symbol as documented in coder.h (symbol < 0: not checked).
 * max_total is UZ_RANGE_MAX_TOTAL or UINT32_MAX. On success *cum is the sum of the
 * frequencies before symbol and *single is true when only one frequency is non-zero. */
bool uz__freq_valid(const uint32_t *freq, int n, uint32_t total, uint32_t max_total,
                    int symbol, uint32_t *cum, bool *single);

/* Canonical decoding tables derived from code lengths. */
typedef struct uz__huffman_table {
    int max_len;
    uint32_t first[UZ_HUFFMAN_MAX_BITS + 1];  /* code of the first symbol of each length */
    uint16_t count[UZ_HUFFMAN_MAX_BITS + 1];  /* symbols of each length */
    uint16_t offset[UZ_HUFFMAN_MAX_BITS + 1]; /* index in symbols[] of the first of each length */
    uint16_t symbols[UZ_CODER_MAX_SYMBOLS];   /* by (length, index) */
} uz__huffman_table;

/* Fills t from lengths[0..n-1] as returned by uz_huffman_code (max_len its return value). */
void uz__huffman_table_build(const uint8_t *lengths, int n, int max_len, uz__huffman_table *t);

/* Range encoder state (its bytes go to a uz_buf). */
typedef struct uz__range_enc {
    uint64_t low;      /* 32 bits plus a carry bit */
    uint32_t range;
    uint8_t cache;     /* last byte not yet written (a later carry may still bump it) */
    bool have_cache;   /* false until the first byte: the virtual leading 0 is never written */
    uint64_t pending;  /* 0xFF bytes waiting behind cache */
} uz__range_enc;

void uz__range_enc_init(uz__range_enc *rc);
uz_result uz__range_enc_put(uz__range_enc *rc, uz_buf *out, uint32_t cum, uint32_t freq, uint32_t total);
uz_result uz__range_enc_flush(uz__range_enc *rc, uz_buf *out);

uz_result uz__range_dec_init(uz_decoder *d);
uz_result uz__range_dec_get(uz_decoder *d, const uint32_t *freq, int n, uint32_t total, int *symbol);
uz_result uz__range_dec_finish(const uz_decoder *d);

#endif
