/* Exact text of every game of PGN files through the archive's text records, without the
 * engine: each game read with its exact bytes, its text record encoded (layout + patch)
 * from the game's walk, decoded against the tree, and compared byte for byte with the
 * input; the walk's rendering (no board) is the replaying renderer's, byte for byte, in
 * the export layout and in the game's own. Also prints what the layout costs per file
 * (records raw and zstd-compressed, against the file). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "block/game_text.h"
#include "../common/uz_test.h"

/* Whether the game renders the same from its walk as by replaying it, with layout. */
static bool same_rendering(const uz_walk *w, const uz_pgn_layout *layout)
{
    char *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    bool same = uz_pgn_walk_render(w, layout, &a, &la) == UZ_OK && uz_pgn_game_render(w->game, layout, &b, &lb) == UZ_OK &&
                la == lb && memcmp(a, b, la) == 0;
    free(a);
    free(b);
    return same;
}

/* uz_game_text_encode of g from its walk; checks the walk's renderings on the way. */
static uz_result encode_record(uz_game *g, uz_pgn_layout *prev, bool *have_prev, uz_buf *records, const char *path,
                               size_t number)
{
    uz_walk w;
    uz_result e = uz_walk_init(&w, g);
    if (e == UZ_OK)
        e = uz_walk_resolve_all(&w);
    if (e == UZ_OK)
        e = uz_walk_fill_san(&w);
    CHECK(e == UZ_OK, "%s: game %zu: walk (%d)", path, number, (int)e);
    if (e == UZ_OK) {
        CHECK(same_rendering(&w, &uz_pgn_layout_export), "%s: game %zu: the walk renders it otherwise", path, number);
        e = uz_game_text_encode(&w, prev, have_prev, records);
        if (e == UZ_OK)
            CHECK(same_rendering(&w, prev), "%s: game %zu: the walk renders its layout otherwise", path, number);
    }
    uz_walk_free(&w);
    return e;
}

static void check_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    uz_pgn_reader *r = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(r, true);
    uz_game g;
    uz_game_init(&g);
    uz_buf records = {0}, text = {0}, all = {0};
    uz_pgn_layout prev;
    bool have_prev = false;
    size_t games = 0, exact = 0, as_text = 0, bytes = 0;
    int shown = 0;
    for (;;) {
        uz_diag d = {0};
        uz_result rc = uz_pgn_read_game(r, &g, &d);
        if (g.raw)
            uz_buf_append(&all, g.raw, g.raw_len);
        bytes += g.raw_len;
        if (rc == UZ_DONE)
            break;
        if (rc != UZ_OK) {
            as_text++;
            continue;
        }
        games++;
        size_t before = records.size;
        uz_result e = encode_record(&g, &prev, &have_prev, &records, path, games);
        if (e == UZ_ERR_LIMIT) {
            as_text++;
            continue;
        }
        CHECK(e == UZ_OK, "%s: game %zu: text record not made (%d)", path, games, (int)e);
        if (e != UZ_OK)
            continue;
        /* The layout's five varints, then a patch of no operations: rendered exactly. */
        uz_cursor c = {records.data + before, records.data + records.size};
        uint64_t v[6] = {0};
        for (int k = 0; k < 6; k++)
            uz_cursor_varint(&c, &v[k]);
        bool same = v[5] == 0 && c.p == c.end;
        exact += same;
        if (!same && getenv("UZ_LAYOUT_DEBUG") && shown++ < atoi(getenv("UZ_LAYOUT_DEBUG"))) {
            uz_pgn_layout l = {(uint8_t)v[0], (uint16_t)v[1], (uint16_t)v[2], (uint8_t)v[3], (uint8_t)v[4]};
            char *t;
            size_t len, k = 0;
            uz_pgn_game_render(&g, &l, &t, &len);
            while (k < len && k < g.raw_len && t[k] == g.raw[k])
                k++;
            size_t from = k > 80 ? k - 80 : 0;
            fprintf(stderr, "--- %s game %zu: layout eol %u flags %u wrap %u gap %u end %u; first difference at %zu\n"
                    "rendered: [%.*s]\nraw:      [%.*s]\n", path, games, l.eol, l.flags, l.wrap, l.tag_gap,
                    l.end_eols, k, (int)((len < k + 60 ? len : k + 60) - from), t + from,
                    (int)((g.raw_len < k + 60 ? g.raw_len : k + 60) - from), g.raw + from);
            free(t);
        }
        uz_walk w; /* a walk of its own, as the decoder makes */
        uz_result dr = uz_walk_init(&w, &g);
        if (dr == UZ_OK && (dr = uz_walk_resolve_all(&w)) == UZ_OK && (dr = uz_walk_fill_san(&w)) == UZ_OK)
            dr = uz_game_text_decode(&w, records.data + before, records.size - before, 1 << 26, &text);
        uz_walk_free(&w);
        CHECK(dr == UZ_OK && text.size == g.raw_len && memcmp(text.data, g.raw, g.raw_len) == 0, "%s: game %zu", path, games);
    }
    /* The spans of all games and the tail are the whole file. */
    fseek(f, 0, SEEK_END);
    CHECK((long)bytes == ftell(f), "%s: the games' spans (%zu bytes) are not the whole file (%ld)", path, bytes, ftell(f));
    size_t bound = ZSTD_compressBound(records.size);
    void *z = malloc(bound);
    size_t zsize = ZSTD_compress(z, bound, records.data, records.size, 19);
    printf("%-50s %5zu games: %5zu rendered exactly, %3zu kept as text; layout records %7zu bytes, zstd %6zu "
           "(%.2f%% of the file)\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, games, exact, as_text, records.size, zsize,
           100.0 * (double)zsize / (double)(bytes ? bytes : 1));
    free(z);
    uz_buf_free(&records);
    uz_buf_free(&text);
    uz_buf_free(&all);
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
    fclose(f);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every .pgn file of a directory, in name order. */
static void check_dir(const char *dir)
{
    DIR *d = opendir(dir);
    CHECK(d != NULL, "cannot open %s", dir);
    if (!d)
        return;
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 512) {
        size_t len = strlen(e->d_name);
        if (len > 4 && strcmp(e->d_name + len - 4, ".pgn") == 0) {
            names[n] = malloc(strlen(dir) + len + 2);
            sprintf(names[n++], "%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t i = 0; i < n; i++) {
        check_file(names[i]);
        free(names[i]);
    }
}

/* With arguments: those files. Without: the synthetic layout files of tests/data, the
 * shared corpus and samples. */
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        check_file(argv[i]);
    if (argc > 1)
        return test_finish();
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/pgn/layout", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_dir(buf);
    char *slash = strrchr(corpus_path("README.md", buf), '/');
    *slash = 0;
    check_dir(buf);
    slash = strrchr(samples_path("README.md", buf), '/');
    *slash = 0;
    check_dir(buf);
    return test_finish();
}
