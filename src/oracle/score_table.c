/* Recorded scores: a table (position key, legal moves) -> scores, with a text file form.
 * The recording and replaying oracles (oracle_record.c) fill and read it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "score_table.h"

#define SCORES_MAGIC "ucizip-scores 1"

uz_result uz_score_table_create(uz_score_table **out)
{
    *out = calloc(1, sizeof **out);
    return *out ? UZ_OK : UZ_ERR_NOMEM;
}

void uz_score_table_destroy(uz_score_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->entries[i].fen);
        free(t->entries[i].scores);
    }
    free(t->entries);
    free(t->slots);
    free(t->settings_text);
    free(t);
}

size_t uz_score_table_count(const uz_score_table *t) { return t->n - t->n_removed; }

/* The slot of key (fen, chess960): its entry's, or the empty one where it would go. */
static size_t *find_slot(const uz_score_table *t, const char *fen, bool chess960, uint64_t h)
{
    size_t mask = t->n_slots - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        size_t *s = &t->slots[i];
        if (*s == 0)
            return s;
        const uz__score_entry *e = &t->entries[*s - 1];
        if (e->hash == h && e->chess960 == chess960 && strcmp(e->fen, fen) == 0)
            return s;
    }
}

static uz_result grow(uz_score_table *t)
{
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 1024;
        uz__score_entry *e = realloc(t->entries, cap * sizeof *e);
        if (!e)
            return UZ_ERR_NOMEM;
        t->entries = e;
        t->cap = cap;
    }
    if (2 * (t->n + 1) <= t->n_slots)
        return UZ_OK;
    size_t n_slots = t->n_slots ? 2 * t->n_slots : 2048;
    size_t *slots = calloc(n_slots, sizeof *slots);
    if (!slots)
        return UZ_ERR_NOMEM;
    free(t->slots);
    t->slots = slots;
    t->n_slots = n_slots;
    for (size_t i = 0; i < t->n; i++) /* removed entries keep their slot: lookups skip them */
        *find_slot(t, t->entries[i].fen, t->entries[i].chess960, t->entries[i].hash) = i + 1;
    return UZ_OK;
}

const uz__score_entry *uz__score_table_find(const uz_score_table *t, const char *fen, bool chess960)
{
    if (t->n_slots == 0)
        return NULL;
    size_t s = *find_slot(t, fen, chess960, uz_position_key_hash(fen, chess960));
    return s && !t->entries[s - 1].removed ? &t->entries[s - 1] : NULL;
}

/* e's moves and scores (one block: scores, then moves). */
static uz_result set_scores(uz__score_entry *e, const uz_move *moves, int n, const int32_t *scores)
{
    int32_t *block = realloc(e->scores, (size_t)n * (sizeof *scores + sizeof *moves));
    if (!block)
        return UZ_ERR_NOMEM;
    e->scores = block;
    e->moves = (uz_move *)(void *)(block + n);
    e->n = n;
    memcpy(e->scores, scores, (size_t)n * sizeof *scores);
    memcpy(e->moves, moves, (size_t)n * sizeof *moves);
    return UZ_OK;
}

uz_result uz__score_table_add(uz_score_table *t, const char *fen, bool chess960, const uz_move *moves, int n,
                              const int32_t *scores)
{
    if (n < 1 || n > UZ_MAX_MOVES)
        return UZ_ERR_ARG;
    uint64_t h = uz_position_key_hash(fen, chess960);
    if (t->n_slots) {
        size_t s = *find_slot(t, fen, chess960, h);
        if (s) { /* known (or removed: recorded again) */
            uz__score_entry *e = &t->entries[s - 1];
            if (e->removed) {
                e->removed = false;
                t->n_removed--;
            }
            return set_scores(e, moves, n, scores);
        }
    }
    if (grow(t) != UZ_OK)
        return UZ_ERR_NOMEM;
    uz__score_entry *e = &t->entries[t->n];
    memset(e, 0, sizeof *e);
    if (!(e->fen = strdup(fen)) || set_scores(e, moves, n, scores) != UZ_OK) {
        free(e->fen);
        return UZ_ERR_NOMEM;
    }
    e->hash = h;
    e->chess960 = chess960;
    *find_slot(t, fen, chess960, h) = ++t->n;
    return UZ_OK;
}

bool uz_score_table_remove(uz_score_table *t, const uz_position *pos)
{
    char fen[UZ_FEN_MAX];
    uz_position_key_text(pos, fen);
    uz__score_entry *e = (uz__score_entry *)uz__score_table_find(t, fen, pos->chess960 != 0);
    if (!e)
        return false;
    e->removed = true;
    t->n_removed++;
    return true;
}

uz_result uz__score_table_set_identity(uz_score_table *t, const uz_oracle_identity *id)
{
    if (t->has_identity)
        return UZ_OK;
    char *settings = strdup(id->settings_text);
    if (!settings)
        return UZ_ERR_NOMEM;
    snprintf(t->engine_name, sizeof t->engine_name, "%s", id->engine_name);
    snprintf(t->fingerprint, sizeof t->fingerprint, "%s", id->fingerprint);
    t->settings_text = settings;
    t->has_identity = true;
    return UZ_OK;
}

/* ---- the file ---- */

uz_result uz_score_table_save(const uz_score_table *t, const char *path, uz_diag *diag)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s: %s", path, strerror(errno));
        return UZ_ERR_IO;
    }
    fprintf(f, "%s\nengine %s\nfingerprint %s\n", SCORES_MAGIC, t->engine_name, t->fingerprint);
    for (const char *s = t->settings_text ? t->settings_text : ""; *s;) {
        size_t len = strcspn(s, "\n");
        fprintf(f, "settings %.*s\n", (int)len, s);
        s += len + (s[len] == '\n');
    }
    for (size_t i = 0; i < t->n; i++) {
        const uz__score_entry *e = &t->entries[i];
        if (e->removed)
            continue;
        fprintf(f, "%d\t%s\t", e->chess960 ? 1 : 0, e->fen);
        for (int m = 0; m < e->n; m++) {
            char uci[UZ_UCI_MAX];
            uz_move_to_uci(e->moves[m], uci);
            fprintf(f, "%s%s:%ld", m ? " " : "", uci, (long)e->scores[m]);
        }
        fputc('\n', f);
    }
    bool failed = ferror(f) != 0;
    if (fclose(f) != 0 || failed) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s: write error", path);
        return UZ_ERR_IO;
    }
    return UZ_OK;
}

/* One entry line "flag<TAB>FEN<TAB>uci:score ..."; false (with why) if malformed. */
static bool parse_entry(uz_score_table *t, char *line, const char **why)
{
    char *fen = strchr(line, '\t'), *list = fen ? strchr(fen + 1, '\t') : NULL;
    if (!list || fen != line + 1 || (line[0] != '0' && line[0] != '1')) {
        *why = "expected 0 or 1, a tab, a FEN, a tab and the moves";
        return false;
    }
    *fen++ = '\0';
    *list++ = '\0';
    bool chess960 = line[0] == '1';
    uz_position pos;
    uz_diag d = {0};
    if (strlen(fen) >= UZ_FEN_MAX || uz_position_from_fen_960(&pos, fen, chess960, &d) != UZ_OK) {
        *why = "bad FEN";
        return false;
    }
    uz_move legal[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES];
    int n = uz_generate_legal(&pos, legal), m = 0;
    for (char *tok = strtok(list, " "); tok; tok = strtok(NULL, " "), m++) {
        char uci[UZ_UCI_MAX], *colon = strchr(tok, ':'), *end;
        if (m < n)
            uz_move_to_uci(legal[m], uci);
        if (m >= n || !colon || (size_t)(colon - tok) != strlen(uci) || strncmp(tok, uci, strlen(uci)) != 0) {
            *why = "the moves are not the position's legal moves in canonical order";
            return false;
        }
        errno = 0;
        long v = strtol(colon + 1, &end, 10);
        if (errno || end == colon + 1 || *end || v < INT32_MIN || v > INT32_MAX) {
            *why = "bad score";
            return false;
        }
        scores[m] = (int32_t)v;
    }
    if (m != n) {
        *why = "the moves are not the position's legal moves in canonical order";
        return false;
    }
    char key[UZ_FEN_MAX];
    uz_position_key_text(&pos, key);
    if (uz__score_table_add(t, key, chess960, legal, n, scores) != UZ_OK) {
        *why = "out of memory";
        return false;
    }
    return true;
}

/* A header line "KEY value"; false if line is not one. */
static bool parse_header(uz_score_table *t, const char *line)
{
    if (strncmp(line, "engine ", 7) == 0) {
        snprintf(t->engine_name, sizeof t->engine_name, "%s", line + 7);
    } else if (strncmp(line, "fingerprint ", 12) == 0) {
        snprintf(t->fingerprint, sizeof t->fingerprint, "%s", line + 12);
    } else if (strncmp(line, "settings ", 9) == 0) {
        size_t old = t->settings_text ? strlen(t->settings_text) : 0, add = strlen(line + 9);
        char *s = realloc(t->settings_text, old + add + 2);
        if (!s)
            return false;
        memcpy(s + old, line + 9, add);
        memcpy(s + old + add, "\n", 2);
        t->settings_text = s;
    } else {
        return false;
    }
    t->has_identity = true;
    return true;
}

uz_result uz_score_table_load(uz_score_table **out, const char *path, uz_diag *diag)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "%s: %s", path, strerror(errno));
        return UZ_ERR_IO;
    }
    uz_score_table *t;
    if (uz_score_table_create(&t) != UZ_OK) {
        fclose(f);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    long no = 0;
    uz_result r = UZ_OK;
    const char *why = NULL;
    while (r == UZ_OK && (len = getline(&line, &cap, f)) >= 0) {
        no++;
        if (len > 0 && line[len - 1] == '\n')
            line[--len] = '\0';
        if (no == 1 ? strcmp(line, SCORES_MAGIC) != 0 : !(parse_header(t, line) || parse_entry(t, line, &why))) {
            r = UZ_ERR_SYNTAX;
            uz_diag_set(diag, r, no, 0, "%s:%ld: %s", path, no,
                        no == 1 ? "not a recorded-scores file (no '" SCORES_MAGIC "' line)"
                                : why ? why : "unknown line");
        }
    }
    if (r == UZ_OK && no == 0) {
        r = UZ_ERR_SYNTAX;
        uz_diag_set(diag, r, 1, 0, "%s:1: empty file, not a recorded-scores file", path);
    }
    free(line);
    fclose(f);
    if (r != UZ_OK)
        uz_score_table_destroy(t);
    else
        *out = t;
    return r;
}
