/* The player model's per-move scores: the linear part and the hidden layer over a move's
 * features. Only non-zero features are multiplied (a zero adds nothing to an integer
 * sum), and when the features come straight from a position (uz_pm_move_scores) the
 * weights of the products (pm_internal.h) are folded into their bases once per position.
 * Integer sums are exact whatever their order, so the scores are the same bits as the
 * dense sums over every feature that define them (tests/model/test_pm_identity.c). */
#include <assert.h>

#include "pm_internal.h"
#include "model/policy.h"

/* tanh(i / 64) x 65536 rounded, i = 0..256: constants, not libm, so that every machine
 * computes the same activations (archive format); entry 257 repeats entry 256 so that
 * the clamped argument needs no branch. */
static const int32_t tanh_table[258] = {
    0, 1024, 2047, 3070, 4091, 5110, 6126, 7140, 8150, 9156, 10157, 11154,
    12146, 13132, 14112, 15085, 16051, 17010, 17961, 18904, 19838, 20764, 21681, 22588,
    23485, 24373, 25250, 26117, 26973, 27818, 28652, 29474, 30285, 31085, 31873, 32648,
    33412, 34164, 34904, 35631, 36346, 37049, 37740, 38418, 39084, 39738, 40379, 41008,
    41625, 42230, 42823, 43404, 43972, 44530, 45075, 45609, 46131, 46642, 47142, 47630,
    48108, 48575, 49031, 49477, 49912, 50337, 50752, 51157, 51552, 51937, 52314, 52681,
    53038, 53387, 53727, 54059, 54382, 54697, 55003, 55302, 55593, 55876, 56152, 56421,
    56683, 56937, 57185, 57426, 57660, 57888, 58110, 58326, 58536, 58741, 58939, 59132,
    59320, 59502, 59680, 59852, 60019, 60182, 60340, 60494, 60643, 60789, 60929, 61066,
    61199, 61328, 61454, 61576, 61694, 61809, 61920, 62029, 62134, 62236, 62335, 62431,
    62524, 62615, 62703, 62788, 62871, 62951, 63029, 63105, 63179, 63250, 63319, 63386,
    63451, 63514, 63576, 63635, 63693, 63749, 63803, 63855, 63907, 63956, 64004, 64051,
    64096, 64140, 64182, 64224, 64263, 64302, 64340, 64376, 64412, 64446, 64479, 64512,
    64543, 64573, 64603, 64631, 64659, 64686, 64712, 64737, 64761, 64785, 64808, 64830,
    64852, 64873, 64893, 64913, 64932, 64950, 64968, 64986, 65003, 65019, 65035, 65050,
    65065, 65079, 65093, 65107, 65120, 65133, 65145, 65157, 65169, 65180, 65191, 65202,
    65212, 65222, 65231, 65241, 65250, 65259, 65267, 65275, 65283, 65291, 65299, 65306,
    65313, 65320, 65327, 65333, 65339, 65345, 65351, 65357, 65362, 65368, 65373, 65378,
    65383, 65387, 65392, 65396, 65401, 65405, 65409, 65413, 65417, 65420, 65424, 65427,
    65431, 65434, 65437, 65440, 65443, 65446, 65449, 65451, 65454, 65456, 65459, 65461,
    65464, 65466, 65468, 65470, 65472, 65474, 65476, 65478, 65480, 65481, 65483, 65485,
    65486, 65488, 65489, 65491, 65492, 65492};

/* tanh of a Q16 value, Q16: the table interpolated linearly, constant from 4 on
 * (|a| clamped to 4 lands on entry 256 with no fraction: the same value). Branch-free:
 * it runs for every move and unit. */
static inline int64_t tanh_q16(int64_t a)
{
    const int64_t sign = a >> 63; /* 0 or -1 */
    int64_t m = (a ^ sign) - sign;
    m = m < ((int64_t)4 << 16) ? m : (int64_t)4 << 16;
    const int64_t i = m >> 10, f = m & 1023;
    /* the table rises and f >= 0: the product is >= 0, its truncated quotient a shift */
    const int64_t v = tanh_table[i] + (((tanh_table[i + 1] - tanh_table[i]) * f) >> 10);
    return (v ^ sign) - sign;
}

static int32_t clamp16(int32_t x) /* the hidden layer's inputs: bounds its sums below 2^62 */
{
    return x < -32768 ? -32768 : x > 32767 ? 32767 : x;
}

/* The hidden units are summed eight at a time (eight sums held in registers); a layer's
 * units are padded to a multiple of eight with units of weight 0, whose sums are unused. */
#define UNIT_BLOCK 8

/* The weights as a move's score uses them: per feature, its linear weight and its
 * hidden weights side by side (the model keeps them unit by unit). When the features
 * come from a position, the column of each product's base also carries the product's
 * weights times its factor, so that a product (which a move's feature list leaves out)
 * costs nothing per move. */
typedef struct feature_weights {
    int n_padded; /* the model's hidden units rounded up to a multiple of UNIT_BLOCK */
    int64_t lin[UZ_PM_N_FEATURES];
    int64_t hid[UZ_PM_N_FEATURES][UZ_PM_MAX_HIDDEN];
} feature_weights;

static void transpose_weights(const uz_player_model *m, feature_weights *fw)
{
    fw->n_padded = (m->n_hidden + UNIT_BLOCK - 1) / UNIT_BLOCK * UNIT_BLOCK;
    for (int k = 0; k < UZ_PM_N_FEATURES; k++)
        fw->lin[k] = m->weight[k];
    for (int j = 0; j < m->n_hidden; j++) {
        const int64_t *w = m->hidden_weight[j];
        for (int k = 0; k < UZ_PM_N_FEATURES; k++)
            fw->hid[k][j] = w[k];
    }
    for (int j = m->n_hidden; j < fw->n_padded; j++)
        for (int k = 0; k < UZ_PM_N_FEATURES; k++)
            fw->hid[k][j] = 0;
}

static void fold_products(const uz_player_model *m, const uz__pm_position *c, feature_weights *fw)
{
    for (int p = 0; p < UZ__PM_N_PRODUCTS; p++) {
        const int f = uz__pm_product_feature[p], b = uz__pm_product_base[p];
        const int64_t factor = c->product_factor[p];
        assert(factor >= -UZ__PM_MAX_FACTOR && factor <= UZ__PM_MAX_FACTOR);
        fw->lin[b] += factor * m->weight[f];
        for (int j = 0; j < m->n_hidden; j++)
            fw->hid[b][j] += factor * m->hidden_weight[j][f];
    }
}

/* A move's score from its non-zero features: n terms, feature[k] with value[k]. Terms
 * of value 1 (most of the kind and safety features) only add their weights. */
static int64_t score_terms(const uz_player_model *m, const feature_weights *fw, int n, const uint8_t *feature,
                           const int32_t *value)
{
    int64_t sum = 0, x[UZ_PM_N_FEATURES];
    const int64_t *row[UZ_PM_N_FEATURES], *unit_row[UZ_PM_N_FEATURES];
    int n_row = 0, n_unit = 0;
    for (int k = 0; k < n; k++) {
        const int f = feature[k];
        sum += fw->lin[f] * value[k];
        if (value[k] == 1) {
            unit_row[n_unit++] = fw->hid[f];
        } else {
            x[n_row] = clamp16(value[k]);
            row[n_row++] = fw->hid[f];
        }
    }
    for (int j0 = 0; j0 < fw->n_padded; j0 += UNIT_BLOCK) {
        /* written out: compilers keep the sums in registers */
        int64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0, a4 = 0, a5 = 0, a6 = 0, a7 = 0;
        for (int k = 0; k < n_row; k++) {
            const int64_t *w = row[k] + j0, xk = x[k];
            a0 += w[0] * xk;
            a1 += w[1] * xk;
            a2 += w[2] * xk;
            a3 += w[3] * xk;
            a4 += w[4] * xk;
            a5 += w[5] * xk;
            a6 += w[6] * xk;
            a7 += w[7] * xk;
        }
        for (int k = 0; k < n_unit; k++) {
            const int64_t *w = unit_row[k] + j0;
            a0 += w[0];
            a1 += w[1];
            a2 += w[2];
            a3 += w[3];
            a4 += w[4];
            a5 += w[5];
            a6 += w[6];
            a7 += w[7];
        }
        const int64_t a[UNIT_BLOCK] = {a0, a1, a2, a3, a4, a5, a6, a7};
        for (int u = 0; u < UNIT_BLOCK && j0 + u < m->n_hidden; u++) {
            const int j = j0 + u;
            sum += (int64_t)m->hidden_out[j] * tanh_q16((m->hidden_bias[j] + a[u]) / 65536) / 65536;
        }
    }
    return sum;
}

void uz_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s)
{
    feature_weights fw;
    uint8_t feature[UZ_PM_N_FEATURES];
    int32_t value[UZ_PM_N_FEATURES];
    transpose_weights(m, &fw);
    for (int i = 0; i < n; i++) {
        const int32_t *f = x + (size_t)i * UZ_PM_N_FEATURES;
        int terms = 0;
        for (int k = 0; k < UZ_PM_N_FEATURES; k++)
            if (f[k] && (!mask || mask[k])) {
                feature[terms] = (uint8_t)k;
                value[terms++] = f[k];
            }
        s[i] = score_terms(m, &fw, terms, feature, value);
    }
}

static void square_table_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n,
                                int64_t *s)
{
    const int ply = 2 * ((int)pos->fullmove - 1) + pos->side;
    int b = 0;
    while (b < m->n_square_buckets - 1 && ply >= m->square_bound[b])
        b++;
    const int mirror = pos->side == UZ_BLACK ? 56 : 0;
    for (int i = 0; i < n; i++) {
        const int from = UZ_MOVE_FROM(moves[i]), to = UZ_MOVE_TO(moves[i]);
        const int type = UZ_PIECE_TYPE(pos->squares[from]) - UZ_PAWN;
        s[i] += m->square_to[b][type][to ^ mirror] + m->square_from[b][type][from ^ mirror];
    }
}

static void board_unit_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n,
                              int64_t *s)
{
    const int units = m->n_board_units;
    const int mirror = pos->side == UZ_BLACK ? 56 : 0;
    /* the board's part of every unit, once per position (at most 32 pieces of |value|
     * < 2^24 each: no overflow) */
    int64_t board[UZ_PM_MAX_BOARD_UNITS];
    for (int j = 0; j < units; j++)
        board[j] = m->board_bias[j];
    for (int sq = 0; sq < 64; sq++) {
        const int p = pos->squares[sq];
        if (!p)
            continue;
        const int code = UZ_PIECE_TYPE(p) - UZ_PAWN + (UZ_PIECE_COLOR(p) != pos->side ? UZ_PM_PIECE_TYPES : 0);
        const int32_t *w = m->board_piece[code][sq ^ mirror];
        for (int j = 0; j < units; j++)
            board[j] += w[j];
    }
    for (int i = 0; i < n; i++) {
        const int from = UZ_MOVE_FROM(moves[i]), to = UZ_MOVE_TO(moves[i]);
        const int type = UZ_PIECE_TYPE(pos->squares[from]) - UZ_PAWN;
        const int32_t *wt = m->board_to[type][to ^ mirror], *wf = m->board_from[type][from ^ mirror];
        int64_t sum = 0; /* |sum| < 16 x 2^24 x 2^16 */
        for (int j = 0; j < units; j++)
            sum += (int64_t)m->board_out[j] * tanh_q16(board[j] + wt[j] + wf[j]);
        s[i] += sum / 65536;
    }
}

/* beta x the policy's logit: exact in the model's normalisation, since the policy's own
 * normalisation is the same for every move of the position. */
static void policy_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n, int64_t *s)
{
    int32_t logit[UZ_MAX_MOVES];
    uz_policy_logits(uz_policy_version(m->policy_version), pos, moves, n, logit);
    for (int i = 0; i < n; i++) /* |logit| < 2^31, beta <= 2^18: no overflow */
        s[i] += (int64_t)m->policy_beta * logit[i] / 65536;
}

void uz_pm_board_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n,
                        int64_t *s)
{
    if (m->n_square_buckets)
        square_table_scores(m, pos, moves, n, s);
    if (m->n_board_units)
        board_unit_scores(m, pos, moves, n, s);
    if (m->policy_version)
        policy_scores(m, pos, moves, n, s);
}

void uz_pm_move_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves,
                       const int32_t *scores, int n, const uz_pm_game *game, const uz_pm_history *hist,
                       int64_t *s)
{
    uz__pm_position c;
    uz__pm_sparse f;
    feature_weights fw;
    uz__pm_position_init(&c, pos, moves, scores, n, game, hist);
    transpose_weights(m, &fw);
    fold_products(m, &c, &fw);
    for (int i = 0; i < n; i++) {
        uz__pm_move_features(&c, i, &f);
        s[i] = score_terms(m, &fw, f.n, f.feature, f.value);
    }
    uz_pm_board_scores(m, pos, moves, n, s);
}
