/* PGN inputs read game by game under the policies of uz_options. */
#include "game_source.h"
#include "lib_internal.h"

#include <stdlib.h>
#include <string.h>

#include "io/input.h"

void uz_game_source_init(uz_game_source *src)
{
    memset(src, 0, sizeof *src);
    src->exact = true;
    src->bad_games = UZ_POLICY_KEEP_AS_TEXT;
    src->variants = UZ_POLICY_KEEP_AS_TEXT;
    src->damaged_inputs = UZ_POLICY_STOP;
}

static void say(const uz_game_source *src, const uz_diag *diag)
{
    if (src->on_message)
        src->on_message(src->user, src->name ? src->name : "<input>", diag);
}

static uz_result set_name(uz_game_source *src, const char *name, uz_diag *diag)
{
    free(src->name);
    src->name = strdup(name);
    if (!src->name) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    src->reported_as_text = false;
    return UZ_OK;
}

uz_result uz_game_source_open(uz_game_source *src, const char *path, uz_diag *diag)
{
    uz_game_source_end(src);
    bool is_stdin = !path || strcmp(path, "-") == 0;
    uz_result r = set_name(src, is_stdin ? "<stdin>" : path, diag);
    if (r != UZ_OK)
        return r;
    uz_diag why = {0};
    r = uz_input_open(&src->input, is_stdin ? "-" : path, &why);
    if (r != UZ_OK) {
        if (r == UZ_ERR_NOMEM || src->damaged_inputs != UZ_POLICY_SKIP) {
            if (diag)
                *diag = why;
            return r;
        }
        say(src, &why);
        src->inputs_skipped++;
        return UZ_DONE;
    }
    src->reader = uz_pgn_reader_open(uz_input_file(src->input), src->name);
    if (!src->reader) {
        uz_game_source_end(src);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    return UZ_OK;
}

uz_result uz_game_source_open_mem(uz_game_source *src, const char *text, size_t len, const char *name,
                                  uz_diag *diag)
{
    uz_game_source_end(src);
    uz_result r = set_name(src, name ? name : "<memory>", diag);
    if (r != UZ_OK)
        return r;
    src->reader = uz_pgn_reader_open_mem(text, len, src->name);
    if (!src->reader) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    return UZ_OK;
}

void uz_game_source_end(uz_game_source *src)
{
    if (src->input)
        src->bytes_done += uz_input_raw_offset(src->input);
    uz_pgn_reader_close(src->reader);
    uz_input_close(src->input);
    src->reader = NULL;
    src->input = NULL;
}

uint64_t uz_game_source_bytes(const uz_game_source *src)
{
    if (!src->input)
        return src->bytes_done;
    /* The input reads ahead of the games parsed (a compressed one by whole chunks):
     * scale the file bytes consumed by the share of the bytes it delivered that the
     * reader has reached, so that progress follows the games, not the read-ahead. */
    uint64_t raw = uz_input_raw_offset(src->input), delivered = uz_input_offset(src->input);
    uint64_t reached = src->reader ? uz_pgn_reader_last_offset(src->reader) : delivered;
    if (delivered > 0 && reached < delivered)
        raw = (uint64_t)((double)raw * ((double)reached / (double)delivered));
    return src->bytes_done + raw;
}

/* The policy for a game the reader could not return as a tree (r its error). */
static uz_policy policy_for(const uz_game_source *src, uz_result r)
{
    if (r == UZ_ERR_IO || r == UZ_ERR_NOMEM)
        return UZ_POLICY_STOP;
    return r == UZ_ERR_UNSUPPORTED ? src->variants : src->bad_games;
}

/* Makes games[n] a verbatim game of the bytes the reader read for it: its exact bytes
 * when they were kept, else the text of the game as read. */
static bool keep_as_text(uz_game_source *src, uz_game *game)
{
    if (src->exact && game->raw) {
        game->verbatim = true;
        return true;
    }
    const char *text;
    size_t len;
    return uz_pgn_reader_last_text(src->reader, &text, &len) == UZ_OK &&
           uz_game_set_verbatim(game, text, len) == UZ_OK;
}

long uz_game_source_read(uz_game_source *src, uz_game *games, size_t cap, uz_diag *diag)
{
    size_t n = 0;
    if (src->max_games > 0 && cap > src->max_games - src->games) {
        cap = (size_t)(src->max_games - src->games);
        if (cap == 0) { /* enough games: the rest of the input is not read */
            uz_game_source_end(src);
            return 0;
        }
    }
    while (n < cap && src->reader) {
        uz_diag why = {0};
        uz_pgn_reader_keep_raw(src->reader, src->exact);
        uz_result r = uz_pgn_read_game(src->reader, &games[n], &why);
        /* A damaged or truncated compressed input shows first as the error of the game
         * it cut (often a syntax error): report the damage instead. */
        bool damaged = r != UZ_OK && r != UZ_DONE && src->input && uz_input_error(src->input, &why) != UZ_OK;
        if (r == UZ_DONE || damaged) {
            if (damaged) {
                if (src->damaged_inputs != UZ_POLICY_SKIP) {
                    if (diag)
                        *diag = why;
                    return -1;
                }
                say(src, &why); /* the games before the damage are kept */
                src->inputs_skipped++;
            } else if (src->exact && games[n].raw_len > 0) {
                games[n].text_only = true; /* the input's bytes after its last game */
                n++;
            }
            uz_game_source_end(src);
            break;
        }
        if (r != UZ_OK && uz_pgn_reader_last_oversized(src->reader)) {
            /* Past the game size limit: it cannot be kept as text, and is most likely
             * damage or a bomb, so the damaged-input policy decides: skipped (its rest
             * read without keeping it) or the end of the call. */
            if (src->damaged_inputs != UZ_POLICY_SKIP) {
                if (diag)
                    *diag = why;
                return -1;
            }
            say(src, &why);
            src->skipped++;
            continue;
        }
        if (r != UZ_OK) {
            uz_policy p = policy_for(src, r);
            if (p == UZ_POLICY_KEEP_AS_TEXT && keep_as_text(src, &games[n])) {
                if (!src->reported_as_text) {
                    /* One message per input: the first such game says where. */
                    src->reported_as_text = true;
                    size_t used = strlen(why.message);
                    snprintf(why.message + used, sizeof why.message - used,
                             ": game kept as text (so are any others)");
                    say(src, &why);
                }
                src->as_text++;
                src->games++;
                n++;
                continue;
            }
            if (p == UZ_POLICY_SKIP && r != UZ_ERR_IO && r != UZ_ERR_NOMEM) {
                say(src, &why);
                src->skipped++;
                continue;
            }
            if (diag)
                *diag = why;
            return -1;
        }
        n++;
        src->games++;
    }
    return (long)n;
}
