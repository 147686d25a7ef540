/* The experimental tag reader (include/ucizip_experimental.h) without an engine: the
 * fixture archives' tags are those of the PGN file they were made from, game by game and
 * in order; the game count agrees; every truncation and many corrupted bytes of an
 * archive give an error, never a crash (run under ASan+UBSan in CI). */
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

#include "../common/uz_test.h"
#include "pgn/pgn.h"

enum { MAX_GAMES = 16 };

static const char *data_path(const char *file, char *buf, size_t cap)
{
    const char *dir = getenv("UZ_TEST_DATA");
    snprintf(buf, cap, "%s/model/%s", dir ? dir : "tests/data", file);
    return buf;
}

/* The games of the PGN file at path (at most MAX_GAMES), as our reader reads them. */
static size_t read_pgn(const char *path, uz_game *games)
{
    FILE *f = fopen(path, "rb");
    uz_pgn_reader *r = f ? uz_pgn_reader_open(f, path) : NULL;
    size_t n = 0;
    uz_diag d = {0};
    while (r && n < MAX_GAMES && uz_pgn_read_game(r, &games[n], &d) == UZ_OK)
        n++;
    uz_pgn_reader_close(r);
    if (f)
        fclose(f);
    return n;
}

/* Every game record of the archive f: tags compared with want[0..n_want). */
static void compare_archive(const char *name, FILE *f, const uz_game *want, size_t n_want)
{
    uint64_t count = 0;
    uz_diag d = {0};
    CHECK(uz_archive_game_count(f, name, &count, &d) == UZ_OK, "%s: %s", name, d.message);
    rewind(f);
    uz_tag_reader *r = NULL;
    CHECK(uz_tag_reader_open(&r, f, name, &d) == UZ_OK);
    uz_game_tags g;
    size_t games = 0;
    uint64_t records = 0;
    uz_result res;
    while ((res = uz_tag_reader_next(r, &g, &d)) == UZ_OK) {
        CHECK(g.number == ++records, "%s: numbered %llu", name, (unsigned long long)g.number);
        if (!g.is_game)
            continue;
        CHECK(games < n_want, "%s: more games than the PGN file", name);
        if (games >= n_want)
            break;
        const uz_game *w = &want[games++];
        CHECK(g.n_tags == w->n_tags, "%s: game %zu: %zu tags, want %zu", name, games, g.n_tags, w->n_tags);
        for (size_t i = 0; i < g.n_tags && i < w->n_tags; i++)
            CHECK(strcmp(g.tags[i].name, w->tags[i].name) == 0 && g.tags[i].value &&
                      strcmp(g.tags[i].value, w->tags[i].value) == 0,
                  "%s: game %zu: tag %zu is %s \"%s\", want %s \"%s\"", name, games, i, g.tags[i].name,
                  g.tags[i].value ? g.tags[i].value : "(null)", w->tags[i].name, w->tags[i].value);
    }
    CHECK(res == UZ_DONE, "%s: %s", name, d.message);
    CHECK(games == n_want && records == count, "%s: %zu games, %llu records, count %llu", name, games,
          (unsigned long long)records, (unsigned long long)count);
    uz_tag_reader_close(r);
}

/* Reads every record of the archive bytes data[0..len); the result of the last call. */
static uz_result read_all(const unsigned char *data, size_t len)
{
    FILE *f = fmemopen((void *)data, len, "rb");
    if (!f)
        return UZ_ERR_IO;
    uz_tag_reader *r = NULL;
    uz_game_tags g;
    uz_diag d = {0};
    uz_result res = uz_tag_reader_open(&r, f, "<damaged>", &d);
    while (res == UZ_OK)
        res = uz_tag_reader_next(r, &g, &d);
    uz_tag_reader_close(r);
    uint64_t n;
    rewind(f);
    (void)uz_archive_game_count(f, "<damaged>", &n, &d); /* must not crash either */
    fclose(f);
    return res;
}

static void damaged(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned char buf[1 << 16];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(len > 64 && len < sizeof buf, "%s: %zu bytes", path, len);
    size_t refused = 0;
    for (size_t cut = 0; cut < len; cut++)
        refused += read_all(buf, cut) != UZ_DONE;
    CHECK(refused == len, "%s: %zu of %zu truncations refused", path, refused, len);
    unsigned char copy[sizeof buf];
    for (size_t at = 0; at < len; at += 3) {
        memcpy(copy, buf, len);
        copy[at] ^= 0x5a;
        (void)read_all(copy, len); /* an error or, where no checksum covers the byte, tags */
    }
}

int main(void)
{
    char pgn[1024], path[1024];
    uz_game want[MAX_GAMES];
    for (size_t i = 0; i < MAX_GAMES; i++)
        uz_game_init(&want[i]);
    size_t n = read_pgn(data_path("fixture_rank.pgn", pgn, sizeof pgn), want);
    CHECK(n == 3, "fixture_rank.pgn: %zu games", n);
    static const char *const fixtures[] = {"fixture_rank_model.ucz", "fixture_player_v1.ucz", "fixture_player_v2.ucz"};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        FILE *f = fopen(data_path(fixtures[i], path, sizeof path), "rb");
        CHECK(f != NULL, "%s", path);
        if (f) {
            compare_archive(fixtures[i], f, want, n);
            fclose(f);
        }
    }
    damaged(data_path("fixture_player_v2.ucz", path, sizeof path));
    /* A decompressor that decoded nothing has no game's tags to give. */
    uz_options o;
    uz_options_init(&o);
    uz_decompressor *dec = NULL;
    uz_game_tags g;
    uz_diag d = {0};
    CHECK(uz_decompressor_open(&dec, &o, &d) == UZ_OK);
    CHECK(uz_decompressor_game_tags(dec, &g, &d) == UZ_ERR_ARG);
    uz_decompressor_close(dec);
    CHECK(strcmp(uz_version(), UZ_VERSION_STRING) == 0);
    for (size_t i = 0; i < MAX_GAMES; i++)
        uz_game_clear(&want[i]);
    return test_finish();
}
