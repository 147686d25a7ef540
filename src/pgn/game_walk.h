/* The walk of a game tree in coding order: every move of the tree as a step, with the
 * position before it, its legal moves in canonical order and the index of the move played
 * among them. A game is replayed once, here; whoever needs a position of the game (the
 * move coder and the scorer, the text record's rendering, the engine-comment coder, the
 * final-position tag) takes it from the walk. Plain data: the scorer (gamecode) fills the
 * steps' scores. */
#ifndef UCIZIP_GAME_WALK_H
#define UCIZIP_GAME_WALK_H

#include "chess/san.h"
#include "pgn/pgn.h"

#define UZ_STEP_START UINT32_MAX

/* One move of the game tree, in coding order: a node's move, then each of its
 * variations entirely, then the next node of the line. */
typedef struct uz_step {
    uz_node *node;        /* the move (in the caller's game) */
    uint32_t base;        /* step whose position this one starts from, or UZ_STEP_START */
    bool from_before;     /* start from base's position before its move (a variation's first
                             move), else after it */
    bool main_line;
    uint16_t n_legal;     /* legal moves in the position before (0 for a null move) */
    uint32_t legal_at;    /* where they start in the walk's legal[] (once resolved) */
    int16_t played;       /* index of node->move among them in canonical order, -1 unknown */
    int32_t *scores;      /* n_legal engine scores when n_legal >= 2, else NULL (owned; set by
                             the scorer, gamecode/gamecode.h, unless it keeps freq instead) */
    uint16_t *freq;       /* instead of the scores, when the scorer was given a model: the
                             model's n_legal coding frequencies for them, summing to freq_total
                             (a model's total is 2^16 and every move gets at least 1, so with
                             two or more moves each fits 16 bits; where one would not, the
                             scores are kept instead); else NULL (owned) */
    uint32_t freq_total;
} uz_step;

typedef struct uz_walk {
    uz_game *game;        /* not owned */
    uz_step *steps;
    size_t n_steps;
    uz_position *before;  /* position before each step's move */
    size_t resolved;      /* steps whose position and n_legal are known */
    uz_move *legal;       /* every resolved step's legal moves in canonical order, one after
                             the other: generated once, shared by scoring and coding */
    size_t n_legal_moves, legal_cap;
    uint32_t *main;       /* the steps of the main line, in order (n_main of them) */
    size_t n_main;
    uz_position final;    /* after the main line's last move, once has_final */
    bool has_final;       /* the main line is resolved and its moves known */
    char (*san)[UZ_SAN_MAX]; /* each step's move in SAN, once uz_walk_fill_san ran (else NULL) */
} uz_walk;

/* Builds the step list of game (its moves need not be known yet: a decoder walks a tree
 * whose moves are still UZ_MOVE_NONE). Returns UZ_OK or UZ_ERR_NOMEM. */
uz_result uz_walk_init(uz_walk *w, uz_game *game);
/* Frees what the walk owns (its steps' scores included) and zeroes it; NULL is a no-op. */
void uz_walk_free(uz_walk *w);

/* Resolves the next step (w->resolved): its position (from the moves of earlier steps),
 * legal moves (the only time they are generated) and, if its move is known, the played
 * index; after the main line's last step, the final position. Fails with UZ_ERR_ILLEGAL
 * if a known move is not legal there (never for games from the reader), UZ_ERR_NOMEM. */
uz_result uz_walk_resolve_next(uz_walk *w);
/* A decoder's move for the last resolved step s (its move was UZ_MOVE_NONE when resolved):
 * the legal move of index played sets the step's node and played index and, after the main
 * line's last step, the final position. played < w->steps[s].n_legal. */
void uz_walk_set_played(uz_walk *w, size_t s, int played);
/* Resolves every step left (as uz_walk_resolve_next, the same errors). */
uz_result uz_walk_resolve_all(uz_walk *w);

/* Each step's move in SAN (w->san), the walk resolved and its moves known: for renderings
 * of the game (uz_pgn_walk_render), which then need no board. UZ_OK or UZ_ERR_NOMEM. */
uz_result uz_walk_fill_san(uz_walk *w);

/* uz_pgn_game_render of the walk's game from the walk (its SAN filled by uz_walk_fill_san,
 * else UZ_ERR_ARG): the same text, without replaying the game. */
uz_result uz_pgn_walk_render(const uz_walk *walk, const uz_pgn_layout *layout, char **text, size_t *len);

/* The legal moves of resolved step s in canonical order (w->steps[s].n_legal of them).
 * Valid until the next uz_walk_resolve_next. */
static inline const uz_move *uz_walk_legal(const uz_walk *w, size_t s) { return w->legal + w->steps[s].legal_at; }

/* The position before main-line move i (i < w->n_main, resolved), and after it: the
 * position before move i + 1, or the final one after the last (w->has_final). */
static inline const uz_position *uz_walk_main_before(const uz_walk *w, size_t i) { return &w->before[w->main[i]]; }
static inline const uz_position *uz_walk_main_after(const uz_walk *w, size_t i)
{
    return i + 1 < w->n_main ? &w->before[w->main[i + 1]] : &w->final;
}

#endif
