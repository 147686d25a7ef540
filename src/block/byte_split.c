/* Where an archive's bytes go: moves, tags, comments, structure and overhead. */
#include <string.h>

#include "block/byte_split.h"

#include "archive/packer.h"
#include "block/block_internal.h"
#include "block/game_struct.h"
#include "block/game_struct_internal.h"

void uz_byte_split_init(uz_byte_split *s)
{
    memset(s, 0, sizeof *s);
}

/* a * b / c rounded down; a (a block's stored structure, at most 2^30) times b (at most
 * c, the sections compressed on their own: about as much again) stays far below 2^64. */
static uint64_t share(uint64_t a, uint64_t b, uint64_t c)
{
    return c ? a * b / c : 0;
}

int uz__struct_spans(const uint8_t *data, size_t size, unsigned version, uz__struct_span *out)
{
    uz_cursor head = {data, data + size};
    uint64_t sizes[N_SECTIONS] = {0};
    int n_sections = sections_of(version);
    if (version > UZ_STRUCT_VERSION || n_sections + 1 > UZ__MAX_STRUCT_SPANS)
        return -1;
    for (int s = 0; s < n_sections; s++)
        if (uz_cursor_varint(&head, &sizes[s]) != UZ_OK)
            return -1;
    out[0] = (uz__struct_span){data, (size_t)(head.p - data), UZ__PART_STRUCTURE};
    const uint8_t *p = head.p;
    for (int s = 0; s < n_sections; s++) {
        if (sizes[s] > (uint64_t)(head.end - p))
            return -1;
        enum uz__struct_part part = UZ__PART_STRUCTURE;
        if (s == SEC_NAMES || s == SEC_VALUES || s == SEC_TAG_CODE)
            part = UZ__PART_TAGS;
        else if (s == SEC_COMMENTS)
            part = UZ__PART_COMMENTS;
        else if (s == SEC_COMMENT_CODE)
            part = UZ__PART_COMMENT_CODE;
        out[1 + s] = (uz__struct_span){p, (size_t)sizes[s], part};
        p += sizes[s];
    }
    if (version >= 2 && p <= head.end) { /* the engine code: the rest */
        out[1 + n_sections] = (uz__struct_span){p, (size_t)(head.end - p), UZ__PART_ENGINE_CODE};
        return 2 + n_sections;
    }
    return p == head.end ? 1 + n_sections : -1;
}

uz_result uz_byte_split_add_block(uz_byte_split *s, const uz_archive_block *b)
{
    s->moves += b->moves.size;
    uz__struct_span spans[UZ__MAX_STRUCT_SPANS];
    int n = uz__struct_spans(b->structure.data, b->structure.size, b->struct_version, spans);
    uint64_t weight[UZ__N_PARTS] = {0}, total = 0;
    uz_buf packed = {0};
    uz_result r = UZ_OK;
    /* The stream is compressed as a whole: each part gets the share of its sections
     * compressed on their own (with the block's method) in the sum of all of them, less
     * the frame each such packing has of its own (what an empty input packs to): the
     * stream has one, and a small block's dozen sections would otherwise weigh a dozen
     * frames, most of them the structure's. */
    static const uint8_t nothing[1];
    uint64_t frame = 0;
    if (n > 0 && (r = uz__pack_with(b->struct_method, nothing, 0, &packed)) == UZ_OK)
        frame = packed.size;
    for (int i = 0; i < n && r == UZ_OK; i++) {
        if (spans[i].n == 0)
            continue;
        r = uz__pack_with(b->struct_method, spans[i].p, spans[i].n, &packed);
        uint64_t w = packed.size > frame ? packed.size - frame : 1; /* (a non-empty section weighs something) */
        weight[spans[i].part] += w;
        total += w;
    }
    uz_buf_free(&packed);
    if (r != UZ_OK)
        return r;
    uint64_t tags = share(b->struct_stored, weight[UZ__PART_TAGS], total);
    uint64_t comments = share(b->struct_stored, weight[UZ__PART_COMMENTS], total);
    uint64_t coded = share(b->struct_stored, weight[UZ__PART_COMMENT_CODE], total);
    uint64_t engine_code = share(b->struct_stored, weight[UZ__PART_ENGINE_CODE], total);
    /* The coded comments' share goes to clocks, engine comments and the others by what
     * their bits cost when the stream is decoded. */
    uz_struct_comment_info info;
    uz_diag ignored = {0};
    uint64_t clocks = 0, engine = 0;
    if (coded && uz_block_struct_comment_info(b->structure.data, b->structure.size, b->struct_version, b->tag_version,
                                              b->comment_revision, b->comment_text, b->n_games,
                                              &info, &ignored) == UZ_OK) {
        /* In whole bits (a block's stream is below 2^33 bits): coded * bits stays below 2^64. */
        uint64_t c_bits = info.cost_clocks >> 16, e_bits = info.cost_engine >> 16, t_bits = info.cost_text >> 16;
        clocks = share(coded, c_bits, c_bits + e_bits + t_bits);
        engine = share(coded, e_bits, c_bits + e_bits + t_bits);
    }
    s->tags += tags;
    s->clocks += clocks;
    s->engine_comments += engine + engine_code;
    s->comments += comments + coded - clocks - engine;
    s->structure += b->struct_stored - tags - comments - coded - engine_code; /* (all of it if n < 0: unreadable sections) */
    return UZ_OK;
}

void uz_byte_split_finish(uz_byte_split *s, uint64_t total_bytes)
{
    uint64_t parts = s->moves + s->tags + s->clocks + s->engine_comments + s->comments + s->structure;
    s->overhead = total_bytes > parts ? total_bytes - parts : 0;
}

uz_result uz_archive_byte_split(FILE *f, const char *name, uz_byte_split *out, uz_diag *diag)
{
    uz_archive_reader *r = NULL;
    uz_archive_header h;
    uz_archive_block b = {0};
    uz_byte_split_init(out);
    uz_result res = uz_archive_reader_open(&r, f, name);
    if (res != UZ_OK) {
        uz_diag_set(diag, res, 0, 0, "out of memory");
        return res;
    }
    while ((res = uz_archive_read_header(r, &h, diag)) == UZ_OK) {
        while ((res = uz_archive_read_block(r, &b, diag)) == UZ_OK)
            if ((res = uz_byte_split_add_block(out, &b)) != UZ_OK) {
                uz_diag_set(diag, res, 0, 0, "out of memory");
                break;
            }
        if (res != UZ_DONE)
            break;
    }
    if (res == UZ_DONE) {
        res = UZ_OK;
        uz_byte_split_finish(out, uz_archive_reader_offset(r));
    }
    uz_archive_block_free(&b);
    uz_archive_reader_close(r);
    return res;
}
