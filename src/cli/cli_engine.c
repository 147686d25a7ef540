/* Shared engine and model options of the subcommands. */
#include "cli_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "gamecode/blockcode.h"
#include "cache/score_cache.h"

void cli_engine_opts_init(cli_engine_opts *o)
{
    memset(o, 0, sizeof *o);
    o->depth = o->nodes = o->hash = o->workers = o->cache_entries = -1;
}

void cli_model_opts_init(cli_model_opts *o)
{
    memset(o, 0, sizeof *o);
    o->params = uz_model_default_params(); /* the rank model's parameters, kept as the reference */
    o->params.kind = UZ_MODEL_PLAYER;      /* the default model */
    o->coder = UZ_CODER_RANGE;
    o->k_milli = o->floor_milli = o->rank_milli = o->decay_milli = -1;
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
    u->coder = o->coder == UZ_CODER_HUFFMAN ? "huffman" : "range";
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
        uz_engine_mode m;
        if (strcmp(arg, "searchmoves") == 0) {
            cli_error("--mode searchmoves is gone (Stockfish hardly searched a lone searchmoves move); "
                      "use --mode permove, a real search of each move (archives made with it still decode)");
            return -1;
        }
        if (!uz_engine_mode_parse(arg, &m)) {
            cli_error("--mode: expected multipv or permove, got '%s'", arg);
            return -1;
        }
        o->mode = arg;
        return 1;
    }
    }
    return 0;
}

int cli_model_opt(cli_model_opts *o, int c, const char *arg)
{
    uint64_t v;
    /* --k, --floor, --rank and --decay are the rank model's: they choose it unless --model says */
    if ((c == OPT_K || c == OPT_FLOOR || c == OPT_RANK || c == OPT_DECAY) && !o->model_given)
        o->params.kind = UZ_MODEL_RANK;
    switch (c) {
    case OPT_K:
        if (parse_milli("--k", arg, UZ_MODEL_K_MILLI_MAX, &v))
            return -1;
        if (v < UZ_MODEL_K_MILLI_MIN) {
            cli_error("--k: must be at least 1, got '%s'", arg);
            return -1;
        }
        o->params.k_milli = (uint32_t)v;
        o->k_milli = (int32_t)v;
        o->k_given = true;
        return 1;
    case OPT_FLOOR:
        if (parse_milli("--floor", arg, 1000, &v))
            return -1;
        /* thousandths to 1/65536 units, rounded */
        o->params.floor_q16 = (uint32_t)((v * UZ_MODEL_FLOOR_ONE + 500) / 1000);
        o->floor_milli = (int32_t)v;
        o->floor_given = true;
        return 1;
    case OPT_MODEL:
        if (strcmp(arg, "player") == 0)
            o->params.kind = UZ_MODEL_PLAYER;
        else if (strcmp(arg, "rank") == 0)
            o->params.kind = UZ_MODEL_RANK;
        else if (strcmp(arg, "exp") == 0)
            o->params.kind = UZ_MODEL_EXP;
        else {
            cli_error("--model: expected player, rank or exp, got '%s'", arg);
            return -1;
        }
        o->model = arg;
        o->model_given = true;
        return 1;
    case OPT_RANK:
    case OPT_DECAY:
        if (parse_milli(c == OPT_RANK ? "--rank" : "--decay", arg, 1000, &v))
            return -1;
        if (c == OPT_RANK) {
            o->params.rank_q16 = (uint32_t)((v * 65536 + 500) / 1000);
            o->rank_milli = (int32_t)v;
        } else if (v == 0 || v == 1000) {
            cli_error("--decay: must be above 0 and below 1, got '%s'", arg);
            return -1;
        } else {
            o->params.decay_q16 = (uint32_t)((v * 65536 + 500) / 1000);
            o->decay_milli = (int32_t)v;
        }
        return 1;
    case OPT_CODER:
        if (strcmp(arg, "huffman") == 0)
            o->coder = UZ_CODER_HUFFMAN;
        else if (strcmp(arg, "range") == 0)
            o->coder = UZ_CODER_RANGE;
        else {
            cli_error("--coder: expected huffman or range, got '%s'", arg);
            return -1;
        }
        o->coder_given = true;
        return 1;
    }
    return 0;
}

int cli_shared_opt(cli_engine_opts *e, cli_model_opts *m, int c, const char *arg)
{
    int h = cli_engine_opt(e, c, arg);
    return h ? h : cli_model_opt(m, c, arg);
}

int cli_default_workers(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

/* The persistent cache, opened once per process on first use and closed (pending
 * entries committed) at exit. */
static uz_score_cache *score_cache;

static void close_score_cache(void)
{
    uz_score_cache_close(score_cache);
    score_cache = NULL;
}

void cli_cache_stats(uint64_t *lookups, uint64_t *hits, uint64_t *rejected)
{
    uz_score_cache_stats st = {0};
    if (score_cache)
        uz_score_cache_get_stats(score_cache, &st);
    *lookups = st.lookups;
    *hits = st.hits;
    *rejected = st.rejected;
}

int cli_engine_settings(const cli_engine_opts *o, uz_engine_settings *s)
{
    const char *dirs[8];
    uz_engine_default_dirs(dirs, 8);
    uz_diag diag = {0};
    if (uz_engine_settings_from_spec(s, o->engine ? o->engine : "stockfish", dirs, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        return -1;
    }
    if (o->depth > 0)
        s->depth = (int)o->depth;
    if (o->nodes > 0)
        s->nodes = o->nodes;
    if (o->hash > 0)
        s->hash_mb = (int)o->hash;
    if (o->mode)
        uz_engine_mode_parse(o->mode, &s->mode);
    if (o->cache_entries >= 0)
        s->cache_entries = (int)o->cache_entries;
    if (o->cache_path && !score_cache) {
        if (uz_score_cache_open(&score_cache, o->cache_path, &diag) != UZ_OK) {
            cli_report(o->cache_path, &diag);
            return -1;
        }
        atexit(close_score_cache);
    }
    if (score_cache)
        s->store = uz_score_cache_store(score_cache);
    return 0;
}

int cli_pool960_open(const cli_engine_opts *o, uz_pool *pool, uz_pool **pool960)
{
    uz_diag diag = {0};
    int workers = o->workers > 0 ? (int)o->workers : cli_default_workers();
    uz_result r = uz_pool_create_chess960(pool960, pool, workers, &diag);
    if (r == UZ_OK)
        return 0;
    *pool960 = NULL;
    if (r == UZ_ERR_UNSUPPORTED || r == UZ_ERR_ARG) {
        cli_error("%s has no option UCI_Chess960: Chess960 games kept as text, moves not coded",
                  uz_pool_engine_name(pool));
        return 0;
    }
    cli_report(NULL, &diag);
    return -1;
}

bool cli_has_chess960(const uz_game *games, long n)
{
    for (long i = 0; i < n; i++)
        if (!games[i].verbatim && games[i].start.chess960)
            return true;
    return false;
}

int cli_chess960_as_text(uz_game *games, long n)
{
    for (long i = 0; i < n; i++) {
        if (games[i].verbatim || !games[i].start.chess960)
            continue;
        /* Its exact bytes when the reader kept them, else its export-format text. */
        char *text = games[i].raw;
        size_t len = games[i].raw_len;
        games[i].raw = NULL;
        if ((!text && uz_pgn_game_to_string(&games[i], &text, &len) != UZ_OK) ||
            uz_game_set_verbatim(&games[i], text, len) != UZ_OK) {
            free(text);
            cli_error("out of memory");
            return -1;
        }
        free(text);
    }
    return 0;
}

int cli_pool_open(const cli_engine_opts *o, uz_pool **pool)
{
    uz_engine_settings s;
    if (cli_engine_settings(o, &s) != 0)
        return -1;
    uz_diag diag = {0};
    int workers = o->workers > 0 ? (int)o->workers : cli_default_workers();
    if (uz_pool_create(pool, &s, workers, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        return -1;
    }
    return 0;
}

const char *cli_coder_name(uz_coder_kind kind)
{
    return kind == UZ_CODER_HUFFMAN ? "huffman" : kind == UZ_CODER_RANGE ? "range" : "?";
}

void cli_format_k(uint32_t k_milli, char *out, size_t cap)
{
    snprintf(out, cap, "%u.%03u", k_milli / 1000, k_milli % 1000);
    char *end = out + strlen(out) - 1;
    while (*end == '0')
        *end-- = 0;
    if (*end == '.')
        *end = 0;
}

void cli_model_text(const uz_model_params *p, char *out, size_t cap)
{
    char k[32];
    cli_format_k(p->k_milli, k, sizeof k);
    if (p->kind == UZ_MODEL_PLAYER)
        snprintf(out, cap, "player v%u weights %08x%08x", p->player_version, p->player_hash_hi, p->player_hash_lo);
    else if (p->kind == UZ_MODEL_RANK)
        snprintf(out, cap, "rank k=%s floor=%.4f rank=%.4f decay=%.4f", k, p->floor_q16 / 65536.0,
                 p->rank_q16 / 65536.0, p->decay_q16 / 65536.0);
    else
        snprintf(out, cap, "exp k=%s floor=%.4f", k, p->floor_q16 / 65536.0);
}

void cli_model_json(const uz_model_params *p)
{
    char k[32];
    cli_format_k(p->k_milli, k, sizeof k);
    if (p->kind == UZ_MODEL_PLAYER) {
        printf("{\"kind\":\"player\",\"version\":%u,\"weights\":\"%08x%08x\"}", p->player_version,
               p->player_hash_hi, p->player_hash_lo);
        return;
    }
    printf("{\"kind\":\"%s\",\"k\":%s,\"floor\":%.5f", p->kind == UZ_MODEL_RANK ? "rank" : "exp", k,
           p->floor_q16 / 65536.0);
    if (p->kind == UZ_MODEL_RANK)
        printf(",\"rank\":%.5f,\"decay\":%.5f", p->rank_q16 / 65536.0, p->decay_q16 / 65536.0);
    putchar('}');
}
