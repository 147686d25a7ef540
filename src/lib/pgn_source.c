/* uz_pgn_source and the uz_game accessors (ucizip_experimental.h): PGN files read one
 * after the other through the library's game source (game_source.h), with its policies. */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "game_source.h"
#include "io/input.h"

struct uz_pgn_source {
    uz_game_source gs;
    const char *const *paths; /* borrowed */
    size_t n_paths, next_path;
    const char *failed;       /* the input that could not be opened, for its name */
};

uz_result uz_game_new(uz_game **out, uz_diag *diag)
{
    *out = malloc(sizeof **out);
    if (!*out) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_game_init(*out);
    return UZ_OK;
}

void uz_game_free(uz_game *game)
{
    if (!game)
        return;
    uz_game_clear(game);
    free(game);
}

const char *uz_game_bytes(const uz_game *game, size_t *len)
{
    *len = game->raw_len;
    return game->raw ? game->raw : ""; /* never NULL: callers copy *len bytes from it */
}

bool uz_game_is_game(const uz_game *game)
{
    return !game->text_only;
}

uz_result uz_game_write_pgn(FILE *out, const uz_game *game)
{
    return uz_pgn_write_game(out, game);
}

uz_result uz_game_write_uci(FILE *out, const uz_game *game)
{
    char text[UZ_UCI_MAX];
    if (game->has_fen) { /* the moves mean nothing without the position they start from */
        char fen[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, fen);
        if (fprintf(out, game->main.n_nodes ? "fen %s moves " : "fen %s", fen) < 0)
            return UZ_ERR_IO;
    }
    for (size_t i = 0; i < game->main.n_nodes; i++) {
        uz_move_to_uci(game->main.nodes[i].move, text);
        if (fprintf(out, i ? " %s" : "%s", text) < 0)
            return UZ_ERR_IO;
    }
    return fputc('\n', out) == EOF ? UZ_ERR_IO : UZ_OK;
}

/* Opens the next path of the list: UZ_OK, UZ_DONE at the end of the list, or the error
 * of an input that cannot be read when the policy says stop. */
static uz_result open_next(uz_pgn_source *s, bool keep_going, uz_diag *diag)
{
    s->gs.damaged_inputs = keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    s->failed = NULL;
    while (s->next_path < s->n_paths) {
        const char *path = s->paths[s->next_path++];
        uz_result r = uz_game_source_open(&s->gs, path, diag);
        if (r == UZ_DONE) /* skipped, and said */
            continue;
        if (r != UZ_OK)
            s->failed = path && strcmp(path, "-") != 0 ? path : "<stdin>";
        return r;
    }
    return UZ_DONE;
}

uz_result uz_pgn_source_open(uz_pgn_source **out, const char *const *paths, size_t n, bool keep_going,
                             uz_message_fn on_message, void *user, uz_diag *diag)
{
    uz_pgn_source *s = calloc(1, sizeof *s);
    *out = s;
    if (!s) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_game_source_init(&s->gs);
    s->gs.on_message = on_message;
    s->gs.user = user;
    s->paths = paths;
    s->n_paths = n;
    return open_next(s, keep_going, diag);
}

uz_result uz_pgn_source_read(uz_pgn_source *s, uz_game *game, const uz_pgn_source_policy *policy, uz_diag *diag)
{
    uz_game_source *gs = &s->gs;
    gs->exact = policy->exact;
    /* Exact bytes keep any game that cannot be replayed as text; otherwise a bad game
     * stops the reading, or is skipped with keep_going. */
    uz_policy bad = policy->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    gs->bad_games = policy->exact ? UZ_POLICY_KEEP_AS_TEXT : bad;
    gs->variants = policy->exact || policy->keep_verbatim ? UZ_POLICY_KEEP_AS_TEXT : bad;
    gs->damaged_inputs = policy->keep_going ? UZ_POLICY_SKIP : UZ_POLICY_STOP;
    gs->max_games = policy->max_games;
    while (gs->reader) {
        long got = uz_game_source_read(gs, game, 1, diag);
        if (got < 0)
            return diag && diag->code ? diag->code : UZ_ERR_CORRUPT;
        /* The next input is opened as soon as one ends (its failure stops the reading,
         * the game just read included). */
        bool enough = gs->max_games > 0 && gs->games >= gs->max_games;
        if (!gs->reader && !enough) {
            uz_result r = open_next(s, policy->keep_going, diag);
            if (r != UZ_OK && r != UZ_DONE)
                return r;
        }
        if (got == 1)
            return UZ_OK;
    }
    return UZ_DONE;
}

const char *uz_pgn_source_name(const uz_pgn_source *s)
{
    return s->gs.name ? s->gs.name : "<no input>";
}

const char *uz_pgn_source_failed_input(const uz_pgn_source *s)
{
    return s->failed;
}

void uz_pgn_source_counts_get(const uz_pgn_source *s, uz_pgn_source_counts *c)
{
    *c = (uz_pgn_source_counts){s->gs.games, s->gs.as_text, s->gs.skipped, s->gs.inputs_skipped};
}

uint64_t uz_pgn_source_game_offset(const uz_pgn_source *s)
{
    return s->gs.reader ? uz_pgn_reader_last_offset(s->gs.reader) : 0;
}

double uz_pgn_source_game_position(const uz_pgn_source *s)
{
    if (!s->gs.reader)
        return 0.0;
    double pos = (double)uz_pgn_reader_last_offset(s->gs.reader);
    uint64_t out_bytes = uz_input_offset(s->gs.input);
    if (uz_input_get_kind(s->gs.input) != UZ_INPUT_PLAIN && out_bytes > 0)
        pos *= (double)uz_input_raw_offset(s->gs.input) / (double)out_bytes;
    return pos;
}

void uz_pgn_source_close(uz_pgn_source *s)
{
    if (!s)
        return;
    uz_game_source_end(&s->gs);
    free(s->gs.name);
    free(s);
}
