/* Error reporting, safe output files and progress lines for the ucizip CLI. */
#define _GNU_SOURCE /* renameat2, RENAME_NOREPLACE */
#include "cli_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Control characters (C0, DEL and C1 written as UTF-8) as \xNN: text from an archive or
 * an input file must not reach a terminal as escape sequences. */
static void put_escaped(FILE *f, const char *s, bool blank_separators)
{
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (blank_separators && (*p == '\t' || *p == '\n' || *p == '\r'))
            fputc(' ', f);
        else if (*p < 0x20 || *p == 0x7f)
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

void cli_put_escaped(FILE *f, const char *s)
{
    put_escaped(f, s, false);
}

void cli_put_field(FILE *f, const char *s)
{
    put_escaped(f, s, true);
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

bool cli_stdin_closed(void)
{
    int flags = fcntl(STDIN_FILENO, F_GETFL);
    return flags == -1 || (flags & O_ACCMODE) == O_WRONLY; /* main.c's placeholder for a closed one */
}

bool cli_stdin_closed_in(const char *const *paths, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(paths[i], "-") == 0 && cli_stdin_closed()) {
            cli_error("<stdin>: standard input is closed: there is nothing to read; name an input file");
            return true;
        }
    return false;
}

FILE *cli_open_input(const char *path, const char **name)
{
    if (!path || strcmp(path, "-") == 0) {
        *name = "<stdin>";
        if (cli_stdin_closed_in((const char *const[]){"-"}, 1))
            return NULL;
        return stdin;
    }
    *name = path;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f)
        cli_error("%s: %s", path, strerror(errno));
    else if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        cli_error("%s: is a directory", path);
        fclose(f);
        f = NULL;
    }
    return f;
}

bool cli_stdin_console(const char *const *paths, size_t n)
{
    if (cli_stdin_closed_in(paths, n))
        return true;
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

/* The process's umask (read once: reading it means setting it). */
static mode_t process_umask(void)
{
    static int cached = -1;
    if (cached < 0) {
        mode_t m = umask(077);
        umask(m);
        cached = (int)m;
    }
    return (mode_t)cached;
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

bool cli_stdout_closed(void)
{
    int flags = fcntl(STDOUT_FILENO, F_GETFL);
    return flags == -1 || (flags & O_ACCMODE) == O_RDONLY; /* main.c's placeholder for a closed one */
}

int cli_stdout_finish(bool report)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    if (!report || errno == EPIPE)
        return -1;
    if (cli_stdout_closed())
        cli_error("<stdout>: standard output is closed: what was to be written there is lost");
    else
        cli_error("<stdout>: write error: %s", errno ? strerror(errno) : "unknown");
    return -1;
}

/* Names that mean this process's standard output: written as "-" is, never replaced. */
static bool names_stdout(const char *path)
{
    return strcmp(path, "-") == 0 || strcmp(path, "/dev/stdout") == 0 || strcmp(path, "/dev/fd/1") == 0 ||
           strcmp(path, "/proc/self/fd/1") == 0;
}

/* Links under /dev and /proc (/dev/stderr, /proc/self/fd/N) are the system's: never
 * replaced, whatever they lead to (a file in /dev/shm is an ordinary file). */
static bool names_system_link(const char *path, const struct stat *link)
{
    return S_ISLNK(link->st_mode) && (strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0);
}

/* A character device or FIFO named as output: opened and written into as it is (as zstd
 * does with /dev/null), so the node itself is never replaced by a regular file. A
 * regular file reached through a system name (/dev/stderr) is appended to. */
static int open_special(cli_output *out, const char *path, bool regular)
{
    int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (regular ? O_APPEND : 0));
    out->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    out->final_path = dup_string(path);
    if (!out->f || !out->final_path) {
        cli_error("%s: %s", path, out->f ? "out of memory" : strerror(errno));
        if (out->f)
            fclose(out->f);
        else if (fd >= 0)
            close(fd);
        free(out->final_path);
        memset(out, 0, sizeof *out);
        return -1;
    }
    return 0;
}

int cli_output_open_keeping(cli_output *out, const char *path, bool force, const char *keep)
{
    memset(out, 0, sizeof *out);
    if (!path || names_stdout(path)) {
        if (cli_stdout_closed()) {
            cli_error("<stdout>: standard output is closed; name an output file with -o");
            return -1;
        }
        out->f = stdout;
        return 0;
    }
    struct stat st, link;
    bool exists = lstat(path, &link) == 0; /* a dangling symbolic link exists too */
    bool target = stat(path, &st) == 0;
    if (target && !S_ISREG(st.st_mode) && !S_ISCHR(st.st_mode) && !S_ISFIFO(st.st_mode)) {
        cli_error("%s: not a regular file, a character device or a FIFO; refusing to replace it", path);
        return -1;
    }
    if (target && (!S_ISREG(st.st_mode) || names_system_link(path, &link)))
        return open_special(out, path, S_ISREG(st.st_mode));
    if (exists && !force) {
        cli_error("%s already exists%s; use -f to overwrite", path,
                  S_ISLNK(link.st_mode) ? " (a symbolic link)" : "");
        return -1;
    }
    out->final_path = dup_string(path);
    out->force = force;
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
    /* O_EXCL: never write through a file or link someone else put at that name. 0600:
     * readable by nobody else while it is written (or kept for --resume), whatever the
     * input's mode; cli_output_commit gives the final mode. */
    out->mode = 0666 & ~(unsigned)process_umask();
    int fd = open(out->tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
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

/* Moves the complete temporary file to its final name without ever replacing a file that
 * appeared there since the run checked the name: renameat2(RENAME_NOREPLACE), or where the
 * filesystem lacks it, link() (which fails on an existing name) then unlink(). Returns 0
 * or an errno value (EEXIST: the name is taken, the temporary file is still there). */
static int rename_noreplace(const char *from, const char *to)
{
    if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
        return 0;
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
        return errno;
    if (link(from, to) == 0) {
        unlink(from); /* (a failure leaves a second name of the same complete file) */
        return 0;
    }
    if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS)
        return errno;
    /* No hard links either (FAT, some network file systems): the best left is to look
     * just before renaming. */
    struct stat st;
    if (lstat(to, &st) == 0)
        return EEXIST;
    return rename(from, to) == 0 ? 0 : errno;
}

/* Flushes and closes a device or FIFO written directly (no fsync: they have none). */
static int commit_special(cli_output *out)
{
    int err = 0;
    if (fflush(out->f) != 0 || ferror(out->f))
        err = errno ? errno : EIO;
    if (fclose(out->f) != 0 && !err)
        err = errno;
    out->f = NULL;
    if (err)
        cli_error("%s: %s", out->final_path, strerror(err));
    free(out->final_path);
    out->final_path = NULL;
    return err ? -1 : 0;
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
    if (!out->tmp_path)
        return commit_special(out);
    int err = 0;
    if (fflush(out->f) != 0 || ferror(out->f))
        err = errno ? errno : EIO;
    if (!err && fchmod(fileno(out->f), (mode_t)out->mode) != 0)
        err = errno;
    if (!err && out->keep_attrs) {
        struct timespec times[2] = {{0, UTIME_OMIT}, {(time_t)out->mtime_sec, out->mtime_nsec}};
        if (futimens(fileno(out->f), times) != 0)
            err = errno;
    }
    if (!err && fsync(fileno(out->f)) != 0)
        err = errno;
    if (fclose(out->f) != 0 && !err)
        err = errno;
    out->f = NULL;
    if (!err && out->force && rename(out->tmp_path, out->final_path) != 0)
        err = errno;
    else if (!err && !out->force)
        err = rename_noreplace(out->tmp_path, out->final_path);
    pending_tmp = NULL;
    pending_resumable = 0;
    if (err == EEXIST) {
        /* Another run (or someone) took the name while this one wrote: neither output is
         * lost. The complete one is kept as OUT.PID.kept, a name that a later run's sweep
         * of dead runs' temporary files leaves alone (or, failing that, as it is). */
        size_t n = strlen(out->tmp_path) + 2;
        char *kept = malloc(n);
        const char *name = out->tmp_path;
        if (kept) {
            snprintf(kept, n, "%.*skept", (int)(strlen(out->tmp_path) - 3), out->tmp_path);
            if (rename_noreplace(out->tmp_path, kept) == 0)
                name = kept;
        }
        cli_error("%s appeared while this run was writing it; not replaced (use -f to overwrite); "
                  "the output is kept as %s", out->final_path, name);
        free(kept);
        free(out->tmp_path);
        free(out->final_path);
        out->tmp_path = out->final_path = NULL;
        return -1;
    }
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
    uz_pgn_source_counts c;
    uz_pgn_source_counts_get(src->ps, &c);
    src->name = uz_pgn_source_name(src->ps);
    src->games = (long)c.games;
    src->verbatim = (long)c.as_text;
    src->skipped = (long)c.skipped;
    src->skipped_inputs = (long)c.inputs_skipped;
}

/* Opens the library's source over paths[0..n): 0, or -1 after an input that cannot be read
 * (printed) when that stops the run. */
static int source_start(cli_game_source *src, const char *const *paths, size_t n, bool keep_going)
{
    src->keep_going = keep_going;
    uz_diag diag = {0};
    uz_result r = uz_pgn_source_open(&src->ps, paths, n, keep_going, print_message, NULL, &diag);
    if (r == UZ_ERR_NOMEM && !src->ps) {
        cli_error("out of memory");
        return -1;
    }
    mirror(src);
    if (r != UZ_OK && r != UZ_DONE) {
        const char *failed = uz_pgn_source_failed_input(src->ps);
        cli_report(failed ? failed : src->name, &diag);
        uz_pgn_source_close(src->ps);
        src->ps = NULL;
        return -1;
    }
    if (r == UZ_DONE && src->skipped_inputs > 0) {
        cli_error("no input could be read");
        uz_pgn_source_close(src->ps);
        src->ps = NULL;
        return -1;
    }
    return 0;
}

int cli_source_open_list(cli_game_source *src, const char *const *paths, size_t n, bool keep_going)
{
    memset(src, 0, sizeof *src);
    return source_start(src, paths, n, keep_going);
}

int cli_source_open(cli_game_source *src, const char *path, bool keep_going)
{
    memset(src, 0, sizeof *src);
    src->single[0] = path ? path : "-";
    return source_start(src, src->single, 1, keep_going);
}

int cli_source_next(cli_game_source *src, uz_game *game)
{
    uz_pgn_source_policy policy = {src->keep_going, src->keep_verbatim, src->exact,
                                   src->max_games > 0 ? (uint64_t)src->max_games : 0};
    uz_diag diag = {0};
    uz_result r = uz_pgn_source_read(src->ps, game, &policy, &diag);
    mirror(src);
    if (r == UZ_OK || r == UZ_DONE)
        return r == UZ_OK;
    const char *failed = uz_pgn_source_failed_input(src->ps);
    if (failed) { /* the next input could not be opened */
        cli_report(failed, &diag);
        return -1;
    }
    cli_report(src->name, &diag);
    if (diag.code == UZ_ERR_CORRUPT || diag.code == UZ_ERR_IO)
        cli_error("stopped; use --keep-going to keep the games read before the damage");
    else if (diag.code != UZ_ERR_NOMEM)
        cli_error("stopped at the first bad game; use --keep-going to skip bad games");
    return -1;
}

long cli_source_read(cli_game_source *src, uz_game *const *games, size_t cap)
{
    size_t n = 0;
    while (n < cap) {
        int r = cli_source_next(src, games[n]);
        if (r < 0)
            return -1;
        if (r == 0)
            break;
        n++;
    }
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
    uz_pgn_source_close(src->ps);
    memset(src, 0, sizeof *src);
    return status;
}
