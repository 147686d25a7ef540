/* Player ratings from game results: Glicko-2 (Glickman, "Example of the Glicko-2
 * system", 2013). Each player's strength is a normal distribution, mean mu and standard
 * deviation phi on the Glicko-2 scale, plus a volatility sigma; a rating period's results
 * move the mean towards what they show and shrink the deviation. Depends on nothing. */
#ifndef UCIZIP_RATING_H
#define UCIZIP_RATING_H

#include <stddef.h>

/* A rating on the Glicko (Elo-like) scale: rating r, deviation rd, volatility. */
typedef struct uz_rating {
    double rating;
    double rd;
    double volatility;
} uz_rating;

/* The rating a player starts with: 1500, 350, 0.06 (the paper's defaults). */
#define UZ_RATING_INITIAL ((uz_rating){1500.0, 350.0, 0.06})
/* The system constant tau (how fast volatility may change); the paper's example uses 0.5. */
#define UZ_RATING_TAU 0.5

/* One game of a rating period: the opponent's rating before the period and the score
 * (1 win, 0.5 draw, 0 loss). */
typedef struct uz_rating_game {
    uz_rating opponent;
    double score;
} uz_rating_game;

/* The player's rating after a rating period in which they played games[0..n); every
 * rating is taken as it was before the period. With n == 0 only the deviation grows
 * (step 6 of the paper). Volatility is found by the paper's Illinois iteration to
 * 1e-6. */
uz_rating uz_glicko2_update(uz_rating player, const uz_rating_game *games, size_t n, double tau);

#endif
