/* Compression of the structure stream: zstd, LZMA2 (liblzma) and zstd over the prose
 * dictionary all tried, the smallest kept. Text-heavy blocks (engine comments, long tag
 * sets) differ by several percent; a block of annotated games by a third with the
 * dictionary (the prose of a small file has nothing earlier to refer to). */
#include <lzma.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#include "archive_internal.h"
#include "archive/prose_dict.h"

#define ZSTD_LEVEL 19

/* The encoders' window (zstd) and dictionary (LZMA2) are those of a stream of at most this
 * size. A stream up to it packs exactly as level 19 and preset 9e do on their own; a
 * larger one (a block of long engine comments) packs in 47-53 MB of encoder memory
 * instead of growing with the stream (LZMA2's dictionary to 1 GiB: 11 bytes of encoder
 * memory per dictionary byte). The format's decoder dictionary (raw size rounded up)
 * holds any smaller one, so archives packed either way decode with every ucizip. */
#define WINDOW_LOG 22
#define WINDOW_MAX_BYTES ((size_t)1 << WINDOW_LOG)

static uint32_t lzma_dict_size(size_t raw_size)
{
    uint32_t d = 4096;
    while (d < raw_size && d < (1u << 30))
        d <<= 1;
    return d;
}

static bool lzma_filters(uint32_t dict_size, lzma_options_lzma *opt, lzma_filter filters[2])
{
    if (lzma_lzma_preset(opt, 9 | LZMA_PRESET_EXTREME))
        return false;
    opt->dict_size = dict_size;
    filters[0] = (lzma_filter){LZMA_FILTER_LZMA2, opt};
    filters[1] = (lzma_filter){LZMA_VLI_UNKNOWN, NULL};
    return true;
}

static uint32_t lzma_encoder_dict_size(size_t n)
{
    return lzma_dict_size(n < WINDOW_MAX_BYTES ? n : WINDOW_MAX_BYTES);
}

/* The encoders' memory, estimated to schedule them (pack_budget_take). LZMA2's is liblzma's
 * own figure; zstd's is 12 bytes a window byte and 1 MiB, above what level 19 takes
 * (ZSTD_estimateCCtxSize: 49 MB for a 4 MiB window, 0.3 MB for 4 KiB). */
static uint64_t zstd_memory(size_t n)
{
    return 12 * (uint64_t)lzma_encoder_dict_size(n) + (1u << 20);
}

static uint64_t lzma_memory(size_t n)
{
    lzma_options_lzma opt;
    lzma_filter filters[2];
    uint64_t m = lzma_filters(lzma_encoder_dict_size(n), &opt, filters) ? lzma_raw_encoder_memusage(filters) : UINT64_MAX;
    return m == UINT64_MAX ? 12 * (uint64_t)lzma_encoder_dict_size(n) : m;
}

/* Encoders run at once, across every thread of the process (block writers on several
 * workers, both tag codings of a block, both methods), while their estimated memory fits
 * in a budget of 64 MiB a processor; past it a job waits for others to end, and a job
 * that does not fit alone runs alone. So packing never holds more than about one large
 * encoder a core (more would not run sooner), small streams still pack all four ways at
 * once, and the order never changes a byte. */
#define PACK_MEMORY_PER_CPU ((uint64_t)64 << 20)

static struct {
    pthread_mutex_t lock;
    pthread_cond_t freed;
    uint64_t in_use, limit; /* limit: 0 until the first job sets it */
} budget = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0};

static void pack_budget_take(uint64_t bytes)
{
    pthread_mutex_lock(&budget.lock);
    if (!budget.limit) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        budget.limit = PACK_MEMORY_PER_CPU * (uint64_t)(cpus > 2 ? cpus : 2);
    }
    while (budget.in_use > 0 && budget.in_use + bytes > budget.limit)
        pthread_cond_wait(&budget.freed, &budget.lock);
    budget.in_use += bytes;
    pthread_mutex_unlock(&budget.lock);
}

static void pack_budget_give(uint64_t bytes)
{
    pthread_mutex_lock(&budget.lock);
    budget.in_use -= bytes;
    pthread_cond_broadcast(&budget.freed);
    pthread_mutex_unlock(&budget.lock);
}

/* src compressed by one method into dst (replaced); false if the method failed. With
 * prose, the frame starts from the prose dictionary as raw content (method 3). */
static bool pack_zstd(const uint8_t *src, size_t n, uz_buf *dst, bool prose)
{
    size_t bound = ZSTD_compressBound(n);
    dst->size = 0;
    if (uz_buf_reserve(dst, bound) != UZ_OK)
        return false;
    ZSTD_CCtx *cctx = ZSTD_createCCtx();
    if (!cctx)
        return false;
    /* Level 19 sizes its window to the stream up to 8 MiB; WINDOW_LOG is set only past
     * WINDOW_MAX_BYTES, so smaller streams pack as ZSTD_compress packs them. */
    size_t z = ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, ZSTD_LEVEL);
    if (!ZSTD_isError(z) && n > WINDOW_MAX_BYTES)
        z = ZSTD_CCtx_setParameter(cctx, ZSTD_c_windowLog, WINDOW_LOG);
    if (!ZSTD_isError(z) && prose)
        z = ZSTD_CCtx_loadDictionary(cctx, uz__prose_dict, uz__prose_dict_size); /* (raw content: no dictionary magic) */
    uint64_t memory = zstd_memory(prose ? n + uz__prose_dict_size : n);
    pack_budget_take(memory);
    if (!ZSTD_isError(z))
        z = ZSTD_compress2(cctx, dst->data, bound, src, n);
    ZSTD_freeCCtx(cctx);
    pack_budget_give(memory);
    if (ZSTD_isError(z))
        return false;
    dst->size = z;
    return true;
}

static bool pack_lzma2(const uint8_t *src, size_t n, uz_buf *dst)
{
    size_t bound = n + n / 16 + 1024, size = 0;
    lzma_options_lzma opt;
    lzma_filter filters[2];
    dst->size = 0;
    if (uz_buf_reserve(dst, bound) != UZ_OK || !lzma_filters(lzma_encoder_dict_size(n), &opt, filters))
        return false;
    uint64_t memory = lzma_memory(n);
    pack_budget_take(memory);
    bool ok = lzma_raw_buffer_encode(filters, NULL, src, n, dst->data, &size, bound) == LZMA_OK;
    pack_budget_give(memory);
    if (!ok)
        return false;
    dst->size = size;
    return true;
}

/* Streams from this size on are packed by LZMA2 and by zstd over the prose dictionary on
 * threads of their own, beside zstd on the caller's: a block's structure is packed at the
 * end of its coding, when nothing else runs (with a fast oracle it can take as long as
 * the scoring), and the three cost about the same. */
#define THREAD_MIN_BYTES 4096

/* A packing run beside the caller's (the methods but the first). */
typedef struct pack_job {
    unsigned method;
    const uint8_t *src;
    size_t n;
    uz_buf out;
    bool ok;
} pack_job;

static bool pack_one(unsigned method, const uint8_t *src, size_t n, uz_buf *dst)
{
    return method == UZ__PACK_LZMA2 ? pack_lzma2(src, n, dst) : pack_zstd(src, n, dst, method == UZ__PACK_ZSTD_PROSE);
}

static void *pack_main(void *arg)
{
    pack_job *job = arg;
    job->ok = pack_one(job->method, job->src, job->n, &job->out);
    return NULL;
}

uz_result uz__pack(const uint8_t *src, size_t n, uz_buf *dst, unsigned *method)
{
    pack_job jobs[2] = {{UZ__PACK_LZMA2, src, n, {0}, false}, {UZ__PACK_ZSTD_PROSE, src, n, {0}, false}};
    pthread_t threads[2];
    bool threaded[2];
    for (int i = 0; i < 2; i++)
        threaded[i] = n >= THREAD_MIN_BYTES && pthread_create(&threads[i], NULL, pack_main, &jobs[i]) == 0;
    bool zstd_ok = pack_zstd(src, n, dst, false);
    for (int i = 0; i < 2; i++) {
        if (threaded[i])
            pthread_join(threads[i], NULL);
        else
            pack_main(&jobs[i]);
    }
    *method = UZ__PACK_ZSTD;
    /* Another method only when strictly smaller: the lower method on a tie. */
    for (int i = 0; i < 2 && zstd_ok; i++)
        if (jobs[i].ok && jobs[i].out.size < dst->size) {
            uz_buf t = *dst;
            *dst = jobs[i].out;
            jobs[i].out = t;
            *method = jobs[i].method;
        }
    uz_buf_free(&jobs[0].out);
    uz_buf_free(&jobs[1].out);
    return zstd_ok ? UZ_OK : UZ_ERR_NOMEM;
}

uz_result uz__pack_with(unsigned method, const uint8_t *src, size_t n, uz_buf *dst)
{
    if (method != UZ__PACK_ZSTD && method != UZ__PACK_LZMA2 && method != UZ__PACK_ZSTD_PROSE)
        return UZ_ERR_ARG;
    return pack_one(method, src, n, dst) ? UZ_OK : UZ_ERR_NOMEM;
}

/* Output grows as it is produced (1 MiB at a time), so a size field that lies costs no
 * more memory than the data really decompresses to. */
#define UNPACK_CHUNK ((size_t)1 << 20)

static uz_result unpack_zstd(const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size, bool prose)
{
    if (ZSTD_getFrameContentSize(src, n) != raw_size)
        return UZ_ERR_CORRUPT;
    ZSTD_DStream *ds = ZSTD_createDStream();
    if (!ds)
        return UZ_ERR_NOMEM;
    if (prose && ZSTD_isError(ZSTD_DCtx_loadDictionary(ds, uz__prose_dict, uz__prose_dict_size))) {
        ZSTD_freeDStream(ds);
        return UZ_ERR_NOMEM;
    }
    uz_result r = UZ_ERR_CORRUPT;
    ZSTD_inBuffer in = {src, n, 0};
    size_t ret = 1;
    while (ret != 0) {
        if (uz_buf_reserve(dst, UNPACK_CHUNK) != UZ_OK) {
            r = UZ_ERR_NOMEM;
            break;
        }
        ZSTD_outBuffer out = {dst->data + dst->size, UNPACK_CHUNK, 0};
        ret = ZSTD_decompressStream(ds, &out, &in);
        dst->size += out.pos;
        if (ZSTD_isError(ret) || dst->size > raw_size || (ret != 0 && in.pos == n && out.pos < out.size))
            break;
    }
    if (ret == 0 && in.pos == n && dst->size == raw_size)
        r = UZ_OK;
    ZSTD_freeDStream(ds);
    return r;
}

static uz_result unpack_lzma2(const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size)
{
    lzma_options_lzma opt;
    lzma_filter filters[2];
    lzma_stream ls = LZMA_STREAM_INIT;
    if (!lzma_filters(lzma_dict_size(raw_size), &opt, filters))
        return UZ_ERR_CORRUPT;
    /* The dictionary needs no more than the output: raw_size (already within the
     * decoder's limit) bounds it. */
    if (opt.dict_size > raw_size && raw_size >= 4096)
        opt.dict_size = (uint32_t)raw_size;
    if (lzma_raw_decoder(&ls, filters) != LZMA_OK)
        return UZ_ERR_NOMEM;
    uz_result r = UZ_ERR_CORRUPT;
    ls.next_in = src;
    ls.avail_in = n;
    lzma_ret ret = LZMA_OK;
    while (ret == LZMA_OK) {
        if (uz_buf_reserve(dst, UNPACK_CHUNK) != UZ_OK) {
            r = UZ_ERR_NOMEM;
            break;
        }
        ls.next_out = dst->data + dst->size;
        ls.avail_out = UNPACK_CHUNK;
        ret = lzma_code(&ls, LZMA_FINISH);
        dst->size += UNPACK_CHUNK - ls.avail_out;
        if (dst->size > raw_size || (ret == LZMA_OK && ls.avail_in == 0 && ls.avail_out > 0))
            break;
    }
    if ((ret == LZMA_OK || ret == LZMA_STREAM_END) && ls.avail_in == 0 && dst->size == raw_size)
        r = UZ_OK;
    lzma_end(&ls);
    return r;
}

uz_result uz__unpack(unsigned method, const uint8_t *src, size_t n, uz_buf *dst, size_t raw_size)
{
    dst->size = 0;
    if (method == UZ__PACK_ZSTD || method == UZ__PACK_ZSTD_PROSE)
        return unpack_zstd(src, n, dst, raw_size, method == UZ__PACK_ZSTD_PROSE);
    if (method == UZ__PACK_LZMA2)
        return unpack_lzma2(src, n, dst, raw_size);
    return UZ_ERR_CORRUPT;
}
