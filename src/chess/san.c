/* SAN parsing (lenient) and printing (canonical), and UCI move text. */
#include <assert.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "chess/san.h"

#include "chess_internal.h"

static const char piece_letters[] = "  NBRQK"; /* indexed by piece type */

/* ---- printing ----------------------------------------------------------------- */

void uz_move_to_uci(uz_move move, char *out)
{
    if (move == UZ_MOVE_NULL || move == UZ_MOVE_NONE) {
        memcpy(out, "0000", 5);
        return;
    }
    int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move);
    char *p = out;
    *p++ = (char)('a' + UZ_SQ_FILE(from));
    *p++ = (char)('1' + UZ_SQ_RANK(from));
    *p++ = (char)('a' + UZ_SQ_FILE(to));
    *p++ = (char)('1' + UZ_SQ_RANK(to));
    if (UZ_MOVE_PROMO(move))
        *p++ = "  nbrq"[UZ_MOVE_PROMO(move)];
    *p = '\0';
}

static bool is_castling(const uz_position *pos, uz_move move)
{
    int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move);
    if (pos->chess960)
        return UZ_PIECE_TYPE(pos->squares[from]) == UZ_KING && pos->squares[to] == UZ_PIECE(pos->side, UZ_ROOK);
    return UZ_PIECE_TYPE(pos->squares[from]) == UZ_KING && (to - from == 2 || from - to == 2);
}

/* SAN without the check mark. moves/n are the legal moves of pos. */
static char *format_plain(const uz_position *pos, uz_move move, const uz_move *moves, int n, char *p)
{
    int from = UZ_MOVE_FROM(move), to = UZ_MOVE_TO(move);
    int type = UZ_PIECE_TYPE(pos->squares[from]);

    if (is_castling(pos, move)) {
        const char *text = to > from ? "O-O" : "O-O-O";
        size_t len = strlen(text);
        memcpy(p, text, len);
        return p + len;
    }
    bool capture = pos->squares[to] != 0 || (type == UZ_PAWN && UZ_SQ_FILE(from) != UZ_SQ_FILE(to));

    if (type == UZ_PAWN) {
        if (capture)
            *p++ = (char)('a' + UZ_SQ_FILE(from));
    } else {
        *p++ = piece_letters[type];
        /* Disambiguate among the other legal moves of the same piece type to the same
         * square: by file if that suffices, else by rank, else by both. */
        bool others = false, same_file = false, same_rank = false;
        for (int i = 0; i < n; i++) {
            int f = UZ_MOVE_FROM(moves[i]);
            if (UZ_MOVE_TO(moves[i]) != to || f == from || UZ_PIECE_TYPE(pos->squares[f]) != type)
                continue;
            others = true;
            same_file |= UZ_SQ_FILE(f) == UZ_SQ_FILE(from);
            same_rank |= UZ_SQ_RANK(f) == UZ_SQ_RANK(from);
        }
        if (others && (!same_file || same_rank))
            *p++ = (char)('a' + UZ_SQ_FILE(from));
        if (others && same_file)
            *p++ = (char)('1' + UZ_SQ_RANK(from));
    }
    if (capture)
        *p++ = 'x';
    *p++ = (char)('a' + UZ_SQ_FILE(to));
    *p++ = (char)('1' + UZ_SQ_RANK(to));
    if (UZ_MOVE_PROMO(move)) {
        *p++ = '=';
        *p++ = piece_letters[UZ_MOVE_PROMO(move)];
    }
    return p;
}

void uz_san_format(const uz_position *pos, uz_move move, char *out)
{
    uz_move moves[UZ_MAX_MOVES];
    int n = move == UZ_MOVE_NULL ? 0 : uz__generate_unsorted(pos, moves);
    uz_san_format_legal(pos, move, moves, n, out);
}

void uz_san_format_legal(const uz_position *pos, uz_move move, const uz_move *legal_moves, int n, char *out)
{
    if (move == UZ_MOVE_NULL) {
        memcpy(out, "--", 3);
        return;
    }
    const uz_move *moves = legal_moves;
    uz_move replies[UZ_MAX_MOVES];
    bool legal = false;
    for (int i = 0; i < n && !legal; i++)
        legal = moves[i] == move;
    assert(legal);
    if (!legal) {
        /* Not a legal move: the contract is broken, but print something readable. */
        uz_move_to_uci(move, out);
        return;
    }

    char *p = format_plain(pos, move, moves, n, out);
    uz_position after = *pos;
    uz_undo undo;
    uz_make_move(&after, move, &undo);
    if (uz_in_check(&after))
        *p++ = uz__generate_unsorted(&after, replies) == 0 ? '#' : '+';
    *p = '\0';
    assert(p - out < UZ_SAN_MAX);
}

/* ---- UCI parsing -------------------------------------------------------------- */

static int parse_square(const char *s)
{
    if (s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '8')
        return -1;
    return UZ_SQ(s[0] - 'a', s[1] - '1');
}

static int promo_from_char(char c)
{
    switch (tolower((unsigned char)c)) {
    case 'n': return UZ_KNIGHT;
    case 'b': return UZ_BISHOP;
    case 'r': return UZ_ROOK;
    case 'q': return UZ_QUEEN;
    default: return 0;
    }
}

static bool in_list(const uz_move *moves, int n, uz_move move)
{
    for (int i = 0; i < n; i++)
        if (moves[i] == move)
            return true;
    return false;
}

/* King-takes-own-rook (e1h1, e1a1) as the castling move, or UZ_MOVE_NONE. */
static uz_move castling_from_king_takes_rook(const uz_position *pos, int from, int to)
{
    int us = pos->side;
    int back = us == UZ_WHITE ? 0 : 7;
    if (pos->chess960) /* there king takes rook is the move itself */
        return UZ_MOVE_NONE;
    if (from != UZ_SQ(4, back) || pos->squares[from] != UZ_PIECE(us, UZ_KING)
        || pos->squares[to] != UZ_PIECE(us, UZ_ROOK))
        return UZ_MOVE_NONE;
    if (to == UZ_SQ(7, back))
        return UZ_MOVE(from, UZ_SQ(6, back), 0);
    if (to == UZ_SQ(0, back))
        return UZ_MOVE(from, UZ_SQ(2, back), 0);
    return UZ_MOVE_NONE;
}

uz_result uz_move_from_uci(const uz_position *pos, const char *text, uz_move *out)
{
    *out = UZ_MOVE_NONE;
    size_t len = strlen(text);
    if (len == 4 && memcmp(text, "0000", 4) == 0) {
        *out = UZ_MOVE_NULL;
        return UZ_OK;
    }
    if (len != 4 && len != 5)
        return UZ_ERR_SYNTAX;
    int from = parse_square(text), to = parse_square(text + 2);
    int promo = len == 5 ? promo_from_char(text[4]) : 0;
    if (from < 0 || to < 0 || (len == 5 && !promo))
        return UZ_ERR_SYNTAX;

    uz_move moves[UZ_MAX_MOVES];
    int n = uz__generate_unsorted(pos, moves);
    uz_move move = UZ_MOVE(from, to, promo);
    if (!in_list(moves, n, move) && !promo)
        move = castling_from_king_takes_rook(pos, from, to);
    if (move == UZ_MOVE_NONE || !in_list(moves, n, move))
        return UZ_ERR_ILLEGAL;
    *out = move;
    return UZ_OK;
}

/* ---- SAN parsing -------------------------------------------------------------- */

/* A parsed SAN token: what the move must match. -1 / 0 mean "not given". */
typedef struct san_pattern {
    int piece;     /* piece type, 0 = not given */
    int from_file; /* -1 = not given */
    int from_rank;
    int to;
    int promo;     /* 0 = not given */
} san_pattern;

#define SAN_TEXT_MAX 32

static bool char_in(char c, const char *set)
{
    return c != '\0' && strchr(set, c) != NULL;
}

static bool ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

static int piece_from_letter(char c)
{
    switch (c) {
    case 'N': case 'n': return UZ_KNIGHT;
    case 'B': return UZ_BISHOP; /* lower-case b is the b-file */
    case 'R': case 'r': return UZ_ROOK;
    case 'Q': case 'q': return UZ_QUEEN;
    case 'K': case 'k': return UZ_KING;
    case 'P': return UZ_PAWN;
    default: return 0;
    }
}

/* Legal moves matching pat; returns how many (up to cap stored in found). */
static int match(const uz_position *pos, const uz_move *moves, int n, const san_pattern *pat, uz_move *found, int cap)
{
    int count = 0;
    for (int i = 0; i < n; i++) {
        uz_move m = moves[i];
        int from = UZ_MOVE_FROM(m);
        if (UZ_MOVE_TO(m) != pat->to)
            continue;
        if (pat->from_file >= 0 && UZ_SQ_FILE(from) != pat->from_file)
            continue;
        if (pat->from_rank >= 0 && UZ_SQ_RANK(from) != pat->from_rank)
            continue;
        if (pat->piece && UZ_PIECE_TYPE(pos->squares[from]) != pat->piece)
            continue;
        /* A missing promotion piece matches all four promotions (reported ambiguous). */
        if (pat->promo && UZ_MOVE_PROMO(m) != pat->promo)
            continue;
        if (count < cap)
            found[count] = m;
        count++;
    }
    return count;
}

/* Parses the disambiguation prefix (after any piece letter): [file][rank]. */
static bool parse_origin(const char *s, size_t n, san_pattern *pat)
{
    size_t i = 0;
    pat->from_file = pat->from_rank = -1;
    if (i < n && s[i] >= 'a' && s[i] <= 'h')
        pat->from_file = s[i++] - 'a';
    if (i < n && s[i] >= '1' && s[i] <= '8')
        pat->from_rank = s[i++] - '1';
    return i == n;
}

static const char *piece_name(int type)
{
    static const char *const names[] = {"piece", "pawn", "knight", "bishop", "rook", "queen", "king"};
    return names[type];
}

/* Length of buf[0..n) without what may follow the move: check/mate marks, glyphs, "e.p."
 * in its forms. */
static size_t san_strip_suffixes(const char *buf, size_t n)
{
    for (;;) {
        while (n && isspace((unsigned char)buf[n - 1]))
            n--;
        if (n && char_in(buf[n - 1], "+#!?")) {
            n--;
            continue;
        }
        size_t k = ends_with(buf, n, "e.p.") ? 4 : ends_with(buf, n, "e.p") ? 3 : ends_with(buf, n, "ep") ? 2 : 0;
        if (k) {
            size_t m = n - k;
            while (m && isspace((unsigned char)buf[m - 1]))
                m--;
            if (m && (isdigit((unsigned char)buf[m - 1]) || char_in(buf[m - 1], "+#!?"))) {
                n = m;
                continue;
            }
        }
        return n;
    }
}

/* Castling: O-O, 0-0, o-o, with or without the hyphens. False when buf is not written as
 * castling; else *r is the result (*out the move, or diag why it is illegal). */
static bool san_castling(const uz_position *pos, const char *buf, size_t n, const uz_move *moves, int n_moves,
                         const char *text, int shown, uz_move *out, uz_result *r, uz_diag *diag)
{
    size_t os = 0, hyphens = 0;
    for (size_t i = 0; i < n; i++) {
        if (buf[i] == 'O' || buf[i] == '0' || buf[i] == 'o')
            os++;
        else if (buf[i] == '-')
            hyphens++;
    }
    if (!(n && os + hyphens == n && (os == 2 || os == 3) && buf[0] != '-'))
        return false;
    int us = pos->side;
    int back = us == UZ_WHITE ? 0 : 7;
    uz_move m = UZ_MOVE(UZ_SQ(4, back), UZ_SQ(os == 2 ? 6 : 2, back), 0);
    *r = UZ_OK;
    if (pos->chess960) {
        /* The castling move whose rook is on the king's side (O-O) or the other. */
        m = UZ_MOVE_NONE;
        for (int i = 0; i < n_moves; i++)
            if (is_castling(pos, moves[i]) && (UZ_MOVE_TO(moves[i]) > UZ_MOVE_FROM(moves[i])) == (os == 2))
                m = moves[i];
        if (m != UZ_MOVE_NONE) {
            *out = m;
            return true;
        }
    } else if (pos->squares[UZ_SQ(4, back)] == UZ_PIECE(us, UZ_KING) && in_list(moves, n_moves, m)) {
        *out = m;
        return true;
    }
    uz_diag_set(diag, UZ_ERR_ILLEGAL, 0, 0, "illegal move '%.*s': %s cannot castle %s here", shown, text,
                us == UZ_WHITE ? "White" : "Black", os == 2 ? "king-side" : "queen-side");
    *r = UZ_ERR_ILLEGAL;
    return true;
}

/* Reads [piece][file][rank][x:-]square[promotion] from buf[0..*n) into pat; *n becomes
 * the length of what stands before the destination and *start 1 if a piece letter
 * opens it. False if it cannot be read as a move. */
static bool san_read_pattern(const char *buf, size_t *np, san_pattern *pat, size_t *start)
{
    size_t n = *np;
    /* Promotion: =Q, Q, q, (Q), /Q after the destination. */
    if (n >= 4 && buf[n - 1] == ')' && buf[n - 3] == '(') {
        pat->promo = promo_from_char(buf[n - 2]);
        if (!pat->promo)
            return false;
        n -= 3;
    } else if (n >= 3 && promo_from_char(buf[n - 1]) && (isdigit((unsigned char)buf[n - 2]) || buf[n - 2] == '='
                                                         || buf[n - 2] == '/')) {
        pat->promo = promo_from_char(buf[n - 1]);
        n--;
    }
    if (pat->promo && n && (buf[n - 1] == '=' || buf[n - 1] == '/'))
        n--;

    /* Destination square, then an optional capture or long-algebraic separator. */
    if (n < 2 || buf[n - 2] < 'a' || buf[n - 2] > 'h' || buf[n - 1] < '1' || buf[n - 1] > '8')
        return false;
    pat->to = UZ_SQ(buf[n - 2] - 'a', buf[n - 1] - '1');
    n -= 2;
    if (n && char_in(buf[n - 1], "x:-"))
        n--;

    /* What is left: [piece][file][rank]. */
    *start = 0;
    if (n && buf[0] != 'b' && piece_from_letter(buf[0])) {
        pat->piece = piece_from_letter(buf[0]);
        *start = 1;
    }
    *np = n;
    if (!parse_origin(buf + *start, n - *start, pat))
        return false;
    if (!pat->piece && !(pat->from_file >= 0 && pat->from_rank >= 0))
        pat->piece = UZ_PAWN; /* no letter: a pawn, unless the full origin is given (g1f3) */
    return true;
}

/* Why no single move matched: ambiguous (count > 1, found[0..1] two of them) or illegal. */
static uz_result san_no_single_match(const uz_position *pos, const san_pattern *pat, const uz_move *found,
                                     int count, const char *text, int shown, uz_diag *diag)
{
    if (count > 1) {
        if (UZ_MOVE_PROMO(found[0]) && !pat->promo && UZ_MOVE_FROM(found[0]) == UZ_MOVE_FROM(found[1])) {
            uz_diag_set(diag, UZ_ERR_AMBIGUOUS, 0, 0, "ambiguous move '%.*s': the promotion piece is missing", shown,
                        text);
        } else {
            char a[UZ_SAN_MAX], b[UZ_SAN_MAX];
            uz_san_format(pos, found[0], a);
            uz_san_format(pos, found[1], b);
            uz_diag_set(diag, UZ_ERR_AMBIGUOUS, 0, 0, "ambiguous move '%.*s': could be %s or %s%s", shown, text, a, b,
                        count > 2 ? " or more" : "");
        }
        return UZ_ERR_AMBIGUOUS;
    }
    int us = pos->side;
    if (pat->piece) {
        char origin[24] = "";
        if (pat->from_file >= 0 && pat->from_rank >= 0)
            snprintf(origin, sizeof origin, " on %c%d", 'a' + pat->from_file, 1 + pat->from_rank);
        else if (pat->from_file >= 0)
            snprintf(origin, sizeof origin, " on the %c-file", 'a' + pat->from_file);
        else if (pat->from_rank >= 0)
            snprintf(origin, sizeof origin, " on rank %d", 1 + pat->from_rank);
        uz_diag_set(diag, UZ_ERR_ILLEGAL, 0, 0, "illegal move '%.*s': no %s %s%s can legally move to %c%d", shown,
                    text, us == UZ_WHITE ? "white" : "black", piece_name(pat->piece), origin,
                    'a' + UZ_SQ_FILE(pat->to), 1 + UZ_SQ_RANK(pat->to));
    } else
        uz_diag_set(diag, UZ_ERR_ILLEGAL, 0, 0, "illegal move '%.*s' for %s", shown, text,
                    us == UZ_WHITE ? "White" : "Black");
    return UZ_ERR_ILLEGAL;
}

uz_result uz_san_parse(const uz_position *pos, const char *text, size_t len, uz_move *out, uz_diag *diag)
{
    *out = UZ_MOVE_NONE;
    /* The token as given, for messages. */
    while (len && isspace((unsigned char)*text)) {
        text++;
        len--;
    }
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    int shown = len > SAN_TEXT_MAX ? SAN_TEXT_MAX : (int)len;
    if (len == 0) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, 0, "empty move");
        return UZ_ERR_SYNTAX;
    }
    if (len >= SAN_TEXT_MAX) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, 0, "move text '%.*s...' is too long", shown, text);
        return UZ_ERR_SYNTAX;
    }
    char buf[SAN_TEXT_MAX];
    memcpy(buf, text, len);
    size_t n = len;

    if ((n == 2 && (memcmp(buf, "--", 2) == 0 || memcmp(buf, "Z0", 2) == 0)) || (n == 4 && memcmp(buf, "0000", 4) == 0)) {
        *out = UZ_MOVE_NULL;
        return UZ_OK;
    }
    n = san_strip_suffixes(buf, n);

    uz_move moves[UZ_MAX_MOVES];
    int n_moves = uz__generate_unsorted(pos, moves);
    uz_result r;
    if (san_castling(pos, buf, n, moves, n_moves, text, shown, out, &r, diag))
        return r;

    san_pattern pat = {0, -1, -1, 0, 0};
    size_t start;
    if (!san_read_pattern(buf, &n, &pat, &start)) {
        uz_diag_set(diag, UZ_ERR_SYNTAX, 0, 0, "cannot read '%.*s' as a move", shown, text);
        return UZ_ERR_SYNTAX;
    }
    if (pat.promo && pat.piece != UZ_PAWN && !(start == 0 && pat.from_rank >= 0)) {
        uz_diag_set(diag, UZ_ERR_ILLEGAL, 0, 0, "illegal move '%.*s': only a pawn can promote", shown, text);
        return UZ_ERR_ILLEGAL;
    }

    uz_move found[3];
    int count = match(pos, moves, n_moves, &pat, found, 3);

    if (count == 0 && start == 0 && n >= 1 && buf[0] == 'b') {
        /* "bc4" with no pawn move that fits: a lower-case bishop letter. */
        san_pattern bishop = pat;
        bishop.piece = UZ_BISHOP;
        if (parse_origin(buf + 1, n - 1, &bishop) && !bishop.promo) {
            count = match(pos, moves, n_moves, &bishop, found, 3);
            if (count)
                pat = bishop;
        }
    }
    if (count == 0 && start == 0 && pat.from_file >= 0 && pat.from_rank >= 0 && !pat.promo) {
        uz_move m = castling_from_king_takes_rook(pos, UZ_SQ(pat.from_file, pat.from_rank), pat.to);
        if (m != UZ_MOVE_NONE && in_list(moves, n_moves, m)) {
            *out = m;
            return UZ_OK;
        }
    }
    if (count == 1) {
        *out = found[0];
        return UZ_OK;
    }
    return san_no_single_match(pos, &pat, found, count, text, shown, diag);
}
