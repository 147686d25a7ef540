/* ucizip-book-build: the opening book's counts (doc/model.md, "The opening book") from
 * PGN files (plain or compressed: the io module reads .pgn.zst as it is), read with the
 * library's own PGN reader. Every main-line move of a standard-chess game from the
 * standard starting position, at ply < --plies, counts once for (the position's Zobrist
 * key, the move); games the reader refuses (an illegal move, broken syntax) are skipped,
 * as `ucizip stats -k` skips them. Pruning: a position is kept when --min-position games
 * or more played from it, a move of it when --min-move games or more played it, at most
 * --max-moves moves a position (the most played; ties by the lower move code).
 *
 *   ucizip-book-build [--plies N] [--min-position M] [--min-move K] [--max-moves X]
 *                     FILE... > BOOK.txt
 *
 * Writes the book's lines (data/opening_book/ has the format), sorted by key, to standard
 * output, and what it read to standard error. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/board.h"
#include "io/input.h"
#include "pgn/pgn.h"

typedef struct entry {
    uint64_t key;
    uz_move move;
} entry;

typedef struct entries {
    entry *v;
    size_t n, cap;
} entries;

static int add(entries *e, uint64_t key, uz_move move)
{
    if (e->n == e->cap) {
        size_t cap = e->cap ? 2 * e->cap : 1u << 20;
        entry *v = realloc(e->v, cap * sizeof *v);
        if (!v)
            return -1;
        e->v = v;
        e->cap = cap;
    }
    e->v[e->n++] = (entry){key, move};
    return 0;
}

static int by_key_move(const void *a, const void *b)
{
    const entry *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->move > y->move) - (x->move < y->move);
}

typedef struct move_count {
    uz_move move;
    uint32_t count;
} move_count;

static int by_count_desc(const void *a, const void *b)
{
    const move_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->move > y->move) - (x->move < y->move);
}

static long read_file(const char *path, unsigned plies, entries *e, long *skipped)
{
    uz_diag diag = {0};
    uz_input *in;
    if (uz_input_open(&in, path, &diag) != UZ_OK) {
        fprintf(stderr, "ucizip-book-build: %s: %s\n", path, diag.message);
        return -1;
    }
    uz_pgn_reader *rd = uz_pgn_reader_open(uz_input_file(in), path);
    if (!rd) {
        uz_input_close(in);
        return -1;
    }
    uz_position start;
    uz_position_startpos(&start);
    uz_game game;
    uz_game_init(&game);
    long games = 0;
    for (uz_result r; (r = uz_pgn_read_game(rd, &game, &diag)) != UZ_DONE;) {
        if (r != UZ_OK || game.verbatim || game.text_only) {
            ++*skipped;
            continue;
        }
        if (game.start.chess960 || game.start.key != start.key)
            continue; /* the book is standard chess from the starting position */
        uz_position pos = game.start;
        for (size_t i = 0; i < game.main.n_nodes && i < plies; i++) {
            uz_move m = game.main.nodes[i].move;
            if (m == UZ_MOVE_NULL)
                break;
            if (add(e, pos.key, m) != 0) {
                fprintf(stderr, "ucizip-book-build: out of memory\n");
                games = -1;
                break;
            }
            uz_undo undo;
            uz_make_move(&pos, m, &undo);
        }
        if (games < 0)
            break;
        games++;
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    if (uz_input_error(in, &diag) != UZ_OK) {
        fprintf(stderr, "ucizip-book-build: %s: %s\n", path, diag.message);
        games = -1;
    }
    uz_input_close(in);
    return games;
}

static unsigned long arg_number(const char *opt, const char *text)
{
    char *end;
    unsigned long v = strtoul(text, &end, 10);
    if (*text < '0' || *text > '9' || *end || v == 0 || v > 1000000) {
        fprintf(stderr, "ucizip-book-build: %s: expected a number from 1 to 1000000, got '%s'\n", opt, text);
        exit(2);
    }
    return v;
}

int main(int argc, char **argv)
{
    unsigned long plies = 40, min_position = 8, min_move = 2, max_moves = 8;
    entries e = {0};
    long games = 0, skipped = 0;
    int files = 0;
    for (int i = 1; i < argc; i++) {
        if (i + 1 < argc && !strcmp(argv[i], "--plies"))
            plies = arg_number(argv[i], argv[i + 1]), i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--min-position"))
            min_position = arg_number(argv[i], argv[i + 1]), i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--min-move"))
            min_move = arg_number(argv[i], argv[i + 1]), i++;
        else if (i + 1 < argc && !strcmp(argv[i], "--max-moves"))
            max_moves = arg_number(argv[i], argv[i + 1]), i++;
        else if (argv[i][0] == '-') {
            fprintf(stderr, "usage: ucizip-book-build [--plies N] [--min-position M] [--min-move K] "
                            "[--max-moves X] FILE... > BOOK.txt\n");
            return 2;
        } else {
            long g = read_file(argv[i], (unsigned)plies, &e, &skipped);
            if (g < 0)
                return 1;
            games += g;
            files++;
        }
    }
    if (!files) {
        fprintf(stderr, "ucizip-book-build: no input files\n");
        return 2;
    }
    qsort(e.v, e.n, sizeof *e.v, by_key_move);
    move_count *mc = malloc(UZ_MAX_MOVES * sizeof *mc);
    long positions = 0, moves_kept = 0, occurrences_kept = 0;
    for (size_t i = 0, j; i < e.n; i = j) {
        int n = 0;
        uint64_t total = 0;
        for (j = i; j < e.n && e.v[j].key == e.v[i].key; j++) {
            if (n == 0 || mc[n - 1].move != e.v[j].move) {
                if (n == UZ_MAX_MOVES)
                    break; /* a key collision of two positions: more moves than one can have */
                mc[n++] = (move_count){e.v[j].move, 0};
            }
            mc[n - 1].count++;
            total++;
        }
        while (j < e.n && e.v[j].key == e.v[i].key)
            j++;
        if (total < min_position)
            continue;
        qsort(mc, (size_t)n, sizeof *mc, by_count_desc);
        int kept = 0;
        while (kept < n && kept < (int)max_moves && mc[kept].count >= min_move)
            kept++;
        if (!kept)
            continue;
        printf("%016" PRIx64, e.v[i].key);
        for (int k = 0; k < kept; k++) {
            char uci[UZ_UCI_MAX];
            uz_move_to_uci(mc[k].move, uci);
            printf(" %s:%" PRIu32, uci, mc[k].count);
            occurrences_kept += mc[k].count;
        }
        putchar('\n');
        positions++;
        moves_kept += kept;
    }
    free(mc);
    free(e.v);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ucizip-book-build: cannot write the book\n");
        return 1;
    }
    fprintf(stderr, "ucizip-book-build: %ld games (%ld skipped), %zu moves counted; kept %ld positions, %ld moves, "
                    "%ld of the moves counted\n", games, skipped, e.n, positions, moves_kept, occurrences_kept);
    return 0;
}
