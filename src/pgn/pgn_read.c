/* PGN reader: tokens to a game tree, every move replayed and resolved; resync after errors. */
#include <ctype.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgn_internal.h"
#include "chess/san.h"

struct uz_pgn_reader {
    uz__lexer lx;
    char *name;
    uz_pgn_limits limits;
    long game_no;
    unsigned long long game_start; /* lexer offset where the current game began */
    size_t nodes;                  /* moves stored for the current game */
    bool in_tags;                  /* the current game is still in its tag section */
    int depth;                     /* variation depth of the token being read */
    bool done;
    bool have_tok;                 /* one token of lookahead */
    uz__token tok;
    /* comments read after a game's termination marker that turned out to precede a
     * tagless game: they become that game's first comments */
    char **pending;
    size_t n_pending;
    long pending_line;
    long variant_line, variant_col, fen_line, fen_col;
    uz_diag *diag;
    /* The input as read, from the current game's first byte on (the lexer records every
     * byte here), so that a game can also be had as the exact text of the file. */
    uz_buf raw;
    unsigned long long raw_base;               /* offset of raw.data[0] in the input */
    unsigned long long text_start, text_end;   /* the last game's text: [start, end) */
    unsigned long long span_start;             /* the last game's span: [span_start, text_end) */
    bool keep_raw;                             /* give every game its span in game->raw */
    bool oversized; /* the last game passed max_game_bytes: refused, its rest not yet skipped */
    long limit_line, limit_column; /* where the token that passed it began */
};

/* ---- reader lifetime ---- */

static uz_pgn_reader *reader_new(const char *name)
{
    uz_pgn_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->name = uz__strndup(name ? name : "<input>", strlen(name ? name : "<input>"));
    if (!r->name) {
        free(r);
        return NULL;
    }
    r->limits.max_game_bytes = UZ_PGN_MAX_GAME_BYTES;
    r->limits.max_depth = UZ_PGN_MAX_DEPTH;
    r->limits.max_moves = UZ_PGN_MAX_MOVES;
    return r;
}

uz_pgn_reader *uz_pgn_reader_open(FILE *f, const char *name)
{
    uz_pgn_reader *r = reader_new(name);
    if (!r)
        return NULL;
    if (uz__lex_init_file(&r->lx, f) != UZ_OK) {
        uz_pgn_reader_close(r);
        return NULL;
    }
    r->lx.text_max = r->limits.max_game_bytes;
    r->lx.record = &r->raw;
    return r;
}

/* Forgets the recorded input before offset (the previous game's text). */
static void raw_discard_before(uz_pgn_reader *r, unsigned long long offset)
{
    size_t drop = offset > r->raw_base ? (size_t)(offset - r->raw_base) : 0;
    if (drop > r->raw.size)
        drop = r->raw.size;
    if (drop == 0)
        return; /* (and raw.data may still be NULL) */
    memmove(r->raw.data, r->raw.data + drop, r->raw.size - drop);
    r->raw.size -= drop;
    r->raw_base += drop;
}

unsigned long long uz_pgn_reader_last_offset(const uz_pgn_reader *r)
{
    return r->text_start;
}

uz_result uz_pgn_reader_last_text(const uz_pgn_reader *r, const char **text, size_t *len)
{
    if (r->lx.record_failed || !r->lx.record || r->text_start < r->raw_base ||
        r->text_end - r->raw_base > r->raw.size || r->text_end < r->text_start)
        return UZ_ERR_NOMEM;
    *text = uz__text(&r->raw) + (r->raw.data ? r->text_start - r->raw_base : 0);
    *len = (size_t)(r->text_end - r->text_start);
    return UZ_OK;
}

void uz_pgn_reader_keep_raw(uz_pgn_reader *r, bool keep)
{
    r->keep_raw = keep;
}

/* Copies the bytes [r->span_start, end) of the input into game->raw. */
static uz_result keep_span(uz_pgn_reader *r, uz_game *game, unsigned long long end)
{
    if (!r->keep_raw)
        return UZ_OK;
    if (r->lx.record_failed || r->span_start < r->raw_base || end < r->span_start ||
        end - r->raw_base > r->raw.size)
        return UZ_ERR_NOMEM;
    size_t len = (size_t)(end - r->span_start);
    return uz_game_set_raw(game, len ? uz__text(&r->raw) + (r->span_start - r->raw_base) : "", len);
}

uz_pgn_reader *uz_pgn_reader_open_mem(const void *data, size_t len, const char *name)
{
    uz_pgn_reader *r = reader_new(name);
    if (!r)
        return NULL;
    uz__lex_init_mem(&r->lx, data, len);
    r->lx.text_max = r->limits.max_game_bytes;
    r->lx.record = &r->raw;
    return r;
}

static void drop_pending(uz_pgn_reader *r)
{
    for (size_t i = 0; i < r->n_pending; i++)
        free(r->pending[i]);
    free(r->pending);
    r->pending = NULL;
    r->n_pending = 0;
}

void uz_pgn_reader_close(uz_pgn_reader *r)
{
    if (!r)
        return;
    uz_buf_free(&r->raw);
    uz__lex_free(&r->lx);
    drop_pending(r);
    free(r->name);
    free(r);
}

void uz_pgn_reader_set_limits(uz_pgn_reader *r, const uz_pgn_limits *limits)
{
    r->limits = *limits;
    r->lx.text_max = limits->max_game_bytes;
}

long uz_pgn_reader_game_count(const uz_pgn_reader *r)
{
    return r->game_no;
}

/* ---- tokens and errors ---- */

static uz_result fail(uz_pgn_reader *r, uz_result code, long line, long column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

static uz_result fail(uz_pgn_reader *r, uz_result code, long line, long column, const char *fmt, ...)
{
    if (!r->diag)
        return code;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->diag->message, sizeof r->diag->message, fmt, ap);
    va_end(ap);
    r->diag->code = code;
    r->diag->line = line;
    r->diag->column = column;
    r->diag->game = r->game_no;
    return code;
}

static uz_result fail_token(uz_pgn_reader *r, const uz__token *t)
{
    return fail(r, t->code, t->line, t->column, "%s", t->msg);
}

static void next(uz_pgn_reader *r, uz__token *t, bool discard)
{
    if (r->have_tok) {
        *t = r->tok;
        r->have_tok = false;
        return;
    }
    uz__lex_next(&r->lx, t, discard);
    if (r->lx.stopped) { /* the lexer reached the game's size limit (stop_at) */
        r->limit_line = t->line;
        r->limit_column = t->column;
        t->type = UZ__TOK_ERROR;
        t->code = UZ_ERR_LIMIT;
        snprintf(t->msg, sizeof t->msg, "game longer than %zu bytes (limit)", r->limits.max_game_bytes);
    }
}

static void push_back(uz_pgn_reader *r, const uz__token *t)
{
    r->tok = *t;
    r->have_tok = true;
}

static bool token_is(const uz__token *t, const char *s)
{
    size_t n = strlen(s);
    return t->len == n && memcmp(t->text, s, n) == 0;
}

/* Termination marker in t, or -1. */
static int result_of(const uz__token *t)
{
    if (t->type == UZ__TOK_STAR)
        return UZ_RESULT_UNKNOWN;
    if (t->type != UZ__TOK_SYMBOL)
        return -1;
    if (token_is(t, "1-0"))
        return UZ_RESULT_WHITE;
    if (token_is(t, "0-1"))
        return UZ_RESULT_BLACK;
    if (token_is(t, "1/2-1/2"))
        return UZ_RESULT_DRAW;
    return -1;
}

/* Skips the rest of a bad game: up to its termination marker outside variations, or up
 * to the next tag section once the movetext has begun. Honours comments, keeps no text. */
static void skip_game(uz_pgn_reader *r)
{
    uz__token t;
    bool in_tags = r->in_tags, after_rbracket = false;
    int depth = in_tags ? 0 : r->depth;
    for (;;) {
        next(r, &t, true);
        if (t.type == UZ__TOK_EOF || r->lx.stopped)
            return;
        if (t.type == UZ__TOK_ERROR && t.code == UZ_ERR_IO) {
            r->done = true;
            return;
        }
        if (in_tags) {
            /* A tag line, or tokens after a '[' on it, still belong to the tag section. */
            if (t.type == UZ__TOK_LBRACKET || !(t.first_on_line || after_rbracket)) {
                after_rbracket = t.type == UZ__TOK_RBRACKET;
                continue;
            }
            in_tags = false;
        }
        if (t.type == UZ__TOK_LBRACKET) {
            push_back(r, &t);
            return;
        }
        if (t.type == UZ__TOK_LPAREN)
            depth++;
        else if (t.type == UZ__TOK_RPAREN && depth > 0)
            depth--;
        else if (result_of(&t) >= 0 && depth == 0)
            return;
    }
}

/* ---- tag section ---- */

static bool variant_supported(const char *v)
{
    static const char *const ok[] = {"", "standard", "normal", "chess", "from position"};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++)
        if (strcasecmp(v, ok[i]) == 0)
            return true;
    return false;
}

static uz_result read_tags(uz_pgn_reader *r, uz_game *game)
{
    uz__token t;
    uz_result rc;
    char name[UZ__SYMBOL_MAX + 1];
    for (;;) {
        next(r, &t, false);
        if (t.type != UZ__TOK_LBRACKET) {
            push_back(r, &t);
            return UZ_OK;
        }
        next(r, &t, false);
        if (t.type == UZ__TOK_ERROR)
            return fail_token(r, &t);
        if (t.type != UZ__TOK_SYMBOL)
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected a tag name after '['");
        memcpy(name, t.text, t.len);
        name[t.len] = '\0';
        next(r, &t, false);
        if (t.type == UZ__TOK_ERROR)
            return fail_token(r, &t);
        if (t.type != UZ__TOK_STRING)
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected a quoted tag value after tag name '%s'", name);
        if (strcmp(name, "Variant") == 0) {
            r->variant_line = t.line;
            r->variant_col = t.column;
        } else if (strcmp(name, "FEN") == 0) {
            r->fen_line = t.line;
            r->fen_col = t.column;
        }
        if ((rc = uz_game_add_tag(game, name, t.text)) != UZ_OK)
            return rc == UZ_ERR_LIMIT ? fail(r, rc, t.line, t.column, "more than %zu tags, or a tag longer than %zu bytes (limit)",
                                             UZ_LIMIT_LIST, UZ_LIMIT_TEXT)
                                      : fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
        /* A NUL byte in the value was dropped by the lexer, so strlen equals t.len. */
        next(r, &t, false);
        if (t.type == UZ__TOK_ERROR)
            return fail_token(r, &t);
        if (t.type != UZ__TOK_RBRACKET)
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected ']' after tag value");
    }
}

/* Real files carry castling rights that their position cannot have (king or rook moved);
 * like pgn-extract and python-chess we ignore those: retry with the largest subset of the
 * rights that the board accepts. castling points at the castling field within fen. */
static int bits(unsigned m)
{
    int n = 0;
    for (; m; m &= m - 1)
        n++;
    return n;
}

static bool fen_without_bad_castling(uz_game *game, const char *fen, const char *castling)
{
    size_t len = strcspn(castling, " \t");
    if (len == 0 || len > 4 || strlen(fen) >= UZ_FEN_MAX + 16)
        return false;
    char try[UZ_FEN_MAX + 32];
    size_t head = (size_t)(castling - fen);
    for (int size = (int)len - 1; size >= 0; size--) {
        for (unsigned mask = 0; mask < (1u << len); mask++) {
            if (bits(mask) != size)
                continue;
            char rights[5];
            size_t k = 0;
            for (size_t i = 0; i < len; i++)
                if (mask & (1u << i))
                    rights[k++] = castling[i];
            if (k == 0)
                rights[k++] = '-';
            rights[k] = '\0';
            snprintf(try, sizeof try, "%.*s%s%s", (int)head, fen, rights, castling + len);
            if (uz_position_from_fen(&game->start, try, NULL) == UZ_OK)
                return true;
        }
    }
    return false;
}

/* The names real files give Chess960 in [Variant]. */
static bool variant_chess960(const char *v)
{
    static const char *const names[] = {"chess960", "chess 960", "960", "fischerandom", "fischer random",
                                        "fischer random chess", "fischerrandom", "frc"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcasecmp(v, names[i]) == 0)
            return true;
    return false;
}

/* Checks the variant and sets the start position from [FEN]. */
static uz_result setup_start(uz_pgn_reader *r, uz_game *game)
{
    const char *variant = uz_game_tag(game, "Variant");
    bool chess960 = variant && variant_chess960(variant);
    if (variant && !chess960 && !variant_supported(variant))
        return fail(r, UZ_ERR_UNSUPPORTED, r->variant_line, r->variant_col,
                    "variant '%s' is not supported (standard chess and Chess960 only)", variant);
    const char *fen = uz_game_tag(game, "FEN");
    if (!fen) {
        if (chess960) /* the standard array, under Chess960 rules */
            uz_position_from_fen_960(&game->start, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                                     true, NULL);
        return UZ_OK;
    }
    /* Shredder-FEN / X-FEN castling letters mean Chess960 even without [Variant]. */
    const char *p = fen;
    for (int field = 0; field < 2 && *p; field++) {
        while (*p && !isspace((unsigned char)*p))
            p++;
        while (isspace((unsigned char)*p))
            p++;
    }
    for (const char *c = p; *c && !isspace((unsigned char)*c); c++)
        if (!strchr("KQkq-", *c))
            chess960 = true;
    uz_diag d = {0};
    uz_result rc = uz_position_from_fen_960(&game->start, fen, chess960, &d);
    if (rc != UZ_OK && (chess960 || !fen_without_bad_castling(game, fen, p))) {
        const char *why = d.message[0] ? d.message : "malformed position";
        if (strncmp(why, "FEN: ", 5) == 0)
            why += 5;
        return fail(r, rc == UZ_ERR_UNSUPPORTED ? rc : UZ_ERR_SYNTAX, r->fen_line,
                    r->fen_col + (d.column > 0 ? d.column : 0), "invalid FEN tag \"%s\": %s", fen, why);
    }
    game->has_fen = true;
    return UZ_OK;
}

/* ---- movetext ---- */

static bool all_digits(const uz__token *t)
{
    for (size_t i = 0; i < t->len; i++)
        if (t->text[i] < '0' || t->text[i] > '9')
            return false;
    return t->len > 0;
}

static uz_result add_comment(uz_pgn_reader *r, uz_line *line, const uz__token *t)
{
    uz_result rc = line->n_nodes ? uz_node_add_comment(&line->nodes[line->n_nodes - 1], t->text, t->len)
                                 : uz_line_add_pre_comment(line, t->text, t->len);
    if (rc == UZ_ERR_LIMIT)
        return fail(r, rc, t->line, t->column, "comment longer than %zu bytes, or more than %zu comments in one place (limit)",
                    UZ_LIMIT_TEXT, UZ_LIMIT_LIST);
    return rc == UZ_OK ? UZ_OK : fail(r, UZ_ERR_NOMEM, t->line, t->column, "out of memory");
}

static uz_result move_error(uz_pgn_reader *r, uz_result rc, const uz__token *t, const uz_position *pos, long ply,
                            const char *detail)
{
    const char *what = rc == UZ_ERR_ILLEGAL ? "illegal" : rc == UZ_ERR_AMBIGUOUS ? "ambiguous" : "invalid";
    /* The SAN parser's message may repeat "illegal move 'X': " that we already say. */
    const char *rest = strstr(detail, "': ");
    if (rest && (strncmp(detail, "illegal move '", 14) == 0 || strncmp(detail, "ambiguous move '", 16) == 0 ||
                 strncmp(detail, "invalid move '", 14) == 0))
        detail = rest + 3;
    rc = fail(r, rc, t->line, t->column, "%s move '%.*s' for %s at ply %ld (move %u%s): %s", what, (int)t->len,
              t->text, pos->side == UZ_WHITE ? "White" : "Black", ply, (unsigned)pos->fullmove,
              pos->side == UZ_WHITE ? "." : "...", detail);
    if (r->diag)
        r->diag->ply = ply;
    return rc;
}

/* Reads one line (the main line at depth 0, else a variation up to its ')') starting in
 * start; ply0 is the number of plies played before it. */
static uz_result read_line(uz_pgn_reader *r, uz_line *line, const uz_position *start, int depth, long ply0,
                           uz_game_result *result)
{
    uz_position pos = *start, before = *start;
    uz__token t;
    uz_result rc;
    for (;;) {
        r->depth = depth;
        next(r, &t, false);
        switch (t.type) {
        case UZ__TOK_ERROR:
            return fail_token(r, &t);
        case UZ__TOK_COMMENT:
            if ((rc = add_comment(r, line, &t)) != UZ_OK)
                return rc;
            break;
        case UZ__TOK_NAG:
            if (line->n_nodes == 0)
                return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected a move before NAG $%d", t.nag);
            if ((rc = uz_node_add_nag(&line->nodes[line->n_nodes - 1], (uint8_t)t.nag)) != UZ_OK)
                return rc == UZ_ERR_LIMIT ? fail(r, rc, t.line, t.column, "more than %zu NAGs on one move (limit)", UZ_LIMIT_LIST)
                                          : fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
            break;
        case UZ__TOK_LPAREN: {
            if (line->n_nodes == 0)
                return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected a move before '(' (variation of nothing)");
            if (depth + 1 > r->limits.max_depth)
                return fail(r, UZ_ERR_LIMIT, t.line, t.column, "variations nested deeper than %d (limit)",
                            r->limits.max_depth);
            if (line->nodes[line->n_nodes - 1].n_variations >= UZ_LIMIT_LIST)
                return fail(r, UZ_ERR_LIMIT, t.line, t.column, "more than %zu variations of one move (limit)", UZ_LIMIT_LIST);
            uz_line *var = uz_node_add_variation(&line->nodes[line->n_nodes - 1]);
            if (!var)
                return fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
            /* A variation replaces the last move: it starts in the position before it. */
            if ((rc = read_line(r, var, &before, depth + 1, ply0 + (long)line->n_nodes - 1, NULL)) != UZ_OK)
                return rc;
            break;
        }
        case UZ__TOK_RPAREN:
            if (depth == 0)
                return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "unexpected ')' outside a variation");
            return UZ_OK;
        case UZ__TOK_PERIOD:
            break;
        case UZ__TOK_LBRACKET:
            push_back(r, &t);
            if (depth > 0)
                return fail(r, UZ_ERR_SYNTAX, t.line, t.column,
                            "expected ')' and a termination marker before the next game's tags");
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column,
                        "missing termination marker: expected 1-0, 0-1, 1/2-1/2 or * before the next game's tags");
        case UZ__TOK_EOF:
            if (depth > 0)
                return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "unterminated variation: expected ')' before end of input");
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column,
                        "missing termination marker: expected 1-0, 0-1, 1/2-1/2 or * before end of input");
        case UZ__TOK_STRING:
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "unexpected string in movetext (tag outside the tag section?)");
        case UZ__TOK_RBRACKET:
            return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "unexpected ']' in movetext");
        case UZ__TOK_STAR:
        case UZ__TOK_SYMBOL: {
            int res = result_of(&t);
            if (res >= 0) {
                if (depth > 0)
                    return fail(r, UZ_ERR_SYNTAX, t.line, t.column,
                                "expected ')' before the termination marker '%.*s'", (int)t.len, t.text);
                *result = (uz_game_result)res;
                return UZ_OK;
            }
            if (all_digits(&t))
                break; /* move number, with or without periods */
            if (token_is(&t, "e.p.") || token_is(&t, "ep")) {
                if (line->n_nodes == 0)
                    return fail(r, UZ_ERR_SYNTAX, t.line, t.column, "expected a move before 'e.p.'");
                break;
            }
            long ply = ply0 + (long)line->n_nodes + 1;
            uz_move m;
            uz_diag sd = {0};
            rc = uz_san_parse(&pos, t.text, t.len, &m, &sd);
            if (rc != UZ_OK)
                return move_error(r, rc, &t, &pos, ply, sd.message[0] ? sd.message : uz_result_str(rc));
            if (m == UZ_MOVE_NULL && uz_in_check(&pos))
                return move_error(r, UZ_ERR_ILLEGAL, &t, &pos, ply, "a null move cannot be played while in check");
            if (++r->nodes > r->limits.max_moves)
                return fail(r, UZ_ERR_LIMIT, t.line, t.column, "more than %zu moves in one game (limit)",
                            r->limits.max_moves);
            if (!uz_line_add_move(line, m))
                return fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
            uz_undo undo;
            before = pos;
            uz_make_move(&pos, m, &undo);
            break;
        }
        }
    }
}

/* Keeps a comment read between games for whichever game turns out to own it. */
static uz_result keep_pending(uz_pgn_reader *r, const uz__token *t)
{
    if (uz__grow((void **)&r->pending, r->n_pending, sizeof *r->pending) != UZ_OK ||
        !(r->pending[r->n_pending] = uz__strndup(t->text, t->len)))
        return UZ_ERR_NOMEM;
    if (r->n_pending++ == 0)
        r->pending_line = t->line;
    return UZ_OK;
}

/* Comments after the termination marker belong to the game when a tag section or the end
 * of input follows; before a tagless game they are that game's first comments. */
static uz_result read_trailing(uz_pgn_reader *r, uz_game *game)
{
    uz__token t;
    for (;;) {
        next(r, &t, false);
        if (t.type != UZ__TOK_COMMENT)
            break;
        if (keep_pending(r, &t) != UZ_OK)
            return fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
    }
    push_back(r, &t);
    if (t.type == UZ__TOK_LBRACKET || t.type == UZ__TOK_EOF) {
        game->trailing_comments = r->pending;
        game->n_trailing_comments = r->n_pending;
        r->pending = NULL;
        r->n_pending = 0;
    }
    return UZ_OK;
}

bool uz_pgn_reader_last_oversized(const uz_pgn_reader *r)
{
    return r->oversized;
}

/* The game being read passed the size limit: it is refused at once, its text not kept
 * (it cannot be kept as text), so memory stays flat and nothing more is read for now. */
static uz_result refuse_oversized(uz_pgn_reader *r, uz_game *game)
{
    long number = game->number, first_line = game->first_line;
    uz_game_clear(game);
    game->number = number;
    game->first_line = first_line;
    drop_pending(r);
    r->have_tok = false; /* (a token of the refused game) */
    r->oversized = true;
    r->lx.record = NULL;
    r->raw.size = 0;
    r->raw_base = r->text_start = r->text_end = r->lx.offset;
    return fail(r, UZ_ERR_LIMIT, r->limit_line, r->limit_column,
                "game longer than %zu bytes (limit; it begins at line %ld): not read further",
                r->limits.max_game_bytes, first_line);
}

/* Skips the rest of a refused oversized game, unrecorded, in constant memory; reading
 * (and recording) goes on at the next game, whose span starts at its first token as
 * after any bad game. */
static void skip_oversized(uz_pgn_reader *r)
{
    r->lx.stop_at = ULLONG_MAX;
    r->lx.stopped = false;
    skip_game(r);
    r->oversized = false;
    r->lx.record = &r->raw;
    r->raw.size = 0;
    r->raw_base = r->lx.offset;
    if (r->have_tok && r->tok.type == UZ__TOK_LBRACKET) {
        /* The next game's '[' was read unrecorded: its text starts with it. */
        if (uz__text_put(&r->raw, "[", 1) != UZ_OK)
            r->lx.record_failed = true;
        r->raw_base = r->tok.offset;
    } else if (!r->have_tok && !r->done) {
        /* The next token, recorded (within a game's limit: a bomb right after is
         * refused as the next game). */
        r->lx.stop_at = r->lx.offset + r->limits.max_game_bytes + 1;
        uz__lex_next(&r->lx, &r->tok, false);
        r->have_tok = true;
    }
    r->text_end = r->have_tok ? r->tok.offset : r->lx.offset;
}

uz_result uz_pgn_read_game(uz_pgn_reader *r, uz_game *game, uz_diag *diag)
{
    uz_result rc;
    uz__token t;
    uz_game_clear(game);
    if (diag)
        memset(diag, 0, sizeof *diag);
    r->diag = diag;
    if (r->done)
        return UZ_DONE;
    if (r->oversized) {
        skip_oversized(r);
        if (r->done) /* a read error while skipping: the caller asks the input why */
            return fail(r, UZ_ERR_IO, r->lx.line, r->lx.column, "read error");
    }
    raw_discard_before(r, r->text_end);
    r->span_start = r->text_end;
    r->game_start = r->lx.offset;
    /* The size limit is applied as the bytes stream in, never after buffering them. */
    r->lx.stop_at = r->game_start + r->limits.max_game_bytes + 1;
    r->nodes = 0;
    r->in_tags = true;

    /* Comments before anything else: kept for a tagless game, else dropped. */
    bool first = true;
    for (;;) {
        next(r, &t, false);
        if (first)
            r->text_start = r->text_end = t.offset;
        first = false;
        if (t.type != UZ__TOK_COMMENT)
            break;
        if (keep_pending(r, &t) != UZ_OK) {
            r->game_no++;
            rc = fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
            goto fail;
        }
    }
    if (t.type == UZ__TOK_EOF) {
        drop_pending(r);
        r->done = true;
        /* What follows the last game (blank lines, comments) is the input's tail. */
        r->text_end = t.offset;
        if (keep_span(r, game, t.offset) != UZ_OK)
            return fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
        return UZ_DONE;
    }
    r->game_no++;
    game->number = r->game_no;
    game->first_line = r->n_pending ? r->pending_line : t.line;
    if (t.type == UZ__TOK_ERROR) {
        r->in_tags = false; /* not a tag section: resync at the next '[' */
        rc = fail_token(r, &t);
        goto fail;
    }
    push_back(r, &t);
    if (t.type == UZ__TOK_LBRACKET) {
        drop_pending(r);
        if ((rc = read_tags(r, game)) != UZ_OK)
            goto fail;
    } else {
        game->main.pre_comments = r->pending;
        game->main.n_pre_comments = r->n_pending;
        r->pending = NULL;
        r->n_pending = 0;
    }
    r->in_tags = false;
    if ((rc = setup_start(r, game)) != UZ_OK)
        goto fail;
    if ((rc = read_line(r, &game->main, &game->start, 0, 0, &game->result)) != UZ_OK)
        goto fail;
    if ((rc = read_trailing(r, game)) != UZ_OK)
        goto fail;
    r->text_end = r->have_tok ? r->tok.offset : r->lx.offset;
    if (keep_span(r, game, r->text_end) != UZ_OK) {
        uz_game_clear(game);
        return fail(r, UZ_ERR_NOMEM, t.line, t.column, "out of memory");
    }
    return UZ_OK;

fail:
    if (rc == UZ_ERR_IO) {
        r->done = true;
    } else if (!r->lx.stopped) {
        skip_game(r);
        /* The game's span runs to the next token, as a good game's does. */
        if (!r->have_tok && !r->lx.stopped) {
            uz__lex_next(&r->lx, &r->tok, false);
            r->have_tok = true;
        }
    }
    if (r->lx.stopped) /* within the game or while skipping the rest of a bad one */
        return refuse_oversized(r, game);
    r->text_end = r->have_tok ? r->tok.offset : r->lx.offset;
    drop_pending(r);
    long number = game->number, first_line = game->first_line;
    uz_game_clear(game);
    game->number = number;
    game->first_line = first_line;
    if (rc != UZ_ERR_IO && keep_span(r, game, r->text_end) != UZ_OK)
        rc = UZ_ERR_NOMEM; /* (the diagnostic still says what was wrong with the game) */
    return rc;
}
