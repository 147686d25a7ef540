/* uz_archive_scan (ucizip_experimental.h): an archive's members as their headers and
 * blocks tell, without an engine: what `ucizip info` shows. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "archive/archive.h"
#include "block/byte_split.h"
#include "block/game_struct.h"
#include "gamecode/builtin_member.h"
#include "gamecode/member.h"

/* The public names of the block sizes are the container's. */
_Static_assert(UZ_BLOCK_GAMES_DEFAULT == UZ_ARCHIVE_BLOCK_GAMES && UZ_BLOCK_GAMES_MAX == UZ_ARCHIVE_MAX_BLOCK_GAMES,
               "block sizes");

struct uz_archive_scan {
    uz_archive_reader *reader;
    uz_archive_block block;
    uz_archive_header header;  /* the member last returned (its strings handed out) */
    uz_model_params model;
    uz_lib_model_desc model_desc;
};

_Static_assert(offsetof(uz_archive_scan, reader) == 0, "uz_lib_scanner_open opens the first member");

uz_result uz_archive_scan_open(uz_archive_scan **out, FILE *f, const char *name, uz_diag *diag)
{
    *out = uz_lib_scanner_open(sizeof **out, f, name, diag);
    return *out ? UZ_OK : UZ_ERR_NOMEM;
}

static void copy_split(uz_byte_counts *to, const uz_byte_split *from)
{
    *to = (uz_byte_counts){from->moves,    from->tags,      from->clocks,  from->engine_comments,
                           from->comments, from->structure, from->overhead};
}

/* The model of s->header as public fields; NULL for a model this version does not know. */
static const uz_model_info *describe_model(uz_archive_scan *s)
{
    if (uz_header_model(&s->header, &s->model) != UZ_OK)
        return NULL;
    uz_lib_model_describe(&s->model, &s->model_desc);
    return &s->model_desc.info;
}

/* Adds the coded comments of the block just read to m (a block whose structure stream
 * does not say is left out: the counts are a report, not a check). */
static void add_comment_info(const uz_archive_block *b, uz_member_summary *m)
{
    uz_struct_comment_info info;
    uz_diag ignored = {0};
    if (b->struct_version < 1 || uz_block_struct_comment_info(b->structure.data, b->structure.size, b->struct_version,
                                                              b->tag_version, b->comment_revision, b->comment_text,
                                                              b->n_games, &info, &ignored) != UZ_OK)
        return;
    m->comment_code_bytes += info.code_bytes;
    m->comments += info.comments;
    m->clocks += info.clocks;
    m->engine_comments += info.engine;
}

/* Reads the member's blocks into its counts. */
static uz_result scan_blocks(uz_archive_scan *s, uz_member_summary *m, uz_byte_split *split, uz_diag *diag)
{
    uz_result r;
    while ((r = uz_archive_read_block(s->reader, &s->block, diag)) == UZ_OK) {
        const uz_archive_block *b = &s->block;
        m->games += b->n_games;
        m->moves += b->tree_moves;
        m->move_bytes += b->moves.size;
        m->structure_bytes += b->struct_stored;
        if ((r = uz_byte_split_add_block(split, b)) != UZ_OK) {
            uz_diag_set(diag, r, 0, 0, "out of memory");
            return r;
        }
        add_comment_info(b, m);
    }
    return r == UZ_DONE ? UZ_OK : r;
}

uz_result uz_archive_scan_next(uz_archive_scan *s, uz_member_summary *m, uz_diag *diag)
{
    uint64_t start = uz_archive_reader_offset(s->reader);
    uz_result r = uz_archive_read_header(s->reader, &s->header, diag);
    if (r != UZ_OK)
        return r;
    const uz_archive_header *h = &s->header;
    int builtin_version, builtin_depth;
    uz_diag builtin_diag = {0};
    /* A header that claims the builtin is checked as the decoder checks it (a version this
     * ucizip lacks, or a fingerprint it does not know, is still described). */
    if (uz_header_is_builtin(h) &&
        uz_header_builtin(h, &builtin_version, &builtin_depth, &builtin_diag) == UZ_ERR_CORRUPT) {
        if (diag)
            *diag = builtin_diag;
        return UZ_ERR_CORRUPT;
    }
    uz_header_profile_settings(&s->header); /* (the settings of the profile it refers to) */
    *m = (uz_member_summary){
        .version = h->version,
        .created_by = h->created_by,
        .engine_name = h->engine_name,
        .settings_summary = h->settings_summary,
        .fingerprint = h->fingerprint,
        .chess960_fingerprint = h->chess960_fingerprint,
        .chess960_builtin = uz_header_is_builtin(h),
        .settings_from_profile = h->settings_from_profile,
        .depth = h->depth,
        .hash_mb = h->hash_mb,
        .mode = uz_engine_mode_name((uz_engine_mode)h->mode),
        .model = describe_model(s),
        .coder = uz_lib_coder_name((uz_coder_kind)h->coder),
    };
    uz_byte_split split;
    uz_byte_split_init(&split);
    if ((r = scan_blocks(s, m, &split, diag)) != UZ_OK)
        return r;
    m->bytes = uz_archive_reader_offset(s->reader) - start;
    uz_byte_split_finish(&split, m->bytes);
    copy_split(&m->split, &split);
    return UZ_OK;
}

uint64_t uz_archive_scan_offset(const uz_archive_scan *s)
{
    return uz_archive_reader_offset(s->reader);
}

void uz_archive_scan_close(uz_archive_scan *s)
{
    if (!s)
        return;
    uz_archive_block_free(&s->block);
    uz_archive_reader_close(s->reader);
    free(s);
}
