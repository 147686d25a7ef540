/* FNV-1a 64 hashing and the built-in probe positions behind the engine fingerprint. */
#include "engine_internal.h"

uint64_t uz__fnv1a(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* Varied positions (opening, tactics-rich middlegame, endgame, a forced mate, a
 * high halfmove clock) so that another build or network changes some score.
 * Never change this list without bumping UZ_ENGINE_PROTOCOL_VERSION. */
const char *const uz__probe_fens[] = {
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 1",
    "8/8/4k3/8/2R5/4K3/8/8 b - - 90 1",
    NULL,
};
