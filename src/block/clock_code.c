/* Clock code: see clock_code.h and doc/format.md ("Clock code"). One function codes each
 * field for both directions (uz_bit_code puts or gets), so the writer and the reader
 * cannot drift apart. */
#include "block/clock_code.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "block/clock_text.h"
#include "chess/board.h"
#include "common/limits.h"

typedef uz_bit_model bit_model;

#define GAMMA_MAX UZ_GAMMA_MAX
#define SPEND_MAG 12 /* contexts by the predicted spend's bit length (0..11) */
#define N_CLASS 8    /* contexts by what the move is and the time left (move_class) */
#define N_CTX (SPEND_MAG * N_CLASS)
#define LEFT_SHARE 16 /* the predicted spend is at most the time left / LEFT_SHARE */

typedef struct gamma_model {
    bit_model len[N_CTX][GAMMA_MAX];
    bit_model top[GAMMA_MAX][4];
    bit_model low[GAMMA_MAX][GAMMA_MAX];
} gamma_model;

/* Every model of a coder: only bit_model arrays (initialised as one array). The spends in
 * tenths come last: their initial state is trained (clock_prior4.inc). */
typedef struct models {
    bit_model is_clock[3];    /* the comment is a clock, by the game's previous comment's (2: none) */
    bit_model whole[3][3];    /* tenths digit 0, by the side's and the other side's previous (2: none) */
    gamma_model spend_secs;   /* whole seconds: the spend in seconds */
    gamma_model spend_first;  /* in tenths: the side's first two clocks (context 0) */
    gamma_model spend_tenths; /* in tenths: the others, by the predicted spend and the move */
} models;

typedef struct side_state {
    bool has_prev;
    int64_t prev_tenths; /* the side's last clock */
    int n_spends;
    int64_t spend[2];    /* the last two spends in tenths, [0] the last */
    int prev_whole;      /* 2 none, else whether the last clock's tenths digit was 0 */
    bool has_first;
    int64_t first_tenths;
} side_state;

/* What the coder takes from the walk of the move a clock follows. */
typedef struct move_facts {
    bool recapture; /* a capture on the square where the previous move captured */
} move_facts;

struct uz_clock_coder {
    uz_bit_coder bits; /* writer (bits.enc) or reader (bits.dec); bits.cost = &cost */
    const uint8_t *data;
    size_t size;
    bool started;      /* reader: dec initialised (on the first comment) */
    uint64_t n_clocks; /* reader: the clocks the stream holds */
    models *m;
    side_state side[2];
    int prev_flag;
    int64_t base, inc; /* the game's TimeControl in seconds (0: none) */
    int prev_capture_to; /* the previous main-line move's capture square, -1 none */
    uz_buf text;
    uz_clock_counts counts;
    uint64_t cost;
};

typedef struct clock_prior {
    uint32_t at; /* the model's index from models.spend_first */
    uint16_t p;
    uint8_t n;
} clock_prior;
#include "block/clock_prior4.inc"

static void init_models(models *m)
{
    bit_model *b = (bit_model *)m;
    size_t tenths_from = offsetof(models, spend_first) / sizeof *b;
    uz_bit_models_init(b, tenths_from, 30);
    uz_bit_models_init(b + tenths_from, sizeof *m / sizeof *b - tenths_from, 120);
    for (size_t i = 0; i < sizeof clock_priors / sizeof clock_priors[0]; i++) {
        bit_model *x = b + tenths_from + clock_priors[i].at;
        x->p = clock_priors[i].p;
        x->n = clock_priors[i].n;
    }
}

static uz_result code_signed(uz_clock_coder *c, gamma_model *g, unsigned ctx, int64_t *s)
{
    uint64_t v = uz_zigzag1(*s);
    uz_result r = uz_gamma_code(&c->bits, g->len[ctx], g->top, g->low, &v);
    if (r == UZ_OK)
        *s = uz_unzigzag1(v);
    return r;
}

/* The context class of a spend (N_CLASS of them): whether the move recaptures (on the
 * square of the previous move's capture: often played at once) and the time left, by the
 * bit length of its tenths in four steps (short of time, players premove). On the training
 * part, split in two (the initial state trained on one half, measured on the other),
 * these two cut 0.09 bits a clock; a forced move, a check evasion, a check, another
 * capture, the number of legal moves or the first 16 plies each cost more to learn than
 * they gave (doc/benchmarks.md, "Clocks coded after the moves"). */
static unsigned move_class(const move_facts *f, int64_t left_tenths)
{
    unsigned bits = uz_bit_length((uint64_t)(left_tenths > 0 ? left_tenths : 0)) / 4;
    return 2 * (bits < 3 ? bits : 3) + f->recapture;
}

/* One clock: whether its tenths digit is 0; then the time spent against the side's last
 * clock plus the increment (its first clock: against the other side's first, else the
 * base), in seconds when the digit is 0, else in tenths, in contexts by the predicted
 * spend and the move. */
static uz_result code_clock(uz_clock_coder *c, int mover, const move_facts *f, uz_clock_value *v)
{
    side_state *st = &c->side[mover], *op = &c->side[1 - mover];
    int64_t ref_tenths = 10 * c->base;
    if (st->has_prev)
        ref_tenths = st->prev_tenths;
    else if (op->has_first)
        ref_tenths = op->first_tenths / 10 * 10;
    unsigned whole = v->tenth == 0;
    uz_result r = uz_bit_code(&c->bits, &c->m->whole[st->prev_whole][op->prev_whole], &whole);
    if (r != UZ_OK)
        return r;
    int64_t pred = uz_clock_predicted_spend(st->n_spends, st->spend, op->n_spends, op->spend[0]);
    int64_t unit = whole ? 10 : 1;
    int64_t ref = ref_tenths / unit + c->inc * (10 / unit);
    int64_t spent = ref - (10 * v->secs + v->tenth) / unit;
    int64_t left = ref_tenths + 10 * c->inc; /* on the side's clock as it thinks */
    if (pred > left / LEFT_SHARE) /* (a spend that would leave little is rarely made) */
        pred = left / LEFT_SHARE;
    unsigned cls = move_class(f, left);
    unsigned mag = pred < 0 ? 0 : uz_bit_length((uint64_t)(pred / unit));
    mag = mag < SPEND_MAG - 1 ? mag : SPEND_MAG - 1;
    /* Whole seconds (Lichess's clocks, the club file's) by the predicted spend alone, in six
     * contexts: with the tenths' contexts, files of few games paid more to learn them than they
     * gave (the club file's training games: 6.94 bits a clock against 6.77). */
    if (whole)
        r = code_signed(c, &c->m->spend_secs, mag / 2, &spent);
    else if (pred < 0)
        r = code_signed(c, &c->m->spend_first, 0, &spent);
    else
        r = code_signed(c, &c->m->spend_tenths, mag * N_CLASS + cls, &spent);
    if (r != UZ_OK)
        return r;
    int64_t t = (ref - spent) * unit;
    if (t < 0 || t / 10 > UZ_CLOCK_MAX_SECS || (!whole && t % 10 == 0))
        return UZ_ERR_CORRUPT;
    v->secs = t / 10;
    v->tenth = (int)(t % 10);
    st->spend[1] = st->spend[0];
    st->spend[0] = ref_tenths + 10 * c->inc - t;
    st->n_spends += st->has_prev;
    st->has_prev = true;
    st->prev_tenths = t;
    st->prev_whole = (int)whole;
    if (!st->has_first) {
        st->has_first = true;
        st->first_tenths = t;
    }
    return UZ_OK;
}

/* Main-line move i of the walk's game, as move_class sees it (moves in order). */
static move_facts facts_of(uz_clock_coder *c, const uz_walk *walk, size_t i)
{
    const uz_position *before = uz_walk_main_before(walk, i);
    uz_move m = walk->steps[walk->main[i]].node->move;
    move_facts f = {false};
    int capture_to = -1;
    if (m != UZ_MOVE_NULL && m != UZ_MOVE_NONE) {
        int to = UZ_MOVE_TO(m);
        bool pawn = UZ_PIECE_TYPE(before->squares[UZ_MOVE_FROM(m)]) == UZ_PAWN;
        if ((before->by_color[1 - before->side] >> to & 1) || (pawn && to == before->ep_square))
            capture_to = to;
    }
    f.recapture = capture_to >= 0 && capture_to == c->prev_capture_to;
    c->prev_capture_to = capture_to;
    return f;
}

static void begin_game(uz_clock_coder *c, const uz_game *game)
{
    c->side[0] = c->side[1] = (side_state){.prev_whole = 2};
    c->prev_flag = 2;
    c->prev_capture_to = -1;
    uz_clock_time_control(game, &c->base, &c->inc);
}

static size_t main_comments(const uz_game *game)
{
    size_t n = 0;
    for (size_t i = 0; i < game->main.n_nodes; i++)
        n += game->main.nodes[i].n_comments;
    return n;
}

/* Whether text is a clock comment the decoder gives back exactly: its value and residual
 * (in c->text). */
static uz_result clock_of(uz_clock_coder *c, const char *text, uz_clock_value *v, bool *is_clock)
{
    *is_clock = false;
    if (!uz_clock_text_residual(text, v, &c->text))
        return UZ_OK;
    uz_buf check = {0};
    uz_result r = uz_clock_text_render(*v, (const char *)c->text.data, c->text.size, &check);
    *is_clock = r == UZ_OK && check.size == strlen(text) && memcmp(check.data, text, check.size) == 0;
    uz_buf_free(&check);
    return r == UZ_ERR_NOMEM ? r : UZ_OK;
}

/* The game's main-line comments, both directions: the writer's current texts in texts
 * (NULL entries: the game's own), the reader's in the game. */
static uz_result code_game(uz_clock_coder *c, const uz_walk *walk, char **texts)
{
    uz_game *game = walk->game;
    begin_game(c, game);
    uz_result r = UZ_OK;
    size_t k = 0;
    for (size_t i = 0; i < game->main.n_nodes && r == UZ_OK; i++) {
        uz_node *nd = &game->main.nodes[i];
        move_facts f = facts_of(c, walk, i);
        int mover = uz_walk_main_before(walk, i)->side;
        for (size_t j = 0; j < nd->n_comments && r == UZ_OK; j++, k++) {
            const char *now = texts && texts[k] ? texts[k] : nd->comments[j];
            uz_clock_value v = {0, 0};
            bool is_clock = false;
            if (c->bits.enc && (r = clock_of(c, now, &v, &is_clock)) != UZ_OK)
                break;
            unsigned flag = is_clock;
            uint64_t before = c->cost;
            r = uz_bit_code(&c->bits, &c->m->is_clock[c->prev_flag], &flag);
            c->counts.cost_flags += c->cost - before;
            c->counts.comments++;
            c->prev_flag = (int)flag;
            if (r != UZ_OK || !flag)
                continue;
            if (!c->bits.enc && c->counts.clocks >= c->n_clocks)
                return UZ_ERR_CORRUPT; /* more than the section says */
            before = c->cost;
            r = code_clock(c, mover, &f, &v);
            c->counts.cost_clocks += c->cost - before;
            c->counts.clocks++;
            if (r != UZ_OK)
                break;
            if (c->bits.enc) {
                char *res = malloc(c->text.size + 1);
                if (!res)
                    return UZ_ERR_NOMEM;
                memcpy(res, c->text.data, c->text.size);
                res[c->text.size] = '\0';
                free(texts[k]);
                texts[k] = res;
                continue;
            }
            /* Reader: the comment holds the residual. */
            if ((r = uz_clock_text_render(v, now, strlen(now), &c->text)) != UZ_OK)
                break;
            if (c->text.size > UZ_LIMIT_TEXT)
                return UZ_ERR_CORRUPT;
            char *text = malloc(c->text.size + 1);
            if (!text)
                return UZ_ERR_NOMEM;
            memcpy(text, c->text.data, c->text.size);
            text[c->text.size] = '\0';
            free(nd->comments[j]);
            nd->comments[j] = text;
        }
    }
    return r;
}

static uz_result create(uz_clock_coder **out)
{
    uz_clock_coder *c = calloc(1, sizeof *c);
    models *m = malloc(sizeof *m);
    if (!c || !m) {
        free(c);
        free(m);
        return UZ_ERR_NOMEM;
    }
    c->m = m;
    init_models(m);
    c->bits.cost = &c->cost;
    *out = c;
    return UZ_OK;
}

uz_result uz_clock_writer_create(uz_clock_coder **out)
{
    uz_result r = create(out);
    if (r == UZ_OK && (r = uz_encoder_create(&(*out)->bits.enc, UZ_CODER_RANGE)) != UZ_OK) {
        uz_clock_coder_destroy(*out);
        *out = NULL;
    }
    return r;
}

uz_result uz_clock_reader_create(uz_clock_coder **out, const uint8_t *data, size_t size, uint64_t n_clocks)
{
    uz_result r = create(out);
    if (r == UZ_OK) {
        (*out)->data = data;
        (*out)->size = size;
        (*out)->n_clocks = n_clocks;
    }
    return r;
}

void uz_clock_coder_destroy(uz_clock_coder *c)
{
    if (!c)
        return;
    uz_encoder_destroy(c->bits.enc);
    uz_buf_free(&c->text);
    free(c->m);
    free(c);
}

uz_result uz_clock_encode_game(uz_clock_coder *c, const uz_walk *walk, char ***texts, size_t *n_texts)
{
    const uz_game *game = walk->game;
    size_t total = main_comments(game);
    if (game->verbatim || game->text_only || total == 0)
        return UZ_OK;
    if (!walk->has_final || walk->n_main != game->main.n_nodes || (*texts && *n_texts != total))
        return UZ_ERR_ARG;
    if (!*texts) {
        if (!(*texts = calloc(total, sizeof **texts)))
            return UZ_ERR_NOMEM;
        *n_texts = total;
    }
    return code_game(c, walk, *texts);
}

uz_result uz_clock_decode_game(uz_clock_coder *c, const uz_walk *walk)
{
    const uz_game *game = walk->game;
    if (c->size == 0 || game->verbatim || game->text_only || main_comments(game) == 0)
        return UZ_OK;
    if (!walk->has_final || walk->n_main != game->main.n_nodes)
        return UZ_ERR_CORRUPT;
    if (!c->started) {
        if (uz_decoder_init(&c->bits.dec, UZ_CODER_RANGE, c->data, c->size) != UZ_OK)
            return UZ_ERR_CORRUPT;
        c->started = true;
    }
    return code_game(c, walk, NULL);
}

uz_result uz_clock_coder_finish(uz_clock_coder *c, uz_buf *out)
{
    if (!c->bits.enc)
        return c->counts.clocks == c->n_clocks &&
                       (c->size == 0 || (c->started && uz_decoder_finish(&c->bits.dec) == UZ_OK))
                   ? UZ_OK
                   : UZ_ERR_CORRUPT;
    if (!c->counts.clocks) /* a block without a clock stores no stream */
        return UZ_OK;
    const uint8_t *data;
    size_t size;
    uz_result r = uz_encoder_finish(c->bits.enc, &data, &size);
    return r == UZ_OK ? uz_buf_append(out, data, size) : r;
}

uz_clock_counts uz_clock_coder_counts(const uz_clock_coder *c)
{
    return c->counts;
}

uz_bit_model *uz_clock_prior_models(uz_clock_coder *c, size_t *count)
{
    *count = (sizeof *c->m - offsetof(models, spend_first)) / sizeof(bit_model);
    return &c->m->spend_first.len[0][0];
}
