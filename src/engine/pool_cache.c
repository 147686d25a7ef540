/* The pool's bounded in-memory score cache (FEN + move list -> scores, 4-way sets with
 * least-recently-used replacement) and the persistent store behind it. */
#include <stdlib.h>
#include <string.h>

#include "engine_internal.h"

static uint64_t fen_hash(const uz_query *q) { return uz_position_key_hash(QPRIV(q)->fen, q->pos.chess960 != 0); }

static cache_slot *cache_find(uz_pool *pool, const uz_query *q, uint64_t h)
{
    cache_slot *b = &pool->cache[(h & (pool->cache_buckets - 1)) * CACHE_WAYS];
    for (int i = 0; i < CACHE_WAYS; i++) {
        cache_blob *e = b[i].blob;
        if (e && b[i].hash == h && e->n == q->n_moves && strcmp(e->fen, QPRIV(q)->fen) == 0 &&
            memcmp(e->moves, q->moves, sizeof(uz_move) * (size_t)e->n) == 0)
            return &b[i];
    }
    return NULL;
}

static bool cache_lookup(uz_pool *pool, uz_query *q)
{
    if (!pool->cache || QPRIV(q)->no_cache)
        return false;
    cache_slot *slot = cache_find(pool, q, fen_hash(q));
    if (!slot)
        return false;
    slot->stamp = ++pool->cache_clock;
    memcpy(q->scores, slot->blob->scores, sizeof(int32_t) * (size_t)q->n_moves);
    return true;
}

static void cache_store(uz_pool *pool, const uz_query *q)
{
    if (!pool->cache || QPRIV(q)->no_cache)
        return;
    uint64_t h = fen_hash(q);
    if (cache_find(pool, q, h))
        return;
    cache_slot *b = &pool->cache[(h & (pool->cache_buckets - 1)) * CACHE_WAYS];
    cache_slot *victim = &b[0];
    for (int i = 0; i < CACHE_WAYS; i++) {
        if (!b[i].blob) {
            victim = &b[i];
            break;
        }
        if (b[i].stamp < victim->stamp)
            victim = &b[i];
    }
    size_t fl = strlen(QPRIV(q)->fen) + 1, n = (size_t)q->n_moves;
    /* One block: header, fen, then scores and moves at aligned offsets. */
    size_t off_scores = (sizeof(cache_blob) + fl + 3) & ~(size_t)3;
    cache_blob *e = malloc(off_scores + n * sizeof(int32_t) + n * sizeof(uz_move));
    if (!e)
        return; /* the cache is an optimisation: skip on memory shortage */
    e->n = q->n_moves;
    memcpy(e->fen, QPRIV(q)->fen, fl);
    e->scores = (int32_t *)((char *)e + off_scores);
    e->moves = (uz_move *)(e->scores + n);
    memcpy(e->scores, q->scores, n * sizeof(int32_t));
    memcpy(e->moves, q->moves, n * sizeof(uz_move));
    free(victim->blob);
    victim->blob = e;
    victim->hash = h;
    victim->stamp = ++pool->cache_clock;
}

/* The persistent store: only for real queries, once the fingerprint is known. */
static bool store_usable(const uz_pool *pool, const uz_query *q)
{
    return pool->s.store && !pool->store_distrusted && pool->fingerprint[0] && !QPRIV(q)->no_cache &&
           (QPRIV(q)->kind == KIND_NORMAL || QPRIV(q)->kind == KIND_SYNC);
}

/* The memory cache, then the store; counts the hit. */
bool uz__cache_lookup_scores(uz_pool *pool, uz_query *q)
{
    if (QPRIV(q)->kind == KIND_PROBE_SM)
        return false;
    if (cache_lookup(pool, q)) {
        pool->stats.cache_hits++;
        return true;
    }
    const uz_score_store *st = pool->s.store;
    if (store_usable(pool, q) && st->lookup(st->user, pool->fingerprint, QPRIV(q)->fen, q->moves, q->n_moves, q->scores)) {
        pool->stats.store_hits++;
        if (pool->store_hits_seen++ % UZ__STORE_AUDIT_EVERY == 0)
            uz__pool_audit_store_hit(pool, q);
        cache_store(pool, q);
        return true;
    }
    return false;
}

void uz__cache_save_scores(uz_pool *pool, const uz_query *q)
{
    if (QPRIV(q)->kind == KIND_PROBE_SM)
        return;
    cache_store(pool, q);
    const uz_score_store *st = pool->s.store;
    if (store_usable(pool, q))
        st->save(st->user, pool->fingerprint, QPRIV(q)->fen, q->moves, q->n_moves, q->scores);
}

void uz__cache_free(uz_pool *pool)
{
    if (!pool->cache)
        return;
    for (size_t i = 0; i < pool->cache_buckets * CACHE_WAYS; i++)
        free(pool->cache[i].blob);
    free(pool->cache);
    pool->cache = NULL;
}

/* ---------- worker lifecycle ---------- */

uz_result uz__cache_init(uz_pool *pool, int entries)
{
    if (entries <= 0)
        return UZ_OK;
    size_t buckets = 1;
    while (buckets * CACHE_WAYS < (size_t)entries)
        buckets *= 2;
    pool->cache = calloc(buckets * CACHE_WAYS, sizeof *pool->cache);
    if (!pool->cache)
        return UZ_ERR_NOMEM;
    pool->cache_buckets = buckets;
    return UZ_OK;
}
