/* The priors of coded tags version 2 (doc/format.md, "Coded tags"): for a tag name, the
 * values a block's recent lists of that name start from (model 12's templates: a
 * player's name as the byte 1 or 2), the most frequent first. Frozen: tag_prior.c is
 * generated at build time from data/tag_priors/v2.tsv by scripts/tag_priors.py, which
 * checks the file's pinned hash (src/block/meson.build). */
#ifndef UCIZIP_TAG_PRIOR_H
#define UCIZIP_TAG_PRIOR_H

#include <stddef.h>

/* The name's priors (*n of them; NULL and 0 for a name without). */
const char *const *uz__tag_prior(const char *name, size_t *n);

#endif
