/* Shared engine and model options of the subcommands. */
#include "cli_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"

void cli_engine_opts_init(cli_engine_opts *o)
{
    memset(o, 0, sizeof *o);
    o->depth = o->nodes = o->hash = o->workers = -1;
}

void cli_model_opts_init(cli_model_opts *o)
{
    memset(o, 0, sizeof *o);
    o->coder = "range";
    o->k_milli = o->floor_milli = o->rank_milli = o->decay_milli = -1;
    o->opening_milli = o->opening_plies = -1;
}

void cli_engine_lib_options(const cli_engine_opts *o, uz_options *u)
{
    u->engine = o->engine;
    u->depth = o->depth > 0 ? (int)o->depth : 0;
    u->nodes = o->nodes > 0 ? o->nodes : 0;
    u->mode = o->mode;
    u->hash_mb = o->hash > 0 ? (int)o->hash : 0;
    u->workers = o->workers > 0 ? (int)o->workers : 0;
    u->cache_path = o->cache_path;
}

void cli_model_lib_options(const cli_model_opts *o, uz_options *u)
{
    u->model = o->model;
    u->k_milli = o->k_milli;
    u->floor_milli = o->floor_milli;
    u->rank_milli = o->rank_milli;
    u->decay_milli = o->decay_milli;
    u->opening_milli = o->opening_milli;
    u->opening_plies = o->opening_plies;
    u->book = o->book;
    u->coder = o->coder;
}

/* Parses a decimal number with up to 3 fractional digits into thousandths, without
 * floating point so the stored parameter is exactly what was typed. */
static int parse_milli(const char *opt, const char *text, uint64_t max_milli, uint64_t *out)
{
    uint64_t whole = 0, frac = 0;
    int frac_digits = 0;
    const char *p = text;
    if (!*p)
        goto bad;
    while (*p >= '0' && *p <= '9') {
        whole = whole * 10 + (uint64_t)(*p++ - '0');
        if (whole > max_milli)
            goto bad;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9' && frac_digits < 3) {
            frac = frac * 10 + (uint64_t)(*p++ - '0');
            frac_digits++;
        }
        while (*p == '0')
            p++;
    }
    if (*p || p == text)
        goto bad;
    while (frac_digits++ < 3)
        frac *= 10;
    *out = whole * 1000 + frac;
    if (*out > max_milli)
        goto bad;
    return 0;
bad:
    cli_error("%s: expected a number (up to 3 decimals), got '%s'", opt, text);
    return -1;
}

int cli_engine_opt(cli_engine_opts *o, int c, const char *arg)
{
    switch (c) {
    case OPT_ENGINE: o->engine = arg; return 1;
    case OPT_DEPTH: return cli_parse_long("--depth", arg, 1, 100, &o->depth) ? -1 : 1;
    case OPT_NODES: return cli_parse_long("--nodes", arg, 1, 2000000000L, &o->nodes) ? -1 : 1;
    case OPT_HASH: return cli_parse_long("--hash", arg, 1, 1 << 20, &o->hash) ? -1 : 1;
    case OPT_CACHE: o->cache_path = arg; return 1;
    case OPT_WORKERS: return cli_parse_long("--workers", arg, 1, 256, &o->workers) ? -1 : 1;
    case OPT_MODE: {
        if (strcmp(arg, "searchmoves") == 0) {
            cli_error("--mode searchmoves is gone (Stockfish hardly searched a lone searchmoves move); "
                      "use --mode permove, a real search of each move (archives made with it still decode)");
            return -1;
        }
        if (strcmp(arg, "multipv") != 0 && strcmp(arg, "permove") != 0) {
            cli_error("--mode: expected multipv or permove, got '%s'", arg);
            return -1;
        }
        o->mode = arg;
        return 1;
    }
    }
    return 0;
}

/* The model fields of the options: --k, --floor, --rank and --decay choose the rank model
 * unless --model says otherwise (the library's rule, uz_options). */
int cli_model_opt(cli_model_opts *o, int c, const char *arg)
{
    uint64_t v;
    switch (c) {
    case OPT_K:
        if (parse_milli("--k", arg, UZ_ANALYSIS_K_MILLI_MAX, &v))
            return -1;
        if (v < UZ_ANALYSIS_K_MILLI_MIN) {
            cli_error("--k: must be at least 1, got '%s'", arg);
            return -1;
        }
        o->k_milli = (int32_t)v;
        return 1;
    case OPT_FLOOR:
        if (parse_milli("--floor", arg, 1000, &v))
            return -1;
        o->floor_milli = (int32_t)v;
        o->floor_given = true;
        return 1;
    case OPT_MODEL:
        if (strcmp(arg, "player") != 0 && strcmp(arg, "rank") != 0 && strcmp(arg, "exp") != 0) {
            cli_error("--model: expected player, rank or exp, got '%s'", arg);
            return -1;
        }
        o->model = arg;
        return 1;
    case OPT_RANK:
    case OPT_DECAY:
        if (parse_milli(c == OPT_RANK ? "--rank" : "--decay", arg, 1000, &v))
            return -1;
        if (c == OPT_RANK) {
            o->rank_milli = (int32_t)v;
        } else if (v == 0 || v == 1000) {
            cli_error("--decay: must be above 0 and below 1, got '%s'", arg);
            return -1;
        } else {
            o->decay_milli = (int32_t)v;
        }
        return 1;
    case OPT_OPENING: {
        if (strcmp(arg, "off") == 0) {
            o->opening_milli = 0;
            return 1;
        }
        char a[32];
        const char *comma = strchr(arg, ',');
        size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
        long plies = -1;
        if (len >= sizeof a) {
            cli_error("--opening: expected A[,N] or off, got '%s'", arg);
            return -1;
        }
        memcpy(a, arg, len);
        a[len] = 0;
        if (parse_milli("--opening", a, 4096000, &v) || (comma && cli_parse_long("--opening", comma + 1, 1, 1024, &plies)))
            return -1;
        if ((v * 16 + 500) / 1000 == 0) {
            cli_error("--opening: A must be at least 0.0625 (or off), got '%s'", arg);
            return -1;
        }
        o->opening_milli = (int32_t)v;
        o->opening_plies = (int32_t)plies;
        return 1;
    }
    case OPT_BOOK: {
        long version;
        if (strcmp(arg, "off") == 0)
            o->book = -1;
        else if (cli_parse_long("--book", arg, 1, 1000000, &version))
            return -1;
        else
            o->book = (int32_t)version;
        return 1;
    }
    case OPT_CODER:
        if (strcmp(arg, "huffman") != 0 && strcmp(arg, "range") != 0) {
            cli_error("--coder: expected huffman or range, got '%s'", arg);
            return -1;
        }
        o->coder = arg;
        return 1;
    }
    return 0;
}

int cli_shared_opt(cli_engine_opts *e, cli_model_opts *m, int c, const char *arg)
{
    int h = cli_engine_opt(e, c, arg);
    return h ? h : cli_model_opt(m, c, arg);
}

/* Messages of the session (an unusable cache, an engine without UCI_Chess960): one line each. */
static void on_analysis_message(void *user, const char *input, const uz_diag *diag)
{
    (void)user;
    cli_report(input, diag);
}

int cli_analysis_open(const cli_engine_opts *eo, const cli_model_opts *mo, unsigned flags, uz_analysis **out)
{
    *out = NULL;
    uz_options u;
    uz_options_init(&u);
    cli_engine_lib_options(eo, &u);
    cli_model_lib_options(mo, &u);
    u.on_message = on_analysis_message;
    uz_diag diag = {0};
    if (uz_analysis_open(out, &u, flags, &diag) != UZ_OK) {
        cli_report(NULL, &diag); /* a cache's messages name its file */
        return -1;
    }
    return 0;
}

json_t *cli_model_json(const uz_model_info *m)
{
    if (strcmp(m->kind, "player") == 0)
        return json_pack("{s:s, s:I, s:s}", "kind", "player", "version", (json_int_t)m->player_version, "weights",
                         m->player_weights);
    bool rank = strcmp(m->kind, "rank") == 0;
    json_t *j = json_pack("{s:s, s:o, s:o}", "kind", m->kind, "k", json_real(strtod(m->k, NULL)), "floor",
                          cli_json_fixed(m->floor_q16 / 65536.0, 5));
    if (j && rank) {
        json_object_set_new(j, "rank", cli_json_fixed(m->rank_q16 / 65536.0, 5));
        json_object_set_new(j, "decay", cli_json_fixed(m->decay_q16 / 65536.0, 5));
    }
    return j;
}
