/* The walk of a game tree in coding order, resolving each step's position from the
 * moves of the steps before it. */
#include <stdlib.h>
#include <string.h>

#include "pgn/game_walk.h"

typedef struct walk_builder {
    uz_step *steps;
    size_t n, cap;
} walk_builder;

static uz_result add_step(walk_builder *b, uz_node *node, uint32_t base, bool from_before, bool main_line)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? 2 * b->cap : 128;
        uz_step *s = realloc(b->steps, cap * sizeof *s);
        if (!s)
            return UZ_ERR_NOMEM;
        b->steps = s;
        b->cap = cap;
    }
    b->steps[b->n++] = (uz_step){.node = node, .base = base, .from_before = from_before, .main_line = main_line,
                                 .played = -1};
    return UZ_OK;
}

/* Appends the steps of line, whose first move is played from the position described by
 * (base, from_before). */
static uz_result add_line(walk_builder *b, uz_line *line, uint32_t base, bool from_before, bool main_line)
{
    for (size_t i = 0; i < line->n_nodes; i++) {
        uz_node *node = &line->nodes[i];
        uint32_t self = (uint32_t)b->n;
        uz_result r = add_step(b, node, base, from_before, main_line);
        if (r != UZ_OK)
            return r;
        for (size_t v = 0; v < node->n_variations; v++)
            if ((r = add_line(b, &node->variations[v], self, true, false)) != UZ_OK)
                return r;
        base = self;
        from_before = false;
    }
    return UZ_OK;
}

uz_result uz_walk_init(uz_walk *w, uz_game *game)
{
    memset(w, 0, sizeof *w);
    w->game = game;
    walk_builder b = {0};
    uz_result r = add_line(&b, &game->main, UZ_STEP_START, false, true);
    if (r == UZ_OK && b.n && !(w->before = malloc(b.n * sizeof *w->before)))
        r = UZ_ERR_NOMEM;
    if (r == UZ_OK && game->main.n_nodes && !(w->main = malloc(game->main.n_nodes * sizeof *w->main)))
        r = UZ_ERR_NOMEM;
    if (r != UZ_OK) {
        free(b.steps);
        free(w->before);
        free(w->main);
        memset(w, 0, sizeof *w);
        return r;
    }
    w->steps = b.steps;
    w->n_steps = b.n;
    for (size_t s = 0; s < b.n; s++)
        if (b.steps[s].main_line)
            w->main[w->n_main++] = (uint32_t)s;
    if (w->n_main == 0) { /* no moves: the start is the final position */
        w->final = game->start;
        w->has_final = true;
    }
    return UZ_OK;
}

void uz_walk_free(uz_walk *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n_steps; i++) {
        free(w->steps[i].scores);
        free(w->steps[i].freq);
    }
    free(w->steps);
    free(w->before);
    free(w->legal);
    free(w->main);
    free(w->san);
    memset(w, 0, sizeof *w);
}

/* Room for UZ_MAX_MOVES more legal moves. */
static uz_result reserve_legal(uz_walk *w)
{
    if (w->legal_cap - w->n_legal_moves >= UZ_MAX_MOVES)
        return UZ_OK;
    size_t cap = w->legal_cap ? 2 * w->legal_cap : 4 * (size_t)UZ_MAX_MOVES;
    uz_move *p = realloc(w->legal, cap * sizeof *p);
    if (!p)
        return UZ_ERR_NOMEM;
    w->legal = p;
    w->legal_cap = cap;
    return UZ_OK;
}

/* After the main line's last step (s) is resolved: the position its move leads to. */
static void resolve_final(uz_walk *w, size_t s)
{
    uz_move move = w->steps[s].node->move;
    if (!w->n_main || w->main[w->n_main - 1] != s || move == UZ_MOVE_NONE)
        return;
    uz_undo undo;
    w->final = w->before[s];
    uz_make_move(&w->final, move, &undo);
    w->has_final = true;
}

uz_result uz_walk_resolve_next(uz_walk *w)
{
    size_t s = w->resolved;
    uz_step *step = &w->steps[s];
    uz_position *pos = &w->before[s];
    if (step->base == UZ_STEP_START) {
        *pos = w->game->start;
    } else {
        const uz_step *base = &w->steps[step->base];
        *pos = w->before[step->base];
        if (!step->from_before) {
            uz_undo undo;
            uz_make_move(pos, base->node->move, &undo);
        }
    }
    if (step->node->move == UZ_MOVE_NULL) {
        /* A null move is stored in the structure stream and never coded. */
        step->n_legal = 0;
        step->legal_at = (uint32_t)w->n_legal_moves;
        resolve_final(w, s);
        w->resolved++;
        return UZ_OK;
    }
    if (reserve_legal(w) != UZ_OK)
        return UZ_ERR_NOMEM;
    uz_move *legal = w->legal + w->n_legal_moves;
    int n = uz_generate_legal(pos, legal);
    step->n_legal = (uint16_t)n;
    step->legal_at = (uint32_t)w->n_legal_moves;
    if (step->node->move != UZ_MOVE_NONE) {
        int i = 0;
        while (i < n && legal[i] != step->node->move)
            i++;
        if (i == n)
            return UZ_ERR_ILLEGAL;
        step->played = (int16_t)i;
    }
    w->n_legal_moves += (size_t)n;
    resolve_final(w, s);
    w->resolved++;
    return UZ_OK;
}

void uz_walk_set_played(uz_walk *w, size_t s, int played)
{
    uz_step *step = &w->steps[s];
    step->node->move = uz_walk_legal(w, s)[played];
    step->played = (int16_t)played;
    resolve_final(w, s);
}

uz_result uz_walk_resolve_all(uz_walk *w)
{
    uz_result r = UZ_OK;
    while (r == UZ_OK && w->resolved < w->n_steps)
        r = uz_walk_resolve_next(w);
    return r;
}

uz_result uz_walk_fill_san(uz_walk *w)
{
    if (w->san || !w->n_steps)
        return UZ_OK;
    if (!(w->san = malloc(w->n_steps * sizeof *w->san)))
        return UZ_ERR_NOMEM;
    for (size_t s = 0; s < w->n_steps; s++)
        uz_san_format_legal(&w->before[s], w->steps[s].node->move, uz_walk_legal(w, s), w->steps[s].n_legal,
                            w->san[s]);
    return UZ_OK;
}
