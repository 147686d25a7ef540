/* Helpers shared by the subcommands: error messages, input and output files
 * (stdin/stdout as "-", temporary file then rename), progress lines. */
#ifndef UCIZIP_CLI_UTIL_H
#define UCIZIP_CLI_UTIL_H

#include <stdbool.h>
#include <stdio.h>

#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

/* Exit statuses: 0 success, 1 bad input or failed check, 2 usage error. */

/* zstd's -k and -q, which every command takes: -k keeps the inputs (the default; only
 * compress and decompress remove any, with --rm), -q leaves out progress and summaries. */
#define CLI_KEEP_QUIET_OPTIONS {"keep", no_argument, NULL, 'k'}, {"quiet", no_argument, NULL, 'q'}
#define CLI_KEEP_QUIET_HELP "  -k, --keep, -q, --quiet  as zstd's (inputs are kept; no progress or summary)\n"
enum { CLI_EXIT_OK = 0, CLI_EXIT_FAIL = 1, CLI_EXIT_USAGE = 2 };

/* "ucizip: message" on stderr. */
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "ucizip: FILE:LINE:COL: game N: message" (parts that are 0 are left out). */
void cli_report(const char *file, const uz_diag *diag);
/* Whether a write to stdout failed because its reader has gone (`ucizip ... | head`). */
bool cli_stdout_broken(void);
/* If so, ends the program as SIGPIPE ends zstd: silently, killed by that signal (the
 * temporary output file removed). cli_error, cli_report and main call it. */
void cli_exit_if_stdout_broken(void);
/* Writes s with control characters escaped as \xNN (cli_error and cli_report do this). */
void cli_put_escaped(FILE *f, const char *s);
/* The same for a field of a tab-separated line: tabs and line ends become spaces. */
void cli_put_field(FILE *f, const char *s);

/* Opens path for reading; NULL or "-" is stdin. *name receives a display name. */
FILE *cli_open_input(const char *path, const char **name);
void cli_close_input(FILE *f);
/* True when standard input was closed when the program started (main points it at a
 * write-only placeholder, so that reads fail and no file takes its number). */
bool cli_stdin_closed(void);
/* True (after a message) when one of paths[0..n) is "-" and stdin is closed: an error,
 * never an empty input. cli_open_input and cli_stdin_console check it too. */
bool cli_stdin_closed_in(const char *const *paths, size_t n);
/* zstd's refusal to read an archive from a terminal: true (after a message) when one of
 * paths[0..n) is "-" and stdin is a console (or closed). */
bool cli_stdin_console(const char *const *paths, size_t n);

/* An output file written under a temporary name in the same directory and renamed
 * over the final name only by cli_output_commit, so an interrupted or failed run never
 * leaves a half-written file. "-" or NULL (and /dev/stdout) writes to stdout directly;
 * so does an existing character device or FIFO (/dev/null, a named pipe): it is written
 * into, never replaced (doc/safety.md). The temporary file is created 0600 and given
 * its final mode by cli_output_commit. */
typedef struct cli_output {
    FILE *f;
    char *final_path;
    char *tmp_path;       /* NULL when writing stdout or a device or FIFO directly */
    bool keep_attrs;      /* give the output the modification time below */
    bool force;           /* -f: the final step may replace what is at final_path */
    unsigned mode;        /* the output's mode: the input's (keep_attrs), else 0666 less the umask */
    long long mtime_sec;
    long mtime_nsec;
} cli_output;

/* True when standard output was closed when the program started (main points it at a
 * read-only placeholder, so that writes fail and no file takes its number). */
bool cli_stdout_closed(void);
/* At exit: flushes stdout; a failed write (stdout closed, disk full) gives -1, and is
 * reported if report unless the reader went away (EPIPE). */
int cli_stdout_finish(bool report);

/* Refuses to replace an existing file (a dangling symbolic link included) unless force,
 * and anything but a regular file, a character device or a FIFO even with force; refuses
 * a closed stdout. Returns 0 or prints and returns -1. */
int cli_output_open(cli_output *out, const char *path, bool force);
/* The same, sparing the temporary file keep (and its resume state) of a dead run that
 * is being resumed: other temporary files of dead processes for path are removed. */
int cli_output_open_keeping(cli_output *out, const char *path, bool force, const char *keep);
/* Once set, an interrupt (SIGINT, SIGTERM, SIGHUP) keeps the temporary file for
 * --resume instead of removing it. */
void cli_output_set_resumable(cli_output *out, bool resumable);
/* Makes the output take the file mode and modification time of path (as zstd does);
 * applied by cli_output_commit. No-op for stdin or stdout. */
void cli_output_keep_attrs(cli_output *out, const char *path);
/* Flushes, fsyncs and renames. Without force the final step refuses, atomically, a name
 * that appeared since the open (another run to the same name): the temporary file is
 * then kept and named in the error. Returns 0 or prints and returns -1 (the temporary
 * file removed, except in that case). */
int cli_output_commit(cli_output *out);
/* Removes the temporary file (if any). Safe after commit. */
void cli_output_abort(cli_output *out);

/* Progress on stderr for long runs: only when stderr is a terminal or forced with
 * --progress; at most a few updates per second. */
typedef struct cli_progress {
    bool enabled;
    bool shown;
    double start;
    double last;
    long long total_bytes; /* input size for the percentage and ETA; <= 0: unknown */
    double bits_per_move;  /* so far; < 0: not shown */
} cli_progress;

void cli_progress_init(cli_progress *p, bool force);
/* Disables progress (-q). */
void cli_progress_quiet(cli_progress *p);
void cli_progress_update(cli_progress *p, long games, long plies, long long bytes_in);
void cli_progress_done(cli_progress *p);
double cli_now(void);

/* Parses a non-negative integer option; prints a usage error and returns -1 if bad. */
int cli_parse_long(const char *opt, const char *text, long min, long max, long *out);

/* PGN input read game by game, with the stop-or-skip policy for bad games: the
 * library's PGN source (uz_pgn_source) over one or more files ("-": stdin) read one after
 * the other, each plain or compressed, its messages printed. */
typedef struct cli_game_source {
    uz_pgn_source *ps;
    const char *name;   /* the current input's display name */
    const char *single[1];    /* paths of a one-input source */
    bool keep_going; /* skip bad games and unreadable inputs (each reported) instead of stopping */
    bool keep_verbatim; /* return games of unsupported variants as verbatim text */
    bool exact;      /* keep every game's exact bytes; any game that cannot be read is
                        returned as verbatim text, and the input's tail (what follows the
                        last game) as a record that is not a game */
    long max_games;  /* stop after this many games (0: no limit) */
    long games;      /* games read so far */
    long verbatim;   /* of which returned as verbatim text */
    long skipped;    /* bad games skipped */
    long skipped_inputs; /* inputs that could not be read (keep_going) */
} cli_game_source;

/* Opens path ("-" or NULL: stdin). Returns 0 or prints and returns -1. */
int cli_source_open(cli_game_source *src, const char *path, bool keep_going);
/* The same over n paths read in order (paths must outlive the source). */
int cli_source_open_list(cli_game_source *src, const char *const *paths, size_t n, bool keep_going);
/* Reads the next game into game: 1, 0 at the end of input, or -1 after an error that
 * stops the run (printed). */
int cli_source_next(cli_game_source *src, uz_game *game);
/* Reads up to cap games into *games[0..cap). Returns how many (0 at the end of input), or
 * -1 after an error that stops the run (printed). */
long cli_source_read(cli_game_source *src, uz_game *const *games, size_t cap);
/* Reports the skipped count (if any) and closes. Returns 0, or -1 if games were skipped. */
int cli_source_close(cli_game_source *src);

#endif
