/* Tag version 4's codes, range-coded (doc/format.md, "Coded tags", tag version 4): each
 * coded column's codes, in names order, go through adaptive Elias-gamma models of their
 * own (bit_code.h) in place of varints that a general compressor packs. The models start
 * afresh with every column; the context is whether the column's previous code was a text (0):
 * on the training part of the corpus, finer contexts (by the previous code's bit length) cost
 * small files more than they gained. Tag version 5's identifiers (M_TOKEN) follow their code:
 * the length, then each character as six binary decisions down a tree of adaptive models, so a
 * random base-62 identifier costs its 5.95 bits a character (a packer, seeing it as text, spent
 * about 7). */
#include <stdlib.h>
#include <string.h>

#include "block/bit_code.h"
#include "block/record_code.h"
#include "block/tag_code_internal.h"

/* A column's code contexts: its previous code 0 (a text) or not (none before: not). */
enum { CODE_CONTEXTS = 2, TOKEN_CAP = 255 };

/* Codes of 2^46 and above (only model 13's long numbers reach them) are two gamma values,
 * the high and the low 32 bits, after an escape bit. */
#define CODE_DIRECT_LIMIT ((uint64_t)1 << 46)

typedef struct column_models {
    uz_gamma_set code[CODE_CONTEXTS];
    uz_bit_model escape;
    uz_gamma_set token_len;                 /* M_TOKEN: the identifier's length */
    uz_bit_model token_tree[TOKEN_SYMBOLS]; /* ... its symbols, node 1 the root, node i's children 2i and 2i + 1 */
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

/* M_TOKEN's identifier after a code that is not 0 (put or get): its length, then its symbols
 * as varints in col (a writer reads them from *cur, a reader appends them to col). */
static uz_result code_token(uz_bit_coder *bits, column_models *m, uz_cursor *cur, uz_buf *col)
{
    uint64_t len = 0;
    uz_result r = UZ_OK;
    if (bits->enc && (uz_cursor_varint(cur, &len) != UZ_OK || len == 0 || len > TOKEN_MAX))
        return UZ_ERR_CORRUPT;
    if ((r = uz_gamma_code(bits, m->token_len.len, m->token_len.top, m->token_len.low, &len)) != UZ_OK)
        return r;
    if (len > TOKEN_MAX)
        return UZ_ERR_CORRUPT;
    if (!bits->enc && (r = uz_buf_put_varint(col, len)) != UZ_OK)
        return r;
    for (uint64_t i = 0; i < len; i++) {
        uint64_t sym = 0;
        if (bits->enc && (uz_cursor_varint(cur, &sym) != UZ_OK || sym >= TOKEN_SYMBOLS))
            return UZ_ERR_CORRUPT;
        unsigned node = 1;
        for (int b = 5; b >= 0; b--) {
            unsigned bit = (unsigned)(sym >> b) & 1;
            if ((r = uz_bit_code(bits, &m->token_tree[node], &bit)) != UZ_OK)
                return r;
            node = 2 * node + bit;
        }
        if (!bits->enc && (r = uz_buf_put_varint(col, node - TOKEN_SYMBOLS)) != UZ_OK)
            return r;
    }
    return UZ_OK;
}

/* One item of a column of model mo (put from *cur, or got into col): its code, then for
 * M_TOKEN's codes that are not 0 the identifier. */
static uz_result code_item(uz_bit_coder *bits, column_models *m, unsigned mo, uint64_t *prev, uz_cursor *cur,
                           uz_buf *col)
{
    uint64_t v = 0;
    uz_result r;
    if (bits->enc && uz_cursor_varint(cur, &v) != UZ_OK)
        return UZ_ERR_CORRUPT;
    if ((r = code_one(bits, m, prev, &v)) != UZ_OK)
        return r;
    if (!bits->enc && (r = uz_buf_put_varint(col, v)) != UZ_OK)
        return r;
    return mo == M_TOKEN && v != 0 ? code_token(bits, m, cur, col) : UZ_OK;
}

static void models_reset(column_models *m)
{
    uz_bit_models_init((uz_bit_model *)m, sizeof *m / sizeof(uz_bit_model), UZ_RECORD_CAP);
    /* An identifier's characters are nearly uniform: their models average over more of them. */
    uz_bit_models_init(m->token_tree, TOKEN_SYMBOLS, TOKEN_CAP);
}

uint64_t uz__tag_codes_cost(const uz_buf *col, unsigned mo)
{
    column_models *m = malloc(sizeof *m);
    uint64_t cost = 0, prev = 1;
    uz_bit_coder bits = {NULL, {0}, &cost};
    uz_cursor cur = {col->data, col->data + col->size};
    uz_result r = m ? uz_encoder_create(&bits.enc, UZ_CODER_RANGE) : UZ_ERR_NOMEM;
    if (r == UZ_OK)
        models_reset(m);
    while (cur.p != cur.end && r == UZ_OK)
        r = code_item(&bits, m, mo, &prev, &cur, NULL);
    uz_encoder_destroy(bits.enc);
    free(m);
    /* (out of memory: as dear as the varints would be at most, so a model is never chosen for it) */
    return r == UZ_OK ? cost >> 16 : (uint64_t)col->size * 80;
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
        uint64_t prev = 1;
        models_reset(m);
        while (c.p != c.end && r == UZ_OK)
            r = code_item(&bits, m, model[k], &prev, &c, NULL);
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
        uint64_t prev = 1;
        models_reset(m);
        for (size_t i = 0; i < count[k] && r == UZ_OK; i++)
            r = code_item(&bits, m, model[k], &prev, NULL, &cols[k]);
    }
    if (r == UZ_OK && uz_decoder_finish(&bits.dec) != UZ_OK)
        r = UZ_ERR_CORRUPT;
    free(m);
    return r;
}

const char uz__token_alphabet[TOKEN_SYMBOLS + 1] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_";

int uz__token_symbol(int ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'A' && ch <= 'Z')
        return 10 + ch - 'A';
    if (ch >= 'a' && ch <= 'z')
        return 36 + ch - 'a';
    return ch == '-' ? 62 : ch == '_' ? 63 : -1;
}

size_t uz__token_length(const char *value)
{
    size_t n = strlen(value), len = 0;
    while (len < n && uz__token_symbol((unsigned char)value[n - 1 - len]) >= 0)
        len++;
    return len <= TOKEN_MAX ? len : 0;
}
