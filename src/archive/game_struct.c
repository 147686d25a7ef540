/* The structure stream: a game's tags, start position, result, comments, NAGs and the
 * shape of its variations, without the moves (those go to the move stream). */
#include <stdlib.h>
#include <string.h>

#include "ucizip/archive.h"

#define MAX_TEXT (16u << 20)    /* one tag value or comment */
#define MAX_COUNT (1u << 20)    /* tags, comments, NAGs, variations or nodes in one list */
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

static uz_result get_count(uz_cursor *c, size_t *n)
{
    uint64_t v;
    if (uz_cursor_varint(c, &v) != UZ_OK || v > MAX_COUNT || v > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT; /* every counted item takes at least one byte */
    *n = (size_t)v;
    return UZ_OK;
}

static uz_result get_text(uz_cursor *c, char **out)
{
    const uint8_t *s;
    size_t n;
    if (uz_cursor_string(c, MAX_TEXT, &s, &n) != UZ_OK || memchr(s, 0, n))
        return UZ_ERR_CORRUPT;
    char *t = malloc(n + 1);
    if (!t)
        return UZ_ERR_NOMEM;
    memcpy(t, s, n);
    t[n] = 0;
    *out = t;
    return UZ_OK;
}

static uz_result get_comments(uz_cursor *c, char ***out, size_t *n_out)
{
    size_t n;
    uz_result r = get_count(c, &n);
    if (r != UZ_OK || n == 0)
        return r;
    char **list = calloc(n, sizeof *list);
    if (!list)
        return UZ_ERR_NOMEM;
    *out = list;
    for (size_t i = 0; i < n; i++) {
        if ((r = get_text(c, &list[i])) != UZ_OK)
            return r;
        *n_out = i + 1;
    }
    return UZ_OK;
}

static uz_result get_line_nodes(uz_cursor *c, uz_line *line, int depth);

static uz_result get_line_full(uz_cursor *c, uz_line *line, int depth)
{
    if (depth > MAX_DEPTH)
        return UZ_ERR_CORRUPT;
    uz_result r = get_comments(c, &line->pre_comments, &line->n_pre_comments);
    return r != UZ_OK ? r : get_line_nodes(c, line, depth);
}

static uz_result get_line_nodes(uz_cursor *c, uz_line *line, int depth)
{
    uint64_t n_nodes;
    size_t annotated;
    if (uz_cursor_varint(c, &n_nodes) != UZ_OK || n_nodes > MAX_COUNT * 16ull)
        return UZ_ERR_CORRUPT;
    uz_result r = get_count(c, &annotated);
    if (r != UZ_OK)
        return r;
    if (annotated > n_nodes)
        return UZ_ERR_CORRUPT;
    if (n_nodes) {
        line->nodes = calloc((size_t)n_nodes, sizeof *line->nodes);
        if (!line->nodes)
            return UZ_ERR_NOMEM;
        line->n_nodes = (size_t)n_nodes;
    }
    size_t next = 0;
    for (size_t a = 0; a < annotated; a++) {
        uint64_t gap, flags;
        if (uz_cursor_varint(c, &gap) != UZ_OK || gap >= n_nodes - next || uz_cursor_varint(c, &flags) != UZ_OK ||
            flags == 0 || flags > 15)
            return UZ_ERR_CORRUPT;
        uz_node *nd = &line->nodes[next + gap];
        next += gap + 1;
        if (flags & NODE_NULL)
            nd->move = UZ_MOVE_NULL;
        if (flags & NODE_NAGS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            if (!(nd->nags = malloc(n)))
                return UZ_ERR_NOMEM;
            nd->n_nags = n;
            for (size_t k = 0; k < n; k++) {
                uint64_t v;
                if (uz_cursor_varint(c, &v) != UZ_OK || v > 255)
                    return UZ_ERR_CORRUPT;
                nd->nags[k] = (uint8_t)v;
            }
        }
        if ((flags & NODE_COMMENTS) &&
            ((r = get_comments(c, &nd->comments, &nd->n_comments)) != UZ_OK || nd->n_comments == 0))
            return r != UZ_OK ? r : UZ_ERR_CORRUPT;
        if (flags & NODE_VARIATIONS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            if (!(nd->variations = calloc(n, sizeof *nd->variations)))
                return UZ_ERR_NOMEM;
            nd->n_variations = n;
            for (size_t k = 0; k < n; k++)
                if ((r = get_line_full(c, &nd->variations[k], depth + 1)) != UZ_OK)
                    return r;
        }
    }
    return UZ_OK;
}

uz_result uz_game_struct_read(uz_cursor *c, uz_game *game, size_t *moves_len, uint32_t *crc, uz_diag *diag)
{
    uz_game_clear(game);
    uint64_t len, flags;
    size_t n_tags;
    uz_result r = UZ_ERR_CORRUPT;
    if (uz_cursor_varint(c, &len) != UZ_OK || len > ((uint64_t)1 << 30) || c->end - c->p < 4)
        goto fail;
    *moves_len = (size_t)len;
    *crc = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 | (uint32_t)c->p[3] << 24;
    c->p += 4;
    if ((r = get_count(c, &n_tags)) != UZ_OK)
        goto fail;
    if (n_tags) {
        if (!(game->tags = calloc(n_tags, sizeof *game->tags))) {
            r = UZ_ERR_NOMEM;
            goto fail;
        }
        for (size_t i = 0; i < n_tags; i++) {
            if ((r = get_text(c, &game->tags[i].name)) != UZ_OK)
                goto fail;
            game->n_tags = i + 1;
            if ((r = get_text(c, &game->tags[i].value)) != UZ_OK)
                goto fail;
        }
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
    if ((r = get_line_full(c, &game->main, 0)) != UZ_OK)
        goto fail;
    if ((r = get_comments(c, &game->trailing_comments, &game->n_trailing_comments)) != UZ_OK)
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
