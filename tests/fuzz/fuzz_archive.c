/* Fuzz target for the archive decoder: the container (header, blocks, index, footer),
 * the structure stream and the move decoders. No engine runs here: moves are decoded
 * against uniform scores, which exercises the walk and the coders on any input; the
 * engine's answers are tested elsewhere.
 * Input: first byte even -> the rest is an archive file; odd -> the rest is a raw block
 * body (structure stream, then move streams), which skips the checksums. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ucizip/archive.h"
#include "ucizip/coder.h"
#include "ucizip/gamecode.h"
#include "ucizip/model.h"

/* Decodes the moves of one game tree from a move stream, scores all zero. */
static void decode_moves(uz_game *game, const uint8_t *stream, size_t size, uz_coder_kind coder, const uz_model *model)
{
    uz_walk w;
    if (uz_walk_init(&w, game) != UZ_OK)
        return;
    uz_decoder dec;
    if (uz_decoder_init(&dec, coder, stream, size) != UZ_OK)
        goto out;
    uz_move legal[UZ_MAX_MOVES];
    int32_t scores[UZ_MAX_MOVES] = {0};
    uint32_t freq[UZ_MAX_MOVES];
    while (w.resolved < w.n_steps) {
        size_t s = w.resolved;
        int n;
        if (uz_walk_resolve_next(&w, legal, &n) != UZ_OK)
            goto out;
        uz_node *node = w.steps[s].node;
        if (node->move == UZ_MOVE_NULL)
            continue;
        if (n == 0)
            goto out;
        int symbol = 0;
        if (n > 1) {
            for (int i = 0; i < n; i++)
                scores[i] = (int32_t)(i * 37 % 200) - 100; /* varied, deterministic */
            uint32_t total = uz_model_frequencies(model, scores, n, freq);
            if (uz_decoder_get(&dec, freq, n, total, &symbol) != UZ_OK)
                goto out;
        }
        if (symbol < 0 || symbol >= n)
            abort(); /* the decoder promised a symbol in range */
        node->move = legal[symbol];
    }
    (void)uz_decoder_finish(&dec);
out:
    uz_walk_free(&w);
}

static void decode_block_body(const uint8_t *structure, size_t s_size, const uint8_t *moves, size_t m_size,
                              size_t n_games, uz_coder_kind coder, const uz_model *model)
{
    if (n_games > s_size / 5) /* as uz_block_decode checks before allocating */
        return;
    uz_game *games = calloc(n_games ? n_games : 1, sizeof *games);
    size_t *lens = calloc(n_games ? n_games : 1, sizeof *lens);
    uint32_t *crcs = calloc(n_games ? n_games : 1, sizeof *crcs);
    const uint8_t **recs = calloc(n_games ? n_games : 1, sizeof *recs);
    size_t *rec_lens = calloc(n_games ? n_games : 1, sizeof *rec_lens);
    if (games && lens && crcs && recs && rec_lens &&
        uz_block_struct_read(structure, s_size, games, n_games, lens, crcs, recs, rec_lens, NULL) == UZ_OK) {
        size_t offset = 0;
        for (size_t i = 0; i < n_games && lens[i] <= m_size - offset; i++) {
            decode_moves(&games[i], moves + offset, lens[i], coder, model);
            offset += lens[i];
        }
    }
    for (size_t i = 0; games && i < n_games; i++)
        uz_game_clear(&games[i]);
    free(games);
    free(lens);
    free(crcs);
    free(recs);
    free(rec_lens);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uz_model model;
    uz_model_params params = uz_model_default_params();
    uz_model_init(&model, &params);
    uz_coder_kind coder = (data[0] & 2) ? UZ_CODER_HUFFMAN : UZ_CODER_RANGE;
    if (data[0] & 1) {
        /* Raw body: a split point from the second byte, games until the bytes run out. */
        if (size < 2)
            return 0;
        size_t split = 2 + (size - 2) * data[1] / 256;
        decode_block_body(data + 2, split - 2, data + split, size - split, 1 + data[1] % 8, coder, &model);
        return 0;
    }
    FILE *f = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "rb");
    if (!f)
        return 0;
    uz_archive_reader *r = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    if (size > 1 && uz_archive_reader_open(&r, f, "fuzz") == UZ_OK) {
        while (uz_archive_read_header(r, &header, NULL) == UZ_OK) {
            uz_coder_kind kind = header.coder == UZ_CODER_HUFFMAN ? UZ_CODER_HUFFMAN : UZ_CODER_RANGE;
            uz_result res;
            while ((res = uz_archive_read_block(r, &block, NULL)) == UZ_OK)
                decode_block_body(block.structure.data, block.structure.size, block.moves.data, block.moves.size,
                                  block.n_games, kind, &model);
            if (res != UZ_DONE)
                break;
        }
    }
    uz_archive_block_free(&block);
    uz_archive_reader_close(r);
    /* Random access over the same bytes. */
    uz_archive_member_info members[4];
    size_t n_members;
    size_t index;
    uz_archive_list_members(f, "fuzz", members, 4, &n_members, NULL);
    if (uz_archive_seek_game(f, "fuzz", 1, &header, &block, &index, NULL) == UZ_OK)
        decode_block_body(block.structure.data, block.structure.size, block.moves.data, block.moves.size,
                          block.n_games, coder, &model);
    uz_archive_block_free(&block);
    fclose(f);
    return 0;
}
