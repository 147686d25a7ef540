/* The oracle module on its own (linked with nothing above the board): the options turned
 * into an oracle specification (the builtin's names, the search settings a UCI engine
 * takes and the builtin refuses, workers), and the engine-less oracles working together:
 * synthetic scores through a router, recorded into a score table and replayed from it. */
#include <string.h>

#include "chess/board.h"
#include "oracle/oracle.h"
#include "oracle/oracle_spec.h"

#include "../common/uz_test.h"

static void check_spec(void)
{
    int v = -1;
    CHECK(uz_oracle_spec_builtin("builtin", &v) && v == 0, "builtin: %d", v);
    CHECK(uz_oracle_spec_builtin("builtin-3", &v) && v == 3, "builtin-3: %d", v);
    CHECK(uz_oracle_spec_builtin("builtin-12", &v) && v == 12, "builtin-12: %d", v);
    const char *not_builtin[] = {NULL, "", "stockfish", "builtin-", "builtin-0", "builtin-01", "builtin-2x", "builtinx",
                                 "Builtin", "builtin-99999999999"};
    for (size_t i = 0; i < sizeof not_builtin / sizeof *not_builtin; i++)
        CHECK(!uz_oracle_spec_builtin(not_builtin[i], &v), "'%s' named the builtin", not_builtin[i]);

    uz_options o;
    memset(&o, 0, sizeof o);
    uz_oracle_spec spec;
    uz_diag d = {0};
    uz_oracle_spec_from_options(&o, &spec);
    CHECK(uz_oracle_spec_check(&spec, &d) == UZ_OK);
    CHECK(spec.kind == UZ_ORACLE_UCI && spec.engine == NULL && spec.depth == 0 && spec.workers >= 1 &&
          spec.workers <= 64, "defaults: kind %d, workers %d", (int)spec.kind, spec.workers);

    o.engine = "ethereal";
    o.depth = 7;
    o.nodes = 5000;
    o.mode = "permove";
    o.hash_mb = 16;
    o.workers = 3;
    o.cache_path = "scores.lmdb";
    uz_oracle_spec_from_options(&o, &spec);
    CHECK(uz_oracle_spec_check(&spec, &d) == UZ_OK);
    CHECK(spec.kind == UZ_ORACLE_UCI && strcmp(spec.engine, "ethereal") == 0 && spec.depth == 7 &&
          spec.nodes == 5000 && strcmp(spec.mode, "permove") == 0 && spec.hash_mb == 16 && spec.workers == 3 &&
          strcmp(spec.cache_path, "scores.lmdb") == 0);

    /* The builtin takes a depth only: the specification says what was asked, the check
     * refuses it with one message, whichever setting it is. */
    const char *fields[] = {"nodes", "mode", "hash"};
    for (int i = 0; i < 3; i++) {
        memset(&o, 0, sizeof o);
        o.engine = "builtin-2";
        o.depth = 2;
        o.nodes = i == 0 ? 100 : 0;
        o.mode = i == 1 ? "multipv" : NULL;
        o.hash_mb = i == 2 ? 1 : 0;
        memset(&d, 0, sizeof d);
        uz_oracle_spec_from_options(&o, &spec);
        CHECK(spec.kind == UZ_ORACLE_BUILTIN && spec.builtin_version == 2 && spec.nodes == o.nodes &&
              spec.hash_mb == o.hash_mb && spec.mode == o.mode);
        CHECK(uz_oracle_spec_check(&spec, &d) == UZ_ERR_ARG &&
                  strcmp(d.message, "the builtin takes a depth only (no nodes, mode or hash)") == 0,
              "builtin with %s: %s", fields[i], d.message);
    }
    memset(&o, 0, sizeof o);
    o.engine = "builtin-2";
    o.depth = 2;
    o.workers = 1;
    o.cache_path = "ignored.lmdb";
    uz_oracle_spec_from_options(&o, &spec);
    CHECK(uz_oracle_spec_check(&spec, &d) == UZ_OK);
    CHECK(spec.kind == UZ_ORACLE_BUILTIN && spec.builtin_version == 2 && spec.depth == 2 && spec.workers == 1 &&
          !spec.engine && !spec.cache_path);
}

static void done(uz_query *q, void *user)
{
    (void)q;
    (*(int *)user)++;
}

/* One query of pos through o; its scores in scores. */
static uz_result ask(uz_oracle *o, const uz_position *pos, int32_t *scores, int *n)
{
    uz_query q;
    memset(&q, 0, sizeof q);
    q.pos = *pos;
    q.n_moves = *n = uz_generate_legal(pos, q.moves);
    int calls = 0;
    q.done = done;
    q.user = &calls;
    uz_diag d = {0};
    uz_oracle_submit(o, &q);
    uz_result r = uz_oracle_run(o, &d);
    CHECK(calls == 1 && r == q.status, "%d callbacks, run %d, query %d", calls, (int)r, (int)q.status);
    memcpy(scores, q.scores, sizeof q.scores);
    return q.status;
}

static void check_oracles(void)
{
    uz_position start, c960;
    uz_diag d = {0};
    uz_position_startpos(&start);
    CHECK(uz_position_from_fen_960(&c960, "bnrbkrqn/pppppppp/8/8/8/8/PPPPPPPP/BNRBKRQN w KQkq - 0 1", true, &d) ==
              UZ_OK,
          "%s", d.message);
    uz_oracle *synthetic = NULL, *route = NULL, *recorder = NULL, *replay = NULL;
    uz_score_table *table = NULL;
    CHECK(uz_oracle_synthetic_create(&synthetic) == UZ_OK && uz_score_table_create(&table) == UZ_OK);
    CHECK(uz_oracle_route_create(&route, synthetic, NULL) == UZ_OK);
    CHECK(uz_oracle_record_create(&recorder, route, table) == UZ_OK);
    int32_t direct[UZ_MAX_MOVES], recorded[UZ_MAX_MOVES], replayed[UZ_MAX_MOVES];
    int n = 0, n2 = 0;
    CHECK(ask(synthetic, &start, direct, &n) == UZ_OK && n == 20, "%d moves", n);
    CHECK(ask(recorder, &start, recorded, &n2) == UZ_OK && n2 == n);
    CHECK(memcmp(direct, recorded, (size_t)n * sizeof *direct) == 0, "the router changed the scores");
    /* No Chess960 side: the router refuses such a position, and nothing is recorded of it. */
    CHECK(ask(recorder, &c960, recorded, &n2) == UZ_ERR_ARG);
    CHECK(uz_score_table_count(table) == 1, "%zu entries", uz_score_table_count(table));
    CHECK(uz_oracle_replay_create(&replay, table) == UZ_OK);
    CHECK(ask(replay, &start, replayed, &n2) == UZ_OK && n2 == n &&
          memcmp(direct, replayed, (size_t)n * sizeof *direct) == 0);
    CHECK(ask(replay, &c960, replayed, &n2) == UZ_ERR_MISMATCH);
    uz_oracle_destroy(replay);
    uz_oracle_destroy(recorder);
    uz_oracle_destroy(route);
    uz_oracle_destroy(synthetic);
    uz_score_table_destroy(table);
}

int main(void)
{
    check_spec();
    check_oracles();
    return test_finish();
}
