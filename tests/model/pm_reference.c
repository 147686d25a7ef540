/* The player model's features and scores as they were first written (dense: every
 * feature of every move, every weight multiplied), kept unchanged as the reference that
 * the optimised code in src/model must match to the bit (test_pm_identity.c). Never
 * optimise this file: its only job is to be obviously the original arithmetic. */
#include "pm_reference.h"

#include <string.h>

#include "codec/fixed.h"
#include "model/move_model.h"

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

void ref_pm_features(const uz_position *pos, const uz_move *moves, const int32_t *scores, int n,
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

void ref_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s)
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

void ref_pm_board_units(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n, int64_t *s)
{
    for (int i = 0; i < n; i++) {
        int from = moves[i] & 63, to = (moves[i] >> 6) & 63, type = pos->squares[from] & 7;
        if (pos->side == UZ_BLACK) { /* ranks counted from the mover's side */
            from = (7 - from / 8) * 8 + from % 8;
            to = (7 - to / 8) * 8 + to % 8;
        }
        int64_t sum = 0;
        for (int j = 0; j < m->n_board_units; j++) {
            int64_t a = m->board_bias[j] + m->board_to[type - 1][to][j] + m->board_from[type - 1][from][j];
            for (int sq = 0; sq < 64; sq++) {
                const int p = pos->squares[sq];
                if (p == 0)
                    continue;
                const bool mine = (p >> 3) == pos->side;
                const int seen = pos->side == UZ_BLACK ? (7 - sq / 8) * 8 + sq % 8 : sq;
                a += m->board_piece[(p & 7) - 1 + (mine ? 0 : 6)][seen][j];
            }
            sum += (int64_t)m->board_out[j] * tanh_q16(a);
        }
        s[i] += sum / 65536;
    }
}
