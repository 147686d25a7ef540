/* ucizip explain: move by move, the legal moves with their engine scores, model
 * probabilities and Huffman code words, and the bits the played move costs. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_util.h"

static const char explain_usage[] =
    "usage: ucizip explain FILE.pgn [--game N] [--all] [options]\n"
    "  --game N            the game to explain (default 1)\n"
    "  --all               list every legal move (default: the 8 likeliest and the played one)\n" CLI_KEEP_QUIET_HELP
        CLI_ENGINE_HELP
        CLI_MODEL_HELP;

static void print_code(uint32_t code, int len)
{
    for (int b = len - 1; b >= 0; b--)
        putchar('0' + ((code >> b) & 1));
    for (int b = len; b < 12; b++)
        putchar(' ');
}

/* The player model's features of the played move with their contributions (bits of
 * log-weight, relative to a move whose features are all 0), and the hidden layer's. */
static void print_contributions(const uz_analysis *a, size_t ply)
{
    uz_feature_part parts[UZ_ANALYSIS_MAX_FEATURES];
    size_t n = 0;
    int n_hidden = 0;
    double hidden = 0;
    uz_diag diag = {0};
    if (uz_analysis_played_features(a, 0, ply, parts, UZ_ANALYSIS_MAX_FEATURES, &n, &n_hidden, &hidden, &diag) != UZ_OK)
        return;
    printf("    features of the played move (bits):");
    double sum = 0;
    for (size_t k = 0; k < n; k++) {
        sum += parts[k].bits;
        printf(" %s=%d:%+.2f", parts[k].name, (int)parts[k].value, parts[k].bits);
    }
    if (n_hidden) {
        printf(" hidden layer (%d units):%+.2f", n_hidden, hidden);
        sum += hidden;
    }
    printf(" (total %+.2f)\n", sum);
}

/* Ply ply of the session's one game: its legal moves, likeliest first. */
static void explain_ply(const uz_analysis *a, size_t ply, bool all, double *huff, double *range)
{
    const uz_ply_analysis *p = uz_analysis_ply(a, 0, ply);
    int n = p->n_legal;
    printf("%d%s %s  (%d legal move%s)", p->fullmove, p->white ? "." : "...", p->san, n, n == 1 ? "" : "s");
    if (n < 2) {
        printf(": forced, 0 bits\n");
        return;
    }
    *huff += p->huffman;
    *range += p->range;
    printf(": rank %d, huffman %.0f bits, range %.2f bits\n", p->rank, p->huffman, p->range);
    if (strcmp(uz_analysis_model(a)->kind, "player") == 0)
        print_contributions(a, ply);
    static uz_move_analysis moves[UZ_ANALYSIS_MAX_MOVES];
    uz_diag diag = {0};
    if (uz_analysis_moves(a, 0, ply, moves, UZ_ANALYSIS_MAX_MOVES, &diag) != UZ_OK)
        return;
    for (int r = 0; r < n; r++) {
        const uz_move_analysis *m = &moves[r];
        if (!all && r >= 8 && m->index != p->played)
            continue;
        char score[16];
        uz_ply_score_text(m->score, score, sizeof score);
        printf("  %c %-8s %7s  p=%.4f  ", m->index == p->played ? '>' : ' ', m->san, score,
               (double)m->freq / m->total);
        print_code(m->code, m->code_len);
        printf(" %5.2f bits\n", m->range);
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
    uz_game *game = NULL;
    uz_analysis *a = NULL;
    uz_diag diag = {0};
    if (uz_game_new(&game, &diag) != UZ_OK) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    if (cli_source_open(&src, argv[optind], false) != 0) {
        uz_game_free(game);
        return CLI_EXIT_FAIL;
    }
    long n = 0;
    while (src.games < game_no && (n = cli_source_next(&src, game)) == 1) {
    }
    if (n < 0)
        goto out;
    if (src.games < game_no) {
        cli_error("%s has only %ld games", src.name, src.games);
        goto out;
    }
    if (cli_analysis_open(&eo, &mo, 0, &a) != 0)
        goto out;
    bool chess960 = uz_game_is_chess960(game);
    if (uz_analysis_run(a, &game, 1, &diag) != UZ_OK) {
        cli_report(src.name, &diag);
        goto out;
    }
    if (chess960 && uz_game_is_text(game))
        goto out; /* an engine without UCI_Chess960 cannot score it: said */
    char desc[256];
    uz_analysis_describe(a, desc, sizeof desc);
    const char *white = uz_game_tag_value(game, "White"), *black = uz_game_tag_value(game, "Black");
    printf("game %ld: %s - %s\nengine: %s\nmodel: %s\n\n", game_no, white ? white : "?", black ? black : "?", desc,
           uz_analysis_model(a)->text);
    double huff = 0, range = 0;
    long plies = (long)uz_analysis_plies(a, 0);
    for (long i = 0; i < plies; i++)
        explain_ply(a, (size_t)i, all, &huff, &range);
    if (plies)
        printf("\n%ld plies: huffman %.0f bits (%.3f bits/move), range %.1f bits (%.3f bits/move)\n", plies, huff,
               huff / plies, range, range / plies);
    status = CLI_EXIT_OK;
out:
    uz_analysis_close(a);
    uz_game_free(game);
    cli_source_close(&src);
    return status;
}
