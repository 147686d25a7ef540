/* The builtin as an oracle (oracle/oracle.h): its identity (name, fingerprint equal to
 * the hash of the version's constants, settings text), queries answered in submission
 * order from run only (also those submitted from a callback), scores equal to
 * uz_builtin_score_moves', a bad move count failing only its own query. */
#include "builtin/v1_search.h"
#include "builtin/v2_search.h"
#include "builtin/v3_eval.h"
#include "builtin_test.h"

typedef struct log_entry {
    int done_calls;
    int order[8];
    uz_query *resubmit; /* submitted again from the first callback */
    uz_oracle *oracle;
} log_entry;

static void on_done(uz_query *q, void *user)
{
    log_entry *log = user;
    if (log->done_calls < 8)
        log->order[log->done_calls] = (int)(q - (uz_query *)log->resubmit);
    log->done_calls++;
    if (log->done_calls == 1) {
        uz_query *again = log->resubmit + 3;
        again->done = on_done;
        again->user = log;
        uz_oracle_submit(log->oracle, again);
    }
}

int main(void)
{
    uz_oracle *o = NULL;
    uz_diag diag = {0};
    CHECK(uz_builtin_oracle_create(&o, 7, 1, &diag) == UZ_ERR_UNSUPPORTED && o == NULL && diag.message[0]);
    CHECK(uz_builtin_oracle_create(&o, 1, 9, &diag) == UZ_ERR_UNSUPPORTED && o == NULL);
    CHECK(uz_builtin_oracle_create(&o, 1, 1, &diag) == UZ_OK && o != NULL);
    if (!o)
        return test_finish();

    char hex[17];
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)uz__b1_hash_constants(UZ__FNV_START));
    uz_oracle_identity id = uz_oracle_identity_of(o);
    CHECK(strcmp(id.engine_name, "ucizip builtin-1") == 0, "%s", id.engine_name);
    CHECK(strcmp(id.fingerprint, hex) == 0, "fingerprint %s, constants hash %s", id.fingerprint, hex);
    CHECK(strcmp(uz_builtin_fingerprint(1), hex) == 0 && strcmp(uz_builtin_fingerprint(UZ_BUILTIN_LATEST + 1), "") == 0);
    CHECK(strcmp(id.settings_text, "builtin = 1\ndepth = 1\n") == 0, "%s", id.settings_text);

    /* builtin-2 and builtin-3: each its own fingerprint, the hash of its own constants
     * (builtin-3's: builtin-2's, its evaluation rule and its network's hash) */
    static uint64_t (*const hash_constants[])(uint64_t) = {uz__b2_hash_constants, uz__b3_hash_constants};
    for (int v = 2; v <= 3; v++) {
        uz_oracle *ov = NULL;
        CHECK(uz_builtin_oracle_create(&ov, v, 1, &diag) == UZ_OK && ov != NULL);
        if (!ov)
            continue;
        char name[32], settings[64];
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)hash_constants[v - 2](UZ__FNV_START));
        snprintf(name, sizeof name, "ucizip builtin-%d", v);
        snprintf(settings, sizeof settings, "builtin = %d\ndepth = 1\n", v);
        uz_oracle_identity idv = uz_oracle_identity_of(ov);
        CHECK(strcmp(idv.engine_name, name) == 0, "%s", idv.engine_name);
        CHECK(strcmp(idv.fingerprint, hex) == 0 && strcmp(uz_builtin_fingerprint(v), hex) == 0,
              "builtin-%d: fingerprint %s, constants hash %s", v, idv.fingerprint, hex);
        CHECK(strcmp(idv.fingerprint, uz_builtin_fingerprint(v - 1)) != 0);
        CHECK(strcmp(idv.settings_text, settings) == 0, "%s", idv.settings_text);
        uz_oracle_destroy(ov);
    }

    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    };
    uz_query *q = calloc(4, sizeof *q);
    log_entry log = {0};
    log.resubmit = q;
    log.oracle = o;
    uz_builtin *direct;
    CHECK(uz_builtin_create(&direct, 1, 1, NULL) == UZ_OK);
    for (int i = 0; i < 4; i++) {
        CHECK(uz_position_from_fen_960(&q[i].pos, fens[i], i == 3, NULL) == UZ_OK, "%s", fens[i]);
        q[i].n_moves = uz_generate_legal(&q[i].pos, q[i].moves);
        q[i].done = on_done;
        q[i].user = &log;
    }
    q[2].n_moves = 0; /* refused: fails this query alone */
    for (int i = 0; i < 3; i++)
        uz_oracle_submit(o, &q[i]);
    CHECK(log.done_calls == 0, "a callback ran inside submit");
    CHECK(uz_oracle_run(o, &diag) == UZ_ERR_ARG && strstr(diag.message, "0 moves"));
    CHECK(log.done_calls == 4 && log.order[0] == 0 && log.order[1] == 1 && log.order[2] == 2 && log.order[3] == 3,
          "%d callbacks", log.done_calls);
    CHECK(q[0].status == UZ_OK && q[1].status == UZ_OK && q[2].status == UZ_ERR_ARG && q[3].status == UZ_OK);
    for (int i = 0; i < 4; i++) {
        if (i == 2)
            continue;
        int32_t scores[UZ_MAX_MOVES];
        uz_builtin_score_moves(direct, &q[i].pos, q[i].moves, q[i].n_moves, scores);
        CHECK(memcmp(scores, q[i].scores, (size_t)q[i].n_moves * sizeof *scores) == 0, "query %d", i);
    }
    CHECK(uz_oracle_run(o, &diag) == UZ_OK, "an empty run");
    uz_builtin_destroy(direct);
    uz_oracle_destroy(o);
    uz_oracle_destroy(NULL);
    free(q);
    return test_finish();
}
