/* ucizip info: headers, engine, settings, sizes and bits per move of archives. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "cli_codec.h"
#include "cli_json.h"
#include "cli_util.h"

static const char info_usage[] =
    "usage: ucizip info ARCHIVE...|- [--json]\n"
    "Headers, engine, settings, games, sizes and bits/move of each archive (no engine run).\n"
    "  --json              a JSON array of one object per archive (doc/json.md)\n" CLI_KEEP_QUIET_HELP;

static int info_one(const char *path, json_t *json);


/* Where the bytes go (uz_byte_split), for `info`. */
static void add_split(uz_byte_split *to, const uz_byte_split *s)
{
    to->moves += s->moves;
    to->tags += s->tags;
    to->clocks += s->clocks;
    to->engine_comments += s->engine_comments;
    to->comments += s->comments;
    to->structure += s->structure;
    to->overhead += s->overhead;
}

static json_t *split_json(const uz_byte_split *s)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "moves", (json_int_t)s->moves, "tags", (json_int_t)s->tags,
                     "clocks", (json_int_t)s->clocks, "engine_comments", (json_int_t)s->engine_comments, "comments",
                     (json_int_t)s->comments, "structure", (json_int_t)s->structure, "overhead",
                     (json_int_t)s->overhead);
}

static void print_split_text(const char *indent, const uz_byte_split *s)
{
    printf("%sbytes: moves %llu, tags %llu, clocks %llu, engine comments %llu, other comments %llu, structure %llu, "
           "overhead %llu\n",
           indent, (unsigned long long)s->moves, (unsigned long long)s->tags, (unsigned long long)s->clocks,
           (unsigned long long)s->engine_comments, (unsigned long long)s->comments, (unsigned long long)s->structure,
           (unsigned long long)s->overhead);
}

int cmd_info(int argc, char **argv)
{
    static const struct option options[] = {
        {"json", no_argument, NULL, 'j'}, {"help", no_argument, NULL, 'h'}, CLI_KEEP_QUIET_OPTIONS,
        {NULL, 0, NULL, 0}};
    bool json = false;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "hkq", options, NULL)) != -1) {
        if (c == 'j')
            json = true;
        else if (c == 'k' || c == 'q')
            continue; /* zstd's -k and -q: nothing to keep or silence */
        else if (c == 'h') {
            fputs(info_usage, stdout);
            return CLI_EXIT_OK;
        } else {
            fputs(info_usage, stderr);
            return CLI_EXIT_USAGE;
        }
    }
    if (argc - optind < 1) {
        fputs(info_usage, stderr);
        return CLI_EXIT_USAGE;
    }
    int status = CLI_EXIT_OK;
    json_t *archives = json ? json_array() : NULL; /* one shape for one archive or several */
    for (int i = optind; i < argc; i++)
        if (info_one(argv[i], archives) != CLI_EXIT_OK)
            status = CLI_EXIT_FAIL;
    if (json && cli_json_print(stdout, archives) != 0)
        status = CLI_EXIT_FAIL;
    return status;
}

typedef struct info_counts {
    uint64_t games, moves, move_bytes, struct_bytes, bytes;
} info_counts;

/* One member's object of info --json (model NULL: not known to this version). */
static json_t *member_json(const uz_archive_header *h, const uz_model_params *model, const info_counts *n,
                           const uz_byte_split *split)
{
    json_t *m = json_object();
    if (!m)
        return NULL;
    cli_json_set_text(m, "engine", h->engine_name);
    cli_json_set_text(m, "settings", h->settings_summary);
    cli_json_set_text(m, "fingerprint", h->fingerprint);
    cli_json_set_text(m, "chess960_fingerprint", h->chess960_fingerprint[0] ? h->chess960_fingerprint : NULL);
    /* (settings left to the engine profile: those of the installed profile) */
    json_object_set_new(m, "settings_from_profile", json_boolean(h->settings_from_profile));
    json_object_set_new(m, "depth", json_integer(h->depth));
    json_object_set_new(m, "mode", json_string(uz_engine_mode_name((uz_engine_mode)h->mode)));
    json_object_set_new(m, "hash_mb", json_integer(h->hash_mb));
    json_object_set_new(m, "model", model ? cli_model_json(model) : json_null());
    json_object_set_new(m, "coder", json_string(uz_lib_coder_name((uz_coder_kind)h->coder)));
    json_object_set_new(m, "games", json_integer((json_int_t)n->games));
    json_object_set_new(m, "moves", json_integer((json_int_t)n->moves));
    json_object_set_new(m, "move_bytes", json_integer((json_int_t)n->move_bytes));
    json_object_set_new(m, "structure_bytes", json_integer((json_int_t)n->struct_bytes));
    json_object_set_new(m, "bytes", json_integer((json_int_t)n->bytes));
    json_object_set_new(m, "bits_per_move",
                        cli_json_fixed(n->moves ? 8.0 * (double)n->move_bytes / (double)n->moves : 0.0, 4));
    json_object_set_new(m, "split", split_json(split));
    return m;
}

/* The whole file's counts in its object of info --json. */
static void set_totals_json(json_t *doc, const info_counts *n, const uz_byte_split *split)
{
    json_object_set_new(doc, "games", json_integer((json_int_t)n->games));
    json_object_set_new(doc, "moves", json_integer((json_int_t)n->moves));
    json_object_set_new(doc, "bytes", json_integer((json_int_t)n->bytes));
    json_object_set_new(doc, "move_bytes", json_integer((json_int_t)n->move_bytes));
    json_object_set_new(doc, "structure_bytes", json_integer((json_int_t)n->struct_bytes));
    double per_move = n->moves ? 8.0 / (double)n->moves : 0.0; /* bits per move of a byte */
    json_object_set_new(doc, "bits_per_move", cli_json_fixed(per_move * (double)n->move_bytes, 4));
    json_object_set_new(doc, "total_bits_per_move", cli_json_fixed(per_move * (double)n->bytes, 4));
    json_object_set_new(doc, "split", split_json(split));
}

/* Prints the archive's header, sizes and bits per move, or with json appends its object
 * to that array. */
static int info_one(const char *path, json_t *json)
{
    const char *name;
    FILE *in = cli_open_input(path, &name);
    if (!in)
        return CLI_EXIT_FAIL;
    /* One sequential pass: headers and block sizes, no engine. */
    int status = CLI_EXIT_FAIL;
    uz_archive_reader *reader = NULL;
    uz_archive_block block = {0};
    uz_archive_header header;
    uz_diag diag = {0};
    uint64_t games = 0, moves = 0, move_bytes = 0, struct_bytes = 0, members = 0;
    uz_struct_comment_info cinfo = {0}; /* the coded comments of all members */
    json_t *doc = NULL, *members_json = NULL;
    if (uz_archive_reader_open(&reader, in, name) != UZ_OK)
        goto out;
    if (json) {
        doc = json_object();
        members_json = json_array();
        cli_json_set_text(doc, "file", name);
        json_object_set(doc, "members", members_json);
    }
    uz_byte_split split_all;
    uz_byte_split_init(&split_all);
    for (;;) {
        uint64_t member_start = uz_archive_reader_offset(reader);
        uz_result r = uz_archive_read_header(reader, &header, &diag);
        if (r == UZ_DONE)
            break;
        if (r != UZ_OK) {
            cli_report(name, &diag);
            goto out;
        }
        uz_header_profile_settings(&header); /* (the settings of the profile it refers to) */
        uint64_t m_games = 0, m_moves = 0, m_move_bytes = 0, m_struct = 0;
        uz_byte_split split;
        uz_byte_split_init(&split);
        while ((r = uz_archive_read_block(reader, &block, &diag)) == UZ_OK) {
            m_games += block.n_games;
            m_moves += block.tree_moves;
            m_move_bytes += block.moves.size;
            m_struct += block.struct_stored;
            if ((r = uz_byte_split_add_block(&split, &block)) != UZ_OK) {
                uz_diag_set(&diag, r, 0, 0, "out of memory");
                break;
            }
            uz_struct_comment_info bi;
            if (!json && block.struct_version >= 1 &&
                uz_block_struct_comment_info(block.structure.data, block.structure.size, block.struct_version,
                                             block.n_games, &bi, &diag) == UZ_OK) {
                cinfo.code_bytes += bi.code_bytes;
                cinfo.comments += bi.comments;
                cinfo.clocks += bi.clocks;
                cinfo.engine += bi.engine;
            }
        }
        if (r != UZ_DONE) {
            cli_report(name, &diag);
            goto out;
        }
        uint64_t m_bytes = uz_archive_reader_offset(reader) - member_start;
        uz_byte_split_finish(&split, m_bytes);
        add_split(&split_all, &split);
        uz_model_params mp;
        char mtext[128] = "unknown model";
        bool model_ok = uz_header_model(&header, &mp) == UZ_OK;
        if (model_ok)
            uz_lib_model_text(&mp, mtext, sizeof mtext);
        double bpm = m_moves ? 8.0 * (double)m_move_bytes / (double)m_moves : 0.0;
        if (json) {
            info_counts counts = {m_games, m_moves, m_move_bytes, m_struct, m_bytes};
            json_array_append_new(members_json, member_json(&header, model_ok ? &mp : NULL, &counts, &split));
        } else {
            /* Header strings come from the archive: escaped, never sent raw to a terminal. */
            printf("member %llu: format version %u", (unsigned long long)members + 1, header.version);
            if (header.created_by[0]) {
                printf(", ");
                cli_put_escaped(stdout, header.created_by);
            }
            printf("\n  engine: ");
            cli_put_escaped(stdout, header.settings_summary);
            printf(" (fingerprint ");
            cli_put_escaped(stdout, header.fingerprint);
            printf(")\n  model: %s, coder: %s\n"
                   "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
                   "tags/comments/structure: %llu bytes\n",
                   mtext, uz_lib_coder_name((uz_coder_kind)header.coder), (unsigned long long)m_games,
                   (unsigned long long)m_moves, (unsigned long long)m_move_bytes, bpm, (unsigned long long)m_struct);
            print_split_text("  ", &split);
            if (header.chess960_fingerprint[0]) {
                printf(uz_header_is_builtin(&header) ? "  Chess960 games: coded with the builtin (fingerprint "
                                                     : "  Chess960 games: engine-coded with UCI_Chess960 (fingerprint ");
                cli_put_escaped(stdout, header.chess960_fingerprint);
                printf(")\n");
            }
        }
        members++;
        games += m_games;
        moves += m_moves;
        move_bytes += m_move_bytes;
        struct_bytes += m_struct;
    }
    uint64_t total = uz_archive_reader_offset(reader);
    double bpm_all = moves ? 8.0 * (double)total / (double)moves : 0.0;
    if (json) {
        info_counts counts = {games, moves, move_bytes, struct_bytes, total};
        set_totals_json(doc, &counts, &split_all);
        json_array_append(json, doc);
    } else {
        if (cinfo.comments)
            printf("coded comments: %llu bytes for %llu clocks and %llu engine comments (%llu comments in all)\n",
                   (unsigned long long)cinfo.code_bytes, (unsigned long long)cinfo.clocks,
                   (unsigned long long)cinfo.engine, (unsigned long long)cinfo.comments);
        printf("%s: %llu bytes, %llu member%s, %llu games, %llu moves (%.3f bits/move all included)\n", name,
               (unsigned long long)total, (unsigned long long)members, members == 1 ? "" : "s",
               (unsigned long long)games, (unsigned long long)moves, bpm_all);
        if (members > 1)
            print_split_text("", &split_all);
    }
    status = CLI_EXIT_OK;
out:
    json_decref(members_json);
    json_decref(doc);
    uz_archive_block_free(&block);
    uz_archive_reader_close(reader);
    cli_close_input(in);
    return status;
}
