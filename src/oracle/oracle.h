/* The oracle: where the codec gets the scores of a position's legal moves. The encoder
 * and the decoder ask it for every score they need, through one asynchronous interface:
 * submit queries, then run until every query (also those submitted from completion
 * callbacks) is answered.
 *
 * Implementations:
 *   - the engine pool (uz_pool_oracle in engine/engine.h), the real one;
 *   - a recording oracle, which answers through another oracle and keeps every answer in
 *     a score table, and a replaying oracle, which answers from such a table alone (a
 *     table can be saved to a file and loaded again): a cache in front of the engine,
 *     and recorded scores for tests and fuzzing;
 *   - a synthetic oracle: deterministic made-up scores (fuzzing the decoder);
 *   - a routing oracle, which answers standard positions through one oracle and Chess960
 *     positions through another (an engine in Chess960 mode): the codec holds one oracle
 *     whatever games it codes. The oracle set (gamecode/oracle_set.h) owns such a router
 *     and the engines behind it. The builtin answers both kinds itself.
 *
 * Threading: none of it is thread-safe; callbacks run on the caller's thread, from
 * inside uz_oracle_run only (a query's optional work may run on the oracle's threads,
 * see uz_query). */
#ifndef UCIZIP_ORACLE_H
#define UCIZIP_ORACLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chess/board.h"
#include "common/common.h"

/* Score convention (mover's point of view), of every oracle:
 *   centipawns X          -> X clamped to [-UZ_SCORE_CP_MAX, +UZ_SCORE_CP_MAX]
 *   we mate in N moves    -> UZ_SCORE_MATE - N   (N >= 1)
 *   we are mated in N     -> -UZ_SCORE_MATE + N  (N >= 0)
 * so every mate score lies beyond every centipawn score, and faster mates are better
 * (the engine bridge maps UCI's "score cp X" / "score mate N" to it). */
#define UZ_SCORE_MATE 100000
#define UZ_SCORE_CP_MAX (UZ_SCORE_MATE / 2)

/* Longest engine name an identity carries, with its terminating NUL. */
#define UZ_ORACLE_NAME_MAX 128

typedef struct uz_query uz_query;
struct uz_query {
    uz_position pos;              /* in: the position */
    uz_move moves[UZ_MAX_MOVES];  /* in: its legal moves in canonical order (uz_generate_legal) */
    int n_moves;                  /* in: >= 1 */
    int32_t scores[UZ_MAX_MOVES]; /* out: scores[i] is the score of moves[i], mover's view */
    uz_result status;             /* out: UZ_OK or the error that ended this query */
    /* Called once per submitted query from within the run call (never from inside
     * submit). It may submit more queries, including q itself again. Must not call run
     * or destroy the oracle. */
    void (*done)(uz_query *q, void *user);
    void *user;
    /* Optional (NULL: none): the submitter's own work on an answer, such as turning the
     * scores into coding frequencies, that may run on whichever thread answered. An oracle
     * that answers on threads of its own (the builtin's) runs it there, beside the other
     * queries' searches; the others leave it to done, which calls uz_query_work first.
     * It runs once, before done, only for a query answered with UZ_OK, possibly while
     * the caller's thread runs other queries' callbacks: it may read only what no
     * callback writes while q is out (from submit to its done) and write only its own
     * results. work_user is its argument (a wrapping oracle may swap user, never
     * work_user). */
    void (*work)(uz_query *q, void *work_user);
    void *work_user;
    bool worked; /* work has run for this answer (uz_oracle_submit clears it) */
    /* The answering implementation's bookkeeping (opaque; callers never touch it). */
    _Alignas(8) unsigned char priv[160];
};

/* Who answers: the engine's "id name", the fingerprint and the canonical settings text
 * of its scores (see uz_pool_fingerprint / uz_pool_settings_text); "" where unknown. */
typedef struct uz_oracle_identity {
    const char *engine_name;
    const char *fingerprint;
    const char *settings_text;
} uz_oracle_identity;

typedef struct uz_oracle uz_oracle;

/* What an implementation provides. submit queues q (moves must be the position's legal
 * moves in canonical order, as the walk generates them: implementations may trust
 * that); run answers every queued query by filling q->scores and q->status and calling
 * q->done, and returns UZ_OK or the first error of a query it completed (diag says
 * which). destroy is NULL for an oracle that something else owns (the pool's). */
typedef struct uz_oracle_ops {
    void (*submit)(uz_oracle *o, uz_query *q);
    uz_result (*run)(uz_oracle *o, uz_diag *diag);
    void (*identity)(const uz_oracle *o, uz_oracle_identity *out);
    void (*destroy)(uz_oracle *o);
} uz_oracle_ops;

/* Every implementation starts with this member. */
struct uz_oracle {
    const uz_oracle_ops *ops;
};

static inline void uz_oracle_submit(uz_oracle *o, uz_query *q)
{
    q->worked = false;
    o->ops->submit(o, q);
}
/* Runs q's work unless it ran already (or q failed); the oracles with threads call it
 * where they answer, every done callback of a query with work before using the work's
 * results. */
static inline void uz_query_work(uz_query *q)
{
    if (q->work && !q->worked && q->status == UZ_OK)
        q->work(q, q->work_user);
    q->worked = true;
}
static inline uz_result uz_oracle_run(uz_oracle *o, uz_diag *diag) { return o->ops->run(o, diag); }
static inline uz_oracle_identity uz_oracle_identity_of(const uz_oracle *o)
{
    uz_oracle_identity id = {"", "", ""};
    o->ops->identity(o, &id);
    return id;
}
/* Frees an oracle made by one of the constructors below; NULL and the pool's oracle
 * are no-ops. */
static inline void uz_oracle_destroy(uz_oracle *o)
{
    if (o && o->ops->destroy)
        o->ops->destroy(o);
}

/* ---- recorded scores ---- */

/* (position, legal moves) -> scores. The position key is uz_position_key_text (the FEN
 * with the fullmove number 1) and the Chess960 flag. */
typedef struct uz_score_table uz_score_table;

uz_result uz_score_table_create(uz_score_table **out);
void uz_score_table_destroy(uz_score_table *t);
/* Entries held. */
size_t uz_score_table_count(const uz_score_table *t);
/* Removes the entry of pos; false if there was none. */
bool uz_score_table_remove(uz_score_table *t, const uz_position *pos);

/* Text file: a first line "ucizip-scores 1", the identity ("engine NAME",
 * "fingerprint HEX", "settings LINE" per settings line), then one line per entry:
 * "960-flag<TAB>FEN<TAB>uci:score uci:score ...", moves in canonical order.
 * load checks every entry (its FEN parses, its moves are the position's legal moves in
 * canonical order); a bad file is UZ_ERR_SYNTAX with diag naming file and line, an
 * unreadable one UZ_ERR_IO. */
uz_result uz_score_table_save(const uz_score_table *t, const char *path, uz_diag *diag);
uz_result uz_score_table_load(uz_score_table **out, const char *path, uz_diag *diag);

/* Answers through inner (borrowed) and records every answer into table (borrowed; several
 * recorders may share one, e.g. the standard and the Chess960 engine). The table takes
 * the identity of the first recorder that records into it. Its identity is inner's. */
uz_result uz_oracle_record_create(uz_oracle **out, uz_oracle *inner, uz_score_table *table);

/* Answers from table (borrowed) only, starting no engine. A query whose position (or
 * move list) is not in the table fails with UZ_ERR_MISMATCH and a message naming the
 * position. Its identity is the table's. */
uz_result uz_oracle_replay_create(uz_oracle **out, const uz_score_table *table);

/* ---- routing ---- */

/* Answers each query through standard (borrowed) or, for a Chess960 position
 * (q->pos.chess960), through chess960 (borrowed; NULL: none, and such a query fails with
 * UZ_ERR_ARG, "Chess960 games need an engine with UCI_Chess960"). A completion callback
 * may submit to either side: run runs each in turn until both have answered everything.
 * Its identity is standard's. UZ_ERR_ARG for standard NULL, UZ_ERR_NOMEM. */
uz_result uz_oracle_route_create(uz_oracle **out, uz_oracle *standard, uz_oracle *chess960);

/* Deterministic made-up scores (from the position's key and the move's index): for
 * fuzzing and tests of the decoder's paths, never for an archive. */
uz_result uz_oracle_synthetic_create(uz_oracle **out);

#endif
