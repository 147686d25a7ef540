/* ucizip list: one line per game from the tags alone (an archive's structure streams;
 * the engine is never started), optionally only the games that match --tag conditions. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_json.h"
#include "cli_tags.h"
#include "cli_util.h"

static const char list_usage[] =
    "usage: ucizip list ARCHIVE|FILE.pgn... [--tag COND]... [--player NAME] [--json]\n"
    "One line per game: number, White, WhiteElo, Black, BlackElo, result, date, event,\n"
    "plies (tab-separated; '-' where a tag is missing). Reads only the tags: no engine.\n"
    CLI_SELECT_HELP
    "  --json              a JSON array of one object per game, each naming its file\n"
    "                      (doc/json.md)\n"
    "  --keep-going        skip PGN games that cannot be read (each reported)\n" CLI_KEEP_QUIET_HELP
    "A tag an archive derives from the moves (chess.com's CurrentPosition) is null in\n"
    "--json and cannot be a --tag condition here; extract --tag decodes such games.\n";

/* A tag value for a tab-separated line: tabs and line ends become spaces, other control
 * characters \xNN (no escape sequence reaches the terminal). */
static void put_field(const char *s)
{
    if (!s || !*s) {
        fputs("-", stdout);
        return;
    }
    cli_put_field(stdout, s);
}

typedef struct list_state {
    bool json;
    uint64_t shown;
    uint64_t file_start; /* the number of the games before the current file */
} list_state;

static const char *const list_tags[] = {"White", "WhiteElo", "Black", "BlackElo"};

/* A rating as a number: a whole number of at most 9 digits, else null ("?", "", "-"). */
static json_t *elo_json(const char *v)
{
    size_t n = v ? strspn(v, "0123456789") : 0;
    if (!v || n == 0 || n > 9 || v[n])
        return json_null();
    return json_integer(strtoll(v, NULL, 10));
}

/* One game's record (doc/json.md). */
static json_t *game_json(const list_state *st, const cli_tag_game *g, long plies)
{
    const uz_game *game = g->game;
    json_t *o = json_object();
    if (!o)
        return NULL;
    cli_json_set_text(o, "file", g->file);
    json_object_set_new(o, "game", json_integer((json_int_t)g->number));
    json_object_set_new(o, "file_game", json_integer((json_int_t)(g->number - st->file_start)));
    cli_json_set_text(o, "white", uz_game_tag_value(game, "White"));
    json_object_set_new(o, "white_elo", elo_json(uz_game_tag_value(game, "WhiteElo")));
    cli_json_set_text(o, "black", uz_game_tag_value(game, "Black"));
    json_object_set_new(o, "black_elo", elo_json(uz_game_tag_value(game, "BlackElo")));
    json_object_set_new(o, "result", json_string(uz_game_result_text(game)));
    cli_json_set_text(o, "date", uz_game_tag_value(game, "Date"));
    cli_json_set_text(o, "event", uz_game_tag_value(game, "Event"));
    json_object_set_new(o, "plies", plies >= 0 ? json_integer(plies) : json_null());
    json_t *tags = json_array();
    for (size_t i = 0; tags && i < uz_game_tag_count(game); i++) { /* every tag, in order: [name, value] */
        const char *name, *value;
        uz_game_tag_at(game, i, &name, &value);
        if (uz_game_tag_derived(game, i)) /* derived from the moves: not known without them */
            value = NULL;
        json_t *pair = json_pack("[o, o]", cli_json_text(name), cli_json_text(value));
        if (pair && value && !cli_json_is_utf8(value, strlen(value))) /* the exact bytes third */
            json_array_append_new(pair, cli_json_base64(value, strlen(value)));
        json_array_append_new(tags, pair);
    }
    json_object_set_new(o, "tags", tags);
    return o;
}

static int list_one(void *user, const cli_tag_game *g)
{
    list_state *st = user;
    const uz_game *game = g->game;
    /* A verbatim game's plies are not counted without replaying it. */
    long plies = uz_game_is_text(game) ? -1 : (long)uz_game_plies(game);
    if (st->json) {
        fputs(st->shown ? ",\n" : "[\n", stdout);
        if (cli_json_write(stdout, game_json(st, g, plies)) != 0)
            return -1;
    } else {
        printf("%llu", (unsigned long long)g->number);
        for (int i = 0; i < 4; i++) {
            putchar('\t');
            put_field(uz_game_tag_value(game, list_tags[i]));
        }
        printf("\t%s\t", uz_game_result_text(game));
        put_field(uz_game_tag_value(game, "Date"));
        putchar('\t');
        put_field(uz_game_tag_value(game, "Event"));
        if (plies >= 0)
            printf("\t%ld\n", plies);
        else
            fputs("\t-\n", stdout);
    }
    st->shown++;
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const struct option options[] = {{"json", no_argument, NULL, 'j'},
                                            CLI_SELECT_OPTIONS,
                                            {"keep-going", no_argument, NULL, 'K'}, CLI_KEEP_QUIET_OPTIONS,
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    list_state st = {0};
    uz_game_filter *filter = cli_filter_new();
    bool keep_going = false;
    int c, status = CLI_EXIT_USAGE;
    if (!filter)
        return CLI_EXIT_FAIL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", options, NULL)) != -1) {
        switch (c) {
        case 'j': st.json = true; break;
        case 'K': keep_going = true; break;
        case 'k': /* zstd's -k and -q: this command removes no input and has no progress */
        case 'q': break;
        case CLI_OPT_TAG:
        case CLI_OPT_PLAYER:
            if (cli_select_opt(filter, c, optarg) < 0)
                goto out;
            break;
        case 'h': fputs(list_usage, stdout); status = CLI_EXIT_OK; goto out;
        default: fputs(list_usage, stderr); goto out;
        }
    }
    if (optind >= argc) {
        fputs(list_usage, stderr);
        goto out;
    }
    status = CLI_EXIT_OK;
    uint64_t number = 0;
    for (int i = optind; i < argc && status == CLI_EXIT_OK; i++) {
        st.file_start = number;
        if (cli_each_game(argv[i], filter, keep_going, false, &number, list_one, &st) != 0)
            status = CLI_EXIT_FAIL;
    }
    if (st.json)
        fputs(st.shown ? "\n]\n" : "[]\n", stdout);
out:
    uz_game_filter_free(filter);
    return status;
}
