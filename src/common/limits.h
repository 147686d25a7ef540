/* One set of limits on what a game and an archive block may hold. The PGN reader refuses
 * a game past them (UZ_ERR_LIMIT, the game is skipped), the structure-stream writer
 * refuses to write past them, and the archive reader refuses anything past them, so
 * compress can never write what decompress refuses. The decoder limits (uz_decode_limits)
 * bound the work and memory of decoding an archive; they may be lowered (or raised) by
 * the user; doc/format.md lists them. */
#ifndef UCIZIP_LIMITS_H
#define UCIZIP_LIMITS_H

#include <stddef.h>
#include <stdint.h>

/* One game. */
#define UZ_LIMIT_GAME_BYTES ((size_t)64 << 20) /* PGN text of one game, comments included */
#define UZ_LIMIT_TEXT ((size_t)16 << 20)       /* one tag name, tag value or comment */
#define UZ_LIMIT_LIST ((size_t)1 << 20)        /* tags of a game; NAGs, comments or variations at one place */
#define UZ_LIMIT_DEPTH 256                     /* nesting of variations */
#define UZ_LIMIT_GAME_NODES ((size_t)1 << 20)  /* moves of one game, variations and null moves included */

/* One archive block: the writer ends a block early rather than pass these, so one game
 * within the limits above always fits in a block of its own. */
#define UZ_LIMIT_BLOCK_NODES ((uint64_t)1 << 20)       /* moves of all the block's games */
#define UZ_LIMIT_BLOCK_STRUCT ((uint64_t)128 << 20)    /* uncompressed structure stream */
#define UZ_LIMIT_BLOCK_MARKS ((uint64_t)64 << 20)      /* NAGs and variations of all the block's games (structure
                                                          structure version 4 codes one in under a bit: bounds the reader's work) */

/* The engine bridge's canonical settings text, terminator included: the size of the engine
 * pool's settings text and of the archive header's field that stores it. */
#define UZ_LIMIT_SETTINGS_TEXT 4096

/* What a decoder accepts before it allocates or searches: a block claiming more moves or
 * a larger structure stream is refused at once as too large. Zeroed fields mean the
 * defaults (the block limits above, which every archive ucizip writes respects). */
typedef struct uz_decode_limits {
    uint64_t block_nodes;        /* moves of one block (each costs memory and an engine search) */
    uint64_t block_struct_bytes; /* uncompressed structure stream of one block */
    uint64_t engine_memory_mb;   /* the Hash an archive's settings may give each engine (MB) */
} uz_decode_limits;

/* The decoder's default engine memory limit (MB of Hash per engine process): an archive's
 * settings choose the engines' Hash, and are checked against this before any engine
 * starts (the user raises it, as zstd's --memory). */
#define UZ_LIMIT_ENGINE_MEMORY_MB 256

/* l with its zero fields replaced by the defaults (l may be NULL). */
static inline uz_decode_limits uz_decode_limits_or_default(const uz_decode_limits *l)
{
    uz_decode_limits d = {UZ_LIMIT_BLOCK_NODES, UZ_LIMIT_BLOCK_STRUCT, UZ_LIMIT_ENGINE_MEMORY_MB};
    if (l && l->block_nodes)
        d.block_nodes = l->block_nodes;
    if (l && l->block_struct_bytes)
        d.block_struct_bytes = l->block_struct_bytes;
    if (l && l->engine_memory_mb)
        d.engine_memory_mb = l->engine_memory_mb;
    return d;
}

#endif
