/* Coded tags (structure versions 1 and 3), without the engine: the games of real exports and of
 * the near-miss file are written as structure streams in blocks of 64 in both structure versions and
 * read back with every tag byte-exact; Lichess blocks must actually code their tags
 * (a non-empty tag_code section, under 70% of the text bytes of structure version 0); and every byte of a
 * block's structure stream changed, or the stream cut short, is read back as a clean
 * UZ_ERR_CORRUPT (or, for a change the stream still allows, a result), never a crash. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/packer.h"
#include "block/block_codec.h"
#include "block/game_struct.h"
#include "block/game_text.h"
#include "block/tag_code.h"
#include "block/tag_code_internal.h"
#include "../common/uz_test.h"

enum { BLOCK = 64 };

typedef struct block {
    uz_game games[BLOCK];
    size_t n;
} block;

/* Reads up to BLOCK games that parse (skipping others). */
static size_t read_block(uz_pgn_reader *r, block *b)
{
    b->n = 0;
    while (b->n < BLOCK) {
        uz_game *g = &b->games[b->n];
        uz_diag d = {0};
        uz_result rc = uz_pgn_read_game(r, g, &d);
        if (rc == UZ_DONE)
            break;
        if (rc != UZ_OK)
            continue;
        b->n++;
    }
    return b->n;
}

/* A corpus file read block by block, with room for the games read back. */
typedef struct source {
    FILE *f;
    uz_pgn_reader *r;
    block *b;
    uz_game *out;
} source;

static bool source_open(source *s, const char *path)
{
    memset(s, 0, sizeof *s);
    s->f = fopen(path, "rb");
    CHECK(s->f != NULL, "cannot open %s", path);
    if (!s->f)
        return false;
    s->r = uz_pgn_reader_open(s->f, path);
    uz_pgn_reader_keep_raw(s->r, true);
    s->b = calloc(1, sizeof *s->b);
    s->out = calloc(BLOCK, sizeof *s->out);
    for (size_t i = 0; i < BLOCK; i++)
        uz_game_init(&s->b->games[i]), uz_game_init(&s->out[i]);
    return true;
}

static void source_close(source *s)
{
    for (size_t i = 0; i < BLOCK; i++)
        uz_game_clear(&s->b->games[i]), uz_game_clear(&s->out[i]);
    free(s->b);
    free(s->out);
    uz_pgn_reader_close(s->r);
    fclose(s->f);
}

/* The block's structure (its records made here: a game whose text record does not pay
 * becomes verbatim, as in the compressor). */
static uz_result write_block(block *b, unsigned version, unsigned tags, uz_buf *out)
{
    uz_block_out_game *recs = NULL;
    out->size = 0;
    uz_result r = uz_block_out_games_new(&recs, b->games, b->n, NULL);
    if (r == UZ_OK)
        r = uz_block_struct_write(out, version, tags, 0, 0, recs, b->n);
    uz_block_out_games_free(recs, b->n);
    return r;
}

static uz_result read_back(const uz_buf *s, unsigned version, unsigned tags, size_t n, uz_game *out)
{
    uz_block_game *records = uz_block_games_new(n);
    uz_diag d = {0};
    uz_result r = records ? uz_block_struct_read(s->data, s->size, version, tags, 0, 0, records, n, NULL, &d) : UZ_ERR_NOMEM;
    for (size_t i = 0; i < n && records; i++) { /* the games move to out */
        uz_game_clear(&out[i]);
        out[i] = records[i].game;
        uz_game_init(&records[i].game);
    }
    uz_block_games_free(records, n);
    return r;
}

/* Section i's size, and where it starts. */
static size_t section(const uz_buf *s, int n_sections, int i, size_t *start)
{
    uz_cursor c = {s->data, s->data + s->size};
    uint64_t sizes[8] = {0};
    for (int k = 0; k < n_sections; k++)
        uz_cursor_varint(&c, &sizes[k]);
    *start = (size_t)(c.p - s->data);
    for (int k = 0; k < i; k++)
        *start += sizes[k];
    return (size_t)sizes[i];
}

static bool same_tags(const uz_game *a, const uz_game *b)
{
    if (a->n_tags != b->n_tags)
        return false;
    for (size_t t = 0; t < a->n_tags; t++)
        if (strcmp(a->tags[t].name, b->tags[t].name) || strcmp(a->tags[t].value, b->tags[t].value))
            return false;
    return true;
}

/* The derived values of the games read back (out) filled with the moves of the games written (b),
 * as the archive decoder fills them: UZ_OK, or UZ_ERR_CORRUPT for a game they do not fit. */
static uz_result fill_derived(const block *b, uz_game *out, size_t n, size_t *filled)
{
    uz_result worst = UZ_OK;
    for (size_t i = 0; i < n && i < b->n; i++) {
        uz_game *g = &out[i];
        if (!g->n_derived)
            continue;
        for (size_t j = 0; j < g->main.n_nodes && j < b->games[i].main.n_nodes; j++)
            g->main.nodes[j].move = b->games[i].main.nodes[j].move;
        uz_walk w; /* the decoded game's walk, as the move decoder leaves it */
        uz_result r = uz_walk_init(&w, g);
        if (r == UZ_OK)
            r = uz_walk_resolve_all(&w);
        r = r == UZ_OK ? uz_tag_code_fill_derived(&w) : UZ_ERR_CORRUPT;
        *filled += r == UZ_OK;
        if (r != UZ_OK)
            worst = r;
        uz_walk_free(&w);
    }
    return worst;
}

/* Every byte changed two ways, and the stream cut at each (under UZ_TEST_SHORT every other
 * byte, changed one way: test_damage_stride): a result or UZ_ERR_CORRUPT, no crash. With b
 * (structure version 3, tag version 3), a result's derived values are filled from b's moves
 * too: each fills in or is UZ_ERR_CORRUPT. */
static void damage(const uz_buf *s, size_t n, unsigned version, const block *b)
{
    uz_game *out = calloc(BLOCK, sizeof *out);
    uz_buf bad = {0};
    size_t bad_results = 0, filled = 0;
    for (size_t i = 0; i < n; i++)
        uz_game_init(&out[i]);
    uz_buf_append(&bad, s->data, s->size);
    size_t stride = test_damage_stride(); /* (CI's sanitizer run: every other byte, one flip each, in turn) */
    for (size_t p = 0; p < s->size; p += stride) {
        static const uint8_t flips[] = {0x01, 0x80};
        for (int f = 0; f < 2; f++) {
            if (stride > 1 && (p / stride + (size_t)f) % 2)
                continue;
            bad.data[p] ^= flips[f];
            uz_result r = read_back(&bad, version, UZ_TAG_VERSION, n, out);
            bad_results += r != UZ_OK && r != UZ_ERR_CORRUPT && r != UZ_ERR_LIMIT;
            if (r == UZ_OK && b) {
                r = fill_derived(b, out, n, &filled);
                bad_results += r != UZ_OK && r != UZ_ERR_CORRUPT;
            }
            bad.data[p] ^= flips[f];
        }
        uz_buf cut = {bad.data, p, bad.cap};
        uz_result r = read_back(&cut, version, UZ_TAG_VERSION, n, out);
        bad_results += r != UZ_ERR_CORRUPT;
    }
    CHECK(bad_results == 0, "%zu damaged streams gave another error than UZ_ERR_CORRUPT", bad_results);
    CHECK(!b || filled > 0, "no damaged stream read with derived values to fill");
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&out[i]);
    uz_buf_free(&bad);
    free(out);
}

/* Round trips of a file's games, block by block, in both structure versions; prints the text bytes of each. */
static void check_file(const char *path, bool lichess, bool damage_first)
{
    source src;
    if (!source_open(&src, path))
        return;
    block *b = src.b;
    uz_game *out = src.out;
    uz_buf s0 = {0}, s1 = {0}, s1v1 = {0};
    size_t games = 0, values0 = 0, values1 = 0, coded_blocks = 0, blocks = 0, start, packed0 = 0, packed1 = 0;
    uz_buf z = {0};
    unsigned method;
    while (read_block(src.r, b)) {
        blocks++;
        CHECK(write_block(b, 0, 1, &s0) == UZ_OK && write_block(b, 1, UZ_TAG_VERSION, &s1) == UZ_OK &&
                  write_block(b, 1, 1, &s1v1) == UZ_OK,
              "%s: block %zu not written", path, blocks);
        values0 += section(&s0, 5, 2, &start);
        values1 += section(&s1, 7, 2, &start);
        coded_blocks += section(&s1, 7, 6, &start) > 0;
        /* The whole structure stream as the archive stores it. */
        z.size = 0;
        CHECK(uz__pack(s0.data, s0.size, &z, &method) == UZ_OK);
        packed0 += z.size;
        z.size = 0;
        CHECK(uz__pack(s1.data, s1.size, &z, &method) == UZ_OK);
        packed1 += z.size;
        /* Structure version 1 chose its tag coding by packing its candidates, and the packer kept the
         * winner's packing for the pack above: it must be what packing anew gives. */
        uz_buf fresh = {0};
        CHECK(uz__pack_with(method, s1.data, s1.size, &fresh) == UZ_OK && fresh.size == z.size &&
                  memcmp(fresh.data, z.data, z.size) == 0,
              "%s: block %zu: the kept packing differs from packing anew", path, blocks);
        uz_buf_free(&fresh);
        /* Structure version 0; structure version 1 with the tag coding of today and with tag version 1. */
        for (unsigned version = 0; version <= 2; version++) {
            unsigned struct_version = version ? 1 : 0, tags = version == 1 ? UZ_TAG_VERSION : 1;
            uz_result rr = read_back(version == 0 ? &s0 : version == 1 ? &s1 : &s1v1, struct_version, tags, b->n, out);
            CHECK(rr == UZ_OK, "%s: block %zu structure version %u, tag version %u not read (%d)", path, blocks,
                  struct_version, tags, (int)rr);
            for (size_t i = 0; i < b->n && rr == UZ_OK; i++)
                CHECK(same_tags(&b->games[i], &out[i]), "%s: game %zu: tags differ in structure version %u, tag version %u",
                      path, games + i + 1, struct_version, tags);
        }
        if (damage_first && blocks == 1)
            damage(&s1, b->n, 1, NULL);
        games += b->n;
    }
    CHECK(games > 0, "%s: no game", path);
    if (lichess)
        CHECK(coded_blocks == blocks && values1 * 10 < values0 * 7,
              "%s: tags not coded (%zu of %zu blocks; text %zu bytes, structure version 0 %zu)", path, coded_blocks, blocks, values1,
              values0);
    /* No file's structure grows by more than structure version 1's two section sizes per block (the
     * writer keeps a block's tags plain when coding them would not pack smaller). */
    CHECK(packed1 <= packed0 + 2 * blocks, "%s: structure %zu bytes in version 1, %zu in version 0", path, packed1, packed0);
    printf("%-45s %5zu games: tag text %7zu bytes in structure version 0, %7zu in version 1; %zu of %zu blocks coded; "
           "structure packed %7zu -> %7zu bytes\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, games, values0, values1, coded_blocks, blocks, packed0,
           packed1);
    uz_buf_free(&s0);
    uz_buf_free(&s1);
    uz_buf_free(&s1v1);
    uz_buf_free(&z);
    source_close(&src);
}

/* Structure version 3 derives a final-position FEN from the moves, and tag version 3 the opening's ECO
 * code and name and the moves that end a text (chess.com's ECOUrl): read back, such a value is not
 * known and marked; with the moves put back (the archive decoder decodes them) it fills in byte-exact.
 * At least want_derived games must take it; a value that is not the final position (the
 * side to move changed, an empty value) stays text. The same stream read as structure version 1 is
 * refused when any value was derived. */
static void check_final(const char *path, size_t want_derived, bool damage_first)
{
    source src;
    if (!source_open(&src, path))
        return;
    block *b = src.b;
    uz_game *out = src.out;
    uz_buf s3 = {0};
    size_t derived = 0, games = 0, kinds[8] = {0};
    while (read_block(src.r, b)) {
        CHECK(write_block(b, 3, UZ_TAG_VERSION, &s3) == UZ_OK, "%s: structure version 3 not written", path);
        uz_result rr = read_back(&s3, 3, UZ_TAG_VERSION, b->n, out);
        CHECK(rr == UZ_OK, "%s: structure version 3 not read (%d)", path, (int)rr);
        size_t in_block = 0;
        for (size_t i = 0; i < b->n && rr == UZ_OK; i++) {
            uz_game *g = &out[i];
            if (g->n_derived) {
                in_block += g->n_derived;
                for (size_t d = 0; d < g->n_derived; d++) {
                    size_t t = g->derived[d].tag;
                    kinds[g->derived[d].kind < 8 ? g->derived[d].kind : 0]++;
                    CHECK(t < g->n_tags && strcmp(g->tags[t].value, b->games[i].tags[t].value) != 0,
                          "%s: game %zu: a derived value before the moves", path, games + i + 1);
                }
                for (size_t j = 0; j < g->main.n_nodes && j < b->games[i].main.n_nodes; j++)
                    g->main.nodes[j].move = b->games[i].main.nodes[j].move;
                uz_walk w; /* the decoded game's walk, as the move decoder leaves it */
                CHECK(uz_walk_init(&w, g) == UZ_OK && uz_walk_resolve_all(&w) == UZ_OK &&
                          uz_tag_code_fill_derived(&w) == UZ_OK && g->n_derived == 0,
                      "%s: game %zu: not filled", path, games + i + 1);
                uz_walk_free(&w);
            }
            CHECK(same_tags(&b->games[i], g), "%s: game %zu: tags differ in structure version 3", path, games + i + 1);
        }
        if (in_block)
            CHECK(read_back(&s3, 1, UZ_TAG_VERSION, b->n, out) == UZ_ERR_CORRUPT, "%s: a derived value read in structure version 1", path);
        if (damage_first && games == 0)
            damage(&s3, b->n, 3, b);
        derived += in_block;
        games += b->n;
    }
    CHECK(derived >= want_derived, "%s: %zu tags of %zu games derived from the moves, want %zu", path, derived, games,
          want_derived);
    printf("%-45s %5zu games: %zu tags derived from the moves (final positions %zu, ECO %zu, Opening %zu, "
           "moves of a text %zu)\n",
           strrchr(path, '/') ? strrchr(path, '/') + 1 : path, games, derived, kinds[DERIVED_FEN], kinds[DERIVED_ECO],
           kinds[DERIVED_OPENING], kinds[DERIVED_MOVES]);
    uz_buf_free(&s3);
    source_close(&src);
}

/* Tag version 5's identifiers (model 18): the near-miss file's Site (Lichess's heads, another head,
 * an empty head, a value with no identifier, a head of UTF-8 bytes, '-' and '_') and Key (64
 * characters, the longest) read back byte-exact, take model 18, cost fewer bytes than in tag version
 * 4, and a tag version 4 reader refuses the stream (model 18 is not one of its models). The Lichess
 * files are checked too: their Site takes model 18 and every tag reads back. */
static void check_identifiers(const char *path, size_t min_saved)
{
    source src;
    if (!source_open(&src, path))
        return;
    size_t blocks = 0, saved = 0, lost = 0;
    uz_buf s4 = {0}, s5 = {0}, z = {0};
    while (read_block(src.r, src.b) > 0) {
        block *b = src.b;
        CHECK(write_block(b, UZ_STRUCT_VERSION, 4, &s4) == UZ_OK && write_block(b, UZ_STRUCT_VERSION, 5, &s5) == UZ_OK,
              "%s: block %zu not written", path, blocks);
        size_t filled = 0;
        CHECK(read_back(&s5, UZ_STRUCT_VERSION, 5, b->n, src.out) == UZ_OK &&
                  fill_derived(b, src.out, b->n, &filled) == UZ_OK,
              "%s: block %zu not read", path, blocks);
        for (size_t i = 0; i < b->n; i++)
            CHECK(same_tags(&b->games[i], &src.out[i]), "%s: block %zu game %zu: tags differ", path, blocks, i + 1);
        CHECK(read_back(&s5, UZ_STRUCT_VERSION, 4, b->n, src.out) == UZ_ERR_CORRUPT,
              "%s: block %zu: tag version 5 read as 4", path, blocks);
        unsigned method;
        size_t z4 = uz__pack(s4.data, s4.size, &z, &method) == UZ_OK ? z.size : 0;
        size_t z5 = uz__pack(s5.data, s5.size, &z, &method) == UZ_OK ? z.size : 0;
        saved += z4 > z5 ? z4 - z5 : 0;
        lost += z5 > z4 ? z5 - z4 : 0;
        blocks++;
    }
    CHECK(blocks > 0 && lost == 0 && saved >= min_saved, "%s: tag version 5 saved %zu bytes, lost %zu (%zu blocks)",
          path, saved, lost, blocks);
    printf("%-45s tag version 5: %zu bytes less in %zu blocks\n", strrchr(path, '/') ? strrchr(path, '/') + 1 : path,
           saved, blocks);
    uz_buf_free(&s4);
    uz_buf_free(&s5);
    uz_buf_free(&z);
    source_close(&src);
}

/* A structure version 0 stream of one game (no moves) whose n_tags tags all name the block's one
 * name, of name_len bytes, each with the value "v". */
static void stream_of_one_name(uz_buf *s, size_t name_len, size_t n_tags)
{
    uz_buf names = {0}, records = {0}, values = {0};
    char *name = malloc(name_len);
    memset(name, 'N', name_len);
    uz_buf_put_varint(&names, 1);
    uz_buf_put_string(&names, name, name_len);
    uz_buf_put_varint(&records, 0);        /* moves_len */
    uz_buf_append(&records, "\0\0\0\0", 4); /* crc */
    uz_buf_put_varint(&records, n_tags);
    for (size_t t = 0; t < n_tags; t++) {
        uz_buf_put_varint(&records, 0);
        uz_buf_put_string(&values, "v", 1);
    }
    static const uint8_t empty_game[] = {0, 0, 0, 0, 0}; /* flags, line (pre-comments, nodes, annotated), trailing */
    uz_buf_append(&records, empty_game, sizeof empty_game);
    static const uint8_t text[6] = {0}; /* an empty text record */
    s->size = 0;
    uz_buf_put_varint(s, names.size);
    uz_buf_put_varint(s, records.size);
    uz_buf_put_varint(s, values.size);
    uz_buf_put_varint(s, 0);
    uz_buf_put_varint(s, sizeof text);
    uz_buf_append(s, names.data, names.size);
    uz_buf_append(s, records.data, records.size);
    uz_buf_append(s, values.data, values.size);
    uz_buf_append(s, text, sizeof text);
    uz_buf_free(&names);
    uz_buf_free(&records);
    uz_buf_free(&values);
    free(name);
}

/* A structure version 1 stream (tag version 1) of one game whose n_tags tags all name "T", the
 * first a value of value_len bytes stored as text, the others model 10's code 1: that value again. */
static void stream_of_one_value(uz_buf *s, size_t value_len, size_t n_tags)
{
    uz_buf names = {0}, records = {0}, values = {0}, tag_code = {0};
    char *value = malloc(value_len);
    memset(value, 'v', value_len);
    uz_buf_put_varint(&names, 1);
    uz_buf_put_string(&names, "T", 1);
    uz_buf_put_varint(&records, 0);
    uz_buf_append(&records, "\0\0\0\0", 4);
    uz_buf_put_varint(&records, n_tags);
    uz_buf_put_varint(&tag_code, 10); /* model 10, recent value */
    for (size_t t = 0; t < n_tags; t++) {
        uz_buf_put_varint(&records, 0);
        uz_buf_put_varint(&tag_code, t > 0);
    }
    uz_buf_put_string(&values, value, value_len);
    static const uint8_t empty_game[] = {0, 0, 0, 0, 0}, text[6] = {0};
    uz_buf_append(&records, empty_game, sizeof empty_game);
    s->size = 0;
    const uz_buf *sec[] = {&names, &records, &values};
    for (int i = 0; i < 3; i++)
        uz_buf_put_varint(s, sec[i]->size);
    uz_buf_put_varint(s, 0);            /* comments */
    uz_buf_put_varint(s, sizeof text);
    uz_buf_put_varint(s, 0);            /* comment_code */
    uz_buf_put_varint(s, tag_code.size);
    for (int i = 0; i < 3; i++)
        uz_buf_append(s, sec[i]->data, sec[i]->size);
    uz_buf_append(s, text, sizeof text);
    uz_buf_append(s, tag_code.data, tag_code.size);
    uz_buf_free(&names);
    uz_buf_free(&records);
    uz_buf_free(&values);
    uz_buf_free(&tag_code);
    free(value);
}

/* A block's tags as decoded are bounded (uz_tag_bytes, UZ_LIMIT_BLOCK_STRUCT: what uz_block_fit
 * keeps every block below): a name, or a recent value, is stored once however many tags repeat
 * it, so a few kilobytes once packed could otherwise make a decoder copy a megabyte name 300
 * times (or 16 MiB a million times). The same name 100 times reads back; 300 times is refused
 * before a copy is made. The writer refuses (UZ_ERR_LIMIT) the block a reader would. */
static void check_tag_bytes_bound(void)
{
    uz_buf s = {0};
    uz_game out[1];
    uz_game_init(&out[0]);
    stream_of_one_name(&s, 1 << 20, 100);
    uz_result r = read_back(&s, 0, 1, 1, out);
    CHECK(r == UZ_OK && out[0].n_tags == 100 && strlen(out[0].tags[99].name) == 1 << 20,
          "a 1 MiB name 100 times: read back (%d)", (int)r);
    stream_of_one_name(&s, 1 << 20, 300);
    r = read_back(&s, 0, 1, 1, out);
    CHECK(r == UZ_ERR_CORRUPT, "a 1 MiB name 300 times (%zu bytes): refused (%d)", s.size, (int)r);
    stream_of_one_value(&s, 1 << 20, 100);
    r = read_back(&s, 1, 1, 1, out);
    CHECK(r == UZ_OK && out[0].n_tags == 100 && strlen(out[0].tags[99].value) == 1 << 20,
          "a 1 MiB recent value 100 times: read back (%d)", (int)r);
    stream_of_one_value(&s, 1 << 20, 300);
    r = read_back(&s, 1, 1, 1, out);
    CHECK(r == UZ_ERR_CORRUPT, "a 1 MiB recent value 300 times (%zu bytes): refused (%d)", s.size, (int)r);
    /* The writer: one game of 200 tags of a 1 MiB value (API-made: no PGN game holds that much). */
    block *b = calloc(1, sizeof *b);
    b->n = 1;
    uz_game_init(&b->games[0]);
    char *big = malloc((1 << 20) + 1);
    memset(big, 'v', 1 << 20);
    big[1 << 20] = 0;
    for (int t = 0; t < 200; t++)
        uz_game_add_tag(&b->games[0], "Big", big);
    CHECK(write_block(b, UZ_STRUCT_VERSION, UZ_TAG_VERSION, &s) == UZ_ERR_LIMIT, "the writer refuses 200 MiB of tags");
    uz_game_clear(&b->games[0]);
    uz_game_clear(&out[0]);
    free(big);
    free(b);
    uz_buf_free(&s);
}

/* With arguments: those files (no damage, no coding expected). */
/* Tag version 4 codes a repeated tag in a fraction of a bit, so a block's budget of tags
 * grows 16,384 a byte of tag codes; the reader also caps it at the most tags a writer puts
 * in one block (UZ_LIMIT_LIST, uz_block_fit). A block of two games of 600,000 tags each,
 * written past uz_block_fit, is refused by the reader, not decoded into a million tags:
 * the hostile form of it would make a few kilobytes allocate gigabytes. */
static void check_block_tag_cap(void)
{
    enum { PER_GAME = 600000 };
    block *b = calloc(1, sizeof *b);
    b->n = 2;
    for (size_t g = 0; g < b->n; g++) {
        uz_game_init(&b->games[g]);
        for (size_t i = 0; i < PER_GAME; i++)
            if (uz_game_add_tag(&b->games[g], "Annotator", "?") != UZ_OK)
                break;
        CHECK(b->games[g].n_tags == PER_GAME, "game %zu: %zu tags", g, b->games[g].n_tags);
    }
    CHECK(uz_block_fit(b->games, b->n) == 1, "uz_block_fit puts the two games in blocks of their own");
    uz_buf s = {0};
    uz_game out[2];
    uz_game_init(&out[0]), uz_game_init(&out[1]);
    CHECK(write_block(b, UZ_STRUCT_VERSION, 4, &s) == UZ_OK, "the block is written");
    uz_result r = read_back(&s, UZ_STRUCT_VERSION, 4, b->n, out);
    CHECK(r == UZ_ERR_CORRUPT, "%zu bytes claiming %d tags: refused (%d)", s.size, 2 * PER_GAME, (int)r);
    /* Each game alone is within the cap and reads back. */
    b->n = 1;
    CHECK(write_block(b, UZ_STRUCT_VERSION, 4, &s) == UZ_OK && read_back(&s, UZ_STRUCT_VERSION, 4, 1, out) == UZ_OK &&
              out[0].n_tags == PER_GAME,
          "one game of %d tags reads back (%zu bytes)", PER_GAME, s.size);
    b->n = 2;
    for (size_t g = 0; g < 2; g++)
        uz_game_clear(&b->games[g]), uz_game_clear(&out[g]);
    uz_buf_free(&s);
    free(b);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        check_file(argv[i], false, false);
    if (argc > 1)
        return test_finish();
    char buf[4096];
    snprintf(buf, sizeof buf, "%s/pgn/layout/tag_near_misses.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_file(buf, false, true);
    check_final(buf, 2, false); /* the whole FEN, and the four fields with FinalFEN then text */
    /* Tag version 2's models at their edges (names inside names, an empty name, numbers
     * with a leading zero or 19 digits, ratings that are not numbers); every byte damaged. */
    snprintf(buf, sizeof buf, "%s/pgn/layout/tag_v2_near_misses.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_file(buf, false, true);
    snprintf(buf, sizeof buf, "%s/pgn/layout/tag_v5_near_misses.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_file(buf, false, true);
    check_identifiers(buf, 40);
    if (!getenv("UZ_TEST_SHORT")) /* (the sanitizer run: the near-miss file's blocks are the same code) */
        check_identifiers(corpus_path("cat1_lichess_rated_blitz_rapid.pgn", buf), 1000);
    check_file(corpus_path("cat1_lichess_marathon_2025.pgn", buf), true, true);
    check_file(corpus_path("cat1_lichess_rated_blitz_rapid.pgn", buf), true, false);
    check_file(corpus_path("cat2_carlsen_chesscom_clk.pgn", buf), false, false);
    check_file(corpus_path("cat2_capablanca_crlf.pgn", buf), false, false);
    /* Tag version 3 derives ECO, ECOUrl's moves and the final position: at least so many. */
    check_final(corpus_path("cat2_carlsen_chesscom_clk.pgn", buf), 148 + 116 + 150, false);
    check_final(corpus_path("cat1_chesscom_live_clk.pgn", buf), 17 + 12 + 12, false);
    /* Every byte of a block of six chess.com games damaged, the derived values filled. */
    snprintf(buf, sizeof buf, "%s/tags/tags_v1_chesscom.pgn", getenv("UZ_TEST_DATA") ? getenv("UZ_TEST_DATA") : "tests/data");
    check_final(buf, 6 + 4, true);
    check_final(corpus_path("cat1_lichess_casual_humans_vs_ai_level5.pgn", buf), 536 + 452, false);
    check_file(corpus_path("cat4_pgn_extract_odds_mixed_latin1_utf8.pgn", buf), false, false);
    if (!getenv("UZ_TEST_SHORT")) /* (CI's sanitizer run: a million tags are the plain run's) */
        check_block_tag_cap();
    check_tag_bytes_bound();
    return test_finish();
}
