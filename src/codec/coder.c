/* The public encoder/decoder interface over the Huffman and range coders. */
#include "codec/coder.h"

#include <stdlib.h>

#include "codec_internal.h"
#include "fixed.h"

struct uz_encoder {
    uz_coder_kind kind;
    uz_buf buf;
    bool finished;
    bool failed;       /* an allocation failed mid-symbol: the stream is lost */
    uint64_t acc;      /* Huffman: pending bits, the newest in the low end */
    unsigned nacc;     /* Huffman: number of pending bits, < 8 between symbols */
    uz__range_enc rc;
};

bool uz__freq_valid(const uint32_t *freq, int n, uint32_t total, uint32_t max_total,
                    int symbol, uint32_t *cum, bool *single)
{
    if (!freq || n < 1 || n > UZ_CODER_MAX_SYMBOLS || total == 0 || total > max_total)
        return false;
    if (symbol >= n)
        return false;
    uint64_t sum = 0, before = 0;
    int nonzero = 0;
    for (int i = 0; i < n; i++) {
        if (i == symbol)
            before = sum;
        sum += freq[i];
        nonzero += freq[i] > 0;
    }
    if (sum != total || (symbol >= 0 && freq[symbol] == 0))
        return false;
    if (cum)
        *cum = (uint32_t)before;
    if (single)
        *single = nonzero == 1;
    return true;
}

uz_result uz_encoder_create(uz_encoder **out, uz_coder_kind kind)
{
    if (!out)
        return UZ_ERR_ARG;
    *out = NULL;
    if (kind != UZ_CODER_HUFFMAN && kind != UZ_CODER_RANGE)
        return UZ_ERR_ARG;
    uz_encoder *e = calloc(1, sizeof *e);
    if (!e)
        return UZ_ERR_NOMEM;
    e->kind = kind;
    uz_encoder_reset(e);
    *out = e;
    return UZ_OK;
}

void uz_encoder_reset(uz_encoder *e)
{
    if (!e)
        return;
    e->buf.size = 0;
    e->finished = false;
    e->failed = false;
    e->acc = 0;
    e->nacc = 0;
    uz__range_enc_init(&e->rc);
}

void uz_encoder_destroy(uz_encoder *e)
{
    if (!e)
        return;
    uz_buf_free(&e->buf);
    free(e);
}

/* Appends the len (<= 32) low bits of code, MSB first. */
static uz_result put_bits(uz_encoder *e, uint32_t code, unsigned len)
{
    uz_result res = UZ_OK;
    e->acc = (e->acc << len) | code;
    e->nacc += len;
    while (res == UZ_OK && e->nacc >= 8) {
        e->nacc -= 8;
        res = uz_buf_push(&e->buf, (uint8_t)(e->acc >> e->nacc));
    }
    e->acc &= ((uint64_t)1 << e->nacc) - 1; /* keep only the unwritten bits */
    return res;
}

uz_result uz_encoder_put(uz_encoder *e, const uint32_t *freq, int n, uint32_t total, int symbol)
{
    uz_result res = UZ_OK;
    uint32_t cum = 0;
    bool single = false;
    if (!e || e->finished || symbol < 0)
        return UZ_ERR_ARG;
    if (e->failed)
        return UZ_ERR_NOMEM;
    uint32_t max_total = e->kind == UZ_CODER_RANGE ? UZ_RANGE_MAX_TOTAL : UINT32_MAX;
    if (!uz__freq_valid(freq, n, total, max_total, symbol, &cum, &single))
        return UZ_ERR_ARG;
    if (single)
        return UZ_OK; /* a certain symbol costs nothing */

    if (e->kind == UZ_CODER_RANGE) {
        res = uz__range_enc_put(&e->rc, &e->buf, cum, freq[symbol], total);
    } else {
        uint8_t lengths[UZ_CODER_MAX_SYMBOLS];
        uint32_t codes[UZ_CODER_MAX_SYMBOLS];
        int max_len = uz_huffman_code(freq, n, lengths, codes);
        res = max_len < 0 ? (uz_result)max_len : put_bits(e, codes[symbol], lengths[symbol]);
    }
    if (res == UZ_ERR_NOMEM)
        e->failed = true;
    return res;
}

uz_result uz_encoder_finish(uz_encoder *e, const uint8_t **data, size_t *size)
{
    uz_result res = UZ_OK;
    if (!e || !data || !size)
        return UZ_ERR_ARG;
    if (e->failed)
        return UZ_ERR_NOMEM;
    if (!e->finished) {
        if (e->kind == UZ_CODER_RANGE) {
            res = uz__range_enc_flush(&e->rc, &e->buf);
        } else if (e->nacc > 0) {
            /* Pad the last byte with zero bits. */
            res = put_bits(e, 0, 8 - e->nacc);
        }
        if (res != UZ_OK) {
            e->failed = true;
            return res;
        }
        e->finished = true;
    }
    *data = e->buf.data;
    *size = e->buf.size;
    return UZ_OK;
}

uz_result uz_decoder_init(uz_decoder *d, uz_coder_kind kind, const uint8_t *data, size_t size)
{
    if (!d || (!data && size > 0) || (kind != UZ_CODER_HUFFMAN && kind != UZ_CODER_RANGE))
        return UZ_ERR_ARG;
    d->kind = kind;
    d->data = data;
    d->size = size;
    d->pos = 0;
    d->range = 0;
    d->code = 0;
    d->window = 0;
    if (kind == UZ_CODER_RANGE)
        return uz__range_dec_init(d);
    return UZ_OK;
}

/* Next bit of a Huffman stream; false when the data is exhausted. */
static bool get_bit(uz_decoder *d, uint32_t *bit)
{
    size_t byte = d->pos >> 3;
    if (byte >= d->size)
        return false;
    *bit = (uint32_t)(d->data[byte] >> (7 - (d->pos & 7))) & 1u;
    d->pos++;
    return true;
}

static uz_result huffman_get(uz_decoder *d, const uint32_t *freq, int n, int *symbol)
{
    uint8_t lengths[UZ_CODER_MAX_SYMBOLS];
    uint32_t codes[UZ_CODER_MAX_SYMBOLS];
    uz__huffman_table t;
    int max_len = uz_huffman_code(freq, n, lengths, codes);
    if (max_len < 0)
        return (uz_result)max_len;
    uz__huffman_table_build(lengths, n, max_len, &t);
    uint64_t code = 0;
    for (int len = 1; len <= max_len; len++) {
        uint32_t bit;
        if (!get_bit(d, &bit))
            return UZ_ERR_CORRUPT;
        code = (code << 1) | bit;
        /* Canonical codes of one length are consecutive from first[len]. */
        if (code >= t.first[len] && code - t.first[len] < t.count[len]) {
            *symbol = t.symbols[t.offset[len] + (code - t.first[len])];
            return UZ_OK;
        }
    }
    return UZ_ERR_CORRUPT; /* unreachable for a complete code */
}

uz_result uz_decoder_get(uz_decoder *d, const uint32_t *freq, int n, uint32_t total, int *symbol)
{
    bool single = false;
    if (!d || !symbol)
        return UZ_ERR_ARG;
    uint32_t max_total = d->kind == UZ_CODER_RANGE ? UZ_RANGE_MAX_TOTAL : UINT32_MAX;
    if (!uz__freq_valid(freq, n, total, max_total, -1, NULL, &single))
        return UZ_ERR_ARG;
    if (single) {
        int s = 0;
        while (freq[s] == 0)
            s++;
        *symbol = s;
        return UZ_OK;
    }
    if (d->kind == UZ_CODER_RANGE)
        return uz__range_dec_get(d, freq, n, total, symbol);
    return huffman_get(d, freq, n, symbol);
}

uz_result uz_decoder_finish(const uz_decoder *d)
{
    if (!d)
        return UZ_ERR_ARG;
    if (d->kind == UZ_CODER_RANGE)
        return uz__range_dec_finish(d);
    /* Huffman: only the zero padding of the last byte may remain. */
    size_t byte = d->pos >> 3;
    unsigned bit = (unsigned)(d->pos & 7);
    if (bit == 0)
        return byte == d->size ? UZ_OK : UZ_ERR_CORRUPT;
    if (byte + 1 != d->size)
        return UZ_ERR_CORRUPT;
    return (d->data[byte] & (0xFFu >> bit)) == 0 ? UZ_OK : UZ_ERR_CORRUPT;
}

double uz_coder_cost_bits(uz_coder_kind kind, const uint32_t *freq, int n, uint32_t total, int symbol)
{
    uint32_t cum;
    bool single;
    if (symbol < 0)
        return -1.0;
    if (kind == UZ_CODER_RANGE) {
        if (!uz__freq_valid(freq, n, total, UZ_RANGE_MAX_TOTAL, symbol, &cum, &single))
            return -1.0;
        /* -log2(freq / total) from the integer log2: same value on every machine. */
        return (double)(uz__log2_q32(total) - uz__log2_q32(freq[symbol])) / 4294967296.0;
    }
    if (kind != UZ_CODER_HUFFMAN || !uz__freq_valid(freq, n, total, UINT32_MAX, symbol, &cum, &single))
        return -1.0;
    uint8_t lengths[UZ_CODER_MAX_SYMBOLS];
    uint32_t codes[UZ_CODER_MAX_SYMBOLS];
    if (uz_huffman_code(freq, n, lengths, codes) < 0)
        return -1.0;
    return (double)lengths[symbol];
}
