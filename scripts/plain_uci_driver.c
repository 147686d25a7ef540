/* The plain driver of scripts/bench_batch.py: the bridge's limit.
 *
 * Sends every position of a list to N engine processes, whichever is free, with the
 * same commands ucizip sends at the default settings (setoption MultiPV, ucinewgame,
 * isready / readyok, position fen, go depth D / bestmove), and nothing else: no legal
 * moves, no model, no coding. Prints the wall time in seconds, the engines' start and
 * handshake included (as in ucizip's wall time).
 *
 *     cc -O2 -o plain_uci_driver plain_uci_driver.c
 *     plain_uci_driver ENGINE N_ENGINES DEPTH POSITIONS [no-clear]
 *
 * POSITIONS holds one position a line: "<number of legal moves> <FEN>". With no-clear the
 * ucinewgame is left out (scores then depend on what the engine searched before: only to
 * measure what the clear costs). */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ENGINES 64

typedef struct {
    pid_t pid;
    int to, from;          /* pipe ends: engine's stdin, engine's stdout */
    char buf[1 << 16];     /* unread output */
    size_t len;
    const char *waiting;   /* line prefix awaited, NULL when idle */
    int pos;               /* index of the position in hand, -1 when none */
} engine;

typedef struct {
    int n_moves;
    char *fen;
} position;

static void die(const char *what)
{
    perror(what);
    exit(1);
}

static void send_text(engine *e, const char *text)
{
    size_t len = strlen(text);
    while (len > 0) {
        ssize_t k = write(e->to, text, len);
        if (k < 0)
            die("write");
        text += k;
        len -= (size_t)k;
    }
}

static void start(engine *e, const char *path)
{
    int in[2], out[2];
    if (pipe(in) || pipe(out))
        die("pipe");
    e->pid = fork();
    if (e->pid < 0)
        die("fork");
    if (e->pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        close(in[1]);
        close(out[0]);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    e->to = in[1];
    e->from = out[0];
    e->len = 0;
    e->pos = -1;
}

/* Returns 1 if a line starting with e->waiting is in what was read (dropping everything
 * up to and including it), else 0 (keeping a partial last line). */
static int scan_line(engine *e)
{
    size_t want = strlen(e->waiting);
    char *line = e->buf;
    for (char *nl; (nl = strchr(line, '\n')) != NULL; line = nl + 1) {
        if (strncmp(line, e->waiting, want) == 0) {
            e->len -= (size_t)(nl + 1 - e->buf);
            memmove(e->buf, nl + 1, e->len + 1);
            return 1;
        }
    }
    e->len -= (size_t)(line - e->buf);
    memmove(e->buf, line, e->len + 1);
    return 0;
}

/* Reads what the engine wrote; returns scan_line's answer. */
static int poll_line(engine *e)
{
    ssize_t k = read(e->from, e->buf + e->len, sizeof e->buf - e->len - 1);
    if (k <= 0) {
        fprintf(stderr, "engine %d died\n", (int)e->pid);
        exit(1);
    }
    e->len += (size_t)k;
    e->buf[e->len] = '\0';
    return scan_line(e);
}

static void wait_for(engine *e, const char *prefix)
{
    e->waiting = prefix;
    while (!poll_line(e))
        ;
}

int main(int argc, char **argv)
{
    if (argc != 5 && !(argc == 6 && strcmp(argv[5], "no-clear") == 0)) {
        fprintf(stderr, "usage: %s ENGINE N_ENGINES DEPTH POSITIONS [no-clear]\n", argv[0]);
        return 2;
    }
    const char *clear = argc == 6 ? "" : "ucinewgame\n";
    int n_engines = atoi(argv[2]), depth = atoi(argv[3]);
    if (n_engines < 1 || n_engines > MAX_ENGINES)
        return 2;

    FILE *f = fopen(argv[4], "r");
    if (!f)
        die(argv[4]);
    position *list = NULL;
    size_t n_pos = 0, cap = 0;
    char *line = NULL;
    size_t line_cap = 0;
    for (ssize_t len; (len = getline(&line, &line_cap, f)) > 0;) {
        if (line[len - 1] == '\n')
            line[len - 1] = '\0';
        char *space = strchr(line, ' ');
        if (!space)
            continue;
        if (n_pos == cap) {
            cap = cap ? 2 * cap : 4096;
            list = realloc(list, cap * sizeof *list);
        }
        list[n_pos].n_moves = atoi(line);
        list[n_pos].fen = strdup(space + 1);
        n_pos++;
    }
    fclose(f);

    /* The clock includes starting the engines, as ucizip's wall time does. */
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    signal(SIGPIPE, SIG_IGN);
    engine *engines = calloc((size_t)n_engines, sizeof *engines);
    for (int i = 0; i < n_engines; i++) {
        start(&engines[i], argv[1]);
        send_text(&engines[i], "uci\n");
        wait_for(&engines[i], "uciok");
        send_text(&engines[i], "setoption name Threads value 1\nsetoption name Hash value 1\nisready\n");
        wait_for(&engines[i], "readyok");
        engines[i].waiting = NULL;
    }

    size_t next = 0, done = 0;
    char cmd[4096];
    while (done < n_pos) {
        struct pollfd fds[MAX_ENGINES];
        for (int i = 0; i < n_engines; i++) {
            engine *e = &engines[i];
            if (!e->waiting && next < n_pos) {
                /* Same commands as the bridge, in one write as it sends them: clear,
                 * isready, search; then readyok and bestmove are awaited. */
                e->pos = (int)next++;
                snprintf(cmd, sizeof cmd, "setoption name MultiPV value %d\n%sisready\nposition fen %s\ngo depth %d\n",
                         list[e->pos].n_moves, clear, list[e->pos].fen, depth);
                send_text(e, cmd);
                e->waiting = "readyok";
            }
            fds[i].fd = e->from;
            fds[i].events = e->waiting ? POLLIN : 0;
        }
        if (poll(fds, (nfds_t)n_engines, -1) < 0)
            die("poll");
        for (int i = 0; i < n_engines; i++) {
            engine *e = &engines[i];
            if (!(fds[i].revents & (POLLIN | POLLHUP)) || !poll_line(e))
                continue;
            if (strcmp(e->waiting, "readyok") == 0) {
                e->waiting = "bestmove";
                if (!scan_line(e))
                    continue;
            }
            e->waiting = NULL;
            done++;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("%.3f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));

    for (int i = 0; i < n_engines; i++) {
        send_text(&engines[i], "quit\n");
        waitpid(engines[i].pid, NULL, 0);
    }
    return 0;
}
