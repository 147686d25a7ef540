/* The walk of a game (pgn/game_walk.h) against replaying the game on a board, over corpus
 * files with variations, Chess960 castling, FEN starts, null moves and engine comments:
 * every step's position is the one its line reaches by making the moves, its SAN is the
 * one the board formats there, its legal moves are the generator's, and the main line's
 * steps and final position are those of the main line played out; a walk built as the
 * move decoder builds it (each move known only after its position) gives the same. The
 * coders of a block take their positions from the walk instead of replaying, so it must
 * give exactly these. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chess/san.h"
#include "pgn/game_walk.h"
#include "../common/uz_test.h"

typedef struct counts {
    size_t games, steps, mismatches;
} counts;

static bool same_position(const uz_position *a, const uz_position *b)
{
    char fa[UZ_FEN_MAX], fb[UZ_FEN_MAX];
    uz_position_to_fen(a, fa);
    uz_position_to_fen(b, fb);
    return strcmp(fa, fb) == 0 && a->key == b->key && a->halfmove == b->halfmove;
}

/* Replays line from start, comparing each move with the walk's step (*s, advanced in the
 * walk's order: a move, then its variations, then the next move). */
static void check_line(const uz_walk *w, const uz_line *line, const uz_position *start, size_t *s, counts *c)
{
    uz_position pos = *start;
    for (size_t i = 0; i < line->n_nodes; i++) {
        const uz_node *nd = &line->nodes[i];
        size_t at = (*s)++;
        bool ok = at < w->n_steps && w->steps[at].node == nd && same_position(&w->before[at], &pos);
        char san[UZ_SAN_MAX];
        uz_san_format(&pos, nd->move, san);
        ok = ok && strcmp(san, w->san[at]) == 0;
        if (ok && nd->move != UZ_MOVE_NULL) {
            uz_move legal[UZ_MAX_MOVES];
            int n = uz_generate_legal(&pos, legal);
            ok = n == w->steps[at].n_legal && memcmp(legal, uz_walk_legal(w, at), (size_t)n * sizeof *legal) == 0 &&
                 w->steps[at].played >= 0 && legal[w->steps[at].played] == nd->move;
        }
        c->mismatches += !ok;
        c->steps++;
        for (size_t v = 0; v < nd->n_variations; v++)
            check_line(w, &nd->variations[v], &pos, s, c);
        uz_undo undo;
        uz_make_move(&pos, nd->move, &undo);
    }
}

/* The walk as a decoder builds it (w2, of g with its moves cleared: each step resolved
 * before its move is known, then the move given by its index among the legal moves, as
 * uz_decode_games does) against w, the walk of the whole game: the same positions, played
 * indexes and final position. g's moves are put back. */
static bool same_as_decoded(const uz_walk *w, uz_game *g)
{
    uz_move *moves = malloc((w->n_steps ? w->n_steps : 1) * sizeof *moves);
    if (!moves)
        return false;
    for (size_t s = 0; s < w->n_steps; s++) {
        moves[s] = w->steps[s].node->move;
        if (moves[s] != UZ_MOVE_NULL)
            w->steps[s].node->move = UZ_MOVE_NONE;
    }
    uz_walk w2;
    bool ok = uz_walk_init(&w2, g) == UZ_OK && w2.n_steps == w->n_steps && w2.has_final == !w->n_main;
    for (size_t s = 0; ok && s < w->n_steps; s++) {
        ok = uz_walk_resolve_next(&w2) == UZ_OK && same_position(&w2.before[s], &w->before[s]);
        if (ok && moves[s] != UZ_MOVE_NULL) {
            ok = w2.steps[s].played == -1 && w2.steps[s].n_legal == w->steps[s].n_legal;
            uz_walk_set_played(&w2, s, w->steps[s].played);
            ok = ok && w2.steps[s].node->move == moves[s];
        }
    }
    ok = ok && w2.has_final && same_position(&w2.final, &w->final);
    uz_walk_free(&w2);
    for (size_t s = 0; s < w->n_steps; s++)
        w->steps[s].node->move = moves[s];
    free(moves);
    return ok;
}

static void check_game(uz_game *g, counts *c, const char *path)
{
    uz_walk w;
    uz_result r = uz_walk_init(&w, g);
    if (r == UZ_OK)
        r = uz_walk_resolve_all(&w);
    if (r == UZ_OK)
        r = uz_walk_fill_san(&w);
    CHECK(r == UZ_OK, "%s: game %ld: walk (%d)", path, g->number, (int)r);
    if (r != UZ_OK) {
        uz_walk_free(&w);
        return;
    }
    size_t s = 0, before = c->mismatches;
    check_line(&w, &g->main, &g->start, &s, c);
    c->mismatches += s != w.n_steps;
    /* The main line's steps and its final position. */
    uz_position pos = g->start;
    bool main_ok = w.n_main == g->main.n_nodes && w.has_final;
    for (size_t i = 0; main_ok && i < w.n_main; i++) {
        main_ok = w.steps[w.main[i]].node == &g->main.nodes[i] && same_position(uz_walk_main_before(&w, i), &pos);
        uz_undo undo;
        uz_make_move(&pos, g->main.nodes[i].move, &undo);
        main_ok = main_ok && same_position(uz_walk_main_after(&w, i), &pos);
    }
    main_ok = main_ok && same_position(&w.final, &pos);
    c->mismatches += !main_ok;
    c->mismatches += !same_as_decoded(&w, g);
    CHECK(c->mismatches == before, "%s: game %ld: the walk differs from the game replayed", path, g->number);
    c->games++;
    uz_walk_free(&w);
}

static void check_file(const char *name, size_t min_games)
{
    char path[4096];
    corpus_path(name, path);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_game g;
    uz_game_init(&g);
    counts c = {0};
    for (;;) {
        uz_diag d = {0};
        uz_result r = uz_pgn_read_game(rd, &g, &d);
        if (r == UZ_DONE)
            break;
        if (r == UZ_OK)
            check_game(&g, &c, path);
    }
    uz_game_clear(&g);
    uz_pgn_reader_close(rd);
    fclose(f);
    CHECK(c.games >= min_games && c.mismatches == 0, "%s: %zu games, %zu steps, %zu mismatches", name, c.games, c.steps,
          c.mismatches);
    printf("%s: %zu games, %zu steps: the walk is the replay\n", name, c.games, c.steps);
}

int main(void)
{
    check_file("cat4_pgn_extract_testsuite.pgn", 200);        /* variations, null moves, odd input */
    check_file("cat4_pychess_lichess_studies.pgn", 300);      /* deep variations */
    check_file("cat4_pychess_mate_in_n_fen.pgn", 200);        /* FEN starts */
    check_file("cat5_chess960_tcec_frc.pgn", 40);             /* Chess960 castling */
    check_file("cat2_carlsen_chesscom_clk.pgn", 150);         /* final-position tags */
    check_file("cat1_uscf_otb_club_annotated.pgn", 45);       /* annotated club games */
    return test_finish();
}
