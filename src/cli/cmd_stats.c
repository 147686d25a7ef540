/* ucizip stats: bits per move of each coding method on a PGN file, the model's top-k
 * hit rates, compression as a function of k and the fitted k. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_inputs.h"
#include "../lib/fit_samples.h"
#include "cli_util.h"
#include "gamecode/gamecode.h"
#include "archive/archive.h"
#include "gamecode/opening.h"

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
    "  --keep-going        skip bad games (each reported) instead of stopping\n"
    "  --progress          progress on stderr even when it is not a terminal\n" CLI_KEEP_QUIET_HELP CLI_ENGINE_HELP CLI_MODEL_HELP;

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
    double range_no_counts; /* the range coder's bits without the opening counts */
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

/* opening: the counts of the games before w in its block (as compress makes blocks of
 * UZ_ARCHIVE_BLOCK_GAMES games), or NULL; w's moves are added to them. */
static int add_walk(stats_totals *t, const uz_walk *w, const uz_model *model, const uz_model *reference,
                    uz_opening *opening, bool engine, uz_fit_samples *st)
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
        t->range_no_counts += uz_coder_cost_bits(UZ_CODER_RANGE, freq, s->n_legal, total, s->played);
        uz_opening_mix(opening, w, i, freq, s->n_legal, total);
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
        if (st && uz_fit_samples_add(st, s->scores, s->n_legal, s->played) != 0)
            return -1;
    }
    return engine && uz_opening_add_walk(opening, w) != UZ_OK ? -1 : 0;
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

/* The command line of one run. */
typedef struct stats_opts {
    bool json, no_engine, fit, keep_going, progress, recursive;
    long max_games;
    const char *dump_path;
    uint32_t sweep[MAX_SWEEP];
    int n_sweep;
    cli_engine_opts eo;
    cli_model_opts mo;
} stats_opts;

/* What the run holds open and what it counts. */
typedef struct stats_run {
    cli_scorer scorer;
    uz_model model, reference;
    uz_opening *opening; /* the current block's opening counts, NULL without */
    stats_totals t;
    uz_fit_samples store;
    uz_game *games;
    uz_walk *walks;
    cli_game_source src;
    /* From the samples, after scoring: */
    double sweep_bits[MAX_SWEEP];
    uz_model_params fitted;
    double fitted_bits;
} stats_run;

/* Parses the options into o; -1 to go on, else the exit status. */
static int parse_stats_args(int argc, char **argv, stats_opts *o)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'},     {"no-engine", no_argument, NULL, 'n'},
        {"k-sweep", required_argument, NULL, 's'}, {"fit-k", no_argument, NULL, 'F'},
        {"keep-going", no_argument, NULL, 'K'},   CLI_KEEP_QUIET_OPTIONS, {"recursive", no_argument, NULL, 'r'},   {"max-games", required_argument, NULL, 'm'}, {"progress", no_argument, NULL, 'p'},
        {"dump", required_argument, NULL, 'd'}, {"help", no_argument, NULL, 'h'}, CLI_ENGINE_OPTIONS,
        CLI_MODEL_OPTIONS,                    {NULL, 0, NULL, 0},
    };
    cli_engine_opts_init(&o->eo);
    cli_model_opts_init(&o->mo);
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "kqrh", options, NULL)) != -1) {
        int h = cli_shared_opt(&o->eo, &o->mo, c, optarg);
        if (h < 0)
            return CLI_EXIT_USAGE;
        if (h)
            continue;
        switch (c) {
        case 'j': o->json = true; break;
        case 'n': o->no_engine = true; break;
        case 's':
            if (parse_sweep(optarg, o->sweep, &o->n_sweep) != 0) {
                cli_error("--k-sweep: expected numbers separated by commas, got '%s'", optarg);
                return CLI_EXIT_USAGE;
            }
            break;
        case 'F': o->fit = true; break;
        case 'd': o->dump_path = optarg; break;
        case 'K': o->keep_going = true; break;
        case 'k': /* zstd's -k and -q: this command removes no input and has no progress */
        case 'q': break;
        case 'r': o->recursive = true; break;
        case 'm':
            if (cli_parse_long("--max-games", optarg, 1, 1L << 40, &o->max_games))
                return CLI_EXIT_USAGE;
            break;
        case 'p': o->progress = true; break;
        case 'h': fputs(stats_usage, stdout); return CLI_EXIT_OK;
        default: fputs(stats_usage, stderr); return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind < 1) {
        fputs(stats_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* Reads every game, scores its walk and adds it to the totals (and samples). 0 or -1. */
static int score_inputs(stats_run *run, const stats_opts *o, bool engine)
{
    cli_progress prog;
    cli_progress_init(&prog, o->progress);
    for (;;) {
        uz_game *batch[BATCH];
        for (int i = 0; i < BATCH; i++)
            batch[i] = &run->games[i];
        long n = cli_source_read(&run->src, batch, BATCH);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        if (engine && cli_scorer_prepare(&o->eo, &run->scorer, run->games, (size_t)n) != 0)
            return -1;
        long ok = 0;
        for (long i = 0; i < n; i++, ok++)
            if (uz_walk_init(&run->walks[i], &run->games[i]) != UZ_OK) {
                cli_error("out of memory");
                break;
            }
        uz_diag diag = {0};
        uz_result r = ok == n ? (engine ? cli_scorer_score(&run->scorer, run->walks, (size_t)n, &diag)
                                                  : uz_score_walks(NULL, NULL, run->walks, (size_t)n, &diag)) : UZ_ERR_NOMEM;
        if (r != UZ_OK && ok == n)
            cli_report(NULL, &diag);
        for (long i = 0; i < ok; i++) {
            if ((run->t.games + i) % UZ_ARCHIVE_BLOCK_GAMES == 0)
                uz_opening_reset(run->opening); /* a new block */
            if (r == UZ_OK && add_walk(&run->t, &run->walks[i], &run->model, &run->reference, run->opening, engine,
                                       (o->n_sweep || o->fit) ? &run->store : NULL) != 0) {
                cli_error("out of memory");
                r = UZ_ERR_NOMEM;
            }
            uz_walk_free(&run->walks[i]);
        }
        if (r != UZ_OK)
            return -1;
        run->t.games += n;
        cli_progress_update(&prog, run->t.games, run->t.plies, 0);
    }
    cli_progress_done(&prog);
    return 0;
}

/* The k sweep's costs and the fitted model, from the scored samples. 0 or -1. */
static int sweep_and_fit(stats_run *run, const stats_opts *o)
{
    uz_model_params fit_start = o->mo.params;
    if (fit_start.kind == UZ_MODEL_PLAYER)
        fit_start.kind = UZ_MODEL_RANK; /* --fit-k fits the rank model */
    run->fitted = fit_start;
    run->fitted_bits = 0;
    if (!o->n_sweep && !o->fit)
        return 0;
    uz_fit_sample *samples = uz_fit_samples_list(&run->store);
    if (!samples) {
        cli_error("out of memory");
        return -1;
    }
    for (int i = 0; i < o->n_sweep; i++) {
        uz_model m;
        uz_model_params p = o->mo.params;
        if (p.kind == UZ_MODEL_PLAYER)
            p.kind = UZ_MODEL_RANK; /* k is the rank model's */
        p.k_milli = o->sweep[i];
        uz_model_init(&m, &p);
        run->sweep_bits[i] = uz_model_total_cost(&m, samples, run->store.n_items);
    }
    if (o->fit && run->store.n_items &&
        uz_model_fit(samples, run->store.n_items, &fit_start, !o->mo.floor_given, &run->fitted, &run->fitted_bits) !=
            UZ_OK) {
        cli_error("fitting failed");
        free(samples);
        return -1;
    }
    free(samples);
    return 0;
}

/* A JSON object of one number per method (bits or bits per move). */
/* The model of params as its JSON object. */
static json_t *stats_model_json(const uz_model_params *params)
{
    uz_lib_model_desc d;
    uz_lib_model_describe(params, &d);
    return cli_model_json(&d.info);
}

static json_t *per_method_json(const double *bits, int n_methods, long plies, bool per_ply)
{
    json_t *o = json_object();
    for (int m = 0; o && m < n_methods; m++)
        json_object_set_new(o, method_names[m], per_ply ? cli_json_fixed(per_move(bits[m], plies), 4)
                                                        : cli_json_fixed(bits[m], 1));
    return o;
}

static int print_stats_json(const stats_run *run, const stats_opts *o, bool engine, const char *name,
                            const cli_paths *inputs, const char *desc)
{
    const stats_totals *t = &run->t;
    int n_methods = engine ? N_METHODS : 2;
    double scored = t->scored ? (double)t->scored : 1.0;
    char kbuf[32];
    json_t *doc = json_object();
    if (!doc)
        return cli_json_print(stdout, NULL);
    cli_json_set_text(doc, "file", name);
    json_object_set_new(doc, "inputs", json_integer((json_int_t)inputs->n));
    json_object_set_new(doc, "games", json_integer(t->games));
    json_object_set_new(doc, "plies", json_integer(t->plies));
    json_object_set_new(doc, "skipped", json_integer(run->src.skipped));
    json_object_set_new(doc, "bits", per_method_json(t->bits, n_methods, t->plies, false));
    json_object_set_new(doc, "bits_per_move", per_method_json(t->bits, n_methods, t->plies, true));
    if (engine) {
        for (int i = 0; i < 3; i++) {
            char key[8];
            snprintf(key, sizeof key, "top%d", i + 1);
            json_object_set_new(doc, key, cli_json_fixed(t->top[i] / scored, 4));
        }
        json_t *e = json_object();
        cli_json_set_text(e, "name", cli_scorer_name(&run->scorer));
        cli_json_set_text(e, "fingerprint", cli_scorer_fingerprint(&run->scorer));
        cli_json_set_text(e, "settings", desc);
        json_object_set_new(doc, "engine", e);
        json_object_set_new(doc, "model", stats_model_json(&run->model.params));
    }
    if (o->n_sweep) {
        json_t *sweep = json_array();
        for (int i = 0; i < o->n_sweep; i++) {
            uz_lib_format_k(o->sweep[i], kbuf, sizeof kbuf);
            json_array_append_new(sweep, json_pack("{s:o, s:o}", "k", json_real(strtod(kbuf, NULL)), "bits_per_move",
                                                   cli_json_fixed(per_move(run->sweep_bits[i], t->plies), 4)));
        }
        json_object_set_new(doc, "k_sweep", sweep);
    }
    if (o->fit) {
        uz_lib_format_k(run->fitted.k_milli, kbuf, sizeof kbuf);
        json_object_set_new(doc, "fit",
                            json_pack("{s:o, s:o, s:o, s:o}", "model", stats_model_json(&run->fitted), "k",
                                      json_real(strtod(kbuf, NULL)), "floor",
                                      cli_json_fixed(run->fitted.floor_q16 / 65536.0, 5), "bits_per_move",
                                      cli_json_fixed(per_move(run->fitted_bits, t->plies), 4)));
    }
    return cli_json_print(stdout, doc);
}

static void print_stats_table(const stats_run *run, const stats_opts *o, bool engine, const char *name,
                              const char *desc)
{
    const stats_totals *t = &run->t;
    int n_methods = engine ? N_METHODS : 2;
    double scored = t->scored ? (double)t->scored : 1.0;
    char kbuf[32];
    printf("%s: %ld games, %ld plies", name, t->games, t->plies);
    if (run->src.skipped)
        printf(", %ld skipped", run->src.skipped);
    printf("\n");
    char mtext[128];
    uz_lib_model_text(&run->model.params, mtext, sizeof mtext);
    if (engine)
        printf("engine: %s (fingerprint %s)\nmodel: %s\n", desc, cli_scorer_fingerprint(&run->scorer), mtext);
    printf("%-10s %14s %10s\n", "method", "bits", "bits/move");
    for (int m = 0; m < n_methods; m++)
        printf("%-10s %14.1f %10.3f\n", method_names[m], t->bits[m], per_move(t->bits[m], t->plies));
    if (engine && run->opening)
        printf("(range without the opening counts: %.1f bits, %.3f bits/move; counts in blocks of %u games)\n",
               t->range_no_counts, per_move(t->range_no_counts, t->plies), UZ_ARCHIVE_BLOCK_GAMES);
    if (engine)
        printf("played move was the model's 1st choice %.1f%%, top 2 %.1f%%, top 3 %.1f%% (of %ld positions "
               "with a choice)\n",
               100 * t->top[0] / scored, 100 * t->top[1] / scored, 100 * t->top[2] / scored, t->scored);
    for (int i = 0; i < o->n_sweep; i++) {
        uz_lib_format_k(o->sweep[i], kbuf, sizeof kbuf);
        printf("k=%-8s %10.3f bits/move\n", kbuf, per_move(run->sweep_bits[i], t->plies));
    }
    if (o->fit) {
        uz_lib_model_text(&run->fitted, mtext, sizeof mtext);
        printf("fitted: %s -> %.3f bits/move\n", mtext, per_move(run->fitted_bits, t->plies));
    }
}

int cmd_stats(int argc, char **argv)
{
    stats_opts o = {0};
    int parsed = parse_stats_args(argc, argv, &o);
    if (parsed >= 0)
        return parsed;
    cli_paths inputs = {0};
    int refused = cli_paths_expand(&inputs, argv + optind, argc - optind, o.recursive, cli_pgn_names);
    if (refused != 0 || inputs.n == 0) {
        if (refused < 0)
            cli_error("out of memory");
        cli_paths_free(&inputs);
        return CLI_EXIT_FAIL;
    }
    if (o.no_engine && (o.n_sweep || o.fit)) {
        cli_error("--k-sweep and --fit-k need the engine; drop --no-engine");
        cli_paths_free(&inputs);
        return CLI_EXIT_USAGE;
    }
    bool engine = !o.no_engine;

    int status = CLI_EXIT_FAIL;
    stats_run run = {0};
    run.games = calloc(BATCH, sizeof *run.games);
    run.walks = calloc(BATCH, sizeof *run.walks);
    if (!run.games || !run.walks) {
        cli_error("out of memory");
        goto free_arrays;
    }
    for (int i = 0; i < BATCH; i++)
        uz_game_init(&run.games[i]);
    uz_diag mdiag = {0};
    uz_model_params ref_params = uz_model_default_params();
    if (uz_model_open(&run.model, &o.mo.params, &mdiag) != UZ_OK || uz_model_init(&run.reference, &ref_params) != UZ_OK) {
        cli_error("%s", mdiag.message);
        goto free_arrays;
    }
    if (o.mo.params.opening_plies &&
        !(run.opening = uz_opening_new(o.mo.params.opening_alpha16, o.mo.params.opening_plies))) {
        cli_error("out of memory");
        goto free_arrays;
    }
    if (cli_source_open_list(&run.src, (const char *const *)inputs.items, inputs.n, o.keep_going) != 0)
        goto free_arrays;
    run.src.max_games = o.max_games;
    if (engine && cli_scorer_open(&o.eo, &run.scorer) != 0)
        goto close_source;
    if (o.dump_path && !(dump_file = fopen(o.dump_path, "w"))) {
        cli_error("%s: cannot create", o.dump_path);
        goto close_pool;
    }
    if (score_inputs(&run, &o, engine) != 0 || sweep_and_fit(&run, &o) != 0)
        goto close_pool;

    char desc[256] = "";
    if (engine)
        cli_scorer_describe(&run.scorer, desc, sizeof desc);
    if (o.json) {
        if (print_stats_json(&run, &o, engine, inputs.n == 1 ? run.src.name : "(several files)", &inputs, desc) != 0)
            goto close_pool;
    } else
        print_stats_table(&run, &o, engine, inputs.n == 1 ? run.src.name : "all files", desc);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("<stdout>: write error");
        goto close_pool;
    }
    status = CLI_EXIT_OK;
close_pool:
    if (dump_file && fclose(dump_file) != 0 && status == CLI_EXIT_OK) {
        cli_error("%s: write error", o.dump_path);
        status = CLI_EXIT_FAIL;
    }
    dump_file = NULL;
    cli_scorer_close(&run.scorer);
close_source:
    if (cli_source_close(&run.src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
free_arrays:
    for (int i = 0; run.games && i < BATCH; i++)
        uz_game_clear(&run.games[i]);
    free(run.games);
    free(run.walks);
    uz_opening_free(run.opening);
    uz_fit_samples_free(&run.store);
    cli_paths_free(&inputs);
    return status;
}
