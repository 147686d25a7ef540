/* Fault injection: crashes, hangs, garbage, missing/illegal moves, bound scores (taken
 * from the previous depth), slow
 * or failing start-up, missing / non-executable / non-UCI engines. Each must end in a
 * restart with identical results or a clean one-line error, never a hang or a wrong
 * score. Also checks that no file descriptor or child process is left behind. */
#include <dirent.h>
#include <errno.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine_test.h"

#define N_POS 10
#define DEPTH 5

static char **fens;
static int n_fens;
static int32_t ref[N_POS][UZ_MAX_MOVES];
static char dir[256], fake[300];

static int count_fds(void)
{
    int n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return -1;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void write_file(const char *name, const char *text)
{
    char path[400];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        exit(1);
    }
    fputs(text, f);
    fclose(f);
}

static long go_count(void)
{
    char path[400];
    struct stat st;
    snprintf(path, sizeof path, "%s/gos", dir);
    return stat(path, &st) == 0 ? (long)st.st_size : 0;
}

static void set_conf(const char *mode, long n)
{
    char text[64];
    snprintf(text, sizeof text, "%s %ld\n", mode, n);
    write_file("conf", text);
}

static void fake_settings(uz_engine_settings *s)
{
    t_settings(s, "stockfish", DEPTH, UZ_MODE_MULTIPV);
    snprintf(s->path, sizeof s->path, "%s", fake);
    s->cache_entries = 0;
    s->timeout_ms = 2500;
    s->handshake_timeout_ms = 8000;
    s->max_retries = 2;
    /* Faults are injected at a count of searches: rechecks (searches of their own, tested
     * in the CLI tests with a jittering engine) would move them. */
    s->recheck_every = 0;
}

static uz_pool *open_fake(const uz_engine_settings *s, int workers)
{
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    set_conf("none", 0);
    CHECK_RC(uz_pool_create(&pool, s, workers, &diag), UZ_OK, &diag);
    return pool;
}

static bool one_line(const char *msg) { return strchr(msg, '\n') == NULL && msg[0] != '\0'; }

/* Runs positions [from, to) synchronously; returns the first error status. */
static uz_result run_range(uz_pool *pool, int from, int to, bool compare, uz_diag *diag)
{
    uz_query *q = malloc(sizeof *q);
    uz_result first = UZ_OK;
    for (int i = from; i < to; i++) {
        t_query_fen(q, fens[i]);
        uz_result rc = uz_pool_query(pool, q, diag);
        if (rc != UZ_OK) {
            if (first == UZ_OK)
                first = rc;
            continue;
        }
        if (compare && memcmp(q->scores, ref[i], sizeof(int32_t) * (size_t)q->n_moves) != 0) {
            fprintf(stderr, "scores differ from the reference for %s\n", fens[i]);
            uz_test_failed++;
        }
    }
    free(q);
    return first;
}

/* A fault that the pool recovers from: results identical to the reference. */
static void recoverable(const char *mode, long after, int workers)
{
    uz_engine_settings s;
    fake_settings(&s);
    uz_pool *pool = open_fake(&s, workers);
    if (!pool)
        return;
    set_conf(mode, go_count() + after);
    uz_diag diag = {0};
    if (workers == 1) {
        CHECK_RC(run_range(pool, 0, N_POS, true, &diag), UZ_OK, &diag);
    } else {
        uz_query *qs = calloc(N_POS, sizeof *qs);
        for (int i = 0; i < N_POS; i++) {
            t_query_fen(&qs[i], fens[i]);
            uz_pool_submit(pool, &qs[i]);
        }
        CHECK_RC(uz_pool_run(pool, &diag), UZ_OK, &diag);
        for (int i = 0; i < N_POS; i++) {
            CHECK(qs[i].status == UZ_OK);
            CHECK(memcmp(qs[i].scores, ref[i], sizeof(int32_t) * (size_t)qs[i].n_moves) == 0);
        }
        free(qs);
    }
    uz_pool_stats st;
    uz_pool_get_stats(pool, &st);
    if (st.restarts < 1) {
        fprintf(stderr, "%s: expected a restart\n", mode);
        uz_test_failed++;
    }
    printf("%-16s recovered: %llu restart(s)\n", mode, (unsigned long long)st.restarts);
    uz_pool_destroy(pool);
}

/* A fault that must fail the query with `want`, a message containing `needle`;
 * the next query then works again. */
static void failing(const char *mode, long after, uz_result want, const char *needle)
{
    uz_engine_settings s;
    fake_settings(&s);
    if (want == UZ_ERR_TIMEOUT) {
        s.timeout_ms = 1000;
        s.max_retries = 1;
    }
    uz_pool *pool = open_fake(&s, 1);
    if (!pool)
        return;
    set_conf(mode, go_count() + after);
    uz_diag diag = {0};
    /* Positions 0..after-1 fine, then the faulty one. */
    CHECK_RC(run_range(pool, 0, (int)after - 1, true, &diag), UZ_OK, &diag);
    memset(&diag, 0, sizeof diag);
    uz_result rc = run_range(pool, (int)after - 1, (int)after, true, &diag);
    if (rc != want || !strstr(diag.message, needle) || !strstr(diag.message, fake) ||
        !one_line(diag.message)) {
        fprintf(stderr, "%s: got %d '%s', want %d with '%s'\n", mode, (int)rc, diag.message, (int)want,
                needle);
        uz_test_failed++;
    }
    printf("%-16s -> %s\n", mode, diag.message);
    if (!strstr(mode, "_from")) {
        /* The engine was restarted: later queries are right again. */
        CHECK_RC(run_range(pool, (int)after, (int)after + 2, true, &diag), UZ_OK, &diag);
    }
    uz_pool_destroy(pool);
}

/* A bound on a move's line at the last depth (Stockfish 15.1 does this now and then:
 * a stale fail-low flag) is no error: the scores come from the previous depth, exact for
 * every move, so they differ from the reference but are reproducible. */
static void bound_falls_back(void)
{
    uz_engine_settings s;
    fake_settings(&s);
    uz_pool *pool = open_fake(&s, 1);
    if (!pool)
        return;
    uz_diag diag = {0};
    int32_t got[2][UZ_MAX_MOVES];
    uz_query *q = malloc(sizeof *q);
    for (int r = 0; r < 2; r++) {
        set_conf("bound_at", go_count() + 1);
        t_query_fen(q, fens[0]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        memcpy(got[r], q->scores, sizeof got[r]);
    }
    CHECK(memcmp(got[0], got[1], sizeof(int32_t) * (size_t)q->n_moves) == 0);
    CHECK(memcmp(got[0], ref[0], sizeof(int32_t) * (size_t)q->n_moves) != 0);
    printf("%-16s -> scores of the previous depth\n", "bound_at");
    free(q);
    uz_pool_destroy(pool);
}

/* An engine that stops answering for good: the pool gives up after
 * UZ__TIMEOUT_STREAK_MAX searches in a row without an answer, not after attempts x
 * timeout for every queued position. */
static void gives_up_on_hung_engine(void)
{
    uz_engine_settings s;
    fake_settings(&s);
    s.timeout_ms = 700;
    s.max_retries = 2;
    uz_pool *pool = open_fake(&s, 1);
    if (!pool)
        return;
    long gos_before = go_count();
    set_conf("hang_from", gos_before + 1);
    uz_query *qs = calloc(N_POS, sizeof *qs);
    for (int i = 0; i < N_POS; i++) {
        t_query_fen(&qs[i], fens[i]);
        uz_pool_submit(pool, &qs[i]);
    }
    uz_diag diag = {0};
    uz_result rc = uz_pool_run(pool, &diag);
    long searches = go_count() - gos_before;
    int failed = 0;
    for (int i = 0; i < N_POS; i++)
        failed += qs[i].status != UZ_OK;
    /* Three hung searches, then nothing more is sent: every position fails at once. */
    if (rc != UZ_ERR_TIMEOUT || !strstr(diag.message, "in a row") || !strstr(diag.message, fake) ||
        !one_line(diag.message) || searches != 3 || failed != N_POS) {
        fprintf(stderr, "hung engine: got %d '%s' after %ld searches, %d failed\n", (int)rc, diag.message, searches,
                failed);
        uz_test_failed++;
    }
    printf("%-16s -> %s (%ld searches)\n", "hang_from all", diag.message, searches);
    free(qs);
    uz_pool_destroy(pool);
}

static int warnings_seen;
static char first_warning[300];

static void count_warning(void *user, const char *message)
{
    (void)user;
    if (warnings_seen++ == 0)
        snprintf(first_warning, sizeof first_warning, "%s", message);
}

/* An engine that hangs now and then (every second search) but answers in between: the
 * first timeout is said at once, and after UZ__TIMEOUTS_MAX timeouts in all the pool gives
 * up, instead of paying the timeout for every few positions to the end. */
static void gives_up_on_engine_that_keeps_hanging(void)
{
    uz_engine_settings s;
    fake_settings(&s);
    s.timeout_ms = 700;
    s.max_retries = 2;
    uz_pool *pool = open_fake(&s, 1);
    if (!pool)
        return;
    warnings_seen = 0;
    uz_pool_on_warning(pool, count_warning, NULL);
    long gos_before = go_count();
    set_conf("hang_every", 2);
    uz_query *qs = calloc(N_POS, sizeof *qs);
    for (int i = 0; i < N_POS; i++) {
        t_query_fen(&qs[i], fens[i]);
        uz_pool_submit(pool, &qs[i]);
    }
    uz_diag diag = {0};
    uz_result rc = uz_pool_run(pool, &diag);
    long searches = go_count() - gos_before;
    if (rc != UZ_ERR_TIMEOUT || !strstr(diag.message, "keeps hanging") || !strstr(diag.message, "5 searches") ||
        !one_line(diag.message) || warnings_seen != 1 || !strstr(first_warning, "no answer within 700 ms") ||
        searches > 12) { /* (UZ__TIMEOUTS_MAX is 5: 5 hung searches, about as many answered) */
        fprintf(stderr, "engine hanging now and then: got %d '%s' after %ld searches; %d warnings ('%s')\n", (int)rc,
                diag.message, searches, warnings_seen, first_warning);
        uz_test_failed++;
    }
    printf("%-16s -> %s; %s (%ld searches)\n", "hang_every 2", first_warning, diag.message, searches);
    set_conf("none", 0);
    free(qs);
    uz_pool_destroy(pool);
}

/* An engine whose every process is deterministic but two processes disagree: with one
 * worker too, the recheck runs in a second process and the run fails. */
static void one_worker_checks_across_processes(void)
{
    uz_engine_settings s;
    fake_settings(&s);
    s.recheck_every = 2;
    set_conf("process_offset", 0);
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
    if (!pool)
        return;
    uz_query *qs = calloc(4, sizeof *qs);
    for (int i = 0; i < 4; i++) {
        t_query_fen(&qs[i], fens[i]);
        uz_pool_submit(pool, &qs[i]);
    }
    uz_result rc = uz_pool_run(pool, &diag);
    uz_pool_stats st;
    uz_pool_get_stats(pool, &st);
    if (rc != UZ_ERR_ENGINE || !strstr(diag.message, "not deterministic") || !one_line(diag.message) ||
        st.rechecks < 1) {
        fprintf(stderr, "-j1 recheck: got %d '%s' after %llu rechecks\n", (int)rc, diag.message,
                (unsigned long long)st.rechecks);
        uz_test_failed++;
    }
    printf("%-16s -> %s\n", "process_offset", diag.message);
    free(qs);
    uz_pool_destroy(pool);
    set_conf("none", 0);
}

/* Pool creation must fail with want and a one-line message containing needle. */
static void failing_start(const char *path, const char *mode, long n, int handshake_ms, uz_result want,
                          const char *needle)
{
    uz_engine_settings s;
    fake_settings(&s);
    snprintf(s.path, sizeof s.path, "%s", path);
    s.handshake_timeout_ms = handshake_ms;
    set_conf(mode, n);
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    uz_result rc = uz_pool_create(&pool, &s, 2, &diag);
    if (rc != want || pool != NULL || !strstr(diag.message, needle) || !strstr(diag.message, path) ||
        !one_line(diag.message)) {
        fprintf(stderr, "start %s %s: got %d '%s', want %d with '%s'\n", path, mode, (int)rc, diag.message,
                (int)want, needle);
        uz_test_failed++;
    }
    printf("start %-10s -> %s\n", mode, diag.message);
    uz_pool_destroy(pool);
}

int main(void)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    char path[1024];
    snprintf(path, sizeof path, "%s/engine/positions.epd", t_env("UZ_TEST_DATA", "tests/data"));
    fens = t_read_fens(path, &n_fens);
    if (n_fens < N_POS + 2)
        return 1;

    /* The fake engine is copied with an exec bit so the test does not depend on
     * how the checkout stored the script's mode. */
    snprintf(dir, sizeof dir, "/tmp/uz-engine-faults-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setenv("FAKE_DIR", dir, 1);
    char src[1024];
    snprintf(src, sizeof src, "%s/tests/engine/fake_uci.py", t_env("UZ_SRC_ROOT", "."));
    snprintf(fake, sizeof fake, "%s/fake_engine", dir);
    {
        FILE *in = fopen(src, "r"), *out = fopen(fake, "w");
        if (!in || !out) {
            fprintf(stderr, "cannot copy %s\n", src);
            return 1;
        }
        int c;
        while ((c = fgetc(in)) != EOF)
            fputc(c, out);
        fclose(in);
        fclose(out);
        chmod(fake, 0755);
    }

    /* Reference scores from the real engine; also warms up libuv's process-wide
     * state (its signal pipe) before counting descriptors. */
    uz_engine_settings s;
    t_settings(&s, "stockfish", DEPTH, UZ_MODE_MULTIPV);
    s.cache_entries = 0;
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
    if (!pool)
        return test_finish();
    uz_query *q = malloc(sizeof *q);
    for (int i = 0; i < N_POS + 2; i++) {
        t_query_fen(q, fens[i]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        if (i < N_POS)
            memcpy(ref[i], q->scores, sizeof ref[i]);
    }
    free(q);
    uz_pool_destroy(pool);
    int fds_before = count_fds();

    recoverable("crash_at", 3, 1);
    recoverable("crash_at", 4, 2);
    recoverable("hang_at", 2, 1);
    recoverable("hang_at", 5, 2);

    failing("crash_from", 2, UZ_ERR_ENGINE, "attempts");
    failing("hang_from", 2, UZ_ERR_TIMEOUT, "no answer");
    failing("garbage_at", 2, UZ_ERR_ENGINE, "garbage");
    failing("badinfo_at", 2, UZ_ERR_ENGINE, "malformed");
    failing("drop_at", 2, UZ_ERR_ENGINE, "depth");
    failing("illegal_at", 2, UZ_ERR_ENGINE, "a1a1");
    failing("illegal_best_at", 2, UZ_ERR_ENGINE, "bestmove 'a1a1'");
    bound_falls_back();
    failing("long_line_at", 2, UZ_ERR_ENGINE, "longer");
    gives_up_on_hung_engine();
    gives_up_on_engine_that_keeps_hanging();
    one_worker_checks_across_processes();

    /* Slow start-up within the handshake timeout is fine. */
    {
        uz_engine_settings fs;
        fake_settings(&fs);
        set_conf("slow_start", 1500);
        pool = NULL;
        CHECK_RC(uz_pool_create(&pool, &fs, 1, &diag), UZ_OK, &diag);
        if (pool)
            CHECK_RC(run_range(pool, 0, 2, true, &diag), UZ_OK, &diag);
        uz_pool_destroy(pool);
    }
    failing_start(fake, "exit_handshake", 0, 8000, UZ_ERR_ENGINE, "cannot load the network file");
    failing_start(fake, "not_uci", 0, 1500, UZ_ERR_TIMEOUT, "handshake");
    failing_start(fake, "slow_start", 3000, 1000, UZ_ERR_TIMEOUT, "handshake");
    failing_start("/nonexistent/engine", "none", 0, 8000, UZ_ERR_ENGINE, "not found");
    failing_start("/bin/true", "none", 0, 8000, UZ_ERR_ENGINE, "exited with status 0 during the UCI handshake");
    char noexec[400];
    snprintf(noexec, sizeof noexec, "%s/not_executable", dir);
    write_file("not_executable", "#!/bin/sh\n");
    chmod(noexec, 0644);
    failing_start(noexec, "none", 0, 8000, UZ_ERR_ENGINE, "not executable");

    /* Nothing left behind: descriptors and children. */
    int fds_after = count_fds();
    if (fds_after != fds_before) {
        fprintf(stderr, "file descriptors: %d before, %d after\n", fds_before, fds_after);
        uz_test_failed++;
    }
    if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
        fprintf(stderr, "child processes left behind\n");
        uz_test_failed++;
    }
    t_free_fens(fens, n_fens);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "cannot remove %s\n", dir);
    return test_finish();
}
