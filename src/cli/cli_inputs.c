/* Expanding input arguments and deriving output names. */
#include "cli_inputs.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli_util.h"

const char *const cli_compressed_suffixes[] = {".zst", ".gz", ".bz2", ".xz", NULL};
const char *const cli_pgn_names[] = {".pgn", ".pgn.zst", ".pgn.gz", ".pgn.bz2", ".pgn.xz", NULL};

static char *dup_string(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

static int push(cli_paths *p, const char *path)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? 2 * p->cap : 16;
        char **items = realloc(p->items, cap * sizeof *items);
        if (!items)
            return -1;
        p->items = items;
        p->cap = cap;
    }
    if (!(p->items[p->n] = dup_string(path)))
        return -1;
    p->n++;
    return 0;
}

static bool ends_with(const char *s, const char *suffix, bool nocase)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && (nocase ? strcasecmp(s + n - k, suffix) : strcmp(s + n - k, suffix)) == 0;
}

static int cmp_paths(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the matching files under dir, sorted; returns the number of errors or -1. */
static int walk_dir(cli_paths *out, const char *dir, const char *const *exts, int depth)
{
    if (depth > 64) {
        cli_error("%s: directories nested too deep", dir);
        return 1;
    }
    DIR *d = opendir(dir);
    if (!d) {
        cli_error("%s: %s", dir, strerror(errno));
        return 1;
    }
    cli_paths here = {0};
    struct dirent *e;
    int errors = 0;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue; /* ".", "..", hidden files and our own temporary files */
        size_t len = strlen(dir) + strlen(e->d_name) + 2;
        char *path = malloc(len);
        if (!path) {
            errors = -1;
            break;
        }
        snprintf(path, len, "%s%s%s", dir, ends_with(dir, "/", false) ? "" : "/", e->d_name);
        int r = push(&here, path);
        free(path);
        if (r) {
            errors = -1;
            break;
        }
    }
    closedir(d);
    if (errors == 0) {
        qsort(here.items, here.n, sizeof *here.items, cmp_paths);
        for (size_t i = 0; i < here.n && errors >= 0; i++) {
            struct stat st;
            if (stat(here.items[i], &st) != 0)
                continue; /* vanished or a dangling link */
            if (S_ISDIR(st.st_mode)) {
                int r = walk_dir(out, here.items[i], exts, depth + 1);
                errors = r < 0 ? -1 : errors + r;
                continue;
            }
            if (!S_ISREG(st.st_mode))
                continue;
            for (const char *const *x = exts; *x; x++)
                if (ends_with(here.items[i], *x, true)) {
                    if (push(out, here.items[i]))
                        errors = -1;
                    break;
                }
        }
    }
    cli_paths_free(&here);
    return errors;
}

int cli_paths_expand(cli_paths *out, char *const *args, int n, bool recursive, const char *const *exts)
{
    int errors = 0;
    if (n == 0)
        return push(out, "-") ? -1 : 0;
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (strcmp(args[i], "-") != 0 && stat(args[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            if (!recursive) {
                cli_error("%s: is a directory (use -r to read the files under it)", args[i]);
                errors++;
                continue;
            }
            int r = walk_dir(out, args[i], exts, 0);
            if (r < 0)
                return -1;
            errors += r;
            continue;
        }
        if (push(out, args[i]))
            return -1;
    }
    return errors;
}

void cli_paths_free(cli_paths *p)
{
    for (size_t i = 0; i < p->n; i++)
        free(p->items[i]);
    free(p->items);
    memset(p, 0, sizeof *p);
}

char *cli_output_name(const char *in, const char *const *strip, const char *add, const char *dir)
{
    if (!in || strcmp(in, "-") == 0)
        return NULL;
    const char *base = in;
    if (dir) {
        const char *slash = strrchr(in, '/');
        if (slash)
            base = slash + 1;
    }
    size_t n = strlen(base);
    for (const char *const *s = strip; s && *s; s++)
        if (ends_with(base, *s, false)) {
            n -= strlen(*s);
            break;
        }
    size_t len = (dir ? strlen(dir) + 1 : 0) + n + strlen(add) + 1;
    char *out = malloc(len);
    if (!out)
        return NULL;
    if (dir)
        snprintf(out, len, "%s%s%.*s%s", dir, ends_with(dir, "/", false) ? "" : "/", (int)n, base, add);
    else
        snprintf(out, len, "%.*s%s", (int)n, base, add);
    return out;
}

bool cli_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    if (!a || !b || strcmp(a, "-") == 0 || strcmp(b, "-") == 0)
        return false;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int cli_make_dir(const char *dir)
{
    struct stat st;
    if (stat(dir, &st) == 0) {
        if (S_ISDIR(st.st_mode))
            return 0;
        cli_error("%s: not a directory", dir);
        return -1;
    }
    if (mkdir(dir, 0777) != 0) {
        cli_error("%s: %s", dir, strerror(errno));
        return -1;
    }
    return 0;
}

/* Where an output lands: the real path of its directory and its last part (the file
 * itself need not exist), so that two spellings of one place compare equal. */
static char *output_place(const char *out)
{
    const char *slash = strrchr(out, '/');
    char *dir = slash ? strndup(out, (size_t)(slash - out) + 1) : strdup(".");
    char *real = dir ? realpath(dir, NULL) : NULL;
    const char *base = slash ? slash + 1 : out;
    char *place = NULL;
    size_t len = (real ? strlen(real) : strlen(dir ? dir : "")) + strlen(base) + 2;
    if (dir && (place = malloc(len)) != NULL)
        snprintf(place, len, "%s/%s", real ? real : dir, base);
    free(dir);
    free(real);
    return place;
}

typedef struct output_place_entry {
    char *place;
    size_t input;
} output_place_entry;

static int by_place(const void *a, const void *b)
{
    const output_place_entry *x = a, *y = b;
    int c = strcmp(x->place, y->place);
    return c ? c : (x->input > y->input) - (x->input < y->input);
}

int cli_outputs_distinct(const char *const *inputs, char *const *outs, size_t n)
{
    output_place_entry *e = calloc(n ? n : 1, sizeof *e);
    size_t m = 0;
    int status = e ? 0 : -1;
    for (size_t i = 0; status == 0 && i < n; i++) {
        if (!outs[i])
            continue;
        if (!(e[m].place = output_place(outs[i])))
            status = -1;
        else
            e[m++].input = i;
    }
    if (status != 0) {
        cli_error("out of memory");
    } else {
        qsort(e, m, sizeof *e, by_place);
        for (size_t k = 1; k < m; k++)
            if (strcmp(e[k - 1].place, e[k].place) == 0) {
                cli_error("%s and %s would both be written to %s: refused (nothing written)",
                          inputs[e[k - 1].input], inputs[e[k].input], outs[e[k].input]);
                status = -1;
                break;
            }
    }
    for (size_t k = 0; k < m; k++)
        free(e[k].place);
    free(e);
    return status;
}
