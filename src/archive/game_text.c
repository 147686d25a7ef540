/* Text records: a game's layout and the patch to its exact bytes. */
#include <stdlib.h>
#include <string.h>

#include "game_text.h"
#include "text_patch.h"

static uz_result put_layout(uz_buf *b, const uz_pgn_layout *l)
{
    const uint64_t v[5] = {l->eol, l->flags, l->wrap, l->tag_gap, l->end_eols};
    for (int i = 0; i < 5; i++)
        if (uz_buf_put_varint(b, v[i]) != UZ_OK)
            return UZ_ERR_NOMEM;
    return UZ_OK;
}

static uz_result get_layout(uz_cursor *c, uz_pgn_layout *l)
{
    static const uint64_t max[5] = {UZ_EOL_CR, UZ_LAYOUT_ALL_FLAGS, 65535, 255, 255};
    uint64_t v[5];
    for (int i = 0; i < 5; i++)
        if (uz_cursor_varint(c, &v[i]) != UZ_OK || v[i] > max[i])
            return UZ_ERR_CORRUPT;
    *l = (uz_pgn_layout){(uint8_t)v[0], (uint8_t)v[1], (uint16_t)v[2], (uint8_t)v[3], (uint8_t)v[4]};
    return UZ_OK;
}

/* The patch from the game rendered with layout to its bytes, into patch (emptied first). */
static uz_result try_layout(const uz_game *game, const uz_pgn_layout *layout, uz_buf *patch)
{
    char *text;
    size_t len;
    uz_result r = uz_pgn_game_render(game, layout, &text, &len);
    if (r != UZ_OK)
        return r;
    patch->size = 0;
    if (len == game->raw_len && memcmp(text, game->raw, len) == 0)
        r = uz_buf_put_varint(patch, 0);
    else
        r = uz_patch_make(text, len, game->raw, game->raw_len, patch);
    free(text);
    return r;
}

uz_result uz_game_text_encode(const uz_game *game, uz_pgn_layout *prev, bool *have_prev, uz_buf *out)
{
    uz_buf patch = {0}, best = {0};
    uz_pgn_layout guess, chosen;
    uz_result r = UZ_ERR_LIMIT, rg;
    if (*have_prev) {
        r = try_layout(game, prev, &patch);
        if (r != UZ_OK && r != UZ_ERR_LIMIT)
            goto out;
        chosen = *prev;
    }
    if (r != UZ_OK || patch.size > 1) {
        uz_pgn_layout_guess(game, game->raw, game->raw_len, &guess);
        if (r == UZ_OK) { /* keep the first patch while trying the guess */
            uz_buf t = best;
            best = patch;
            patch = t;
        }
        rg = try_layout(game, &guess, &patch);
        if (rg != UZ_OK && rg != UZ_ERR_LIMIT) {
            r = rg;
            goto out;
        }
        if (rg == UZ_OK && (r != UZ_OK || patch.size < best.size)) {
            chosen = guess;
            r = UZ_OK;
        } else if (r == UZ_OK) {
            uz_buf t = best;
            best = patch;
            patch = t;
        }
    }
    if (r != UZ_OK)
        goto out;
    /* A rendering this far from the bytes is better kept as text. */
    if (patch.size > 64 && patch.size > game->raw_len / 2) {
        r = UZ_ERR_LIMIT;
        goto out;
    }
    if ((r = put_layout(out, &chosen)) == UZ_OK)
        r = uz_buf_append(out, patch.data, patch.size);
    *prev = chosen;
    *have_prev = true;
out:
    uz_buf_free(&patch);
    uz_buf_free(&best);
    return r;
}

uz_result uz__game_text_skip(uz_cursor *c)
{
    uz_pgn_layout l;
    uint64_t n_ops, v;
    const uint8_t *s;
    size_t n;
    if (get_layout(c, &l) != UZ_OK || uz_cursor_varint(c, &n_ops) != UZ_OK || n_ops > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT;
    for (uint64_t i = 0; i < n_ops; i++)
        if (uz_cursor_varint(c, &v) != UZ_OK || uz_cursor_varint(c, &v) != UZ_OK ||
            uz_cursor_string(c, (size_t)(c->end - c->p), &s, &n) != UZ_OK)
            return UZ_ERR_CORRUPT;
    return UZ_OK;
}

uz_result uz_game_text_decode(const uz_game *game, const uint8_t *rec, size_t rec_len, size_t max_len, uz_buf *out)
{
    uz_cursor c = {rec, rec + rec_len};
    uz_pgn_layout layout;
    char *text;
    size_t len;
    out->size = 0;
    if (get_layout(&c, &layout) != UZ_OK)
        return UZ_ERR_CORRUPT;
    uz_result r = uz_pgn_game_render(game, &layout, &text, &len);
    if (r == UZ_ERR_ARG)
        return UZ_ERR_CORRUPT;
    if (r != UZ_OK)
        return r;
    r = uz_patch_apply(text, len, &c, max_len, out);
    free(text);
    if (r == UZ_OK && c.p != c.end)
        r = UZ_ERR_CORRUPT;
    return r;
}
