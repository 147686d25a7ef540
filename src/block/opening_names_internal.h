/* The rows of the opening table (opening_names.h), generated at build time from
 * data/openings/a-e.tsv by scripts/opening_table.py (src/block/meson.build pins their hash). */
#ifndef UCIZIP_OPENING_NAMES_INTERNAL_H
#define UCIZIP_OPENING_NAMES_INTERNAL_H

#include <stddef.h>

typedef struct uz__opening_row {
    const char *eco;   /* "B51" */
    const char *name;  /* "Sicilian Defense: Canal Attack" */
    const char *moves; /* the moves that reach it, as PGN movetext from the initial position */
} uz__opening_row;

extern const uz__opening_row uz__opening_rows[];
extern const size_t uz__n_opening_rows;

#endif
