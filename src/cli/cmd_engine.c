/* "ucizip engine": shows the engine, its settings and fingerprint, and times it; copies
 * the engine store to a directory and back (--export, --import). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_util.h"

/* Typical positions from real games: opening, middlegames, endgames. */
static const char *const timing_fens[] = {
    "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
    "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 1 8",
    "r2q1rk1/1b1nbppp/p2ppn2/1p6/3NP3/1BN1B3/PPPQ1PPP/R4RK1 w - - 4 12",
    "2r2rk1/pp1qbppp/2n1pn2/3p4/3P4/2NBPN2/PP1Q1PPP/2R2RK1 b - - 7 14",
    "r4rk1/1pp1qppp/p1np1n2/4p3/2B1P1b1/2NP1N2/PPP1QPPP/R4RK1 w - - 2 10",
    "8/5pk1/6p1/3R4/p6P/r5P1/5PK1/8 w - - 0 42",
    "6k1/5p2/4p1p1/3pP1P1/1p1P1K2/1P6/8/8 b - - 3 51",
    "4r1k1/p4ppp/1p6/2p5/2P1n3/1P2B3/P4PPP/3R2K1 w - - 0 25",
};
#define N_TIMING (sizeof timing_fens / sizeof timing_fens[0])

static void usage(FILE *f)
{
    fputs("usage: ucizip engine [options]\n"
          "Starts the engine, prints its name, settings and fingerprint, and times it.\n"
          CLI_ENGINE_HELP
          "  --positions N       positions to time (1..8, default 8)\n"
          "  --export DIR        copy every engine of the engine store into DIR (kept beside\n"
          "                      the archives; no engine is started)\n"
          "  --import DIR        copy the engines of DIR (made by --export) into the engine store\n"
          "  --json              one JSON object instead of text\n"
          CLI_KEEP_QUIET_HELP
          "  -h, --help          this help\n",
          f);
}

/* Parses the options; -1 to go on, else the exit status. */
static int parse_engine_args(int argc, char **argv, cli_engine_opts *eo, bool *json, long *n_pos,
                             const char **export_dir, const char **import_dir)
{
    enum { OPT_JSON = 2000, OPT_POSITIONS, OPT_EXPORT, OPT_IMPORT };
    static const struct option longopts[] = {
        CLI_ENGINE_OPTIONS,
        {"json", no_argument, NULL, OPT_JSON},
        {"positions", required_argument, NULL, OPT_POSITIONS},
        {"export", required_argument, NULL, OPT_EXPORT},
        {"import", required_argument, NULL, OPT_IMPORT},
        {"help", no_argument, NULL, 'h'},
        CLI_KEEP_QUIET_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", longopts, NULL)) != -1) {
        int r = cli_engine_opt(eo, c, optarg);
        if (r < 0)
            return CLI_EXIT_USAGE;
        if (r > 0)
            continue;
        if (c == 'k' || c == 'q') {
            /* zstd's -k and -q: nothing to keep or silence here */
        } else if (c == OPT_JSON) {
            *json = true;
        } else if (c == OPT_EXPORT || c == OPT_IMPORT) {
            *(c == OPT_EXPORT ? export_dir : import_dir) = optarg;
        } else if (c == OPT_POSITIONS) {
            if (cli_parse_long("--positions", optarg, 1, (long)N_TIMING, n_pos))
                return CLI_EXIT_USAGE;
        } else if (c == 'h') {
            usage(stdout);
            return CLI_EXIT_OK;
        } else {
            usage(stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind < argc) {
        cli_error("engine: unexpected argument '%s'", argv[optind]);
        return CLI_EXIT_USAGE;
    }
    if (*export_dir && *import_dir) {
        cli_error("engine: --export and --import: one at a time");
        return CLI_EXIT_USAGE;
    }
    return -1;
}

/* Each engine --import met: name, fingerprint, SHA-256 and what became of it. */
static void print_imported(void *user, const uz_imported_engine *e)
{
    (void)user;
    fputs("ucizip: ", stderr);
    cli_put_escaped(stderr, e->engine_name); /* (the copy's text) */
    fprintf(stderr, ", fingerprint %s, SHA-256 %s: ", e->fingerprint, e->sha256);
    cli_put_escaped(stderr, e->outcome);
    fputc('\n', stderr);
}

/* --export DIR / --import DIR: the engine store copied to DIR or from it. An import that
 * refused an engine fails (exit 1) after the others are in. */
static int copy_store(const char *export_dir, const char *import_dir)
{
    char store[4096];
    uz_diag diag = {0};
    int copied = 0, refused = 0;
    uz_result r = uz_engine_store_location(store, sizeof store, &diag);
    if (r == UZ_OK)
        r = export_dir ? uz_engine_store_export(export_dir, &copied, &diag)
                       : uz_engine_store_import(import_dir, print_imported, NULL, &copied, &refused, &diag);
    if (r != UZ_OK) {
        cli_error("engine store: %s", diag.message);
        return CLI_EXIT_FAIL;
    }
    if (export_dir)
        fprintf(stderr, "ucizip: %d engine%s copied from %s to %s", copied, copied == 1 ? "" : "s", store,
                export_dir);
    else
        fprintf(stderr, "ucizip: %d engine%s added to %s from %s", copied, copied == 1 ? "" : "s", store,
                import_dir);
    if (refused)
        fprintf(stderr, "; %d refused", refused);
    fputc('\n', stderr);
    return refused ? CLI_EXIT_FAIL : CLI_EXIT_OK;
}

/* What was measured: wall and engine-reported search time per position. */
typedef struct engine_timing {
    double per_pos_ms, search_per_pos_ms;
    long n_pos;
} engine_timing;

/* Scores the first n timing positions one after the other. 0 or -1 (reported). */
static int time_positions(uz_analysis *a, long n, engine_timing *tm)
{
    double t1 = cli_now();
    for (long i = 0; i < n; i++) {
        uz_diag diag = {0};
        if (uz_analysis_score_fen(a, timing_fens[i], &diag) != UZ_OK) {
            cli_report(NULL, &diag);
            return -1;
        }
    }
    double wall_ms = (cli_now() - t1) * 1000.0;
    uz_engine_info info;
    uz_analysis_engine_info(a, &info);
    tm->n_pos = n;
    tm->per_pos_ms = wall_ms / (double)n;
    tm->search_per_pos_ms = info.search_ms / (double)n;
    return 0;
}

static int print_engine_json(const uz_engine_info *e, const char *desc, const engine_timing *tm)
{
    json_t *o = json_object();
    if (!o)
        return cli_json_print(stdout, NULL);
    cli_json_set_text(o, "name", e->name);
    if (e->builtin) {
        json_object_set_new(o, "builtin", json_integer(e->builtin_version));
        json_object_set_new(o, "depth", json_integer(e->depth));
        cli_json_set_text(o, "fingerprint", e->fingerprint);
        cli_json_set_text(o, "description", desc);
        cli_json_set_text(o, "settings", e->settings_text);
        json_object_set_new(o, "startup_ms", cli_json_fixed(e->startup_ms, 1));
        json_object_set_new(o, "positions", json_integer(tm->n_pos));
        json_object_set_new(o, "ms_per_position", cli_json_fixed(tm->per_pos_ms, 3));
        return cli_json_print(stdout, o);
    }
    cli_json_set_text(o, "path", e->path);
    cli_json_set_text(o, "profile", e->profile);
    cli_json_set_text(o, "fingerprint", e->fingerprint);
    cli_json_set_text(o, "description", desc);
    cli_json_set_text(o, "settings", e->settings_text);
    json_object_set_new(o, "mode", json_string(e->mode));
    json_object_set_new(o, "depth", json_integer(e->depth));
    json_object_set_new(o, "nodes", json_integer(e->nodes));
    json_object_set_new(o, "hash_mb", json_integer(e->hash_mb));
    json_object_set_new(o, "threads", json_integer(e->threads));
    json_object_set_new(o, "max_multipv", json_integer(e->max_multipv));
    json_object_set_new(o, "searchmoves_supported", json_boolean(e->searchmoves_supported));
    json_object_set_new(o, "startup_ms", cli_json_fixed(e->startup_ms, 1));
    json_object_set_new(o, "positions", json_integer(tm->n_pos));
    json_object_set_new(o, "ms_per_position", cli_json_fixed(tm->per_pos_ms, 2));
    json_object_set_new(o, "search_ms_per_position", cli_json_fixed(tm->search_per_pos_ms, 2));
    return cli_json_print(stdout, o);
}

static void print_engine_text(const uz_engine_info *e, const char *desc, const engine_timing *tm)
{
    if (e->builtin) {
        printf("engine:       %s (built in: no engine process)\n", e->name);
        printf("settings:     %s\n", desc);
        printf("fingerprint:  %s\n", e->fingerprint);
        printf("startup:      %.1f ms\n", e->startup_ms);
        printf("time:         %.3f ms/position over %ld positions\n", tm->per_pos_ms, tm->n_pos);
    } else {
        printf("engine:       %s\n", e->name);
        printf("path:         %s\n", e->path);
        if (e->profile[0])
            printf("profile:      %s\n", e->profile);
        printf("settings:     %s\n", desc);
        printf("fingerprint:  %s\n", e->fingerprint);
        printf("searchmoves:  %s\n", e->searchmoves_supported ? "supported" : "ignored by the engine");
        printf("startup:      %.1f ms (start, handshake, probes)\n", e->startup_ms);
        printf("time:         %.2f ms/position over %ld positions (engine-reported search %.2f ms)\n",
               tm->per_pos_ms, tm->n_pos, tm->search_per_pos_ms);
    }
    printf("recorded settings:\n");
    for (const char *t = e->settings_text; *t;) {
        const char *nl = strchr(t, '\n');
        int len = nl ? (int)(nl - t) : (int)strlen(t);
        printf("  %.*s\n", len, t);
        t += len + (nl ? 1 : 0);
    }
}

int cmd_engine(int argc, char **argv)
{
    cli_engine_opts eo;
    cli_engine_opts_init(&eo);
    bool json = false;
    long n_pos = (long)N_TIMING;
    const char *export_dir = NULL, *import_dir = NULL;
    int parsed = parse_engine_args(argc, argv, &eo, &json, &n_pos, &export_dir, &import_dir);
    if (parsed >= 0)
        return parsed;
    if (export_dir || import_dir)
        return copy_store(export_dir, import_dir);
    if (eo.workers < 0)
        eo.workers = 1; /* timing is per position on one engine */
    cli_model_opts mo;
    cli_model_opts_init(&mo);
    uz_analysis *a = NULL;
    if (cli_analysis_open(&eo, &mo, 0, &a) != 0)
        return CLI_EXIT_FAIL;
    engine_timing tm = {0};
    int status = CLI_EXIT_FAIL;
    if (time_positions(a, n_pos, &tm) == 0) {
        uz_engine_info info;
        uz_analysis_engine_info(a, &info);
        char desc[512];
        uz_analysis_describe(a, desc, info.builtin ? 256 : sizeof desc);
        status = CLI_EXIT_OK;
        if (json)
            status = print_engine_json(&info, desc, &tm) == 0 ? CLI_EXIT_OK : CLI_EXIT_FAIL;
        else
            print_engine_text(&info, desc, &tm);
    }
    uz_analysis_close(a);
    return status;
}
