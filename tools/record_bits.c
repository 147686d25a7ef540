/* ucizip-record-bits: where the per-game structure of archives goes (doc/format.md,
 * "Structure stream" and "Coded records"). For every archive given, block by block: the
 * games, the structure stream as stored (packed), the part of it that `ucizip info` counts
 * as structure (block/byte_split.c), and the structure stream's own parts raw: the section
 * sizes at its head, the records section (in structure version 4 and later: its coded
 * records, and its width, size and strings framing them) and the text records; then what
 * each costs packed: the packed stream less the packed stream without it (the stream packed
 * as a whole, so a part's bytes are what leaving it out saves), and the packer's frame (an
 * empty stream packed). Used by scripts/record_bits.sh. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/packer.h"
#include "block/block_internal.h"
#include "block/byte_split.h"
#include "common/buf.h"

/* A stream's sections, as uz__struct_spans gives them: [0] the section sizes, [1 + s] section s. */
enum { SPAN_HEAD = 0, SPAN_RECORDS = 2, SPAN_TEXT = 5 };

typedef struct totals {
    uint64_t games, stored, split_structure, head, records, coded, text;
    uint64_t cost_records, cost_text, cost_head, frame;
} totals;

/* The block's method packing the stream made of the spans, span `drop` left out (its size 0
 * in the head; -1: none left out). */
static uint64_t packed_without(const uz_archive_block *b, const uz__struct_span *spans, int n, int drop)
{
    uz_buf s = {0}, z = {0};
    for (int i = 1; i < n; i++)
        if (i < n - (b->struct_version >= 2)) /* (the engine code has no size in the head) */
            uz_buf_put_varint(&s, i == drop ? 0 : spans[i].n);
    for (int i = 1; i < n; i++)
        if (i != drop)
            uz_buf_append(&s, spans[i].p, spans[i].n);
    uint64_t size = uz__pack_with(b->struct_method, s.data, s.size, &z) == UZ_OK ? z.size : 0;
    uz_buf_free(&s);
    uz_buf_free(&z);
    return size;
}

/* The coded part of a structure version 4 records section: check_bits, code_size, code. */
static uint64_t coded_size(const uz__struct_span *records)
{
    uz_cursor c = {records->p, records->p + records->n};
    uint64_t check_bits, code;
    if (uz_cursor_varint(&c, &check_bits) != UZ_OK || uz_cursor_varint(&c, &code) != UZ_OK)
        return 0;
    return code;
}

static int add_archive(const char *path, totals *t)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "ucizip-record-bits: %s: cannot open\n", path);
        return 1;
    }
    uz_archive_reader *r = NULL;
    uz_archive_header h;
    uz_archive_block b = {0};
    uz_diag d = {0};
    uz_result res = uz_archive_reader_open(&r, f, path);
    while (res == UZ_OK && (res = uz_archive_read_header(r, &h, &d)) == UZ_OK) {
        while ((res = uz_archive_read_block(r, &b, &d)) == UZ_OK) {
            uz__struct_span spans[UZ__MAX_STRUCT_SPANS];
            int n = uz__struct_spans(b.structure.data, b.structure.size, b.struct_version, spans);
            uz_byte_split split;
            uz_byte_split_init(&split);
            if (n < 0 || uz_byte_split_add_block(&split, &b) != UZ_OK) {
                fprintf(stderr, "ucizip-record-bits: %s: unreadable structure stream\n", path);
                res = UZ_ERR_CORRUPT;
                break;
            }
            uint64_t all = packed_without(&b, spans, n, -1);
            uz_buf z = {0};
            t->frame += uz__pack_with(b.struct_method, NULL, 0, &z) == UZ_OK ? z.size : 0;
            uz_buf_free(&z);
            t->games += b.n_games;
            t->stored += b.struct_stored;
            t->split_structure += split.structure;
            t->head += spans[SPAN_HEAD].n;
            t->records += spans[SPAN_RECORDS].n;
            t->coded += b.struct_version >= 4 ? coded_size(&spans[SPAN_RECORDS]) : 0;
            t->text += spans[SPAN_TEXT].n;
            t->cost_records += all - packed_without(&b, spans, n, SPAN_RECORDS);
            t->cost_text += all - packed_without(&b, spans, n, SPAN_TEXT);
            /* The head's cost: the stream packed less the sections alone, one after the other. */
            uz_buf s = {0};
            for (int i = 1; i < n; i++)
                uz_buf_append(&s, spans[i].p, spans[i].n);
            t->cost_head += all - (uz__pack_with(b.struct_method, s.data, s.size, &z) == UZ_OK ? z.size : 0);
            uz_buf_free(&s);
            uz_buf_free(&z);
        }
        if (res == UZ_DONE)
            res = UZ_OK;
    }
    if (res != UZ_DONE && res != UZ_OK)
        fprintf(stderr, "ucizip-record-bits: %s: %s\n", path, d.message);
    uz_archive_block_free(&b);
    uz_archive_reader_close(r);
    fclose(f);
    return res == UZ_DONE || res == UZ_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: ucizip-record-bits ARCHIVE.ucz...\n");
        return 2;
    }
    printf("archive\tgames\tstored\tinfo's structure\traw: head\trecords\tcoded records\ttext\t"
           "packed: records\ttext\thead\tframe\t(bytes a game)\n");
    for (int i = 1; i < argc; i++) {
        totals t = {0};
        if (add_archive(argv[i], &t))
            return 1;
        double g = t.games ? (double)t.games : 1;
        printf("%s\t%" PRIu64 "\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", argv[i], t.games,
               (double)t.stored / g, (double)t.split_structure / g, (double)t.head / g, (double)t.records / g,
               (double)t.coded / g, (double)t.text / g, (double)(int64_t)t.cost_records / g,
               (double)(int64_t)t.cost_text / g, (double)(int64_t)t.cost_head / g, (double)t.frame / g);
    }
    return 0;
}
