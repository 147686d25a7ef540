/* ucizip explain: move by move, the legal moves with their engine scores, model
 * probabilities and Huffman code words, and the bits the played move costs. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_util.h"
#include "gamecode/gamecode.h"
#include "chess/san.h"

static const char explain_usage[] =
    "usage: ucizip explain FILE.pgn [--game N] [--all] [options]\n"
    "  --game N            the game to explain (default 1)\n"
    "  --all               list every legal move (default: the 8 likeliest and the played one)\n" CLI_KEEP_QUIET_HELP
        CLI_ENGINE_HELP
        CLI_MODEL_HELP;

typedef struct ranked {
    int index;
    uint32_t freq;
} ranked;

static int by_freq_desc(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->freq != y->freq)
        return x->freq < y->freq ? 1 : -1;
    return x->index - y->index;
}

static void print_code(uint32_t code, int len)
{
    for (int b = len - 1; b >= 0; b--)
        putchar('0' + ((code >> b) & 1));
    for (int b = len; b < 12; b++)
        putchar(' ');
}

/* The player model's features of the played move with their contributions (bits of
 * log-weight, relative to a move whose features are all 0), and the hidden layer's. */
static void print_contributions(const uz_walk *w, size_t step, const uz_move *legal, int n, const uz_model *model)
{
    static int32_t x[UZ_MAX_MOVES * UZ_PM_N_FEATURES];
    uz_pm_game g;
    uz_pm_history h;
    uz_walk_pm_game(w, &g);
    uz_walk_pm_history(w, step, &h);
    uz_pm_features(&w->before[step], legal, w->steps[step].scores, n, &g, &h, x);
    const int32_t *f = x + (size_t)w->steps[step].played * UZ_PM_N_FEATURES;
    printf("    features of the played move (bits):");
    double sum = 0;
    for (int k = 0; k < UZ_PM_N_FEATURES; k++) {
        double c = (double)model->player->weight[k] * f[k] / 65536.0;
        sum += c;
        if (f[k] != 0 && model->player->weight[k] != 0)
            printf(" %s=%d:%+.2f", uz_pm_feature_name(k), (int)f[k], c);
    }
    if (model->player->n_hidden) { /* the rest of the move's score: the hidden layer's part */
        int64_t total;
        uz_pm_scores(model->player, f, 1, NULL, &total);
        double hidden = (double)total / 65536.0 - sum;
        printf(" hidden layer (%d units):%+.2f", (int)model->player->n_hidden, hidden);
        sum += hidden;
    }
    printf(" (total %+.2f)\n", sum);
}

static void explain_step(const uz_walk *w, size_t step, const uz_model *model, bool all, double *huff, double *range)
{
    const uz_step *s = &w->steps[step];
    const uz_position *pos = &w->before[step];
    uz_move legal[UZ_MAX_MOVES];
    int n = uz_generate_legal(pos, legal);
    char san[UZ_SAN_MAX];
    uz_san_format(pos, s->node->move, san);
    printf("%d%s %s  (%d legal move%s)", pos->fullmove, pos->side == UZ_WHITE ? "." : "...", san, n,
           n == 1 ? "" : "s");
    if (n < 2) {
        printf(": forced, 0 bits\n");
        return;
    }
    uint32_t freq[UZ_MAX_MOVES], codes[UZ_MAX_MOVES];
    uint8_t lengths[UZ_MAX_MOVES];
    uint32_t total = uz_step_frequencies(model, w, step, legal, s->scores, n, freq);
    uz_huffman_code(freq, n, lengths, codes);
    double hb = uz_coder_cost_bits(UZ_CODER_HUFFMAN, freq, n, total, s->played);
    double rb = uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, s->played);
    *huff += hb;
    *range += rb;
    ranked order[UZ_MAX_MOVES];
    for (int i = 0; i < n; i++)
        order[i] = (ranked){i, freq[i]};
    qsort(order, (size_t)n, sizeof *order, by_freq_desc);
    int rank = 0;
    while (order[rank].index != s->played)
        rank++;
    printf(": rank %d, huffman %.0f bits, range %.2f bits\n",
           model->params.kind == UZ_MODEL_PLAYER ? rank + 1 : uz_model_rank(model, s->scores, n, s->played), hb, rb);
    if (model->params.kind == UZ_MODEL_PLAYER)
        print_contributions(w, step, legal, n, model);
    for (int r = 0; r < n; r++) {
        int i = order[r].index;
        if (!all && r >= 8 && i != s->played)
            continue;
        uz_san_format(pos, legal[i], san);
        int32_t v = s->scores[i];
        char score[16];
        if (v > UZ_SCORE_MATE_BOUND)
            snprintf(score, sizeof score, "#%d", UZ_SCORE_MATE - v);
        else if (v < -UZ_SCORE_MATE_BOUND)
            snprintf(score, sizeof score, "#-%d", v + UZ_SCORE_MATE);
        else
            snprintf(score, sizeof score, "%+d", v);
        printf("  %c %-8s %7s  p=%.4f  ", i == s->played ? '>' : ' ', san, score, (double)freq[i] / total);
        print_code(codes[i], lengths[i]);
        printf(" %5.2f bits\n", uz_coder_cost_bits(UZ_CODER_RANGE, freq, n, total, i));
    }
}

int cmd_explain(int argc, char **argv)
{
    static const struct option options[] = {
        {"game", required_argument, NULL, 'g'}, {"all", no_argument, NULL, 'a'}, {"help", no_argument, NULL, 'h'},
        CLI_ENGINE_OPTIONS,                     CLI_MODEL_OPTIONS,               CLI_KEEP_QUIET_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    long game_no = 1;
    bool all = false;
    cli_engine_opts eo;
    cli_model_opts mo;
    cli_engine_opts_init(&eo);
    cli_model_opts_init(&mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", options, NULL)) != -1) {
        int h = cli_shared_opt(&eo, &mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'g':
            if (cli_parse_long("--game", optarg, 1, 1L << 40, &game_no))
                return CLI_EXIT_USAGE;
            break;
        case 'a': all = true; break;
        case 'k': /* zstd's -k and -q: this command removes no input and has no progress */
        case 'q': break;
        case 'h': fputs(explain_usage, stdout); return CLI_EXIT_OK;
        default: fputs(explain_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind != 1) {
        fputs(explain_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_FAIL;
    cli_game_source src;
    uz_game game;
    uz_walk walk = {0};
    cli_scorer scorer = {0};
    uz_model model;
    uz_game_init(&game);
    uz_diag mdiag = {0};
    if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK) {
        cli_error("%s", mdiag.message);
        return CLI_EXIT_USAGE;
    }
    if (cli_source_open(&src, argv[optind], false) != 0)
        return CLI_EXIT_FAIL;
    long n = 0;
    while (src.games < game_no && (n = cli_source_next(&src, &game)) == 1) {
    }
    if (n < 0)
        goto out;
    if (src.games < game_no) {
        cli_error("%s has only %ld games", src.name, src.games);
        goto out;
    }
    if (cli_scorer_open(&eo, &scorer) != 0)
        goto out;
    if (game.start.chess960 && (cli_scorer_prepare(&eo, &scorer, &game, 1) != 0 || game.verbatim))
        goto out; /* (an engine without UCI_Chess960 cannot score it: said) */
    uz_diag diag = {0};
    if (uz_walk_init(&walk, &game) != UZ_OK || cli_scorer_score(&scorer, &walk, 1, &diag) != UZ_OK) {
        cli_report(src.name, &diag);
        goto out;
    }
    char desc[256], mtext[128];
    cli_scorer_describe(&scorer, desc, sizeof desc);
    uz_lib_model_text(&model.params, mtext, sizeof mtext);
    const char *white = uz_game_tag(&game, "White"), *black = uz_game_tag(&game, "Black");
    printf("game %ld: %s - %s\nengine: %s\nmodel: %s\n\n", game_no, white ? white : "?", black ? black : "?", desc,
           mtext);
    double huff = 0, range = 0;
    long plies = 0;
    for (size_t i = 0; i < walk.n_steps; i++) {
        const uz_step *s = &walk.steps[i];
        if (!s->main_line || s->node->move == UZ_MOVE_NULL)
            continue;
        explain_step(&walk, i, &model, all, &huff, &range);
        plies++;
    }
    if (plies)
        printf("\n%ld plies: huffman %.0f bits (%.3f bits/move), range %.1f bits (%.3f bits/move)\n", plies, huff,
               huff / plies, range, range / plies);
    status = CLI_EXIT_OK;
out:
    uz_walk_free(&walk);
    cli_scorer_close(&scorer);
    uz_game_clear(&game);
    cli_source_close(&src);
    return status;
}
