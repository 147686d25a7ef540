/* The .ucz container (doc/format.md): header, blocks of games, index, footer; and the
 * structure stream that stores a game's tags, annotations and tree shape. Knows nothing
 * of engines or coders: move streams are opaque bytes here. */
#ifndef UCIZIP_ARCHIVE_H
#define UCIZIP_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "common/buf.h"
#include "common/limits.h"
#include "pgn/pgn.h"

/* The format version the writer writes; a reader reads UZ_ARCHIVE_MIN_VERSION to this. */
#define UZ_ARCHIVE_VERSION 3
#define UZ_ARCHIVE_MIN_VERSION 2
/* The default most games in a block (uz_options.block_games). */
#define UZ_ARCHIVE_BLOCK_GAMES 1024
#define UZ_ARCHIVE_MAX_BLOCK_GAMES 65536
#define UZ_ARCHIVE_FOOTER_SIZE 32 /* the fixed footer of version 2 (version 3 has none) */
#define UZ_ARCHIVE_MAX_MODEL_PARAMS 8
/* Layout of the structure stream the writer uses (header key 13); 0 is the layout of
 * members written before the key existed, which every reader still reads. */
#define UZ_STRUCT_VERSION 3

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
    uint32_t coder;         /* uz_coder_kind */
    uint32_t block_games;
    char chess960_fingerprint[64]; /* "" or the fingerprint of the engine with the same settings
                                      plus UCI_Chess960 true, which codes the member's Chess960 games */
    uint32_t struct_version;    /* layout of the blocks' structure streams (0: key 13 absent) */
    char settings_summary[256]; /* readable one-liner for messages (uz_pool_describe); version 3
                                   does not store it: the reader rebuilds it from the fields */
    char created_by[64];        /* "" when not stored (version 3 does not write it) */
} uz_archive_header;

/* ---- writing ---- */

typedef struct uz_archive_writer uz_archive_writer;

/* Starts a member on out (not owned) and writes its header. */
uz_result uz_archive_writer_open(uz_archive_writer **out, FILE *f, const uz_archive_header *header, uz_diag *diag);
/* Appends a block: the raw structure stream of its n_games games (zstd-compressed here),
 * their concatenated move streams, n_moves, the number of moves (nodes) the block's
 * game trees hold, for reports, and text_digest, the XXH64 of the block's original text
 * (its games' exact bytes one after the other). */
uz_result uz_archive_write_block(uz_archive_writer *w, size_t n_games, uint64_t n_moves, uint64_t text_digest,
                                 const uz_buf *structure, const uint8_t *moves, size_t moves_size, uz_diag *diag);
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
    uint32_t struct_version; /* its layout: the member header's struct_version */
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

/* Random access on a seekable file: finds the member, header and block holding game
 * number game (1-based across all members) by walking footers and indexes from the end,
 * and reads that block. *index_in_block receives the game's position in the block. */
uz_result uz_archive_seek_game(FILE *f, const char *name, uint64_t game, uz_archive_header *header,
                               uz_archive_block *block, size_t *index_in_block, uz_diag *diag);

/* Member summaries for `info`: walks a seekable file from its end. */
typedef struct uz_archive_member_info {
    uint64_t offset, length, games, blocks, moves;
    uz_archive_header header;
} uz_archive_member_info;
/* Fills up to cap entries (in file order) and returns the member count in *n. */
uz_result uz_archive_list_members(FILE *f, const char *name, uz_archive_member_info *out, size_t cap,
                                  size_t *n, uz_diag *diag);

/* ---- where the bytes go (for `info`) ---- */

/* An archive's bytes by what they hold; the parts add up to the file's size. A block's
 * stored structure stream is shared out among tags, comments and structure in proportion
 * to its sections compressed each on its own with the block's method (the stream is
 * compressed as a whole, so its bytes cannot be counted section by section). clocks and
 * engine_comments stay 0: such comments are counted in comments until the comment coder
 * reports them apart. */
typedef struct uz_byte_split {
    uint64_t moves;           /* move streams */
    uint64_t tags;            /* tag names and values (and coded tags) */
    uint64_t clocks;          /* clock comments */
    uint64_t engine_comments; /* engine evaluation comments */
    uint64_t comments;        /* the other comments (and verbatim games' text) */
    uint64_t structure;       /* game records (tree shapes, NAGs, results) and text records */
    uint64_t overhead;        /* headers, block headers, indexes, footers */
} uz_byte_split;

void uz_byte_split_init(uz_byte_split *s);
/* Adds a block as read (uz_archive_read_block). UZ_ERR_NOMEM is the only error. */
uz_result uz_byte_split_add_block(uz_byte_split *s, const uz_archive_block *b);
/* Sets overhead: total_bytes (of the file or member) less the other parts. */
void uz_byte_split_finish(uz_byte_split *s, uint64_t total_bytes);
/* The split of a whole archive read from f (every member, every block). */
uz_result uz_archive_byte_split(FILE *f, const char *name, uz_byte_split *out, uz_diag *diag);

/* ---- structure stream ---- */

/* Appends the structure of a block's n games to b, in the layout `version` (0 or
 * UZ_STRUCT_VERSION; readers take the same number) (UZ_ERR_LIMIT, nothing usable written,
 * if a game passes a limit of limits.h that the reader enforces): for each its move-stream
 * length (moves_lens[i]), the crc32 of its exact bytes (crcs[i]), tags, start position, result
 * and the annotated tree shape; tag values column by column, comments in their own
 * section, the text records of the games that have a tree (in game order) in the last
 * section (doc/format.md). Verbatim and text-only games keep their bytes as such. */
uz_result uz_block_struct_write(uz_buf *b, unsigned version, const uz_game *games, size_t n, const size_t *moves_lens,
                                const uint32_t *crcs, const uz_buf *text_records);
/* Reads the structure of a block of n games into games[0..n) (initialised by the
 * caller, cleared first); text_recs[i] / text_rec_lens[i] receive each game's text record
 * (NULL for verbatim and text-only games, whose raw bytes are set). Moves are left as UZ_MOVE_NONE except null moves, for the
 * move decoder to fill. Returns UZ_OK, UZ_ERR_CORRUPT or UZ_ERR_NOMEM; on error every
 * game is left empty. */
uz_result uz_block_struct_read(const uint8_t *data, size_t size, unsigned version, uz_game *games, size_t n, size_t *moves_lens,
                               uint32_t *crcs, const uint8_t **text_recs, size_t *text_rec_lens, uz_diag *diag);
/* The same within a decoder's limits (NULL: the defaults of limits.h): a block with more
 * moves than limits->block_nodes gives UZ_ERR_LIMIT before they are allocated. */
uz_result uz_block_struct_read_limited(const uint8_t *data, size_t size, unsigned version, uz_game *games, size_t n, size_t *moves_lens,
                                       uint32_t *crcs, const uint8_t **text_recs, size_t *text_rec_lens,
                                       const uz_decode_limits *limits, uz_diag *diag);

/* Layout 2: each game's coded engine comments (doc/format.md "Engine comment code"),
 * games[0..n) as uz_block_struct_read gave them: code[i] / code_lens[i] (length 0: none;
 * always for layouts 0 and 1). UZ_ERR_CORRUPT when the section does not hold exactly one
 * size and its bytes per game. The comments are decoded with uz_engine_code_decode once
 * the game's moves are known. */
uz_result uz_block_struct_engine_code(const uint8_t *data, size_t size, unsigned version, const uz_game *games, size_t n,
                                      const uint8_t **code, size_t *code_lens);

/* The coded comments of a block of n games (structure layout 1; zeros for layout 0):
 * the comment-code section's size and what it holds. Decodes the structure stream. */
typedef struct uz_struct_comment_info {
    uint64_t code_bytes, comments, clocks, engine;
    uint64_t cost_clocks, cost_engine, cost_text; /* coded bits by kind, in 1/65536 bit */
} uz_struct_comment_info;
uz_result uz_block_struct_comment_info(const uint8_t *data, size_t size, unsigned version, size_t n,
                                       uz_struct_comment_info *info, uz_diag *diag);

/* Text records (the layout and patch that give a game's exact bytes from its tree):
 * uz_game_text_encode appends the record of a game with raw bytes and a complete tree to
 * out; *prev / *have_prev carry the previous game's layout (games of one file share it).
 * UZ_ERR_LIMIT: the game is better kept as text (nothing appended). uz_game_text_decode
 * rebuilds a decoded game's exact bytes into out (at most max_len), UZ_ERR_CORRUPT when
 * the record does not fit the game. */
uz_result uz_game_text_encode(const uz_game *game, uz_pgn_layout *prev, bool *have_prev, uz_buf *out);
uz_result uz_game_text_decode(const uz_game *game, const uint8_t *rec, size_t rec_len, size_t max_len, uz_buf *out);

#endif
