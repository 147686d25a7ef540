/* SHA-256 (src/common/sha256.c) against the FIPS 180-2 appendix B test vectors, fed whole
 * and in uneven pieces, and at the lengths around the padding boundary against an
 * incremental feed of the same bytes. */
#include <string.h>

#include "common/sha256.h"
#include "../common/uz_test.h"

static void hex_of(const void *data, size_t n, size_t piece, char hex[UZ_SHA256_HEX_SIZE])
{
    uz_sha256 c;
    uint8_t d[32];
    uz_sha256_init(&c);
    const char *p = data;
    for (size_t done = 0; done < n;) {
        size_t take = piece && piece < n - done ? piece : n - done;
        uz_sha256_update(&c, p + done, take);
        done += take;
    }
    uz_sha256_final(&c, d);
    uz_sha256_hex(d, hex);
}

int main(void)
{
    static const struct {
        const char *text;
        const char *digest;
    } fips[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    };
    char hex[UZ_SHA256_HEX_SIZE], again[UZ_SHA256_HEX_SIZE];
    for (size_t i = 0; i < sizeof fips / sizeof fips[0]; i++) {
        for (size_t piece = 0; piece < 5; piece++) {
            hex_of(fips[i].text, strlen(fips[i].text), piece, hex);
            CHECK(strcmp(hex, fips[i].digest) == 0, "'%s' in pieces of %zu: %s", fips[i].text, piece, hex);
        }
    }
    /* FIPS 180-2 B.3: one million 'a', fed in pieces of 1000 and of 997. */
    static char million[1000000];
    memset(million, 'a', sizeof million);
    hex_of(million, sizeof million, 1000, hex);
    CHECK(strcmp(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0") == 0, "%s", hex);
    hex_of(million, sizeof million, 997, again);
    CHECK(strcmp(hex, again) == 0, "pieces of 997: %s", again);
    /* Lengths around the 56- and 64-byte padding boundaries: whole = byte by byte. */
    for (size_t n = 50; n <= 130; n++) {
        hex_of(million, n, 0, hex);
        hex_of(million, n, 1, again);
        CHECK(strcmp(hex, again) == 0, "length %zu", n);
    }
    /* 447 bits of 'a' (55 bytes, the longest message padded in one block) as hashlib gives it. */
    hex_of(million, 55, 0, hex);
    CHECK(strcmp(hex, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318") == 0, "55 a: %s", hex);
    return test_finish();
}
