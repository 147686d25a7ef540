/* A second engine: the Ethereal profile works in multipv mode, reproducibly, and in
 * permove mode (which needs no searchmoves); the legacy searchmoves mode is refused with
 * a clear message (Ethereal silently ignores it), and an option value outside the
 * engine's range is refused before any search. */
#include <errno.h>
#include <sys/wait.h>

#include "engine_test.h"

#define N_POS 20

int main(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/engine/positions.epd", t_env("UZ_TEST_DATA", "tests/data"));
    int n_fens;
    char **fens = t_read_fens(path, &n_fens);
    if (n_fens < N_POS)
        return 1;

    static int32_t first[N_POS][UZ_MAX_MOVES];
    uz_query *q = malloc(sizeof *q);
    uz_diag diag = {0};
    char fp[2][17] = {"", ""};
    for (int run = 0; run < 2; run++) {
        uz_engine_settings s;
        t_settings(&s, "ethereal", 6, UZ_MODE_MULTIPV);
        s.cache_entries = 0;
        uz_pool *pool = NULL;
        CHECK_RC(uz_pool_create(&pool, &s, run + 1, &diag), UZ_OK, &diag);
        if (!pool)
            return test_finish();
        CHECK(strncmp(uz_pool_engine_name(pool), "Ethereal", 8) == 0);
        CHECK(!uz_pool_searchmoves_ok(pool));
        CHECK(uz_pool_settings(pool)->max_multipv == 256);
        snprintf(fp[run], sizeof fp[run], "%s", uz_pool_fingerprint(pool));
        char desc[256];
        uz_pool_describe(pool, desc, sizeof desc);
        printf("%s, fingerprint %s\n", desc, fp[run]);
        /* Run 1 goes backwards, so each position follows a different one. */
        for (int k = 0; k < N_POS; k++) {
            int i = run == 0 ? k : N_POS - 1 - k;
            t_query_fen(q, fens[i]);
            CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
            if (run == 0)
                memcpy(first[i], q->scores, sizeof first[i]);
            else if (memcmp(first[i], q->scores, sizeof(int32_t) * (size_t)q->n_moves) != 0) {
                fprintf(stderr, "Ethereal scores differ for %s\n", fens[i]);
                uz_test_failed++;
            }
        }
        uz_pool_destroy(pool);
    }
    CHECK(strcmp(fp[0], fp[1]) == 0);

    /* permove: one search per move, no searchmoves needed; scores reproducible. */
    uz_engine_settings s;
    uz_pool *pool = NULL;
    int32_t pm[2][UZ_MAX_MOVES];
    for (int run = 0; run < 2; run++) {
        t_settings(&s, "ethereal", 4, UZ_MODE_PERMOVE);
        s.cache_entries = 0;
        CHECK_RC(uz_pool_create(&pool, &s, run + 1, &diag), UZ_OK, &diag);
        if (!pool)
            break;
        t_query_fen(q, fens[1]);
        CHECK_RC(uz_pool_query(pool, q, &diag), UZ_OK, &diag);
        memcpy(pm[run], q->scores, sizeof pm[run]);
        uz_pool_destroy(pool);
        pool = NULL;
    }
    CHECK(memcmp(pm[0], pm[1], sizeof(int32_t) * (size_t)q->n_moves) == 0);

    /* The legacy searchmoves mode (old archives only): Ethereal ignores searchmoves. */
    t_settings(&s, "ethereal", 6, UZ_MODE_SEARCHMOVES);
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_ERR_UNSUPPORTED, &diag);
    CHECK(pool == NULL && strstr(diag.message, "searchmoves") != NULL);
    printf("profile, searchmoves -> %s\n", diag.message);

    /* Run as a plain executable (no profile): the start-up probe finds out. */
    CHECK_RC(uz_engine_settings_from_spec(&s, "/usr/games/ethereal-chess", t_dirs(), &diag), UZ_OK, &diag);
    s.mode = UZ_MODE_SEARCHMOVES;
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_ERR_UNSUPPORTED, &diag);
    CHECK(pool == NULL && strstr(diag.message, "ignores 'go searchmoves'") != NULL);
    CHECK(strstr(diag.message, "/usr/games/ethereal-chess") != NULL);
    printf("executable, searchmoves -> %s\n", diag.message);

    /* Hash 1 crashes Ethereal 12; its declared minimum is 2 and we check it. */
    t_settings(&s, "ethereal", 6, UZ_MODE_MULTIPV);
    s.hash_mb = 1;
    CHECK_RC(uz_pool_create(&pool, &s, 1, &diag), UZ_ERR_ARG, &diag);
    CHECK(pool == NULL && strstr(diag.message, "Hash") != NULL);
    printf("Hash 1 -> %s\n", diag.message);

    free(q);
    t_free_fens(fens, n_fens);
    if (waitpid(-1, NULL, WNOHANG) != -1 || errno != ECHILD) {
        fprintf(stderr, "child processes left behind\n");
        uz_test_failed++;
    }
    return test_finish();
}
