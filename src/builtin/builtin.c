/* The built-in oracle's front door: one dispatch over the frozen versions (builtin.h
 * lists the files each version's scores depend on). The version table is not frozen: a
 * new version is a new row. */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "search_node.h"
#include "v1_search.h"
#include "v2_search.h"
#include "v3_eval.h"

struct uz_builtin {
    int version;
    int depth;
    b_search *search; /* the state of any version's search */
};

/* What the front door knows of each released version, by version - 1. */
typedef struct version_info {
    int min_depth, max_depth, default_depth;
    const char *fingerprint; /* a constant, checked against the hash of the version's constants by the tests */
    void (*score_moves)(b_search *s, const uz_position *pos, const uz_move *moves, int n, int32_t *scores);
    bool network; /* its searcher needs a learned evaluation's scratch (v3_eval.h) */
} version_info;

static const version_info versions[UZ_BUILTIN_LATEST] = {
    {B1_MIN_DEPTH, B1_MAX_DEPTH, B1_DEFAULT_DEPTH, B1_FINGERPRINT, uz__b1_score_moves, false},
    {B2_MIN_DEPTH, B2_MAX_DEPTH, B2_DEFAULT_DEPTH, B2_FINGERPRINT, uz__b2_score_moves, false},
    {B3_MIN_DEPTH, B3_MAX_DEPTH, B3_DEFAULT_DEPTH, B3_FINGERPRINT, uz__b3_score_moves, true},
};

static const version_info *find_version(int version)
{
    return version >= 1 && version <= UZ_BUILTIN_LATEST ? &versions[version - 1] : NULL;
}

int uz_builtin_min_depth(int version)
{
    const version_info *v = find_version(version);
    return v ? v->min_depth : 0;
}

int uz_builtin_max_depth(int version)
{
    const version_info *v = find_version(version);
    return v ? v->max_depth : 0;
}

int uz_builtin_default_depth(int version)
{
    const version_info *v = find_version(version);
    return v ? v->default_depth : 0;
}

const char *uz_builtin_fingerprint(int version)
{
    const version_info *v = find_version(version);
    return v ? v->fingerprint : "";
}

uz_result uz_builtin_check_version(int version, uz_diag *diag)
{
    if (find_version(version))
        return UZ_OK;
    uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "this ucizip has no builtin-%d (it has builtin-1 to builtin-%d)", version,
                UZ_BUILTIN_LATEST);
    return UZ_ERR_UNSUPPORTED;
}

uz_result uz_builtin_create(uz_builtin **out, int version, int depth, uz_diag *diag)
{
    *out = NULL;
    uz_result r = uz_builtin_check_version(version, diag);
    if (r != UZ_OK)
        return r;
    if (depth < uz_builtin_min_depth(version) || depth > uz_builtin_max_depth(version)) {
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "builtin-%d searches depth %d to %d, not %d", version,
                    uz_builtin_min_depth(version), uz_builtin_max_depth(version), depth);
        return UZ_ERR_UNSUPPORTED;
    }
    uz_builtin *b = calloc(1, sizeof *b);
    if (b)
        b->search = uz__b_search_create(depth);
    if (b && b->search && versions[version - 1].network && !(b->search->network = uz__b3_network_create())) {
        uz__b_search_destroy(b->search);
        b->search = NULL;
    }
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
    uz__b3_network_destroy(b->search->network);
    uz__b_search_destroy(b->search);
    free(b);
}

void uz_builtin_score_moves(uz_builtin *b, const uz_position *pos, const uz_move *moves, int n, int32_t *scores)
{
    versions[b->version - 1].score_moves(b->search, pos, moves, n, scores);
}

uint64_t uz_builtin_last_nodes(const uz_builtin *b)
{
    return b->search->total_nodes;
}
