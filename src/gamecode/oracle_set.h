/* The oracle set: everything that scores one run's positions, with one owner. Either an
 * engine (a pool started from settings) and, from the first Chess960 need on, the same
 * engine in Chess960 mode, both behind one routing oracle (oracle/oracle.h); or the
 * builtin, which scores both kinds itself. Compress, the member decoder and the analysis
 * session each hold one set; the set starts, checks and destroys its engines.
 *
 * Not thread-safe (as the oracles behind it). */
#ifndef UCIZIP_ORACLE_SET_H
#define UCIZIP_ORACLE_SET_H

#include <stdbool.h>

#include "archive/archive.h"
#include "engine/engine.h"
#include "gamecode/builtin_member.h"
#include "pgn/pgn.h"

typedef struct uz_oracle_set uz_oracle_set;

/* Starts an engine pool of `workers` processes with settings s (uz_pool_create's errors,
 * said in diag); its Chess960 instance starts later (uz_oracle_set_start_chess960). */
uz_result uz_oracle_set_open_engine(uz_oracle_set **out, const uz_engine_settings *s, int workers, uz_diag *diag);
/* The builtin of version at depth on `workers` threads (uz_builtin_pool_create's errors). */
uz_result uz_oracle_set_open_builtin(uz_oracle_set **out, int version, int depth, int workers, uz_diag *diag);
/* Stops and frees everything the set started. NULL: no-op. */
void uz_oracle_set_close(uz_oracle_set *set);

/* Where an engine without UCI_Chess960 is said (once) when compressing or analysing:
 * fn(user, NULL, note) with code UZ_ERR_UNSUPPORTED. NULL (the default): not said. */
void uz_oracle_set_on_message(uz_oracle_set *set, void (*fn)(void *user, const char *input, const uz_diag *note),
                              void *user);

/* The oracle that answers both kinds of position (the routing one, or the builtin's);
 * owned by the set, valid until the next uz_oracle_set_start_chess960 or close. */
uz_oracle *uz_oracle_set_oracle(uz_oracle_set *set);
/* The standard engine's pool; NULL for the builtin or set NULL. */
uz_pool *uz_oracle_set_pool(const uz_oracle_set *set);
/* The builtin's searchers; NULL for an engine or set NULL. */
uz_builtin_pool *uz_oracle_set_builtin(const uz_oracle_set *set);

/* Decoding: the Chess960 fingerprint a member's header records ("": none). From then on
 * uz_oracle_set_start_chess960 checks the Chess960 engine against it and an engine that
 * cannot be that one is an error. A fingerprint other than the one before stops a
 * Chess960 engine started for the old one. UZ_ERR_NOMEM (said in diag). */
uz_result uz_oracle_set_expect_chess960(uz_oracle_set *set, const char *fingerprint, uz_diag *diag);
/* Whether the current member's header names a Chess960 engine (after expect_chess960). */
bool uz_oracle_set_expects_chess960(const uz_oracle_set *set);

/* Makes the set code Chess960 positions where it can: the builtin does already; an engine
 * starts its Chess960 instance (uz_pool_create_chess960) once and routes to it.
 * Compressing or analysing, an engine without UCI_Chess960 is no error: it is said once
 * (uz_oracle_set_on_message) and the set then cannot code Chess960 games. Decoding
 * (uz_oracle_set_expect_chess960), it is UZ_ERR_MISMATCH, as is a Chess960 engine whose
 * fingerprint is not the expected one; diag says what the archive needs. Other start
 * errors are returned as they are. */
uz_result uz_oracle_set_start_chess960(uz_oracle_set *set, uz_diag *diag);
/* Whether the set codes Chess960 games: the builtin once asked to, an engine once its
 * Chess960 instance runs. */
bool uz_oracle_set_codes_chess960(const uz_oracle_set *set);

/* Compressing or analysing: readies the set for games[0..n). At the first Chess960 game
 * to code (not verbatim) the Chess960 instance starts (uz_oracle_set_start_chess960); a set
 * that then cannot code Chess960 games (an engine without UCI_Chess960: said once) makes
 * each of their Chess960 games a verbatim game instead (its exact bytes when the reader
 * kept them, else its export-format text: kept, its moves not coded). Start errors and
 * UZ_ERR_NOMEM, said in diag. */
uz_result uz_oracle_set_prepare_games(uz_oracle_set *set, uz_game *games, size_t n, uz_diag *diag);
/* Decoding: readies the set for a batch of a member's games that holds a Chess960 game
 * (chess960; false: nothing to do): its Chess960 engine started and checked
 * (uz_oracle_set_start_chess960's errors). UZ_ERR_CORRUPT, not said (the caller names the
 * game), when the member's header names no Chess960 engine. */
uz_result uz_oracle_set_prepare_decode(uz_oracle_set *set, bool chess960, uz_diag *diag);
/* Whether the member header h (filled by uz_oracle_set_fill_header) still names what the
 * set codes: false once the set has started coding Chess960 games that h does not name
 * (key 12), when a compressor begins a new member. */
bool uz_oracle_set_header_current(const uz_oracle_set *set, const uz_archive_header *h);

/* Fills a new member's header from the set: the oracle's keys (uz_header_fill or
 * uz_header_fill_builtin), the model and coder settings, and key 12 (the Chess960
 * fingerprint) when the set codes Chess960 games. */
void uz_oracle_set_fill_header(const uz_oracle_set *set, uz_archive_header *h, const uz_model_params *model,
                               uz_coder_kind coder, uint32_t block_games);

/* The counters of the set's engine pools added up (zeros for the builtin). */
void uz_oracle_set_pool_stats(const uz_oracle_set *set, uz_pool_stats *sum);

/* Starts the engine that codes Chess960 games next to pool: the same executable and
 * settings plus the option UCI_Chess960 = true. UZ_ERR_UNSUPPORTED when the engine has no
 * such option, UZ_ERR_ARG when no option can be added. */
uz_result uz_pool_create_chess960(uz_pool **out, const uz_pool *pool, int workers, uz_diag *diag);

#endif
