/* ucizip-book-fit: what an opening book's weight table needs, measured with the codec's
 * own integer frequencies (scripts/opening_book_fit.py reads it).
 *
 *   ucizip-book-fit --truncate N --split train|held-out|all GAMES.pgn > OUT.pgn
 *       the games of the corpus split (tools/game_split.h: by the whole game's hash),
 *       main lines cut after N plies, tags kept: the part of each game a book can reach,
 *       for `ucizip stats --dump` to score
 *   ucizip-book-fit GAMES.pgn --scores DUMP --weights V [--book FILE] [--split S]
 *       for every scored main-line position of GAMES (the scores from DUMP, as
 *       ucizip-features reads them; with --split, of the games of that split only: a dump
 *       of whole corpus files serves): the model's cost of the played move under weight set
 *       V (no book, no opening counts) and, where the book (FILE, a book text as
 *       data/opening_book/ holds; default: the newest compiled in) holds the position, its
 *       weight table cell and the cost with the book mixed in at each a16 of GRID. One line
 *       a position: "game ply n cell C base_bits bits..." (cell -1 and no bits when the
 *       book does not hold it). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/coder.h"
#include "gamecode/gamecode.h"
#include "model/move_model.h"
#include "model/opening_book.h"
#include "pgn/pgn.h"
#include "game_split.h"

static const uint32_t GRID[] = {1,   2,   4,   8,   12,  16,   24,   32,   48,   64,    96,
                                128, 192, 256, 384, 512, 1024, 2048, 4096, 16384, 65536};
#define N_GRID (sizeof GRID / sizeof GRID[0])

typedef struct truncate_ctx {
    size_t plies;
} truncate_ctx;

static bool write_truncated(const uz_game *game, void *user)
{
    const truncate_ctx *t = user;
    uz_game *g = (uz_game *)game; /* the main line is shortened for the writer and restored */
    size_t n = g->main.n_nodes;
    if (n > t->plies)
        g->main.n_nodes = t->plies;
    uz_result r = uz_pgn_write_game(stdout, g);
    g->main.n_nodes = n;
    return r == UZ_OK;
}

/* A book from its text (the format scripts/opening_book_c.py reads; the weight table is
 * not needed here). Exits on a malformed file. */
static uz_book *read_book(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ucizip-book-fit: %s: cannot open\n", path);
        exit(1);
    }
    size_t cap_pos = 1 << 16, cap_mv = 1 << 18, n_pos = 0, n_mv = 0;
    uint64_t *keys = malloc(cap_pos * sizeof *keys);
    uint32_t *first = malloc((cap_pos + 1) * sizeof *first);
    uint16_t *moves = malloc(cap_mv * sizeof *moves);
    uint32_t *counts = malloc(cap_mv * sizeof *counts);
    static char line[1 << 16];
    uz_position start;
    uz_position_startpos(&start);
    while (keys && first && moves && counts && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n' || !strncmp(line, "alpha16", 7))
            continue;
        if (n_pos + 1 >= cap_pos) {
            cap_pos *= 2;
            keys = realloc(keys, cap_pos * sizeof *keys);
            first = realloc(first, (cap_pos + 1) * sizeof *first);
            if (!keys || !first)
                break;
        }
        char *save, *tok = strtok_r(line, " \n", &save);
        keys[n_pos] = strtoull(tok, NULL, 16);
        first[n_pos] = (uint32_t)n_mv;
        while ((tok = strtok_r(NULL, " \n", &save))) {
            char *colon = strchr(tok, ':');
            if (!colon) {
                fprintf(stderr, "ucizip-book-fit: %s: bad move %s\n", path, tok);
                exit(1);
            }
            *colon = 0;
            if (n_mv == cap_mv) {
                cap_mv *= 2;
                moves = realloc(moves, cap_mv * sizeof *moves);
                counts = realloc(counts, cap_mv * sizeof *counts);
                if (!moves || !counts)
                    break;
            }
            /* UCI squares to a uz_move (castling is the king's move in standard chess) */
            int promo = colon - tok == 5 ? (int)(strchr(" pnbrq", tok[4]) - " pnbrq") : 0;
            int from = (tok[1] - '1') * 8 + (tok[0] - 'a'), to = (tok[3] - '1') * 8 + (tok[2] - 'a');
            moves[n_mv] = UZ_MOVE(from, to, promo);
            counts[n_mv++] = (uint32_t)strtoul(colon + 1, NULL, 10);
        }
        n_pos++;
    }
    fclose(f);
    if (!keys || !first || !moves || !counts) {
        fprintf(stderr, "ucizip-book-fit: out of memory\n");
        exit(1);
    }
    first[n_pos] = (uint32_t)n_mv;
    uz_book *b = calloc(1, sizeof *b);
    *b = (uz_book){.version = 0, .n_positions = (uint32_t)n_pos, .keys = keys, .first = first, .moves = moves,
                   .counts = counts};
    return b;
}

int main(int argc, char **argv)
{
    const char *pgn = NULL, *scores_path = NULL, *book_path = NULL, *split_name = NULL;
    long truncate = 0, weights = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scores") && i + 1 < argc)
            scores_path = argv[++i];
        else if (!strcmp(argv[i], "--book") && i + 1 < argc)
            book_path = argv[++i];
        else if (!strcmp(argv[i], "--weights") && i + 1 < argc)
            weights = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--truncate") && i + 1 < argc)
            truncate = strtol(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--split") && i + 1 < argc)
            split_name = argv[++i];
        else if (!pgn && argv[i][0] != '-')
            pgn = argv[i];
        else
            pgn = NULL, i = argc;
    }
    int split = !split_name                       ? UZ_TOOL_SPLIT_ALL
                : !strcmp(split_name, "train")    ? UZ_TOOL_SPLIT_TRAIN
                : !strcmp(split_name, "held-out") ? UZ_TOOL_SPLIT_HELD_OUT
                                                  : -1;
    if (pgn && truncate > 0 && split >= 0) {
        truncate_ctx t = {(size_t)truncate};
        return uz_tool_read_games("ucizip-book-fit", pgn, split, write_truncated, &t) ? 0 : 1;
    }
    const uz_player_model *pm = weights > 0 ? uz_pm_builtin_version((uint32_t)weights) : NULL;
    if (!pgn || !scores_path || !pm || split < 0) {
        fprintf(stderr, "usage: ucizip-book-fit --truncate N --split train|held-out|all GAMES.pgn > OUT.pgn\n"
                        "       ucizip-book-fit GAMES.pgn --scores DUMP --weights V [--book FILE] [--split S]\n");
        return 2;
    }
    const uz_book *book = book_path ? read_book(book_path) : uz_book_builtin(UZ_BOOK_LATEST);
    uz_model_params params = {.kind = UZ_MODEL_PLAYER, .player_version = pm->version,
                              .player_hash_lo = (uint32_t)pm->hash, .player_hash_hi = (uint32_t)(pm->hash >> 32)};
    uz_model model;
    uz_diag diag = {0};
    if (uz_model_open(&model, &params, &diag) != UZ_OK) {
        fprintf(stderr, "ucizip-book-fit: %s\n", diag.message);
        return 1;
    }
    FILE *in = fopen(pgn, "rb"), *dump = fopen(scores_path, "r");
    if (!in || !dump) {
        fprintf(stderr, "ucizip-book-fit: cannot open %s or %s\n", pgn, scores_path);
        return 1;
    }
    uz_pgn_reader *rd = uz_pgn_reader_open(in, pgn);
    uz_game game;
    uz_game_init(&game);
    int32_t scores[UZ_MAX_MOVES];
    uint32_t freq[UZ_MAX_MOVES], mixed[UZ_MAX_MOVES], c[UZ_MAX_MOVES];
    int status = 0;
    long gi = 0;
    for (uz_result r; status == 0 && (r = uz_pgn_read_game(rd, &game, &diag)) != UZ_DONE;) {
        if (r != UZ_OK || game.verbatim)
            continue; /* as `ucizip stats -k` does */
        uz_walk w;
        if (uz_walk_init(&w, &game) != UZ_OK || uz_score_walks(NULL, &w, 1, &diag) != UZ_OK) {
            fprintf(stderr, "ucizip-book-fit: game %ld: cannot walk\n", gi + 1);
            return 1;
        }
        bool wanted = split == UZ_TOOL_SPLIT_ALL ||
                      uz_tool_held_out(uz_tool_game_hash(&game)) == (split == UZ_TOOL_SPLIT_HELD_OUT);
        for (size_t i = 0; i < w.n_steps; i++) {
            const uz_step *st = &w.steps[i];
            if (!st->main_line || st->node->move == UZ_MOVE_NULL || st->n_legal < 2)
                continue;
            int played, n;
            if (fscanf(dump, "%d %d", &played, &n) != 2 || n != st->n_legal || played != st->played) {
                fprintf(stderr, "ucizip-book-fit: %s: game %ld does not match the score dump\n", pgn, gi + 1);
                status = 1;
                break;
            }
            for (int k = 0; k < n; k++)
                if (fscanf(dump, "%" SCNd32, &scores[k]) != 1)
                    status = 1;
            if (!wanted)
                continue;
            const uz_position *pos = &w.before[i];
            const uz_move *legal = uz_walk_legal(&w, i);
            uint32_t total = uz_step_frequencies(&model, &w, i, legal, scores, n, freq);
            int ply = 2 * ((int)pos->fullmove - 1) + pos->side;
            printf("%ld %d %d", gi, ply, n);
            uint32_t books = uz_book_counts(book, pos, legal, n, c);
            if (!books) {
                printf(" -1 0 %.5f\n", uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, played));
                continue;
            }
            uz_pm_game pg;
            uz_walk_pm_game(&w, &pg);
            printf(" %d %u %.5f", uz_book_cell(books, pos, &pg), books,
                   uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, played));
            for (size_t k = 0; k < N_GRID; k++) {
                memcpy(mixed, freq, (size_t)n * sizeof *freq);
                uz_model_mix_counts(c, GRID[k], mixed, n, total);
                printf(" %.5f", uz_coder_cost_bits(UZ_CODER_RANGE, mixed, n, total, played));
            }
            putchar('\n');
        }
        uz_walk_free(&w);
        gi++;
    }
    if (status == 0 && fscanf(dump, "%d", &(int){0}) == 1) {
        fprintf(stderr, "ucizip-book-fit: %s: the score dump has more positions than the games\n", pgn);
        status = 1;
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(in);
    fclose(dump);
    return status;
}
