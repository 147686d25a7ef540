/* uz_tag_reader (ucizip_experimental.h): the games' tags of an archive from its structure
 * streams only, without an engine; the game count from the members' indexes. */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "archive/archive.h"
#include "block/game_struct.h"

struct uz_tag_reader {
    uz_archive_reader *reader;
    bool in_member;
    uz_archive_block block;
    uz_block_game *games;         /* the block's games, moves not decoded */
    size_t cap, n_games, next;
    uint64_t number;              /* records handed out so far */
    uz_lib_tag_pairs pairs;
};

uz_result uz_tag_reader_open(uz_tag_reader **out, FILE *f, const char *name, uz_diag *diag)
{
    *out = NULL;
    uz_tag_reader *r = calloc(1, sizeof *r);
    if (!r || uz_archive_reader_open(&r->reader, f, name ? name : "<archive>") != UZ_OK) {
        free(r);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    *out = r;
    return UZ_OK;
}

static void free_games(uz_tag_reader *r)
{
    uz_block_games_free(r->games, r->cap);
    r->games = NULL;
    r->cap = 0;
}

static uz_result reserve(uz_tag_reader *r, size_t n, uz_diag *diag)
{
    if (n <= r->cap)
        return UZ_OK;
    free_games(r);
    if (!(r->games = uz_block_games_new(n))) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    r->cap = n;
    return UZ_OK;
}

/* Reads the next block's structure (the next member's header first where one ends).
 * UZ_DONE at the end of the archive. */
static uz_result next_block(uz_tag_reader *r, uz_diag *diag)
{
    uz_result res;
    for (;;) {
        if (!r->in_member) {
            uz_archive_header header;
            if ((res = uz_archive_read_header(r->reader, &header, diag)) != UZ_OK)
                return res;
            r->in_member = true;
        }
        res = uz_archive_read_block(r->reader, &r->block, diag);
        if (res == UZ_DONE) {
            r->in_member = false;
            continue;
        }
        if (res != UZ_OK)
            return res;
        const uz_archive_block *b = &r->block;
        if ((res = reserve(r, b->n_games, diag)) != UZ_OK)
            return res;
        res = uz_block_struct_read(b->structure.data, b->structure.size, b->struct_version, r->games, b->n_games, NULL,
                                   diag);
        if (res != UZ_OK)
            return res;
        r->n_games = b->n_games;
        r->next = 0;
        return UZ_OK;
    }
}

uz_result uz_tag_reader_next(uz_tag_reader *r, uz_game_tags *game, uz_diag *diag)
{
    while (r->next == r->n_games) {
        uz_result res = next_block(r, diag);
        if (res != UZ_OK)
            return res;
    }
    r->number++;
    return uz_lib_game_tags(&r->games[r->next++].game, r->number, &r->pairs, game, diag);
}

void uz_tag_reader_close(uz_tag_reader *r)
{
    if (!r)
        return;
    free_games(r);
    free(r->pairs.pairs);
    uz_archive_block_free(&r->block);
    uz_archive_reader_close(r->reader);
    free(r);
}

uz_result uz_archive_game_count(FILE *f, const char *name, uint64_t *games, uz_diag *diag)
{
    *games = 0;
    size_t n = 0;
    uz_result r = uz_archive_members(f, name, NULL, 0, &n, diag);
    if (r != UZ_OK || n == 0)
        return r;
    uz_member_info *members = calloc(n, sizeof *members);
    if (!members) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    r = uz_archive_members(f, name, members, n, &n, diag);
    for (size_t i = 0; r == UZ_OK && i < n; i++)
        *games += members[i].games;
    free(members);
    return r;
}
