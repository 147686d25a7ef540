/* Fuzz target for FEN parsing: any text either fails with a message or gives a position
 * whose move list fits UZ_MAX_MOVES, whose FEN reads back to the same position, and
 * whose moves can all be played and taken back. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/board.h"
#include "fuzz_target.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text)
        size = sizeof text - 1;
    memcpy(text, data, size);
    text[size] = 0;
    uz_position pos, again;
    uz_diag diag = {0};
    if (uz_position_from_fen(&pos, text, &diag) != UZ_OK) {
        if (!diag.message[0])
            abort(); /* every refusal says why */
        return 0;
    }
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(&pos, moves);
    if (n < 0 || n > UZ_MAX_MOVES)
        abort();
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(&pos, fen);
    if (uz_position_from_fen(&again, fen, NULL) != UZ_OK || !uz_position_equal(&pos, &again))
        abort();
    for (int i = 0; i < n; i++) {
        uz_undo undo;
        uz_position before = pos;
        uz_make_move(&pos, moves[i], &undo);
        uz_move next[UZ_MAX_MOVES];
        (void)uz_generate_legal(&pos, next);
        uz_unmake_move(&pos, moves[i], &undo);
        if (!uz_position_equal(&pos, &before))
            abort();
    }
    return 0;
}
