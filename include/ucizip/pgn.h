/* PGN games: the in-memory game tree, a streaming reader (constant memory whatever
 * the file size) and a writer in PGN export format. Depends on board.h and san.h. */
#ifndef UCIZIP_PGN_H
#define UCIZIP_PGN_H

#include <stdbool.h>
#include <stdio.h>

#include "ucizip/board.h"

/* Text conventions of the tree (all strings NUL-terminated, raw bytes as in the file, so
 * UTF-8 and Latin-1 both pass through untouched):
 * - tag values are unescaped (\" and \\ resolved; any other backslash is kept);
 * - comments are the exact text between the braces, or after ';' up to the end of the line,
 *   with CR bytes dropped (CRLF becomes LF) and NUL bytes dropped; whitespace is kept.
 * Arrays of the tree have an implied capacity (0, 4, then the next power of two of the
 * count): grow them only with the uz_*_add_* functions below, which keep that rule. */
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
    char *verbatim;           /* a game kept as text (a variant we do not replay): its text,
                                 line ends as LF, trailing blanks cut; nothing else is set then.
                                 NULL for every game the reader returns */
    size_t verbatim_len;
    long first_line;          /* line of the game's first token in its input */
    long number;              /* 1-based game number in its input */
} uz_game;

void uz_game_init(uz_game *game);
/* Frees everything the game owns and re-initialises it; NULL is a no-op. */
void uz_game_clear(uz_game *game);
/* Structural equality: tags, start, moves, NAGs, comments, variations, result, trailing
 * comments (not first_line / number). Tags are compared in the writer's order (roster
 * first, then the others in input order), so a game equals its written-and-re-read copy. */
bool uz_game_equal(const uz_game *a, const uz_game *b);
/* Value of the first tag with that name, or NULL. */
const char *uz_game_tag(const uz_game *game, const char *name);

/* Building a tree (the reader uses these too). Strings are copied. uz_line_add_move and
 * uz_node_add_variation return the new element, or NULL when out of memory; they may move
 * the line's nodes / the node's variations, so do not keep pointers into them across calls
 * on the same array. NAGs and comments are kept in the order added. */
uz_result uz_game_add_tag(uz_game *game, const char *name, const char *value);
uz_node *uz_line_add_move(uz_line *line, uz_move move);
uz_line *uz_node_add_variation(uz_node *node);
uz_result uz_node_add_nag(uz_node *node, uint8_t nag);
uz_result uz_node_add_comment(uz_node *node, const char *text, size_t len);
uz_result uz_line_add_pre_comment(uz_line *line, const char *text, size_t len);
uz_result uz_game_add_trailing_comment(uz_game *game, const char *text, size_t len);
/* Makes game (cleared first) a verbatim game holding text (CR before LF dropped, trailing
 * whitespace cut); the writer prints it as it is. */
uz_result uz_game_set_verbatim(uz_game *game, const char *text, size_t len);

/* Streaming reader over a FILE (stdin included). Memory use is bounded by the largest
 * game, never by the file. */
typedef struct uz_pgn_reader uz_pgn_reader;

/* Limits on one game; exceeding one gives UZ_ERR_LIMIT and the game is skipped. */
#define UZ_PGN_MAX_GAME_BYTES ((size_t)64 << 20) /* text of one game, comments included */
#define UZ_PGN_MAX_DEPTH 256                     /* variation nesting */
#define UZ_PGN_MAX_MOVES ((size_t)1 << 20)       /* moves in one game, variations included */

typedef struct uz_pgn_limits {
    size_t max_game_bytes;
    int max_depth;
    size_t max_moves;
} uz_pgn_limits;

/* name is used in diagnostics only (e.g. "games.pgn" or "<stdin>"). The reader does
 * not own or close f. Returns NULL on allocation failure. */
uz_pgn_reader *uz_pgn_reader_open(FILE *f, const char *name);
/* The same over len bytes in memory (not copied: they must outlive the reader). */
uz_pgn_reader *uz_pgn_reader_open_mem(const void *data, size_t len, const char *name);
void uz_pgn_reader_close(uz_pgn_reader *r);
/* Replaces the default limits above (e.g. smaller ones for tests). */
void uz_pgn_reader_set_limits(uz_pgn_reader *r, const uz_pgn_limits *limits);
/* Games started so far, good or bad: the number of the last game read. */
long uz_pgn_reader_game_count(const uz_pgn_reader *r);

/* Reads the next game into game (cleared first). Returns UZ_OK, UZ_DONE at end of
 * input, or an error with diag->line/column/game set and a message that says what was
 * expected. After an error the reader has skipped to the start of the next game, so
 * the caller may call again to continue (skip the bad game) or stop. Chess960 and
 * other variants give UZ_ERR_UNSUPPORTED naming the variant.
 *
 * diag->message says what is wrong, e.g. "illegal move 'Nf6' for White at ply 23 (move
 * 12.): ..."; the caller adds the file name, diag->line:column and diag->game.
 * diag->ply is set for move errors (1-based ply counted from the game's start).
 * On error, game is left empty except number and first_line.
 *
 * What is accepted (import format and common deviations): tags with \" and \\ escapes,
 * a blank line inside the tag section, tags and movetext on one line, tagless games,
 * games not separated by a blank line, games with no moves; {} comments (multi-line) and
 * ';' comments; NAGs $0..$255 and the glyphs ! ? !! ?? !? ?! (as $1..$6, attached to a
 * move or standalone); nested variations, replayed from the position before the move they
 * replace; move numbers with '.', '...' or no period; SAN as uz_san_parse accepts it,
 * "e.p." after a move, null moves "--"/"Z0" (refused when in check); '%' escape lines
 * (a '%' in column 1); CRLF; a UTF-8 BOM at the start of any line; [FEN] with or without
 * [SetUp "1"] (the FEN tag is used whenever present; castling rights that its position
 * cannot have, king or rook not on its square, are ignored as pgn-extract and
 * python-chess do: the tag keeps its text, start gets the reduced rights).
 * Refused (UZ_ERR_UNSUPPORTED, game skipped): [Variant] other than Standard, Normal,
 * chess, From Position or empty (case-insensitive), and FEN castling fields with letters
 * other than KQkq (Shredder-FEN / X-FEN, i.e. Chess960).
 * A game must end with a termination marker (1-0, 0-1, 1/2-1/2, *): a game cut off by
 * the end of input or by the next game's tags is an error (UZ_ERR_SYNTAX), never
 * silently completed. A NAG or '(' before the first move of a line is an error.
 * Comments after the termination marker are the game's trailing comments when a tag
 * section or the end of input follows; when a tagless game follows they are that game's
 * first (pre-)comments. Comments before the first game's tag section are dropped.
 * Resync after an error: the rest of the bad game is skipped up to its termination
 * marker, or up to the next '[' once its movetext has begun (comments honoured).
 * After UZ_ERR_IO (reported once) the input counts as ended. */
uz_result uz_pgn_read_game(uz_pgn_reader *r, uz_game *game, uz_diag *diag);

/* The exact text of the game last returned by uz_pgn_read_game, whether it was read or
 * refused: from its first token to its end (whitespace after it may be included). Valid
 * until the next read. Lets a caller keep a game it cannot handle verbatim. Returns UZ_OK,
 * or UZ_ERR_NOMEM if the text could not be kept. */
uz_result uz_pgn_reader_last_text(const uz_pgn_reader *r, const char **text, size_t *len);
/* Byte offset in the input (the decompressed bytes) of the first token of the game last
 * returned by uz_pgn_read_game: where that game's text starts. */
unsigned long long uz_pgn_reader_last_offset(const uz_pgn_reader *r);

/* Writes the game in PGN export format: seven-tag roster first, then the other tags in
 * input order, movetext in canonical SAN wrapped at 79 columns, comments, NAGs,
 * variations, termination marker, then a blank line. Returns UZ_OK or UZ_ERR_IO
 * (UZ_ERR_ARG if a move of the tree is not legal, UZ_ERR_NOMEM).
 *
 * The output is canonical: reading it back gives an equal game (uz_game_equal).
 * - Only the tags the game has are written (no "?" placeholders are invented), roster
 *   tags first in roster order, then the others in input order. When has_fen is set and
 *   there is no FEN tag, [SetUp "1"] and [FEN] are written from start.
 * - A blank line follows the tag section (none when there are no tags).
 * - Move numbers: "1. e4 e5"; a Black move gets "N..." at the start of a line (game or
 *   variation) and after a comment or a variation.
 * - Order around a move: SAN, its NAGs as $n, its comments, its variations.
 * - Comments are written in braces, exactly; a comment containing '}' cannot be, and is
 *   written as a ';' comment (a line of its own end) when it has no newline; one with
 *   both '}' and a newline (never produced by the reader) has its '}' written as ')'.
 * - Lines are wrapped at 79 columns between tokens; comments are never broken (their
 *   text is kept exactly), so a long comment may make a longer line.
 * - The termination marker ends the movetext; trailing comments follow it; then a blank
 *   line. */
uz_result uz_pgn_write_game(FILE *out, const uz_game *game);

/* The same text as uz_pgn_write_game, in a malloc'ed NUL-terminated buffer (*len bytes,
 * without the NUL) that the caller frees. The canonical text of a game, e.g. for
 * checksums. Returns UZ_OK, UZ_ERR_NOMEM or UZ_ERR_ARG. */
uz_result uz_pgn_game_to_string(const uz_game *game, char **text, size_t *len);

#endif
