/* The entry point every fuzz target defines, as libFuzzer calls it (and fuzz_main.c, the
 * replay driver of builds without libFuzzer). */
#ifndef UCIZIP_FUZZ_TARGET_H
#define UCIZIP_FUZZ_TARGET_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#endif
