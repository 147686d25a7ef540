/* Internal interfaces of the engine bridge: one engine process, UCI line parsing,
 * hashing. Only src/engine/ includes this (and only src/engine/ includes uv.h). */
#ifndef UZ_ENGINE_INTERNAL_H
#define UZ_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <string.h>

#include <uv.h>

#include "engine/engine.h"

/* ---- uci_process.c: one child process with line-oriented stdout ---- */

/* Longest stdout line we accept; longer ones are a protocol error. */
#define UZ__LINE_MAX (1u << 20)
#define UZ__ERR_TAIL 240

/* The profiles of engines/ compiled in (engine_profiles_embedded.c, generated): looked up
 * after every profile directory, as "built-in:NAME.profile". */
typedef struct uz__embedded_profile {
    const char *name;
    const char *text;
} uz__embedded_profile;
extern const uz__embedded_profile uz__embedded_profiles[];
extern const size_t uz__n_embedded_profiles;

typedef enum uz__proc_event {
    UZ__EV_EXIT,        /* the process exited (exit_status / term_signal set) */
    UZ__EV_EOF,         /* stdout reached end of file or failed */
    UZ__EV_WRITE_ERROR, /* a write to stdin failed (engine gone) */
    UZ__EV_LONG_LINE,   /* a stdout line exceeded UZ__LINE_MAX */
    UZ__EV_CLOSED,      /* every handle is closed: the struct may be reused */
} uz__proc_event;

typedef struct uz__proc uz__proc;
typedef void (*uz__proc_line_cb)(uz__proc *p, char *line, size_t len);
typedef void (*uz__proc_event_cb)(uz__proc *p, uz__proc_event ev);

struct uz__proc {
    uv_loop_t *loop;
    uv_process_t process;
    uv_pipe_t in, out, err;
    uv_timer_t grace;        /* kills the process if "quit" is not obeyed */
    int open_handles;        /* handles initialised and not yet close-completed */
    bool running;            /* spawned and exit_cb not yet run */
    bool closing;            /* uz__proc_close called */
    bool exited;
    int64_t exit_status;
    int term_signal;
    char *line;              /* partial stdout line */
    size_t line_len, line_cap;
    bool discarding;         /* inside an over-long line */
    char err_tail[UZ__ERR_TAIL + 1]; /* last stderr bytes, for messages */
    size_t err_len;
    char out_buf[65536];
    char err_buf[4096];
    uz__proc_line_cb on_line;
    uz__proc_event_cb on_event;
    void *owner;
};

/* Spawns path (argv = {path, NULL}, no shell) with piped stdin/stdout/stderr.
 * Returns 0 or a libuv error code; in both cases UZ__EV_CLOSED follows once
 * uz__proc_close has been called (on failure it is called internally). */
int uz__proc_spawn(uz__proc *p, uv_loop_t *loop, const char *path, uz__proc_line_cb on_line,
                   uz__proc_event_cb on_event, void *owner);
/* Queues text (copied) to the engine's stdin. Ignored once closing. */
void uz__proc_write(uz__proc *p, const char *text, size_t len);
/* Sends "quit" and closes; kills with SIGKILL if still running after grace_ms. */
void uz__proc_quit(uz__proc *p, int grace_ms);
/* Kills (if running) and closes every handle; UZ__EV_CLOSED when done. Idempotent. */
void uz__proc_close(uz__proc *p);
/* The stderr tail with control characters flattened, "" if none. */
const char *uz__proc_stderr(uz__proc *p);

/* ---- uci_query.c: parsing engine output ---- */

typedef struct uz__info {
    int depth;               /* -1 if absent */
    int multipv;             /* 1 if absent */
    bool has_score;
    bool score_mate;
    long score;
    bool bound;              /* lowerbound / upperbound */
    long time_ms;            /* -1 if absent */
    long nodes;              /* -1 if absent */
    char pv_first[16];       /* first move of the pv, "" if none */
} uz__info;

/* Parses an "info ..." line. Returns false if a known field is malformed. */
bool uz__parse_info(const char *line, uz__info *out);
/* Splits "KEY rest": returns true if line starts with word kw followed by a space or
 * end; *rest points after the separating blanks. */
bool uz__line_starts(const char *line, const char *kw, const char **rest);
/* True if the line has bytes a UCI engine never prints (NUL, control characters). */
bool uz__line_is_garbage(const char *line, size_t len);

/* ---- fingerprint.c ---- */

/* Built-in probe positions, NULL-terminated FEN list. */
extern const char *const uz__probe_fens[];

/* ---- engine_profile.c ---- */

/* Resolves an executable: a name with '/' must exist and be executable; a bare name
 * is searched in PATH. Writes the resolved path to out. Returns 0, ENOENT or EACCES. */
int uz__resolve_exe(const char *name, char *out, size_t cap);
/* Whether the pool may start its executable: true unless the settings name a SHA-256
 * (a binary of the engine store) that the file no longer has; then why and code say so.
 * Checked before every start, restarts included. */
bool uz__pool_exe_unchanged(const uz_pool *pool, char *why, size_t cap, uz_result *code);

/* ---- the pool: shared state of engine_pool.c, pool_dispatch.c, engine_worker.c,
 *      query_steps.c, pool_cache.c and fingerprint.c ---- */

/* The pool's bookkeeping of one query, kept in the opaque uz_query.priv bytes. */
typedef struct uz__query_priv {
    struct uz_query *next;
    char fen[UZ_FEN_MAX];   /* FEN sent to the engine (fullmove normalised to 1) */
    int attempts;
    int depth;              /* search limits for this query (probe may lower them) */
    long nodes;
    int kind;
    bool no_cache;
    int worker;             /* index of the worker that searched it */
    int avoid;              /* worker that must not search it (-1: any) */
} uz__query_priv;

_Static_assert(sizeof(uz__query_priv) <= sizeof(((uz_query *)0)->priv), "uz_query.priv too small");
_Static_assert(_Alignof(uz__query_priv) <= 8, "uz_query.priv under-aligned");
#define QPRIV(q) ((uz__query_priv *)(void *)(q)->priv)

enum { KIND_NORMAL = 0, KIND_SYNC, KIND_PROBE_SM, KIND_PROBE_FP, KIND_RECHECK };

typedef enum wstate {
    W_OFF,       /* no process */
    W_HANDSHAKE, /* "uci" sent, waiting for uciok */
    W_OPTIONS,   /* options + "isready" sent, waiting for readyok */
    W_IDLE,
    W_CLEARING,  /* clear + "isready" sent, waiting for readyok */
    W_SEARCHING, /* "go" sent, waiting for bestmove */
    W_CLOSING,   /* process being killed / quit, waiting for its handles */
    W_DEAD,      /* gave up on this worker */
} wstate;

#define MAX_ENGINE_OPTIONS 96

typedef struct engine_option {
    char name[UZ_ENGINE_OPTION_NAME_MAX];
    char type[16];
    long min, max;
    bool has_range;
} engine_option;

/* One exact score of a move at one depth. */
typedef struct scored {
    int depth;
    bool mate;
    long score;
} scored;

/* Enough to step back from a partial last iteration (engines report at most the
 * current depth and the one before it). */
#define SCORES_KEPT 4

typedef struct worker {
    uz_pool *pool;
    int index;
    uz__proc proc;
    bool proc_open;          /* spawned (or spawn attempted) and not yet fully closed */
    wstate state;
    uv_timer_t timer;        /* per-request timeout */
    uz_query *q;             /* query in progress */
    uz_query *waiters;       /* identical queries answered together with q */
    int step, n_steps, chunk, lo, hi;
    char uci[UZ_MAX_MOVES][UZ_UCI_MAX];
    uint64_t uci_key[UZ_MAX_MOVES]; /* uci[i]'s bytes as one number, for find_move */
    /* Per searched move: its exact scores at the deepest few depths reported (sorted
     * by depth), and the depth and kind of its deepest line. */
    scored kept[UZ_MAX_MOVES][SCORES_KEPT];
    unsigned char n_kept[UZ_MAX_MOVES];
    int top_depth[UZ_MAX_MOVES];     /* -2: no score line for the move yet */
    bool top_bound[UZ_MAX_MOVES];
    int max_depth;
    long last_time;
    long last_nodes;         /* "nodes" of the last info line, -1 if none */
    uint64_t sent_at;        /* uv_hrtime when the clear or the "go" was sent */
    int fail_streak;         /* consecutive failed starts */
    bool restart;            /* spawn again once closed */
    bool dying;              /* output closed: waiting briefly for the exit status */
    bool checker;            /* the second process of a one-worker pool: rechecks only,
                                started with the first of them */
    char name[UZ_ENGINE_NAME_MAX];
    engine_option opts[MAX_ENGINE_OPTIONS];
    int n_opts;
    int engine_multipv_max;  /* 0 = no MultiPV option */
    uz_result err_code;
    char err[320];
} worker;

typedef struct cache_blob {
    int n;
    int32_t *scores;
    uz_move *moves;
    char fen[];
} cache_blob;

typedef struct cache_slot {
    uint64_t hash;
    uint64_t stamp;
    cache_blob *blob;
} cache_slot;

#define CACHE_WAYS 4

/* After this many searches in a row without an answer in time (on any worker, retries
 * included) the engine is taken for hung for good: the run fails instead of paying
 * attempts x timeout for every remaining position. */
#define UZ__TIMEOUT_STREAK_MAX 3
/* An engine that hangs now and then (answers in between) costs the whole timeout each
 * time: after this many timeouts in all it is given up too. The first is said at once. */
#define UZ__TIMEOUTS_MAX 5

struct uz_pool {
    uz_oracle oracle;        /* the pool as an oracle (uz_pool_oracle) */
    uv_loop_t loop;
    bool loop_open;
    uz_engine_settings s;
    worker *workers;
    int n_workers;
    uz_query *queue_head, *queue_tail;
    uz_query *done_head, *done_tail;
    long outstanding;        /* submitted, callback not yet called */
    bool creating;           /* failures during create are final */
    bool shutting_down;
    uz_result run_error;
    char run_msg[256];
    char name[UZ_ENGINE_NAME_MAX];
    char fingerprint[17];
    char settings_text[4096];
    int max_multipv;         /* effective: min(settings, engine) */
    bool searchmoves_ok;
    cache_slot *cache;
    size_t cache_buckets;    /* power of two; CACHE_WAYS slots each */
    uint64_t cache_clock;
    uint64_t searched;       /* positions answered by an engine (for rechecks) */
    int timeout_streak;      /* searches in a row that got no answer in time */
    int timeouts;            /* searches that got no answer in time, in all */
    bool gave_up;            /* UZ__TIMEOUT_STREAK_MAX or UZ__TIMEOUTS_MAX reached: no more restarts */
    void (*on_warning)(void *user, const char *message); /* uz_pool_on_warning */
    void *warning_user;
    uint64_t store_hits_seen;/* for the store audits */
    bool store_distrusted;   /* the store disagreed with the engine once: not used again */
    uz_pool_stats stats;
};

/* A position searched again on another worker: the scores must match the first. Or, with
 * of_store, a hit of the persistent store searched by an engine: a store that disagrees
 * is no longer used. */
typedef struct recheck {
    uz_query q; /* first: the pool completes &q */
    int32_t expect[UZ_MAX_MOVES];
    bool of_store;
} recheck;

/* The first and every UZ__STORE_AUDIT_EVERY-th hit of the persistent store is searched
 * again by an engine. */
#define UZ__STORE_AUDIT_EVERY 16


static inline double uz__now_ms(void) { return (double)uv_hrtime() / 1e6; }

/* pool_dispatch.c */
void uz__queue_push(uz_query **head, uz_query **tail, uz_query *q, bool front);
uz_query *uz__queue_pop(uz_query **head, uz_query **tail);
/* Marks q answered; its callback runs from uz_pool_run. Keeps the first error. */
void uz__pool_complete(uz_pool *pool, uz_query *q, uz_result status, const char *msg);
/* Fails every queued query: no worker is left to answer them. */
void uz__pool_fail_queue(uz_pool *pool, uz_result code, const char *msg);
bool uz__pool_all_dead(const uz_pool *pool);
/* Hands queued queries to idle workers. */
void uz__pool_pump(uz_pool *pool);
/* Queues q as a query of the given KIND_ (probes and rechecks set their limits first). */
void uz__pool_submit_kind(uz_pool *pool, uz_query *q, int kind);
void uz__pool_maybe_recheck(uz_pool *pool, const uz_query *q);
/* Queues an engine search of q, just answered by the store, to compare (not pumped). */
void uz__pool_audit_store_hit(uz_pool *pool, const uz_query *q);
/* First differing move of two score lists of q, -1 if none. */
int uz__scores_differ(const uz_query *q, const int32_t *a, const int32_t *b);
void uz__nondeterministic(const uz_pool *pool, const uz_query *q, int i, int32_t first, int32_t second, char *msg,
                          size_t cap);

/* engine_worker.c */
void uz__worker_start(worker *w);
void uz__worker_send(worker *w, const char *text);
bool uz__worker_busy(wstate st);
/* Arms w's request timeout. */
void uz__worker_arm(worker *w, int ms);
engine_option *uz__worker_find_opt(const worker *w, const char *name);
void uz__worker_fail(worker *w, uz_result code, bool retryable, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* query_steps.c: a query on worker w, driven by the lines w's engine prints. */
void uz__query_begin(worker *w, uz_query *q);
void uz__query_send_go(worker *w);
void uz__query_on_ready(worker *w);
void uz__query_on_info(worker *w, const char *line);
void uz__query_on_bestmove(worker *w, const char *rest);

/* pool_cache.c: the memory cache, then the store (counting the hit); saving fills both. */
uz_result uz__cache_init(uz_pool *pool, int entries);
bool uz__cache_lookup_scores(uz_pool *pool, uz_query *q);
void uz__cache_save_scores(uz_pool *pool, const uz_query *q);
void uz__cache_free(uz_pool *pool);

/* fingerprint.c */
void uz__pool_build_settings_text(uz_pool *pool, const worker *w0);
/* Scores the built-in probe set and hashes it with the settings text. */
uz_result uz__pool_compute_fingerprint(uz_pool *pool, uz_diag *diag);
/* Whether the engine honours "go searchmoves" (pool->searchmoves_ok). */
uz_result uz__pool_probe_searchmoves(uz_pool *pool, uz_diag *diag);

#endif
