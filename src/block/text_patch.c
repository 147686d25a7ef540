/* Text patches: Myers' diff over words and whitespace runs, stored as copy/delete/insert
 * operations on bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "block/text_patch.h"
#include "common/hash.h"

typedef struct word {
    size_t off, len;
    uint64_t hash;
} word;

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Splits text into maximal runs of whitespace and of other bytes. */
static uz_result split_words(const char *text, size_t len, word **out, size_t *n)
{
    size_t count = 0;
    for (size_t i = 0; i < len; i++)
        count += i == 0 || is_space(text[i]) != is_space(text[i - 1]);
    word *w = malloc((count ? count : 1) * sizeof *w);
    if (!w)
        return UZ_ERR_NOMEM;
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        size_t j = i + 1;
        while (j < len && is_space(text[j]) == is_space(text[i]))
            j++;
        w[k++] = (word){i, j - i, uz_fnv1a64(UZ_FNV1A64_OFFSET, text + i, j - i)};
        i = j;
    }
    *out = w;
    *n = count;
    return UZ_OK;
}

static bool same_word(const char *a, const word *x, const char *b, const word *y)
{
    return x->hash == y->hash && x->len == y->len && memcmp(a + x->off, b + y->off, x->len) == 0;
}

typedef struct patch_writer {
    uz_buf ops;       /* the operations, without their count */
    size_t n_ops;
    size_t copy, del; /* the open operation */
    size_t ins_from, ins_len; /* its insertion: a contiguous range of `to` */
    bool open_edit;   /* the open operation has a delete or insert */
} patch_writer;

static uz_result flush_op(patch_writer *pw, const char *to)
{
    if (!pw->open_edit)
        return UZ_OK;
    uz_result r = uz_buf_put_varint(&pw->ops, pw->copy);
    if (r == UZ_OK)
        r = uz_buf_put_varint(&pw->ops, pw->del);
    if (r == UZ_OK)
        r = uz_buf_put_string(&pw->ops, to + pw->ins_from, pw->ins_len);
    pw->n_ops++;
    pw->copy = pw->del = pw->ins_len = 0;
    pw->open_edit = false;
    return r;
}

static uz_result keep_bytes(patch_writer *pw, const char *to, size_t n)
{
    uz_result r = UZ_OK;
    if (pw->open_edit)
        r = flush_op(pw, to);
    pw->copy += n;
    return r;
}

static void delete_bytes(patch_writer *pw, size_t n)
{
    pw->del += n;
    pw->open_edit = true;
}

static void insert_bytes(patch_writer *pw, size_t from, size_t n)
{
    if (pw->ins_len == 0)
        pw->ins_from = from;
    pw->ins_len += n; /* insertions of one operation are adjacent in `to` */
    pw->open_edit = true;
}

/* One step of the edit path found by the diff, in forward order. */
enum step { STEP_KEEP, STEP_DELETE, STEP_INSERT };

uz_result uz_patch_make(const char *from, size_t from_len, const char *to, size_t to_len, uz_buf *patch)
{
    word *a = NULL, *b = NULL;
    size_t na = 0, nb = 0;
    int *trace = NULL;
    uint8_t *steps = NULL;
    patch_writer pw = {0};
    uz_result r = split_words(from, from_len, &a, &na);
    if (r == UZ_OK)
        r = split_words(to, to_len, &b, &nb);
    if (r != UZ_OK)
        goto out;
    /* Common prefix and suffix need no search. */
    size_t pre = 0, suf = 0;
    while (pre < na && pre < nb && same_word(from, &a[pre], to, &b[pre]))
        pre++;
    while (suf < na - pre && suf < nb - pre && same_word(from, &a[na - 1 - suf], to, &b[nb - 1 - suf]))
        suf++;
    const word *A = a + pre, *B = b + pre;
    long N = (long)(na - pre - suf), M = (long)(nb - pre - suf);
    long max = N + M < UZ_PATCH_MAX_EDITS ? N + M : UZ_PATCH_MAX_EDITS;
    long width = 2 * max + 3, off = max + 1;
    /* trace[d * width + k + off]: the furthest x on diagonal k after d edits. */
    trace = malloc((size_t)(max + 1) * (size_t)width * sizeof *trace);
    steps = malloc((size_t)(N + M + 1));
    if (!trace || !steps) {
        r = UZ_ERR_NOMEM;
        goto out;
    }
    long found = -1;
    int *v = trace;
    for (long d = 0; d <= max && found < 0; d++) {
        int *cur = trace + d * width, *prev = d ? cur - width : NULL;
        if (d == 0)
            cur[1 + off] = 0;
        for (long k = -d; k <= d; k += 2) {
            long x;
            const int *src = d ? prev : cur;
            if (d == 0)
                x = 0;
            else if (k == -d || (k != d && src[k - 1 + off] < src[k + 1 + off]))
                x = src[k + 1 + off]; /* an insertion */
            else
                x = src[k - 1 + off] + 1; /* a deletion */
            long y = x - k;
            while (x < N && y < M && same_word(from, &A[x], to, &B[y]))
                x++, y++;
            cur[k + off] = (int)x;
            if (x >= N && y >= M) {
                found = d;
                break;
            }
        }
        v = cur;
    }
    (void)v;
    if (found < 0) {
        r = UZ_ERR_LIMIT;
        goto out;
    }
    /* Walk back from (N, M) to (0, 0), recording the steps from the end. */
    size_t n_steps = 0;
    long x = N, y = M;
    for (long d = found; d >= 0; d--) {
        long k = x - y;
        long px, py;
        if (d == 0) {
            px = 0, py = 0;
        } else {
            const int *prev = trace + (d - 1) * width;
            long pk = (k == -d || (k != d && prev[k - 1 + off] < prev[k + 1 + off])) ? k + 1 : k - 1;
            px = prev[pk + off];
            py = px - pk;
        }
        while (x > px && y > py) {
            steps[n_steps++] = STEP_KEEP;
            x--, y--;
        }
        if (d > 0) {
            steps[n_steps++] = x == px ? STEP_INSERT : STEP_DELETE;
            if (x == px)
                y--;
            else
                x--;
        }
    }
    /* Forward: prefix, steps, suffix as byte operations. */
    size_t ia = pre, ib = pre;
    r = keep_bytes(&pw, to, pre ? a[pre - 1].off + a[pre - 1].len : 0);
    for (size_t s = n_steps; s-- > 0 && r == UZ_OK;) {
        if (steps[s] == STEP_KEEP) {
            r = keep_bytes(&pw, to, a[ia].len);
            ia++, ib++;
        } else if (steps[s] == STEP_DELETE) {
            delete_bytes(&pw, a[ia++].len);
        } else {
            insert_bytes(&pw, b[ib].off, b[ib].len);
            ib++;
        }
    }
    if (r == UZ_OK)
        r = flush_op(&pw, to);
    if (r == UZ_OK)
        r = uz_buf_put_varint(patch, pw.n_ops);
    if (r == UZ_OK)
        r = uz_buf_append(patch, pw.ops.data, pw.ops.size);
out:
    uz_buf_free(&pw.ops);
    free(a);
    free(b);
    free(trace);
    free(steps);
    return r;
}

uz_result uz_patch_apply(const char *from, size_t from_len, uz_cursor *c, size_t max_out, uz_buf *out)
{
    uint64_t n_ops;
    size_t pos = 0, start = out->size;
    if (uz_cursor_varint(c, &n_ops) != UZ_OK || n_ops > (uint64_t)(c->end - c->p))
        return UZ_ERR_CORRUPT; /* every operation takes three bytes at least */
    for (uint64_t i = 0; i < n_ops; i++) {
        uint64_t copy, del;
        const uint8_t *ins;
        size_t ins_len;
        if (uz_cursor_varint(c, &copy) != UZ_OK || uz_cursor_varint(c, &del) != UZ_OK ||
            uz_cursor_string(c, max_out, &ins, &ins_len) != UZ_OK || copy > from_len - pos ||
            del > from_len - pos - copy || copy + ins_len > max_out - (out->size - start))
            return UZ_ERR_CORRUPT;
        if (uz_buf_append(out, from + pos, (size_t)copy) != UZ_OK || uz_buf_append(out, ins, ins_len) != UZ_OK)
            return UZ_ERR_NOMEM;
        pos += (size_t)(copy + del);
    }
    if (from_len - pos > max_out - (out->size - start))
        return UZ_ERR_CORRUPT;
    return uz_buf_append(out, from + pos, from_len - pos) == UZ_OK ? UZ_OK : UZ_ERR_NOMEM;
}
