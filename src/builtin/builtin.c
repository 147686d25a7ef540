/* The built-in oracle's front door: one dispatch over the frozen versions (each in its
 * own builtinN_*.c files, never changed once released). */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "builtin1.h"
#include "builtin2.h"
#include "builtin_search_internal.h"

struct uz_builtin {
    int version;
    int depth;
    b_search *search; /* the state of either version's search */
};

int uz_builtin_min_depth(int version)
{
    return version == 1 ? B1_MIN_DEPTH : version == 2 ? B2_MIN_DEPTH : 0;
}

int uz_builtin_max_depth(int version)
{
    return version == 1 ? B1_MAX_DEPTH : version == 2 ? B2_MAX_DEPTH : 0;
}

int uz_builtin_default_depth(int version)
{
    return version == 1 ? B1_DEFAULT_DEPTH : version == 2 ? B2_DEFAULT_DEPTH : 0;
}

const char *uz_builtin_fingerprint(int version)
{
    /* A constant, checked against the hash of the version's constants by the tests. */
    return version == 1 ? B1_FINGERPRINT : version == 2 ? B2_FINGERPRINT : "";
}

uz_result uz_builtin_create(uz_builtin **out, int version, int depth, uz_diag *diag)
{
    *out = NULL;
    if (version < 1 || version > UZ_BUILTIN_LATEST) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "unknown builtin version %d (this build knows 1 to %d)", version,
                    UZ_BUILTIN_LATEST);
        return UZ_ERR_UNSUPPORTED;
    }
    if (depth < uz_builtin_min_depth(version) || depth > uz_builtin_max_depth(version)) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "builtin-%d searches depth %d to %d, not %d", version,
                    uz_builtin_min_depth(version), uz_builtin_max_depth(version), depth);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_builtin *b = calloc(1, sizeof *b);
    if (b)
        b->search = uz__b_search_create(depth);
    if (!b || !b->search) {
        free(b);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory for the builtin search");
        return UZ_ERR_NOMEM;
    }
    b->version = version;
    b->depth = depth;
    *out = b;
    return UZ_OK;
}

void uz_builtin_destroy(uz_builtin *b)
{
    if (!b)
        return;
    uz__b_search_destroy(b->search);
    free(b);
}

void uz_builtin_score_moves(uz_builtin *b, const uz_position *pos, const uz_move *moves, int n, int32_t *scores)
{
    if (b->version == 1)
        uz__b1_score_moves(b->search, pos, moves, n, scores);
    else
        uz__b2_score_moves(b->search, pos, moves, n, scores);
}

uint64_t uz_builtin_last_nodes(const uz_builtin *b)
{
    return b->search->total_nodes;
}
