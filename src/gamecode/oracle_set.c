/* The oracle set (oracle_set.h): an engine with its Chess960 instance behind one routing
 * oracle, or the builtin; started, checked and destroyed here only. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gamecode/member.h"
#include "gamecode/oracle_set.h"

struct uz_oracle_set {
    uz_pool *pool;              /* the engine (NULL with the builtin) */
    uz_pool *pool960;           /* the engine in Chess960 mode, once started */
    uz_oracle *route;           /* pool and pool960 as one oracle (NULL with the builtin) */
    uz_builtin_pool *builtin;   /* the builtin, instead of the pools */
    int workers;
    bool tried960;              /* compressing: the Chess960 engine was asked for (said once) */
    bool builtin960;            /* the builtin was asked to code Chess960 games */
    bool decoding;              /* expect_chess960 was called: a failed start is an error */
    char expect960[sizeof ((uz_archive_header *)0)->chess960_fingerprint];
    void (*on_message)(void *user, const char *input, const uz_diag *note);
    void *user;
};

static uz_result out_of_memory(uz_diag *diag)
{
    uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
    return UZ_ERR_NOMEM;
}

/* A pool's warning (an engine that did not answer in time) as the set's message. */
static void pool_warning(void *user, const char *message)
{
    const uz_oracle_set *set = user;
    if (!set->on_message)
        return;
    uz_diag note = {0};
    uz_diag_set(&note, UZ_ERR_TIMEOUT, 0, 0, "%s", message);
    set->on_message(set->user, NULL, &note);
}

/* set->route: the pools as one routing oracle (an earlier one destroyed first). */
static uz_result route_pools(uz_oracle_set *set, uz_diag *diag)
{
    if (set->pool960)
        uz_pool_on_warning(set->pool960, pool_warning, set);
    uz_oracle_destroy(set->route);
    uz_result r = uz_oracle_route_create(&set->route, uz_pool_oracle(set->pool), uz_pool_oracle(set->pool960));
    return r == UZ_OK ? UZ_OK : out_of_memory(diag);
}

uz_result uz_oracle_set_open_engine(uz_oracle_set **out, const uz_engine_settings *s, int workers, uz_diag *diag)
{
    *out = NULL;
    uz_oracle_set *set = calloc(1, sizeof *set);
    if (!set)
        return out_of_memory(diag);
    set->workers = workers;
    uz_result r = uz_pool_create(&set->pool, s, workers, diag);
    if (r == UZ_OK)
        r = route_pools(set, diag);
    if (r != UZ_OK) {
        uz_oracle_set_close(set);
        return r;
    }
    *out = set;
    return UZ_OK;
}

uz_result uz_oracle_set_open_builtin(uz_oracle_set **out, int version, int depth, int workers, uz_diag *diag)
{
    *out = NULL;
    uz_oracle_set *set = calloc(1, sizeof *set);
    if (!set)
        return out_of_memory(diag);
    set->workers = workers;
    uz_result r = uz_builtin_pool_create(&set->builtin, version, depth, workers, diag);
    if (r != UZ_OK) {
        free(set);
        return r;
    }
    *out = set;
    return UZ_OK;
}

void uz_oracle_set_close(uz_oracle_set *set)
{
    if (!set)
        return;
    uz_oracle_destroy(set->route);
    uz_pool_destroy(set->pool960);
    uz_pool_destroy(set->pool);
    uz_builtin_pool_destroy(set->builtin);
    free(set);
}

void uz_oracle_set_on_message(uz_oracle_set *set, void (*fn)(void *user, const char *input, const uz_diag *note),
                              void *user)
{
    set->on_message = fn;
    set->user = user;
    if (set->pool)
        uz_pool_on_warning(set->pool, pool_warning, set);
    if (set->pool960)
        uz_pool_on_warning(set->pool960, pool_warning, set);
}

uz_oracle *uz_oracle_set_oracle(uz_oracle_set *set)
{
    return set->builtin ? uz_builtin_pool_oracle(set->builtin) : set->route;
}

uz_pool *uz_oracle_set_pool(const uz_oracle_set *set)
{
    return set ? set->pool : NULL;
}

uz_builtin_pool *uz_oracle_set_builtin(const uz_oracle_set *set)
{
    return set ? set->builtin : NULL;
}

uz_result uz_oracle_set_expect_chess960(uz_oracle_set *set, const char *fingerprint, uz_diag *diag)
{
    set->decoding = true;
    if (strcmp(set->expect960, fingerprint) == 0)
        return UZ_OK;
    uz_copy_str(set->expect960, sizeof set->expect960, fingerprint);
    if (!set->pool960)
        return UZ_OK;
    /* Started for another member's engine: the router stops borrowing it first. */
    uz_oracle_destroy(set->route);
    set->route = NULL;
    uz_pool_destroy(set->pool960);
    set->pool960 = NULL;
    return route_pools(set, diag);
}

bool uz_oracle_set_expects_chess960(const uz_oracle_set *set)
{
    return set->expect960[0] != 0;
}

/* Compressing or analysing: an engine without UCI_Chess960 leaves pool960 NULL (its
 * Chess960 games are then kept as text), said once. */
static uz_result start_for_coding(uz_oracle_set *set, uz_diag *diag)
{
    if (set->tried960)
        return UZ_OK;
    set->tried960 = true;
    uz_result r = uz_pool_create_chess960(&set->pool960, set->pool, set->workers, diag);
    if (r == UZ_OK)
        return route_pools(set, diag);
    set->pool960 = NULL;
    if (r != UZ_ERR_UNSUPPORTED && r != UZ_ERR_ARG)
        return r;
    memset(diag, 0, sizeof *diag);
    if (set->on_message) {
        uz_diag note = {0};
        uz_diag_set(&note, UZ_ERR_UNSUPPORTED, 0, 0,
                    "%s has no option UCI_Chess960: Chess960 games kept as text, moves not coded",
                    uz_pool_engine_name(set->pool));
        set->on_message(set->user, NULL, &note);
    }
    return UZ_OK;
}

/* Decoding: the Chess960 engine must be the one whose fingerprint the header records. */
static uz_result start_checked(uz_oracle_set *set, uz_diag *diag)
{
    uz_result r = uz_pool_create_chess960(&set->pool960, set->pool, set->workers, diag);
    if (r != UZ_OK) {
        char why[sizeof diag->message];
        uz_copy_str(why, sizeof why, diag->message);
        r = r == UZ_ERR_UNSUPPORTED ? UZ_ERR_MISMATCH : r;
        uz_diag_set(diag, r, 0, 0,
                    "wrong engine: the archive's Chess960 games need the engine with UCI_Chess960 (fingerprint %s): %s",
                    set->expect960, why);
        return r;
    }
    if (strcmp(uz_pool_fingerprint(set->pool960), set->expect960) != 0) {
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "wrong engine: with UCI_Chess960 it gives fingerprint %s, the archive's Chess960 games need %s",
                    uz_pool_fingerprint(set->pool960), set->expect960);
        uz_pool_destroy(set->pool960);
        set->pool960 = NULL;
        return UZ_ERR_MISMATCH;
    }
    return route_pools(set, diag);
}

uz_result uz_oracle_set_start_chess960(uz_oracle_set *set, uz_diag *diag)
{
    if (set->builtin) { /* the builtin scores Chess960 positions itself */
        set->builtin960 = true;
        return UZ_OK;
    }
    if (set->pool960)
        return UZ_OK;
    return set->decoding ? start_checked(set, diag) : start_for_coding(set, diag);
}

bool uz_oracle_set_codes_chess960(const uz_oracle_set *set)
{
    return set->builtin ? set->builtin960 : set->pool960 != NULL;
}

/* Whether one of games[0..n) is a Chess960 game to code (not verbatim). */
static bool has_chess960(const uz_game *games, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!games[i].verbatim && games[i].start.chess960)
            return true;
    return false;
}

/* Makes every Chess960 game of games[0..n) a verbatim game: its exact bytes when the
 * reader kept them, else its export-format text. */
static uz_result chess960_as_text(uz_game *games, size_t n, uz_diag *diag)
{
    for (size_t i = 0; i < n; i++) {
        if (games[i].verbatim || !games[i].start.chess960)
            continue;
        char *text = games[i].raw;
        size_t len = games[i].raw_len;
        games[i].raw = NULL;
        if ((!text && uz_pgn_game_to_string(&games[i], &text, &len) != UZ_OK) ||
            uz_game_set_verbatim(&games[i], text, len) != UZ_OK) {
            free(text);
            return out_of_memory(diag);
        }
        free(text);
    }
    return UZ_OK;
}

uz_result uz_oracle_set_prepare_games(uz_oracle_set *set, uz_game *games, size_t n, uz_diag *diag)
{
    if (!has_chess960(games, n))
        return UZ_OK;
    uz_result r = uz_oracle_set_start_chess960(set, diag);
    if (r == UZ_OK && !uz_oracle_set_codes_chess960(set))
        r = chess960_as_text(games, n, diag);
    return r;
}

uz_result uz_oracle_set_prepare_decode(uz_oracle_set *set, bool chess960, uz_diag *diag)
{
    if (!chess960)
        return UZ_OK;
    if (!uz_oracle_set_expects_chess960(set))
        return UZ_ERR_CORRUPT;
    return uz_oracle_set_start_chess960(set, diag);
}

bool uz_oracle_set_header_current(const uz_oracle_set *set, const uz_archive_header *h)
{
    return !uz_oracle_set_codes_chess960(set) || h->chess960_fingerprint[0] != 0;
}

void uz_oracle_set_fill_header(const uz_oracle_set *set, uz_archive_header *h, const uz_model_params *model,
                               uz_coder_kind coder, uint32_t block_games)
{
    if (set->builtin) {
        uz_header_fill_builtin(h, set->builtin, model, coder, block_games);
        if (set->builtin960)
            uz_header_builtin_chess960(h);
        return;
    }
    uz_header_fill(h, set->pool, model, coder, block_games);
    if (set->pool960)
        uz_copy_str(h->chess960_fingerprint, sizeof h->chess960_fingerprint, uz_pool_fingerprint(set->pool960));
}

void uz_oracle_set_pool_stats(const uz_oracle_set *set, uz_pool_stats *sum)
{
    memset(sum, 0, sizeof *sum);
    const uz_pool *pools[] = {set->pool, set->pool960};
    for (size_t i = 0; i < sizeof pools / sizeof *pools; i++) {
        uz_pool_stats ps;
        if (!pools[i])
            continue;
        uz_pool_get_stats(pools[i], &ps);
        sum->queries += ps.queries;
        sum->trivial += ps.trivial;
        sum->cache_hits += ps.cache_hits;
        sum->coalesced += ps.coalesced;
        sum->store_hits += ps.store_hits;
        sum->store_disagreements += ps.store_disagreements;
        sum->restarts += ps.restarts;
    }
}

/* settings plus UCI_Chess960 = true (replacing any value it had). */
static uz_result chess960_settings(uz_engine_settings *s, uz_diag *diag)
{
    int i = 0;
    while (i < s->n_options && strcmp(s->options[i].name, "UCI_Chess960") != 0)
        i++;
    if (i == s->n_options) {
        if (s->n_options == UZ_ENGINE_MAX_OPTIONS) {
            uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "too many engine options to add UCI_Chess960");
            return UZ_ERR_ARG;
        }
        s->n_options++;
        snprintf(s->options[i].name, sizeof s->options[i].name, "UCI_Chess960");
    }
    snprintf(s->options[i].value, sizeof s->options[i].value, "true");
    return UZ_OK;
}

uz_result uz_pool_create_chess960(uz_pool **out, const uz_pool *pool, int workers, uz_diag *diag)
{
    uz_engine_settings s = *uz_pool_settings(pool);
    *out = NULL;
    uz_result r = chess960_settings(&s, diag);
    return r == UZ_OK ? uz_pool_create(out, &s, workers, diag) : r;
}
