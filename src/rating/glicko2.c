/* Glicko-2, step by step as numbered in Glickman's "Example of the Glicko-2 system". */
#include <math.h>

#include "rating/rating.h"

#define GLICKO2_SCALE 173.7178 /* 400 / ln(10): Glicko to Glicko-2 scale */
#define EPSILON 1e-6

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5: the new volatility, the root of f(x) = 0 with x = ln(sigma'^2). */
static double new_volatility(double sigma, double phi, double v, double delta, double tau)
{
    double a = log(sigma * sigma);
    double d2 = delta * delta, p2 = phi * phi;
#define F(x) ((exp(x) * (d2 - p2 - v - exp(x))) / (2.0 * (p2 + v + exp(x)) * (p2 + v + exp(x))) - ((x) - a) / (tau * tau))
    double A = a, B;
    if (d2 > p2 + v) {
        B = log(d2 - p2 - v);
    } else {
        int k = 1;
        while (F(a - k * tau) < 0 && k < 1000)
            k++;
        B = a - k * tau;
    }
    double fa = F(A), fb = F(B);
    for (int iter = 0; fabs(B - A) > EPSILON && iter < 200; iter++) {
        double C = A + (A - B) * fa / (fb - fa);
        double fc = F(C);
        if (fc * fb <= 0) {
            A = B;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        B = C;
        fb = fc;
    }
#undef F
    return exp(A / 2.0);
}

uz_rating uz_glicko2_update(uz_rating player, const uz_rating_game *games, size_t n, double tau)
{
    /* Step 2: to the Glicko-2 scale. */
    double mu = (player.rating - 1500.0) / GLICKO2_SCALE;
    double phi = player.rd / GLICKO2_SCALE;
    double sigma = player.volatility;
    if (n == 0) {
        player.rd = sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE;
        return player;
    }
    /* Steps 3 and 4: estimated variance v and improvement delta. */
    double inv_v = 0.0, sum = 0.0;
    for (size_t j = 0; j < n; j++) {
        double mu_j = (games[j].opponent.rating - 1500.0) / GLICKO2_SCALE;
        double phi_j = games[j].opponent.rd / GLICKO2_SCALE;
        double g = g_of(phi_j), e = expected(mu, mu_j, phi_j);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / inv_v;
    double delta = v * sum;
    /* Steps 5-7: volatility, pre-period deviation, new deviation and mean. */
    double sigma_new = new_volatility(sigma, phi, v, delta, tau);
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    /* Step 8: back to the Glicko scale. */
    uz_rating out = {GLICKO2_SCALE * mu_new + 1500.0, GLICKO2_SCALE * phi_new, sigma_new};
    return out;
}
