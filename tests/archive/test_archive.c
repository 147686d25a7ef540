/* Archive round trips with the real Stockfish at depth 1: corpus games (every
 * awkward-syntax file included) compressed and decompressed game by game; reproducible
 * bytes across processes; concatenated archives; a mismatching engine refused; every
 * byte flipped and every truncation of a small archive rejected or harmless. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "ucizip/blockcode.h"

#define BLOCK 64

typedef struct game_list {
    uz_game *games;
    size_t n, cap;
} game_list;

static void list_free(game_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        uz_game_clear(&l->games[i]);
    free(l->games);
    memset(l, 0, sizeof *l);
}

/* Reads up to max games of a file (all with max 0) into l; returns how many. */
static size_t read_games(const char *path, size_t max, game_list *l)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    uz_pgn_reader *r = uz_pgn_reader_open(f, path);
    size_t got = 0;
    while (max == 0 || got < max) {
        if (l->n == l->cap) {
            l->cap = l->cap ? 2 * l->cap : 256;
            l->games = realloc(l->games, l->cap * sizeof *l->games);
        }
        uz_game *g = &l->games[l->n];
        uz_game_init(g);
        uz_diag d = {0};
        uz_result res = uz_pgn_read_game(r, g, &d);
        if (res == UZ_DONE) {
            uz_game_clear(g);
            break;
        }
        CHECK(res == UZ_OK, "%s: game %ld: %s", path, d.game, d.message);
        if (res != UZ_OK) {
            uz_game_clear(g);
            continue;
        }
        l->n++;
        got++;
    }
    uz_pgn_reader_close(r);
    fclose(f);
    return got;
}

/* Compresses games into a malloc'd archive; Chess960 games with pool960 (NULL: none). */
static uz_result compress_games(uz_pool *pool, uz_pool *pool960, uz_game *games, size_t n, uz_coder_kind coder,
                                uint8_t **data, size_t *size)
{
    uz_model_params params = uz_model_default_params();
    uz_model model;
    uz_model_init(&model, &params);
    uz_encoder *enc = NULL;
    uz_encoder_create(&enc, coder);
    FILE *mem = open_memstream((char **)data, size);
    uz_archive_header header;
    uz_header_fill(&header, pool, &params, coder, BLOCK);
    if (pool960)
        snprintf(header.chess960_fingerprint, sizeof header.chess960_fingerprint, "%s", uz_pool_fingerprint(pool960));
    uz_archive_writer *w = NULL;
    uz_diag d = {0};
    uz_result r = uz_archive_writer_open(&w, mem, &header, &d);
    for (size_t i = 0; r == UZ_OK && i < n; i += BLOCK) {
        size_t k = n - i < BLOCK ? n - i : BLOCK;
        uz_buf structure = {0}, moves = {0};
        uint64_t n_moves, digest;
        r = uz_block_encode(pool, pool960, &model, enc, games + i, k, &structure, &moves, &n_moves, &digest, &d);
        if (r == UZ_OK)
            r = uz_archive_write_block(w, k, n_moves, digest, &structure, moves.data, moves.size, &d);
        uz_buf_free(&structure);
        uz_buf_free(&moves);
    }
    if (r == UZ_OK)
        r = uz_archive_writer_finish(w, &d);
    else
        uz_archive_writer_abort(w);
    if (r != UZ_OK)
        fprintf(stderr, "compress: %s\n", d.message);
    fclose(mem);
    uz_encoder_destroy(enc);
    return r;
}

/* Decodes an archive held in memory to PGN text (malloc'd). */
static uz_result decompress_bytes(uz_member_decoder *md, const uz_engine_settings *base, const uint8_t *data,
                                  size_t size, char **text, size_t *text_size, uint64_t *games, uz_diag *d)
{
    FILE *in = fmemopen((void *)data, size, "rb");
    FILE *out = open_memstream(text, text_size);
    uz_result r = uz_archive_decode(in, "mem.ucz", out, false, md, base, 2, NULL, NULL, games, d);
    fclose(out);
    fclose(in);
    return r;
}

/* The games of PGN text, compared one by one with expected. */
static void check_same_games(const char *what, const char *text, size_t size, const uz_game *expected, size_t n)
{
    FILE *f = fmemopen((void *)text, size ? size : 1, "rb");
    uz_pgn_reader *r = uz_pgn_reader_open(f, what);
    uz_game g;
    uz_game_init(&g);
    size_t i = 0, mismatches = 0;
    uz_diag d = {0};
    while (size && uz_pgn_read_game(r, &g, &d) == UZ_OK) {
        if (i < n && !uz_game_equal(&g, &expected[i]) && mismatches++ < 5)
            CHECK(0, "%s: game %zu differs after the round trip", what, i + 1);
        i++;
    }
    CHECK(i == n, "%s: %zu games back, expected %zu", what, i, n);
    CHECK(mismatches == 0, "%s: %zu games differ", what, mismatches);
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
    fclose(f);
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

static void test_corpus_round_trip(uz_pool *pool, uz_member_decoder *md, const uz_engine_settings *base)
{
    char path[4096];
    game_list all = {0};
    for (size_t i = 0; i < sizeof awkward_files / sizeof *awkward_files; i++)
        read_games(corpus_path(awkward_files[i], path), 0, &all);
    for (size_t i = 0; i < sizeof sampled_files / sizeof *sampled_files; i++)
        read_games(corpus_path(sampled_files[i], path), 6, &all);
    printf("round trip of %zu corpus games\n", all.n);
    for (int coder = UZ_CODER_HUFFMAN; coder <= UZ_CODER_RANGE; coder++) {
        uint8_t *data = NULL;
        size_t size = 0;
        uz_result r = compress_games(pool, NULL, all.games, all.n, (uz_coder_kind)coder, &data, &size);
        CHECK(r == UZ_OK, "compress with coder %d", coder);
        char *text = NULL;
        size_t text_size = 0;
        uint64_t games = 0;
        uz_diag d = {0};
        r = decompress_bytes(md, base, data, size, &text, &text_size, &games, &d);
        CHECK(r == UZ_OK, "decompress: %s", d.message);
        CHECK(games == all.n, "decoded %llu games of %zu", (unsigned long long)games, all.n);
        check_same_games(coder == UZ_CODER_RANGE ? "range" : "huffman", text, text_size, all.games, all.n);
        printf("coder %d: %zu bytes\n", coder, size);
        free(text);
        free(data);
    }
    list_free(&all);
}

/* Every game of the corpus's Chess960 files, coded with the engine in Chess960 mode: both
 * castling sides, X-FEN and Shredder-FEN starts; decoded back equal. */
static void test_chess960_round_trip(uz_pool *pool, uz_member_decoder *md, const uz_engine_settings *base)
{
    static const char *const files[] = {
        "cat5_chess960_chesscom_humans_clk.pgn", "cat5_chess960_cutechess_python_chess.pgn",
        "cat5_chess960_tcec_double_frc.pgn", "cat5_chess960_tcec_frc.pgn"};
    char path[4096];
    game_list all = {0};
    for (size_t i = 0; i < sizeof files / sizeof *files; i++)
        read_games(corpus_path(files[i], path), 0, &all);
    size_t c960 = 0;
    for (size_t i = 0; i < all.n; i++)
        c960 += all.games[i].start.chess960;
    CHECK(all.n == 77 && c960 == all.n, "Chess960 games read: %zu of %zu", c960, all.n);
    uz_pool *pool960 = NULL;
    uz_diag d = {0};
    CHECK(uz_pool_create_chess960(&pool960, pool, 2, &d) == UZ_OK, "Chess960 engine: %s", d.message);
    if (!pool960) {
        list_free(&all);
        return;
    }
    CHECK(strcmp(uz_pool_fingerprint(pool960), uz_pool_fingerprint(pool)) != 0, "its own fingerprint");
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(compress_games(pool, NULL, all.games, 1, UZ_CODER_RANGE, &data, &size) == UZ_ERR_ARG,
          "a Chess960 game needs the Chess960 engine");
    free(data);
    data = NULL;
    CHECK(compress_games(pool, pool960, all.games, all.n, UZ_CODER_RANGE, &data, &size) == UZ_OK, "compress");
    char *text = NULL;
    size_t text_size = 0;
    uint64_t games = 0;
    uz_result r = decompress_bytes(md, base, data, size, &text, &text_size, &games, &d);
    CHECK(r == UZ_OK && games == all.n, "decompress: %s", d.message);
    check_same_games("chess960", text, text_size, all.games, all.n);
    printf("Chess960: %zu games, %zu bytes\n", all.n, size);
    free(text);
    free(data);
    uz_pool_destroy(pool960);
    list_free(&all);
}

static void test_reproducible_and_concatenated(const uz_engine_settings *base, uz_member_decoder *md)
{
    char path[4096];
    game_list a = {0}, b = {0};
    read_games(corpus_path("cat1_lichess_marathon_2025.pgn", path), 5, &a);
    read_games(corpus_path("cat2_capablanca_crlf.pgn", path), 4, &b);
    uint8_t *bytes[2] = {NULL, NULL}, *other = NULL;
    size_t sizes[2] = {0, 0}, other_size = 0;
    /* Two separate pools are two separate sets of engine processes. */
    for (int run = 0; run < 2; run++) {
        uz_pool *pool = NULL;
        uz_diag d = {0};
        CHECK(uz_pool_create(&pool, base, 2, &d) == UZ_OK, "pool: %s", d.message);
        if (!pool)
            return;
        CHECK(compress_games(pool, NULL, a.games, a.n, UZ_CODER_RANGE, &bytes[run], &sizes[run]) == UZ_OK, "compress");
        if (run == 1)
            CHECK(compress_games(pool, NULL, b.games, b.n, UZ_CODER_HUFFMAN, &other, &other_size) == UZ_OK, "compress");
        uz_pool_destroy(pool);
    }
    CHECK(sizes[0] == sizes[1] && memcmp(bytes[0], bytes[1], sizes[0]) == 0, "two runs gave different archives");

    /* a.ucz followed by b.ucz is one archive with the games of both. */
    size_t cat_size = sizes[0] + other_size;
    uint8_t *cat = malloc(cat_size);
    memcpy(cat, bytes[0], sizes[0]);
    memcpy(cat + sizes[0], other, other_size);
    char *text = NULL;
    size_t text_size = 0;
    uint64_t games = 0;
    uz_diag d = {0};
    CHECK(decompress_bytes(md, base, cat, cat_size, &text, &text_size, &games, &d) == UZ_OK, "concatenated: %s",
          d.message);
    game_list both = {0};
    for (size_t i = 0; i < a.n + b.n; i++) {
        if (both.n == both.cap) {
            both.cap = 64;
            both.games = realloc(both.games, both.cap * sizeof *both.games);
        }
        both.games[both.n++] = i < a.n ? a.games[i] : b.games[i - a.n];
    }
    check_same_games("concatenated", text, text_size, both.games, both.n);
    free(both.games); /* the games belong to a and b */
    free(text);

    /* Random access into the second member. */
    FILE *f = fmemopen(cat, cat_size, "rb");
    uz_archive_header h;
    uz_archive_block block = {0};
    size_t index = 99;
    CHECK(uz_archive_seek_game(f, "cat", a.n + 2, &h, &block, &index, &d) == UZ_OK, "seek: %s", d.message);
    CHECK(index == 1 && h.coder == UZ_CODER_HUFFMAN, "seek found index %zu coder %u", index, h.coder);
    uz_game g;
    uz_game_init(&g);
    CHECK(uz_member_decoder_open(md, &h, base, 1, &d) == UZ_OK, "open: %s", d.message);
    CHECK(uz_block_decode(md, &block, index, 1, &g, a.n, &d) == UZ_OK, "extract: %s", d.message);
    CHECK(uz_game_equal(&g, &b.games[1]), "extracted game differs");
    CHECK(uz_archive_seek_game(f, "cat", a.n + b.n + 1, &h, &block, &index, &d) == UZ_ERR_ARG, "no such game");
    uz_archive_member_info members[4];
    size_t n_members = 0;
    CHECK(uz_archive_list_members(f, "cat", members, 4, &n_members, &d) == UZ_OK && n_members == 2 &&
              members[0].games == a.n && members[1].games == b.n,
          "members listed: %zu", n_members);
    uz_game_clear(&g);
    uz_archive_block_free(&block);
    fclose(f);
    free(cat);
    free(other);
    free(bytes[0]);
    free(bytes[1]);
    list_free(&a);
    list_free(&b);
}

/* A header whose fingerprint (or engine) is not ours is refused before decoding. */
static void test_mismatch(uz_pool *pool)
{
    char path[4096];
    game_list a = {0};
    read_games(corpus_path("cat4_handwritten_edge_cases.pgn", path), 2, &a);
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(compress_games(pool, NULL, a.games, a.n, UZ_CODER_RANGE, &data, &size) == UZ_OK, "compress");

    /* The same archive decoded with Ethereal: refused, nothing written. */
    uz_engine_settings ethereal;
    uz_diag d = {0};
    const char *dirs[] = {getenv("UZ_ENGINES_DIR"), NULL};
    CHECK(uz_engine_profile_load(&ethereal, "ethereal", dirs, &d) == UZ_OK, "ethereal profile: %s", d.message);
    uz_member_decoder md = {0};
    char *text = NULL;
    size_t text_size = 0;
    uint64_t games = 0;
    uz_result r = decompress_bytes(&md, &ethereal, data, size, &text, &text_size, &games, &d);
    CHECK(r == UZ_ERR_MISMATCH, "ethereal accepted: %d %s", r, d.message);
    CHECK(strstr(d.message, "Stockfish 15.1") && strstr(d.message, "depth 1"), "message names the engine: %s",
          d.message);
    CHECK(text_size == 0 && games == 0, "nothing decoded");
    free(text);
    uz_member_decoder_close(&md);
    free(data);
    list_free(&a);
}

/* Every single-byte change and every truncation of a small archive is either rejected
 * or (never, in practice) decodes to exactly the same games. */
static void test_damage(uz_pool *pool, uz_member_decoder *md, const uz_engine_settings *base)
{
    char path[4096];
    game_list a = {0};
    read_games(corpus_path("cat4_handwritten_edge_cases.pgn", path), 3, &a);
    uint8_t *data = NULL;
    size_t size = 0;
    CHECK(compress_games(pool, NULL, a.games, a.n, UZ_CODER_RANGE, &data, &size) == UZ_OK, "compress");
    char *good = NULL;
    size_t good_size = 0;
    uint64_t games;
    uz_diag d = {0};
    CHECK(decompress_bytes(md, base, data, size, &good, &good_size, &games, &d) == UZ_OK, "clean decode");
    uint8_t *copy = malloc(size);
    long rejected = 0, harmless = 0;
    for (size_t pass = 0; pass < 3; pass++) {
        for (size_t i = 0; i < size; i++) {
            memcpy(copy, data, size);
            size_t len = size;
            if (pass == 0)
                copy[i] ^= 0x01;
            else if (pass == 1)
                copy[i] ^= 0xFF;
            else
                len = i; /* truncated to i bytes */
            char *text = NULL;
            size_t text_size = 0;
            uz_result r = decompress_bytes(md, base, copy, len ? len : 1, &text, &text_size, &games, &d);
            if (r == UZ_OK) {
                CHECK(text_size == good_size && memcmp(text, good, good_size) == 0,
                      "pass %zu byte %zu: damaged archive decoded to different games", pass, i);
                harmless++;
            } else {
                CHECK(r == UZ_ERR_CORRUPT || r == UZ_ERR_UNSUPPORTED, "pass %zu byte %zu: unexpected error %d: %s",
                      pass, i, r, d.message);
                CHECK(d.message[0] != 0, "error without a message");
                rejected++;
            }
            free(text);
        }
    }
    printf("damage: %zu-byte archive, %ld damaged copies rejected, %ld decoded identically\n", size, rejected,
           harmless);
    free(copy);
    free(good);
    free(data);
    list_free(&a);
}

int main(void)
{
    uz_engine_settings base;
    uz_diag d = {0};
    const char *dirs[] = {getenv("UZ_ENGINES_DIR"), NULL};
    if (uz_engine_profile_load(&base, "stockfish", dirs, &d) != UZ_OK) {
        fprintf(stderr, "stockfish profile: %s\n", d.message);
        return 1;
    }
    base.depth = 1;
    uz_pool *pool = NULL;
    if (uz_pool_create(&pool, &base, 2, &d) != UZ_OK) {
        fprintf(stderr, "stockfish: %s\n", d.message);
        return 1;
    }
    uz_member_decoder md = {0};
    test_corpus_round_trip(pool, &md, &base);
    test_chess960_round_trip(pool, &md, &base);
    test_reproducible_and_concatenated(&base, &md);
    test_mismatch(pool);
    test_damage(pool, &md, &base);
    uz_member_decoder_close(&md);
    uz_pool_destroy(pool);
    return test_finish();
}
