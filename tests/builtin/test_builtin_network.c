/* builtin-3's network: the incremental evaluation (the root's sums corrected on the
 * squares that differ) equals the evaluation from scratch on every child and grandchild
 * of the test positions (perft positions, Chess960 ones, sample.pgn's games), so the
 * search's results are the specification's. The network sees the board from the side to
 * move: a position and its colour-mirrored twin score the same. */
#include "builtin/v3_eval.h"
#include "builtin_test.h"

/* pos with colours swapped and the board mirrored top to bottom (castling and ep are
 * irrelevant to the network). */
static void mirror(const uz_position *pos, uint8_t *squares)
{
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->squares[sq ^ 56];
        squares[sq] = (uint8_t)(p ? UZ_PIECE(UZ_PIECE_COLOR(p) ^ 1, UZ_PIECE_TYPE(p)) : 0);
    }
}

int main(void)
{
    char path[4096];
    test_positions data = {0};
    positions_from_epd(&data, data_path("perft.epd", path, sizeof path), false, false);
    positions_from_epd(&data, data_path("perft960.epd", path, sizeof path), true, false);
    positions_from_pgn(&data, data_path("sample.pgn", path, sizeof path), 0);
    CHECK(data.n > 500);
    struct b3_network_state *net = uz__b3_network_create();
    CHECK(net != NULL);
    long checked = 0, mismatches = 0, mirrored_ok = 0;
    uz_move moves[UZ_MAX_MOVES], replies[UZ_MAX_MOVES];
    for (size_t i = 0; net && i < data.n; i++) {
        uz_position root = data.items[i];
        uz__b3_network_set_reference(net, &root);
        mismatches += uz__b3_network_from_reference(net, &root) != uz__b3_network_evaluate(&root);
        int n = uz_generate_legal(&root, moves);
        for (int k = 0; k < n; k++) {
            uz_position child = root;
            uz_undo undo;
            uz_make_move(&child, moves[k], &undo);
            mismatches += uz__b3_network_from_reference(net, &child) != uz__b3_network_evaluate(&child);
            int m = uz_generate_legal(&child, replies);
            for (int r = 0; r < m; r += 3) {
                uz_position grandchild = child;
                uz_make_move(&grandchild, replies[r], &undo);
                mismatches +=
                    uz__b3_network_from_reference(net, &grandchild) != uz__b3_network_evaluate(&grandchild);
                checked++;
            }
            checked++;
        }
        /* the colour-mirrored position with the other side to move: the same view */
        uz_position twin = root;
        mirror(&root, twin.squares);
        twin.side ^= 1;
        mirrored_ok += uz__b3_network_evaluate(&twin) == uz__b3_network_evaluate(&root);
    }
    printf("%ld positions checked, %ld mismatches; %ld of %zu mirrored twins equal\n", checked, mismatches,
           mirrored_ok, data.n);
    CHECK(checked > 100000 && mismatches == 0);
    CHECK(mirrored_ok == (long)data.n);
    /* it sees the side to move: the same board with the other side to move differs */
    int differ = 0;
    for (size_t i = 0; i < data.n; i++) {
        uz_position other = data.items[i];
        other.side ^= 1;
        differ += uz__b3_network_evaluate(&other) != uz__b3_network_evaluate(&data.items[i]);
    }
    CHECK(differ > (int)data.n * 9 / 10, "%d of %zu", differ, data.n);
    uz__b3_network_destroy(net);
    free(data.items);
    return test_finish();
}
