/* Input lists and output names of the batch commands: several files, "-", directories
 * read recursively (-r), names derived as zstd does (games.pgn.zst -> games.pgn.ucz). */
#ifndef UCIZIP_CLI_INPUTS_H
#define UCIZIP_CLI_INPUTS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct cli_paths {
    char **items;
    size_t n, cap;
} cli_paths;

/* Appends every argument to out; a directory is replaced, when recursive, by the files
 * under it whose names end in one of exts (a NULL-terminated list), sorted by path so
 * the order never depends on the file system; without recursive it is an error. No
 * argument at all means "-". Returns the number of arguments that were refused (each
 * reported on one line); -1 when out of memory. */
int cli_paths_expand(cli_paths *out, char *const *args, int n, bool recursive, const char *const *exts);
void cli_paths_free(cli_paths *p);

/* Name of the output for input in: in with strip removed (the first of the
 * NULL-terminated list that ends it), then add appended; in dir (its last path part
 * only) when dir is not NULL. NULL for stdin (or out of memory). */
char *cli_output_name(const char *in, const char *const *strip, const char *add, const char *dir);

/* Refuses (one message naming both inputs and the output, returns -1) when two of
 * outs[0..n) (the outputs of inputs[0..n); NULL entries are passed over) name the same
 * place, however they are spelled (zstd refuses too): one input's output would replace
 * another's. Returns 0 when they are all distinct. */
int cli_outputs_distinct(const char *const *inputs, char *const *outs, size_t n);

/* Whether the two paths name the same existing file. */
bool cli_same_file(const char *a, const char *b);

/* Creates the output directory dir if it does not exist (one level, as zstd does).
 * Returns 0, or -1 after a message. */
int cli_make_dir(const char *dir);

/* Suffixes of compressed inputs, and of PGN inputs found in directories. */
extern const char *const cli_compressed_suffixes[];
extern const char *const cli_pgn_names[];

#endif
