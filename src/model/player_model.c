/* The player model: feature names, the game context from the tags, the weights file,
 * the built-in sets and the frequencies (the features are in pm_features.c, the scores
 * in pm_scores.c). Everything here is integer arithmetic with truncating division, so
 * training (scripts/train_player_model.py reads these very features through
 * ucizip-features) and the codec see the same numbers on every machine. */
#include "model/player_model.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/fixed.h"
#include "model/move_model.h"
#include "common/hash.h"
#include "model/policy.h"

#define UZ_PM_NAME(name, group) #name,
#define UZ_PM_GROUP(name, group) group,
static const char *const feature_names[UZ_PM_N_FEATURES] = {UZ_PM_FEATURES(UZ_PM_NAME)};
static const char feature_groups[UZ_PM_N_FEATURES] = {UZ_PM_FEATURES(UZ_PM_GROUP)};

const char *uz_pm_feature_name(int f)
{
    return f >= 0 && f < UZ_PM_N_FEATURES ? feature_names[f] : NULL;
}

char uz_pm_feature_group(int f)
{
    return f >= 0 && f < UZ_PM_N_FEATURES ? feature_groups[f] : 0;
}

/* ---- game context ---- */

static int parse_int(const char *s, int lo, int hi)
{
    if (!s)
        return 0;
    long v = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 9) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    return digits && v >= lo && v <= hi ? (int)v : 0;
}

void uz_pm_game_from_tags(uz_pm_game *g, const char *white_elo, const char *black_elo, const char *time_control)
{
    g->elo[UZ_WHITE] = parse_int(white_elo, 100, 4000);
    g->elo[UZ_BLACK] = parse_int(black_elo, 100, 4000);
    g->base_time = 0;
    if (time_control) {
        /* "300+2", "180", "40/7200:3600" (moves/seconds: the seconds count) */
        const char *slash = strchr(time_control, '/');
        g->base_time = parse_int(slash ? slash + 1 : time_control, 1, 1000000);
    }
}

/* ---- weights ---- */

#define WEIGHT_LIMIT (1 << 24) /* |weight| in Q16: 256 bits per feature unit */

/* Copies the next line of text (without its end) into buf; returns false at the end. */
static bool next_line(const char **p, const char *end, char *buf, size_t cap, long *lineno)
{
    if (*p >= end)
        return false;
    const char *e = memchr(*p, '\n', (size_t)(end - *p));
    if (!e)
        e = end;
    size_t len = (size_t)(e - *p);
    if (len && (*p)[len - 1] == '\r')
        len--;
    if (len >= cap)
        len = cap - 1;
    memcpy(buf, *p, len);
    buf[len] = 0;
    *p = e < end ? e + 1 : end;
    (*lineno)++;
    return true;
}

#define HIDDEN_LIMIT ((int64_t)1 << 40) /* |hidden weight or bias| in Q32 */

/* A line "unit K BIAS OUT W..." of unit k: parsed into m, its canonical text hashed. */
static bool parse_unit(uz_player_model *m, int k, const char *line, uint64_t *h)
{
    char *e;
    const char *q = line;
    if (strncmp(q, "unit ", 5) != 0)
        return false;
    q += 5;
    long long v[3 + UZ_PM_N_FEATURES];
    for (int i = 0; i < 3 + UZ_PM_N_FEATURES; i++) {
        while (*q == ' ')
            q++;
        if (*q == 0)
            return false;
        v[i] = strtoll(q, &e, 10);
        if (e == q || (*e != ' ' && *e != 0))
            return false;
        q = e;
    }
    while (*q == ' ')
        q++;
    if (*q || v[0] != k || v[1] <= -HIDDEN_LIMIT || v[1] >= HIDDEN_LIMIT || v[2] <= -WEIGHT_LIMIT || v[2] >= WEIGHT_LIMIT)
        return false;
    m->hidden_bias[k] = v[1];
    m->hidden_out[k] = (int32_t)v[2];
    char canon[32];
    int n = snprintf(canon, sizeof canon, "unit %d %lld %lld", k, v[1], v[2]);
    *h = uz_fnv1a64(*h, canon, (size_t)n);
    for (int f = 0; f < UZ_PM_N_FEATURES; f++) {
        if (v[3 + f] <= -HIDDEN_LIMIT || v[3 + f] >= HIDDEN_LIMIT)
            return false;
        m->hidden_weight[k][f] = v[3 + f];
        n = snprintf(canon, sizeof canon, " %lld", v[3 + f]);
        *h = uz_fnv1a64(*h, canon, (size_t)n);
    }
    *h = uz_fnv1a64(*h, "\n", 1);
    return true;
}

static const char piece_letters[UZ_PM_PIECE_TYPES + 1] = "PNBRQK";

/* The rest of a line: count values " V" (|V| < WEIGHT_LIMIT) and nothing after them,
 * stored at out[k * stride], hashed as written, with the line's end. */
static bool parse_values(const char *q, int count, int32_t *out, ptrdiff_t stride, uint64_t *h)
{
    for (int k = 0; k < count; k++) {
        char *e;
        if (*q != ' ')
            return false;
        long long x = strtoll(q + 1, &e, 10);
        if (e == q + 1 || x <= -WEIGHT_LIMIT || x >= WEIGHT_LIMIT)
            return false;
        out[k * stride] = (int32_t)x;
        char canon[32];
        int n = snprintf(canon, sizeof canon, " %lld", x);
        *h = uz_fnv1a64(*h, canon, (size_t)n);
        q = e;
    }
    *h = uz_fnv1a64(*h, "\n", 1);
    return *q == 0;
}

/* A line "squares B BOUND..." (B buckets, B - 1 rising bounds): parsed into m, hashed. */
static bool parse_squares_head(uz_player_model *m, const char *line, uint64_t *h)
{
    char *e;
    const char *q = line + 8; /* after "squares " */
    long b = strtol(q, &e, 10);
    if (e == q || b < 1 || b > UZ_PM_MAX_SQUARE_BUCKETS)
        return false;
    m->n_square_buckets = (int32_t)b;
    char canon[128];
    int n = snprintf(canon, sizeof canon, "squares %ld", b);
    for (int k = 0; k < b - 1; k++) {
        q = e;
        long v = strtol(q, &e, 10);
        if (e == q || *q != ' ' || v < 1 || v > 100000 || (k > 0 && v <= m->square_bound[k - 1]))
            return false;
        m->square_bound[k] = (int32_t)v;
        n += snprintf(canon + n, sizeof canon - (size_t)n, " %ld", v);
    }
    if (*e != 0)
        return false;
    canon[n++] = '\n';
    *h = uz_fnv1a64(*h, canon, (size_t)n);
    return true;
}

/* Table line number i of the square tables: "to K T V..." for i < B * 6, then "from ...". */
static bool parse_square_line(uz_player_model *m, int i, const char *line, uint64_t *h)
{
    const int per_kind = m->n_square_buckets * UZ_PM_PIECE_TYPES;
    const bool to = i < per_kind;
    const int bucket = (i % per_kind) / UZ_PM_PIECE_TYPES, type = i % UZ_PM_PIECE_TYPES;
    char canon[32];
    int n = snprintf(canon, sizeof canon, "%s %d %c", to ? "to" : "from", bucket, piece_letters[type]);
    if (strncmp(line, canon, (size_t)n) != 0)
        return false;
    *h = uz_fnv1a64(*h, canon, (size_t)n);
    int32_t *v = to ? m->square_to[bucket][type] : m->square_from[bucket][type];
    return parse_values(line + n, 64, v, 1, h);
}

/* A line "WORD N" (N in 1..max, as sscanf reads it): N into count, the canonical line
 * hashed. */
static bool parse_count_line(const char *line, const char *word, int max, int32_t *count, uint64_t *h)
{
    long long value;
    if (sscanf(line + strlen(word), "%lld", &value) != 1 || value < 1 || value > max)
        return false;
    *count = (int32_t)value;
    char canon[64];
    int k = snprintf(canon, sizeof canon, "%s %d\n", word, *count);
    *h = uz_fnv1a64(*h, canon, (size_t)k);
    return true;
}

/* The board units' lines: per unit, "bunit J BIAS OUT", then 12 "bpiece J C V...", then
 * 6 "bto J T V..." and 6 "bfrom J T V..." lines. */
#define BOARD_LINES_PER_UNIT (1 + UZ_PM_PIECE_CODES + 2 * UZ_PM_PIECE_TYPES)
static const char piece_code_letters[UZ_PM_PIECE_CODES + 1] = "PNBRQKpnbrqk";

/* The expected start of board line i ("bunit 3", "bpiece 3 n", ...), and where its 64
 * values go (NULL for a "bunit" line). */
static int board_line_name(uz_player_model *m, int i, char *name, size_t size, int32_t **values)
{
    const int unit = i / BOARD_LINES_PER_UNIT, k = i % BOARD_LINES_PER_UNIT;
    *values = NULL;
    if (k == 0)
        return snprintf(name, size, "bunit %d", unit);
    if (k <= UZ_PM_PIECE_CODES) {
        *values = &m->board_piece[k - 1][0][unit];
        return snprintf(name, size, "bpiece %d %c", unit, piece_code_letters[k - 1]);
    }
    const int t = (k - 1 - UZ_PM_PIECE_CODES) % UZ_PM_PIECE_TYPES;
    const bool to = k - 1 - UZ_PM_PIECE_CODES < UZ_PM_PIECE_TYPES;
    *values = to ? &m->board_to[t][0][unit] : &m->board_from[t][0][unit];
    return snprintf(name, size, "%s %d %c", to ? "bto" : "bfrom", unit, piece_letters[t]);
}

/* Board line number i: parsed into m, hashed as written. */
static bool parse_board_line(uz_player_model *m, int i, const char *line, uint64_t *h)
{
    char canon[32];
    int32_t *values;
    int n = board_line_name(m, i, canon, sizeof canon, &values);
    if (strncmp(line, canon, (size_t)n) != 0)
        return false;
    *h = uz_fnv1a64(*h, canon, (size_t)n);
    if (values) /* square k of this unit */
        return parse_values(line + n, 64, values, UZ_PM_MAX_BOARD_UNITS, h);
    int32_t bias_out[2];
    if (!parse_values(line + n, 2, bias_out, 1, h))
        return false;
    m->board_bias[i / BOARD_LINES_PER_UNIT] = bias_out[0];
    m->board_out[i / BOARD_LINES_PER_UNIT] = bias_out[1];
    return true;
}

/* Where the parse of a weights file stands. The parts come in order: the magic line, the
 * floor, the features, then the hidden layer, the square tables and the board units (each
 * optional, announced by its count line) and the hash line, which ends the file. */
typedef struct {
    uz_player_model *m;
    uint64_t h; /* FNV-1a 64 of the lines from "floor" on, as written canonically */
    int stage;  /* 0 magic, 1 floor, 2.. the features, HEAD_STAGES: the optional parts */
    int units, square_lines, board_lines;
    bool done; /* the hash line was read */
} weights_reader;

enum { HEAD_STAGES = 2 + UZ_PM_N_FEATURES };

/* A line of the head (the magic line, the floor, a feature). */
static uz_result read_head_line(weights_reader *r, const char *line, long lineno, uz_diag *diag)
{
    uz_player_model *m = r->m;
    char name[64], canon[128];
    long long value;
    if (r->stage == 0) {
        unsigned version;
        if (sscanf(line, "ucizip-player-model %u", &version) != 1 || version == 0) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'ucizip-player-model VERSION'");
            return UZ_ERR_CORRUPT;
        }
        m->version = version;
        return UZ_OK;
    }
    int k;
    if (r->stage == 1) {
        if (sscanf(line, "floor %lld", &value) != 1 || value < 1 || value > 32768) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'floor N' with N in 1..32768");
            return UZ_ERR_CORRUPT;
        }
        m->floor_q16 = (uint32_t)value;
        k = snprintf(canon, sizeof canon, "floor %u\n", m->floor_q16);
    } else {
        int f = r->stage - 2;
        if (sscanf(line, "%63s %lld", name, &value) != 2 || strcmp(name, feature_names[f]) != 0) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected '%s VALUE'", feature_names[f]);
            return UZ_ERR_CORRUPT;
        }
        if (value <= -WEIGHT_LIMIT || value >= WEIGHT_LIMIT) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: %s out of range", name);
            return UZ_ERR_CORRUPT;
        }
        m->weight[f] = (int32_t)value;
        k = snprintf(canon, sizeof canon, "%s %d\n", name, m->weight[f]);
    }
    r->h = uz_fnv1a64(r->h, canon, (size_t)k);
    return UZ_OK;
}

/* A line of the hidden layer: its count line or a unit. *taken is false when the line
 * belongs to a later part. */
static uz_result read_hidden_line(weights_reader *r, const char *line, long lineno, uz_diag *diag, bool *taken)
{
    uz_player_model *m = r->m;
    *taken = true;
    if (r->stage == HEAD_STAGES && strncmp(line, "hidden ", 7) == 0) {
        if (!parse_count_line(line, "hidden", UZ_PM_MAX_HIDDEN, &m->n_hidden, &r->h)) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'hidden H' with H in 1..%d",
                        UZ_PM_MAX_HIDDEN);
            return UZ_ERR_CORRUPT;
        }
    } else if (r->units < m->n_hidden) {
        if (!parse_unit(m, r->units, line, &r->h)) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'unit %d BIAS OUT' and %d weights, each within range",
                        r->units, UZ_PM_N_FEATURES);
            return UZ_ERR_CORRUPT;
        }
        r->units++;
    } else {
        *taken = false;
    }
    return UZ_OK;
}

/* A line of the square tables: their count line or a table row; *taken as above. */
static uz_result read_square_line(weights_reader *r, const char *line, long lineno, uz_diag *diag, bool *taken)
{
    uz_player_model *m = r->m;
    *taken = true;
    if (m->n_square_buckets == 0 && m->n_board_units == 0 && strncmp(line, "squares ", 8) == 0) {
        if (!parse_squares_head(m, line, &r->h)) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1,
                        "weights: expected 'squares B BOUND...' with B in 1..%d and B - 1 rising bounds",
                        UZ_PM_MAX_SQUARE_BUCKETS);
            return UZ_ERR_CORRUPT;
        }
    } else if (r->square_lines < 2 * m->n_square_buckets * UZ_PM_PIECE_TYPES) {
        if (!parse_square_line(m, r->square_lines, line, &r->h)) {
            const int per_kind = m->n_square_buckets * UZ_PM_PIECE_TYPES;
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected '%s %d %c' and 64 values, each within range",
                        r->square_lines < per_kind ? "to" : "from", (r->square_lines % per_kind) / UZ_PM_PIECE_TYPES,
                        piece_letters[r->square_lines % UZ_PM_PIECE_TYPES]);
            return UZ_ERR_CORRUPT;
        }
        r->square_lines++;
    } else {
        *taken = false;
    }
    return UZ_OK;
}

/* A line of the board units: their count line or a unit's line; *taken as above. */
static uz_result read_board_line(weights_reader *r, const char *line, long lineno, uz_diag *diag, bool *taken)
{
    uz_player_model *m = r->m;
    *taken = true;
    if (m->n_board_units == 0 && strncmp(line, "board ", 6) == 0) {
        if (!parse_count_line(line, "board", UZ_PM_MAX_BOARD_UNITS, &m->n_board_units, &r->h)) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'board U' with U in 1..%d",
                        UZ_PM_MAX_BOARD_UNITS);
            return UZ_ERR_CORRUPT;
        }
    } else if (r->board_lines < m->n_board_units * BOARD_LINES_PER_UNIT) {
        if (!parse_board_line(m, r->board_lines, line, &r->h)) {
            char name[64];
            int32_t *unused;
            board_line_name(m, r->board_lines, name, sizeof name, &unused);
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected '%s' and %d values, each within range", name,
                        r->board_lines % BOARD_LINES_PER_UNIT ? 64 : 2);
            return UZ_ERR_CORRUPT;
        }
        r->board_lines++;
    } else {
        *taken = false;
    }
    return UZ_OK;
}

/* The policy line "policy V HEX BETA": a built-in policy, named by version and hash. */
static uz_result read_policy_line(weights_reader *r, const char *line, long lineno, uz_diag *diag, bool *taken)
{
    uz_player_model *m = r->m;
    if (m->policy_version || strncmp(line, "policy ", 7) != 0)
        return UZ_OK;
    *taken = true;
    unsigned version;
    unsigned long long hash;
    long long beta;
    char canon[128];
    if (sscanf(line, "policy %u %llx %lld", &version, &hash, &beta) != 3 || version == 0 || beta < 0 ||
        beta > UZ_PM_MAX_POLICY_BETA) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'policy V HEX BETA' with BETA in 0..%d",
                    UZ_PM_MAX_POLICY_BETA);
        return UZ_ERR_CORRUPT;
    }
    const uz_policy_net *net = uz_policy_version(version);
    if (!net || uz_policy_hash(net) != (uint64_t)hash) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: policy %u with hash %016llx is not built in", version,
                    hash);
        return UZ_ERR_CORRUPT;
    }
    m->policy_version = version;
    m->policy_hash = (uint64_t)hash;
    m->policy_beta = (int32_t)beta;
    int k = snprintf(canon, sizeof canon, "policy %u %016llx %d\n", version, hash, m->policy_beta);
    r->h = uz_fnv1a64(r->h, canon, (size_t)k);
    return UZ_OK;
}

/* The hash line: the file's hash must be the one of the lines read. */
static uz_result read_hash_line(weights_reader *r, const char *line, long lineno, uz_diag *diag)
{
    unsigned long long stored;
    if (sscanf(line, "hash %llx", &stored) != 1) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'hash HEX' after the %d features (and the hidden layer)",
                    UZ_PM_N_FEATURES);
        return UZ_ERR_CORRUPT;
    }
    if (stored != r->h) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1,
                    "weights: hash mismatch (file says %016llx, the weights give %016llx): damaged file", stored,
                    (unsigned long long)r->h);
        return UZ_ERR_CORRUPT;
    }
    r->m->hash = r->h;
    r->done = true;
    return UZ_OK;
}

/* One line that is neither blank nor a comment, into the part it belongs to. */
static uz_result read_weights_line(weights_reader *r, const char *line, long lineno, uz_diag *diag)
{
    uz_result res;
    bool taken = false;
    if (r->stage < HEAD_STAGES) {
        res = read_head_line(r, line, lineno, diag);
    } else if (r->m->policy_version) { /* the policy line is the last before the hash */
        res = read_hash_line(r, line, lineno, diag);
    } else {
        res = read_hidden_line(r, line, lineno, diag, &taken);
        if (res == UZ_OK && !taken)
            res = read_square_line(r, line, lineno, diag, &taken);
        if (res == UZ_OK && !taken)
            res = read_board_line(r, line, lineno, diag, &taken);
        if (res == UZ_OK && !taken)
            res = read_policy_line(r, line, lineno, diag, &taken);
        if (res == UZ_OK && !taken)
            res = read_hash_line(r, line, lineno, diag);
    }
    if (r->stage < HEAD_STAGES + 1)
        r->stage++;
    return res;
}

/* The part a file that ends before its hash line lacks. */
static const char *missing_part(const weights_reader *r)
{
    const uz_player_model *m = r->m;
    if (r->stage == 0)
        return "header";
    if (r->stage == 1)
        return "floor";
    if (r->stage < HEAD_STAGES)
        return "features";
    if (r->units < m->n_hidden)
        return "hidden units";
    if (r->square_lines < 2 * m->n_square_buckets * UZ_PM_PIECE_TYPES)
        return "square tables";
    if (r->board_lines < m->n_board_units * BOARD_LINES_PER_UNIT)
        return "board units";
    return "hash";
}

uz_result uz_player_model_parse(uz_player_model *m, const char *text, size_t len, uz_diag *diag)
{
    if (!m || !text)
        return UZ_ERR_ARG;
    memset(m, 0, sizeof *m);
    weights_reader r = {.m = m, .h = UZ_FNV1A64_OFFSET};
    const char *p = text, *end = text + len;
    char line[4096];
    long lineno = 0;
    while (!r.done && next_line(&p, end, line, sizeof line, &lineno)) {
        if (line[0] == '#' || line[0] == 0)
            continue;
        if (strlen(line) == sizeof line - 1) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: line too long");
            return UZ_ERR_CORRUPT;
        }
        uz_result res = read_weights_line(&r, line, lineno, diag);
        if (res != UZ_OK)
            return res;
    }
    if (!r.done) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: file ends early (missing %s)", missing_part(&r));
        return UZ_ERR_CORRUPT;
    }
    return UZ_OK;
}

const uz_player_model *uz_pm_builtin_latest(void)
{
    return &uz_pm_builtin_sets[uz_pm_builtin_count - 1];
}

const uz_player_model *uz_pm_builtin_version(uint32_t version)
{
    for (int i = uz_pm_builtin_count - 1; i >= 0; i--)
        if (uz_pm_builtin_sets[i].version == version)
            return &uz_pm_builtin_sets[i];
    return NULL;
}

const uz_player_model *uz_pm_builtin_find(uint32_t version, uint64_t hash)
{
    for (int i = 0; i < uz_pm_builtin_count; i++)
        if (uz_pm_builtin_sets[i].version == version && uz_pm_builtin_sets[i].hash == hash)
            return &uz_pm_builtin_sets[i];
    return NULL;
}

/* ---- frequencies ---- */

/* Design (archive format): d_i = s_max - s_i in Q16 log2 units; w_i = 2^-d_i in Q31
 * (uz__exp2_neg_q31 of the fraction, shifted by the integer part; 0 from 2^-31 down).
 * u = 1 + (F * (T - n) / T) / n to every move, F = floor_q16 (T = 65536); the rest
 * R = T - u n shared in proportion to w (truncated); the leftover units go to the first
 * move with the largest score. */
uint32_t uz_pm_frequencies(const uz_player_model *m, const int64_t *s, int n, uint32_t *freq)
{
    if (!m || !s || !freq || n < 1 || n > UZ_MODEL_MAX_MOVES)
        return 0;
    const uint32_t total = UZ_MODEL_TOTAL;
    int best = 0;
    for (int i = 1; i < n; i++)
        if (s[i] > s[best])
            best = i;
    const uz__exp2_table *t = uz__exp2_constants();
    uint32_t w[UZ_MODEL_MAX_MOVES];
    uint64_t wsum = 0;
    for (int i = 0; i < n; i++) {
        uint64_t d = (uint64_t)(s[best] - s[i]);
        uint64_t ip = d >> 16;
        w[i] = ip < 31 ? uz__exp2_neg_q31(t, (uint32_t)((d & 0xFFFF) << 16)) >> ip : 0;
        wsum += w[i];
    }
    uint32_t fp = (uint32_t)((uint64_t)m->floor_q16 * (total - (uint32_t)n) / total);
    uint32_t u = 1 + fp / (uint32_t)n;
    uint32_t r = total - u * (uint32_t)n;
    uint32_t assigned = 0;
    for (int i = 0; i < n; i++) {
        uint32_t q = (uint32_t)((uint64_t)r * w[i] / wsum); /* wsum >= w[best] = 2^31 */
        freq[i] = u + q;
        assigned += q;
    }
    freq[best] += r - assigned;
    return total;
}
