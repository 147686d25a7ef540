/* Engine bridge with real Stockfish: both modes, trivial and mate positions, cache,
 * chained asynchronous queries, settings text and fingerprint, argument errors; permove
 * scores against the engine's own output; settings that break determinism refused; a
 * pool idle for longer than its timeout takes no engine for hung. */
#include <errno.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine_test.h"

static const char *const fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 w - - 0 42",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
};
#define N_FENS 4

static int find_move(const uz_query *q, const char *uci)
{
    for (int i = 0; i < q->n_moves; i++) {
        char t[UZ_UCI_MAX];
        uz_move_to_uci(q->moves[i], t);
        if (strcmp(t, uci) == 0)
            return i;
    }
    return -1;
}

static void test_modes(void)
{
    /* searchmoves: the mode of older archives, which must still decode. */
    static const uz_engine_mode modes[] = {UZ_MODE_MULTIPV, UZ_MODE_PERMOVE, UZ_MODE_SEARCHMOVES};
    for (int k = 0; k < 3; k++) {
        uz_engine_mode mode = modes[k];
        uz_engine_settings s;
        t_settings(&s, "stockfish", 5, mode);
        uz_pool *pool = NULL;
        uz_diag diag = {0};
        CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
        if (!pool)
            return;
        CHECK(strncmp(uz_pool_engine_name(pool), "Stockfish", 9) == 0);
        CHECK(strlen(uz_pool_fingerprint(pool)) == 16);
        CHECK(uz_pool_searchmoves_ok(pool));
        uz_query *q = malloc(sizeof *q);
        for (int i = 0; i < N_FENS; i++) {
            t_query_fen(q, fens[i]);
            for (int m = 0; m < q->n_moves; m++)
                q->scores[m] = INT32_MIN;
            CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
            for (int m = 0; m < q->n_moves; m++)
                CHECK(q->scores[m] > -UZ_SCORE_MATE - 1000 && q->scores[m] < UZ_SCORE_MATE + 1000);
        }
        /* The start position: e2e4 is much better than a2a4? Both near 0; g1h3 < e2e4. */
        t_query_fen(q, fens[0]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        CHECK(q->scores[find_move(q, "e2e4")] > q->scores[find_move(q, "g1h3")]);

        uz_pool_stats st;
        uz_pool_get_stats(pool, &st);
        CHECK(st.queries == N_FENS + 1);
        CHECK(st.cache_hits == 1); /* the start position again */
        CHECK(st.engine_queries == N_FENS);
        CHECK(st.search_ms >= 0);
        if (mode != UZ_MODE_MULTIPV)
            CHECK(st.engine_searches >= 20 + 36);
        else
            CHECK(st.engine_searches == N_FENS);
        free(q);
        uz_pool_destroy(pool);
    }
}

static void test_special_positions(void)
{
    uz_engine_settings s;
    t_settings(&s, "stockfish", 8, UZ_MODE_MULTIPV);
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
    if (!pool)
        return;
    uz_query *q = malloc(sizeof *q);
    uz_pool_stats before, after;

    /* One legal move (Kh8-h7): answered without asking the engine. */
    uz_pool_get_stats(pool, &before);
    t_query_fen(q, "7k/8/8/8/8/8/6R1/5R1K b - - 0 1");
    CHECK(q->n_moves == 1);
    q->scores[0] = 123;
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    CHECK(q->scores[0] == 0);
    uz_pool_get_stats(pool, &after);
    CHECK(after.engine_searches == before.engine_searches);
    CHECK(after.trivial == before.trivial + 1);

    /* Mate in 2 for White: 1.Nf6+ gxf6 2.Bxf7#. */
    t_query_fen(q, "r2qkb1r/pp2nppp/3p4/2pNN1B1/2BnP3/3P4/PPP2PPP/R2bK2R w KQkq - 1 1");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    CHECK(q->scores[find_move(q, "d5f6")] == UZ_SCORE_MATE - 2);
    for (int m = 0; m < q->n_moves; m++)
        CHECK(q->scores[m] <= UZ_SCORE_MATE - 2);
    /* After 1.f3 e5, 2.g4 allows Qh4#: the mover is mated in 1. */
    t_query_fen(q, "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    CHECK(q->scores[find_move(q, "g2g4")] == -UZ_SCORE_MATE + 1);
    CHECK(q->scores[find_move(q, "e2e4")] > -UZ_SCORE_CP_MAX);
    /* Scholar's mate available: Qxf7# is mate in 1. */
    t_query_fen(q, "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    CHECK(q->scores[find_move(q, "h5f7")] == UZ_SCORE_MATE - 1);

    /* No legal moves, or more than a position can have: argument errors. (The list itself
     * is trusted: the walk generates it once per position.) */
    t_query_fen(q, "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3");
    CHECK(q->n_moves == 0);
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_ERR_ARG, &diag);
    t_query_fen(q, fens[0]);
    q->n_moves = UZ_MAX_MOVES + 1;
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_ERR_ARG, &diag);

    /* The fullmove number is not part of the query: same scores, and a cache hit. */
    int32_t a[UZ_MAX_MOVES];
    t_query_fen(q, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    memcpy(a, q->scores, sizeof a);
    uz_pool_get_stats(pool, &before);
    t_query_fen(q, "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 40");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    uz_pool_get_stats(pool, &after);
    CHECK(after.cache_hits == before.cache_hits + 1);
    CHECK(memcmp(a, q->scores, sizeof(int32_t) * (size_t)q->n_moves) == 0);
    /* The halfmove clock is: near the 50-move limit a winning endgame becomes a draw. */
    t_query_fen(q, "8/8/4k3/8/2R5/4K3/8/8 w - - 0 60");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    memcpy(a, q->scores, sizeof a);
    t_query_fen(q, "8/8/4k3/8/2R5/4K3/8/8 w - - 99 60");
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    CHECK(memcmp(a, q->scores, sizeof(int32_t) * (size_t)q->n_moves) != 0);
    free(q);
    uz_pool_destroy(pool);
}

/* A position with more legal moves than max_multipv is split into chunks searched
 * with searchmoves; every move still gets a score, reproducibly. */
static void test_chunked(void)
{
    int32_t first[UZ_MAX_MOVES];
    uz_query *q = malloc(sizeof *q);
    for (int run = 0; run < 2; run++) {
        uz_engine_settings s;
        t_settings(&s, "stockfish", 5, UZ_MODE_MULTIPV);
        s.max_multipv = 7;
        s.cache_entries = 0;
        uz_pool *pool = NULL;
        uz_diag diag = {0};
        CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
        if (!pool)
            break;
        CHECK(strstr(uz_pool_settings_text(pool), "max_multipv=7\n") != NULL);
        t_query_fen(q, fens[1]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        uz_pool_stats st;
        uz_pool_get_stats(pool, &st);
        CHECK(st.engine_searches == (uint64_t)(q->n_moves + 6) / 7);
        if (run == 0)
            memcpy(first, q->scores, sizeof first);
        else
            CHECK(memcmp(first, q->scores, sizeof(int32_t) * (size_t)q->n_moves) == 0);
        uz_pool_destroy(pool);
    }
    free(q);
}

/* Games as state machines: each done callback submits the game's next position,
 * as the decoder does. Results must equal one-at-a-time queries. */
typedef struct game {
    uz_query q;
    int next;
    int stride;
    uint32_t sum;
    int errors;
} game;

static char **g_fens;
static int g_nfens;

static uz_pool *g_pool;

static void game_done2(uz_query *q, void *user)
{
    game *g = user;
    if (q->status != UZ_OK) {
        g->errors++;
        return;
    }
    for (int i = 0; i < q->n_moves; i++)
        g->sum = g->sum * 31u + (uint32_t)q->scores[i];
    g->next += g->stride;
    if (g->next < 24) {
        t_query_fen(q, g_fens[g->next]);
        q->done = game_done2;
        q->user = g;
        uz_pool_submit(g_pool, q);
    }
}

static void test_async(void)
{
    g_fens = t_read_fens(t_env("UZ_ENGINE_POSITIONS", "tests/data/engine/positions.epd"), &g_nfens);
    CHECK(g_nfens >= 24);
    uint32_t expect[3] = {0, 0, 0};
    uz_engine_settings s;
    t_settings(&s, "stockfish", 4, UZ_MODE_MULTIPV);
    uz_diag diag = {0};
    /* Reference: one query at a time on one worker. */
    CHECK_RC(uz_pool_create(&g_pool, &s, 1, &diag), UZ_OK, &diag);
    if (!g_pool)
        return;
    uz_query *q = malloc(sizeof *q);
    for (int g = 0; g < 3; g++)
        for (int i = g; i < 24; i += 3) {
            t_query_fen(q, g_fens[i]);
            CHECK_RC(uz_pool_query(g_pool, q, &diag), UZ_OK, &diag);
            for (int m = 0; m < q->n_moves; m++)
                expect[g] = expect[g] * 31u + (uint32_t)q->scores[m];
        }
    free(q);
    uz_pool_destroy(g_pool);

    /* Three games on two workers, chained through callbacks. */
    CHECK_RC(uz_pool_create(&g_pool, &s, 2, &diag), UZ_OK, &diag);
    if (!g_pool)
        return;
    game *games = calloc(3, sizeof *games);
    for (int g = 0; g < 3; g++) {
        games[g].next = g;
        games[g].stride = 3;
        t_query_fen(&games[g].q, g_fens[g]);
        games[g].q.done = game_done2;
        games[g].q.user = &games[g];
        uz_pool_submit(g_pool, &games[g].q);
    }
    CHECK_RC(uz_pool_run(g_pool, &diag), UZ_OK, &diag);
    for (int g = 0; g < 3; g++) {
        CHECK(games[g].errors == 0);
        CHECK(games[g].next >= 24);
        CHECK(games[g].sum == expect[g]);
    }
    /* Many games starting from the same position: one engine search answers all. */
    uz_pool_stats before, after;
    uz_pool_get_stats(g_pool, &before);
    game *same = calloc(8, sizeof *same);
    for (int g = 0; g < 8; g++) {
        same[g].next = 100;
        t_query_fen(&same[g].q, "rnbqkbnr/pppp1ppp/8/4p3/2P5/8/PP1PPPPP/RNBQKBNR w KQkq e6 0 2");
        same[g].q.done = game_done2;
        same[g].q.user = &same[g];
        uz_pool_submit(g_pool, &same[g].q);
    }
    CHECK_RC(uz_pool_run(g_pool, &diag), UZ_OK, &diag);
    uz_pool_get_stats(g_pool, &after);
    CHECK(after.engine_queries == before.engine_queries + 1);
    CHECK(after.cache_hits + after.coalesced == before.cache_hits + before.coalesced + 7);
    for (int g = 1; g < 8; g++)
        CHECK(same[g].sum == same[0].sum);
    free(same);
    free(games);
    uz_pool_destroy(g_pool);
    g_pool = NULL;
    t_free_fens(g_fens, g_nfens);
}

static void test_settings_text(void)
{
    uz_engine_settings s, s2;
    uz_diag diag = {0};
    t_settings(&s, "stockfish", 3, UZ_MODE_MULTIPV);
    uz_pool *a = NULL, *b = NULL;
    CHECK_RC(uz_pool_create(&a, &s, 1, &diag), UZ_OK, &diag);
    CHECK_RC(uz_pool_create(&b, &s, 2, &diag), UZ_OK, &diag);
    if (a && b) {
        CHECK(strcmp(uz_pool_fingerprint(a), uz_pool_fingerprint(b)) == 0);
        char desc[256];
        uz_pool_describe(a, desc, sizeof desc);
        CHECK(strstr(desc, "Stockfish") && strstr(desc, "depth 3") && strstr(desc, "multipv") &&
              strstr(desc, "Hash 1;") && strstr(desc, "Threads 1"));
        /* The settings text rebuilds the same search settings. */
        uz_engine_settings_default(&s2);
        s2.depth = 9;
        s2.hash_mb = 64;
        CHECK_RC(uz_engine_settings_apply_text(&s2, uz_pool_settings_text(a), &diag), UZ_OK, &diag);
        CHECK(s2.depth == 3 && s2.hash_mb == 1 && s2.threads == 1 && s2.mode == UZ_MODE_MULTIPV);
        CHECK_RC(uz_engine_settings_apply_text(&s2, "depth=x\n", &diag), UZ_ERR_SYNTAX, &diag);
        /* An archive's settings text may name only search settings and allowed options:
         * no file paths, no resource limits. */
        static const char *const refused[] = {"option.Debug Log File=/tmp/uz_log\n", "option.EvalFile=x.nnue\n",
                                              "option.SyzygyPath=/tmp\n", "cache_entries=100000000\n",
                                              "timeout_ms=100000000\n", "clear=option:Debug Log File\n",
                                              "option.Skill Level=3\n", NULL};
        for (int i = 0; refused[i]; i++) {
            uz_engine_settings_default(&s2);
            uz_engine_settings before = s2;
            CHECK_RC(uz_engine_settings_apply_text(&s2, refused[i], &diag), UZ_ERR_UNSUPPORTED, &diag);
            CHECK(strstr(diag.message, "refused") != NULL);
            CHECK(s2.n_options == 0 && s2.cache_entries == before.cache_entries &&
                  s2.timeout_ms == before.timeout_ms);
        }
        uz_engine_settings_default(&s2);
        CHECK_RC(uz_engine_settings_apply_text(&s2, "option.UCI_Chess960=true\noption.Hash=4\n", &diag), UZ_OK,
                 &diag);
        CHECK(s2.n_options == 1 && s2.hash_mb == 4);
        /* protocol 2 is known; a later one is refused as a syntax error. */
        CHECK_RC(uz_engine_settings_apply_text(&s2, "protocol=2\n", &diag), UZ_OK, &diag);
        CHECK(s2.protocol == 2);
        CHECK_RC(uz_engine_settings_apply_text(&s2, "protocol=99\n", &diag), UZ_ERR_SYNTAX, &diag);
    }
    uz_pool_destroy(b);
    b = NULL;
    /* Any setting the scores depend on changes the fingerprint. */
    s2 = s;
    s2.depth = 4;
    CHECK_RC(uz_pool_create(&b, &s2, 1, &diag), UZ_OK, &diag);
    if (a && b)
        CHECK(strcmp(uz_pool_fingerprint(a), uz_pool_fingerprint(b)) != 0);
    uz_pool_destroy(b);
    b = NULL;
    s2 = s;
    s2.hash_mb = 32;
    CHECK_RC(uz_pool_create(&b, &s2, 1, &diag), UZ_OK, &diag);
    if (a && b)
        CHECK(strcmp(uz_pool_fingerprint(a), uz_pool_fingerprint(b)) != 0);
    uz_pool_destroy(b);
    uz_pool_destroy(a);
    uz_pool_destroy(NULL);

    /* Profiles: lookup by name, by file, errors. */
    CHECK_RC(uz_engine_profile_load(&s, "no-such-engine", t_dirs(), &diag), UZ_ERR_IO, &diag);
    CHECK(strstr(diag.message, "no-such-engine") != NULL);
    CHECK_RC(uz_engine_settings_from_spec(&s, "stockfish", t_dirs(), &diag), UZ_OK, &diag);
    CHECK(strcmp(s.profile, "stockfish") == 0 && s.hash_mb == 1 && s.depth == 1);
    CHECK_RC(uz_engine_settings_from_spec(&s, "/usr/games/stockfish", t_dirs(), &diag), UZ_OK, &diag);
    /* The program a profile names, given as a path: that profile's settings (same fingerprint). */
    CHECK(strcmp(s.path, "/usr/games/stockfish") == 0 && strcmp(s.profile, "stockfish") == 0 && s.hash_mb == 1);
    /* With no profile directory the compiled-in profiles still name the program... */
    const char *no_dirs[] = {NULL};
    CHECK_RC(uz_engine_settings_from_spec(&s, "/usr/games/stockfish", no_dirs, &diag), UZ_OK, &diag);
    CHECK(strcmp(s.path, "/usr/games/stockfish") == 0 && strcmp(s.profile, "stockfish") == 0 && s.hash_mb == 1);
    /* ...and a program no profile names runs with the built-in defaults. */
    CHECK_RC(uz_engine_settings_from_spec(&s, "/bin/sh", no_dirs, &diag), UZ_OK, &diag);
    CHECK(strcmp(s.path, "/bin/sh") == 0 && s.profile[0] == '\0' && s.hash_mb == 16);
    const char *dirs[8];
    CHECK(uz_engine_default_dirs(dirs, 8) >= 1);
    CHECK(dirs[0] != NULL);

    /* A profile whose name does not fit is refused, not cut (a cut name matches others). */
    char path[] = "/tmp/uz_long_nameXXXXXX.profile";
    int fd = mkstemps(path, 8);
    CHECK(fd >= 0);
    if (fd >= 0) {
        FILE *f = fdopen(fd, "w");
        fprintf(f, "name = Stockfish%0*d\nexe = /usr/games/stockfish\n", UZ_ENGINE_NAME_MAX, 0);
        fclose(f);
        CHECK_RC(uz_engine_profile_load(&s, path, t_dirs(), &diag), UZ_ERR_LIMIT, &diag);
        CHECK(strstr(diag.message, "name longer than") != NULL, "%s", diag.message);
        unlink(path);
    }
}

/* The engine's own answer, without the bridge: a fresh Stockfish (Hash 1, Threads 1) is
 * given "position fen F moves M" and "go depth D"; returns the score of its last info
 * line in the bridge's convention (the side to move after M). */
static int32_t raw_child_score(const char *fen, const char *move, int depth)
{
    int to[2], from[2];
    if (pipe(to) != 0 || pipe(from) != 0)
        return INT32_MIN;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl("/usr/games/stockfish", "stockfish", (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    FILE *in = fdopen(to[1], "w"), *out = fdopen(from[0], "r");
    fprintf(in, "uci\nsetoption name Threads value 1\nsetoption name Hash value 1\nucinewgame\nisready\n"
                "position fen %s moves %s\ngo depth %d\n", fen, move, depth);
    fflush(in);
    char line[4096];
    int32_t score = INT32_MIN;
    while (fgets(line, sizeof line, out)) {
        const char *sc = strstr(line, " score ");
        long v;
        if (strncmp(line, "info depth ", 11) == 0 && sc) {
            if (sscanf(sc, " score cp %ld", &v) == 1)
                score = uz_engine_score_from_uci(false, v);
            else if (sscanf(sc, " score mate %ld", &v) == 1)
                score = uz_engine_score_from_uci(true, v);
        }
        if (strncmp(line, "bestmove", 8) == 0)
            break;
    }
    fputs("quit\n", in);
    fclose(in);
    fclose(out);
    waitpid(pid, NULL, 0);
    return score;
}

/* permove: every move's score is the engine's score of the position after it, searched
 * at depth D-1, negated; moves that mate are scored without the engine. */
static void test_permove_against_engine(void)
{
    uz_engine_settings s;
    t_settings(&s, "stockfish", 5, UZ_MODE_PERMOVE);
    s.cache_entries = 0;
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 2, &diag), UZ_OK, &diag);
    if (!pool)
        return;
    uz_query *q = malloc(sizeof *q);
    const char *const positions[] = {
        "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3", /* after 1.e4 e5 2.Nf3 Nc6 */
        fens[2],
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", /* Qxf7# among the moves */
    };
    int compared = 0;
    for (int p = 0; p < 3; p++) {
        t_query_fen(q, positions[p]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        for (int m = 0; m < q->n_moves; m++) {
            char uci[UZ_UCI_MAX];
            uz_move_to_uci(q->moves[m], uci);
            if (p == 2 && strcmp(uci, "h5f7") == 0) {
                CHECK(q->scores[m] == UZ_SCORE_MATE); /* mates at once: best of all */
                continue;
            }
            /* Every move of the first position, every fourth of the others. */
            if (p > 0 && m % 4 != 0)
                continue;
            int32_t raw = raw_child_score(positions[p], uci, 4);
            CHECK(raw != INT32_MIN);
            if (q->scores[m] != -raw)
                fprintf(stderr, "%s %s: bridge %d, engine %d negated\n", positions[p], uci, (int)q->scores[m],
                        (int)-raw);
            CHECK(q->scores[m] == -raw);
            compared++;
        }
    }
    CHECK(compared > 30);
    /* 3.Nc3 is an ordinary developing move: close to equal, not the +4.57 the old
     * searchmoves mode gave it. */
    t_query_fen(q, positions[0]);
    CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    int nc3 = find_move(q, "b1c3");
    CHECK(nc3 >= 0 && q->scores[nc3] > -100 && q->scores[nc3] < 100);
    free(q);
    uz_pool_destroy(pool);
    /* Depth 1 would mean a depth-0 search of each move: refused with a reason. */
    t_settings(&s, "stockfish", 1, UZ_MODE_PERMOVE);
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_ERR_ARG, &diag);
    CHECK(pool == NULL && strstr(diag.message, "depth 2") != NULL);
}

/* Settings known to make the scores irreproducible are refused before any engine starts. */
static void test_threads_refused(void)
{
    uz_engine_settings s;
    t_settings(&s, "stockfish", 3, UZ_MODE_MULTIPV);
    s.threads = 2;
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_ERR_ARG, &diag);
    CHECK(pool == NULL && strstr(diag.message, "Threads 2 refused") != NULL);
    printf("Threads 2 -> %s\n", diag.message);
}

/* A pool left idle for longer than its timeout between runs (as one pool of a routing
 * oracle while the other runs): the next search's timer counts from its start, so the
 * engine is not taken for hung and restarted. */
static void test_idle_past_timeout(void)
{
    uz_engine_settings s;
    t_settings(&s, "stockfish", 1, UZ_MODE_MULTIPV);
    s.timeout_ms = 4000; /* ample for a depth-1 search on a loaded machine */
    uz_pool *pool = NULL;
    uz_diag diag = {0};
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_OK, &diag);
    if (!pool)
        return;
    uz_query *q = malloc(sizeof *q);
    for (int i = 1; i <= 2; i++) {
        if (i == 2)
            usleep(5000 * 1000);
        t_query_fen(q, fens[i]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
    }
    uz_pool_stats st;
    uz_pool_get_stats(pool, &st);
    CHECK(st.restarts == 0, "%llu restarts after an idle pool's query", (unsigned long long)st.restarts);
    free(q);
    uz_pool_destroy(pool);
}

int main(void)
{
    test_modes();
    test_special_positions();
    test_chunked();
    test_async();
    test_settings_text();
    test_permove_against_engine();
    test_threads_refused();
    test_idle_past_timeout();
    if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
        fprintf(stderr, "child processes left behind\n");
        uz_test_failed++;
    }
    return test_finish();
}
