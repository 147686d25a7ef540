/* Comparing the comments of two game trees (moves and NAGs aside): the coded-comment and
 * engine-code tests decode comments onto trees whose moves come from elsewhere. */
#ifndef UZ_TEST_SAME_COMMENTS_H
#define UZ_TEST_SAME_COMMENTS_H

#include <stdbool.h>
#include <string.h>

#include "pgn/pgn.h"

static inline bool same_list(char **a, size_t na, char **b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

/* The comments before the line, after each move and in every variation. */
static inline bool same_comments(const uz_line *a, const uz_line *b)
{
    if (a->n_nodes != b->n_nodes || !same_list(a->pre_comments, a->n_pre_comments, b->pre_comments, b->n_pre_comments))
        return false;
    for (size_t i = 0; i < a->n_nodes; i++) {
        const uz_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (!same_list(x->comments, x->n_comments, y->comments, y->n_comments) || x->n_variations != y->n_variations)
            return false;
        for (size_t k = 0; k < x->n_variations; k++)
            if (!same_comments(&x->variations[k], &y->variations[k]))
                return false;
    }
    return true;
}

#endif
