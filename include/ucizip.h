/* libucizip: chess games (PGN) to .ucz archives and back, with a UCI chess engine as the
 * oracle that predicts the moves.
 *
 * A compressor reads PGN (files, streams or text in memory), asks a chess engine for a
 * fixed-depth score of every legal move of every position, codes each move played
 * against the distribution those scores give, and writes an archive. A decompressor
 * runs the same engine with the same settings (the archive names them and refuses any
 * other engine) and gives back the exact bytes that were compressed.
 *
 * Conventions:
 * - Every function that can fail returns a uz_result; UZ_OK (0) is success. Where a
 *   function takes a uz_diag *, it receives the reason (and file, line, column, game
 *   where they apply); it may be NULL.
 * - The library never prints and never exits. What the user should hear about without
 *   the call failing (a game kept as text, an input skipped) goes to the options'
 *   on_message callback.
 * - Objects are not thread-safe: one thread at a time per object. Different objects may
 *   be used from different threads at once. Callbacks are called from the thread that
 *   called into the library, during that call.
 * - Engines are child processes. Starting them sets SIGPIPE to SIG_IGN for the whole
 *   process (a write to an engine that died must be an error, not the end of the
 *   program).
 * - Strings are UTF-8 (PGN bytes are kept as they are, whatever their encoding).
 * - Ownership: the caller owns whatever it passes in (FILE streams included: the library
 *   never closes them) and frees what the library gives out only with the matching
 *   function named here. */
#ifndef UCIZIP_H
#define UCIZIP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define UZ_VERSION_STRING "0.1.0"

/* The version of the library running ("0.1.0"), which may be newer than the header's
 * UZ_VERSION_STRING a program was built with. Static storage. */
const char *uz_version(void);

/* ---- results and diagnostics ---- */

typedef enum uz_result {
    UZ_OK = 0,               /* success */
    UZ_DONE = 1,             /* end of input reached, nothing produced (not an error) */
    UZ_ERR_NOMEM = -1,       /* an allocation failed */
    UZ_ERR_IO = -2,          /* reading or writing a file failed (errno kept in diag) */
    UZ_ERR_SYNTAX = -3,      /* malformed PGN / FEN / SAN / UCI text */
    UZ_ERR_ILLEGAL = -4,     /* a move that is not legal in its position */
    UZ_ERR_AMBIGUOUS = -5,   /* a SAN move that matches more than one legal move */
    UZ_ERR_UNSUPPORTED = -6, /* valid input we do not handle (a variant no engine plays) */
    UZ_ERR_ENGINE = -7,      /* the engine failed: spawn, protocol, crash, garbage */
    UZ_ERR_TIMEOUT = -8,     /* the engine did not answer in time (after retries) */
    UZ_ERR_CORRUPT = -9,     /* an archive is damaged or truncated */
    UZ_ERR_MISMATCH = -10,   /* archive needs another engine / settings than the ones given */
    UZ_ERR_ARG = -11,        /* an invalid argument from the caller */
    UZ_ERR_LIMIT = -12,      /* input exceeds a documented limit (game size, nesting) */
} uz_result;

/* Short English name of a result ("syntax error", "illegal move", ...). Static storage. */
const char *uz_result_str(uz_result r);

/* Where and why something failed. Fields that do not apply are 0 / empty. line and
 * column are 1-based positions in the input text; game is the 1-based game number in its
 * input; message is one line of English without a trailing newline. */
typedef struct uz_diag {
    uz_result code;
    long line;
    long column;
    long game;
    long ply;
    char message[512];
} uz_diag;

/* ---- options ---- */

/* The version of uz_options this header describes; uz_options_init sets it. A library
 * refuses (UZ_ERR_ARG) options of a version it does not know. */
#define UZ_OPTIONS_VERSION 1

/* What to do with a game, or an input, that cannot be coded as it is. */
typedef enum uz_policy {
    UZ_POLICY_KEEP_AS_TEXT = 0, /* keep its exact bytes as text (moves not engine-coded) */
    UZ_POLICY_SKIP = 1,         /* leave it out of the archive (reported through on_message) */
    UZ_POLICY_STOP = 2,         /* fail the call that met it */
} uz_policy;

/* Called with something the user should know that does not fail the call: `input` names
 * the input (a path, "<stdin>" or the name given), diag says what and where. */
typedef void (*uz_message_fn)(void *user, const char *input, const uz_diag *diag);

/* Progress of a long call: games and moves done so far, bytes of input consumed. */
typedef void (*uz_progress_fn)(void *user, uint64_t games, uint64_t moves, uint64_t bytes);

typedef struct uz_options {
    uint32_t version;         /* UZ_OPTIONS_VERSION */

    /* The engine. Compress: the one that codes. Decompress: NULL picks the installed
     * profile matching the archive's engine; whatever is given must reproduce the
     * archive's fingerprint or decoding is refused (UZ_ERR_MISMATCH). */
    const char *engine;       /* profile name ("stockfish", "ethereal"), .profile file or
                                 executable; NULL: "stockfish" (compress). "builtin" (the
                                 newest version) or "builtin-N": the search built into the
                                 library, no engine process; its archives decode with no
                                 engine installed (decompress: the archive names it, so
                                 "builtin" there is the same as NULL) */
    int depth;                /* compress: fixed search depth; 0: the profile's (the
                                 builtin's default) */
    long long nodes;          /* compress: node limit per move searched; 0: the profile's */
    const char *mode;         /* compress: "multipv" or "permove"; NULL: the profile's */
    int hash_mb;              /* compress: engine Hash in MB; 0: the profile's */
    int workers;              /* engine processes (builtin: search threads) at once; 0: one
                                 per core */
    const char *cache_path;   /* persistent score cache (an LMDB file shared by runs and
                                 processes); NULL: none */

    /* The move model and coder (compress only; the archive records them). */
    const char *model;        /* "player" (NULL: the default), "rank" or "exp" */
    int32_t k_milli;          /* rank, exp: sharpness k in thousandths; -1: the default */
    int32_t floor_milli;      /* rank, exp: uniform share in thousandths; -1: the default */
    int32_t rank_milli;       /* rank: share of the ranking part in thousandths; -1: default */
    int32_t decay_milli;      /* rank: ratio between ranks in thousandths; -1: the default */
    const char *coder;        /* "range" (NULL: the default) or "huffman" */

    /* Text. canonical: compress stores, and decompress writes, the PGN export format
     * instead of the input's exact bytes. */
    bool canonical;
    uz_policy bad_games;      /* compress, a game that cannot be replayed (illegal move,
                                 broken syntax, past a limit): KEEP_AS_TEXT (default),
                                 SKIP or STOP */
    uz_policy variants;       /* compress, a game of a variant no engine plays:
                                 KEEP_AS_TEXT (default) or STOP */
    uz_policy damaged_inputs; /* compress, an input that cannot be opened or is damaged
                                 (a truncated .zst): STOP (default), or SKIP, keeping the
                                 games read before the damage. Also a game longer than
                                 the game size limit (64 MiB; it cannot be kept as
                                 text): STOP, or SKIP it and read on */
    uint64_t max_games;       /* compress: only the first max_games games; 0: all */
    uint32_t block_games;     /* compress: most games in one block, 1 to 65536; 0: 1024.
                                 Tags and comments are compressed block by block (larger
                                 blocks: smaller archives); a block is also what a resumed
                                 run redoes and what extracting one game decompresses */

    /* Decoding limits: a block claiming more is refused before anything is allocated or
     * searched. 0: the defaults (every archive the library writes respects them). */
    uint64_t max_block_moves;
    uint64_t max_block_bytes;

    uz_message_fn on_message; /* NULL: messages are dropped */
    uz_progress_fn on_progress; /* NULL: none; called at most once per block */
    void *user;               /* passed to the callbacks */

    /* compress: opening counts, the moves played from the same position at the same ply
     * by the block's earlier games mixed into the model (doc/format.md, "Opening
     * counts"): weight a of the model in thousandths (-1: the default, 0: no counts)
     * and the plies counted, 1 to 1024 (-1: the default). */
    int32_t opening_milli;
    int32_t opening_plies;

    /* Decoding: the Hash (MB) an archive's settings may give each engine process; an
     * archive asking for more is refused (UZ_ERR_LIMIT) before any engine starts.
     * 0: the default, 256. */
    uint64_t max_engine_memory_mb;

    /* compress: the opening book mixed into the model (doc/format.md, "Opening book"):
     * its version, 0: the default (the newest), -1: none. */
    int32_t book;
} uz_options;

/* The defaults: every field as its comment says, version set. */
void uz_options_init(uz_options *o);

/* ---- compressing ---- */

typedef struct uz_compressor uz_compressor;

/* Counts of what a compressor did, for reports and for resuming. */
typedef struct uz_compress_stats {
    uint64_t games;           /* games in the archive (as text included) */
    uint64_t moves;           /* moves in their game trees */
    uint64_t move_bytes;      /* bytes of the coded moves */
    uint64_t games_as_text;   /* games kept as text (not replayable, variants, ...) */
    uint64_t games_skipped;   /* games left out (bad_games = SKIP) */
    uint64_t inputs_skipped;  /* inputs skipped (damaged_inputs = SKIP) */
    uint64_t games_read;      /* games taken from the inputs up to the last block written */
    uint64_t blocks;          /* blocks written to the current member */
    uint64_t bytes_in;        /* input bytes consumed (compressed size for compressed inputs) */
    bool resumable;           /* the archive so far is one member: a resume can copy it */
    /* The engines, since the compressor was opened (over every archive). */
    uint64_t positions;       /* positions scored (two or more legal moves) */
    uint64_t positions_reused;/* of which answered without a search (memory cache, the
                                 same position in flight, persistent cache) */
    uint64_t store_hits;      /* of which from the persistent cache */
    uint64_t store_rejected;  /* persistent cache entries damaged or foreign: searched again */
    uint64_t engine_restarts; /* engines restarted after a crash or hang */
} uz_compress_stats;

/* Starts the engines. Fails with UZ_ERR_ARG for bad options, UZ_ERR_ENGINE when the
 * engine cannot be started or does not behave, UZ_ERR_IO for an unusable cache. */
uz_result uz_compressor_open(uz_compressor **out, const uz_options *options, uz_diag *diag);

/* What the archives' bytes depend on besides the inputs and the options: the engine's
 * fingerprint and canonical settings ("fingerprint F; settings S"), e.g. for a key
 * under which to record a resumable run. Static until c is closed. */
const char *uz_compressor_engine_identity(const uz_compressor *c);

/* Begins a new archive on out (written sequentially; a pipe is fine), with the model the
 * options name and statistics from zero. The engines keep running from one archive to
 * the next. Anything begun and not finished is dropped. */
uz_result uz_compressor_begin(uz_compressor *c, FILE *archive, uz_diag *diag);

/* Adds the games of one input, in order: a file path ("-" for stdin), plain or
 * compressed with zstd, gzip, bzip2 or xz (recognised by content). Games are coded in
 * blocks as they come; the last incomplete block waits for more input or for finish. */
uz_result uz_compressor_add_file(uz_compressor *c, const char *path, uz_diag *diag);

/* The same for PGN text in memory, read during the call (name is for messages). */
uz_result uz_compressor_add_text(uz_compressor *c, const char *pgn, size_t len, const char *name, uz_diag *diag);

/* Codes the games of the inputs `paths` in a first pass and fits the rank (or exp)
 * model's parameters to them, for this archive (the scores are kept in memory for the
 * real pass, about 0.5 KB per position). After begin, before anything is added.
 * *positions and *bits_per_position (either may be NULL) receive the number of positions
 * fitted on and the fitted model's cost. */
uz_result uz_compressor_fit_model(uz_compressor *c, const char *const *paths, size_t n, uint64_t *positions,
                                  double *bits_per_position, uz_diag *diag);

/* The archive's model in words ("player v1 weights ...", "rank k=20 floor=0.0300 ...").
 * Static until the next call on c. */
const char *uz_compressor_model_text(const uz_compressor *c);

/* Writes what is pending, the index and the footer: the archive is complete and valid
 * once this returns UZ_OK (the caller flushes and closes the stream). After an error the
 * archive is incomplete and must be discarded. uz_compressor_begin starts another.
 * UZ_ERR_MISMATCH: the persistent cache (options' cache_path) disagreed with the engine
 * during this archive, whose scores it supplied: the archive would not decode and must be
 * discarded; the cache is no longer used by c. */
uz_result uz_compressor_finish(uz_compressor *c, uz_diag *diag);

void uz_compressor_stats(const uz_compressor *c, uz_compress_stats *stats);

/* Called after every block written (the archive's bytes up to it are complete once the
 * caller flushes the stream): what a resumable run records. */
void uz_compressor_on_block(uz_compressor *c, void (*fn)(void *user, const uz_compress_stats *s), void *user);

/* Resumes an interrupted run of the same inputs and options: copies the at->blocks
 * blocks of the interrupted archive old (a readable, seekable file holding one member's
 * header and exactly that many complete blocks: what followed them cut off) to the new
 * archive, and arranges for the first at->games_read games of the inputs to be passed
 * over. The counts of at are checked against the blocks first (games_read and games
 * must equal the games they hold, moves and move_bytes theirs): UZ_ERR_MISMATCH, with
 * nothing written, when they differ. Only on a fresh archive (after begin and any fit,
 * before anything is added). */
uz_result uz_compressor_resume(uz_compressor *c, FILE *old, const char *old_name, const uz_compress_stats *at,
                               uz_diag *diag);

/* Stops the engines and frees c. An unfinished archive stays unfinished. NULL: no-op. */
void uz_compressor_close(uz_compressor *c);

/* ---- decompressing ---- */

typedef struct uz_decompressor uz_decompressor;

/* Prepares decoding with options (engine, workers, cache, limits, canonical); engines are
 * started on first need, for each member's engine and settings, and kept between
 * members and archives while they stay the same. */
uz_result uz_decompressor_open(uz_decompressor **out, const uz_options *options, uz_diag *diag);

/* Decodes every member of the archive read sequentially from in (a pipe is fine; name is
 * for messages) and writes the games to out: the exact bytes that were compressed (their
 * export format with canonical). out NULL: only decode and check every checksum.
 * *games (may be NULL) receives the number of games. Stops at the first error; what was
 * written before it is the caller's to discard. UZ_ERR_MISMATCH when the engine cannot
 * reproduce the archive's, UZ_ERR_CORRUPT for damage (with the game and the reason). */
uz_result uz_decompressor_decode(uz_decompressor *d, FILE *in, const char *name, FILE *out, uint64_t *games,
                                 uz_diag *diag);

/* Begins reading the games of the archive in (sequentially) one by one with
 * uz_decompressor_next_game. */
uz_result uz_decompressor_begin(uz_decompressor *d, FILE *in, const char *name, uz_diag *diag);

/* The next game's text (exact bytes, or export format with canonical): *text and *len
 * stay valid until the next call on d. UZ_DONE after the last game. */
uz_result uz_decompressor_next_game(uz_decompressor *d, const char **text, size_t *len, uz_diag *diag);

/* Game number `index` (1-based, across all members) of the seekable archive file f,
 * decoding only its block: *text and *len as for next_game. UZ_ERR_ARG past the last game. */
uz_result uz_decompressor_game(uz_decompressor *d, FILE *f, const char *name, uint64_t index, const char **text,
                               size_t *len, uz_diag *diag);

/* The engine chosen for the last member decoded when options->engine was NULL: the
 * installed profile ("profile 'stockfish' (Stockfish 15.1, /usr/games/stockfish), the
 * installed profile matching the archive"), or the engine store's copy when the installed
 * engine no longer matches ("Stockfish 15.1 from the engine store (PATH), ..."); NULL
 * otherwise. Valid until the next call on d. */
const char *uz_decompressor_engine_profile(const uz_decompressor *d);

void uz_decompressor_close(uz_decompressor *d);

/* ---- transcoding ---- */

/* Re-codes the moves of every game of the archive read sequentially from in (name is for
 * messages) with the oracle options->engine names ("builtin", a profile, an executable;
 * depth and the other search options as for compress; workers and cache_path serve both
 * sides) and writes the new archive to out: decompressing it gives the same bytes as
 * decompressing in. The games are decoded with the oracle each member names (as by a
 * decompressor without an engine) and held in memory as text; everything but the oracle
 * is kept: the text, the model and its parameters, the coder, the opening counts and the
 * block size (those of the first member; a player model gets the weight set that new
 * archives of the target oracle get). The options' model, coder and text fields are not
 * used. *games (may be NULL) receives the number of games. On error out is incomplete. */
uz_result uz_transcode(FILE *in, const char *name, FILE *out, const uz_options *options, uint64_t *games,
                       uz_diag *diag);

/* ---- archive members, without an engine ---- */

typedef struct uz_member_info {
    uint64_t offset, length;  /* bytes of the member in the file */
    uint64_t games, blocks, moves;
    char engine[128];         /* the engine's "id name" */
    char settings[256];       /* search settings in words ("depth 1, multipv, Hash 1 MB") */
    char model[128];          /* as uz_compressor_model_text */
    char coder[16];           /* "range" or "huffman" */
    bool chess960;            /* codes Chess960 games with the engine in Chess960 mode */
} uz_member_info;

/* Lists the members of the seekable archive file f, from its end (no engine is
 * started): fills up to cap entries in file order, *n receives the member count. */
uz_result uz_archive_members(FILE *f, const char *name, uz_member_info *out, size_t cap, size_t *n, uz_diag *diag);

/* Reads the whole archive sequentially and checks its structure and every checksum that
 * needs no engine (headers, blocks, indexes, footers, digests). */
uz_result uz_archive_check(FILE *f, const char *name, uz_diag *diag);

#ifdef __cplusplus
}
#endif

#endif
