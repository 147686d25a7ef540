/* Reading inputs that may be compressed: a plain file, or a zstd, gzip, bzip2 or xz
 * stream recognised by its magic bytes (never by its name), decompressed on the fly by
 * the real libraries (libzstd, zlib, libbz2, liblzma) in constant memory. The result is
 * an ordinary FILE (glibc's fopencookie), so every reader that takes a FILE reads
 * compressed inputs too. Concatenated streams (zstd frames, gzip members, bzip2
 * streams, xz streams) are read one after the other, as the command-line tools do. */
#ifndef UCIZIP_INPUT_H
#define UCIZIP_INPUT_H

#include <stdint.h>
#include <stdio.h>

#include "common/common.h"

typedef enum uz_input_kind {
    UZ_INPUT_PLAIN = 0,
    UZ_INPUT_ZSTD,
    UZ_INPUT_GZIP,
    UZ_INPUT_BZIP2,
    UZ_INPUT_XZ,
} uz_input_kind;

typedef struct uz_input uz_input;

/* Opens path (NULL or "-": standard input, which is not closed by uz_input_close) and
 * sniffs its first bytes. Errors: UZ_ERR_IO (cannot open: diag says why), UZ_ERR_NOMEM. */
uz_result uz_input_open(uz_input **out, const char *path, uz_diag *diag);
/* The decompressed bytes. Owned by the input. */
FILE *uz_input_file(uz_input *in);
uz_input_kind uz_input_get_kind(const uz_input *in);
/* "plain", "zstd", "gzip", "bzip2", "xz". */
const char *uz_input_kind_name(uz_input_kind kind);
/* Bytes of the underlying file consumed so far (compressed bytes for a compressed
 * input): for progress reports. */
uint64_t uz_input_raw_offset(const uz_input *in);
/* Decompressed bytes delivered to the FILE so far (read ahead of its reader). */
uint64_t uz_input_offset(const uz_input *in);
/* After the FILE reported an error: UZ_ERR_CORRUPT for a damaged or truncated compressed
 * stream ("truncated gzip stream at byte N"), UZ_ERR_IO for a read error; diag says
 * which and where. UZ_OK when there was none. */
uz_result uz_input_error(const uz_input *in, uz_diag *diag);
/* Closes the FILE and the underlying file. NULL is a no-op. */
void uz_input_close(uz_input *in);

#endif
