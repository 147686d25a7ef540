/* Coded tags: see tag_code.h and doc/format.md, "Coded tags". Writer and reader share
 * one coder: the models' state (recent names, players' last ratings, the previous date of
 * a column) evolves value by value in game order, so both sides see the same state. */
#include "block/tag_code.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/tag_code_internal.h"
#include "block/tag_prior.h"
#include "chess/board.h"
#include "codec/fixed.h"
#include "common/hash.h"
#include "common/limits.h"

static bool has_param(unsigned m)
{
    return m == M_COPY || m == M_LASTPART || m == M_ELO || m == M_DATE || m == M_TIME || m == M_PAIRDIFF;
}
static bool has_param2(unsigned m) { return m == M_PAIRDIFF; }

typedef struct recent {
    const char *s; /* borrowed from a game's tag value, which outlives the coder, or a template the coder owns */
    int64_t rating;
} recent;

typedef struct coder {
    const char *const *name_text; /* the block's tag names */
    size_t n_names;
    unsigned tag_version;
    uint8_t *model;    /* per name */
    uint32_t *param;   /* per name: the other name it refers to (n_names: none) */
    uint32_t *param2;  /* per name: M_PAIRDIFF's second name */
    size_t white_k, black_k; /* the names `White` and `Black` (n_names: none), M_TEMPLATE's roles */
    size_t eco_k;            /* the name `ECO` (n_names: none) */
    const uz_game *eco_game; /* the game whose first ECO value eco is (eco_of: one lookup a game) */
    const char *eco;
    const char **tail_prefix; /* per name: M_NUMTAIL's last text before the number (borrowed) ... */
    size_t *tail_len;         /* ... and its length; the number is in prev */
    char **owned;             /* the templates the lists hold */
    size_t n_owned, cap_owned;

    int64_t *prev;     /* per name: the last value a DATE or TIME column coded */
    uint8_t *has_prev;
    size_t *seen_game; /* per name: game number + 1 where it was last seen ... */
    size_t *seen_pos;  /* ... and its position among that game's tags */
    recent names[RECENT], players[RECENT];
    size_t n_recent_names, n_players;
    struct recent_list {     /* per name: its own recent values (model RECENT), grown as used */
        recent *e;
        size_t n, cap;
    } *lists;
    int64_t last_elo;
    bool has_last_elo;
    size_t final_game; /* game number + 1 of the last value M_FINAL took (one per game) */
    size_t derived_game, n_derived; /* the writer's derived values (pgn.h) in game number derived_game - 1 */
    char *head;                     /* the writer's last M_MOVETAIL template (the text it stores) */
    uint64_t *bytes_left;           /* the reader's budget of decoded tag bytes (uz_tag_coding; NULL: none) */
    const char *token;              /* the writer's last M_TOKEN identifier (in the value) ... */
    size_t token_len;               /* ... and its length (0: none) */
} coder;

static void free_owned(coder *c)
{
    for (size_t i = 0; i < c->n_owned; i++)
        free(c->owned[i]);
    c->n_owned = 0;
}

static void coder_free(coder *c)
{
    for (size_t k = 0; c->lists && k < c->n_names; k++)
        free(c->lists[k].e);
    free_owned(c);
    free(c->owned);
    free(c->head);
    free(c->lists);
    free(c->model);
    free(c->param);
    free(c->param2);
    free(c->tail_prefix);
    free(c->tail_len);
    free(c->prev);
    free(c->has_prev);
    free(c->seen_game);
    free(c->seen_pos);
}

static uz_result coder_init(coder *c, const char *const *names, size_t n_names, unsigned tag_version)
{
    memset(c, 0, sizeof *c);
    size_t n = n_names ? n_names : 1;
    c->name_text = names;
    c->n_names = n_names;
    c->tag_version = tag_version;
    c->white_k = c->black_k = c->eco_k = n_names;
    for (size_t k = 0; k < n_names; k++) {
        if (strcmp(names[k], "White") == 0)
            c->white_k = k;
        if (strcmp(names[k], "ECO") == 0)
            c->eco_k = k;
        if (strcmp(names[k], "Black") == 0)
            c->black_k = k;
    }
    c->model = calloc(n, sizeof *c->model);
    c->param = calloc(n, sizeof *c->param);
    c->param2 = calloc(n, sizeof *c->param2);
    c->tail_prefix = calloc(n, sizeof *c->tail_prefix);
    c->tail_len = calloc(n, sizeof *c->tail_len);
    c->prev = calloc(n, sizeof *c->prev);
    c->has_prev = calloc(n, sizeof *c->has_prev);
    c->seen_game = calloc(n, sizeof *c->seen_game);
    c->seen_pos = calloc(n, sizeof *c->seen_pos);
    c->lists = calloc(n, sizeof *c->lists);
    if (!c->model || !c->param || !c->param2 || !c->tail_prefix || !c->tail_len || !c->prev || !c->has_prev ||
        !c->seen_game || !c->seen_pos || !c->lists) {
        coder_free(c);
        return UZ_ERR_NOMEM;
    }
    return UZ_OK;
}

static uz_result list_put(struct recent_list *l, const char *s);

/* Tag version 2: the recent lists of the names with model 10 or 12 (version 3: also 15 and
 * 16) start as the name's priors, entry 0 first (the priors are static: the lists borrow them). */
static uz_result seed_priors(coder *c)
{
    uz_result r = UZ_OK;
    for (size_t k = 0; k < c->n_names && c->tag_version >= 2 && r == UZ_OK; k++) {
        size_t n = 0;
        unsigned m = c->model[k];
        bool listed = m == M_RECENT || m == M_TEMPLATE || m == M_ECO || m == M_OPENING;
        const char *const *prior = listed ? uz__tag_prior(c->name_text[k], &n) : NULL;
        while (n > 0 && r == UZ_OK)
            r = list_put(&c->lists[k], prior[--n]);
    }
    return r;
}

/* Resets the state between two trial runs of the writer (the models stay). */
static uz_result coder_reset(coder *c)
{
    memset(c->has_prev, 0, c->n_names ? c->n_names : 1);
    memset(c->seen_game, 0, (c->n_names ? c->n_names : 1) * sizeof *c->seen_game);
    c->n_recent_names = c->n_players = 0;
    c->has_last_elo = false;
    c->final_game = c->derived_game = 0;
    for (size_t k = 0; k < c->n_names; k++)
        c->lists[k].n = 0;
    free_owned(c);
    return seed_priors(c);
}

static int recent_find(const recent *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(list[i].s, s) == 0)
            return (int)i;
    return -1;
}

/* Moves s to the front of the list (inserting it, the oldest entry dropping out of a
 * full list). */
static void recent_put(recent *list, size_t *n, const char *s, int64_t rating)
{
    int i = recent_find(list, *n, s);
    size_t from = i >= 0 ? (size_t)i : (*n < RECENT ? (*n)++ : RECENT - 1);
    memmove(list + 1, list, from * sizeof *list);
    list[0] = (recent){s, rating};
}

/* recent_put on a name's own list, which grows (to RECENT entries) as values come. */
static uz_result list_put(struct recent_list *l, const char *s)
{
    if (l->n == l->cap && l->cap < RECENT && recent_find(l->e, l->n, s) < 0) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        recent *e = realloc(l->e, cap * sizeof *e);
        if (!e)
            return UZ_ERR_NOMEM;
        l->e = e;
        l->cap = cap;
    }
    recent_put(l->e, &l->n, s, 0); /* room: found, or n < cap, or a full list of RECENT */
    return UZ_OK;
}

/* list_put of a text the coder makes its own (the list then points to the copy). */
static uz_result list_put_copy(coder *c, struct recent_list *l, const char *s)
{
    int i = recent_find(l->e, l->n, s);
    if (i >= 0)
        return list_put(l, l->e[i].s); /* the copy it holds */
    if (c->n_owned == c->cap_owned) {
        size_t cap = c->cap_owned ? 2 * c->cap_owned : 64;
        char **o = realloc(c->owned, cap * sizeof *o);
        if (!o)
            return UZ_ERR_NOMEM;
        c->owned = o;
        c->cap_owned = cap;
    }
    char *copy = malloc(strlen(s) + 1);
    if (!copy)
        return UZ_ERR_NOMEM;
    strcpy(copy, s);
    c->owned[c->n_owned++] = copy;
    return list_put(l, copy);
}

/* Whether a model's values may be derived from the moves (a reader knows them only after them). */
static bool model_derives(unsigned m) { return m == M_FINAL || m == M_ECO || m == M_OPENING || m == M_MOVETAIL; }

/* The value of name j in game g when seen there (never one of a model that derives values
 * from the moves). */
static const char *ref_text(const coder *c, const uz_game *game, size_t g, uint32_t j)
{
    if (j >= c->n_names || c->seen_game[j] != g + 1 || model_derives(c->model[j]))
        return NULL;
    return game->tags[c->seen_pos[j]].value;
}

static const char *last_part(const char *s)
{
    const char *slash = strrchr(s, '/');
    return slash ? slash + 1 : s;
}

static const char *const result_text[4] = {"*", "1-0", "0-1", "1/2-1/2"};

/* Whether game's main line has a final position: a game with a tree, no null move on it. */
static bool has_final(const uz_game *game)
{
    if (game->verbatim || game->text_only)
        return false;
    for (size_t i = 0; i < game->main.n_nodes; i++)
        if (game->main.nodes[i].move == UZ_MOVE_NULL)
            return false;
    return true;
}

/* The FEN of a final position into out (UZ_FEN_MAX bytes), in form 1 (whole) or 2 (without
 * the two move counters, as older chess.com exports give it). */
static void final_fen(const uz_position *final, int form, char *out)
{
    uz_position_to_fen(final, out);
    for (int spaces = 0; form == 2 && *out; out++)
        if (*out == ' ' && ++spaces == 4)
            *out = 0;
}

/* The form (1, 2) in which value is fen (a final position's), else 0: form 2 is form 1
 * cut after its fourth field. */
static int fen_form_of(const char *fen, const char *value)
{
    if (strcmp(fen, value) == 0)
        return 1;
    size_t n = 0;
    for (int spaces = 0; fen[n] && !(fen[n] == ' ' && ++spaces == 4); n++)
        ;
    return strlen(value) == n && memcmp(fen, value, n) == 0 ? 2 : 0;
}

/* The form in which value is the FEN of the final position of the walk's game, else 0
 * (also for a game without one: kept as text, or a null move on its main line). */
static int final_form_of(const uz_walk *walk, const char *value)
{
    char fen[UZ_FEN_MAX];
    if (!has_final(walk->game) || !walk->has_final)
        return 0;
    final_fen(&walk->final, 1, fen);
    return fen_form_of(fen, value);
}

/* Whether a value looks like a FEN (seven '/'), worth trying M_FINAL on. */
static bool looks_like_fen(const char *s)
{
    int slashes = 0;
    for (; *s && *s != ' '; s++)
        slashes += *s == '/';
    return slashes == 7;
}

/* ---- tag version 2 ---- */

/* M_TEMPLATE's two roles in game g: the winner and the loser of a decided game, else
 * White and Black (each "" when the game has no such tag before). */
static void roles(const coder *c, const uz_game *game, size_t g, const char *role[2])
{
    const char *white = ref_text(c, game, g, (uint32_t)c->white_k), *black = ref_text(c, game, g, (uint32_t)c->black_k);
    white = white ? white : "", black = black ? black : "";
    bool black_won = (game->result & 3) == 2;
    role[0] = black_won ? black : white;
    role[1] = black_won ? white : black;
}

/* The template of value (malloc'd; NULL when out of memory, or with *none when the value
 * has none: it holds a byte 1 or 2): each occurrence of role 0 (first) or role 1 read left
 * to right becomes the byte 1 or 2. */
static char *template_of(const char *value, const char *const role[2], bool *none)
{
    size_t n = strlen(value), len[2] = {strlen(role[0]), strlen(role[1])};
    *none = strchr(value, 1) || strchr(value, 2);
    char *t = *none ? NULL : malloc(n + 1), *o = t;
    for (size_t i = 0; t && i < n;) {
        int r = len[0] && strncmp(value + i, role[0], len[0]) == 0 ? 0 : len[1] && strncmp(value + i, role[1], len[1]) == 0 ? 1 : -1;
        if (r >= 0)
            *o++ = (char)(1 + r), i += len[r];
        else
            *o++ = value[i++];
    }
    if (t)
        *o = 0;
    return t;
}

/* A template with the roles put back (malloc'd; NULL when out of memory or, with *too_long,
 * longer than a value may be). */
static char *expand(const char *t, const char *const role[2], bool *too_long)
{
    size_t n = 0, len[2] = {strlen(role[0]), strlen(role[1])};
    for (const char *s = t; *s; s++)
        n += *s == 1 || *s == 2 ? len[*s - 1] : 1;
    *too_long = n > UZ_LIMIT_TEXT;
    char *v = *too_long ? NULL : malloc(n + 1), *o = v;
    for (const char *s = t; v && *s; s++)
        if (*s == 1 || *s == 2)
            memcpy(o, role[*s - 1], len[*s - 1]), o += len[*s - 1];
        else
            *o++ = *s;
    if (v)
        *o = 0;
    return v;
}

/* M_NUMTAIL's split of s: the length of the text before its number (the digits that end
 * it, at most TAIL_DIGITS, no leading zero but for the number 0) and the number; false
 * when s does not end so. */
static bool tail_split(const char *s, size_t *prefix_len, int64_t *number)
{
    size_t n = strlen(s), d = n;
    while (d > 0 && s[d - 1] >= '0' && s[d - 1] <= '9')
        d--;
    if (d == n || n - d > TAIL_DIGITS || (s[d] == '0' && n - d > 1))
        return false;
    *prefix_len = d;
    *number = 0;
    for (size_t i = d; i < n; i++)
        *number = *number * 10 + (s[i] - '0');
    return true;
}

/* M_PAIRDIFF's reference: the change a rating of the expected kind gives the player of
 * the rating name j (White's or Black's) against the rating name j2, from the result:
 * 6 × (2 × score − 1) less the ratings' difference (at most 400 either way) / 58, rounded
 * half away from zero (a linear Elo expectation with a K of 12, Lichess's usual change);
 * 0 for an unfinished game or a rating missing or not in the rating model's form. */
static int64_t pair_reference(const coder *c, const uz_game *game, size_t g, size_t k)
{
    uint32_t j = c->param[k], j2 = c->param2[k];
    const char *own = ref_text(c, game, g, j), *other = ref_text(c, game, g, j2);
    int64_t a, b;
    unsigned result = game->result & 3;
    if (!own || !other || !uz__tag_parse_number(M_ELO, own, &a) || !uz__tag_parse_number(M_ELO, other, &b) ||
        result == 0 || c->model[j] != M_ELO || (c->param[j] != c->white_k && c->param[j] != c->black_k))
        return 0;
    bool white = c->param[j] == c->white_k;
    int64_t score2 = result == 3 ? 1 : (result == 1) == white ? 2 : 0; /* twice the player's score */
    int64_t diff = a - b < -400 ? -400 : a - b > 400 ? 400 : a - b;
    int64_t x = 6 * (score2 - 1) * 58 - diff;
    return x >= 0 ? (x + 29) / 58 : -((-x + 29) / 58);
}

/* What a number model codes its value against. */
static int64_t reference(const coder *c, const uz_game *game, size_t g, size_t k)
{
    unsigned m = c->model[k];
    if (m == M_ELO) {
        const char *player = ref_text(c, game, g, c->param[k]);
        int i = player ? recent_find(c->players, c->n_players, player) : -1;
        return i >= 0 ? c->players[i].rating : c->has_last_elo ? c->last_elo : ELO_DEFAULT;
    }
    if (m == M_DIFF)
        return 0;
    if (m == M_PAIRDIFF)
        return pair_reference(c, game, g, k);
    if (m == M_NUMTAIL)
        return c->has_prev[k] ? c->prev[k] : 0;
    const char *r = ref_text(c, game, g, c->param[k]);
    int64_t v;
    if (r && uz__tag_parse_number(m, r, &v))
        return v;
    return c->has_prev[k] ? c->prev[k] : 0;
}

/* The state after a value of name k (value: its text; fit: whether its model coded it,
 * v the number when it is a number model's). */
static uz_result update(coder *c, const uz_game *game, size_t g, size_t k, size_t pos, const char *value, bool fit,
                        int64_t v)
{
    unsigned m = c->model[k];
    c->seen_game[k] = g + 1;
    c->seen_pos[k] = pos;
    if (m == M_RECENT)
        return list_put(&c->lists[k], value);
    if (m == M_TEMPLATE) {
        const char *role[2];
        bool none;
        roles(c, game, g, role);
        char *t = template_of(value, role, &none);
        uz_result r = t ? list_put_copy(c, &c->lists[k], t) : none ? UZ_OK : UZ_ERR_NOMEM;
        free(t);
        return r;
    }
    size_t len;
    int64_t number;
    if (m == M_NUMTAIL && tail_split(value, &len, &number)) {
        c->tail_prefix[k] = value;
        c->tail_len[k] = len;
        c->prev[k] = number;
        c->has_prev[k] = 1;
    } else if (m == M_NAME)
        recent_put(c->names, &c->n_recent_names, value, 0);
    else if (fit && m == M_ELO) {
        const char *player = ref_text(c, game, g, c->param[k]);
        c->last_elo = v;
        c->has_last_elo = true;
        if (player)
            recent_put(c->players, &c->n_players, player, v);
    } else if (fit && (m == M_DATE || m == M_TIME)) {
        c->prev[k] = v;
        c->has_prev[k] = 1;
    }
    return UZ_OK;
}

/* The number model whose texts a model's values have (M_PAIRDIFF: rating changes). */
static unsigned number_kind(unsigned m) { return m == M_PAIRDIFF ? M_DIFF : m; }

/* Whether value is M_NUMTAIL's next text of name k: its last text then a number. */
static bool tail_fits(const coder *c, size_t k, const char *value, int64_t *number)
{
    size_t len;
    return c->has_prev[k] && tail_split(value, &len, number) && len == c->tail_len[k] &&
           memcmp(value, c->tail_prefix[k], len) == 0;
}

static uint64_t zigzag(int64_t v) { return v < 0 ? ((uint64_t)(-(v + 1)) << 1) | 1 : (uint64_t)v << 1; }
static int64_t unzigzag(uint64_t u) { return u & 1 ? -(int64_t)(u >> 1) - 1 : (int64_t)(u >> 1); }

/* Whether the writer may derive one more value of game g from the moves (at most
 * UZ_DERIVED_MAX a game), counting it. */
static bool take_derived(coder *c, size_t g)
{
    if (c->derived_game != g + 1)
        c->derived_game = g + 1, c->n_derived = 0;
    return c->n_derived < UZ_DERIVED_MAX ? ++c->n_derived, true : false;
}

/* Tag version 3's models 15 and 16: 1 the opening's value, else 2 + an entry of the name's
 * recent list (which takes the values not derived), 0 text. */
static uz_result encode_opening(coder *c, const uz_block_out_game *rec, size_t g, size_t k, const char *value,
                                uint64_t *code)
{
    const char *derived = has_final(rec->game) ? uz__tag_opening(c->model[k], &rec->walk) : NULL;
    if (derived && strcmp(derived, value) == 0 && take_derived(c, g)) {
        *code = 1;
        return UZ_OK;
    }
    int i = recent_find(c->lists[k].e, c->lists[k].n, value);
    *code = i >= 0 ? (uint64_t)i + 2 : 0;
    return list_put(&c->lists[k], value);
}

/* The value of the game's first tag named ECO, which a template of model 17 may hold (as
 * the byte 2), or NULL: none, or one of model 17 itself (not known before its own moves). */
static const char *eco_of(coder *c, const uz_game *game)
{
    /* Looked up once a game: a value per tag would make a game of many tags quadratic. */
    if (c->eco_game != game) {
        c->eco_game = game;
        c->eco = uz_game_tag(game, "ECO");
    }
    if (c->eco_k < c->n_names && c->model[c->eco_k] == M_MOVETAIL)
        return NULL;
    return c->eco;
}

/* Tag version 3's model 17: 0 text, else 1 + h + HEADS × (name + HEAD_NAMES × moves): the
 * template of the value's head (uz__tag_head_template) is a text (h = 0: *text) or entry h − 1
 * of the name's recent list of templates; name the index of the opening name in it; moves 0
 * (the value is its head) or 1 + the arg of the main-line moves that end it. */
static uz_result encode_tail(coder *c, const uz_block_out_game *rec, size_t g, size_t k, const char *value,
                             uint64_t *code, const char **text)
{
    uint32_t arg = 0;
    unsigned name = 0;
    size_t len = strlen(value);
    bool known = has_final(rec->game), moves = known && uz__tag_tail_split(&rec->walk, value, &len, &arg);
    free(c->head);
    c->head = NULL;
    if (memchr(value, 1, len) || memchr(value, 2, len)) { /* a byte 1 or 2 of its own: the value is a text */
        *code = 0;
        return list_put_copy(c, &c->lists[k], value);
    }
    const char *eco = eco_of(c, rec->game);
    if (!(c->head = known ? uz__tag_head_template(&rec->walk, value, len, eco, &name) : malloc(len + 1)))
        return UZ_ERR_NOMEM;
    if (!known)
        memcpy(c->head, value, len), c->head[len] = 0;
    bool derived = (moves || strpbrk(c->head, "\x01\x02")) && take_derived(c, g);
    if (!derived) { /* no room left: the head is the whole value */
        free(c->head);
        if (!(c->head = malloc(strlen(value) + 1)))
            return UZ_ERR_NOMEM;
        strcpy(c->head, value);
        moves = false, name = 0;
    }
    int i = recent_find(c->lists[k].e, c->lists[k].n, c->head);
    uint64_t arg_code = name + (uint64_t)HEAD_NAMES * (moves ? 1 + (uint64_t)arg : 0);
    *code = i < 0 && !derived ? 0 : 1 + (uint64_t)(i + 1) + HEADS * arg_code;
    *text = i < 0 ? c->head : NULL;
    return list_put_copy(c, &c->lists[k], c->head);
}

/* Tag version 5's model 18: 0 text, else 1 + h: the value is a head, a text (h = 0: *text) or
 * entry h − 1 of the name's recent heads, then an identifier (c->token) of uz__token_length. */
static uz_result encode_token(coder *c, size_t k, const char *value, uint64_t *code, const char **text)
{
    size_t len = strlen(value);
    c->token_len = uz__token_length(value);
    c->token = value + len - c->token_len;
    if (c->token_len == 0) {
        *code = 0;
        return UZ_OK;
    }
    char *head = malloc(len - c->token_len + 1);
    if (!head)
        return UZ_ERR_NOMEM;
    memcpy(head, value, len - c->token_len);
    head[len - c->token_len] = 0;
    int i = recent_find(c->lists[k].e, c->lists[k].n, head);
    *code = 1 + (uint64_t)(i + 1);
    free(c->head); /* (kept until the next value: *text may be it) */
    c->head = head;
    *text = i < 0 ? head : NULL;
    return list_put_copy(c, &c->lists[k], head);
}

/* The code of the value of game's tag pos (name k): 0 when its model does not fit it (its
 * text then stored whole). *text: what goes to the values section as a text (NULL: nothing;
 * valid until the next call). Updates the state. */
static uz_result encode_value(coder *c, const uz_block_out_game *rec, size_t g, size_t k, size_t pos, uint64_t *code_out,
                              const char **text)
{
    const uz_game *game = rec->game;
    const char *value = game->tags[pos].value, *r;
    unsigned m = c->model[k];
    uint64_t code = 0;
    int64_t v = 0;
    char buf[NUM_BUF];
    uz_result res;
    *text = NULL;
    switch (m) {
    case M_COPY:
    case M_LASTPART:
        r = ref_text(c, game, g, c->param[k]);
        code = r && strcmp(m == M_COPY ? r : last_part(r), value) == 0;
        break;
    case M_PLIES:
        snprintf(buf, sizeof buf, "%zu", game->main.n_nodes);
        code = strcmp(buf, value) == 0;
        break;
    case M_RESULT:
        code = strcmp(result_text[game->result & 3], value) == 0;
        break;
    case M_FINAL:
        code = c->final_game != g + 1 ? (uint64_t)final_form_of(&rec->walk, value) : 0;
        if (code && !take_derived(c, g))
            code = 0;
        if (code)
            c->final_game = g + 1;
        break;
    case M_NAME:
    case M_RECENT: {
        int i = m == M_NAME ? recent_find(c->names, c->n_recent_names, value)
                            : recent_find(c->lists[k].e, c->lists[k].n, value);
        code = i >= 0 ? (uint64_t)i + 1 : 0;
        break;
    }
    case M_TEMPLATE: {
        const char *role[2];
        bool none;
        roles(c, game, g, role);
        char *t = template_of(value, role, &none);
        if (!t && !none)
            return UZ_ERR_NOMEM;
        int i = t ? recent_find(c->lists[k].e, c->lists[k].n, t) : -1;
        code = i >= 0 ? (uint64_t)i + 1 : 0;
        free(t);
        break;
    }
    case M_NUMTAIL:
        if (tail_fits(c, k, value, &v))
            code = 1 + zigzag(v - c->prev[k]);
        break;
    case M_ECO:
    case M_OPENING:
        if ((res = encode_opening(c, rec, g, k, value, &code)) != UZ_OK)
            return res;
        break;
    case M_MOVETAIL:
        if ((res = encode_tail(c, rec, g, k, value, &code, text)) != UZ_OK)
            return res;
        break;
    case M_TOKEN:
        if ((res = encode_token(c, k, value, &code, text)) != UZ_OK)
            return res;
        break;
    case M_PLAIN:
        break;
    default:
        if (uz__tag_parse_number(number_kind(m), value, &v))
            code = 1 + zigzag(v - reference(c, game, g, k));
        break;
    }
    if (code == 0)
        *text = value;
    *code_out = code;
    return update(c, game, g, k, pos, value, code != 0, v);
}

/* ---- writing ---- */

static size_t varint_len(uint64_t v)
{
    size_t n = 1;
    for (; v >= 128; v >>= 7)
        n++;
    return n;
}

typedef struct tag_writer {
    const char *const *names;
    const uz_block_out_game *games;
    size_t n;
    const uint32_t *tag_names;
    bool from_moves; /* M_FINAL allowed (structure version 3) */
} tag_writer;

/* The value of name k in the first game that has it, or NULL. */
static const char *first_value(const tag_writer *tw, size_t k)
{
    const uint32_t *idx = tw->tag_names;
    for (size_t g = 0; g < tw->n; g++) {
        const uz_game *game = tw->games[g].game;
        if (game->verbatim || game->text_only)
            continue;
        for (size_t t = 0; t < game->n_tags; t++)
            if (*idx++ == k)
                return game->tags[t].value;
    }
    return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether name k's values look like identifiers for M_TOKEN: at least two of them end in one,
 * all those of the same length, at least TOKEN_WRITER_MIN, and three in four of them distinct
 * (database keys such as Lichess's game ids or FIDE ids, a player's coming back; names and
 * words, which a packer codes better from their letters, vary in length or repeat:
 * `Exchange Variation`, `Classical Variation`). */
enum { TOKEN_WRITER_MIN = 6 };
static bool token_column(const tag_writer *tw, size_t k)
{
    const uint32_t *idx = tw->tag_names;
    size_t len = 0, n = 0, cap = 0;
    uint64_t *seen = NULL; /* the identifiers' hashes */
    bool fits = true;
    for (size_t g = 0; g < tw->n && fits; g++) {
        const uz_game *game = tw->games[g].game;
        if (game->verbatim || game->text_only)
            continue;
        for (size_t t = 0; t < game->n_tags && fits; t++) {
            const char *value = game->tags[t].value;
            size_t l = *idx++ == k ? uz__token_length(value) : 0;
            if (!l)
                continue;
            uint64_t *more = n < cap ? seen : realloc(seen, (cap = cap ? 2 * cap : 64) * sizeof *seen);
            if ((n && l != len) || !more) {
                fits = false;
                break;
            }
            seen = more, len = l;
            seen[n++] = uz_fnv1a64(UZ_FNV1A64_OFFSET, value + strlen(value) - l, l);
        }
    }
    fits = fits && n >= 2 && len >= TOKEN_WRITER_MIN;
    if (fits) {
        size_t distinct = 1;
        qsort(seen, n, sizeof *seen, cmp_u64);
        for (size_t i = 1; i < n; i++)
            distinct += seen[i] != seen[i - 1];
        fits = 4 * distinct >= 3 * n;
    }
    free(seen);
    return fits;
}

/* Tag version 2's estimate of what a column's codes cost once packed, in bits: each
 * code's share of the column (the empirical entropy of the codes) plus, once per
 * distinct code, its varint (what the packer must see once before it repeats). Sorts
 * codes. */
static uint64_t codes_cost(uint64_t *codes, size_t n)
{
    /* In integers (codec/fixed.h), so that every build makes the same choices. */
    uint64_t bits_q16 = 0, log_n = uz__log2_fixed(n ? n : 1, 16);
    qsort(codes, n, sizeof *codes, cmp_u64);
    for (size_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && codes[j] == codes[i];)
            j++;
        bits_q16 += (uint64_t)(j - i) * (log_n - uz__log2_fixed(j - i, 16)) + ((uint64_t)8 * varint_len(codes[i]) << 16);
    }
    return bits_q16 >> 16;
}

/* Appends a code of model m to col as varints, with M_TOKEN's identifier (c->token) after it. */
static uz_result put_code(uz_buf *col, const coder *c, unsigned m, uint64_t code)
{
    uz_result r = uz_buf_put_varint(col, code);
    if (r != UZ_OK || m != M_TOKEN || code == 0)
        return r;
    r = uz_buf_put_varint(col, c->token_len);
    for (size_t i = 0; i < c->token_len && r == UZ_OK; i++)
        r = uz_buf_put_varint(col, (uint64_t)uz__token_symbol((unsigned char)c->token[i]));
    return r;
}

/* Runs the coder over the block: the estimated cost in bytes of column k (its codes, and
 * its text values with a length byte), or with out, the codes and texts of every column. */
static uz_result run(const tag_writer *tw, coder *c, size_t k, uz_buf *codes, uz_buf *texts, uint64_t *cost)
{
    const uint32_t *idx = tw->tag_names;
    uint64_t *col = NULL; /* version 2's estimate: column k's codes */
    size_t n_col = 0, cap_col = 0;
    uz_buf ranged = {0}; /* version 4's: column k's codes as varints */
    bool entropy = !codes && c->tag_version >= 2 && c->model[k] != M_PLAIN;
    uz_result r = coder_reset(c);
    *cost = 0;
    for (size_t g = 0; g < tw->n && r == UZ_OK; g++) {
        const uz_game *game = tw->games[g].game;
        if (game->verbatim || game->text_only)
            continue;
        for (size_t t = 0; t < game->n_tags && r == UZ_OK; t++) {
            size_t name = *idx++;
            const char *value = game->tags[t].value;
            uint64_t code;
            const char *text; /* the value's text stored (NULL: none) */
            r = encode_value(c, &tw->games[g], g, name, t, &code, &text);
            size_t text_len = text ? strlen(text) : 0;
            if (r != UZ_OK)
                break;
            if (codes) {
                if (c->model[name] != M_PLAIN)
                    r = put_code(&codes[name], c, c->model[name], code);
                if (r == UZ_OK && text)
                    r = text_len > UZ_LIMIT_TEXT ? UZ_ERR_LIMIT : uz_buf_put_string(&texts[name], text, text_len);
            } else if (name == k && entropy && c->tag_version >= 4) {
                r = put_code(&ranged, c, c->model[name], code);
                *cost += text ? 8 * (text_len + 1) : 0;
            } else if (name == k && entropy) {
                if (n_col == cap_col) {
                    uint64_t *more = realloc(col, (cap_col = cap_col ? 2 * cap_col : 256) * sizeof *col);
                    if (!more) {
                        r = UZ_ERR_NOMEM;
                        break;
                    }
                    col = more;
                }
                col[n_col++] = code;
                *cost += text ? 8 * (text_len + 1) : 0;
            } else if (name == k)
                *cost += (code ? varint_len(code) + (text ? text_len + 1 : 0)
                               : strlen(value) + 1 + (c->model[name] != M_PLAIN)) *
                         (c->tag_version >= 2 ? 8 : 1);
        }
    }
    if (r == UZ_OK && entropy) /* version 4 range-codes the codes in order; before, a packer saw them */
        *cost += c->tag_version >= 4 ? uz__tag_codes_cost(&ranged, c->model[k]) : codes_cost(col, n_col);
    free(col);
    uz_buf_free(&ranged);
    return r;
}

static bool ends_with(const char *s, const char *suffix, size_t *prefix_len)
{
    size_t n = strlen(s), m = strlen(suffix);
    *prefix_len = n - m;
    return n > m && strcmp(s + n - m, suffix) == 0;
}

static size_t find_name(const tag_writer *tw, size_t n_names, const char *s, size_t len)
{
    for (size_t j = 0; j < n_names; j++)
        if (strlen(tw->names[j]) == len && memcmp(tw->names[j], s, len) == 0)
            return j;
    return n_names;
}

/* For each name k the other name j whose value (COPY) or value's last path part
 * (LASTPART) k's value most often equals, earlier in the same game; n_names if none. */
static void find_copies(const tag_writer *tw, size_t n_names, uint32_t *copy_of, uint32_t *part_of)
{
    for (size_t k = 0; k < n_names; k++)
        copy_of[k] = part_of[k] = (uint32_t)n_names;
    if (n_names > COPY_SCAN_NAMES)
        return;
    uint32_t count[2][COPY_SCAN_NAMES][COPY_SCAN_NAMES] = {{{0}}};
    const uint32_t *idx = tw->tag_names;
    for (size_t g = 0; g < tw->n; g++) {
        const uz_game *game = tw->games[g].game;
        if (game->verbatim || game->text_only)
            continue;
        if (game->n_tags <= COPY_SCAN_TAGS)
            for (size_t t = 0; t < game->n_tags; t++)
                for (size_t u = 0; u < t; u++) {
                    if (idx[u] == idx[t])
                        continue;
                    count[0][idx[t]][idx[u]] += strcmp(game->tags[t].value, game->tags[u].value) == 0;
                    count[1][idx[t]][idx[u]] += strcmp(game->tags[t].value, last_part(game->tags[u].value)) == 0;
                }
        idx += game->n_tags;
    }
    for (size_t k = 0; k < n_names; k++)
        for (size_t j = 0; j < n_names; j++) {
            if (count[0][k][j] && (copy_of[k] == n_names || count[0][k][j] > count[0][k][copy_of[k]]))
                copy_of[k] = (uint32_t)j;
            if (count[1][k][j] && (part_of[k] == n_names || count[1][k][j] > count[1][k][part_of[k]]))
                part_of[k] = (uint32_t)j;
        }
}

/* Picks each name's model: of the candidates its name suggests, the one whose estimated
 * cost is lowest (plain text when nothing beats it). The format does not depend on this
 * choice. */
static uz_result choose_models(const tag_writer *tw, coder *c)
{
    size_t n_names = c->n_names;
    uint32_t *copy_of = malloc((n_names ? n_names : 1) * sizeof *copy_of);
    uint32_t *part_of = malloc((n_names ? n_names : 1) * sizeof *part_of);
    uint8_t *chosen_m = malloc(n_names ? n_names : 1);
    uint32_t *chosen_p = malloc((n_names ? n_names : 1) * sizeof *chosen_p);
    uint32_t *chosen_p2 = calloc(n_names ? n_names : 1, sizeof *chosen_p2);
    if (!copy_of || !part_of || !chosen_m || !chosen_p || !chosen_p2) {
        free(chosen_m);
        free(chosen_p);
        free(chosen_p2);
        free(copy_of);
        free(part_of);
        return UZ_ERR_NOMEM;
    }
    find_copies(tw, n_names, copy_of, part_of);
    for (size_t k = 0; k < n_names; k++) {
        const char *name = tw->names[k];
        chosen_m[k] = M_PLAIN, chosen_p[k] = 0;
        if (k >= MODEL_NAMES)
            continue;
        uint8_t cand_m[24 + 2 * COPY_SCAN_NAMES];
        uint32_t cand_p[24 + 2 * COPY_SCAN_NAMES], cand_p2[24 + 2 * COPY_SCAN_NAMES] = {0};
        size_t n_cand = 0, len;
#define CANDIDATE(m, p) (cand_m[n_cand] = (m), cand_p[n_cand++] = (uint32_t)(p))
        if (copy_of[k] < n_names)
            CANDIDATE(M_COPY, copy_of[k]);
        if (part_of[k] < n_names)
            CANDIDATE(M_LASTPART, part_of[k]);
        if (strcmp(name, "Result") == 0)
            CANDIDATE(M_RESULT, 0);
        if (strcmp(name, "PlyCount") == 0)
            CANDIDATE(M_PLIES, 0);
        const char *first = tw->from_moves ? first_value(tw, k) : NULL;
        if (first && looks_like_fen(first))
            CANDIDATE(M_FINAL, 0);
        if (strcmp(name, "White") == 0 || strcmp(name, "Black") == 0)
            CANDIDATE(M_NAME, 0);
        CANDIDATE(M_RECENT, 0);
        if (ends_with(name, "RatingDiff", &len))
            CANDIDATE(M_DIFF, 0);
        if (ends_with(name, "Elo", &len) && find_name(tw, n_names, name, len) < n_names)
            CANDIDATE(M_ELO, find_name(tw, n_names, name, len));
        for (unsigned m = M_DATE; m <= M_TIME; m++) {
            const char *kind = m == M_DATE ? "Date" : "Time";
            if (!strstr(name, kind))
                continue;
            CANDIDATE(m, n_names);
            for (size_t j = 0; j < n_names && j < COPY_SCAN_NAMES; j++)
                if (j != k && strstr(tw->names[j], kind))
                    CANDIDATE(m, j);
        }
        if (c->tag_version >= 2) {
            /* The names before k keep the models chosen for them (M_PAIRDIFF needs the
             * ratings' models); the ones after are plain. */
            memcpy(c->model, chosen_m, k);
            memcpy(c->param, chosen_p, k * sizeof *chosen_p);
            memcpy(c->param2, chosen_p2, k * sizeof *chosen_p2);
            CANDIDATE(M_NUMTAIL, 0);
            if (c->white_k < n_names || c->black_k < n_names)
                CANDIDATE(M_TEMPLATE, 0);
            bool white = strcmp(name, "WhiteRatingDiff") == 0, black = strcmp(name, "BlackRatingDiff") == 0;
            size_t own = find_name(tw, n_names, white ? "WhiteElo" : "BlackElo", 8);
            size_t other = find_name(tw, n_names, white ? "BlackElo" : "WhiteElo", 8);
            if ((white || black) && own < n_names && other < n_names)
                cand_p2[n_cand] = (uint32_t)other, CANDIDATE(M_PAIRDIFF, own);
        }
        if (c->tag_version >= 3 && tw->from_moves) {
            if (strcmp(name, "ECO") == 0)
                CANDIDATE(M_ECO, 0);
            if (strcmp(name, "Opening") == 0)
                CANDIDATE(M_OPENING, 0);
            CANDIDATE(M_MOVETAIL, 0);
        }
        if (c->tag_version >= 5 && token_column(tw, k))
            CANDIDATE(M_TOKEN, 0);
#undef CANDIDATE
        uint64_t best = UINT64_MAX, cost;
        uint8_t best_m = M_PLAIN;
        uint32_t best_p = 0, best_p2 = 0;
        for (size_t i = 0; i <= n_cand; i++) {
            c->model[k] = i < n_cand ? cand_m[i] : M_PLAIN;
            c->param[k] = i < n_cand ? cand_p[i] : 0;
            c->param2[k] = i < n_cand ? cand_p2[i] : 0;
            uz_result r = run(tw, c, k, NULL, NULL, &cost);
            if (r != UZ_OK) {
                free(chosen_m);
                free(chosen_p);
                free(chosen_p2);
                free(copy_of);
                free(part_of);
                return r;
            }
            if (cost < best)
                best = cost, best_m = c->model[k], best_p = c->param[k], best_p2 = c->param2[k];
        }
        c->model[k] = M_PLAIN; /* each column is tried with the others plain (version 1) */
        chosen_m[k] = best_m, chosen_p[k] = best_p, chosen_p2[k] = best_p2;
    }
    memcpy(c->model, chosen_m, n_names);
    memcpy(c->param, chosen_p, n_names * sizeof *chosen_p);
    memcpy(c->param2, chosen_p2, n_names * sizeof *chosen_p2);
    free(chosen_m);
    free(chosen_p);
    free(chosen_p2);
    free(copy_of);
    free(part_of);
    return UZ_OK;
}

/* Codes the block with the coder's models: the tag_code section (empty when every name
 * is plain) to code, the text values column by column to values. */
static uz_result emit(const tag_writer *tw, coder *c, uz_buf *code, uz_buf *values)
{
    size_t n_names = c->n_names;
    uz_buf *codes = calloc(n_names ? n_names : 1, sizeof *codes);
    uz_buf *texts = calloc(n_names ? n_names : 1, sizeof *texts);
    uint64_t cost;
    uz_result r = codes && texts ? run(tw, c, 0, codes, texts, &cost) : UZ_ERR_NOMEM;
    bool any = false;
    for (size_t k = 0; k < n_names; k++)
        any |= c->model[k] != M_PLAIN;
    for (size_t k = 0; k < n_names && r == UZ_OK && any; k++) {
        r = uz_buf_put_varint(code, c->model[k]);
        if (r == UZ_OK && has_param(c->model[k]))
            r = uz_buf_put_varint(code, c->param[k]);
        if (r == UZ_OK && has_param2(c->model[k]))
            r = uz_buf_put_varint(code, c->param2[k]);
    }
    if (r == UZ_OK && any && c->tag_version >= 4)
        r = uz__tag_codes_pack(code, codes, c->model, n_names);
    for (size_t k = 0; k < n_names && r == UZ_OK; k++) {
        if (c->tag_version < 4)
            r = uz_buf_append(code, codes[k].data, codes[k].size);
        if (r == UZ_OK)
            r = uz_buf_append(values, texts[k].data, texts[k].size);
    }
    for (size_t k = 0; k < n_names && codes && texts; k++) {
        uz_buf_free(&codes[k]);
        uz_buf_free(&texts[k]);
    }
    free(codes);
    free(texts);
    return r;
}

uz_result uz_tag_code_write(uz_buf *code, uz_buf *values, const uz_tag_coding *tc, const uz_block_out_game *games,
                            size_t n, const uint32_t *tag_names)
{
    tag_writer tw = {tc->names, games, n, tag_names, tc->from_moves};
    coder c;
    uz_result r = coder_init(&c, tc->names, tc->n_names, tc->tag_version);
    if (r == UZ_OK && tc->coded)
        r = choose_models(&tw, &c);
    if (r == UZ_OK)
        r = emit(&tw, &c, code, values);
    coder_free(&c);
    return r;
}

bool uz_tag_code_final_wanted(const uz_walk *walk)
{
    const uz_game *game = walk->game;
    for (size_t t = 0; t < game->n_tags; t++)
        if (looks_like_fen(game->tags[t].value) && final_form_of(walk, game->tags[t].value))
            return true;
    return false;
}

/* The value of a derived tag d of the walk's game (malloc'd, into *out). */
static uz_result derived_value(const uz_walk *walk, const uz_derived_tag *d, char **out)
{
    char fen[UZ_FEN_MAX];
    const char *text = NULL;
    *out = NULL;
    if (d->tag >= walk->game->n_tags || !has_final(walk->game) || !walk->has_final)
        return UZ_ERR_CORRUPT;
    if (d->kind == DERIVED_MOVES) { /* after the others: its ECO is known, unless it is one too */
        const char *eco = NULL;
        for (size_t t = 0; t < walk->game->n_tags && !eco; t++)
            if (strcmp(walk->game->tags[t].name, "ECO") == 0)
                eco = walk->game->tags[t].value;
        for (size_t i = 0; eco && i < walk->game->n_derived; i++) {
            const uz_derived_tag *other = &walk->game->derived[i];
            if (other->kind == DERIVED_MOVES && strcmp(walk->game->tags[other->tag].name, "ECO") == 0)
                eco = NULL;
        }
        return uz__tag_tail_text(walk, walk->game->tags[d->tag].value, d->arg, eco, out);
    }
    if (d->kind == DERIVED_FEN)
        final_fen(&walk->final, (int)d->arg, fen), text = fen;
    else if (d->kind == DERIVED_ECO || d->kind == DERIVED_OPENING)
        text = uz__tag_opening(d->kind == DERIVED_ECO ? M_ECO : M_OPENING, walk);
    if (!text)
        return UZ_ERR_CORRUPT;
    if (!(*out = malloc(strlen(text) + 1)))
        return UZ_ERR_NOMEM;
    strcpy(*out, text);
    return UZ_OK;
}

uz_result uz_tag_code_fill_derived(const uz_walk *walk)
{
    uz_game *game = walk->game;
    for (int pass = 0; pass < 2; pass++) /* model 17's values last: they may hold the ECO */
        for (size_t i = 0; i < game->n_derived; i++) {
            char *value;
            if ((game->derived[i].kind == DERIVED_MOVES) != (pass == 1))
                continue;
            uz_result r = derived_value(walk, &game->derived[i], &value);
            if (r != UZ_OK)
                return r;
            uz_tag *tag = &game->tags[game->derived[i].tag];
            free(tag->value);
            tag->value = value;
        }
    game->n_derived = 0;
    return UZ_OK;
}

/* ---- reading ---- */

typedef struct column {
    uz_cursor codes; /* the column's codes not yet read (empty for a plain column) */
    uz_cursor texts; /* its text values not yet read */
    size_t count;    /* values of the name in the block */
    size_t n_texts;
} column;

static bool skip_text(uz_cursor *c)
{
    const uint8_t *s;
    size_t n;
    return uz_cursor_string(c, UZ_LIMIT_TEXT, &s, &n) == UZ_OK && !memchr(s, 0, n);
}

/* The texts in the values section that a code of model m brings: 1 for the code 0 (the
 * value), and for model 17's codes whose head is a text. */
static size_t code_texts(unsigned m, uint64_t code)
{
    return code == 0 || (m == M_MOVETAIL && (code - 1) % HEADS == 0) || (m == M_TOKEN && code == 1);
}

/* Skips M_TOKEN's identifier after a code that is not 0 (its length, then its symbols). */
static bool skip_token(uz_cursor *c)
{
    uint64_t len, sym;
    if (uz_cursor_varint(c, &len) != UZ_OK || len == 0 || len > TOKEN_MAX)
        return false;
    for (uint64_t i = 0; i < len; i++)
        if (uz_cursor_varint(c, &sym) != UZ_OK || sym >= TOKEN_SYMBOLS)
            return false;
    return true;
}


/* The column's next text into *text (grown as needed). */
static uz_result read_text(column *col, char **text, size_t *text_cap)
{
    const uint8_t *s;
    size_t n;
    if (uz_cursor_string(&col->texts, UZ_LIMIT_TEXT, &s, &n) != UZ_OK || memchr(s, 0, n))
        return UZ_ERR_CORRUPT;
    if (n + 1 > *text_cap) {
        char *t = realloc(*text, n + 1);
        if (!t)
            return UZ_ERR_NOMEM;
        *text = t;
        *text_cap = n + 1;
    }
    memcpy(*text, s, n);
    (*text)[n] = 0;
    return UZ_OK;
}

/* Marks game's next tag as derived from the moves (the reader's side of take_derived). */
static uz_result add_derived(uz_game *game, unsigned kind, uint32_t arg)
{
    if (game->n_derived == UZ_DERIVED_MAX)
        return UZ_ERR_CORRUPT;
    game->derived[game->n_derived++] = (uz_derived_tag){game->n_tags, kind, arg};
    return UZ_OK;
}

/* Model 18's value (code != 0): its head, a text or a recent one, then its identifier, read
 * from the column's codes, into *made (malloc'd). */
static uz_result decode_token(coder *c, column *col, size_t k, uint64_t code, char **text, size_t *text_cap,
                              char **made)
{
    uint64_t h = code - 1, len, sym;
    uz_result r = UZ_OK;
    if (h == 0 && (r = read_text(col, text, text_cap)) != UZ_OK)
        return r;
    if (h > c->lists[k].n || uz_cursor_varint(&col->codes, &len) != UZ_OK || len == 0 || len > TOKEN_MAX)
        return UZ_ERR_CORRUPT;
    const char *head = h ? c->lists[k].e[h - 1].s : *text;
    size_t n = strlen(head);
    if (!(*made = malloc(n + len + 1)))
        return UZ_ERR_NOMEM;
    memcpy(*made, head, n);
    for (uint64_t i = 0; i < len; i++) {
        if (uz_cursor_varint(&col->codes, &sym) != UZ_OK || sym >= TOKEN_SYMBOLS)
            return UZ_ERR_CORRUPT;
        (*made)[n + i] = uz__token_alphabet[sym];
    }
    (*made)[n + len] = 0;
    return list_put_copy(c, &c->lists[k], head);
}

/* Model 17's template, name and moves (code != 0): *value the template, derived (its name put
 * in, its moves added) once the moves are decoded when it has a name or moves. */
static uz_result decode_tail(coder *c, column *col, uz_game *game, size_t k, uint64_t code, char **text,
                             size_t *text_cap, const char **value)
{
    uint64_t head = (code - 1) % HEADS, arg = (code - 1) / HEADS;
    uz_result r = UZ_OK;
    if (head == 0 && (r = read_text(col, text, text_cap)) != UZ_OK)
        return r;
    if (head > c->lists[k].n || arg / HEAD_NAMES > (uint64_t)(TAIL_FIRST + 1) << 6)
        return UZ_ERR_CORRUPT;
    *value = head ? c->lists[k].e[head - 1].s : *text;
    bool name = strchr(*value, 1) != NULL, eco = strchr(*value, 2) != NULL;
    if (!name && arg % HEAD_NAMES) /* a name's index without a name */
        return UZ_ERR_CORRUPT;
    if ((name || eco || arg >= HEAD_NAMES) && (r = add_derived(game, DERIVED_MOVES, (uint32_t)arg)) != UZ_OK)
        return r;
    return list_put_copy(c, &c->lists[k], *value);
}

/* Decodes the value of game's next tag (name k) into the game. */
static uz_result decode_value(coder *c, column *col, uz_game *game, size_t g, size_t k, const char *name, char **text,
                              size_t *text_cap)
{
    unsigned m = c->model[k];
    uint64_t code = 0;
    int64_t v = 0;
    char buf[NUM_BUF];
    const char *value = NULL, *r;
    char *made = NULL; /* a value made here */
    uz_result res;
    if (m != M_PLAIN && uz_cursor_varint(&col->codes, &code) != UZ_OK)
        return UZ_ERR_CORRUPT;
    if (m == M_MOVETAIL) {
        if ((res = code ? decode_tail(c, col, game, k, code, text, text_cap, &value)
                        : read_text(col, text, text_cap)) != UZ_OK)
            return res;
        if (!code && (res = list_put_copy(c, &c->lists[k], value = *text)) != UZ_OK)
            return res;
    } else if (m == M_TOKEN && code) {
        if ((res = decode_token(c, col, k, code, text, text_cap, &made)) != UZ_OK) {
            free(made);
            return res;
        }
        value = made;
    } else if (code == 0) {
        if ((res = read_text(col, text, text_cap)) != UZ_OK)
            return res;
        value = *text;
    } else if ((m == M_ECO || m == M_OPENING) && code == 1) {
        if ((res = add_derived(game, m == M_ECO ? DERIVED_ECO : DERIVED_OPENING, 0)) != UZ_OK)
            return res;
        value = ""; /* until the moves are decoded */
    } else if (m == M_ECO || m == M_OPENING) {
        if (code - 2 >= c->lists[k].n)
            return UZ_ERR_CORRUPT;
        value = c->lists[k].e[code - 2].s;
    } else if (m == M_COPY || m == M_LASTPART || m == M_PLIES || m == M_RESULT) {
        if (code != 1)
            return UZ_ERR_CORRUPT;
        if (m == M_PLIES)
            snprintf(buf, sizeof buf, "%zu", game->main.n_nodes), value = buf;
        else if (m == M_RESULT)
            value = result_text[game->result & 3];
        else if (!(r = ref_text(c, game, g, c->param[k])))
            return UZ_ERR_CORRUPT;
        else
            value = m == M_COPY ? r : last_part(r);
    } else if (m == M_FINAL) {
        if (code > 2 || c->final_game == g + 1)
            return UZ_ERR_CORRUPT;
        if ((res = add_derived(game, DERIVED_FEN, (uint32_t)code)) != UZ_OK)
            return res;
        c->final_game = g + 1;
        value = ""; /* until the moves are decoded */
    } else if (m == M_NAME) {
        if (code > c->n_recent_names)
            return UZ_ERR_CORRUPT;
        value = c->names[code - 1].s;
    } else if (m == M_RECENT) {
        if (code > c->lists[k].n)
            return UZ_ERR_CORRUPT;
        value = c->lists[k].e[code - 1].s;
    } else if (m == M_TEMPLATE) {
        const char *role[2];
        bool too_long;
        if (code > c->lists[k].n)
            return UZ_ERR_CORRUPT;
        roles(c, game, g, role);
        if (!(value = made = expand(c->lists[k].e[code - 1].s, role, &too_long)))
            return too_long ? UZ_ERR_CORRUPT : UZ_ERR_NOMEM;
    } else if (m == M_NUMTAIL) {
        int64_t d = unzigzag(code - 1), limit = 999999999999999999; /* TAIL_DIGITS nines */
        if (!c->has_prev[k] || d < -limit || d > limit || c->prev[k] + d < 0 || c->prev[k] + d > limit)
            return UZ_ERR_CORRUPT;
        size_t len = c->tail_len[k];
        if (!(value = made = malloc(len + NUM_BUF)))
            return UZ_ERR_NOMEM;
        memcpy(made, c->tail_prefix[k], len);
        snprintf(made + len, NUM_BUF, "%lld", (long long)(c->prev[k] + d));
    } else {
        int64_t d = unzigzag(code - 1);
        if (d < -4 * (int64_t)NUM_MAX || d > 4 * (int64_t)NUM_MAX)
            return UZ_ERR_CORRUPT;
        v = reference(c, game, g, k) + d;
        if (!uz__tag_in_range(number_kind(m), v))
            return UZ_ERR_CORRUPT;
        uz__tag_format_number(number_kind(m), v, buf);
        value = buf;
    }
    size_t pos = game->n_tags, len = strlen(value);
    if (c->bytes_left && len > *c->bytes_left) {
        free(made);
        return UZ_ERR_CORRUPT; /* more than any block a writer makes (uz_tag_bytes) */
    }
    if (c->bytes_left)
        *c->bytes_left -= len;
    res = uz_game_add_tag(game, name, value);
    free(made);
    bool derived = (m == M_ECO || m == M_OPENING) && code == 1;
    if (res == UZ_OK && (m == M_ECO || m == M_OPENING) && !derived) /* the game's own copy, which lives on */
        res = list_put(&c->lists[k], game->tags[pos].value);
    if (res == UZ_OK)
        res = update(c, game, g, k, pos, game->tags[pos].value, code != 0, v);
    return res;
}

/* Tag version 4: the rest of the tag_code section, the range-coded codes, read into each coded
 * column's varints (*out, one buffer a name); the section is then consumed. */
static uz_result unpack_codes(uz_cursor *code, const coder *c, const column *cols, uz_buf **out)
{
    size_t n_names = c->n_names, *count = malloc((n_names ? n_names : 1) * sizeof *count);
    *out = calloc(n_names ? n_names : 1, sizeof **out);
    if (!count || !*out) {
        free(count);
        return UZ_ERR_NOMEM;
    }
    for (size_t k = 0; k < n_names; k++)
        count[k] = cols[k].count;
    uz_result r = uz__tag_codes_unpack(code->p, (size_t)(code->end - code->p), c->model, count, n_names, *out);
    free(count);
    code->p = code->end;
    return r;
}

uz_result uz_tag_code_read(uz_cursor *code, uz_cursor *values, const uz_tag_coding *tc, uz_block_game *games, size_t n,
                           uint32_t *const *tag_names, const size_t *n_tags)
{
    const char *const *names = tc->names;
    size_t n_names = tc->n_names;
    bool from_moves = tc->from_moves;
    unsigned tag_version = tc->tag_version;
    coder c;
    uz_result r = coder_init(&c, names, n_names, tag_version);
    if (r != UZ_OK)
        return r;
    c.bytes_left = tc->bytes_left;
    column *cols = calloc(n_names ? n_names : 1, sizeof *cols);
    uz_buf *unpacked = NULL; /* version 4: each column's codes */
    char *text = NULL;
    size_t text_cap = 0;
    r = UZ_ERR_NOMEM;
    if (!cols)
        goto out;
    r = UZ_ERR_CORRUPT;
    /* Each name's model, then each coded column's codes (one per value: the zeros count
     * its text values), then the text values column by column. */
    bool coded = code->p != code->end; /* an empty section: every name plain */
    for (size_t k = 0; k < n_names && coded; k++) {
        uint64_t m, p = 0, p2 = 0;
        if (uz_cursor_varint(code, &m) != UZ_OK || m >= N_MODELS || (m == M_FINAL && !from_moves) ||
            (m > M_FINAL && tag_version < 2) || (m > M_PAIRDIFF && m <= M_MOVETAIL && (tag_version < 3 || !from_moves)) ||
            (m == M_TOKEN && tag_version < 5) ||
            (has_param((unsigned)m) && uz_cursor_varint(code, &p) != UZ_OK) ||
            (has_param2((unsigned)m) && uz_cursor_varint(code, &p2) != UZ_OK))
            goto out;
        /* COPY, LASTPART, ELO and PAIRDIFF refer to another name; DATE and TIME may refer to
         * none (n_names); PAIRDIFF to a second one. */
        if (has_param((unsigned)m) && (p == k || p > n_names || (p == n_names && m != M_DATE && m != M_TIME)))
            goto out;
        if (has_param2((unsigned)m) && (p2 == k || p2 == p || p2 >= n_names))
            goto out;
        c.model[k] = (uint8_t)m;
        c.param[k] = (uint32_t)p;
        c.param2[k] = (uint32_t)p2;
    }
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < n_tags[i]; t++)
            cols[tag_names[i][t]].count++;
    if (coded && tag_version >= 4 && (r = unpack_codes(code, &c, cols, &unpacked)) != UZ_OK)
        goto out;
    r = UZ_ERR_CORRUPT;
    for (size_t k = 0; k < n_names; k++) {
        column *col = &cols[k];
        col->n_texts = col->count;
        if (c.model[k] == M_PLAIN)
            continue;
        /* version 4: the column's codes as varints, read from the range-coded stream */
        uz_cursor own = {unpacked ? unpacked[k].data : NULL, unpacked ? unpacked[k].data + unpacked[k].size : NULL};
        uz_cursor *src = unpacked ? &own : code;
        col->codes.p = src->p;
        col->n_texts = 0;
        for (size_t v = 0; v < col->count; v++) {
            uint64_t x;
            if (uz_cursor_varint(src, &x) != UZ_OK || (c.model[k] == M_TOKEN && x && !skip_token(src)))
                goto out;
            col->n_texts += code_texts(c.model[k], x);
        }
        col->codes.end = src->p;
    }
    if (code->p != code->end)
        goto out;
    if ((r = seed_priors(&c)) != UZ_OK)
        goto out;
    r = UZ_ERR_CORRUPT;
    for (size_t k = 0; k < n_names; k++) {
        cols[k].texts.p = values->p;
        for (size_t v = 0; v < cols[k].n_texts; v++)
            if (!skip_text(values))
                goto out;
        cols[k].texts.end = values->p;
    }
    if (values->p != values->end)
        goto out;
    for (size_t g = 0; g < n; g++)
        for (size_t t = 0; t < n_tags[g]; t++) {
            size_t k = tag_names[g][t];
            if ((r = decode_value(&c, &cols[k], &games[g].game, g, k, names[k], &text, &text_cap)) != UZ_OK)
                goto out;
        }
    r = UZ_OK;
out:
    for (size_t k = 0; unpacked && k < n_names; k++)
        uz_buf_free(&unpacked[k]);
    free(unpacked);
    free(text);
    free(cols);
    coder_free(&c);
    return r;
}

uz_result uz_tag_names_budget(const char *const *names, size_t n_names, uint32_t *const *tag_names,
                              const size_t *n_tags, size_t n, uint64_t *left)
{
    uint64_t *len = malloc((n_names ? n_names : 1) * sizeof *len); /* (a long name measured once) */
    if (!len)
        return UZ_ERR_NOMEM;
    for (size_t k = 0; k < n_names; k++)
        len[k] = uz_tag_bytes(strlen(names[k]), 0);
    uint64_t used = 0;
    for (size_t i = 0; i < n && used <= UZ_LIMIT_BLOCK_STRUCT; i++)
        for (size_t t = 0; t < n_tags[i] && used <= UZ_LIMIT_BLOCK_STRUCT; t++)
            used += len[tag_names[i][t]];
    free(len);
    *left = used <= UZ_LIMIT_BLOCK_STRUCT ? UZ_LIMIT_BLOCK_STRUCT - used : 0;
    return used <= UZ_LIMIT_BLOCK_STRUCT ? UZ_OK : UZ_ERR_CORRUPT;
}
