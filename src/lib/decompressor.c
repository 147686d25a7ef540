/* uz_decompressor: archives back to the exact bytes of their games, sequentially or one
 * game by number; the engine kept between members and archives while it stays the same. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "block/block_codec.h"

struct uz_decompressor {
    uz_options opt;
    char *cache_path;
    uz_engine_settings base;      /* the engine options name; unused when have_base is false */
    bool have_base;
    int workers;
    uz_member_decoder md;
    /* Sequential reading (begin / next_game / decode). */
    uz_archive_reader *reader;
    const char *name;
    bool in_member;
    uz_archive_block block;
    uz_game *games;               /* the decoded block */
    size_t cap, n_games, next;
    uint64_t games_done, moves_done;
    uz_archive_header first_header; /* of the archive being read, once have_header */
    bool have_header;
    char *text;                   /* export-format text handed out with canonical */
    uz_game *last;                /* the game last handed out (uz_decompressor_game_tags) */
    uint64_t last_number;
    uz_lib_tag_pairs pairs;
    char profile[UZ_ENGINE_PATH_MAX + UZ_ENGINE_NAME_MAX + 160]; /* uz_decompressor_engine_profile's text */
};

uz_result uz_decompressor_open(uz_decompressor **out, const uz_options *options, uz_diag *diag)
{
    *out = NULL;
    uz_result r = uz_lib_check_options(options, diag);
    if (r != UZ_OK)
        return r;
    uz_decompressor *d = calloc(1, sizeof *d);
    if (!d) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    d->opt = *options;
    d->opt.cache_path = NULL;
    d->workers = uz_oracle_workers(options->workers);
    d->md.limits.block_nodes = options->max_block_moves;
    d->md.limits.block_struct_bytes = options->max_block_bytes;
    d->md.limits.engine_memory_mb = options->max_engine_memory_mb;
    if (options->cache_path && !(d->cache_path = strdup(options->cache_path))) {
        free(d);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    if (!options->engine && d->cache_path &&
        (r = uz_lib_cache_acquire(d->cache_path, &d->md.store, options->on_message, options->user, diag)) !=
            UZ_OK) {
        free(d->cache_path);
        free(d);
        return r;
    }
    int builtin_version;
    if (options->engine && !uz_oracle_spec_builtin(options->engine, &builtin_version)) {
        /* The archive's search settings replace the ones the options give. (A builtin
         * member always names its builtin: "--engine builtin" asks for nothing more.) */
        uz_oracle_spec spec;
        uz_oracle_spec_from_options(options, &spec);
        if ((r = uz_lib_engine_settings(&spec, options->on_message, options->user, &d->base, diag)) != UZ_OK) {
            free(d->cache_path);
            free(d);
            return r;
        }
        d->have_base = true;
    }
    *out = d;
    return UZ_OK;
}

static void end_reading(uz_decompressor *d)
{
    uz_archive_reader_close(d->reader);
    d->reader = NULL;
    d->in_member = false;
    d->n_games = d->next = 0;
    d->last = NULL;
}

void uz_decompressor_close(uz_decompressor *d)
{
    if (!d)
        return;
    end_reading(d);
    for (size_t i = 0; i < d->cap; i++)
        uz_game_clear(&d->games[i]);
    free(d->games);
    free(d->text);
    free(d->pairs.pairs);
    uz_archive_block_free(&d->block);
    uz_member_decoder_close(&d->md);
    uz_lib_cache_release(d->cache_path);
    free(d->cache_path);
    free(d);
}

void uz_decompressor_use_oracle(uz_decompressor *d, struct uz_oracle *oracle)
{
    d->md.oracle = oracle;
}

const char *uz_decompressor_engine_profile(const uz_decompressor *d)
{
    const uz_pool *pool = uz_oracle_set_pool(d->md.oracles);
    const uz_engine_settings *s = pool ? uz_pool_settings(pool) : NULL;
    if (d->have_base || !s)
        return NULL;
    uz_decompressor *m = (uz_decompressor *)d; /* the text is a cache of the pool's words */
    if (s->exe_sha256[0])
        snprintf(m->profile, sizeof m->profile,
                 "%s from the engine store (%s), as the installed engine does not match the archive",
                 uz_pool_engine_name(pool), s->path);
    else
        snprintf(m->profile, sizeof m->profile, "profile '%s' (%s, %s), the installed profile matching the archive",
                 s->profile, uz_pool_engine_name(pool), s->path);
    return d->profile;
}

static uz_result reserve_games(uz_decompressor *d, size_t n, uz_diag *diag)
{
    if (n <= d->cap)
        return UZ_OK;
    uz_game *g = realloc(d->games, n * sizeof *g);
    if (!g) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    d->games = g;
    for (size_t i = d->cap; i < n; i++)
        uz_game_init(&d->games[i]);
    d->cap = n;
    return UZ_OK;
}

uz_result uz_decompressor_begin(uz_decompressor *d, FILE *in, const char *name, uz_diag *diag)
{
    end_reading(d);
    d->name = name ? name : "<archive>";
    d->games_done = d->moves_done = 0;
    d->have_header = false;
    uz_result r = uz_archive_reader_open(&d->reader, in, d->name);
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        return r;
    }
    uz_archive_reader_set_limits(d->reader, &d->md.limits);
    return UZ_OK;
}

/* Decodes the next block of the archive being read (the next member's header first
 * where one ends). UZ_DONE at the end of the archive. */
static uz_result next_block(uz_decompressor *d, uz_diag *diag)
{
    uz_result r;
    for (;;) {
        if (!d->in_member) {
            uz_archive_header header;
            if ((r = uz_archive_read_header(d->reader, &header, diag)) != UZ_OK)
                return r;
            if (!d->have_header) {
                d->first_header = header;
                d->have_header = true;
            }
            r = uz_member_decoder_open(&d->md, &header, d->have_base ? &d->base : NULL, d->workers, diag);
            if (r != UZ_OK)
                return r;
            d->in_member = true;
        }
        r = uz_archive_read_block(d->reader, &d->block, diag);
        if (r == UZ_DONE) {
            d->in_member = false;
            continue;
        }
        if (r != UZ_OK)
            return r;
        uz_block_coder bc = uz_block_coder_of_member(&d->md);
        if ((r = reserve_games(d, d->block.n_games, diag)) != UZ_OK ||
            (r = uz_block_decode(&bc, &d->block, 0, d->block.n_games, d->games, d->games_done, diag)) != UZ_OK)
            return r;
        d->n_games = d->block.n_games;
        d->next = 0;
        d->games_done += d->block.n_games;
        d->moves_done += d->block.tree_moves;
        if (d->opt.on_progress)
            d->opt.on_progress(d->opt.user, d->games_done, d->moves_done, uz_archive_reader_offset(d->reader));
        return UZ_OK;
    }
}

/* The text of a decoded game: its exact bytes, or its export format with canonical. */
static uz_result game_text(uz_decompressor *d, const uz_game *game, const char **text, size_t *len, uz_diag *diag)
{
    if (!d->opt.canonical) {
        *text = game->raw ? game->raw : "";
        *len = game->raw_len;
        return UZ_OK;
    }
    free(d->text);
    d->text = NULL;
    uz_result r = uz_pgn_game_to_string(game, &d->text, len);
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    *text = d->text;
    return r;
}

uz_result uz_decompressor_next_game(uz_decompressor *d, const char **text, size_t *len, uz_diag *diag)
{
    if (!d->reader) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no archive begun");
        return UZ_ERR_ARG;
    }
    while (d->next == d->n_games) {
        uz_result r = next_block(d, diag);
        if (r != UZ_OK)
            return r;
    }
    d->last = &d->games[d->next++];
    d->last_number = d->games_done - d->n_games + d->next;
    return game_text(d, d->last, text, len, diag);
}

uz_result uz_decompressor_decode(uz_decompressor *d, FILE *in, const char *name, FILE *out, uint64_t *games,
                                 uz_diag *diag)
{
    uz_result r = uz_decompressor_begin(d, in, name, diag);
    const char *text;
    size_t len;
    while (r == UZ_OK && (r = uz_decompressor_next_game(d, &text, &len, diag)) == UZ_OK)
        if (out && len && fwrite(text, 1, len, out) != len) {
            r = UZ_ERR_IO;
            uz_diag_set(diag, r, 0, 0, "write error: %s", strerror(errno));
        }
    if (games)
        *games = d->games_done;
    end_reading(d);
    return r == UZ_DONE ? UZ_OK : r;
}

/* For uz_archive_seek_game: a block before the wanted game must hold the games it counts. */
static uz_result check_earlier_block(void *user, const uz_archive_header *header, const uz_archive_block *block,
                                     uz_diag *diag)
{
    (void)header;
    const uz_decompressor *d = user;
    return uz_block_check_games(&d->md.limits, block, diag);
}

uz_result uz_decompressor_game(uz_decompressor *d, FILE *f, const char *name, uint64_t index, const char **text,
                               size_t *len, uz_diag *diag)
{
    uz_archive_header header;
    size_t in_block = 0;
    end_reading(d);
    name = name ? name : "<archive>";
    if (index < 1) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "games are numbered from 1");
        return UZ_ERR_ARG;
    }
    uz_archive_block_check check = {check_earlier_block, d};
    uz_result r = uz_archive_seek_game(f, name, index, &header, &d->block, &in_block, &check, diag);
    if (r == UZ_OK)
        r = reserve_games(d, 1, diag);
    if (r == UZ_OK)
        r = uz_member_decoder_open(&d->md, &header, d->have_base ? &d->base : NULL, d->workers, diag);
    if (r == UZ_OK) {
        uz_block_coder bc = uz_block_coder_of_member(&d->md);
        r = uz_block_decode(&bc, &d->block, in_block, 1, &d->games[0], index - 1 - in_block, diag);
    }
    if (r != UZ_OK)
        return r;
    d->last = &d->games[0];
    d->last_number = index;
    return game_text(d, d->last, text, len, diag);
}

uz_result uz_decompressor_game_tags(uz_decompressor *d, uz_game_tags *game, uz_diag *diag)
{
    if (!d->last) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no game decoded");
        return UZ_ERR_ARG;
    }
    return uz_lib_game_tags(d->last, d->last_number, &d->pairs, game, diag);
}

bool uz_lib_decompressor_first_header(const uz_decompressor *d, uz_archive_header *out)
{
    if (d->have_header)
        *out = d->first_header;
    return d->have_header;
}
