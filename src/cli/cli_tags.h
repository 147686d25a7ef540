/* Games' tags from an archive or PGN files without the engine: an archive's games come
 * from its structure streams only (tags, result, the shape of the main line), never from
 * its move streams; a PGN file's games are parsed. Used by list, ratings and extract. */
#ifndef UCIZIP_CLI_TAGS_H
#define UCIZIP_CLI_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#include "archive/archive.h"
#include "pgn/tagfilter.h"

/* One game as visited. In an archive, header and block are the member's and the block's
 * that hold it and index is its place in the block (moves not decoded: every move is
 * UZ_MOVE_NONE); for PGN input they are NULL and 0. */
typedef struct cli_tag_game {
    uz_game *game;
    uint64_t number; /* 1-based across all inputs */
    const char *file;
    const uz_archive_header *header;
    const uz_archive_block *block;
    size_t index;
    bool filter_after; /* the filter names a tag the archive derives from the moves (decodes
                          only): fn decodes the game and applies the filter itself */
} cli_tag_game;

/* Return 0 to go on, non-zero to stop (returned by cli_each_game). */
typedef int (*cli_tag_fn)(void *user, const cli_tag_game *g);

/* True if the file starts with the archive magic. */
bool cli_is_archive(const char *path);

/* Calls fn for every game of path that matches filter (NULL: every game). Returns 0, fn's
 * non-zero value, or -1 after an error (printed). keep_going: skip bad PGN games.
 * decodes: fn decodes the games it gets, so a game whose filtered tag is derived from the
 * moves comes with filter_after set; otherwise such a filter is an error. */
int cli_each_game(const char *path, const uz_tag_filter *filter, bool keep_going, bool decodes, uint64_t *number,
                  cli_tag_fn fn, void *user);

/* Adds a --tag condition to filter; prints a usage error and returns -1 if bad. */
int cli_tag_option(uz_tag_filter *filter, const char *expr);

#endif
