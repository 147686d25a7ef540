/* The analysis session of ucizip_experimental.h (uz_analysis_*): its state, shared by
 * analysis.c (the walks and the models' costs) and analysis_oracle.c (the oracle). */
#ifndef UCIZIP_ANALYSIS_INTERNAL_H
#define UCIZIP_ANALYSIS_INTERNAL_H

#include "lib_internal.h"
#include "fit_samples.h"
#include "gamecode/builtin_member.h"
#include "gamecode/gamecode.h"
#include "gamecode/opening.h"
#include "gamecode/oracle_set.h"

/* What scores the positions: an oracle set (an engine, with its Chess960 instance started
 * at the first Chess960 game, or the builtin, which scores both kinds itself). */
typedef struct uz_analysis_oracle {
    uz_oracle_set *set;
    char *cache_path;       /* the persistent cache the pool's settings hold, released at close */
    double startup_ms;
} uz_analysis_oracle;

struct uz_analysis {
    unsigned flags;
    uz_analysis_oracle oracle;  /* unused with UZ_ANALYSIS_NO_ORACLE */
    uz_model model, reference;  /* the options' model; the rank model at its defaults */
    uz_model_params fit_start;  /* the options' model, the rank model for the player model */
    uz_lib_model_desc model_desc, fitted_desc;
    uz_opening *opening;        /* the current block's counts; NULL without */
    uint64_t games_seen;
    uz_fit_samples samples;
    /* the last run: its walks, and the main-line moves of each game (game g's plies are
     * plies[first[g] .. first[g + 1]), made at steps step_of[...] of walks[g]) */
    uz_walk *walks;
    size_t n_walks, cap_walks;
    uz_ply_analysis *plies;
    size_t *step_of;
    size_t n_plies, cap_plies;
    size_t *first;
    size_t n_games;             /* games with results (0 after a failed run) */
};

/* Opens the oracle o names into *oracle. */
uz_result uz_analysis_oracle_open(uz_analysis_oracle *oracle, const uz_options *o, uz_diag *diag);
void uz_analysis_oracle_close(uz_analysis_oracle *oracle);
/* Readies the oracle for games[0..n): the Chess960 engine started at the first Chess960
 * game; with an engine that has none, those games become text (said once). */
uz_result uz_analysis_oracle_prepare(uz_analysis_oracle *oracle, uz_game *const *games, size_t n, uz_diag *diag);
/* uz_score_walks with the oracle's engines (or the builtin). */
uz_result uz_analysis_oracle_score(uz_analysis_oracle *oracle, uz_walk *walks, size_t n, uz_diag *diag);

#endif
