/* Where an archive's bytes go (for `info`): moves, tags, clocks, engine comments, other
 * comments, structure and overhead, by reading the blocks' structure streams. */
#ifndef UCIZIP_BYTE_SPLIT_H
#define UCIZIP_BYTE_SPLIT_H

#include <stdint.h>
#include <stdio.h>

#include "archive/archive.h"

/* An archive's bytes by what they hold; the parts add up to the file's size. A block's
 * stored structure stream is shared out among tags, comments and structure in proportion
 * to its sections compressed each on its own with the block's method (the stream is
 * compressed as a whole, so its bytes cannot be counted section by section). clocks and
 * engine_comments stay 0: such comments are counted in comments until the comment coder
 * reports them apart. */
typedef struct uz_byte_split {
    uint64_t moves;           /* move streams */
    uint64_t tags;            /* tag names and values (and coded tags) */
    uint64_t clocks;          /* clock comments */
    uint64_t engine_comments; /* engine evaluation comments */
    uint64_t comments;        /* the other comments (and verbatim games' text) */
    uint64_t structure;       /* game records (tree shapes, NAGs, results) and text records */
    uint64_t overhead;        /* headers, block headers, indexes, footers */
} uz_byte_split;

void uz_byte_split_init(uz_byte_split *s);
/* Adds a block as read (uz_archive_read_block). UZ_ERR_NOMEM is the only error. */
uz_result uz_byte_split_add_block(uz_byte_split *s, const uz_archive_block *b);
/* Sets overhead: total_bytes (of the file or member) less the other parts. */
void uz_byte_split_finish(uz_byte_split *s, uint64_t total_bytes);
/* The split of a whole archive read from f (every member, every block). */
uz_result uz_archive_byte_split(FILE *f, const char *name, uz_byte_split *out, uz_diag *diag);

#endif
