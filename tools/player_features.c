/* ucizip-features: the player model's features of every scored main-line position of
 * a PGN file, with the engine scores taken from a `ucizip stats --dump` file of the same
 * games (so the engine runs once and the features can be recomputed at will). The
 * features come from the library's own uz_pm_features, the code the codec runs.
 *
 *   ucizip-features GAMES.pgn --scores DUMP --out PREFIX [--weights FILE]
 *       writes PREFIX.pos (one record per position, see pos_record), PREFIX.feat
 *       (n_legal x UZ_PM_N_FEATURES int16 per position, canonical move order) and
 *       PREFIX.moves (n_legal uint16 per position: the moving piece's type (1..6) << 12,
 *       from << 6, to, the squares seen from the mover as the square tables see them),
 *       PREFIX.board (64 bytes per position, squares seen from the mover: 0 empty, 1..6
 *       the mover's pawn..king, 7..12 the opponent's) and PREFIX.score (n_legal int64 per
 *       position: the weights' score of each move, uz_pm_scores plus the square tables)
 *   ucizip-features GAMES.pgn --boards-only --out PREFIX
 *       no engine scores: PREFIX.pos (rank_bits and pm_bits 0), PREFIX.moves and
 *       PREFIX.board only, of every main-line position with two legal moves or more (what
 *       a policy over the board is trained on: scripts/policy_experiment.py)
 *   ... --policy N (with either): also PREFIX.policy, n_legal int32 per position: each
 *       move's logit under the policy over the board of version N (model/policy.h)
 *   ucizip-features GAMES.pgn --hashes
 *       prints the hash (FNV-1a 64 of the canonical PGN text) of every game
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "codec/coder.h"
#include "gamecode/gamecode.h"
#include "model/move_model.h"
#include "model/policy.h"
#include "pgn/pgn.h"
#include "model/player_model.h"
#include "game_split.h"

/* 56 bytes, no padding: read by numpy as a structured dtype (see the training script). */
typedef struct pos_record {
    uint64_t game_hash;
    uint64_t key;         /* Zobrist key of the position */
    int32_t game_index;   /* 0-based, games read */
    int32_t ply;          /* 0-based ply of the game */
    int32_t n;            /* legal moves */
    int32_t played;       /* index of the move played */
    int32_t elo;          /* mover's rating, 0 unknown */
    int32_t played_move;  /* the move (uz_move) */
    double rank_bits;     /* cost under the default rank model (exact integer frequencies) */
    double pm_bits;       /* cost under the player model given by --weights (or built in) */
} pos_record;

static char *read_all(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + n, 1, cap - n, f)) > 0) {
        n += k;
        if (n == cap) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                buf = NULL;
            }
            buf = b;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

/* The position's moves (per move: piece type (1..6) << 12 | from << 6 | to) and board (0
 * empty, 1..6 the mover's pawn..king, 7..12 the opponent's), squares seen from the mover. */
static void write_board(const uz_position *pos, const uz_move *legal, int n, FILE *fmoves, FILE *fboard,
                        const uz_policy_net *policy, FILE *fpolicy)
{
    if (policy) {
        int32_t logit[UZ_MAX_MOVES];
        uz_policy_logits(policy, pos, legal, n, logit);
        fwrite(logit, sizeof *logit, (size_t)n, fpolicy);
    }
    for (int k = 0; k < n; k++) {
        int from = UZ_MOVE_FROM(legal[k]), to = UZ_MOVE_TO(legal[k]);
        int type = UZ_PIECE_TYPE(pos->squares[from]);
        if (pos->side)
            from ^= 56, to ^= 56;
        uint16_t m = (uint16_t)(type << 12 | from << 6 | to);
        fwrite(&m, sizeof m, 1, fmoves);
    }
    uint8_t board[64];
    for (int sq = 0; sq < 64; sq++) {
        int p = pos->squares[sq ^ (pos->side ? 56 : 0)];
        board[sq] = (uint8_t)(p ? UZ_PIECE_TYPE(p) + (UZ_PIECE_COLOR(p) != pos->side ? 6 : 0) : 0);
    }
    fwrite(board, 1, sizeof board, fboard);
}

#define USAGE                                                                                      \
    "usage: ucizip-features GAMES.pgn (--scores DUMP --out PREFIX [--weights FILE] | --boards-only --out PREFIX " \
    "| --hashes) [--policy N]\n"

int main(int argc, char **argv)
{
    const char *pgn = NULL, *scores_path = NULL, *out = NULL, *weights = NULL;
    bool hashes = false, boards_only = false;
    const uz_policy_net *policy = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--scores") && i + 1 < argc)
            scores_path = argv[++i];
        else if (!strcmp(argv[i], "--out") && i + 1 < argc)
            out = argv[++i];
        else if (!strcmp(argv[i], "--weights") && i + 1 < argc)
            weights = argv[++i];
        else if (!strcmp(argv[i], "--policy") && i + 1 < argc) {
            policy = uz_policy_version((uint32_t)atoi(argv[++i]));
            if (!policy) {
                fprintf(stderr, "ucizip-features: no policy of version %s\n", argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--hashes"))
            hashes = true;
        else if (!strcmp(argv[i], "--boards-only"))
            boards_only = true;
        else if (!pgn && argv[i][0] != '-')
            pgn = argv[i];
        else {
            fprintf(stderr, "%s", USAGE);
            return 2;
        }
    }
    if (!pgn || (!hashes && (!(scores_path || boards_only) || !out))) {
        fprintf(stderr, "%s", USAGE);
        return 2;
    }
    uz_diag diag = {0};
    uz_player_model pm;
    if (weights) {
        size_t len;
        char *text = read_all(weights, &len);
        if (!text) {
            fprintf(stderr, "ucizip-features: %s: cannot read\n", weights);
            return 1;
        }
        uz_result r = uz_player_model_parse(&pm, text, len, &diag);
        free(text);
        if (r != UZ_OK) {
            fprintf(stderr, "%s:%ld: %s\n", weights, diag.line, diag.message);
            return 1;
        }
    } else {
        pm = *uz_pm_builtin_latest();
    }
    uz_model rank;
    uz_model_params rp = uz_model_default_params();
    uz_model_init(&rank, &rp);

    FILE *in = fopen(pgn, "rb");
    if (!in) {
        fprintf(stderr, "ucizip-features: %s: cannot open\n", pgn);
        return 1;
    }
    FILE *dump = NULL, *fpos = NULL, *ffeat = NULL, *fmoves = NULL, *fboard = NULL, *fscore = NULL,
         *fpolicy = NULL;
    if (!hashes) {
        char path[4096];
        dump = fopen(boards_only ? "/dev/null" : scores_path, "r");
        snprintf(path, sizeof path, "%s.pos", out);
        fpos = fopen(path, "wb");
        snprintf(path, sizeof path, "%s.feat", out);
        ffeat = fopen(boards_only ? "/dev/null" : path, "wb");
        snprintf(path, sizeof path, "%s.moves", out);
        fmoves = fopen(path, "wb");
        snprintf(path, sizeof path, "%s.board", out);
        fboard = fopen(path, "wb");
        snprintf(path, sizeof path, "%s.score", out);
        fscore = fopen(boards_only ? "/dev/null" : path, "wb");
        snprintf(path, sizeof path, "%s.policy", out);
        fpolicy = fopen(policy ? path : "/dev/null", "wb");
        if (!dump || !fpos || !ffeat || !fmoves || !fboard || !fscore || !fpolicy) {
            fprintf(stderr, "ucizip-features: cannot open the score dump or the outputs\n");
            return 1;
        }
    }
    uz_pgn_reader *rd = uz_pgn_reader_open(in, pgn);
    uz_game game;
    uz_game_init(&game);
    int32_t *x = malloc((size_t)UZ_MAX_MOVES * UZ_PM_N_FEATURES * sizeof *x);
    int16_t *x16 = malloc((size_t)UZ_MAX_MOVES * UZ_PM_N_FEATURES * sizeof *x16);
    int32_t scores[UZ_MAX_MOVES];
    int64_t s[UZ_MAX_MOVES];
    uint32_t freq[UZ_MAX_MOVES];
    uz_move legal[UZ_MAX_MOVES];
    int status = 0;
    int32_t gi = 0;
    long positions = 0;
    double model_ns = 0; /* CPU time in the player model (history, features, frequencies) */
    for (;;) {
        uz_result r = uz_pgn_read_game(rd, &game, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK || game.verbatim)
            continue; /* as `ucizip stats -k` does: bad and verbatim games are skipped */
        uint64_t h = uz_tool_game_hash(&game);
        if (hashes) {
            printf("%016" PRIx64 "\n", h);
            continue;
        }
        uz_walk w;
        if (uz_walk_init(&w, &game) != UZ_OK || uz_score_walks(NULL, &w, 1, &diag) != UZ_OK) {
            fprintf(stderr, "ucizip-features: game %d: cannot walk\n", gi + 1);
            status = 1;
            break;
        }
        uz_pm_game pg;
        uz_walk_pm_game(&w, &pg);
        for (size_t i = 0; i < w.n_steps && status == 0; i++) {
            const uz_step *st = &w.steps[i];
            if (!st->main_line || st->node->move == UZ_MOVE_NULL || st->n_legal < 2)
                continue;
            int played = st->played, n = st->n_legal;
            if (!boards_only &&
                (fscanf(dump, "%d %d", &played, &n) != 2 || n != st->n_legal || played != st->played)) {
                fprintf(stderr, "ucizip-features: %s: game %d does not match the score dump\n", pgn, gi + 1);
                status = 1;
                break;
            }
            for (int k = 0; k < n && !boards_only; k++)
                if (fscanf(dump, "%" SCNd32, &scores[k]) != 1)
                    status = 1;
            const uz_position *pos = &w.before[i];
            uz_generate_legal(pos, legal);
            pos_record rec = {.game_hash = h, .key = pos->key, .game_index = gi,
                              .ply = 2 * ((int)pos->fullmove - 1) + pos->side, .n = n, .played = played,
                              .elo = pg.elo[pos->side], .played_move = st->node->move};
            if (boards_only) {
                fwrite(&rec, sizeof rec, 1, fpos);
                write_board(pos, legal, n, fmoves, fboard, policy, fpolicy);
                positions++;
                continue;
            }
            struct timespec t0, t1;
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
            uz_pm_history hist;
            uz_walk_pm_history(&w, i, &hist);
            uz_pm_features(pos, legal, scores, n, &pg, &hist, x);
            uz_pm_scores(&pm, x, n, NULL, s);
            uz_pm_board_scores(&pm, pos, legal, n, s);
            uint32_t total = uz_pm_frequencies(&pm, s, n, freq);
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
            model_ns += (t1.tv_sec - t0.tv_sec) * 1000000000.0 + (t1.tv_nsec - t0.tv_nsec);
            rec.pm_bits = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, played);
            total = uz_model_score_frequencies(&rank, scores, n, freq);
            rec.rank_bits = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, played);
            for (int k = 0; k < n * UZ_PM_N_FEATURES; k++)
                x16[k] = (int16_t)(x[k] > 32767 ? 32767 : x[k] < -32768 ? -32768 : x[k]);
            fwrite(&rec, sizeof rec, 1, fpos);
            fwrite(x16, sizeof *x16, (size_t)n * UZ_PM_N_FEATURES, ffeat);
            write_board(pos, legal, n, fmoves, fboard, policy, fpolicy);
            fwrite(s, sizeof *s, (size_t)n, fscore);
            positions++;
        }
        uz_walk_free(&w);
        gi++;
        if (status)
            break;
    }
    if (!hashes) {
        int extra;
        if (status == 0 && !boards_only && fscanf(dump, "%d", &extra) == 1) {
            fprintf(stderr, "ucizip-features: %s: the score dump has more positions than the games\n", pgn);
            status = 1;
        }
        fclose(dump);
        if (fclose(fpos) != 0 || fclose(ffeat) != 0 || fclose(fmoves) != 0 || fclose(fboard) != 0 || fclose(fscore) != 0 ||
            fclose(fpolicy) != 0)
            status = 1;
        if (status == 0)
            fprintf(stderr, "%s: %d games, %ld positions, player model %.1f us/position\n", pgn, gi, positions,
                    positions ? model_ns / 1000.0 / (double)positions : 0.0);
    }
    free(x);
    free(x16);
    uz_game_clear(&game);
    uz_pgn_reader_close(rd);
    fclose(in);
    return status;
}
