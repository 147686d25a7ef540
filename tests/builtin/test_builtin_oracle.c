/* The builtin as an oracle (engine/oracle.h): its identity (name, fingerprint equal to
 * the hash of the version's constants, settings text), queries answered in submission
 * order from run only (also those submitted from a callback), scores equal to
 * uz_builtin_score_moves', a bad move count failing only its own query. */
#include "builtin/builtin1.h"
#include "builtin/builtin2.h"
#include "builtin/builtin3.h"
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

    /* builtin-2: its own fingerprint, the hash of its own constants */
    uz_oracle *o2 = NULL;
    CHECK(uz_builtin_oracle_create(&o2, 2, 1, &diag) == UZ_OK && o2 != NULL);
    if (o2) {
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)uz__b2_hash_constants(UZ__FNV_START));
        uz_oracle_identity id2 = uz_oracle_identity_of(o2);
        CHECK(strcmp(id2.engine_name, "ucizip builtin-2") == 0, "%s", id2.engine_name);
        CHECK(strcmp(id2.fingerprint, hex) == 0 && strcmp(uz_builtin_fingerprint(2), hex) == 0,
              "fingerprint %s, constants hash %s", id2.fingerprint, hex);
        CHECK(strcmp(id2.fingerprint, id.fingerprint) != 0);
        CHECK(strcmp(id2.settings_text, "builtin = 2\ndepth = 1\n") == 0, "%s", id2.settings_text);
        uz_oracle_destroy(o2);
    }

    /* builtin-3: the hash of builtin-2's constants, its evaluation rule and its network's */
    CHECK(uz_builtin_oracle_create(&o2, 3, 1, &diag) == UZ_OK && o2 != NULL);
    if (o2) {
        snprintf(hex, sizeof hex, "%016llx", (unsigned long long)uz__b3_hash_constants(UZ__FNV_START));
        uz_oracle_identity id3 = uz_oracle_identity_of(o2);
        CHECK(strcmp(id3.engine_name, "ucizip builtin-3") == 0, "%s", id3.engine_name);
        CHECK(strcmp(id3.fingerprint, hex) == 0 && strcmp(uz_builtin_fingerprint(3), hex) == 0,
              "fingerprint %s, constants hash %s", id3.fingerprint, hex);
        CHECK(strcmp(id3.fingerprint, uz_builtin_fingerprint(2)) != 0);
        CHECK(strcmp(id3.settings_text, "builtin = 3\ndepth = 1\n") == 0, "%s", id3.settings_text);
        uz_oracle_destroy(o2);
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
