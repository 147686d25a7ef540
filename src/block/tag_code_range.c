/* Tag version 4's codes, range-coded (doc/format.md, "Coded tags", tag version 4): each
 * coded column's codes, in names order, go through adaptive Elias-gamma models of their
 * own (bit_code.h) in place of varints that a general compressor packs. The models start
 * afresh with every column; the context is whether the column's previous code was a text (0):
 * on the training part of the corpus, finer contexts (by the previous code's bit length) cost
 * small files more than they gained. */
#include <stdlib.h>

#include "block/bit_code.h"
#include "block/record_code.h"
#include "block/tag_code_internal.h"

/* A column's code contexts: its previous code 0 (a text) or not (none before: not). */
enum { CODE_CONTEXTS = 2 };

/* Codes of 2^46 and above (only model 13's long numbers reach them) are two gamma values,
 * the high and the low 32 bits, after an escape bit. */
#define CODE_DIRECT_LIMIT ((uint64_t)1 << 46)

typedef struct column_models {
    uz_gamma_set code[CODE_CONTEXTS];
    uz_bit_model escape;
} column_models;

static unsigned context_of(uint64_t prev) { return prev != 0; }

/* One code of a column (put or get) with its models, *prev its previous code (updated). */
static uz_result code_one(uz_bit_coder *bits, column_models *m, uint64_t *prev, uint64_t *v)
{
    unsigned ctx = context_of(*prev), escape = bits->enc && *v >= CODE_DIRECT_LIMIT;
    uz_result r = uz_bit_code(bits, &m->escape, &escape);
    if (r != UZ_OK)
        return r;
    uz_gamma_set *g = &m->code[ctx];
    if (!escape) {
        uint64_t x = *v + 1;
        if ((r = uz_gamma_code(bits, g->len, g->top, g->low, &x)) != UZ_OK)
            return r;
        *v = x - 1;
    } else {
        uint64_t hi = (*v >> 32) + 1, lo = (*v & 0xffffffffu) + 1;
        if ((r = uz_gamma_code(bits, g->len, g->top, g->low, &hi)) != UZ_OK ||
            (r = uz_gamma_code(bits, g->len, g->top, g->low, &lo)) != UZ_OK)
            return r;
        if (hi - 1 > 0xffffffffu || lo - 1 > 0xffffffffu || hi - 1 < (CODE_DIRECT_LIMIT >> 32))
            return UZ_ERR_CORRUPT; /* (a writer escapes only codes of 2^46 on) */
        *v = (hi - 1) << 32 | (lo - 1);
    }
    *prev = *v;
    return UZ_OK;
}

static void models_reset(column_models *m)
{
    uz_bit_models_init((uz_bit_model *)m, sizeof *m / sizeof(uz_bit_model), UZ_RECORD_CAP);
}

uint64_t uz__tag_codes_cost(const uint64_t *codes, size_t n)
{
    column_models *m = malloc(sizeof *m);
    uint64_t cost = 0, prev = 1;
    uz_bit_coder bits = {NULL, {0}, &cost};
    uz_result r = m ? uz_encoder_create(&bits.enc, UZ_CODER_RANGE) : UZ_ERR_NOMEM;
    if (r == UZ_OK)
        models_reset(m);
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        uint64_t v = codes[i];
        r = code_one(&bits, m, &prev, &v);
    }
    uz_encoder_destroy(bits.enc);
    free(m);
    /* (out of memory: as dear as the varints would be at most, so a model is never chosen for it) */
    return r == UZ_OK ? cost >> 16 : (uint64_t)n * 80;
}

uz_result uz__tag_codes_pack(uz_buf *out, const uz_buf *cols, const uint8_t *model, size_t n_names)
{
    column_models *m = malloc(sizeof *m);
    uint64_t cost = 0;
    uz_bit_coder bits = {NULL, {0}, &cost};
    uz_result r = m ? uz_encoder_create(&bits.enc, UZ_CODER_RANGE) : UZ_ERR_NOMEM;
    for (size_t k = 0; k < n_names && r == UZ_OK; k++) {
        if (model[k] == M_PLAIN)
            continue;
        uz_cursor c = {cols[k].data, cols[k].data + cols[k].size};
        uint64_t prev = 1, v;
        models_reset(m);
        while (c.p != c.end && r == UZ_OK)
            r = uz_cursor_varint(&c, &v) == UZ_OK ? code_one(&bits, m, &prev, &v) : UZ_ERR_CORRUPT;
    }
    const uint8_t *data;
    size_t size;
    if (r == UZ_OK && (r = uz_encoder_finish(bits.enc, &data, &size)) == UZ_OK)
        r = uz_buf_append(out, data, size);
    uz_encoder_destroy(bits.enc);
    free(m);
    return r;
}

uz_result uz__tag_codes_unpack(const uint8_t *data, size_t size, const uint8_t *model, const size_t *count,
                               size_t n_names, uz_buf *cols)
{
    static const uint8_t empty[1];
    column_models *m = malloc(sizeof *m);
    uint64_t cost = 0;
    uz_bit_coder bits = {NULL, {0}, &cost};
    if (!m)
        return UZ_ERR_NOMEM;
    uz_result r = uz_decoder_init(&bits.dec, UZ_CODER_RANGE, size ? data : empty, size) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
    for (size_t k = 0; k < n_names && r == UZ_OK; k++) {
        if (model[k] == M_PLAIN)
            continue;
        uint64_t prev = 1, v = 0;
        models_reset(m);
        for (size_t i = 0; i < count[k] && r == UZ_OK; i++)
            if ((r = code_one(&bits, m, &prev, &v)) == UZ_OK)
                r = uz_buf_put_varint(&cols[k], v);
    }
    if (r == UZ_OK && uz_decoder_finish(&bits.dec) != UZ_OK)
        r = UZ_ERR_CORRUPT;
    free(m);
    return r;
}
