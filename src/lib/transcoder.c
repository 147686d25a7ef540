/* uz_transcode: an archive's moves re-coded with another oracle.
 *
 * The games are decoded with the oracle each member names into their text (the exact
 * bytes that were compressed, held in memory), which is compressed again with the
 * options' engine and the source's coding settings: its model and parameters, coder,
 * opening counts and block size. The output is therefore the archive that compressing
 * the decoded text with those settings gives, and decodes to the same bytes. */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "archive/archive.h"
#include "gamecode/member.h"

/* Decodes every game of in into *text (malloc'd, *len bytes); *header receives the first
 * member's header (*have_header false for a file without any). */
static uz_result decode_to_memory(FILE *in, const char *name, const uz_options *options, char **text, size_t *len,
                                  uz_archive_header *header, bool *have_header, uint64_t *games, uz_diag *diag)
{
    uz_options dec = *options;
    dec.engine = NULL; /* each member names its oracle */
    dec.canonical = false;
    *text = NULL;
    *len = 0;
    FILE *mem = open_memstream(text, len);
    if (!mem) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_decompressor *d = NULL;
    uz_result r = uz_decompressor_open(&d, &dec, diag);
    if (r == UZ_OK)
        r = uz_decompressor_decode(d, in, name, mem, games, diag);
    *have_header = d && uz_lib_decompressor_first_header(d, header);
    uz_decompressor_close(d);
    if (fclose(mem) != 0 && r == UZ_OK) {
        r = UZ_ERR_NOMEM;
        uz_diag_set(diag, r, 0, 0, "out of memory");
    }
    return r;
}

uz_result uz_transcode(FILE *in, const char *in_name, FILE *out, const uz_options *options, uint64_t *games,
                       uz_diag *diag)
{
    uz_result r = uz_lib_check_options(options, diag);
    if (r != UZ_OK)
        return r;
    in_name = in_name ? in_name : "<archive>";
    char *text = NULL;
    size_t len = 0;
    uz_archive_header header;
    bool have_header = false;
    uint64_t n_games = 0;
    if ((r = decode_to_memory(in, in_name, options, &text, &len, &header, &have_header, &n_games, diag)) != UZ_OK)
        goto out;
    uz_options enc = *options;
    enc.canonical = false; /* the decoded text is what was stored: kept as it is */
    enc.max_games = 0;
    enc.bad_games = UZ_POLICY_KEEP_AS_TEXT;
    enc.variants = UZ_POLICY_KEEP_AS_TEXT;
    if (have_header)
        enc.block_games = header.block_games;
    uz_compressor *c = NULL;
    if ((r = uz_compressor_open(&c, &enc, diag)) == UZ_OK && have_header) {
        uz_model_params params;
        if (uz_header_model(&header, &params) != UZ_OK) { /* the decoder took it: cannot happen */
            r = UZ_ERR_UNSUPPORTED;
            uz_diag_set(diag, r, 0, 0, "%s: unknown model in the archive header", in_name);
        } else {
            if (params.kind == UZ_MODEL_PLAYER) /* the weight set new archives of this oracle get */
                params.player_version = params.player_hash_lo = params.player_hash_hi = 0;
            r = uz_lib_compressor_use_model(c, &params, (uz_coder_kind)header.coder, diag);
        }
    }
    if (r == UZ_OK)
        r = uz_compressor_begin(c, out, diag);
    if (r == UZ_OK && len > 0)
        r = uz_compressor_add_text(c, text, len, in_name, diag);
    if (r == UZ_OK)
        r = uz_compressor_finish(c, diag);
    uz_compressor_close(c);
out:
    free(text);
    if (games)
        *games = n_games;
    return r;
}
