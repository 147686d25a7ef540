/* Structure versions 4 and 5's coded records (doc/format.md, "Coded records"), without the
 * engine: every corpus file's games (of the two large TCEC files the first 16), in blocks of 256,
 * are written as structure streams in structure versions 3, 4 and 5 (each game given a
 * move-stream length and a CRC as a compressor would) and read back; the readings must be the
 * same games (tags, start positions, results, every node's NAGs, comments, variations and
 * annotation order, trailing comments, verbatim bytes, move-stream lengths), structure versions 4
 * and 5 keeping the low 2 bits of each CRC. On Lichess and master files the packed structure
 * stream must shrink and the records section must take at most 2 bytes a game (the target
 * for the whole per-game structure). Structure version 5's trained initial state and common text
 * records (record_prior5.inc) must make the structure of the small Lichess and master files (40
 * and 70 games, one block) smaller than version 4's, and their coded records at most SMALL_BOUND
 * bytes a game, which version 4's do not meet. Every byte of a Lichess block's coded records
 * changed, and the stream cut short, reads as a result or a clean UZ_ERR_CORRUPT, never a crash,
 * in both structure versions. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/packer.h"
#include "block/game_struct.h"
#include "common/buf.h"
#include "../common/uz_test.h"

enum { BLOCK = 256, TCEC_GAMES = 16 };

static const char *const FILES[] = {
    "cat1_chesscom_live_clk.pgn", "cat1_lichess_casual_humans_vs_ai_level5.pgn", "cat1_lichess_marathon_2025.pgn",
    "cat1_lichess_rated_blitz_rapid.pgn", "cat1_uscf_otb_club_annotated.pgn", "cat2_capablanca_crlf.pgn",
    "cat2_carlsen_chesscom_clk.pgn", "cat2_carlsen_lichess_accounts.pgn", "cat2_kasparov_career_crlf.pgn",
    "cat2_london_1851_crlf.pgn", "cat2_tata_steel_2022_masters.pgn", "cat3_sirius_cutechess_selfplay.pgn",
    "cat3_tcec_engine_games_full_comments.pgn", "cat4_handwritten_edge_cases.pgn",
    "cat4_handwritten_semicolon_comments.pgn", "cat4_pgn_extract_odds_mixed_latin1_utf8.pgn",
    "cat4_pgn_extract_testsuite.pgn", "cat4_pychess_lichess_studies.pgn", "cat4_pychess_mate_in_n_fen.pgn",
    "cat4_python_chess_immortal_games_crlf.pgn", "cat4_python_chess_testdata_misc.pgn",
    "cat4_python_chess_utf8_bom.pgn", "cat4_sirius_kbn_endgame_fen_no_blank_lines.pgn",
    "cat4_sirius_tagless_book_lines.pgn", "cat5_chess960_chesscom_humans_clk.pgn",
    "cat5_chess960_cutechess_python_chess.pgn", "cat5_chess960_tcec_double_frc.pgn", "cat5_chess960_tcec_frc.pgn"};
/* Small files: structure version 5's coded records (which say where each text record is, most of
 * them in none of the text section's bytes) must take at most SMALL_BOUND bytes a game there
 * (structure version 4: 2.23 and 2.36 without the text records; version 5: 1.88 and 2.16 with
 * them), and the packed structure stream less than version 4's. */
static const char *const SMALL[] = {"cat1_lichess_marathon_2025.pgn", "cat2_tata_steel_2022_masters.pgn"};
#define SMALL_BOUND 2.2
/* Files whose records must take at most 2 bytes a game, and whose stream must shrink. */
static const char *const TARGETS[] = {"cat1_lichess_rated_blitz_rapid.pgn", "cat2_kasparov_career_crlf.pgn",
                                      "cat1_lichess_casual_humans_vs_ai_level5.pgn",
                                      "cat2_carlsen_lichess_accounts.pgn"};

static bool same_line(const uz_line *a, const uz_line *b)
{
    if (a->n_nodes != b->n_nodes || a->n_pre_comments != b->n_pre_comments)
        return false;
    for (size_t i = 0; i < a->n_pre_comments; i++)
        if (strcmp(a->pre_comments[i], b->pre_comments[i]))
            return false;
    for (size_t i = 0; i < a->n_nodes; i++) {
        const uz_node *x = &a->nodes[i], *y = &b->nodes[i];
        if (x->move != y->move || x->n_nags != y->n_nags || x->n_comments != y->n_comments ||
            x->n_variations != y->n_variations || uz_node_order_is_plain(x) != uz_node_order_is_plain(y))
            return false;
        if (x->n_nags && memcmp(x->nags, y->nags, x->n_nags))
            return false;
        if (!uz_node_order_is_plain(x) && memcmp(x->order, y->order, x->n_nags + x->n_comments + x->n_variations))
            return false;
        for (size_t k = 0; k < x->n_comments; k++)
            if (strcmp(x->comments[k], y->comments[k]))
                return false;
        for (size_t k = 0; k < x->n_variations; k++)
            if (!same_line(&x->variations[k], &y->variations[k]))
                return false;
    }
    return true;
}

static bool same_game(const uz_block_game *a, const uz_block_game *b)
{
    const uz_game *x = &a->game, *y = &b->game;
    if (x->verbatim != y->verbatim || x->text_only != y->text_only || a->moves_len != b->moves_len)
        return false;
    if (x->verbatim || x->text_only)
        return x->raw_len == y->raw_len && memcmp(x->raw, y->raw, x->raw_len) == 0;
    char fa[UZ_FEN_MAX], fb[UZ_FEN_MAX];
    uz_position_to_fen(&x->start, fa);
    uz_position_to_fen(&y->start, fb);
    if (x->n_tags != y->n_tags || x->result != y->result || x->has_fen != y->has_fen || strcmp(fa, fb) ||
        x->start.chess960 != y->start.chess960 || x->n_trailing_comments != y->n_trailing_comments ||
        a->text_rec_len != b->text_rec_len || memcmp(a->text_rec, b->text_rec, a->text_rec_len))
        return false;
    for (size_t t = 0; t < x->n_tags; t++)
        if (strcmp(x->tags[t].name, y->tags[t].name) || strcmp(x->tags[t].value, y->tags[t].value))
            return false;
    for (size_t t = 0; t < x->n_trailing_comments; t++)
        if (strcmp(x->trailing_comments[t], y->trailing_comments[t]))
            return false;
    return same_line(&x->main, &y->main);
}

static uz_block_game *read_back(const uz_buf *s, unsigned version, size_t n, uz_result *r)
{
    uz_block_game *records = uz_block_games_new(n);
    uz_diag d = {0};
    *r = uz_block_struct_read(s->data, s->size, version, UZ_TAG_VERSION, 0, 0, records, n, NULL, &d);
    return records;
}

/* The size of section k of a structure stream (doc/format.md, "Structure stream"). */
static size_t section_size(const uz_buf *s, int k)
{
    uz_cursor c = {s->data, s->data + s->size};
    uint64_t size = 0;
    for (int i = 0; i <= k; i++)
        uz_cursor_varint(&c, &size);
    return (size_t)size;
}

/* The records section of a structure version 4 stream: where its coded part starts and its size. */
static size_t coded_records(const uz_buf *s, size_t *start)
{
    uz_cursor c = {s->data, s->data + s->size};
    uint64_t sizes[7], check_bits, code;
    for (int k = 0; k < 7; k++)
        uz_cursor_varint(&c, &sizes[k]);
    c.p += sizes[0];
    uz_cursor_varint(&c, &check_bits);
    uz_cursor_varint(&c, &code);
    *start = (size_t)(c.p - s->data);
    return (size_t)code;
}

/* Every byte of the coded records changed two ways, and the stream cut at each of them (under
 * UZ_TEST_SHORT every other byte, changed one way: test_damage_stride): a result or
 * UZ_ERR_CORRUPT, no crash; returns how many were refused. */
static size_t damage(const uz_buf *s, unsigned version, size_t n, size_t *tried)
{
    size_t start, len = coded_records(s, &start), refused = 0, bad_results = 0;
    uz_buf bad = {0};
    uz_buf_append(&bad, s->data, s->size);
    size_t stride = test_damage_stride(); /* (CI's sanitizer run: every other byte, one flip each, in turn) */
    for (size_t p = start; p < start + len; p += stride) {
        static const uint8_t flips[] = {0x01, 0x80};
        for (int f = 0; f < 2; f++) {
            if (stride > 1 && (p / stride + (size_t)f) % 2)
                continue;
            uz_result r;
            bad.data[p] ^= flips[f];
            uz_block_games_free(read_back(&bad, version, n, &r), n);
            bad.data[p] ^= flips[f];
            refused += r == UZ_ERR_CORRUPT;
            bad_results += r != UZ_OK && r != UZ_ERR_CORRUPT && r != UZ_ERR_LIMIT;
            ++*tried;
        }
        uz_result r;
        uz_buf cut = {bad.data, p, bad.cap};
        uz_block_games_free(read_back(&cut, version, n, &r), n);
        bad_results += r != UZ_ERR_CORRUPT;
    }
    CHECK(bad_results == 0, "%zu damaged streams gave another error than UZ_ERR_CORRUPT", bad_results);
    uz_buf_free(&bad);
    return refused;
}

static void check_file(const char *name, bool target, bool small, bool damage_first, size_t max_games)
{
    char path[4096];
    corpus_path(name, path);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "cannot open %s", path);
    if (!f)
        return;
    uz_pgn_reader *rd = uz_pgn_reader_open(f, path);
    uz_pgn_reader_keep_raw(rd, true);
    uz_game *games = calloc(BLOCK, sizeof *games);
    size_t total = 0, records4 = 0, records5 = 0, text5 = 0, packed3 = 0, packed4 = 0, packed5 = 0, blocks = 0;
    while (total < max_games) {
        size_t n = 0;
        for (uz_diag d = {0}; n < BLOCK && total + n < max_games; n++) {
            uz_game_init(&games[n]);
            if (uz_pgn_read_game(rd, &games[n], &d) != UZ_OK) {
                uz_game_clear(&games[n]);
                break;
            }
        }
        if (n == 0)
            break;
        uz_block_out_game *recs = NULL;
        CHECK(uz_block_out_games_new(&recs, games, n, NULL) == UZ_OK, "%s: records", name);
        /* As a compressor would: a move-stream length of about 3 bits a ply. */
        for (size_t i = 0; recs && i < n; i++)
            recs[i].moves_len = recs[i].walk.n_steps ? (recs[i].walk.n_steps * 3 + i % 7) / 8 : 0;
        uz_buf s3 = {0}, s4 = {0}, s5 = {0}, z = {0};
        unsigned method;
        CHECK(recs && uz_block_struct_write(&s3, 3, UZ_TAG_VERSION, 0, 0, recs, n) == UZ_OK &&
                  uz_block_struct_write(&s4, 4, UZ_TAG_VERSION, 0, 0, recs, n) == UZ_OK &&
                  uz_block_struct_write(&s5, 5, UZ_TAG_VERSION, 0, 0, recs, n) == UZ_OK,
              "%s: block %zu not written", name, blocks + 1);
        uz_result r3, r4, r5;
        uz_block_game *back3 = read_back(&s3, 3, n, &r3), *back4 = read_back(&s4, 4, n, &r4),
                      *back5 = read_back(&s5, 5, n, &r5);
        CHECK(r3 == UZ_OK && r4 == UZ_OK && r5 == UZ_OK, "%s: block %zu not read (%d, %d, %d)", name, blocks + 1, r3,
              r4, r5);
        for (size_t i = 0; i < n && r3 == UZ_OK && r4 == UZ_OK && r5 == UZ_OK; i++) {
            CHECK(same_game(&back3[i], &back4[i]), "%s: game %zu differs in structure version 4", name, total + i + 1);
            CHECK(same_game(&back3[i], &back5[i]), "%s: game %zu differs in structure version 5", name, total + i + 1);
            bool tree = !recs[i].game->verbatim && !recs[i].game->text_only;
            for (int v = 0; v < 2; v++) {
                const uz_block_game *b = v ? &back5[i] : &back4[i];
                CHECK(back3[i].crc == recs[i].crc && b->crc_mask == (tree ? 3u : 0u) && b->crc == (recs[i].crc & b->crc_mask),
                      "%s: game %zu: check %08x/%08x, crc %08x", name, total + i + 1, b->crc, b->crc_mask, recs[i].crc);
            }
        }
        size_t start;
        records4 += coded_records(&s4, &start);
        records5 += coded_records(&s5, &start);
        text5 += section_size(&s5, 4);
        /* Packing is what costs here (LZMA2 9e and zstd 19 over megabytes of engine
         * comments): only the files with a size target are packed. */
        if (small) {
            CHECK(uz__pack(s5.data, s5.size, &z, &method) == UZ_OK);
            packed5 += z.size;
            z.size = 0;
        }
        if (target || small) {
            CHECK(uz__pack(s3.data, s3.size, &z, &method) == UZ_OK);
            packed3 += z.size;
            z.size = 0;
            CHECK(uz__pack(s4.data, s4.size, &z, &method) == UZ_OK);
            packed4 += z.size;
        }
        for (unsigned v = 4; damage_first && blocks == 0 && v <= 5; v++) {
            size_t tried = 0, refused = damage(v == 4 ? &s4 : &s5, v, n, &tried);
            printf("%s: %zu of %zu damaged coded records of structure version %u refused by the structure reader alone\n",
                   name, refused, tried, v);
            CHECK(refused * 2 > tried, "%s: only %zu of %zu damaged coded records refused", name, refused, tried);
        }
        uz_block_games_free(back3, n);
        uz_block_games_free(back4, n);
        uz_block_games_free(back5, n);
        uz_block_out_games_free(recs, n);
        uz_buf_free(&s3);
        uz_buf_free(&s4);
        uz_buf_free(&s5);
        uz_buf_free(&z);
        for (size_t i = 0; i < n; i++)
            uz_game_clear(&games[i]);
        total += n;
        blocks++;
    }
    double g = total ? (double)total : 1.0;
    printf("%-48s %5zu games: coded records %.2f bytes a game in structure version 4, %.2f in 5 (and %.2f of text "
           "records)\n", name, total, (double)records4 / g, (double)records5 / g, (double)text5 / g);
    if (small) {
        printf("%-48s structure packed %7zu bytes in version 4, %7zu in 5\n", name, packed4, packed5);
        CHECK(packed5 < packed4, "%s: structure version 5 packs to %zu bytes, version 4 to %zu", name, packed5, packed4);
        CHECK((double)records5 <= SMALL_BOUND * g, "%s: coded records %.2f bytes a game in structure version 5", name,
              (double)records5 / g);
    }
    if (target) {
        printf("%-48s structure packed %7zu bytes in version 3, %7zu in 4\n", name, packed3, packed4);
        CHECK(packed4 < packed3, "%s: structure version 4 packs to %zu bytes, version 3 to %zu", name, packed4, packed3);
        CHECK(records4 <= 2 * total, "%s: coded records %zu bytes for %zu games", name, records4, total);
    }
    free(games);
    uz_pgn_reader_close(rd);
    fclose(f);
}

int main(void)
{
    char path[4096];
    corpus_path(FILES[0], path); /* (skips the test without the corpus) */
    for (size_t i = 0; i < sizeof FILES / sizeof *FILES; i++) {
        /* The two large TCEC files: their engine comments (each variation move ranked by the
         * built-in oracle, test_engine_code's subject) took most of the time, so the plain
         * run reads their first TCEC_GAMES games and UZ_TEST_SHORT (CI's sanitizer run) none. */
        bool tcec = strcmp(FILES[i], "cat3_tcec_engine_games_full_comments.pgn") == 0 ||
                    strcmp(FILES[i], "cat5_chess960_tcec_frc.pgn") == 0;
        if (tcec && getenv("UZ_TEST_SHORT"))
            continue;
        bool target = false;
        for (size_t k = 0; k < sizeof TARGETS / sizeof *TARGETS; k++)
            target |= strcmp(FILES[i], TARGETS[k]) == 0;
        bool small = false;
        for (size_t k = 0; k < sizeof SMALL / sizeof *SMALL; k++)
            small |= strcmp(FILES[i], SMALL[k]) == 0;
        check_file(FILES[i], target, small, strcmp(FILES[i], "cat1_lichess_marathon_2025.pgn") == 0,
                   tcec ? TCEC_GAMES : SIZE_MAX);
    }
    return test_finish();
}
