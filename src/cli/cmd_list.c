/* ucizip list: one line per game from the tags alone (an archive's structure streams;
 * the engine is never started), optionally only the games that match --tag conditions. */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli_tags.h"
#include "cli_util.h"

static const char list_usage[] =
    "usage: ucizip list ARCHIVE|FILE.pgn... [--tag COND]... [--json]\n"
    "One line per game: number, White, WhiteElo, Black, BlackElo, result, date, event,\n"
    "plies (tab-separated; '-' where a tag is missing). Reads only the tags: no engine.\n"
    "  --tag COND   only games whose tags meet COND (all of them when repeated):\n"
    "               Name=text (contains, any case), Name==text (exactly), Name!=text,\n"
    "               Name<x Name<=x Name>x Name>=x (x a number: the value's leading\n"
    "               number, none never matches; else text: dates compare as dates)\n"
    "  --json       one JSON object per game, in a JSON array\n"
    "A tag an archive derives from the moves (chess.com's CurrentPosition) is null in\n"
    "--json and cannot be a --tag condition here; extract --tag decodes such games.\n";

static const char *result_text(uz_game_result r)
{
    switch (r) {
    case UZ_RESULT_WHITE: return "1-0";
    case UZ_RESULT_BLACK: return "0-1";
    case UZ_RESULT_DRAW: return "1/2-1/2";
    default: return "*";
    }
}

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
} list_state;

static const char *const list_tags[] = {"White", "WhiteElo", "Black", "BlackElo"};

static int list_one(void *user, const cli_tag_game *g)
{
    list_state *st = user;
    const uz_game *game = g->game;
    /* A verbatim game's plies are not counted without replaying it: -1. */
    long plies = game->verbatim ? -1 : (long)game->main.n_nodes;
    if (st->json) {
        printf("%s{\"game\":%llu", st->shown ? ",\n" : "[\n", (unsigned long long)g->number);
        static const char *const keys[] = {"white", "white_elo", "black", "black_elo"};
        for (int i = 0; i < 4; i++) {
            const char *v = uz_game_tag(game, list_tags[i]);
            printf(",\"%s\":", keys[i]);
            if (v)
                cli_json_string(v);
            else
                fputs("null", stdout);
        }
        printf(",\"result\":\"%s\",\"date\":", result_text(game->result));
        const char *v = uz_game_tag(game, "Date");
        if (v)
            cli_json_string(v);
        else
            fputs("null", stdout);
        fputs(",\"event\":", stdout);
        v = uz_game_tag(game, "Event");
        if (v)
            cli_json_string(v);
        else
            fputs("null", stdout);
        printf(",\"plies\":%ld,\"tags\":[", plies);
        for (size_t i = 0; i < game->n_tags; i++) { /* every tag, in order: [name, value] */
            fputs(i ? ",[" : "[", stdout);
            cli_json_string(game->tags[i].name);
            putchar(',');
            if (game->final_fen_tag == i + 1) /* derived from the moves: not known without them */
                fputs("null", stdout);
            else
                cli_json_string(game->tags[i].value);
            putchar(']');
        }
        fputs("]}", stdout);
    } else {
        printf("%llu", (unsigned long long)g->number);
        for (int i = 0; i < 4; i++) {
            putchar('\t');
            put_field(uz_game_tag(game, list_tags[i]));
        }
        printf("\t%s\t", result_text(game->result));
        put_field(uz_game_tag(game, "Date"));
        putchar('\t');
        put_field(uz_game_tag(game, "Event"));
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
                                            {"tag", required_argument, NULL, 't'},
                                            {"keep-going", no_argument, NULL, 'k'},
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    list_state st = {0};
    uz_tag_filter filter = {0};
    bool keep_going = false;
    int c, status = CLI_EXIT_USAGE;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hk", options, NULL)) != -1) {
        switch (c) {
        case 'j': st.json = true; break;
        case 'k': keep_going = true; break;
        case 't':
            if (cli_tag_option(&filter, optarg) != 0)
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
    for (int i = optind; i < argc && status == CLI_EXIT_OK; i++)
        if (cli_each_game(argv[i], &filter, keep_going, false, &number, list_one, &st) != 0)
            status = CLI_EXIT_FAIL;
    if (st.json)
        fputs(st.shown ? "\n]\n" : "[]\n", stdout);
out:
    uz_tag_filter_free(&filter);
    return status;
}
