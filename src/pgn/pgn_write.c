/* PGN writer: a game tree to canonical PGN export format text. */
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "ucizip/san.h"

enum { WRAP = 79 };

typedef struct writer {
    uz__buf *out;
    size_t column;      /* bytes on the current output line */
    bool open_paren;    /* a '(' waits to be written glued to the next token */
    bool line_end;      /* next token must start a new line (after a ';' comment) */
    uz_result rc;
} writer;

static void put(writer *w, const char *s, size_t len)
{
    if (w->rc == UZ_OK && uz__buf_put(w->out, s, len) != UZ_OK)
        w->rc = UZ_ERR_NOMEM;
}

/* Emits one movetext token, wrapping before it when it would pass column 79. The token
 * may hold newlines (a multi-line comment). A pending '(' is written glued to it, and
 * glue_left (for ')') writes it right after the previous token when it fits. */
static void token(writer *w, const char *s, size_t len, bool glue_left)
{
    size_t first = w->open_paren ? 1 : 0;
    for (size_t i = 0; i < len && s[i] != '\n'; i++)
        first++;
    if (w->line_end) {
        put(w, "\n", 1);
        w->column = 0;
    } else if (w->column > 0) {
        size_t space = glue_left && !w->open_paren ? 0 : 1;
        if (w->column + space + first > WRAP) {
            put(w, "\n", 1);
            w->column = 0;
        } else if (space) {
            put(w, " ", 1);
            w->column++;
        }
    }
    w->line_end = false;
    if (w->open_paren) {
        put(w, "(", 1);
        w->column++;
        w->open_paren = false;
    }
    put(w, s, len);
    const char *nl = memchr(s, '\n', len);
    if (nl) {
        const char *last = nl;
        for (const char *p = nl; p < s + len; p++)
            if (*p == '\n')
                last = p;
        w->column = (size_t)(s + len - last - 1);
    } else {
        w->column += len;
    }
}

static void comment(writer *w, const char *text)
{
    size_t len = strlen(text);
    bool has_close = memchr(text, '}', len) != NULL, has_newline = memchr(text, '\n', len) != NULL;
    uz__buf b = {0};
    if (uz__buf_reserve(&b, len + 2) != UZ_OK) {
        w->rc = UZ_ERR_NOMEM;
        return;
    }
    b.data[b.len++] = has_close && !has_newline ? ';' : '{';
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\r')
            continue; /* the reader drops CR in comments: keep the output canonical */
        if (c == '}' && has_newline)
            c = ')';
        b.data[b.len++] = c;
    }
    if (has_close && !has_newline) {
        token(w, b.data, b.len, false);
        w->line_end = true; /* a ';' comment runs to the end of the line */
    } else {
        b.data[b.len++] = '}';
        token(w, b.data, b.len, false);
    }
    uz__buf_free(&b);
}

static void write_line(writer *w, const uz_line *line, const uz_position *start)
{
    uz_position pos = *start;
    bool need_number = true; /* a Black move needs "N..." at the start and after a comment or variation */
    char text[32];
    for (size_t i = 0; i < line->n_pre_comments; i++)
        comment(w, line->pre_comments[i]);
    for (size_t i = 0; i < line->n_nodes && w->rc == UZ_OK; i++) {
        const uz_node *node = &line->nodes[i];
        if (node->move == UZ_MOVE_NULL ? uz_in_check(&pos) : !uz_is_legal(&pos, node->move)) {
            w->rc = UZ_ERR_ARG;
            return;
        }
        if (pos.side == UZ_WHITE || need_number) {
            int n = snprintf(text, sizeof text, "%u%s", (unsigned)pos.fullmove, pos.side == UZ_WHITE ? "." : "...");
            token(w, text, (size_t)n, false);
        }
        need_number = false;
        char san[UZ_SAN_MAX];
        uz_san_format(&pos, node->move, san);
        token(w, san, strlen(san), false);
        for (size_t j = 0; j < node->n_nags; j++) {
            int n = snprintf(text, sizeof text, "$%u", (unsigned)node->nags[j]);
            token(w, text, (size_t)n, false);
        }
        for (size_t j = 0; j < node->n_comments; j++) {
            comment(w, node->comments[j]);
            need_number = true;
        }
        for (size_t j = 0; j < node->n_variations; j++) {
            w->open_paren = true;
            write_line(w, &node->variations[j], &pos);
            token(w, ")", 1, true);
            need_number = true;
        }
        uz_undo undo;
        uz_make_move(&pos, node->move, &undo);
    }
}

static void write_tag(writer *w, const char *name, const char *value)
{
    put(w, "[", 1);
    put(w, name, strlen(name));
    put(w, " \"", 2);
    for (const char *p = value; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(w, "\\", 1);
        put(w, p, 1);
    }
    put(w, "\"]\n", 3);
}

static uz_result write_game(uz__buf *out, const uz_game *game)
{
    writer w = {.out = out, .rc = UZ_OK};
    size_t *order = NULL;
    if (game->n_tags) {
        order = malloc(game->n_tags * sizeof *order);
        if (!order)
            return UZ_ERR_NOMEM;
        uz__tag_order(game, order);
        for (size_t i = 0; i < game->n_tags; i++)
            write_tag(&w, game->tags[order[i]].name, game->tags[order[i]].value);
    }
    free(order);
    bool any_tags = game->n_tags > 0;
    if (game->has_fen && !uz_game_tag(game, "FEN")) {
        char fen[UZ_FEN_MAX];
        uz_position_to_fen(&game->start, fen);
        if (!uz_game_tag(game, "SetUp"))
            write_tag(&w, "SetUp", "1");
        write_tag(&w, "FEN", fen);
        any_tags = true;
    }
    if (any_tags)
        put(&w, "\n", 1);

    write_line(&w, &game->main, &game->start);
    static const char *const markers[] = {"*", "1-0", "0-1", "1/2-1/2"};
    const char *marker = (unsigned)game->result < 4 ? markers[game->result] : "*";
    token(&w, marker, strlen(marker), false);
    for (size_t i = 0; i < game->n_trailing_comments; i++)
        comment(&w, game->trailing_comments[i]);
    put(&w, "\n\n", 2);
    return w.rc;
}

uz_result uz_pgn_game_to_string(const uz_game *game, char **text, size_t *len)
{
    uz__buf b = {0};
    *text = NULL;
    *len = 0;
    uz_result rc = uz__buf_reserve(&b, 1024);
    if (rc == UZ_OK && game->verbatim) {
        rc = uz__buf_put(&b, game->verbatim, game->verbatim_len);
        if (rc == UZ_OK)
            rc = uz__buf_put(&b, "\n\n", 2);
    } else if (rc == UZ_OK) {
        rc = write_game(&b, game);
    }
    if (rc != UZ_OK) {
        uz__buf_free(&b);
        return rc;
    }
    *text = b.data;
    *len = b.len;
    return UZ_OK;
}

uz_result uz_pgn_write_game(FILE *out, const uz_game *game)
{
    char *text;
    size_t len;
    uz_result rc = uz_pgn_game_to_string(game, &text, &len);
    if (rc != UZ_OK)
        return rc;
    if (fwrite(text, 1, len, out) != len)
        rc = UZ_ERR_IO;
    free(text);
    return rc;
}
