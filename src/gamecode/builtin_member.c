/* How a member header records the builtin, and the checks of a header that claims it
 * (builtin_member.h; doc/format.md, "The built-in oracle"). */
#include <stdio.h>
#include <string.h>

#include "builtin/builtin.h"
#include "gamecode/builtin_member.h"
#include "gamecode/member.h"
#include "model/player_model.h"

#define NAME_PREFIX "ucizip builtin-"

void uz_header_fill_builtin(uz_archive_header *h, const uz_builtin_pool *p, const uz_model_params *model,
                            uz_coder_kind coder, uint32_t block_games)
{
    uz_oracle_identity id = uz_oracle_identity_of(uz_builtin_pool_oracle((uz_builtin_pool *)p));
    uz_header_fill_coding(h, model, coder, block_games);
    uz_copy_str(h->engine_name, sizeof h->engine_name, id.engine_name);
    uz_copy_str(h->fingerprint, sizeof h->fingerprint, id.fingerprint);
    uz_copy_str(h->engine_settings_text, sizeof h->engine_settings_text, id.settings_text);
    h->settings_from_profile = false; /* keys 3-8 stored: no profile is ever looked up */
    h->depth = (uint32_t)uz_builtin_pool_depth(p);
    h->nodes = 0;
    h->mode = 0;
    h->hash_mb = 0;
    h->threads = 0;
    uz_builtin_pool_describe(p, h->settings_summary, sizeof h->settings_summary);
}

void uz_header_builtin_chess960(uz_archive_header *h)
{
    uz_copy_str(h->chess960_fingerprint, sizeof h->chess960_fingerprint, h->fingerprint);
}

bool uz_header_is_builtin(const uz_archive_header *h)
{
    return strncmp(h->engine_name, NAME_PREFIX, strlen(NAME_PREFIX)) == 0;
}

/* A decimal number of 1 to 6 digits without a leading zero at *p; advances *p. */
static bool read_number(const char **p, int *out)
{
    const char *s = *p;
    int v = 0, digits = 0;
    if (*s < '1' || *s > '9')
        return false;
    while (*s >= '0' && *s <= '9' && digits < 6) {
        v = v * 10 + (*s++ - '0');
        digits++;
    }
    *p = s;
    *out = v;
    return true;
}

uz_result uz_header_builtin(const uz_archive_header *h, int *version, int *depth, uz_diag *diag)
{
    const char *s = h->engine_name + strlen(NAME_PREFIX);
    char expected[sizeof h->engine_settings_text];
    int v = 0, d = 0;
    bool ok = uz_header_is_builtin(h) && read_number(&s, &v) && *s == 0 && !h->settings_from_profile;
    if (ok) {
        const char *t = h->engine_settings_text;
        int tv = 0;
        ok = strncmp(t, "builtin = ", 10) == 0 && (t += 10, read_number(&t, &tv)) && tv == v &&
             strncmp(t, "\ndepth = ", 9) == 0 && (t += 9, read_number(&t, &d)) && strcmp(t, "\n") == 0;
        snprintf(expected, sizeof expected, "builtin = %d\ndepth = %d\n", v, d);
        ok = ok && strcmp(expected, h->engine_settings_text) == 0 && h->depth == (uint32_t)d && h->nodes == 0 &&
             h->mode == 0 && h->hash_mb == 0 && h->threads == 0;
    }
    if (!ok) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0,
                    "corrupt archive: a header naming the builtin ('%s') with settings it does not have", h->engine_name);
        return UZ_ERR_CORRUPT;
    }
    if (uz_builtin_check_version(v, diag) != UZ_OK) {
        char why[sizeof diag->message];
        uz_copy_str(why, sizeof why, diag->message);
        uz_diag_set(diag, UZ_ERR_UNSUPPORTED, 0, 0, "the archive was made with builtin-%d: %s; a newer ucizip decodes it",
                    v, why);
        return UZ_ERR_UNSUPPORTED;
    }
    if (d < uz_builtin_min_depth(v) || d > uz_builtin_max_depth(v)) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt archive: builtin-%d at depth %d (it searches depth %d to %d)", v,
                    d, uz_builtin_min_depth(v), uz_builtin_max_depth(v));
        return UZ_ERR_CORRUPT;
    }
    const char *fp = uz_builtin_fingerprint(v);
    if (strcmp(h->fingerprint, fp) != 0 || (h->chess960_fingerprint[0] && strcmp(h->chess960_fingerprint, fp) != 0)) {
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "wrong oracle: the archive names builtin-%d with fingerprint %s, but this ucizip's builtin-%d has "
                    "fingerprint %s; nothing was decoded",
                    v, h->fingerprint, v, fp);
        return UZ_ERR_MISMATCH;
    }
    *version = v;
    *depth = d;
    return UZ_OK;
}

void uz_builtin_model_params(uz_model_params *params, int version, int depth)
{
    if (params->kind != UZ_MODEL_PLAYER || params->player_version != 0 || params->player_hash_lo != 0 ||
        params->player_hash_hi != 0)
        return;
    if (version == 0)
        version = UZ_BUILTIN_DEFAULT;
    if (depth == 0)
        depth = uz_builtin_default_depth(version);
    /* Deeper scores are sharper than depth-1 ones: from depth 2 on, the set fitted to them. */
    uint32_t weights;
    if (version == 1)
        weights = depth >= 2 ? UZ_PM_DEFAULT_VERSION_BUILTIN1_DEEP : UZ_PM_DEFAULT_VERSION_BUILTIN1;
    else if (version == 2)
        weights = depth >= 2 ? UZ_PM_DEFAULT_VERSION_BUILTIN2_DEEP : UZ_PM_DEFAULT_VERSION_BUILTIN2;
    else
        weights = depth >= 2 ? UZ_PM_DEFAULT_VERSION_BUILTIN3_DEEP : UZ_PM_DEFAULT_VERSION_BUILTIN3;
    const uz_player_model *pm = uz_pm_builtin_version(weights);
    if (pm) {
        params->player_version = pm->version;
        params->player_hash_lo = (uint32_t)pm->hash;
        params->player_hash_hi = (uint32_t)(pm->hash >> 32);
    }
}
