/* Result codes and diagnostics shared by every ucizip module: the public ones of
 * ucizip.h (uz_result, uz_diag, uz_diag_set, uz_result_str). The library never prints
 * and never exits: the CLI formats a uz_diag and chooses the exit code. */
#ifndef UCIZIP_COMMON_H
#define UCIZIP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ucizip.h"

/* Copies the string src (NULL reads as "") into dst of cap bytes, always NUL-terminated
 * when cap > 0. Returns false when src did not fit and was cut, so that a caller that must
 * not truncate can refuse. */
bool uz_copy_str(char *dst, size_t cap, const char *src);

#endif
