/* Determinism: the corpus positions scored by two separately started pools, one in
 * file order on two workers, one shuffled with other positions interleaved on one
 * worker, give bit-identical scores. Usage: test_engine_determinism MODE DEPTH [N]
 * [--nodes LIMIT] [--out FILE]: --nodes adds a node limit (a search cut short by it
 * must still give the same scores); --out also writes "fen: scores" lines to compare
 * across processes. */
#include "engine_test.h"

static char **fens;
static int n_fens;

typedef struct slot {
    uz_query q;
    int index;  /* position index, or -1 for an interleaved extra position */
    int32_t *result;
} slot;

static int32_t (*results[2])[UZ_MAX_MOVES];
static int remaining_errors;

static void on_done(uz_query *q, void *user)
{
    slot *s = user;
    if (q->status != UZ_OK) {
        remaining_errors++;
        return;
    }
    if (s->result)
        memcpy(s->result, q->scores, sizeof(int32_t) * (size_t)q->n_moves);
}

/* Runs every position through a fresh pool; order = permutation, extras between. */
static void run(const uz_engine_settings *set, int workers, const int *order, bool extras, int which)
{
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, set, workers, &diag), UZ_OK, &diag);
    if (!pool)
        exit(test_finish());
    int total = n_fens * (extras ? 2 : 1);
    slot *slots = calloc((size_t)total, sizeof *slots);
    int k = 0;
    for (int i = 0; i < n_fens; i++) {
        int p = order[i];
        slot *s = &slots[k++];
        t_query_fen(&s->q, fens[p]);
        s->index = p;
        s->result = results[which][p];
        s->q.done = on_done;
        s->q.user = s;
        uz_pool_submit(pool, &s->q);
        if (extras) {
            /* Another position: this one after its first legal move, when it has moves. */
            slot *e = &slots[k++];
            t_query_fen(&e->q, fens[p]);
            uz_undo u;
            uz_make_move(&e->q.pos, e->q.moves[0], &u);
            e->q.n_moves = uz_generate_legal(&e->q.pos, e->q.moves);
            if (e->q.n_moves == 0) {
                k--;
                continue;
            }
            e->index = -1;
            e->q.done = on_done;
            e->q.user = e;
            uz_pool_submit(pool, &e->q);
        }
    }
    CHECK_RC(uz_pool_run(pool, &diag), UZ_OK, &diag);
    uz_pool_stats st;
    uz_pool_get_stats(pool, &st);
    printf("run %d: %d queries, %llu engine searches, %.0f ms engine time, %.0f ms wall\n", which, k,
           (unsigned long long)st.engine_searches, st.search_ms, st.wall_ms);
    free(slots);
    uz_pool_destroy(pool);
}

int main(int argc, char **argv)
{
    uz_engine_mode mode = UZ_MODE_MULTIPV;
    int depth = 6, limit = 200;
    const char *out = NULL;
    long nodes = 0;
    if (argc > 1 && !uz_engine_mode_parse(argv[1], &mode)) {
        fprintf(stderr, "usage: %s multipv|permove [DEPTH [N]] [--nodes LIMIT] [--out FILE]\n", argv[0]);
        return 2;
    }
    if (argc > 2)
        depth = atoi(argv[2]);
    if (argc > 3 && argv[3][0] != '-')
        limit = atoi(argv[3]);
    for (int i = 1; i + 1 < argc; i++)
        if (strcmp(argv[i], "--out") == 0)
            out = argv[i + 1];
        else if (strcmp(argv[i], "--nodes") == 0)
            nodes = atol(argv[i + 1]);

    char path[1024];
    snprintf(path, sizeof path, "%s/engine/positions.epd", t_env("UZ_TEST_DATA", "tests/data"));
    fens = t_read_fens(path, &n_fens);
    int n_fens_all = n_fens;
    if (n_fens > limit)
        n_fens = limit;
    CHECK(n_fens > 0);

    uz_engine_settings s;
    t_settings(&s, "stockfish", depth, mode);
    s.cache_entries = 0; /* every query must reach the engine */
    s.nodes = nodes;
    for (int r = 0; r < 2; r++)
        results[r] = calloc((size_t)n_fens, sizeof *results[r]);

    int *order = malloc(sizeof(int) * (size_t)n_fens);
    for (int i = 0; i < n_fens; i++)
        order[i] = i;
    run(&s, 2, order, false, 0);
    /* Fisher-Yates with a fixed LCG: the same shuffle everywhere. */
    uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = n_fens - 1; i > 0; i--) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int j = (int)((x >> 33) % (uint64_t)(i + 1));
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    run(&s, 1, order, true, 1);
    CHECK(remaining_errors == 0);

    int differing = 0;
    for (int i = 0; i < n_fens; i++) {
        uz_query q;
        t_query_fen(&q, fens[i]);
        if (memcmp(results[0][i], results[1][i], sizeof(int32_t) * (size_t)q.n_moves) != 0) {
            if (differing++ < 5)
                fprintf(stderr, "scores differ for %s\n", fens[i]);
        }
    }
    CHECK(differing == 0);
    printf("%s depth %d nodes %ld: %d positions, %d differing\n", uz_engine_mode_name(mode), depth, nodes, n_fens,
           differing);

    if (out) {
        FILE *f = fopen(out, "w");
        CHECK(f != NULL);
        for (int i = 0; f && i < n_fens; i++) {
            uz_query q;
            t_query_fen(&q, fens[i]);
            fprintf(f, "%s:", fens[i]);
            for (int m = 0; m < q.n_moves; m++)
                fprintf(f, " %d", (int)results[0][i][m]);
            fputc('\n', f);
        }
        if (f)
            fclose(f);
    }
    free(order);
    free(results[0]);
    free(results[1]);
    t_free_fens(fens, n_fens_all);
    return test_finish();
}
