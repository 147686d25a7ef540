/* Archive blocks coded and decoded with the engine, and the engine check of a member. */
#include <stdlib.h>
#include <string.h>

#include "ucizip/blockcode.h"

uz_result uz_game_canonical_crc(const uz_game *game, uint32_t *crc)
{
    char *text = NULL;
    size_t size = 0;
    uz_result r = uz_pgn_game_to_string(game, &text, &size);
    if (r == UZ_OK)
        *crc = uz_crc32(0, text, size);
    free(text);
    return r;
}

static uint64_t count_moves(const uz_line *line)
{
    uint64_t n = line->n_nodes;
    for (size_t i = 0; i < line->n_nodes; i++)
        for (size_t v = 0; v < line->nodes[i].n_variations; v++)
            n += count_moves(&line->nodes[i].variations[v]);
    return n;
}

uz_result uz_block_encode(uz_pool *pool, const uz_model *model, uz_encoder *enc, uz_game *games, size_t n,
                          uz_buf *structure, uz_buf *moves, uint64_t *n_moves, uz_diag *diag)
{
    uz_walk *walks = calloc(n ? n : 1, sizeof *walks);
    size_t *lens = calloc(n ? n : 1, sizeof *lens);
    uint32_t *crcs = calloc(n ? n : 1, sizeof *crcs);
    size_t made = 0;
    uz_result r = UZ_ERR_NOMEM;
    *n_moves = 0;
    if (!walks || !lens || !crcs)
        goto out;
    for (; made < n; made++)
        if (uz_walk_init(&walks[made], &games[made]) != UZ_OK)
            goto out;
    if ((r = uz_score_walks(pool, walks, n, diag)) != UZ_OK)
        goto out_reported;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        uz_encoder_reset(enc);
        if ((r = uz_encode_walk(model, enc, &walks[i])) != UZ_OK || (r = uz_encoder_finish(enc, &data, &lens[i])) != UZ_OK ||
            (r = uz_game_canonical_crc(&games[i], &crcs[i])) != UZ_OK || (r = uz_buf_append(moves, data, lens[i])) != UZ_OK)
            goto out;
        *n_moves += count_moves(&games[i].main);
    }
    r = uz_block_struct_write(structure, games, n, lens, crcs);
out:
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "%s while coding games", uz_result_str(r));
out_reported:
    for (size_t i = 0; i < made; i++)
        uz_walk_free(&walks[i]);
    free(walks);
    free(lens);
    free(crcs);
    return r;
}

static void copy_string(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

void uz_header_fill(uz_archive_header *h, uz_pool *pool, const uz_model_params *model, uz_coder_kind coder,
                    uint32_t block_games)
{
    const uz_engine_settings *s = uz_pool_settings(pool);
    memset(h, 0, sizeof *h);
    h->version = UZ_ARCHIVE_VERSION;
    copy_string(h->engine_name, sizeof h->engine_name, uz_pool_engine_name(pool));
    copy_string(h->fingerprint, sizeof h->fingerprint, uz_pool_fingerprint(pool));
    h->depth = (uint32_t)s->depth;
    h->nodes = (uint64_t)s->nodes;
    h->mode = (uint32_t)s->mode;
    h->hash_mb = (uint32_t)s->hash_mb;
    h->threads = (uint32_t)s->threads;
    copy_string(h->engine_settings, sizeof h->engine_settings, uz_pool_settings_text(pool));
    h->model_kind = model->kind;
    const uint32_t values[] = {model->k_milli, model->floor_q16, model->rank_q16, model->decay_q16};
    const uint32_t player[] = {model->player_version, model->player_hash_lo, model->player_hash_hi};
    h->n_model_params = (uint32_t)uz_model_param_count(model->kind);
    for (uint32_t i = 0; i < h->n_model_params; i++)
        h->model_params[i] = model->kind == UZ_MODEL_PLAYER ? player[i] : values[i];
    h->coder = coder;
    h->block_games = block_games;
    uz_pool_describe(pool, h->settings_text, sizeof h->settings_text);
    copy_string(h->created_by, sizeof h->created_by, "ucizip " UZ_VERSION_STRING);
}

uz_result uz_header_model(const uz_archive_header *h, uz_model_params *params)
{
    memset(params, 0, sizeof *params);
    params->kind = (uz_model_kind)h->model_kind;
    if (h->n_model_params != (uint32_t)uz_model_param_count(params->kind))
        return UZ_ERR_UNSUPPORTED;
    uint32_t *fields[] = {&params->k_milli, &params->floor_q16, &params->rank_q16, &params->decay_q16};
    uint32_t *player[] = {&params->player_version, &params->player_hash_lo, &params->player_hash_hi};
    for (uint32_t i = 0; i < h->n_model_params; i++)
        *(params->kind == UZ_MODEL_PLAYER ? player[i] : fields[i]) = h->model_params[i];
    return UZ_OK;
}

uz_result uz_member_decoder_open(uz_member_decoder *md, const uz_archive_header *h, const uz_engine_settings *base,
                                 int workers, uz_diag *diag)
{
    if (h->coder != UZ_CODER_HUFFMAN && h->coder != UZ_CODER_RANGE) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "unknown coder %u in the archive header", h->coder);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_model_params params;
    if (uz_header_model(h, &params) != UZ_OK || uz_model_init(&md->model, &params) != UZ_OK) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "unknown model %u or bad model parameters in the archive header",
                    h->model_kind);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_result mr = uz_model_open(&md->model, &params, diag); /* the player model's weights */
    if (mr != UZ_OK)
        return mr;
    md->coder = (uz_coder_kind)h->coder;
    if (md->pool && strcmp(md->settings, h->engine_settings) == 0 && strcmp(md->fingerprint, h->fingerprint) == 0)
        return UZ_OK;
    uz_pool_destroy(md->pool);
    md->pool = NULL;
    uz_engine_settings s = *base;
    uz_result r = uz_engine_settings_apply_text(&s, h->engine_settings, diag);
    if (r != UZ_OK)
        return r;
    if ((r = uz_pool_create(&md->pool, &s, workers, diag)) != UZ_OK) {
        char why[sizeof diag->message];
        copy_string(why, sizeof why, diag->message);
        /* An engine that cannot even run with the archive's settings is the wrong engine. */
        if (r == UZ_ERR_ARG || r == UZ_ERR_UNSUPPORTED)
            r = UZ_ERR_MISMATCH;
        uz_diag_set(diag, r, 0, 0, "%s%s; the archive needs %s (fingerprint %s)",
                    r == UZ_ERR_MISMATCH ? "wrong engine: " : "", why, h->settings_text, h->fingerprint);
        return r;
    }
    if (strcmp(uz_pool_fingerprint(md->pool), h->fingerprint) != 0) {
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "wrong engine: the archive was made with %s (fingerprint %s), but %s (%s) gives fingerprint %s "
                    "with those settings; nothing was decoded",
                    h->settings_text, h->fingerprint, uz_pool_engine_name(md->pool), s.path,
                    uz_pool_fingerprint(md->pool));
        uz_pool_destroy(md->pool);
        md->pool = NULL;
        return UZ_ERR_MISMATCH;
    }
    copy_string(md->settings, sizeof md->settings, h->engine_settings);
    copy_string(md->fingerprint, sizeof md->fingerprint, h->fingerprint);
    return UZ_OK;
}

void uz_member_decoder_close(uz_member_decoder *md)
{
    if (!md)
        return;
    uz_pool_destroy(md->pool);
    memset(md, 0, sizeof *md);
}

static uz_result corrupt_game(uz_diag *diag, const uz_archive_block *block, uint64_t game, const char *why)
{
    uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt archive: game %llu (block at byte %llu): %s",
                (unsigned long long)game, (unsigned long long)block->offset, why);
    return UZ_ERR_CORRUPT;
}

uz_result uz_block_decode(uz_member_decoder *md, const uz_archive_block *block, size_t first, size_t count,
                          uz_game *games, uint64_t game_base, uz_diag *diag)
{
    size_t n = block->n_games;
    if (first > n || count > n - first) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "games %zu..%zu are not in a block of %zu", first + 1, first + count, n);
        return UZ_ERR_ARG;
    }
    if (n > block->structure.size / 5) /* a game's record takes at least 5 bytes */
        return corrupt_game(diag, block, game_base + 1, "more games than the structure stream can hold");
    uz_result r = UZ_ERR_NOMEM;
    uz_game *all = calloc(n, sizeof *all);
    const uint8_t **streams = calloc(n, sizeof *streams);
    size_t *sizes = calloc(n, sizeof *sizes);
    uint32_t *crcs = calloc(n, sizeof *crcs);
    uz_result *results = calloc(n, sizeof *results);
    if (!all || !streams || !sizes || !crcs || !results) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++)
        uz_game_init(&all[i]);
    r = uz_block_struct_read(block->structure.data, block->structure.size, all, n, sizes, crcs, diag);
    if (r == UZ_ERR_NOMEM)
        goto out;
    if (r != UZ_OK) {
        r = corrupt_game(diag, block, game_base + 1, "malformed structure stream");
        goto out;
    }
    size_t offset = 0;
    for (size_t i = 0; i < n; i++) {
        if (sizes[i] > block->moves.size - offset) {
            r = corrupt_game(diag, block, game_base + i + 1, "move stream out of the block");
            goto out;
        }
        streams[i] = block->moves.data + offset;
        offset += sizes[i];
    }
    if (offset != block->moves.size) {
        r = corrupt_game(diag, block, game_base + n, "trailing data in the block");
        goto out;
    }
    /* The wanted games move to the caller's array; the others were only parsed. */
    for (size_t i = 0; i < count; i++) {
        uz_game_clear(&games[i]);
        games[i] = all[first + i];
        uz_game_init(&all[first + i]);
    }
    if ((r = uz_decode_games(md->pool, &md->model, md->coder, games, streams + first, sizes + first, count, results,
                             diag)) != UZ_OK)
        goto out;
    for (size_t i = 0; i < count; i++) {
        uint32_t crc = 0;
        if (results[i] == UZ_OK && (r = uz_game_canonical_crc(&games[i], &crc)) != UZ_OK) {
            uz_diag_set(diag, r, 0, 0, "out of memory");
            goto out;
        }
        if (results[i] != UZ_OK || crc != crcs[first + i]) {
            r = corrupt_game(diag, block, game_base + first + i + 1,
                             results[i] != UZ_OK ? "its move stream does not decode"
                                                 : "the decoded game does not match its checksum");
            goto out;
        }
    }
    r = UZ_OK;
out:
    for (size_t i = 0; all && i < n; i++)
        uz_game_clear(&all[i]);
    free(all);
    free(streams);
    free(sizes);
    free(crcs);
    free(results);
    return r;
}

uz_result uz_archive_decode(FILE *in, const char *name, FILE *out, uz_member_decoder *md,
                            const uz_engine_settings *base, int workers, uz_progress_fn progress, void *user,
                            uint64_t *games, uz_diag *diag)
{
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_game *decoded = NULL;
    size_t cap = 0;
    uint64_t moves = 0;
    *games = 0;
    uz_result r = uz_archive_reader_open(&reader, in, name);
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        return r;
    }
    while ((r = uz_archive_read_header(reader, &header, diag)) == UZ_OK) {
        if ((r = uz_member_decoder_open(md, &header, base, workers, diag)) != UZ_OK)
            goto out;
        while ((r = uz_archive_read_block(reader, &block, diag)) == UZ_OK) {
            if (block.n_games > cap) {
                uz_game *g = realloc(decoded, block.n_games * sizeof *g);
                if (!g) {
                    r = UZ_ERR_NOMEM;
                    uz_diag_set(diag, r, 0, 0, "out of memory");
                    goto out;
                }
                decoded = g;
                for (size_t i = cap; i < block.n_games; i++)
                    uz_game_init(&decoded[i]);
                cap = block.n_games;
            }
            if ((r = uz_block_decode(md, &block, 0, block.n_games, decoded, *games, diag)) != UZ_OK)
                goto out;
            for (size_t i = 0; out && i < block.n_games; i++)
                if ((r = uz_pgn_write_game(out, &decoded[i])) != UZ_OK) {
                    uz_diag_set(diag, r, 0, 0, "write error");
                    goto out;
                }
            *games += block.n_games;
            moves += block.n_moves;
            if (progress)
                progress(user, *games, moves, uz_archive_reader_offset(reader));
        }
        if (r != UZ_DONE)
            goto out;
    }
    if (r == UZ_DONE)
        r = UZ_OK;
out:
    for (size_t i = 0; i < cap; i++)
        uz_game_clear(&decoded[i]);
    free(decoded);
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    return r;
}
