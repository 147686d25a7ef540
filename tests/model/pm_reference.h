/* The player model's original dense features and scores (see pm_reference.c). */
#ifndef UCIZIP_PM_REFERENCE_H
#define UCIZIP_PM_REFERENCE_H

#include "model/player_model.h"

/* As uz_pm_features and uz_pm_scores were first written. */
void ref_pm_features(const uz_position *pos, const uz_move *moves, const int32_t *scores, int n,
                     const uz_pm_game *game, const uz_pm_history *hist, int32_t *x);
void ref_pm_scores(const uz_player_model *m, const int32_t *x, int n, const bool *mask, int64_t *s);
/* Adds the board units' part of each move's score to s. */
void ref_pm_board_units(const uz_player_model *m, const uz_position *pos, const uz_move *moves, int n, int64_t *s);

#endif
