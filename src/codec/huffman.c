/* Per-position canonical Huffman codes: deterministic construction and decoding tables. */
#include "codec/coder.h"

#include "codec_internal.h"

/* Sorts n <= UZ_CODER_MAX_SYMBOLS distinct keys ascending: insertion-sorted runs of 8
 * merged bottom-up. Keys are distinct, so the result does not depend on the method. */
static void sort_keys(uint64_t *a, int n)
{
    uint64_t tmp[UZ_CODER_MAX_SYMBOLS];
    for (int s = 0; s < n; s += 8) {
        int e = s + 8 < n ? s + 8 : n;
        for (int i = s + 1; i < e; i++) {
            uint64_t k = a[i];
            int j = i;
            while (j > s && a[j - 1] > k) {
                a[j] = a[j - 1];
                j--;
            }
            a[j] = k;
        }
    }
    uint64_t *src = a, *dst = tmp;
    for (int width = 8; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, o = lo;
            while (i < mid && j < hi)
                dst[o++] = src[i] <= src[j] ? src[i++] : src[j++];
            while (i < mid)
                dst[o++] = src[i++];
            while (j < hi)
                dst[o++] = src[j++];
        }
        uint64_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a) {
        for (int i = 0; i < n; i++)
            a[i] = src[i];
    }
}

/* Lowers every length above UZ_HUFFMAN_MAX_BITS keeping the Kraft sum at 1: repeatedly take
 * two sibling leaves of the deepest level, move one up into their parent's place and hang
 * the other, together with a leaf from the deepest level j < i - 1 that has one, below
 * that leaf's old place. */
static void limit_lengths(uint32_t *count, int max_depth)
{
    for (int i = max_depth; i > UZ_HUFFMAN_MAX_BITS; i--) {
        while (count[i] > 0) {
            int j = i - 2;
            while (count[j] == 0)
                j--;
            count[i] -= 2;
            count[i - 1] += 1;
            count[j + 1] += 2;
            count[j] -= 1;
        }
    }
}

int uz_huffman_code(const uint32_t *freq, int n, uint8_t *lengths, uint32_t *codes)
{
    if (!freq || !lengths || !codes || n < 1 || n > UZ_CODER_MAX_SYMBOLS)
        return UZ_ERR_ARG;

    /* Key: frequency above, (255 - index) below, so equal frequencies sort by
     * decreasing index and the most probable end of the order has the lowest index. */
    uint64_t key[UZ_CODER_MAX_SYMBOLS];
    int m = 0;
    for (int i = 0; i < n; i++) {
        lengths[i] = 0;
        codes[i] = 0;
        if (freq[i] > 0)
            key[m++] = ((uint64_t)freq[i] << 8) | (uint64_t)(255 - i);
    }
    if (m == 0)
        return UZ_ERR_ARG;
    if (m == 1)
        return 0;
    sort_keys(key, m);

    /* Two-queue Huffman: leaves in sorted order, internal nodes in creation order (their
     * weights come out non-decreasing). On equal weights the leaf is taken first. */
    uint64_t iw[UZ_CODER_MAX_SYMBOLS];
    uint16_t leaf_parent[UZ_CODER_MAX_SYMBOLS], node_parent[UZ_CODER_MAX_SYMBOLS];
    int li = 0, ii = 0;
    for (int made = 0; made < m - 1; made++) {
        uint64_t w = 0;
        for (int take = 0; take < 2; take++) {
            if (li < m && (ii >= made || (key[li] >> 8) <= iw[ii])) {
                w += key[li] >> 8;
                leaf_parent[li++] = (uint16_t)made;
            } else {
                w += iw[ii];
                node_parent[ii++] = (uint16_t)made;
            }
        }
        iw[made] = w;
    }

    /* Depths: the root is the last node made; parents are always made after children. */
    uint16_t depth[UZ_CODER_MAX_SYMBOLS];
    uint32_t count[UZ_CODER_MAX_SYMBOLS + 1] = {0};
    depth[m - 2] = 0;
    for (int t = m - 3; t >= 0; t--)
        depth[t] = (uint16_t)(depth[node_parent[t]] + 1);
    int max_depth = 0;
    for (int l = 0; l < m; l++) {
        int d = depth[leaf_parent[l]] + 1;
        count[d]++;
        if (d > max_depth)
            max_depth = d;
    }
    if (max_depth > UZ_HUFFMAN_MAX_BITS) {
        limit_lengths(count, max_depth);
        max_depth = UZ_HUFFMAN_MAX_BITS;
    }

    /* Shortest lengths to the most probable symbols (end of the sorted order). */
    int l = m - 1;
    for (int len = 1; len <= max_depth; len++) {
        for (uint32_t c = 0; c < count[len]; c++, l--)
            lengths[255 - (int)(key[l] & 0xFF)] = (uint8_t)len;
    }

    /* Canonical codewords: by length, then by symbol index. */
    uint64_t next[UZ_HUFFMAN_MAX_BITS + 1];
    uint64_t code = 0;
    next[0] = 0;
    for (int len = 1; len <= max_depth; len++) {
        code = (code + count[len - 1]) << 1;
        next[len] = code;
    }
    for (int i = 0; i < n; i++) {
        if (lengths[i] > 0)
            codes[i] = (uint32_t)next[lengths[i]]++;
    }
    return max_depth;
}

void uz__huffman_table_build(const uint8_t *lengths, int n, int max_len, uz__huffman_table *t)
{
    t->max_len = max_len;
    for (int len = 0; len <= UZ_HUFFMAN_MAX_BITS; len++)
        t->count[len] = 0;
    for (int i = 0; i < n; i++)
        t->count[lengths[i]]++;
    t->count[0] = 0;
    uint64_t code = 0;
    uint16_t off = 0;
    for (int len = 1; len <= max_len; len++) {
        code = (code + (len > 1 ? t->count[len - 1] : 0)) << 1;
        t->first[len] = (uint32_t)code;
        t->offset[len] = off;
        off = (uint16_t)(off + t->count[len]);
    }
    uint16_t fill[UZ_HUFFMAN_MAX_BITS + 1];
    for (int len = 1; len <= max_len; len++)
        fill[len] = t->offset[len];
    for (int i = 0; i < n; i++) {
        if (lengths[i] > 0)
            t->symbols[fill[lengths[i]]++] = (uint16_t)i;
    }
}
