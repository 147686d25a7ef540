/* Text records: a game's layout and the patch to its exact bytes. */
#include <stdlib.h>
#include <string.h>

#include "block/game_text.h"

#include "block/block_internal.h"
#include "block/text_patch.h"

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
    *l = (uz_pgn_layout){(uint8_t)v[0], (uint16_t)v[1], (uint16_t)v[2], (uint8_t)v[3], (uint8_t)v[4]};
    return UZ_OK;
}

/* The patch from the game rendered with layout to its bytes, into patch (emptied first). */
static uz_result try_layout(const uz_walk *walk, const uz_pgn_layout *layout, uz_buf *patch)
{
    const uz_game *game = walk->game;
    char *text;
    size_t len;
    uz_result r = uz_pgn_walk_render(walk, layout, &text, &len);
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

/* Bytes the rendering with layout shares with the game's at both ends (len + 1 when equal). */
static size_t agreement(const uz_walk *walk, const uz_pgn_layout *layout, uz_result *r)
{
    const uz_game *game = walk->game;
    char *text;
    size_t len, pre = 0, suf = 0;
    if ((*r = uz_pgn_walk_render(walk, layout, &text, &len)) != UZ_OK)
        return 0;
    size_t n = len < game->raw_len ? len : game->raw_len;
    while (pre < n && text[pre] == game->raw[pre])
        pre++;
    if (pre == n && len == game->raw_len) {
        free(text);
        return len + 1;
    }
    while (suf < n - pre && text[len - 1 - suf] == game->raw[game->raw_len - 1 - suf])
        suf++;
    free(text);
    return pre + suf;
}

/* The guessed layout with other wrapping rules and widths: the layouts of common programs. */
static size_t candidates(const uz_pgn_layout *guess, uz_pgn_layout *out, size_t cap)
{
    static const uint16_t widths[] = {0, 79, 80, 78, 75, 72, 255};
    static const uint16_t rules[] = {0, UZ_LAYOUT_WRAP_MOVES, UZ_LAYOUT_WRAP_WHITE,
                                     UZ_LAYOUT_WRAP_WHITE | UZ_LAYOUT_WRAP_FULL, UZ_LAYOUT_MOVE_LINES};
    const uint16_t rule_bits = UZ_LAYOUT_WRAP_MOVES | UZ_LAYOUT_WRAP_WHITE | UZ_LAYOUT_WRAP_FULL | UZ_LAYOUT_MOVE_LINES;
    size_t n = 0;
    out[n++] = *guess;
    for (size_t r = 0; r < sizeof rules / sizeof *rules; r++)
        for (size_t k = 0; k < sizeof widths / sizeof *widths && n < cap; k++) {
            uz_pgn_layout l = *guess;
            l.flags = (uint16_t)((l.flags & ~rule_bits) | rules[r]);
            l.wrap = widths[k] ? widths[k] : guess->wrap;
            out[n++] = l;
        }
    return n;
}

uz_result uz_game_text_encode(const uz_walk *walk, uz_pgn_layout *prev, bool *have_prev, uz_buf *out)
{
    const uz_game *game = walk->game;
    uz_buf patch = {0}, best = {0};
    uz_pgn_layout chosen = {0};
    uz_result r = UZ_ERR_LIMIT, rc;
    bool exact = false;
    if (*have_prev) {
        size_t a = agreement(walk, prev, &rc);
        if (rc != UZ_OK)
            return rc;
        chosen = *prev;
        exact = a == game->raw_len + 1;
    }
    if (!exact) {
        /* Try the guess and its variants; patch only the best of them (and the previous). */
        uz_pgn_layout guess, cand[40];
        uz_pgn_layout_guess(game, game->raw, game->raw_len, &guess);
        size_t n = candidates(&guess, cand, sizeof cand / sizeof *cand), best_agree = 0, pick = 0;
        for (size_t i = 0; i < n && !exact; i++) {
            size_t a = agreement(walk, &cand[i], &rc);
            if (rc != UZ_OK)
                return rc;
            if (a > best_agree)
                best_agree = a, pick = i;
            exact = a == game->raw_len + 1;
        }
        if (*have_prev && !exact) {
            r = try_layout(walk, prev, &best);
            if (r != UZ_OK && r != UZ_ERR_LIMIT)
                goto out;
        }
        rc = try_layout(walk, &cand[pick], &patch);
        if (rc != UZ_OK && rc != UZ_ERR_LIMIT) {
            r = rc;
            goto out;
        }
        if (rc == UZ_OK && (r != UZ_OK || patch.size <= best.size)) {
            chosen = cand[pick];
            r = UZ_OK;
        } else if (r == UZ_OK) {
            uz_buf t = best;
            best = patch;
            patch = t;
        }
    } else {
        r = uz_buf_put_varint(&patch, 0);
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

uz_result uz_game_text_decode(const uz_walk *walk, const uint8_t *rec, size_t rec_len, size_t max_len, uz_buf *out)
{
    uz_cursor c = {rec, rec + rec_len};
    uz_pgn_layout layout;
    char *text;
    size_t len;
    out->size = 0;
    if (get_layout(&c, &layout) != UZ_OK)
        return UZ_ERR_CORRUPT;
    uz_result r = uz_pgn_walk_render(walk, &layout, &text, &len);
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
