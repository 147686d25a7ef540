/* Perft through the search's move machinery: the published counts of tests/data/perft.epd
 * and perft960.epd (each position to the deepest depth of at most 300,000 leaves),
 * counted with the make/unmake the search uses, and at every inner node of the tree
 * builtin-1's capture generator (legal captures, en passant and queen promotions, no
 * other move) and its incremental material (equal to a recount after every move) are
 * checked against the board's legal move generator. Before that, its slider attacks
 * (line arithmetic and a rank table) against walking the board square by square, on
 * every square and a million random occupancies. */
#include <stdlib.h>
#include <string.h>

#include "builtin/v1_eval.h"
#include "builtin_test.h"

#define LEAF_LIMIT 300000

static long bad_captures, bad_material;

static bool is_capture_or_queen_promotion(const uz_position *pos, uz_move m)
{
    int promo = UZ_MOVE_PROMO(m);
    if (promo)
        return promo == UZ_QUEEN;
    int piece = pos->squares[UZ_MOVE_FROM(m)], target = pos->squares[UZ_MOVE_TO(m)];
    if (pos->chess960 && UZ_PIECE_TYPE(piece) == UZ_KING && target && UZ_PIECE_COLOR(target) == pos->side)
        return false; /* castling written as king takes rook */
    return target || (UZ_PIECE_TYPE(piece) == UZ_PAWN && UZ_MOVE_TO(m) == pos->ep_square);
}

static void check_node(const uz_position *pos, const uz_move *legal, int n)
{
    uz_move captures[UZ_MAX_MOVES];
    int k = uz__b1_generate_captures(pos, captures);
    int expected = 0, found = 0;
    for (int i = 0; i < n; i++)
        expected += is_capture_or_queen_promotion(pos, legal[i]);
    for (int j = 0; j < k; j++) {
        bool listed = false;
        for (int i = 0; i < n && !listed; i++)
            listed = captures[j] == legal[i];
        if (listed)
            found++;
        else if (uz_is_legal(pos, captures[j]) || !is_capture_or_queen_promotion(pos, captures[j]))
            bad_captures++; /* a legal move missing from the legal list, or not a capture */
    }
    bad_captures += found != expected;
    b1_material m, after, recount;
    uz__b1_material_init(pos, &m);
    for (int i = 0; i < n; i++) {
        uz_position child = *pos;
        uz_undo undo;
        uz__b1_material_after(pos, legal[i], &m, &after);
        uz_make_move(&child, legal[i], &undo);
        uz__b1_material_init(&child, &recount);
        bad_material += memcmp(&after, &recount, sizeof after) != 0;
    }
}

static uint64_t perft(uz_position *pos, int depth)
{
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves);
    if (depth == 1)
        return (uint64_t)n;
    check_node(pos, moves, n);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        uz_undo undo;
        uz_make_move(pos, moves[i], &undo);
        total += perft(pos, depth - 1);
        uz_unmake_move(pos, moves[i], &undo);
    }
    return total;
}

static void run_file(const char *name, bool chess960)
{
    char path[4096], line[512];
    FILE *f = fopen(data_path(name, path, sizeof path), "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    int positions = 0;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (!semi)
            continue;
        *semi = 0;
        uz_position pos;
        CHECK(uz_position_from_fen_960(&pos, line, chess960, NULL) == UZ_OK, "%s", line);
        int depth = 0;
        unsigned long long count = 0;
        for (char *d = strstr(semi + 1, "D"); d; d = strstr(d + 1, ";D")) {
            int dd;
            unsigned long long c;
            if (sscanf(d + (d[0] == ';'), "D%d %llu", &dd, &c) == 2 && c <= LEAF_LIMIT) {
                depth = dd;
                count = c;
            }
        }
        if (depth < 2)
            continue;
        uint64_t got = perft(&pos, depth);
        CHECK(got == count, "%s depth %d: %llu, published %llu", line, depth, (unsigned long long)got, count);
        positions++;
    }
    fclose(f);
    CHECK(positions >= 5, "%s: only %d positions with counts", name, positions);
}

/* A rook's (diagonal: a bishop's) attacks from sq, one step at a time. */
static uint64_t walked_attacks(int sq, uint64_t occupied, bool diagonal)
{
    static const int rook_steps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
    static const int bishop_steps[4][2] = {{1, 1}, {1, -1}, {-1, -1}, {-1, 1}};
    uint64_t out = 0;
    for (int d = 0; d < 4; d++) {
        const int *step = diagonal ? bishop_steps[d] : rook_steps[d];
        int f = sq % 8 + step[0], r = sq / 8 + step[1];
        for (; f >= 0 && f < 8 && r >= 0 && r < 8; f += step[0], r += step[1]) {
            out |= (uint64_t)1 << (8 * r + f);
            if (occupied >> (8 * r + f) & 1)
                break;
        }
    }
    return out;
}

static void test_slider_attacks(void)
{
    uint64_t x = 0x9E3779B97F4A7C15ULL; /* xorshift64 */
    long bad = 0;
    for (int i = 0; i < 1000000; i++) {
        uint64_t occupied = ~(uint64_t)0;
        for (int k = 0; k <= i / 64 % 4; k++) { /* denser to sparser: 1 to 4 random words ANDed */
            x ^= x << 13, x ^= x >> 7, x ^= x << 17;
            occupied &= x;
        }
        if (i % 7 == 0)
            occupied = 0; /* the empty board too, now and then */
        int sq = i % 64;
        bad += b1_rook_attacks(sq, occupied) != walked_attacks(sq, occupied, false);
        bad += b1_bishop_attacks(sq, occupied) != walked_attacks(sq, occupied, true);
    }
    CHECK(bad == 0, "%ld slider attack sets differ from walking the board", bad);
}

int main(void)
{
    test_slider_attacks();
    run_file("perft.epd", false);
    run_file("perft960.epd", true);
    CHECK(bad_captures == 0, "%ld nodes where the capture generator and the legal moves disagree", bad_captures);
    CHECK(bad_material == 0, "%ld moves where the incremental material differs from a recount", bad_material);
    return test_finish();
}
