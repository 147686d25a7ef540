/* Archive blocks coded and decoded with an oracle: the block codec's drivers. */
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "block/block_codec.h"
#include "block/clock_code.h"
#include "block/engine_code.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "block/tag_code.h"
#include "gamecode/opening.h"

/* Longest text rebuilt for one game (the PGN reader's limit on a game). */
#define MAX_GAME_TEXT UZ_PGN_MAX_GAME_BYTES

/* The XXH64 of the games' exact bytes, one after the other (the block's text digest). */
static uz_result text_digest_of(const uz_block_out_game *recs, size_t n, uint64_t *digest)
{
    XXH64_state_t *st = XXH64_createState();
    if (!st)
        return UZ_ERR_NOMEM;
    XXH64_reset(st, 0);
    for (size_t i = 0; i < n; i++)
        XXH64_update(st, recs[i].game->raw ? recs[i].game->raw : "", recs[i].game->raw_len);
    *digest = XXH64_digest(st);
    XXH64_freeState(st);
    return UZ_OK;
}

static uint64_t count_moves(const uz_line *line)
{
    uint64_t n = line->n_nodes;
    for (size_t i = 0; i < line->n_nodes; i++)
        for (size_t v = 0; v < line->nodes[i].n_variations; v++)
            n += count_moves(&line->nodes[i].variations[v]);
    return n;
}

/* NAGs and variations of a line (UZ_LIMIT_BLOCK_MARKS). */
static uint64_t count_marks(const uz_line *line)
{
    uint64_t n = 0;
    for (size_t i = 0; i < line->n_nodes; i++) {
        n += line->nodes[i].n_nags + line->nodes[i].n_variations;
        for (size_t v = 0; v < line->nodes[i].n_variations; v++)
            n += count_marks(&line->nodes[i].variations[v]);
    }
    return n;
}

/* An upper bound of the structure-stream bytes of a line (doc/format.md: every varint
 * there takes at most 4 bytes, since counts and lengths are within limits.h). */
static uint64_t line_struct_bound(const uz_line *line)
{
    uint64_t b = 16;
    for (size_t i = 0; i < line->n_pre_comments; i++)
        b += 4 + strlen(line->pre_comments[i]);
    for (size_t i = 0; i < line->n_nodes; i++) {
        const uz_node *nd = &line->nodes[i];
        b += 16 + 2 * (uint64_t)nd->n_nags;
        for (size_t k = 0; k < nd->n_comments; k++)
            b += 4 + strlen(nd->comments[k]);
        for (size_t v = 0; v < nd->n_variations; v++)
            b += line_struct_bound(&nd->variations[v]);
    }
    return b;
}

static uint64_t game_struct_bound(const uz_game *g)
{
    uint64_t b = 128 + UZ_FEN_MAX + (g->raw ? g->raw_len : 0) + line_struct_bound(&g->main);
    for (size_t i = 0; i < g->n_tags; i++)
        b += uz_tag_bytes(strlen(g->tags[i].name), strlen(g->tags[i].value));
    for (size_t i = 0; i < g->n_trailing_comments; i++)
        b += 4 + strlen(g->trailing_comments[i]);
    return b;
}

size_t uz_block_fit(const uz_game *games, size_t n)
{
    uint64_t nodes = 0, bytes = 0, tags = 0, marks = 0; /* tags bound the distinct names, a list */
    size_t k = 0;
    for (; k < n; k++) {
        nodes += count_moves(&games[k].main);
        bytes += game_struct_bound(&games[k]);
        tags += games[k].n_tags;
        marks += count_marks(&games[k].main);
        if (k > 0 && (nodes > UZ_LIMIT_BLOCK_NODES || bytes > UZ_LIMIT_BLOCK_STRUCT || tags > UZ_LIMIT_LIST ||
                      marks > UZ_LIMIT_BLOCK_MARKS))
            break;
    }
    return k;
}

/* The game of a block that a limit refuses (each written alone), for the message. */
static void report_limit(const uz_block_out_game *recs, size_t n, uz_diag *diag)
{
    size_t bad = 0;
    for (size_t i = 0; i < n; i++) {
        uz_buf b = {0};
        uz_block_out_game alone = recs[i];
        alone.moves_len = 0, alone.crc = 0, alone.text_rec = (uz_buf){0};
        uz_result r = uz_block_struct_write(&b, UZ_STRUCT_VERSION, UZ_TAG_VERSION, UZ_COMMENT_REVISION, UZ_COMMENT_TEXT_NUL,
                                              &alone, 1);
        bool over = r == UZ_ERR_LIMIT || b.size > UZ_LIMIT_BLOCK_STRUCT;
        uz_buf_free(&b);
        if (over) {
            bad = i;
            break;
        }
    }
    const uz_game *games = recs[bad].game;
    uz_diag_set(diag, UZ_ERR_LIMIT, games->first_line, 0,
                "game %ld is too large for an archive: a text over %zu bytes, a list over %zu entries, more "
                "than %zu moves or variations nested deeper than %d (limits)",
                games->number, UZ_LIMIT_TEXT, UZ_LIMIT_LIST, UZ_LIMIT_GAME_NODES, UZ_LIMIT_DEPTH);
    diag->game = games->number;
}

/* Parses back a structure stream just written: compress never writes what decompress
 * would refuse. Cheap next to scoring the moves. */
static uz_result check_structure(const uz_buf *structure, const uz_block_coder *bc, const uz_block_out_game *recs,
                                 size_t n, uz_diag *diag)
{
    uz_block_game *back = uz_block_games_new(n);
    uz_result r = UZ_ERR_NOMEM;
    if (back) {
        r = uz_block_struct_read(structure->data, structure->size, bc->struct_version, UZ_TAG_VERSION,
                                 bc->comment_revision, bc->comment_text, back, n, NULL, diag);
        for (size_t i = 0; i < n && r == UZ_OK; i++)
            if (back[i].moves_len != recs[i].moves_len || back[i].crc != (recs[i].crc & back[i].crc_mask))
                r = UZ_ERR_CORRUPT;
        if (r != UZ_OK && r != UZ_ERR_NOMEM)
            uz_diag_set(diag, r, 0, 0, "internal error: the structure stream written does not read back; nothing written");
    }
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    uz_block_games_free(back, n);
    return r;
}

uz_result uz_block_records_new(uz_block_out_game **recs, uz_game *games, size_t n, unsigned *struct_version,
                               uz_diag *diag)
{
    bool current = struct_version && *struct_version == UZ_STRUCT_VERSION;
    uz_result r = uz_block_out_games_new(recs, games, n, struct_version ? &current : NULL);
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "%s while coding games", uz_result_str(r));
    else if (current)
        *struct_version = UZ_STRUCT_VERSION;
    return r;
}

uz_block_coder uz_block_coder_of_member(uz_member_decoder *md)
{
    return (uz_block_coder){.moves = {.oracle = md->oracle, .model = &md->model, .coder = md->coder},
                            .oracles = md->oracle ? NULL : md->oracles,
                            .limits = md->limits};
}

uz_result uz_block_encode(const uz_block_coder *bc, uz_game *games, size_t n, uz_block_bytes *out, uz_diag *diag)
{
    uz_block_out_game *recs;
    out->n_moves = 0;
    uz_result r = uz_block_records_new(&recs, games, n, NULL, diag);
    if (r == UZ_OK)
        r = uz_block_encode_records(bc, recs, n, out, diag);
    uz_block_out_games_free(recs, n);
    return r;
}

uz_result uz_block_encode_records(const uz_block_coder *bc, uz_block_out_game *recs, size_t n, uz_block_bytes *out,
                                  uz_diag *diag)
{
    const uz_model *model = bc->moves.model;
    uz_encoder *enc = bc->moves.enc;
    uz_walk **walks = calloc(n ? n : 1, sizeof *walks);
    uz_opening *opening = NULL;
    uz_result r = UZ_ERR_NOMEM;
    out->n_games = n;
    out->n_moves = 0;
    if (!walks)
        goto out;
    if (model->params.opening_plies &&
        !(opening = uz_opening_new(model->params.opening_alpha16, model->params.opening_plies)))
        goto out;
    /* Each game was replayed once, by its record's walk: scoring, move coding, text records,
     * engine comments and final-position tags all take their positions from it. */
    if ((r = text_digest_of(recs, n, &out->text_digest)) != UZ_OK)
        goto out;
    for (size_t i = 0; i < n; i++)
        walks[i] = &recs[i].walk;
    if ((r = uz_score_walk_list(bc->moves.oracle, model, walks, n, diag)) != UZ_OK)
        goto out_reported;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *data;
        uz_encoder_reset(enc);
        /* Game i is coded with the counts of games 0..i-1 (each at its own ply). */
        if ((r = uz_encode_walk(model, opening, enc, walks[i])) != UZ_OK ||
            (r = uz_encoder_finish(enc, &data, &recs[i].moves_len)) != UZ_OK ||
            (r = uz_buf_append(&out->moves, data, recs[i].moves_len)) != UZ_OK ||
            (r = uz_opening_add_walk(opening, walks[i])) != UZ_OK)
            goto out;
        out->n_moves += walks[i]->n_steps; /* every move of the tree is a step */
    }
    if (out->n_moves > UZ_LIMIT_BLOCK_NODES) { /* the caller did not split with uz_block_fit */
        r = UZ_ERR_LIMIT;
        uz_diag_set(diag, r, 0, 0, "a block of more than %llu moves (limit)", (unsigned long long)UZ_LIMIT_BLOCK_NODES);
        goto out_reported;
    }
    uz_buf *structure = &out->structure;
    size_t before = structure->size;
    r = uz_block_struct_write_block(out, bc->struct_version, UZ_TAG_VERSION, bc->comment_revision, bc->comment_text,
                                    bc->engine_revision,
                                    recs, n);
    if (r == UZ_OK && structure->size - before > UZ_LIMIT_BLOCK_STRUCT)
        r = UZ_ERR_LIMIT;
    if (r == UZ_ERR_LIMIT) {
        report_limit(recs, n, diag);
        goto out_reported;
    }
    if (r == UZ_OK) {
        uz_buf written = {structure->data + before, structure->size - before, 0};
        if ((r = check_structure(&written, bc, recs, n, diag)) != UZ_OK)
            goto out_reported;
    }
out:
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "%s while coding games", uz_result_str(r));
out_reported:
    uz_opening_free(opening);
    free(walks);
    return r;
}

static uz_result corrupt_game(uz_diag *diag, const uz_archive_block *block, uint64_t game, const char *why)
{
    uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt archive: game %llu (block at byte %llu): %s",
                (unsigned long long)game, (unsigned long long)block->offset, why);
    return UZ_ERR_CORRUPT;
}

/* The oracle that decodes games[0..n) (number: the first one's, for messages): the one
 * the caller set, else the set's, which starts its Chess960 engine when one of them
 * needs it (checked against the header's Chess960 fingerprint). */
static uz_result member_oracle(const uz_block_coder *bc, const uz_archive_block *block, const uz_block_game *games,
                               size_t n, uint64_t number, uz_oracle **oracle, uz_diag *diag)
{
    *oracle = bc->moves.oracle;
    if (!bc->oracles)
        return UZ_OK;
    size_t first960 = 0;
    while (first960 < n && !games[first960].game.start.chess960)
        first960++;
    uz_result r = uz_oracle_set_prepare_decode(bc->oracles, first960 < n, diag);
    if (r == UZ_ERR_CORRUPT)
        return corrupt_game(diag, block, number + first960, "a Chess960 game in a member without a Chess960 engine");
    *oracle = uz_oracle_set_oracle(bc->oracles);
    return r;
}


/* Reads the structure of block into records (*out, block->n_games of them) and points
 * each at its move stream, after the checks that come before any decoding. */
static uz_result read_records(const uz_decode_limits *limits, const uz_archive_block *block, uint64_t game_base,
                              uz_block_game **out, uz_diag *diag)
{
    size_t n = block->n_games;
    *out = NULL;
    /* Up to structure version 4 a game's record takes at least 5 bytes (from version 4 its text
     * record); in version 5 a game like the one before takes a fraction of a bit, and the
     * container's bound on a block's games (65,536) is what bounds the records allocated. */
    if (block->struct_version < 5 && n > block->structure.size / 5)
        return corrupt_game(diag, block, game_base + 1, "more games than the structure stream can hold");
    /* The block's claimed move count bounds what the structure may allocate (and the
     * engine searches); checked against the decoder's limit before anything else. */
    uz_decode_limits lim = uz_decode_limits_or_default(limits);
    if (block->tree_moves > lim.block_nodes) {
        uz_diag_set(diag, UZ_ERR_LIMIT, 0, 0,
                    "block at byte %llu holds %llu moves, more than the decoder's limit of %llu; nothing decoded",
                    (unsigned long long)block->offset, (unsigned long long)block->tree_moves,
                    (unsigned long long)lim.block_nodes);
        return UZ_ERR_LIMIT;
    }
    lim.block_nodes = block->tree_moves;
    uz_block_game *all = uz_block_games_new(n);
    if (!all) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    const uint8_t *data = block->structure.data;
    size_t size = block->structure.size;
    uz_result r = uz_block_struct_read(data, size, block->struct_version, block->tag_version, block->comment_revision,
                                       block->comment_text, all, n, &lim, diag);
    if (r == UZ_ERR_LIMIT)
        r = corrupt_game(diag, block, game_base + 1, "more moves than the block header says");
    else if (r != UZ_OK && r != UZ_ERR_NOMEM)
        r = corrupt_game(diag, block, game_base + 1, "malformed structure stream");
    else if (r == UZ_OK && uz_block_struct_engine_code(data, size, block->struct_version, all, n) != UZ_OK)
        r = corrupt_game(diag, block, game_base + 1, "malformed structure stream");
    size_t offset = 0;
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        if (all[i].moves_len > block->moves.size - offset)
            r = corrupt_game(diag, block, game_base + i + 1, "move stream out of the block");
        all[i].moves = block->moves.data + offset;
        offset += all[i].moves_len;
    }
    if (r == UZ_OK && offset != block->moves.size)
        r = corrupt_game(diag, block, game_base + n, "trailing data in the block");
    if (r != UZ_OK) {
        uz_block_games_free(all, n);
        return r;
    }
    *out = all;
    return UZ_OK;
}

/* With opening counts, the counted plies of the standard games before the wanted ones
 * (all[0..first)) give the counts the wanted ones start from (runs in game order). */
static uz_result count_openings(const uz_move_coder *mc, const uz_archive_block *block,
                                uz_block_game *all, uz_coded_game *coded, size_t first, uz_opening *opening,
                                uz_result *results, uint64_t game_base, uz_diag *diag)
{
    for (size_t i = 0, end; opening && i < first; i = end) {
        for (end = i + 1; end < first && (all[end].game.start.chess960 != 0) == (all[i].game.start.chess960 != 0); end++)
            ;
        if (all[i].game.start.chess960)
            continue; /* not counted */
        uz_result r = uz_decode_games(mc, opening, end - i, coded + i, end - i, results + i, diag);
        if (r != UZ_OK)
            return r;
        for (size_t k = i; k < end; k++)
            if (results[k] != UZ_OK)
                return corrupt_game(diag, block, game_base + k + 1, "its move stream does not decode");
    }
    return UZ_OK;
}

/* Comment revision 4: the clocks of the games before the wanted ones (all[from..first), their
 * moves decoded), for the state the wanted ones' clocks start from. */
static uz_result earlier_clocks(uz_clock_coder *clocks, uz_block_game *all, const uz_result *results, size_t from,
                                size_t first, const uz_archive_block *block, uint64_t game_base, uz_diag *diag)
{
    for (size_t i = from; i < first; i++) {
        if (results[i] != UZ_OK)
            return corrupt_game(diag, block, game_base + i + 1, "its move stream does not decode");
        uz_result r = uz_clock_decode_game(clocks, &all[i].walk);
        if (r == UZ_ERR_NOMEM)
            uz_diag_set(diag, r, 0, 0, "out of memory");
        if (r != UZ_OK)
            return r == UZ_ERR_NOMEM ? r : corrupt_game(diag, block, game_base + i + 1, "its clocks do not decode");
    }
    return UZ_OK;
}

/* A decoded game's exact bytes, its positions taken from the walk it was decoded with
 * (walk->game: the game): its engine comments rebuilt from the moves (structure version 2), its
 * final-position tag, its tree rendered with its layout and patched; then checked against
 * its checksum. text is scratch space. number numbers the game in messages. */
static uz_result finish_game(uz_walk *walk, const uz_block_game *record, uz_clock_coder *clocks,
                             const uz_archive_block *block, uint64_t number, uz_buf *text, uz_diag *diag)
{
    uz_game *game = walk->game;
    uz_result r = clocks ? uz_clock_decode_game(clocks, walk) : UZ_OK; /* (over the engine code's residuals) */
    if (r == UZ_OK)
        r = uz_engine_code_decode(walk, block->engine_revision, record->engine_code, record->engine_code_len, NULL);
    if (r == UZ_OK)
        r = uz_tag_code_fill_derived(walk);
    if (r == UZ_ERR_NOMEM) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        return r;
    }
    if (r != UZ_OK)
        return corrupt_game(diag, block, number, "its clocks, engine comments or final position do not decode");
    if (record->text_rec) {
        r = uz_walk_fill_san(walk);
        if (r == UZ_OK)
            r = uz_game_text_decode(walk, record->text_rec, record->text_rec_len, MAX_GAME_TEXT, text);
        if (r == UZ_OK)
            r = uz_game_set_raw(game, (const char *)text->data, text->size);
        if (r == UZ_ERR_NOMEM) {
            uz_diag_set(diag, r, 0, 0, "out of memory");
            return r;
        }
        if (r != UZ_OK)
            return corrupt_game(diag, block, number, "its text record does not fit the game");
    }
    if ((uz_crc32(0, game->raw, game->raw_len) & record->crc_mask) != record->crc)
        return corrupt_game(diag, block, number, "the decoded game does not match its checksum");
    return UZ_OK;
}

/* The whole block decoded: its text must be the original's, byte for byte. */
static uz_result check_digest(const uz_game *games, size_t n, const uz_archive_block *block, uint64_t game_base,
                              uz_diag *diag)
{
    XXH64_state_t *st = XXH64_createState();
    if (!st) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    XXH64_reset(st, 0);
    for (size_t i = 0; i < n; i++)
        XXH64_update(st, games[i].raw ? games[i].raw : "", games[i].raw_len);
    uint64_t digest = XXH64_digest(st);
    XXH64_freeState(st);
    if (digest != block->text_digest)
        return corrupt_game(diag, block, game_base + 1, "the block's text does not match its digest");
    return UZ_OK;
}

uz_result uz_block_check_games(const uz_decode_limits *limits, const uz_archive_block *block, uz_diag *diag)
{
    uz_block_game *all = NULL;
    uz_result r = read_records(limits, block, 0, &all, diag);
    if (r == UZ_OK)
        uz_block_games_free(all, block->n_games);
    else if (r == UZ_ERR_CORRUPT)
        uz_diag_set(diag, r, 0, 0,
                    "corrupt archive: the block at byte %llu does not hold the %zu games its header and the index "
                    "count (the games after it would be numbered wrongly)",
                    (unsigned long long)block->offset, block->n_games);
    return r;
}

uz_result uz_block_decode(const uz_block_coder *bc, const uz_archive_block *block, size_t first, size_t count,
                          uz_game *games, uint64_t game_base, uz_diag *diag)
{
    size_t n = block->n_games;
    if (first > n || count > n - first) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "games %zu..%zu are not in a block of %zu", first + 1, first + count, n);
        return UZ_ERR_ARG;
    }
    uz_block_game *all = NULL;
    uz_result r = read_records(&bc->limits, block, game_base, &all, diag);
    if (r != UZ_OK)
        return r;
    uz_result *results = calloc(n, sizeof *results);
    uz_coded_game *coded = calloc(n, sizeof *coded);
    uz_buf text = {0};
    uz_opening *opening = NULL;
    uz_clock_coder *clocks = NULL;
    const uz_model *model = bc->moves.model;
    uz_move_coder mc = bc->moves;
    uz_block_game *wanted = all + first;
    for (size_t i = 0; coded && i < n; i++)
        coded[i] = (uz_coded_game){&all[i].game, &all[i].walk, all[i].moves, all[i].moves_len};
    if (!results || !coded || (model->params.opening_plies &&
                     !(opening = uz_opening_new(model->params.opening_alpha16, model->params.opening_plies)))) {
        r = UZ_ERR_NOMEM;
        uz_diag_set(diag, r, 0, 0, "out of memory");
        goto out;
    }
    /* Comment revision 4's clocks decode game after game from the block's first: the games before
     * the wanted ones are then decoded whole. */
    const uint8_t *clock_code;
    size_t clock_len, from = first;
    uint64_t n_clocks;
    if (uz_block_struct_clock_code(block->structure.data, block->structure.size, block->struct_version,
                                   block->comment_revision, &clock_code, &clock_len, &n_clocks) != UZ_OK) {
        r = corrupt_game(diag, block, game_base + 1, "malformed structure stream");
        goto out;
    }
    if (clock_len) {
        from = 0;
        if ((r = uz_clock_reader_create(&clocks, clock_code, clock_len, n_clocks)) != UZ_OK) {
            uz_diag_set(diag, r, 0, 0, "out of memory");
            goto out;
        }
    }
    if ((r = member_oracle(bc, block, all + from, first + count - from, game_base + from + 1, &mc.oracle, diag)) !=
            UZ_OK ||
        (r = count_openings(&mc, block, all, coded, from, opening, results, game_base, diag)) != UZ_OK)
        goto out;
    r = uz_decode_games(&mc, opening, 0, coded + from, first + count - from, results + from, diag);
    if (r == UZ_OK && from < first)
        r = earlier_clocks(clocks, all, results, from, first, block, game_base, diag);
    /* The wanted games move to the caller's array (their walks with them: the trees stay
     * where they are); the others were only parsed. */
    for (size_t i = 0; i < count; i++) {
        uz_game_clear(&games[i]);
        games[i] = wanted[i].game;
        uz_game_init(&wanted[i].game);
        wanted[i].walk.game = &games[i];
    }
    for (size_t i = 0; i < count && r == UZ_OK; i++) {
        uint64_t number = game_base + first + i + 1;
        if (results[first + i] != UZ_OK)
            r = corrupt_game(diag, block, number, "its move stream does not decode");
        else
            r = finish_game(&wanted[i].walk, &wanted[i], clocks, block, number, &text, diag);
    }
    if (r == UZ_OK && clocks && first + count == n && uz_clock_coder_finish(clocks, NULL) != UZ_OK)
        r = corrupt_game(diag, block, game_base + n, "the block's clock code does not end where its last game does");
    if (r == UZ_OK && first == 0 && count == n)
        r = check_digest(games, n, block, game_base, diag);
out:
    uz_clock_coder_destroy(clocks);
    uz_block_games_free(all, n);
    free(results);
    free(coded);
    uz_buf_free(&text);
    uz_opening_free(opening);
    return r;
}
