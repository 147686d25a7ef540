/* A game's tags in the form ucizip_experimental.h hands them out (uz_game_tags), for the
 * tag reader and the decompressor. */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "pgn/tagfilter.h"

uz_result uz_lib_game_tags(uz_game *game, uint64_t number, uz_lib_tag_pairs *pairs, uz_game_tags *out, uz_diag *diag)
{
    uz_result r = uz_game_verbatim_tags(game);
    if (r == UZ_OK && game->n_tags > pairs->cap) {
        uz_tag_pair *p = realloc(pairs->pairs, game->n_tags * sizeof *p);
        if (!p)
            r = UZ_ERR_NOMEM;
        else {
            pairs->pairs = p;
            pairs->cap = game->n_tags;
        }
    }
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        return r;
    }
    for (size_t i = 0; i < game->n_tags; i++) {
        pairs->pairs[i].name = game->tags[i].name;
        /* Before the moves are decoded a derived value is not known: say so. */
        bool derived = false;
        for (size_t d = 0; d < game->n_derived; d++)
            derived |= game->derived[d].tag == i;
        pairs->pairs[i].value = derived ? NULL : game->tags[i].value;
    }
    memset(out, 0, sizeof *out);
    out->number = number;
    out->is_game = !game->text_only;
    out->as_text = game->verbatim;
    out->n_tags = game->n_tags;
    out->tags = pairs->pairs;
    return UZ_OK;
}
