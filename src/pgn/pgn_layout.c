/* Guessing a game's layout (uz_pgn_layout) from its exact bytes: line ends, blank lines,
 * move-number spacing, glyphs, wrapping width. The archive renders the tree with the guess
 * and stores only what still differs, so a good guess is what makes byte-exact cheap. */
#include <string.h>

#include "pgn_internal.h"

typedef struct line_span {
    const char *p;
    size_t len;       /* without the line end */
    bool in_comment;  /* starts inside a {comment} */
} line_span;

static bool is_blank(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
            return false;
    return true;
}

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Length of the next line of raw starting at i (without its end) and where the next one starts. */
static size_t next_line(const char *raw, size_t len, size_t i, uz_eol eol, size_t *next)
{
    size_t j = i;
    char end = eol == UZ_EOL_CR ? '\r' : '\n';
    while (j < len && raw[j] != end)
        j++;
    *next = j < len ? j + 1 : len;
    if (eol == UZ_EOL_CRLF && j > i && raw[j - 1] == '\r')
        j--;
    return j - i;
}

/* Looks at the words of a movetext line outside comments. */
static void scan_words(const line_span *ln, bool *in_comment, unsigned *seen_flags, unsigned *flag_values,
                       size_t *words)
{
    size_t i = 0;
    *words = 0;
    while (i < ln->len) {
        char c = ln->p[i];
        if (*in_comment) {
            if (c == '}')
                *in_comment = false;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r') {
            i++;
            continue;
        }
        if (c == ';')
            return; /* a comment to the end of the line */
        size_t start = i;
        while (i < ln->len && ln->p[i] != ' ' && ln->p[i] != '\t' && ln->p[i] != '{' && ln->p[i] != '\r')
            i++;
        (*words)++;
        if (i < ln->len && ln->p[i] == '{' && i == start) {
            *in_comment = true;
            i++;
            continue;
        }
        const char *w = ln->p + start;
        size_t n = i - start;
        if (n == 0) { /* a '{' right after a word */
            *in_comment = true;
            i++;
            continue;
        }
        size_t d = 0;
        while (d < n && is_digit(w[d]))
            d++;
        if (d > 0 && d < n && w[d] == '.') {
            size_t dots = 0;
            while (d + dots < n && w[d + dots] == '.')
                dots++;
            bool alone = d + dots == n;
            if (!(*seen_flags & UZ_LAYOUT_NUMBER_SPACE)) {
                *seen_flags |= UZ_LAYOUT_NUMBER_SPACE;
                if (alone)
                    *flag_values |= UZ_LAYOUT_NUMBER_SPACE;
            }
            if (dots == 3) {
                *seen_flags |= UZ_LAYOUT_BLACK_NUMBERS;
                *flag_values |= UZ_LAYOUT_BLACK_NUMBERS;
            }
        }
        if (n == 1 && w[0] == '(') {
            *seen_flags |= UZ_LAYOUT_PAREN_SPACE;
            *flag_values |= UZ_LAYOUT_PAREN_SPACE;
        }
        if (n > 1 && (w[n - 1] == '!' || w[n - 1] == '?') && w[0] != '$') {
            *seen_flags |= UZ_LAYOUT_GLYPHS;
            *flag_values |= UZ_LAYOUT_GLYPHS;
        }
    }
}

static bool has_annotations(const uz_line *line)
{
    for (size_t i = 0; i < line->n_nodes; i++)
        if (line->nodes[i].n_comments || line->nodes[i].n_variations)
            return true;
    return false;
}

void uz_pgn_layout_guess(const uz_game *game, const char *raw, size_t len, uz_pgn_layout *layout)
{
    *layout = uz_pgn_layout_export;
    layout->flags &= (uint16_t)~UZ_LAYOUT_ROSTER_FIRST; /* the tree keeps the input's tag order */
    if (!raw || len == 0)
        return;

    const char *lf = memchr(raw, '\n', len);
    if (lf)
        layout->eol = lf > raw && lf[-1] == '\r' ? UZ_EOL_CRLF : UZ_EOL_LF;
    else if (memchr(raw, '\r', len))
        layout->eol = UZ_EOL_CR;
    uz_eol eol = (uz_eol)layout->eol;

    /* Line ends after the last token. */
    size_t end = len;
    unsigned eols = 0;
    while (end > 0 && strchr(" \t\r\n", raw[end - 1])) {
        char c = raw[end - 1];
        eols += eol == UZ_EOL_CR ? c == '\r' : c == '\n';
        end--;
    }
    layout->end_eols = (uint8_t)(eols > 255 ? 255 : eols);

    /* Skip leading blank lines and the tag section; count the blank lines after it. */
    size_t i = 0, next;
    bool tags = false;
    unsigned gap = 0;
    while (i < end) {
        size_t n = next_line(raw, end, i, eol, &next);
        const char *p = raw + i;
        while (n > 0 && (*p == ' ' || *p == '\t')) {
            p++;
            n--;
        }
        if (n == 0 || is_blank(p, n)) {
            if (tags)
                gap++;
        } else if (*p == '[' && gap == 0) {
            tags = true;
        } else {
            break;
        }
        i = next;
    }
    if (tags)
        layout->tag_gap = (uint8_t)(gap > 255 ? 255 : gap);

    /* Movetext lines: width and word styles. */
    unsigned seen = 0, values = 0;
    bool in_comment = false;
    size_t lines = 0, widest = 0, last_words = 0;
    const char *last_line = NULL;
    size_t last_len = 0;
    while (i < end) {
        size_t n = next_line(raw, end, i, eol, &next);
        line_span ln = {raw + i, n, in_comment};
        size_t words;
        scan_words(&ln, &in_comment, &seen, &values, &words);
        if (!ln.in_comment && words >= 2 && n > widest)
            widest = n;
        if (n > 0) {
            lines++;
            last_line = raw + i;
            last_len = n;
            last_words = words;
        }
        i = next;
    }
    layout->wrap = lines <= 1 ? 0 : (uint16_t)(widest > 65535 ? 65535 : widest);
    if (lines > 1 && widest == 0)
        layout->wrap = 1; /* one token a line */
    /* A Black move after a comment with no "..." anywhere: numbers are left out. */
    if (!(seen & UZ_LAYOUT_BLACK_NUMBERS) && has_annotations(&game->main))
        layout->flags &= (uint16_t)~UZ_LAYOUT_BLACK_NUMBERS;
    unsigned styled = UZ_LAYOUT_NUMBER_SPACE | UZ_LAYOUT_GLYPHS | UZ_LAYOUT_PAREN_SPACE;
    layout->flags = (uint16_t)((layout->flags & ~(seen & styled)) | (values & seen & styled));
    if (seen & UZ_LAYOUT_BLACK_NUMBERS)
        layout->flags |= UZ_LAYOUT_BLACK_NUMBERS;
    /* Two spaces before the termination marker (ChessBase). */
    static const char *const markers[] = {"1-0", "0-1", "1/2-1/2", "*"};
    for (int m = 0; m < 4; m++) {
        size_t ml = strlen(markers[m]);
        if (end >= ml + 2 && memcmp(raw + end - ml, markers[m], ml) == 0 && raw[end - ml - 1] == ' ' &&
            raw[end - ml - 2] == ' ')
            layout->flags |= UZ_LAYOUT_RESULT_GAP2;
    }
    for (size_t k = 0; k + 4 <= end; k++)
        if (raw[k] == ')' && memcmp(raw + k, ")  (", 4) == 0) {
            layout->flags |= UZ_LAYOUT_VARIATION_GAP2;
            break;
        }
    /* No '#' anywhere: a mate, if the game has one, is marked '+'. */
    if (!memchr(raw, '#', end))
        layout->flags |= UZ_LAYOUT_MATE_PLUS;
    /* A line break after the comments before the first move. */
    if (game->main.n_pre_comments && game->main.n_nodes) {
        const char *close = memchr(raw, '}', end);
        if (close && close + 1 < raw + end && (close[1] == '\n' || close[1] == '\r'))
            layout->flags |= UZ_LAYOUT_PRE_LINE;
    }
    if (lines > 1 && last_line && last_words == 1 && last_len <= 7 &&
        (memcmp(last_line, "1-0", 3) == 0 || memcmp(last_line, "0-1", 3) == 0 || memcmp(last_line, "1/2", 3) == 0 ||
         last_line[0] == '*'))
        layout->flags |= UZ_LAYOUT_RESULT_LINE;
}
