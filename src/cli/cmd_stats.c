/* ucizip stats: bits per move of each coding method on a PGN file, the model's top-k
 * hit rates, compression as a function of k and the fitted k. */
#include <getopt.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_inputs.h"
#include "cli_util.h"

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

/* The methods, priced by the library per move (uz_ply_analysis): ideal is -log2 p of the
 * unfloored model in floating point; reference the range coder with the rank model at its
 * default parameters (the default before the player model), beside whatever model is
 * chosen. */
enum { METHOD_FROMTO, METHOD_INDEX, METHOD_HUFFMAN, METHOD_RANGE, METHOD_IDEAL, METHOD_REFERENCE, N_METHODS };
static const char *const method_names[N_METHODS] = {"fromto", "index", "huffman", "range", "ideal", "reference"};

typedef struct stats_totals {
    long games, plies, scored;
    double bits[N_METHODS];
    double range_no_counts; /* the range coder's bits without the opening counts */
    long top[3];
} stats_totals;

/* One line per scored main-line position: the played index, the move count, the scores
 * in canonical move order. For model research outside the program. */
static FILE *dump_file;

static void dump_position(const uz_ply_analysis *p)
{
    fprintf(dump_file, "%d %d", p->played, p->n_legal);
    for (int i = 0; i < p->n_legal; i++)
        fprintf(dump_file, " %d", (int)p->scores[i]);
    fputc('\n', dump_file);
}

/* Adds the moves of game g of the session's last run to the totals. */
static void add_game(stats_totals *t, const uz_analysis *a, size_t g)
{
    size_t n = uz_analysis_plies(a, g);
    for (size_t i = 0; i < n; i++) {
        const uz_ply_analysis *p = uz_analysis_ply(a, g, i);
        t->plies++;
        t->bits[METHOD_FROMTO] += p->fromto;
        t->bits[METHOD_INDEX] += p->index;
        if (!p->scores)
            continue;
        t->bits[METHOD_REFERENCE] += p->reference;
        t->range_no_counts += p->range_no_counts;
        t->bits[METHOD_HUFFMAN] += p->huffman;
        t->bits[METHOD_RANGE] += p->range;
        t->bits[METHOD_IDEAL] += p->ideal;
        for (int k = p->rank - 1; k >= 0 && k < 3; k++)
            t->top[k]++;
        t->scored++;
        if (dump_file)
            dump_position(p);
    }
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
        k_milli[(*n)++] = (uint32_t)m.k_milli;
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
    uz_analysis *analysis;
    stats_totals t;
    uz_game *games[BATCH];
    cli_game_source src;
    /* From the scored positions, after scoring: */
    double sweep_bits[MAX_SWEEP];
    const uz_model_info *fitted;
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

/* Reads every game, scores it and adds it to the totals. 0 or -1. */
static int score_inputs(stats_run *run, const stats_opts *o)
{
    cli_progress prog;
    cli_progress_init(&prog, o->progress);
    for (;;) {
        long n = cli_source_read(&run->src, run->games, BATCH);
        if (n < 0)
            return -1;
        if (n == 0)
            break;
        uz_diag diag = {0};
        if (uz_analysis_run(run->analysis, run->games, (size_t)n, &diag) != UZ_OK) {
            cli_report(NULL, &diag);
            return -1;
        }
        for (long i = 0; i < n; i++)
            add_game(&run->t, run->analysis, (size_t)i);
        run->t.games += n;
        cli_progress_update(&prog, run->t.games, run->t.plies, 0);
    }
    cli_progress_done(&prog);
    return 0;
}

/* The k sweep's costs and the fitted model, from the scored positions. 0 or -1. */
static int sweep_and_fit(stats_run *run, const stats_opts *o)
{
    uz_diag diag = {0};
    uz_result r = UZ_OK;
    if (o->n_sweep)
        r = uz_analysis_sweep_k(run->analysis, o->sweep, (size_t)o->n_sweep, run->sweep_bits, &diag);
    if (r == UZ_OK && o->fit)
        r = uz_analysis_fit(run->analysis, !o->mo.floor_given, &run->fitted, &run->fitted_bits, &diag);
    if (r == UZ_ERR_NOMEM)
        cli_error("out of memory");
    else if (r != UZ_OK)
        cli_error("fitting failed");
    return r == UZ_OK ? 0 : -1;
}

/* A JSON object of one number per method (bits or bits per move). */
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
        cli_json_set_text(e, "name", uz_analysis_engine_name(run->analysis));
        cli_json_set_text(e, "fingerprint", uz_analysis_fingerprint(run->analysis));
        cli_json_set_text(e, "settings", desc);
        json_object_set_new(doc, "engine", e);
        json_object_set_new(doc, "model", cli_model_json(uz_analysis_model(run->analysis)));
    }
    if (o->n_sweep) {
        json_t *sweep = json_array();
        for (int i = 0; i < o->n_sweep; i++) {
            uz_format_k(o->sweep[i], kbuf, sizeof kbuf);
            json_array_append_new(sweep, json_pack("{s:o, s:o}", "k", json_real(strtod(kbuf, NULL)), "bits_per_move",
                                                   cli_json_fixed(per_move(run->sweep_bits[i], t->plies), 4)));
        }
        json_object_set_new(doc, "k_sweep", sweep);
    }
    if (o->fit) {
        json_object_set_new(doc, "fit",
                            json_pack("{s:o, s:o, s:o, s:o}", "model", cli_model_json(run->fitted), "k",
                                      json_real(strtod(run->fitted->k, NULL)), "floor",
                                      cli_json_fixed(run->fitted->floor_q16 / 65536.0, 5), "bits_per_move",
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
    if (engine)
        printf("engine: %s (fingerprint %s)\nmodel: %s\n", desc, uz_analysis_fingerprint(run->analysis),
               uz_analysis_model(run->analysis)->text);
    printf("%-10s %14s %10s\n", "method", "bits", "bits/move");
    for (int m = 0; m < n_methods; m++)
        printf("%-10s %14.1f %10.3f\n", method_names[m], t->bits[m], per_move(t->bits[m], t->plies));
    if (engine && uz_analysis_has_opening_counts(run->analysis))
        printf("(range without the opening counts: %.1f bits, %.3f bits/move; counts in blocks of %u games)\n",
               t->range_no_counts, per_move(t->range_no_counts, t->plies), uz_analysis_block_games(run->analysis));
    if (engine)
        printf("played move was the model's 1st choice %.1f%%, top 2 %.1f%%, top 3 %.1f%% (of %ld positions "
               "with a choice)\n",
               100 * t->top[0] / scored, 100 * t->top[1] / scored, 100 * t->top[2] / scored, t->scored);
    for (int i = 0; i < o->n_sweep; i++) {
        uz_format_k(o->sweep[i], kbuf, sizeof kbuf);
        printf("k=%-8s %10.3f bits/move\n", kbuf, per_move(run->sweep_bits[i], t->plies));
    }
    if (o->fit)
        printf("fitted: %s -> %.3f bits/move\n", run->fitted->text, per_move(run->fitted_bits, t->plies));
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
    long made = 0;
    for (; made < BATCH; made++) {
        uz_diag gdiag = {0};
        if (uz_game_new(&run.games[made], &gdiag) != UZ_OK) {
            cli_error("out of memory");
            goto free_games;
        }
    }
    unsigned flags = (engine ? 0 : UZ_ANALYSIS_NO_ORACLE) | (o.n_sweep || o.fit ? UZ_ANALYSIS_KEEP_SAMPLES : 0);
    if (cli_source_open_list(&run.src, (const char *const *)inputs.items, inputs.n, o.keep_going) != 0)
        goto free_games;
    run.src.max_games = o.max_games;
    if (cli_analysis_open(&o.eo, &o.mo, flags, &run.analysis) != 0)
        goto close_source;
    if (o.dump_path && !(dump_file = fopen(o.dump_path, "w"))) {
        cli_error("%s: cannot create", o.dump_path);
        goto close_analysis;
    }
    if (score_inputs(&run, &o) != 0 || sweep_and_fit(&run, &o) != 0)
        goto close_analysis;

    char desc[256] = "";
    uz_analysis_describe(run.analysis, desc, sizeof desc);
    if (o.json) {
        if (print_stats_json(&run, &o, engine, inputs.n == 1 ? run.src.name : "(several files)", &inputs, desc) != 0)
            goto close_analysis;
    } else
        print_stats_table(&run, &o, engine, inputs.n == 1 ? run.src.name : "all files", desc);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        cli_error("<stdout>: write error");
        goto close_analysis;
    }
    status = CLI_EXIT_OK;
close_analysis:
    if (dump_file && fclose(dump_file) != 0 && status == CLI_EXIT_OK) {
        cli_error("%s: write error", o.dump_path);
        status = CLI_EXIT_FAIL;
    }
    dump_file = NULL;
    uz_analysis_close(run.analysis);
close_source:
    if (cli_source_close(&run.src) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
free_games:
    for (long i = 0; i < made; i++)
        uz_game_free(run.games[i]);
    cli_paths_free(&inputs);
    return status;
}
