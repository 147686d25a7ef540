/* Engine settings: built-in defaults, "key = value" profile files, executable lookup. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_internal.h"

static int check_exe(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return ENOENT;
    if (!S_ISREG(st.st_mode) || access(path, X_OK) != 0)
        return EACCES;
    return 0;
}

int uz__resolve_exe(const char *name, char *out, size_t cap)
{
    if (name[0] == '\0')
        return ENOENT;
    if (strchr(name, '/')) {
        int rc = check_exe(name);
        if (rc == 0)
            uz_copy_str(out, cap, name);
        return rc;
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/local/bin:/usr/bin:/bin";
    int result = ENOENT;
    while (*path) {
        const char *colon = strchr(path, ':');
        size_t n = colon ? (size_t)(colon - path) : strlen(path);
        char cand[UZ_ENGINE_PATH_MAX];
        if (n == 0)
            snprintf(cand, sizeof cand, "./%s", name);
        else
            snprintf(cand, sizeof cand, "%.*s/%s", (int)n, path, name);
        int rc = check_exe(cand);
        if (rc == 0) {
            uz_copy_str(out, cap, cand);
            return 0;
        }
        if (rc == EACCES)
            result = EACCES;
        path += n + (colon ? 1 : 0);
    }
    return result;
}

uz_result uz_engine_settings_default(uz_engine_settings *s)
{
    if (!s)
        return UZ_ERR_ARG;
    memset(s, 0, sizeof *s);
    if (uz__resolve_exe("stockfish", s->path, sizeof s->path) != 0) {
        if (uz__resolve_exe("/usr/games/stockfish", s->path, sizeof s->path) != 0)
            uz_copy_str(s->path, sizeof s->path, "stockfish");
    }
    s->depth = 1;
    s->nodes = 0;
    s->mode = UZ_MODE_MULTIPV;
    s->hash_mb = 16; /* the Stockfish profile lowers it; 16 suits any engine run by path */
    s->threads = 1;
    s->max_multipv = 0;
    uz_copy_str(s->clear, sizeof s->clear, "ucinewgame");
    s->modes = (1u << UZ_MODE_MULTIPV) | (1u << UZ_MODE_PERMOVE);
    s->timeout_ms = 60000;
    s->handshake_timeout_ms = 10000;
    s->max_retries = 2;
    s->quit_grace_ms = 1000;
    s->cache_entries = 32768;
    s->recheck_every = 32;
    return UZ_OK;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

static bool parse_int(const char *v, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (end == v || *end != '\0' || errno != 0 || x < lo || x > hi)
        return false;
    *out = x;
    return true;
}

/* Sets one option; Hash and Threads have fields of their own. */
static uz_result set_option(uz_engine_settings *s, const char *name, const char *value)
{
    long x;
    if (strcmp(name, "Hash") == 0) {
        if (!parse_int(value, 0, 1 << 24, &x))
            return UZ_ERR_SYNTAX;
        s->hash_mb = (int)x;
        return UZ_OK;
    }
    if (strcmp(name, "Threads") == 0) {
        if (!parse_int(value, 0, 1024, &x))
            return UZ_ERR_SYNTAX;
        s->threads = (int)x;
        return UZ_OK;
    }
    if (strcmp(name, "MultiPV") == 0 || name[0] == '\0' ||
        strlen(name) >= UZ_ENGINE_OPTION_NAME_MAX || strlen(value) >= UZ_ENGINE_OPTION_VALUE_MAX)
        return UZ_ERR_SYNTAX; /* MultiPV is ours to set per query */
    for (int i = 0; i < s->n_options; i++) {
        if (strcmp(s->options[i].name, name) == 0) {
            uz_copy_str(s->options[i].value, sizeof s->options[i].value, value);
            return UZ_OK;
        }
    }
    if (s->n_options >= UZ_ENGINE_MAX_OPTIONS)
        return UZ_ERR_LIMIT;
    uz_copy_str(s->options[s->n_options].name, UZ_ENGINE_OPTION_NAME_MAX, name);
    uz_copy_str(s->options[s->n_options].value, UZ_ENGINE_OPTION_VALUE_MAX, value);
    s->n_options++;
    return UZ_OK;
}

/* Applies one key = value pair shared by profiles and settings text. */
static uz_result apply_key(uz_engine_settings *s, const char *key, const char *value)
{
    long x;
    if (strncmp(key, "option.", 7) == 0)
        return set_option(s, key + 7, value);
    if (strcmp(key, "depth") == 0) {
        if (!parse_int(value, 0, 200, &x))
            return UZ_ERR_SYNTAX;
        s->depth = (int)x;
    } else if (strcmp(key, "nodes") == 0) {
        if (!parse_int(value, 0, 2000000000L, &x))
            return UZ_ERR_SYNTAX;
        s->nodes = x;
    } else if (strcmp(key, "mode") == 0) {
        if (!uz_engine_mode_parse(value, &s->mode))
            return UZ_ERR_SYNTAX;
    } else if (strcmp(key, "max_multipv") == 0) {
        if (!parse_int(value, 0, 100000, &x))
            return UZ_ERR_SYNTAX;
        s->max_multipv = (int)x;
    } else if (strcmp(key, "clear") == 0) {
        if (strcmp(value, "ucinewgame") != 0 && strncmp(value, "option:", 7) != 0)
            return UZ_ERR_SYNTAX;
        if (!uz_copy_str(s->clear, sizeof s->clear, value))
            return UZ_ERR_SYNTAX;
    } else if (strcmp(key, "timeout_ms") == 0 || strcmp(key, "handshake_timeout_ms") == 0 ||
               strcmp(key, "max_retries") == 0 || strcmp(key, "cache_entries") == 0 ||
               strcmp(key, "quit_grace_ms") == 0 || strcmp(key, "recheck_every") == 0) {
        if (!parse_int(value, 0, 100000000L, &x))
            return UZ_ERR_SYNTAX;
        int *field = strcmp(key, "timeout_ms") == 0             ? &s->timeout_ms
                     : strcmp(key, "handshake_timeout_ms") == 0 ? &s->handshake_timeout_ms
                     : strcmp(key, "max_retries") == 0          ? &s->max_retries
                     : strcmp(key, "cache_entries") == 0        ? &s->cache_entries
                     : strcmp(key, "recheck_every") == 0        ? &s->recheck_every
                                                                : &s->quit_grace_ms;
        *field = (int)x;
    } else {
        return UZ_ERR_SYNTAX;
    }
    return UZ_OK;
}

static bool file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Finds NAME.profile in dirs; writes its path. */
#define EMBEDDED_PREFIX "built-in:"

/* The compiled-in text of profile NAME, NULL if there is none. */
static const char *embedded_profile(const char *name)
{
    for (size_t i = 0; i < uz__n_embedded_profiles; i++)
        if (strcmp(uz__embedded_profiles[i].name, name) == 0)
            return uz__embedded_profiles[i].text;
    return NULL;
}

/* Profile NAME: the first DIR/NAME.profile of dirs, else the compiled-in one
 * ("built-in:NAME.profile", a name no directory gives since it has no '/'). */
static bool find_profile(const char *name, const char *const *dirs, char *out, size_t cap)
{
    for (size_t i = 0; dirs && dirs[i]; i++) {
        snprintf(out, cap, "%s/%s.profile", dirs[i], name);
        if (file_exists(out))
            return true;
    }
    snprintf(out, cap, EMBEDDED_PREFIX "%s.profile", name);
    return embedded_profile(name) != NULL;
}

/* Opens a profile file, or the text of a compiled-in one. */
static FILE *open_profile(const char *file)
{
    size_t len = strlen(file), plen = strlen(EMBEDDED_PREFIX);
    if (strncmp(file, EMBEDDED_PREFIX, plen) != 0 || len <= plen + 8)
        return fopen(file, "r");
    char name[UZ_ENGINE_NAME_MAX];
    uz_copy_str(name, len - plen - 8 + 1 < sizeof name ? len - plen - 8 + 1 : sizeof name, file + plen);
    const char *text = embedded_profile(name);
    return text ? fmemopen((void *)text, strlen(text), "r") : NULL;
}

static uz_result load_file(uz_engine_settings *s, const char *file, const char *label,
                           uz_diag *diag)
{
    uz_result rc = UZ_OK;
    char exes[UZ_ENGINE_MAX_EXE][UZ_ENGINE_PATH_MAX];
    int n_exe = 0;
    long lineno = 0;
    bool modes_seen = false;
    char line[1024];
    FILE *f = open_profile(file);
    if (!f) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "cannot open engine profile '%s'", file);
        return UZ_ERR_IO;
    }
    uz_engine_settings_default(s);
    uz_copy_str(s->profile, sizeof s->profile, label);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        char *t = trim(line);
        if (*t == '\0')
            continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            rc = UZ_ERR_SYNTAX;
            uz_diag_set(diag, rc, lineno, 0, "engine profile '%s': expected 'key = value'", file);
            goto done;
        }
        *eq = '\0';
        char *key = trim(t), *value = trim(eq + 1);
        if (strcmp(key, "name") == 0) {
            /* The engine's own "id name" is what is recorded; this finds the profile
             * for an archive (uz_engine_profile_for_archive). */
            if (!uz_copy_str(s->name, sizeof s->name, value)) {
                rc = UZ_ERR_LIMIT; /* a cut name or path would name another engine */
                uz_diag_set(diag, rc, lineno, 0, "engine profile '%s': name longer than %zu bytes", file,
                            sizeof s->name - 1);
                goto done;
            }
            continue;
        }
        if (strcmp(key, "exe") == 0) {
            if (n_exe < UZ_ENGINE_MAX_EXE && !uz_copy_str(exes[n_exe++], UZ_ENGINE_PATH_MAX, value)) {
                rc = UZ_ERR_LIMIT;
                uz_diag_set(diag, rc, lineno, 0, "engine profile '%s': exe longer than %d bytes", file,
                            UZ_ENGINE_PATH_MAX - 1);
                goto done;
            }
            continue;
        }
        if (strcmp(key, "modes") == 0) {
            /* "multipv permove" (commas allowed); the first is the default. */
            unsigned modes = 0;
            bool first = true;
            for (char *tok = strtok(value, " ,\t"); tok; tok = strtok(NULL, " ,\t")) {
                uz_engine_mode m;
                if (!uz_engine_mode_parse(tok, &m)) {
                    rc = UZ_ERR_SYNTAX;
                    uz_diag_set(diag, rc, lineno, 0, "engine profile '%s': unknown mode '%s'",
                                file, tok);
                    goto done;
                }
                if (first)
                    s->mode = m;
                first = false;
                modes |= 1u << m;
            }
            s->modes = modes;
            modes_seen = true;
            continue;
        }
        rc = apply_key(s, key, value);
        if (rc != UZ_OK) {
            uz_diag_set(diag, rc, lineno, 0, "engine profile '%s': bad setting '%s = %s'", file,
                        key, value);
            goto done;
        }
    }
    if (ferror(f)) {
        rc = UZ_ERR_IO;
        uz_diag_set(diag, rc, 0, 0, "cannot read engine profile '%s'", file);
        goto done;
    }
    if (modes_seen && s->modes == 0) {
        rc = UZ_ERR_SYNTAX;
        uz_diag_set(diag, rc, 0, 0, "engine profile '%s': no modes", file);
        goto done;
    }
    if (n_exe > 0) {
        bool found = false;
        char tried[512] = "";
        for (int i = 0; i < n_exe && !found; i++) {
            found = uz__resolve_exe(exes[i], s->path, sizeof s->path) == 0;
            size_t used = strlen(tried);
            if (used < 400)
                snprintf(tried + used, sizeof tried - used, "%s%.100s", i ? ", " : "", exes[i]);
        }
        if (!found) {
            rc = UZ_ERR_ENGINE;
            uz_diag_set(diag, rc, 0, 0, "engine profile '%s': no executable found (tried %s)",
                        label, tried);
            goto done;
        }
    }
done:
    fclose(f);
    return rc;
}

uz_result uz_engine_profile_load(uz_engine_settings *s, const char *name_or_path,
                                 const char *const *dirs, uz_diag *diag)
{
    char file[UZ_ENGINE_PATH_MAX + 64];
    if (!s || !name_or_path || !*name_or_path) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no engine profile given");
        return UZ_ERR_ARG;
    }
    if (strchr(name_or_path, '/') || ends_with(name_or_path, ".profile")) {
        /* A file: its label is the base name without ".profile". */
        const char *base = strrchr(name_or_path, '/');
        base = base ? base + 1 : name_or_path;
        char label[UZ_ENGINE_NAME_MAX];
        uz_copy_str(label, sizeof label, base);
        if (ends_with(label, ".profile"))
            label[strlen(label) - 8] = '\0';
        return load_file(s, name_or_path, label, diag);
    }
    if (!find_profile(name_or_path, dirs, file, sizeof file)) {
        char where[256] = "";
        for (size_t i = 0; dirs && dirs[i]; i++) {
            size_t used = strlen(where);
            snprintf(where + used, sizeof where - used, "%s%.100s", i ? ", " : "", dirs[i]);
        }
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "engine profile '%s' not found (looked in: %s; set UZ_ENGINES_DIR)",
                    name_or_path, where[0] ? where : "nowhere");
        return UZ_ERR_IO;
    }
    return load_file(s, file, name_or_path, diag);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

enum { MAX_PROFILES = 64 };

/* The names of the profiles in dirs (the first of each name), sorted; malloc'd. */
static int list_profiles(const char *const *dirs, char *names[MAX_PROFILES])
{
    int n = 0;
    for (size_t d = 0; dirs && dirs[d]; d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *e;
        while (dir && (e = readdir(dir)) && n < MAX_PROFILES) {
            size_t len = strlen(e->d_name);
            if (len <= 8 || len >= UZ_ENGINE_NAME_MAX || !ends_with(e->d_name, ".profile"))
                continue;
            char base[UZ_ENGINE_NAME_MAX];
            uz_copy_str(base, len - 8 + 1, e->d_name);
            bool seen = false;
            for (int i = 0; i < n && !seen; i++)
                seen = strcmp(names[i], base) == 0;
            if (!seen && (names[n] = malloc(len - 7)))
                uz_copy_str(names[n++], len - 7, base);
        }
        if (dir)
            closedir(dir);
    }
    for (size_t i = 0; i < uz__n_embedded_profiles && n < MAX_PROFILES; i++) {
        const char *base = uz__embedded_profiles[i].name;
        bool seen = false;
        for (int j = 0; j < n && !seen; j++)
            seen = strcmp(names[j], base) == 0;
        if (!seen && (names[n] = malloc(strlen(base) + 1)))
            uz_copy_str(names[n++], strlen(base) + 1, base);
    }
    qsort(names, (size_t)n, sizeof *names, cmp_str);
    return n;
}

/* Whether the files a and b are one file, or copies with the same bytes. */
static bool same_program(const char *a, const char *b)
{
    struct stat sa, sb;
    if (stat(a, &sa) != 0 || stat(b, &sb) != 0 || sa.st_size != sb.st_size)
        return false;
    if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
        return true;
    FILE *fa = fopen(a, "rb"), *fb = fopen(b, "rb");
    bool same = fa && fb;
    static _Thread_local char ba[1 << 15], bb[1 << 15];
    size_t na;
    while (same && (na = fread(ba, 1, sizeof ba, fa)) > 0)
        same = fread(bb, 1, na, fb) == na && memcmp(ba, bb, na) == 0;
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return same;
}

/* The profile (in dirs) whose executable is the program at path: loads it into s. */
static bool profile_of_program(uz_engine_settings *s, const char *path, const char *const *dirs)
{
    char *names[MAX_PROFILES];
    int n = list_profiles(dirs, names);
    bool found = false;
    for (int i = 0; i < n && !found; i++) {
        uz_diag ignored = {0};
        found = uz_engine_profile_load(s, names[i], dirs, &ignored) == UZ_OK && same_program(s->path, path);
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    return found;
}

uz_result uz_engine_settings_from_spec(uz_engine_settings *s, const char *spec,
                                       const char *const *dirs, uz_diag *diag)
{
    char file[UZ_ENGINE_PATH_MAX + 64];
    if (!s || !spec || !*spec) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "no engine given");
        return UZ_ERR_ARG;
    }
    if (ends_with(spec, ".profile") || (!strchr(spec, '/') && find_profile(spec, dirs, file, sizeof file)))
        return uz_engine_profile_load(s, spec, dirs, diag);
    char path[UZ_ENGINE_PATH_MAX];
    if (uz__resolve_exe(spec, path, sizeof path) != 0) {
        /* Keep the name: uz_pool_create reports it as missing / not executable. */
        uz_engine_settings_default(s);
        uz_copy_str(s->path, sizeof s->path, spec);
        return UZ_OK;
    }
    /* The program of a profile (the same file, or a copy of it) runs with that profile's
     * settings, as its name would: same scores, same fingerprint. */
    if (!profile_of_program(s, path, dirs))
        uz_engine_settings_default(s);
    uz_copy_str(s->path, sizeof s->path, path);
    return UZ_OK;
}

/* The mode named by a settings text ("mode=..."), multipv if none. */
static uz_engine_mode text_mode(const char *text)
{
    uz_engine_mode m = UZ_MODE_MULTIPV;
    for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
        if (strncmp(p, "mode=", 5) == 0) {
            char v[32];
            size_t n = strcspn(p + 5, "\n");
            uz_copy_str(v, n < sizeof v ? n + 1 : sizeof v, p + 5);
            if (!uz_engine_mode_parse(v, &m))
                m = UZ_MODE_MULTIPV;
        }
    }
    return m;
}

uz_result uz_engine_profile_for_archive(uz_engine_settings *s, const char *engine_name, const char *settings_text,
                                        const char *const *dirs, uz_diag *diag)
{
    char *names[MAX_PROFILES];
    int n = list_profiles(dirs, names);
    uz_engine_mode mode = text_mode(settings_text);
    bool found = false;
    for (int i = 0; i < n && !found; i++) {
        uz_diag ignored = {0};
        size_t len;
        /* A profile that does not load (say, its engine is not installed) is no candidate. */
        found = uz_engine_profile_load(s, names[i], dirs, &ignored) == UZ_OK && (len = strlen(s->name)) > 0 &&
                strncmp(engine_name, s->name, len) == 0 && (engine_name[len] == ' ' || engine_name[len] == '\0') &&
                (mode == UZ_MODE_SEARCHMOVES || (s->modes & (1u << mode)));
    }
    for (int i = 0; i < n; i++)
        free(names[i]);
    if (!found) {
        uz_engine_settings_default(s);
        uz_diag_set(diag, UZ_ERR_MISMATCH, 0, 0,
                    "no installed engine profile for %s in %s mode; name the engine with --engine", engine_name,
                    uz_engine_mode_name(mode));
        return UZ_ERR_MISMATCH;
    }
    return UZ_OK;
}

size_t uz_engine_default_dirs(const char **out, size_t cap)
{
    /* Never a directory found relative to the program, nor one of the tree it was built
     * in: a profile names a program to run, so it comes only from where the user or the
     * installation put it. */
    static _Thread_local char storage[2][UZ_ENGINE_PATH_MAX]; /* per thread: objects may run in several */
    const char *cand[2] = {getenv("UZ_ENGINES_DIR"), NULL};
#ifdef UZ_ENGINES_DIR_INSTALLED
    cand[1] = UZ_ENGINES_DIR_INSTALLED;
#endif
    size_t n = 0;
    if (cap < 2)
        return 0;
    for (size_t i = 0; i < 2 && n + 1 < cap; i++) {
        if (!cand[i] || !*cand[i])
            continue;
        uz_copy_str(storage[n], UZ_ENGINE_PATH_MAX, cand[i]);
        out[n] = storage[n];
        n++;
    }
    out[n] = NULL;
    return n;
}

/* Engine options an archive may set: those that change the scores and take no file
 * name. Anything else in an archive (a log or network file, tablebase paths, resource
 * limits) is refused before an engine is started: the archive is untrusted input. */
static const char *const archive_options[] = {"Hash", "Threads", "UCI_Chess960", "UCI_AnalyseMode",
                                              "Contempt", NULL};

static bool archive_option_ok(const char *name, const char *value)
{
    for (int i = 0; archive_options[i]; i++) {
        if (strcmp(name, archive_options[i]) != 0)
            continue;
        if (strcmp(value, "true") == 0 || strcmp(value, "false") == 0)
            return true;
        long x;
        return parse_int(value, -100000, 100000000L, &x);
    }
    return false;
}

uz_result uz_engine_settings_apply_text(uz_engine_settings *s, const char *text, uz_diag *diag)
{
    long lineno = 0;
    char line[1024], shown[96] = "";
    const char *why = NULL;
    bool refused = false;
    while (*text && !why) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        lineno++;
        uz_copy_str(line, sizeof line, "");
        if (n < sizeof line) {
            memcpy(line, text, n);
            line[n] = '\0';
        }
        text += n + (nl ? 1 : 0);
        char *t = trim(line);
        if (*t == '\0')
            continue;
        char *eq = strchr(t, '=');
        if (!eq) {
            why = "expected key=value";
            break;
        }
        uz_copy_str(shown, sizeof shown, t);
        *eq = '\0';
        const char *key = t, *value = eq + 1;
        long x;
        if (strcmp(key, "engine") == 0)
            continue; /* informative: the fingerprint checks the engine */
        if (strcmp(key, "protocol") == 0) {
            if (!parse_int(value, 1, UZ_ENGINE_PROTOCOL_VERSION, &x))
                why = "unknown protocol version (made by a newer ucizip?)";
            else
                s->protocol = (int)x;
            continue;
        }
        /* Only what the scores depend on; resource limits are the user's to set. */
        if (strcmp(key, "mode") != 0 && strcmp(key, "depth") != 0 && strcmp(key, "nodes") != 0 &&
            strcmp(key, "max_multipv") != 0 && strcmp(key, "clear") != 0 && strncmp(key, "option.", 7) != 0) {
            why = "not a search setting";
            refused = true;
            break;
        }
        if (strncmp(key, "option.", 7) == 0 && !archive_option_ok(key + 7, value)) {
            why = "not an engine option an archive may set";
            refused = true;
            break;
        }
        if (strcmp(key, "clear") == 0 && strcmp(value, "ucinewgame") != 0 &&
            strcmp(value, "option:Clear Hash") != 0) {
            why = "not a way of clearing an engine";
            refused = true;
            break;
        }
        if (apply_key(s, key, value) != UZ_OK)
            why = "bad value";
    }
    if (why) {
        /* Malformed text is a syntax error; a well-formed setting we will not take is refused. */
        uz_result rc = refused ? UZ_ERR_UNSUPPORTED : UZ_ERR_SYNTAX;
        uz_diag_set(diag, rc, lineno, 0,
                    "archive engine settings, line %ld: '%s' refused: %s; no engine was started", lineno, shown,
                    why);
        return rc;
    }
    return UZ_OK;
}
