/* PGN writer: a game tree to canonical PGN export format text. */
#include <stdlib.h>
#include <string.h>

#include "pgn_internal.h"
#include "chess/san.h"
#include "pgn/game_walk.h"

const uz_pgn_layout uz_pgn_layout_export = {
    .eol = UZ_EOL_LF,
    .flags = UZ_LAYOUT_ROSTER_FIRST | UZ_LAYOUT_NUMBER_SPACE | UZ_LAYOUT_BLACK_NUMBERS,
    .wrap = 79,
    .tag_gap = 1,
    .end_eols = 2,
};

typedef struct writer {
    uz_buf *out;
    const uz_pgn_layout *layout;
    size_t column;      /* bytes on the current output line */
    bool open_paren;    /* a '(' waits to be written glued to the next token */
    bool line_end;      /* next token must start a new line (after a ';' comment) */
    uz_result rc;
    const uz_walk *walk; /* the game's walk with its SAN (NULL: the lines are replayed here) */
    size_t step;        /* with walk: the step of the next move written (the walk's order) */
} writer;

static void put(writer *w, const char *s, size_t len)
{
    if (w->rc == UZ_OK && uz__text_put(w->out, s, len) != UZ_OK)
        w->rc = UZ_ERR_NOMEM;
}

/* Emits one movetext token, wrapping before it when it would pass the layout's width. The token
 * may hold newlines (a multi-line comment). A pending '(' is written glued to it, and
 * glue_left (for ')') writes it right after the previous token when it fits. */
/* How a token joins the previous one. */
enum { JOIN_SPACE = 0, JOIN_GLUE = 1 /* no space: ')' */, JOIN_NOBREAK = 2 /* same line */ };

static void token(writer *w, const char *s, size_t len, int join)
{
    bool glue_left = join & JOIN_GLUE;
    size_t first = w->open_paren ? 1 + ((w->layout->flags & UZ_LAYOUT_PAREN_SPACE) != 0) : 0;
    for (size_t i = 0; i < len && s[i] != '\n'; i++)
        first++;
    if (w->line_end) {
        put(w, "\n", 1);
        w->column = 0;
    } else if (w->column > 0) {
        size_t space = glue_left && !w->open_paren ? 0 : 1;
        size_t wrap = w->layout->wrap;
        bool full = (w->layout->flags & UZ_LAYOUT_WRAP_FULL) ? w->column >= wrap : w->column + space + first > wrap;
        if (wrap && !(join & JOIN_NOBREAK) && full) {
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
        if (w->layout->flags & UZ_LAYOUT_PAREN_SPACE) {
            put(w, " ", 1);
            w->column++;
        }
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

/* Appends a comment in braces to b (or after ';' when it holds '}' but no newline: then
 * *semicolon is set, and the line must end after it). */
static uz_result format_comment(uz_buf *b, const char *text, bool *semicolon)
{
    size_t len = strlen(text);
    bool has_close = memchr(text, '}', len) != NULL, has_newline = memchr(text, '\n', len) != NULL;
    if (uz__text_reserve(b, len + 2) != UZ_OK)
        return UZ_ERR_NOMEM;
    *semicolon = has_close && !has_newline;
    b->data[b->size++] = *semicolon ? ';' : '{';
    for (size_t i = 0; i < len; i++) {
        char c = text[i];
        if (c == '\r')
            continue; /* the reader drops CR in comments: keep the output canonical */
        if (c == '}' && has_newline)
            c = ')';
        b->data[b->size++] = c;
    }
    if (!*semicolon)
        b->data[b->size++] = '}';
    return UZ_OK;
}

static void comment(writer *w, const char *text)
{
    uz_buf b = {0};
    bool semicolon;
    if (format_comment(&b, text, &semicolon) != UZ_OK) {
        w->rc = UZ_ERR_NOMEM;
        return;
    }
    token(w, uz__text(&b), b.size, JOIN_SPACE);
    if (semicolon)
        w->line_end = true; /* a ';' comment runs to the end of the line */
    uz_buf_free(&b);
}

/* A move's unit under UZ_LAYOUT_WRAP_MOVES: its parts joined by spaces, emitted at once. */
typedef struct unit {
    uz_buf text;
    bool line_end; /* it ends with a ';' comment */
} unit;

static void unit_add(writer *w, unit *u, const char *s, size_t len)
{
    if ((u->text.size && uz__text_putc(&u->text, ' ') != UZ_OK) || uz__text_put(&u->text, s, len) != UZ_OK)
        w->rc = UZ_ERR_NOMEM;
}

/* The position before node's move (*pos, without a walk: the line replayed so far) and
 * the move's SAN into san; false when the move is not legal there. */
static bool move_text(writer *w, const uz_node *node, const uz_position *pos, const uz_position **at, char *san)
{
    size_t s = w->walk ? w->step++ : 0;
    *at = w->walk ? &w->walk->before[s] : pos;
    /* (a walk resolved every move: only a null move is left to check) */
    if (node->move == UZ_MOVE_NULL ? uz_in_check(*at) : !w->walk && !uz_is_legal(*at, node->move))
        return false;
    if (w->walk)
        memcpy(san, w->walk->san[s], UZ_SAN_MAX);
    else
        uz_san_format(*at, node->move, san);
    return true;
}

static void write_line(writer *w, const uz_line *line, const uz_position *start, bool main_line)
{
    const unsigned flags = w->layout->flags;
    const bool moves_unit = flags & UZ_LAYOUT_WRAP_MOVES, white_breaks = flags & UZ_LAYOUT_WRAP_WHITE;
    uz_position pos = *start;
    bool need_number = true; /* a Black move needs "N..." at the start and after a comment or variation */
    char text[64];
    unit u = {{0}, false};
    for (size_t i = 0; i < line->n_pre_comments; i++)
        comment(w, line->pre_comments[i]);
    if (main_line && line->n_pre_comments && (flags & UZ_LAYOUT_PRE_LINE))
        w->line_end = true;
    for (size_t i = 0; i < line->n_nodes && w->rc == UZ_OK; i++) {
        const uz_node *node = &line->nodes[i];
        const uz_position *at;
        char san[UZ_SAN_MAX];
        if (!move_text(w, node, &pos, &at, san)) {
            w->rc = UZ_ERR_ARG;
            break;
        }
        /* Under WRAP_WHITE only a White move (or a Black one after a comment) starts a line. */
        int join = white_breaks && at->side == UZ_BLACK && !need_number ? JOIN_NOBREAK : JOIN_SPACE;
        if ((flags & UZ_LAYOUT_MOVE_LINES) && at->side == UZ_WHITE && i > 0 && main_line)
            w->line_end = true;
        u.text.size = 0;
        size_t n = 0;
        if (at->side == UZ_WHITE || need_number) {
            n = (size_t)snprintf(text, sizeof text, "%u%s", (unsigned)at->fullmove, at->side == UZ_WHITE ? "." : "...");
            if (flags & UZ_LAYOUT_NUMBER_SPACE) {
                if (moves_unit)
                    unit_add(w, &u, text, n);
                else
                    token(w, text, n, join);
                join = white_breaks ? JOIN_NOBREAK : JOIN_SPACE;
                n = 0;
            }
        }
        need_number = false;
        size_t san_len = strlen(san);
        if ((flags & UZ_LAYOUT_MATE_PLUS) && san_len && san[san_len - 1] == '#')
            san[san_len - 1] = '+';
        memcpy(text + n, san, san_len);
        n += san_len;
        size_t j = 0;
        if ((flags & UZ_LAYOUT_GLYPHS) && node->n_nags && node->nags[0] >= 1 && node->nags[0] <= 6 &&
            (!node->order || node->order[0] == 'n')) {
            static const char *const glyphs[] = {"!", "?", "!!", "??", "!?", "?!"};
            const char *g = glyphs[node->nags[0] - 1];
            memcpy(text + n, g, strlen(g));
            n += strlen(g);
            j = 1;
        }
        if (moves_unit)
            unit_add(w, &u, text, n);
        else
            token(w, text, n, join);
        /* NAGs, comments and variations in file order (a glyph above took the first NAG). */
        size_t n_ann = node->n_nags + node->n_comments + node->n_variations, nag = j, com = 0, var = 0;
        bool unit_open = moves_unit;
        for (size_t a = 0; a < n_ann && w->rc == UZ_OK; a++) {
            char kind = node->order ? node->order[a] : a < node->n_nags ? 'n' : a < node->n_nags + node->n_comments ? 'c' : 'v';
            if (kind == 'n') {
                if (a == 0 && j == 1)
                    continue; /* written as a glyph */
                n = (size_t)snprintf(text, sizeof text, "$%u", (unsigned)node->nags[nag++]);
                if (unit_open)
                    unit_add(w, &u, text, n);
                else
                    token(w, text, n, white_breaks ? JOIN_NOBREAK : JOIN_SPACE);
            } else if (kind == 'c') {
                if (unit_open) {
                    bool semicolon;
                    if (u.text.size && uz__text_putc(&u.text, ' ') != UZ_OK)
                        w->rc = UZ_ERR_NOMEM;
                    if (format_comment(&u.text, node->comments[com++], &semicolon) != UZ_OK)
                        w->rc = UZ_ERR_NOMEM;
                    u.line_end = semicolon;
                } else {
                    comment(w, node->comments[com++]);
                }
                need_number = (flags & UZ_LAYOUT_BLACK_NUMBERS) != 0;
            } else {
                if (unit_open) { /* a variation ends the move's unit */
                    token(w, uz__text(&u.text), u.text.size, JOIN_SPACE);
                    w->line_end = w->line_end || u.line_end;
                    unit_open = u.line_end = false;
                }
                if ((flags & UZ_LAYOUT_VARIATION_GAP2) && var > 0 && a > 0 && node->order && node->order[a - 1] == 'v' &&
                    w->column > 0) {
                    put(w, " ", 1);
                    w->column++;
                }
                w->open_paren = true;
                write_line(w, &node->variations[var++], at, false);
                token(w, ")", 1, (flags & UZ_LAYOUT_PAREN_SPACE) ? JOIN_SPACE : JOIN_GLUE);
                need_number = (flags & UZ_LAYOUT_BLACK_NUMBERS) != 0;
            }
        }
        if (unit_open && w->rc == UZ_OK) {
            token(w, uz__text(&u.text), u.text.size, JOIN_SPACE);
            if (u.line_end)
                w->line_end = true;
            u.line_end = false;
        }
        uz_undo undo;
        if (!w->walk)
            uz_make_move(&pos, node->move, &undo);
    }
    uz_buf_free(&u.text);
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

static uz_result write_game(uz_buf *out, const uz_game *game, const uz_pgn_layout *layout, const uz_walk *walk)
{
    writer w = {.out = out, .layout = layout, .rc = UZ_OK, .walk = walk};
    size_t *order = NULL;
    if (game->n_tags) {
        order = malloc(game->n_tags * sizeof *order);
        if (!order)
            return UZ_ERR_NOMEM;
        if (layout->flags & UZ_LAYOUT_ROSTER_FIRST)
            uz__tag_order(game, order);
        else
            for (size_t i = 0; i < game->n_tags; i++)
                order[i] = i;
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
    for (unsigned i = 0; any_tags && i < layout->tag_gap; i++)
        put(&w, "\n", 1);

    write_line(&w, &game->main, &game->start, true);
    static const char *const markers[] = {"*", "1-0", "0-1", "1/2-1/2"};
    const char *marker = (unsigned)game->result < 4 ? markers[game->result] : "*";
    if ((layout->flags & UZ_LAYOUT_RESULT_LINE) && w.column > 0)
        w.line_end = true;
    int join = JOIN_SPACE;
    if ((layout->flags & UZ_LAYOUT_RESULT_GAP2) && w.column > 0 && !w.line_end && !(layout->flags & UZ_LAYOUT_RESULT_LINE)) {
        put(&w, " ", 1); /* and the marker stays on the line, as ChessBase writes it */
        w.column++;
        join = JOIN_NOBREAK;
    }
    token(&w, marker, strlen(marker), join);
    for (size_t i = 0; i < game->n_trailing_comments; i++)
        comment(&w, game->trailing_comments[i]);
    for (unsigned i = 0; i < layout->end_eols; i++)
        put(&w, "\n", 1);
    return w.rc;
}

/* LF line ends of the rendering to the layout's (comments hold LF only: the reader drops CR). */
static uz_result convert_eols(uz_buf *b, uz_eol eol)
{
    if (eol == UZ_EOL_LF)
        return UZ_OK;
    if (eol == UZ_EOL_CR) {
        for (size_t i = 0; i < b->size; i++)
            if (b->data[i] == '\n')
                b->data[i] = '\r';
        return UZ_OK;
    }
    size_t lines = 0;
    for (size_t i = 0; i < b->size; i++)
        lines += b->data[i] == '\n';
    if (lines == 0)
        return UZ_OK;
    if (uz__text_reserve(b, lines + 1) != UZ_OK)
        return UZ_ERR_NOMEM;
    size_t src = b->size, dst = b->size + lines;
    b->data[dst] = 0;
    while (src > 0) {
        char c = b->data[--src];
        b->data[--dst] = c;
        if (c == '\n')
            b->data[--dst] = '\r';
    }
    b->size += lines;
    return UZ_OK;
}

/* A verbatim game's text in export form: CR before LF dropped, trailing whitespace cut,
 * then a blank line. */
static uz_result put_verbatim_export(uz_buf *b, const uz_game *game)
{
    uz_result rc = uz__text_reserve(b, game->raw_len + 2);
    size_t i = 0;
    while (i < game->raw_len && game->raw[i] && strchr(" \t\r\n", game->raw[i]))
        i++;
    for (; i < game->raw_len && rc == UZ_OK; i++)
        if (!(game->raw[i] == '\r' && i + 1 < game->raw_len && game->raw[i + 1] == '\n'))
            b->data[b->size++] = game->raw[i];
    while (rc == UZ_OK && b->size > 0 && b->data[b->size - 1] && strchr(" \t\r\n", b->data[b->size - 1]))
        b->size--;
    if (rc == UZ_OK && b->size > 0)
        rc = uz__text_put(b, "\n\n", 2);
    return rc;
}

static uz_result render(const uz_game *game, const uz_walk *walk, const uz_pgn_layout *layout, bool export, char **text,
                        size_t *len)
{
    uz_buf b = {0};
    *text = NULL;
    *len = 0;
    uz_result rc = uz__text_reserve(&b, 1024);
    if (rc == UZ_OK && game->text_only) {
        if (!export)
            rc = uz__text_put(&b, game->raw ? game->raw : "", game->raw_len);
    } else if (rc == UZ_OK && game->verbatim) {
        rc = export ? put_verbatim_export(&b, game) : uz__text_put(&b, game->raw ? game->raw : "", game->raw_len);
    } else if (rc == UZ_OK) {
        rc = write_game(&b, game, layout, walk);
        if (rc == UZ_OK)
            rc = convert_eols(&b, (uz_eol)layout->eol);
    }
    if (rc == UZ_OK)
        rc = uz__text_reserve(&b, 1); /* room for the terminator */
    if (rc != UZ_OK) {
        uz_buf_free(&b);
        return rc;
    }
    b.data[b.size] = 0;
    *text = (char *)b.data;
    *len = b.size;
    return UZ_OK;
}

uz_result uz_pgn_game_render(const uz_game *game, const uz_pgn_layout *layout, char **text, size_t *len)
{
    return render(game, NULL, layout, false, text, len);
}

uz_result uz_pgn_walk_render(const uz_walk *walk, const uz_pgn_layout *layout, char **text, size_t *len)
{
    if (!walk->san && walk->n_steps)
        return UZ_ERR_ARG;
    return render(walk->game, walk, layout, false, text, len);
}

uz_result uz_pgn_game_to_string(const uz_game *game, char **text, size_t *len)
{
    return render(game, NULL, &uz_pgn_layout_export, true, text, len);
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
