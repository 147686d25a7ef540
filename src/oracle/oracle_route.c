/* The routing oracle: standard positions to one oracle, Chess960 positions to another,
 * so that the layers above hold a single oracle whatever games they code. */
#include <stdio.h>
#include <stdlib.h>

#include "oracle/oracle.h"
#include "oracle_queue.h"

enum { STANDARD, CHESS960 };

typedef struct router {
    uz_oracle base;                /* first */
    uz_oracle *side[2];            /* [STANDARD], [CHESS960] (NULL: none), borrowed */
    uint64_t submitted[2];         /* queries sent to each side so far */
    uint64_t answered[2];          /* submitted[] as of the end of that side's last run */
    uz__query_queue refused;       /* Chess960 queries with no oracle to answer them */
} router;

static router *router_of(uz_oracle *o) { return (router *)(void *)o; } /* base is the first member */

static void route_submit(uz_oracle *o, uz_query *q)
{
    router *rt = router_of(o);
    int side = q->pos.chess960 ? CHESS960 : STANDARD;
    rt->submitted[side]++;
    if (rt->side[side])
        uz_oracle_submit(rt->side[side], q);
    else
        uz__query_queue_push(&rt->refused, q);
}

static uz_result refuse(void *self, uz_query *q, char *msg, size_t cap)
{
    (void)self;
    (void)q;
    snprintf(msg, cap, "Chess960 games need an engine with UCI_Chess960");
    return UZ_ERR_ARG;
}

/* Runs each side in turn while it has queries not yet answered: a callback run by one
 * side may submit to the other, which then runs again. A side's run answers what is
 * submitted to it during that run too. Keeps the first error (and its message). */
static uz_result route_run(uz_oracle *o, uz_diag *diag)
{
    router *rt = router_of(o);
    uz_result first = UZ_OK;
    bool pending = true;
    while (pending) {
        pending = false;
        for (int s = STANDARD; s <= CHESS960; s++) {
            if (rt->answered[s] == rt->submitted[s])
                continue;
            pending = true;
            uz_diag later = {0};
            uz_diag *d = first == UZ_OK ? diag : &later;
            uz_result r = rt->side[s] ? uz_oracle_run(rt->side[s], d) : uz__query_queue_run(&rt->refused, refuse, rt, d);
            rt->answered[s] = rt->submitted[s];
            if (first == UZ_OK)
                first = r;
        }
    }
    return first;
}

static void route_identity(const uz_oracle *o, uz_oracle_identity *out)
{
    *out = uz_oracle_identity_of(((const router *)(const void *)o)->side[STANDARD]);
}

static void route_destroy(uz_oracle *o)
{
    router *rt = router_of(o);
    uz__query_queue_free(&rt->refused);
    free(rt);
}

static const uz_oracle_ops route_ops = {route_submit, route_run, route_identity, route_destroy};

uz_result uz_oracle_route_create(uz_oracle **out, uz_oracle *standard, uz_oracle *chess960)
{
    *out = NULL;
    if (!standard)
        return UZ_ERR_ARG;
    router *rt = calloc(1, sizeof *rt);
    if (!rt)
        return UZ_ERR_NOMEM;
    rt->base.ops = &route_ops;
    rt->side[STANDARD] = standard;
    rt->side[CHESS960] = chess960;
    *out = &rt->base;
    return UZ_OK;
}
