/* The dictionary of structure-stream method 3 (doc/format.md, "Block"): the prose comments
 * of games outside the measured corpus (data/prose_dict/v1.bin, compiled in at build time
 * by scripts/prose_dict.py and pinned by its hash in src/archive/meson.build). */
#ifndef UCIZIP_PROSE_DICT_H
#define UCIZIP_PROSE_DICT_H

#include <stddef.h>

extern const size_t uz__prose_dict_size;
extern const unsigned char uz__prose_dict[];

#endif
