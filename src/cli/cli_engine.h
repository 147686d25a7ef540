/* Command-line options shared by the subcommands that run an engine or a model:
 * --engine, --depth, --nodes, --mode, --hash, --workers, --k, --floor, --coder. */
#ifndef UCIZIP_CLI_ENGINE_H
#define UCIZIP_CLI_ENGINE_H

#include <getopt.h>
#include <stdbool.h>

#include "cli_json.h"
#include "cli_util.h"

enum {
    OPT_ENGINE = 1000,
    OPT_DEPTH,
    OPT_NODES,
    OPT_MODE,
    OPT_HASH,
    OPT_WORKERS,
    OPT_K,
    OPT_FLOOR,
    OPT_CODER,
    OPT_MODEL,
    OPT_RANK,
    OPT_DECAY,
    OPT_CACHE,
    OPT_OPENING,
    OPT_BOOK,
};

#define CLI_ENGINE_OPTIONS                                                                        \
    {"engine", required_argument, NULL, OPT_ENGINE}, {"depth", required_argument, NULL, OPT_DEPTH}, \
        {"nodes", required_argument, NULL, OPT_NODES}, {"mode", required_argument, NULL, OPT_MODE},   \
        {"hash", required_argument, NULL, OPT_HASH}, {"workers", required_argument, NULL, OPT_WORKERS}, \
        {"cache", required_argument, NULL, OPT_CACHE}
#define CLI_MODEL_OPTIONS                                                                         \
    {"k", required_argument, NULL, OPT_K}, {"floor", required_argument, NULL, OPT_FLOOR},           \
        {"coder", required_argument, NULL, OPT_CODER}, {"model", required_argument, NULL, OPT_MODEL}, \
        {"rank", required_argument, NULL, OPT_RANK}, {"decay", required_argument, NULL, OPT_DECAY}, \
        {"opening", required_argument, NULL, OPT_OPENING}, {"book", required_argument, NULL, OPT_BOOK}

#define CLI_ENGINE_HELP                                                                          \
    "  --engine PATH|NAME  UCI engine: a profile name from engines/ (stockfish, ethereal),\n"    \
    "                      a .profile file or an executable (default: stockfish); or\n"        \
    "                      builtin (builtin-N): the search built into ucizip, no engine\n"     \
    "                      process, its archives decode with no engine installed\n"           \
    "  --depth N           fixed search depth (default: the profile's, the builtin's)\n"       \
    "  --nodes N           node limit per move searched, with or instead of depth\n"          \
    "  --mode M            multipv (one MultiPV search of the position) or permove (the\n"   \
    "                      position after each move searched at depth-1, score negated)\n"  \
    "  --hash MB           engine Hash size (part of what the scores depend on)\n"              \
    "  --workers N         engine processes (builtin: search threads) to run in parallel\n"   \
    "                      (default: number of cores)\n"                                        \
    CLI_CACHE_HELP
#define CLI_CACHE_HELP                                                                            \
    "  --cache PATH        persistent score cache (LMDB file, created if missing; shared by\n"   \
    "                      runs and processes; entries of other engines/settings unused)\n"
#define CLI_MODEL_HELP                                                                           \
    "  --model M           player (default): the learned player model (features of each\n"    \
    "                      move and trained weights); rank: the engine's scores mixed with\n" \
    "                      its ranking of the moves (the default of earlier archives); exp:\n" \
    "                      p ~ K^(score in pawns) alone (the classic model)\n"                 \
    "  --k K               rank/exp models (choose the rank model unless --model is given):\n" \
    "                      sharpness of the score part (default 20)\n"                         \
    "  --floor F           uniform share mixed into every distribution, 0..1 (default 0.03)\n" \
    "  --rank B            share of the ranking part, 0..1 (default 0.53)\n"                   \
    "  --decay R           each rank down is R times as likely, 0..1 (default 0.6)\n"          \
    "  --coder C           range (default) or huffman\n"                                        \
    "  --opening A[,N]     mix in the moves played from the same position at the same ply by\n" \
    "                      the block's earlier games over the first N plies, with weight A\n"    \
    "                      for the model (default 1.5,32); off: none\n"                    \
    "  --book V            the opening book mixed into the model: its version (default: the\n" \
    "                      newest, 1); off: none\n"

typedef struct cli_engine_opts {
    const char *engine;
    long depth, nodes, hash, workers; /* -1: not given */
    long cache_entries;               /* -1: the profile's; set by commands that need more */
    const char *mode;
    const char *cache_path;           /* --cache: persistent score cache, NULL for none */
} cli_engine_opts;

/* The model options as given; the library turns them into a model (uz_options). */
typedef struct cli_model_opts {
    bool floor_given;
    const char *model;                          /* --model as given, or NULL */
    const char *coder;                          /* "range" (the default) or "huffman" */
    int32_t k_milli, floor_milli, rank_milli, decay_milli; /* as given; -1: not given */
    int32_t opening_milli, opening_plies;                  /* --opening; -1: not given, 0 off */
    int32_t book;                                          /* --book: version; 0 not given, -1 off */
} cli_model_opts;

void cli_engine_opts_init(cli_engine_opts *o);
void cli_model_opts_init(cli_model_opts *o);
/* Handles one getopt_long result if it is an engine or model option: returns 1 if
 * handled, 0 if not one of ours, -1 on a bad value (message printed). */
int cli_engine_opt(cli_engine_opts *o, int c, const char *arg);
int cli_model_opt(cli_model_opts *o, int c, const char *arg);
/* The same options as the library's (uz_options fields they name; the rest untouched). */
void cli_engine_lib_options(const cli_engine_opts *o, uz_options *u);
void cli_model_lib_options(const cli_model_opts *o, uz_options *u);
/* Either of the two. */
int cli_shared_opt(cli_engine_opts *e, cli_model_opts *m, int c, const char *arg);

/* Opens the analysis session (uz_analysis_open) of the options, its messages printed:
 * --engine builtin with --nodes, --mode or --hash is refused. 0, or -1 (printed). */
int cli_analysis_open(const cli_engine_opts *eo, const cli_model_opts *mo, unsigned flags, uz_analysis **out);

/* A move model as the JSON object of info and stats (a new reference; NULL when out of
 * memory). */
json_t *cli_model_json(const uz_model_info *m);

#endif
