/* Resume state of an interrupted compress run: a small text file next to the temporary
 * archive (TMP.state), rewritten atomically after every block, removed on success. It
 * says how many complete blocks the temporary archive holds and how far the input was
 * read, and carries a key of everything the bytes depend on (inputs, settings), so a
 * run is resumed only by the same command. */
#ifndef UCIZIP_CLI_RESUME_H
#define UCIZIP_CLI_RESUME_H

#include <stdbool.h>
#include <stdint.h>

typedef struct cli_resume_state {
    uint64_t key;        /* FNV-1a of the run's identity, see cli_resume_key */
    uint64_t blocks;     /* complete blocks in the temporary archive */
    long games_read;     /* games the source returned for them */
    long games, moves;   /* totals of those blocks */
    uint64_t move_bytes;
} cli_resume_state;

/* Folds text into a key (start with key = 0). */
uint64_t cli_resume_key(uint64_t key, const char *text);
/* Writes TMP.state atomically. Returns 0 or -1 (printed). */
int cli_resume_save(const char *tmp_path, const cli_resume_state *s);
/* Looks for the temporary archive of a dead run for final_path whose state has this
 * key. Returns its malloc'ed path and fills *s, or NULL (none, or only other runs'). */
char *cli_resume_find(const char *final_path, uint64_t key, cli_resume_state *s);
/* Removes TMP.state (if any). */
void cli_resume_remove(const char *tmp_path);

#endif
