/* Opening counts: an open-addressing table of (ply, position key, move index) -> count. */
#include <stdlib.h>
#include <string.h>

#include "gamecode/opening.h"

typedef struct slot {
    uint64_t key;     /* the position's Zobrist key */
    uint32_t count;   /* 0: empty slot */
    uint16_t ply;
    uint16_t move;    /* the played move's index in canonical order */
} slot;

struct uz_opening {
    uint32_t alpha16, plies;
    slot *slots;
    size_t cap, used; /* cap a power of two */
};

uz_opening *uz_opening_new(uint32_t alpha16, uint32_t plies)
{
    if (alpha16 == 0 || alpha16 > UZ_OPENING_ALPHA16_MAX || plies == 0 || plies > UZ_OPENING_PLIES_MAX)
        return NULL;
    uz_opening *o = calloc(1, sizeof *o);
    if (!o)
        return NULL;
    o->alpha16 = alpha16;
    o->plies = plies;
    return o;
}

void uz_opening_free(uz_opening *o)
{
    if (!o)
        return;
    free(o->slots);
    free(o);
}

void uz_opening_reset(uz_opening *o)
{
    if (o && o->slots)
        memset(o->slots, 0, o->cap * sizeof *o->slots);
    if (o)
        o->used = 0;
}

uint32_t uz_opening_plies(const uz_opening *o)
{
    return o ? o->plies : 0;
}

static size_t slot_hash(uint64_t key, unsigned ply, unsigned move)
{
    uint64_t h = key ^ ((uint64_t)ply << 16 | move) * 0x9E3779B97F4A7C15u;
    h ^= h >> 29;
    h *= 0xBF58476D1CE4E5B9u;
    return (size_t)(h ^ h >> 32);
}

static slot *find(const uz_opening *o, uint64_t key, unsigned ply, unsigned move)
{
    if (!o->cap)
        return NULL;
    for (size_t i = slot_hash(key, ply, move) & (o->cap - 1);; i = (i + 1) & (o->cap - 1)) {
        slot *sl = &o->slots[i];
        if (sl->count == 0 || (sl->key == key && sl->ply == ply && sl->move == move))
            return sl;
    }
}

static uz_result grow(uz_opening *o)
{
    size_t cap = o->cap ? 2 * o->cap : 1024;
    slot *old = o->slots;
    size_t old_cap = o->cap;
    if (!(o->slots = calloc(cap, sizeof *o->slots))) {
        o->slots = old;
        return UZ_ERR_NOMEM;
    }
    o->cap = cap;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].count)
            *find(o, old[i].key, old[i].ply, old[i].move) = old[i];
    free(old);
    return UZ_OK;
}

long uz_opening_ply(const uz_opening *o, const uz_walk *w, size_t s)
{
    const uz_step *st = &w->steps[s];
    if (!o || !st->main_line || st->n_legal < 2 || w->game->start.chess960)
        return -1;
    size_t ply = (size_t)(st->node - w->game->main.nodes);
    return ply < o->plies ? (long)ply : -1;
}

void uz_opening_mix(const uz_opening *o, const uz_walk *w, size_t s, uint32_t *freq, int n, uint32_t total_freq)
{
    long ply = uz_opening_ply(o, w, s);
    if (ply < 0 || o->used == 0 || n < 2 || n > UZ_MAX_MOVES)
        return;
    uint32_t c[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++) {
        const slot *sl = find(o, w->before[s].key, (unsigned)ply, (unsigned)i);
        c[i] = sl ? sl->count : 0;
    }
    uz_model_mix_counts(c, o->alpha16, freq, n, total_freq);
}

uz_result uz_opening_add(uz_opening *o, const uz_walk *w, size_t s)
{
    long ply = uz_opening_ply(o, w, s);
    if (ply < 0 || w->steps[s].played < 0)
        return UZ_OK;
    if (4 * (o->used + 1) > 3 * o->cap && grow(o) != UZ_OK)
        return UZ_ERR_NOMEM;
    slot *sl = find(o, w->before[s].key, (unsigned)ply, (unsigned)w->steps[s].played);
    if (sl->count == 0) {
        sl->key = w->before[s].key;
        sl->ply = (uint16_t)ply;
        sl->move = (uint16_t)w->steps[s].played;
        o->used++;
    }
    if (sl->count < UZ_OPENING_COUNT_MAX) /* keeps the mixing within 64 bits */
        sl->count++;
    return UZ_OK;
}

uz_result uz_opening_add_walk(uz_opening *o, const uz_walk *w)
{
    for (size_t s = 0; o && s < w->n_steps; s++) {
        uz_result r = uz_opening_add(o, w, s);
        if (r != UZ_OK)
            return r;
    }
    return UZ_OK;
}
