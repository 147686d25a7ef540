/* Engine scores in LMDB. Key: "FINGERPRINT FEN". Value (little-endian):
 *   u8 version (1), u8 n_moves, n_moves * u16 moves, n_moves * i32 scores,
 *   u64 FNV-1a of (key, then everything before this field). */
#include "cache/score_cache.h"

#include <lmdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define VALUE_VERSION 1
#define KEY_MAX 256
#define VALUE_MAX (2 + UZ_MAX_MOVES * 6 + 8)

typedef struct pending {
    char key[KEY_MAX];
    size_t key_len;
    uint8_t value[VALUE_MAX];
    size_t value_len;
} pending;

struct uz_score_cache {
    MDB_env *env;
    MDB_dbi dbi;
    MDB_txn *read_txn; /* kept and renewed: cheaper than a new one per lookup */
    pending *pend;
    size_t n_pend;
    uz_score_cache_stats stats;
    uz_score_store store;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}

static size_t make_key(char *key, const char *fingerprint, const char *fen)
{
    int n = snprintf(key, KEY_MAX, "%s %s", fingerprint, fen);
    return n < 0 || n >= KEY_MAX ? 0 : (size_t)n;
}

static size_t encode(uint8_t *v, const char *key, size_t key_len, const uz_move *moves, int n, const int32_t *scores)
{
    size_t k = 0;
    v[k++] = VALUE_VERSION;
    v[k++] = (uint8_t)n;
    for (int i = 0; i < n; i++) {
        v[k++] = (uint8_t)(moves[i] & 0xff);
        v[k++] = (uint8_t)(moves[i] >> 8);
    }
    for (int i = 0; i < n; i++) {
        uint32_t s = (uint32_t)scores[i];
        for (int b = 0; b < 4; b++)
            v[k++] = (uint8_t)(s >> (8 * b));
    }
    uint64_t h = fnv(fnv(1469598103934665603ULL, key, key_len), v, k);
    for (int b = 0; b < 8; b++)
        v[k++] = (uint8_t)(h >> (8 * b));
    return k;
}

/* Checks an entry against its key and the query's moves; fills scores if it is good. */
static bool decode(const uint8_t *v, size_t len, const char *key, size_t key_len, const uz_move *moves, int n,
                   int32_t *scores)
{
    if (len != 2 + (size_t)n * 6 + 8 || v[0] != VALUE_VERSION || v[1] != (uint8_t)n)
        return false;
    size_t body = len - 8;
    uint64_t h = fnv(fnv(1469598103934665603ULL, key, key_len), v, body), stored = 0;
    for (int b = 0; b < 8; b++)
        stored |= (uint64_t)v[body + b] << (8 * b);
    if (h != stored)
        return false;
    for (int i = 0; i < n; i++)
        if ((uz_move)(v[2 + 2 * i] | v[3 + 2 * i] << 8) != moves[i])
            return false;
    const uint8_t *p = v + 2 + 2 * (size_t)n;
    for (int i = 0; i < n; i++, p += 4)
        scores[i] = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
    return true;
}

static bool cache_lookup(void *user, const char *fingerprint, const char *fen, const uz_move *moves, int n,
                         int32_t *scores)
{
    uz_score_cache *c = user;
    char key[KEY_MAX];
    size_t key_len = make_key(key, fingerprint, fen);
    if (!key_len || n < 1 || n > UZ_MAX_MOVES)
        return false;
    c->stats.lookups++;
    if (c->read_txn ? mdb_txn_renew(c->read_txn) != 0 : mdb_txn_begin(c->env, NULL, MDB_RDONLY, &c->read_txn) != 0) {
        if (c->read_txn)
            mdb_txn_abort(c->read_txn);
        c->read_txn = NULL;
        c->stats.rejected++; /* an unreadable cache: searched again */
        c->stats.misses++;
        return false;
    }
    MDB_val k = {key_len, key}, v;
    bool hit = false;
    int rc = mdb_get(c->read_txn, c->dbi, &k, &v);
    if (rc == 0) {
        hit = decode(v.mv_data, v.mv_size, key, key_len, moves, n, scores);
        if (!hit)
            c->stats.rejected++;
    } else if (rc != MDB_NOTFOUND) {
        c->stats.rejected++; /* a damaged page of the database (MDB_CORRUPTED, ...): searched again */
    }
    mdb_txn_reset(c->read_txn);
    if (hit)
        c->stats.hits++;
    else
        c->stats.misses++;
    return hit;
}

uz_result uz_score_cache_flush(uz_score_cache *c, uz_diag *diag)
{
    if (!c || c->n_pend == 0)
        return UZ_OK;
    MDB_txn *txn;
    int rc = mdb_txn_begin(c->env, NULL, 0, &txn);
    for (size_t i = 0; rc == 0 && i < c->n_pend; i++) {
        MDB_val k = {c->pend[i].key_len, c->pend[i].key}, v = {c->pend[i].value_len, c->pend[i].value};
        rc = mdb_put(txn, c->dbi, &k, &v, 0);
    }
    if (rc == 0)
        rc = mdb_txn_commit(txn);
    else
        mdb_txn_abort(txn);
    if (rc == MDB_MAP_FULL) {
        /* Grow the map and try once more (no transaction is open in this process now). */
        MDB_envinfo info;
        mdb_env_info(c->env, &info);
        if (mdb_env_set_mapsize(c->env, info.me_mapsize * 2) == 0)
            return uz_score_cache_flush(c, diag);
    }
    if (rc != 0) {
        c->stats.write_errors += c->n_pend;
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "score cache: %s", mdb_strerror(rc));
    } else {
        c->stats.saved += c->n_pend;
    }
    c->n_pend = 0;
    return rc == 0 ? UZ_OK : UZ_ERR_IO;
}

static void cache_save(void *user, const char *fingerprint, const char *fen, const uz_move *moves, int n,
                       const int32_t *scores)
{
    uz_score_cache *c = user;
    if (n < 1 || n > UZ_MAX_MOVES)
        return;
    pending *p = &c->pend[c->n_pend];
    if (!(p->key_len = make_key(p->key, fingerprint, fen)))
        return;
    p->value_len = encode(p->value, p->key, p->key_len, moves, n, scores);
    if (++c->n_pend == UZ_SCORE_CACHE_BATCH)
        uz_score_cache_flush(c, NULL);
}

uz_result uz_score_cache_open(uz_score_cache **out, const char *path, uz_diag *diag)
{
    *out = NULL;
    uz_score_cache *c = calloc(1, sizeof *c);
    if (!c || !(c->pend = malloc(UZ_SCORE_CACHE_BATCH * sizeof *c->pend))) {
        free(c);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    int rc = mdb_env_create(&c->env);
    if (rc == 0)
        rc = mdb_env_set_mapsize(c->env, (size_t)1 << 30); /* grown on demand */
    /* NOSUBDIR: PATH is the data file. NOSYNC: a cache may lose its last writes in a
     * system crash, never its consistency (no WRITEMAP). NOTLS: read transactions are
     * tied to this object, not to a thread. */
    if (rc == 0)
        rc = mdb_env_open(c->env, path, MDB_NOSUBDIR | MDB_NOSYNC | MDB_NOTLS, 0644);
    MDB_txn *txn = NULL;
    if (rc == 0)
        rc = mdb_txn_begin(c->env, NULL, 0, &txn);
    if (rc == 0)
        rc = mdb_dbi_open(txn, NULL, 0, &c->dbi);
    if (rc == 0)
        rc = mdb_txn_commit(txn);
    else if (txn)
        mdb_txn_abort(txn);
    if (rc != 0) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "score cache: %s", mdb_strerror(rc));
        if (c->env)
            mdb_env_close(c->env);
        free(c->pend);
        free(c);
        return UZ_ERR_IO;
    }
    c->store.lookup = cache_lookup;
    c->store.save = cache_save;
    c->store.user = c;
    *out = c;
    return UZ_OK;
}

const uz_score_store *uz_score_cache_store(uz_score_cache *c)
{
    return &c->store;
}

void uz_score_cache_get_stats(const uz_score_cache *c, uz_score_cache_stats *out)
{
    *out = c->stats;
}

void uz_score_cache_close(uz_score_cache *c)
{
    if (!c)
        return;
    uz_score_cache_flush(c, NULL);
    if (c->read_txn)
        mdb_txn_abort(c->read_txn);
    mdb_env_close(c->env);
    free(c->pend);
    free(c);
}
