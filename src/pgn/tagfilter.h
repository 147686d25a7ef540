/* Selecting games by their tags (list, extract, ratings): conditions such as
 * White=Carlsen or WhiteElo>2500, all of which a game must meet, each of them possibly
 * a choice of several (White=Tal|Black=Tal: either will do); and the tag pairs of a
 * game kept as text (a verbatim game), so that it can be listed and filtered too.
 * Depends on pgn.h only: it never needs the moves. */
#ifndef UCIZIP_TAGFILTER_H
#define UCIZIP_TAGFILTER_H

#include <stdbool.h>

#include "pgn/pgn.h"

typedef enum uz_tag_op {
    UZ_TAG_CONTAINS, /* Name=text: the value contains text, ignoring ASCII case */
    UZ_TAG_EQUALS,   /* Name==text: the value is exactly text */
    UZ_TAG_NOT,      /* Name!=text: the tag is missing or does not contain text */
    UZ_TAG_LT,       /* Name<x, <=, >, >=: when x is a number, against the value's leading */
    UZ_TAG_LE,       /* number (none: no match); else byte by byte (dates compare as dates) */
    UZ_TAG_GT,
    UZ_TAG_GE,
} uz_tag_op;

typedef struct uz_tag_cond {
    char *name;
    char *value;
    uz_tag_op op;
    size_t group; /* conditions of one group are alternatives: one of them must hold */
} uz_tag_cond;

typedef struct uz_tag_filter {
    uz_tag_cond *conds; /* in the order added, so a group's conditions are together */
    size_t n;
    size_t n_groups;
} uz_tag_filter;

/* Adds the condition expr, one group: "Name OP value", or several such alternatives
 * separated by '|' ("White=Tal|Black=Tal"; "\|" is a '|' inside a value). OP is one of
 * = == != < <= > >=; the name is letters, digits and _. Refused with UZ_ERR_SYNTAX and
 * diag->column at the fault: an operator that is none of these (">>", "=<", "=>"), and
 * a name that no game's tag can be matched by here (pgn-extract's pseudo-tags Player,
 * FENPattern: the message says what to use instead). UZ_ERR_NOMEM. */
uz_result uz_tag_filter_add(uz_tag_filter *f, const char *expr, uz_diag *diag);
/* Adds the group "White=name|Black=name": games in which name has either colour
 * (contained, any case). UZ_ERR_SYNTAX for an empty name, or UZ_ERR_NOMEM. */
uz_result uz_tag_filter_add_player(uz_tag_filter *f, const char *name, uz_diag *diag);
/* True if the game meets every group (an empty filter takes every game): one condition
 * of each group holds. A tag that the game lacks meets only !=. */
bool uz_tag_filter_match(const uz_tag_filter *f, const uz_game *game);
void uz_tag_filter_free(uz_tag_filter *f);

/* For a verbatim game (game->verbatim set): adds the tag pairs at the start of its text
 * to game->tags (escapes \" and \\ resolved), stopping at the first line that is not a
 * tag pair. Sets game->result from the Result tag. Does nothing for other games. */
uz_result uz_game_verbatim_tags(uz_game *game);

#endif
