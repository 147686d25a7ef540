/* Internal: the pending-query queue of the oracles that answer without an engine
 * (replayed and synthetic scores). Queries wait here until run answers them, so that a
 * callback never runs from inside submit. */
#ifndef UZ_ORACLE_QUEUE_H
#define UZ_ORACLE_QUEUE_H

#include "oracle/oracle.h"

typedef struct uz__query_queue {
    uz_query **items;
    size_t head, n, cap;
    bool nomem;             /* a submit found no memory: run fails */
} uz__query_queue;

void uz__query_queue_push(uz__query_queue *qq, uz_query *q);
/* Answers queued queries in submission order (also those submitted by callbacks) with
 * answer, which fills q->scores and returns q's status (and, on error, a message in
 * msg); then calls q->done. Returns the first error, its message in diag. */
uz_result uz__query_queue_run(uz__query_queue *qq, uz_result (*answer)(void *self, uz_query *q, char *msg, size_t cap),
                              void *self, uz_diag *diag);
void uz__query_queue_free(uz__query_queue *qq);

#endif
