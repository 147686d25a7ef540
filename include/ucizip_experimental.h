/* libucizip's experimental interfaces: reading an archive's games and tags without an
 * engine. NOT YET STABLE: what this header declares may change or go in any release,
 * without a change of the library's soname. Programs that use it must be built against
 * the exact version of the library they run with.
 *
 * Everything here is declared only where UZ_EXPERIMENTAL_API is defined before the
 * header is included (as zstd's ZSTD_STATIC_LINKING_ONLY does):
 *
 *     #define UZ_EXPERIMENTAL_API
 *     #include <ucizip_experimental.h>
 *
 * The conventions of ucizip.h hold (results, diagnostics, ownership, threads). */
#ifndef UCIZIP_EXPERIMENTAL_H
#define UCIZIP_EXPERIMENTAL_H

#include "ucizip.h"

#ifdef UZ_EXPERIMENTAL_API

#ifdef __cplusplus
extern "C" {
#endif

/* One tag pair of a game: both strings are the bytes of the input (whatever their
 * encoding), escapes resolved. value is NULL for the tag whose value the archive derives
 * from the moves (a final position's FEN) when the moves were not decoded. */
typedef struct uz_tag_pair {
    const char *name;
    const char *value;
} uz_tag_pair;

/* A game's place in its archive and its tags. Every pointer stays valid until the next
 * call on the object that filled it. */
typedef struct uz_game_tags {
    uint64_t number;          /* 1-based across all members, as uz_decompressor_game counts */
    bool is_game;             /* false: not a game, the bytes after an input's last game
                                 (whitespace, a comment); it has no tags */
    bool as_text;             /* a game the archive keeps as text (moves not engine-coded) */
    size_t n_tags;
    const uz_tag_pair *tags;  /* n_tags pairs, in the order of the input */
} uz_game_tags;

/* ---- games' tags without an engine ---- */

typedef struct uz_tag_reader uz_tag_reader;

/* Reads the archive f sequentially (not owned; a pipe is fine; name is for messages)
 * from its structure streams only: no engine is started and no move is decoded. */
uz_result uz_tag_reader_open(uz_tag_reader **out, FILE *f, const char *name, uz_diag *diag);

/* The next game record (games and the records that are not games, in archive order):
 * UZ_OK and *game filled, UZ_DONE after the last, or an error (UZ_ERR_CORRUPT, ...). */
uz_result uz_tag_reader_next(uz_tag_reader *r, uz_game_tags *game, uz_diag *diag);

/* Frees r (not the file). NULL: no-op. */
void uz_tag_reader_close(uz_tag_reader *r);

/* The number of game records in the seekable archive file f (what uz_decompressor_game
 * numbers), from its members' indexes; no engine is started. */
uz_result uz_archive_game_count(FILE *f, const char *name, uint64_t *games, uz_diag *diag);

/* ---- the tags of a decoded game ---- */

/* The tags of the game last returned by uz_decompressor_next_game or uz_decompressor_game
 * on d, the value derived from the moves included. UZ_ERR_ARG when there is none. */
uz_result uz_decompressor_game_tags(uz_decompressor *d, uz_game_tags *game, uz_diag *diag);

#ifdef __cplusplus
}
#endif

#endif /* UZ_EXPERIMENTAL_API */
#endif
