/* The real Stockfish's settings for a test (tests that link the engine layer): the
 * stockfish profile from UZ_ENGINES_DIR (set by meson) at a given depth. */
#ifndef UZ_TEST_ENGINE_H
#define UZ_TEST_ENGINE_H

#include <stdio.h>
#include <stdlib.h>

#include "engine/engine.h"

/* False, with the reason on stderr, when the profile does not load. */
static inline bool uz_test_stockfish_settings(uz_engine_settings *s, int depth)
{
    uz_diag d = {0};
    const char *dirs[] = {getenv("UZ_ENGINES_DIR"), NULL};
    if (uz_engine_profile_load(s, "stockfish", dirs, &d) != UZ_OK) {
        fprintf(stderr, "stockfish profile: %s\n", d.message);
        return false;
    }
    s->depth = depth;
    return true;
}

#endif
