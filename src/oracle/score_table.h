/* Internal: the score table's representation, shared by score_table.c and the recording
 * and replaying oracles (oracle_record.c). */
#ifndef UZ_SCORE_TABLE_H
#define UZ_SCORE_TABLE_H

#include "oracle/oracle.h"

typedef struct uz__score_entry {
    uint64_t hash;
    char *fen;                    /* the key: FEN with fullmove 1 (uz_score_table_key) */
    bool chess960;
    bool removed;
    int n;
    uz_move *moves;               /* n, canonical order */
    int32_t *scores;              /* n; the same block as moves */
} uz__score_entry;

struct uz_score_table {
    uz__score_entry *entries;     /* in insertion order (the file's order) */
    size_t n, cap, n_removed;
    size_t *slots;                /* open addressing: entry index + 1, 0 = empty */
    size_t n_slots;               /* power of two, at least twice n */
    bool has_identity;
    char engine_name[UZ_ORACLE_NAME_MAX];
    char fingerprint[32];
    char *settings_text;
};

const uz__score_entry *uz__score_table_find(const uz_score_table *t, const char *fen, bool chess960);
/* Adds or replaces the entry of (fen, chess960). */
uz_result uz__score_table_add(uz_score_table *t, const char *fen, bool chess960, const uz_move *moves, int n,
                              const int32_t *scores);
/* Takes id as the table's identity unless it has one. */
uz_result uz__score_table_set_identity(uz_score_table *t, const uz_oracle_identity *id);

#endif
