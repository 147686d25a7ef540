/* Scored positions kept in memory for fitting the model: scores, move count and the
 * index of the move played. */
#ifndef UCIZIP_LIB_FIT_SAMPLES_H
#define UCIZIP_LIB_FIT_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "gamecode/gamecode.h"

typedef struct uz_fit_samples {
    int32_t *scores;
    size_t n_scores, cap_scores;
    struct uz_fit_sample_item {
        size_t offset;
        int n, played;
    } *items;
    size_t n_items, cap_items;
} uz_fit_samples;

/* Copies one position's scores. Returns 0 or -1 when out of memory. */
int uz_fit_samples_add(uz_fit_samples *st, const int32_t *scores, int n, int played);
/* Every scored position of a walk (variations included). Returns 0 or -1. */
int uz_fit_samples_add_walk(uz_fit_samples *st, const uz_walk *w);
/* The samples as uz_fit_sample entries pointing into st (malloc'd; NULL when out of memory). */
uz_fit_sample *uz_fit_samples_list(const uz_fit_samples *st);
void uz_fit_samples_free(uz_fit_samples *st);

#endif
