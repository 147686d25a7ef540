/* Internal to src/model: a frozen policy's numbers as the build compiles them from
 * data/policy/vN.bin (scripts/policy_net.py c; the file's layout and the arithmetic are
 * described there and in policy.h). */
#ifndef UCIZIP_POLICY_DATA_H
#define UCIZIP_POLICY_DATA_H

#include <stdint.h>

#define UZ__POLICY_MOVE_KEYS (7 << 12) /* piece type (1..6) << 12 | from << 6 | to */

typedef struct uz_policy_net {
    uint32_t version;
    int32_t hidden;       /* units of the hidden layer */
    int32_t n_keys;       /* move keys with an output row */
    int32_t shift;        /* the output's fixed-point shift */
    uint64_t hash;        /* FNV-1a 64 of the data file */
    const int32_t *b1;    /* [hidden], Q12 */
    const int16_t *w1;    /* [12 piece codes][64 squares][hidden], Q12 */
    const uint16_t *row;  /* [UZ__POLICY_MOVE_KEYS]: 1 + the key's row, 0 for none */
    const int32_t *m;     /* [n_keys] the row's scale */
    const int32_t *cq;    /* [n_keys] the row's bias, Q16 log2 units */
    const int8_t *v;      /* [n_keys][hidden] */
} uz_policy_net;

extern const uz_policy_net uz__policy_v1;

#endif
