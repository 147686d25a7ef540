/* Resume state of an interrupted compress run: a small text file next to the temporary
 * archive (TMP.state), rewritten atomically after every block, removed on success. It
 * says how many complete blocks the temporary archive holds and how far the input was
 * read, and carries a key of everything the bytes depend on (inputs, settings), so a
 * run is resumed only by the same command. It is bound to what it describes
 * (doc/trust.md): an XXH64 of the inputs' contents, the length and XXH64 of the
 * temporary archive's bytes when it was written, and an XXH64 of its own text. */
#ifndef UCIZIP_CLI_RESUME_H
#define UCIZIP_CLI_RESUME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cli_resume_state {
    uint64_t key;        /* FNV-1a of the run's identity, see cli_resume_key */
    uint64_t blocks;     /* complete blocks in the temporary archive */
    long games_read;     /* games the source returned for them */
    long games, moves;   /* totals of those blocks */
    uint64_t move_bytes;
    uint64_t inputs_hash;   /* cli_resume_hash_inputs of the run's inputs */
    uint64_t archive_bytes; /* the temporary archive's length after those blocks */
    uint64_t archive_hash;  /* XXH64 of those bytes */
} cli_resume_state;

/* Parses the text of a state file: 0 well formed with a matching self-check, 1 well
 * formed but edited or damaged (its check differs), -1 not a state of this version. */
int cli_resume_parse(const char *text, size_t len, cli_resume_state *s);
/* XXH64 of the contents of paths[0..n) (each length-prefixed; "-" counts as its name).
 * Returns 0, or -1 if one cannot be read. */
int cli_resume_hash_inputs(const char *const *paths, size_t n, uint64_t *hash);
/* XXH64 of the first `bytes` bytes of the file at path, read incrementally: *state
 * (NULL at first, freed by cli_resume_hash_free) keeps what was hashed, and a later call
 * with a larger `bytes` reads only the rest. Returns 0, or -1 when the file is shorter
 * or unreadable. */
typedef struct cli_file_hash cli_file_hash;
int cli_resume_hash_file(cli_file_hash **state, const char *path, uint64_t bytes, uint64_t *hash);
void cli_resume_hash_free(cli_file_hash *state);

/* Folds text into a key (start with key = 0). */
uint64_t cli_resume_key(uint64_t key, const char *text);
/* Writes TMP.state atomically. Returns 0 or -1 (printed). */
int cli_resume_save(const char *tmp_path, const cli_resume_state *s);
/* Looks for the temporary archive of a dead run for final_path whose state has this
 * key. Returns its malloc'ed path and fills *s, or NULL (none, or only other runs').
 * *intact is false for a state whose self-check fails (edited or damaged). */
char *cli_resume_find(const char *final_path, uint64_t key, cli_resume_state *s, bool *intact);
/* Why the found state s (intact: its self-check) cannot resume tmp_path for inputs whose
 * cli_resume_hash_inputs is inputs_hash; NULL when it can. */
const char *cli_resume_mismatch(const cli_resume_state *s, bool intact, uint64_t inputs_hash, const char *tmp_path);
/* Removes TMP.state (if any). */
void cli_resume_remove(const char *tmp_path);

#endif
