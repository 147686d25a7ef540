/* Archive members and checks that need no engine. */
#include <stdlib.h>
#include <string.h>

#include "lib_internal.h"
#include "gamecode/member.h"

uz_result uz_archive_members(FILE *f, const char *name, uz_member_info *out, size_t cap, size_t *n, uz_diag *diag)
{
    uz_archive_member_info *list = cap ? calloc(cap, sizeof *list) : NULL;
    if (cap && !list) {
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return UZ_ERR_NOMEM;
    }
    uz_result r = uz_archive_list_members(f, name ? name : "<archive>", list, cap, n, diag);
    for (size_t i = 0; r == UZ_OK && i < cap && i < *n; i++) {
        uz_archive_header *h = &list[i].header;
        uz_header_profile_settings(h); /* (a header without settings: its profile's) */
        uz_member_info *m = &out[i];
        memset(m, 0, sizeof *m);
        m->offset = list[i].offset;
        m->length = list[i].length;
        m->games = list[i].games;
        m->blocks = list[i].blocks;
        m->moves = list[i].moves;
        snprintf(m->engine, sizeof m->engine, "%s", h->engine_name);
        snprintf(m->settings, sizeof m->settings, "%s", h->settings_summary);
        uz_model_params params;
        if (uz_header_model(h, &params) == UZ_OK)
            uz_lib_model_text(&params, m->model, sizeof m->model);
        else
            snprintf(m->model, sizeof m->model, "unknown model %u", h->model_kind);
        snprintf(m->coder, sizeof m->coder, "%s", uz_lib_coder_name((uz_coder_kind)h->coder));
        m->chess960 = h->chess960_fingerprint[0] != 0;
    }
    free(list);
    return r;
}

void *uz_lib_scanner_open(size_t size, FILE *f, const char *name, uz_diag *diag)
{
    uz_archive_reader **reader = size >= sizeof *reader ? calloc(1, size) : NULL;
    if (!reader || uz_archive_reader_open(reader, f, name ? name : "<archive>") != UZ_OK) {
        free(reader);
        uz_diag_set(diag, UZ_ERR_NOMEM, 0, 0, "out of memory");
        return NULL;
    }
    return reader;
}

uz_result uz_archive_check(FILE *f, const char *name, uz_diag *diag)
{
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_result r = uz_archive_reader_open(&reader, f, name ? name : "<archive>");
    if (r != UZ_OK) {
        uz_diag_set(diag, r, 0, 0, "out of memory");
        return r;
    }
    while ((r = uz_archive_read_header(reader, &header, diag)) == UZ_OK) {
        while ((r = uz_archive_read_block(reader, &block, diag)) == UZ_OK)
            ;
        if (r != UZ_DONE)
            break;
    }
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    return r == UZ_DONE ? UZ_OK : r;
}
