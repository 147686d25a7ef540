/* Games' tags from an archive (structure streams only) or from PGN files. */
#include <stdlib.h>
#include <string.h>

#include "cli_tags.h"
#include "cli_util.h"

/* The name of a tag of game that a condition of filter names but whose value the archive
 * derives from the moves (not known before they are decoded), or NULL. */
static const char *filter_on_derived(const uz_tag_filter *filter, const uz_game *game)
{
    if (!filter || !game->final_fen_tag)
        return NULL;
    const char *name = game->tags[game->final_fen_tag - 1].name;
    for (size_t c = 0; c < filter->n; c++)
        if (strcmp(filter->conds[c].name, name) == 0)
            return name;
    return NULL;
}

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

int cli_tag_option(uz_tag_filter *filter, const char *expr)
{
    uz_diag diag = {0};
    uz_result r = uz_tag_filter_add(filter, expr, &diag);
    if (r == UZ_OK)
        return 0;
    if (r == UZ_ERR_NOMEM)
        cli_error("out of memory");
    else
        cli_error("--tag '%s': column %ld: %s", expr, diag.column, diag.message);
    return -1;
}

int cli_select_opt(uz_tag_filter *filter, int c, const char *arg)
{
    if (c == CLI_OPT_TAG)
        return cli_tag_option(filter, arg) == 0 ? 1 : -1;
    if (c != CLI_OPT_PLAYER)
        return 0;
    uz_diag diag = {0};
    uz_result r = uz_tag_filter_add_player(filter, arg, &diag);
    if (r == UZ_OK)
        return 1;
    if (r == UZ_ERR_NOMEM)
        cli_error("out of memory");
    else
        cli_error("--player '%s': %s", arg, diag.message);
    return -1;
}

static int each_archive_game(const char *path, const uz_tag_filter *filter, bool decodes, uint64_t *number,
                             cli_tag_fn fn, void *user)
{
    FILE *in = fopen(path, "rb");
    if (!in) {
        cli_error("%s: cannot open", path);
        return -1;
    }
    int status = -1;
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    uz_game *games = NULL;
    size_t *lens = NULL;
    uint32_t *crcs = NULL;
    const uint8_t **recs = NULL;
    size_t *rec_lens = NULL;
    size_t cap = 0;
    if (uz_archive_reader_open(&reader, in, path) != UZ_OK) {
        cli_error("out of memory");
        goto out;
    }
    uz_result r;
    while ((r = uz_archive_read_header(reader, &header, &diag)) == UZ_OK) {
        while ((r = uz_archive_read_block(reader, &block, &diag)) == UZ_OK) {
            if (block.n_games > cap) {
                for (size_t i = 0; i < cap; i++)
                    uz_game_clear(&games[i]);
                free(games);
                free(lens);
                free(crcs);
                free(recs);
                free(rec_lens);
                cap = block.n_games;
                games = malloc(cap * sizeof *games);
                lens = malloc(cap * sizeof *lens);
                crcs = malloc(cap * sizeof *crcs);
                recs = malloc(cap * sizeof *recs);
                rec_lens = malloc(cap * sizeof *rec_lens);
                if (!games || !lens || !crcs || !recs || !rec_lens) {
                    cap = 0;
                    cli_error("out of memory");
                    goto out;
                }
                for (size_t i = 0; i < cap; i++)
                    uz_game_init(&games[i]);
            }
            r = uz_block_struct_read(block.structure.data, block.structure.size, block.struct_version, games, block.n_games, lens, crcs,
                                     recs, rec_lens, &diag);
            if (r != UZ_OK)
                goto fail;
            for (size_t i = 0; i < block.n_games; i++) {
                ++*number;
                if (games[i].text_only)
                    continue; /* the bytes after an input's last game: not a game */
                if (uz_game_verbatim_tags(&games[i]) != UZ_OK) {
                    cli_error("out of memory");
                    goto out;
                }
                const char *derived = filter_on_derived(filter, &games[i]);
                if (derived && decodes) {
                    cli_tag_game g = {&games[i], *number, path, &header, &block, i, true};
                    int rc = fn(user, &g);
                    if (rc) {
                        status = rc;
                        goto out;
                    }
                    continue;
                }
                if (derived) {
                    cli_error("%s: game %llu: its tag %s is derived from the moves in this archive, which this "
                              "command does not decode (extract --tag does)",
                              path, (unsigned long long)*number, derived);
                    goto out;
                }
                if (filter && !uz_tag_filter_match(filter, &games[i]))
                    continue;
                cli_tag_game g = {&games[i], *number, path, &header, &block, i, false};
                int rc = fn(user, &g);
                if (rc) {
                    status = rc;
                    goto out;
                }
            }
        }
        if (r != UZ_DONE)
            goto fail;
    }
    if (r == UZ_DONE)
        status = 0;
fail:
    if (status != 0)
        cli_report(path, &diag);
out:
    for (size_t i = 0; i < cap; i++)
        uz_game_clear(&games[i]);
    free(games);
    free(lens);
    free(crcs);
    free(recs);
    free(rec_lens);
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    fclose(in);
    return status;
}

enum { PGN_BATCH = 64 };

static int each_pgn_game(const char *path, const uz_tag_filter *filter, bool keep_going, uint64_t *number,
                         cli_tag_fn fn, void *user)
{
    cli_game_source src;
    if (cli_source_open(&src, path, keep_going) != 0)
        return -1;
    src.keep_verbatim = true;
    uz_game games[PGN_BATCH];
    uz_game *batch[PGN_BATCH];
    for (int i = 0; i < PGN_BATCH; i++) {
        uz_game_init(&games[i]);
        batch[i] = &games[i];
    }
    int status = 0;
    long n;
    while (status == 0 && (n = cli_source_read(&src, batch, PGN_BATCH)) > 0) {
        for (long i = 0; i < n && status == 0; i++) {
            ++*number;
            if (uz_game_verbatim_tags(&games[i]) != UZ_OK) {
                cli_error("out of memory");
                status = -1;
                break;
            }
            if (filter && !uz_tag_filter_match(filter, &games[i]))
                continue;
            cli_tag_game g = {&games[i], *number, src.name, NULL, NULL, 0, false};
            status = fn(user, &g);
        }
    }
    if (status == 0 && n < 0)
        status = -1;
    if (cli_source_close(&src) != 0 && status == 0)
        status = -1;
    for (int i = 0; i < PGN_BATCH; i++)
        uz_game_clear(&games[i]);
    return status;
}

int cli_each_game(const char *path, const uz_tag_filter *filter, bool keep_going, bool decodes, uint64_t *number,
                  cli_tag_fn fn, void *user)
{
    if (cli_is_archive(path))
        return each_archive_game(path, filter, decodes, number, fn, user);
    return each_pgn_game(path, filter, keep_going, number, fn, user);
}
