/* The experimental PGN source (include/ucizip_experimental.h) on corpus files: with exact
 * bytes the games' bytes put back together are the files byte for byte, read one after
 * the other; a well-formed file's games are its [Event tags; a bad game stops
 * the reading, or is skipped and counted with keep_going; an input that cannot be opened
 * is named; max_games stops early. */
#include <unistd.h>

#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

#include "../common/uz_test.h"

static size_t count(const char *text, size_t len, const char *what)
{
    size_t n = 0, w = strlen(what);
    for (size_t i = 0; i + w <= len; i++)
        n += (i == 0 || text[i - 1] == '\n') && memcmp(text + i, what, w) == 0;
    return n;
}

/* Reads paths[0..n) with policy; the games' bytes into out (of cap), the count of games. */
static uz_result read_all(const char *const *paths, size_t n, const uz_pgn_source_policy *policy, char *out,
                          size_t cap, size_t *len, uint64_t *games, uz_pgn_source_counts *counts)
{
    uz_pgn_source *s = NULL;
    uz_game *g = NULL;
    uz_diag d = {0};
    *len = 0;
    *games = 0;
    CHECK(uz_game_new(&g, &d) == UZ_OK);
    uz_result r = uz_pgn_source_open(&s, paths, n, policy->keep_going, NULL, NULL, &d);
    while (r == UZ_OK && (r = uz_pgn_source_read(s, g, policy, &d)) == UZ_OK) {
        size_t l;
        const char *bytes = uz_game_bytes(g, &l);
        if (*len + l <= cap) {
            memcpy(out + *len, bytes, l);
            *len += l;
        }
        *games += uz_game_is_game(g);
    }
    uz_pgn_source_counts_get(s, counts);
    uz_pgn_source_close(s);
    uz_game_free(g);
    return r;
}

int main(void)
{
    char a[1024], b[1024];
    const char *paths[] = {corpus_path("cat2_london_1851_crlf.pgn", a), corpus_path("cat4_pgn_extract_testsuite.pgn", b)};
    size_t len_a, len_b;
    char *text_a = test_slurp(paths[0], &len_a), *text_b = test_slurp(paths[1], &len_b);
    CHECK(text_a && text_b && len_a > 0 && len_b > 0);
    size_t cap = len_a + len_b, len;
    char *out = malloc(cap);
    uint64_t games;
    uz_pgn_source_counts c;
    uz_pgn_source_policy exact = {.keep_going = false, .keep_verbatim = true, .exact = true};
    CHECK(read_all(paths, 2, &exact, out, cap, &len, &games, &c) == UZ_DONE);
    CHECK(len == len_a + len_b && memcmp(out, text_a, len_a) == 0 && memcmp(out + len_a, text_b, len_b) == 0,
          "%zu bytes back of %zu", len, len_a + len_b);
    /* (the test suite file has games without tags too) */
    size_t events = count(text_a, len_a, "[Event ") + count(text_b, len_b, "[Event ");
    CHECK(games >= events && c.games == games, "%llu games, %zu [Event tags", (unsigned long long)games, events);

    /* The first file alone in export format: every game read, none kept as text. */
    uz_pgn_source_policy strict = {0};
    CHECK(read_all(paths, 1, &strict, out, cap, &len, &games, &c) == UZ_DONE);
    CHECK(games == count(text_a, len_a, "[Event ") && c.as_text == 0 && c.skipped == 0);

    /* A bad game: it stops a strict reading; keep_going skips it and reads the next. */
    static const char bad[] = "[Event \"x\"]\n\n1. e4 e5 2. Qxx8 *\n\n[Event \"y\"]\n\n1. d4 *\n";
    char tmp[] = "/tmp/uz_pgn_source_XXXXXX";
    int fd = mkstemp(tmp);
    CHECK(fd >= 0 && write(fd, bad, sizeof bad - 1) == (ssize_t)(sizeof bad - 1));
    if (fd >= 0)
        close(fd);
    const char *bad_path[] = {tmp};
    uz_result r = read_all(bad_path, 1, &strict, out, cap, &len, &games, &c);
    CHECK(r != UZ_OK && r != UZ_DONE && games == 0, "%s, %llu games", uz_result_str(r), (unsigned long long)games);
    uz_pgn_source_policy going = {.keep_going = true};
    CHECK(read_all(bad_path, 1, &going, out, cap, &len, &games, &c) == UZ_DONE);
    CHECK(games == 1 && c.skipped == 1, "%llu games, %llu skipped", (unsigned long long)games,
          (unsigned long long)c.skipped);
    unlink(tmp);

    /* An input that cannot be opened: named, or skipped and counted with keep_going. */
    const char *missing[] = {"/nonexistent/uz.pgn", paths[0]};
    uz_pgn_source *s = NULL;
    uz_diag d = {0};
    CHECK(uz_pgn_source_open(&s, missing, 2, false, NULL, NULL, &d) != UZ_OK);
    CHECK(s && uz_pgn_source_failed_input(s) && strcmp(uz_pgn_source_failed_input(s), missing[0]) == 0);
    uz_pgn_source_close(s);
    CHECK(read_all(missing, 2, &going, out, cap, &len, &games, &c) == UZ_DONE);
    CHECK(c.inputs_skipped == 1 && games == count(text_a, len_a, "[Event "));

    /* max_games: no more than that. */
    uz_pgn_source_policy few = {.max_games = 3};
    CHECK(read_all(paths, 2, &few, out, cap, &len, &games, &c) == UZ_DONE && games == 3);
    free(out);
    free(text_a);
    free(text_b);
    return test_finish();
}
