/* uz_compressor: PGN inputs to one archive, block by block. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fit_samples.h"
#include "game_source.h"
#include "lib_internal.h"
#include "block/comment_code.h"
#include "block/engine_code.h"
#include "builtin/builtin_pool.h"
#include "engine/engine_store.h"
#include "block/block_codec.h"
#include "gamecode/oracle_set.h"


struct uz_compressor {
    uz_options opt;               /* strings borrowed but for cache_path */
    char *cache_path;
    uz_oracle_spec spec;          /* the oracle the options name */
    uz_engine_settings settings;
    uz_oracle_set *oracles;       /* the engine (its Chess960 instance started at the first such game) or the builtin */
    uz_model_params params;       /* the model the options name */
    uz_model model;               /* the current archive's (fitted or as named) */
    uz_coder_kind coder;
    uz_encoder *enc;
    uz_game_source src;
    uz_game *games;               /* the block being filled (block_games of them) */
    size_t block_games;
    size_t n_pending;
    uint64_t skip_games;          /* games of the inputs a resume passes over */
    uz_archive_header header;
    uz_archive_writer *writer;    /* the current member, opened at its first block */
    FILE *out;                    /* NULL: no archive begun */
    bool started;                 /* inputs added (or a resume): fit and resume no longer allowed */
    bool finished;
    uz_compress_stats st;
    void (*on_block)(void *user, const uz_compress_stats *s);
    void *on_block_user;
    char model_text[160];
    uint64_t disagreements_before;/* the cache's disagreements before this archive began */
    char identity[sizeof ((uz_archive_header *)0)->engine_settings_text + 128];
};

static void say(const uz_compressor *c, const char *input, uz_result code, const char *fmt, const char *arg)
{
    if (!c->opt.on_message)
        return;
    uz_diag d = {0};
    uz_diag_set(&d, code, 0, 0, fmt, arg);
    c->opt.on_message(c->opt.user, input, &d);
}

static void fill_header(uz_compressor *c)
{
    uz_oracle_set_fill_header(c->oracles, &c->header, &c->model.params, c->coder, (uint32_t)c->block_games);
}

/* Keeps a copy of the engine in the user's engine store (engine/engine_store.h), so that
 * the archives still decode after the system's engine changes. Not keeping it does not
 * stop compression: it is said, once. */
static void keep_engine(uz_compressor *c)
{
    char dir[UZ_ENGINE_PATH_MAX];
    uz_diag d = {0};
    if (uz_engine_store_dir(dir, sizeof dir, &d) == UZ_OK &&
        uz_engine_store_keep(dir, uz_oracle_set_pool(c->oracles), &d) == UZ_OK)
        return;
    say(c, NULL, d.code, "engine store: %s; the archives need this very engine installed to decode", d.message);
}

/* (Re)starts the engine with c->settings (before any game: its Chess960 instance is not
 * started yet). */
static uz_result start_pool(uz_compressor *c, uz_diag *diag)
{
    uz_oracle_set_close(c->oracles);
    c->oracles = NULL;
    uz_result r = uz_oracle_set_open_engine(&c->oracles, &c->settings, c->spec.workers, diag);
    if (r != UZ_OK)
        return r;
    uz_oracle_set_on_message(c->oracles, c->opt.on_message, c->opt.user); /* (an engine without Chess960) */
    keep_engine(c);
    return UZ_OK;
}

/* c->identity: what the archives' headers name of the oracle. */
static void take_identity(uz_compressor *c)
{
    uz_oracle_identity id = uz_oracle_identity_of(uz_oracle_set_oracle(c->oracles));
    snprintf(c->identity, sizeof c->identity, "fingerprint %s; settings %s", id.fingerprint, id.settings_text);
}

uz_result uz_compressor_open(uz_compressor **out, const uz_options *options, uz_diag *diag)
{
    *out = NULL;
    uz_result r = uz_lib_check_options(options, diag);
    if (r != UZ_OK)
        return r;
    uz_compressor *c = calloc(1, sizeof *c);
    if (!c) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    c->opt = *options;
    c->finished = true; /* until begin */
    c->block_games = options->block_games ? options->block_games : UZ_ARCHIVE_BLOCK_GAMES;
    if (!(c->games = calloc(c->block_games, sizeof *c->games))) {
        free(c);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    for (size_t i = 0; i < c->block_games; i++)
        uz_game_init(&c->games[i]);
    uz_oracle_spec_from_options(options, &c->spec);
    if ((r = uz_oracle_spec_check(&c->spec, diag)) != UZ_OK ||
        (r = uz_lib_model(options, &c->params, &c->coder, diag)) != UZ_OK ||
        (r = uz_model_open(&c->model, &c->params, diag)) != UZ_OK)
        goto fail;
    if ((r = uz_encoder_create(&c->enc, c->coder)) != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        goto fail;
    }
    if (c->spec.kind == UZ_ORACLE_BUILTIN) { /* its searchers instead of an engine */
        r = uz_oracle_set_open_builtin(&c->oracles, c->spec.builtin_version, c->spec.depth, c->spec.workers, diag);
        if (r != UZ_OK)
            goto fail;
        goto source;
    }
    if (options->cache_path && !(c->cache_path = strdup(options->cache_path))) {
        r = UZ_ERR_NOMEM;
        uz_diag_set(diag, r, 0, 0, "out of memory");
        goto fail;
    }
    c->opt.cache_path = NULL; /* taken below, released by close */
    c->spec.cache_path = c->cache_path;
    if ((r = uz_lib_engine_settings(&c->spec, options->on_message, options->user, &c->settings, diag)) != UZ_OK) {
        free(c->cache_path);
        c->cache_path = NULL; /* not taken */
        goto fail;
    }
    if ((r = start_pool(c, diag)) != UZ_OK)
        goto fail;
source:
    take_identity(c);
    uz_game_source_init(&c->src);
    c->src.exact = !options->canonical;
    c->src.bad_games = options->bad_games;
    c->src.variants = options->variants;
    c->src.damaged_inputs = options->damaged_inputs;
    c->src.max_games = options->max_games;
    c->src.on_message = options->on_message;
    c->src.user = options->user;
    *out = c;
    return UZ_OK;
fail:
    uz_compressor_close(c);
    return r;
}

/* Readies the oracle set for the games; when the member's header no longer names what the
 * set codes (an engine it started for them), the member is finished and a new one begun
 * (the archive is then no longer resumable, as a resume copies the blocks of one member). */
static uz_result prepare_games(uz_compressor *c, uz_game *games, size_t n, uz_diag *diag)
{
    uz_result r = uz_oracle_set_prepare_games(c->oracles, games, n, diag);
    if (r != UZ_OK || uz_oracle_set_header_current(c->oracles, &c->header))
        return r;
    fill_header(c);
    if (c->writer) {
        r = uz_archive_writer_finish(c->writer, diag);
        c->writer = NULL;
        c->st.resumable = false;
        c->st.blocks = 0;
    }
    return r;
}

/* One block of a batch of games: its records (each game replayed once, by its walk). */
typedef struct batch_block {
    uz_block_out_game *recs;
    size_t n;
} batch_block;

/* Whether a game has comments around its main line (before it, after its end, or after a
 * move and not a clock's): what makes a member's comment texts worth NUL endings (header
 * key 19; a clock's residual costs the same either way, the key three bytes). */
static bool has_main_comments(const uz_game *game)
{
    if (game->verbatim || game->text_only)
        return false;
    bool any = game->main.n_pre_comments > 0 || game->n_trailing_comments > 0;
    for (size_t i = 0; !any && i < game->main.n_nodes; i++)
        for (size_t j = 0; !any && j < game->main.nodes[i].n_comments; j++)
            any = !strstr(game->main.nodes[i].comments[j], "[%clk ");
    return any;
}

/* Scores, codes and writes n games: one block, or more where the block limits say so. The
 * records of every block are made first: a member's structure version is chosen as they are made (from
 * its first batch's walks), so that no game is replayed for the choice. */
static uz_result code_games(uz_compressor *c, uz_game *games, size_t n, uz_diag *diag)
{
    uz_result r = prepare_games(c, games, n, diag);
    batch_block *blocks = calloc(n ? n : 1, sizeof *blocks);
    size_t n_blocks = 0;
    if (!blocks && r == UZ_OK) {
        r = UZ_ERR_NOMEM;
        uz_diag_set(diag, r, 0, 0, "out of memory");
    }
    unsigned version = UZ_STRUCT_VERSION; /* a new member's (4 codes every game at least as well as 1-3) */
    for (size_t done = 0; r == UZ_OK && done < n; done += blocks[n_blocks++].n) {
        blocks[n_blocks].n = uz_block_fit(games + done, n - done);
        r = uz_block_records_new(&blocks[n_blocks].recs, games + done, blocks[n_blocks].n, c->writer ? NULL : &version,
                                 diag);
    }
    if (r == UZ_OK && !c->writer) {
        c->header.struct_version = version;
        /* Key 17 only where it changes something: a member whose first games have clocks. */
        c->header.comment_revision = 0;
        for (size_t i = 0; i < n && !c->header.comment_revision; i++)
            if (uz_comment_clock_wanted(&games[i]))
                c->header.comment_revision = UZ_COMMENT_REVISION;
        /* Key 18 likewise: a member whose first games have engine comments. */
        c->header.engine_revision = 0;
        for (size_t i = 0; i < n && !c->header.engine_revision; i++)
            if (uz_engine_code_wanted(&games[i]))
                c->header.engine_revision = UZ_ENGINE_REVISION;
        /* Key 19 likewise: where the first games have comments (prose packs better without lengths). */
        c->header.comment_text = 0;
        for (size_t i = 0; i < n && !c->header.comment_text; i++)
            if (has_main_comments(&games[i]))
                c->header.comment_text = UZ_COMMENT_TEXT_NUL;
        r = uz_archive_writer_open(&c->writer, c->out, &c->header, diag);
    }
    uz_block_coder bc = {.moves = {.oracle = uz_oracle_set_oracle(c->oracles), .model = &c->model, .enc = c->enc},
                         .struct_version = c->header.struct_version,
                         .comment_revision = c->header.comment_revision, .comment_text = c->header.comment_text,
                         .engine_revision = c->header.engine_revision};
    for (size_t b = 0; r == UZ_OK && b < n_blocks; b++) {
        size_t k = blocks[b].n;
        uz_block_bytes out = {0};
        r = uz_block_encode_records(&bc, blocks[b].recs, k, &out, diag);
        if (r == UZ_OK)
            r = uz_archive_write_block(c->writer, &out, diag);
        if (r == UZ_OK) {
            c->st.games += k;
            c->st.moves += out.n_moves;
            c->st.move_bytes += out.moves.size;
            c->st.blocks++;
        }
        uz_block_bytes_free(&out);
    }
    for (size_t b = 0; b < n_blocks; b++)
        uz_block_out_games_free(blocks[b].recs, blocks[b].n);
    free(blocks);
    return r;
}

/* Codes the pending games when the block is full (or, with all, whatever is pending). */
static uz_result flush_pending(uz_compressor *c, bool all, uz_diag *diag)
{
    if (c->n_pending == 0 || (!all && c->n_pending < c->block_games))
        return UZ_OK;
    uz_result r = code_games(c, c->games, c->n_pending, diag);
    c->n_pending = 0;
    if (r != UZ_OK)
        return r;
    c->st.games_read = c->src.games;
    c->st.games_as_text = c->src.as_text;
    c->st.games_skipped = c->src.skipped;
    c->st.inputs_skipped = c->src.inputs_skipped;
    c->st.bytes_in = uz_game_source_bytes(&c->src);
    if (c->on_block)
        c->on_block(c->on_block_user, &c->st);
    if (c->opt.on_progress)
        c->opt.on_progress(c->opt.user, c->st.games, c->st.moves, c->st.bytes_in);
    return UZ_OK;
}

/* Reads the current input to its end, coding every full block. */
static uz_result read_input(uz_compressor *c, uz_diag *diag)
{
    c->started = true;
    while (c->src.reader) {
        size_t room = c->block_games - c->n_pending;
        if (c->skip_games > 0 && c->skip_games < room)
            room = (size_t)c->skip_games;
        long got = uz_game_source_read(&c->src, c->games + c->n_pending, room, diag);
        if (got < 0)
            return diag && diag->code ? diag->code : UZ_ERR_IO;
        if (c->skip_games > 0) { /* a resume: these games are in the copied blocks */
            c->skip_games -= (uint64_t)got;
            continue;
        }
        c->n_pending += (size_t)got;
        uz_result r = flush_pending(c, false, diag);
        if (r != UZ_OK)
            return r;
    }
    return UZ_OK;
}

static uz_result check_open(uz_compressor *c, uz_diag *diag)
{
    if (c->finished) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no archive begun (uz_compressor_begin)");
        return UZ_ERR_ARG;
    }
    return UZ_OK;
}

uz_result uz_compressor_add_file(uz_compressor *c, const char *path, uz_diag *diag)
{
    uz_result r = check_open(c, diag);
    if (r == UZ_OK)
        r = uz_game_source_open(&c->src, path, diag);
    if (r == UZ_DONE) /* left out by the policy, and said */
        return UZ_OK;
    if (r == UZ_OK)
        r = read_input(c, diag);
    uz_game_source_end(&c->src);
    return r;
}

uz_result uz_compressor_add_text(uz_compressor *c, const char *pgn, size_t len, const char *name, uz_diag *diag)
{
    uz_result r = check_open(c, diag);
    if (r == UZ_OK)
        r = uz_game_source_open_mem(&c->src, pgn, len, name, diag);
    if (r == UZ_OK)
        r = read_input(c, diag);
    uz_game_source_end(&c->src);
    return r;
}

/* The persistent cache's hits are audited after they were used: once an audit of this
 * archive disagrees (the pool then stops using the cache), at least that hit's wrong
 * scores are coded in it, so the archive would not decode. It is refused: the caller
 * discards it, as after any error (the cache is no longer used, so a second run over
 * the same compressor codes without it). */
static uz_result refuse_distrusted_cache(uz_compressor *c, uz_diag *diag)
{
    uz_pool_stats ps;
    if (!c->cache_path)
        return UZ_OK;
    uz_oracle_set_pool_stats(c->oracles, &ps);
    if (ps.store_disagreements == c->disagreements_before)
        return UZ_OK;
    uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                "the score cache %.200s disagrees with the engine (a damaged or forged entry): the archive was "
                "coded with some of its wrong scores and is not kept; compress again without that cache",
                c->cache_path);
    return UZ_ERR_MISMATCH;
}

uz_result uz_compressor_finish(uz_compressor *c, uz_diag *diag)
{
    uz_result r = check_open(c, diag);
    /* A member of at most one game has no earlier game to count: it goes without key 14
     * (its moves code the same either way), and an empty archive stays 63 bytes. */
    if (r == UZ_OK && !c->writer && c->n_pending <= 1) {
        c->model.params.opening_alpha16 = c->model.params.opening_plies = 0;
        c->header.opening_alpha16 = c->header.opening_plies = 0;
    }
    if (r == UZ_OK)
        r = flush_pending(c, true, diag);
    if (r == UZ_OK && !c->writer) { /* no game at all: an empty member, nothing to mix a book into, no key 13, 15 or 16 */
        c->header.struct_version = 1;
        c->header.book_version = c->header.book_hash_lo = c->header.book_hash_hi = 0;
        c->header.tag_version = 1;
        r = uz_archive_writer_open(&c->writer, c->out, &c->header, diag);
    }
    if (r == UZ_OK) {
        r = uz_archive_writer_finish(c->writer, diag);
        c->writer = NULL;
    }
    c->finished = true;
    if (r == UZ_OK)
        r = refuse_distrusted_cache(c, diag);
    return r;
}

uz_result uz_compressor_begin(uz_compressor *c, FILE *archive, uz_diag *diag)
{
    if (!archive) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no output stream");
        return UZ_ERR_ARG;
    }
    uz_archive_writer_abort(c->writer);
    c->writer = NULL;
    c->out = archive;
    c->n_pending = 0;
    c->skip_games = 0;
    c->finished = c->started = false;
    uz_game_source_end(&c->src);
    c->src.games = c->src.as_text = c->src.skipped = c->src.inputs_skipped = c->src.bytes_done = 0;
    memset(&c->st, 0, sizeof c->st);
    c->st.resumable = true;
    uz_pool_stats ps;
    uz_oracle_set_pool_stats(c->oracles, &ps);
    c->disagreements_before = ps.store_disagreements;
    uz_result r = uz_model_open(&c->model, &c->params, diag);
    fill_header(c);
    return r;
}

uz_result uz_lib_compressor_use_model(uz_compressor *c, const uz_model_params *params, uz_coder_kind coder,
                                      uz_diag *diag)
{
    c->params = *params;
    uz_lib_oracle_weights(&c->spec, &c->params);
    if (coder != c->coder) {
        uz_encoder_destroy(c->enc);
        c->enc = NULL;
        c->coder = coder;
        if (uz_encoder_create(&c->enc, coder) != UZ_OK) {
            uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
            return UZ_ERR_NOMEM;
        }
    }
    return uz_model_open(&c->model, &c->params, diag);
}

const char *uz_compressor_engine_identity(const uz_compressor *c)
{
    return c->identity;
}

void uz_compressor_stats(const uz_compressor *c, uz_compress_stats *out)
{
    *out = c->st;
    /* What the inputs gave so far, also past the last block written. */
    out->games_as_text = c->src.as_text;
    out->games_skipped = c->src.skipped;
    out->inputs_skipped = c->src.inputs_skipped;
    out->bytes_in = uz_game_source_bytes(&c->src);
    uz_pool_stats ps;
    const uz_builtin_pool *builtin = uz_oracle_set_builtin(c->oracles);
    if (builtin)
        out->positions = uz_builtin_pool_positions(builtin);
    if (uz_oracle_set_pool(c->oracles)) {
        uz_oracle_set_pool_stats(c->oracles, &ps);
        out->positions = ps.queries - ps.trivial;
        out->positions_reused = ps.cache_hits + ps.coalesced + ps.store_hits;
        out->store_hits = ps.store_hits;
        out->engine_restarts = ps.restarts;
    }
    uint64_t lookups, hits, rejected;
    uz_lib_cache_stats(c->cache_path, &lookups, &hits, &rejected);
    out->store_rejected = rejected;
}

void uz_compressor_on_block(uz_compressor *c, void (*fn)(void *user, const uz_compress_stats *s), void *user)
{
    c->on_block = fn;
    c->on_block_user = user;
}

const char *uz_compressor_model_text(const uz_compressor *c)
{
    uz_compressor *m = (uz_compressor *)c; /* the text is a cache of the model's words */
    uz_lib_model_text(&c->model.params, m->model_text, sizeof m->model_text);
    return c->model_text;
}

/* What of a member header (its structure version aside) differs from this run's, or NULL. */
static const char *header_mismatch(const uz_archive_header *old, const uz_archive_header *now)
{
    if (old->version != now->version)
        return "format version";
    if (strcmp(old->fingerprint, now->fingerprint) != 0)
        return "engine or engine settings";
    if (old->model_kind != now->model_kind || old->n_model_params != now->n_model_params ||
        memcmp(old->model_params, now->model_params, sizeof old->model_params[0] * old->n_model_params) != 0)
        return "move model";
    if (old->opening_alpha16 != now->opening_alpha16 || old->opening_plies != now->opening_plies)
        return "opening counts setting";
    if (old->book_version != now->book_version || old->book_hash_lo != now->book_hash_lo ||
        old->book_hash_hi != now->book_hash_hi)
        return "opening book";
    if (old->coder != now->coder)
        return "coder";
    if (old->tag_version != now->tag_version)
        return "tag coding";
    return NULL;
}

/* The counts at claims (a resume state, which anyone who can write it can forge with
 * its check recomputed) against the interrupted archive itself: its first at->blocks
 * blocks must hold at->games games (all the games the inputs gave for them: games_read),
 * at->moves moves and at->move_bytes bytes of coded moves, and end where the file does.
 * UZ_ERR_MISMATCH (said) when they do not. */
static uz_result check_resume_counts(FILE *old, const char *old_name, const uz_compress_stats *at, uz_diag *diag)
{
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uint64_t blocks = 0, games = 0, moves = 0, move_bytes = 0;
    uz_result r = uz_archive_reader_open(&reader, old, old_name);
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "%s: out of memory", old_name);
    if (r == UZ_OK)
        r = uz_archive_read_header(reader, &header, diag);
    for (; r == UZ_OK && blocks < at->blocks; blocks++) {
        if ((r = uz_archive_read_block(reader, &block, diag)) != UZ_OK)
            break;
        games += block.n_games;
        moves += block.tree_moves;
        move_bytes += block.moves.size;
    }
    uint64_t end = reader ? uz_archive_reader_offset(reader) : 0;
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    struct stat st;
    bool whole = fstat(fileno(old), &st) == 0 && (uint64_t)st.st_size == end;
    if (r == UZ_OK && (!whole || games != at->games || at->games_read != at->games || moves != at->moves ||
                       move_bytes != at->move_bytes)) {
        r = UZ_ERR_MISMATCH;
        uz_diag_set(diag, r, 0, 0,
                    "%s: its state does not describe it (it records %llu blocks, %llu games read, %llu games, "
                    "%llu moves; the archive holds %llu games and %llu moves in those blocks%s)",
                    old_name, (unsigned long long)at->blocks, (unsigned long long)at->games_read,
                    (unsigned long long)at->games, (unsigned long long)at->moves, (unsigned long long)games,
                    (unsigned long long)moves, whole ? "" : ", and more after them");
    } else if (r == UZ_DONE || r == UZ_ERR_CORRUPT) {
        r = UZ_ERR_MISMATCH;
        uz_diag_set(diag, r, 0, 0, "%s: fewer blocks than its state records", old_name);
    }
    if (r == UZ_OK && fseeko(old, 0, SEEK_SET) != 0) {
        r = UZ_ERR_IO;
        uz_diag_set(diag, r, 0, 0, "%s: cannot read it again", old_name);
    }
    return r;
}

uz_result uz_compressor_resume(uz_compressor *c, FILE *old, const char *old_name, const uz_compress_stats *at,
                               uz_diag *diag)
{
    if (!c->out || c->started || c->finished) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "resume only a fresh archive");
        return UZ_ERR_ARG;
    }
    uz_result checked = check_resume_counts(old, old_name, at, diag);
    if (checked != UZ_OK)
        return checked;
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_result r = uz_archive_reader_open(&reader, old, old_name);
    if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "%s: out of memory", old_name);
    if (r == UZ_OK)
        r = uz_archive_read_header(reader, &header, diag);
    if (r == UZ_DONE) {
        r = UZ_ERR_CORRUPT;
        uz_diag_set(diag, r, 0, 0, "%s: no archive to resume", old_name);
    }
    /* The copied blocks must decode under this run's header: another program version or
     * other settings (a model, the coder, opening counts) would make them wrong. */
    const char *differs = r == UZ_OK ? header_mismatch(&header, &c->header) : NULL;
    if (differs) {
        r = UZ_ERR_MISMATCH;
        uz_diag_set(diag, r, 0, 0, "%s: written with another %s than this run's", old_name, differs);
    }
    /* The interrupted run's member may code Chess960 games: so does this one. */
    if (r == UZ_OK && header.chess960_fingerprint[0] && (r = uz_oracle_set_start_chess960(c->oracles, diag)) == UZ_OK)
        fill_header(c);
    if (r == UZ_OK) { /* the copied blocks keep their structure version */
        c->header.struct_version = header.struct_version;
        c->header.comment_revision = header.comment_revision;
        c->header.engine_revision = header.engine_revision;
        c->header.comment_text = header.comment_text;
        r = uz_archive_writer_open(&c->writer, c->out, &c->header, diag);
    }
    /* Packing is deterministic: the blocks are copied as they are, the index rebuilt. */
    for (uint64_t i = 0; r == UZ_OK && i < at->blocks; i++) {
        r = uz_archive_read_block(reader, &block, diag);
        if (r == UZ_DONE) {
            r = UZ_ERR_CORRUPT;
            uz_diag_set(diag, r, 0, 0, "%s: fewer blocks than the interrupted run recorded", old_name);
        }
        if (r == UZ_OK) {
            const uz_block_bytes copied = {.n_games = block.n_games, .n_moves = block.tree_moves,
                                           .text_digest = block.text_digest, .structure = block.structure,
                                           .moves = block.moves}; /* borrowed */
            r = uz_archive_write_block(c->writer, &copied, diag);
        }
    }
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    if (r != UZ_OK)
        return r;
    c->started = true;
    c->skip_games = at->games_read;
    c->st.games = at->games;
    c->st.moves = at->moves;
    c->st.move_bytes = at->move_bytes;
    c->st.blocks = at->blocks;
    return UZ_OK;
}

/* First pass of a fit: scores every game of the inputs (the pool keeps the results for
 * the real pass) and fits the rank or exp model to them. */
uz_result uz_compressor_fit_model(uz_compressor *c, const char *const *paths, size_t n, uint64_t *positions,
                                  double *bits_per_position, uz_diag *diag)
{
    if (!c->out || c->started || c->finished) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "fit the model before adding inputs");
        return UZ_ERR_ARG;
    }
    uz_result r = UZ_OK;
    /* The real pass takes the first pass's scores from the memory cache. */
    if (!uz_oracle_set_builtin(c->oracles) && c->settings.cache_entries < (1 << 21)) {
        c->settings.cache_entries = 1 << 21;
        r = start_pool(c, diag);
    }
    if (r == UZ_OK)
        r = uz_oracle_set_start_chess960(c->oracles, diag);
    uz_fit_samples samples = {0};
    uz_walk *walks = calloc(c->block_games, sizeof *walks);
    if (!walks) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        r = UZ_ERR_NOMEM;
    }
    uint64_t skipped = c->src.skipped, as_text = c->src.as_text, inputs_skipped = c->src.inputs_skipped;
    uint64_t games = c->src.games;
    for (size_t p = 0; r == UZ_OK && p < n; p++) {
        r = uz_game_source_open(&c->src, paths[p], diag);
        if (r == UZ_DONE) {
            r = UZ_OK;
            continue;
        }
        while (r == UZ_OK && c->src.reader) {
            long got = uz_game_source_read(&c->src, c->games, c->block_games, diag);
            if (got < 0) {
                r = diag && diag->code ? diag->code : UZ_ERR_IO;
                break;
            }
            r = uz_oracle_set_prepare_games(c->oracles, c->games, (size_t)got, diag);
            long made = 0;
            for (; r == UZ_OK && made < got; made++)
                r = uz_walk_init(&walks[made], &c->games[made]);
            if (r == UZ_OK)
                r = uz_score_walks(uz_oracle_set_oracle(c->oracles), walks, (size_t)got, diag);
            for (long i = 0; i < made; i++) {
                if (r == UZ_OK && uz_fit_samples_add_walk(&samples, &walks[i]) != 0) {
                    r = UZ_ERR_NOMEM;
                    uz_diag_set(diag, r, 0, 0, "out of memory while fitting");
                }
                uz_walk_free(&walks[i]);
            }
        }
        uz_game_source_end(&c->src);
    }
    /* The real pass counts and reports again. */
    c->src.skipped = skipped;
    c->src.as_text = as_text;
    c->src.inputs_skipped = inputs_skipped;
    c->src.games = games;
    c->src.bytes_done = 0;
    if (r == UZ_OK && samples.n_items) {
        uz_fit_sample *list = uz_fit_samples_list(&samples);
        uz_model_params start = c->model.params, best;
        if (start.kind == UZ_MODEL_PLAYER) /* the player model's weights are trained offline */
            start = uz_model_default_params();
        double bits = 0;
        if (!list || uz_model_fit(list, samples.n_items, &start, c->opt.floor_milli < 0, &best, &bits) != UZ_OK) {
            r = UZ_ERR_NOMEM;
            uz_diag_set(diag, r, 0, 0, "fitting the model failed");
        } else {
            if (bits_per_position)
                *bits_per_position = bits / (double)samples.n_items;
            best.opening_alpha16 = c->model.params.opening_alpha16; /* the fit leaves the counts as asked */
            best.opening_plies = c->model.params.opening_plies;
            best.book_version = c->model.params.book_version;
            best.book_hash_lo = c->model.params.book_hash_lo;
            best.book_hash_hi = c->model.params.book_hash_hi;
            r = uz_model_open(&c->model, &best, diag);
            fill_header(c);
        }
        free(list);
    }
    free(walks);
    if (positions)
        *positions = samples.n_items;
    uz_fit_samples_free(&samples);
    return r;
}

void uz_compressor_close(uz_compressor *c)
{
    if (!c)
        return;
    uz_archive_writer_abort(c->writer);
    uz_game_source_end(&c->src);
    free(c->src.name);
    for (size_t i = 0; c->games && i < c->block_games; i++)
        uz_game_clear(&c->games[i]);
    free(c->games);
    uz_oracle_set_close(c->oracles);
    uz_encoder_destroy(c->enc);
    uz_lib_cache_release(c->cache_path);
    free(c->cache_path);
    free(c);
}
