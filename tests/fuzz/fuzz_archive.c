/* Fuzz target for the archive decoder: the real decode path of decompress, verify and
 * extract (the library's decompressor, uz_archive_seek_game + uz_block_decode) with deterministic
 * synthetic scores in place of the engine (uz_oracle_synthetic_create), so the container, the
 * structure stream, the walk, the model and both coders all run on any input.
 * Input: first byte even -> the rest is an archive file; odd -> the rest is a raw block
 * (structure stream, then move streams) given to uz_block_decode, which skips the
 * container's checksums so that the fuzzer reaches the structure and move decoders; with
 * bit 2 of the first byte the structure stream is in structure version 1 (coded comments and tags),
 * with bits 2 and 3 in structure version 3 (engine comment code, comment models of revision 2, tags
 * derived from the moves), with bits 2 and 4 in structure version 4 (structure version 3 with range-coded game
 * records); with bit 5 its tags are coded in tag version 2 (header key 16); bit 6 with
 * bit 2 codes the comments with the models of revision 3 (header key 17: clocks by think
 * time); bit 7 with bits 2 and 4 decodes the block with every version the newest (structure
 * version 5: the record models' trained start; comment
 * revision 4: main-line clocks coded after the moves; tag version 4: values derived from
 * the moves, the codes range-coded; engine code revision 2, header key 18); bit 7 alone
 * frames the comments section's texts each ended by a NUL (header key 19 = 2) and codes the
 * moves with the engines' newest player-model weight set (v15: the policy over the board). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "block/block_codec.h"
#include "model/player_model.h"
#include "../../src/lib/lib_internal.h"
#include "fuzz_target.h"

/* A raw block: the split point and game count from the second byte. */
static void decode_raw_block(const uint8_t *data, size_t size, uz_member_decoder *md, const uz_engine_settings *base)
{
    if (size < 2)
        return;
    uz_archive_header h;
    memset(&h, 0, sizeof h);
    uz_model_params p = uz_model_default_params();
    const uint32_t params[] = {p.k_milli, p.floor_q16, p.rank_q16, p.decay_q16};
    h.model_kind = p.kind;
    h.n_model_params = (uint32_t)uz_model_param_count(p.kind);
    for (uint32_t i = 0; i < h.n_model_params; i++)
        h.model_params[i] = params[i];
    if (data[0] & 128) { /* every version the newest: the engines' newest weight set */
        const uz_player_model *pm = uz_pm_builtin_version(UZ_PM_DEFAULT_VERSION_ENGINE);
        h.model_kind = UZ_MODEL_PLAYER;
        h.n_model_params = 3;
        h.model_params[0] = pm->version;
        h.model_params[1] = (uint32_t)pm->hash;
        h.model_params[2] = (uint32_t)(pm->hash >> 32);
    }
    h.coder = (data[0] & 2) ? UZ_CODER_HUFFMAN : UZ_CODER_RANGE;
    uz_diag diag = {0};
    if (uz_member_decoder_open(md, &h, base, 1, &diag) != UZ_OK)
        return;
    size_t start = 2, split = 2 + (size - 2) * data[1] / 256;
    uz_archive_block block = {0};
    if (data[0] & 4) { /* structure version 1, 3 or 4: its size in two more bytes (little-endian) */
        if (size < 4 || (start = 4) + (data[2] | (size_t)data[3] << 8) > size)
            return;
        split = 4 + (data[2] | (size_t)data[3] << 8);
        block.struct_version = (data[0] & 16) ? ((data[0] & 128) ? UZ_STRUCT_VERSION : 4) : (data[0] & 8) ? 3 : 1;
        block.comment_revision = (data[0] & 128) && (data[0] & 16) ? UZ_COMMENT_REVISION : (data[0] & 64) ? 3 : 0;
    }
    if ((data[0] & 128) && (data[0] & 4) && (data[0] & 16)) /* every version the newest */
        block.engine_revision = UZ_ENGINE_REVISION;
    block.tag_version = (data[0] & 32) ? 2 : 1;
    if ((data[0] & (128 | 16 | 4)) == (128 | 16 | 4))
        block.tag_version = UZ_TAG_VERSION;
    if (data[0] & 128) /* every version the newest: the comments section's framing (key 19) */
        block.comment_text = UZ_COMMENT_TEXT_NUL;
    block.n_games = 1 + data[1] % 8;
    block.tree_moves = md->limits.block_nodes;
    block.structure = (uz_buf){(uint8_t *)data + start, split - start, 0};
    block.moves = (uz_buf){(uint8_t *)data + split, size - split, 0};
    uz_game games[8];
    for (size_t i = 0; i < block.n_games; i++)
        uz_game_init(&games[i]);
    uz_block_coder bc = uz_block_coder_of_member(md);
    (void)uz_block_decode(&bc, &block, 0, block.n_games, games, 0, &diag);
    for (size_t i = 0; i < block.n_games; i++)
        uz_game_clear(&games[i]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uz_oracle *synth = NULL;
    if (uz_oracle_synthetic_create(&synth) != UZ_OK)
        return 0;
    uz_engine_settings base;
    memset(&base, 0, sizeof base);
    uz_member_decoder md;
    memset(&md, 0, sizeof md);
    md.oracle = synth;
    /* Small decoder limits keep each run fast; the checks are the same at any size. */
    md.limits = (uz_decode_limits){1u << 14, 1u << 22, 0};
    if (data[0] & 1) {
        decode_raw_block(data, size, &md, &base);
        uz_oracle_destroy(synth);
        return 0;
    }
    data++, size--;
    FILE *f = size ? fmemopen((void *)data, size, "rb") : NULL;
    if (!f) {
        uz_oracle_destroy(synth);
        return 0;
    }
    uz_diag diag = {0};
    uz_options o;
    uz_options_init(&o);
    o.workers = 1;
    o.max_block_moves = md.limits.block_nodes;
    o.max_block_bytes = md.limits.block_struct_bytes;
    uz_decompressor *dec = NULL;
    if (uz_decompressor_open(&dec, &o, &diag) == UZ_OK) {
        uz_decompressor_use_oracle(dec, synth);
        (void)uz_decompressor_decode(dec, f, "fuzz", NULL, NULL, &diag);
        uz_decompressor_close(dec);
    }

    /* Random access (extract) over the same bytes. */
    uz_archive_member_info members[4];
    size_t n_members, index;
    uz_archive_header header;
    uz_archive_block block = {0};
    uz_archive_list_members(f, "fuzz", members, 4, &n_members, NULL);
    if (uz_archive_seek_game(f, "fuzz", 1, &header, &block, &index, NULL, NULL) == UZ_OK) {
        md.oracle = synth;
        md.limits = (uz_decode_limits){1u << 14, 1u << 22, 0};
        if (uz_member_decoder_open(&md, &header, &base, 1, &diag) == UZ_OK) {
            uz_game game;
            uz_game_init(&game);
            uz_block_coder bc = uz_block_coder_of_member(&md);
            (void)uz_block_decode(&bc, &block, index, 1, &game, 0, &diag);
            uz_game_clear(&game);
        }
    }
    uz_archive_block_free(&block);
    uz_member_decoder_close(&md);
    uz_oracle_destroy(synth);
    fclose(f);
    return 0;
}
