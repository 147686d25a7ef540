/* ucizip: command-line entry point; dispatches to the subcommands. */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_util.h"
#include "ucizip.h"

static const char usage_text[] =
    "usage: ucizip COMMAND [ARGS]\n"
    "\n"
    "Compresses chess games (PGN) by coding each move against a UCI engine's scores.\n"
    "\n"
    "commands:\n"
    "  compress [IN.pgn|-] [-o OUT.ucz|-]   PGN to archive (default output: IN.pgn.ucz)\n"
    "  decompress [IN.ucz|-] [-o OUT|-]     archive to PGN, the input byte for byte\n"
    "  info ARCHIVE [--json]                header, engine, games, sizes, bits/move\n"
    "  verify ARCHIVE                       decode every game and check its checksum\n"
    "  extract ARCHIVE --game N             print one game without decoding the others\n"
    "  extract ARCHIVE --tag COND...        print the games whose tags match (only those decoded)\n"
    "  extract ARCHIVE --fen FEN            print the games that reach a position\n"
    "  list ARCHIVE|FILE.pgn... [--tag COND]... [--player NAME] [--json]\n"
    "                                       one line per game from the tags (no engine)\n"
    "  ratings ARCHIVE|FILE.pgn... [--json] every player's Glicko-2 rating from the results\n"
    "  stats FILE.pgn [--json] [--no-engine] [--k-sweep K,K,...]\n"
    "                                       bits/move of each coding method\n"
    "  explain FILE.pgn [--game N]          move-by-move scores, probabilities, codes\n"
    "  engine [--engine PATH|NAME] [--depth N] [--mode multipv|permove] [--json]\n"
    "                                       engine name, options, fingerprint, speed\n"
    "  pgn [IN.pgn|-] [-o OUT|-] [--uci]    rewrite PGN in export format (or UCI main lines)\n"
    "  split IN --shards K --output-dir DIR cut PGN into shards at game boundaries\n"
    "  transcode IN.ucz -o OUT.ucz --engine E\n"
    "                                       re-code the moves with another oracle\n"
    "                                       (builtin: decodes with no engine installed)\n"
    "\n"
    "Run 'ucizip COMMAND --help' for a command's options. As with zstd, options without a\n"
    "command compress ('ucizip -j2 a.pgn b.pgn.zst'), and -d, -t and -l decompress, verify\n"
    "and list ('ucizip -d a.pgn.ucz').\n";

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
};

static const struct command commands[] = {
    {"pgn", cmd_pgn},
    {"stats", cmd_stats},
    {"engine", cmd_engine},
    {"compress", cmd_compress},
    {"decompress", cmd_decompress},
    {"info", cmd_info},
    {"verify", cmd_verify},
    {"extract", cmd_extract},
    {"explain", cmd_explain},
    {"list", cmd_list},
    {"ratings", cmd_ratings},
    {"split", cmd_split},
    {"transcode", cmd_transcode},
};

/* A descriptor 0-2 closed by whoever started us would be reused by the next open
 * (an output file, an engine pipe: libuv aborts on those) and then receive our messages
 * or progress lines: point each closed one at /dev/null before anything opens a file.
 * Stdout is opened read-only and stdin write-only, so that using them still fails (an
 * output asked of a closed stdout, or games of a closed stdin, is an error, not an empty
 * stream: cli_stdout_closed, cli_stdin_closed). */
static void guard_std_fds(void)
{
    for (int fd = 0; fd <= 2; fd++)
        if (fcntl(fd, F_GETFD) == -1) {
            int n = open("/dev/null", fd == 1 ? O_RDONLY : O_WRONLY);
            if (n >= 0 && n != fd) { /* open takes the lowest free number, so n == fd */
                dup2(n, fd);
                close(n);
            }
        }
}

int main(int argc, char **argv)
{
    guard_std_fds();
    /* Engine pipes are socket pairs: a write to an engine that died must give an
     * error, not kill us with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);

    if (argc < 2) {
        fputs(usage_text, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *name = argv[1];
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 || strcmp(name, "help") == 0) {
        fputs(usage_text, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(name, "--version") == 0 || strcmp(name, "-V") == 0) {
        printf("ucizip %s\n", uz_version()); /* the library running */
        return CLI_EXIT_OK;
    }
    int status = -1;
    for (size_t i = 0; status < 0 && i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(name, commands[i].name) == 0)
            status = commands[i].run(argc - 1, argv + 1);
    /* zstd's way: "ucizip [-d|-t|-l] [options] FILE..." without a command name. */
    if (status < 0 && ((name[0] == '-' && name[1] != 0) || access(name, F_OK) == 0))
        status = cmd_compress(argc, argv);
    if (status < 0) {
        cli_error("unknown command '%s' (see 'ucizip --help')", name);
        return CLI_EXIT_USAGE;
    }
    /* A reader that went away ends us as it ends zstd (silently, SIGPIPE); otherwise what
     * a command printed to stdout must have arrived (a command that failed has said why
     * already). */
    fflush(stdout);
    cli_exit_if_stdout_broken();
    if (cli_stdout_finish(status == CLI_EXIT_OK) != 0 && status == CLI_EXIT_OK)
        status = CLI_EXIT_FAIL;
    return status;
}
