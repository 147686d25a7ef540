/* Writing a block's structure stream (block/game_struct.h): tag names and values column
 * by column (all Event values, then all Site values, ...) and comments in a section of
 * their own, because like values next to each other compress much better than values
 * interleaved game by game; the games' records; their text records. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "block/game_struct.h"

#include "archive/packer.h"
#include "block/clock_code.h"
#include "block/comment_code.h"
#include "block/engine_code.h"
#include "block/game_struct_internal.h"
#include "block/record_code.h"
#include "block/tag_code.h"
#include "common/hash.h"

/* Structure version 4: the bits of each game's CRC-32 that its record keeps (doc/format.md, "Coded
 * records": the block's text digest checks every game of a whole block). */
#define UZ_RECORD_CHECK_BITS 2

typedef struct struct_writer {
    uz_buf sec[N_SECTIONS];
    char **names;          /* distinct tag names, in order of first appearance */
    size_t n_names, cap_names;
    uz_buf *columns;       /* values of each name, in game order */
    uint32_t *slots;       /* hash table of names: index + 1, 0 = empty; n_slots a power of 2 */
    size_t n_slots;
    size_t game_nodes;     /* moves of the game being written */
    uz_comment_coder *cc;  /* structure version 1: codes each comment's kind (NULL in structure version 0) */
    uz_clock_coder *clocks; /* comment revision 4: the main-line clocks, coded from the walks (else NULL) */
    unsigned version;      /* structure version: from 1 the tags go through tag_code */
    unsigned tag_version;  /* of tag_code (header key 16) */
    unsigned engine_revision; /* of engine_code (header key 18; 0: absent, revision 1) */
    unsigned comment_text; /* the comments section's framing (header key 19; UZ_COMMENT_TEXT_*, 0: strings) */
    uz_buf tag_index;      /* structure version 1: every tag's name index (uint32_t), in game order */
    char **residuals;      /* structure version 2: the game's main-line comments as engine_code left them (NULL: as is) */
    size_t n_residuals, next_residual;
    bool any_engine_code;  /* structure version 2: a game of the block has coded engine comments */
    uz_record_coder rc;    /* structure version 4: the range-coded records */
    uz_buf strings;        /* structure version 4: the records' FENs and order strings */
    uint64_t game_moves;   /* structure version 4: coded moves of the game being written (nodes less null moves) */
    uint64_t marks;        /* structure version 4: NAGs and variations of the block so far */
    uint64_t tag_bytes;    /* the block's tags as a reader makes them (uz_tag_bytes), at most UZ_LIMIT_BLOCK_STRUCT */
    uz_buf *packed;        /* where the stream's packing goes when the writer makes one (NULL: not kept) */
    unsigned *method;      /* and its method */
} struct_writer;

/* A text the reader takes: at most MAX_TEXT bytes (C strings hold no NUL). */
static uz_result put_text(uz_buf *b, const char *s)
{
    size_t n = strlen(s);
    return n > MAX_TEXT ? UZ_ERR_LIMIT : uz_buf_put_string(b, s, n);
}

/* A comment's text (no NUL) in the comments section, framed as the member's key 19 says: a
 * string, or the text then a NUL (which leaves prose as prose for the packer's dictionary). */
static uz_result put_comment_text(struct_writer *w, const char *s, size_t n)
{
    uz_buf *b = &w->sec[SEC_COMMENTS];
    if (n > MAX_TEXT)
        return UZ_ERR_LIMIT;
    if (w->comment_text != UZ_COMMENT_TEXT_NUL)
        return uz_buf_put_string(b, s, n);
    uz_result r = uz_buf_append(b, s, n);
    return r == UZ_OK ? uz_buf_append(b, "", 1) : r;
}

static uz_result put_count(uz_buf *b, size_t n)
{
    return n > MAX_COUNT ? UZ_ERR_LIMIT : uz_buf_put_varint(b, n);
}

/* A count of the records: a varint (structure versions 0-3), or coded with g (structure version 4). */
static uz_result put_number(struct_writer *w, uz_gamma_set *g, size_t n)
{
    if (n > MAX_COUNT)
        return UZ_ERR_LIMIT;
    uint64_t v = n;
    return w->version >= 4 ? uz_record_count(&w->rc, g, MAX_COUNT, &v) : uz_buf_put_varint(&w->sec[SEC_RECORDS], n);
}

/* The texts of n comments (their count is the caller's). slot: whose comments (UZ_CC_*),
 * for the comment coder; main: comments of a main-line move (structure version 2 takes their
 * residuals from engine_code). */
static uz_result put_comments(struct_writer *w, char *const *comments, size_t n, int slot, bool main)
{
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK; i++) {
        const char *text = comments[i];
        if (main && w->residuals) {
            if (w->next_residual >= w->n_residuals)
                return UZ_ERR_ARG;
            if (w->residuals[w->next_residual])
                text = w->residuals[w->next_residual];
            w->next_residual++;
        }
        if (!w->cc) {
            r = put_comment_text(w, text, strlen(text));
            continue;
        }
        const char *residual;
        size_t len;
        if (strlen(comments[i]) > MAX_TEXT)
            return UZ_ERR_LIMIT;
        if ((r = uz_comment_encode(w->cc, slot, i, text, &residual, &len)) == UZ_OK)
            r = put_comment_text(w, residual, len);
    }
    return r;
}

/* side: the mover of the line's first move. */
static uz_result put_line(struct_writer *w, const uz_line *line, int depth, int side)
{
    uz_buf *b = &w->sec[SEC_RECORDS];
    if (depth > MAX_DEPTH || line->n_nodes > UZ_LIMIT_GAME_NODES - w->game_nodes)
        return UZ_ERR_LIMIT;
    w->game_nodes += line->n_nodes;
    uz_result r = put_count(b, line->n_pre_comments);
    if (r == UZ_OK)
        r = put_comments(w, line->pre_comments, line->n_pre_comments, UZ_CC_OTHER, false);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, line->n_nodes);
    size_t annotated = 0;
    for (size_t i = 0; i < line->n_nodes; i++) {
        const uz_node *nd = &line->nodes[i];
        annotated += nd->move == UZ_MOVE_NULL || nd->n_nags || nd->n_comments || nd->n_variations;
    }
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, annotated);
    size_t prev = 0;
    for (size_t i = 0; i < line->n_nodes && r == UZ_OK; i++) {
        const uz_node *nd = &line->nodes[i];
        unsigned flags = (nd->move == UZ_MOVE_NULL ? NODE_NULL : 0) | (nd->n_nags ? NODE_NAGS : 0) |
                         (nd->n_comments ? NODE_COMMENTS : 0) | (nd->n_variations ? NODE_VARIATIONS : 0) |
                         (uz_node_order_is_plain(nd) ? 0 : NODE_ORDER);
        if (!flags)
            continue;
        r = uz_buf_put_varint(b, i - prev);
        prev = i + 1;
        if (r == UZ_OK)
            r = uz_buf_put_varint(b, flags);
        if (r == UZ_OK && (flags & NODE_NAGS)) {
            r = put_count(b, nd->n_nags);
            for (size_t k = 0; k < nd->n_nags && r == UZ_OK; k++)
                r = uz_buf_put_varint(b, nd->nags[k]);
        }
        if (r == UZ_OK && (flags & NODE_COMMENTS))
            r = put_count(b, nd->n_comments);
        if (r == UZ_OK && (flags & NODE_COMMENTS))
            r = put_comments(w, nd->comments, nd->n_comments, (side + (int)i) & 1, depth == 0);
        if (r == UZ_OK && (flags & NODE_VARIATIONS)) {
            r = put_count(b, nd->n_variations);
            for (size_t k = 0; k < nd->n_variations && r == UZ_OK; k++)
                r = put_line(w, &nd->variations[k], depth + 1, (side + (int)i) & 1);
        }
        if (r == UZ_OK && (flags & NODE_ORDER))
            r = uz_buf_put_string(b, nd->order, nd->n_nags + nd->n_comments + nd->n_variations);
    }
    return r;
}

static size_t name_hash(const char *s)
{
    uint64_t h = uz_fnv1a64_str(UZ_FNV1A64_OFFSET, s);
    return (size_t)(h ^ (h >> 32));
}

/* The slot of name in the hash table: its entry, or the empty slot where it goes. */
static uint32_t *name_slot(const struct_writer *w, const char *name)
{
    size_t mask = w->n_slots - 1;
    for (size_t i = name_hash(name) & mask;; i = (i + 1) & mask)
        if (!w->slots[i] || strcmp(w->names[w->slots[i] - 1], name) == 0)
            return &w->slots[i];
}

/* Keeps the table at most half full (a linear search per name was quadratic in the
 * number of distinct names). */
static uz_result grow_slots(struct_writer *w)
{
    if (2 * (w->n_names + 1) <= w->n_slots)
        return UZ_OK;
    size_t n = w->n_slots ? 2 * w->n_slots : 64;
    uint32_t *old = w->slots;
    w->slots = calloc(n, sizeof *w->slots);
    if (!w->slots) {
        w->slots = old;
        return UZ_ERR_NOMEM;
    }
    w->n_slots = n;
    for (size_t k = 0; k < w->n_names; k++)
        *name_slot(w, w->names[k]) = (uint32_t)k + 1;
    free(old);
    return UZ_OK;
}

/* Index of a tag name, added on first use. */
static uz_result name_index(struct_writer *w, const uz_tag *tag, size_t *index)
{
    const char *name = tag->name;
    w->tag_bytes += uz_tag_bytes(strlen(name), strlen(tag->value));
    if (w->tag_bytes > UZ_LIMIT_BLOCK_STRUCT) /* what a reader refuses (uz_block_fit keeps blocks below) */
        return UZ_ERR_LIMIT;
    uz_result r = grow_slots(w);
    if (r != UZ_OK)
        return r;
    uint32_t *slot = name_slot(w, name);
    if (*slot) {
        *index = *slot - 1;
        return UZ_OK;
    }
    if (w->n_names >= MAX_COUNT || strlen(name) > MAX_TEXT)
        return UZ_ERR_LIMIT;
    if (w->n_names == w->cap_names) {
        size_t cap = w->cap_names ? 2 * w->cap_names : 32;
        char **names = realloc(w->names, cap * sizeof *names);
        uz_buf *columns = realloc(w->columns, cap * sizeof *columns);
        if (names)
            w->names = names;
        if (columns)
            w->columns = columns;
        if (!names || !columns)
            return UZ_ERR_NOMEM;
        w->cap_names = cap;
    }
    w->names[w->n_names] = (char *)name; /* borrowed from the game for the writer's lifetime */
    memset(&w->columns[w->n_names], 0, sizeof *w->columns);
    *index = w->n_names++;
    *slot = (uint32_t)w->n_names;
    return UZ_OK;
}

static void drop_residuals(struct_writer *w)
{
    for (size_t i = 0; i < w->n_residuals; i++)
        free(w->residuals[i]);
    free(w->residuals);
    w->residuals = NULL;
    w->n_residuals = w->next_residual = 0;
}

/* Structure version 2: the game's coded engine comments, its size first, into the engine-code
 * section; their residuals for put_comments. */
static uz_result put_engine_code(struct_writer *w, const uz_block_out_game *rec)
{
    const uz_game *game = rec->game;
    uz_buf code = {0};
    drop_residuals(w);
    uz_result r = game->verbatim || game->text_only
                      ? UZ_OK
                      : uz_engine_code_encode(&rec->walk, w->engine_revision, &code, &w->residuals, &w->n_residuals,
                                              NULL);
    if (r == UZ_OK)
        r = uz_buf_put_varint(&w->sec[SEC_ENGINE_CODE], code.size);
    if (r == UZ_OK)
        r = uz_buf_append(&w->sec[SEC_ENGINE_CODE], code.data, code.size);
    w->any_engine_code |= code.size > 0;
    uz_buf_free(&code);
    return r;
}

/* Comment revision 4: the game's main-line clocks into the clock code; their residuals (over the
 * engine comment code's) for put_comments. */
static uz_result put_clock_code(struct_writer *w, const uz_block_out_game *rec)
{
    if (!w->clocks)
        return UZ_OK;
    if (w->version < 2)
        drop_residuals(w); /* (the previous game's: put_engine_code drops them from version 2) */
    return uz_clock_encode_game(w->clocks, &rec->walk, &w->residuals, &w->n_residuals);
}

static uz_result put_game(struct_writer *w, const uz_block_out_game *rec)
{
    const uz_game *game = rec->game;
    uz_buf *b = &w->sec[SEC_RECORDS];
    uint32_t crc = rec->crc;
    uint8_t crc_bytes[4] = {(uint8_t)crc, (uint8_t)(crc >> 8), (uint8_t)(crc >> 16), (uint8_t)(crc >> 24)};
    uz_result r = uz_buf_put_varint(b, rec->moves_len);
    if (r == UZ_OK)
        r = uz_buf_append(b, crc_bytes, 4);
    if (r == UZ_OK && w->version >= 2)
        r = put_engine_code(w, rec);
    if (r == UZ_OK)
        r = put_clock_code(w, rec);
    if (game->verbatim || game->text_only) {
        /* No tags, the flag, the exact bytes in the comments section. */
        if (r == UZ_OK)
            r = uz_buf_put_varint(b, 0);
        if (r == UZ_OK)
            r = uz_buf_put_varint(b, game->verbatim ? GAME_VERBATIM : GAME_TEXT_ONLY);
        if (r == UZ_OK)
            r = game->raw_len > UZ_LIMIT_GAME_BYTES
                    ? UZ_ERR_LIMIT
                    : uz_buf_put_string(&w->sec[SEC_COMMENTS], game->raw ? game->raw : "", game->raw_len);
        return r;
    }
    if (r == UZ_OK)
        r = put_count(b, game->n_tags);
    for (size_t i = 0; i < game->n_tags && r == UZ_OK; i++) {
        size_t k;
        r = name_index(w, &game->tags[i], &k);
        if (r == UZ_OK)
            r = uz_buf_put_varint(b, k);
        uint32_t k32 = (uint32_t)k;
        if (r == UZ_OK)
            r = w->version ? uz_buf_append(&w->tag_index, &k32, sizeof k32) : put_text(&w->columns[k], game->tags[i].value);
    }
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, (game->has_fen ? (unsigned)GAME_HAS_FEN : 0u) | ((unsigned)game->result << GAME_RESULT_SHIFT) |
                                     (game->start.chess960 ? (unsigned)GAME_CHESS960 : 0u));
    if (r == UZ_OK && game->has_fen) {
        char fen[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, fen);
        r = uz_buf_put_string(b, fen, strlen(fen));
    }
    w->game_nodes = 0;
    if (w->cc)
        uz_comment_coder_begin_game(w->cc, game);
    if (r == UZ_OK)
        r = put_line(w, &game->main, 0, game->start.side);
    if (r == UZ_OK)
        r = put_count(b, game->n_trailing_comments);
    if (r == UZ_OK)
        r = put_comments(w, game->trailing_comments, game->n_trailing_comments, UZ_CC_OTHER, false);
    if (r == UZ_OK && w->residuals && w->next_residual != w->n_residuals)
        r = UZ_ERR_ARG;
    drop_residuals(w);
    return r;
}

/* Structure version 4: a line's records coded (doc/format.md, "Coded records"); side: the mover of
 * its first move. */
static uz_result put_line_coded(struct_writer *w, const uz_line *line, int depth, int side)
{
    uz_record_models *m = w->rc.m;
    int v = depth > 0;
    if (depth > MAX_DEPTH || line->n_nodes > UZ_LIMIT_GAME_NODES - w->game_nodes)
        return UZ_ERR_LIMIT;
    w->game_nodes += line->n_nodes;
    uint64_t n_nodes = line->n_nodes;
    uz_result r = put_number(w, &m->pre_comments[v], line->n_pre_comments);
    if (r == UZ_OK)
        r = put_comments(w, line->pre_comments, line->n_pre_comments, UZ_CC_OTHER, false);
    if (r == UZ_OK)
        r = uz_record_count(&w->rc, &m->nodes[v], UZ_LIMIT_GAME_NODES, &n_nodes);
    unsigned prev = 0;
    for (size_t i = 0; i < line->n_nodes && r == UZ_OK; i++) {
        const uz_node *nd = &line->nodes[i];
        int mover = (side + (int)i) & 1;
        unsigned null = nd->move == UZ_MOVE_NULL, nags = nd->n_nags > 0, comments = nd->n_comments > 0,
                 variations = nd->n_variations > 0, order = !uz_node_order_is_plain(nd);
        unsigned annotated = null | nags | comments | variations;
        if (nd->n_nags > MAX_COUNT || nd->n_comments > MAX_COUNT || nd->n_variations > MAX_COUNT)
            return UZ_ERR_LIMIT; /* (their counts are coded less one: checked here) */
        w->game_moves += !null;
        if ((r = uz_record_bit(&w->rc, &m->annotated[v][prev], &annotated)) != UZ_OK || !(prev = annotated))
            continue;
        if ((r = uz_record_bit(&w->rc, &m->null[v], &null)) != UZ_OK ||
            (r = uz_record_bit(&w->rc, &m->has_nags[v], &nags)) != UZ_OK ||
            (r = uz_record_bit(&w->rc, &m->has_comments[v][nags], &comments)) != UZ_OK ||
            (r = uz_record_bit(&w->rc, &m->has_variations[v], &variations)) != UZ_OK)
            break;
        if (nags + comments + variations >= 2 && (r = uz_record_bit(&w->rc, &m->order, &order)) != UZ_OK)
            break;
        w->marks += nd->n_nags + nd->n_variations;
        if (w->marks > UZ_LIMIT_BLOCK_MARKS)
            return UZ_ERR_LIMIT;
        if (nags) {
            r = put_number(w, &m->nag_count, nd->n_nags - 1);
            for (size_t k = 0; k < nd->n_nags && r == UZ_OK; k++) {
                uint64_t nag = nd->nags[k];
                r = uz_record_count(&w->rc, &m->nag, 255, &nag);
            }
        }
        if (r == UZ_OK && comments && (r = put_number(w, &m->comments[v], nd->n_comments - 1)) == UZ_OK)
            r = put_comments(w, nd->comments, nd->n_comments, mover, depth == 0);
        if (r == UZ_OK && variations) {
            r = put_number(w, &m->variations, nd->n_variations - 1);
            for (size_t k = 0; k < nd->n_variations && r == UZ_OK; k++)
                r = put_line_coded(w, &nd->variations[k], depth + 1, mover);
        }
        if (r == UZ_OK && order)
            r = uz_buf_put_string(&w->strings, nd->order, nd->n_nags + nd->n_comments + nd->n_variations);
    }
    return r;
}

/* Structure version 4: a game's record coded: its kind and flags, tag names, tree, trailing
 * comments, move-stream length and check; its strings (FEN, orders) in w->strings. */
static uz_result put_game_coded(struct_writer *w, const uz_block_out_game *rec)
{
    const uz_game *game = rec->game;
    uz_record_models *m = w->rc.m;
    unsigned special = game->verbatim || game->text_only, text_only = game->text_only;
    uz_result r = put_engine_code(w, rec);
    if (r == UZ_OK)
        r = put_clock_code(w, rec);
    if (r == UZ_OK)
        r = uz_record_bit(&w->rc, &m->special[w->rc.prev_special], &special);
    w->rc.prev_special = (int)special;
    if (special) {
        if (r == UZ_OK)
            r = uz_record_bit(&w->rc, &m->text_only, &text_only);
        if (r == UZ_OK)
            r = game->raw_len > UZ_LIMIT_GAME_BYTES
                    ? UZ_ERR_LIMIT
                    : uz_buf_put_string(&w->sec[SEC_COMMENTS], game->raw ? game->raw : "", game->raw_len);
        return r;
    }
    unsigned fen = game->has_fen, chess960 = game->start.chess960 != 0, hi = (unsigned)game->result >> 1,
             lo = (unsigned)game->result & 1;
    if (r == UZ_OK)
        r = uz_record_bit(&w->rc, &m->has_fen, &fen);
    if (r == UZ_OK)
        r = uz_record_bit(&w->rc, &m->chess960[fen], &chess960);
    if (r == UZ_OK && fen) {
        char text[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, text);
        r = uz_buf_put_string(&w->strings, text, strlen(text));
    }
    if (r == UZ_OK && game->n_tags > MAX_COUNT)
        r = UZ_ERR_LIMIT;
    uint32_t state = 0;
    for (size_t i = 0; i <= game->n_tags && r == UZ_OK; i++) {
        size_t k = 0;
        if (i < game->n_tags && (r = name_index(w, &game->tags[i], &k)) != UZ_OK)
            break;
        uint64_t v = i < game->n_tags ? k + 1 : 0; /* 0: the end */
        uint32_t k32 = (uint32_t)k;
        r = uz_record_tag_name(&w->rc, &state, w->n_names, &v);
        if (r == UZ_OK && i < game->n_tags)
            r = uz_buf_append(&w->tag_index, &k32, sizeof k32);
    }
    const uint8_t *text = rec->text_rec.data;
    size_t text_len = rec->text_rec.size;
    if (r == UZ_OK)
        r = uz_record_text(&w->rc, &text, &text_len, &w->sec[SEC_TEXT], NULL);
    w->game_nodes = 0;
    w->game_moves = 0;
    uz_comment_coder_begin_game(w->cc, game);
    if (r == UZ_OK)
        r = put_line_coded(w, &game->main, 0, game->start.side);
    /* The result after the moves: who moved last tells much of who won. */
    int odd = game->main.n_nodes & 1;
    if (r == UZ_OK)
        r = uz_record_bit(&w->rc, &m->result[odd][0], &hi);
    if (r == UZ_OK)
        r = uz_record_bit(&w->rc, &m->result[odd][1 + hi], &lo);
    if (r == UZ_OK)
        r = put_number(w, &m->trailing, game->n_trailing_comments);
    if (r == UZ_OK)
        r = put_comments(w, game->trailing_comments, game->n_trailing_comments, UZ_CC_OTHER, false);
    if (r == UZ_OK && w->residuals && w->next_residual != w->n_residuals)
        r = UZ_ERR_ARG;
    drop_residuals(w);
    uint64_t len = rec->moves_len;
    uint32_t crc = rec->crc;
    if (r == UZ_OK)
        r = uz_record_moves_len(&w->rc, w->game_moves, &len);
    if (r == UZ_OK)
        r = uz_record_check(&w->rc, &crc);
    return r;
}

/* Structure version 4's records section: the check's width, the coded records with their size, the
 * records' strings. */
static uz_result put_coded_records(struct_writer *w)
{
    uz_buf code = {0};
    uz_buf *b = &w->sec[SEC_RECORDS];
    uz_result r = uz_record_finish(&w->rc, &code);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, w->rc.check_bits);
    if (r == UZ_OK)
        r = uz_buf_put_varint(b, code.size);
    if (r == UZ_OK)
        r = uz_buf_append(b, code.data, code.size);
    if (r == UZ_OK)
        r = uz_buf_append(b, w->strings.data, w->strings.size);
    uz_buf_free(&code);
    return r;
}

/* The comment-code section: the comment coder's stream, after the clock code's number of clocks,
 * size and bytes from comment revision 4 (nothing when both are empty). */
static uz_result put_comment_code(struct_writer *w)
{
    uz_buf clocks = {0}, *sec = &w->sec[SEC_COMMENT_CODE];
    uz_result r = w->clocks ? uz_clock_coder_finish(w->clocks, &clocks) : UZ_OK;
    if (r == UZ_OK)
        r = uz_comment_coder_finish(w->cc, sec);
    if (r == UZ_OK && w->clocks && (clocks.size || sec->size)) {
        uz_buf head = {0};
        r = uz_buf_put_varint(&head, uz_clock_coder_counts(w->clocks).clocks);
        if (r == UZ_OK)
            r = uz_buf_put_varint(&head, clocks.size);
        if (r == UZ_OK)
            r = uz_buf_append(&head, clocks.data, clocks.size);
        if (r == UZ_OK)
            r = uz_buf_append(&head, sec->data, sec->size);
        uz_buf_free(sec);
        *sec = head;
    }
    uz_buf_free(&clocks);
    return r;
}

/* The section sizes, then the sections. */
static uz_result put_sections(uz_buf *out, const uz_buf *sec, int n_sections)
{
    uz_result r = UZ_OK;
    for (int s = 0; s < n_sections && r == UZ_OK; s++)
        r = uz_buf_put_varint(out, sec[s].size);
    for (int s = 0; s < n_sections && r == UZ_OK; s++)
        r = uz_buf_append(out, sec[s].data, sec[s].size);
    return r;
}

/* The structure stream as written: the sizes of its structure version's sections, the sections, and
 * the engine-comment code when there is one. */
static uz_result put_stream(uz_buf *out, const uz_buf *sec, unsigned version, bool engine_code)
{
    uz_result r = put_sections(out, sec, sections_of(version));
    if (r == UZ_OK && engine_code)
        r = uz_buf_append(out, sec[SEC_ENGINE_CODE].data, sec[SEC_ENGINE_CODE].size);
    return r;
}

/* One candidate structure stream packed, for keep_smaller_tags (on a thread of its own). */
typedef struct packed_candidate {
    const uz_buf *sections;
    unsigned version;
    bool engine_code;
    uz_buf stream, packed;
    unsigned method;
    uz_result result;
} packed_candidate;

static void *pack_candidate(void *arg)
{
    packed_candidate *c = arg;
    c->result = put_stream(&c->stream, c->sections, c->version, c->engine_code);
    if (c->result == UZ_OK)
        c->result = uz__pack(c->stream.data, c->stream.size, &c->packed, &c->method);
    return NULL;
}

/* The models' costs are estimates: the block's tags stay plain text when the structure
 * stream packs smaller that way (so coded tags never make a block larger). The two
 * candidates, each the whole stream as it would be written, are packed side by side, and
 * the winner's packing goes to w->packed, for the archive writer, which need not pack
 * the stream again. */
static uz_result keep_smaller_tags(struct_writer *w, const uz_block_out_game *games, size_t n)
{
    uz_buf plain[N_SECTIONS] = {{0}};
    packed_candidate coded = {.sections = w->sec, .version = w->version, .engine_code = w->any_engine_code};
    packed_candidate as_text = {.sections = plain, .version = w->version, .engine_code = w->any_engine_code};
    size_t packed[2] = {0};
    uz_result r = UZ_OK;
    for (int s = 0; s < N_SECTIONS && r == UZ_OK; s++)
        if (s != SEC_VALUES && s != SEC_TAG_CODE)
            plain[s] = w->sec[s]; /* borrowed */
    uz_tag_coding tc = {(const char *const *)w->names, w->n_names, false, false, w->tag_version, NULL};
    r = uz_tag_code_write(&plain[SEC_TAG_CODE], &plain[SEC_VALUES], &tc, games, n, (const uint32_t *)w->tag_index.data);
    if (r == UZ_OK) {
        pthread_t thread;
        bool threaded = pthread_create(&thread, NULL, pack_candidate, &as_text) == 0;
        pack_candidate(&coded);
        if (threaded)
            pthread_join(thread, NULL);
        else
            pack_candidate(&as_text);
        r = coded.result != UZ_OK ? coded.result : as_text.result;
        packed[0] = coded.packed.size;
        packed[1] = as_text.packed.size;
    }
    if (r == UZ_OK && packed[1] <= packed[0]) {
        uz_buf t = w->sec[SEC_VALUES];
        w->sec[SEC_VALUES] = plain[SEC_VALUES], plain[SEC_VALUES] = t;
        t = w->sec[SEC_TAG_CODE];
        w->sec[SEC_TAG_CODE] = plain[SEC_TAG_CODE], plain[SEC_TAG_CODE] = t;
    }
    if (r == UZ_OK && w->packed) {
        packed_candidate *kept = packed[1] <= packed[0] ? &as_text : &coded;
        uz_buf t = *w->packed;
        *w->packed = kept->packed, kept->packed = t;
        *w->method = kept->method;
    }
    uz_buf_free(&plain[SEC_VALUES]);
    uz_buf_free(&plain[SEC_TAG_CODE]);
    uz_buf_free(&coded.stream);
    uz_buf_free(&coded.packed);
    uz_buf_free(&as_text.stream);
    uz_buf_free(&as_text.packed);
    return r;
}

/* uz_block_struct_write, and where the stream's packing goes when the writer makes one
 * (packed NULL: dropped). */
static uz_result write_struct(uz_buf *out, uz_buf *packed, unsigned *method, unsigned version, unsigned tag_version,
                              unsigned comment_revision, unsigned comment_text, unsigned engine_revision,
                              const uz_block_out_game *games, size_t n)
{
    struct_writer w = {0};
    w.version = version;
    w.tag_version = tag_version;
    w.engine_revision = engine_revision;
    w.comment_text = comment_text;
    w.packed = packed;
    w.method = method;
    uz_result r = UZ_OK;
    for (size_t i = 0; i < n && r == UZ_OK && version < 4; i++) /* (from structure version 4: uz_record_text) */
        r = uz_buf_append(&w.sec[SEC_TEXT], games[i].text_rec.data, games[i].text_rec.size);
    if (r == UZ_OK && version >= 1)
        r = uz_comment_writer_create(&w.cc, uz_comment_revision(version, comment_revision));
    if (r == UZ_OK && version >= 1 && uz_comment_revision(version, comment_revision) >= 4)
        r = uz_clock_writer_create(&w.clocks);
    if (r == UZ_OK && version >= 4)
        r = uz_record_writer_init(&w.rc, version, UZ_RECORD_CHECK_BITS);
    for (size_t i = 0; i < n && r == UZ_OK; i++)
        r = version >= 4 ? put_game_coded(&w, &games[i]) : put_game(&w, &games[i]);
    if (r == UZ_OK && version >= 4)
        r = put_coded_records(&w);
    if (r == UZ_OK && w.cc)
        r = put_comment_code(&w);
    uz_comment_coder_destroy(w.cc);
    uz_clock_coder_destroy(w.clocks);
    uz_record_coder_free(&w.rc);
    uz_buf_free(&w.strings);
    if (r == UZ_OK)
        r = uz_buf_put_varint(&w.sec[SEC_NAMES], w.n_names);
    for (size_t k = 0; k < w.n_names && r == UZ_OK; k++) {
        r = uz_buf_put_string(&w.sec[SEC_NAMES], w.names[k], strlen(w.names[k]));
        if (r == UZ_OK && !version)
            r = uz_buf_append(&w.sec[SEC_VALUES], w.columns[k].data, w.columns[k].size);
    }
    uz_tag_coding tc = {(const char *const *)w.names, w.n_names, true, version >= 3, tag_version, NULL};
    if (r == UZ_OK && version)
        r = uz_tag_code_write(&w.sec[SEC_TAG_CODE], &w.sec[SEC_VALUES], &tc, games, n, (const uint32_t *)w.tag_index.data);
    if (r == UZ_OK && w.sec[SEC_TAG_CODE].size)
        r = keep_smaller_tags(&w, games, n);
    if (r == UZ_OK)
        r = put_stream(out, w.sec, version, w.any_engine_code);
    drop_residuals(&w);
    for (int s = 0; s < N_SECTIONS; s++)
        uz_buf_free(&w.sec[s]);
    for (size_t k = 0; k < w.n_names; k++)
        uz_buf_free(&w.columns[k]);
    uz_buf_free(&w.tag_index);
    free(w.columns);
    free(w.names);
    free(w.slots);
    return r;
}

uz_result uz_block_struct_write(uz_buf *out, unsigned version, unsigned tag_version, unsigned comment_revision,
                                unsigned comment_text, const uz_block_out_game *games, size_t n)
{
    return write_struct(out, NULL, NULL, version, tag_version, comment_revision, comment_text, UZ_ENGINE_REVISION, games,
                        n);
}

uz_result uz_block_struct_write_block(uz_block_bytes *out, unsigned version, unsigned tag_version,
                                      unsigned comment_revision, unsigned comment_text, unsigned engine_revision,
                                      const uz_block_out_game *games, size_t n)
{
    /* A packing is the whole stream's: kept only for a stream written from its start. */
    bool whole = out->structure.size == 0;
    return write_struct(&out->structure, whole ? &out->packed : NULL, &out->method, version, tag_version,
                        comment_revision, comment_text, engine_revision, games, n);
}
