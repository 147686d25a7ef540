/* Coding the moves of games against engine scores: scoring the positions of a game's walk
 * (pgn/game_walk.h) with an oracle (oracle/oracle.h), and move streams in and out. This is
 * the one module that sees both the engine and the entropy coders. */
#ifndef UCIZIP_GAMECODE_H
#define UCIZIP_GAMECODE_H

#include "codec/coder.h"
#include "engine/engine.h"
#include "model/move_model.h"
#include "pgn/game_walk.h"
#include "pgn/pgn.h"

/* The move model's context of step s of w (resolved up to s, the steps before it with
 * their moves known): the step's position, its n legal moves (legal: in canonical order)
 * and their scores (borrowed, as is the position: ctx is valid while w and they are),
 * the game's tags and the moves and positions on the way to the position. The two parts
 * of the game are also there on their own, for the player model's reports. */
void uz_walk_model_context(const uz_walk *w, size_t s, const uz_move *legal, const int32_t *scores, int n,
                           uz_model_context *ctx);
void uz_walk_pm_game(const uz_walk *w, uz_pm_game *g);
void uz_walk_pm_history(const uz_walk *w, size_t s, uz_pm_history *h);

/* uz_model_frequencies of step s's context (uz_walk_model_context): what the coders ask. */
uint32_t uz_step_frequencies(const uz_model *m, const uz_walk *w, size_t s, const uz_move *legal,
                             const int32_t *scores, int n, uint32_t *freq);

/* Resolves every step of every walk and scores every position that has two or more legal
 * moves with the oracle, keeping it busy across all the games (a bounded number of queries
 * in flight). Chess960 games go to the same oracle (a routing one, oracle/oracle.h, where
 * an engine needs a second process for them). With oracle NULL it only resolves
 * (positions, legal move counts, played indexes). */
uz_result uz_score_walks(uz_oracle *oracle, uz_walk *walks, size_t n_walks, uz_diag *diag);
/* The same for walks that are not one array (those of a block's records); with a model,
 * each scored step gets the model's coding frequencies instead of its scores (uz_step.freq,
 * what uz_encode_walk needs, in half the memory), computed as part of the query's work
 * (oracle/oracle.h: on the builtin's search threads). */
uz_result uz_score_walk_list(uz_oracle *oracle, const uz_model *model, uz_walk *const *walks, size_t n_walks,
                             uz_diag *diag);

struct uz_opening;

/* What codes the moves of a member's games, the same for each of its blocks: the oracle
 * that scores every position (Chess960 ones too), the model, and the move streams' coder. */
typedef struct uz_move_coder {
    uz_oracle *oracle;
    const uz_model *model;
    uz_coder_kind coder; /* decoding: the kind of the move streams */
    uz_encoder *enc;     /* encoding: the move streams' encoder */
} uz_move_coder;

/* A game whose moves uz_decode_games decodes: its structure known (game, its moves
 * UZ_MOVE_NONE), its move stream, and the walk it is decoded with (rebuilt there). */
typedef struct uz_coded_game {
    uz_game *game;
    uz_walk *walk;
    const uint8_t *moves;
    size_t moves_len;
} uz_coded_game;

/* Codes the played move of every scored step of w, with the opening counts of the
 * block's earlier games mixed in (opening NULL: none; gamecode/opening.h). */
uz_result uz_encode_walk(const uz_model *model, const struct uz_opening *opening, uz_encoder *enc, const uz_walk *w);

/* Decodes the moves of n games whose structure is known (games[i].game, moves
 * UZ_MOVE_NONE) from their move streams (games[i].moves), asking the oracle position by
 * position; games decode concurrently.
 * With opening counts (opening not NULL, holding the counts of the block's games before
 * games[0]) the games advance in lockstep by main-line ply over the counted plies, each
 * counted move decoded in game order and added to opening; the first n_prefix games are
 * decoded only up to the end of their counted plies (games before the ones wanted).
 * status[i] receives each game's result (UZ_ERR_CORRUPT for a stream that does not
 * decode). games[i].walk is the walk the game was decoded with (rebuilt here): resolved
 * with every move known, its final position too, once status[i] is UZ_OK, so that what
 * is decoded after the moves replays nothing. Returns the first oracle error (fatal for all), else UZ_OK. */
uz_result uz_decode_games(const uz_move_coder *mc, struct uz_opening *opening, size_t n_prefix, uz_coded_game *games,
                          size_t n, uz_result *status, uz_diag *diag);

#endif
