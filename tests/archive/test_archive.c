/* Archive round trips through the public interface (ucizip.h only) with the real
 * Stockfish at depth 1, judged by byte identity with the input: corpus games, both
 * coders, Chess960; every awkward-syntax file of the corpus with the built-in oracle
 * (their subject is the text, not the engine: the whole-corpus run of .ci/run codes them
 * with Stockfish); reproducible bytes across compressors; concatenated archives, members
 * and random access; a mismatching engine refused; every byte flipped and every
 * truncation of a small archive rejected or harmless. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "ucizip.h"

typedef struct bytes {
    char *data;
    size_t size;
} bytes;

static bytes read_file(const char *path)
{
    bytes b = {0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return b;
    FILE *mem = open_memstream(&b.data, &b.size);
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, mem);
    fclose(mem);
    fclose(f);
    return b;
}

static void options(uz_options *o, const char *model, const char *coder)
{
    uz_options_init(o);
    o->depth = 1;
    o->workers = 2;
    o->model = model;
    o->coder = coder;
}

/* Compresses text (up to max_games games, 0: all) with a compressor opened on o. */
static uz_result compress_text(const uz_options *o, const bytes *text, const char *name, bytes *archive,
                               uz_compress_stats *st)
{
    uz_compressor *c = NULL;
    uz_diag d = {0};
    FILE *mem = open_memstream(&archive->data, &archive->size);
    uz_result r = uz_compressor_open(&c, o, &d);
    if (r == UZ_OK)
        r = uz_compressor_begin(c, mem, &d);
    if (r == UZ_OK)
        r = uz_compressor_add_text(c, text->data, text->size, name, &d);
    if (r == UZ_OK)
        r = uz_compressor_finish(c, &d);
    if (r == UZ_OK && st)
        uz_compressor_stats(c, st);
    if (r != UZ_OK)
        fprintf(stderr, "compress %s: %s\n", name, d.message);
    uz_compressor_close(c);
    fclose(mem);
    return r;
}

/* Decodes an archive held in memory; *text receives what it decodes to. */
static uz_result decompress_bytes(uz_decompressor *dec, const bytes *archive, bytes *text, uint64_t *games,
                                  uz_diag *d)
{
    FILE *in = fmemopen(archive->data, archive->size ? archive->size : 1, "rb");
    FILE *out = open_memstream(&text->data, &text->size);
    uz_result r = uz_decompressor_decode(dec, in, "mem.ucz", out, games, d);
    fclose(out);
    fclose(in);
    return r;
}

static bool same(const bytes *a, const char *b, size_t b_size)
{
    return a->size == b_size && memcmp(a->data, b, b_size) == 0;
}

static const char *const awkward_files[] = {
    "cat4_handwritten_edge_cases.pgn",
    "cat4_handwritten_semicolon_comments.pgn",
    "cat4_pgn_extract_odds_mixed_latin1_utf8.pgn",
    "cat4_pgn_extract_testsuite.pgn",
    "cat4_pychess_lichess_studies.pgn",
    "cat4_pychess_mate_in_n_fen.pgn",
    "cat4_python_chess_immortal_games_crlf.pgn",
    "cat4_python_chess_testdata_misc.pgn",
    "cat4_python_chess_utf8_bom.pgn",
    "cat4_sirius_kbn_endgame_fen_no_blank_lines.pgn",
    "cat4_sirius_tagless_book_lines.pgn",
};

/* A few games of each other kind: online, club (annotated), master, engine. */
static const char *const sampled_files[] = {
    "cat1_chesscom_live_clk.pgn",      "cat1_uscf_otb_club_annotated.pgn", "cat2_kasparov_career_crlf.pgn",
    "cat2_tata_steel_2022_masters.pgn", "cat3_sirius_cutechess_selfplay.pgn", "cat3_tcec_engine_games_full_comments.pgn",
};

/* One file through compress and decompress: the exact bytes back (a prefix of the file
 * with max_games). engine: NULL (Stockfish) or "builtin". */
static void round_trip_file(uz_decompressor *dec, const char *file, uint64_t max_games, const char *model,
                            const char *coder, const char *engine)
{
    char path[4096];
    bytes in = read_file(corpus_path(file, path));
    uz_options o;
    options(&o, model, coder);
    o.max_games = max_games;
    o.engine = engine;
    bytes archive = {0}, out = {0};
    uz_compress_stats st = {0};
    uz_diag d = {0};
    CHECK(compress_text(&o, &in, file, &archive, &st) == UZ_OK, "%s: compress", file);
    uint64_t games = 0;
    CHECK(decompress_bytes(dec, &archive, &out, &games, &d) == UZ_OK, "%s: decompress: %s", file, d.message);
    CHECK(games == st.games && (max_games == 0 || games == max_games), "%s: %llu games back of %llu", file,
          (unsigned long long)games, (unsigned long long)st.games);
    if (max_games == 0)
        CHECK(same(&out, in.data, in.size), "%s (%s, %s): not the input's bytes", file, model, coder);
    else
        CHECK(out.size > 0 && out.size <= in.size && memcmp(out.data, in.data, out.size) == 0,
              "%s (%s, %s): not the first %llu games' bytes", file, model, coder, (unsigned long long)max_games);
    free(in.data);
    free(archive.data);
    free(out.data);
}

static void test_corpus_round_trip(uz_decompressor *dec)
{
    for (size_t i = 0; i < sizeof awkward_files / sizeof *awkward_files; i++) {
        round_trip_file(dec, awkward_files[i], 0, "player", "range", "builtin");
        round_trip_file(dec, awkward_files[i], 0, "rank", "huffman", "builtin");
    }
    /* (Stockfish: 3 games under UZ_TEST_SHORT, CI's sanitizer run) */
    uint64_t sampled_games = getenv("UZ_TEST_SHORT") ? 3 : 6;
    for (size_t i = 0; i < sizeof sampled_files / sizeof *sampled_files; i++)
        round_trip_file(dec, sampled_files[i], sampled_games, "player", "range", NULL);
}

/* The corpus's Chess960 files, coded with the engine in Chess960 mode: both castling sides,
 * X-FEN and Shredder-FEN starts; the member says so. The first 12 games of each file (all of
 * the two small ones; both castling sides in each; CI's corpus stage round-trips every game), 2
 * under UZ_TEST_SHORT (CI's sanitizer run). */
static void test_chess960_round_trip(uz_decompressor *dec)
{
    const uint64_t max_games = getenv("UZ_TEST_SHORT") ? 2 : 12;
    static const char *const files[] = {
        "cat5_chess960_chesscom_humans_clk.pgn", "cat5_chess960_cutechess_python_chess.pgn",
        "cat5_chess960_tcec_double_frc.pgn", "cat5_chess960_tcec_frc.pgn"};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        char path[4096];
        bytes in = read_file(corpus_path(files[i], path)), archive = {0}, out = {0};
        uz_options o;
        options(&o, NULL, NULL);
        o.max_games = max_games;
        uz_compress_stats st = {0};
        CHECK(compress_text(&o, &in, files[i], &archive, &st) == UZ_OK, "%s: compress", files[i]);
        CHECK(st.games > 0 && st.games_as_text == 0 && st.moves > 0, "%s: %llu games, %llu as text", files[i],
              (unsigned long long)st.games, (unsigned long long)st.games_as_text);
        FILE *f = fmemopen(archive.data, archive.size, "rb");
        uz_member_info m;
        size_t n = 0;
        uz_diag d = {0};
        CHECK(uz_archive_members(f, files[i], &m, 1, &n, &d) == UZ_OK && n == 1 && m.chess960,
              "%s: one member, coded in Chess960 mode", files[i]);
        fclose(f);
        uint64_t games = 0;
        CHECK(decompress_bytes(dec, &archive, &out, &games, &d) == UZ_OK, "%s: decompress: %s", files[i], d.message);
        if (max_games == 0)
            CHECK(same(&out, in.data, in.size), "%s: not the input's bytes", files[i]);
        else
            CHECK(games == st.games && out.size > 0 && out.size <= in.size && memcmp(out.data, in.data, out.size) == 0,
                  "%s: not the first %llu games' bytes", files[i], (unsigned long long)max_games);
        free(in.data);
        free(archive.data);
        free(out.data);
    }
}

/* The texts of the games of an archive, one by one. */
static size_t game_texts(uz_decompressor *dec, const bytes *archive, bytes *texts, size_t cap)
{
    FILE *in = fmemopen(archive->data, archive->size, "rb");
    uz_diag d = {0};
    size_t n = 0;
    const char *text;
    size_t len;
    CHECK(uz_decompressor_begin(dec, in, "mem.ucz", &d) == UZ_OK, "begin: %s", d.message);
    uz_result r;
    while (n < cap && (r = uz_decompressor_next_game(dec, &text, &len, &d)) == UZ_OK) {
        texts[n].data = malloc(len + 1);
        memcpy(texts[n].data, text, len);
        texts[n++].size = len;
    }
    fclose(in);
    return n;
}

static void test_reproducible_and_concatenated(uz_decompressor *dec)
{
    char path[4096];
    bytes a_in = read_file(corpus_path("cat1_lichess_marathon_2025.pgn", path));
    bytes b_in = read_file(corpus_path("cat2_capablanca_crlf.pgn", path));
    bytes a[2] = {{0}, {0}}, b = {0};
    uz_options o;
    /* Two compressors are two separate sets of engine processes. */
    for (int run = 0; run < 2; run++) {
        options(&o, NULL, NULL);
        o.max_games = 5;
        CHECK(compress_text(&o, &a_in, "a", &a[run], NULL) == UZ_OK, "compress a");
    }
    CHECK(a[0].size == a[1].size && memcmp(a[0].data, a[1].data, a[0].size) == 0, "two runs gave different archives");
    options(&o, "rank", "huffman");
    o.max_games = 4;
    CHECK(compress_text(&o, &b_in, "b", &b, NULL) == UZ_OK, "compress b");

    /* a.ucz followed by b.ucz is one archive with the games of both. */
    bytes cat = {malloc(a[0].size + b.size), a[0].size + b.size}, out = {0}, a_out = {0}, b_out = {0};
    memcpy(cat.data, a[0].data, a[0].size);
    memcpy(cat.data + a[0].size, b.data, b.size);
    uint64_t games = 0;
    uz_diag d = {0};
    CHECK(decompress_bytes(dec, &a[0], &a_out, &games, &d) == UZ_OK && games == 5, "a: %s", d.message);
    CHECK(decompress_bytes(dec, &b, &b_out, &games, &d) == UZ_OK && games == 4, "b: %s", d.message);
    CHECK(decompress_bytes(dec, &cat, &out, &games, &d) == UZ_OK && games == 9, "concatenated: %s", d.message);
    CHECK(out.size == a_out.size + b_out.size && memcmp(out.data, a_out.data, a_out.size) == 0 &&
              memcmp(out.data + a_out.size, b_out.data, b_out.size) == 0,
          "concatenated archive: not the games of both");

    /* Game by game, and by number into the second member. */
    bytes texts[16];
    size_t n = game_texts(dec, &cat, texts, 16);
    size_t total = 0;
    for (size_t i = 0; i < n; i++)
        total += texts[i].size;
    CHECK(n == 9 && total == out.size, "next_game: %zu games, %zu bytes", n, total);
    FILE *f = fmemopen(cat.data, cat.size, "rb");
    const char *text;
    size_t len;
    CHECK(uz_decompressor_game(dec, f, "cat", 7, &text, &len, &d) == UZ_OK, "game 7: %s", d.message);
    CHECK(n == 9 && same(&texts[6], text, len), "game 7 by number differs from game 7 in order");
    CHECK(uz_decompressor_game(dec, f, "cat", 10, &text, &len, &d) == UZ_ERR_ARG, "no game 10");
    uz_member_info members[4];
    size_t n_members = 0;
    CHECK(uz_archive_members(f, "cat", members, 4, &n_members, &d) == UZ_OK && n_members == 2 &&
              members[0].games == 5 && members[1].games == 4 && strcmp(members[1].coder, "huffman") == 0 &&
              strncmp(members[1].model, "rank", 4) == 0 && strstr(members[0].engine, "Stockfish"),
          "members listed: %zu", n_members);
    rewind(f);
    CHECK(uz_archive_check(f, "cat", &d) == UZ_OK, "check: %s", d.message);
    fclose(f);
    for (size_t i = 0; i < n; i++)
        free(texts[i].data);
    free(cat.data);
    free(out.data);
    free(a_out.data);
    free(b_out.data);
    free(a[0].data);
    free(a[1].data);
    free(b.data);
    free(a_in.data);
    free(b_in.data);
}

/* An archive decoded with another engine is refused before anything is decoded. */
static void test_mismatch(void)
{
    char path[4096];
    bytes in = read_file(corpus_path("cat4_handwritten_edge_cases.pgn", path)), archive = {0}, out = {0};
    uz_options o;
    options(&o, NULL, NULL);
    o.max_games = 2;
    CHECK(compress_text(&o, &in, "edge", &archive, NULL) == UZ_OK, "compress");
    uz_options_init(&o);
    o.engine = "ethereal";
    uz_decompressor *dec = NULL;
    uz_diag d = {0};
    CHECK(uz_decompressor_open(&dec, &o, &d) == UZ_OK, "open: %s", d.message);
    uint64_t games = 0;
    uz_result r = decompress_bytes(dec, &archive, &out, &games, &d);
    CHECK(r == UZ_ERR_MISMATCH, "ethereal accepted: %d %s", r, d.message);
    /* (the settings are the profile's defaults, not stored in the archive: named from what
     * the engine store recorded when the archive was made, or else from the profile) */
    CHECK(strstr(d.message, "Stockfish 15.1") && strstr(d.message, "depth 1") &&
              (strstr(d.message, "engine store recorded") || strstr(d.message, "profile")),
          "message names the engine and its settings: %s", d.message);
    CHECK(out.size == 0 && games == 0, "nothing decoded");
    uz_decompressor_close(dec);

    /* Options of a version the library does not know are refused. */
    o.version = UZ_OPTIONS_VERSION + 1;
    CHECK(uz_decompressor_open(&dec, &o, &d) == UZ_ERR_ARG && dec == NULL, "unknown options version accepted");
    free(in.data);
    free(archive.data);
    free(out.data);
}

/* Every single-byte change and every truncation of a small archive is either rejected
 * or (never, in practice) decodes to exactly the same bytes. */
static void test_damage(uz_decompressor *dec)
{
    char path[4096];
    bytes in = read_file(corpus_path("cat4_handwritten_edge_cases.pgn", path)), archive = {0}, good = {0};
    uz_options o;
    options(&o, NULL, NULL);
    o.max_games = 3;
    CHECK(compress_text(&o, &in, "edge", &archive, NULL) == UZ_OK, "compress");
    uint64_t games;
    uz_diag d = {0};
    CHECK(decompress_bytes(dec, &archive, &good, &games, &d) == UZ_OK, "clean decode");
    bytes copy = {malloc(archive.size), 0};
    long rejected = 0, harmless = 0;
    for (size_t pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < archive.size; i++) {
            memcpy(copy.data, archive.data, archive.size);
            copy.size = archive.size;
            if (pass == 0)
                copy.data[i] ^= 0x01;
            else if (pass == 1)
                copy.data[i] ^= (char)0xFF;
            else
                copy.size = i; /* truncated to i bytes */
            bytes text = {0};
            uz_result r = decompress_bytes(dec, &copy, &text, &games, &d);
            if (r == UZ_OK) {
                CHECK(same(&text, good.data, good.size), "pass %zu byte %zu: damaged archive decoded to other bytes",
                      pass, i);
                harmless++;
            } else {
                CHECK(r == UZ_ERR_CORRUPT || r == UZ_ERR_UNSUPPORTED, "pass %zu byte %zu: unexpected error %d: %s",
                      pass, i, r, d.message);
                CHECK(d.message[0] != 0, "error without a message");
                rejected++;
            }
            free(text.data);
        }
    }
    printf("damage: %zu-byte archive, %ld damaged copies rejected, %ld decoded identically\n", archive.size, rejected,
           harmless);
    free(copy.data);
    free(good.data);
    free(archive.data);
    free(in.data);
}

int main(void)
{
    uz_options o;
    uz_options_init(&o);
    o.workers = 2;
    uz_decompressor *dec = NULL;
    uz_diag d = {0};
    if (uz_decompressor_open(&dec, &o, &d) != UZ_OK) {
        fprintf(stderr, "decompressor: %s\n", d.message);
        return 1;
    }
    test_corpus_round_trip(dec);
    test_chess960_round_trip(dec);
    test_reproducible_and_concatenated(dec);
    test_mismatch();
    test_damage(dec);
    uz_decompressor_close(dec);
    return test_finish();
}
