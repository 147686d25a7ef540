/* uz_options to an oracle specification (oracle_spec.h). */
#include <string.h>
#include <unistd.h>

#include "oracle/oracle_spec.h"

bool uz_oracle_spec_builtin(const char *engine, int *version)
{
    if (!engine || strncmp(engine, "builtin", 7) != 0)
        return false;
    if (engine[7] == 0) {
        *version = 0;
        return true;
    }
    if (engine[7] != '-' || engine[8] < '1' || engine[8] > '9')
        return false;
    long v = 0;
    for (const char *p = engine + 8; *p; p++) {
        if (*p < '0' || *p > '9' || v > 100000)
            return false;
        v = v * 10 + (*p - '0');
    }
    *version = (int)v;
    return true;
}

int uz_oracle_workers(int n)
{
    if (n > 0)
        return n;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    return cpus < 1 ? 1 : cpus > 64 ? 64 : (int)cpus;
}

void uz_oracle_spec_from_options(const uz_options *o, uz_oracle_spec *spec)
{
    memset(spec, 0, sizeof *spec);
    spec->depth = o->depth > 0 ? o->depth : 0;
    spec->nodes = o->nodes > 0 ? o->nodes : 0;
    spec->mode = o->mode;
    spec->hash_mb = o->hash_mb > 0 ? o->hash_mb : 0;
    spec->workers = uz_oracle_workers(o->workers);
    if (uz_oracle_spec_builtin(o->engine, &spec->builtin_version)) {
        spec->kind = UZ_ORACLE_BUILTIN; /* no profile, no engine process, no score cache */
        return;
    }
    spec->kind = UZ_ORACLE_UCI;
    spec->engine = o->engine;
    spec->cache_path = o->cache_path;
}

uz_result uz_oracle_spec_check(const uz_oracle_spec *spec, uz_diag *diag)
{
    if (spec->kind == UZ_ORACLE_BUILTIN && (spec->nodes > 0 || spec->mode || spec->hash_mb > 0)) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "the builtin takes a depth only (no nodes, mode or hash)");
        return UZ_ERR_ARG;
    }
    return UZ_OK;
}
