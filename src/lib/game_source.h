/* PGN inputs read game by game with the policies of uz_options: what to do with games
 * that cannot be replayed, with variants, with inputs that cannot be read. Every library
 * call and command that reads games goes through here, so they all treat bad input the
 * same way. */
#ifndef UCIZIP_LIB_GAME_SOURCE_H
#define UCIZIP_LIB_GAME_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "ucizip.h"
#include "pgn/pgn.h"

typedef struct uz_game_source {
    /* What the caller sets (uz_game_source_init gives the defaults). */
    bool exact;                 /* keep every game's exact bytes (game->raw); the input's
                                   tail after its last game becomes a text-only game */
    uz_policy bad_games;        /* a game that cannot be replayed */
    uz_policy variants;         /* a game of an unsupported variant */
    uz_policy damaged_inputs;   /* an input that cannot be opened or is damaged */
    uint64_t max_games;         /* games to return in all (0: no limit) */
    uz_message_fn on_message;
    void *user;

    /* The current input. */
    struct uz_input *input;
    uz_pgn_reader *reader;
    char *name;                 /* display name ("<stdin>" for "-") */
    bool reported_as_text;      /* its first game kept as text has been reported */

    /* Counts over every input. */
    uint64_t games;             /* games returned */
    uint64_t as_text;           /* of which kept as text because they could not be replayed */
    uint64_t skipped;           /* games left out */
    uint64_t inputs_skipped;    /* inputs left out or cut short */
    uint64_t bytes_done;        /* input bytes of the inputs already finished */
} uz_game_source;

/* Defaults: exact, bad games and variants kept as text, damaged inputs stop. */
void uz_game_source_init(uz_game_source *src);

/* Makes path ("-": stdin; plain or compressed) the current input. With damaged_inputs
 * SKIP an input that cannot be opened is reported and left out: UZ_DONE (nothing to
 * read). Otherwise UZ_OK or the error. */
uz_result uz_game_source_open(uz_game_source *src, const char *path, uz_diag *diag);
/* The same for PGN text in memory (not copied: it must outlive the input). */
uz_result uz_game_source_open_mem(uz_game_source *src, const char *text, size_t len, const char *name,
                                  uz_diag *diag);

/* Reads up to cap games of the current input into games[] (each initialised with
 * uz_game_init, cleared and refilled). Returns how many (0: the input is done and
 * closed, also once max_games games were returned), or -1 with diag set when a policy
 * says stop (or on I/O and memory errors). */
long uz_game_source_read(uz_game_source *src, uz_game *games, size_t cap, uz_diag *diag);

/* Input bytes consumed so far over every input (compressed bytes where compressed). */
uint64_t uz_game_source_bytes(const uz_game_source *src);

/* Closes the current input, if any. */
void uz_game_source_end(uz_game_source *src);

#endif
