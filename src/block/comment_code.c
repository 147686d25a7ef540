/* Coded comments: see comment_code.h and doc/format.md ("Coded comments"). One set of
 * functions binarises every field for both directions (code_bit puts or gets), so the
 * writer and the reader cannot drift apart. */
#include "block/comment_code.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "block/bit_code.h"
#include "block/clock_text.h"
#include "block/cutechess_code.h"
#include "common/limits.h"

enum kind { KIND_TEXT, KIND_CLOCK, KIND_ENGINE, KIND_BOOK };

#define CLOCK_OPEN "[%clk "
#define MAX_CLOCK_SECS UZ_CLOCK_MAX_SECS
#define N_SLOTS 3
#define SPEND_MAG 12   /* clock, revision 3: contexts by the predicted spend's bit length */

/* ---- adaptive binary models ---- */

/* Every bit_model adapts at rate 1 / (n + 1.5) with n capped (block/bit_code.h): at 120
 * for engine comments (0.6% smaller than 30 on cutechess self-play), 30 for kinds and
 * revisions 1 and 2's clocks (which change more from game to game: 120 was 7% larger on a
 * file of club games), 120 for revision 3's clocks (1% smaller than 30 on the chess.com
 * clock files). */
typedef uz_bit_model bit_model;

/* Elias-gamma binarisation (uz_gamma_code) in UZ_GAMMA_SET24_CTX contexts. */
typedef uz_gamma_set24 gamma_model;

/* Every model of a coder: only bit_model arrays (initialised as one array). */
typedef struct models {
    bit_model kind[2][5][3]; /* by first comment of its move or not, the slot's previous kind (4: none) */
    gamma_model spent;     /* clock: whole seconds spent */
    bit_model tenth_flag[3][3]; /* clock: tenths digit != 0, by slot kind and previous digit */
    bit_model tenth[16];   /* clock: the digit - 1, four bits as a binary tree */
    /* (the engine comments' models and revision 3's clocks from here on: cap 120) */
    uz_cute_models eng;    /* engine comments (cutechess_code.h) */
    /* Revision 3 clocks: whether a clock is in whole seconds and its spend in whole seconds
     * (cap 30, as revision 1's), then the spends in tenths (cap 120, initial state from
     * clock_prior.inc) */
    bit_model whole[3][3];  /* tenths digit 0, by the slot's and the other side's previous (2: none) */
    gamma_model spend_secs; /* in seconds, by the slot's previous such value */
    gamma_model spend_first; /* in tenths: the slot's first two clocks */
    gamma_model spend_tenths; /* in tenths: the others, by the predicted spend */
} models;

typedef struct clock_state {
    bool has_prev;
    int64_t prev_secs;
    uint64_t prev_v;   /* the previous coded value (for the context) */
    int prev_tenth;    /* 0 none, 1 zero, 2 non-zero */
    bool has_first;
    int64_t first_secs;
    /* Revision 3: the clock in tenths, the last two spends in tenths, the last tenths digit. */
    int64_t prev_tenths;
    int n_spends;
    int64_t spend[2];  /* [0] the last */
    int prev_whole;    /* 2 none, else whether the last clock's tenths digit was 0 */
} clock_state;

/* The fields of one coded comment. */
typedef struct fields {
    int kind;
    int64_t secs;      /* clock: whole seconds */
    int tenth;         /* clock: 0..9 */
    uz_cute_fields eng; /* engine, book */
} fields;

struct uz_comment_coder {
    unsigned revision; /* of the models: 1 (structure versions 1, 2) or 2 (structure version 3) */
    uz_bit_coder bits; /* writer (bits.enc) or reader (bits.dec); bits.cost = &cost */
    const uint8_t *data;
    size_t size;
    bool started;      /* reader: dec initialised (on the first comment) */
    models m;
    int prev_kind[N_SLOTS];
    clock_state clk[N_SLOTS];
    uz_cute_side eng[N_SLOTS];
    uz_cute_choice eval_choice;
    int64_t base, inc; /* TimeControl in seconds, 0 when absent or not "base[+inc]" */
    uz_buf text;       /* the residual (writer) or the comment (reader) handed out */
    uz_comment_counts counts;
    uint64_t cost;     /* of the comment being coded, in 1/65536 bit */
};

/* Revision 3's clocks in tenths start from a frozen state (clock_prior.inc), so that a file
 * of a few games codes them about as well as a long one: each entry a model's p and n (n
 * at most 30: the models still adapt to the block's players). Whole seconds have none:
 * trained on the tenths files' few whole clocks, the whole-second models (the digit's bit
 * too) made the club file's clocks 3-10 % larger. */
typedef struct clock_prior {
    uint32_t at; /* the model's index from models.spend_first */
    uint16_t p;
    uint8_t n;
} clock_prior;
#include "block/clock_prior.inc"

static void init_models(models *m, unsigned revision)
{
    bit_model *b = (bit_model *)m;
    size_t engine_from = offsetof(models, eng) / sizeof *b; /* the engine comments' models come last, */
    size_t secs_from = offsetof(models, whole) / sizeof *b, tenths_from = offsetof(models, spend_first) / sizeof *b;
    uz_bit_models_init(b, sizeof *m / sizeof *b, 120);
    uz_bit_models_init(b, engine_from, 30);
    uz_bit_models_init(b + secs_from, tenths_from - secs_from, 30); /* but revision 3's whole seconds */
    if (revision >= 3)
        for (size_t i = 0; i < sizeof clock_priors / sizeof clock_priors[0]; i++) {
            bit_model *x = &m->spend_first.len[0][0] + clock_priors[i].at;
            x->p = clock_priors[i].p;
            x->n = clock_priors[i].n;
        }
}

static uz_result code_bit(uz_comment_coder *c, bit_model *m, unsigned *bit) { return uz_bit_code(&c->bits, m, bit); }

static uz_result code_gamma(uz_comment_coder *c, gamma_model *g, unsigned ctx, uint64_t *v)
{
    return uz_gamma_code(&c->bits, g->len[ctx], g->top, g->low, v);
}

/* A signed value as zigzag + 1 (0, -1, 1, -2, ... as 1, 2, 3, 4, ...) in context ctx. */
static uz_result code_signed_at(uz_comment_coder *c, gamma_model *g, unsigned ctx, int64_t *s)
{
    uint64_t v = uz_zigzag1(*s);
    uz_result r = code_gamma(c, g, ctx, &v);
    if (r == UZ_OK)
        *s = uz_unzigzag1(v);
    return r;
}

/* A signed value as zigzag + 1 (0, -1, 1, -2, ... as 1, 2, 3, 4, ...); *prev_v, the
 * previous value coded this way, picks the context (with first) and is updated. */
static uz_result code_signed(uz_comment_coder *c, gamma_model *g, unsigned extra, unsigned n_extra, uint64_t *prev_v,
                             int64_t *s)
{
    return uz_signed_code(&c->bits, g, extra, n_extra, prev_v, s);
}

/* ---- the fields of each kind ---- */

/* By the slot's previous kind and whether the comment is its move's first. */
static uz_result code_kind(uz_comment_coder *c, int slot, bool later, int *kind)
{
    bit_model *m = c->m.kind[later][c->prev_kind[slot]];
    unsigned coded = *kind != KIND_TEXT, other = *kind != KIND_CLOCK, book = *kind == KIND_BOOK;
    uz_result r = code_bit(c, &m[0], &coded);
    if (r == UZ_OK && coded)
        r = code_bit(c, &m[1], &other);
    if (r == UZ_OK && coded && other)
        r = code_bit(c, &m[2], &book);
    if (r != UZ_OK)
        return r;
    *kind = !coded ? KIND_TEXT : !other ? KIND_CLOCK : book ? KIND_BOOK : KIND_ENGINE;
    c->prev_kind[slot] = *kind;
    return UZ_OK;
}

/* The clock as the time spent in whole seconds: the slot's previous clock (for its first
 * clock, the other side's first clock, else the base time) minus this one plus the
 * increment; then the tenths digit. */
static uz_result code_clock(uz_comment_coder *c, int slot, fields *f)
{
    clock_state *st = &c->clk[slot];
    int64_t ref = c->base;
    if (st->has_prev)
        ref = st->prev_secs;
    else if (slot != UZ_CC_OTHER && c->clk[1 - slot].has_first)
        ref = c->clk[1 - slot].first_secs;
    int64_t spent = ref - f->secs + c->inc;
    uz_result r = code_signed(c, &c->m.spent, !st->has_prev, 2, &st->prev_v, &spent);
    if (r != UZ_OK)
        return r;
    f->secs = ref + c->inc - spent;
    if (f->secs < 0 || f->secs > MAX_CLOCK_SECS)
        return UZ_ERR_CORRUPT;
    unsigned nonzero = f->tenth != 0;
    if ((r = code_bit(c, &c->m.tenth_flag[slot][st->prev_tenth], &nonzero)) != UZ_OK)
        return r;
    if (nonzero) {
        unsigned x = 1;
        for (int i = 3; i >= 0; i--) {
            unsigned b = c->bits.enc ? (unsigned)(f->tenth - 1) >> i & 1 : 0;
            if ((r = code_bit(c, &c->m.tenth[x], &b)) != UZ_OK)
                return r;
            x = 2 * x + b;
        }
        if (x - 16 > 8)
            return UZ_ERR_CORRUPT;
        f->tenth = (int)(x - 16) + 1;
    } else
        f->tenth = 0;
    st->has_prev = true;
    st->prev_secs = f->secs;
    st->prev_tenth = nonzero ? 2 : 1;
    if (!st->has_first) {
        st->has_first = true;
        st->first_secs = f->secs;
    }
    return UZ_OK;
}

/* Revision 3: the clock as the time spent against the same reference as revision 1,
 * first whether the tenths digit is 0 (Lichess's whole seconds, or chance). If it is, the
 * spend in whole seconds (from the reference rounded down) as revision 1 codes it; else
 * the spend in tenths, so that the digit and the seconds are coded together (quick moves
 * cost a few tenths), in contexts by the predicted spend's bit length. (Contexts by the
 * time left, the move number or the base time cost more to learn than they gave on the
 * corpus.) */
static uz_result code_clock_tenths(uz_comment_coder *c, int slot, fields *f)
{
    clock_state *st = &c->clk[slot];
    const clock_state *op = slot != UZ_CC_OTHER ? &c->clk[1 - slot] : NULL;
    int64_t ref_tenths = 10 * c->base;
    if (st->has_prev)
        ref_tenths = st->prev_tenths;
    else if (op && op->has_first)
        ref_tenths = 10 * op->first_secs;
    unsigned whole = f->tenth == 0;
    uz_result r = code_bit(c, &c->m.whole[st->prev_whole][op ? op->prev_whole : 2], &whole);
    if (r != UZ_OK)
        return r;
    /* (the slot's next spend in tenths predicted from its last two and the other side's last) */
    int64_t pred = op ? uz_clock_predicted_spend(st->n_spends, st->spend, op->n_spends, op->spend[0])
                      : uz_clock_predicted_spend(st->n_spends, st->spend, 0, 0);
    int64_t unit = whole ? 10 : 1;
    int64_t ref = ref_tenths / unit + c->inc * (10 / unit);
    int64_t spent = ref - (10 * f->secs + f->tenth) / unit;
    if (whole) /* as revision 1 codes the seconds: by the slot's previous such value */
        r = code_signed(c, &c->m.spend_secs, pred < 0, 2, &st->prev_v, &spent);
    else if (pred < 0)
        r = code_signed_at(c, &c->m.spend_first, 0, &spent);
    else {
        unsigned mag = uz_bit_length((uint64_t)(pred / unit));
        r = code_signed_at(c, &c->m.spend_tenths, mag < SPEND_MAG - 1 ? mag : SPEND_MAG - 1, &spent);
    }
    if (r != UZ_OK)
        return r;
    int64_t t = (ref - spent) * unit;
    if (t < 0 || t / 10 > MAX_CLOCK_SECS || (!whole && t % 10 == 0))
        return UZ_ERR_CORRUPT;
    f->secs = t / 10;
    f->tenth = (int)(t % 10);
    st->spend[1] = st->spend[0];
    st->spend[0] = ref_tenths + 10 * c->inc - t;
    st->n_spends += st->has_prev;
    st->has_prev = true;
    st->prev_tenths = t;
    st->prev_secs = f->secs;
    st->prev_whole = (int)whole;
    if (!st->has_first) {
        st->has_first = true;
        st->first_secs = f->secs;
    }
    return UZ_OK;
}

static uz_result code_fields_of_kind(uz_comment_coder *c, int slot, bool later, fields *f)
{
    uz_result r = code_kind(c, slot, later, &f->kind);
    if (r != UZ_OK)
        return r;
    c->counts.comments++;
    if (f->kind == KIND_CLOCK) {
        c->counts.clocks++;
        return c->revision >= 3 ? code_clock_tenths(c, slot, f) : code_clock(c, slot, f);
    }
    if (f->kind == KIND_ENGINE) {
        c->counts.engine++;
        return uz_cute_code(&c->bits, &c->m.eng, c->revision, &c->eval_choice, &c->eng[slot],
                            slot != UZ_CC_OTHER ? &c->eng[1 - slot] : NULL, &f->eng);
    }
    c->counts.engine += f->kind == KIND_BOOK;
    return UZ_OK;
}

/* The kind and fields of one comment, their cost added to the kind's. */
static uz_result code_fields(uz_comment_coder *c, int slot, bool later, fields *f)
{
    c->cost = 0;
    uz_result r = code_fields_of_kind(c, slot, later, f);
    if (f->kind == KIND_CLOCK)
        c->counts.cost_clocks += c->cost;
    else if (f->kind == KIND_TEXT)
        c->counts.cost_text += c->cost;
    else
        c->counts.cost_engine += c->cost;
    return r;
}

/* ---- print rules and parsing ---- */

/* The comment from its fields and residual, into out. Clock: the residual's first
 * placeholder replaced by "[%clk H:MM:SS]", ".d" after SS when d != 0. Engine: the
 * evaluation ("+1.25", "-0.05", "0.00", "+M5", "-M3"), "/depth ", the time with its
 * decimals and "s", then the residual. Book: "book" then the residual. */
static uz_result render(const fields *f, const char *res, size_t len, uz_buf *out)
{
    out->size = 0;
    if (f->kind == KIND_CLOCK)
        return uz_clock_text_render((uz_clock_value){f->secs, f->tenth}, res, len, out);
    uz_cute_fields eng = f->eng; /* (a reader's fields: the kind decoded says whether book) */
    eng.book = f->kind == KIND_BOOK;
    return uz_cute_render(&eng, res, len, out);
}

/* A clock: its fields and the residual in c->text. The print check happens later. */
static bool parse_clock(uz_comment_coder *c, const char *text, fields *f)
{
    uz_clock_value v;
    if (!uz_clock_text_residual(text, &v, &c->text))
        return false;
    f->kind = KIND_CLOCK;
    f->secs = v.secs;
    f->tenth = v.tenth;
    return true;
}

/* An engine comment or "book" (uz_cute_scan): its kind; where its residual starts, or NULL. */
static const char *scan_engine(const char *text, fields *f)
{
    const char *p = uz_cute_scan(text, &f->eng);
    f->kind = f->eng.book ? KIND_BOOK : KIND_ENGINE;
    return p;
}

/* An engine comment: its fields and the residual in c->text. */
static bool parse_engine(uz_comment_coder *c, const char *text, fields *f)
{
    const char *p = scan_engine(text, f);
    if (!p)
        return false;
    c->text.size = 0;
    return uz_buf_append(&c->text, p, strlen(p)) == UZ_OK;
}

/* ---- the interface ---- */

bool uz_comment_engine_wanted(const uz_game *game)
{
    fields f;
    for (size_t i = 0; !game->verbatim && !game->text_only && i < game->main.n_nodes; i++)
        for (size_t j = 0; j < game->main.nodes[i].n_comments; j++)
            if (scan_engine(game->main.nodes[i].comments[j], &f) && f.kind == KIND_ENGINE)
                return true;
    return false;
}

bool uz_comment_clock_wanted(const uz_game *game)
{
    for (size_t i = 0; !game->verbatim && !game->text_only && i < game->main.n_nodes; i++)
        for (size_t j = 0; j < game->main.nodes[i].n_comments; j++)
            if (strstr(game->main.nodes[i].comments[j], CLOCK_OPEN))
                return true;
    return false;
}

static uz_result create(uz_comment_coder **out, unsigned revision)
{
    uz_comment_coder *c = calloc(1, sizeof *c);
    if (!c)
        return UZ_ERR_NOMEM;
    c->revision = revision;
    init_models(&c->m, revision);
    c->bits.cost = &c->cost;
    *out = c;
    return UZ_OK;
}

uz_result uz_comment_writer_create(uz_comment_coder **out, unsigned revision)
{
    uz_result r = create(out, revision);
    if (r == UZ_OK && (r = uz_encoder_create(&(*out)->bits.enc, UZ_CODER_RANGE)) != UZ_OK) {
        free(*out);
        *out = NULL;
    }
    return r;
}

uz_result uz_comment_reader_create(uz_comment_coder **out, unsigned revision, const uint8_t *data, size_t size)
{
    uz_result r = create(out, revision);
    if (r == UZ_OK) {
        (*out)->data = data;
        (*out)->size = size;
    }
    return r;
}

void uz_comment_coder_destroy(uz_comment_coder *c)
{
    if (!c)
        return;
    uz_encoder_destroy(c->bits.enc);
    uz_buf_free(&c->text);
    free(c);
}

void uz_comment_coder_begin_game(uz_comment_coder *c, const uz_game *game)
{
    for (int s = 0; s < N_SLOTS; s++) {
        c->prev_kind[s] = 4;
        c->clk[s] = (clock_state){.prev_whole = 2};
        c->eng[s] = uz_cute_side_init();
    }
    uz_clock_time_control(game, &c->base, &c->inc);
}

uz_result uz_comment_encode(uz_comment_coder *c, int slot, size_t index, const char *text, const char **residual,
                            size_t *len)
{
    fields f = {0};
    size_t n = strlen(text);
    uz_buf check = {0};
    uz_result r = UZ_OK;
    /* The kind whose print rule gives the text back, else text. */
    if (!parse_clock(c, text, &f) && !parse_engine(c, text, &f))
        f.kind = KIND_TEXT;
    if (f.kind != KIND_TEXT &&
        ((r = render(&f, (const char *)c->text.data, c->text.size, &check)) != UZ_OK || check.size != n ||
         memcmp(check.data, text, n) != 0))
        f.kind = KIND_TEXT;
    uz_buf_free(&check);
    if (r == UZ_ERR_NOMEM)
        return r;
    if (f.kind == KIND_TEXT) {
        c->text.size = 0;
        if ((r = uz_buf_append(&c->text, text, n)) != UZ_OK)
            return r;
    }
    if ((r = code_fields(c, slot, index != 0, &f)) != UZ_OK)
        return r;
    *residual = c->text.size ? (const char *)c->text.data : "";
    *len = c->text.size;
    return UZ_OK;
}

uz_result uz_comment_decode(uz_comment_coder *c, int slot, size_t index, const char *residual, size_t len,
                            const char **text, size_t *text_len)
{
    *text = NULL;
    if (c->size == 0) { /* an empty stream: every comment of the block is text */
        c->counts.comments++;
        return UZ_OK;
    }
    if (!c->started) {
        if (uz_decoder_init(&c->bits.dec, UZ_CODER_RANGE, c->data, c->size) != UZ_OK)
            return UZ_ERR_CORRUPT;
        c->started = true;
    }
    fields f = {0};
    uz_result r = code_fields(c, slot, index != 0, &f);
    if (r != UZ_OK)
        return r;
    if (f.kind == KIND_TEXT)
        return UZ_OK;
    if ((r = render(&f, residual, len, &c->text)) != UZ_OK)
        return r;
    if (c->text.size > UZ_LIMIT_TEXT)
        return UZ_ERR_CORRUPT;
    *text = (const char *)c->text.data;
    *text_len = c->text.size;
    return UZ_OK;
}

uz_result uz_comment_coder_finish(uz_comment_coder *c, uz_buf *out)
{
    if (!c->bits.enc) /* (a non-empty stream must have served a comment, coded or not) */
        return c->size == 0 ? UZ_OK
                            : c->started && uz_decoder_finish(&c->bits.dec) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
    /* A block without a coded comment stores no stream: its comments cost nothing more
     * than in structure version 0. */
    if (!c->counts.clocks && !c->counts.engine)
        return UZ_OK;
    const uint8_t *data;
    size_t size;
    uz_result r = uz_encoder_finish(c->bits.enc, &data, &size);
    return r == UZ_OK ? uz_buf_append(out, data, size) : r;
}

uz_comment_counts uz_comment_coder_counts(const uz_comment_coder *c)
{
    return c->counts;
}

uz_bit_model *uz_comment_clock_models(uz_comment_coder *c, size_t *count)
{
    *count = (sizeof c->m - offsetof(models, spend_first)) / sizeof(bit_model);
    return &c->m.spend_first.len[0][0];
}
