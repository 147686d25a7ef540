/* The records of the games on their way into a block (block/game_struct.h): each game
 * replayed once, by its walk, and its text record made from it. */
#include <stdlib.h>
#include <string.h>

#include "block/comment_code.h"
#include "block/engine_code.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "block/tag_code.h"

/* Gives a game without exact bytes (one built in memory) its export-format text as such,
 * rendered from its walk (resolved, its SAN filled). */
static uz_result ensure_raw(uz_block_out_game *rec)
{
    uz_game *game = rec->game;
    if (game->raw || game->text_only)
        return UZ_OK;
    char *text;
    size_t len;
    uz_result r = game->verbatim ? uz_pgn_game_to_string(game, &text, &len)
                                 : uz_pgn_walk_render(&rec->walk, &uz_pgn_layout_export, &text, &len);
    if (r == UZ_OK) {
        game->raw = text;
        game->raw_len = len;
    }
    return r;
}

/* rec's game as a verbatim game of its exact bytes, its walk (of the tree now gone) empty. */
static uz_result make_verbatim(uz_block_out_game *rec)
{
    uz_game *g = rec->game;
    char *raw = g->raw;
    size_t len = g->raw_len;
    uz_walk_free(&rec->walk);
    g->raw = NULL;
    uz_result r = uz_game_set_verbatim(g, raw, len);
    free(raw);
    return r == UZ_OK ? uz_walk_init(&rec->walk, g) : r;
}

/* The walk and text record of one game; *prev / *have_prev: the previous game's layout;
 * current_struct_version: as uz_block_out_games_new. */
static uz_result prepare(uz_block_out_game *rec, uz_pgn_layout *prev, bool *have_prev, bool *current_struct_version)
{
    uz_game *g = rec->game;
    uz_result r = uz_walk_init(&rec->walk, g);
    if (r == UZ_OK && !g->verbatim && !g->text_only && (r = uz_walk_resolve_all(&rec->walk)) == UZ_OK)
        r = uz_walk_fill_san(&rec->walk);
    if (r == UZ_OK && current_struct_version && !*current_struct_version)
        *current_struct_version =
            uz_engine_code_wanted(g) || uz_comment_engine_wanted(g) || uz_tag_code_final_wanted(&rec->walk);
    if (r == UZ_OK)
        r = ensure_raw(rec);
    if (r != UZ_OK || g->verbatim || g->text_only)
        return r;
    r = uz_game_text_encode(&rec->walk, prev, have_prev, &rec->text_rec);
    if (r == UZ_ERR_LIMIT) {
        rec->text_rec.size = 0;
        r = make_verbatim(rec);
    }
    return r;
}

uz_result uz_block_out_games_new(uz_block_out_game **out, uz_game *games, size_t n, bool *current_struct_version)
{
    uz_block_out_game *recs = calloc(n ? n : 1, sizeof *recs);
    uz_pgn_layout prev;
    bool have_prev = false;
    size_t made = 0;
    uz_result r = recs ? UZ_OK : UZ_ERR_NOMEM;
    for (; made < n && r == UZ_OK; made++) {
        uz_block_out_game *rec = &recs[made];
        rec->game = &games[made];
        if ((r = prepare(rec, &prev, &have_prev, current_struct_version)) == UZ_OK)
            rec->crc = uz_crc32(0, rec->game->raw, rec->game->raw_len);
    }
    if (r != UZ_OK) {
        uz_block_out_games_free(recs, made);
        recs = NULL;
    }
    *out = recs;
    return r;
}

void uz_block_out_games_free(uz_block_out_game *games, size_t n)
{
    if (!games)
        return;
    for (size_t i = 0; i < n; i++) {
        uz_walk_free(&games[i].walk);
        uz_buf_free(&games[i].text_rec);
    }
    free(games);
}
