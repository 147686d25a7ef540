/* Benchmark of the engine bridge: time per position for one mode and depth on corpus
 * positions, pool start-up time, and our wall time against the engine's own search
 * time. Usage: bench_engine MODE DEPTH [N [WORKERS [PROFILE]]]; prints one line of
 * key=value pairs (scripts/bench_engine.sh makes a table of them). */
#include <time.h>

#include "engine_test.h"

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    uz_engine_mode mode;
    if (argc < 3 || !uz_engine_mode_parse(argv[1], &mode)) {
        fprintf(stderr, "usage: %s multipv|permove DEPTH [N [WORKERS [PROFILE]]]\n", argv[0]);
        return 2;
    }
    int depth = atoi(argv[2]);
    int n = argc > 3 ? atoi(argv[3]) : 50;
    int workers = argc > 4 ? atoi(argv[4]) : 1;
    const char *profile = argc > 5 ? argv[5] : "stockfish";
    char path[1024];
    snprintf(path, sizeof path, "%s/engine/positions.epd", t_env("UZ_TEST_DATA", "tests/data"));
    int n_fens;
    char **fens = t_read_fens(path, &n_fens);
    if (n > n_fens)
        n = n_fens;

    uz_engine_settings s;
    t_settings(&s, profile, depth, mode);
    s.cache_entries = 0; /* measure the engine, not the cache */
    s.timeout_ms = 600000;
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    double t0 = now_ms();
    if (uz_pool_create(&pool, &s, workers, &diag) != UZ_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    double startup = now_ms() - t0;
    uz_query *qs = calloc((size_t)n, sizeof *qs);
    /* Spread over the file: every k-th position. */
    int step = n_fens / n;
    for (int i = 0; i < n; i++) {
        t_query_fen(&qs[i], fens[i * step]);
        uz_pool_submit(pool, &qs[i]);
    }
    t0 = now_ms();
    if (uz_pool_run(pool, &diag) != UZ_OK) {
        fprintf(stderr, "%s\n", diag.message);
        return 1;
    }
    double wall = now_ms() - t0;
    uz_pool_stats st;
    uz_pool_get_stats(pool, &st);
    long moves = 0;
    for (int i = 0; i < n; i++)
        moves += qs[i].n_moves;
    printf("mode=%s depth=%d positions=%d moves=%ld workers=%d startup_ms=%.1f ms_per_pos=%.2f "
           "search_ms_per_pos=%.2f go_ms_per_pos=%.2f clear_ms_per_pos=%.2f searches=%llu "
           "wall_over_search=%.3f wall_over_go_clear=%.3f\n",
           uz_engine_mode_name(mode), depth, n, moves, workers, startup, wall / n, st.search_ms / n,
           st.go_ms / n, st.clear_ms / n, (unsigned long long)st.engine_searches,
           st.search_ms > 0 ? wall * workers / st.search_ms : 0.0,
           st.go_ms + st.clear_ms > 0 ? wall * workers / (st.go_ms + st.clear_ms) : 0.0);
    free(qs);
    uz_pool_destroy(pool);
    t_free_fens(fens, n_fens);
    return 0;
}
