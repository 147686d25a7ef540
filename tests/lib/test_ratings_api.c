/* The experimental ratings (include/ucizip_experimental.h) through the library's own
 * types: Glickman's worked example (2013): a player rated 1500/200/0.06 beats a 1400/30
 * player and loses to 1550/100 and 1700/300 in one rating period, tau 0.5, and ends at
 * 1464.06 / 151.52 / 0.05999; a period without games only widens the deviation
 * (sqrt(200^2 + (0.06 * 173.7178)^2) = 200.27); the defaults are the paper's. */
#include <math.h>

#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

#include "../common/uz_test.h"

int main(void)
{
    uz_player_rating start = uz_rating_initial();
    CHECK(start.rating == 1500.0 && start.rd == 350.0 && start.volatility == 0.06);
    CHECK(uz_rating_default_tau() == 0.5);
    const uz_rated_game period[] = {
        {{1400.0, 30.0, 0.06}, 1.0},
        {{1550.0, 100.0, 0.06}, 0.0},
        {{1700.0, 300.0, 0.06}, 0.0},
    };
    uz_player_rating r = {1500.0, 200.0, 0.06};
    uz_diag d = {0};
    CHECK(uz_rating_update(&r, period, 3, 0.5, &d) == UZ_OK);
    CHECK(fabs(r.rating - 1464.06) < 0.01, "rating %.4f, expected 1464.06", r.rating);
    CHECK(fabs(r.rd - 151.52) < 0.01, "rd %.4f, expected 151.52", r.rd);
    CHECK(fabs(r.volatility - 0.05999) < 0.00001, "volatility %.6f, expected 0.05999", r.volatility);
    uz_player_rating idle = {1500.0, 200.0, 0.06};
    CHECK(uz_rating_update(&idle, NULL, 0, 0.5, &d) == UZ_OK);
    CHECK(idle.rating == 1500.0 && fabs(idle.rd - 200.27) < 0.01, "idle rd %.4f", idle.rd);
    /* A long period (past the few games kept on the stack): twelve draws against an equal
     * player leave the rating where it was and narrow the deviation. */
    uz_rated_game draws[12];
    for (int i = 0; i < 12; i++)
        draws[i] = (uz_rated_game){{1500.0, 200.0, 0.06}, 0.5};
    uz_player_rating even = {1500.0, 200.0, 0.06};
    CHECK(uz_rating_update(&even, draws, 12, 0.5, &d) == UZ_OK);
    CHECK(fabs(even.rating - 1500.0) < 1e-9 && even.rd < 200.0, "%.4f / %.4f", even.rating, even.rd);
    return test_finish();
}
