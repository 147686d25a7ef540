/* Shared engine and model options of the subcommands. */
#include "cli_engine.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_util.h"
#include "gamecode/blockcode.h"
#include "gamecode/builtin_oracle.h"
#include "lib/lib_internal.h"

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
    o->opening_milli = o->opening_plies = -1;
    o->params.opening_alpha16 = UZ_OPENING_DEFAULT_ALPHA16;
    o->params.opening_plies = UZ_OPENING_DEFAULT_PLIES;
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
    case OPT_OPENING: {
        if (strcmp(arg, "off") == 0) {
            o->opening_milli = 0;
            o->params.opening_alpha16 = o->params.opening_plies = 0;
            return 1;
        }
        char a[32];
        const char *comma = strchr(arg, ',');
        size_t len = comma ? (size_t)(comma - arg) : strlen(arg);
        long plies = UZ_OPENING_DEFAULT_PLIES;
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
        o->params.opening_alpha16 = (uint32_t)((v * 16 + 500) / 1000);
        o->params.opening_plies = (uint32_t)plies;
        return 1;
    }
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

/* Persistent caches the commands opened: released (their pending entries committed)
 * at exit. */
static const char *opened_cache;

static void release_cache(void)
{
    uz_lib_cache_release(opened_cache);
}

static void cache_warning(void *user, const char *input, const uz_diag *diag)
{
    (void)user;
    cli_report(input, diag);
}

int cli_cache_store(const cli_engine_opts *o, const uz_score_store **store)
{
    *store = NULL;
    if (!o->cache_path)
        return 0;
    uz_diag diag = {0};
    if (uz_lib_cache_acquire(o->cache_path, store, cache_warning, NULL, &diag) != UZ_OK) {
        cli_report(NULL, &diag); /* the message names the file */
        return -1;
    }
    if (!*store)
        return 0; /* unusable: said, the run goes on without it */
    if (!opened_cache) {
        opened_cache = o->cache_path;
        atexit(release_cache);
    } else {
        uz_lib_cache_release(o->cache_path); /* the run holds it already */
    }
    return 0;
}

int cli_engine_settings(const cli_engine_opts *o, uz_engine_settings *s)
{
    uz_options u;
    uz_options_init(&u);
    cli_engine_lib_options(o, &u);
    if (opened_cache)
        u.cache_path = NULL; /* one cache per run */
    uz_diag diag = {0};
    if (uz_lib_engine_settings(&u, s, &diag) != UZ_OK) {
        cli_report(NULL, &diag); /* a cache's messages name its file */
        return -1;
    }
    if (u.cache_path) {
        opened_cache = u.cache_path;
        atexit(release_cache);
    }
    if (o->cache_entries >= 0)
        s->cache_entries = (int)o->cache_entries;
    return 0;
}

static int default_workers(const cli_engine_opts *o)
{
    return o->workers > 0 ? (int)o->workers : uz_lib_workers(&(uz_options){.workers = 0});
}

int cli_pool960_open(const cli_engine_opts *o, uz_pool *pool, uz_pool **pool960)
{
    uz_diag diag = {0};
    int workers = default_workers(o);
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

int cli_pool_open(const cli_engine_opts *o, uz_pool **pool)
{
    uz_engine_settings s;
    if (cli_engine_settings(o, &s) != 0)
        return -1;
    uz_diag diag = {0};
    int workers = default_workers(o);
    if (uz_pool_create(pool, &s, workers, &diag) != UZ_OK) {
        cli_report(NULL, &diag);
        return -1;
    }
    return 0;
}

bool cli_engine_is_builtin(const char *engine)
{
    int version;
    return uz_builtin_spec(engine, &version);
}

int cli_scorer_open(const cli_engine_opts *o, cli_scorer *s)
{
    memset(s, 0, sizeof *s);
    int version;
    if (!uz_builtin_spec(o->engine, &version))
        return cli_pool_open(o, &s->pool);
    if (o->nodes > 0 || o->mode || o->hash > 0) {
        cli_error("--engine builtin takes --depth only (no --nodes, --mode or --hash)");
        return -1;
    }
    uz_diag diag = {0};
    if (uz_builtin_pool_create(&s->builtin, version, o->depth > 0 ? (int)o->depth : 0, default_workers(o), &diag) !=
        UZ_OK) {
        cli_report(NULL, &diag);
        return -1;
    }
    return 0;
}

int cli_scorer_prepare(const cli_engine_opts *o, cli_scorer *s, uz_game *games, size_t n)
{
    if (s->builtin || !uz_lib_has_chess960(games, n))
        return 0;
    if (!s->tried960 && cli_pool960_open(o, s->pool, &s->pool960) != 0)
        return -1;
    s->tried960 = true;
    if (!s->pool960 && uz_lib_chess960_as_text(games, n, NULL) != UZ_OK) { /* nothing to score them with */
        cli_error("out of memory");
        return -1;
    }
    return 0;
}

uz_result cli_scorer_score(cli_scorer *s, uz_walk *walks, size_t n, uz_diag *diag)
{
    if (s->builtin) {
        uz_oracle *o = uz_builtin_pool_oracle(s->builtin);
        return uz_score_walks(o, o, walks, n, diag);
    }
    return uz_score_walks_960(s->pool, s->pool960, walks, n, diag);
}

const char *cli_scorer_name(const cli_scorer *s)
{
    return s->builtin ? uz_oracle_identity_of(uz_builtin_pool_oracle(s->builtin)).engine_name
                      : uz_pool_engine_name(s->pool);
}

const char *cli_scorer_fingerprint(const cli_scorer *s)
{
    return s->builtin ? uz_oracle_identity_of(uz_builtin_pool_oracle(s->builtin)).fingerprint
                      : uz_pool_fingerprint(s->pool);
}

void cli_scorer_describe(const cli_scorer *s, char *out, size_t cap)
{
    if (s->builtin)
        uz_builtin_pool_describe(s->builtin, out, cap);
    else
        uz_pool_describe(s->pool, out, cap);
}

void cli_scorer_close(cli_scorer *s)
{
    uz_pool_destroy(s->pool960);
    uz_pool_destroy(s->pool);
    uz_builtin_pool_destroy(s->builtin);
    memset(s, 0, sizeof *s);
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
