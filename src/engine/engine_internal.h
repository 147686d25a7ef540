/* Internal interfaces of the engine bridge: one engine process, UCI line parsing,
 * hashing. Only src/engine/ includes this (and only src/engine/ includes uv.h). */
#ifndef UZ_ENGINE_INTERNAL_H
#define UZ_ENGINE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <uv.h>

#include "ucizip/engine.h"

/* ---- uci_process.c: one child process with line-oriented stdout ---- */

/* Longest stdout line we accept; longer ones are a protocol error. */
#define UZ__LINE_MAX (1u << 20)
#define UZ__ERR_TAIL 240

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

#define UZ__FNV_OFFSET 0xcbf29ce484222325ull
uint64_t uz__fnv1a(uint64_t h, const void *data, size_t len);
/* Built-in probe positions, NULL-terminated FEN list. */
extern const char *const uz__probe_fens[];

/* ---- engine_profile.c ---- */

/* Resolves an executable: a name with '/' must exist and be executable; a bare name
 * is searched in PATH. Writes the resolved path to out. Returns 0, ENOENT or EACCES. */
int uz__resolve_exe(const char *name, char *out, size_t cap);

#endif
