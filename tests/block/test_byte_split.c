/* Where an archive's bytes go (uz_archive_byte_split): real corpus games compressed with
 * the real Stockfish at depth 1. The parts add up to the file's size exactly; moves are
 * the move streams and tags + comments + structure the stored structure streams, as the
 * blocks say; annotated games put bytes in comments, games without comments none; an
 * empty archive is all overhead, at most 64 bytes; concatenated archives add up. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test.h"
#include "block/byte_split.h"
#include "block/game_struct.h"
#include "ucizip.h"

typedef struct bytes {
    char *data;
    size_t size;
} bytes;

static bytes read_file(const char *path)
{
    bytes b = {0};
    FILE *f = fopen(path, "rb"), *mem = open_memstream(&b.data, &b.size);
    char buf[65536];
    size_t n;
    while (f && (n = fread(buf, 1, sizeof buf, f)) > 0)
        fwrite(buf, 1, n, mem);
    fclose(mem);
    if (f)
        fclose(f);
    return b;
}

/* The first max_games games of text, compressed with the defaults at depth 1. */
static bytes compress(const bytes *text, uint64_t max_games)
{
    bytes out = {0};
    uz_options o;
    uz_options_init(&o);
    o.depth = 1;
    o.workers = 2;
    o.max_games = max_games;
    uz_compressor *c = NULL;
    uz_diag d = {0};
    FILE *mem = open_memstream(&out.data, &out.size);
    uz_result r = uz_compressor_open(&c, &o, &d);
    if (r == UZ_OK)
        r = uz_compressor_begin(c, mem, &d);
    if (r == UZ_OK)
        r = uz_compressor_add_text(c, text->data, text->size, "text", &d);
    if (r == UZ_OK)
        r = uz_compressor_finish(c, &d);
    CHECK(r == UZ_OK, "compress: %s", d.message);
    uz_compressor_close(c);
    fclose(mem);
    return out;
}

static uint64_t sum(const uz_byte_split *s)
{
    return s->moves + s->tags + s->clocks + s->engine_comments + s->comments + s->structure + s->overhead;
}

/* The split of an archive in memory, and what its blocks say: move stream bytes and
 * stored structure bytes. */
static uz_byte_split split_of(const bytes *a, uint64_t *moves, uint64_t *stored)
{
    uz_byte_split s;
    uz_diag d = {0};
    FILE *f = fmemopen(a->data, a->size, "rb");
    CHECK(uz_archive_byte_split(f, "mem", &s, &d) == UZ_OK, "split: %s", d.message);
    fclose(f);
    f = fmemopen(a->data, a->size, "rb");
    uz_archive_reader *r = NULL;
    uz_archive_header h;
    uz_archive_block b = {0};
    *moves = *stored = 0;
    uz_archive_reader_open(&r, f, "mem");
    while (uz_archive_read_header(r, &h, &d) == UZ_OK)
        while (uz_archive_read_block(r, &b, &d) == UZ_OK) {
            *moves += b.moves.size;
            *stored += b.struct_stored;
        }
    uz_archive_block_free(&b);
    uz_archive_reader_close(r);
    fclose(f);
    return s;
}

static uz_byte_split check_file(const char *file, uint64_t max_games, bytes *archive)
{
    char path[4096];
    bytes in = read_file(corpus_path(file, path));
    *archive = compress(&in, max_games);
    uint64_t moves, stored;
    uz_byte_split s = split_of(archive, &moves, &stored);
    CHECK(sum(&s) == archive->size, "%s: the parts add up to %llu, the file has %zu bytes", file,
          (unsigned long long)sum(&s), archive->size);
    CHECK(s.moves == moves && s.moves > 0, "%s: moves %llu, the blocks' move streams %llu", file,
          (unsigned long long)s.moves, (unsigned long long)moves);
    CHECK(s.tags + s.clocks + s.engine_comments + s.comments + s.structure == stored,
          "%s: tags, clocks, engine comments, comments and structure are the stored structure", file);
    CHECK(s.overhead == archive->size - moves - stored, "%s: overhead %llu", file, (unsigned long long)s.overhead);
    CHECK(s.tags > 0 && s.structure > 0, "%s: tags %llu, structure %llu", file, (unsigned long long)s.tags,
          (unsigned long long)s.structure);
    printf("%s (%llu games): %zu bytes: moves %llu, tags %llu, clocks %llu, engine comments %llu, comments %llu, "
           "structure %llu, overhead %llu\n",
           file, (unsigned long long)max_games, archive->size, (unsigned long long)s.moves, (unsigned long long)s.tags,
           (unsigned long long)s.clocks, (unsigned long long)s.engine_comments, (unsigned long long)s.comments,
           (unsigned long long)s.structure, (unsigned long long)s.overhead);
    free(in.data);
    return s;
}

int main(void)
{
    bytes annotated, plain, empty_in = {0}, empty;
    uz_byte_split a = check_file("cat1_uscf_otb_club_annotated.pgn", 4, &annotated);
    CHECK(a.comments > 0, "annotated games: comments %llu", (unsigned long long)a.comments);
    uz_byte_split p = check_file("cat1_lichess_rated_blitz_rapid.pgn", 3, &plain);
    CHECK(p.comments == 0 && p.clocks == 0 && p.engine_comments == 0, "games without comments: comments %llu",
          (unsigned long long)p.comments);
    /* Coded comments: clocks on chess.com games, cutechess's evaluation/depth/time. */
    bytes clk, eng;
    uz_byte_split k = check_file("cat1_chesscom_live_clk.pgn", 2, &clk);
    CHECK(k.clocks > 0 && k.engine_comments == 0, "clock comments: clocks %llu, engine %llu",
          (unsigned long long)k.clocks, (unsigned long long)k.engine_comments);
    uz_byte_split g = check_file("cat3_sirius_cutechess_selfplay.pgn", 2, &eng);
    CHECK(g.engine_comments > 0 && g.clocks == 0, "engine comments: engine %llu, clocks %llu",
          (unsigned long long)g.engine_comments, (unsigned long long)g.clocks);
    free(clk.data);
    free(eng.data);

    /* An empty input: nothing but the member's fixed cost, at most 64 bytes. */
    empty = compress(&empty_in, 0);
    uint64_t moves, stored;
    uz_byte_split e = split_of(&empty, &moves, &stored);
    CHECK(empty.size <= 64 && e.overhead == empty.size && sum(&e) == empty.size, "empty archive: %zu bytes",
          empty.size);
    /* One game: the fixed cost is what is neither move stream nor structure stream. */
    bytes one;
    uz_byte_split o = check_file("cat1_lichess_rated_blitz_rapid.pgn", 1, &one);
    printf("fixed cost: empty archive %zu bytes, one game %llu bytes\n", empty.size, (unsigned long long)o.overhead);

    /* Concatenated archives (three members): each part is the sum of the members'. */
    bytes cat = {0};
    FILE *mem = open_memstream(&cat.data, &cat.size);
    fwrite(annotated.data, 1, annotated.size, mem);
    fwrite(empty.data, 1, empty.size, mem);
    fwrite(plain.data, 1, plain.size, mem);
    fclose(mem);
    uz_byte_split c = split_of(&cat, &moves, &stored);
    CHECK(c.moves == a.moves + p.moves && c.tags == a.tags + p.tags && c.comments == a.comments + p.comments &&
              c.structure == a.structure + p.structure && c.overhead == a.overhead + e.overhead + p.overhead &&
              sum(&c) == cat.size,
          "concatenated archives: the members' parts add up");
    free(annotated.data);
    free(plain.data);
    free(empty.data);
    free(one.data);
    free(cat.data);
    return test_finish();
}
