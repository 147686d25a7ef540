/* Plain and compressed inputs behind one FILE: the magic bytes choose the decoder. */
#define _GNU_SOURCE /* fopencookie */
#include "io/input.h"

#include <bzlib.h>
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#define RAW_CAP (128 * 1024)

struct uz_input {
    int fd;
    bool own_fd;
    uz_input_kind kind;
    FILE *file;
    char name[256];
    uint8_t *raw;        /* compressed bytes read from fd, raw[pos..len) not yet consumed */
    size_t pos, len;
    bool raw_eof;
    uint64_t raw_offset; /* file offset of raw[pos] */
    uint64_t out_offset; /* decompressed bytes delivered */
    bool stream_end;     /* the current compressed stream ended cleanly */
    bool any_stream;     /* at least one byte of a stream was given to the decoder */
    uz_result error;     /* sticky: the first error */
    char message[200];
    ZSTD_DCtx *zstd;
    z_stream gz;
    bool gz_init;
    bz_stream bz;
    bool bz_init;
    lzma_stream xz;
    bool xz_init;
};

static const char *const kind_names[] = {"plain", "zstd", "gzip", "bzip2", "xz"};

const char *uz_input_kind_name(uz_input_kind kind)
{
    return (unsigned)kind < sizeof kind_names / sizeof kind_names[0] ? kind_names[kind] : "unknown";
}

static void fail(uz_input *in, uz_result code, const char *fmt, unsigned long long offset, const char *detail)
{
    if (in->error != UZ_OK)
        return;
    in->error = code;
    snprintf(in->message, sizeof in->message, fmt, uz_input_kind_name(in->kind), offset, detail ? detail : "");
}

/* Refills raw[] when everything has been consumed. Returns false at end of file or on
 * a read error (recorded). */
static bool refill(uz_input *in)
{
    if (in->pos < in->len)
        return true;
    if (in->raw_eof)
        return false;
    in->pos = in->len = 0;
    for (;;) {
        ssize_t got = read(in->fd, in->raw, RAW_CAP);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            in->error = UZ_ERR_IO;
            snprintf(in->message, sizeof in->message, "read error at byte %llu: %s",
                     (unsigned long long)in->raw_offset, strerror(errno));
            in->raw_eof = true;
            return false;
        }
        if (got == 0) {
            in->raw_eof = true;
            return false;
        }
        in->len = (size_t)got;
        return true;
    }
}

static void consume(uz_input *in, size_t n)
{
    in->pos += n;
    in->raw_offset += n;
}

/* Each decoder fills out[0..cap) and returns the bytes produced; 0 with no error
 * recorded means the end of the input. */

static size_t read_plain(uz_input *in, uint8_t *out, size_t cap)
{
    if (!refill(in))
        return 0;
    size_t n = in->len - in->pos < cap ? in->len - in->pos : cap;
    memcpy(out, in->raw + in->pos, n);
    consume(in, n);
    return n;
}

/* For the decoders below: more is false once the file is exhausted; the decoder is then
 * called once more with no input to flush what it holds, and a stream that has not ended
 * by then is truncated. */

static size_t read_zstd(uz_input *in, uint8_t *out, size_t cap)
{
    ZSTD_outBuffer ob = {out, cap, 0};
    while (ob.pos == 0) {
        bool more = refill(in);
        if (in->error != UZ_OK || (!more && (in->stream_end || !in->any_stream)))
            break;
        ZSTD_inBuffer ib = {in->raw + in->pos, in->len - in->pos, 0};
        size_t rc = ZSTD_decompressStream(in->zstd, &ob, &ib);
        consume(in, ib.pos);
        if (ZSTD_isError(rc)) {
            fail(in, UZ_ERR_CORRUPT, "damaged %s stream at byte %llu: %s", in->raw_offset, ZSTD_getErrorName(rc));
            return 0;
        }
        in->any_stream = true;
        in->stream_end = rc == 0; /* a frame is complete and nothing is buffered */
        if (!more && ob.pos == 0) {
            fail(in, UZ_ERR_CORRUPT, "truncated %s stream at byte %llu%s", in->raw_offset, NULL);
            return 0;
        }
    }
    return in->error != UZ_OK ? 0 : ob.pos;
}

static size_t read_gzip(uz_input *in, uint8_t *out, size_t cap)
{
    z_stream *z = &in->gz;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    z->next_out = out;
    z->avail_out = (uInt)cap;
    while (z->avail_out == cap) {
        bool more = refill(in);
        if (in->error != UZ_OK || (!more && (in->stream_end || !in->any_stream)))
            break;
        if (in->stream_end) { /* another gzip member follows the one that ended */
            inflateReset(z);
            in->stream_end = false;
        }
        z->next_in = in->raw + in->pos;
        z->avail_in = (uInt)(in->len - in->pos);
        size_t before = z->avail_in;
        int rc = inflate(z, Z_NO_FLUSH);
        consume(in, before - z->avail_in);
        in->any_stream = true;
        if (rc == Z_STREAM_END) {
            in->stream_end = true;
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            fail(in, UZ_ERR_CORRUPT, "damaged %s stream at byte %llu: %s", in->raw_offset, z->msg ? z->msg : "");
            return 0;
        }
        if (!more && z->avail_out == cap && !in->stream_end) {
            fail(in, UZ_ERR_CORRUPT, "truncated %s stream at byte %llu%s", in->raw_offset, NULL);
            return 0;
        }
    }
    return in->error != UZ_OK ? 0 : cap - z->avail_out;
}

static size_t read_bzip2(uz_input *in, uint8_t *out, size_t cap)
{
    bz_stream *b = &in->bz;
    if (cap > UINT32_MAX)
        cap = UINT32_MAX;
    b->next_out = (char *)out;
    b->avail_out = (unsigned)cap;
    while (b->avail_out == cap) {
        bool more = refill(in);
        if (in->error != UZ_OK || (!more && (in->stream_end || !in->any_stream)))
            break;
        if (in->stream_end) { /* concatenated bzip2 streams (pbzip2, cat a.bz2 b.bz2) */
            BZ2_bzDecompressEnd(b);
            memset(b, 0, sizeof *b);
            if (BZ2_bzDecompressInit(b, 0, 0) != BZ_OK) {
                in->bz_init = false;
                fail(in, UZ_ERR_NOMEM, "%s decoder: out of memory at byte %llu%s", in->raw_offset, NULL);
                return 0;
            }
            b->next_out = (char *)out;
            b->avail_out = (unsigned)cap;
            in->stream_end = false;
        }
        b->next_in = (char *)in->raw + in->pos;
        b->avail_in = (unsigned)(in->len - in->pos);
        size_t before = b->avail_in;
        int rc = BZ2_bzDecompress(b);
        consume(in, before - b->avail_in);
        in->any_stream = true;
        if (rc == BZ_STREAM_END) {
            in->stream_end = true;
        } else if (rc != BZ_OK) {
            fail(in, UZ_ERR_CORRUPT, "damaged %s stream at byte %llu%s", in->raw_offset, NULL);
            return 0;
        }
        if (!more && b->avail_out == cap && !in->stream_end) {
            fail(in, UZ_ERR_CORRUPT, "truncated %s stream at byte %llu%s", in->raw_offset, NULL);
            return 0;
        }
    }
    return in->error != UZ_OK ? 0 : cap - b->avail_out;
}

static size_t read_xz(uz_input *in, uint8_t *out, size_t cap)
{
    lzma_stream *x = &in->xz;
    x->next_out = out;
    x->avail_out = cap;
    while (x->avail_out == cap && !in->stream_end) {
        bool more = refill(in);
        if (in->error != UZ_OK)
            return 0;
        x->next_in = in->raw + in->pos;
        x->avail_in = in->len - in->pos;
        size_t before = x->avail_in;
        /* LZMA_CONCATENATED needs LZMA_FINISH at the end of the input to report the end. */
        lzma_ret rc = lzma_code(x, more ? LZMA_RUN : LZMA_FINISH);
        consume(in, before - x->avail_in);
        if (rc == LZMA_STREAM_END) {
            in->stream_end = true;
        } else if (rc != LZMA_OK) {
            const char *what = rc == LZMA_BUF_ERROR ? "truncated %s stream at byte %llu%s"
                                                     : "damaged %s stream at byte %llu%s";
            fail(in, UZ_ERR_CORRUPT, what, in->raw_offset, NULL);
            return 0;
        }
        if (!more && x->avail_out == cap && rc == LZMA_OK) {
            fail(in, UZ_ERR_CORRUPT, "truncated %s stream at byte %llu%s", in->raw_offset, NULL);
            return 0;
        }
    }
    return cap - x->avail_out;
}

static ssize_t cookie_read(void *cookie, char *buf, size_t size)
{
    uz_input *in = cookie;
    if (in->error != UZ_OK) {
        errno = EIO;
        return -1;
    }
    size_t n = 0;
    switch (in->kind) {
    case UZ_INPUT_PLAIN: n = read_plain(in, (uint8_t *)buf, size); break;
    case UZ_INPUT_ZSTD: n = read_zstd(in, (uint8_t *)buf, size); break;
    case UZ_INPUT_GZIP: n = read_gzip(in, (uint8_t *)buf, size); break;
    case UZ_INPUT_BZIP2: n = read_bzip2(in, (uint8_t *)buf, size); break;
    case UZ_INPUT_XZ: n = read_xz(in, (uint8_t *)buf, size); break;
    }
    if (n == 0 && in->error != UZ_OK) {
        errno = in->error == UZ_ERR_IO ? EIO : EILSEQ;
        return -1;
    }
    in->out_offset += n;
    return (ssize_t)n;
}

static int cookie_close(void *cookie)
{
    (void)cookie; /* uz_input_close frees everything */
    return 0;
}

/* Reads the first bytes (as many as the longest magic) without consuming them. */
static uz_input_kind sniff(uz_input *in)
{
    while (in->len < 6 && !in->raw_eof) {
        ssize_t got = read(in->fd, in->raw + in->len, RAW_CAP - in->len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            if (got < 0) {
                in->error = UZ_ERR_IO;
                snprintf(in->message, sizeof in->message, "read error: %s", strerror(errno));
            }
            in->raw_eof = true;
            break;
        }
        in->len += (size_t)got;
    }
    const uint8_t *p = in->raw;
    if (in->len >= 4 && p[0] == 0x28 && p[1] == 0xB5 && p[2] == 0x2F && p[3] == 0xFD)
        return UZ_INPUT_ZSTD;
    if (in->len >= 4 && (p[0] & 0xF0) == 0x50 && p[1] == 0x2A && p[2] == 0x4D && p[3] == 0x18)
        return UZ_INPUT_ZSTD; /* a skippable frame first */
    if (in->len >= 3 && p[0] == 0x1F && p[1] == 0x8B && p[2] == 8)
        return UZ_INPUT_GZIP;
    if (in->len >= 4 && p[0] == 'B' && p[1] == 'Z' && p[2] == 'h' && p[3] >= '1' && p[3] <= '9')
        return UZ_INPUT_BZIP2;
    if (in->len >= 6 && memcmp(p, "\xFD" "7zXZ\0", 6) == 0)
        return UZ_INPUT_XZ;
    return UZ_INPUT_PLAIN;
}

static bool start_decoder(uz_input *in)
{
    switch (in->kind) {
    case UZ_INPUT_PLAIN: return true;
    case UZ_INPUT_ZSTD: return (in->zstd = ZSTD_createDCtx()) != NULL;
    case UZ_INPUT_GZIP:
        in->gz_init = inflateInit2(&in->gz, 15 + 16) == Z_OK; /* gzip wrapper only */
        return in->gz_init;
    case UZ_INPUT_BZIP2:
        in->bz_init = BZ2_bzDecompressInit(&in->bz, 0, 0) == BZ_OK;
        return in->bz_init;
    case UZ_INPUT_XZ:
        in->xz = (lzma_stream)LZMA_STREAM_INIT;
        in->xz_init = lzma_stream_decoder(&in->xz, UINT64_MAX, LZMA_CONCATENATED) == LZMA_OK;
        return in->xz_init;
    }
    return false;
}

uz_result uz_input_open(uz_input **out, const char *path, uz_diag *diag)
{
    *out = NULL;
    bool is_stdin = !path || strcmp(path, "-") == 0;
    uz_input *in = calloc(1, sizeof *in);
    if (!in || !(in->raw = malloc(RAW_CAP))) {
        free(in);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    snprintf(in->name, sizeof in->name, "%s", is_stdin ? "<stdin>" : path);
    if (is_stdin) {
        in->fd = STDIN_FILENO;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s", strerror(errno));
            free(in->raw);
            free(in);
            return UZ_ERR_IO;
        }
        in->own_fd = true;
    }
    struct stat st;
    if (fstat(in->fd, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            uz_diag_set(diag, UZ_ERR_IO, 0, 0, "is a directory");
            uz_input_close(in);
            return UZ_ERR_IO;
        }
    }
    in->kind = sniff(in);
    if (in->error != UZ_OK) {
        uz_diag_set(diag, in->error, 0, 0, "%s", in->message);
        uz_input_close(in);
        return UZ_ERR_IO;
    }
    cookie_io_functions_t io = {.read = cookie_read, .close = cookie_close};
    if (!start_decoder(in) || !(in->file = fopencookie(in, "rb", io))) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        uz_input_close(in);
        return UZ_ERR_NOMEM;
    }
    *out = in;
    return UZ_OK;
}

FILE *uz_input_file(uz_input *in)
{
    return in->file;
}

uz_input_kind uz_input_get_kind(const uz_input *in)
{
    return in->kind;
}

uint64_t uz_input_raw_offset(const uz_input *in)
{
    return in->raw_offset;
}

uint64_t uz_input_offset(const uz_input *in)
{
    return in->out_offset;
}

uz_result uz_input_error(const uz_input *in, uz_diag *diag)
{
    if (in->error != UZ_OK)
        uz_diag_set(diag, in->error, 0, 0, "%s", in->message);
    return in->error;
}

void uz_input_close(uz_input *in)
{
    if (!in)
        return;
    if (in->file)
        fclose(in->file);
    ZSTD_freeDCtx(in->zstd);
    if (in->gz_init)
        inflateEnd(&in->gz);
    if (in->bz_init)
        BZ2_bzDecompressEnd(&in->bz);
    if (in->xz_init)
        lzma_end(&in->xz);
    if (in->own_fd)
        close(in->fd);
    free(in->raw);
    free(in);
}
