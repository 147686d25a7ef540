/* ucizip ratings: every player's Glicko-2 rating from the results of the games, updated
 * game by game in date order. Reads only the tags (an archive's structure streams): the
 * engine is never started. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cli_tags.h"
#include "cli_json.h"
#include "cli_util.h"
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

static const char ratings_usage[] =
    "usage: ucizip ratings ARCHIVE|FILE.pgn... [--json] [--tau T] [--tag COND]... [--player NAME]\n"
    "Every player's rating by Glicko-2 (Glickman 2013): each player's strength a normal\n"
    "distribution (rating, deviation RD) and a volatility, updated game by game in date\n"
    "order (Date, then UTCTime or Time; input order within equal keys), each game a rating\n"
    "period of its own for both players. Start 1500/350/0.06. Games without a result or\n"
    "without both player names are left out. Reads only the tags: no engine.\n"
    "  --tau T             volatility constraint (default 0.5)\n"
    CLI_SELECT_HELP
    "  --json              the ratings as one JSON object (doc/json.md)\n"
    "  --keep-going        skip PGN games that cannot be read (each reported)\n" CLI_KEEP_QUIET_HELP;

typedef struct player {
    char *name;
    uz_player_rating r;
    long wins, draws, losses;
} player;

typedef struct rated_game {
    char *when;        /* sort key: date, then time */
    uint64_t order;    /* input order, for equal keys */
    uint32_t white, black;
    double score;      /* White's */
} rated_game;

typedef struct ratings_state {
    player *players;
    size_t n_players, cap_players;
    uint32_t *table;   /* open addressing: player index + 1, 0 empty */
    size_t table_cap;  /* power of two */
    rated_game *games;
    size_t n_games, cap_games;
    long left_out;
    bool oom;
} ratings_state;

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211ULL;
    return h;
}

static bool grow_table(ratings_state *st)
{
    size_t cap = st->table_cap ? st->table_cap * 2 : 1024;
    uint32_t *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; i < st->n_players; i++) {
        size_t h = hash_str(st->players[i].name) & (cap - 1);
        while (t[h])
            h = (h + 1) & (cap - 1);
        t[h] = (uint32_t)i + 1;
    }
    free(st->table);
    st->table = t;
    st->table_cap = cap;
    return true;
}

/* Index of the player called name, added if new; -1 when out of memory. */
static long player_index(ratings_state *st, const char *name)
{
    if ((st->n_players + 1) * 2 > st->table_cap && !grow_table(st))
        return -1;
    size_t h = hash_str(name) & (st->table_cap - 1);
    while (st->table[h]) {
        if (strcmp(st->players[st->table[h] - 1].name, name) == 0)
            return (long)st->table[h] - 1;
        h = (h + 1) & (st->table_cap - 1);
    }
    if (st->n_players == st->cap_players) {
        size_t cap = st->cap_players ? st->cap_players * 2 : 256;
        player *p = realloc(st->players, cap * sizeof *p);
        if (!p)
            return -1;
        st->players = p;
        st->cap_players = cap;
    }
    player *p = &st->players[st->n_players];
    memset(p, 0, sizeof *p);
    p->name = strdup(name);
    if (!p->name)
        return -1;
    p->r = uz_rating_initial();
    st->table[h] = (uint32_t)++st->n_players;
    return (long)st->n_players - 1;
}

static bool named(const char *s)
{
    return s && *s && strcmp(s, "?") != 0 && strcmp(s, "-") != 0;
}

static int collect(void *user, const cli_tag_game *g)
{
    ratings_state *st = user;
    const uz_game *game = g->game;
    const char *w = uz_game_tag_value(game, "White"), *b = uz_game_tag_value(game, "Black");
    const char *result = uz_game_result_text(game);
    if (strcmp(result, "*") == 0 || !named(w) || !named(b) || strcmp(w, b) == 0) {
        st->left_out++;
        return 0;
    }
    long wi = player_index(st, w), bi = player_index(st, b);
    if (st->n_games == st->cap_games) {
        size_t cap = st->cap_games ? st->cap_games * 2 : 1024;
        rated_game *p = realloc(st->games, cap * sizeof *p);
        if (!p)
            wi = -1;
        else {
            st->games = p;
            st->cap_games = cap;
        }
    }
    const char *date = uz_game_tag_value(game, "Date");
    if (!date)
        date = uz_game_tag_value(game, "UTCDate");
    const char *time = uz_game_tag_value(game, "UTCTime");
    if (!time)
        time = uz_game_tag_value(game, "Time");
    size_t n = (date ? strlen(date) : 0) + (time ? strlen(time) : 0) + 2;
    char *when = wi >= 0 && bi >= 0 ? malloc(n) : NULL;
    if (!when) {
        st->oom = true;
        cli_error("out of memory");
        return -1;
    }
    snprintf(when, n, "%s %s", date ? date : "", time ? time : "");
    rated_game *rg = &st->games[st->n_games++];
    rg->when = when;
    rg->order = g->number;
    rg->white = (uint32_t)wi;
    rg->black = (uint32_t)bi;
    rg->score = strcmp(result, "1-0") == 0 ? 1.0 : strcmp(result, "0-1") == 0 ? 0.0 : 0.5;
    return 0;
}

static int by_when(const void *a, const void *b)
{
    const rated_game *x = a, *y = b;
    int c = strcmp(x->when, y->when);
    return c ? c : (x->order > y->order) - (x->order < y->order);
}

static int by_rating(const void *a, const void *b)
{
    const player *x = a, *y = b;
    if (x->r.rating != y->r.rating)
        return x->r.rating < y->r.rating ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void rate_all(ratings_state *st, double tau)
{
    if (st->n_games > 1) /* (qsort of a NULL array, even of 0 elements, is undefined) */
        qsort(st->games, st->n_games, sizeof *st->games, by_when);
    for (size_t i = 0; i < st->n_games; i++) {
        rated_game *g = &st->games[i];
        player *w = &st->players[g->white], *b = &st->players[g->black];
        /* Both updates from the ratings before the game. */
        uz_rated_game gw = {b->r, g->score}, gb = {w->r, 1.0 - g->score};
        /* (one game a period: nothing to allocate, no error) */
        (void)uz_rating_update(&w->r, &gw, 1, tau, NULL);
        (void)uz_rating_update(&b->r, &gb, 1, tau, NULL);
        if (g->score == 1.0) {
            w->wins++;
            b->losses++;
        } else if (g->score == 0.0) {
            w->losses++;
            b->wins++;
        } else {
            w->draws++;
            b->draws++;
        }
    }
    if (st->n_players > 1)
        qsort(st->players, st->n_players, sizeof *st->players, by_rating);
}

static int print_ratings_json(const ratings_state *st, double tau)
{
    json_t *players = json_array();
    for (size_t i = 0; players && i < st->n_players; i++) {
        const player *p = &st->players[i];
        json_t *o = json_object();
        cli_json_set_text(o, "name", p->name);
        json_object_set_new(o, "rating", cli_json_fixed(p->r.rating, 2));
        json_object_set_new(o, "rd", cli_json_fixed(p->r.rd, 2));
        json_object_set_new(o, "volatility", cli_json_fixed(p->r.volatility, 6));
        json_object_set_new(o, "games", json_integer(p->wins + p->draws + p->losses));
        json_object_set_new(o, "wins", json_integer(p->wins));
        json_object_set_new(o, "draws", json_integer(p->draws));
        json_object_set_new(o, "losses", json_integer(p->losses));
        json_array_append_new(players, o);
    }
    return cli_json_print(stdout, json_pack("{s:s, s:o, s:{s:i, s:i, s:f}, s:I, s:I, s:o}", "method", "Glicko-2", "tau",
                                            cli_json_fixed(tau, 6), "initial", "rating", 1500, "rd", 350,
                                            "volatility", 0.06, "games", (json_int_t)st->n_games, "left_out",
                                            (json_int_t)st->left_out, "players", players));
}

static void print_ratings(const ratings_state *st, double tau)
{
    printf("# Glicko-2, tau %g, %zu games rated (%ld left out), %zu players\n", tau, st->n_games, st->left_out,
           st->n_players);
    printf("# rank\tplayer\trating\tRD\tvolatility\tgames\t+\t=\t-\n");
    for (size_t i = 0; i < st->n_players; i++) {
        const player *p = &st->players[i];
        printf("%zu\t", i + 1);
        cli_put_field(stdout, p->name); /* control characters escaped */
        printf("\t%.1f\t%.1f\t%.5f\t%ld\t%ld\t%ld\t%ld\n", p->r.rating, p->r.rd, p->r.volatility,
               p->wins + p->draws + p->losses, p->wins, p->draws, p->losses);
    }
}

int cmd_ratings(int argc, char **argv)
{
    static const struct option options[] = {{"json", no_argument, NULL, 'j'},
                                            {"tau", required_argument, NULL, 'T'},
                                            CLI_SELECT_OPTIONS,
                                            {"keep-going", no_argument, NULL, 'K'}, CLI_KEEP_QUIET_OPTIONS,
                                            {"help", no_argument, NULL, 'h'},
                                            {NULL, 0, NULL, 0}};
    ratings_state st = {0};
    uz_game_filter *filter = cli_filter_new();
    bool json = false, keep_going = false;
    double tau = uz_rating_default_tau();
    int c, status = CLI_EXIT_USAGE;
    char *end;
    if (!filter)
        return CLI_EXIT_FAIL;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", options, NULL)) != -1) {
        switch (c) {
        case 'j': json = true; break;
        case 'K': keep_going = true; break;
        case 'k': /* zstd's -k and -q: this command removes no input and has no progress */
        case 'q': break;
        case 'T':
            tau = strtod(optarg, &end);
            if (*end || !(tau > 0.0 && tau <= 10.0)) {
                cli_error("--tau %s: a number above 0 and at most 10 expected", optarg);
                goto out;
            }
            break;
        case CLI_OPT_TAG:
        case CLI_OPT_PLAYER:
            if (cli_select_opt(filter, c, optarg) < 0)
                goto out;
            break;
        case 'h': fputs(ratings_usage, stdout); status = CLI_EXIT_OK; goto out;
        default: fputs(ratings_usage, stderr); goto out;
        }
    }
    if (optind >= argc) {
        fputs(ratings_usage, stderr);
        goto out;
    }
    status = CLI_EXIT_OK;
    uint64_t number = 0;
    for (int i = optind; i < argc && status == CLI_EXIT_OK; i++)
        if (cli_each_game(argv[i], uz_game_filter_conditions(filter) ? filter : NULL, keep_going, false, &number, collect, &st) != 0)
            status = CLI_EXIT_FAIL;
    if (status == CLI_EXIT_OK) {
        rate_all(&st, tau);
        if (!json)
            print_ratings(&st, tau);
        else if (print_ratings_json(&st, tau) != 0)
            status = CLI_EXIT_FAIL;
    }
out:
    for (size_t i = 0; i < st.n_players; i++)
        free(st.players[i].name);
    for (size_t i = 0; i < st.n_games; i++)
        free(st.games[i].when);
    free(st.players);
    free(st.games);
    free(st.table);
    uz_game_filter_free(filter);
    return status;
}
