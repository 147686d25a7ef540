/* Engine scores in LMDB. Key: "FINGERPRINT FEN". Value (little-endian):
 *   u8 version (1), u8 n_moves, n_moves * u16 moves, n_moves * i32 scores,
 *   u64 FNV-1a of (key, then everything before this field), from RECORD_HASH_START. */
#include "cache/score_cache.h"
#include "common/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <lmdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
    char *path; /* for messages */
};

/* The record check starts from 1469598103934665603, not FNV-1a's offset basis
 * (14695981039346656037, a digit longer): every cache was written so, and stays readable. */
#define RECORD_HASH_START 1469598103934665603ULL

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
    uint64_t h = uz_fnv1a64(uz_fnv1a64(RECORD_HASH_START, key, key_len), v, k);
    for (int b = 0; b < 8; b++)
        v[k++] = (uint8_t)(h >> (8 * b));
    return k;
}

bool uz_score_cache_entry_decode(const uint8_t *v, size_t len, const char *key, size_t key_len, const uz_move *moves,
                                 int n, int32_t *scores)
{
    if (n < 1 || n > UZ_MAX_MOVES)
        return false;
    if (len != 2 + (size_t)n * 6 + 8 || v[0] != VALUE_VERSION || v[1] != (uint8_t)n)
        return false;
    size_t body = len - 8;
    uint64_t h = uz_fnv1a64(uz_fnv1a64(RECORD_HASH_START, key, key_len), v, body), stored = 0;
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
        hit = uz_score_cache_entry_decode(v.mv_data, v.mv_size, key, key_len, moves, n, scores);
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
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "score cache %s: %s", c->path, mdb_strerror(rc));
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

/* ---- the file before LMDB maps it ----
 * LMDB's on-disk meta page (mdb.c, MDB_meta after a page header), mirrored with the same
 * native types so that the layout matches LMDB's on this platform. */
typedef struct lmdb_db {
    uint32_t pad; /* in the free-space database: the page size */
    uint16_t flags, depth;
    size_t branch_pages, leaf_pages, overflow_pages, entries, root;
} lmdb_db;

typedef struct lmdb_meta {
    uint32_t magic, version;
    void *address;
    size_t mapsize;
    lmdb_db dbs[2];
    size_t last_pg, txnid;
} lmdb_meta;

#define LMDB_PAGE_HEADER (sizeof(size_t) + 8)
#define LMDB_MAGIC 0xBEEFC0DEu
#define LMDB_DATA_VERSION 1u
#define LMDB_P_META 0x08u
#define LMDB_PSIZE_MIN 512u
#define LMDB_PSIZE_MAX 65536u

/* Whether a meta page with LMDB's magic starts at offset at. */
static bool meta_magic_at(const uint8_t *head, size_t head_len, size_t at)
{
    uint32_t magic;
    if (head_len < at + LMDB_PAGE_HEADER + sizeof magic)
        return false;
    memcpy(&magic, head + at + LMDB_PAGE_HEADER, sizeof magic);
    return magic == LMDB_MAGIC;
}

uz_result uz_score_cache_check_file(const uint8_t *head, size_t head_len, uint64_t file_size, uz_diag *diag)
{
    if (file_size == 0)
        return UZ_OK; /* a new file: LMDB writes its meta pages */
    /* No meta page at all: some other file, named by mistake (refused, never opened). */
    bool lmdb = false;
    for (size_t at = 0; at <= LMDB_PSIZE_MAX && !lmdb; at = at ? at * 2 : LMDB_PSIZE_MIN)
        lmdb = meta_magic_at(head, head_len, at);
    if (!lmdb) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "not a score cache (no LMDB meta page)");
        return UZ_ERR_ARG;
    }
    lmdb_meta m[2];
    uint32_t psize = 0;
    for (int i = 0; i < 2; i++) {
        size_t at = (size_t)i * psize;
        if (head_len < at + LMDB_PAGE_HEADER + sizeof m[i] || file_size < at + LMDB_PAGE_HEADER + sizeof m[i]) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "truncated (%llu bytes, no meta page %d)",
                        (unsigned long long)file_size, i);
            return UZ_ERR_CORRUPT;
        }
        uint16_t flags;
        memcpy(&flags, head + at + sizeof(size_t) + 2, sizeof flags);
        memcpy(&m[i], head + at + LMDB_PAGE_HEADER, sizeof m[i]);
        if (!(flags & LMDB_P_META) || m[i].magic != LMDB_MAGIC || m[i].version != LMDB_DATA_VERSION) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "meta page %d damaged (not an LMDB file of this kind)", i);
            return UZ_ERR_CORRUPT;
        }
        if (i == 0) {
            psize = m[0].dbs[0].pad;
            if (psize < LMDB_PSIZE_MIN || psize > LMDB_PSIZE_MAX || (psize & (psize - 1)) != 0) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "meta page 0 damaged (page size %u)", (unsigned)psize);
                return UZ_ERR_CORRUPT;
            }
        } else if (m[1].dbs[0].pad != psize) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "meta page 1 damaged (page size %u, not %u)",
                        (unsigned)m[1].dbs[0].pad, (unsigned)psize);
            return UZ_ERR_CORRUPT;
        }
    }
    /* Every page a reader can reach is below last_pg + 1 (LMDB refuses higher page
     * numbers), so the file must hold them all, and the map must cover them. */
    uint64_t pages = file_size / psize;
    for (int i = 0; i < 2; i++)
        if (m[i].last_pg < 1 || m[i].last_pg >= pages || m[i].mapsize / psize <= m[i].last_pg ||
            (m[i].dbs[1].root != (size_t)-1 && m[i].dbs[1].root > m[i].last_pg)) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0,
                        "truncated or damaged: meta page %d names page %llu, the file holds %llu pages", i,
                        (unsigned long long)m[i].last_pg, (unsigned long long)pages);
            return UZ_ERR_CORRUPT;
        }
    return UZ_OK;
}

/* A cache file (the data or the lock) must be a regular file of ours, not a link:
 * LMDB opens both with O_CREAT and writes into the lock file. Absent is fine. */
static uz_result check_owned_file(const char *cache, const char *path, const char *what, bool *exists,
                                  uz_diag *diag)
{
    struct stat st;
    *exists = false;
    if (lstat(path, &st) != 0) {
        if (errno == ENOENT)
            return UZ_OK;
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "score cache %s: %s: %s", cache, path, strerror(errno));
        return UZ_ERR_IO;
    }
    *exists = true;
    const char *why = S_ISLNK(st.st_mode)   ? "is a symbolic link"
                      : !S_ISREG(st.st_mode) ? "is not a regular file"
                      : st.st_uid != geteuid() ? "belongs to another user"
                                               : NULL;
    if (why) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "score cache %s: refused: its %s %s %s", cache, what, path, why);
        return UZ_ERR_ARG;
    }
    return UZ_OK;
}

/* Reads the start of the data file (never following a link) and checks its meta pages. */
static uz_result check_data_file(const char *path, uz_diag *diag)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "score cache %s: cannot be read (%s); running without it", path,
                    strerror(errno));
        return UZ_ERR_CORRUPT;
    }
    size_t cap = 2 * LMDB_PSIZE_MAX, len = 0;
    uint8_t *head = malloc(cap);
    struct stat st;
    uz_result r = !head ? UZ_ERR_NOMEM : fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? UZ_OK : UZ_ERR_ARG;
    while (r == UZ_OK && len < cap) {
        ssize_t got = read(fd, head + len, cap - len);
        if (got <= 0)
            break;
        len += (size_t)got;
    }
    close(fd);
    uz_diag why = {0};
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    else if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "score cache %s: refused: not a regular file", path);
    else if ((r = uz_score_cache_check_file(head, len, (uint64_t)st.st_size, &why)) == UZ_ERR_ARG)
        uz_diag_set(diag, r, 0, 0, "score cache %s: refused: %s", path, why.message);
    else if (r != UZ_OK)
        uz_diag_set(diag, r, 0, 0, "score cache %s: %s; running without it", path, why.message);
    free(head);
    return r;
}

/* Checks the two files, then opens the environment. A lock file this call created is
 * removed again when the open fails. */
static uz_result open_env(uz_score_cache *c, const char *path, uz_diag *diag)
{
    char lock[4096];
    if (snprintf(lock, sizeof lock, "%s-lock", path) >= (int)sizeof lock) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "score cache %s: name too long", path);
        return UZ_ERR_ARG;
    }
    bool data_exists, lock_exists;
    uz_result r = check_owned_file(path, path, "data file", &data_exists, diag);
    if (r == UZ_OK)
        r = check_owned_file(path, lock, "lock file", &lock_exists, diag);
    if (r == UZ_OK && data_exists)
        r = check_data_file(path, diag);
    if (r != UZ_OK)
        return r;
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
    if (rc == 0)
        return UZ_OK;
    if (c->env)
        mdb_env_close(c->env);
    c->env = NULL;
    if (!lock_exists)
        unlink(lock);
    if (rc == EACCES || rc == EROFS || rc == EPERM) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "score cache %s: read-only (%s); running without it", path,
                    mdb_strerror(rc));
        return UZ_ERR_CORRUPT;
    }
    bool damaged = rc == MDB_INVALID || rc == MDB_CORRUPTED || rc == MDB_VERSION_MISMATCH;
    r = damaged ? UZ_ERR_CORRUPT : UZ_ERR_IO;
    uz_diag_set(diag, r, 0, 0, "score cache %s: %s%s", path, mdb_strerror(rc), damaged ? "; running without it" : "");
    return r;
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
    uz_result r = (c->path = strdup(path)) ? open_env(c, path, diag) : UZ_ERR_NOMEM;
    if (r == UZ_ERR_NOMEM)
        uz_diag_set(diag, r, 0, 0, "out of memory");
    if (r != UZ_OK) {
        free(c->path);
        free(c->pend);
        free(c);
        return r;
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
    free(c->path);
    free(c->pend);
    free(c);
}
