/* Result codes and diagnostics shared by every ucizip module: the public ones of
 * ucizip.h (uz_result, uz_diag, uz_diag_set, uz_result_str). The library never prints
 * and never exits: the CLI formats a uz_diag and chooses the exit code. */
#ifndef UCIZIP_COMMON_H
#define UCIZIP_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "ucizip.h"

#endif
