/* ucizip info: headers, engine, settings, sizes and bits per move of archives. */
#include <getopt.h>
#include <stdio.h>

#include "cli.h"
#include "cli_engine.h"
#include "cli_json.h"
#include "cli_util.h"
#define UZ_EXPERIMENTAL_API
#include "ucizip_experimental.h"

static const char info_usage[] =
    "usage: ucizip info ARCHIVE...|- [--json]\n"
    "Headers, engine, settings, games, sizes and bits/move of each archive (no engine run).\n"
    "  --json              a JSON array of one object per archive (doc/json.md)\n" CLI_KEEP_QUIET_HELP;

static int info_one(const char *path, json_t *json);


/* Where the bytes go (uz_byte_counts), for `info`. */
static void add_split(uz_byte_counts *to, const uz_byte_counts *s)
{
    to->moves += s->moves;
    to->tags += s->tags;
    to->clocks += s->clocks;
    to->engine_comments += s->engine_comments;
    to->comments += s->comments;
    to->structure += s->structure;
    to->overhead += s->overhead;
}

static json_t *split_json(const uz_byte_counts *s)
{
    return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "moves", (json_int_t)s->moves, "tags", (json_int_t)s->tags,
                     "clocks", (json_int_t)s->clocks, "engine_comments", (json_int_t)s->engine_comments, "comments",
                     (json_int_t)s->comments, "structure", (json_int_t)s->structure, "overhead",
                     (json_int_t)s->overhead);
}

static void print_split_text(const char *indent, const uz_byte_counts *s)
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

/* One member's object of info --json. */
static json_t *member_json(const uz_member_summary *m)
{
    json_t *o = json_object();
    if (!o)
        return NULL;
    cli_json_set_text(o, "engine", m->engine_name);
    cli_json_set_text(o, "settings", m->settings_summary);
    cli_json_set_text(o, "fingerprint", m->fingerprint);
    cli_json_set_text(o, "chess960_fingerprint", m->chess960_fingerprint[0] ? m->chess960_fingerprint : NULL);
    /* (settings left to the engine profile: those of the installed profile) */
    json_object_set_new(o, "settings_from_profile", json_boolean(m->settings_from_profile));
    json_object_set_new(o, "depth", json_integer(m->depth));
    json_object_set_new(o, "mode", json_string(m->mode));
    json_object_set_new(o, "hash_mb", json_integer(m->hash_mb));
    json_object_set_new(o, "model", m->model ? cli_model_json(m->model) : json_null());
    json_object_set_new(o, "coder", json_string(m->coder));
    json_object_set_new(o, "games", json_integer((json_int_t)m->games));
    json_object_set_new(o, "moves", json_integer((json_int_t)m->moves));
    json_object_set_new(o, "move_bytes", json_integer((json_int_t)m->move_bytes));
    json_object_set_new(o, "structure_bytes", json_integer((json_int_t)m->structure_bytes));
    json_object_set_new(o, "bytes", json_integer((json_int_t)m->bytes));
    json_object_set_new(o, "bits_per_move",
                        cli_json_fixed(m->moves ? 8.0 * (double)m->move_bytes / (double)m->moves : 0.0, 4));
    json_object_set_new(o, "split", split_json(&m->split));
    return o;
}

/* The whole file's counts in its object of info --json. */
static void set_totals_json(json_t *doc, const info_counts *n, const uz_byte_counts *split)
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

/* One member as text. Header strings come from the archive: escaped, never sent raw to a
 * terminal. */
static void print_member(uint64_t number, const uz_member_summary *m)
{
    double bpm = m->moves ? 8.0 * (double)m->move_bytes / (double)m->moves : 0.0;
    printf("member %llu: format version %u", (unsigned long long)number, m->version);
    if (m->created_by[0]) {
        printf(", ");
        cli_put_escaped(stdout, m->created_by);
    }
    printf("\n  engine: ");
    cli_put_escaped(stdout, m->settings_summary);
    printf(" (fingerprint ");
    cli_put_escaped(stdout, m->fingerprint);
    printf(")\n  model: %s, coder: %s\n"
           "  games: %llu, moves: %llu\n  move streams: %llu bytes (%.3f bits/move), "
           "tags/comments/structure: %llu bytes\n",
           m->model ? m->model->text : "unknown model", m->coder, (unsigned long long)m->games,
           (unsigned long long)m->moves, (unsigned long long)m->move_bytes, bpm,
           (unsigned long long)m->structure_bytes);
    print_split_text("  ", &m->split);
    if (m->chess960_fingerprint[0]) {
        printf(m->chess960_builtin ? "  Chess960 games: coded with the builtin (fingerprint "
                                   : "  Chess960 games: engine-coded with UCI_Chess960 (fingerprint ");
        cli_put_escaped(stdout, m->chess960_fingerprint);
        printf(")\n");
    }
}

/* The whole file as text. */
static void print_totals(const char *name, const info_counts *all, uint64_t members, const uz_byte_counts *split,
                         const uz_member_summary *comments)
{
    double bpm_all = all->moves ? 8.0 * (double)all->bytes / (double)all->moves : 0.0;
    if (comments->comments)
        printf("coded comments: %llu bytes for %llu clocks and %llu engine comments (%llu comments in all)\n",
               (unsigned long long)comments->comment_code_bytes, (unsigned long long)comments->clocks,
               (unsigned long long)comments->engine_comments, (unsigned long long)comments->comments);
    printf("%s: %llu bytes, %llu member%s, %llu games, %llu moves (%.3f bits/move all included)\n", name,
           (unsigned long long)all->bytes, (unsigned long long)members, members == 1 ? "" : "s",
           (unsigned long long)all->games, (unsigned long long)all->moves, bpm_all);
    if (members > 1)
        print_split_text("", split);
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
    uz_archive_scan *scan = NULL;
    uz_member_summary m;
    uz_diag diag = {0};
    info_counts all = {0};
    uint64_t members = 0;
    uz_member_summary comments = {0}; /* the coded comments of all members */
    uz_byte_counts split_all = {0};
    json_t *doc = NULL, *members_json = NULL;
    uz_result r = uz_archive_scan_open(&scan, in, name, &diag);
    if (r == UZ_OK && json) {
        doc = json_object();
        members_json = json_array();
        cli_json_set_text(doc, "file", name);
        json_object_set(doc, "members", members_json);
    }
    while (r == UZ_OK && (r = uz_archive_scan_next(scan, &m, &diag)) == UZ_OK) {
        add_split(&split_all, &m.split);
        if (json) {
            json_array_append_new(members_json, member_json(&m));
        } else {
            print_member(members + 1, &m);
        }
        members++;
        all.games += m.games;
        all.moves += m.moves;
        all.move_bytes += m.move_bytes;
        all.struct_bytes += m.structure_bytes;
        comments.comment_code_bytes += m.comment_code_bytes;
        comments.comments += m.comments;
        comments.clocks += m.clocks;
        comments.engine_comments += m.engine_comments;
    }
    if (r != UZ_DONE) {
        cli_report(name, &diag);
        goto out;
    }
    all.bytes = uz_archive_scan_offset(scan);
    if (json) {
        set_totals_json(doc, &all, &split_all);
        json_array_append(json, doc);
    } else {
        print_totals(name, &all, members, &split_all, &comments);
    }
    status = CLI_EXIT_OK;
out:
    json_decref(members_json);
    json_decref(doc);
    uz_archive_scan_close(scan);
    cli_close_input(in);
    return status;
}
