/* The experimental archive scan (include/ucizip_experimental.h, what `ucizip info` shows)
 * without an engine: on the fixture archives each member's counts agree with the members'
 * indexes read from the file's end (uz_archive_members), the moves with the main lines of
 * the PGN file the archives were made from, the byte split adds up to the member's size
 * and the members to the file's; every truncation gives an error, never a crash (run
 * under ASan+UBSan in CI). */
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

#include "../common/uz_test.h"
#include "pgn/pgn.h"

enum { MAX_MEMBERS = 8 };

static const char *data_path(const char *file, char *buf, size_t cap)
{
    const char *dir = getenv("UZ_TEST_DATA");
    snprintf(buf, cap, "%s/model/%s", dir ? dir : "tests/data", file);
    return buf;
}

/* The main-line plies of every game of the PGN file at path, as our reader reads them. */
static uint64_t pgn_plies(const char *path, uint64_t *games)
{
    FILE *f = fopen(path, "rb");
    uz_pgn_reader *r = f ? uz_pgn_reader_open(f, path) : NULL;
    uz_game g;
    uz_game_init(&g);
    uz_diag d = {0};
    uint64_t plies = 0;
    *games = 0;
    while (r && uz_pgn_read_game(r, &g, &d) == UZ_OK) {
        plies += g.main.n_nodes;
        ++*games;
    }
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
    if (f)
        fclose(f);
    return plies;
}

static uint64_t split_total(const uz_byte_counts *s)
{
    return s->moves + s->tags + s->clocks + s->engine_comments + s->comments + s->structure + s->overhead;
}

/* Scans the archive f and checks each member against the index's view of it. */
static void check_archive(const char *name, FILE *f, const char *model_kind, uint64_t want_games, uint64_t want_moves)
{
    uz_member_info index[MAX_MEMBERS];
    size_t n_index = 0;
    uz_diag d = {0};
    CHECK(uz_archive_members(f, name, index, MAX_MEMBERS, &n_index, &d) == UZ_OK, "%s: %s", name, d.message);
    rewind(f);
    uz_archive_scan *s = NULL;
    CHECK(uz_archive_scan_open(&s, f, name, &d) == UZ_OK);
    uz_member_summary m;
    size_t members = 0;
    uint64_t games = 0, moves = 0, bytes = 0;
    uz_result res;
    while ((res = uz_archive_scan_next(s, &m, &d)) == UZ_OK) {
        CHECK(members < n_index, "%s: more members than the index lists", name);
        if (members >= n_index)
            break;
        const uz_member_info *want = &index[members++];
        CHECK(m.games == want->games && m.moves == want->moves && m.bytes == want->length,
              "%s: member %zu: %llu games, %llu moves, %llu bytes; index: %llu, %llu, %llu", name, members,
              (unsigned long long)m.games, (unsigned long long)m.moves, (unsigned long long)m.bytes,
              (unsigned long long)want->games, (unsigned long long)want->moves, (unsigned long long)want->length);
        CHECK(strcmp(m.engine_name, want->engine) == 0 && strcmp(m.coder, want->coder) == 0, "%s: %s %s", name,
              m.engine_name, m.coder);
        CHECK(m.model && strcmp(m.model->kind, model_kind) == 0 && strcmp(m.model->text, want->model) == 0,
              "%s: model %s, index %s", name, m.model ? m.model->text : "(unknown)", want->model);
        CHECK(split_total(&m.split) == m.bytes && m.split.moves == m.move_bytes, "%s: split %llu of %llu bytes",
              name, (unsigned long long)split_total(&m.split), (unsigned long long)m.bytes);
        CHECK(m.fingerprint[0] && m.settings_summary[0] && (m.chess960_fingerprint[0] != 0) == want->chess960);
        games += m.games;
        moves += m.moves;
        bytes += m.bytes;
    }
    CHECK(res == UZ_DONE, "%s: %s", name, d.message);
    CHECK(members == n_index && games == want_games && moves == want_moves, "%s: %zu members, %llu games, %llu moves",
          name, members, (unsigned long long)games, (unsigned long long)moves);
    fseek(f, 0, SEEK_END);
    CHECK(bytes == (uint64_t)ftell(f) && uz_archive_scan_offset(s) == bytes, "%s: %llu bytes of members", name,
          (unsigned long long)bytes);
    uz_archive_scan_close(s);
}

/* Every truncation of the archive at path is refused. */
static void truncated(const char *path)
{
    FILE *f = fopen(path, "rb");
    static unsigned char buf[1 << 16];
    size_t len = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f)
        fclose(f);
    CHECK(len > 64 && len < sizeof buf, "%s: %zu bytes", path, len);
    size_t refused = 0;
    for (size_t cut = 0; cut < len; cut++) {
        FILE *t = fmemopen(buf, cut ? cut : 1, "rb");
        uz_archive_scan *s = NULL;
        uz_member_summary m;
        uz_diag d = {0};
        uz_result res = t && cut ? uz_archive_scan_open(&s, t, "<truncated>", &d) : UZ_ERR_IO;
        while (res == UZ_OK)
            res = uz_archive_scan_next(s, &m, &d);
        refused += res != UZ_DONE;
        uz_archive_scan_close(s);
        if (t)
            fclose(t);
    }
    CHECK(refused == len, "%s: %zu of %zu truncations refused", path, refused, len);
}

int main(void)
{
    char pgn[1024], path[1024];
    uint64_t games = 0;
    uint64_t plies = pgn_plies(data_path("fixture_rank.pgn", pgn, sizeof pgn), &games);
    CHECK(games == 3 && plies > 0, "fixture_rank.pgn: %llu games", (unsigned long long)games);
    static const struct {
        const char *file, *model;
    } fixtures[] = {{"fixture_rank_model.ucz", "rank"}, {"fixture_player_v1.ucz", "player"},
                    {"fixture_player_v2.ucz", "player"}};
    for (size_t i = 0; i < sizeof fixtures / sizeof fixtures[0]; i++) {
        FILE *f = fopen(data_path(fixtures[i].file, path, sizeof path), "rb");
        CHECK(f != NULL, "%s", path);
        if (f) {
            check_archive(fixtures[i].file, f, fixtures[i].model, games, plies);
            fclose(f);
        }
    }
    truncated(data_path("fixture_player_v2.ucz", path, sizeof path));
    return test_finish();
}
