/* Helpers shared by the engine tests: settings, queries from FEN, a result-code check. */
#ifndef UZ_ENGINE_TEST_H
#define UZ_ENGINE_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "chess/board.h"
#include "engine/engine.h"

#define CHECK_RC(expr, want, diag)                                                                 \
    do {                                                                                           \
        uz_result rc_ = (expr);                                                                    \
        if (rc_ != (want)) {                                                                       \
            fprintf(stderr, "%s:%d: %s gave %d (%s), want %d: %s\n", __FILE__, __LINE__, #expr,     \
                    (int)rc_, uz_result_str(rc_), (int)(want), (diag)->message);                   \
            uz_test_failed++;                                                                      \
        } else {                                                                                   \
            uz_test_passed++;                                                                      \
        }                                                                                          \
    } while (0)

static inline const char *t_env(const char *name, const char *fallback)
{
    const char *v = getenv(name);
    return v && *v ? v : fallback;
}

/* The profile directory list from UZ_ENGINES_DIR. */
static inline const char *const *t_dirs(void)
{
    static const char *dirs[2];
    dirs[0] = t_env("UZ_ENGINES_DIR", "engines");
    dirs[1] = NULL;
    return dirs;
}

/* Stockfish profile with a given depth and mode; quick timeouts for tests. */
static inline void t_settings(uz_engine_settings *s, const char *profile, int depth, uz_engine_mode mode)
{
    uz_diag diag = {0};
    if (uz_engine_profile_load(s, profile, t_dirs(), &diag) != UZ_OK) {
        fprintf(stderr, "cannot load profile %s: %s\n", profile, diag.message);
        exit(1);
    }
    s->depth = depth;
    s->mode = mode;
}

/* Fills q from a FEN (position and its legal moves). Exits on a bad FEN. */
static inline void t_query_fen(uz_query *q, const char *fen)
{
    uz_diag diag = {0};
    memset(q, 0, sizeof *q);
    if (uz_position_from_fen(&q->pos, fen, &diag) != UZ_OK) {
        fprintf(stderr, "bad FEN %s: %s\n", fen, diag.message);
        exit(1);
    }
    q->n_moves = uz_generate_legal(&q->pos, q->moves);
}

/* Reads the FEN lines of a file ('#' lines skipped) into a malloc'd array. */
static inline char **t_read_fens(const char *path, int *count)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        exit(1);
    }
    char **v = NULL, line[256];
    int n = 0, cap = 0;
    while (fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (line[0] == '#' || line[0] == '\0')
            continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            v = realloc(v, sizeof *v * (size_t)cap);
        }
        v[n++] = strdup(line);
    }
    fclose(f);
    *count = n;
    return v;
}

static inline void t_free_fens(char **v, int n)
{
    for (int i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

#endif
