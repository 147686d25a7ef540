/* What structure version 4's per-game check and the block's text digest catch (doc/format.md, "Coded
 * records"; doc/trust.md): 12 Lichess games coded as one block (synthetic scores from the
 * oracle the fuzz target uses, so no engine), each decoded alone and the whole block
 * decoded. A record whose check bits disagree with its game's text (as after a decode that
 * went wrong) is refused when that game is decoded alone and when the block is, the other
 * games still decode alone; a block whose text digest disagrees is refused whole while
 * each game alone still decodes (its check passes): the digest is what checks a whole
 * block. The stored check is the low 2 bits of the game's crc32. Also: the packing of the
 * structure stream that the block codec hands to the archive writer (made while choosing
 * the tag coding) is what the packer makes of the stream, byte for byte. */
#include <stdlib.h>
#include <string.h>

#include "../common/uz_test_games.h"
#include "archive/packer.h"
#include "block/block_codec.h"
#include "../../src/lib/lib_internal.h"

enum { N = 12, WRONG = 5 };

/* The games coded as one block in structure version 4; game WRONG's record gets flip xored into its
 * crc32 before it is written. */
static void encode(uz_oracle *oracle, const uz_model *model, uz_game *games, uint32_t flip, uz_block_bytes *out)
{
    uz_encoder *enc = NULL;
    uz_block_out_game *recs = NULL;
    uz_diag d = {0};
    memset(out, 0, sizeof *out);
    CHECK(uz_encoder_create(&enc, UZ_CODER_RANGE) == UZ_OK && uz_block_records_new(&recs, games, N, NULL, &d) == UZ_OK,
          "records: %s", d.message);
    recs[WRONG].crc ^= flip;
    uz_block_coder bc = {.moves = {.oracle = oracle, .model = model, .enc = enc}, .struct_version = 4};
    CHECK(uz_block_encode_records(&bc, recs, N, out, &d) == UZ_OK,
          "encode: %s", d.message);
    uz_block_out_games_free(recs, N);
    uz_encoder_destroy(enc);
}

/* Decodes games [first, first + count) of the block; the result. */
static uz_result decode(uz_member_decoder *md, const uz_block_bytes *c, uint64_t digest, size_t first, size_t count)
{
    uz_archive_block block = {0};
    block.n_games = N;
    block.tree_moves = c->n_moves;
    block.struct_version = 4;
    block.tag_version = UZ_TAG_VERSION; /* as uz_block_encode_records writes it */
    block.text_digest = digest;
    block.structure = c->structure;
    block.moves = c->moves;
    uz_game games[N];
    for (size_t i = 0; i < count; i++)
        uz_game_init(&games[i]);
    uz_diag d = {0};
    uz_block_coder bc = uz_block_coder_of_member(md);
    uz_result r = uz_block_decode(&bc, &block, first, count, games, 0, &d);
    for (size_t i = 0; i < count; i++)
        uz_game_clear(&games[i]);
    return r;
}

int main(void)
{
    char path[4096];
    static uz_game games[N];
    size_t n = 0;
    uz_test_read_games(corpus_path("cat1_lichess_rated_blitz_rapid.pgn", path), 0, N, games, N, &n);
    CHECK(n == N, "%zu games read", n);
    uz_oracle *synth = NULL;
    CHECK(uz_oracle_synthetic_create(&synth) == UZ_OK, "synthetic oracle");
    uz_model_params params = uz_model_default_params();
    params.opening_alpha16 = params.opening_plies = 0; /* each game decodes on its own moves alone */
    uz_model model;
    CHECK(uz_model_open(&model, &params, NULL) == UZ_OK, "model");
    uz_member_decoder md;
    memset(&md, 0, sizeof md);
    md.oracle = synth;
    md.model = model;
    md.coder = UZ_CODER_RANGE;

    uz_block_bytes good, bad_check, outside;
    encode(synth, &model, games, 0, &good);
    encode(synth, &model, games, 1, &bad_check);  /* inside the 2 check bits */
    encode(synth, &model, games, 4, &outside);    /* above them: not stored */
    for (size_t i = 0; i < N; i++)
        CHECK(decode(&md, &good, good.text_digest, i, 1) == UZ_OK, "game %zu alone does not decode", i + 1);
    CHECK(decode(&md, &good, good.text_digest, 0, N) == UZ_OK, "the block does not decode");

    /* The archive writer writes the handed-over packing as it is: it must be the packer's. */
    uz_buf repacked = {0};
    unsigned method = 0;
    CHECK(good.packed.size > 0, "the tags were coded, yet no packing was handed over");
    CHECK(uz__pack(good.structure.data, good.structure.size, &repacked, &method) == UZ_OK, "pack");
    CHECK(method == good.method && repacked.size == good.packed.size &&
              memcmp(repacked.data, good.packed.data, repacked.size) == 0,
          "the packing handed over (method %u, %zu bytes) is not the packer's (method %u, %zu bytes)", good.method,
          good.packed.size, method, repacked.size);
    uz_buf_free(&repacked);

    CHECK(decode(&md, &bad_check, bad_check.text_digest, WRONG, 1) == UZ_ERR_CORRUPT,
          "a game whose check bits disagree decodes alone");
    CHECK(decode(&md, &bad_check, bad_check.text_digest, WRONG + 1, 1) == UZ_OK, "the game after it does not decode alone");
    CHECK(decode(&md, &bad_check, bad_check.text_digest, 0, N) == UZ_ERR_CORRUPT,
          "a block with a game whose check bits disagree decodes");

    CHECK(outside.structure.size == good.structure.size &&
              memcmp(outside.structure.data, good.structure.data, good.structure.size) == 0,
          "bits of the crc32 above the check change the structure stream");
    CHECK(decode(&md, &good, good.text_digest ^ 1, 0, N) == UZ_ERR_CORRUPT, "a block whose digest disagrees decodes");
    for (size_t i = 0; i < N; i++)
        CHECK(decode(&md, &good, good.text_digest ^ 1, i, 1) == UZ_OK, "game %zu alone does not decode", i + 1);

    uz_block_bytes *all[] = {&good, &bad_check, &outside};
    for (size_t i = 0; i < 3; i++)
        uz_block_bytes_free(all[i]);
    uz_oracle_destroy(synth);
    for (size_t i = 0; i < n; i++)
        uz_game_clear(&games[i]);
    return test_finish();
}
