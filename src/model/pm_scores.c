/* The player model's per-move scores: the linear part and the hidden layer over a move's
 * features. Only non-zero features are multiplied (a zero adds nothing to an integer
 * sum), and when the features come straight from a position (uz_pm_move_scores) the
 * weights of the products (pm_internal.h) are folded into their bases once per position.
 * Integer sums are exact whatever their order, so the scores are the same bits as the
 * dense sums over every feature that define them (tests/model/test_pm_identity.c). */
#include <assert.h>

#include "pm_internal.h"

/* tanh(i / 64) x 65536 rounded, i = 0..256: constants, not libm, so that every machine
 * computes the same activations (archive format). */
static const int32_t tanh_table[257] = {
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
    65486, 65488, 65489, 65491, 65492};

/* tanh of a Q16 value, Q16: the table interpolated linearly, constant from 4 on. */
static int64_t tanh_q16(int64_t a)
{
    int64_t m = a < 0 ? -a : a, v;
    if (m >= (int64_t)4 << 16)
        v = tanh_table[256];
    else {
        int64_t i = m >> 10, f = m & 1023;
        v = tanh_table[i] + (tanh_table[i + 1] - tanh_table[i]) * f / 1024;
    }
    return a < 0 ? -v : v;
}

static int32_t clamp16(int32_t x) /* the hidden layer's inputs: bounds its sums below 2^62 */
{
    return x < -32768 ? -32768 : x > 32767 ? 32767 : x;
}

/* A move's score from its non-zero features: n terms, feature[k] with value[k]; the
 * linear weight of term k is lin[k], its hidden weights hid[k][j * UZ_PM_N_FEATURES]
 * for unit j (a column of uz_player_model.hidden_weight, or one laid out like it). */
static int64_t score_terms(const uz_player_model *m, int n, const int32_t *value, const int64_t *lin,
                           const int64_t *const *hid)
{
    int64_t sum = 0;
    for (int k = 0; k < n; k++)
        sum += lin[k] * value[k];
    if (!m->n_hidden)
        return sum;
    int64_t a[UZ_PM_MAX_HIDDEN];
    for (int j = 0; j < m->n_hidden; j++)
        a[j] = m->hidden_bias[j];
    for (int k = 0; k < n; k++) {
        const int64_t x = clamp16(value[k]);
        const int64_t *w = hid[k];
        for (int j = 0; j < m->n_hidden; j++)
            a[j] += w[(size_t)j * UZ_PM_N_FEATURES] * x;
    }
    for (int j = 0; j < m->n_hidden; j++)
        sum += (int64_t)m->hidden_out[j] * tanh_q16(a[j] / 65536) / 65536;
    return sum;
}

void uz_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s)
{
    int32_t value[UZ_PM_N_FEATURES];
    int64_t lin[UZ_PM_N_FEATURES];
    const int64_t *hid[UZ_PM_N_FEATURES];
    for (int i = 0; i < n; i++) {
        const int32_t *f = x + (size_t)i * UZ_PM_N_FEATURES;
        int terms = 0;
        for (int k = 0; k < UZ_PM_N_FEATURES; k++)
            if (f[k] && (!mask || mask[k])) {
                value[terms] = f[k];
                lin[terms] = m->weight[k];
                hid[terms++] = &m->hidden_weight[0][k];
            }
        s[i] = score_terms(m, terms, value, lin, hid);
    }
}

/* The weights of one position: the model's, except that the column of each product's
 * base also carries the product's weights times its factor, so that a product (which
 * a move's feature list leaves out) costs nothing per move. */
typedef struct position_weights {
    int64_t lin[UZ_PM_N_FEATURES];
    const int64_t *hid[UZ_PM_N_FEATURES];
    int64_t folded[UZ_PM_MAX_HIDDEN][UZ_PM_N_FEATURES]; /* the base columns only */
} position_weights;

static void fold_products(const uz_player_model *m, const uz__pm_position *c, position_weights *pw)
{
    for (int k = 0; k < UZ_PM_N_FEATURES; k++) {
        pw->lin[k] = m->weight[k];
        pw->hid[k] = &m->hidden_weight[0][k];
    }
    for (int p = 0; p < UZ__PM_N_PRODUCTS; p++) {
        const int b = uz__pm_product_base[p];
        if (pw->hid[b] == &m->hidden_weight[0][b]) { /* the base's first product */
            for (int j = 0; j < m->n_hidden; j++)
                pw->folded[j][b] = m->hidden_weight[j][b];
            pw->hid[b] = &pw->folded[0][b];
        }
    }
    for (int p = 0; p < UZ__PM_N_PRODUCTS; p++) {
        const int f = uz__pm_product_feature[p], b = uz__pm_product_base[p];
        const int64_t factor = c->product_factor[p];
        assert(factor >= -UZ__PM_MAX_FACTOR && factor <= UZ__PM_MAX_FACTOR);
        pw->lin[b] += factor * m->weight[f];
        for (int j = 0; j < m->n_hidden; j++)
            pw->folded[j][b] += factor * m->hidden_weight[j][f];
    }
}

void uz_pm_move_scores(const uz_player_model *m, const uz_position *pos, const uz_move *moves,
                       const int32_t *scores, int n, const uz_pm_game *game, const uz_pm_history *hist,
                       int64_t *s)
{
    uz__pm_position c;
    uz__pm_sparse f;
    position_weights pw;
    int64_t lin[UZ_PM_N_FEATURES];
    const int64_t *hid[UZ_PM_N_FEATURES];
    uz__pm_position_init(&c, pos, moves, scores, n, game, hist);
    fold_products(m, &c, &pw);
    for (int i = 0; i < n; i++) {
        uz__pm_move_features(&c, i, &f);
        for (int k = 0; k < f.n; k++) {
            const int feature = f.feature[k];
            lin[k] = pw.lin[feature];
            hid[k] = pw.hid[feature];
        }
        s[i] = score_terms(m, f.n, f.value, lin, hid);
    }
}
