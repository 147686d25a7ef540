/* Position sources for the builtin search's tests: EPD files of tests/data (FEN, then
 * ";D<depth> <count>" perft counts), main-line positions of PGN files, and positions
 * built square by square (material no FEN reader accepts, for the move-count bound). */
#ifndef UCIZIP_BUILTIN_TEST_H
#define UCIZIP_BUILTIN_TEST_H

#include <stdlib.h>
#include <string.h>

#include "builtin/builtin.h"
#include "pgn/pgn.h"

#include "../common/uz_test.h"

typedef struct test_positions {
    uz_position *items;
    size_t n, cap;
} test_positions;

static inline void positions_add(test_positions *p, const uz_position *pos)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? 2 * p->cap : 256;
        p->items = realloc(p->items, p->cap * sizeof *p->items);
        if (!p->items) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    p->items[p->n++] = *pos;
}

/* The data file NAME of tests/data ($UZ_TEST_DATA) into buf. */
static inline const char *data_path(const char *name, char *buf, size_t cap)
{
    const char *dir = getenv("UZ_TEST_DATA");
    snprintf(buf, cap, "%s/%s", dir ? dir : "tests/data", name);
    return buf;
}

/* The path of a file of the shared corpus ($UZ_CORPUS_DIR) into buf; false (a note
 * printed) when it is missing, a failed check instead when UZ_REQUIRE_CORPUS is set. */
static inline bool corpus_file(const char *name, char *buf, size_t cap)
{
    const char *dir = getenv("UZ_CORPUS_DIR");
    snprintf(buf, cap, "%s/%s", dir ? dir : ".", name);
    FILE *f = fopen(buf, "rb");
    if (f) {
        fclose(f);
        return true;
    }
    CHECK(!getenv("UZ_REQUIRE_CORPUS"), "missing test data %s", buf);
    printf("skipped: test data %s not found\n", buf);
    return false;
}

/* Adds the position of every line of an EPD file (text up to ';' is the FEN), read as
 * Chess960 when chess960; also every position one legal move from it when children. */
static inline void positions_from_epd(test_positions *p, const char *path, bool chess960, bool children)
{
    FILE *f = fopen(path, "r");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    char line[512];
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n')
            continue;
        char *semi = strchr(line, ';');
        if (semi)
            *semi = 0;
        uz_position pos;
        uz_diag diag = {0};
        if (uz_position_from_fen_960(&pos, line, chess960, &diag) != UZ_OK) {
            CHECK(false, "%s: %s: %s", path, line, diag.message);
            continue;
        }
        positions_add(p, &pos);
        uz_move moves[UZ_MAX_MOVES];
        int n = children ? uz_generate_legal(&pos, moves) : 0;
        for (int i = 0; i < n; i++) {
            uz_position child = pos;
            uz_undo undo;
            uz_make_move(&child, moves[i], &undo);
            if (uz_position_status(&child) == UZ_STATUS_PLAYING)
                positions_add(p, &child);
        }
    }
    fclose(f);
}

/* Adds the main-line positions with two or more legal moves of the first max_games
 * games of a PGN file (0: all). */
static inline void positions_from_pgn(test_positions *p, const char *path, size_t max_games)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_game game;
    uz_game_init(&game);
    uz_diag diag = {0};
    size_t games = 0;
    for (uz_result r; (!max_games || games < max_games) && (r = uz_pgn_read_game(rd, &game, &diag)) != UZ_DONE;) {
        if (r != UZ_OK || game.verbatim || game.text_only)
            continue;
        games++;
        uz_position pos = game.start;
        uz_move moves[UZ_MAX_MOVES];
        for (size_t i = 0; i < game.main.n_nodes; i++) {
            if (game.main.nodes[i].move != UZ_MOVE_NULL && uz_generate_legal(&pos, moves) >= 2)
                positions_add(p, &pos);
            uz_undo undo;
            uz_make_move(&pos, game.main.nodes[i].move, &undo);
        }
    }
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(f);
}

/* A position from a FEN board field and side to move, with no castling, no ep square
 * and no check on the material (for positions beyond what the FEN reader accepts). */
static inline uz_position position_from_board(const char *board, int side)
{
    uz_position pos;
    memset(&pos, 0, sizeof pos);
    int sq = 56;
    for (const char *c = board; *c; c++) {
        if (*c == '/') {
            sq -= 16;
        } else if (*c >= '1' && *c <= '8') {
            sq += *c - '0';
        } else {
            const char *types = "pnbrqk";
            int color = *c >= 'a' ? UZ_BLACK : UZ_WHITE;
            int type = (int)(strchr(types, color == UZ_BLACK ? *c : *c + ('a' - 'A')) - types) + 1;
            pos.squares[sq] = UZ_PIECE(color, type);
            pos.by_color[color] |= 1ULL << sq;
            pos.by_type[type] |= 1ULL << sq;
            if (type == UZ_KING)
                pos.king_sq[color] = (uint8_t)sq;
            sq++;
        }
    }
    pos.side = (uint8_t)side;
    pos.ep_square = UZ_SQ_NONE;
    pos.fullmove = 1;
    pos.key = uz_position_compute_key(&pos);
    return pos;
}

/* FNV-1a 64 of the scores as decimal text (the same on every byte order). */
static inline uint64_t hash_scores(uint64_t h, const int32_t *scores, int n)
{
    char text[16];
    for (int i = 0; i < n; i++) {
        int len = snprintf(text, sizeof text, "%ld,", (long)scores[i]);
        for (int k = 0; k < len; k++)
            h = (h ^ (unsigned char)text[k]) * 0x100000001b3ULL;
    }
    return h;
}

#endif
