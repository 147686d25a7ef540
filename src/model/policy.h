/* The policy over the board: a small network, frozen as data (data/policy/vN.bin, made by
 * scripts/policy_net.py from a net scripts/policy_experiment.py trained on the human
 * training games), that reads the whole board and gives each legal move a logit: how
 * likely a human is to play it, the engine's scores aside. Integer-only, the same bits on
 * every machine and compiler (tests/model/test_policy.py; the reference of the arithmetic
 * is scripts/policy_net.py). The player model adds beta x the logit to each move's score
 * when its weight set names a policy (player_model.h, the "policy" line). */
#ifndef UCIZIP_POLICY_H
#define UCIZIP_POLICY_H

#include <stdint.h>

#include "chess/board.h"

typedef struct uz_policy_net uz_policy_net;

/* The policy of this version, or NULL if none is built in. */
const uz_policy_net *uz_policy_version(uint32_t version);
/* Its FNV-1a 64 (the data file's), and its version. */
uint64_t uz_policy_hash(const uz_policy_net *net);
uint32_t uz_policy_number(const uz_policy_net *net);

/* The logit of each of the n legal moves of pos (n in 1..UZ_MAX_MOVES), in Q16 log2 units.
 * The board and the moves are seen from the mover (ranks mirrored for Black); a move's key
 * is its piece's type, from and to squares (castling as the move list has it, a
 * promotion as its pawn move). Only the differences between a position's logits mean
 * anything: log2 p(move) = logit / 65536 minus the same constant for every move. */
void uz_policy_logits(const uz_policy_net *net, const uz_position *pos, const uz_move *moves, int n,
                      int32_t *logit);

#endif
