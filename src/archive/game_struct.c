/* The structure stream: a game's tags, start position, result, comments, NAGs and the
 * shape of its variations, without the moves (those go to the move stream). */
#include <stdlib.h>
#include <string.h>

#include "ucizip/archive.h"

#define MAX_TEXT (16u << 20)    /* one tag value or comment */
#define MAX_COUNT (1u << 20)    /* tags, comments, NAGs or variations in one list */
#define MAX_DEPTH 256           /* nesting of variations */

enum node_flag { NODE_NULL = 1, NODE_NAGS = 2, NODE_COMMENTS = 4, NODE_VARIATIONS = 8 };

static uz_result put_comments(uz_buf *b, char *const *comments, size_t n)
{
    uz_result r = uz_buf_put_varint(b, n);
    for (size_t i = 0; i < n && r == UZ_OK; i++)
        r = uz_buf_put_string(b, comments[i], strlen(comments[i]));
    return r;
}

static uz_result put_line(uz_buf *b, const uz_line *line)
{
    uz_result r = put_comments(b, line->pre_comments, line->n_pre_comments);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, line->n_nodes);
    size_t annotated = 0;
    for (size_t i = 0; i < line->n_nodes; i++) {
        const uz_node *nd = &line->nodes[i];
        annotated += nd->move == UZ_MOVE_NULL || nd->n_nags || nd->n_comments || nd->n_variations;
    }
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, annotated);
    size_t prev = 0;
    for (size_t i = 0; i < line->n_nodes && r == UZ_OK; i++) {
        const uz_node *nd = &line->nodes[i];
        unsigned flags = (nd->move == UZ_MOVE_NULL ? NODE_NULL : 0) | (nd->n_nags ? NODE_NAGS : 0) |
                         (nd->n_comments ? NODE_COMMENTS : 0) | (nd->n_variations ? NODE_VARIATIONS : 0);
        if (!flags)
            continue;
        r = uz_buf_put_varint(b, i - prev);
        prev = i + 1;
        if (r == UZ_OK)
            r = uz_buf_put_varint(b, flags);
        if (r == UZ_OK && (flags & NODE_NAGS)) {
            r = uz_buf_put_varint(b, nd->n_nags);
            for (size_t k = 0; k < nd->n_nags && r == UZ_OK; k++)
                r = uz_buf_put_varint(b, nd->nags[k]);
        }
        if (r == UZ_OK && (flags & NODE_COMMENTS))
            r = put_comments(b, nd->comments, nd->n_comments);
        if (r == UZ_OK && (flags & NODE_VARIATIONS)) {
            r = uz_buf_put_varint(b, nd->n_variations);
            for (size_t k = 0; k < nd->n_variations && r == UZ_OK; k++)
                r = put_line(b, &nd->variations[k]);
        }
    }
    return r;
}

uz_result uz_game_struct_write(uz_buf *b, const uz_game *game, size_t moves_len, uint32_t crc)
{
    uint8_t crc_bytes[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
    uz_result r = uz_buf_put_varint(b, moves_len);
    if (r == UZ_OK)
        r = uz_buf_append(b, crc_bytes, 4);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, game->n_tags);
    for (size_t i = 0; i < game->n_tags && r == UZ_OK; i++) {
        r = uz_buf_put_string(b, game->tags[i].name, strlen(game->tags[i].name));
        if (r == UZ_OK)
            r = uz_buf_put_string(b, game->tags[i].value, strlen(game->tags[i].value));
    }
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, (game->has_fen ? 1u : 0u) | ((unsigned)game->result << 1));
    if (r == UZ_OK && game->has_fen) {
        char fen[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, fen);
        r = uz_buf_put_string(b, fen, strlen(fen));
    }
    if (r == UZ_OK)
        r = put_line(b, &game->main);
    if (r == UZ_OK)
        r = put_comments(b, game->trailing_comments, game->n_trailing_comments);
    return r;
}

/* ---- reading ---- */

/* Limits while reading, so that a damaged stream cannot make us allocate more than a
 * real game could need. */
typedef struct read_budget {
    size_t nodes; /* moves left for the whole game tree */
} read_budget;

static uz_result get_count(uz_cursor *c, size_t *n)
{
    uint64_t v;
    if (uz_cursor_varint(c, &v) != UZ_OK || v > MAX_COUNT || v > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT; /* every counted item takes at least one byte */
    *n = (size_t)v;
    return UZ_OK;
}

static uz_result get_bytes(uz_cursor *c, const uint8_t **s, size_t *n)
{
    if (uz_cursor_string(c, MAX_TEXT, s, n) != UZ_OK || memchr(*s, 0, *n))
        return UZ_ERR_CORRUPT;
    return UZ_OK;
}

/* A NUL-terminated copy of the next string (tags take C strings). */
static uz_result get_text(uz_cursor *c, char **out)
{
    const uint8_t *s;
    size_t n;
    if (get_bytes(c, &s, &n) != UZ_OK)
        return UZ_ERR_CORRUPT;
    char *t = malloc(n + 1);
    if (!t)
        return UZ_ERR_NOMEM;
    memcpy(t, s, n);
    t[n] = 0;
    *out = t;
    return UZ_OK;
}

typedef uz_result (*add_comment_fn)(void *owner, const char *text, size_t len);

static uz_result add_pre(void *line, const char *text, size_t len)
{
    return uz_line_add_pre_comment(line, text, len);
}

static uz_result add_node_comment(void *node, const char *text, size_t len)
{
    return uz_node_add_comment(node, text, len);
}

static uz_result add_trailing(void *game, const char *text, size_t len)
{
    return uz_game_add_trailing_comment(game, text, len);
}

/* Reads a comment list; min is 1 where the flags promised at least one. */
static uz_result get_comments(uz_cursor *c, add_comment_fn add, void *owner, size_t min)
{
    size_t n;
    uz_result r = get_count(c, &n);
    if (r != UZ_OK || n < min)
        return UZ_ERR_CORRUPT;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *s;
        size_t len;
        if ((r = get_bytes(c, &s, &len)) != UZ_OK || (r = add(owner, (const char *)s, len)) != UZ_OK)
            return r;
    }
    return UZ_OK;
}

static uz_result get_line(uz_cursor *c, uz_line *line, int depth, read_budget *budget)
{
    if (depth > MAX_DEPTH)
        return UZ_ERR_CORRUPT;
    uz_result r = get_comments(c, add_pre, line, 0);
    if (r != UZ_OK)
        return r;
    uint64_t n_nodes;
    size_t annotated;
    if (uz_cursor_varint(c, &n_nodes) != UZ_OK || n_nodes > budget->nodes || (r = get_count(c, &annotated)) != UZ_OK ||
        annotated > n_nodes)
        return UZ_ERR_CORRUPT;
    budget->nodes -= (size_t)n_nodes;
    for (uint64_t i = 0; i < n_nodes; i++)
        if (!uz_line_add_move(line, UZ_MOVE_NONE))
            return UZ_ERR_NOMEM;
    size_t next = 0;
    for (size_t a = 0; a < annotated; a++) {
        uint64_t gap, flags;
        if (uz_cursor_varint(c, &gap) != UZ_OK || gap >= n_nodes - next || uz_cursor_varint(c, &flags) != UZ_OK ||
            flags == 0 || flags > 15)
            return UZ_ERR_CORRUPT;
        uz_node *nd = &line->nodes[next + gap];
        next += (size_t)gap + 1;
        if (flags & NODE_NULL)
            nd->move = UZ_MOVE_NULL;
        if (flags & NODE_NAGS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            for (size_t k = 0; k < n; k++) {
                uint64_t v;
                if (uz_cursor_varint(c, &v) != UZ_OK || v > 255)
                    return UZ_ERR_CORRUPT;
                if ((r = uz_node_add_nag(nd, (uint8_t)v)) != UZ_OK)
                    return r;
            }
        }
        if ((flags & NODE_COMMENTS) && (r = get_comments(c, add_node_comment, nd, 1)) != UZ_OK)
            return r;
        if (flags & NODE_VARIATIONS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            for (size_t k = 0; k < n; k++) {
                uz_line *v = uz_node_add_variation(nd);
                if (!v)
                    return UZ_ERR_NOMEM;
                if ((r = get_line(c, v, depth + 1, budget)) != UZ_OK)
                    return r;
            }
        }
    }
    return UZ_OK;
}

uz_result uz_game_struct_read(uz_cursor *c, uz_game *game, size_t *moves_len, uint32_t *crc, uz_diag *diag)
{
    uz_game_clear(game);
    uint64_t len, flags;
    size_t n_tags;
    read_budget budget = {UZ_PGN_MAX_MOVES};
    uz_result r = UZ_ERR_CORRUPT;
    if (uz_cursor_varint(c, &len) != UZ_OK || len > ((uint64_t)1 << 30) || c->end - c->p < 4)
        goto fail;
    *moves_len = (size_t)len;
    *crc = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 | (uint32_t)c->p[3] << 24;
    c->p += 4;
    if ((r = get_count(c, &n_tags)) != UZ_OK)
        goto fail;
    for (size_t i = 0; i < n_tags; i++) {
        char *name = NULL, *value = NULL;
        r = get_text(c, &name);
        if (r == UZ_OK)
            r = get_text(c, &value);
        if (r == UZ_OK)
            r = uz_game_add_tag(game, name, value);
        free(name);
        free(value);
        if (r != UZ_OK)
            goto fail;
    }
    if (uz_cursor_varint(c, &flags) != UZ_OK || flags > 7) {
        r = UZ_ERR_CORRUPT;
        goto fail;
    }
    game->result = (uz_game_result)(flags >> 1);
    game->has_fen = flags & 1;
    if (game->has_fen) {
        char *fen = NULL;
        if ((r = get_text(c, &fen)) != UZ_OK)
            goto fail;
        r = uz_position_from_fen(&game->start, fen, NULL) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
        free(fen);
        if (r != UZ_OK)
            goto fail;
    } else {
        uz_position_startpos(&game->start);
    }
    if ((r = get_line(c, &game->main, 0, &budget)) != UZ_OK)
        goto fail;
    if ((r = get_comments(c, add_trailing, game, 0)) != UZ_OK)
        goto fail;
    return UZ_OK;
fail:
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    else
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt archive: malformed game structure");
    uz_game_clear(game);
    return r == UZ_ERR_NOMEM ? r : UZ_ERR_CORRUPT;
}
