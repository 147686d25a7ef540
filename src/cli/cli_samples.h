/* Scored positions kept in memory for fitting the model: scores, move count and the
 * index of the move played. */
#ifndef UCIZIP_CLI_SAMPLES_H
#define UCIZIP_CLI_SAMPLES_H

#include <stddef.h>
#include <stdint.h>

#include "ucizip/gamecode.h"

typedef struct cli_samples {
    int32_t *scores;
    size_t n_scores, cap_scores;
    struct cli_sample_item {
        size_t offset;
        int n, played;
    } *items;
    size_t n_items, cap_items;
} cli_samples;

/* Copies one position's scores. Returns 0 or -1 when out of memory. */
int cli_samples_add(cli_samples *st, const int32_t *scores, int n, int played);
/* Every scored position of a walk (variations included). Returns 0 or -1. */
int cli_samples_add_walk(cli_samples *st, const uz_walk *w);
/* The samples as uz_fit_sample entries pointing into st (malloc'd; NULL when out of memory). */
uz_fit_sample *cli_samples_list(const cli_samples *st);
void cli_samples_free(cli_samples *st);

#endif
