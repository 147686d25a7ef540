/* Checks the test vectors of doc/format.md against the code: every fenced block whose info
 * string is "uz-vector KIND" holds "key: value" lines, and each is recomputed here with the
 * library's own functions (no engine: the scores are in the vector). A number changed in
 * the document or in the code makes this fail; so does a document that lost a kind of
 * vector (every kind below must occur at least once). */
#define _POSIX_C_SOURCE 200809L /* fmemopen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xxhash.h>

#include "../../src/codec/codec_internal.h"   /* the range encoder's state */
#include "../../src/common/hash.h"             /* uz_fnv1a64 */
#include "../../src/engine/engine_internal.h" /* uz__probe_fens */
#include "../common/uz_test.h"
#include "archive/archive.h"
#include "block/game_text.h"
#include "chess/board.h"
#include "codec/coder.h"
#include "gamecode/gamecode.h"
#include "gamecode/opening.h"
#include "model/move_model.h"
#include "model/player_model.h"
#include "chess/san.h"

#define MAX_KEYS 64
#define MAX_VALUES 1024

typedef struct vector {
    char kind[32];
    int line; /* of the opening fence in the document */
    int n;
    char *key[MAX_KEYS];
    char *value[MAX_KEYS];
} vector;

static const char *get(const vector *v, const char *key)
{
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->key[i], key) == 0)
            return v->value[i];
    return NULL;
}

/* A required key: a missing one is a failure of the vector. */
static const char *need(const vector *v, const char *key)
{
    const char *s = get(v, key);
    CHECK(s != NULL, "format.md:%d: %s vector without '%s'", v->line, v->kind, key);
    return s ? s : "";
}

/* Whitespace-separated unsigned numbers (decimal, or hex with base 16). */
static int numbers(const char *s, int base, uint64_t *out, int cap)
{
    int n = 0;
    while (*s && n < cap) {
        char *end;
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        out[n++] = strtoull(s, &end, base);
        if (end == s)
            return -1;
        s = end;
    }
    return n;
}

static int ints(const char *s, int32_t *out, int cap)
{
    int n = 0;
    while (*s && n < cap) {
        char *end;
        long v = strtol(s, &end, 10);
        if (end == s)
            break;
        out[n++] = (int32_t)v;
        s = end;
    }
    return n;
}

static size_t hex_bytes(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (*s && n < cap) {
        if (*s == ' ') {
            s++;
            continue;
        }
        unsigned b;
        if (sscanf(s, "%2x", &b) != 1)
            break;
        out[n++] = (uint8_t)b;
        s += 2;
    }
    return n;
}

/* "0a 1b ...": 3n bytes of out, the last space replaced by the end (out[0] = 0 for none). */
static void hex_string(const uint8_t *p, size_t n, char *out)
{
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[3 * i] = digits[p[i] >> 4];
        out[3 * i + 1] = digits[p[i] & 15];
        out[3 * i + 2] = ' ';
    }
    out[n ? 3 * n - 1 : 0] = 0;
}

/* ---- kinds ---- */

static void check_varint(const vector *v)
{
    uint64_t value = strtoull(need(v, "value"), NULL, 10);
    uz_buf b = {0};
    CHECK(uz_buf_put_varint(&b, value) == UZ_OK, "format.md:%d: put_varint", v->line);
    char got[64];
    hex_string(b.data, b.size, got);
    CHECK(strcmp(got, need(v, "bytes")) == 0, "format.md:%d: varint %llu is '%s', the document says '%s'", v->line,
          (unsigned long long)value, got, need(v, "bytes"));
    uz_cursor c = {b.data, b.data + b.size};
    uint64_t back = 0;
    CHECK(uz_cursor_varint(&c, &back) == UZ_OK && back == value && c.p == c.end, "format.md:%d: varint reads back",
          v->line);
    uz_buf_free(&b);
}

static void check_varint_invalid(const vector *v)
{
    uint8_t bytes[32];
    size_t n = hex_bytes(need(v, "bytes"), bytes, sizeof bytes);
    uz_cursor c = {bytes, bytes + n};
    uint64_t x;
    CHECK(uz_cursor_varint(&c, &x) == UZ_ERR_CORRUPT, "format.md:%d: '%s' should be refused", v->line,
          need(v, "bytes"));
}

static void check_checksum(const vector *v)
{
    const char *text = need(v, "text");
    size_t len = strlen(text);
    char got[32];
    if (get(v, "crc32")) {
        snprintf(got, sizeof got, "%08x", uz_crc32(0, text, len));
        CHECK(strcmp(got, get(v, "crc32")) == 0, "format.md:%d: crc32 is %s, the document says %s", v->line, got,
              get(v, "crc32"));
    }
    if (get(v, "xxh64")) {
        snprintf(got, sizeof got, "%016llx", (unsigned long long)XXH64(text, len, 0));
        CHECK(strcmp(got, get(v, "xxh64")) == 0, "format.md:%d: xxh64 is %s, the document says %s", v->line, got,
              get(v, "xxh64"));
    }
    if (get(v, "fnv1a64")) {
        uint64_t h = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < len; i++) {
            h ^= (unsigned char)text[i];
            h *= 0x100000001b3ull;
        }
        /* The same function the weights' hash uses: the built-in set must agree with it. */
        snprintf(got, sizeof got, "%016llx", (unsigned long long)h);
        CHECK(strcmp(got, get(v, "fnv1a64")) == 0, "format.md:%d: fnv1a64 is %s, the document says %s", v->line,
              got, get(v, "fnv1a64"));
    }
}

/* The position of a vector ("fen"), and its "moves" checked against the canonical order. */
static int position_and_moves(const vector *v, uz_position *pos, uz_move *legal)
{
    CHECK(uz_position_from_fen(pos, need(v, "fen"), NULL) == UZ_OK, "format.md:%d: fen", v->line);
    int n = uz_generate_legal(pos, legal);
    char buf[UZ_MAX_MOVES * 8] = "";
    for (int i = 0; i < n; i++) {
        char u[8];
        uz_move_to_uci(legal[i], u);
        strcat(buf, i ? " " : "");
        strcat(buf, u);
    }
    CHECK(strcmp(buf, need(v, "moves")) == 0, "format.md:%d: canonical order is '%s'", v->line, buf);
    return n;
}

static void compare_freq(const vector *v, const uint32_t *freq, int n)
{
    char buf[UZ_MAX_MOVES * 8] = "";
    for (int i = 0; i < n; i++)
        sprintf(buf + strlen(buf), i ? " %u" : "%u", freq[i]);
    CHECK(strcmp(buf, need(v, "freq")) == 0, "format.md:%d: frequencies are '%s'", v->line, buf);
}

/* The frequencies the vector's "model" gives its position's "scores": the number of moves. */
static int model_frequencies(const vector *v, uint32_t *freq)
{
    uz_position pos;
    uz_move legal[UZ_MAX_MOVES];
    int n = position_and_moves(v, &pos, legal);
    int32_t scores[UZ_MAX_MOVES];
    CHECK(ints(need(v, "scores"), scores, UZ_MAX_MOVES) == n, "format.md:%d: %d scores", v->line, n);
    uint64_t p[8];
    int np = numbers(need(v, "model"), 10, p, 8);
    uz_model_params params = {0};
    params.kind = (uz_model_kind)p[0];
    uint32_t *fields[] = {&params.k_milli, &params.floor_q16, &params.rank_q16, &params.decay_q16};
    for (int i = 1; i < np && i <= 4; i++)
        *fields[i - 1] = (uint32_t)p[i];
    uz_model m;
    CHECK(np == 1 + uz_model_param_count(params.kind) && uz_model_init(&m, &params) == UZ_OK,
          "format.md:%d: model parameters", v->line);
    uz_model_context ctx = {.pos = &pos, .moves = legal, .scores = scores, .n = n};
    CHECK(uz_model_frequencies(&m, &ctx, freq) == UZ_MODEL_TOTAL, "format.md:%d: frequencies", v->line);
    return n;
}

static void check_model(const vector *v)
{
    uint32_t freq[UZ_MAX_MOVES];
    int n = model_frequencies(v, freq);
    compare_freq(v, freq, n);
}

/* Opening counts: the model's frequencies (as a "model" vector) mixed with "counts"
 * (one per move) at weight "alpha16". */
static void check_opening(const vector *v)
{
    uint32_t freq[UZ_MAX_MOVES], c[UZ_MAX_MOVES];
    int n = model_frequencies(v, freq);
    uint64_t a[1] = {0}, c64[UZ_MAX_MOVES] = {0};
    CHECK(numbers(need(v, "alpha16"), 10, a, 1) == 1 && numbers(need(v, "counts"), 10, c64, UZ_MAX_MOVES) == n,
          "format.md:%d: alpha16 and %d counts", v->line, n);
    for (int i = 0; i < n; i++)
        c[i] = (uint32_t)c64[i];
    uz_model_mix_counts(c, (uint32_t)a[0], freq, n, UZ_MODEL_TOTAL);
    compare_freq(v, freq, n);
}

/* A game from "tags" (Name=value, blank-separated) and "line" (SAN moves from the start). */
static bool game_of(const vector *v, uz_game *g, const char *line)
{
    char text[4096] = "";
    char tags[1024];
    snprintf(tags, sizeof tags, "%s", get(v, "tags") ? get(v, "tags") : "");
    for (char *t = strtok(tags, " "); t; t = strtok(NULL, " ")) {
        char *eq = strchr(t, '=');
        if (!eq)
            return false;
        *eq = 0;
        sprintf(text + strlen(text), "[%s \"%s\"]\n", t, eq + 1);
    }
    sprintf(text + strlen(text), "\n%s *\n", line);
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, strlen(text), "vector");
    bool ok = r && uz_pgn_read_game(r, g, NULL) == UZ_OK;
    uz_pgn_reader_close(r);
    return ok;
}

static bool player_model_of(const vector *v, uz_model *m)
{
    uint64_t p[3];
    uz_model_params params = {0};
    params.kind = UZ_MODEL_PLAYER;
    const char *w = need(v, "weights"); /* "VERSION HASH" */
    if (numbers(w, 10, p, 1) != 1 || !strchr(w, ' '))
        return false;
    uint64_t hash = strtoull(strchr(w, ' ') + 1, NULL, 16);
    params.player_version = (uint32_t)p[0];
    params.player_hash_lo = (uint32_t)hash;
    params.player_hash_hi = (uint32_t)(hash >> 32);
    return uz_model_open(m, &params, NULL) == UZ_OK;
}

/* Resolves every step of the walk (moves known). */
static bool resolve_all(uz_walk *w)
{
    while (w->resolved < w->n_steps)
        if (uz_walk_resolve_next(w) != UZ_OK)
            return false;
    return true;
}

static void check_model_player(const vector *v)
{
    uz_position pos;
    uz_move legal[UZ_MAX_MOVES];
    int n = position_and_moves(v, &pos, legal);
    int32_t scores[UZ_MAX_MOVES];
    CHECK(ints(need(v, "scores"), scores, UZ_MAX_MOVES) == n, "format.md:%d: %d scores", v->line, n);
    uz_model m;
    CHECK(player_model_of(v, &m), "format.md:%d: the built-in weights '%s'", v->line, need(v, "weights"));
    /* The game up to and including the played move: its last step is the position. */
    char line[2048];
    snprintf(line, sizeof line, "%s %s", need(v, "before"), need(v, "played"));
    uz_game g;
    uz_game_init(&g);
    uz_walk w = {0};
    bool ok = game_of(v, &g, line) && uz_walk_init(&w, &g) == UZ_OK && resolve_all(&w) && w.n_steps > 0;
    CHECK(ok, "format.md:%d: the game '%s'", v->line, line);
    if (ok && m.player) {
        size_t s = w.n_steps - 1;
        CHECK(uz_position_equal(&w.before[s], &pos), "format.md:%d: the moves lead to the fen", v->line);
        /* The features of the played move, as "NAME=value" for the non-zero ones. */
        static int32_t x[UZ_MAX_MOVES * UZ_PM_N_FEATURES];
        uz_pm_game pg;
        uz_pm_history h;
        uz_walk_pm_game(&w, &pg);
        uz_walk_pm_history(&w, s, &h);
        uz_pm_features(&w.before[s], legal, scores, n, &pg, &h, x);
        int played = w.steps[s].played;
        char buf[2048] = "";
        for (int f = 0; f < UZ_PM_N_FEATURES; f++)
            if (x[played * UZ_PM_N_FEATURES + f])
                sprintf(buf + strlen(buf), "%s%s=%d", buf[0] ? " " : "", uz_pm_feature_name(f),
                        x[played * UZ_PM_N_FEATURES + f]);
        CHECK(strcmp(buf, need(v, "features")) == 0, "format.md:%d: features of the played move are '%s'",
              v->line, buf);
        int64_t sc[UZ_MAX_MOVES];
        uz_pm_scores(m.player, x, n, NULL, sc);
        char sbuf[64];
        snprintf(sbuf, sizeof sbuf, "%lld", (long long)sc[played]);
        CHECK(strcmp(sbuf, need(v, "score_played")) == 0, "format.md:%d: score of the played move is %s", v->line,
              sbuf);
        snprintf(sbuf, sizeof sbuf, "%d", played);
        CHECK(strcmp(sbuf, need(v, "index")) == 0, "format.md:%d: played index is %s", v->line, sbuf);
        uint32_t freq[UZ_MAX_MOVES];
        CHECK(uz_step_frequencies(&m, &w, s, legal, scores, n, freq) == UZ_MODEL_TOTAL, "format.md:%d: frequencies",
              v->line);
        compare_freq(v, freq, n);
    }
    uz_walk_free(&w);
    uz_game_clear(&g);
}

static uz_coder_kind coder_of(const vector *v)
{
    const char *c = need(v, "coder");
    return strcmp(c, "huffman") == 0 ? UZ_CODER_HUFFMAN : UZ_CODER_RANGE;
}

/* Encodes then decodes "symbols" under the frequencies "freq" (the same for every symbol). */
static void check_coder(const vector *v)
{
    uint64_t f[UZ_CODER_MAX_SYMBOLS], sym[MAX_VALUES];
    int n = numbers(need(v, "freq"), 10, f, UZ_CODER_MAX_SYMBOLS);
    int k = numbers(need(v, "symbols"), 10, sym, MAX_VALUES);
    uint32_t freq[UZ_CODER_MAX_SYMBOLS], total = 0;
    for (int i = 0; i < n; i++)
        total += freq[i] = (uint32_t)f[i];
    uz_coder_kind kind = coder_of(v);
    uz_encoder *e = NULL;
    CHECK(n > 0 && k > 0 && uz_encoder_create(&e, kind) == UZ_OK, "format.md:%d: coder vector", v->line);
    if (!e)
        return;
    for (int i = 0; i < k; i++)
        CHECK(uz_encoder_put(e, freq, n, total, (int)sym[i]) == UZ_OK, "format.md:%d: put %d", v->line, (int)sym[i]);
    const uint8_t *data;
    size_t size;
    CHECK(uz_encoder_finish(e, &data, &size) == UZ_OK, "format.md:%d: finish", v->line);
    char got[MAX_VALUES * 3 + 1];
    hex_string(data, size, got);
    CHECK(strcmp(got, need(v, "bytes")) == 0, "format.md:%d: the stream is '%s'", v->line, got);
    uz_decoder d;
    CHECK(uz_decoder_init(&d, kind, data, size) == UZ_OK, "format.md:%d: decoder", v->line);
    for (int i = 0; i < k; i++) {
        int s = -1;
        CHECK(uz_decoder_get(&d, freq, n, total, &s) == UZ_OK && s == (int)sym[i], "format.md:%d: symbol %d", v->line,
              i);
    }
    CHECK(uz_decoder_finish(&d) == UZ_OK, "format.md:%d: decoder finish", v->line);
    uz_encoder_destroy(e);
    if (kind != UZ_CODER_RANGE || !get(v, "states"))
        return;
    /* The encoder's state after each symbol: "low,range" in hex (low with its carry bit). */
    uz__range_enc rc;
    uz_buf out = {0};
    uz__range_enc_init(&rc);
    char states[MAX_VALUES * 24] = "";
    for (int i = 0; i < k; i++) {
        uint32_t cum = 0;
        for (int j = 0; j < (int)sym[i]; j++)
            cum += freq[j];
        CHECK(uz__range_enc_put(&rc, &out, cum, freq[sym[i]], total) == UZ_OK, "format.md:%d: put", v->line);
        sprintf(states + strlen(states), "%s%llx,%x", i ? " " : "", (unsigned long long)rc.low, rc.range);
    }
    CHECK(strcmp(states, get(v, "states")) == 0, "format.md:%d: the states are '%s'", v->line, states);
    free(out.data);
}

static void check_huffman(const vector *v)
{
    uint64_t f[UZ_CODER_MAX_SYMBOLS];
    int n = numbers(need(v, "freq"), 10, f, UZ_CODER_MAX_SYMBOLS);
    uint32_t freq[UZ_CODER_MAX_SYMBOLS];
    for (int i = 0; i < n; i++)
        freq[i] = (uint32_t)f[i];
    uint8_t len[UZ_CODER_MAX_SYMBOLS];
    uint32_t code[UZ_CODER_MAX_SYMBOLS];
    CHECK(n > 0 && uz_huffman_code(freq, n, len, code) >= 0, "format.md:%d: huffman", v->line);
    char lbuf[2048] = "", cbuf[4096] = "";
    for (int i = 0; i < n; i++) {
        sprintf(lbuf + strlen(lbuf), i ? " %u" : "%u", len[i]);
        if (i)
            strcat(cbuf, " ");
        if (!len[i])
            strcat(cbuf, "-");
        for (int b = len[i] - 1; b >= 0; b--)
            strcat(cbuf, (code[i] >> b) & 1 ? "1" : "0");
    }
    CHECK(strcmp(lbuf, need(v, "lengths")) == 0, "format.md:%d: lengths are '%s'", v->line, lbuf);
    CHECK(strcmp(cbuf, need(v, "codes")) == 0, "format.md:%d: codes are '%s'", v->line, cbuf);
}

/* The move stream of a game: "line" (SAN), "scores.N" for the N-th coded position (one with
 * two or more legal moves), "indexes" the played indexes, "bytes" the stream. */
static void check_game_moves(const vector *v)
{
    uz_model m;
    CHECK(player_model_of(v, &m), "format.md:%d: the built-in weights '%s'", v->line, need(v, "weights"));
    uz_game g;
    uz_game_init(&g);
    uz_walk w = {0};
    bool ok = game_of(v, &g, need(v, "line")) && uz_walk_init(&w, &g) == UZ_OK && resolve_all(&w);
    CHECK(ok, "format.md:%d: the game", v->line);
    char idx[1024] = "";
    int coded = 0;
    for (size_t s = 0; ok && s < w.n_steps; s++) {
        if (w.steps[s].n_legal < 2)
            continue;
        char key[32];
        snprintf(key, sizeof key, "scores.%d", coded++);
        w.steps[s].scores = calloc(w.steps[s].n_legal, sizeof(int32_t));
        ok = w.steps[s].scores && ints(need(v, key), w.steps[s].scores, UZ_MAX_MOVES) == w.steps[s].n_legal;
        CHECK(ok, "format.md:%d: %s has %d scores", v->line, key, w.steps[s].n_legal);
        sprintf(idx + strlen(idx), idx[0] ? " %d" : "%d", w.steps[s].played);
    }
    CHECK(strcmp(idx, need(v, "indexes")) == 0, "format.md:%d: played indexes are '%s'", v->line, idx);
    uz_encoder *e = NULL;
    if (ok && m.player && uz_encoder_create(&e, coder_of(v)) == UZ_OK) {
        const uint8_t *data = NULL;
        size_t size = 0; /* (read below even when the CHECK fails) */
        CHECK(uz_encode_walk(&m, NULL, e, &w) == UZ_OK && uz_encoder_finish(e, &data, &size) == UZ_OK,
              "format.md:%d: encoding", v->line);
        char got[4096];
        hex_string(data, size, got);
        CHECK(strcmp(got, need(v, "bytes")) == 0, "format.md:%d: the move stream is '%s'", v->line, got);
        /* Decoding: the same frequencies, step by step, give back the indexes. */
        uz_decoder d;
        CHECK(uz_decoder_init(&d, coder_of(v), data, size) == UZ_OK, "format.md:%d: decoder", v->line);
        uz_move legal[UZ_MAX_MOVES];
        uint32_t freq[UZ_MAX_MOVES];
        for (size_t s = 0; s < w.n_steps; s++) {
            int n = w.steps[s].n_legal, sym = -1;
            if (n < 2)
                continue;
            uz_generate_legal(&w.before[s], legal);
            uint32_t total = uz_step_frequencies(&m, &w, s, legal, w.steps[s].scores, n, freq);
            CHECK(uz_decoder_get(&d, freq, n, total, &sym) == UZ_OK && sym == w.steps[s].played,
                  "format.md:%d: decoded step %zu", v->line, s);
        }
        CHECK(uz_decoder_finish(&d) == UZ_OK, "format.md:%d: decoder finish", v->line);
    }
    uz_encoder_destroy(e);
    uz_walk_free(&w);
    uz_game_clear(&g);
}

/* A complete archive ("hex"): its header fields and its one block's games (or, with
 * "blocks: 0", no block). "version" is optional (2 if absent); keys 3-7 ("depth nodes
 * mode hash threads") are absent exactly when the header leaves the settings to the
 * engine profile. */
static void check_archive(const vector *v)
{
    static uint8_t bytes[1 << 16];
    size_t n = hex_bytes(need(v, "hex"), bytes, sizeof bytes);
    char buf[64];
    snprintf(buf, sizeof buf, "%zu", n);
    CHECK(strcmp(buf, need(v, "size")) == 0, "format.md:%d: %zu bytes", v->line, n);
    FILE *f = fmemopen(bytes, n, "rb");
    uz_archive_reader *r = NULL;
    uz_archive_header h;
    CHECK(f && uz_archive_reader_open(&r, f, "vector") == UZ_OK && uz_archive_read_header(r, &h, NULL) == UZ_OK,
          "format.md:%d: the header reads", v->line);
    if (r) {
        char model[128];
        int k = snprintf(model, sizeof model, "%u", h.model_kind);
        for (uint32_t i = 0; i < h.n_model_params; i++)
            k += snprintf(model + k, sizeof model - (size_t)k, " %u", h.model_params[i]);
        CHECK(strcmp(h.engine_name, need(v, "engine_name")) == 0, "format.md:%d: engine_name %s", v->line,
              h.engine_name);
        CHECK(strcmp(h.fingerprint, need(v, "fingerprint")) == 0, "format.md:%d: fingerprint %s", v->line,
              h.fingerprint);
        const char *version = get(v, "version"), *settings = get(v, "depth nodes mode hash threads");
        CHECK(h.version == (version ? atoi(version) : 2), "format.md:%d: format version %u", v->line, h.version);
        CHECK(h.settings_from_profile == !settings, "format.md:%d: settings %s", v->line,
              h.settings_from_profile ? "from the profile" : "stored");
        snprintf(buf, sizeof buf, "%u %llu %u %u %u", h.depth, (unsigned long long)h.nodes, h.mode, h.hash_mb,
                 h.threads);
        CHECK(!settings || strcmp(buf, settings) == 0, "format.md:%d: keys 3-7 are %s", v->line, buf);
        CHECK(strcmp(model, need(v, "model")) == 0, "format.md:%d: model %s", v->line, model);
        snprintf(buf, sizeof buf, "%u %u", h.coder, h.block_games);
        CHECK(strcmp(buf, need(v, "coder block_games")) == 0, "format.md:%d: keys 10-11 are %s", v->line, buf);
        uz_archive_block b = {0};
        const char *blocks = get(v, "blocks");
        if (blocks && strcmp(blocks, "0") == 0) {
            CHECK(uz_archive_read_block(r, &b, NULL) == UZ_DONE, "format.md:%d: no block, index checks", v->line);
            CHECK(uz_archive_read_header(r, &h, NULL) == UZ_DONE, "format.md:%d: one member", v->line);
            uz_archive_block_free(&b);
            uz_archive_reader_close(r);
            fclose(f);
            return;
        }
        CHECK(uz_archive_read_block(r, &b, NULL) == UZ_OK && b.n_games == 1, "format.md:%d: one block of one game",
              v->line);
        snprintf(buf, sizeof buf, "%016llx", (unsigned long long)b.text_digest);
        CHECK(strcmp(buf, need(v, "text_digest")) == 0, "format.md:%d: text_digest %s", v->line, buf);
        char got[4096];
        hex_string(b.structure.data, b.structure.size, got);
        CHECK(strcmp(got, need(v, "structure")) == 0, "format.md:%d: the structure stream is '%s'", v->line, got);
        hex_string(b.moves.data, b.moves.size, got);
        CHECK(strcmp(got, need(v, "move_stream")) == 0, "format.md:%d: the move stream is '%s'", v->line, got);
        uz_archive_block_free(&b);
        CHECK(uz_archive_read_block(r, &b, NULL) == UZ_DONE, "format.md:%d: index and footer check", v->line);
        uz_archive_block_free(&b);
        uz_archive_reader_close(r);
    }
    if (f)
        fclose(f);
}

/* The engine fingerprint: fnv1a64 of the settings text ("settings", with \n escapes), then
 * of every probe position's scores ("scores.N", canonical order) as little-endian int32.
 * The probe FENs ("fen.N") must be the built-in probe set, in order. */
static void check_fingerprint(const vector *v)
{
    char settings[2048];
    size_t n = 0;
    for (const char *p = need(v, "settings"); *p && n + 1 < sizeof settings; p++)
        settings[n++] = p[0] == '\\' && p[1] == 'n' ? (p++, '\n') : *p;
    settings[n] = 0;
    uint64_t h = uz_fnv1a64(UZ_FNV1A64_OFFSET, settings, n);
    int probes = 0;
    for (; uz__probe_fens[probes]; probes++) {
        char key[32];
        snprintf(key, sizeof key, "fen.%d", probes);
        CHECK(strcmp(need(v, key), uz__probe_fens[probes]) == 0, "format.md:%d: probe %d is '%s'", v->line, probes,
              uz__probe_fens[probes]);
        uz_position pos;
        uz_move legal[UZ_MAX_MOVES];
        CHECK(uz_position_from_fen(&pos, uz__probe_fens[probes], NULL) == UZ_OK, "format.md:%d: probe", v->line);
        int nm = uz_generate_legal(&pos, legal);
        char buf[UZ_MAX_MOVES * 8] = "";
        for (int i = 0; i < nm; i++) {
            char u[8];
            uz_move_to_uci(legal[i], u);
            strcat(buf, i ? " " : "");
            strcat(buf, u);
        }
        snprintf(key, sizeof key, "moves.%d", probes);
        CHECK(strcmp(buf, need(v, key)) == 0, "format.md:%d: probe %d's moves are '%s'", v->line, probes, buf);
        int32_t scores[UZ_MAX_MOVES];
        snprintf(key, sizeof key, "scores.%d", probes);
        CHECK(ints(need(v, key), scores, UZ_MAX_MOVES) == nm, "format.md:%d: probe %d has %d moves", v->line, probes,
              nm);
        for (int i = 0; i < nm; i++) {
            uint32_t u = (uint32_t)scores[i];
            unsigned char le[4] = {(unsigned char)u, (unsigned char)(u >> 8), (unsigned char)(u >> 16),
                                   (unsigned char)(u >> 24)};
            h = uz_fnv1a64(h, le, 4);
        }
    }
    char key[32];
    snprintf(key, sizeof key, "fen.%d", probes);
    CHECK(get(v, key) == NULL, "format.md:%d: more probes than the built-in %d", v->line, probes);
    char got[32];
    snprintf(got, sizeof got, "%016llx", (unsigned long long)h);
    CHECK(strcmp(got, need(v, "fingerprint")) == 0, "format.md:%d: the fingerprint is %s", v->line, got);
}

/* A text record: the game "pgn" (\n escapes for line ends) read with its exact bytes, its
 * record ("record", hex: layout and patch) and the bytes the record gives back. */
static void check_text_record(const vector *v)
{
    char text[4096];
    size_t n = 0;
    for (const char *p = need(v, "pgn"); *p && n + 1 < sizeof text; p++)
        text[n++] = p[0] == '\\' && p[1] == 'n' ? (p++, '\n') : *p;
    text[n] = 0;
    uz_pgn_reader *r = uz_pgn_reader_open_mem(text, n, "vector");
    uz_game g;
    uz_game_init(&g);
    if (r)
        uz_pgn_reader_keep_raw(r, true);
    bool ok = r && uz_pgn_read_game(r, &g, NULL) == UZ_OK && g.raw_len == n;
    CHECK(ok, "format.md:%d: the game reads, all its bytes", v->line);
    uz_pgn_layout prev;
    bool have_prev = false;
    uz_buf rec = {0}, back = {0};
    if (ok) {
        uz_walk w;
        CHECK(uz_walk_init(&w, &g) == UZ_OK && uz_walk_resolve_all(&w) == UZ_OK && uz_walk_fill_san(&w) == UZ_OK &&
                  uz_game_text_encode(&w, &prev, &have_prev, &rec) == UZ_OK,
              "format.md:%d: encode", v->line);
        char got[4096];
        hex_string(rec.data, rec.size < 1000 ? rec.size : 1000, got);
        CHECK(strcmp(got, need(v, "record")) == 0, "format.md:%d: the text record is '%s'", v->line, got);
        CHECK(uz_game_text_decode(&w, rec.data, rec.size, UZ_LIMIT_GAME_BYTES, &back) == UZ_OK &&
                  back.size == n && memcmp(back.data, text, n) == 0,
              "format.md:%d: the record gives back the bytes", v->line);
        uz_walk_free(&w);
    }
    uz_buf_free(&rec);
    uz_buf_free(&back);
    uz_game_clear(&g);
    uz_pgn_reader_close(r);
}

/* ---- the document ---- */

static const struct kind {
    const char *name;
    void (*check)(const vector *);
    int seen;
} kinds[] = {
    {"varint", check_varint, 0},
    {"varint-invalid", check_varint_invalid, 0},
    {"checksum", check_checksum, 0},
    {"model", check_model, 0},
    {"model-player", check_model_player, 0},
    {"opening", check_opening, 0},
    {"coder", check_coder, 0},
    {"huffman", check_huffman, 0},
    {"game-moves", check_game_moves, 0},
    {"archive", check_archive, 0},
    {"fingerprint", check_fingerprint, 0},
    {"text-record", check_text_record, 0},
};
#define N_KINDS (sizeof kinds / sizeof kinds[0])

int main(int argc, char **argv)
{
    /* The document: the argument, else doc/format.md of the source tree. */
    char path[4096];
    const char *root = getenv("UZ_SRC_ROOT");
    if (argc > 1)
        snprintf(path, sizeof path, "%s", argv[1]);
    else
        snprintf(path, sizeof path, "%s/doc/format.md", root ? root : ".");
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    static char line[1 << 16];
    static struct kind seen[N_KINDS];
    memcpy(seen, kinds, sizeof kinds);
    vector v;
    bool in = false;
    int lineno = 0, total = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!in) {
            if (strncmp(line, "```uz-vector ", 13) == 0) {
                memset(&v, 0, sizeof v);
                snprintf(v.kind, sizeof v.kind, "%.31s", line + 13);
                v.line = lineno;
                in = true;
            }
            continue;
        }
        if (strcmp(line, "```") == 0) {
            in = false;
            total++;
            size_t k = 0;
            while (k < N_KINDS && strcmp(seen[k].name, v.kind) != 0)
                k++;
            CHECK(k < N_KINDS, "format.md:%d: unknown vector kind '%s'", v.line, v.kind);
            if (k < N_KINDS) {
                seen[k].seen++;
                seen[k].check(&v);
            }
            for (int i = 0; i < v.n; i++)
                free(v.key[i]);
            continue;
        }
        char *colon = strstr(line, ": ");
        CHECK(colon && v.n < MAX_KEYS, "format.md:%d: expected 'key: value'", lineno);
        if (!colon || v.n >= MAX_KEYS)
            continue;
        *colon = 0;
        /* One allocation holds key and value. */
        size_t kl = strlen(line), vl = strlen(colon + 2);
        char *kv = malloc(kl + vl + 2);
        memcpy(kv, line, kl + 1);
        memcpy(kv + kl + 1, colon + 2, vl + 1);
        v.key[v.n] = kv;
        v.value[v.n++] = kv + kl + 1;
    }
    fclose(f);
    CHECK(!in, "format.md: a vector block is not closed");
    for (size_t k = 0; k < N_KINDS; k++)
        CHECK(seen[k].seen > 0, "format.md has no '%s' vector", seen[k].name);
    printf("%d vectors\n", total);
    return test_finish();
}
