/* Structure versions 4 and 5's range-coded records: see record_code.h. */
#include "block/record_code.h"

#include <stdlib.h>
#include <string.h>

#include "block/block_internal.h"

_Static_assert(sizeof(uz_record_models) == UZ_RECORD_N_MODELS * sizeof(uz_bit_model),
               "the record models are frozen with record_prior5.inc: a new layout is a new structure version");
_Static_assert(UZ_RECORD_N_MODELS <= 65536, "record_prior5.inc's indexes are 16 bits");

typedef struct record_text {
    size_t len;
    const char *bytes;
} record_text;
typedef struct record_prior {
    uint16_t at; /* the model's index in uz_record_models */
    uint16_t p;
    uint8_t n;
} record_prior;
#include "block/record_prior5.inc"
_Static_assert(sizeof record_texts / sizeof record_texts[0] == UZ_RECORD_N_TEXTS, "record_prior5.inc's text records");

void uz_record_models_prior(uz_record_models *m)
{
    uz_bit_model *b = (uz_bit_model *)m;
    for (size_t i = 0; i < sizeof record_priors / sizeof record_priors[0]; i++) {
        b[record_priors[i].at].p = record_priors[i].p;
        b[record_priors[i].at].n = record_priors[i].n;
    }
}

static uz_result init_models(uz_record_coder *c, unsigned version, unsigned check_bits)
{
    memset(c, 0, sizeof *c);
    if (check_bits > UZ_RECORD_MAX_CHECK_BITS)
        return UZ_ERR_CORRUPT;
    c->m = malloc(sizeof *c->m);
    if (!c->m)
        return UZ_ERR_NOMEM;
    uz_bit_models_init((uz_bit_model *)c->m, sizeof *c->m / sizeof(uz_bit_model), UZ_RECORD_CAP);
    if (version >= 5)
        uz_record_models_prior(c->m);
    c->bits.cost = &c->cost;
    c->version = version;
    c->check_bits = check_bits;
    return UZ_OK;
}

uz_result uz_record_writer_init(uz_record_coder *c, unsigned version, unsigned check_bits)
{
    uz_result r = init_models(c, version, check_bits);
    if (r == UZ_OK)
        r = uz_encoder_create(&c->bits.enc, UZ_CODER_RANGE);
    if (r != UZ_OK)
        uz_record_coder_free(c);
    return r;
}

uz_result uz_record_reader_init(uz_record_coder *c, unsigned version, unsigned check_bits, const uint8_t *code,
                                size_t size)
{
    static const uint8_t empty[1];
    uz_result r = init_models(c, version, check_bits);
    if (r == UZ_OK && uz_decoder_init(&c->bits.dec, UZ_CODER_RANGE, code ? code : empty, size) != UZ_OK)
        r = UZ_ERR_CORRUPT;
    if (r != UZ_OK)
        uz_record_coder_free(c);
    return r;
}

uz_result uz_record_finish(uz_record_coder *c, uz_buf *out)
{
    if (!c->bits.enc)
        return uz_decoder_finish(&c->bits.dec) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
    const uint8_t *data;
    size_t size;
    uz_result r = uz_encoder_finish(c->bits.enc, &data, &size);
    return r == UZ_OK ? uz_buf_append(out, data, size) : r;
}

void uz_record_coder_free(uz_record_coder *c)
{
    uz_encoder_destroy(c->bits.enc);
    uz_encoder_destroy(c->train.enc);
    free(c->m);
    free(c->succ);
    memset(c, 0, sizeof *c);
}

uz_result uz_record_train(uz_record_coder *c, uz_record_training *t)
{
    c->train_m = t->models;
    c->train.cost = &t->cost;
    return uz_encoder_create(&c->train.enc, UZ_CODER_RANGE);
}

/* The training models' counterpart of a model or model set of c->m. */
static void *trained(const uz_record_coder *c, const void *model)
{
    return (char *)c->train_m + ((const char *)model - (const char *)c->m);
}

/* A gamma code with set g (and, training, the same value with the training set). */
static uz_result gamma_code(uz_record_coder *c, uz_gamma_set *g, uint64_t *x)
{
    uz_result r = uz_gamma_code(&c->bits, g->len, g->top, g->low, x);
    if (r == UZ_OK && c->train_m) {
        uz_gamma_set *t = trained(c, g);
        uint64_t y = *x;
        r = uz_gamma_code(&c->train, t->len, t->top, t->low, &y);
    }
    return r;
}

uz_result uz_record_bit(uz_record_coder *c, uz_bit_model *m, unsigned *bit)
{
    uz_result r = uz_bit_code(&c->bits, m, bit);
    if (r == UZ_OK && c->train_m)
        r = uz_bit_code(&c->train, trained(c, m), bit);
    return r;
}

uz_result uz_record_count(uz_record_coder *c, uz_gamma_set *g, uint64_t max, uint64_t *v)
{
    uint64_t x = *v + 1;
    uz_result r = gamma_code(c, g, &x);
    if (r != UZ_OK)
        return r;
    if (x - 1 > max)
        return UZ_ERR_CORRUPT; /* (a writer's values are within max: the caller checks) */
    *v = x - 1;
    return UZ_OK;
}

/* The successor table holds states 0..n: grown (with "none") as a writer's names appear. */
static uz_result succ_reserve(uz_record_coder *c, size_t n)
{
    if (n < c->n_succ)
        return UZ_OK;
    size_t cap = c->n_succ ? c->n_succ : 32;
    while (cap <= n)
        cap *= 2;
    uint32_t *s = realloc(c->succ, cap * sizeof *s);
    if (!s)
        return UZ_ERR_NOMEM;
    for (size_t i = c->n_succ; i < cap; i++)
        s[i] = UINT32_MAX;
    c->succ = s;
    c->n_succ = cap;
    return UZ_OK;
}

uz_result uz_record_tag_name(uz_record_coder *c, uint32_t *state, size_t n_names, uint64_t *v)
{
    uz_result r = succ_reserve(c, *state);
    if (r != UZ_OK)
        return r;
    uint32_t pred = c->succ[*state];
    if (pred == UINT32_MAX && c->version >= 5) /* names are numbered in first use: the next new one */
        pred = c->names_seen + 1;
    unsigned hit = c->bits.enc ? pred == *v : 0;
    if (pred != UINT32_MAX && (r = uz_record_bit(c, &c->m->tag_hit[pred == 0], &hit)) != UZ_OK)
        return r;
    if (hit && pred > n_names)
        return UZ_ERR_CORRUPT; /* (a reader's: a writer's names are all in the names section) */
    if (hit)
        *v = pred;
    else if ((r = uz_record_count(c, &c->m->tag_name, n_names, v)) != UZ_OK || *v == pred)
        return r != UZ_OK ? r : UZ_ERR_CORRUPT; /* a prediction missed is not coded as itself */
    if (*v > c->names_seen)
        c->names_seen = (uint32_t)*v;
    c->succ[*state] = (uint32_t)*v;
    *state = (uint32_t)*v;
    return UZ_OK;
}

uz_result uz_record_moves_len(uz_record_coder *c, uint64_t moves, uint64_t *len)
{
    /* The block's bytes per move so far (rounded), or half a byte a move at first. */
    uint64_t pred = c->sum_moves ? (c->sum_len * moves + c->sum_moves / 2) / c->sum_moves : moves / 2;
    unsigned ctx = uz_bit_length(pred);
    if (ctx >= UZ_RECORD_LEN_CONTEXTS)
        ctx = UZ_RECORD_LEN_CONTEXTS - 1;
    uint64_t v = c->bits.enc ? uz_zigzag1((int64_t)*len - (int64_t)pred) : 0;
    uz_gamma_set *g = &c->m->moves_len[ctx];
    uz_result r = gamma_code(c, g, &v);
    if (r != UZ_OK)
        return r;
    /* pred <= 2^30 * 2^20 (the sum is checked below) and |s| < 2^47: no overflow. */
    int64_t got = (int64_t)pred + uz_unzigzag1(v);
    if (got < 0 || got > ((int64_t)1 << 30) || c->sum_len + (uint64_t)got > ((uint64_t)1 << 30))
        return UZ_ERR_CORRUPT; /* the block's move streams hold at most 2^30 bytes */
    *len = (uint64_t)got;
    c->sum_len += *len;
    c->sum_moves += moves;
    return UZ_OK;
}

uz_result uz_record_text(uz_record_coder *c, const uint8_t **rec, size_t *len, uz_buf *text_out, uz_cursor *text_in)
{
    uint64_t v = UZ_RECORD_N_TEXTS + 1; /* (structure version 4: always the next of the section, not coded) */
    for (uint64_t k = 0; c->bits.enc && c->version >= 5 && k <= UZ_RECORD_N_TEXTS; k++) {
        const uint8_t *t = k ? (const uint8_t *)record_texts[k - 1].bytes : c->prev_text;
        size_t n = k ? record_texts[k - 1].len : c->prev_text_len;
        if (t && n == *len && memcmp(t, *rec, n) == 0) {
            v = k;
            break;
        }
    }
    uz_result r = c->version >= 5 ? uz_record_count(c, &c->m->text_rec, UZ_RECORD_N_TEXTS + 1, &v) : UZ_OK;
    if (r != UZ_OK)
        return r;
    if (v == 0 && !c->prev_text)
        return UZ_ERR_CORRUPT;
    if (c->bits.enc) {
        if (v == UZ_RECORD_N_TEXTS + 1 && (r = uz_buf_append(text_out, *rec, *len)) != UZ_OK)
            return r;
    } else if (v == 0) {
        *rec = c->prev_text, *len = c->prev_text_len;
    } else if (v <= UZ_RECORD_N_TEXTS) {
        *rec = (const uint8_t *)record_texts[v - 1].bytes, *len = record_texts[v - 1].len;
    } else {
        *rec = text_in->p;
        if (uz__game_text_skip(text_in) != UZ_OK)
            return UZ_ERR_CORRUPT;
        *len = (size_t)(text_in->p - *rec);
    }
    c->prev_text = *rec;
    c->prev_text_len = *len;
    return UZ_OK;
}

uz_result uz_record_check(uz_record_coder *c, uint32_t *crc)
{
    static const uint32_t half[2] = {2048, 2048};
    uint32_t got = 0;
    for (unsigned i = c->check_bits; i-- > 0;) {
        int bit = c->bits.enc ? (int)(*crc >> i) & 1 : 0;
        uz_result r = c->bits.enc ? uz_encoder_put(c->bits.enc, half, 2, 4096, bit)
                                  : uz_decoder_get(&c->bits.dec, half, 2, 4096, &bit) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
        if (r != UZ_OK)
            return r;
        got |= (uint32_t)bit << i;
        c->cost += 65536;
    }
    if (!c->bits.enc)
        *crc = got;
    return UZ_OK;
}
