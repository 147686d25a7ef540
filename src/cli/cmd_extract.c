/* ucizip extract: one game, or the games that match tags or reach a position. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_codec.h"
#include "cli_util.h"


static const char extract_usage[] =
    "usage: ucizip extract ARCHIVE|- (--game N | --tag COND... | --player NAME | --fen FEN) [-o OUT|-]\n"
    "                      [options]\n"
    "Decodes game N (1-based) alone, without decoding the games before it; or every game\n"
    "that meets the --tag, --player and --fen conditions, decoding only those: the others'\n"
    "tags are read, their moves never (an archive file, not stdin).\n"
    "  --game N            the game to print\n" CLI_SELECT_HELP
    "  --fen FEN           only games whose main line reaches the position (its pieces and\n"
    "                      side to move); a game that cannot reach it (its material, its\n"
    "                      length) is not decoded\n"
    "  --canonical         the game in PGN export format, not its exact bytes\n"
    "  -o, --output FILE   where to write it (default: stdout)\n"
    "  -f, --force         overwrite OUT if it exists\n"
    "  --progress          accepted for symmetry with verify (one game shows none)\n" DECODE_ENGINE_HELP;

/* A seekable copy of stdin (extract and info read archives from the end). */
static FILE *open_seekable(const char *path, const char **name)
{
    if (strcmp(path, "-") != 0)
        return cli_open_input(path, name);
    *name = "<stdin>";
    if (cli_stdin_closed_in((const char *const[]){"-"}, 1))
        return NULL;
    if (fseeko(stdin, 0, SEEK_CUR) == 0)
        return stdin;
    FILE *tmp = tmpfile();
    if (!tmp) {
        cli_error("cannot create a temporary file for stdin: %s", strerror(errno));
        return NULL;
    }
    char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, stdin)) > 0)
        if (fwrite(buf, 1, got, tmp) != got)
            break;
    if (ferror(stdin) || ferror(tmp) || fseeko(tmp, 0, SEEK_SET) != 0) {
        cli_error("<stdin>: cannot copy to a temporary file");
        fclose(tmp);
        return NULL;
    }
    return tmp;
}

static void close_seekable(FILE *f)
{
    if (f && f != stdin)
        fclose(f);
}

typedef struct extract_state {
    const uz_options *decode; /* the options to decode with */
    bool decoding;            /* the first match has set the reader up to decode */
    const uz_game_filter *filter;
    uz_game *game;            /* the game decoded */
    FILE *out;
    bool canonical;
    long written;
} extract_state;

/* Writes a decoded game: its exact bytes, or its export-format text. */
static uz_result write_game(FILE *out, const uz_game *game, bool canonical)
{
    if (canonical)
        return uz_game_write_pgn(out, game);
    size_t len;
    const char *bytes = uz_game_bytes(game, &len);
    return len && fwrite(bytes, 1, len, out) != len ? UZ_ERR_IO : UZ_OK;
}

/* Decodes one game that the tag filter selected and writes it. */
static int extract_one(void *user, const cli_tag_game *g)
{
    extract_state *st = user;
    uz_diag diag = {0};
    if (!uz_game_filter_may_reach(st->filter, g->game))
        return 0; /* its material or its length rule the position out: not decoded */
    /* The engine is looked up at the first match only: no match, no engine. */
    if (!st->decoding) {
        st->decoding = true;
        if (uz_tag_reader_decode_with(g->reader, st->decode, &diag) != UZ_OK) {
            cli_report(NULL, &diag);
            return -1;
        }
    }
    if (uz_tag_reader_decode(g->reader, st->game, &diag) != UZ_OK) {
        cli_report(g->file, &diag);
        return -1;
    }
    if (g->filter_after && !uz_game_filter_match(st->filter, st->game))
        return 0; /* a condition on a tag derived from the moves, known now that they are decoded */
    if (!uz_game_filter_reaches(st->filter, st->game))
        return 0; /* does not pass through the position */
    if (write_game(st->out, st->game, st->canonical) != UZ_OK) {
        cli_error("write error");
        return -1;
    }
    st->written++;
    return 0;
}

static int extract_matching(const char *name, const uz_game_filter *filter, const cli_engine_opts *eo,
                            const char *out_path, bool force, bool canonical)
{
    if (!cli_is_archive(name)) {
        cli_error("%s: not a ucizip archive", name);
        return CLI_EXIT_FAIL;
    }
    uz_options u;
    decode_options(eo, canonical, &u);
    u.workers = eo->workers > 0 ? (int)eo->workers : 1; /* one game at a time */
    extract_state st = {.decode = &u, .filter = filter, .canonical = canonical};
    uz_diag diag = {0};
    if (uz_game_new(&st.game, &diag) != UZ_OK) {
        cli_error("out of memory");
        return CLI_EXIT_FAIL;
    }
    cli_output out;
    if (cli_output_open(&out, out_path, force) != 0) {
        uz_game_free(st.game);
        return CLI_EXIT_FAIL;
    }
    st.out = out.f;
    uint64_t number = 0;
    bool by_tags = uz_game_filter_conditions(filter) > 0;
    int rc = cli_each_game(name, by_tags ? filter : NULL, false, true, &number, extract_one, &st);
    uz_game_free(st.game);
    if (rc != 0) {
        cli_output_abort(&out);
        return CLI_EXIT_FAIL;
    }
    if (cli_output_commit(&out) != 0)
        return CLI_EXIT_FAIL;
    if (st.written == 0)
        cli_error("%s: no game matches", name);
    return st.written ? CLI_EXIT_OK : CLI_EXIT_FAIL;
}

int cmd_extract(int argc, char **argv)
{
    const char *out_path = NULL;
    bool force = false, progress = false, canonical = false;
    long game_no = 0;
    cli_engine_opts eo;
    uz_game_filter *filter = cli_filter_new();
    const char *fen = NULL;
    if (!filter)
        return CLI_EXIT_FAIL;
    int a = parse_decode_args(argc, argv, extract_usage, &out_path, &force, &progress, &canonical, &eo, &game_no,
                              filter, &fen);
    if (a) {
        uz_game_filter_free(filter);
        return a < 0 ? CLI_EXIT_OK : a;
    }
    bool select = uz_game_filter_conditions(filter) || fen;
    if (argc - optind != 1 || (game_no < 1) == !select) {
        uz_game_filter_free(filter);
        fputs(extract_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    if (select) {
        uz_diag fen_diag = {0};
        int status = CLI_EXIT_USAGE;
        if (fen && uz_game_filter_set_position(filter, fen, &fen_diag) != UZ_OK)
            cli_error("--fen '%s': column %ld: %s", fen, fen_diag.column, fen_diag.message);
        else
            status = extract_matching(argv[optind], filter, &eo, out_path, force, canonical);
        uz_game_filter_free(filter);
        return status;
    }
    uz_game_filter_free(filter); /* --game N selects by number alone */
    const char *name;
    FILE *in = open_seekable(argv[optind], &name);
    if (!in)
        return CLI_EXIT_FAIL;
    int status = CLI_EXIT_FAIL;
    uz_options u;
    decode_options(&eo, canonical, &u);
    if (eo.workers <= 0)
        u.workers = 1; /* one position at a time: a second engine would only wait */
    uz_decompressor *d = NULL;
    uz_diag diag = {0};
    const char *text;
    size_t len;
    cli_output out;
    if (uz_decompressor_open(&d, &u, &diag) != UZ_OK ||
        uz_decompressor_game(d, in, name, (uint64_t)game_no, &text, &len, &diag) != UZ_OK) {
        cli_report(name, &diag);
        goto out;
    }
    if (!decode_quiet)
        report_profile(d);
    if (cli_output_open(&out, out_path, force) != 0)
        goto out;
    if (len && fwrite(text, 1, len, out.f) != len) {
        cli_error("write error");
        cli_output_abort(&out);
        goto out;
    }
    if (cli_output_commit(&out) == 0)
        status = CLI_EXIT_OK;
out:
    uz_decompressor_close(d);
    close_seekable(in);
    return status;
}
