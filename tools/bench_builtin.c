/* ucizip-bench-builtin: speed of the built-in search on real positions. Reads PGN files,
 * replays each game's main line, keeps every position with two or more legal moves (the
 * positions the codec scores) of the held-out games (FNV-1a 64 of the canonical PGN text
 * = 0 mod 5, as scripts/opening_counts_bench.py selects them; --all: every game), and
 * scores them all with the builtin, timed on the process's CPU clock.
 *
 *   ucizip-bench-builtin [--depth D] [--version V] [--all] [--max N] [--repeat R]
 *                        [--fens FILE --every K] GAMES.pgn...
 *
 * Prints positions, legal moves, search nodes per position (deterministic: the figure to
 * compare across machines, with `valgrind --tool=callgrind` for instructions), a checksum
 * of the scores, CPU seconds, positions/s and microseconds per position. --fens writes
 * every K-th position as "FEN<TAB>uci:score ..." (for comparisons with other engines);
 * --repeat 0 skips the timed run (only --fens). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "builtin/builtin.h"
#include "pgn/pgn.h"
#include "game_split.h"

typedef struct bench_positions {
    uz_position *items;
    size_t n, cap;
} bench_positions;

static uint64_t fnv1a(uint64_t h, const char *text, size_t len)
{
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 0x100000001b3ull;
    return h;
}

static bool push(bench_positions *p, const uz_position *pos)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 4096;
        uz_position *items = realloc(p->items, cap * sizeof *items);
        if (!items)
            return false;
        p->items = items;
        p->cap = cap;
    }
    p->items[p->n++] = *pos;
    return true;
}

/* Adds the main-line positions of game. */
static bool add_game(const uz_game *game, void *out)
{
    uz_position pos = game->start;
    uz_move moves[UZ_MAX_MOVES];
    for (size_t i = 0; i < game->main.n_nodes; i++) {
        uz_move m = game->main.nodes[i].move;
        if (m != UZ_MOVE_NULL && uz_generate_legal(&pos, moves) >= 2 && !push(out, &pos))
            return false;
        uz_undo undo;
        uz_make_move(&pos, m, &undo);
    }
    return true;
}

static void write_fens(FILE *out, uz_builtin *b, const bench_positions *p, size_t every)
{
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    char fen[UZ_FEN_MAX], uci[UZ_UCI_MAX];
    for (size_t i = 0; i < p->n; i += every) {
        int n = uz_generate_legal(&p->items[i], moves);
        uz_builtin_score_moves(b, &p->items[i], moves, n, scores);
        uz_position_to_fen(&p->items[i], fen);
        fprintf(out, "%s\t", fen);
        for (int k = 0; k < n; k++) {
            uz_move_to_uci(moves[k], uci);
            fprintf(out, "%s%s:%" PRId32, k ? " " : "", uci, scores[k]);
        }
        fputc('\n', out);
    }
}

static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv)
{
    int depth = 0, version = UZ_BUILTIN_LATEST, repeat = 1;
    bool all = false;
    size_t max = 0, every = 50;
    const char *fens = NULL;
    bench_positions p = {0};
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--depth") && i + 1 < argc)
            depth = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--version") && i + 1 < argc)
            version = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--repeat") && i + 1 < argc)
            repeat = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--max") && i + 1 < argc)
            max = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--fens") && i + 1 < argc)
            fens = argv[++i];
        else if (!strcmp(argv[i], "--every") && i + 1 < argc)
            every = (size_t)atol(argv[++i]);
        else if (!strcmp(argv[i], "--all"))
            all = true;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: ucizip-bench-builtin [--depth D] [--version V] [--all] [--max N] [--repeat R] "
                            "[--fens FILE --every K] GAMES.pgn...\n");
            return 2;
        } else {
            first_file = i;
            break;
        }
    }
    if (!depth)
        depth = uz_builtin_default_depth(version);
    for (int i = first_file; i < argc; i++)
        if (!uz_tool_read_games("ucizip-bench-builtin", argv[i], all ? UZ_TOOL_SPLIT_ALL : UZ_TOOL_SPLIT_HELD_OUT,
                                add_game, &p))
            return 1;
    if (max && p.n > max)
        p.n = max;
    uz_builtin *b;
    uz_diag diag = {0};
    if (uz_builtin_create(&b, version, depth, &diag) != UZ_OK) {
        fprintf(stderr, "ucizip-bench-builtin: %s\n", diag.message);
        return 1;
    }
    uz_move moves[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    uint64_t legal = 0, nodes = 0, checksum = 0xcbf29ce484222325ull;
    /* The move generation is timed alone and taken off: the codec has the moves already. */
    double t0 = cpu_seconds();
    for (int r = 0; r < repeat; r++)
        for (size_t i = 0; i < p.n; i++)
            legal += (uint64_t)uz_generate_legal(&p.items[i], moves);
    double t1 = cpu_seconds();
    for (int r = 0; r < repeat; r++) {
        for (size_t i = 0; i < p.n; i++) {
            int n = uz_generate_legal(&p.items[i], moves);
            uz_builtin_score_moves(b, &p.items[i], moves, n, scores);
            if (r == 0) {
                nodes += uz_builtin_last_nodes(b);
                checksum = fnv1a(checksum, (const char *)scores, (size_t)n * sizeof *scores);
            }
        }
    }
    double spent = cpu_seconds() - t1 - (t1 - t0);
    legal /= (uint64_t)(repeat > 0 ? repeat : 1);
    double count = (double)p.n * repeat;
    printf("builtin-%d depth %d: %zu positions, %.1f legal moves and %.1f nodes per position, "
           "scores checksum %016" PRIx64 "\n",
           version, depth, p.n, p.n ? (double)legal / (double)p.n : 0.0, p.n ? (double)nodes / (double)p.n : 0.0,
           checksum);
    printf("cpu %.3f s: %.0f positions/s, %.2f us per position\n", spent, spent > 0 ? count / spent : 0.0,
           count ? 1e6 * spent / count : 0.0);
    if (fens) {
        FILE *out = fopen(fens, "w");
        if (!out) {
            fprintf(stderr, "ucizip-bench-builtin: %s: cannot create\n", fens);
            return 1;
        }
        write_fens(out, b, &p, every ? every : 1);
        fclose(out);
    }
    uz_builtin_destroy(b);
    free(p.items);
    return 0;
}
