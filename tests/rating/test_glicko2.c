/* Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system"
 * (2013): a player rated 1500/200/0.06 beats a 1400/30 player and loses to 1550/100 and
 * 1700/300 in one rating period, tau 0.5, and ends at 1464.06 / 151.52 / 0.05999. */
#include <math.h>

#include "../common/uz_test.h"
#include "rating/rating.h"

int main(void)
{
    uz_rating player = {1500.0, 200.0, 0.06};
    uz_rating_game games[3] = {
        {{1400.0, 30.0, 0.06}, 1.0},
        {{1550.0, 100.0, 0.06}, 0.0},
        {{1700.0, 300.0, 0.06}, 0.0},
    };
    uz_rating r = uz_glicko2_update(player, games, 3, 0.5);
    /* The paper rounds its intermediate values to four decimals (mu' = -0.2069, phi' =
     * 0.8722, from which 1464.06 and 151.52); unrounded arithmetic gives 1464.0507,
     * 151.5165, 0.0599960. So: the paper's Glicko-2 values to its four decimals, and the
     * published ratings to within that rounding. */
    double mu = (r.rating - 1500.0) / 173.7178, phi = r.rd / 173.7178;
    CHECK(fabs(mu - -0.2069) < 0.00005, "mu' %.5f, expected -0.2069", mu);
    CHECK(fabs(phi - 0.8722) < 0.00005, "phi' %.5f, expected 0.8722", phi);
    CHECK(fabs(r.rating - 1464.06) < 0.01, "rating %.4f, expected 1464.06", r.rating);
    CHECK(fabs(r.rd - 151.52) < 0.01, "rd %.4f, expected 151.52", r.rd);
    CHECK(fabs(r.volatility - 0.05999) < 0.00001, "volatility %.6f, expected 0.05999", r.volatility);

    /* No games: only the deviation grows, sqrt(phi^2 + sigma^2) on the Glicko-2 scale. */
    uz_rating idle = uz_glicko2_update(player, NULL, 0, 0.5);
    double phi0 = 200.0 / 173.7178;
    CHECK(idle.rating == 1500.0 && fabs(idle.rd - 173.7178 * sqrt(phi0 * phi0 + 0.0036)) < 1e-9, "idle rd %.4f", idle.rd);

    /* Symmetry: equal players, one game each way; a draw between equals moves nobody. */
    uz_rating a = UZ_RATING_INITIAL, b = UZ_RATING_INITIAL;
    uz_rating_game ga = {b, 1.0}, gb = {a, 0.0};
    uz_rating a2 = uz_glicko2_update(a, &ga, 1, UZ_RATING_TAU), b2 = uz_glicko2_update(b, &gb, 1, UZ_RATING_TAU);
    CHECK(fabs((a2.rating - 1500.0) + (b2.rating - 1500.0)) < 1e-9 && a2.rating > 1600, "win %.2f loss %.2f",
          a2.rating, b2.rating);
    uz_rating_game gd = {b, 0.5};
    uz_rating d = uz_glicko2_update(a, &gd, 1, UZ_RATING_TAU);
    CHECK(fabs(d.rating - 1500.0) < 1e-9 && d.rd < 350.0, "draw %.2f / %.2f", d.rating, d.rd);
    return test_finish();
}
