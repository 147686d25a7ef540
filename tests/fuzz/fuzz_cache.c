/* Fuzz target for the score cache's readers of untrusted bytes: the check of an LMDB
 * file's meta pages before it is mapped (the input as the file's start, with its own
 * length and with a larger claimed size), and the entry decoder (the input as a stored
 * value, its moves taken from the value itself so the checksum is what stops it). Any
 * bytes are accepted or refused with a reason, never read out of bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/score_cache.h"
#include "fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uz_diag diag = {0};
    if (uz_score_cache_check_file(data, size, size, &diag) != UZ_OK && !diag.message[0])
        abort(); /* every refusal says why */
    memset(&diag, 0, sizeof diag);
    if (uz_score_cache_check_file(data, size, (uint64_t)size * 3 + 4096, &diag) != UZ_OK && !diag.message[0])
        abort();

    static const char key[] = "0123456789abcdef rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
    int n = size >= 2 ? data[1] : 1;
    if (n < 1 || n > UZ_MAX_MOVES)
        n = 1;
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++)
        moves[i] = (size_t)(3 + 2 * i) < size ? (uz_move)(data[2 + 2 * i] | data[3 + 2 * i] << 8) : 0;
    if (uz_score_cache_entry_decode(data, size, key, sizeof key - 1, moves, n, scores)) {
        /* A value it takes has exactly the size its move count gives. */
        if (size != 2 + (size_t)n * 6 + 8)
            abort();
    }
    return 0;
}
