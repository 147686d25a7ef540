/* Entropy coders for one symbol per position under caller-given integer frequencies:
 * a per-position canonical Huffman code (reference) or a range coder (better).
 * Huffman: codewords packed MSB first into bytes, the last byte padded with zero bits.
 * Range: 32-bit range, 64-bit low with byte-wise carry propagation; the division remainder
 * goes to the last non-zero symbol; minimal flush; about 0.01% above the ideal cost.
 * Both are integer-only, so a stream decodes identically on every machine. */
#ifndef UCIZIP_CODER_H
#define UCIZIP_CODER_H

#include <stddef.h>
#include <stdint.h>

#include "common/common.h"

typedef enum uz_coder_kind {
    UZ_CODER_HUFFMAN = 1,
    UZ_CODER_RANGE = 2
} uz_coder_kind;

/* Most symbols in one alphabet. */
#define UZ_CODER_MAX_SYMBOLS 256
/* Largest total the range coder accepts (its 32-bit range keeps >= 2^24 after
 * normalisation, leaving >= 8 bits of resolution per frequency unit). Huffman takes any
 * uint32 total. */
#define UZ_RANGE_MAX_TOTAL 65536u
/* Longest Huffman codeword. */
#define UZ_HUFFMAN_MAX_BITS 32

/* Frequency vectors (freq, n, total) are validated by every call below: n in
 * 1..UZ_CODER_MAX_SYMBOLS, sum(freq) == total > 0 (total <= UZ_RANGE_MAX_TOTAL for the
 * range coder), the coded symbol in 0..n-1 with freq[symbol] > 0. Zero frequencies are
 * allowed for symbols that never occur. When only one symbol has a non-zero frequency
 * (in particular n == 1) coding it costs nothing, in both coders. */

/* ---- Encoder ---- */

typedef struct uz_encoder uz_encoder;

/* Creates an encoder of the given kind writing into a growable buffer it owns.
 * Returns UZ_OK, UZ_ERR_ARG (bad kind / NULL out) or UZ_ERR_NOMEM. */
uz_result uz_encoder_create(uz_encoder **out, uz_coder_kind kind);

/* Codes symbol under the frequencies. Returns UZ_OK, UZ_ERR_ARG (invalid frequencies or
 * symbol, or already finished) or UZ_ERR_NOMEM (the encoder is then unusable until reset). */
uz_result uz_encoder_put(uz_encoder *e, const uint32_t *freq, int n, uint32_t total, int symbol);

/* Flushes and returns the coded bytes: *data stays owned by the encoder and valid until the
 * next reset or destroy. The range coder's flush is minimal and trailing zero bytes are
 * dropped (its decoder reads zeros past the end). Further puts fail until reset.
 * Returns UZ_OK, UZ_ERR_ARG or UZ_ERR_NOMEM. */
uz_result uz_encoder_finish(uz_encoder *e, const uint8_t **data, size_t *size);

/* Starts a new, empty stream of the same kind (keeps the buffer's capacity). */
void uz_encoder_reset(uz_encoder *e);

/* Frees the encoder and its buffer; NULL is a no-op. */
void uz_encoder_destroy(uz_encoder *e);

/* ---- Decoder ---- */

/* A decoder is a plain struct the caller owns (no allocation); its fields are private. */
typedef struct uz_decoder {
    uz_coder_kind kind;
    const uint8_t *data;
    size_t size;
    size_t pos;      /* range: bytes consumed, may exceed size; Huffman: bit position */
    uint32_t range;  /* range coder state */
    uint32_t code;
    uint32_t window; /* range: the last 4 bytes read */
} uz_decoder;

/* Starts decoding size bytes at data (borrowed; must outlive the decoder).
 * Returns UZ_OK, UZ_ERR_ARG (bad kind, NULL d, NULL data with size > 0) or
 * UZ_ERR_CORRUPT (a range stream whose first bytes cannot start a valid stream). */
uz_result uz_decoder_init(uz_decoder *d, uz_coder_kind kind, const uint8_t *data, size_t size);

/* Decodes the next symbol under the same frequencies the encoder used. Returns UZ_OK,
 * UZ_ERR_ARG (invalid frequencies) or UZ_ERR_CORRUPT (impossible state; for Huffman also
 * running out of bits). Never reads outside data[0..size). A damaged or truncated range
 * stream may decode to wrong symbols without an error: callers check a checksum. */
uz_result uz_decoder_get(uz_decoder *d, const uint32_t *freq, int n, uint32_t total, int *symbol);

/* After the last symbol: UZ_OK if the input is exactly what an encoder would have produced
 * for the symbols decoded, else UZ_ERR_CORRUPT. Huffman: no bytes left over, padding bits
 * zero. Range: no bytes left over, no trailing zero byte, final bytes equal to the
 * encoder's flush. This catches trailing garbage; damage that still decodes to some
 * symbol sequence cannot be seen (the codes carry no redundancy): use a checksum. */
uz_result uz_decoder_finish(const uz_decoder *d);

/* ---- Costs and code tables (reporting) ---- */

/* Cost in bits of coding symbol: the Huffman code length, or -log2(freq / total) for the
 * range coder (its real cost is within a small overhead of that). -1 on invalid input. */
double uz_coder_cost_bits(uz_coder_kind kind, const uint32_t *freq, int n, uint32_t total, int symbol);

/* The canonical Huffman code of freq[0..n-1] (n in 1..UZ_CODER_MAX_SYMBOLS, at least one
 * non-zero frequency; no total needed). Fills the caller's arrays lengths[0..n-1] (0 for
 * freq 0, and for the only symbol when just one is non-zero) and codes[0..n-1] (the
 * codeword in the low lengths[i] bits, written MSB first).
 * Tree: two queues of (weight, rank) where leaves are ordered by increasing frequency then
 * decreasing index, and a leaf wins a weight tie against an internal node. Lengths are then
 * limited to UZ_HUFFMAN_MAX_BITS and handed out shortest first to symbols by decreasing
 * frequency, then increasing index. Codes are canonical: by (length, index) increasing.
 * Returns the longest length (0..UZ_HUFFMAN_MAX_BITS) or UZ_ERR_ARG. */
int uz_huffman_code(const uint32_t *freq, int n, uint8_t *lengths, uint32_t *codes);

#endif
