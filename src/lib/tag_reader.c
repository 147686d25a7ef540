/* uz_tag_reader (ucizip_experimental.h): the games' tags of an archive from its structure
 * streams only, without an engine; the game count from the members' indexes. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "archive/archive.h"
#include "block/game_struct.h"
#include "block/block_codec.h"

struct uz_tag_reader {
    uz_archive_reader *reader;
    bool in_member;
    uz_archive_block block;
    uz_block_game *games;         /* the block's games, moves not decoded */
    size_t cap, n_games, next;
    uint64_t number;              /* records handed out so far */
    uz_lib_tag_pairs pairs;
    uz_archive_header header;     /* the current member's */
    /* Games of the current block decoded ahead (uz_tag_reader_decode): a block's games decode
     * from its first (the opening counts and clocks run through the earlier games), so a
     * second game wanted from a block decodes the rest of it at once. */
    uz_game *ahead;               /* games [ahead_from, n_games) of the block, once decoded */
    size_t ahead_from;
    size_t ahead_next;            /* the first of them not handed out yet */
    bool decoded_in_block;        /* a game of this block was decoded alone */
    bool ahead_failed;            /* the rest did not decode together: games go one by one */
    /* Decoding the games handed out (uz_tag_reader_decode): */
    bool decoding;
    uz_member_decoder md;
    uz_engine_settings base;      /* the engine the options name; unused when have_base is false */
    bool have_base;
    int workers;
    char *cache_path;             /* the persistent cache taken (released at close) */
};

_Static_assert(offsetof(uz_tag_reader, reader) == 0, "uz_lib_scanner_open opens the first member");

uz_result uz_tag_reader_open(uz_tag_reader **out, FILE *f, const char *name, uz_diag *diag)
{
    *out = uz_lib_scanner_open(sizeof **out, f, name, diag);
    return *out ? UZ_OK : UZ_ERR_NOMEM;
}

static void free_ahead(uz_tag_reader *r)
{
    if (r->ahead)
        for (size_t i = r->ahead_from; i < r->n_games; i++)
            uz_game_clear(&r->ahead[i - r->ahead_from]);
    free(r->ahead);
    r->ahead = NULL;
    r->ahead_from = r->ahead_next = 0;
}

static void free_games(uz_tag_reader *r)
{
    free_ahead(r);
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
    free_ahead(r);
    r->decoded_in_block = r->ahead_failed = false;
    uz_result res;
    for (;;) {
        if (!r->in_member) {
            if ((res = uz_archive_read_header(r->reader, &r->header, diag)) != UZ_OK)
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
        res = uz_block_struct_read(b->structure.data, b->structure.size, b->struct_version, b->tag_version,
                                   b->comment_revision, b->comment_text, r->games, b->n_games, NULL,
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

const uz_game *uz_tag_reader_game(const uz_tag_reader *r)
{
    return r->next > 0 ? &r->games[r->next - 1].game : NULL;
}

uz_result uz_tag_reader_decode_with(uz_tag_reader *r, const uz_options *o, uz_diag *diag)
{
    if (r->decoding) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "the reader decodes already");
        return UZ_ERR_ARG;
    }
    r->decoding = true;
    r->workers = o->workers > 0 ? o->workers : 1; /* one game at a time: a second engine would only wait */
    r->md.limits.block_nodes = o->max_block_moves;
    r->md.limits.block_struct_bytes = o->max_block_bytes;
    r->md.limits.engine_memory_mb = o->max_engine_memory_mb;
    if (o->cache_path && !(r->cache_path = strdup(o->cache_path))) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    int builtin_version;
    if (o->engine && !uz_oracle_spec_builtin(o->engine, &builtin_version)) {
        /* (the cache, if any, becomes the engine's store: released at close) */
        uz_oracle_spec spec;
        uz_oracle_spec_from_options(o, &spec);
        uz_result res = uz_lib_engine_settings(&spec, o->on_message, o->user, &r->base, diag);
        r->have_base = res == UZ_OK;
        return res;
    }
    /* The installed profile of each member's engine (a builtin member names its builtin),
     * with the persistent cache if one is given. */
    if (!o->cache_path)
        return UZ_OK;
    uz_result res = uz_lib_cache_acquire(r->cache_path, &r->md.store, o->on_message, o->user, diag);
    if (res != UZ_OK || !r->md.store) { /* unusable (said): the run goes on without it */
        free(r->cache_path);
        r->cache_path = NULL;
    }
    return res;
}

/* Decodes games [index, n_games) of the block into r->ahead; false (nothing kept) if any of
 * them fails, so that a damaged later game is reported where it is met, one game at a time. */
static bool decode_ahead(uz_tag_reader *r, const uz_block_coder *bc, size_t index)
{
    size_t count = r->n_games - index;
    if (!(r->ahead = calloc(count, sizeof *r->ahead)))
        return false;
    for (size_t i = 0; i < count; i++)
        uz_game_init(&r->ahead[i]);
    r->ahead_from = r->ahead_next = index;
    uz_diag ignored = {0};
    if (uz_block_decode(bc, &r->block, index, count, r->ahead, r->number - 1 - index, &ignored) == UZ_OK)
        return true;
    free_ahead(r);
    return false;
}

/* Moves game index of r->ahead into out; its slot is left empty (each record's game is
 * handed out once: a second decode of the same record decodes it again). */
static uz_result hand_over(uz_tag_reader *r, size_t index, uz_game *out)
{
    uz_game_clear(out);
    *out = r->ahead[index - r->ahead_from];
    uz_game_init(&r->ahead[index - r->ahead_from]);
    r->ahead_next = index + 1;
    return UZ_OK;
}

uz_result uz_tag_reader_decode(uz_tag_reader *r, uz_game *out, uz_diag *diag)
{
    if (!r->decoding || r->next == 0) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no game to decode");
        return UZ_ERR_ARG;
    }
    size_t index = r->next - 1;
    if (r->ahead && index >= r->ahead_next)
        return hand_over(r, index, out);
    uz_result res = uz_member_decoder_open(&r->md, &r->header, r->have_base ? &r->base : NULL, r->workers, diag);
    if (res != UZ_OK)
        return res;
    uz_block_coder bc = uz_block_coder_of_member(&r->md);
    /* The first game wanted from a block decodes alone (a filter that picks one game a block
     * pays for that game only); the second decodes the rest of the block at once. */
    bool second = r->decoded_in_block && !r->ahead_failed && !r->ahead;
    r->decoded_in_block = true;
    if (second) {
        if (decode_ahead(r, &bc, index))
            return hand_over(r, index, out);
        r->ahead_failed = true;
    }
    return uz_block_decode(&bc, &r->block, index, 1, out, r->number - 1 - index, diag);
}

void uz_tag_reader_close(uz_tag_reader *r)
{
    if (!r)
        return;
    uz_member_decoder_close(&r->md);
    uz_lib_cache_release(r->cache_path);
    free(r->cache_path);
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
