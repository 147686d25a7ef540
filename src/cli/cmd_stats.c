/* ucizip stats: bits per move of each coding method on a PGN file, the model's top-k
 * hit rates, compression as a function of k and the fitted k. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_inputs.h"
#include "cli_samples.h"
#include "cli_util.h"
#include "ucizip/gamecode.h"

static const char stats_usage[] =
    "usage: ucizip stats FILE... [options]\n"
    "FILEs are PGN, plain or zstd/gzip/bzip2/xz-compressed, or '-'; all are counted together.\n"
    "  -r, --recursive     read the .pgn[.zst|.gz|.bz2|.xz] files under directories\n"
    "  --json              one JSON object instead of a table\n"
    "  --no-engine         only the methods that need no engine (fromto, index)\n"
    "  --k-sweep K,K,...   bits/move of the range coder (ideal cost) for each k, the other\n"
    "                      model parameters as given\n"
    "  --fit-k             also fit the model (k, floor, rank, decay) to this file\n"
    "  --dump FILE         write each scored position (played index, move count, scores)\n"
    "  --max-games N       only the first N games\n"
    "  -k, --keep-going    skip bad games (each reported) instead of stopping\n"
    "  --progress          progress on stderr even when it is not a terminal\n" CLI_ENGINE_HELP CLI_MODEL_HELP;

#define BATCH 64
#define MAX_SWEEP 32

/* ideal: -log2 p of the unfloored model p ~ k^(score/100) in floating point, what an
 * exact arithmetic coder would pay (analysis only; the coded path is integer). */
/* reference: the range coder with the rank model at its default parameters (the default
 * before the player model), beside whatever model is chosen. */
enum { METHOD_FROMTO, METHOD_INDEX, METHOD_HUFFMAN, METHOD_RANGE, METHOD_IDEAL, METHOD_REFERENCE, N_METHODS };
static const char *const method_names[N_METHODS] = {"fromto", "index", "huffman", "range", "ideal", "reference"};

typedef struct stats_totals {
    long games, plies, scored;
    double bits[N_METHODS];
    long top[3];
} stats_totals;

static int index_bits(int n)
{
    int b = 0;
    while ((1 << b) < n)
        b++;
    return b;
}

static double ideal_bits(const uz_model *model, const int32_t *scores, int n, int played)
{
    double k = model->params.k_milli / 1000.0, vmax = -1e9, sum = 0;
    for (int i = 0; i < n; i++)
        if (uz_model_normalize_score(scores[i]) > vmax)
            vmax = uz_model_normalize_score(scores[i]);
    for (int i = 0; i < n; i++)
        sum += pow(k, (uz_model_normalize_score(scores[i]) - vmax) / 100.0);
    return -log2(pow(k, (uz_model_normalize_score(scores[played]) - vmax) / 100.0) / sum);
}

/* One line per scored main-line position: the played index, the move count, the scores
 * in canonical move order. For model research outside the program. */
static FILE *dump_file;

static void dump_position(const uz_step *s)
{
    fprintf(dump_file, "%d %d", s->played, s->n_legal);
    for (int i = 0; i < s->n_legal; i++)
        fprintf(dump_file, " %d", (int)s->scores[i]);
    fputc('\n', dump_file);
}

/* Rank (1 = first) of the played move by frequency, ties by lower index. */
static int freq_rank(const uint32_t *freq, int n, int played)
{
    int rank = 1;
    for (int i = 0; i < n; i++)
        rank += freq[i] > freq[played] || (freq[i] == freq[played] && i < played);
    return rank;
}

static int add_walk(stats_totals *t, const uz_walk *w, const uz_model *model, const uz_model *reference, bool engine,
                    cli_samples *st)
{
    uint32_t freq[UZ_MAX_MOVES];
    for (size_t i = 0; i < w->n_steps; i++) {
        const uz_step *s = &w->steps[i];
        if (!s->main_line || s->node->move == UZ_MOVE_NULL)
            continue;
        t->plies++;
        t->bits[METHOD_FROMTO] += 12;
        t->bits[METHOD_INDEX] += index_bits(s->n_legal);
        if (!engine || s->n_legal < 2)
            continue;
        const uz_move *legal = uz_walk_legal(w, i);
        uint32_t total = uz_model_frequencies(reference, s->scores, s->n_legal, freq);
        t->bits[METHOD_REFERENCE] += uz_coder_cost_bits(UZ_CODER_RANGE, freq, s->n_legal, total, s->played);
        total = uz_step_frequencies(model, w, i, legal, s->scores, s->n_legal, freq);
        t->bits[METHOD_HUFFMAN] += uz_coder_cost_bits(UZ_CODER_HUFFMAN, freq, s->n_legal, total, s->played);
        t->bits[METHOD_RANGE] += uz_coder_cost_bits(UZ_CODER_RANGE, freq, s->n_legal, total, s->played);
        t->bits[METHOD_IDEAL] += ideal_bits(model, s->scores, s->n_legal, s->played);
        int rank = model->params.kind == UZ_MODEL_PLAYER ? freq_rank(freq, s->n_legal, s->played)
                                                         : uz_model_rank(model, s->scores, s->n_legal, s->played);
        for (int k = rank - 1; k >= 0 && k < 3; k++)
            t->top[k]++;
        t->scored++;
        if (dump_file)
            dump_position(s);
        if (st && cli_samples_add(st, s->scores, s->n_legal, s->played) != 0)
            return -1;
    }
    return 0;
}

static int parse_sweep(const char *text, uint32_t *k_milli, int *n)
{
    char *copy = strdup(text), *save = NULL;
    if (!copy)
        return -1;
    *n = 0;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        cli_model_opts m;
        cli_model_opts_init(&m);
        if (*n == MAX_SWEEP || cli_model_opt(&m, OPT_K, tok) != 1) {
            if (*n == MAX_SWEEP)
                cli_error("--k-sweep: at most %d values", MAX_SWEEP);
            free(copy);
            return -1;
        }
        k_milli[(*n)++] = m.params.k_milli;
    }
    free(copy);
    return *n ? 0 : -1;
}

static double per_move(double bits, long plies)
{
    return plies ? bits / (double)plies : 0.0;
}

int cmd_stats(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},     {"no-engine", no_argument, NULL, 'n'},
        {"k-sweep", required_argument, NULL, 's'}, {"fit-k", no_argument, NULL, 'F'},
        {"keep-going", no_argument, NULL, 'k'},   {"recursive", no_argument, NULL, 'r'},   {"max-games", required_argument, NULL, 'm'}, {"progress", no_argument, NULL, 'p'},
        {"dump", required_argument, NULL, 'd'}, {"help", no_argument, NULL, 'h'}, CLI_ENGINE_OPTIONS,
        CLI_MODEL_OPTIONS,                    {NULL, 0, NULL, 0},
    };
    bool json = false, no_engine = false, fit = false, keep_going = false, progress = false, recursive = false;
    long max_games = 0;
    const char *dump_path = NULL;
    uint32_t sweep[MAX_SWEEP];
    int n_sweep = 0;
    cli_engine_opts eo;
    cli_model_opts mo;
    cli_engine_opts_init(&eo);
    cli_model_opts_init(&mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "krh", options, NULL)) != -1) {
        int h = cli_shared_opt(&eo, &mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'j': json = true; break;
        case 'n': no_engine = true; break;
        case 's':
            if (parse_sweep(optarg, sweep, &n_sweep) != 0) {
                cli_error("--k-sweep: expected numbers separated by commas, got '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'F': fit = true; break;
        case 'd': dump_path = optarg; break;
        case 'k': keep_going = true; break;
        case 'r': recursive = true; break;
        case 'm':
            if (cli_parse_long("--max-games", optarg, 1, 1L << 40, &max_games))
                return CLI_EXIT_USAGE;
            break;
        case 'p': progress = true; break;
        case 'h': fputs(stats_usage, stdout); return CLI_EXIT_OK;
        default: fputs(stats_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind < 1) {
        fputs(stats_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    cli_paths inputs = {0};
    int refused = cli_paths_expand(&inputs, argv + optind, argc - optind, recursive, cli_pgn_names);
    if (refused != 0 || inputs.n == 0) {
        if (refused < 0)
            cli_error("out of memory");
        cli_paths_free(&inputs);
        return CLI_EXIT_FAIL;
    }
    if (no_engine && (n_sweep || fit)) {
        cli_error("--k-sweep and --fit-k need the engine; drop --no-engine");
        cli_paths_free(&inputs);
        return CLI_EXIT_USAGE;
    }
    bool engine = !no_engine;

    int status = CLI_EXIT_FAIL;
    uz_pool *pool = NULL, *pool960 = NULL;
    bool tried960 = false;
    uz_model model;
    stats_totals t = {0};
    cli_samples store = {0};
    uz_game *games = calloc(BATCH, sizeof *games);
    uz_walk *walks = calloc(BATCH, sizeof *walks);
    cli_game_source src;
    cli_progress prog;
    if (!games || !walks) {
        cli_error("out of memory");
        goto free_arrays;
    }
    for (int i = 0; i < BATCH; i++)
        uz_game_init(&games[i]);
    uz_diag mdiag = {0};
    uz_model reference;
    uz_model_params ref_params = uz_model_default_params();
    if (uz_model_open(&model, &mo.params, &mdiag) != UZ_OK || uz_model_init(&reference, &ref_params) != UZ_OK) {
        cli_error("%s", mdiag.message);
        goto free_arrays;
    }
    if (cli_source_open_list(&src, (const char *const *)inputs.items, inputs.n, keep_going) != 0)
        goto free_arrays;
    src.max_games = max_games;
    if (engine && cli_pool_open(&eo, &pool) != 0)
        goto close_source;
    if (dump_path && !(dump_file = fopen(dump_path, "w"))) {
        cli_error("%s: cannot create", dump_path);
        goto close_pool;
    }
    cli_progress_init(&prog, progress);

    for (;;) {
        long n = cli_source_read(&src, games, BATCH);
        if (n < 0)
            goto close_pool;
        if (n == 0)
            break;
        if (engine && cli_has_chess960(games, n)) {
            if (!tried960 && cli_pool960_open(&eo, pool, &pool960) != 0)
                goto close_pool;
            tried960 = true;
            if (!pool960 && cli_chess960_as_text(games, n) != 0) /* nothing to score them with */
                goto close_pool;
        }
        long ok = 0;
        for (long i = 0; i < n; i++, ok++)
            if (uz_walk_init(&walks[i], &games[i]) != UZ_OK) {
                cli_error("out of memory");
                break;
            }
        uz_diag diag = {0};
        uz_result r = ok == n ? uz_score_walks_960(pool, pool960, walks, (size_t)n, &diag) : UZ_ERR_NOMEM;
        if (r != UZ_OK && ok == n)
            cli_report(NULL, &diag);
        for (long i = 0; i < ok; i++) {
            if (r == UZ_OK && add_walk(&t, &walks[i], &model, &reference, engine, (n_sweep || fit) ? &store : NULL) != 0) {
                cli_error("out of memory");
                r = UZ_ERR_NOMEM;
            }
            uz_walk_free(&walks[i]);
        }
        if (r != UZ_OK)
            goto close_pool;
        t.games += n;
        cli_progress_update(&prog, t.games, t.plies, 0);
    }
    cli_progress_done(&prog);

    uz_fit_sample *samples = NULL;
    double sweep_bits[MAX_SWEEP];
    uz_model_params fit_start = mo.params, fitted;
    if (fit_start.kind == UZ_MODEL_PLAYER)
        fit_start.kind = UZ_MODEL_RANK; /* --fit-k fits the rank model */
    fitted = fit_start;
    double fitted_bits = 0;
    if (n_sweep || fit) {
        samples = cli_samples_list(&store);
        if (!samples) {
            cli_error("out of memory");
            goto close_pool;
        }
        for (int i = 0; i < n_sweep; i++) {
            uz_model m;
            uz_model_params p = mo.params;
            if (p.kind == UZ_MODEL_PLAYER)
                p.kind = UZ_MODEL_RANK; /* k is the rank model's */
            p.k_milli = sweep[i];
            uz_model_init(&m, &p);
            sweep_bits[i] = uz_model_total_cost(&m, samples, store.n_items);
        }
        if (fit && store.n_items &&
            uz_model_fit(samples, store.n_items, &fit_start, !mo.floor_given, &fitted, &fitted_bits) != UZ_OK) {
            cli_error("fitting failed");
            free(samples);
            goto close_pool;
        }
        free(samples);
    }

    char kbuf[32], desc[256] = "";
    cli_format_k(mo.params.k_milli, kbuf, sizeof kbuf);
    if (pool)
        uz_pool_describe(pool, desc, sizeof desc);
    int n_methods = engine ? N_METHODS : 2;
    double scored = t.scored ? (double)t.scored : 1.0;
    if (json) {
        printf("{\"file\":");
        cli_json_string(inputs.n == 1 ? src.name : "(several files)");
        printf(",\"games\":%ld,\"plies\":%ld,\"skipped\":%ld", t.games, t.plies, src.skipped);
        printf(",\"bits\":{");
        for (int m = 0; m < n_methods; m++)
            printf("%s\"%s\":%.1f", m ? "," : "", method_names[m], t.bits[m]);
        printf("},\"bits_per_move\":{");
        for (int m = 0; m < n_methods; m++)
            printf("%s\"%s\":%.4f", m ? "," : "", method_names[m], per_move(t.bits[m], t.plies));
        printf("}");
        if (engine) {
            printf(",\"top1\":%.4f,\"top2\":%.4f,\"top3\":%.4f", t.top[0] / scored, t.top[1] / scored,
                   t.top[2] / scored);
            printf(",\"engine\":{\"name\":");
            cli_json_string(uz_pool_engine_name(pool));
            printf(",\"fingerprint\":\"%s\",\"settings\":", uz_pool_fingerprint(pool));
            cli_json_string(desc);
            printf("},\"model\":");
            cli_model_json(&model.params);
        }
        if (n_sweep) {
            printf(",\"k_sweep\":[");
            for (int i = 0; i < n_sweep; i++) {
                cli_format_k(sweep[i], kbuf, sizeof kbuf);
                printf("%s{\"k\":%s,\"bits_per_move\":%.4f}", i ? "," : "", kbuf, per_move(sweep_bits[i], t.plies));
            }
            printf("]");
        }
        if (fit) {
            printf(",\"fit\":{\"model\":");
            cli_model_json(&fitted);
            cli_format_k(fitted.k_milli, kbuf, sizeof kbuf);
            printf(",\"k\":%s,\"floor\":%.5f,\"bits_per_move\":%.4f}", kbuf, fitted.floor_q16 / 65536.0,
                   per_move(fitted_bits, t.plies));
        }
        printf("}\n");
    } else {
        printf("%s: %ld games, %ld plies", inputs.n == 1 ? src.name : "all files", t.games, t.plies);
        if (src.skipped)
            printf(", %ld skipped", src.skipped);
        printf("\n");
        char mtext[128];
        cli_model_text(&model.params, mtext, sizeof mtext);
        if (engine)
            printf("engine: %s (fingerprint %s)\nmodel: %s\n", desc, uz_pool_fingerprint(pool), mtext);
        printf("%-10s %14s %10s\n", "method", "bits", "bits/move");
        for (int m = 0; m < n_methods; m++)
            printf("%-10s %14.1f %10.3f\n", method_names[m], t.bits[m], per_move(t.bits[m], t.plies));
        if (engine)
            printf("played move was the model's 1st choice %.1f%%, top 2 %.1f%%, top 3 %.1f%% (of %ld positions "
                   "with a choice)\n",
                   100 * t.top[0] / scored, 100 * t.top[1] / scored, 100 * t.top[2] / scored, t.scored);
        for (int i = 0; i < n_sweep; i++) {
            cli_format_k(sweep[i], kbuf, sizeof kbuf);
            printf("k=%-8s %10.3f bits/move\n", kbuf, per_move(sweep_bits[i], t.plies));
        }
        if (fit) {
            cli_model_text(&fitted, mtext, sizeof mtext);
            printf("fitted: %s -> %.3f bits/move\n", mtext, per_move(fitted_bits, t.plies));
        }
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("<stdout>: write error");
        goto close_pool;
    }
    status = CLI_EXIT_OK;
close_pool:
    if (dump_file && fclose(dump_file) != 0 && status == CLI_EXIT_OK) {
        cli_error("%s: write error", dump_path);
        status = CLI_EXIT_FAIL;
    }
    dump_file = NULL;
    uz_pool_destroy(pool960);
    uz_pool_destroy(pool);
close_source:
    if (cli_source_close(&src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
free_arrays:
    for (int i = 0; games && i < BATCH; i++)
        uz_game_clear(&games[i]);
    free(games);
    free(walks);
    cli_samples_free(&store);
    cli_paths_free(&inputs);
    return status;
}
