/* The one key of a position for every store of scores (board.h, uz_position_key_text). */
#include "board.h"
#include "common/hash.h"

void uz_position_key_text(const uz_position *pos, char *out)
{
    uz_position key = *pos;
    key.fullmove = 1;
    uz_position_to_fen(&key, out);
}

uint64_t uz_position_key_hash(const char *key_text, bool chess960)
{
    return uz_fnv1a64_str(chess960 ? UZ_FNV1A64_OFFSET ^ 960 : UZ_FNV1A64_OFFSET, key_text);
}
