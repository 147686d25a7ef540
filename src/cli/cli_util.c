/* Error reporting, safe output files and progress lines for the ucizip CLI. */
#include "cli_util.h"

#include "io/input.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Control characters (C0, DEL and C1 written as UTF-8) as \xNN: text from an archive or
 * an input file must not reach a terminal as escape sequences. */
void cli_put_escaped(FILE *f, const char *s)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p < 0x20 || *p == 0x7f)
            fprintf(f, "\\x%02x", *p);
        else if (*p == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
            fprintf(f, "\\x%02x", *++p);
        else
            fputc(*p, f);
    }
}

/* The temporary file being written and whether it is resumable (below). */
static char *volatile pending_tmp;
static volatile sig_atomic_t pending_resumable;

bool cli_stdout_broken(void)
{
    if (!ferror(stdout))
        return false;
    struct pollfd p = {.fd = STDOUT_FILENO, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

void cli_exit_if_stdout_broken(void)
{
    if (!cli_stdout_broken())
        return;
    /* What a write to a pipe without a reader does to zstd (SIGPIPE is ignored here for
     * the engines' sake): the end, silently, status 128 + SIGPIPE in the shell. */
    if (pending_tmp && !pending_resumable)
        unlink(pending_tmp);
    signal(SIGPIPE, SIG_DFL);
    raise(SIGPIPE);
    _exit(128 + SIGPIPE);
}

void cli_error(const char *fmt, ...)
{
    cli_exit_if_stdout_broken();
    char msg[4096];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fputs("ucizip: ", stderr);
    cli_put_escaped(stderr, msg);
    fputc('\n', stderr);
}

void cli_report(const char *file, const uz_diag *diag)
{
    cli_exit_if_stdout_broken();
    fprintf(stderr, "ucizip: ");
    if (file) {
        cli_put_escaped(stderr, file);
        fputc(':', stderr);
    }
    if (diag->line > 0)
        fprintf(stderr, "%ld:%ld:", diag->line, diag->column > 0 ? diag->column : 1);
    if (file || diag->line > 0)
        fputc(' ', stderr);
    if (diag->game > 0)
        fprintf(stderr, "game %ld: ", diag->game);
    cli_put_escaped(stderr, diag->message[0] ? diag->message : uz_result_str(diag->code));
    fputc('\n', stderr);
}

FILE *cli_open_input(const char *path, const char **name)
{
    if (!path || strcmp(path, "-") == 0) {
        *name = "<stdin>";
        return stdin;
    }
    *name = path;
    FILE *f = fopen(path, "rb");
    if (!f)
        cli_error("%s: %s", path, strerror(errno));
    return f;
}

bool cli_stdin_console(const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i], "-") == 0 && isatty(STDIN_FILENO)) {
            cli_error("stdin is a console: give an archive file, or pipe one in");
            return true;
        }
    return false;
}

void cli_close_input(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

/* pending_tmp: the temporary file being written, removed if a signal ends the program,
 * so that an interrupted run leaves nothing behind. Only one output is open at a time.
 * pending_resumable: set once the temporary file holds complete blocks and a resume
 * state next to it: an interrupt then keeps both for --resume. */

static void remove_pending_and_die(int sig)
{
    char *tmp = pending_tmp;
    if (tmp && !pending_resumable)
        unlink(tmp);
    if (tmp && pending_resumable) {
        static const char msg[] = "\nucizip: interrupted; run the same command with --resume to continue\n";
        ssize_t w = write(STDERR_FILENO, msg, sizeof msg - 1);
        (void)w;
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

static void watch_signals(void)
{
    static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = remove_pending_and_die;
        sigemptyset(&sa.sa_mask);
        sigaction(sigs[i], &sa, NULL);
    }
}

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* Temporaries are named OUT.PID.tmp (and OUT.PID.tmp.state for --resume). A run killed
 * outright (SIGKILL, a crash) leaves its own behind: before writing OUT, remove those of
 * earlier runs whose process is gone (regular files of ours only), except keep, the
 * interrupted run being resumed. */
static void remove_stale_tmp(const char *path, const char *keep)
{
    const char *slash = strrchr(path, '/');
    size_t dir_len = slash ? (size_t)(slash - path) : 0;
    const char *base = slash ? slash + 1 : path;
    size_t base_len = strlen(base);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(dir_len ? dir_len : 1) : 1, slash ? path : ".");
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strncmp(name, base, base_len) != 0 || name[base_len] != '.')
            continue;
        char *end;
        long pid = strtol(name + base_len + 1, &end, 10);
        if (end == name + base_len + 1 || (strcmp(end, ".tmp") != 0 && strcmp(end, ".tmp.state") != 0) ||
            pid <= 0 || pid == (long)getpid())
            continue;
        if (keep && strncmp(name, keep, strlen(keep)) == 0)
            continue; /* the interrupted run being resumed */
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* still running (or not ours to judge) */
        char full[PATH_MAX];
        struct stat st;
        if (snprintf(full, sizeof full, "%s/%s", dir, name) < (int)sizeof full && lstat(full, &st) == 0 &&
            S_ISREG(st.st_mode) && st.st_uid == geteuid())
            unlink(full);
    }
    closedir(d);
}

void cli_output_keep_attrs(cli_output *out, const char *path)
{
    struct stat st;
    if (!out->tmp_path || !path || strcmp(path, "-") == 0 || stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return;
    out->keep_attrs = true;
    out->mode = (unsigned)(st.st_mode & 07777);
    out->mtime_sec = (long long)st.st_mtim.tv_sec;
    out->mtime_nsec = st.st_mtim.tv_nsec;
}

int cli_output_open(cli_output *out, const char *path, bool force)
{
    return cli_output_open_keeping(out, path, force, NULL);
}

void cli_output_set_resumable(cli_output *out, bool resumable)
{
    if (out->tmp_path)
        pending_resumable = resumable;
}

int cli_output_open_keeping(cli_output *out, const char *path, bool force, const char *keep)
{
    memset(out, 0, sizeof *out);
    if (!path || strcmp(path, "-") == 0) {
        out->f = stdout;
        return 0;
    }
    struct stat st;
    if (!force && stat(path, &st) == 0) {
        cli_error("%s already exists; use -f to overwrite", path);
        return -1;
    }
    out->final_path = dup_string(path);
    size_t n = strlen(path) + 32;
    out->tmp_path = malloc(n);
    if (!out->final_path || !out->tmp_path) {
        cli_error("out of memory");
        goto fail;
    }
    snprintf(out->tmp_path, n, "%s.%ld.tmp", path, (long)getpid());
    {
        const char *slash = keep ? strrchr(keep, '/') : NULL;
        remove_stale_tmp(path, keep ? (slash ? slash + 1 : keep) : NULL);
    }
    pending_resumable = 0;
    watch_signals();
    pending_tmp = out->tmp_path;
    /* O_EXCL: never write through a file or link someone else put at that name. */
    int fd = open(out->tmp_path, O_WRONLY | O_CREAT | O_EXCL, 0666);
    out->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!out->f) {
        if (fd >= 0)
            close(fd);
        pending_tmp = NULL;
        cli_error("%s: %s", out->tmp_path, strerror(errno));
        goto fail;
    }
    return 0;
fail:
    free(out->final_path);
    free(out->tmp_path);
    memset(out, 0, sizeof *out);
    return -1;
}

int cli_output_commit(cli_output *out)
{
    if (out->f == stdout) {
        if (fflush(stdout) != 0 || ferror(stdout)) {
            cli_error("<stdout>: %s", strerror(errno));
            return -1;
        }
        out->f = NULL;
        return 0;
    }
    int err = 0;
    if (fflush(out->f) != 0 || ferror(out->f))
        err = errno ? errno : EIO;
    if (!err && out->keep_attrs) {
        struct timespec times[2] = {{0, UTIME_OMIT}, {(time_t)out->mtime_sec, out->mtime_nsec}};
        if (fchmod(fileno(out->f), (mode_t)out->mode) != 0 || futimens(fileno(out->f), times) != 0)
            err = errno;
    }
    if (!err && fsync(fileno(out->f)) != 0)
        err = errno;
    if (fclose(out->f) != 0 && !err)
        err = errno;
    out->f = NULL;
    if (!err && rename(out->tmp_path, out->final_path) != 0)
        err = errno;
    pending_tmp = NULL;
    pending_resumable = 0;
    if (err) {
        cli_error("%s: %s", out->final_path, strerror(err));
        cli_output_abort(out);
        return -1;
    }
    free(out->tmp_path);
    free(out->final_path);
    out->tmp_path = out->final_path = NULL;
    return 0;
}

void cli_output_abort(cli_output *out)
{
    if (out->f && out->f != stdout)
        fclose(out->f);
    out->f = NULL;
    pending_tmp = NULL;
    pending_resumable = 0;
    if (out->tmp_path)
        remove(out->tmp_path);
    free(out->tmp_path);
    free(out->final_path);
    out->tmp_path = out->final_path = NULL;
}

double cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

void cli_progress_init(cli_progress *p, bool force)
{
    memset(p, 0, sizeof *p);
    p->enabled = force || isatty(STDERR_FILENO);
    p->start = p->last = cli_now();
    p->bits_per_move = -1;
}

void cli_progress_quiet(cli_progress *p)
{
    p->enabled = false;
}

void cli_progress_update(cli_progress *p, long games, long plies, long long bytes_in)
{
    if (!p->enabled)
        return;
    double now = cli_now();
    if (now - p->last < 0.25) /* at most 4 updates a second */
        return;
    p->last = now;
    p->shown = true;
    double t = now - p->start;
    char extra[96] = "";
    if (p->bits_per_move >= 0)
        snprintf(extra, sizeof extra, ", %.3f bits/move", p->bits_per_move);
    char where[96];
    if (p->total_bytes > 0) {
        double frac = (double)bytes_in / (double)p->total_bytes;
        if (frac > 1)
            frac = 1;
        double eta = frac > 0.001 ? t * (1 - frac) / frac : 0;
        snprintf(where, sizeof where, "%.1f%% read, ETA %.0f s", 100 * frac, eta);
    } else {
        snprintf(where, sizeof where, "%.1f MB read", bytes_in / 1e6);
    }
    fprintf(stderr, "\r%ld games, %ld plies, %.0f plies/s%s, %s, %.0f s   ", games, plies, t > 0 ? plies / t : 0.0,
            extra, where, t);
    fflush(stderr);
}

void cli_progress_done(cli_progress *p)
{
    if (p->enabled && p->shown)
        fputc('\n', stderr);
    p->shown = false;
}

int cli_parse_long(const char *opt, const char *text, long min, long max, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > max) {
        cli_error("%s: expected a whole number from %ld to %ld, got '%s'", opt, min, max, text);
        return -1;
    }
    *out = v;
    return 0;
}

static void print_message(void *user, const char *input, const uz_diag *diag)
{
    (void)user;
    cli_report(input, diag);
}

/* The counts and the current input as the commands read them. */
static void mirror(cli_game_source *src)
{
    src->input = src->gs.input;
    src->reader = src->gs.reader;
    src->name = src->gs.name ? src->gs.name : "<no input>";
    src->games = (long)src->gs.games;
    src->verbatim = (long)src->gs.as_text;
    src->skipped = (long)src->gs.skipped;
    src->skipped_inputs = (long)src->gs.inputs_skipped;
}

/* Opens the next path of the list; 1 if one was opened, 0 at the end of the list, -1
 * after an input that cannot be read (printed) when that stops the run. */
static int source_next(cli_game_source *src)
{
    src->gs.damaged_inputs = src->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    while (src->next_path < src->n_paths) {
        const char *path = src->paths[src->next_path++];
        uz_diag diag = {0};
        uz_result r = uz_game_source_open(&src->gs, path, &diag);
        mirror(src);
        if (r == UZ_DONE) /* skipped with --keep-going, and said */
            continue;
        if (r != UZ_OK) {
            cli_report(path && strcmp(path, "-") != 0 ? path : "<stdin>", &diag);
            return -1;
        }
        return 1;
    }
    return 0;
}

static int source_start(cli_game_source *src)
{
    uz_game_source_init(&src->gs);
    src->gs.on_message = print_message;
    int r = source_next(src);
    if (r < 0)
        return -1;
    if (r == 0 && src->skipped_inputs > 0) {
        cli_error("no input could be read");
        return -1;
    }
    mirror(src);
    return 0;
}

int cli_source_open_list(cli_game_source *src, const char *const *paths, size_t n, bool keep_going)
{
    memset(src, 0, sizeof *src);
    src->keep_going = keep_going;
    src->paths = paths;
    src->n_paths = n;
    return source_start(src);
}

int cli_source_open(cli_game_source *src, const char *path, bool keep_going)
{
    memset(src, 0, sizeof *src);
    src->keep_going = keep_going;
    src->single[0] = path ? path : "-";
    src->paths = src->single;
    src->n_paths = 1;
    return source_start(src);
}

long cli_source_read(cli_game_source *src, uz_game *games, size_t cap)
{
    uz_game_source *gs = &src->gs;
    gs->exact = src->exact;
    /* Exact bytes keep any game that cannot be replayed as text; otherwise a bad game
     * stops the run, or is skipped with --keep-going. */
    uz_policy bad = src->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    gs->bad_games = src->exact ? UZ_POLICY_KEEP_AS_TEXT : bad;
    gs->variants = src->exact || src->keep_verbatim ? UZ_POLICY_KEEP_AS_TEXT : bad;
    gs->damaged_inputs = src->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    gs->max_games = src->max_games > 0 ? (uint64_t)src->max_games : 0;
    size_t n = 0;
    while (n < cap && gs->reader) {
        uz_diag diag = {0};
        long got = uz_game_source_read(gs, games + n, cap - n, &diag);
        if (got < 0) {
            cli_report(src->name, &diag);
            if (diag.code == UZ_ERR_CORRUPT || diag.code == UZ_ERR_IO)
                cli_error("stopped; use --keep-going to keep the games read before the damage");
            else if (diag.code != UZ_ERR_NOMEM)
                cli_error("stopped at the first bad game; use --keep-going to skip bad games");
            mirror(src);
            return -1;
        }
        n += (size_t)got;
        bool enough = gs->max_games > 0 && gs->games >= gs->max_games;
        if (!gs->reader && !enough && source_next(src) < 0)
            return -1;
    }
    mirror(src);
    return (long)n;
}

int cli_source_close(cli_game_source *src)
{
    int status = 0;
    mirror(src);
    if (src->verbatim)
        cli_error("%s: %ld game%s that could not be replayed (unsupported variants, bad moves or syntax) kept as text, "
                  "moves not coded", src->name, src->verbatim,
                  src->verbatim == 1 ? "" : "s");
    if (src->skipped) {
        cli_error("%s: %ld game%s skipped because of errors", src->name, src->skipped, src->skipped == 1 ? "" : "s");
        status = -1;
    }
    if (src->skipped_inputs) {
        cli_error("%ld input%s could not be read completely", src->skipped_inputs, src->skipped_inputs == 1 ? "" : "s");
        status = -1;
    }
    uz_game_source_end(&src->gs);
    free(src->gs.name);
    memset(src, 0, sizeof *src);
    return status;
}
