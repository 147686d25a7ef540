/* The player model: move features, weights file, integer scores and frequencies.
 * Everything here is integer arithmetic with truncating division, so training
 * (scripts/train_player_model.py reads these very features through ucizip-features)
 * and the codec see the same numbers on every machine. */
#include "model/player_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fixed.h"
#include "codec/model.h"

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

/* ---- features ---- */

static const int piece_value[7] = {0, 1, 3, 3, 5, 9, 0};

static int popcount(uint64_t b)
{
    int c = 0;
    for (; b; b &= b - 1)
        c++;
    return c;
}

static int isqrt_small(int x) /* floor(sqrt(x)) for 0 <= x < 2^30, by bisection */
{
    int lo = 0, hi = 1 << 15;
    while (hi - lo > 1) {
        int mid = (lo + hi) / 2;
        if (mid * mid <= x)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static int centrality(int sq) /* 0 on the rim .. 3 in the four centre squares */
{
    int f = UZ_SQ_FILE(sq), r = UZ_SQ_RANK(sq);
    int df = f < 4 ? f : 7 - f, dr = r < 4 ? r : 7 - r;
    return df < dr ? df : dr;
}

static int king_distance(int a, int b)
{
    int df = UZ_SQ_FILE(a) - UZ_SQ_FILE(b), dr = UZ_SQ_RANK(a) - UZ_SQ_RANK(b);
    df = df < 0 ? -df : df;
    dr = dr < 0 ? -dr : dr;
    return df > dr ? df : dr;
}

static int clamp_elo(int elo)
{
    return elo < 600 ? 600 : elo > 3400 ? 3400 : elo;
}

void uz_pm_features(const uz_position *pos, const uz_move *moves, const int32_t *scores, int n,
                    const uz_pm_game *game, const uz_pm_history *hist, int32_t *x)
{
    const int us = pos->side, them = us ^ 1;
    const uint64_t occ = pos->by_color[0] | pos->by_color[1];
    const int ply = 2 * ((int)pos->fullmove - 1) + us;
    int material = 0; /* pieces other than pawns and kings, both sides */
    for (int t = UZ_KNIGHT; t <= UZ_QUEEN; t++)
        material += piece_value[t] * popcount(pos->by_type[t]);
    const bool endgame = material <= 24;
    const bool queens = pos->by_type[UZ_QUEEN] != 0;
    int log_moves = 0;
    while ((2 << log_moves) <= n)
        log_moves++;

    int32_t v[UZ_MAX_MOVES];
    int32_t best = -UZ_MODEL_MATE_BASE;
    for (int i = 0; i < n; i++) {
        v[i] = uz_model_normalize_score(scores[i]);
        if (v[i] > best)
            best = v[i];
    }
    const int elo_us = game->elo[us] ? clamp_elo(game->elo[us]) : 0;
    const int elo_them = game->elo[them] ? clamp_elo(game->elo[them]) : 0;
    const int elo_rel = elo_us ? (elo_us - 2000) : 0;
    const int last_to = hist->last != UZ_MOVE_NONE && hist->last != UZ_MOVE_NULL ? UZ_MOVE_TO(hist->last) : -1;
    const bool own_known = hist->own_last != UZ_MOVE_NONE && hist->own_last != UZ_MOVE_NULL;

    for (int i = 0; i < n; i++) {
        int32_t *f = x + (size_t)i * UZ_PM_N_FEATURES;
        memset(f, 0, UZ_PM_N_FEATURES * sizeof *f);
        const uz_move m = moves[i];
        const int from = UZ_MOVE_FROM(m), to = UZ_MOVE_TO(m), promo = UZ_MOVE_PROMO(m);
        const int type = UZ_PIECE_TYPE(pos->squares[from]);
        const bool ep = type == UZ_PAWN && to == pos->ep_square && pos->squares[to] == 0;
        const int captured = ep ? UZ_PAWN : UZ_PIECE_TYPE(pos->squares[to]);
        const bool castle = type == UZ_KING && (to - from == 2 || from - to == 2);

        int gap = best - v[i];
        int rank = 0;
        for (int j = 0; j < n; j++)
            rank += v[j] > v[i] || (v[j] == v[i] && j < i);
        const int gsq = isqrt_small(100 * gap);
        f[UZ_PM_GAP_LIN] = gap < 400 ? gap : 400;
        f[UZ_PM_GAP_SQRT] = gsq;
        f[UZ_PM_GAP_LOG] = (int32_t)uz__log2_fixed((uint64_t)gap + 1, 4);
        f[UZ_PM_BLUNDER] = gap >= 200;
        f[UZ_PM_BIG_BLUNDER] = gap >= 500;
        f[UZ_PM_GAP_ZERO] = gap == 0;
        f[UZ_PM_RANK0] = rank == 0;
        f[UZ_PM_RANK1] = rank == 1;
        f[UZ_PM_RANK2] = rank == 2;
        f[UZ_PM_RANK_CAP] = rank < 12 ? rank : 12;
        f[UZ_PM_MATES] = v[i] > UZ_MODEL_CP_CLAMP;

        f[UZ_PM_CAPTURE] = captured != 0;
        f[UZ_PM_CAPTURED_VALUE] = piece_value[captured];
        f[UZ_PM_RECAPTURE] = captured && hist->last_captured && to == last_to;
        f[UZ_PM_TAKES_MOVER] = captured && to == last_to;
        f[UZ_PM_PROMO_QUEEN] = promo == UZ_QUEEN;
        f[UZ_PM_UNDERPROMO] = promo != 0 && promo != UZ_QUEEN;
        f[UZ_PM_CASTLE] = castle;
        f[UZ_PM_EN_PASSANT] = ep;
        f[UZ_PM_KNIGHT] = type == UZ_KNIGHT;
        f[UZ_PM_BISHOP] = type == UZ_BISHOP;
        f[UZ_PM_ROOK] = type == UZ_ROOK;
        f[UZ_PM_QUEEN] = type == UZ_QUEEN;
        f[UZ_PM_KING] = type == UZ_KING && !castle;
        const int forward = us == UZ_WHITE ? UZ_SQ_RANK(to) - UZ_SQ_RANK(from) : UZ_SQ_RANK(from) - UZ_SQ_RANK(to);
        f[UZ_PM_PUSH1] = type == UZ_PAWN && !captured && forward == 1;
        f[UZ_PM_PUSH2] = type == UZ_PAWN && forward == 2;
        f[UZ_PM_FORWARD] = forward;
        f[UZ_PM_RETREAT] = forward < 0;
        f[UZ_PM_CENTER] = centrality(to) - centrality(from);
        f[UZ_PM_KING_CLOSER] = king_distance(from, pos->king_sq[them]) - king_distance(to, pos->king_sq[them]);

        /* Safety on the board as it is (from) and with the piece moved (to). */
        const uint64_t from_bb = (uint64_t)1 << from, to_bb = (uint64_t)1 << to;
        const uint64_t at_from = uz_attackers_to(pos, from, occ);
        const bool from_att = (at_from & pos->by_color[them]) != 0;
        f[UZ_PM_FROM_ATTACKED] = from_att;
        f[UZ_PM_FROM_HANGING] = from_att && !(at_from & pos->by_color[us]);
        const uint64_t occ_after = (occ & ~from_bb) | to_bb;
        const uint64_t at_to = uz_attackers_to(pos, to, occ_after);
        const uint64_t enemy_at_to = at_to & pos->by_color[them] & ~to_bb;
        const bool to_att = enemy_at_to != 0;
        const bool to_def = (at_to & pos->by_color[us] & ~from_bb) != 0;
        f[UZ_PM_TO_ATTACKED] = to_att;
        f[UZ_PM_TO_DEFENDED] = to_def;
        f[UZ_PM_TO_HANGING] = to_att && !to_def && type != UZ_KING && piece_value[captured] < piece_value[type];
        f[UZ_PM_TO_PAWN_ATTACKED] = type != UZ_PAWN && (enemy_at_to & pos->by_type[UZ_PAWN]) != 0;

        f[UZ_PM_SAME_PIECE] = own_known && from == UZ_MOVE_TO(hist->own_last);
        f[UZ_PM_UNDO] = own_known && from == UZ_MOVE_TO(hist->own_last) && to == UZ_MOVE_FROM(hist->own_last);

        uz_position after = *pos;
        uz_undo undo;
        uz_make_move(&after, m, &undo);
        f[UZ_PM_CHECK] = uz_in_check(&after);
        if (type != UZ_KING) {
            /* enemy pieces (kings aside) the moved piece attacks from its new square */
            const uint64_t occ2 = after.by_color[0] | after.by_color[1];
            const int moved = promo ? promo : type;
            uint64_t hit = uz_piece_attacks(moved, us, to, occ2) & after.by_color[them] & ~after.by_type[UZ_KING];
            for (; hit; hit &= hit - 1) {
                int t = 0;
                while (!((hit >> t) & 1))
                    t++;
                if (piece_value[UZ_PIECE_TYPE(after.squares[t])] > piece_value[moved] ||
                    !(uz_attackers_to(&after, t, occ2) & after.by_color[them])) {
                    f[UZ_PM_THREAT] = 1;
                    break;
                }
            }
        }
        for (int k = 0; k < hist->n_keys && k < UZ_PM_HISTORY; k++)
            if (hist->keys[k] == after.key) {
                f[UZ_PM_REPEAT] = 1;
                break;
            }

        const int home = us == UZ_WHITE ? 0 : 7;
        f[UZ_PM_DEVELOP] = ply < 24 && (type == UZ_KNIGHT || type == UZ_BISHOP) && UZ_SQ_RANK(from) == home;
        f[UZ_PM_EARLY_QUEEN] = ply < 16 && type == UZ_QUEEN;
        f[UZ_PM_EARLY_KING] = type == UZ_KING && !castle && queens;
        f[UZ_PM_ENDGAME_PAWN] = endgame && type == UZ_PAWN;
        f[UZ_PM_GAP_ENDGAME] = endgame ? gsq : 0;
        f[UZ_PM_GAP_PLY] = gsq * (ply < 120 ? ply : 120) / 40;
        f[UZ_PM_GAP_WINNING] = best >= 200 ? gsq : 0;
        f[UZ_PM_GAP_LOSING] = best <= -200 ? gsq : 0;
        f[UZ_PM_GAP_MOVES] = gsq * log_moves;

        f[UZ_PM_GAP_ELO] = gsq * elo_rel / 200;
        f[UZ_PM_GAP_ELO_DIFF] = elo_us && elo_them ? gsq * (elo_them - elo_us) / 200 : 0;
        f[UZ_PM_GAP_NO_ELO] = elo_us ? 0 : gsq;
        f[UZ_PM_GAP_FAST] = game->base_time > 0 && game->base_time < 600 ? gsq : 0;
        f[UZ_PM_GAP_SLOW] = game->base_time == 0 || game->base_time >= 3600 ? gsq : 0;
        f[UZ_PM_RANK0_ELO] = rank == 0 ? elo_rel / 200 : 0;
        f[UZ_PM_BLUNDER_ELO] = gap >= 200 ? elo_rel / 200 : 0;
    }
}

/* ---- weights ---- */

#define WEIGHT_LIMIT (1 << 24) /* |weight| in Q16: 256 bits per feature unit */

static uint64_t fnv1a(uint64_t h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

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
    *h = fnv1a(*h, canon, (size_t)n);
    for (int f = 0; f < UZ_PM_N_FEATURES; f++) {
        if (v[3 + f] <= -HIDDEN_LIMIT || v[3 + f] >= HIDDEN_LIMIT)
            return false;
        m->hidden_weight[k][f] = v[3 + f];
        n = snprintf(canon, sizeof canon, " %lld", v[3 + f]);
        *h = fnv1a(*h, canon, (size_t)n);
    }
    *h = fnv1a(*h, "\n", 1);
    return true;
}

uz_result uz_player_model_parse(uz_player_model *m, const char *text, size_t len, uz_diag *diag)
{
    if (!m || !text)
        return UZ_ERR_ARG;
    memset(m, 0, sizeof *m);
    const char *p = text, *end = text + len;
    char line[4096];
    long lineno = 0;
    /* 0 magic, 1 floor, 2.. features, then the hidden layer (optional) and the hash */
    int stage = 0, units = 0;
    const int tail = 2 + UZ_PM_N_FEATURES;
    bool done = false;
    uint64_t h = 0xcbf29ce484222325ull;
    while (!done && next_line(&p, end, line, sizeof line, &lineno)) {
        if (line[0] == '#' || line[0] == 0)
            continue;
        if (strlen(line) == sizeof line - 1) {
            uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: line too long");
            return UZ_ERR_CORRUPT;
        }
        char name[64];
        long long value;
        char canon[128];
        if (stage == 0) {
            unsigned version;
            if (sscanf(line, "ucizip-player-model %u", &version) != 1 || version == 0) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'ucizip-player-model VERSION'");
                return UZ_ERR_CORRUPT;
            }
            m->version = version;
        } else if (stage == 1) {
            if (sscanf(line, "floor %lld", &value) != 1 || value < 1 || value > 32768) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'floor N' with N in 1..32768");
                return UZ_ERR_CORRUPT;
            }
            m->floor_q16 = (uint32_t)value;
            int k = snprintf(canon, sizeof canon, "floor %u\n", m->floor_q16);
            h = fnv1a(h, canon, (size_t)k);
        } else if (stage < tail) {
            int f = stage - 2;
            if (sscanf(line, "%63s %lld", name, &value) != 2 || strcmp(name, feature_names[f]) != 0) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected '%s VALUE'", feature_names[f]);
                return UZ_ERR_CORRUPT;
            }
            if (value <= -WEIGHT_LIMIT || value >= WEIGHT_LIMIT) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: %s out of range", name);
                return UZ_ERR_CORRUPT;
            }
            m->weight[f] = (int32_t)value;
            int k = snprintf(canon, sizeof canon, "%s %d\n", name, m->weight[f]);
            h = fnv1a(h, canon, (size_t)k);
        } else if (stage == tail && strncmp(line, "hidden ", 7) == 0) {
            if (sscanf(line, "hidden %lld", &value) != 1 || value < 1 || value > UZ_PM_MAX_HIDDEN) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: expected 'hidden H' with H in 1..%d",
                            UZ_PM_MAX_HIDDEN);
                return UZ_ERR_CORRUPT;
            }
            m->n_hidden = (int32_t)value;
            int k = snprintf(canon, sizeof canon, "hidden %d\n", m->n_hidden);
            h = fnv1a(h, canon, (size_t)k);
        } else if (units < m->n_hidden) {
            if (!parse_unit(m, units, line, &h)) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1,
                            "weights: expected 'unit %d BIAS OUT' and %d weights, each within range", units,
                            UZ_PM_N_FEATURES);
                return UZ_ERR_CORRUPT;
            }
            units++;
        } else {
            unsigned long long stored;
            if (sscanf(line, "hash %llx", &stored) != 1) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1,
                            "weights: expected 'hash HEX' after the %d features (and the hidden layer)",
                            UZ_PM_N_FEATURES);
                return UZ_ERR_CORRUPT;
            }
            if (stored != h) {
                uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1,
                            "weights: hash mismatch (file says %016llx, the weights give %016llx): damaged file",
                            stored, (unsigned long long)h);
                return UZ_ERR_CORRUPT;
            }
            m->hash = h;
            done = true;
        }
        if (stage < tail + 1)
            stage++;
    }
    if (!done) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, lineno, 1, "weights: file ends early (missing %s)",
                    stage == 0 ? "header" : stage == 1 ? "floor" : stage < tail ? "features"
                                                        : units < m->n_hidden ? "hidden units" : "hash");
        return UZ_ERR_CORRUPT;
    }
    return UZ_OK;
}

const uz_player_model *uz_pm_builtin_latest(void)
{
    return &uz_pm_builtin_sets[uz_pm_builtin_count - 1];
}

const uz_player_model *uz_pm_builtin_find(uint32_t version, uint64_t hash)
{
    for (int i = 0; i < uz_pm_builtin_count; i++)
        if (uz_pm_builtin_sets[i].version == version && uz_pm_builtin_sets[i].hash == hash)
            return &uz_pm_builtin_sets[i];
    return NULL;
}

/* ---- scores and frequencies ---- */

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

/* The hidden layer's part of one move's score (Q16 log2 units). */
static int64_t hidden_score(const uz_player_model *m, const int32_t *f, const bool *mask)
{
    int32_t x[UZ_PM_N_FEATURES];
    for (int k = 0; k < UZ_PM_N_FEATURES; k++) /* bounds the sums below 2^62 */
        x[k] = mask && !mask[k] ? 0 : f[k] < -32768 ? -32768 : f[k] > 32767 ? 32767 : f[k];
    int64_t sum = 0;
    for (int j = 0; j < m->n_hidden; j++) {
        int64_t a = m->hidden_bias[j];
        for (int k = 0; k < UZ_PM_N_FEATURES; k++)
            a += m->hidden_weight[j][k] * x[k];
        sum += (int64_t)m->hidden_out[j] * tanh_q16(a / 65536) / 65536;
    }
    return sum;
}

void uz_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s)
{
    for (int i = 0; i < n; i++) {
        const int32_t *f = x + (size_t)i * UZ_PM_N_FEATURES;
        int64_t sum = 0;
        if (mask) {
            for (int k = 0; k < UZ_PM_N_FEATURES; k++)
                if (mask[k])
                    sum += (int64_t)m->weight[k] * f[k];
        } else {
            for (int k = 0; k < UZ_PM_N_FEATURES; k++) /* the coder's case: no branch */
                sum += (int64_t)m->weight[k] * f[k];
        }
        s[i] = m->n_hidden ? sum + hidden_score(m, f, mask) : sum;
    }
}

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
