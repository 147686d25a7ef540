/* FNV-1a 64, the one small non-cryptographic hash the modules share: fingerprints, weight
 * set identities, cache record checks and the structure stream's tag-name hashes all use
 * it, and their values are recorded in archives and caches, so it must never change. */
#ifndef UCIZIP_HASH_H
#define UCIZIP_HASH_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define UZ_FNV1A64_OFFSET 0xcbf29ce484222325ull

/* Continues the hash h over len bytes of data (start with UZ_FNV1A64_OFFSET). */
static inline uint64_t uz_fnv1a64(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The same over a NUL-terminated string, without its NUL. */
static inline uint64_t uz_fnv1a64_str(uint64_t h, const char *s)
{
    return uz_fnv1a64(h, s, strlen(s));
}

#endif
