/* Range coder: 32-bit range, 64-bit low with carry, byte-wise output (carry-propagating
 * cache + pending-0xFF scheme), the last symbol absorbing the division remainder. */
#include "codec_internal.h"

/* After normalisation range >= RC_TOP, so range / total >= 2^8 for total <= 2^16. */
#define RC_TOP ((uint32_t)1 << 24)
/* Trailing zero bytes the encoder may leave out (at most the 4 bytes of its flush value),
 * and so the most a decoder reads past the end of a stream: a short stream cannot make
 * the decoder run on through zeros. */
#define RC_TAIL 4

void uz__range_enc_init(uz__range_enc *rc)
{
    rc->low = 0;
    rc->range = 0xFFFFFFFFu;
    rc->cache = 0;
    rc->have_cache = false;
    rc->pending = 0;
}

/* Moves the top byte of low out. A byte below 0xFF (or a carry) settles the cached byte
 * and the 0xFF run behind it; a 0xFF byte might still be bumped by a carry, so it waits. */
static uz_result shift_low(uz__range_enc *rc, uz_buf *out)
{
    uz_result res = UZ_OK;
    if ((uint32_t)rc->low < 0xFF000000u || (rc->low >> 32) != 0) {
        uint8_t carry = (uint8_t)(rc->low >> 32);
        /* The interval starts inside [0, 2^32), so the virtual leading byte never
         * receives a carry and is not written. */
        if (rc->have_cache)
            res = uz_buf_push(out, (uint8_t)(rc->cache + carry));
        for (; res == UZ_OK && rc->pending > 0; rc->pending--)
            res = uz_buf_push(out, (uint8_t)(0xFFu + carry));
        rc->cache = (uint8_t)(rc->low >> 24);
        rc->have_cache = true;
    } else {
        rc->pending++;
    }
    rc->low = (rc->low & 0x00FFFFFFu) << 8;
    return res;
}

uz_result uz__range_enc_put(uz__range_enc *rc, uz_buf *out, uint32_t cum, uint32_t freq, uint32_t total)
{
    uz_result res = UZ_OK;
    uint32_t r = rc->range / total;
    rc->low += (uint64_t)r * cum;
    /* The top symbol takes the remainder of the division, so no range is wasted. */
    if (cum + freq < total)
        rc->range = r * freq;
    else
        rc->range -= r * cum;
    while (res == UZ_OK && rc->range < RC_TOP) {
        rc->range <<= 8;
        res = shift_low(rc, out);
    }
    return res;
}

/* The final value the encoder writes is low + flush_delta(low, range): of all values in
 * [low, low + range) the one with the most trailing zero bytes. It depends only on
 * low mod 2^32, which the decoder can reconstruct, so the decoder can verify it. */
static uint32_t flush_delta(uint32_t low, uint32_t range)
{
    for (int s = 32; s > 0; s -= 8) {
        uint64_t mask = ((uint64_t)1 << s) - 1;
        uint64_t x = ((uint64_t)low + mask) & ~mask;
        if (x - low < range)
            return (uint32_t)(x - low);
    }
    return 0;
}

uz_result uz__range_enc_flush(uz__range_enc *rc, uz_buf *out)
{
    uz_result res = UZ_OK;
    /* Any value in [low, low + range) identifies the stream, and the decoder reads up to
     * RC_TAIL zeros past the end: that many trailing zero bytes need not be stored. */
    rc->low += flush_delta((uint32_t)rc->low, rc->range);
    for (int i = 0; i < 5 && res == UZ_OK; i++)
        res = shift_low(rc, out);
    for (int i = 0; res == UZ_OK && i < RC_TAIL && out->size > 0 && out->data[out->size - 1] == 0; i++)
        out->size--;
    return res;
}

static uint8_t next_byte(uz_decoder *d)
{
    uint8_t b = d->pos < d->size ? d->data[d->pos] : 0;
    if (d->pos < SIZE_MAX)
        d->pos++;
    d->window = (d->window << 8) | b;
    return b;
}

uz_result uz__range_dec_init(uz_decoder *d)
{
    d->range = 0xFFFFFFFFu;
    d->code = 0;
    d->window = 0;
    for (int i = 0; i < 4; i++)
        d->code = (d->code << 8) | next_byte(d);
    return d->code < d->range ? UZ_OK : UZ_ERR_CORRUPT;
}

uz_result uz__range_dec_get(uz_decoder *d, const uint32_t *freq, int n, uint32_t total, int *symbol)
{
    /* code = value - low stays below range for every stream an encoder can produce. */
    if (d->code >= d->range || d->range < RC_TOP)
        return UZ_ERR_CORRUPT;
    uint32_t r = d->range / total;
    uint32_t v = d->code / r;
    if (v >= total)
        v = total - 1;
    uint32_t cum = 0;
    int s = 0;
    while (s < n - 1 && cum + freq[s] <= v)
        cum += freq[s++];
    /* v < total = sum(freq) guarantees freq[s] > 0 here. */
    d->code -= r * cum;
    if (cum + freq[s] < total)
        d->range = r * freq[s];
    else
        d->range -= r * cum;
    if (d->code >= d->range)
        return UZ_ERR_CORRUPT;
    while (d->range < RC_TOP) {
        d->code = (d->code << 8) | next_byte(d);
        d->range <<= 8;
    }
    if (d->pos > d->size && d->pos - d->size > RC_TAIL) /* past what the encoder can leave out */
        return UZ_ERR_CORRUPT;
    *symbol = s;
    return UZ_OK;
}

uz_result uz__range_dec_finish(const uz_decoder *d)
{
    /* The encoder drops up to RC_TAIL trailing zero bytes, and the last 4 bytes read must be its flush
     * value low + flush_delta, where low = window - code (mod 2^32). Passing means the data
     * is byte for byte the encoding of the symbols decoded. */
    if (d->pos < d->size || d->pos - d->size > RC_TAIL || d->code >= d->range)
        return UZ_ERR_CORRUPT;
    /* Fewer than RC_TAIL bytes left out: the encoder stopped at a nonzero byte. */
    if (d->pos - d->size < RC_TAIL && d->size > 0 && d->data[d->size - 1] == 0)
        return UZ_ERR_CORRUPT;
    uint32_t low = d->window - d->code;
    return d->code == flush_delta(low, d->range) ? UZ_OK : UZ_ERR_CORRUPT;
}
