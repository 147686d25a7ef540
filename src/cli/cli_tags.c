/* Games' tags from an archive (structure streams only) or from PGN files. */
#include <stdlib.h>
#include <string.h>

#include "cli_tags.h"
#include "cli_util.h"

static const uint8_t archive_magic[8] = {0x89, 'U', 'C', 'Z', '\r', '\n', 0x1a, '\n'};

bool cli_is_archive(const char *path)
{
    if (!path || strcmp(path, "-") == 0)
        return false;
    FILE *f = fopen(path, "rb");
    uint8_t m[8];
    bool yes = f && fread(m, 1, 8, f) == 8 && memcmp(m, archive_magic, 8) == 0;
    if (f)
        fclose(f);
    return yes;
}

uz_game_filter *cli_filter_new(void)
{
    uz_game_filter *f = NULL;
    uz_diag diag = {0};
    if (uz_game_filter_new(&f, &diag) != UZ_OK)
        cli_error("out of memory");
    return f;
}

int cli_tag_option(uz_game_filter *filter, const char *expr)
{
    uz_diag diag = {0};
    uz_result r = uz_game_filter_add_tag(filter, expr, &diag);
    if (r == UZ_OK)
        return 0;
    if (r == UZ_ERR_NOMEM)
        cli_error("out of memory");
    else
        cli_error("--tag '%s': column %ld: %s", expr, diag.column, diag.message);
    return -1;
}

int cli_select_opt(uz_game_filter *filter, int c, const char *arg)
{
    if (c == CLI_OPT_TAG)
        return cli_tag_option(filter, arg) == 0 ? 1 : -1;
    if (c != CLI_OPT_PLAYER)
        return 0;
    uz_diag diag = {0};
    uz_result r = uz_game_filter_add_player(filter, arg, &diag);
    if (r == UZ_OK)
        return 1;
    if (r == UZ_ERR_NOMEM)
        cli_error("out of memory");
    else
        cli_error("--player '%s': %s", arg, diag.message);
    return -1;
}

static int each_archive_game(const char *path, const uz_game_filter *filter, bool decodes, uint64_t *number,
                             cli_tag_fn fn, void *user)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        cli_error("%s: cannot open", path);
        return -1;
    }
    int status = -1;
    uz_tag_reader *reader = NULL;
    uz_game_tags tags;
    uz_diag diag = {0};
    uz_result r = uz_tag_reader_open(&reader, in, path, &diag);
    if (r != UZ_OK) {
        cli_error("out of memory");
        goto out;
    }
    while ((r = uz_tag_reader_next(reader, &tags, &diag)) == UZ_OK) {
        ++*number;
        if (!tags.is_game)
            continue; /* the bytes after an input's last game: not a game */
        const uz_game *game = uz_tag_reader_game(reader);
        const char *derived = uz_game_filter_derived(filter, game);
        if (derived && !decodes) {
            cli_error("%s: game %llu: its tag %s is derived from the moves in this archive, which this "
                      "command does not decode (extract --tag does)",
                      path, (unsigned long long)*number, derived);
            goto out;
        }
        if (!derived && filter && !uz_game_filter_match(filter, game))
            continue;
        /* A condition on a derived tag: fn decodes the game and applies the filter itself. */
        cli_tag_game g = {game, *number, path, reader, derived != NULL};
        int rc = fn(user, &g);
        if (rc) {
            status = rc;
            goto out;
        }
    }
    if (r == UZ_DONE)
        status = 0;
    else
        cli_report(path, &diag);
out:
    uz_tag_reader_close(reader);
    fclose(in);
    return status;
}

enum { PGN_BATCH = 64 };

static int each_pgn_game(const char *path, const uz_game_filter *filter, bool keep_going, uint64_t *number,
                         cli_tag_fn fn, void *user)
{
    cli_game_source src;
    if (cli_source_open(&src, path, keep_going) != 0)
        return -1;
    src.keep_verbatim = true;
    uz_game *batch[PGN_BATCH] = {NULL};
    int status = 0;
    long n = 0;
    for (int i = 0; i < PGN_BATCH && status == 0; i++) {
        uz_diag diag = {0};
        if (uz_game_new(&batch[i], &diag) != UZ_OK) {
            cli_error("out of memory");
            status = -1;
        }
    }
    while (status == 0 && (n = cli_source_read(&src, batch, PGN_BATCH)) > 0) {
        for (long i = 0; i < n && status == 0; i++) {
            ++*number;
            uz_diag diag = {0};
            if (uz_game_read_tags(batch[i], &diag) != UZ_OK) {
                cli_error("out of memory");
                status = -1;
                break;
            }
            if (filter && !uz_game_filter_match(filter, batch[i]))
                continue;
            cli_tag_game g = {batch[i], *number, src.name, NULL, false};
            status = fn(user, &g);
        }
    }
    if (status == 0 && n < 0)
        status = -1;
    if (cli_source_close(&src) != 0 && status == 0)
        status = -1;
    for (int i = 0; i < PGN_BATCH; i++)
        uz_game_free(batch[i]);
    return status;
}

int cli_each_game(const char *path, const uz_game_filter *filter, bool keep_going, bool decodes, uint64_t *number,
                  cli_tag_fn fn, void *user)
{
    if (cli_is_archive(path))
        return each_archive_game(path, filter, decodes, number, fn, user);
    return each_pgn_game(path, filter, keep_going, number, fn, user);
}
