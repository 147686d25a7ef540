/* One engine child process: spawn without a shell, stdout line reader, stderr tail,
 * writes, graceful quit and kill, and handle bookkeeping so nothing leaks. */
#define _GNU_SOURCE /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine_internal.h"

static uz__proc *proc_of(uv_handle_t *h) { return (uz__proc *)h->data; }

static void handle_closed(uv_handle_t *h)
{
    uz__proc *p = proc_of(h);
    if (--p->open_handles == 0) {
        free(p->line);
        p->line = NULL;
        p->line_len = p->line_cap = 0;
        p->on_event(p, UZ__EV_CLOSED);
    }
}

static void close_handle(uv_handle_t *h)
{
    if (!uv_is_closing(h))
        uv_close(h, handle_closed);
}

static void emit(uz__proc *p, uz__proc_event ev)
{
    if (!p->closing)
        p->on_event(p, ev);
}

static void on_exit_cb(uv_process_t *proc, int64_t status, int term_signal)
{
    uz__proc *p = proc_of((uv_handle_t *)proc);
    p->running = false;
    p->exited = true;
    p->exit_status = status;
    p->term_signal = term_signal;
    uv_timer_stop(&p->grace);
    /* The process handle may be closed only now that its exit has been seen. */
    close_handle((uv_handle_t *)proc);
    if (p->closing) {
        /* After quit the stdin pipe and grace timer stayed open for the exit. */
        close_handle((uv_handle_t *)&p->in);
        close_handle((uv_handle_t *)&p->grace);
    }
    emit(p, UZ__EV_EXIT);
}

static void alloc_out(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    uz__proc *p = proc_of(h);
    *buf = uv_buf_init(p->out_buf, sizeof p->out_buf);
}

static void alloc_err(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    (void)suggested;
    uz__proc *p = proc_of(h);
    *buf = uv_buf_init(p->err_buf, sizeof p->err_buf);
}

/* Appends bytes to the pending line; false if it would exceed UZ__LINE_MAX. */
static bool line_append(uz__proc *p, const char *data, size_t n)
{
    if (p->line_len + n + 1 > UZ__LINE_MAX)
        return false;
    if (p->line_len + n + 1 > p->line_cap) {
        size_t cap = p->line_cap ? p->line_cap : 256;
        while (cap < p->line_len + n + 1)
            cap *= 2;
        if (cap > UZ__LINE_MAX)
            cap = UZ__LINE_MAX;
        char *nl = realloc(p->line, cap);
        if (!nl)
            return false;
        p->line = nl;
        p->line_cap = cap;
    }
    memcpy(p->line + p->line_len, data, n);
    p->line_len += n;
    p->line[p->line_len] = '\0';
    return true;
}

static void deliver_line(uz__proc *p)
{
    size_t n = p->line_len;
    if (n > 0 && p->line[n - 1] == '\r')
        n--;
    if (p->line)
        p->line[n] = '\0';
    p->line_len = 0;
    p->on_line(p, p->line ? p->line : (char *)"", n);
}

static void on_read_out(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    uz__proc *p = proc_of((uv_handle_t *)s);
    if (nread < 0) {
        uv_read_stop(s);
        /* A last line without its newline still counts. */
        if (p->line_len > 0 && !p->discarding && !p->closing)
            deliver_line(p);
        emit(p, UZ__EV_EOF);
        return;
    }
    char *data = buf->base;
    size_t left = (size_t)nread;
    while (left > 0 && !p->closing) {
        char *nl = memchr(data, '\n', left);
        size_t chunk = nl ? (size_t)(nl - data) : left;
        if (nl && p->line_len == 0 && !p->discarding && chunk < UZ__LINE_MAX) {
            /* A whole line in the read buffer (the usual case): handed over in place. */
            size_t n = chunk > 0 && data[chunk - 1] == '\r' ? chunk - 1 : chunk;
            data[n] = '\0';
            p->on_line(p, data, n);
            data += chunk + 1;
            left -= chunk + 1;
            continue;
        }
        if (!p->discarding && !line_append(p, data, chunk)) {
            p->discarding = true;
            p->line_len = 0;
            emit(p, UZ__EV_LONG_LINE);
        }
        if (nl) {
            if (p->discarding)
                p->discarding = false;
            else if (!p->closing)
                deliver_line(p);
            chunk++;
        }
        data += chunk;
        left -= chunk;
    }
}

static void on_read_err(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    uz__proc *p = proc_of((uv_handle_t *)s);
    if (nread < 0) {
        uv_read_stop(s);
        return;
    }
    /* Keep only the last UZ__ERR_TAIL bytes. */
    for (ssize_t i = 0; i < nread; i++) {
        if (p->err_len == UZ__ERR_TAIL) {
            memmove(p->err_tail, p->err_tail + 1, UZ__ERR_TAIL - 1);
            p->err_len--;
        }
        p->err_tail[p->err_len++] = buf->base[i];
    }
    p->err_tail[p->err_len] = '\0';
}

static void on_grace(uv_timer_t *t)
{
    uz__proc *p = proc_of((uv_handle_t *)t);
    if (p->running)
        uv_process_kill(&p->process, SIGKILL);
}

int uz__proc_spawn(uz__proc *p, uv_loop_t *loop, const char *path, uz__proc_line_cb on_line,
                   uz__proc_event_cb on_event, void *owner)
{
    p->loop = loop;
    p->on_line = on_line;
    p->on_event = on_event;
    p->owner = owner;
    p->open_handles = 0;
    p->running = p->closing = p->exited = p->discarding = false;
    p->exit_status = 0;
    p->term_signal = 0;
    p->line = NULL;
    p->line_len = p->line_cap = 0;
    p->err_len = 0;
    p->err_tail[0] = '\0';

    /* Plain pipes, not the socketpairs UV_CREATE_PIPE makes: the engine writes a line at a
     * time, and a pipe write wakes the reader at less cost in the kernel than a socket
     * send. Our ends are close-on-exec, so no later engine inherits them. */
    int fds[3][2], child_end[3];
    int made = 0;
    for (; made < 3; made++)
        if (pipe2(fds[made], O_CLOEXEC) != 0) {
            int err = -errno;
            for (int i = 0; i < made; i++)
                close(fds[i][0]), close(fds[i][1]);
            return err;
        }
    uv_pipe_t *pipes[3] = {&p->in, &p->out, &p->err};
    for (int i = 0; i < 3; i++) {
        int ours = i == 0 ? fds[i][1] : fds[i][0];
        child_end[i] = i == 0 ? fds[i][0] : fds[i][1];
        uv_pipe_init(loop, pipes[i], 0);
        pipes[i]->data = p;
        p->open_handles++;
        if (uv_pipe_open(pipes[i], ours) != 0)
            close(ours); /* the handle stays closed: the spawn below still runs, its I/O fails */
    }
    uv_timer_init(loop, &p->grace);
    p->grace.data = p;
    p->open_handles++;

    char *args[2] = {(char *)path, NULL};
    uv_stdio_container_t stdio[3];
    for (int i = 0; i < 3; i++) {
        stdio[i].flags = UV_INHERIT_FD;
        stdio[i].data.fd = child_end[i];
    }

    uv_process_options_t opt;
    memset(&opt, 0, sizeof opt);
    opt.file = path;
    opt.args = args;
    opt.exit_cb = on_exit_cb;
    opt.stdio = stdio;
    opt.stdio_count = 3;

    p->process.data = p;
    p->open_handles++;
    int rc = uv_spawn(loop, &p->process, &opt);
    for (int i = 0; i < 3; i++)
        close(child_end[i]); /* the child has its own copies */
    if (rc != 0) {
        /* The handle was initialised but no child exists: closing it is safe. */
        uz__proc_close(p);
        return rc;
    }
    p->running = true;
    uv_read_start((uv_stream_t *)&p->out, alloc_out, on_read_out);
    uv_read_start((uv_stream_t *)&p->err, alloc_err, on_read_err);
    return 0;
}

typedef struct write_req {
    uv_write_t req;
    char data[];
} write_req;

static void on_written(uv_write_t *req, int status)
{
    uz__proc *p = proc_of((uv_handle_t *)req->handle);
    free(req);
    if (status < 0)
        emit(p, UZ__EV_WRITE_ERROR);
}

void uz__proc_write(uz__proc *p, const char *text, size_t len)
{
    if (p->closing || !p->running || len == 0)
        return;
    write_req *w = malloc(sizeof *w + len);
    if (!w) {
        emit(p, UZ__EV_WRITE_ERROR);
        return;
    }
    memcpy(w->data, text, len);
    uv_buf_t b = uv_buf_init(w->data, (unsigned)len);
    if (uv_write(&w->req, (uv_stream_t *)&p->in, &b, 1, on_written) != 0) {
        free(w);
        emit(p, UZ__EV_WRITE_ERROR);
    }
}

void uz__proc_close(uz__proc *p)
{
    if (p->closing)
        return;
    p->closing = true;
    if (p->running)
        uv_process_kill(&p->process, SIGKILL);
    close_handle((uv_handle_t *)&p->in);
    close_handle((uv_handle_t *)&p->out);
    close_handle((uv_handle_t *)&p->err);
    close_handle((uv_handle_t *)&p->grace);
    /* A running process handle is closed by on_exit_cb; a never-spawned one now. */
    if (!p->running)
        close_handle((uv_handle_t *)&p->process);
}

void uz__proc_quit(uz__proc *p, int grace_ms)
{
    if (p->closing)
        return;
    if (!p->running) {
        uz__proc_close(p);
        return;
    }
    uz__proc_write(p, "quit\n", 5);
    /* Stop listening but keep the process handle until it exits or the timer
     * kills it; the grace timer is closed with the others once it has exited. */
    p->closing = true;
    uv_read_stop((uv_stream_t *)&p->out);
    uv_read_stop((uv_stream_t *)&p->err);
    close_handle((uv_handle_t *)&p->out);
    close_handle((uv_handle_t *)&p->err);
    uv_timer_start(&p->grace, on_grace, (uint64_t)(grace_ms > 0 ? grace_ms : 1), 0);
}

const char *uz__proc_stderr(uz__proc *p)
{
    for (size_t i = 0; i < p->err_len; i++) {
        unsigned char c = (unsigned char)p->err_tail[i];
        if (c < 0x20 || c == 0x7f)
            p->err_tail[i] = ' ';
    }
    /* Trim trailing blanks so messages stay one line. */
    while (p->err_len > 0 && p->err_tail[p->err_len - 1] == ' ')
        p->err_tail[--p->err_len] = '\0';
    size_t start = 0;
    while (start < p->err_len && p->err_tail[start] == ' ')
        start++;
    return p->err_tail + start;
}
