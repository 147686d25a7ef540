/* The parts of the search every version shares that run once per searcher or per
 * position, so need not be inline (search_node.h): the searcher's allocation, the
 * per-position reset, and the common tail of the versions' fingerprints. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "search_node.h"

b_search *uz__b_search_create(int depth)
{
    b_search *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->tt = calloc(B_TT_SIZE, sizeof *s->tt);
    s->pawn_cache = calloc(1, sizeof *s->pawn_cache);
    if (!s->tt || !s->pawn_cache) {
        free(s->tt);
        free(s->pawn_cache);
        free(s);
        return NULL;
    }
    s->depth = depth;
    s->budget = b_node_budget[depth];
    return s;
}

void uz__b_search_destroy(b_search *s)
{
    if (s) {
        free(s->tt);
        free(s->pawn_cache);
        free(s);
    }
}

void uz__b_search_begin_position(b_search *s)
{
    /* A new generation hides every entry of earlier positions; when the tag wraps, the
     * table is cleared once (every 65,535 positions), so a tag match always means "written
     * for this position". */
    if (++s->generation == 0) {
        memset(s->tt, 0, B_TT_SIZE * sizeof *s->tt);
        s->generation = 1;
    }
    memset(s->killers, 0, sizeof s->killers);
    s->total_nodes = 0;
}

uint64_t uz__b_hash_search(uint64_t hash, const char *rules)
{
    hash = uz__b1_fnv(hash, rules);
    for (int t = 0; t < 7; t++) {
        char text[16];
        snprintf(text, sizeof text, " %d", b_see_value[t]);
        hash = uz__b1_fnv(hash, text);
    }
    return uz__b1_hash_eval(hash);
}
