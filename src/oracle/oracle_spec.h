/* Which oracle the options ask for, in one place: uz_options (include/ucizip.h) turned
 * into an oracle specification that the library consumes, so that no lower layer reads
 * the options. What it names is opened elsewhere: a UCI engine through its profile and
 * settings (lib/options.c, engine/engine.h), the builtin through its searchers
 * (builtin/builtin_pool.h), both owned by the oracle set (gamecode/oracle_set.h). */
#ifndef UCIZIP_ORACLE_SPEC_H
#define UCIZIP_ORACLE_SPEC_H

#include <stdbool.h>

#include "common/common.h"
#include "ucizip.h"

typedef enum uz_oracle_kind {
    UZ_ORACLE_UCI = 0, /* a UCI engine process (the engine pool) */
    UZ_ORACLE_BUILTIN, /* the search built into the library */
} uz_oracle_kind;

typedef struct uz_oracle_spec {
    uz_oracle_kind kind;
    int builtin_version;   /* builtin: the version, 0 for "builtin" (the default version);
                              whether this program has it is the builtin's to say */
    const char *engine;    /* uci: profile name, .profile file or executable (borrowed from
                              the options); NULL: the stockfish profile */
    int depth;             /* 0: the profile's (builtin: the version's default) */
    long long nodes;       /* node limit per move searched; 0: the profile's */
    const char *mode;      /* "multipv" or "permove" (uz_lib_check_options checks it); NULL:
                              the profile's */
    int hash_mb;           /* Hash in MB; 0: the profile's */
    int workers;           /* engine processes or search threads, >= 1 */
    const char *cache_path; /* uci: the persistent score cache (borrowed); NULL: none */
} uz_oracle_spec;

/* Whether engine (uz_options.engine) names the builtin: "builtin" (*version = 0, the
 * default version) or "builtin-N" (*version = N, which need not exist). */
bool uz_oracle_spec_builtin(const char *engine, int *version);

/* The oracle o asks for, as o says it (uz_lib_check_options checks o's fields): what the
 * compressor, the analysis session and the decoders open, and what a new archive's player
 * weights follow. */
void uz_oracle_spec_from_options(const uz_options *o, uz_oracle_spec *spec);

/* Whether the oracle can be opened as spec says: UZ_ERR_ARG (said in diag) for search
 * settings it does not take (the builtin takes a depth only), else UZ_OK. Whoever starts
 * an oracle to code with asks this first. */
uz_result uz_oracle_spec_check(const uz_oracle_spec *spec, uz_diag *diag);

/* Workers for a request of n (uz_options.workers): n, or for 0 one per online processor
 * (at most 64). */
int uz_oracle_workers(int n);

#endif
