/* A member's header and its decoder: the header fields that record the oracle, the model
 * and the coder, and the opening of a member's decoder (its model, its coder, its oracle
 * set checked against the header). */
#ifndef UCIZIP_MEMBER_H
#define UCIZIP_MEMBER_H

#include "archive/archive.h"
#include "gamecode/gamecode.h"
#include "gamecode/oracle_set.h"

/* Fills the fields of a header that do not name the oracle: format version, model,
 * coder, block size, structure version (the rest zero). */
void uz_header_fill_coding(uz_archive_header *h, const uz_model_params *model, uz_coder_kind coder,
                           uint32_t block_games);
/* For a header that leaves the settings to the engine profile (settings_from_profile):
 * keys 3-7 and (unless the header stores one) the summary from the installed profile it
 * refers to, for display (the summary says so). Unchanged if there is no such profile,
 * or the header stores its settings. A builtin member's summary: its builtin and depth. */
void uz_header_profile_settings(uz_archive_header *h);
/* Fills a header from the pool's engine and the model and coder settings. */
void uz_header_fill(uz_archive_header *h, uz_pool *pool, const uz_model_params *model, uz_coder_kind coder,
                    uint32_t block_games);

/* Whether the member of header h was coded with the builtin (its engine name is
 * "ucizip builtin-V"; gamecode/builtin_member.h reads the rest). */
bool uz_header_is_builtin(const uz_archive_header *h);

/* The model parameters a header stores; UZ_ERR_UNSUPPORTED for an unknown model kind or
 * the wrong number of parameters. */
uz_result uz_header_model(const uz_archive_header *h, uz_model_params *params);

/* What decoding a member needs: the oracle set (kept across members with the same
 * engine and settings, or the same builtin), the model and the coder. */
typedef struct uz_member_decoder {
    /* The member's engine with its Chess960 instance (started at the first Chess960 game
     * and checked against header key 12), or its builtin (whose searchers score the
     * Chess960 games too: no engine, no profile). */
    uz_oracle_set *oracles;
    uz_model model;
    uz_coder_kind coder;
    char settings[sizeof ((uz_archive_header *)0)->engine_settings_text];
    char fingerprint[sizeof ((uz_archive_header *)0)->fingerprint];
    uz_decode_limits limits; /* zero: the defaults of limits.h */
    /* Set by the caller (recorded scores, fuzzing, tests): every game's scores, Chess960
     * ones too, come from this oracle (borrowed), no engine is started and no
     * fingerprint is checked. NULL: the oracle set. */
    uz_oracle *oracle;
    /* Set by the caller: the persistent score store for a member whose engine is the
     * installed profile of the header's (no base given); NULL for none. */
    const uz_score_store *store;
} uz_member_decoder;

/* Prepares md for a member with header h. A builtin member (uz_header_is_builtin) gets
 * the builtin of the version and depth it records (checked by uz_header_builtin; base is
 * not used). Otherwise base gives the engine to run (path, timeouts), or is NULL for the
 * installed profile matching the header's engine (see uz_engine_profile_for_archive; the
 * profile field of uz_pool_settings(uz_oracle_set_pool(md->oracles)) names it); the
 * header's settings replace its search settings. Starts an engine (unless md already has
 * one for the same settings) and checks its fingerprint against the header's before
 * anything is decoded: UZ_ERR_MISMATCH names the engine and settings the archive needs. */
uz_result uz_member_decoder_open(uz_member_decoder *md, const uz_archive_header *h, const uz_engine_settings *base,
                                 int workers, uz_diag *diag);
void uz_member_decoder_close(uz_member_decoder *md);

#endif
