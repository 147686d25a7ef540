/* libucizip's experimental interfaces: reading an archive's games and tags without an
 * engine, PGN sources and filters, ratings, and the analysis of games with an oracle
 * (stats, explain, engine). NOT YET STABLE: what this header declares may change or go in
 * any release, without a change of the library's soname. Programs that use it must be
 * built against the exact version of the library they run with.
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

/* uz_options.block_games: its default (0 asks for it) and its largest value. */
#define UZ_BLOCK_GAMES_DEFAULT 1024
#define UZ_BLOCK_GAMES_MAX 65536

/* One game as read or decoded (opaque): its tags, moves and exact bytes (see uz_game_*). */
typedef struct uz_game uz_game;

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

/* The game of the record last returned (tags read, moves not decoded: its start position
 * and main-line length are known), for uz_game_filter_* and the uz_game accessors; NULL
 * before the first. Valid until the next call on r. */
const uz_game *uz_tag_reader_game(const uz_tag_reader *r);

/* Makes r able to decode the games it returns, with the engine options o name (engine,
 * workers, cache_path, the max_* limits; the search settings come from the archive):
 * options->engine NULL (or a builtin) takes the installed profile of each member's
 * engine. Engine and cache are looked up here (errors: the engine named, the cache),
 * started at the first decode. Once per reader. */
uz_result uz_tag_reader_decode_with(uz_tag_reader *r, const uz_options *o, uz_diag *diag);

/* Decodes the game of the record last returned into out (a game from uz_game_new): its
 * moves, tags and exact bytes, checked against its checksum. The first game decoded from a
 * block decodes alone; a second from the same block decodes the rest of the block at once
 * (a block's games decode from its first), so many games of a block cost about one decode
 * of it. UZ_ERR_ARG before uz_tag_reader_decode_with or a record. */
uz_result uz_tag_reader_decode(uz_tag_reader *r, uz_game *out, uz_diag *diag);

/* Frees r (not the file) and what decoding used. NULL: no-op. */
void uz_tag_reader_close(uz_tag_reader *r);

/* The number of game records in the seekable archive file f (what uz_decompressor_game
 * numbers), from its members' indexes; no engine is started. */
uz_result uz_archive_game_count(FILE *f, const char *name, uint64_t *games, uz_diag *diag);

/* ---- games read from PGN files ---- */

/* A new empty game (for uz_pgn_source_read), freed with uz_game_free (NULL: no-op). */
uz_result uz_game_new(uz_game **out, uz_diag *diag);
void uz_game_free(uz_game *game);

/* The game's exact bytes as read (kept when the source keeps them; *len 0 otherwise).
 * Never NULL. */
const char *uz_game_bytes(const uz_game *game, size_t *len);

/* False for the record of the bytes after an input's last game (whitespace, a comment):
 * not a game, it has no tags and no moves. */
bool uz_game_is_game(const uz_game *game);

/* Writes the game in PGN export format. UZ_ERR_IO when the write fails. */
uz_result uz_game_write_pgn(FILE *out, const uz_game *game);

/* Writes the game's main line in UCI notation on one line; a game from a set-up position
 * as "fen FEN moves M..." (what follows UCI's "position" command). UZ_ERR_IO when the
 * write fails. */
uz_result uz_game_write_uci(FILE *out, const uz_game *game);

/* A game kept as text (not replayed, or not decoded): its tags read from its text; no-op
 * for the others. UZ_ERR_NOMEM is the only error. */
uz_result uz_game_read_tags(uz_game *game, uz_diag *diag);

/* The game's tags in the order of the input: how many, the i-th (0-based; value NULL for
 * a tag derived from the moves of a game not decoded), and the value of the first
 * named name (NULL: none, or derived from the moves of a game not decoded). */
size_t uz_game_tag_count(const uz_game *game);
void uz_game_tag_at(const uz_game *game, size_t i, const char **name, const char **value);
const char *uz_game_tag_value(const uz_game *game, const char *name);

/* 1 + the index of the first tag whose value an archive derives from the moves (a final
 * position's FEN, the opening's name), 0 when there is none; whether tag i (0-based) is one. */
size_t uz_game_derived_tag(const uz_game *game);
bool uz_game_tag_derived(const uz_game *game, size_t i);

/* "1-0", "0-1", "1/2-1/2" or "*". */
const char *uz_game_result_text(const uz_game *game);

/* Whether the game is kept as text (its moves were not replayed), and its main line's
 * length in plies (0 for such a game). */
bool uz_game_is_text(const uz_game *game);
size_t uz_game_plies(const uz_game *game);

/* ---- games selected by their tags and a position ---- */

typedef struct uz_game_filter uz_game_filter;

/* An empty filter (every game matches); freed with uz_game_filter_free (NULL: no-op). */
uz_result uz_game_filter_new(uz_game_filter **out, uz_diag *diag);
void uz_game_filter_free(uz_game_filter *f);

/* Adds a condition on the tags, all of which must hold: "Name=text" (contains, any case),
 * "Name==text", "Name!=text", "Name<x" "Name<=x" "Name>x" "Name>=x" (numbers, else text;
 * dates as dates), "C1|C2" either. UZ_ERR_SYNTAX with the column in diag. */
uz_result uz_game_filter_add_tag(uz_game_filter *f, const char *cond, uz_diag *diag);
/* Adds: name (contained, any case) has either colour. */
uz_result uz_game_filter_add_player(uz_game_filter *f, const char *name, uz_diag *diag);
/* Sets the position (FEN) a game's main line must reach: its pieces and side to move;
 * castling, en passant and the counters are not compared. UZ_ERR_SYNTAX with the column. */
uz_result uz_game_filter_set_position(uz_game_filter *f, const char *fen, uz_diag *diag);

/* The number of tag and player conditions; whether a position is set. */
size_t uz_game_filter_conditions(const uz_game_filter *f);
bool uz_game_filter_has_position(const uz_game_filter *f);

/* Whether game's tags meet every condition. */
bool uz_game_filter_match(const uz_game_filter *f, const uz_game *game);
/* The name of a tag a condition of f names whose value the archive derives from the moves
 * of game (not known before they are decoded), or NULL (f NULL too). */
const char *uz_game_filter_derived(const uz_game_filter *f, const uz_game *game);
/* False when game (its start and main-line length; moves not needed) cannot reach f's
 * position (more pieces or pawns than at the start, more gone than plies, a pawn back on
 * its home rank); true without a position. */
bool uz_game_filter_may_reach(const uz_game_filter *f, const uz_game *game);
/* Whether the main line of game (decoded) passes through f's position, its start
 * included; true without a position. */
bool uz_game_filter_reaches(const uz_game_filter *f, const uz_game *game);

/* PGN files read game by game, one after the other, each plain or compressed, with the
 * library's policies for bad games, variants and inputs that cannot be read (as
 * uz_compressor_add_file reads them). */
typedef struct uz_pgn_source uz_pgn_source;

/* How the next games are read. */
typedef struct uz_pgn_source_policy {
    bool keep_going;    /* skip bad games and unreadable inputs (each reported) instead of stopping */
    bool keep_verbatim; /* return games of unsupported variants as text */
    bool exact;         /* keep every game's exact bytes; a game that cannot be read comes as
                           text, the bytes after an input's last game as a record that is not a
                           game (uz_game_is_game) */
    uint64_t max_games; /* no more games than this in all (0: no limit) */
} uz_pgn_source_policy;

/* The paths[0..n) ("-": stdin; borrowed: they must outlive the source), read in order;
 * on_message (NULL: dropped) gets each game or input skipped or kept as text. Opens the
 * first input that can be read: UZ_OK; UZ_DONE when there is none (no paths, or every one
 * skipped with keep_going: see uz_pgn_source_counts_get); or the error of the input that
 * cannot be read (uz_pgn_source_failed_input names it). *out is set whenever the result
 * is not UZ_ERR_NOMEM, and is to be closed. */
uz_result uz_pgn_source_open(uz_pgn_source **out, const char *const *paths, size_t n, bool keep_going,
                             uz_message_fn on_message, void *user, uz_diag *diag);

/* Reads the next game into game: UZ_OK, UZ_DONE after the last one (or max_games), or the
 * error that stops the reading: a game or a damaged input (UZ_ERR_CORRUPT, UZ_ERR_IO) of
 * the input uz_pgn_source_name names, or the next input that cannot be opened
 * (uz_pgn_source_failed_input names it). */
uz_result uz_pgn_source_read(uz_pgn_source *s, uz_game *game, const uz_pgn_source_policy *policy, uz_diag *diag);

/* The display name of the current (or last) input ("<stdin>" for "-"; "<no input>" when
 * none was opened). */
const char *uz_pgn_source_name(const uz_pgn_source *s);

/* After an error of uz_pgn_source_open or uz_pgn_source_read: the display name of the
 * input that could not be opened, or NULL when the error is another one. */
const char *uz_pgn_source_failed_input(const uz_pgn_source *s);

/* What the source did so far, over every input. */
typedef struct uz_pgn_source_counts {
    uint64_t games;          /* games returned */
    uint64_t as_text;        /* of which kept as text because they could not be replayed */
    uint64_t skipped;        /* games left out */
    uint64_t inputs_skipped; /* inputs left out or cut short */
} uz_pgn_source_counts;
void uz_pgn_source_counts_get(const uz_pgn_source *s, uz_pgn_source_counts *counts);

/* Where the game last read starts in its input: the offset in the input's PGN text, and
 * the same in the file's own bytes (scaled by the compression ratio so far for a
 * compressed input; equal for a plain one). 0 when there is no current input. */
uint64_t uz_pgn_source_game_offset(const uz_pgn_source *s);
double uz_pgn_source_game_position(const uz_pgn_source *s);

/* Closes the current input and frees s. NULL: no-op. */
void uz_pgn_source_close(uz_pgn_source *s);

/* ---- an archive's members and sizes without an engine (info) ---- */

/* Where the bytes of an archive (or a member) go. */
typedef struct uz_byte_counts {
    uint64_t moves;           /* move streams */
    uint64_t tags;            /* tag names and values (and coded tags) */
    uint64_t clocks;          /* clock comments */
    uint64_t engine_comments; /* engine evaluation comments */
    uint64_t comments;        /* the other comments (and text-only games' text) */
    uint64_t structure;       /* game records (tree shapes, NAGs, results) and text records */
    uint64_t overhead;        /* headers, block headers, indexes, footers */
} uz_byte_counts;

/* A move model as a header names it (see doc/format.md for the fields). */
typedef struct uz_model_info {
    const char *kind;           /* "player", "rank" or "exp" */
    const char *text;           /* "player v1 weights 0123abcd4567ef89", "rank k=20 floor=0.0300 ..." */
    const char *k;              /* rank and exp: k with 3 decimals, trailing zeros trimmed ("80", "4.5") */
    uint32_t floor_q16, rank_q16, decay_q16; /* rank and exp: shares in 1/65536 */
    uint32_t player_version;    /* player: the weights' version */
    const char *player_weights; /* player: the weights' 16 hex digits */
} uz_model_info;

/* One member of an archive as its header and blocks tell (strings are the archive's bytes:
 * escape them before they reach a terminal). */
typedef struct uz_member_summary {
    unsigned version;                 /* its format version */
    const char *created_by;           /* "" when not stored */
    const char *engine_name;
    const char *settings_summary;     /* one readable line of the engine and its settings */
    const char *fingerprint;
    const char *chess960_fingerprint; /* "" when the member has no Chess960 games coded */
    bool chess960_builtin;            /* those are coded with the builtin, not UCI_Chess960 */
    bool settings_from_profile;       /* the settings are those of the engine's profile */
    uint32_t depth, hash_mb;
    const char *mode;                 /* "multipv" or "permove" */
    const uz_model_info *model;       /* NULL: a model this version does not know */
    const char *coder;                /* "range" or "huffman" */
    uint64_t games, moves, move_bytes, structure_bytes, bytes;
    uz_byte_counts split;
    /* the coded comments (structure version 1): their bytes and what they hold */
    uint64_t comment_code_bytes, comments, clocks, engine_comments;
} uz_member_summary;

typedef struct uz_archive_scan uz_archive_scan;

/* Reads the archive f sequentially (not owned; a pipe is fine; name is for messages):
 * headers and blocks with their checksums, no engine started, no move decoded. */
uz_result uz_archive_scan_open(uz_archive_scan **out, FILE *f, const char *name, uz_diag *diag);

/* The next member: UZ_OK and *member filled (valid until the next call), UZ_DONE after
 * the last, or an error (UZ_ERR_CORRUPT, ...). */
uz_result uz_archive_scan_next(uz_archive_scan *s, uz_member_summary *member, uz_diag *diag);

/* The bytes read so far (after UZ_DONE: the archive's size). */
uint64_t uz_archive_scan_offset(const uz_archive_scan *s);

/* Frees s (not the file). NULL: no-op. */
void uz_archive_scan_close(uz_archive_scan *s);

/* ---- player ratings from results (Glicko-2) ---- */

/* A rating on the Glicko (Elo-like) scale: rating, deviation, volatility. */
typedef struct uz_player_rating {
    double rating;
    double rd;
    double volatility;
} uz_player_rating;

/* One game of a rating period: the opponent's rating before the period and the score
 * (1 win, 0.5 draw, 0 loss). */
typedef struct uz_rated_game {
    uz_player_rating opponent;
    double score;
} uz_rated_game;

/* The rating a player starts with: 1500, 350, 0.06 (Glickman's defaults). */
uz_player_rating uz_rating_initial(void);

/* The system constant tau (how fast volatility may change) of Glickman's example: 0.5. */
double uz_rating_default_tau(void);

/* *player after a rating period in which they played games[0..n) (Glicko-2, Glickman
 * 2013); every rating is taken as it was before the period. With n == 0 only the
 * deviation grows. UZ_ERR_NOMEM (*player unchanged) is the only error. */
uz_result uz_rating_update(uz_player_rating *player, const uz_rated_game *games, size_t n, double tau,
                           uz_diag *diag);

/* ---- the tags of a decoded game ---- */

/* The tags of the game last returned by uz_decompressor_next_game or uz_decompressor_game
 * on d, the value derived from the moves included. UZ_ERR_ARG when there is none. */
uz_result uz_decompressor_game_tags(uz_decompressor *d, uz_game_tags *game, uz_diag *diag);

/* ---- analysis: what the oracle and the move models make of each move ---- */

/* Limits of the analysis structures: legal moves of a position, a move in SAN and in UCI
 * notation (with the terminating 0), the player model's features. */
#define UZ_ANALYSIS_MAX_MOVES 324
#define UZ_ANALYSIS_SAN_MAX 12
#define UZ_ANALYSIS_UCI_MAX 6
#define UZ_ANALYSIS_MAX_FEATURES 64
/* The smallest and largest k of the rank and exp models, in thousandths (uz_options.k_milli). */
#define UZ_ANALYSIS_K_MILLI_MIN 1000u
#define UZ_ANALYSIS_K_MILLI_MAX 1000000000u

/* Whether an engine name (uz_options.engine) selects the search built into the library:
 * "builtin" or "builtin-N". */
bool uz_engine_is_builtin(const char *engine);

/* k with 3 decimals, trailing zeros trimmed ("80", "4.5"), as model texts write it. */
void uz_format_k(uint32_t k_milli, char *out, size_t cap);

/* The move model o names (model, k_milli, floor_milli, rank_milli, decay_milli,
 * opening_milli, opening_plies) in words, as uz_compressor_model_text gives it once the
 * archive is begun ("player v0 weights 0000000000000000" before a weight set is chosen);
 * for_fit: the model a fit starts from (the player model's place taken by the rank model).
 * *coder (if not NULL) gets "range" or "huffman". UZ_ERR_ARG for values out of range. */
uz_result uz_options_model_text(const uz_options *o, bool for_fit, char *out, size_t cap, const char **coder,
                                uz_diag *diag);

/* A session that scores games with the oracle options name and prices every main-line move
 * under the move models (what `ucizip stats` and `ucizip explain` print). Not thread-safe;
 * one session per thread. */
typedef struct uz_analysis uz_analysis;

/* uz_analysis_open's flags. */
#define UZ_ANALYSIS_NO_ORACLE 1u    /* no engine: legal moves only (fromto and index costs) */
#define UZ_ANALYSIS_KEEP_SAMPLES 2u /* keep every scored position for uz_analysis_sweep_k / _fit */

/* Opens the oracle o names: a UCI engine (engine: a profile name, .profile file or
 * executable, NULL: stockfish; depth, nodes, mode, hash_mb; workers processes, 0: one per
 * core; cache_path: a persistent score cache), whose Chess960 instance is started at the
 * first Chess960 game, or the builtin (engine "builtin[-N]", depth and workers only:
 * UZ_ERR_ARG for nodes, mode or hash); and the move model of the model fields (the coder
 * field is not used: every coder is priced). o->on_message gets what is said once: an
 * unusable cache, an engine without UCI_Chess960. */
uz_result uz_analysis_open(uz_analysis **out, const uz_options *o, unsigned flags, uz_diag *diag);

/* Stops the engines, releases the cache and frees a. NULL: no-op. */
void uz_analysis_close(uz_analysis *a);

/* The oracle: its engine name, fingerprint (both "" without one) and its settings in one
 * line ("Stockfish 15.1; depth 1; multipv; Hash 1; Threads 1", "ucizip builtin-1; depth 1"). */
const char *uz_analysis_engine_name(const uz_analysis *a);
const char *uz_analysis_fingerprint(const uz_analysis *a);
void uz_analysis_describe(const uz_analysis *a, char *out, size_t cap);

/* The move model as a header would name it (its weight set chosen); valid with a. */
const uz_model_info *uz_analysis_model(const uz_analysis *a);
/* Whether opening counts are mixed into the model (uz_options.opening_*), and the games of
 * the blocks they are counted in (those of compress's default block). */
bool uz_analysis_has_opening_counts(const uz_analysis *a);
uint32_t uz_analysis_block_games(const uz_analysis *a);

/* One main-line move of an analysed game (a null move has none). Costs are in bits; those
 * of the model include the opening counts of the block's earlier games. */
typedef struct uz_ply_analysis {
    int fullmove;               /* the move number of the position before the move */
    bool white;                 /* white made the move */
    char san[UZ_ANALYSIS_SAN_MAX];
    char uci[UZ_ANALYSIS_UCI_MAX];
    int n_legal;                /* legal moves of the position */
    int played;                 /* the move's index among them, in canonical order */
    const int32_t *scores;      /* the oracle's score of each legal move (centipawns from the
                                   mover's view; mates as uz_ply_score_text shows), NULL when
                                   not scored: no oracle, or fewer than 2 legal moves */
    int rank;                   /* 1: the model's likeliest move (player model: by frequency,
                                   ties to the lower index; the others: by their ranking) */
    double fromto;              /* 12: a from and a to square */
    double index;               /* ceil(log2(n_legal)): the move's index in fixed width */
    double huffman, range;      /* the model through the Huffman and the range coder */
    double range_no_counts;     /* the range coder without the opening counts */
    double ideal;               /* -log2 p of the unfloored p ~ k^(score in pawns), in floating point */
    double reference;           /* the range coder with the rank model at its default parameters */
} uz_ply_analysis;

/* Scores games[0..n) together (the engine's workers share them) and prices each of their
 * main-line moves. The games continue the stream of the earlier calls (the opening counts
 * are kept across calls and emptied every uz_analysis_block_games games). A Chess960 game
 * that the engine cannot score is made a game kept as text (said once through
 * on_message): it has no plies. Results are valid until the next run. */
uz_result uz_analysis_run(uz_analysis *a, uz_game *const *games, size_t n, uz_diag *diag);

/* The main-line moves of games[game] of the last run, and the ply-th of them (NULL out of
 * range). */
size_t uz_analysis_plies(const uz_analysis *a, size_t game);
const uz_ply_analysis *uz_analysis_ply(const uz_analysis *a, size_t game, size_t ply);

/* A score as explain shows it: "+25", "-3", "#2" (mate in 2), "#-1". */
void uz_ply_score_text(int32_t score, char *out, size_t cap);

/* One legal move of a scored ply under the model alone (no opening counts). */
typedef struct uz_move_analysis {
    int index;                  /* among the legal moves, canonical order */
    char san[UZ_ANALYSIS_SAN_MAX];
    char uci[UZ_ANALYSIS_UCI_MAX];
    int32_t score;              /* the oracle's */
    uint32_t freq, total;       /* the model's frequency, of total */
    uint32_t code;              /* its Huffman code word, code_len bits */
    int code_len;
    double range;               /* its cost through the range coder */
} uz_move_analysis;

/* The legal moves of a scored ply, likeliest first (ties: lower index), into out[0..cap)
 * (cap >= n_legal; UZ_ANALYSIS_MAX_MOVES always suffices). UZ_ERR_ARG for a ply that was
 * not scored or a cap too small. */
uz_result uz_analysis_moves(const uz_analysis *a, size_t game, size_t ply, uz_move_analysis *out, size_t cap,
                            uz_diag *diag);

/* One feature of the player model for the move played: its value and its contribution in
 * bits of log-weight (relative to a move whose features are all 0). */
typedef struct uz_feature_part {
    const char *name;
    int32_t value;
    double bits;
} uz_feature_part;

/* The player model's features of the move played at a scored ply that contribute
 * (non-zero value and weight), in the weights' order, into parts[0..cap) (*n_parts of
 * them); *n_hidden the hidden layer's units and *hidden_bits its part (0 without one).
 * UZ_ERR_ARG for another model or a ply not scored. */
uz_result uz_analysis_played_features(const uz_analysis *a, size_t game, size_t ply, uz_feature_part *parts,
                                      size_t cap, size_t *n_parts, int *n_hidden, double *hidden_bits, uz_diag *diag);

/* With UZ_ANALYSIS_KEEP_SAMPLES: the total cost in bits of the scored positions so far
 * under the rank model (the options' parameters, the player model's defaults for it) at
 * each k_milli[i] (UZ_ANALYSIS_K_MILLI_MIN..MAX), into bits[i]. UZ_ERR_NOMEM, UZ_ERR_ARG. */
uz_result uz_analysis_sweep_k(uz_analysis *a, const uint32_t *k_milli, size_t n, double *bits, uz_diag *diag);

/* With UZ_ANALYSIS_KEEP_SAMPLES: fits that model's k, rank and decay (and floor if
 * fit_floor) to the scored positions so far; *fitted (valid until the next fit or close)
 * and its total cost *bits. With no position: the starting model and 0 bits. */
uz_result uz_analysis_fit(uz_analysis *a, bool fit_floor, const uz_model_info **fitted, double *bits, uz_diag *diag);

/* Scores one position (FEN), all its legal moves, with the oracle: for timing. */
uz_result uz_analysis_score_fen(uz_analysis *a, const char *fen, uz_diag *diag);

/* The oracle's settings as `ucizip engine` shows them. Strings are valid with a. */
typedef struct uz_engine_info {
    bool builtin;               /* the library's own search (no process; no path or profile) */
    int builtin_version;        /* builtin: its version */
    const char *name, *fingerprint;
    const char *path, *profile; /* the executable and the profile ("" when none) */
    const char *settings_text;  /* the canonical settings text recorded in archives */
    const char *mode;           /* "multipv" or "permove" */
    int depth;
    long nodes;                 /* 0: no node limit */
    int hash_mb, threads, max_multipv;
    bool searchmoves_supported; /* the engine honours "go searchmoves" */
    double startup_ms;          /* the time its start took (processes, handshake, probes) */
    double search_ms;           /* the engine-reported search time so far (0 for the builtin) */
} uz_engine_info;
void uz_analysis_engine_info(const uz_analysis *a, uz_engine_info *info);

/* ---- the engine store: engines kept by fingerprint, beside the archives ---- */

/* The store's directory into out[0..cap): $UZ_ENGINE_STORE, else $XDG_DATA_HOME/ucizip/engines,
 * else $HOME/.local/share/ucizip/engines (UZ_ERR_IO when none can be named). */
uz_result uz_engine_store_location(char *out, size_t cap, uz_diag *diag);
/* Copies every engine of the store into dir; *copied gets how many. */
uz_result uz_engine_store_export(const char *dir, int *copied, uz_diag *diag);
/* One engine an import met: as the copy's entry describes it, and what became of it
 * (outcome: a phrase beginning "added", "not imported" or "refused"). */
typedef struct uz_imported_engine {
    const char *fingerprint, *engine_name, *sha256, *outcome;
} uz_imported_engine;
/* Copies the engines of dir, made by an export, into the store. Files of dir are read
 * only if regular (no link, FIFO or device), binaries only with their entry's SHA-256. An
 * engine is added only where the store has none for its fingerprint and once running it
 * gave that fingerprint: the installed engine's binary when it gives it (the imported
 * one is then neither kept nor run), else the imported one (doc/engines.md). on_engine
 * (or NULL) is told of each; *added and *refused get the counts (a refused engine does
 * not stop the others). */
uz_result uz_engine_store_import(const char *dir, void (*on_engine)(void *user, const uz_imported_engine *e),
                                 void *user, int *added, int *refused, uz_diag *diag);

/* Whether the game is a Chess960 game (its start position says so). */
bool uz_game_is_chess960(const uz_game *game);

#ifdef __cplusplus
}
#endif

#endif /* UZ_EXPERIMENTAL_API */
#endif
