/* The PGN game tree: allocation, building, freeing and structural comparison. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"

/* ---- small helpers ---- */

uz_result uz__text_reserve(uz_buf *b, size_t extra)
{
    return extra == SIZE_MAX ? UZ_ERR_NOMEM : uz_buf_reserve(b, extra + 1);
}

uz_result uz__text_put(uz_buf *b, const void *data, size_t len)
{
    if (uz__text_reserve(b, len) != UZ_OK)
        return UZ_ERR_NOMEM;
    if (len)
        memcpy(b->data + b->size, data, len);
    b->size += len;
    b->data[b->size] = '\0'; /* reserve keeps one spare byte */
    return UZ_OK;
}

uz_result uz__text_putc(uz_buf *b, char c)
{
    return uz__text_put(b, &c, 1);
}

/* Implied capacity of an array of n elements: 0, then 4, then the next power of two. */
uz_result uz__grow(void **array, size_t n, size_t elem_size)
{
    size_t cap;
    if (n == 0)
        cap = 4;
    else if (n >= 4 && (n & (n - 1)) == 0)
        cap = 2 * n;
    else
        return UZ_OK;
    if (cap > (size_t)-1 / elem_size)
        return UZ_ERR_NOMEM;
    void *p = realloc(*array, cap * elem_size);
    if (!p)
        return UZ_ERR_NOMEM;
    *array = p;
    return UZ_OK;
}

char *uz__strndup(const char *s, size_t len)
{
    char *p = malloc(len + 1);
    if (!p)
        return NULL;
    memcpy(p, s, len);
    p[len] = '\0';
    return p;
}

static uz_result add_string(char ***array, size_t *n, const char *text, size_t len)
{
    if (*n >= UZ_LIMIT_LIST || len > UZ_LIMIT_TEXT)
        return UZ_ERR_LIMIT;
    if (uz__grow((void **)array, *n, sizeof **array) != UZ_OK)
        return UZ_ERR_NOMEM;
    char *s = uz__strndup(text, len);
    if (!s)
        return UZ_ERR_NOMEM;
    (*array)[(*n)++] = s;
    return UZ_OK;
}

static void free_strings(char **array, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(array[i]);
    free(array);
}

/* ---- building ---- */

void uz_game_init(uz_game *game)
{
    memset(game, 0, sizeof *game);
    uz_position_startpos(&game->start);
}

uz_result uz_game_add_tag(uz_game *game, const char *name, const char *value)
{
    uz_result rc = UZ_ERR_NOMEM;
    char *n = NULL, *v = NULL;
    if (game->n_tags >= UZ_LIMIT_LIST || strlen(name) > UZ_LIMIT_TEXT || strlen(value) > UZ_LIMIT_TEXT)
        return UZ_ERR_LIMIT;
    if (uz__grow((void **)&game->tags, game->n_tags, sizeof *game->tags) != UZ_OK)
        goto fail;
    n = uz__strndup(name, strlen(name));
    v = uz__strndup(value, strlen(value));
    if (!n || !v)
        goto fail;
    game->tags[game->n_tags].name = n;
    game->tags[game->n_tags].value = v;
    game->n_tags++;
    return UZ_OK;
fail:
    free(n);
    free(v);
    return rc;
}

uz_node *uz_line_add_move(uz_line *line, uz_move move)
{
    if (uz__grow((void **)&line->nodes, line->n_nodes, sizeof *line->nodes) != UZ_OK)
        return NULL;
    uz_node *node = &line->nodes[line->n_nodes++];
    memset(node, 0, sizeof *node);
    node->move = move;
    return node;
}

/* Capacity of an order string holding len bytes (terminator included): 8, then the next
 * power of two, so that a node with a million NAGs is not reallocated a million times. */
static size_t order_cap(size_t len)
{
    size_t cap = 8;
    while (cap < len)
        cap *= 2;
    return cap;
}

/* Records in node->order (one byte per annotation, plus a terminator) the kind of the
 * annotation just added. Without memory the order is dropped (NULL: the export order). */
static uz_result order_add(uz_node *node, char kind)
{
    size_t n = node->n_nags + node->n_comments + node->n_variations; /* the new one counted */
    char *o = node->order;
    if (n == 1 || order_cap(n + 1) != order_cap(n))
        o = n == 1 || node->order ? realloc(node->order, order_cap(n + 1)) : NULL;
    if (!o) {
        free(node->order);
        node->order = NULL;
        return UZ_ERR_NOMEM;
    }
    o[n - 1] = kind;
    o[n] = 0;
    node->order = o;
    return UZ_OK;
}

bool uz_node_order_is_plain(const uz_node *node)
{
    size_t n = node->n_nags + node->n_comments + node->n_variations;
    for (size_t i = 0; node->order && i < n; i++) {
        char want = i < node->n_nags ? 'n' : i < node->n_nags + node->n_comments ? 'c' : 'v';
        if (node->order[i] != want)
            return false;
    }
    return true;
}

uz_result uz_node_set_order(uz_node *node, const char *order, size_t len)
{
    size_t n = node->n_nags + node->n_comments + node->n_variations, counts[3] = {0};
    if (len != n || !node->order)
        return UZ_ERR_ARG;
    for (size_t i = 0; i < len; i++) {
        const char *k = memchr("ncv", order[i], 3);
        if (!k || !order[i])
            return UZ_ERR_ARG;
        counts[k - "ncv"]++;
    }
    if (counts[0] != node->n_nags || counts[1] != node->n_comments || counts[2] != node->n_variations)
        return UZ_ERR_ARG;
    memcpy(node->order, order, len);
    return UZ_OK;
}

uz_line *uz_node_add_variation(uz_node *node)
{
    if (node->n_variations >= UZ_LIMIT_LIST)
        return NULL;
    if (uz__grow((void **)&node->variations, node->n_variations, sizeof *node->variations) != UZ_OK)
        return NULL;
    uz_line *line = &node->variations[node->n_variations++];
    if (order_add(node, 'v') != UZ_OK) {
        node->n_variations--;
        return NULL;
    }
    memset(line, 0, sizeof *line);
    return line;
}

uz_result uz_node_add_nag(uz_node *node, uint8_t nag)
{
    if (node->n_nags >= UZ_LIMIT_LIST)
        return UZ_ERR_LIMIT;
    if (uz__grow((void **)&node->nags, node->n_nags, sizeof *node->nags) != UZ_OK)
        return UZ_ERR_NOMEM;
    node->nags[node->n_nags++] = nag;
    return order_add(node, 'n');
}

uz_result uz_node_add_comment(uz_node *node, const char *text, size_t len)
{
    uz_result r = add_string(&node->comments, &node->n_comments, text, len);
    return r == UZ_OK ? order_add(node, 'c') : r;
}

uz_result uz_line_add_pre_comment(uz_line *line, const char *text, size_t len)
{
    return add_string(&line->pre_comments, &line->n_pre_comments, text, len);
}

uz_result uz_game_add_trailing_comment(uz_game *game, const char *text, size_t len)
{
    return add_string(&game->trailing_comments, &game->n_trailing_comments, text, len);
}

/* ---- freeing ---- */

static void line_free(uz_line *line)
{
    for (size_t i = 0; i < line->n_nodes; i++) {
        uz_node *node = &line->nodes[i];
        free(node->nags);
        free(node->order);
        free_strings(node->comments, node->n_comments);
        for (size_t j = 0; j < node->n_variations; j++)
            line_free(&node->variations[j]);
        free(node->variations);
    }
    free(line->nodes);
    free_strings(line->pre_comments, line->n_pre_comments);
}

void uz_game_clear(uz_game *game)
{
    if (!game)
        return;
    for (size_t i = 0; i < game->n_tags; i++) {
        free(game->tags[i].name);
        free(game->tags[i].value);
    }
    free(game->tags);
    line_free(&game->main);
    free_strings(game->trailing_comments, game->n_trailing_comments);
    free(game->raw);
    uz_game_init(game);
}

uz_result uz_game_set_raw(uz_game *game, const char *text, size_t len)
{
    char *copy = malloc(len + 1);
    if (!copy)
        return UZ_ERR_NOMEM;
    if (len)
        memcpy(copy, text, len);
    copy[len] = 0;
    free(game->raw);
    game->raw = copy;
    game->raw_len = len;
    return UZ_OK;
}

uz_result uz_game_set_verbatim(uz_game *game, const char *text, size_t len)
{
    long number = game->number, first_line = game->first_line;
    uz_game_clear(game);
    game->number = number;
    game->first_line = first_line;
    game->verbatim = true;
    return uz_game_set_raw(game, text, len);
}

/* ---- queries ---- */

const char *uz_game_tag(const uz_game *game, const char *name)
{
    for (size_t i = 0; i < game->n_tags; i++)
        if (strcmp(game->tags[i].name, name) == 0)
            return game->tags[i].value;
    return NULL;
}

static const char *const roster[7] = {"Event", "Site", "Date", "Round", "White", "Black", "Result"};

void uz__tag_order(const uz_game *game, size_t *order)
{
    size_t k = 0;
    for (int r = 0; r < 7; r++)
        for (size_t i = 0; i < game->n_tags; i++)
            if (strcmp(game->tags[i].name, roster[r]) == 0)
                order[k++] = i;
    for (size_t i = 0; i < game->n_tags; i++) {
        bool in_roster = false;
        for (int r = 0; r < 7 && !in_roster; r++)
            in_roster = strcmp(game->tags[i].name, roster[r]) == 0;
        if (!in_roster)
            order[k++] = i;
    }
}

static bool strings_equal(char *const *a, size_t na, char *const *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

static bool line_equal(const uz_line *a, const uz_line *b)
{
    if (a->n_nodes != b->n_nodes || !strings_equal(a->pre_comments, a->n_pre_comments, b->pre_comments, b->n_pre_comments))
        return false;
    for (size_t i = 0; i < a->n_nodes; i++) {
        const uz_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->move != y->move || x->n_nags != y->n_nags || x->n_variations != y->n_variations)
            return false;
        if (x->n_nags && memcmp(x->nags, y->nags, x->n_nags) != 0)
            return false;
        if (!strings_equal(x->comments, x->n_comments, y->comments, y->n_comments))
            return false;
        size_t n_ann = x->n_nags + x->n_comments + x->n_variations; /* the same for y now */
        if (n_ann && (!x->order || !y->order || memcmp(x->order, y->order, n_ann) != 0) &&
            !(uz_node_order_is_plain(x) && uz_node_order_is_plain(y)))
            return false;
        for (size_t j = 0; j < x->n_variations; j++)
            if (!line_equal(&x->variations[j], &y->variations[j]))
                return false;
    }
    return true;
}

static bool tags_equal(const uz_game *a, const uz_game *b)
{
    if (a->n_tags != b->n_tags)
        return false;
    if (a->n_tags == 0)
        return true;
    bool eq = false;
    size_t *oa = malloc(a->n_tags * sizeof *oa);
    size_t *ob = malloc(b->n_tags * sizeof *ob);
    if (!oa || !ob)
        goto done;
    uz__tag_order(a, oa);
    uz__tag_order(b, ob);
    eq = true;
    for (size_t i = 0; i < a->n_tags && eq; i++) {
        const uz_tag *x = &a->tags[oa[i]], *y = &b->tags[ob[i]];
        eq = strcmp(x->name, y->name) == 0 && strcmp(x->value, y->value) == 0;
    }
done:
    free(oa);
    free(ob);
    return eq;
}

static bool position_equal(const uz_position *a, const uz_position *b)
{
    return memcmp(a->squares, b->squares, sizeof a->squares) == 0 && a->side == b->side &&
           a->castling == b->castling && a->chess960 == b->chess960 && a->key == b->key && a->halfmove == b->halfmove &&
           a->fullmove == b->fullmove;
}

bool uz_game_equal(const uz_game *a, const uz_game *b)
{
    if (a->verbatim || b->verbatim || a->text_only || b->text_only)
        return a->verbatim == b->verbatim && a->text_only == b->text_only && a->raw_len == b->raw_len &&
               (a->raw_len == 0 || memcmp(a->raw, b->raw, a->raw_len) == 0);
    return a->result == b->result && a->has_fen == b->has_fen && position_equal(&a->start, &b->start) &&
           tags_equal(a, b) && line_equal(&a->main, &b->main) &&
           strings_equal(a->trailing_comments, a->n_trailing_comments, b->trailing_comments,
                         b->n_trailing_comments);
}
