/* `ucizip -l`: zstd's one line per archive (members, games, sizes), from the archives'
 * indexes through the public library alone; no engine is started. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_util.h"
#include "ucizip.h"

static const char table_usage[] =
    "usage: ucizip -l ARCHIVE...\n"
    "One line per archive, as zstd -l: members, blocks, games, moves, compressed size,\n"
    "bits per move (all bytes included) and name; a total line for several archives.\n"
    "No engine is started ('ucizip info' tells more).\n" CLI_KEEP_QUIET_HELP;

typedef struct table_row {
    uint64_t members, blocks, games, moves, bytes;
} table_row;

/* A size as zstd writes it: three significant digits and a binary unit ("519 B",
 * "3.54 MiB", "12.3 MiB"). */
static void human_size(uint64_t bytes, char *out, size_t cap)
{
    static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    if (bytes < 1024) {
        snprintf(out, cap, "%llu B", (unsigned long long)bytes);
        return;
    }
    double v = (double)bytes;
    size_t u = 0;
    while (v >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024;
        u++;
    }
    snprintf(out, cap, "%.*f %s", v >= 100 ? 0 : v >= 10 ? 1 : 2, v, units[u]);
}

static void print_row(const table_row *r, const char *name)
{
    char size[32];
    human_size(r->bytes, size, sizeof size);
    double bpm = r->moves ? 8.0 * (double)r->bytes / (double)r->moves : 0.0;
    printf("%7llu %7llu %8llu %10llu %11s %10.3f  %s\n", (unsigned long long)r->members,
           (unsigned long long)r->blocks, (unsigned long long)r->games, (unsigned long long)r->moves, size, bpm,
           name);
}

/* One archive's row; -1 after a message. */
static int archive_row(const char *path, table_row *row)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        cli_error("%s: cannot open", path);
        return -1;
    }
    uz_diag diag = {0};
    size_t n = 0;
    uz_member_info *members = NULL;
    uz_result r = uz_archive_members(f, path, NULL, 0, &n, &diag);
    if (r == UZ_OK && n && !(members = calloc(n, sizeof *members))) {
        r = UZ_ERR_NOMEM;
        snprintf(diag.message, sizeof diag.message, "out of memory");
    }
    if (r == UZ_OK && n)
        r = uz_archive_members(f, path, members, n, &n, &diag);
    memset(row, 0, sizeof *row);
    for (size_t i = 0; r == UZ_OK && i < n; i++) {
        row->members++;
        row->blocks += members[i].blocks;
        row->games += members[i].games;
        row->moves += members[i].moves;
        row->bytes += members[i].length;
    }
    free(members);
    fclose(f);
    if (r != UZ_OK) {
        cli_report(path, &diag);
        return -1;
    }
    return 0;
}

int cmd_archive_table(int argc, char **argv)
{
    static const struct option options[] = {
        {"help", no_argument, NULL, 'h'}, {"verbose", no_argument, NULL, 'v'}, CLI_KEEP_QUIET_OPTIONS,
        {NULL, 0, NULL, 0}};
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hvkq", options, NULL)) != -1) {
        if (c == 'h') {
            fputs(table_usage, stdout);
            return CLI_EXIT_OK;
        }
        if (c != 'v' && c != 'k' && c != 'q') {
            fputs(table_usage, stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (optind >= argc) {
        fputs(table_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    table_row total = {0};
    int listed = 0;
    printf("Members  Blocks    Games      Moves  Compressed  Bits/move  Filename\n");
    for (int i = optind; i < argc; i++) {
        table_row row;
        if (strcmp(argv[i], "-") == 0) {
            cli_error("-l needs archive files (the indexes are read from the end), not stdin");
            status = CLI_EXIT_FAIL;
            continue;
        }
        if (archive_row(argv[i], &row) != 0) {
            status = CLI_EXIT_FAIL;
            continue;
        }
        print_row(&row, argv[i]);
        total.members += row.members;
        total.blocks += row.blocks;
        total.games += row.games;
        total.moves += row.moves;
        total.bytes += row.bytes;
        listed++;
    }
    if (listed > 1) {
        char files[32];
        snprintf(files, sizeof files, "%d files", listed);
        printf("----------------------------------------------------------------------\n");
        print_row(&total, files);
    }
    return status;
}
