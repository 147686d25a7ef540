/* Player ratings (ucizip_experimental.h): the rating module's Glicko-2 behind the
 * library's types. */
#include <stdlib.h>

#include "lib_internal.h"
#include "rating/rating.h"

static uz_rating to_rating(uz_player_rating r)
{
    return (uz_rating){r.rating, r.rd, r.volatility};
}

uz_player_rating uz_rating_initial(void)
{
    uz_rating r = UZ_RATING_INITIAL;
    return (uz_player_rating){r.rating, r.rd, r.volatility};
}

double uz_rating_default_tau(void)
{
    return UZ_RATING_TAU;
}

uz_result uz_rating_update(uz_player_rating *player, const uz_rated_game *games, size_t n, double tau,
                           uz_diag *diag)
{
    uz_rating_game few[8] = {0};
    uz_rating_game *period = n <= sizeof few / sizeof few[0] ? few : malloc(n * sizeof *period);
    if (!period) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++)
        period[i] = (uz_rating_game){to_rating(games[i].opponent), games[i].score};
    uz_rating r = uz_glicko2_update(to_rating(*player), period, n, tau);
    *player = (uz_player_rating){r.rating, r.rd, r.volatility};
    if (period != few)
        free(period);
    return UZ_OK;
}
