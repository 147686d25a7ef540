/* ucizip-record-bits: where the per-game structure of archives goes (doc/format.md,
 * "Structure stream" and "Coded records"). For every archive given, block by block: the
 * games, the structure stream as stored (packed), the part of it that `ucizip info` counts
 * as structure (block/byte_split.c), and the structure stream's own parts raw: the section
 * sizes at its head, the records section (in structure version 4 and later: its coded
 * records, and its width, size and strings framing them) and the text records; then what
 * each costs packed: the packed stream less the packed stream without it (the stream packed
 * as a whole, so a part's bytes are what leaving it out saves), and the packer's frame (an
 * empty stream packed). Used by scripts/record_bits.sh.
 *
 * With --write-prior OUT.inc, the initial state of structure version 5's record models
 * (block/record_prior5.inc) from the archives given (scripts/record_prior.sh: the training
 * part of the corpus and of ../shared/training, compressed in structure version 5): each
 * archive's records decoded from models at p = 1/2, n = 0 with a count capped at 255 (the
 * state then says about what the archive's last few hundred decisions of each model were),
 * and the states of the archives averaged, each weighted by its count, so that no one
 * archive, and not the order of the archives, decides the table. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archive/archive.h"
#include "archive/packer.h"
#include "block/byte_split.h"
#include "block/game_struct.h"
#include "block/record_code.h"
#include "common/buf.h"

/* A part of a structure stream. */
typedef struct span {
    const uint8_t *p;
    size_t n;
} span;
/* A stream's parts: [0] the section sizes, [1 + s] section s (doc/format.md, "Structure stream":
 * names, records, values, comments, text, comment_code, tag_code), then the engine code (the rest). */
enum { SPAN_HEAD = 0, SPAN_RECORDS = 2, SPAN_TEXT = 5, MAX_SPANS = 9 };

/* The parts of a structure stream of structure version 1 or later; how many, or -1 if they do not fit. */
static int cut_stream(const uint8_t *data, size_t size, span *out)
{
    uz_cursor c = {data, data + size};
    uint64_t sizes[7];
    for (int k = 0; k < 7; k++)
        if (uz_cursor_varint(&c, &sizes[k]) != UZ_OK)
            return -1;
    out[SPAN_HEAD] = (span){data, (size_t)(c.p - data)};
    for (int k = 0; k < 7; k++) {
        if (sizes[k] > (uint64_t)(c.end - c.p))
            return -1;
        out[1 + k] = (span){c.p, (size_t)sizes[k]};
        c.p += sizes[k];
    }
    out[8] = (span){c.p, (size_t)(c.end - c.p)};
    return MAX_SPANS;
}

typedef struct totals {
    uint64_t games, stored, split_structure, head, records, coded, text;
    uint64_t cost_records, cost_text, cost_head, frame;
} totals;

/* The block's method packing the stream made of the spans, span `drop` left out (its size 0
 * in the head; -1: none left out). */
static uint64_t packed_without(const uz_archive_block *b, const span *spans, int n, int drop)
{
    uz_buf s = {0}, z = {0};
    for (int i = 1; i < n; i++)
        if (i < n - 1) /* (the engine code has no size in the head) */
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
static uint64_t coded_size(const span *records)
{
    uz_cursor c = {records->p, records->p + records->n};
    uint64_t check_bits, code;
    if (uz_cursor_varint(&c, &check_bits) != UZ_OK || uz_cursor_varint(&c, &code) != UZ_OK)
        return 0;
    return code;
}

/* Reads every block of every member of the archive at path, handing each to fn (which returns
 * UZ_OK to go on); 0, or 1 with a message on stderr. */
typedef uz_result (*block_fn)(const char *path, uz_archive_block *b, uz_diag *d, void *ctx);
static int for_each_block(const char *path, block_fn fn, void *ctx)
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
        while ((res = uz_archive_read_block(r, &b, &d)) == UZ_OK && (res = fn(path, &b, &d, ctx)) == UZ_OK)
            ;
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

/* One block's structure bytes into the totals (ctx). */
static uz_result add_block(const char *path, uz_archive_block *b, uz_diag *d, void *ctx)
{
    (void)d;
    totals *t = ctx;
    span spans[MAX_SPANS];
    int n = b->struct_version >= 1 ? cut_stream(b->structure.data, b->structure.size, spans) : -1;
    uz_byte_split split;
    uz_byte_split_init(&split);
    if (n < 0 || uz_byte_split_add_block(&split, b) != UZ_OK) {
        fprintf(stderr, "ucizip-record-bits: %s: unreadable structure stream\n", path);
        return UZ_ERR_CORRUPT;
    }
    uint64_t all = packed_without(b, spans, n, -1);
    uz_buf z = {0};
    t->frame += uz__pack_with(b->struct_method, NULL, 0, &z) == UZ_OK ? z.size : 0;
    uz_buf_free(&z);
    t->games += b->n_games;
    t->stored += b->struct_stored;
    t->split_structure += split.structure;
    t->head += spans[SPAN_HEAD].n;
    t->records += spans[SPAN_RECORDS].n;
    t->coded += b->struct_version >= 4 ? coded_size(&spans[SPAN_RECORDS]) : 0;
    t->text += spans[SPAN_TEXT].n;
    t->cost_records += all - packed_without(b, spans, n, SPAN_RECORDS);
    t->cost_text += all - packed_without(b, spans, n, SPAN_TEXT);
    /* The head's cost: the stream packed less the sections alone, one after the other. */
    uz_buf s = {0};
    for (int i = 1; i < n; i++)
        uz_buf_append(&s, spans[i].p, spans[i].n);
    t->cost_head += all - (uz__pack_with(b->struct_method, s.data, s.size, &z) == UZ_OK ? z.size : 0);
    uz_buf_free(&s);
    uz_buf_free(&z);
    return UZ_OK;
}

static int add_archive(const char *path, totals *t) { return for_each_block(path, add_block, t); }

/* The most count a trained state may say by default (--prior-n): where a block starts, which its
 * own games soon move. scripts/record_prior.sh --cross chose it: the records of the other half
 * of the corpus's training part took fewest bytes from counts 4 to 8 (Lichess and master files
 * alike at 4 and 8, the odd files better at 4; 24 cost 3 % more, the untrained start about 5 %). */
#define PRIOR_N 4
/* The count cap while training: the archive's last few hundred decisions of each model. */
#define TRAIN_CAP 255

/* Reads every block of the archive (structure version 5) with t learning its records' decisions;
 * with start, t's models are set to *start before each block (what a block's coding costs from
 * there), else they go on from block to block. */
/* The text records that a block cannot take from the game before (doc/format.md, "Coded records",
 * step 4: the block's first and each that differs from the one before), each counted once an
 * archive: how many archives have it (a file whose every game has a layout of its own counts no
 * more than a file of one layout). */
typedef struct text_count {
    uint8_t bytes[64];
    size_t len;
    uint64_t count;
    int archive; /* the last archive that counted it */
} text_count;
typedef struct text_counts {
    text_count *items;
    size_t n, cap;
    int archive; /* the archive being read */
} text_counts;

static void count_texts(text_counts *tc, const uz_archive_block *b)
{
    uz_block_game *games = uz_block_games_new(b->n_games);
    uz_diag d = {0};
    if (!games || uz_block_struct_read(b->structure.data, b->structure.size, b->struct_version, b->tag_version,
                                       b->comment_revision, b->comment_text, games, b->n_games, NULL, &d) != UZ_OK) {
        uz_block_games_free(games, b->n_games);
        return;
    }
    const uz_block_game *prev = NULL;
    for (size_t i = 0; i < b->n_games; i++) {
        const uz_block_game *g = &games[i];
        if (!g->text_rec || g->text_rec_len > sizeof tc->items->bytes)
            continue;
        bool same = prev && prev->text_rec_len == g->text_rec_len && !memcmp(prev->text_rec, g->text_rec, g->text_rec_len);
        prev = g;
        size_t k = 0;
        while (!same && k < tc->n && (tc->items[k].len != g->text_rec_len || memcmp(tc->items[k].bytes, g->text_rec, g->text_rec_len)))
            k++;
        if (same || (k == tc->n && tc->n == tc->cap &&
                     !(tc->items = realloc(tc->items, (tc->cap = tc->cap ? 2 * tc->cap : 64) * sizeof *tc->items))))
            continue;
        if (k == tc->n) {
            tc->items[tc->n++] = (text_count){.len = g->text_rec_len, .archive = -1};
            memcpy(tc->items[k].bytes, g->text_rec, g->text_rec_len);
        }
        tc->items[k].count += tc->items[k].archive != tc->archive;
        tc->items[k].archive = tc->archive;
    }
    uz_block_games_free(games, b->n_games);
}

typedef struct reading {
    uz_record_training *t;
    const uz_record_models *start;
    uint64_t *games;
    text_counts *texts;
} reading;

/* One block's records through the training models (ctx, a reading). */
static uz_result read_block(const char *path, uz_archive_block *b, uz_diag *d, void *ctx)
{
    reading *rd = ctx;
    if (b->struct_version < 5) {
        fprintf(stderr, "ucizip-record-bits: %s: structure version %u, not 5\n", path, b->struct_version);
        return UZ_ERR_CORRUPT;
    }
    if (rd->start)
        *rd->t->models = *rd->start;
    if (rd->texts)
        count_texts(rd->texts, b);
    *rd->games += b->n_games;
    return uz_block_struct_read_models(b->structure.data, b->structure.size, b->struct_version, b->tag_version,
                                       b->comment_revision, b->comment_text, b->n_games, rd->t, d);
}

static int read_archive(const char *path, uz_record_training *t, const uz_record_models *start, uint64_t *games,
                        text_counts *texts)
{
    reading rd = {t, start, games, texts};
    return for_each_block(path, read_block, &rd);
}

/* The archives' trained states: each archive's record models after its records, decoded from
 * p = 1/2, n = 0 with counts capped at TRAIN_CAP, summed: sum_p[k] the sum of p times n,
 * sum_n[k] of n. */
static int train(char **paths, int n, double *sum_p, double *sum_n, uz_record_models *m, text_counts *texts)
{
    for (int i = 0; i < n; i++) {
        uz_record_training t = {m, 0};
        uint64_t games = 0;
        uz_bit_models_init((uz_bit_model *)m, UZ_RECORD_N_MODELS, TRAIN_CAP);
        if (texts)
            texts->archive = i;
        if (read_archive(paths[i], &t, NULL, &games, texts))
            return 1;
        const uz_bit_model *b = (const uz_bit_model *)m;
        for (size_t k = 0; k < UZ_RECORD_N_MODELS; k++)
            sum_p[k] += (double)b[k].p * b[k].n, sum_n[k] += b[k].n;
    }
    return 0;
}

/* A block's starting models from the trained states: every model that an archive used at its p
 * averaged over the archives weighted by their counts, its count their sum, at most prior_n;
 * the others (and all of them when prior_n is 0: structure version 4) at p = 1/2, n = 0. */
static void start_models(uz_record_models *m, const double *sum_p, const double *sum_n, unsigned prior_n)
{
    uz_bit_model *b = (uz_bit_model *)m;
    uz_bit_models_init(b, UZ_RECORD_N_MODELS, UZ_RECORD_CAP);
    for (size_t k = 0; prior_n && k < UZ_RECORD_N_MODELS; k++)
        if (sum_n[k] > 0) {
            double p = sum_p[k] / sum_n[k] + 0.5;
            b[k].p = p > 65535 ? 65535 : (uint16_t)p;
            b[k].n = sum_n[k] < prior_n ? (uint8_t)sum_n[k] : (uint8_t)prior_n;
        }
}

/* record_prior5.inc: the start of start_models, every model whose count is not 0. */
static int by_count(const void *a, const void *b)
{
    const text_count *x = a, *y = b;
    return x->count != y->count ? (x->count < y->count ? 1 : -1) : memcmp(x->bytes, y->bytes, sizeof x->bytes);
}

/* record_prior5.inc: the UZ_RECORD_N_TEXTS text records counted most, then the start of
 * start_models, every model whose count is not 0. */
static int write_prior(const char *out, const uz_record_models *m, int n_archives, text_counts *texts)
{
    if (texts->n < UZ_RECORD_N_TEXTS)
        return 1;
    qsort(texts->items, texts->n, sizeof *texts->items, by_count);
    FILE *f = fopen(out, "w");
    if (!f)
        return 1;
    fprintf(f, "/* Generated by ucizip-record-bits --write-prior (tools/record_bits.c, scripts/record_prior.sh)\n"
               " * from %d archives of the training part of ../shared/corpus and of ../shared/training: the\n"
               " * text records that a block most often could not take from the game before (length, bytes),\n"
               " * and the initial state of structure version 5's record models (index in uz_record_models,\n"
               " * p, n). Frozen: archives depend on it. */\n"
               "static const record_text record_texts[] = {\n",
            n_archives);
    for (size_t k = 0; k < UZ_RECORD_N_TEXTS; k++) {
        fprintf(f, "    {%zu, \"", texts->items[k].len);
        for (size_t i = 0; i < texts->items[k].len; i++)
            fprintf(f, "\\x%02x", texts->items[k].bytes[i]);
        fprintf(f, "\"}, /* %" PRIu64 " archives */\n", texts->items[k].count);
    }
    fprintf(f, "};\nstatic const record_prior record_priors[] = {\n");
    size_t used = 0;
    const uz_bit_model *b = (const uz_bit_model *)m;
    for (size_t k = 0; k < UZ_RECORD_N_MODELS; k++)
        if (b[k].n) {
            fprintf(f, "%s{%zu, %u, %u},", used % 6 ? " " : used ? "\n    " : "    ", k, b[k].p, b[k].n);
            used++;
        }
    fprintf(f, "\n};\n");
    return fclose(f) == 0 && used > 0 ? 0 : 1;
}

/* --cross: the states trained on the archives before "--", and the bytes a game of the records of
 * each archive after it, each block coded from the start of each count in counts (0: structure
 * version 4's start). */
static int cross(char **paths, int n, const unsigned *counts, int n_counts, double *sum_p, double *sum_n,
                 uz_record_models *m)
{
    int split = 0;
    while (split < n && strcmp(paths[split], "--"))
        split++;
    if (split == n || train(paths, split, sum_p, sum_n, m, NULL))
        return 1;
    uz_record_models *start = malloc(sizeof *start);
    if (!start)
        return 1;
    printf("archive\tgames");
    for (int c = 0; c < n_counts; c++)
        printf("\tn = %u", counts[c]);
    printf("\t(coded records, bytes a game)\n");
    for (int i = split + 1; i < n; i++) {
        printf("%s", paths[i]);
        for (int c = 0; c < n_counts; c++) {
            start_models(start, sum_p, sum_n, counts[c]);
            uz_record_training t = {m, 0};
            uint64_t games = 0;
            if (read_archive(paths[i], &t, start, &games, NULL))
                return 1;
            if (c == 0)
                printf("\t%" PRIu64, games);
            printf("\t%.3f", games ? (double)t.cost / 65536.0 / 8.0 / (double)games : 0.0);
        }
        printf("\n");
    }
    free(start);
    return 0;
}

int main(int argc, char **argv)
{
    unsigned prior_n = PRIOR_N;
    int i = 1;
    if (i + 1 < argc && !strcmp(argv[i], "--prior-n"))
        prior_n = (unsigned)atoi(argv[i + 1]), i += 2;
    double *sum_p = calloc(UZ_RECORD_N_MODELS, sizeof *sum_p), *sum_n = calloc(UZ_RECORD_N_MODELS, sizeof *sum_n);
    uz_record_models *m = malloc(sizeof *m);
    if (!sum_p || !sum_n || !m || prior_n > UZ_RECORD_CAP)
        return 1;
    int rc = 2;
    if (i + 2 < argc && !strcmp(argv[i], "--write-prior")) {
        text_counts texts = {0};
        rc = train(argv + i + 2, argc - i - 2, sum_p, sum_n, m, &texts);
        start_models(m, sum_p, sum_n, prior_n);
        rc = rc ? rc : write_prior(argv[i + 1], m, argc - i - 2, &texts);
        free(texts.items);
    } else if (i + 1 < argc && !strcmp(argv[i], "--cross")) {
        static const unsigned counts[] = {0, 2, 4, 8, 12, 16, 24, 32, 48};
        rc = cross(argv + i + 1, argc - i - 1, counts, sizeof counts / sizeof *counts, sum_p, sum_n, m);
    } else if (i < argc && argv[i][0] != '-') {
        printf("archive\tgames\tstored\tinfo's structure\traw: head\trecords\tcoded records\ttext\t"
               "packed: records\ttext\thead\tframe\t(bytes a game)\n");
        for (rc = 0; i < argc && !rc; i++) {
            totals t = {0};
            if ((rc = add_archive(argv[i], &t)) != 0)
                break;
            double g = t.games ? (double)t.games : 1;
            printf("%s\t%" PRIu64 "\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\t%.2f\n", argv[i], t.games,
                   (double)t.stored / g, (double)t.split_structure / g, (double)t.head / g, (double)t.records / g,
                   (double)t.coded / g, (double)t.text / g, (double)(int64_t)t.cost_records / g,
                   (double)(int64_t)t.cost_text / g, (double)(int64_t)t.cost_head / g, (double)t.frame / g);
        }
    }
    if (rc == 2)
        fprintf(stderr, "usage: ucizip-record-bits ARCHIVE.ucz...\n"
                        "       ucizip-record-bits [--prior-n N] --write-prior OUT.inc ARCHIVE.ucz...\n"
                        "       ucizip-record-bits --cross TRAIN.ucz... -- TEST.ucz...\n");
    free(sum_p);
    free(sum_n);
    free(m);
    return rc;
}
