/* What compress, decompress, verify and extract share: the library's messages, the
 * removal of inputs, the decoding of whole archives and the options of decoding. */
#ifndef UCIZIP_CLI_CODEC_H
#define UCIZIP_CLI_CODEC_H

#include <stdbool.h>
#include <stdio.h>

#include "cli_engine.h"
#include "cli_tags.h"

#define SUFFIX ".ucz"

/* Decoder limits (doc/format.md): what a block may claim before it is refused. */
#define CLI_DECODE_LIMITS_HELP \
    "  --max-block-moves N moves one block may hold (default 1048576; each costs memory and a search)\n" \
    "  --max-block-mb N    MiB of uncompressed structure one block may hold (default 128)\n" \
    "  --memory MB         Hash an archive may give each engine (default 256); checked\n" \
    "                      before any engine starts\n"

/* The engine options that decoding accepts: the search settings come from the archive. */
#define DECODE_ENGINE_HELP                                                                    \
    "  --engine PATH|NAME  the UCI engine (default: the installed profile of the archive's\n" \
    "                      engine, named on stderr); it must give the same fingerprint\n"    \
    "                      as the one that made the archive (a builtin archive always\n"    \
    "                      decodes with the builtin it names, no engine needed)\n"           \
    "  -j, --workers N     engine processes (default: number of cores)\n" CLI_CACHE_HELP     \
    CLI_DECODE_LIMITS_HELP

enum { OPT_D_OUTPUT_DIR = 3000, OPT_D_RM, OPT_D_PROGRESS, OPT_D_GAME, OPT_D_CANONICAL, OPT_D_FEN, OPT_D_MAX_MOVES,
       OPT_D_MAX_MB, OPT_D_MEMORY };

/* The decoder limits the options set (--max-block-moves, --max-block-mb, --memory; 0: the
 * library's defaults), as uz_options' max_block_moves, max_block_bytes, max_engine_memory_mb. */
typedef struct cli_decode_limits {
    uint64_t block_moves, block_bytes, engine_memory_mb;
} cli_decode_limits;
extern cli_decode_limits decode_limits;
/* verify's -q: no line for each archive verified (zstd -tq). */
extern bool decode_quiet;

/* Messages of the library (a game kept as text, an input skipped): one line each. */
void on_library_message(void *user, const char *input, const uz_diag *diag);
/* Removes the inputs paths[0..n) ("-" skipped), each said unless quiet. */
void remove_inputs(const char *const *paths, size_t n, bool quiet);
/* The size of an input that is a regular file (stdin redirected from one included; the
 * named file when f is NULL), else 0. */
long long input_size(FILE *f, const char *path);
/* The library's options for decoding with eo (the search settings come from the archive). */
void decode_options(const cli_engine_opts *eo, bool canonical, uz_options *u);
/* Says which installed profile was chosen for the archive when no --engine was given. */
void report_profile(const uz_decompressor *d);
/* Decodes every member of in, writing the games to out (NULL: check only; out_name its
 * display name): their exact bytes, or the export format with canonical. 0 or -1. */
int decode_all(FILE *in, const char *name, FILE *out, const char *out_name, bool canonical,
               const cli_engine_opts *eo, bool progress, bool name_profile, long *games_out);
/* --max-block-moves, --max-block-mb and --memory (c: OPT_D_MAX_MOVES, ...) into
 * decode_limits: 0 when taken, -1 on a bad value. */
int decode_limit_opt(int c, const char *arg);
/* Options of verify and extract (extract also takes -o, --game, --tag, --player, --fen and
 * --canonical): 0 to go on, -1 after --help, else the exit status. */
int parse_decode_args(int argc, char **argv, const char *usage, const char **out_path, bool *force,
                      bool *progress, bool *canonical, cli_engine_opts *eo, long *game, uz_game_filter *filter,
                      const char **fen);

#endif
