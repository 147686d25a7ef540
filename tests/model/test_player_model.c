/* Tests of the player model: features of moves whose kind is known, the weights file
 * (the built-in one parses to the compiled-in values; damaged files are refused with the
 * line), frequency invariants, and golden outputs: a hash of the features and
 * frequencies of fixed positions under fixed weights, which must be the same bits in
 * every build (gcc, clang, -O0, -O3, sanitizers). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "chess/board.h"
#include "model/move_model.h"
#include "model/player_model.h"

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

static int32_t x[UZ_MAX_MOVES * UZ_PM_N_FEATURES];

static int find_move(const uz_position *pos, const char *uci, uz_move *legal, int n)
{
    uz_move m;
    if (uz_move_from_uci(pos, uci, &m) != UZ_OK)
        return -1;
    for (int i = 0; i < n; i++)
        if (legal[i] == m)
            return i;
    (void)pos;
    return -1;
}

static int feature_of(const char *fen, const char *uci, int f, const uz_pm_history *h)
{
    uz_position pos;
    uz_move legal[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES] = {0};
    if (uz_position_from_fen(&pos, fen, NULL) != UZ_OK)
        return -999;
    int n = uz_generate_legal(&pos, legal);
    int i = find_move(&pos, uci, legal, n);
    if (i < 0)
        return -998;
    uz_pm_game g = {{0, 0}, 0};
    uz_pm_history none = {0};
    uz_pm_features(&pos, legal, scores, n, &g, h ? h : &none, x);
    return x[i * UZ_PM_N_FEATURES + f];
}

static void test_features(void)
{
    const char *start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    CHECK(feature_of(start, "e2e4", UZ_PM_PUSH2, NULL) == 1, "e4 is a double push");
    CHECK(feature_of(start, "e2e3", UZ_PM_PUSH1, NULL) == 1, "e3 is a single push");
    CHECK(feature_of(start, "g1f3", UZ_PM_DEVELOP, NULL) == 1, "Nf3 develops");
    CHECK(feature_of(start, "g1f3", UZ_PM_KNIGHT, NULL) == 1, "Nf3 is a knight move");
    CHECK(feature_of(start, "g1f3", UZ_PM_CAPTURE, NULL) == 0, "Nf3 captures nothing");
    /* 1. e4 d5: exd5 captures a pawn, defended by the queen */
    const char *scand = "rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 2";
    CHECK(feature_of(scand, "e4d5", UZ_PM_CAPTURE, NULL) == 1, "exd5 captures");
    CHECK(feature_of(scand, "e4d5", UZ_PM_CAPTURED_VALUE, NULL) == 1, "a pawn");
    CHECK(feature_of(scand, "e4d5", UZ_PM_TO_ATTACKED, NULL) == 1, "d5 is attacked by the queen");
    CHECK(feature_of(scand, "e4e5", UZ_PM_FROM_ATTACKED, NULL) == 1, "e4 is attacked by d5");
    uz_pm_history h = {.last = UZ_MOVE(UZ_SQ(3, 6), UZ_SQ(3, 4), 0)};
    CHECK(feature_of(scand, "e4d5", UZ_PM_TAKES_MOVER, &h) == 1, "exd5 takes the pawn that just moved");
    CHECK(feature_of(scand, "e4d5", UZ_PM_RECAPTURE, &h) == 0, "d7d5 captured nothing");
    /* check, castling, promotion, en passant */
    CHECK(feature_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "a1a8", UZ_PM_CHECK, NULL) == 1, "Ra8+ checks");
    CHECK(feature_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", UZ_PM_CASTLE, NULL) == 1, "O-O-O castles");
    CHECK(feature_of("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1", "e1c1", UZ_PM_KING, NULL) == 0, "castling is not a king move");
    CHECK(feature_of("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", UZ_PM_PROMO_QUEEN, NULL) == 1, "a8=Q");
    CHECK(feature_of("8/P3k3/8/8/8/8/8/4K3 w - - 0 1", "a7a8n", UZ_PM_UNDERPROMO, NULL) == 1, "a8=N");
    CHECK(feature_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", UZ_PM_EN_PASSANT, NULL) == 1, "exd6 e.p.");
    CHECK(feature_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2", "e5d6", UZ_PM_CAPTURED_VALUE, NULL) == 1, "takes a pawn");
    /* a knight forking king and rook: a threat; a queen moved where a pawn takes it */
    CHECK(feature_of("4k3/8/8/1r6/8/3N4/8/4K3 w - - 0 1", "d3c5", UZ_PM_THREAT, NULL) == 0, "Nc5 attacks nothing");
    CHECK(feature_of("r3k3/8/8/8/8/3N4/8/4K3 w - - 0 1", "d3c5", UZ_PM_THREAT, NULL) == 0, "nothing on b7/d7");
    CHECK(feature_of("4k3/8/1r6/8/8/3N4/8/4K3 w - - 0 1", "d3c5", UZ_PM_THREAT, NULL) == 0, "c5 does not hit b6");
    CHECK(feature_of("4k3/1r6/8/8/8/3N4/8/4K3 w - - 0 1", "d3c5", UZ_PM_THREAT, NULL) == 1, "Nc5 hits the rook on b7");
    CHECK(feature_of("4k3/2p5/8/8/8/8/8/3QK3 w - - 0 1", "d1d6", UZ_PM_TO_PAWN_ATTACKED, NULL) == 1, "Qd6 en prise");
    CHECK(feature_of("4k3/2p5/8/8/8/8/8/3QK3 w - - 0 1", "d1d6", UZ_PM_TO_HANGING, NULL) == 1, "and undefended");
    /* continuity: the same piece, moved back */
    uz_pm_history own = {.own_last = UZ_MOVE(UZ_SQ(6, 0), UZ_SQ(5, 2), 0)};
    const char *nf3 = "rnbqkbnr/pppp1ppp/8/4p3/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 0 2";
    CHECK(feature_of(nf3, "f3g1", UZ_PM_UNDO, &own) == 1, "Ng1 undoes Nf3");
    CHECK(feature_of(nf3, "f3e5", UZ_PM_SAME_PIECE, &own) == 1, "Nxe5 moves the same knight");
    CHECK(feature_of(nf3, "f3e5", UZ_PM_UNDO, &own) == 0, "but does not undo");
    /* a move back into an earlier position */
    uz_position sp, after;
    uz_undo u;
    uz_position_startpos(&sp);
    after = sp;
    uz_make_move(&after, UZ_MOVE(UZ_SQ(4, 1), UZ_SQ(4, 3), 0), &u);
    uz_pm_history rep = {.n_keys = 1};
    rep.keys[0] = after.key;
    CHECK(feature_of(start, "e2e4", UZ_PM_REPEAT, &rep) == 1, "e4 repeats a position of the history");
    CHECK(feature_of(start, "d2d4", UZ_PM_REPEAT, &rep) == 0, "d4 does not");
    /* gap and rank from the scores */
    uz_position pos;
    uz_move legal[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    uz_position_startpos(&pos);
    int n = uz_generate_legal(&pos, legal);
    for (int i = 0; i < n; i++)
        scores[i] = i == 3 ? 50 : i == 5 ? UZ_SCORE_MATE - 2 : -i * 30;
    uz_pm_game g = {{1500, 2300}, 180};
    uz_pm_history none = {0};
    uz_pm_features(&pos, legal, scores, n, &g, &none, x);
    CHECK(x[5 * UZ_PM_N_FEATURES + UZ_PM_RANK0] == 1 && x[5 * UZ_PM_N_FEATURES + UZ_PM_MATES] == 1, "mate is first");
    CHECK(x[3 * UZ_PM_N_FEATURES + UZ_PM_RANK1] == 1, "+50 is second");
    CHECK(x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_LIN] == UZ_MODEL_MATE_BASE - 2 - 50 ||
              x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_LIN] == 400, "gap capped at 400");
    CHECK(x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_FAST] == x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_SQRT], "3 minutes is fast");
    CHECK(x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_ELO] == x[3 * UZ_PM_N_FEATURES + UZ_PM_GAP_SQRT] * -500 / 200,
          "white is rated 1500");
    uz_pm_game_from_tags(&g, "2100", "?", "40/7200:3600");
    CHECK(g.elo[0] == 2100 && g.elo[1] == 0 && g.base_time == 7200, "tags: %d %d %d", g.elo[0], g.elo[1], g.base_time);
}

/* A weights text with the given values and a correct hash; n_hidden units of a hidden
 * layer (0: none) with weights made up from their index. */
static char *make_weights_hidden(const int32_t *w, uint32_t floor_q16, bool good_hash, int n_hidden)
{
    static char buf[65536];
    static char body[60000];
    size_t k = (size_t)snprintf(body, sizeof body, "floor %u\n", floor_q16);
    for (int f = 0; f < UZ_PM_N_FEATURES; f++)
        k += (size_t)snprintf(body + k, sizeof body - k, "%s %d\n", uz_pm_feature_name(f), w[f]);
    if (n_hidden)
        k += (size_t)snprintf(body + k, sizeof body - k, "hidden %d\n", n_hidden);
    for (int j = 0; j < n_hidden; j++) {
        k += (size_t)snprintf(body + k, sizeof body - k, "unit %d %lld %d", j, (long long)(j - 2) * 987654321, 40000 - j * 23456);
        for (int f = 0; f < UZ_PM_N_FEATURES; f++)
            k += (size_t)snprintf(body + k, sizeof body - k, " %lld", ((long long)(f * 7919 + j * 104729) % 2001 - 1000) * 4321987);
        k += (size_t)snprintf(body + k, sizeof body - k, "\n");
    }
    uint64_t h = fnv(0xcbf29ce484222325ull, body, k);
    snprintf(buf, sizeof buf, "# test weights\nucizip-player-model 7\n%shash %016llx\n", body,
             (unsigned long long)(good_hash ? h : h ^ 1));
    return buf;
}

/* Weights with square tables of two buckets split at ply 20: entry (kind, b, t, sq) is
 * square_value(kind, b, t, sq). */
static int32_t square_value(int kind, int b, int t, int sq)
{
    return ((kind * 7 + b * 131 + t * 17 + sq * 3) % 1001 - 500) * 97;
}

/* The floor and feature lines of a test weights text; returns their length. */
static size_t weights_head(char *body, size_t size, const int32_t *w)
{
    size_t k = (size_t)snprintf(body, size, "floor 100\n");
    for (int f = 0; f < UZ_PM_N_FEATURES; f++)
        k += (size_t)snprintf(body + k, size - k, "%s %d\n", uz_pm_feature_name(f), w[f]);
    return k;
}

static char *make_weights_squares(const int32_t *w, bool good_hash)
{
    static char buf[65536];
    static char body[60000];
    size_t k = weights_head(body, sizeof body, w);
    k += (size_t)snprintf(body + k, sizeof body - k, "squares 2 20\n");
    for (int kind = 0; kind < 2; kind++)
        for (int b = 0; b < 2; b++)
            for (int t = 0; t < 6; t++) {
                k += (size_t)snprintf(body + k, sizeof body - k, "%s %d %c", kind ? "from" : "to", b, "PNBRQK"[t]);
                for (int sq = 0; sq < 64; sq++)
                    k += (size_t)snprintf(body + k, sizeof body - k, " %d", square_value(kind, b, t, sq));
                k += (size_t)snprintf(body + k, sizeof body - k, "\n");
            }
    uint64_t h = fnv(0xcbf29ce484222325ull, body, k);
    snprintf(buf, sizeof buf, "ucizip-player-model 9\n%shash %016llx\n", body,
             (unsigned long long)(good_hash ? h : h ^ 1));
    return buf;
}

/* Square tables: read back and scored from the mover's side in the right bucket; a
 * damaged value, a missing line, lines out of order, a bad bucket count or bounds and a
 * value out of range are refused. */
static void test_square_tables(const int32_t *w)
{
    uz_player_model m;
    uz_diag d = {0};
    char *t = make_weights_squares(w, true);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_OK && m.n_square_buckets == 2 && m.square_bound[0] == 20 &&
              m.square_to[1][4][63] == square_value(0, 1, 4, 63) && m.square_from[0][0][12] == square_value(1, 0, 0, 12),
          "square tables: %s", d.message);
    /* 1. e4 (ply 0, bucket 0): pawn e2 -> e4; black's 1... e5 after it mirrors to the same squares */
    uz_position pos;
    uz_position_startpos(&pos);
    uz_move e4 = UZ_MOVE(12, 28, 0), e5 = UZ_MOVE(52, 36, 0);
    int64_t s[1] = {0};
    uz_pm_board_scores(&m, &pos, &e4, 1, s);
    CHECK(s[0] == square_value(0, 0, 0, 28) + square_value(1, 0, 0, 12), "white's e4: %lld", (long long)s[0]);
    uz_undo u;
    uz_make_move(&pos, e4, &u);
    s[0] = 0;
    uz_pm_board_scores(&m, &pos, &e5, 1, s);
    CHECK(s[0] == square_value(0, 0, 0, 28) + square_value(1, 0, 0, 12), "black's e5 mirrored: %lld", (long long)s[0]);
    pos.fullmove = 11; /* ply 21: the second bucket */
    s[0] = 0;
    uz_pm_board_scores(&m, &pos, &e5, 1, s);
    CHECK(s[0] == square_value(0, 1, 0, 28) + square_value(1, 1, 0, 12), "second bucket: %lld", (long long)s[0]);

    char *digit = strstr(t, "from 1 N ") + 9;
    *digit = *digit == '1' ? '2' : '1';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "hash mismatch"),
          "damaged square value: %s", d.message);
    t = make_weights_squares(w, true);
    size_t cut = (size_t)(strstr(t, "from 1 K") - t);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, cut, &d) == UZ_ERR_CORRUPT && strstr(d.message, "square tables"),
          "missing table line: %s", d.message);
    t = make_weights_squares(w, true);
    strstr(t, "to 0 N")[5] = 'B';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "to 0 N"),
          "lines out of order: %s", d.message);
    t = make_weights_squares(w, true);
    memcpy(strstr(t, "squares 2 20"), "squares 7 20", 12);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "squares B"),
          "too many buckets: %s", d.message);
    t = make_weights_squares(w, true);
    memcpy(strstr(t, "squares 2 20"), "squares 2 00", 12);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "squares B"),
          "bound 0: %s", d.message);
    t = make_weights_squares(w, true);
    char *v = strstr(t, "to 1 Q ") + 7;
    memcpy(v, "99999999", 8); /* over 2^24 */
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "within range"),
          "square value too large: %s", d.message);
}

/* A weights text with two board units (after two square-table buckets of zeros), every
 * value board_value(line, k): line = the line's index in the section, k = its value. */
static int32_t board_value(int line, int k)
{
    return ((line * 37 + k * 11) % 201 - 100) * 64;
}

static char *make_weights_board(const int32_t *w)
{
    static char buf[65536];
    static char body[60000];
    size_t k = weights_head(body, sizeof body, w);
    k += (size_t)snprintf(body + k, sizeof body - k, "board 2\n");
    int line = 0;
    for (int j = 0; j < 2; j++) {
        k += (size_t)snprintf(body + k, sizeof body - k, "bunit %d %d %d\n", j, board_value(line, 0),
                              board_value(line, 1) * 16);
        line++;
        for (int c = 0; c < 24; c++, line++) {
            const char *kind = c < 12 ? "bpiece" : c < 18 ? "bto" : "bfrom";
            k += (size_t)snprintf(body + k, sizeof body - k, "%s %d %c", kind, j,
                                  c < 12 ? "PNBRQKpnbrqk"[c] : "PNBRQK"[(c - 12) % 6]);
            for (int sq = 0; sq < 64; sq++)
                k += (size_t)snprintf(body + k, sizeof body - k, " %d", board_value(line, sq));
            k += (size_t)snprintf(body + k, sizeof body - k, "\n");
        }
    }
    uint64_t h = fnv(0xcbf29ce484222325ull, body, k);
    snprintf(buf, sizeof buf, "ucizip-player-model 9\n%shash %016llx\n", body, (unsigned long long)h);
    return buf;
}

/* Board units: read back into their places, scored from the mover's side (the start
 * position's e4 and, after it, e5 seen from Black: the same position mirrored, so the
 * same score); damaged, missing and misordered lines and out-of-range values refused. */
static void test_board_units(const int32_t *w)
{
    uz_player_model m;
    uz_diag d = {0};
    char *t = make_weights_board(w);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_OK && m.n_board_units == 2 &&
              m.board_bias[1] == board_value(25, 0) && m.board_out[0] == board_value(0, 1) * 16 &&
              m.board_piece[7][63][1] == board_value(25 + 8, 63) && m.board_to[2][5][0] == board_value(15, 5) &&
              m.board_from[5][0][1] == board_value(25 + 24, 0),
          "board units: %s", d.message);
    uz_position pos;
    uz_position_startpos(&pos);
    uz_move e4 = UZ_MOVE(12, 28, 0), e5 = UZ_MOVE(52, 36, 0);
    int64_t s1[1] = {0}, s2[1] = {0};
    uz_pm_board_scores(&m, &pos, &e4, 1, s1);
    uz_undo u;
    uz_make_move(&pos, e4, &u);
    uz_pm_board_scores(&m, &pos, &e5, 1, s2);
    /* after 1. e4 Black sees a White pawn on e4 where White saw none: different boards */
    CHECK(s1[0] != 0 && s2[0] != 0 && s1[0] != s2[0], "board unit scores %lld, %lld", (long long)s1[0],
          (long long)s2[0]);
    uz_unmake_move(&pos, e4, &u);
    uz_position black = pos; /* the start position with Black to move scores e5 as White's e4 */
    black.side = UZ_BLACK;
    int64_t s3[1] = {0};
    uz_pm_board_scores(&m, &black, &e5, 1, s3);
    CHECK(s3[0] == s1[0], "mirrored for Black: %lld against %lld", (long long)s3[0], (long long)s1[0]);

    char *digit = strstr(t, "bto 1 B ") + 9;
    *digit = *digit == '1' ? '2' : '1';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "hash mismatch"),
          "damaged board value: %s", d.message);
    t = make_weights_board(w);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, (size_t)(strstr(t, "bfrom 1 K") - t), &d) == UZ_ERR_CORRUPT &&
              strstr(d.message, "board units"),
          "missing board line: %s", d.message);
    t = make_weights_board(w);
    strstr(t, "bpiece 0 n")[9] = 'b';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "bpiece 0 n"),
          "board lines out of order: %s", d.message);
    t = make_weights_board(w);
    memcpy(strstr(t, "board 2"), "board 0", 7);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "board U"),
          "no units: %s", d.message);
    t = make_weights_board(w);
    memcpy(strstr(t, "bpiece 1 Q ") + 11, "99999999", 8); /* over 2^24 */
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "within range"),
          "board value too large: %s", d.message);
}

static char *make_weights(const int32_t *w, uint32_t floor_q16, bool good_hash)
{
    return make_weights_hidden(w, floor_q16, good_hash, 0);
}

static void test_weights_file(void)
{
    uz_player_model m;
    uz_diag d = {0};
    CHECK(uz_pm_builtin_count >= 1, "at least one built-in weight set");
    for (int i = 0; i < uz_pm_builtin_count; i++) {
        const uz_player_model *b = &uz_pm_builtin_sets[i];
        const char *text = uz_pm_builtin_texts[i];
        CHECK(uz_player_model_parse(&m, text, strlen(text), &d) == UZ_OK, "set %d: %s", i, d.message);
        CHECK(m.version == b->version && m.hash == b->hash && m.floor_q16 == b->floor_q16 &&
                  memcmp(m.weight, b->weight, sizeof m.weight) == 0 && m.n_hidden == b->n_hidden &&
                  memcmp(m.hidden_bias, b->hidden_bias, sizeof m.hidden_bias) == 0 &&
                  memcmp(m.hidden_out, b->hidden_out, sizeof m.hidden_out) == 0 &&
                  memcmp(m.hidden_weight, b->hidden_weight, sizeof m.hidden_weight) == 0 &&
                  m.n_square_buckets == b->n_square_buckets &&
                  memcmp(m.square_bound, b->square_bound, sizeof m.square_bound) == 0 &&
                  memcmp(m.square_to, b->square_to, sizeof m.square_to) == 0 &&
                  memcmp(m.square_from, b->square_from, sizeof m.square_from) == 0 &&
                  m.n_board_units == b->n_board_units && memcmp(m.board_bias, b->board_bias, sizeof m.board_bias) == 0 &&
                  memcmp(m.board_out, b->board_out, sizeof m.board_out) == 0 &&
                  memcmp(m.board_piece, b->board_piece, sizeof m.board_piece) == 0 &&
                  memcmp(m.board_to, b->board_to, sizeof m.board_to) == 0 &&
                  memcmp(m.board_from, b->board_from, sizeof m.board_from) == 0 &&
                  m.policy_version == b->policy_version && m.policy_hash == b->policy_hash &&
                  m.policy_beta == b->policy_beta,
              "set %d: the compiled-in weights are the ones of the text (scripts/pm_weights.py)", i);
        CHECK(uz_pm_builtin_find(b->version, b->hash) == b, "set %d is found by its identity", i);
        CHECK(i == 0 || b->version > uz_pm_builtin_sets[i - 1].version, "versions increase");
    }
    CHECK(uz_pm_builtin_find(uz_pm_builtin_latest()->version, uz_pm_builtin_latest()->hash ^ 1) == NULL,
          "other weights are not found");

    int32_t w[UZ_PM_N_FEATURES];
    for (int f = 0; f < UZ_PM_N_FEATURES; f++)
        w[f] = (f * 7919) % 20000 - 10000;
    char *t = make_weights(w, 100, true);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_OK && m.version == 7 && m.weight[3] == w[3], "%s",
          d.message);
    /* one digit changed: refused, naming the line of the hash */
    char *digit = strstr(t, "GAP_SQRT ") + 10;
    *digit = *digit == '1' ? '2' : '1';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "hash mismatch") &&
              d.line == 3 + UZ_PM_N_FEATURES + 1,
          "damaged weight: %ld %s", d.line, d.message);
    t = make_weights(w, 100, false);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT, "wrong hash");
    t = make_weights(w, 100, true);
    char *line = strstr(t, "CAPTURE ");
    memcpy(line, "CAPTURX ", 8);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "CAPTURE") && d.line > 3,
          "unknown feature: %ld %s", d.line, d.message);
    t = make_weights(w, 100, true);
    size_t cut = (size_t)(strstr(t, "THREAT") - t);
    CHECK(uz_player_model_parse(&m, t, cut, &d) == UZ_ERR_CORRUPT && strstr(d.message, "ends early"), "truncated: %s",
          d.message);
    CHECK(uz_player_model_parse(&m, "garbage\n", 8, &d) == UZ_ERR_CORRUPT && d.line == 1, "no magic");
    w[0] = 1 << 25;
    t = make_weights(w, 100, true);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "out of range"),
          "too large: %s", d.message);

    /* A hidden layer: read back; a damaged unit weight, a missing unit, a unit out of
     * order and a weight out of range are refused. */
    w[0] = 5;
    t = make_weights_hidden(w, 100, true, 3);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_OK && m.n_hidden == 3 &&
              m.hidden_bias[0] == -2ll * 987654321 && m.hidden_out[2] == 40000 - 2 * 23456 &&
              m.hidden_weight[1][3] == ((3 * 7919 + 104729) % 2001 - 1000) * 4321987ll,
          "hidden layer: %s", d.message);
    char *unit1 = strstr(t, "unit 1 ");
    char *digit2 = strchr(unit1 + 7, ' ') + 1;
    *digit2 = *digit2 == '1' ? '2' : '1';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "hash mismatch"),
          "damaged unit: %s", d.message);
    t = make_weights_hidden(w, 100, true, 3);
    cut = (size_t)(strstr(t, "unit 2 ") - t);
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, cut, &d) == UZ_ERR_CORRUPT && strstr(d.message, "ends early"),
          "missing unit: %s", d.message);
    t = make_weights_hidden(w, 100, true, 3);
    strstr(t, "unit 2 ")[5] = '0';
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "unit 2"),
          "unit out of order: %s", d.message);
    t = make_weights_hidden(w, 100, true, 1);
    static char big[65536];
    char *u0 = strstr(t, "unit 0 ");
    size_t at = (size_t)(u0 - t), k = 0;
    k += (size_t)snprintf(big, sizeof big, "%.*sunit 0 1 1", (int)at, t);
    for (int f = 0; f < UZ_PM_N_FEATURES; f++) /* 2^41 > the limit of 2^40 */
        k += (size_t)snprintf(big + k, sizeof big - k, " %lld", f == 9 ? 1ll << 41 : 1ll);
    snprintf(big + k, sizeof big - k, "%s", strchr(u0, '\n'));
    t = big;
    memset(&d, 0, sizeof d);
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, "within range"),
          "unit weight too large: %s", d.message);
    test_square_tables(w);
    test_board_units(w);
}

/* The policy line of a weight set: read from set 15's text; an unknown policy version,
 * a policy hash that is not the built-in one, a beta out of range are refused (naming
 * the line), and so is a policy line anywhere but last. */
static void test_policy_line(void)
{
    const uz_player_model *b = uz_pm_builtin_version(15);
    CHECK(b && b->policy_version == 1 && b->policy_beta > 0, "set 15 names policy 1");
    int idx = -1;
    for (int i = 0; i < uz_pm_builtin_count; i++)
        if (&uz_pm_builtin_sets[i] == b)
            idx = i;
    if (idx < 0)
        return;
    static const char *const bad[] = {"policy 2 d4c5a4805ae1a33c 100", "policy 1 d4c5a4805ae1a33d 100",
                                      "policy 1 d4c5a4805ae1a33c -1"};
    static const char *const why[] = {"not built in", "not built in", "expected 'policy"};
    for (int k = 0; k < 3; k++) {
        char *t = strdup(uz_pm_builtin_texts[idx]);
        char *line = strstr(t, "\npolicy ") + 1;
        /* the line rewritten in place, padded with spaces to its length */
        size_t len = (size_t)(strchr(line, '\n') - line), n = strlen(bad[k]);
        memset(line, ' ', len);
        memcpy(line, bad[k], n);
        uz_player_model m;
        uz_diag d = {0};
        CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT && strstr(d.message, why[k]) &&
                  d.line > 1,
              "bad policy line %d refused: %ld %s", k, d.line, d.message);
        free(t);
    }
    /* the policy line moved before the board units: refused */
    const char *text = uz_pm_builtin_texts[idx];
    const char *pl = strstr(text, "\npolicy ") + 1, *board = strstr(text, "\nboard ") + 1;
    size_t pl_len = (size_t)(strchr(pl, '\n') - pl) + 1, total = strlen(text);
    char *t = malloc(total + 1);
    size_t at = (size_t)(board - text);
    memcpy(t, text, at);
    memcpy(t + at, pl, pl_len);
    memcpy(t + at + pl_len, board, (size_t)(pl - board));
    memcpy(t + at + pl_len + (size_t)(pl - board), pl + pl_len, total - (size_t)(pl - text) - pl_len + 1);
    uz_player_model m;
    uz_diag d = {0};
    CHECK(uz_player_model_parse(&m, t, strlen(t), &d) == UZ_ERR_CORRUPT, "policy line before the board units: %s",
          d.message);
    free(t);
}

/* Features, scores and frequencies of a few positions under the weight set m, hashed. */
static uint64_t golden_hash(const uz_player_model *m)
{
    static const char *const fens[] = {
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
        "4k3/P7/8/3pP3/8/8/6p1/4K2R w K d6 0 40",
    };
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t p = 0; p < sizeof fens / sizeof *fens; p++) {
        uz_position pos;
        uz_move legal[UZ_MAX_MOVES];
        int32_t scores[UZ_MAX_MOVES];
        int64_t s[UZ_MAX_MOVES];
        uint32_t freq[UZ_MAX_MOVES];
        CHECK(uz_position_from_fen(&pos, fens[p], NULL) == UZ_OK, "fen %zu", p);
        int n = uz_generate_legal(&pos, legal);
        for (int i = 0; i < n; i++)
            scores[i] = (int32_t)((i * 7919 + (int)p * 104729) % 900) - 450 + (i == 2 ? -UZ_SCORE_MATE + 3 : 0);
        uz_pm_game g = {{(int)p * 300 + 1200, 2000}, p % 2 ? 300 : 0};
        uz_pm_history hist = {.last = legal[0], .last_captured = p % 2, .own_last = legal[n - 1], .n_keys = 1};
        hist.keys[0] = pos.key ^ 1;
        uz_pm_features(&pos, legal, scores, n, &g, &hist, x);
        uz_pm_scores(m, x, n, NULL, s);
        uz_pm_board_scores(m, &pos, legal, n, s);
        uint32_t total = uz_pm_frequencies(m, s, n, freq);
        uint32_t sum = 0, low = UINT32_MAX;
        for (int i = 0; i < n; i++) {
            sum += freq[i];
            low = freq[i] < low ? freq[i] : low;
        }
        CHECK(total == UZ_MODEL_TOTAL && sum == UZ_MODEL_TOTAL && low >= 1, "frequencies of position %zu", p);
        h = fnv(h, x, (size_t)n * UZ_PM_N_FEATURES * sizeof *x);
        h = fnv(h, s, (size_t)n * sizeof *s);
        h = fnv(h, freq, (size_t)n * sizeof *freq);
    }
    return h;
}

/* The golden hash under made-up weights (n_hidden units of a hidden layer, or two board
 * units): pins the integer arithmetic on every build. */
static void test_golden(int n_hidden, bool board, uint64_t golden)
{
    int32_t w[UZ_PM_N_FEATURES];
    for (int f = 0; f < UZ_PM_N_FEATURES; f++)
        w[f] = (f * 7919) % 40000 - 20000;
    char *t = board ? make_weights_board(w) : make_weights_hidden(w, 300, true, n_hidden);
    uz_player_model m;
    CHECK(uz_player_model_parse(&m, t, strlen(t), NULL) == UZ_OK, "test weights parse");
    uint64_t h = golden_hash(&m);
    /* A change here is an archive format change (little-endian byte hash). */
    CHECK(h == golden, "golden hash (%d hidden units%s) %016llx", n_hidden, board ? ", board units" : "",
          (unsigned long long)h);
}

/* The golden hash under a built-in weight set, as new archives of its oracle use it: its
 * values and the arithmetic of every part it has (hidden layer, square tables, board
 * units) give the same frequencies in every build. */
static void test_golden_builtin(uint32_t version, uint64_t golden)
{
    const uz_player_model *m = uz_pm_builtin_version(version);
    CHECK(m != NULL, "built-in weight set v%u", version);
    if (!m)
        return;
    uint64_t h = golden_hash(m);
    /* A change here is an archive format change (little-endian byte hash). */
    CHECK(h == golden, "golden hash of weight set v%u %016llx", version, (unsigned long long)h);
}

int main(void)
{
    test_features();
    test_weights_file();
    test_golden(0, false, 0x91e7ded27d8c30a6ull);
    test_golden(4, false, 0xe854f04cf2e19d22ull);
    test_golden(0, true, 0x2f8bcc506fccc27full);
    test_golden_builtin(2, 0xcf1be5c3ffb3d9fdull);
    test_golden_builtin(9, 0x4eb78208e89985e6ull);
    test_golden_builtin(14, 0xefabfba3d174d932ull);
    test_golden_builtin(15, 0x826d3d46f930ac77ull);
    test_golden_builtin(16, 0xb3f0ddc511d818d4ull);
    test_policy_line();
    return test_finish();
}
