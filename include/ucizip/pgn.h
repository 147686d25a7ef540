/* PGN games: the in-memory game tree, a streaming reader (constant memory whatever
 * the file size) and a writer in PGN export format. Depends on board.h and san.h. */
#ifndef UCIZIP_PGN_H
#define UCIZIP_PGN_H

#include <stdbool.h>
#include <stdio.h>

#include "ucizip/board.h"

typedef struct uz_tag {
    char *name;
    char *value; /* unescaped (no backslash escapes), raw bytes as in the file */
} uz_tag;

typedef struct uz_line uz_line;

/* One move of a line with what annotates it. */
typedef struct uz_node {
    uz_move move;           /* legal in the position before it, or UZ_MOVE_NULL */
    uint8_t *nags;          /* NAG numbers in order ($1 for "!", etc.) */
    size_t n_nags;
    char **comments;        /* comments following the move, in order, without braces */
    size_t n_comments;
    uz_line *variations;    /* alternatives to this move: each starts in the position before it */
    size_t n_variations;
} uz_node;

struct uz_line {
    char **pre_comments;    /* comments before the line's first move */
    size_t n_pre_comments;
    uz_node *nodes;
    size_t n_nodes;
};

typedef enum uz_game_result {
    UZ_RESULT_UNKNOWN = 0, /* "*" */
    UZ_RESULT_WHITE,       /* "1-0" */
    UZ_RESULT_BLACK,       /* "0-1" */
    UZ_RESULT_DRAW,        /* "1/2-1/2" */
} uz_game_result;

typedef struct uz_game {
    uz_tag *tags;             /* in file order; the writer puts the seven-tag roster first */
    size_t n_tags;
    uz_position start;        /* from [FEN] when [SetUp "1"] (or a bare [FEN]); else startpos */
    bool has_fen;             /* true when start came from a FEN tag */
    uz_line main;             /* the main line */
    uz_game_result result;    /* the game termination marker (not the Result tag) */
    char **trailing_comments; /* comments after the termination marker (e.g. ";" lines) */
    size_t n_trailing_comments;
    long first_line;          /* line of the game's first token in its input */
    long number;              /* 1-based game number in its input */
} uz_game;

void uz_game_init(uz_game *game);
/* Frees everything the game owns and re-initialises it; NULL is a no-op. */
void uz_game_clear(uz_game *game);
/* Structural equality: tags, start, moves, NAGs, comments, variations, result. */
bool uz_game_equal(const uz_game *a, const uz_game *b);
/* Value of a tag or NULL. */
const char *uz_game_tag(const uz_game *game, const char *name);

/* Streaming reader over a FILE (stdin included). Memory use is bounded by the largest
 * game, never by the file. */
typedef struct uz_pgn_reader uz_pgn_reader;

/* name is used in diagnostics only (e.g. "games.pgn" or "<stdin>"). The reader does
 * not own or close f. Returns NULL on allocation failure. */
uz_pgn_reader *uz_pgn_reader_open(FILE *f, const char *name);
void uz_pgn_reader_close(uz_pgn_reader *r);

/* Reads the next game into game (cleared first). Returns UZ_OK, UZ_DONE at end of
 * input, or an error with diag->line/column/game set and a message that says what was
 * expected. After an error the reader has skipped to the start of the next game, so
 * the caller may call again to continue (skip the bad game) or stop. Chess960 and
 * other variants give UZ_ERR_UNSUPPORTED naming the variant. */
uz_result uz_pgn_read_game(uz_pgn_reader *r, uz_game *game, uz_diag *diag);

/* Writes the game in PGN export format: seven-tag roster first, then the other tags in
 * input order, movetext in canonical SAN wrapped at 79 columns, comments, NAGs,
 * variations, termination marker, then a blank line. Returns UZ_OK or UZ_ERR_IO. */
uz_result uz_pgn_write_game(FILE *out, const uz_game *game);

#endif
