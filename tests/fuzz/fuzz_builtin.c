/* Fuzz target for the built-in search: the input picks a start position (standard,
 * middlegame, endgame, Chess960), a version (1 to UZ_BUILTIN_LATEST) and a depth (1 or 2), then its bytes are played as move
 * indices (byte mod the number of legal moves) from there. Up to 24 positions on the way
 * are scored at depth 1, only the last one at depth 2 (a tactical depth-2 position may take
 * its whole node budget: tens of milliseconds, ten times that instrumented); every score must lie in the score convention, a move must score mate in 1
 * exactly when it checkmates, and the search must stay within its node bound. */
#include <stdint.h>
#include <stdlib.h>

#include "builtin/builtin.h"
#include "engine/engine.h"
#include "fuzz_target.h"

static const struct {
    const char *fen;
    bool chess960;
} starts[] = {
    {"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", false},
    {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", false},
    {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", false},
    {"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", false},
    {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9", true},
    {"nrbbqknr/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKNR w HBhb - 0 1", true},
};

static void check_scores(uz_builtin *b, const uz_position *pos, int depth)
{
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    if (n == 0)
        return;
    uz_builtin_score_moves(b, pos, moves, n, scores);
    for (int i = 0; i < n; i++) {
        if (scores[i] > UZ_SCORE_MATE - 1 || scores[i] < -UZ_SCORE_MATE + 1)
            abort();
        uz_position after = *pos;
        uz_undo undo;
        uz_make_move(&after, moves[i], &undo);
        if ((uz_position_status(&after) == UZ_STATUS_CHECKMATE) != (scores[i] == UZ_SCORE_MATE - 1))
            abort();
    }
    uint64_t budget = depth == 1 ? 2000 : 16000; /* doc/builtin.md, node limits */
    if (uz_builtin_last_nodes(b) > (uint64_t)n * (budget + 32 * UZ_MAX_MOVES))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uz_builtin *by_version[UZ_BUILTIN_LATEST][3];
    if (size < 2)
        return 0;
    size_t which = data[0] % (sizeof starts / sizeof starts[0]);
    int depth = 1 + (data[1] & 1), version = 1 + (data[1] >> 1) % UZ_BUILTIN_LATEST;
    uz_builtin **searchers = by_version[version - 1];
    if (!searchers[depth] && uz_builtin_create(&searchers[depth], version, depth, NULL) != UZ_OK)
        abort();
    uz_position pos;
    if (uz_position_from_fen_960(&pos, starts[which].fen, starts[which].chess960, NULL) != UZ_OK)
        abort();
    size_t plies = size - 2, every = depth == 1 ? plies / 24 + 1 : plies + 1;
    uz_move moves[UZ_MAX_MOVES];
    for (size_t i = 0; i < plies; i++) {
        if (i % every == 0 && depth == 1)
            check_scores(searchers[depth], &pos, depth);
        int n = uz_generate_legal(&pos, moves);
        if (n == 0)
            break;
        uz_undo undo;
        uz_make_move(&pos, moves[data[2 + i] % n], &undo);
    }
    check_scores(searchers[depth], &pos, depth);
    return 0;
}
