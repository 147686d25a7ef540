/* The .ucz container (doc/format.md): member header, blocks of games, index, footer.
 * Knows nothing of chess, engines or coders: a block's structure stream and move streams
 * are opaque bytes here (src/block reads and writes what they hold). */
#ifndef UCIZIP_ARCHIVE_H
#define UCIZIP_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/buf.h"
#include "common/limits.h"

/* The format version the writer writes; a reader reads UZ_ARCHIVE_MIN_VERSION to this. */
#define UZ_ARCHIVE_VERSION 3
#define UZ_ARCHIVE_MIN_VERSION 2
/* The default most games in a block (uz_options.block_games). */
#define UZ_ARCHIVE_BLOCK_GAMES 1024
#define UZ_ARCHIVE_MAX_BLOCK_GAMES 65536
#define UZ_ARCHIVE_MAX_MODEL_PARAMS 8
/* Version of the structure stream the writer uses (header key 13); 0 is the version of
 * members written before the key existed, which every reader still reads. */
#define UZ_STRUCT_VERSION 5
/* Coding of the tags in every structure version (header key 16; absent: 1, the coded tags of
 * archives written before the key existed, which every reader still reads). The writer
 * writes the newest. */
#define UZ_TAG_VERSION 5
/* The newest revision of the coded comments' models (header key 17; doc/format.md,
 * "Coded comments"). */
#define UZ_COMMENT_REVISION 4
/* The newest revision of the engine comment code's models (header key 18, absent: 1, the
 * code of every archive written before the key existed; doc/format.md, "Engine comment
 * code"). */
#define UZ_ENGINE_REVISION 2
/* The framing of the comments section's texts (header key 19): 1 (key absent) a string
 * each, 2 each text then a NUL byte (doc/format.md, "Structure stream"). */
#define UZ_COMMENT_TEXT_STRING 1
#define UZ_COMMENT_TEXT_NUL 2

/* The summary a reader gives a version 3 header that stores neither settings nor a
 * summary: the engine name, then this. */
#define UZ_PROFILE_SUMMARY_SUFFIX "; the default settings of its profile"

/* Everything the decoder must reproduce, as stored in the member header. */
typedef struct uz_archive_header {
    uint16_t version;       /* the member's format version (the writer writes UZ_ARCHIVE_VERSION) */
    char engine_name[128];
    char fingerprint[64];   /* 16 lowercase hex digits (stored as 8 bytes from version 3) */
    /* Version 3: the settings are exactly those the engine's profile gives by default, so
     * the header stores neither the settings text (left "") nor keys 3-7: the decoder takes
     * them from the profile it finds, and the fingerprint checks them. The writer sets it
     * (uz_header_fill); a version 2 member never has it. */
    bool settings_from_profile;
    uint32_t depth;
    uint64_t nodes;
    uint32_t mode;          /* uz_engine_mode */
    uint32_t hash_mb;
    uint32_t threads;
    /* The engine bridge's canonical settings text (uz_pool_settings_text): the key=value
     * lines the decoder applies to its engine and the fingerprint hashes. The writer
     * refuses one that does not fit (UZ_ERR_LIMIT), the reader one longer (corrupt). */
    char engine_settings_text[UZ_LIMIT_SETTINGS_TEXT];
    uint32_t model_kind;
    uint32_t model_params[UZ_ARCHIVE_MAX_MODEL_PARAMS]; /* as the model kind defines them */
    uint32_t n_model_params;
    /* Opening counts (key 14): alpha in 1/16 and the plies counted; 0 plies: key absent,
     * no counts (every archive written before the key existed). */
    uint32_t opening_alpha16, opening_plies;
    /* The opening book (key 15): version and hash; version 0: key absent, no book (every
     * archive written before the key existed). */
    uint32_t book_version, book_hash_lo, book_hash_hi;
    uint32_t coder;         /* uz_coder_kind */
    uint32_t block_games;
    char chess960_fingerprint[64]; /* "" or the fingerprint of the engine with the same settings
                                      plus UCI_Chess960 true, which codes the member's Chess960 games */
    uint32_t struct_version;    /* version of the blocks' structure streams (0: key 13 absent) */
    uint32_t tag_version;       /* coding of their tags (key 16; 1 when absent) */
    uint32_t comment_revision;  /* key 17: the coded comments' models; 0: absent, the structure version's */
    uint32_t engine_revision;   /* key 18: the engine comment code's revision; 0: absent, revision 1 */
    uint32_t comment_text;      /* key 19: UZ_COMMENT_TEXT_*; 0: absent, strings */
    char settings_summary[256]; /* readable one-liner for messages (uz_pool_describe); version 3
                                   does not store it: the reader rebuilds it from the fields */
    char created_by[64];        /* "" when not stored (version 3 does not write it) */
} uz_archive_header;

/* ---- writing ---- */

typedef struct uz_archive_writer uz_archive_writer;

/* Starts a member on out (not owned) and writes its header. */
uz_result uz_archive_writer_open(uz_archive_writer **out, FILE *f, const uz_archive_header *header, uz_diag *diag);
/* A block's bytes as the block codec makes them (block/block_codec.h) and
 * uz_archive_write_block writes them. */
typedef struct uz_block_bytes {
    size_t n_games;
    uint64_t n_moves;     /* the moves (nodes) the games' trees hold, for reports */
    uint64_t text_digest; /* the XXH64 of the games' exact bytes, one after the other */
    uz_buf structure;     /* the raw structure stream */
    /* The structure stream packed by uz__pack (archive/packer.h) with method, when its
     * writer packed it already (it packs both tag codings to keep the smaller); empty:
     * the archive writer packs it. */
    uz_buf packed;
    unsigned method;
    uz_buf moves; /* the games' move streams, one after the other */
} uz_block_bytes;
/* Frees b's buffers and empties it. */
void uz_block_bytes_free(uz_block_bytes *b);

/* Appends a block of b->n_games games (1 and more): its structure stream packed (b->packed,
 * or packed here), its move streams, and what the index and the block header keep. */
uz_result uz_archive_write_block(uz_archive_writer *w, const uz_block_bytes *b, uz_diag *diag);
/* Writes index and footer. Frees w in any case. */
uz_result uz_archive_writer_finish(uz_archive_writer *w, uz_diag *diag);
/* Frees w without finishing (after an error). NULL is a no-op. */
void uz_archive_writer_abort(uz_archive_writer *w);

/* ---- reading ---- */

/* One block as read: the decompressed structure stream and the move streams. */
typedef struct uz_archive_block {
    size_t n_games;
    uint64_t tree_moves;     /* moves in the block's game trees (variations and null moves included) */
    uint64_t text_digest;    /* XXH64 of the block's original text */
    uint64_t struct_stored;  /* compressed size of the structure stream */
    unsigned struct_method;  /* how it is compressed (the block header's method) */
    uint32_t struct_version; /* its structure version: the member header's struct_version */
    uint32_t tag_version;    /* its tag coding: the member header's tag_version */
    uint32_t comment_revision; /* the member header's comment_revision (0: the structure version's) */
    uint32_t engine_revision;  /* the member header's engine_revision (0: absent, revision 1) */
    uint32_t comment_text;     /* the member header's comment_text (0: strings) */
    uz_buf structure;
    uz_buf moves;
    uint64_t offset;         /* of the block in the file */
    uint64_t stored_size;    /* bytes the block takes in the file */
} uz_archive_block;

void uz_archive_block_free(uz_archive_block *b);

typedef struct uz_archive_reader uz_archive_reader;

/* Reads sequentially from f (not owned; a pipe is fine). name is for diagnostics. */
uz_result uz_archive_reader_open(uz_archive_reader **out, FILE *f, const char *name);
void uz_archive_reader_close(uz_archive_reader *r);
/* Replaces the decoder limits (limits.h; NULL or zero fields: the defaults). A block past
 * them gives UZ_ERR_LIMIT before its contents are read. */
void uz_archive_reader_set_limits(uz_archive_reader *r, const uz_decode_limits *limits);
/* Reads the next member's header. UZ_DONE at the end of the file. */
uz_result uz_archive_read_header(uz_archive_reader *r, uz_archive_header *header, uz_diag *diag);
/* Reads the next block of the current member into block (freed and refilled). UZ_DONE when
 * the member's index and footer have been read and checked. */
uz_result uz_archive_read_block(uz_archive_reader *r, uz_archive_block *block, uz_diag *diag);
/* Byte offset of the reader in the file. */
uint64_t uz_archive_reader_offset(const uz_archive_reader *r);

/* A check of a block's own game count (its structure stream), for uz_archive_seek_game:
 * fn gives UZ_OK or the error (diag set). */
typedef struct uz_archive_block_check {
    uz_result (*fn)(void *user, const uz_archive_header *header, const uz_archive_block *block, uz_diag *diag);
    void *user;
} uz_archive_block_check;

/* Random access on a seekable file: finds the member, header and block holding game
 * number game (1-based across all members) by walking footers and indexes from the end,
 * and reads that block. *index_in_block receives the game's position in the block. With
 * check, every block before it (in every member) is read and checked too, since their
 * indexed game counts decide which game is number game. */
uz_result uz_archive_seek_game(FILE *f, const char *name, uint64_t game, uz_archive_header *header,
                               uz_archive_block *block, size_t *index_in_block, const uz_archive_block_check *check,
                               uz_diag *diag);

/* Member summaries for `info`: walks a seekable file from its end. */
typedef struct uz_archive_member_info {
    uint64_t offset, length, games, blocks, moves;
    uz_archive_header header;
} uz_archive_member_info;
/* Fills up to cap entries (in file order) and returns the member count in *n. */
uz_result uz_archive_list_members(FILE *f, const char *name, uz_archive_member_info *out, size_t cap,
                                  size_t *n, uz_diag *diag);

#endif
