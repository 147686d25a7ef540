/* ucizip-positions: the positions a learned evaluation is trained on. Reads PGN files,
 * replays the main line of each game of the chosen part of the corpus (game_split.h),
 * and writes every position with two or more legal moves (the positions the codec
 * scores) and, with --children, the position after each of their legal moves (the
 * positions a depth-1 search evaluates). Each position is written once (Zobrist keys).
 *
 *   ucizip-positions [--split train|held-out|all] [--children] [--every K]
 *                    --fens OUT.txt [--boards OUT.bin] [--evals OUT.i16]
 *                    [--network OUT.i16] [--groups OUT.i32] GAMES.pgn...
 *
 * OUT.txt: one FEN a line. OUT.bin: 65 bytes a position, in the same order: the 64
 * squares seen from the side to move (a1 first; a black mover's board mirrored top to
 * bottom; 0 empty, 1..6 the mover's pawn..king, 7..12 the opponent's), then a flags byte
 * (1: the side to move is in check; 2: first written as a child, as most game positions
 * are, after the move before them; 4: not quiet: the side to move has a promotion, or a
 * capture that wins material at first sight, of a piece worth more than the capturer or
 * of one its opponent does not defend). --every K keeps every K-th game position (and
 * its children). OUT.i16: builtin-1's static evaluation of
 * each position (int16, side to move's view), the hand-written evaluation a learned one
 * is measured against. --network: builtin-3's network output (int16, side to move's
 * view), from scratch, for checking it against another implementation. OUT.i32 (with --children): per game position, int32 values: the
 * number n of its legal moves, its own index in the output, then the index of the
 * position after each legal move in canonical order (positions written once: an index
 * may point back to an earlier group's). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/v1_eval.h"
#include "builtin/v3_eval.h"
#include "chess/board.h"
#include "game_split.h"
#include "pgn/pgn.h"

/* Open-addressing map from 64-bit keys to the index a position was written at (key 0,
 * which no Zobrist key is in practice, is never stored: such a position is written again). */
typedef struct key_slot {
    uint64_t key;
    uint32_t index;
} key_slot;
typedef struct key_map {
    key_slot *slots;
    size_t mask, count;
} key_map;

static size_t key_home(uint64_t key, size_t mask)
{
    return (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & mask;
}

/* The slot of key, an empty one (key 0) where it is not stored. */
static key_slot *key_map_find(key_map *m, uint64_t key)
{
    if (2 * (m->count + 1) > m->mask + 1) {
        size_t cap = m->slots ? 2 * (m->mask + 1) : 1 << 16;
        key_slot *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            fprintf(stderr, "ucizip-positions: out of memory\n");
            exit(1);
        }
        for (size_t i = 0; m->slots && i <= m->mask; i++) {
            if (!m->slots[i].key)
                continue;
            size_t j = key_home(m->slots[i].key, cap - 1);
            while (slots[j].key)
                j = (j + 1) & (cap - 1);
            slots[j] = m->slots[i];
        }
        free(m->slots);
        m->slots = slots;
        m->mask = cap - 1;
    }
    size_t j = key_home(key, m->mask);
    while (m->slots[j].key && m->slots[j].key != key)
        j = (j + 1) & m->mask;
    return &m->slots[j];
}

typedef struct writer {
    FILE *fens, *boards, *evals, *network, *groups;
    key_map seen;
    uint64_t written;
} writer;

/* Whether the side to move can win material at once (flag 4 above): pawn 1, knight and
 * bishop 3, rook 5, queen 9. */
static bool has_winning_capture(const uz_position *pos)
{
    static const int value[7] = {0, 1, 3, 3, 5, 9, 100};
    uz_move moves[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, moves), them = pos->side ^ 1;
    uint64_t occupied = pos->by_color[0] | pos->by_color[1];
    for (int k = 0; k < n; k++) {
        int from = UZ_MOVE_FROM(moves[k]), to = UZ_MOVE_TO(moves[k]);
        int mover = UZ_PIECE_TYPE(pos->squares[from]), target = pos->squares[to];
        if (UZ_MOVE_PROMO(moves[k]))
            return true;
        if (!target || UZ_PIECE_COLOR(target) == pos->side)
            continue; /* a quiet move, castling (king onto its rook) or en passant (even) */
        bool defended = (uz_attackers_to(pos, to, occupied ^ (1ull << from)) & pos->by_color[them]) != 0;
        if (value[UZ_PIECE_TYPE(target)] > value[mover] || !defended)
            return true;
    }
    return false;
}

/* Writes pos unless it was written before; its index in the output either way. */
static int32_t write_position(writer *w, const uz_position *pos, bool child)
{
    key_slot *slot = pos->key ? key_map_find(&w->seen, pos->key) : NULL;
    if (slot && slot->key)
        return (int32_t)slot->index;
    if (slot) {
        slot->key = pos->key;
        slot->index = (uint32_t)w->written;
        w->seen.count++;
    }
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(pos, fen);
    fprintf(w->fens, "%s\n", fen);
    if (w->boards) {
        uint8_t rec[65];
        for (int sq = 0; sq < 64; sq++) {
            int p = pos->squares[sq ^ (pos->side ? 56 : 0)];
            rec[sq] = (uint8_t)(p ? UZ_PIECE_TYPE(p) + (UZ_PIECE_COLOR(p) != pos->side ? 6 : 0) : 0);
        }
        rec[64] = (uint8_t)((uz_in_check(pos) ? 1 : 0) | (child ? 2 : 0) | (has_winning_capture(pos) ? 4 : 0));
        fwrite(rec, 1, sizeof rec, w->boards);
    }
    if (w->evals) {
        b1_material m;
        uz__b1_material_init(pos, &m);
        int16_t e = (int16_t)uz__b1_evaluate(pos, &m);
        fwrite(&e, sizeof e, 1, w->evals);
    }
    if (w->network) {
        int16_t e = (int16_t)uz__b3_network_evaluate(pos);
        fwrite(&e, sizeof e, 1, w->network);
    }
    return (int32_t)w->written++;
}

typedef struct reading {
    writer *w;
    bool children;
    long every, kept; /* every K-th game position; game positions seen */
} reading;

/* Writes the game's positions (and their children) as main() asked. */
static bool write_game(const uz_game *game, void *ctx)
{
    reading *rd = ctx;
    uz_position pos = game->start;
    uz_move moves[UZ_MAX_MOVES];
    for (size_t i = 0; i < game->main.n_nodes; i++) {
        uz_move m = game->main.nodes[i].move;
        int n = m == UZ_MOVE_NULL ? 0 : uz_generate_legal(&pos, moves);
        if (n >= 2 && rd->kept++ % rd->every == 0) {
            int32_t group[2 + UZ_MAX_MOVES] = {n, write_position(rd->w, &pos, false)};
            for (int k = 0; rd->children && k < n; k++) {
                uz_position child = pos;
                uz_undo undo;
                uz_make_move(&child, moves[k], &undo);
                group[2 + k] = write_position(rd->w, &child, true);
            }
            if (rd->w->groups && rd->children)
                fwrite(group, sizeof *group, 2 + (size_t)n, rd->w->groups);
        }
        uz_undo undo;
        uz_make_move(&pos, m, &undo);
    }
    return true;
}

static int usage(void)
{
    fprintf(stderr, "usage: ucizip-positions [--split train|held-out|all] [--children] [--every K] "
                    "--fens OUT.txt [--boards OUT.bin] [--evals OUT.i16] [--network OUT.i16] [--groups OUT.i32] "
                    "GAMES.pgn...\n");
    return 2;
}

int main(int argc, char **argv)
{
    int split = UZ_TOOL_SPLIT_TRAIN, first_file = argc;
    bool children = false;
    long every = 1;
    const char *fens = NULL, *boards = NULL, *evals = NULL, *network = NULL, *groups = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--split") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "train"))
                split = UZ_TOOL_SPLIT_TRAIN;
            else if (!strcmp(s, "held-out"))
                split = UZ_TOOL_SPLIT_HELD_OUT;
            else if (!strcmp(s, "all"))
                split = UZ_TOOL_SPLIT_ALL;
            else
                return usage();
        } else if (!strcmp(argv[i], "--children"))
            children = true;
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = atol(argv[++i]);
        else if (!strcmp(argv[i], "--fens") && i + 1 < argc)
            fens = argv[++i];
        else if (!strcmp(argv[i], "--boards") && i + 1 < argc)
            boards = argv[++i];
        else if (!strcmp(argv[i], "--evals") && i + 1 < argc)
            evals = argv[++i];
        else if (!strcmp(argv[i], "--network") && i + 1 < argc)
            network = argv[++i];
        else if (!strcmp(argv[i], "--groups") && i + 1 < argc)
            groups = argv[++i];
        else if (argv[i][0] == '-')
            return usage();
        else {
            first_file = i;
            break;
        }
    }
    if (!fens || first_file == argc || every < 1)
        return usage();
    writer w = {.fens = fopen(fens, "w"), .boards = boards ? fopen(boards, "wb") : NULL,
                .evals = evals ? fopen(evals, "wb") : NULL, .network = network ? fopen(network, "wb") : NULL,
                .groups = groups ? fopen(groups, "wb") : NULL};
    if (!w.fens || (boards && !w.boards) || (evals && !w.evals) || (network && !w.network) ||
        (groups && !w.groups)) {
        fprintf(stderr, "ucizip-positions: cannot create the outputs\n");
        return 1;
    }
    reading rd = {.w = &w, .children = children, .every = every};
    for (int i = first_file; i < argc; i++)
        if (!uz_tool_read_games("ucizip-positions", argv[i], split, write_game, &rd))
            return 1;
    if (fclose(w.fens) != 0 || (w.boards && fclose(w.boards) != 0) || (w.evals && fclose(w.evals) != 0) ||
        (w.network && fclose(w.network) != 0) || (w.groups && fclose(w.groups) != 0)) {
        fprintf(stderr, "ucizip-positions: cannot write the outputs\n");
        return 1;
    }
    fprintf(stderr, "ucizip-positions: %ld game positions, %" PRIu64 " positions written\n", rd.kept, w.written);
    free(w.seen.slots);
    return 0;
}
