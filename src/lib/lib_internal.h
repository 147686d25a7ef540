/* What the library's objects share: options turned into engine settings, model
 * parameters and a coder; the persistent score caches of the process. */
#ifndef UCIZIP_LIB_INTERNAL_H
#define UCIZIP_LIB_INTERNAL_H

#include "ucizip.h"
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"
#include "codec/coder.h"
#include "engine/engine.h"
#include "model/move_model.h"
#include "oracle/oracle_spec.h"

/* Checks the options' version and fields that need no engine. */
uz_result uz_lib_check_options(const uz_options *o, uz_diag *diag);

/* The settings of the UCI engine spec names (uz_oracle_spec_from_options): the profile or
 * executable spec->engine names ("stockfish" when NULL) with depth, nodes, mode and hash
 * applied, and the persistent cache of spec->cache_path as its store (opened on first
 * use; see uz_lib_cache_release; an unusable one is left out, reported to warn). */
uz_result uz_lib_engine_settings(const uz_oracle_spec *spec, uz_message_fn warn, void *user, uz_engine_settings *s,
                                 uz_diag *diag);

/* The persistent cache at path (opened on first use), for a reader that finds its engine
 * settings in the archive; released with uz_lib_cache_release. A damaged, unreadable or
 * read-only cache is no error: *store is NULL (run without it) and warn, if not NULL,
 * gets the reason naming the file. */
uz_result uz_lib_cache_acquire(const char *path, const uz_score_store **store, uz_message_fn warn, void *user,
                               uz_diag *diag);

/* Releases the options' persistent cache taken by uz_lib_engine_settings (committing
 * what is pending once its last user is gone). NULL path: no-op. */
void uz_lib_cache_release(const char *path);

/* Hit counts of the persistent cache at path (zeros when none is open). */
void uz_lib_cache_stats(const char *path, uint64_t *lookups, uint64_t *hits, uint64_t *rejected);

/* The model and coder the options ask for, with the player weights of the oracle they
 * name (uz_lib_oracle_weights). */
uz_result uz_lib_model(const uz_options *o, uz_model_params *params, uz_coder_kind *coder, uz_diag *diag);

/* The player weights of a new archive coded with the oracle spec names, for params of the
 * player model that name no set yet: the builtin's, trained on its scores
 * (uz_builtin_model_params); a UCI engine's, the set fitted to depth-1 scores at depth 1
 * (depth 0 is the profile's, depth 1 in every shipped profile), the older one deeper or
 * with a node limit. */
void uz_lib_oracle_weights(const uz_oracle_spec *spec, uz_model_params *params);

/* The model a fit (stats --fit, the k sweep) starts from: params itself, except that the
 * player model's place is taken by the rank model, since the player model's weights are
 * trained offline and only the rank model has a k to fit. */
uz_model_params uz_lib_model_fit_start(const uz_model_params *params);

/* "player v1 weights 0123abcd4567ef89" / "rank k=20 floor=0.0300 rank=0.5300 decay=0.6000"
 * / "exp k=20 floor=0.0300". */
void uz_lib_model_text(const uz_model_params *p, char *out, size_t cap);
const char *uz_lib_coder_name(uz_coder_kind kind);
/* p as the public uz_model_info (info, pointing into the description's own strings). */
typedef struct uz_lib_model_desc {
    uz_model_info info;
    char text[128], k[32], weights[17];
} uz_lib_model_desc;
void uz_lib_model_describe(const uz_model_params *p, uz_lib_model_desc *d);
/* k with 3 decimals, trailing zeros trimmed ("80", "4.5"). */
void uz_lib_format_k(uint32_t k_milli, char *out, size_t cap);

/* Makes d take every score from oracle (borrowed) instead of an engine it starts: no
 * engine is started and no fingerprint checked (tests and fuzzing: a replaying or
 * synthetic oracle, see oracle/oracle.h). Before the first decode. */
struct uz_oracle;
void uz_decompressor_use_oracle(uz_decompressor *d, struct uz_oracle *oracle);

/* Tag pairs handed out by uz_game_tags (grown as needed; freed by the owner). */
typedef struct uz_lib_tag_pairs {
    uz_tag_pair *pairs;
    size_t cap;
} uz_lib_tag_pairs;

/* Fills *out with game's tags (a verbatim game's read from its text first) and number,
 * pointing into game and pairs. A derived value still empty (moves not decoded) is NULL. */
uz_result uz_lib_game_tags(struct uz_game *game, uint64_t number, uz_lib_tag_pairs *pairs, uz_game_tags *out,
                           uz_diag *diag);

/* The opening of the engine-free archive readers (uz_archive_scan, uz_tag_reader): size
 * zeroed bytes, for a struct whose first member is its uz_archive_reader *, with that
 * reader open on f (name for messages, "<archive>" when NULL). NULL with diag set when out
 * of memory. */
void *uz_lib_scanner_open(size_t size, FILE *f, const char *name, uz_diag *diag);

/* The header of the first member of the archive that d read last; false if it read none. */
struct uz_archive_header;
bool uz_lib_decompressor_first_header(const uz_decompressor *d, struct uz_archive_header *out);

/* Makes c code with exactly these model parameters and this coder instead of the ones its
 * options name (a transcode keeps the source's); a player model that names no weight set
 * gets the oracle's (the builtin's or the newest). Before uz_compressor_begin. */
uz_result uz_lib_compressor_use_model(uz_compressor *c, const uz_model_params *params, uz_coder_kind coder,
                                      uz_diag *diag);

#endif
