/* Position-dependent engine comments (TCEC): see engine_code.h and doc/format.md
 * ("Engine comment code"). One set of functions binarises every field for both
 * directions (code_bit puts or gets), so the writer and the reader cannot drift apart. */
#include "block/engine_code.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/engine_code_internal.h"
#include "builtin/builtin.h"
#include "common/limits.h"

static const char *const key_name[N_KEYS] = {"d",  "sd", "pd", "mt", "tl", "s",   "n",  "pv", "tb",
                                             "h",  "ph", "wv", "ev", "R50", "Rd", "Rr", "mb"};
_Static_assert(N_KEYS == UZ_ENGINE_KEYS, "the keys counted");

const char *uz_engine_code_key(int k) { return k >= 0 && k < N_KEYS ? key_name[k] : "?"; }

/* ---- text helpers shared by both directions ---- */

/* The next key at or after i: a known name followed by '=', at the start or after ' ' or
 * ','. Returns the key and sets *at to its first byte, or -1. */
static int find_key(const char *s, size_t len, size_t i, size_t *at)
{
    for (; i < len; i++) {
        if (i > 0 && s[i - 1] != ' ' && s[i - 1] != ',')
            continue;
        for (int k = 0; k < N_KEYS; k++) {
            size_t kl = strlen(key_name[k]);
            if (i + kl < len && memcmp(s + i, key_name[k], kl) == 0 && s[i + kl] == '=') {
                *at = i;
                return k;
            }
        }
    }
    return -1;
}

/* A value runs to the next ',' (or the end). */
static size_t value_end(const char *s, size_t len, size_t i)
{
    while (i < len && s[i] != ',')
        i++;
    return i;
}

/* A number "[-]digits[.decimals]" printed canonically (no leading zero, no "-0"). */
static bool parse_number(const char *s, size_t len, int64_t *value, int *decimals)
{
    size_t i = 0;
    bool neg = len > 0 && s[0] == '-';
    i += neg;
    size_t d0 = i;
    int64_t x = 0;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i - d0 < MAX_DIGITS)
        x = 10 * x + (s[i++] - '0');
    size_t nd = i - d0;
    if (nd == 0 || (nd > 1 && s[d0] == '0'))
        return false;
    int k = 0;
    if (i < len && s[i] == '.') {
        i++;
        while (i < len && s[i] >= '0' && s[i] <= '9' && k < MAX_DECIMALS) {
            x = 10 * x + (s[i++] - '0');
            k++;
        }
        if (k == 0)
            return false;
    }
    if (i != len || (neg && x == 0) || x > MAX_VALUE)
        return false;
    *value = neg ? -x : x;
    *decimals = k;
    return true;
}

static const int64_t pow10_of[4] = {1, 10, 100, 1000};

static int print_number(char *out, size_t cap, int64_t value, int decimals)
{
    uint64_t a = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    int n = snprintf(out, cap, "%s%llu", value < 0 ? "-" : "", (unsigned long long)(a / (uint64_t)pow10_of[decimals]));
    if (decimals)
        n += snprintf(out + n, cap - (size_t)n, ".%0*llu", decimals, (unsigned long long)(a % (uint64_t)pow10_of[decimals]));
    return n;
}

/* The material balance after a move, "+P+N+B+R+Q" (White minus Black, each signed). */
static void material(const uz_position *pos, char *out, size_t cap)
{
    int n = 0;
    for (int t = UZ_PAWN; t <= UZ_QUEEN; t++) {
        int w = __builtin_popcountll(pos->by_type[t] & pos->by_color[UZ_WHITE]);
        int b = __builtin_popcountll(pos->by_type[t] & pos->by_color[UZ_BLACK]);
        n += snprintf(out + n, cap - (size_t)n, "%+d", w - b);
    }
}

/* ---- the fields ---- */

/* Revision 2: whether n is coded as speed x search time, the time against mt: the
 * comment has s and mt, 0 < s < 10^10 and 0 <= mt < 10^8. */
static bool nodes_by_time(const coder *c)
{
    return c->revision >= 2 && c->cur_has[K_S] && c->cur_has[K_MT] && c->cur[K_S] > 0 && c->cur[K_S] < 10000000000 &&
           c->cur[K_MT] >= 0 && c->cur[K_MT] < SEARCH_TIME_MAX;
}

static int64_t predict(const coder *c, const context *x, int side, int key)
{
    const side_state *own = &c->side[side], *opp = &c->side[1 - side];
    switch (key) {
    case K_TL:
        if (own->has[K_TL])
            return own->last[K_TL] - (c->cur_has[K_MT] ? c->cur[K_MT] : 0) + c->inc_ms;
        /* (revision 1 left the first move's increment out) */
        return c->base_ms - (c->cur_has[K_MT] ? c->cur[K_MT] : 0) + (c->revision >= 2 ? c->inc_ms : 0);
    case K_N:
        /* nodes = speed x time (in ms); the product only where it cannot overflow */
        if (c->cur_has[K_S] && c->cur_has[K_MT] && c->cur[K_S] >= 0 && c->cur[K_S] < 10000000000 && c->cur[K_MT] >= 0 &&
            c->cur[K_MT] < 100000000)
            return c->cur[K_S] * c->cur[K_MT] / 1000;
        break;
    case K_SD:
        if (c->cur_has[K_D])
            return c->cur[K_D] + (own->has[K_SD] && own->has[K_D] ? own->last[K_SD] - own->last[K_D] : 0);
        break;
    case K_D:
        if (!own->has[K_D] && opp->has[K_D])
            return opp->last[K_D];
        break;
    case K_WV:
    case K_EV:
        if (c->revision >= 2 && own->has[key]) /* the side's own last evaluation is the closer */
            return own->last[key];
        return c->has_eval[key] ? c->last_eval[key] : 0;
    case K_R50:
        return 50 - (x->after->halfmove + 1) / 2;
    case K_PH:
        /* revision 2: the share of the side's ponder moves that were played, in 0.1 % */
        if (c->revision >= 2)
            return own->ponder_moves ? 1000 * own->ponder_hits / own->ponder_moves : 0;
        break;
    default:
        break;
    }
    return own->has[key] ? own->last[key] : 0;
}

/* A number: its decimals (two bits), then its value minus the prediction. */
static uz_result code_number(coder *c, const context *x, int side, int key, int64_t *value, int *decimals)
{
    side_state *own = &c->side[side];
    unsigned hi = (unsigned)*decimals >> 1, lo = (unsigned)*decimals & 1;
    uz_result r;
    if ((r = code_bit(c, &c->m.prec[key][0], &hi)) != UZ_OK || (r = code_bit(c, &c->m.prec[key][1 + hi], &lo)) != UZ_OK)
        return r;
    *decimals = (int)(2 * hi + lo);
    if (*decimals > MAX_DECIMALS)
        return UZ_ERR_CORRUPT;
    if (key == K_PH && c->revision >= 2 && c->has_pd) { /* this comment's pd counts */
        own->ponder_moves++;
        own->ponder_hits += c->cur_pd[0] && strcmp(c->cur_pd, x->last_san) == 0; /* ("" matches nothing) */
    }
    int64_t pred = predict(c, x, side, key), d;
    if (key == K_N && *decimals == 0 && nodes_by_time(c)) {
        /* Revision 2: n = s x t ÷ 1000 + a small rest, t the engine's search time in ms, which
         * is mt or a few ms off: the writer's t is n x 1000 / s rounded (mt when out of range). */
        int64_t s = c->cur[K_S], mt = c->cur[K_MT], t = mt;
        if (c->bits.enc && *value >= 0) {
            int64_t t_est = (*value * 1000 + s / 2) / s;
            if (t_est < SEARCH_TIME_MAX)
                t = t_est;
        }
        int64_t dt = t - mt;
        if ((r = code_signed(c, &c->m.search_time, &own->v_search_time, &dt)) != UZ_OK)
            return r;
        t = mt + dt;
        if (t < 0 || t >= SEARCH_TIME_MAX)
            return UZ_ERR_CORRUPT;
        pred = s * t / 1000;
    }
    d = *value - pred;
    if ((r = code_signed(c, &c->m.num[key], &own->v[key], &d)) != UZ_OK)
        return r;
    *value = pred + d;
    if (*value < -MAX_VALUE || *value > MAX_VALUE)
        return UZ_ERR_CORRUPT;
    own->has[key] = true;
    own->last[key] = *value;
    c->cur[key] = *value;
    c->cur_has[key] = true;
    if (key == K_WV || key == K_EV) {
        c->last_eval[key] = *value;
        c->has_eval[key] = true;
    }
    return UZ_OK;
}

/* One field's value. Writer: *literal and the value given (text in val, len n); reader:
 * both decoded and the value's text appended to out. */
typedef struct field {
    int key;
    bool literal;
    const char *text;
    size_t len;
} field;

static uz_result code_field_value(coder *c, const context *x, int side, field *f, uz_buf *out)
{
    side_state *own = &c->side[side];
    int key = f->key;
    unsigned lit = f->literal;
    uz_result r = code_bit(c, &c->m.literal[key][own->lit[key]], &lit);
    if (r != UZ_OK)
        return r;
    f->literal = lit;
    own->lit[key] = (int)lit;
    if (key == K_PV && lit)
        own->has_pv = false;
    if (lit)
        return UZ_OK;
    char num[64];
    if (key == K_PV) {
        uz_move pv[MAX_PV];
        size_t len = 0;
        uint64_t *saved = c->bits.cost;
        c->bits.cost = &c->counts.cost_pv;
        if (c->bits.enc && !uz__pv_parse(x->before, f->text, f->len, pv, &len))
            return UZ_ERR_ARG;
        r = uz__pv_code(c, x, side, pv, &len);
        c->bits.cost = saved;
        if (r != UZ_OK)
            return r;
        uz__pv_keep(own, x, pv, len);
        return out ? uz__pv_print(x->before, pv, len, out) : UZ_OK;
    }
    if (key == K_PD) /* coded: the side's previous variation's second move */
        return out ? uz_buf_append(out, c->pd, strlen(c->pd)) : UZ_OK;
    if (key == K_MB) {
        material(x->after, num, sizeof num);
        return out ? uz_buf_append(out, num, strlen(num)) : UZ_OK;
    }
    int64_t value = 0;
    int decimals = 0;
    if (c->bits.enc && !parse_number(f->text, f->len, &value, &decimals))
        return UZ_ERR_ARG;
    if ((r = code_number(c, x, side, key, &value, &decimals)) != UZ_OK)
        return r;
    return out ? uz_buf_append(out, num, (size_t)print_number(num, sizeof num, value, decimals)) : UZ_OK;
}

/* code_field_value, its cost counted to its key (for reports). */
static uz_result code_field(coder *c, const context *x, int side, field *f, uz_buf *out)
{
    uint64_t before = c->counts.cost_fields + c->counts.cost_pv;
    uz_result r = code_field_value(c, x, side, f, out);
    c->counts.cost_key[f->key] += c->counts.cost_fields + c->counts.cost_pv - before;
    c->counts.n_key[f->key]++;
    return r;
}

/* Whether the writer can code the value of a field (else it stays in the residual). */
static bool codable(const coder *c, const context *x, int key, const char *s, size_t len)
{
    char num[64];
    int64_t v;
    int d;
    uz_move pv[MAX_PV];
    size_t n;
    switch (key) {
    case K_PV:
        return uz__pv_parse(x->before, s, len, pv, &n);
    case K_PD:
        return c->pd[0] && strlen(c->pd) == len && memcmp(c->pd, s, len) == 0;
    case K_MB:
        material(x->after, num, sizeof num);
        return strlen(num) == len && memcmp(num, s, len) == 0;
    default:
        return parse_number(s, len, &v, &d) && print_number(num, sizeof num, v, d) == (int)len &&
               memcmp(num, s, len) == 0;
    }
}

/* ---- comments ---- */

/* A pd field's value (coded: the ponder prediction; literal: its text), for ph. */
static void note_pd(coder *c, const field *f, const char *literal, size_t len)
{
    if (f->key != K_PD)
        return;
    c->has_pd = true;
    if (!f->literal)
        snprintf(c->cur_pd, sizeof c->cur_pd, "%s", c->pd);
    else if (len < sizeof c->cur_pd) {
        memcpy(c->cur_pd, literal, len);
        c->cur_pd[len] = 0;
    } else
        c->cur_pd[0] = 0;
}

/* Writer: the comment's fields and residual; false when it has no key. The reader's
 * rebuild is checked against the text before anything is coded. */
static bool split(const coder *c, const context *x, const char *text, size_t len, field *fields, size_t *n_fields,
                  uz_buf *residual)
{
    size_t i = 0, at, n = 0;
    int key;
    residual->size = 0;
    while ((key = find_key(text, len, i, &at)) >= 0) {
        size_t vs = at + strlen(key_name[key]) + 1, ve = value_end(text, len, vs);
        bool lit = !codable(c, x, key, text + vs, ve - vs);
        if (n == 64 || uz_buf_append(residual, text + i, (lit ? ve : vs) - i) != UZ_OK)
            return false;
        fields[n++] = (field){key, lit, text + vs, ve - vs};
        i = ve;
    }
    if (n == 0 || uz_buf_append(residual, text + i, len - i) != UZ_OK)
        return false;
    /* The reader's view of the residual: the same keys in the same places. */
    size_t k = 0;
    i = 0;
    while ((key = find_key((const char *)residual->data, residual->size, i, &at)) >= 0) {
        if (k == n || fields[k].key != key)
            return false;
        size_t vs = at + strlen(key_name[key]) + 1;
        i = fields[k].literal ? value_end((const char *)residual->data, residual->size, vs) : vs;
        if (fields[k].literal && (i - vs != fields[k].len || memcmp(residual->data + vs, fields[k].text, fields[k].len)))
            return false;
        k++;
    }
    *n_fields = n;
    return k == n;
}

/* Reader: the comment from its residual, every field decoded where the residual names it. */
static uz_result rebuild(coder *c, const context *x, int side, const char *res, size_t len, uz_buf *out)
{
    size_t i = 0, at;
    int key;
    out->size = 0;
    while ((key = find_key(res, len, i, &at)) >= 0) {
        size_t vs = at + strlen(key_name[key]) + 1;
        field f = {key, false, NULL, 0};
        uz_result r = uz_buf_append(out, res + i, vs - i);
        if (r == UZ_OK)
            r = code_field(c, x, side, &f, out);
        if (r != UZ_OK)
            return r;
        i = vs;
        size_t ve = f.literal ? value_end(res, len, vs) : vs;
        note_pd(c, &f, res + vs, ve - vs);
        if (f.literal) {
            if ((r = uz_buf_append(out, res + vs, ve - vs)) != UZ_OK)
                return r;
            i = ve;
        }
        if (out->size > UZ_LIMIT_TEXT)
            return UZ_ERR_CORRUPT;
    }
    return uz_buf_append(out, res + i, len - i);
}

/* "base+inc" in seconds (1 to 9 decimal digits each, nothing else): both in ms. */
static void parse_time_control(coder *c, const char *tc)
{
    int64_t v[2] = {0, 0};
    const char *p = tc;
    for (int k = 0; k < 2; k++) {
        const char *d = p;
        while (*p >= '0' && *p <= '9' && p - d < 9)
            v[k] = 10 * v[k] + (*p++ - '0');
        if (p == d || (k == 0 ? *p++ != '+' : *p != 0))
            return;
    }
    c->base_ms = v[0] * 1000;
    c->inc_ms = v[1] * 1000;
}

/* The per-comment state: no field yet, the ponder prediction fixed. */
static void begin_comment(coder *c, int side)
{
    memset(c->cur_has, 0, sizeof c->cur_has);
    c->has_pd = false;
    snprintf(c->pd, sizeof c->pd, "%s", c->side[side].has_pv ? c->side[side].pv1 : "");
}

/* The game's state. c comes zeroed from calloc (a coder serves one game), so the two
 * 512 KiB position tables, the sides and the evaluations are not cleared again: that
 * second clearing was 1.6 % of compress's instructions on engine games. */
static void begin_game(coder *c, const uz_game *game)
{
    init_models(&c->m);
    for (int s = 0; s < 2; s++) {
        c->side[s].prev_coded = 2;
        for (int k = 0; k < N_KEYS; k++)
            c->side[s].lit[k] = 2;
    }
    for (size_t i = 0; i < game->n_tags; i++)
        if (strcmp(game->tags[i].name, "TimeControl") == 0) {
            parse_time_control(c, game->tags[i].value);
            break;
        }
    c->bits.cost = &c->counts.cost_flags;
}


/* The main line's moves, NULL when it holds a null move (not coded). */
static uz_move *main_moves(const uz_game *game)
{
    uz_move *mv = malloc((game->main.n_nodes ? game->main.n_nodes : 1) * sizeof *mv);
    for (size_t i = 0; mv && i < game->main.n_nodes; i++) {
        mv[i] = game->main.nodes[i].move;
        if (mv[i] == UZ_MOVE_NULL) {
            free(mv);
            return NULL;
        }
    }
    return mv;
}

static size_t main_comments(const uz_game *game)
{
    size_t n = 0;
    for (size_t i = 0; i < game->main.n_nodes; i++)
        n += game->main.nodes[i].n_comments;
    return n;
}

bool uz_engine_code_wanted(const uz_game *game)
{
    size_t at;
    for (size_t i = 0; !game->verbatim && !game->text_only && i < game->main.n_nodes; i++)
        for (size_t j = 0; j < game->main.nodes[i].n_comments; j++) {
            const char *s = game->main.nodes[i].comments[j];
            if (find_key(s, strlen(s), 0, &at) >= 0)
                return true;
        }
    return false;
}

/* The comment's flag (coded, or left as text), in both directions; a coded comment's
 * fields follow, so their state starts here. */
static uz_result code_flag(coder *c, int side, unsigned *coded)
{
    c->counts.comments++;
    c->bits.cost = &c->counts.cost_flags;
    uz_result r = code_bit(c, &c->m.coded[side][c->side[side].prev_coded], coded);
    if (r != UZ_OK)
        return r;
    c->side[side].prev_coded = (int)*coded;
    if (*coded) {
        c->counts.coded++;
        begin_comment(c, side);
        c->bits.cost = &c->counts.cost_fields;
    }
    return UZ_OK;
}

/* Writer: a comment's flag and fields; *kept is its residual (NULL when not coded). */
static uz_result encode_comment(coder *c, const context *x, int side, const char *text, char **kept, uz_buf *residual)
{
    field fields[64];
    size_t n_fields = 0;
    begin_comment(c, side);
    unsigned coded = split(c, x, text, strlen(text), fields, &n_fields, residual);
    uz_result r = code_flag(c, side, &coded);
    for (size_t f = 0; r == UZ_OK && coded && f < n_fields; f++) {
        r = code_field(c, x, side, &fields[f], NULL);
        note_pd(c, &fields[f], fields[f].text, fields[f].len);
    }
    if (r != UZ_OK || !coded)
        return r;
    if (!(*kept = malloc(residual->size + 1)))
        return UZ_ERR_NOMEM;
    memcpy(*kept, residual->data, residual->size);
    (*kept)[residual->size] = 0;
    return UZ_OK;
}

/* Reader: a comment's flag and, when coded, the comment rebuilt from its residual
 * (*comment, replaced). */
static uz_result decode_comment(coder *c, const context *x, int side, char **comment, uz_buf *text)
{
    unsigned coded = 0;
    uz_result r = code_flag(c, side, &coded);
    if (r != UZ_OK || !coded)
        return r;
    if ((r = rebuild(c, x, side, *comment, strlen(*comment), text)) != UZ_OK)
        return r;
    if (memchr(text->data, 0, text->size))
        return UZ_ERR_CORRUPT;
    char *s = malloc(text->size + 1);
    if (!s)
        return UZ_ERR_NOMEM;
    memcpy(s, text->data, text->size);
    s[text->size] = 0;
    free(*comment);
    *comment = s;
    return UZ_OK;
}

/* Both directions: the main line's comments in order, each with the positions around
 * its move. The writer keeps each coded comment's residual in kept[] (one slot per
 * comment); the reader replaces the comments it decodes. */
static uz_result code_main_line(coder *c, const uz_walk *walk, const uz_move *mv, char **kept)
{
    uz_game *game = walk->game;
    uz_buf buf = {0}; /* the writer's residual, the reader's rebuilt text */
    uz_result r = UZ_OK;
    begin_game(c, game);
    uz__pv_fill_game_tt(c, mv, walk);
    size_t k = 0;
    char last_san[UZ_SAN_MAX] = ""; /* of the move before node i (revision 2) */
    for (size_t i = 0; i < game->main.n_nodes && r == UZ_OK; i++) {
        uz_node *nd = &game->main.nodes[i];
        context x = {mv, game->main.n_nodes, i, uz_walk_main_before(walk, i), uz_walk_main_after(walk, i), last_san};
        int side = x.before->side;
        for (size_t j = 0; j < nd->n_comments && r == UZ_OK; j++, k++)
            r = c->bits.enc ? encode_comment(c, &x, side, nd->comments[j], &kept[k], &buf)
                            : decode_comment(c, &x, side, &nd->comments[j], &buf);
        if (c->revision >= 2)
            uz_san_format(x.before, mv[i], last_san);
    }
    uz_buf_free(&buf);
    return r;
}

static void add_counts(uz_engine_code_counts *to, const uz_engine_code_counts *from)
{
    to->comments += from->comments;
    to->coded += from->coded;
    to->pv_moves += from->pv_moves;
    to->cost_pv += from->cost_pv;
    to->cost_fields += from->cost_fields;
    to->cost_flags += from->cost_flags;
    to->cost_pv_stop += from->cost_pv_stop;
    to->cost_pv_hit += from->cost_pv_hit;
    to->cost_pv_rank += from->cost_pv_rank;
    to->pv_ranked += from->pv_ranked;
    for (int k = 0; k < N_KEYS; k++) {
        to->cost_key[k] += from->cost_key[k];
        to->n_key[k] += from->n_key[k];
    }
}

uz_result uz_engine_code_encode(const uz_walk *walk, unsigned revision, uz_buf *out, char ***residuals,
                                size_t *n_residuals, uz_engine_code_counts *counts)
{
    const uz_game *game = walk->game;
    *residuals = NULL;
    *n_residuals = 0;
    size_t total = main_comments(game);
    if (game->verbatim || game->text_only || total == 0)
        return UZ_OK;
    uz_move *mv = main_moves(game);
    if (!mv)
        return UZ_OK;
    coder *c = calloc(1, sizeof *c);
    char **res = calloc(total, sizeof *res);
    uz_result r = UZ_ERR_NOMEM;
    if (!c || !res || uz_encoder_create(&c->bits.enc, UZ_CODER_RANGE) != UZ_OK)
        goto out;
    c->revision = uz_engine_revision(revision);
    r = code_main_line(c, walk, mv, res);
    if (r == UZ_OK && c->counts.coded) {
        const uint8_t *data;
        size_t size;
        if ((r = uz_encoder_finish(c->bits.enc, &data, &size)) == UZ_OK)
            r = uz_buf_append(out, data, size);
    }
    if (r == UZ_OK && c->counts.coded) {
        *residuals = res;
        *n_residuals = total;
        res = NULL;
    }
    if (r == UZ_OK && counts)
        add_counts(counts, &c->counts);
out:
    for (size_t i = 0; res && i < total; i++)
        free(res[i]);
    free(res);
    if (c) {
        uz_encoder_destroy(c->bits.enc);
        uz_builtin_destroy(c->searcher);
    }
    free(c);
    free(mv);
    return r;
}

uz_result uz_engine_code_decode(const uz_walk *walk, unsigned revision, const uint8_t *data, size_t size,
                                uz_engine_code_counts *counts)
{
    const uz_game *game = walk->game;
    if (size == 0)
        return UZ_OK;
    if (game->verbatim || game->text_only || main_comments(game) == 0 || !walk->has_final)
        return UZ_ERR_CORRUPT;
    uz_move *mv = main_moves(game);
    if (!mv)
        return UZ_ERR_CORRUPT;
    coder *c = calloc(1, sizeof *c);
    uz_result r = UZ_ERR_NOMEM;
    if (!c)
        goto out;
    c->revision = uz_engine_revision(revision);
    r = UZ_ERR_CORRUPT;
    if (uz_decoder_init(&c->bits.dec, UZ_CODER_RANGE, data, size) != UZ_OK)
        goto out;
    r = code_main_line(c, walk, mv, NULL);
    if (r == UZ_OK && (c->counts.coded == 0 || uz_decoder_finish(&c->bits.dec) != UZ_OK))
        r = UZ_ERR_CORRUPT;
    if (r == UZ_OK && counts)
        add_counts(counts, &c->counts);
out:
    if (c)
        uz_builtin_destroy(c->searcher);
    free(c);
    free(mv);
    return r;
}
