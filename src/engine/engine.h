/* Engine bridge: runs UCI chess engines as child processes and turns them into a
 * deterministic oracle giving one integer score per legal move of a position.
 *
 * Threading: nothing here is thread-safe. Every call on a pool, and every `done`
 * callback, happens on the thread that created the pool. Parallelism comes from
 * several engine processes (workers) driven by one event loop inside the pool.
 *
 * Signals: uz_pool_create sets SIGPIPE to SIG_IGN for the whole process (a write to
 * an engine that just died must give EPIPE, not kill us).
 */
#ifndef UCIZIP_ENGINE_H
#define UCIZIP_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/board.h"
#include "common/common.h"
#include "oracle/oracle.h"

/* Version of our query protocol (what we send, how we read scores). It is part of
 * the fingerprint: bump it whenever a change could alter any score. The settings text
 * records the lowest version whose scores are the same: 1 for searches without a node
 * limit (unchanged since), 2 for node-limited searches (scores from the last complete
 * iteration) and for mode permove. */
#define UZ_ENGINE_PROTOCOL_VERSION 2

/* Maps a UCI score to the oracles' integer convention (oracle/oracle.h): is_mate selects
 * "mate N" (N > 0: UZ_SCORE_MATE - N, N <= 0: -UZ_SCORE_MATE - N) vs "cp X" (X clamped to
 * +-UZ_SCORE_CP_MAX). */
int32_t uz_engine_score_from_uci(bool is_mate, long value);

/* How a position is scored. Before every position the engine is cleared (the clear
 * command, then "isready"/"readyok"), and the position is sent as "position fen F"
 * with the fullmove number set to 1 (it does not affect a search).
 *   multipv:     MultiPV = number of legal moves, one "go depth D"; each move's score
 *                comes from its info line at the deepest depth (the last such line);
 *                every move must appear, at the same depth, and none with a
 *                lowerbound/upperbound score. With a node limit the last iteration may be
 *                cut short: every move's score is then taken from the deepest iteration
 *                that completed with an exact score for every move (the iteration under
 *                way when the limit stopped the search does not count).
 *   permove:     one real search per move: the engine is cleared, given
 *                "position fen F moves m" and "go depth D-1" (and the node limit), and
 *                the move's score is that search's score negated. A move that mates or
 *                stalemates is scored without the engine (UZ_SCORE_MATE, 0). Needs
 *                depth >= 2 (or depth 0 with a node limit).
 *   searchmoves: (archives made before permove existed; decoding only) MultiPV = 1,
 *                then "go depth D searchmoves m" for each legal move in canonical order
 *                without clearing in between. Stockfish barely searches a single
 *                searchmoves move, so these scores are close to static. */
typedef enum uz_engine_mode {
    UZ_MODE_MULTIPV = 0,     /* the default */
    UZ_MODE_SEARCHMOVES = 1, /* legacy, for old archives */
    UZ_MODE_PERMOVE = 2,
} uz_engine_mode;

/* "multipv" / "permove" / "searchmoves"; uz_engine_mode_parse returns false for
 * anything else. */
const char *uz_engine_mode_name(uz_engine_mode mode);
bool uz_engine_mode_parse(const char *text, uz_engine_mode *out);

#define UZ_ENGINE_PATH_MAX 1024
#define UZ_ENGINE_NAME_MAX UZ_ORACLE_NAME_MAX
#define UZ_ENGINE_MAX_OPTIONS 16
#define UZ_ENGINE_OPTION_NAME_MAX 64
#define UZ_ENGINE_OPTION_VALUE_MAX 256
#define UZ_ENGINE_MAX_EXE 8

/* One "setoption name NAME value VALUE" sent at start-up. */
typedef struct uz_engine_option {
    char name[UZ_ENGINE_OPTION_NAME_MAX];
    char value[UZ_ENGINE_OPTION_VALUE_MAX];
} uz_engine_option;

/* A persistent score store consulted after the pool's own cache and filled with every
 * engine result (e.g. the LMDB cache of cache/score_cache.h). fingerprint is the pool's
 * (uz_pool_fingerprint), fen the position as sent to the engine (fullmove 1), moves its
 * legal moves in canonical order. lookup fills scores and returns true only for an
 * entry it trusts; the pool never consults it for the probes that compute the
 * fingerprint. The pool does not take the store on trust: it searches the first and every
 * 16th hit again and stops using a store that disagrees once (uz_pool_stats). Called on
 * the pool's thread only. */
typedef struct uz_score_store {
    bool (*lookup)(void *user, const char *fingerprint, const char *fen, const uz_move *moves, int n_moves,
                   int32_t *scores);
    void (*save)(void *user, const char *fingerprint, const char *fen, const uz_move *moves, int n_moves,
                 const int32_t *scores);
    void *user;
} uz_score_store;

/* Everything the scores depend on, plus how to run the engine. A plain value: copy
 * it with '='. Fields marked [score] are recorded in the fingerprint. */
typedef struct uz_engine_settings {
    char path[UZ_ENGINE_PATH_MAX];   /* executable: a path, or a bare name looked up in PATH */
    char profile[UZ_ENGINE_NAME_MAX]; /* profile name it came from, "" if none (informative) */
    char name[UZ_ENGINE_NAME_MAX];   /* the profile's "name": the engine's "id name" starts
                                        with it ("" if none) */
    int depth;                       /* [score] fixed search depth, >= 1 unless nodes > 0 */
    long nodes;                      /* [score] node limit, 0 = none */
    uz_engine_mode mode;             /* [score] */
    int hash_mb;                     /* [score] option Hash (MB); 0 = do not set */
    int threads;                     /* [score] option Threads; 0 = do not set. Keep 1 for determinism */
    int n_options;                   /* [score] extra options from the profile, in order */
    uz_engine_option options[UZ_ENGINE_MAX_OPTIONS];
    int max_multipv;                 /* [score] cap on MultiPV (0 = the engine's own maximum).
                                        A position with more legal moves is split into
                                        consecutive chunks of its canonical move list, each
                                        cleared and searched with MultiPV = chunk size and
                                        "searchmoves <chunk>"; if the engine ignores
                                        searchmoves the query fails with UZ_ERR_UNSUPPORTED */
    char clear[UZ_ENGINE_OPTION_NAME_MAX]; /* [score] how to clear the engine before each
                                        position: "ucinewgame" or "option:NAME" (a button) */
    unsigned modes;                  /* bit (1u << mode) set for each mode the profile allows */
    int timeout_ms;                  /* per engine request (readyok, bestmove); default 60000 */
    int handshake_timeout_ms;        /* uci/uciok + options/readyok; default 10000 */
    int max_retries;                 /* retries of a query after a crash or timeout; default 2 */
    int quit_grace_ms;               /* after "quit", kill the engine after this; default 1000 */
    int cache_entries;               /* result cache capacity (positions); 0 disables it */
    int protocol;                    /* [score] 0: the current protocol; 1: as protocol 1
                                        read node-limited searches (each move's deepest line),
                                        set from an old archive's settings text */
    int recheck_every;               /* re-search every Nth position on another worker and
                                        fail the run if the scores differ (0: never);
                                        default 32 */
    const uz_score_store *store;     /* persistent score store, NULL for none (not [score]) */
    char exe_sha256[65];             /* "" or the SHA-256 (hex) the executable must have: checked
                                        before every start (a binary of the engine store) */
} uz_engine_settings;

/* Fills s with the built-in defaults (engines/stockfish.profile then sets Hash 1):
 * path "stockfish" from PATH, else /usr/games/stockfish; depth 1; multipv; Hash 16;
 * Threads 1; clear "ucinewgame"; cache 32768 positions. Never fails for s != NULL. */
uz_result uz_engine_settings_default(uz_engine_settings *s);

/* Loads a profile into s (which it first resets with uz_engine_settings_default).
 * name_or_path: a profile NAME, looked up as DIR/NAME.profile in each dir of dirs (a
 * NULL-terminated list, NULL = none) in order; or, if it contains '/' or ends in
 * ".profile", the path of a profile file.
 * Profile format: "key = value" lines, '#' starts a comment. Keys:
 *   name = Display name         exe = name-or-path (repeatable; first executable wins)
 *   depth = 8                   nodes = 0
 *   modes = multipv searchmoves (allowed modes; the first is the default mode)
 *   max_multipv = 500           clear = ucinewgame | option:Clear Hash
 *   option.NAME = VALUE         (Hash and Threads fill hash_mb / threads)
 *   timeout_ms, handshake_timeout_ms, max_retries, cache_entries
 * Errors: UZ_ERR_IO (profile not found / unreadable), UZ_ERR_SYNTAX (bad line, with
 * diag->line), UZ_ERR_ENGINE (no listed executable exists). */
uz_result uz_engine_profile_load(uz_engine_settings *s, const char *name_or_path,
                                 const char *const *dirs, uz_diag *diag);

/* What a command line's "--engine X" means: a profile NAME if dirs has X.profile, a
 * profile file if X ends in ".profile", else an executable (path or PATH name): run with
 * the settings of the profile in dirs whose executable is that very program (the same
 * file, or a byte-identical copy), else with the default settings
 * (uz_engine_settings_default). s->profile names the profile taken, "" for none. */
uz_result uz_engine_settings_from_spec(uz_engine_settings *s, const char *spec,
                                       const char *const *dirs, uz_diag *diag);

/* Finds the profile to decode an archive with when the user names no engine: among
 * the profiles in dirs (the first of each name), in name order, the first whose "name"
 * begins the archive's engine name (engine_name "Ethereal 12.00" -> name "Ethereal"),
 * whose executable exists and which allows the archive's mode (from settings_text).
 * Nothing is taken from the archive but these two strings: the executable is the
 * profile's. Fills s (s->profile names the profile). UZ_ERR_MISMATCH if none fits. */
uz_result uz_engine_profile_for_archive(uz_engine_settings *s, const char *engine_name, const char *settings_text,
                                        const char *const *dirs, uz_diag *diag);

/* The default profile directories, in lookup order: $UZ_ENGINES_DIR (if set), then
 * the installed data directory (PREFIX/share/ucizip/engines). Never a directory relative
 * to the program's location, nor the source or build tree (the build tree's program is
 * given UZ_ENGINES_DIR). Fills out[] with pointers into this thread's
 * storage (valid until its next call), NULL-terminated; cap >= 2. Returns the number
 * of dirs. */
size_t uz_engine_default_dirs(const char **out, size_t cap);

/* Applies canonical settings text (as from uz_pool_settings_text) to s: protocol, mode,
 * depth, nodes, max_multipv, clear and options, so a decoder can rebuild the exact search
 * settings an archive was made with. The text is untrusted (it comes from an archive):
 * only those keys, clear = ucinewgame or option:Clear Hash, and options of an allow-list
 * that change scores and name no file (Hash, Threads, UCI_Chess960, UCI_AnalyseMode,
 * Contempt) are taken; anything else, resource limits included, is UZ_ERR_UNSUPPORTED
 * ("refused"). Malformed text is UZ_ERR_SYNTAX. */
uz_result uz_engine_settings_apply_text(uz_engine_settings *s, const char *text, uz_diag *diag);

/* ---- pool ---- */

typedef struct uz_pool uz_pool;

/* Starts `workers` (>= 1) engine processes, handshakes each (uci, options, isready),
 * probes what the engine can do (searchmoves honoured?) and computes the fingerprint
 * by scoring a small built-in probe set. On error *out is NULL, every process is gone
 * and diag names the engine. Errors: UZ_ERR_ARG (bad settings), UZ_ERR_ENGINE
 * (missing / not executable / not UCI / died / garbage), UZ_ERR_TIMEOUT,
 * UZ_ERR_UNSUPPORTED (mode the engine cannot do, e.g. searchmoves on Ethereal). */
uz_result uz_pool_create(uz_pool **out, const uz_engine_settings *s, int workers, uz_diag *diag);

/* Sends "quit" to every engine, kills those still alive after the grace period,
 * reaps them and frees everything. Queries still pending are dropped without their
 * callbacks. NULL is a no-op. Must not be called from a `done` callback. */
void uz_pool_destroy(uz_pool *pool);
/* Where the pool says what goes wrong without failing the run (the first search that got
 * no answer in time); NULL: nowhere. Called on the thread that runs the pool. */
void uz_pool_on_warning(uz_pool *pool, void (*fn)(void *user, const char *message), void *user);


/* The pool as an oracle (oracle/oracle.h): submit and run are uz_pool_submit and
 * uz_pool_run, the identity is the pool's. Owned by the pool (uz_oracle_destroy on it is a
 * no-op); valid until uz_pool_destroy. */
uz_oracle *uz_pool_oracle(uz_pool *pool);

/* Queues q (a query of oracle/oracle.h). The query memory is the caller's and must stay valid until its `done`
 * has been called. Its moves are trusted to be the position's legal moves in canonical
 * order (the walk generates them once per position; they are not generated again here);
 * a count outside 1..UZ_MAX_MOVES completes q with UZ_ERR_ARG; a single legal move
 * completes with score 0 and no engine call. Results are never computed here, only in
 * uz_pool_run. */
void uz_pool_submit(uz_pool *pool, uz_query *q);

/* Runs the event loop until every submitted query (also those submitted from `done`
 * callbacks) has been completed and its callback called. Returns UZ_OK, or the first
 * error of a query completed during this run (diag gets its message); the failed
 * queries carry their status, the others still complete normally. A crashed or hung
 * engine is killed, restarted and the query retried (max_retries times); an engine
 * answer that is malformed (garbage, missing or illegal move, bound score) fails the
 * query at once with UZ_ERR_ENGINE. */
uz_result uz_pool_run(uz_pool *pool, uz_diag *diag);

/* Synchronous convenience: submit q (its done/user are ignored and left untouched)
 * and run until it is answered. Must not be used while other queries are pending. */
uz_result uz_pool_query(uz_pool *pool, uz_query *q, uz_diag *diag);

/* The engine's "id name" (e.g. "Stockfish 15.1"). */
const char *uz_pool_engine_name(const uz_pool *pool);
/* 16 hex digits: FNV-1a 64 of uz_pool_settings_text plus the probe-set scores. */
const char *uz_pool_fingerprint(const uz_pool *pool);
/* Canonical "key=value\n" lines of everything the scores depend on (protocol, engine,
 * mode, depth, nodes, max_multipv, clear, option.*). Stable across machines. */
const char *uz_pool_settings_text(const uz_pool *pool);
/* Whether a pool started with settings s on this pool's engine would have the same settings
 * text (and so search exactly alike): lets a writer store "the profile's default settings"
 * instead of the text when they are. */
bool uz_pool_has_settings_of(const uz_pool *pool, const uz_engine_settings *s);
/* The settings the pool runs with (path resolved, max_multipv effective). */
const uz_engine_settings *uz_pool_settings(const uz_pool *pool);
/* Readable one-liner: "Stockfish 15.1; depth 8; multipv; Hash 16; Threads 1". */
void uz_pool_describe(const uz_pool *pool, char *out, size_t cap);
/* Whether the engine honours "go searchmoves" (probed at creation). */
bool uz_pool_searchmoves_ok(const uz_pool *pool);

typedef struct uz_pool_stats {
    uint64_t queries;        /* queries submitted */
    uint64_t trivial;        /* answered without the engine: one legal move */
    uint64_t cache_hits;     /* answered from the result cache */
    uint64_t store_hits;     /* answered from the persistent store (settings.store) */
    uint64_t store_audits;   /* store hits searched again by an engine to check the store */
    uint64_t store_disagreements; /* audits whose scores differed: the store is then no
                                longer used (its hits before may be wrong: an archive made
                                with them needs a check that reads no store) */
    uint64_t coalesced;      /* answered by an identical query already in flight */
    uint64_t engine_queries; /* positions sent to an engine */
    uint64_t engine_searches;/* "go" commands sent (rechecks not counted) */
    uint64_t rechecks;       /* positions searched again to check determinism */
    uint64_t restarts;       /* engine processes restarted after a crash/hang */
    double search_ms;        /* sum of the engine-reported "time" of each search */
    double go_ms;            /* sum of "go" sent .. "bestmove" read, as we measure it */
    double clear_ms;         /* sum of clear + "isready" .. "readyok" (hash clearing) */
    double wall_ms;          /* wall time spent in uz_pool_run / uz_pool_query */
} uz_pool_stats;

/* Counters since creation (the probes run at creation are not counted). */
void uz_pool_get_stats(const uz_pool *pool, uz_pool_stats *out);

#endif
