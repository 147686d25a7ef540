/* PGN games: the in-memory game tree, a streaming reader (constant memory whatever
 * the file size) and a writer in PGN export format. Depends on board.h and san.h. */
#ifndef UCIZIP_PGN_H
#define UCIZIP_PGN_H

#include <stdbool.h>
#include <stdio.h>

#include "chess/board.h"
#include "common/limits.h"

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
    char *order;            /* the kinds of the annotations above in file order, one byte each
                               ('n' NAG, 'c' comment, 'v' variation; n_nags + n_comments +
                               n_variations of them), kept by the uz_node_add_* functions */
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

/* A tag of a game read from an archive whose value is derived from the moves once they are
 * decoded; what kind and args mean is the archive's (block/tag_code.h). */
#define UZ_DERIVED_MAX 8
typedef struct uz_derived_tag {
    size_t tag;    /* the tag's index */
    unsigned kind; /* how its value is made */
    uint32_t arg;
} uz_derived_tag;

typedef struct uz_game {
    uz_tag *tags;             /* in file order; the writer puts the seven-tag roster first */
    size_t n_tags;
    uz_position start;        /* from [FEN] when [SetUp "1"] (or a bare [FEN]); else startpos */
    bool has_fen;             /* true when start came from a FEN tag */
    uz_line main;             /* the main line */
    uz_game_result result;    /* the game termination marker (not the Result tag) */
    char **trailing_comments; /* comments after the termination marker (e.g. ";" lines) */
    size_t n_trailing_comments;
    char *raw;                /* the game's exact bytes in its input, when the reader keeps them
                                 (uz_pgn_reader_keep_raw) or the archive decoder rebuilt them: from
                                 the game's first byte up to the next game's first token (the line
                                 ends and blank lines after it included), NULL otherwise */
    size_t raw_len;
    bool verbatim;            /* a game kept as text only (one we cannot replay: an unsupported
                                 variant, an illegal move, broken syntax): raw holds its bytes and
                                 nothing else is set */
    bool text_only;           /* not a game: the input's bytes after its last game (whitespace,
                                 comments, anything the reader found no game in), in raw */
    uz_derived_tag derived[UZ_DERIVED_MAX]; /* the tags whose values an archive derives from the
                                 moves (a final position's FEN, the opening's name): unknown until
                                 they are decoded (uz_tag_code_fill_derived), n_derived of them */
    size_t n_derived;
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

/* True when node->order is the export order: NAGs, then comments, then variations. */
bool uz_node_order_is_plain(const uz_node *node);
/* Replaces node->order (the same counts of each kind) after the annotations were added. */
uz_result uz_node_set_order(uz_node *node, const char *order, size_t len);

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
/* Makes game (cleared first) a verbatim game holding exactly these bytes in raw. */
uz_result uz_game_set_verbatim(uz_game *game, const char *text, size_t len);
/* Sets game->raw to a copy of exactly these bytes (the tree is left as it is). */
uz_result uz_game_set_raw(uz_game *game, const char *text, size_t len);

/* Streaming reader over a FILE (stdin included). Memory use is bounded by the largest
 * game, never by the file. */
typedef struct uz_pgn_reader uz_pgn_reader;

/* Limits on one game; exceeding one gives UZ_ERR_LIMIT and the game is skipped. */
#define UZ_PGN_MAX_GAME_BYTES UZ_LIMIT_GAME_BYTES /* text of one game, comments included */
#define UZ_PGN_MAX_DEPTH UZ_LIMIT_DEPTH             /* variation nesting */
#define UZ_PGN_MAX_MOVES UZ_LIMIT_GAME_NODES        /* moves in one game, variations included */
/* The game tree's add functions refuse (UZ_ERR_LIMIT, or NULL for a variation) a text
 * longer than UZ_LIMIT_TEXT and a list longer than UZ_LIMIT_LIST (limits.h). */

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
 * the caller may call again to continue (skip the bad game) or stop. Variants other
 * than standard chess and Chess960 give UZ_ERR_UNSUPPORTED naming the variant.
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
 * Chess960: [Variant] Chess960, Chess 960, 960, Fischerandom, Fischer Random (Chess),
 * FRC (case-insensitive), or a FEN castling field with file letters (Shredder-FEN /
 * X-FEN) makes start a Chess960 position (uz_position.chess960; the standard array when
 * there is no FEN): castling is O-O/O-O-O and the king takes its rook in the tree.
 * Refused (UZ_ERR_UNSUPPORTED, game skipped): [Variant] other than those, Standard,
 * Normal, chess, From Position or empty (case-insensitive).
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

/* With keep, every game returned (read, or refused with an error other than UZ_ERR_IO)
 * gets its exact bytes in game->raw, so that the spans of all games, one after the other,
 * are the whole input: the span of a game runs from the end of the previous one (the
 * start of input for the first) to the first token of the next game. At UZ_DONE, game->raw
 * holds what follows the last game (raw_len 0 when nothing does). Off by default. */
void uz_pgn_reader_keep_raw(uz_pgn_reader *r, bool keep);

/* The exact text of the game last returned by uz_pgn_read_game, whether it was read or
 * refused: from its first token to its end (whitespace after it may be included). Valid
 * until the next read. Lets a caller keep a game it cannot handle verbatim. Returns UZ_OK,
 * or UZ_ERR_NOMEM if the text could not be kept. */
uz_result uz_pgn_reader_last_text(const uz_pgn_reader *r, const char **text, size_t *len);
/* True when the game last returned was refused (UZ_ERR_LIMIT) for passing
 * max_game_bytes: the reader stopped reading at the limit, so memory stays flat; such a
 * game cannot be kept as text, and the next call skips its rest (without keeping it)
 * before reading the next game. */
bool uz_pgn_reader_last_oversized(const uz_pgn_reader *r);
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

/* How a program lays out the PGN it writes: what a file written by one program (Lichess,
 * chess.com, cutechess, pgn-extract, ...) keeps the same from game to game. A game tree
 * rendered with the right layout gives back the file's bytes; the archive stores the
 * layout of each game and the (usually empty) difference between that rendering and the
 * game's real bytes. */
typedef enum uz_eol { UZ_EOL_LF = 0, UZ_EOL_CRLF = 1, UZ_EOL_CR = 2 } uz_eol;

enum uz_layout_flag {
    UZ_LAYOUT_ROSTER_FIRST = 1,  /* the seven-tag roster first (export format); else input order */
    UZ_LAYOUT_NUMBER_SPACE = 2,  /* "1. e4" (else "1.e4") */
    UZ_LAYOUT_BLACK_NUMBERS = 4, /* "12... Nf6" for a Black move after a comment or variation */
    UZ_LAYOUT_GLYPHS = 8,        /* NAGs 1-6 as ! ? !! ?? !? ?! glued to their move (else $n) */
    UZ_LAYOUT_PAREN_SPACE = 16,  /* "( 12... Nf6 )" (else "(12... Nf6)") */
    UZ_LAYOUT_RESULT_LINE = 32,  /* the termination marker on a line of its own */
    UZ_LAYOUT_WRAP_MOVES = 64,   /* lines break only between whole moves: number, SAN, NAGs and
                                    comments of a move are one unit (cutechess, TCEC) */
    UZ_LAYOUT_WRAP_WHITE = 128,  /* lines break only before a White move or a comment; a Black
                                    move follows on the same line whatever its length (ChessBase) */
    UZ_LAYOUT_RESULT_GAP2 = 256, /* two spaces before the termination marker */
    UZ_LAYOUT_PRE_LINE = 512,    /* a line break after the comments before the game's first move */
    UZ_LAYOUT_WRAP_FULL = 1024,  /* a line breaks once it holds wrap bytes or more, whatever the
                                    next token (ChessBase: 72), instead of before a token that
                                    would pass wrap */
    UZ_LAYOUT_VARIATION_GAP2 = 2048, /* two spaces between consecutive variations (pychess) */
    UZ_LAYOUT_MOVE_LINES = 4096, /* every White move but the first starts a line (hand-typed files) */
    UZ_LAYOUT_MATE_PLUS = 8192,  /* checkmate marked '+' like any check (older ChessBase exports) */
    UZ_LAYOUT_ALL_FLAGS = 16383,
};

typedef struct uz_pgn_layout {
    uint8_t eol;      /* uz_eol: line ends everywhere, inside comments too */
    uint16_t flags;   /* uz_layout_flag bits */
    uint16_t wrap;    /* movetext lines are broken between tokens so that none is longer than
                         this (a single longer token, e.g. a comment, keeps its own line);
                         0: the movetext is one line */
    uint8_t tag_gap;  /* blank lines between the tag section and the movetext */
    uint8_t end_eols; /* line ends after the game's last token (2: one blank line follows) */
} uz_pgn_layout;

/* The export format of uz_pgn_write_game: LF, roster first, "1. e4", "1... e5" after
 * comments, $n, wrap 79, one blank line after the tags and after the game. */
extern const uz_pgn_layout uz_pgn_layout_export;

/* Renders the game with a layout into a malloc'ed NUL-terminated buffer (*len bytes without
 * the NUL). A verbatim or text-only game renders as its raw bytes. Returns UZ_OK, UZ_ERR_NOMEM
 * or UZ_ERR_ARG (a move of the tree is not legal). */
uz_result uz_pgn_game_render(const uz_game *game, const uz_pgn_layout *layout, char **text, size_t *len);

/* Guesses the layout of a game from its exact bytes (raw, len), as the reader gave them. A
 * guess: the rendering may still differ from raw in places. */
void uz_pgn_layout_guess(const uz_game *game, const char *raw, size_t len, uz_pgn_layout *layout);

/* The same text as uz_pgn_write_game, in a malloc'ed NUL-terminated buffer (*len bytes,
 * without the NUL) that the caller frees. The canonical text of a game, e.g. for
 * checksums. Returns UZ_OK, UZ_ERR_NOMEM or UZ_ERR_ARG. */
uz_result uz_pgn_game_to_string(const uz_game *game, char **text, size_t *len);

#endif
