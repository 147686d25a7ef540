/* The policy over the board: integer inference (policy.h; the arithmetic is written out
 * in scripts/policy_net.py, whose reference the golden test compares with). */
#include "model/policy.h"

#include "model/policy_data.h"

#define MAX_HIDDEN 256

const uz_policy_net *uz_policy_version(uint32_t version)
{
    return version == 1 ? &uz__policy_v1 : NULL;
}

uint64_t uz_policy_hash(const uz_policy_net *net)
{
    return net->hash;
}

uint32_t uz_policy_number(const uz_policy_net *net)
{
    return net->version;
}

/* floor(x / 2^s) without relying on >> of a negative number. */
static int64_t floor_shift(int64_t x, int s)
{
    return x >= 0 ? x >> s : -((-x + ((INT64_C(1) << s) - 1)) >> s);
}

void uz_policy_logits(const uz_policy_net *net, const uz_position *pos, const uz_move *moves, int n,
                      int32_t *logit)
{
    const int hidden = net->hidden, flip = pos->side ? 56 : 0;
    int32_t h[MAX_HIDDEN];
    for (int j = 0; j < hidden; j++)
        h[j] = net->b1[j];
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->squares[sq];
        if (!p)
            continue;
        /* piece code 1..6 the mover's, 7..12 the opponent's; square seen from the mover */
        int code = UZ_PIECE_TYPE(p) + (UZ_PIECE_COLOR(p) != pos->side ? 6 : 0);
        const int16_t *w = net->w1 + ((size_t)(code - 1) * 64 + (size_t)(sq ^ flip)) * (size_t)hidden;
        for (int j = 0; j < hidden; j++)
            h[j] += w[j];
    }
    for (int j = 0; j < hidden; j++)
        h[j] = h[j] > 0 ? h[j] : 0;
    for (int i = 0; i < n; i++) {
        int from = UZ_MOVE_FROM(moves[i]), to = UZ_MOVE_TO(moves[i]);
        int key = UZ_PIECE_TYPE(pos->squares[from]) << 12 | (from ^ flip) << 6 | (to ^ flip);
        int row = net->row[key];
        if (!row) {
            logit[i] = 0;
            continue;
        }
        row--;
        const int8_t *v = net->v + (size_t)row * (size_t)hidden;
        int64_t dot = 0;
        for (int j = 0; j < hidden; j++)
            dot += (int64_t)h[j] * v[j];
        logit[i] = (int32_t)(net->cq[row] + floor_shift(dot * net->m[row], net->shift));
    }
}
