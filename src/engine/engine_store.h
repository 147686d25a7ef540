/* The engine store: a copy of each engine binary that made an archive, so that the
 * archive still decodes after the system's engine is upgraded or removed.
 *
 * A store is a directory private to its owner (mode 0700 or stricter, owned by the user,
 * no symbolic links anywhere in it; anything else is refused):
 *   DIR/blobs/SHA256         an engine binary, named by its SHA-256 (mode 0500)
 *   DIR/fingerprints/FP      what an archive with fingerprint FP (16 hex digits) needs:
 *                            the engine's "id name", the binary's SHA-256 and the
 *                            canonical settings text the fingerprint was computed with
 * The entry's binary is checked against its SHA-256 before every start of the engine
 * (uz_engine_settings.exe_sha256). Nothing here prints; errors come with a diag. */
#ifndef UCIZIP_ENGINE_STORE_H
#define UCIZIP_ENGINE_STORE_H

#include "common/sha256.h"
#include "engine/engine.h"

#define UZ_ENGINE_STORE_TEXT_MAX 4096

typedef struct uz_engine_store_entry {
    char fingerprint[17];
    char engine_name[UZ_ENGINE_NAME_MAX];
    char sha256[UZ_SHA256_HEX_SIZE];
    char settings_text[UZ_ENGINE_STORE_TEXT_MAX];
    char exe[UZ_ENGINE_PATH_MAX]; /* DIR/blobs/SHA256: the stored binary */
} uz_engine_store_entry;

/* The user's store: $UZ_ENGINE_STORE if set and not empty, else
 * $XDG_DATA_HOME/ucizip/engines, else $HOME/.local/share/ucizip/engines. UZ_ERR_IO when
 * none can be named (no HOME). Does not touch the file system. */
uz_result uz_engine_store_dir(char *out, size_t cap, uz_diag *diag);

/* Keeps the engine of pool in the store dir (created 0700 if missing): its binary once
 * per SHA-256, and an entry for its fingerprint unless there is one (an imported entry
 * whose binary is not pool's is replaced: see uz_engine_store_import_from). UZ_ERR_IO for a
 * store that is not private or cannot be written (nothing is half-written: every file is
 * written to a temporary name and renamed). */
uz_result uz_engine_store_keep(const char *dir, const uz_pool *pool, uz_diag *diag);

/* The entry for fingerprint in dir: UZ_OK, UZ_DONE when the store (or the entry) does not
 * exist, UZ_ERR_IO for a store that is not private, UZ_ERR_CORRUPT for a malformed entry
 * or a missing binary. Does not hash the binary (uz_engine_check_sha256 does, at start). */
uz_result uz_engine_store_find(const char *dir, const char *fingerprint, uz_engine_store_entry *e, uz_diag *diag);

/* Engine settings that run the entry's binary with its settings text (defaults for the
 * rest): path and exe_sha256 from the entry. UZ_ERR_UNSUPPORTED / UZ_ERR_SYNTAX as
 * uz_engine_settings_apply_text for a text it refuses. */
uz_result uz_engine_store_settings(const uz_engine_store_entry *e, uz_engine_settings *s, uz_diag *diag);

/* Whether the file at path (opened without following a symbolic link) has SHA-256 want
 * (64 hex digits): UZ_OK, UZ_ERR_ENGINE naming both digests, or UZ_ERR_IO. */
uz_result uz_engine_check_sha256(const char *path, const char *want, uz_diag *diag);

/* Copies every entry of the store from (and its binary) into the store to, creating to
 * (0700) if missing; entries to already has are kept. Each binary's SHA-256 is checked
 * against its entry as it is copied and malformed entries are refused. *copied: entries
 * added. Used for `ucizip engine --export DIR` (the user's store to DIR). */
uz_result uz_engine_store_copy(const char *from, const char *to, int *copied, uz_diag *diag);

/* Told of each engine an import met: e as the foreign store describes it, and outcome, a
 * phrase that begins "added", "not imported" or "refused". */
typedef void (*uz_engine_store_report)(void *user, const uz_engine_store_entry *e, const char *outcome);

/* `ucizip engine --import DIR`: the entries of the store from (an exported copy; it need
 * not be private: removable media) into the store to. A file of from is read only if it
 * is a regular file (no symbolic link, no FIFO or device), and a binary no further than
 * its size and only if it has its entry's SHA-256. An entry is added only where to has
 * none for its fingerprint, and only once running it gave that fingerprint:
 *   - when the user's installed engine (the profile a decoder would take) gives it, the
 *     store keeps that engine's binary (uz_engine_store_keep), never the imported one,
 *     which is not run;
 *   - else the imported binary, from its place in to, run on the fingerprint positions
 *     with the entry's settings; an entry whose binary gives another fingerprint or does
 *     not run is refused (its binary removed), and the others go on.
 * An entry added so is read-only (mode 0400) until uz_engine_store_keep, compressing with
 * the user's own engine of that fingerprint, vouches for it or replaces its binary.
 * *added, *refused: the counts. An error (a store that cannot be written, a copy that is
 * not what its entry says) ends the import. */
uz_result uz_engine_store_import_from(const char *from, const char *to, uz_engine_store_report report, void *user,
                                 int *added, int *refused, uz_diag *diag);

#endif
