/* Reading a block's structure stream (block/game_struct.h): the games' tags, start
 * positions, results, comments, NAGs and the shape of their variations, without the moves
 * (those come from the move streams); the coded comments' counts and the sections' bytes,
 * for reports. */
#include <stdlib.h>
#include <string.h>

#include "block/game_struct.h"

#include "block/block_internal.h"
#include "block/comment_code.h"
#include "block/game_struct_internal.h"
#include "block/record_code.h"
#include "block/tag_code.h"

uz_block_game *uz_block_games_new(size_t n)
{
    uz_block_game *games = calloc(n ? n : 1, sizeof *games);
    for (size_t i = 0; games && i < n; i++)
        uz_game_init(&games[i].game);
    return games;
}

void uz_block_games_free(uz_block_game *games, size_t n)
{
    for (size_t i = 0; games && i < n; i++) {
        uz_walk_free(&games[i].walk);
        uz_game_clear(&games[i].game);
    }
    free(games);
}

typedef struct struct_reader {
    uz_cursor sec[N_SECTIONS];
    size_t nodes_left;       /* moves left for the current game's tree */
    uint64_t block_nodes_left; /* moves left for the block (a decoder limit) */
    unsigned version;
    unsigned comment_text;   /* the comments section's framing (header key 19; UZ_COMMENT_TEXT_*, 0: strings) */
    uz_record_coder rc;      /* structure version 4: the coded records */
    uz_cursor strings;       /* structure version 4: the records' FENs and order strings */
    uint64_t game_moves;     /* structure version 4: coded moves of the current game (nodes less null moves) */
    uint64_t marks_left;     /* structure version 4: NAGs and variations left for the block */
    uint64_t tags_left;      /* structure version 4: tags left for the block (open_coded_records) */
    unsigned tag_version;    /* header key 16 */
} struct_reader;

static uz_result get_count(uz_cursor *c, size_t *n)
{
    uint64_t v;
    if (uz_cursor_varint(c, &v) != UZ_OK || v > MAX_COUNT)
        return UZ_ERR_CORRUPT;
    *n = (size_t)v;
    return UZ_OK;
}

static uz_result get_bytes(uz_cursor *c, const uint8_t **s, size_t *n)
{
    if (uz_cursor_string(c, MAX_TEXT, s, n) != UZ_OK || memchr(*s, 0, *n))
        return UZ_ERR_CORRUPT;
    return UZ_OK;
}

/* A NUL-terminated copy of the next string (tags take C strings). */
static uz_result get_text(uz_cursor *c, char **out)
{
    const uint8_t *s;
    size_t n;
    if (get_bytes(c, &s, &n) != UZ_OK)
        return UZ_ERR_CORRUPT;
    char *t = malloc(n + 1);
    if (!t)
        return UZ_ERR_NOMEM;
    memcpy(t, s, n);
    t[n] = 0;
    *out = t;
    return UZ_OK;
}

typedef uz_result (*add_comment_fn)(void *owner, const char *text, size_t len);

static uz_result add_pre(void *line, const char *text, size_t len)
{
    return uz_line_add_pre_comment(line, text, len);
}

static uz_result add_node_comment(void *node, const char *text, size_t len)
{
    return uz_node_add_comment(node, text, len);
}

static uz_result add_trailing(void *game, const char *text, size_t len)
{
    return uz_game_add_trailing_comment(game, text, len);
}

/* The next comment text of the comments section, framed as the member's key 19 says: a
 * string, or the bytes up to a NUL (which is consumed). */
static uz_result get_comment_text(struct_reader *sr, const uint8_t **s, size_t *len)
{
    uz_cursor *c = &sr->sec[SEC_COMMENTS];
    if (sr->comment_text != UZ_COMMENT_TEXT_NUL)
        return get_bytes(c, s, len);
    const uint8_t *end = memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!end || (size_t)(end - c->p) > MAX_TEXT)
        return UZ_ERR_CORRUPT;
    *s = c->p;
    *len = (size_t)(end - c->p);
    c->p = end + 1;
    return UZ_OK;
}

/* n comments' texts from the comment stream. */
static uz_result get_comment_texts(struct_reader *sr, add_comment_fn add, void *owner, size_t n)
{
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *s;
        size_t len;
        if ((r = get_comment_text(sr, &s, &len)) != UZ_OK || (r = add(owner, (const char *)s, len)) != UZ_OK)
            return r;
    }
    return UZ_OK;
}

/* A comment count from the records, then the texts; min is 1 where the flags promised at
 * least one. */
static uz_result get_comments(struct_reader *sr, add_comment_fn add, void *owner, size_t min)
{
    size_t n;
    uz_result r = get_count(&sr->sec[SEC_RECORDS], &n);
    if (r != UZ_OK || n < min)
        return UZ_ERR_CORRUPT;
    return get_comment_texts(sr, add, owner, n);
}

static uz_result get_line(struct_reader *sr, uz_line *line, int depth)
{
    uz_cursor *c = &sr->sec[SEC_RECORDS];
    if (depth > MAX_DEPTH)
        return UZ_ERR_CORRUPT;
    uz_result r = get_comments(sr, add_pre, line, 0);
    if (r != UZ_OK)
        return r;
    uint64_t n_nodes = 0;
    size_t annotated;
    /* Checked against both budgets before a node is allocated. */
    if (uz_cursor_varint(c, &n_nodes) != UZ_OK || n_nodes > sr->nodes_left || n_nodes > sr->block_nodes_left ||
        (r = get_count(c, &annotated)) != UZ_OK || annotated > n_nodes)
        return n_nodes > sr->block_nodes_left && n_nodes <= sr->nodes_left ? UZ_ERR_LIMIT : UZ_ERR_CORRUPT;
    sr->nodes_left -= (size_t)n_nodes;
    sr->block_nodes_left -= n_nodes;
    for (uint64_t i = 0; i < n_nodes; i++)
        if (!uz_line_add_move(line, UZ_MOVE_NONE))
            return UZ_ERR_NOMEM;
    size_t next = 0;
    for (size_t a = 0; a < annotated; a++) {
        uint64_t gap, flags;
        if (uz_cursor_varint(c, &gap) != UZ_OK || gap >= n_nodes - next || uz_cursor_varint(c, &flags) != UZ_OK ||
            flags == 0 || flags > 31)
            return UZ_ERR_CORRUPT;
        uz_node *nd = &line->nodes[next + gap];
        next += (size_t)gap + 1;
        if (flags & NODE_NULL)
            nd->move = UZ_MOVE_NULL;
        if (flags & NODE_NAGS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            for (size_t k = 0; k < n; k++) {
                uint64_t v;
                if (uz_cursor_varint(c, &v) != UZ_OK || v > 255)
                    return UZ_ERR_CORRUPT;
                if ((r = uz_node_add_nag(nd, (uint8_t)v)) != UZ_OK)
                    return r;
            }
        }
        if ((flags & NODE_COMMENTS) && (r = get_comments(sr, add_node_comment, nd, 1)) != UZ_OK)
            return r;
        if (flags & NODE_VARIATIONS) {
            size_t n;
            if ((r = get_count(c, &n)) != UZ_OK || n == 0)
                return UZ_ERR_CORRUPT;
            for (size_t k = 0; k < n; k++) {
                uz_line *v = uz_node_add_variation(nd);
                if (!v)
                    return UZ_ERR_NOMEM;
                if ((r = get_line(sr, v, depth + 1)) != UZ_OK)
                    return r;
            }
        }
        if (flags & NODE_ORDER) {
            const uint8_t *order;
            size_t len;
            if (uz_cursor_string(c, MAX_TEXT, &order, &len) != UZ_OK ||
                uz_node_set_order(nd, (const char *)order, len) != UZ_OK || uz_node_order_is_plain(nd))
                return UZ_ERR_CORRUPT;
        }
    }
    return UZ_OK;
}

/* One game's record; its tag name indexes go to names[] (n_tags of them). */
static uz_result get_game(struct_reader *sr, uz_block_game *record, size_t n_names, uint32_t **names, size_t *n_tags)
{
    uz_game *game = &record->game;
    size_t *moves_len = &record->moves_len;
    record->text_rec = NULL;
    record->text_rec_len = 0;
    uz_cursor *c = &sr->sec[SEC_RECORDS];
    uint64_t len, flags;
    uz_result r;
    if (uz_cursor_varint(c, &len) != UZ_OK || len > ((uint64_t)1 << 30) || c->end - c->p < 4)
        return UZ_ERR_CORRUPT;
    *moves_len = (size_t)len;
    record->crc = (uint32_t)c->p[0] | (uint32_t)c->p[1] << 8 | (uint32_t)c->p[2] << 16 | (uint32_t)c->p[3] << 24;
    record->crc_mask = UINT32_MAX;
    c->p += 4;
    if ((r = get_count(c, n_tags)) != UZ_OK || *n_tags > (size_t)(c->end - c->p))
        return UZ_ERR_CORRUPT;
    if (*n_tags && !(*names = malloc(*n_tags * sizeof **names)))
        return UZ_ERR_NOMEM;
    for (size_t i = 0; i < *n_tags; i++) {
        uint64_t k;
        if (uz_cursor_varint(c, &k) != UZ_OK || k >= n_names)
            return UZ_ERR_CORRUPT;
        (*names)[i] = (uint32_t)k;
    }
    if (uz_cursor_varint(c, &flags) != UZ_OK ||
        ((flags & ~(uint64_t)GAME_CHESS960) > 7 && flags != GAME_VERBATIM && flags != GAME_TEXT_ONLY))
        return UZ_ERR_CORRUPT;
    if (flags == GAME_VERBATIM || flags == GAME_TEXT_ONLY) {
        const uint8_t *text;
        size_t text_len;
        /* A verbatim game is a whole game's exact bytes, not one comment: its own limit. */
        if (*n_tags != 0 || *moves_len != 0 ||
            uz_cursor_string(&sr->sec[SEC_COMMENTS], UZ_LIMIT_GAME_BYTES, &text, &text_len) != UZ_OK)
            return UZ_ERR_CORRUPT;
        r = uz_game_set_verbatim(game, (const char *)text, text_len);
        game->verbatim = flags == GAME_VERBATIM;
        game->text_only = flags == GAME_TEXT_ONLY;
        return r;
    }
    /* Where the game's text record starts; checked here, used once the moves are known. */
    record->text_rec = sr->sec[SEC_TEXT].p;
    if (uz__game_text_skip(&sr->sec[SEC_TEXT]) != UZ_OK)
        return UZ_ERR_CORRUPT;
    record->text_rec_len = (size_t)(sr->sec[SEC_TEXT].p - record->text_rec);
    game->result = (uz_game_result)((flags >> GAME_RESULT_SHIFT) & 3);
    game->has_fen = flags & GAME_HAS_FEN;
    if (game->has_fen) {
        char *fen = NULL;
        if ((r = get_text(c, &fen)) != UZ_OK)
            return r;
        bool chess960 = flags & GAME_CHESS960;
        r = uz_position_from_fen_960(&game->start, fen, chess960, NULL) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
        free(fen);
        if (r != UZ_OK)
            return r;
    } else {
        uz_position_startpos(&game->start);
        game->start.chess960 = (flags & GAME_CHESS960) != 0; /* the standard array, Chess960 rules */
    }
    sr->nodes_left = UZ_PGN_MAX_MOVES;
    if ((r = get_line(sr, &game->main, 0)) != UZ_OK)
        return r;
    return get_comments(sr, add_trailing, game, 0);
}

/* A count of structure version 4's records, at most max. */
static uz_result get_number(struct_reader *sr, uz_gamma_set *g, uint64_t max, size_t *n)
{
    uint64_t v = 0;
    uz_result r = uz_record_count(&sr->rc, g, max, &v);
    *n = (size_t)v;
    return r;
}

static uz_result get_bit(struct_reader *sr, uz_bit_model *m, unsigned *bit)
{
    return uz_record_bit(&sr->rc, m, bit) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
}

/* Structure version 4: a line's coded records (put_line_coded in game_struct_write.c). */
static uz_result get_line_coded(struct_reader *sr, uz_line *line, int depth)
{
    uz_record_models *m = sr->rc.m;
    int v = depth > 0;
    size_t n, n_nodes;
    uz_result r;
    if (depth > MAX_DEPTH)
        return UZ_ERR_CORRUPT;
    if ((r = get_number(sr, &m->pre_comments[v], MAX_COUNT, &n)) != UZ_OK ||
        (r = get_comment_texts(sr, add_pre, line, n)) != UZ_OK)
        return r;
    /* Checked against both budgets before a node is allocated. */
    if ((r = get_number(sr, &m->nodes[v], UZ_LIMIT_GAME_NODES, &n_nodes)) != UZ_OK || n_nodes > sr->nodes_left)
        return UZ_ERR_CORRUPT;
    if (n_nodes > sr->block_nodes_left)
        return UZ_ERR_LIMIT;
    sr->nodes_left -= n_nodes;
    sr->block_nodes_left -= n_nodes;
    for (size_t i = 0; i < n_nodes; i++)
        if (!uz_line_add_move(line, UZ_MOVE_NONE))
            return UZ_ERR_NOMEM;
    unsigned prev = 0;
    for (size_t i = 0; i < n_nodes; i++) {
        uz_node *nd = &line->nodes[i];
        unsigned annotated, null, nags, comments, variations, order = 0;
        if ((r = get_bit(sr, &m->annotated[v][prev], &annotated)) != UZ_OK)
            return r;
        if (!(prev = annotated)) {
            sr->game_moves++;
            continue;
        }
        if ((r = get_bit(sr, &m->null[v], &null)) != UZ_OK || (r = get_bit(sr, &m->has_nags[v], &nags)) != UZ_OK ||
            (r = get_bit(sr, &m->has_comments[v][nags], &comments)) != UZ_OK ||
            (r = get_bit(sr, &m->has_variations[v], &variations)) != UZ_OK)
            return r;
        if (!(null | nags | comments | variations))
            return UZ_ERR_CORRUPT; /* annotated with nothing */
        if (nags + comments + variations >= 2 && (r = get_bit(sr, &m->order, &order)) != UZ_OK)
            return r;
        sr->game_moves += !null;
        if (null)
            nd->move = UZ_MOVE_NULL;
        if (nags) {
            if ((r = get_number(sr, &m->nag_count, MAX_COUNT - 1, &n)) != UZ_OK || n + 1 > sr->marks_left)
                return UZ_ERR_CORRUPT;
            sr->marks_left -= n + 1;
            for (size_t k = 0; k <= n; k++) {
                size_t nag;
                if ((r = get_number(sr, &m->nag, 255, &nag)) != UZ_OK)
                    return r;
                if ((r = uz_node_add_nag(nd, (uint8_t)nag)) != UZ_OK)
                    return r;
            }
        }
        if (comments && ((r = get_number(sr, &m->comments[v], MAX_COUNT - 1, &n)) != UZ_OK ||
                         (r = get_comment_texts(sr, add_node_comment, nd, n + 1)) != UZ_OK))
            return r;
        if (variations) {
            if ((r = get_number(sr, &m->variations, MAX_COUNT - 1, &n)) != UZ_OK || n + 1 > sr->marks_left)
                return UZ_ERR_CORRUPT;
            sr->marks_left -= n + 1;
            for (size_t k = 0; k <= n; k++) {
                uz_line *var = uz_node_add_variation(nd);
                if (!var)
                    return UZ_ERR_NOMEM;
                if ((r = get_line_coded(sr, var, depth + 1)) != UZ_OK)
                    return r;
            }
        }
        if (order) {
            const uint8_t *text;
            size_t len;
            if (uz_cursor_string(&sr->strings, MAX_TEXT, &text, &len) != UZ_OK ||
                uz_node_set_order(nd, (const char *)text, len) != UZ_OK || uz_node_order_is_plain(nd))
                return UZ_ERR_CORRUPT;
        }
    }
    return UZ_OK;
}

/* Structure version 4: one game's coded record (put_game_coded); its tag name indexes go to names[]
 * (n_tags of them). */
static uz_result get_game_coded(struct_reader *sr, uz_block_game *record, size_t n_names, uint32_t **names,
                                size_t *n_tags)
{
    uz_game *game = &record->game;
    uz_record_models *m = sr->rc.m;
    uz_result r;
    unsigned special, text_only = 0;
    record->text_rec = NULL;
    record->text_rec_len = 0;
    record->moves_len = 0;
    record->crc = 0;
    record->crc_mask = 0; /* verbatim and text-only records: their bytes are stored */
    if ((r = get_bit(sr, &m->special[sr->rc.prev_special], &special)) != UZ_OK)
        return r;
    sr->rc.prev_special = (int)special;
    if (special) {
        const uint8_t *text;
        size_t len;
        if ((r = get_bit(sr, &m->text_only, &text_only)) != UZ_OK ||
            uz_cursor_string(&sr->sec[SEC_COMMENTS], UZ_LIMIT_GAME_BYTES, &text, &len) != UZ_OK)
            return UZ_ERR_CORRUPT;
        r = uz_game_set_verbatim(game, (const char *)text, len);
        game->verbatim = !text_only;
        game->text_only = text_only;
        return r;
    }
    unsigned fen, chess960, hi, lo;
    if ((r = get_bit(sr, &m->has_fen, &fen)) != UZ_OK || (r = get_bit(sr, &m->chess960[fen], &chess960)) != UZ_OK)
        return r;
    game->has_fen = fen;
    if (fen) {
        char *text = NULL;
        if ((r = get_text(&sr->strings, &text)) != UZ_OK)
            return r;
        r = uz_position_from_fen_960(&game->start, text, chess960, NULL) == UZ_OK ? UZ_OK : UZ_ERR_CORRUPT;
        free(text);
        if (r != UZ_OK)
            return r;
    } else {
        uz_position_startpos(&game->start);
        game->start.chess960 = chess960; /* the standard array, Chess960 rules */
    }
    /* Tag names until the end (0), each taking one of the block's tags. */
    size_t cap = 0;
    uint32_t state = 0;
    for (;;) {
        uint64_t v = 0;
        if ((r = uz_record_tag_name(&sr->rc, &state, n_names, &v)) != UZ_OK)
            return r == UZ_ERR_NOMEM ? r : UZ_ERR_CORRUPT;
        if (v == 0)
            break;
        if (*n_tags >= MAX_COUNT || sr->tags_left == 0)
            return UZ_ERR_CORRUPT;
        sr->tags_left--;
        if (*n_tags == cap) {
            cap = cap ? 2 * cap : 16;
            uint32_t *grown = realloc(*names, cap * sizeof *grown);
            if (!grown)
                return UZ_ERR_NOMEM;
            *names = grown;
        }
        (*names)[(*n_tags)++] = (uint32_t)(v - 1);
    }
    if ((r = uz_record_text(&sr->rc, &record->text_rec, &record->text_rec_len, NULL, &sr->sec[SEC_TEXT])) != UZ_OK)
        return r == UZ_ERR_NOMEM ? r : UZ_ERR_CORRUPT;
    size_t n;
    sr->nodes_left = UZ_PGN_MAX_MOVES;
    sr->game_moves = 0;
    if ((r = get_line_coded(sr, &game->main, 0)) != UZ_OK)
        return r;
    int odd = game->main.n_nodes & 1;
    if ((r = get_bit(sr, &m->result[odd][0], &hi)) != UZ_OK || (r = get_bit(sr, &m->result[odd][1 + hi], &lo)) != UZ_OK)
        return r;
    game->result = (uz_game_result)(2 * hi + lo);
    if ((r = get_number(sr, &m->trailing, MAX_COUNT, &n)) != UZ_OK ||
        (r = get_comment_texts(sr, add_trailing, game, n)) != UZ_OK)
        return r;
    uint64_t len = 0;
    if ((r = uz_record_moves_len(&sr->rc, sr->game_moves, &len)) != UZ_OK ||
        (r = uz_record_check(&sr->rc, &record->crc)) != UZ_OK)
        return UZ_ERR_CORRUPT;
    record->moves_len = (size_t)len;
    record->crc_mask = sr->rc.check_bits ? UINT32_MAX >> (32 - sr->rc.check_bits) : 0;
    return UZ_OK;
}

/* Structure version 1, once the tags are known (the clocks need TimeControl): each comment read as
 * text is the residual of a coded comment or a text comment; the comment coder decides
 * which, in the writer's order. */
static uz_result decode_comments(uz_comment_coder *cc, char **comments, size_t n, int slot)
{
    for (size_t i = 0; i < n; i++) {
        const char *text;
        size_t len;
        uz_result r = uz_comment_decode(cc, slot, i, comments[i], strlen(comments[i]), &text, &len);
        if (r != UZ_OK)
            return r;
        if (!text)
            continue; /* a text comment: the residual is the comment */
        char *s = malloc(len + 1);
        if (!s)
            return UZ_ERR_NOMEM;
        memcpy(s, text, len);
        s[len] = 0;
        free(comments[i]);
        comments[i] = s;
    }
    return UZ_OK;
}

static uz_result decode_line(uz_comment_coder *cc, uz_line *line, int side)
{
    uz_result r = decode_comments(cc, line->pre_comments, line->n_pre_comments, UZ_CC_OTHER);
    for (size_t i = 0; i < line->n_nodes && r == UZ_OK; i++) {
        uz_node *nd = &line->nodes[i];
        int mover = (side + (int)i) & 1;
        r = decode_comments(cc, nd->comments, nd->n_comments, mover);
        for (size_t k = 0; k < nd->n_variations && r == UZ_OK; k++)
            r = decode_line(cc, &nd->variations[k], mover);
    }
    return r;
}

static uz_result decode_block_comments(const uz_cursor *section, unsigned revision, uz_block_game *games, size_t n,
                                       uz_comment_counts *counts)
{
    uz_comment_coder *cc;
    uz_cursor clocks, code[1];
    uint64_t n_clocks;
    if (uz__split_comment_code(*section, revision, &clocks, &n_clocks, code) != UZ_OK)
        return UZ_ERR_CORRUPT;
    uz_result r = uz_comment_reader_create(&cc, revision, code->p, (size_t)(code->end - code->p));
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        uz_game *game = &games[i].game;
        if (game->verbatim || game->text_only)
            continue;
        uz_comment_coder_begin_game(cc, game);
        r = decode_line(cc, &game->main, game->start.side);
        if (r == UZ_OK)
            r = decode_comments(cc, game->trailing_comments, game->n_trailing_comments, UZ_CC_OTHER);
    }
    if (r == UZ_OK)
        r = uz_comment_coder_finish(cc, NULL);
    if (r == UZ_OK && counts)
        *counts = uz_comment_coder_counts(cc);
    uz_comment_coder_destroy(cc);
    return r;
}

/* A column's values: where each starts in the values section. */
typedef struct column {
    const uint8_t *next; /* the column's next unread value */
    size_t left;         /* values of the column not yet taken */
} column;

/* Structure version 0: the values of each name, column by column, all text. */
static uz_result read_columns(struct_reader *sr, uz_block_game *games, size_t n, char **name_text, size_t n_names, column *cols,
                              uint32_t **tag_names, const size_t *n_tags)
{
    uz_result r;
    /* Columns: find where each starts, then hand the values out in game order. */
    for (size_t k = 0; k < n_names; k++) {
        cols[k].next = sr->sec[SEC_VALUES].p;
        for (size_t v = 0; v < cols[k].left; v++) {
            const uint8_t *s;
            size_t len;
            if (get_bytes(&sr->sec[SEC_VALUES], &s, &len) != UZ_OK)
                return UZ_ERR_CORRUPT;
        }
    }
    if (sr->sec[SEC_VALUES].p != sr->sec[SEC_VALUES].end)
        return UZ_ERR_CORRUPT;
    for (size_t i = 0; i < n; i++)
        for (size_t t = 0; t < n_tags[i]; t++) {
            column *col = &cols[tag_names[i][t]];
            uz_cursor c = {col->next, sr->sec[SEC_VALUES].end};
            char *value = NULL;
            if ((r = get_text(&c, &value)) != UZ_OK)
                return r;
            col->next = c.p;
            r = uz_game_add_tag(&games[i].game, name_text[tag_names[i][t]], value);
            free(value);
            if (r != UZ_OK)
                return r;
        }
    return UZ_OK;
}

/* Structure version 2's engine-code section: empty, or one size and that many bytes per game (a
 * game without a tree has size 0), exactly. With fill, each record gets its game's bytes. */
static uz_result engine_spans(uz_cursor c, uz_block_game *games, size_t n, bool fill)
{
    bool any = c.p != c.end;
    for (size_t i = 0; i < n; i++) {
        uint64_t len = 0;
        if (any && (uz_cursor_varint(&c, &len) != UZ_OK || len > (uint64_t)(c.end - c.p) ||
                             (len && (games[i].game.verbatim || games[i].game.text_only))))
            return UZ_ERR_CORRUPT;
        if (fill) {
            games[i].engine_code = c.p;
            games[i].engine_code_len = (size_t)len;
        }
        c.p += len;
    }
    return c.p == c.end ? UZ_OK : UZ_ERR_CORRUPT;
}

/* Structure version 4: the records section's check width, coded records and strings (the section is
 * then consumed: the cursors take over); the block's budgets of tags and marks. */
static uz_result open_coded_records(struct_reader *sr)
{
    uz_cursor *c = &sr->sec[SEC_RECORDS];
    uint64_t check_bits, size;
    if (uz_cursor_varint(c, &check_bits) != UZ_OK || check_bits > UZ_RECORD_MAX_CHECK_BITS ||
        uz_cursor_varint(c, &size) != UZ_OK || size > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT;
    uz_result r = uz_record_reader_init(&sr->rc, sr->version, (unsigned)check_bits, c->p, (size_t)size);
    if (r != UZ_OK)
        return r;
    sr->strings = (uz_cursor){c->p + size, c->end};
    c->p = c->end;
    sr->marks_left = UZ_LIMIT_BLOCK_MARKS;
    /* Each tag takes a byte of values or tag_code; in tag version 4 a range-coded code takes
     * over 1/11,400 of a byte (two binary decisions, each at least -log2(4095/4096) bits), and
     * the block at most the tags a writer puts in one (uz_block_fit): no hostile gigabytes. */
    sr->tags_left = (uint64_t)(sr->sec[SEC_VALUES].end - sr->sec[SEC_VALUES].p) +
                    (uint64_t)(sr->sec[SEC_TAG_CODE].end - sr->sec[SEC_TAG_CODE].p) *
                        (sr->tag_version >= 4 ? UZ_TAG_CODES_PER_BYTE : 1);
    sr->tags_left = sr->tag_version >= 4 && sr->tags_left > UZ_LIMIT_LIST ? UZ_LIMIT_LIST : sr->tags_left;
    return UZ_OK;
}

/* uz_block_struct_read, with the coded comments' counts (structure version 1) when counts is not NULL,
 * and (structure version 4 and later) every record decision also learnt by training when it is not
 * NULL. */
static uz_result struct_read(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                             unsigned comment_revision, unsigned comment_text, uz_block_game *games, size_t n,
                             const uz_decode_limits *limits, uz_comment_counts *counts, uz_record_training *training,
                             uz_diag *diag)
{
    struct_reader sr = {.version = version, .comment_text = comment_text, .tag_version = tag_version};
    uz_decode_limits lim = uz_decode_limits_or_default(limits);
    sr.block_nodes_left = lim.block_nodes;
    static const uint8_t empty[1];
    uz_cursor head = data ? (uz_cursor){data, data + size} : (uz_cursor){empty, empty}; /* (NULL: size 0) */
    uz_result r = UZ_ERR_CORRUPT;
    uint32_t **tag_names = calloc(n ? n : 1, sizeof *tag_names);
    size_t *n_tags = calloc(n ? n : 1, sizeof *n_tags);
    char **name_text = NULL;
    column *cols = NULL;
    size_t n_names = 0;
    if (!tag_names || !n_tags) {
        r = UZ_ERR_NOMEM;
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        uz_walk_free(&games[i].walk); /* (of the game cleared) */
        uz_game_clear(&games[i].game);
    }
    /* Section sizes, then a cursor over each section. */
    uint64_t sizes[N_SECTIONS] = {0};
    int n_sections = sections_of(version);
    if (version > UZ_STRUCT_VERSION)
        goto out;
    for (int s = 0; s < n_sections; s++)
        if (uz_cursor_varint(&head, &sizes[s]) != UZ_OK)
            goto out;
    const uint8_t *p = head.p;
    for (int s = 0; s < N_SECTIONS; s++) {
        if (s == SEC_ENGINE_CODE && version >= 2)
            sizes[s] = (uint64_t)(head.end - p);
        if (sizes[s] > (uint64_t)(head.end - p))
            goto out;
        sr.sec[s] = (uz_cursor){p, p + sizes[s]};
        p += sizes[s];
    }
    if (p != head.end)
        goto out;
    /* Tag names. */
    if (get_count(&sr.sec[SEC_NAMES], &n_names) != UZ_OK || n_names > sizes[SEC_NAMES])
        goto out;
    name_text = calloc(n_names ? n_names : 1, sizeof *name_text);
    cols = calloc(n_names ? n_names : 1, sizeof *cols);
    if (!name_text || !cols) {
        r = UZ_ERR_NOMEM;
        goto out;
    }
    for (size_t k = 0; k < n_names; k++)
        if ((r = get_text(&sr.sec[SEC_NAMES], &name_text[k])) != UZ_OK)
            goto out;
    r = UZ_ERR_CORRUPT;
    if (sr.sec[SEC_NAMES].p != sr.sec[SEC_NAMES].end)
        goto out;
    if (version >= 4 && (r = open_coded_records(&sr)) != UZ_OK)
        goto out;
    if (version >= 4 && training && (r = uz_record_train(&sr.rc, training)) != UZ_OK)
        goto out;
    /* Game records (comments are read from their stream as the records need them). */
    for (size_t i = 0; i < n; i++) {
        r = version >= 4 ? get_game_coded(&sr, &games[i], n_names, &tag_names[i], &n_tags[i])
                         : get_game(&sr, &games[i], n_names, &tag_names[i], &n_tags[i]);
        if (r != UZ_OK)
            goto out;
        for (size_t t = 0; t < n_tags[i]; t++)
            cols[tag_names[i][t]].left++;
    }
    r = UZ_ERR_CORRUPT;
    uint64_t tag_left; /* (a name or a recent value is stored once, however many tags repeat it) */
    if ((version >= 4 && (uz_record_finish(&sr.rc, NULL) != UZ_OK || sr.strings.p != sr.strings.end)) ||
        sr.sec[SEC_RECORDS].p != sr.sec[SEC_RECORDS].end || sr.sec[SEC_COMMENTS].p != sr.sec[SEC_COMMENTS].end ||
        sr.sec[SEC_TEXT].p != sr.sec[SEC_TEXT].end ||
        (r = uz_tag_names_budget((const char *const *)name_text, n_names, tag_names, n_tags, n, &tag_left)) != UZ_OK)
        goto out;
    if (version) {
        uz_tag_coding tc = {(const char *const *)name_text, n_names, false, version >= 3, tag_version, &tag_left};
        if ((r = uz_tag_code_read(&sr.sec[SEC_TAG_CODE], &sr.sec[SEC_VALUES], &tc, games, n, tag_names, n_tags)) != UZ_OK)
            goto out;
    } else if ((r = read_columns(&sr, games, n, name_text, n_names, cols, tag_names, n_tags)) != UZ_OK)
        goto out;
    if (version >= 1 && (r = decode_block_comments(&sr.sec[SEC_COMMENT_CODE],
                                                     uz_comment_revision(version, comment_revision), games, n, counts)) != UZ_OK)
        goto out;
    if ((r = engine_spans(sr.sec[SEC_ENGINE_CODE], games, n, false)) != UZ_OK)
        goto out;
    r = UZ_OK;
out:
    if (r != UZ_OK) {
        if (r == UZ_ERR_NOMEM)
            uz_diag_set(diag, r, 0, 0, "out of memory");
        else if (r == UZ_ERR_LIMIT)
            uz_diag_set(diag, r, 0, 0, "block holds more than %llu moves (decoder limit)",
                        (unsigned long long)lim.block_nodes);
        else
            uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "corrupt archive: malformed structure stream");
        for (size_t i = 0; i < n; i++)
            uz_game_clear(&games[i].game);
    }
    for (size_t i = 0; tag_names && i < n; i++)
        free(tag_names[i]);
    for (size_t k = 0; name_text && k < n_names; k++)
        free(name_text[k]);
    free(tag_names);
    free(n_tags);
    free(name_text);
    free(cols);
    uz_record_coder_free(&sr.rc);
    return r == UZ_OK || r == UZ_ERR_NOMEM || r == UZ_ERR_LIMIT ? r : UZ_ERR_CORRUPT;
}

uz_result uz_block_struct_engine_code(const uint8_t *data, size_t size, unsigned version, uz_block_game *games, size_t n)
{
    uz__struct_span spans[UZ__MAX_STRUCT_SPANS];
    int k = data && version >= 2 ? uz__struct_spans(data, size, version, spans) : 0;
    if (k < 0)
        return UZ_ERR_CORRUPT;
    uz_cursor c = {data, data};
    if (k == 2 + SEC_ENGINE_CODE)
        c = (uz_cursor){spans[k - 1].p, spans[k - 1].p + spans[k - 1].n};
    return engine_spans(c, games, n, true);
}

uz_result uz_block_struct_read(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                               unsigned comment_revision, unsigned comment_text, uz_block_game *games, size_t n,
                               const uz_decode_limits *limits, uz_diag *diag)
{
    return struct_read(data, size, version, tag_version, comment_revision, comment_text, games, n, limits, NULL, NULL, diag);
}

uz_result uz_block_struct_read_models(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                                      unsigned comment_revision, unsigned comment_text, size_t n,
                                      uz_record_training *training, uz_diag *diag)
{
    uz_block_game *games = uz_block_games_new(n);
    uz_result r = games ? struct_read(data, size, version, tag_version, comment_revision, comment_text, games, n, NULL,
                                      NULL, training, diag)
                        : UZ_ERR_NOMEM;
    uz_block_games_free(games, n);
    return r;
}

uz_result uz_block_struct_comment_info(const uint8_t *data, size_t size, unsigned version, unsigned tag_version,
                                       unsigned comment_revision, unsigned comment_text, size_t n,
                                       uz_struct_comment_info *info, uz_diag *diag)
{
    *info = (uz_struct_comment_info){0};
    uz_block_game *games = uz_block_games_new(n);
    uz_comment_counts counts = {0};
    uz_result r = games ? struct_read(data, size, version, tag_version, comment_revision, comment_text, games, n, NULL,
                                      &counts, NULL, diag)
                        : UZ_ERR_NOMEM;
    uz_block_games_free(games, n);
    if (r == UZ_OK && version >= 1) {
        /* The section sizes lead the stream: the comment-code section's is the sixth. */
        uz_cursor c = {data, data + size};
        uint64_t v = 0;
        for (int s = 0; s <= SEC_COMMENT_CODE; s++)
            uz_cursor_varint(&c, &v);
        info->code_bytes = v;
        info->comments = counts.comments;
        info->clocks = counts.clocks;
        info->cost_clocks = counts.cost_clocks;
        /* Comment revision 4's main-line clocks are decoded after the moves: their share is their
         * code's bytes, their number the one the section gives. */
        const uint8_t *clock_code;
        size_t clock_len;
        uint64_t n_clocks;
        if (uz_block_struct_clock_code(data, size, version, comment_revision, &clock_code, &clock_len, &n_clocks) ==
            UZ_OK) {
            info->cost_clocks += (uint64_t)clock_len << 19;
            info->clocks += n_clocks;
        }
        info->cost_engine = counts.cost_engine;
        info->cost_text = counts.cost_text;
        info->engine = counts.engine;
    }
    return r;
}
