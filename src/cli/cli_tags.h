/* Games' tags from an archive or PGN files without the engine: an archive's games come
 * from its structure streams only (tags, result, the shape of the main line), never from
 * its move streams; a PGN file's games are parsed. Used by list, ratings and extract. */
#ifndef UCIZIP_CLI_TAGS_H
#define UCIZIP_CLI_TAGS_H

#include <stdbool.h>
#include <stdint.h>

#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

/* One game as visited. In an archive, reader is the archive's tag reader, which can decode
 * the game (uz_tag_reader_decode; its moves are not decoded before); for PGN input NULL. */
typedef struct cli_tag_game {
    const uz_game *game;
    uint64_t number; /* 1-based across all inputs */
    const char *file;
    uz_tag_reader *reader;
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
int cli_each_game(const char *path, const uz_game_filter *filter, bool keep_going, bool decodes, uint64_t *number,
                  cli_tag_fn fn, void *user);

/* A new empty filter, or NULL after an error message. */
uz_game_filter *cli_filter_new(void);
/* Adds a --tag condition to filter; prints a usage error and returns -1 if bad. */
int cli_tag_option(uz_game_filter *filter, const char *expr);

/* The options that select games by their tags (list, ratings, extract). */
enum { CLI_OPT_TAG = 4000, CLI_OPT_PLAYER };
#define CLI_SELECT_OPTIONS \
    {"tag", required_argument, NULL, CLI_OPT_TAG}, {"player", required_argument, NULL, CLI_OPT_PLAYER}
#define CLI_SELECT_HELP                                                                           \
    "  --tag COND          only games whose tags meet COND (all of them when repeated):\n"       \
    "                      Name=text (contains, any case), Name==text (exactly), Name!=text,\n" \
    "                      Name<x Name<=x Name>x Name>=x (x a number: the value's leading\n"   \
    "                      number, none never matches; else text: dates compare as dates);\n" \
    "                      'C1|C2' holds when either does ('White=Tal|Black=Tal')\n"          \
    "  --player NAME       only games in which NAME (contained, any case) has either colour\n"
/* Adds --tag or --player (c: CLI_OPT_TAG or CLI_OPT_PLAYER) to filter: 1 taken, 0 not a
 * selection option, -1 bad (the error printed). */
int cli_select_opt(uz_game_filter *filter, int c, const char *arg);

#endif
