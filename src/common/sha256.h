/* SHA-256 (FIPS 180-4), for checking that a stored engine binary is the one that was
 * stored. Incremental: init, update any number of times, final. */
#ifndef UCIZIP_SHA256_H
#define UCIZIP_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define UZ_SHA256_HEX_SIZE 65 /* 64 hex digits and the NUL */

typedef struct uz_sha256 {
    uint32_t state[8];
    uint64_t length;     /* bytes hashed so far */
    uint8_t block[64];   /* the partial block */
    size_t used;         /* bytes in block */
} uz_sha256;

void uz_sha256_init(uz_sha256 *c);
void uz_sha256_update(uz_sha256 *c, const void *data, size_t n);
/* Finishes the hash: 32 bytes into digest; c must be initialised again before reuse. */
void uz_sha256_final(uz_sha256 *c, uint8_t digest[32]);
/* Writes the 32 digest bytes as 64 lowercase hex digits and a NUL. */
void uz_sha256_hex(const uint8_t digest[32], char hex[UZ_SHA256_HEX_SIZE]);

#endif
