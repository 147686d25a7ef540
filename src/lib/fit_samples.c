/* Scored positions kept for fitting the model. */
#include "fit_samples.h"

#include <stdlib.h>
#include <string.h>

int uz_fit_samples_add(uz_fit_samples *st, const int32_t *scores, int n, int played)
{
    if (st->n_scores + (size_t)n > st->cap_scores) {
        size_t cap = st->cap_scores ? st->cap_scores : 1 << 16;
        while (cap < st->n_scores + (size_t)n)
            cap *= 2;
        int32_t *p = realloc(st->scores, cap * sizeof *p);
        if (!p)
            return -1;
        st->scores = p;
        st->cap_scores = cap;
    }
    if (st->n_items == st->cap_items) {
        size_t cap = st->cap_items ? 2 * st->cap_items : 4096;
        void *p = realloc(st->items, cap * sizeof *st->items);
        if (!p)
            return -1;
        st->items = p;
        st->cap_items = cap;
    }
    memcpy(st->scores + st->n_scores, scores, (size_t)n * sizeof *scores);
    st->items[st->n_items].offset = st->n_scores;
    st->items[st->n_items].n = n;
    st->items[st->n_items].played = played;
    st->n_items++;
    st->n_scores += (size_t)n;
    return 0;
}

int uz_fit_samples_add_walk(uz_fit_samples *st, const uz_walk *w)
{
    for (size_t i = 0; i < w->n_steps; i++) {
        const uz_step *s = &w->steps[i];
        if (s->n_legal >= 2 && uz_fit_samples_add(st, s->scores, s->n_legal, s->played) != 0)
            return -1;
    }
    return 0;
}

uz_fit_sample *uz_fit_samples_list(const uz_fit_samples *st)
{
    uz_fit_sample *s = malloc((st->n_items ? st->n_items : 1) * sizeof *s);
    if (!s)
        return NULL;
    for (size_t i = 0; i < st->n_items; i++)
        s[i] = (uz_fit_sample){st->scores + st->items[i].offset, st->items[i].n, st->items[i].played};
    return s;
}

void uz_fit_samples_free(uz_fit_samples *st)
{
    free(st->scores);
    free(st->items);
    memset(st, 0, sizeof *st);
}
