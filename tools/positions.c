/* ucizip-positions: the positions a learned evaluation is trained on. Reads PGN files,
 * replays the main line of each game of the chosen part of the corpus (game_split.h),
 * and writes every position with two or more legal moves (the positions the codec
 * scores) and, with --children, the position after each of their legal moves (the
 * positions a depth-1 search evaluates). Each position is written once (Zobrist keys).
 *
 *   ucizip-positions [--split train|held-out|all] [--children] [--every K]
 *                    --fens OUT.txt [--boards OUT.bin] [--evals OUT.i16] GAMES.pgn...
 *
 * OUT.txt: one FEN a line. OUT.bin: 65 bytes a position, in the same order: the 64
 * squares seen from the side to move (a1 first; a black mover's board mirrored top to
 * bottom; 0 empty, 1..6 the mover's pawn..king, 7..12 the opponent's), then a flags byte
 * (1: the side to move is in check, 2: a child, not a game position). --every K keeps
 * every K-th game position (and its children). OUT.i16: builtin-1's static evaluation of
 * each position (int16, side to move's view), the hand-written evaluation a learned one
 * is measured against. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/builtin1.h"
#include "chess/board.h"
#include "game_split.h"
#include "pgn/pgn.h"

enum { SPLIT_TRAIN, SPLIT_HELD_OUT, SPLIT_ALL };

/* Open-addressing set of 64-bit keys (0 is kept apart: no Zobrist key is 0 in practice,
 * and a position with key 0 is simply written again). */
typedef struct key_set {
    uint64_t *slots;
    size_t mask, count;
} key_set;

static bool key_set_add(key_set *s, uint64_t key)
{
    if (key == 0)
        return true;
    if (2 * (s->count + 1) > s->mask + 1) {
        size_t cap = s->slots ? 2 * (s->mask + 1) : 1 << 16;
        uint64_t *slots = calloc(cap, sizeof *slots);
        if (!slots) {
            fprintf(stderr, "ucizip-positions: out of memory\n");
            exit(1);
        }
        for (size_t i = 0; s->slots && i <= s->mask; i++) {
            uint64_t k = s->slots[i];
            size_t j = (size_t)(k * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
            while (k && slots[j])
                j = (j + 1) & (cap - 1);
            if (k)
                slots[j] = k;
        }
        free(s->slots);
        s->slots = slots;
        s->mask = cap - 1;
    }
    size_t j = (size_t)(key * 0x9e3779b97f4a7c15ull >> 20) & s->mask;
    for (; s->slots[j]; j = (j + 1) & s->mask)
        if (s->slots[j] == key)
            return false;
    s->slots[j] = key;
    s->count++;
    return true;
}

typedef struct writer {
    FILE *fens, *boards, *evals;
    key_set seen;
    uint64_t written;
} writer;

static void write_position(writer *w, const uz_position *pos, bool child)
{
    if (!key_set_add(&w->seen, pos->key))
        return;
    char fen[UZ_FEN_MAX];
    uz_position_to_fen(pos, fen);
    fprintf(w->fens, "%s\n", fen);
    if (w->boards) {
        uint8_t rec[65];
        for (int sq = 0; sq < 64; sq++) {
            int p = pos->squares[sq ^ (pos->side ? 56 : 0)];
            rec[sq] = (uint8_t)(p ? UZ_PIECE_TYPE(p) + (UZ_PIECE_COLOR(p) != pos->side ? 6 : 0) : 0);
        }
        rec[64] = (uint8_t)((uz_in_check(pos) ? 1 : 0) | (child ? 2 : 0));
        fwrite(rec, 1, sizeof rec, w->boards);
    }
    if (w->evals) {
        b1_material m;
        uz__b1_material_init(pos, &m);
        int16_t e = (int16_t)uz__b1_evaluate(pos, &m);
        fwrite(&e, sizeof e, 1, w->evals);
    }
    w->written++;
}

static bool read_file(const char *path, int split, bool children, long every, long *kept, writer *w)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ucizip-positions: %s: cannot open\n", path);
        return false;
    }
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_game game;
    uz_game_init(&game);
    uz_diag diag = {0};
    bool ok = rd != NULL;
    for (uz_result r; ok && (r = uz_pgn_read_game(rd, &game, &diag)) != UZ_DONE;) {
        if (r != UZ_OK || game.verbatim || game.text_only)
            continue;
        if (split != SPLIT_ALL && uz_tool_held_out(uz_tool_game_hash(&game)) != (split == SPLIT_HELD_OUT))
            continue;
        uz_position pos = game.start;
        uz_move moves[UZ_MAX_MOVES];
        for (size_t i = 0; i < game.main.n_nodes; i++) {
            uz_move m = game.main.nodes[i].move;
            int n = m == UZ_MOVE_NULL ? 0 : uz_generate_legal(&pos, moves);
            if (n >= 2 && (*kept)++ % every == 0) {
                write_position(w, &pos, false);
                for (int k = 0; children && k < n; k++) {
                    uz_position child = pos;
                    uz_undo undo;
                    uz_make_move(&child, moves[k], &undo);
                    write_position(w, &child, true);
                }
            }
            uz_undo undo;
            uz_make_move(&pos, m, &undo);
        }
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(f);
    return ok;
}

static int usage(void)
{
    fprintf(stderr, "usage: ucizip-positions [--split train|held-out|all] [--children] [--every K] "
                    "--fens OUT.txt [--boards OUT.bin] [--evals OUT.i16] GAMES.pgn...\n");
    return 2;
}

int main(int argc, char **argv)
{
    int split = SPLIT_TRAIN, first_file = argc;
    bool children = false;
    long every = 1;
    const char *fens = NULL, *boards = NULL, *evals = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--split") && i + 1 < argc) {
            const char *s = argv[++i];
            if (!strcmp(s, "train"))
                split = SPLIT_TRAIN;
            else if (!strcmp(s, "held-out"))
                split = SPLIT_HELD_OUT;
            else if (!strcmp(s, "all"))
                split = SPLIT_ALL;
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
                .evals = evals ? fopen(evals, "wb") : NULL};
    if (!w.fens || (boards && !w.boards) || (evals && !w.evals)) {
        fprintf(stderr, "ucizip-positions: cannot create the outputs\n");
        return 1;
    }
    long kept = 0;
    for (int i = first_file; i < argc; i++)
        if (!read_file(argv[i], split, children, every, &kept, &w))
            return 1;
    if (fclose(w.fens) != 0 || (w.boards && fclose(w.boards) != 0) || (w.evals && fclose(w.evals) != 0)) {
        fprintf(stderr, "ucizip-positions: cannot write the outputs\n");
        return 1;
    }
    fprintf(stderr, "ucizip-positions: %ld game positions, %" PRIu64 " positions written\n", kept, w.written);
    free(w.seen.slots);
    return 0;
}
