/* Result codes and diagnostics shared by every ucizip module: the public ones of
 * ucizip.h (uz_result, uz_diag, uz_result_str) and uz_diag_set, which fills a uz_diag
 * (the library's own; not exported). The library never prints
 * and never exits: the CLI formats a uz_diag and chooses the exit code. */
#ifndef UCIZIP_COMMON_H
#define UCIZIP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ucizip.h"

/* Fills diag (if not NULL) with code, position and a printf-style message. */
void uz_diag_set(uz_diag *diag, uz_result code, long line, long column, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Copies the string src (NULL reads as "") into dst of cap bytes, always NUL-terminated
 * when cap > 0. Returns false when src did not fit and was cut, so that a caller that must
 * not truncate can refuse. */
bool uz_copy_str(char *dst, size_t cap, const char *src);

#endif
