/* The pending-query queue of the engine-less oracles (oracle_queue.h). */
#include <stdlib.h>
#include <string.h>

#include "oracle_queue.h"

void uz__query_queue_push(uz__query_queue *qq, uz_query *q)
{
    if (qq->head + qq->n == qq->cap) {
        if (qq->head > 0) { /* reuse the answered front before growing */
            memmove(qq->items, qq->items + qq->head, qq->n * sizeof *qq->items);
            qq->head = 0;
        }
        if (qq->n == qq->cap) {
            size_t cap = qq->cap ? 2 * qq->cap : 64;
            uz_query **p = realloc(qq->items, cap * sizeof *p);
            if (!p) {
                qq->nomem = true;
                return;
            }
            qq->items = p;
            qq->cap = cap;
        }
    }
    qq->items[qq->head + qq->n++] = q;
}

uz_result uz__query_queue_run(uz__query_queue *qq, uz_result (*answer)(void *self, uz_query *q, char *msg, size_t cap),
                              void *self, uz_diag *diag)
{
    uz_result first = UZ_OK;
    while (qq->n > 0) {
        uz_query *q = qq->items[qq->head++];
        qq->n--;
        if (qq->n == 0)
            qq->head = 0;
        char msg[256] = "";
        q->status = answer(self, q, msg, sizeof msg);
        if (q->status != UZ_OK && first == UZ_OK) {
            first = q->status;
            uz_diag_set(diag, first, 0, 0, "%s", msg[0] ? msg : uz_result_str(first));
        }
        q->done(q, q->user);
    }
    if (qq->nomem && first == UZ_OK) {
        first = UZ_ERR_NOMEM;
        uz_diag_set(diag, first, 0, 0, "out of memory queueing oracle queries");
    }
    qq->nomem = false;
    return first;
}

void uz__query_queue_free(uz__query_queue *qq)
{
    free(qq->items);
    memset(qq, 0, sizeof *qq);
}
