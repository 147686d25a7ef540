/* Opening names from the moves: see opening_names.h. The table's lines are played out once
 * per process into an open-addressing index from a position's Zobrist key to its row. */
#include "block/opening_names.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chess/board.h"
#include "chess/san.h"

enum { INDEX_BITS = 13 }; /* 8192 slots for the table's 3,807 rows: at most half full */

typedef struct slot {
    uint64_t key;
    uint32_t row; /* 1 + the row's index; 0 empty */
} slot;

static slot *index_slots;
static pthread_once_t index_once = PTHREAD_ONCE_INIT;

static size_t slot_of(uint64_t key)
{
    size_t mask = ((size_t)1 << INDEX_BITS) - 1, i = (size_t)(key >> 7) & mask;
    while (index_slots[i].row && index_slots[i].key != key)
        i = (i + 1) & mask;
    return i;
}

/* The position a row's moves reach; false when they do not play out (never, for the
 * frozen table: a test plays every row). */
static bool play_row(const uz__opening_row *row, uz_position *pos)
{
    uz_position_startpos(pos);
    for (const char *s = row->moves; *s;) {
        while (*s == ' ')
            s++;
        size_t n = strcspn(s, " ");
        if (n && s[n - 1] != '.') { /* a move number ("1." or "1...") is skipped */
            uz_move m;
            uz_undo undo;
            if (uz_san_parse(pos, s, n, &m, NULL) != UZ_OK)
                return false;
            uz_make_move(pos, m, &undo);
        }
        s += n;
    }
    return true;
}

static void index_build(void)
{
    slot *slots = calloc((size_t)1 << INDEX_BITS, sizeof *slots);
    if (!slots)
        return;
    index_slots = slots;
    for (size_t r = 0; r < uz__n_opening_rows; r++) {
        uz_position pos;
        if (!play_row(&uz__opening_rows[r], &pos))
            continue;
        size_t i = slot_of(pos.key);
        if (!slots[i].row) /* a position two rows reach keeps the first row */
            slots[i] = (slot){pos.key, (uint32_t)r + 1};
    }
}

/* The row of a position, or NULL. */
static const uz__opening_row *row_of(const uz_position *pos)
{
    const slot *s = &index_slots[slot_of(pos->key)];
    return s->row ? &uz__opening_rows[s->row - 1] : NULL;
}

/* Whether the walk's main line may have an opening: known, standard chess, no null move. */
static bool has_opening(const uz_walk *walk)
{
    pthread_once(&index_once, index_build);
    if (!index_slots || !walk->has_final || walk->final.chess960)
        return false;
    for (size_t i = 0; i < walk->n_main; i++)
        if (walk->steps[walk->main[i]].node->move == UZ_MOVE_NULL)
            return false;
    return true;
}

/* The row of the position after main-line move i (1 <= i <= n_main), or NULL. */
static const uz__opening_row *row_after(const uz_walk *walk, size_t i)
{
    return row_of(i < walk->n_main ? &walk->before[walk->main[i]] : &walk->final);
}

const uz__opening_row *uz_opening_of(const uz_walk *walk, size_t *plies)
{
    if (!has_opening(walk))
        return NULL;
    for (size_t i = walk->n_main; i > 0; i--) {
        const uz__opening_row *row = row_after(walk, i);
        if (row) {
            if (plies)
                *plies = i;
            return row;
        }
    }
    return NULL;
}

size_t uz_opening_names_of(const uz_walk *walk, const char **names, size_t max)
{
    size_t n = 0;
    if (!has_opening(walk))
        return 0;
    for (size_t i = walk->n_main; i > 0 && n < max; i--) {
        const uz__opening_row *row = row_after(walk, i);
        bool seen = !row;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strcmp(names[k], row->name) == 0;
        if (!seen)
            names[n++] = row->name;
    }
    return n;
}
