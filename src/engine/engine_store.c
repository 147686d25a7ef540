/* The engine store (engine_store.h): private directories checked before use, binaries
 * copied under their SHA-256, entries keyed by fingerprint. */
#include "engine/engine_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine_internal.h"

#define ENTRY_MAGIC "ucizip engine store 1"
#define DIAG_TEXT sizeof ((uz_diag *)0)->message
#define SETTINGS_MARK "settings:"

static bool all_hex(const char *s, size_t n)
{
    if (strlen(s) != n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
            return false;
    return true;
}

static uz_result io_error(uz_diag *diag, const char *what, const char *path, int err)
{
    uz_diag_set(diag, UZ_ERR_IO, 0, 0, "cannot %s '%s': %s", what, path, strerror(err));
    return UZ_ERR_IO;
}

/* Refuses what another user could have put or changed: a symbolic link, the wrong kind
 * of file, another owner, group or world write permission. */
static uz_result check_private_stat(const struct stat *st, const char *path, bool dir, uz_diag *diag)
{
    const char *why = NULL;
    if (S_ISLNK(st->st_mode))
        why = "is a symbolic link";
    else if (dir ? !S_ISDIR(st->st_mode) : !S_ISREG(st->st_mode))
        why = dir ? "is not a directory" : "is not a regular file";
    else if (st->st_uid != geteuid())
        why = "is owned by another user";
    else if (st->st_mode & (S_IWGRP | S_IWOTH))
        why = "is writable by others (chmod go-w)";
    if (!why)
        return UZ_OK;
    uz_diag_set(diag, UZ_ERR_IO, 0, 0, "refused: '%s' %s", path, why);
    return UZ_ERR_IO;
}

static uz_result check_private(const char *path, bool dir, uz_diag *diag)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return io_error(diag, "read", path, errno);
    return check_private_stat(&st, path, dir, diag);
}

/* Opens a file of the store for reading, checked on the descriptor itself. -1 (diag set). */
static int open_private(const char *path, uz_diag *diag)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        io_error(diag, "open", path, errno == ELOOP ? EPERM : errno);
        return -1;
    }
    if (fstat(fd, &st) != 0 || check_private_stat(&st, path, false, diag) != UZ_OK) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Opens a file of a store that need not be private (an exported copy): without following
 * a symbolic link and without blocking (a FIFO), and only a regular file, checked on the
 * descriptor itself. size (or NULL): its size. -1 (diag set). */
static int open_foreign(const char *path, off_t *size, uz_diag *diag)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd < 0) {
        if (errno == ELOOP)
            uz_diag_set(diag, UZ_ERR_IO, 0, 0, "refused: '%s' is a symbolic link", path);
        else
            io_error(diag, "open", path, errno);
        return -1;
    }
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "refused: '%s' is not a regular file", path);
        close(fd);
        return -1;
    }
    if (size)
        *size = st.st_size;
    return fd;
}

uz_result uz_engine_store_dir(char *out, size_t cap, uz_diag *diag)
{
    const char *env = getenv("UZ_ENGINE_STORE"), *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
    int n;
    if (env && *env)
        n = snprintf(out, cap, "%s", env);
    else if (xdg && xdg[0] == '/') /* a relative XDG_DATA_HOME is invalid and ignored (XDG spec) */
        n = snprintf(out, cap, "%s/ucizip/engines", xdg);
    else if (home && *home)
        n = snprintf(out, cap, "%s/.local/share/ucizip/engines", home);
    else {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "neither UZ_ENGINE_STORE, XDG_DATA_HOME nor HOME is set");
        return UZ_ERR_IO;
    }
    if (n < 0 || (size_t)n >= cap) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "path too long");
        return UZ_ERR_IO;
    }
    return UZ_OK;
}

/* mkdir -p with mode 0700 for what it creates. */
static uz_result make_dirs(const char *path, uz_diag *diag)
{
    char p[UZ_ENGINE_PATH_MAX];
    if (!uz_copy_str(p, sizeof p, path)) {
        uz_diag_set(diag, UZ_ERR_IO, 0, 0, "path too long");
        return UZ_ERR_IO;
    }
    for (char *s = p + 1;; s++) {
        bool end = *s == '\0';
        if (*s == '/' || end) {
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST)
                return io_error(diag, "create", p, errno);
            if (end)
                break;
            *s = '/';
        }
    }
    return UZ_OK;
}

/* The store's three directories, created if create, each checked to be private.
 * UZ_DONE: the store does not exist (and create is false). */
static uz_result open_store(const char *dir, bool create, uz_diag *diag)
{
    char sub[UZ_ENGINE_PATH_MAX];
    struct stat st;
    if (!create && lstat(dir, &st) != 0 && errno == ENOENT)
        return UZ_DONE;
    uz_result r = create ? make_dirs(dir, diag) : UZ_OK;
    if (r == UZ_OK)
        r = check_private(dir, true, diag);
    for (int i = 0; i < 2 && r == UZ_OK; i++) {
        snprintf(sub, sizeof sub, "%s/%s", dir, i ? "fingerprints" : "blobs");
        if (create && mkdir(sub, 0700) != 0 && errno != EEXIST)
            return io_error(diag, "create", sub, errno);
        if (!create && lstat(sub, &st) != 0 && errno == ENOENT)
            return UZ_DONE;
        r = check_private(sub, true, diag);
    }
    return r;
}

/* Reads and parses an entry file (fd open for reading); the fingerprint is its name. */
static uz_result parse_entry(int fd, const char *dir, const char *path, const char *fingerprint,
                             uz_engine_store_entry *e, uz_diag *diag)
{
    char buf[UZ_ENGINE_STORE_TEXT_MAX + 512];
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = read(fd, buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)got;
    buf[n] = '\0';
    memset(e, 0, sizeof *e);
    uz_copy_str(e->fingerprint, sizeof e->fingerprint, fingerprint);
    const char *why = NULL;
    char *line = buf, *settings = NULL;
    if (n == sizeof buf - 1 || strlen(buf) != n)
        why = "too long or not text";
    else if (strncmp(buf, ENTRY_MAGIC "\n", strlen(ENTRY_MAGIC) + 1) != 0)
        why = "not an entry of this store format";
    for (line = buf + strlen(ENTRY_MAGIC) + 1; !why && !settings && *line;) {
        char *nl = strchr(line, '\n');
        if (!nl) {
            why = "unterminated line";
            break;
        }
        *nl = '\0';
        if (strncmp(line, "engine=", 7) == 0 && uz_copy_str(e->engine_name, sizeof e->engine_name, line + 7))
            ;
        else if (strncmp(line, "sha256=", 7) == 0 && all_hex(line + 7, 64))
            uz_copy_str(e->sha256, sizeof e->sha256, line + 7);
        else if (strcmp(line, SETTINGS_MARK) == 0)
            settings = nl + 1;
        else
            why = "unknown line";
        line = nl + 1;
    }
    if (!why && (!settings || !e->engine_name[0] || !e->sha256[0]))
        why = "engine, sha256 or settings missing";
    if (!why && !uz_copy_str(e->settings_text, sizeof e->settings_text, settings))
        why = "settings too long";
    if (why) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "entry '%s' is malformed: %s", path, why);
        return UZ_ERR_CORRUPT;
    }
    snprintf(e->exe, sizeof e->exe, "%s/blobs/%s", dir, e->sha256);
    return UZ_OK;
}

/* Finds an entry; private: also check the store and the files are private. */
static uz_result find_entry(const char *dir, const char *fingerprint, bool private, uz_engine_store_entry *e,
                            uz_diag *diag)
{
    char path[UZ_ENGINE_PATH_MAX + 64];
    if (!all_hex(fingerprint, 16)) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "'%s' is not a fingerprint", fingerprint);
        return UZ_ERR_ARG;
    }
    snprintf(path, sizeof path, "%s/fingerprints/%s", dir, fingerprint);
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return UZ_DONE;
    int fd = private ? open_private(path, diag) : open_foreign(path, NULL, diag);
    if (fd < 0)
        return UZ_ERR_IO;
    uz_result r = parse_entry(fd, dir, path, fingerprint, e, diag);
    close(fd);
    if (r != UZ_OK)
        return r;
    if (lstat(e->exe, &st) != 0) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "the binary of entry %s is missing (%s)", fingerprint,
                    e->exe);
        return UZ_ERR_CORRUPT;
    }
    return private ? check_private_stat(&st, e->exe, false, diag) : UZ_OK;
}

uz_result uz_engine_store_find(const char *dir, const char *fingerprint, uz_engine_store_entry *e, uz_diag *diag)
{
    uz_result r = open_store(dir, false, diag);
    return r == UZ_OK ? find_entry(dir, fingerprint, true, e, diag) : r;
}

uz_result uz_engine_store_settings(const uz_engine_store_entry *e, uz_engine_settings *s, uz_diag *diag)
{
    uz_engine_settings_default(s);
    /* Only what the text says is sent to the engine (it records every option sent). */
    s->hash_mb = s->threads = 0;
    uz_result r = uz_engine_settings_apply_text(s, e->settings_text, diag);
    if (r != UZ_OK)
        return r;
    uz_copy_str(s->path, sizeof s->path, e->exe);
    uz_copy_str(s->exe_sha256, sizeof s->exe_sha256, e->sha256);
    uz_copy_str(s->profile, sizeof s->profile, "engine store");
    s->modes = 1u << s->mode;
    return UZ_OK;
}

/* SHA-256 of what fd reads, up to its end or limit bytes (-1: no limit), as hex; if
 * out_fd >= 0 the bytes are also written there. */
static uz_result hash_fd(int fd, int out_fd, off_t limit, const char *path, char hex[UZ_SHA256_HEX_SIZE],
                         uz_diag *diag)
{
    static _Thread_local unsigned char buf[1 << 16];
    uz_sha256 c;
    uz_sha256_init(&c);
    off_t left = limit;
    while (left != 0) {
        size_t want = limit < 0 || left > (off_t)sizeof buf ? sizeof buf : (size_t)left;
        ssize_t got = read(fd, buf, want);
        if (got == 0)
            break;
        if (got < 0) {
            if (errno == EINTR)
                continue;
            return io_error(diag, "read", path, errno);
        }
        if (limit >= 0)
            left -= got;
        uz_sha256_update(&c, buf, (size_t)got);
        for (ssize_t done = 0; out_fd >= 0 && done < got;) {
            ssize_t w = write(out_fd, buf + done, (size_t)(got - done));
            if (w < 0 && errno != EINTR)
                return io_error(diag, "write a copy of", path, errno);
            done += w > 0 ? w : 0;
        }
    }
    uint8_t digest[32];
    uz_sha256_final(&c, digest);
    uz_sha256_hex(digest, hex);
    return UZ_OK;
}

uz_result uz_engine_check_sha256(const char *path, const char *want, uz_diag *diag)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return io_error(diag, "open", path, errno);
    char hex[UZ_SHA256_HEX_SIZE];
    uz_result r = hash_fd(fd, -1, -1, path, hex, diag);
    close(fd);
    if (r == UZ_OK && strcmp(hex, want) != 0) {
        uz_diag_set(diag, UZ_ERR_ENGINE, 0, 0,
                    "stored engine %.12s... changed (its SHA-256 is now %.12s...): not started", want, hex);
        r = UZ_ERR_ENGINE;
    }
    return r;
}

/* Copies the file src into dir/blobs under its SHA-256 (unless there), via a temporary
 * name. want (or NULL): the SHA-256 it must have, and src is then a file of a foreign
 * store (open_foreign: a regular file, read no further than the size it had when
 * opened). Writes the digest to hex; *created (or NULL): whether the blob is new. */
static uz_result store_blob(const char *dir, const char *src, const char *want, char hex[UZ_SHA256_HEX_SIZE],
                            bool *created, uz_diag *diag)
{
    char tmp[UZ_ENGINE_PATH_MAX + 64], final[UZ_ENGINE_PATH_MAX + 96];
    off_t size = -1;
    int in = want ? open_foreign(src, &size, diag) : open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0)
        return want ? UZ_ERR_IO : io_error(diag, "read", src, errno);
    snprintf(tmp, sizeof tmp, "%s/blobs/.incoming-XXXXXX", dir);
    int out = mkstemp(tmp);
    if (out < 0) {
        close(in);
        return io_error(diag, "create", tmp, errno);
    }
    if (created)
        *created = false;
    uz_result r = hash_fd(in, out, size, src, hex, diag);
    close(in);
    if (r == UZ_OK && want && strcmp(hex, want) != 0) {
        uz_diag_set(diag, UZ_ERR_CORRUPT, 0, 0, "'%s' has SHA-256 %s, its entry says %s; not copied",
                    src, hex, want);
        r = UZ_ERR_CORRUPT;
    }
    if (r == UZ_OK && (fchmod(out, 0500) != 0 || fsync(out) != 0))
        r = io_error(diag, "write", tmp, errno);
    if (close(out) != 0 && r == UZ_OK)
        r = io_error(diag, "write", tmp, errno);
    snprintf(final, sizeof final, "%s/blobs/%s", dir, hex);
    struct stat st;
    if (r == UZ_OK && lstat(final, &st) == 0)
        r = check_private_stat(&st, final, false, diag); /* the same bytes are there already */
    else if (r == UZ_OK && rename(tmp, final) != 0)
        r = io_error(diag, "write", final, errno);
    else if (r == UZ_OK && created)
        *created = true;
    unlink(tmp); /* (gone after a rename) */
    return r;
}

/* An entry's file mode: an imported entry is read-only until the user's own engine has
 * vouched for its binary (uz_engine_store_keep), so that keep knows which entries to
 * check without hashing its engine on every run. */
#define ENTRY_MODE_KEPT 0600
#define ENTRY_MODE_IMPORTED 0400

/* Writes dir/fingerprints/FP via a temporary name, with mode. */
static uz_result write_entry(const char *dir, const uz_engine_store_entry *e, mode_t mode, uz_diag *diag)
{
    char tmp[UZ_ENGINE_PATH_MAX + 64], final[UZ_ENGINE_PATH_MAX + 64];
    snprintf(tmp, sizeof tmp, "%s/fingerprints/.incoming-XXXXXX", dir);
    snprintf(final, sizeof final, "%s/fingerprints/%s", dir, e->fingerprint);
    int fd = mkstemp(tmp);
    if (fd < 0)
        return io_error(diag, "create", tmp, errno);
    FILE *f = fdopen(fd, "w");
    uz_result r = UZ_OK;
    if (!f) {
        close(fd);
        r = io_error(diag, "write", tmp, errno);
    } else {
        fprintf(f, ENTRY_MAGIC "\nengine=%s\nsha256=%s\n" SETTINGS_MARK "\n%s", e->engine_name, e->sha256,
                e->settings_text);
        if (fchmod(fd, mode) != 0 || fflush(f) != 0 || fsync(fd) != 0)
            r = io_error(diag, "write", tmp, errno);
        if (fclose(f) != 0 && r == UZ_OK)
            r = io_error(diag, "write", tmp, errno);
    }
    if (r == UZ_OK && rename(tmp, final) != 0)
        r = io_error(diag, "write", final, errno);
    if (r != UZ_OK)
        unlink(tmp);
    return r;
}

/* Whether the imported entry e (its file read-only) names the binary pool runs: then it
 * becomes the user's own (writable); UZ_DONE when it names another binary. */
static uz_result vouch_for_imported(const char *dir, const uz_engine_store_entry *e, const uz_pool *pool,
                                    uz_diag *diag)
{
    char path[UZ_ENGINE_PATH_MAX + 64];
    struct stat st;
    snprintf(path, sizeof path, "%s/fingerprints/%s", dir, e->fingerprint);
    if (lstat(path, &st) != 0 || (st.st_mode & S_IWUSR))
        return UZ_OK; /* kept by compress, or vouched for already */
    uz_diag ignored = {0};
    if (uz_engine_check_sha256(uz_pool_settings(pool)->path, e->sha256, &ignored) != UZ_OK)
        return UZ_DONE;
    return chmod(path, ENTRY_MODE_KEPT) == 0 ? UZ_OK : io_error(diag, "change the mode of", path, errno);
}

uz_result uz_engine_store_keep(const char *dir, const uz_pool *pool, uz_diag *diag)
{
    uz_engine_store_entry e;
    uz_result r = open_store(dir, true, diag);
    if (r != UZ_OK)
        return r;
    r = find_entry(dir, uz_pool_fingerprint(pool), true, &e, diag);
    /* An imported entry whose binary is not this engine gives way to it: the user's own
     * engine, which gave this fingerprint, is the one to trust with it. */
    if (r == UZ_OK && (r = vouch_for_imported(dir, &e, pool, diag)) != UZ_DONE)
        return r;
    if (r != UZ_DONE)
        return r; /* kept already (UZ_OK), or a store to repair by hand */
    memset(&e, 0, sizeof e);
    uz_copy_str(e.fingerprint, sizeof e.fingerprint, uz_pool_fingerprint(pool));
    uz_copy_str(e.engine_name, sizeof e.engine_name, uz_pool_engine_name(pool));
    if (strchr(e.engine_name, '\n') || !uz_copy_str(e.settings_text, sizeof e.settings_text, uz_pool_settings_text(pool))) {
        uz_diag_set(diag, UZ_ERR_ARG, 0, 0, "the engine's name or settings cannot be stored");
        return UZ_ERR_ARG;
    }
    r = store_blob(dir, uz_pool_settings(pool)->path, NULL, e.sha256, NULL, diag);
    return r == UZ_OK ? write_entry(dir, &e, ENTRY_MODE_KEPT, diag) : r;
}

/* Calls visit(to, entry, arg, diag) for every readable entry of the store from, in
 * directory order, with the store to opened (created) first; stops at the first error.
 * Entries that are not there (temporaries, a name without its entry) are skipped. */
static uz_result for_each_entry(const char *from, const char *to,
                                uz_result (*visit)(const char *to, const uz_engine_store_entry *e, void *arg,
                                                   uz_diag *diag),
                                void *arg, uz_diag *diag)
{
    char path[UZ_ENGINE_PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/fingerprints", from);
    DIR *d = opendir(path);
    if (!d)
        return io_error(diag, "read", path, errno);
    uz_result r = open_store(to, true, diag);
    struct dirent *de;
    while (r == UZ_OK && (de = readdir(d))) {
        uz_engine_store_entry e;
        if (de->d_name[0] == '.')
            continue; /* ".", "..", temporaries */
        r = find_entry(from, de->d_name, false, &e, diag);
        if (r == UZ_OK)
            r = visit(to, &e, arg, diag);
        else if (r == UZ_DONE)
            r = UZ_OK;
    }
    closedir(d);
    return r;
}

/* Copies entry e into the store to unless it has one for e's fingerprint; arg: the count. */
static uz_result copy_entry(const char *to, const uz_engine_store_entry *e, void *arg, uz_diag *diag)
{
    uz_engine_store_entry have;
    uz_result r = find_entry(to, e->fingerprint, true, &have, diag);
    if (r != UZ_DONE)
        return r; /* there already (UZ_OK), or an error that ends the walk */
    char hex[UZ_SHA256_HEX_SIZE];
    r = store_blob(to, e->exe, e->sha256, hex, NULL, diag);
    if (r == UZ_OK && (r = write_entry(to, e, ENTRY_MODE_KEPT, diag)) == UZ_OK)
        ++*(int *)arg;
    return r;
}

uz_result uz_engine_store_copy(const char *from, const char *to, int *copied, uz_diag *diag)
{
    *copied = 0;
    return for_each_entry(from, to, copy_entry, copied, diag);
}

/* ---- import: entries checked by running them ---- */

/* Starts the engine of s (one process): the pool when it gives fingerprint fp, else NULL
 * and why (the fingerprint it gives, or why it did not start). */
static uz_pool *start_matching(const uz_engine_settings *s, const char *fp, char *why, size_t cap)
{
    uz_pool *pool = NULL;
    uz_diag d = {0};
    if (uz_pool_create(&pool, s, 1, &d) != UZ_OK) {
        snprintf(why, cap, "it did not run: %s", d.message);
        return NULL;
    }
    if (strcmp(uz_pool_fingerprint(pool), fp) != 0) {
        snprintf(why, cap, "running it gave fingerprint %s", uz_pool_fingerprint(pool));
        uz_pool_destroy(pool);
        return NULL;
    }
    return pool;
}

/* The user's installed engine (the profile a decoder would take for e's engine name,
 * with e's settings) when it gives e's fingerprint, else NULL. */
static uz_pool *installed_match(const uz_engine_store_entry *e)
{
    const char *dirs[8];
    uz_engine_default_dirs(dirs, 8);
    uz_engine_settings s;
    uz_diag ignored = {0};
    char why[DIAG_TEXT + 64];
    if (uz_engine_profile_for_archive(&s, e->engine_name, e->settings_text, dirs, &ignored) != UZ_OK ||
        uz_engine_settings_apply_text(&s, e->settings_text, &ignored) != UZ_OK)
        return NULL;
    return start_matching(&s, e->fingerprint, why, sizeof why);
}

/* Imports one entry e of a foreign store into to (see uz_engine_store_import_from). */
static uz_result import_entry(const char *to, const uz_engine_store_entry *e, uz_engine_store_report report,
                              void *user, int *added, int *refused, uz_diag *diag)
{
    uz_engine_store_entry in = *e, have;
    char outcome[DIAG_TEXT + 160], why[DIAG_TEXT + 64];
    bool created = false, binary_used = true;
    uz_result r = find_entry(to, e->fingerprint, true, &have, diag);
    if (r == UZ_OK) {
        if (report)
            report(user, e, "not imported: the store has an engine for this fingerprint already");
        return UZ_OK;
    }
    if (r != UZ_DONE || (r = store_blob(to, e->exe, e->sha256, in.sha256, &created, diag)) != UZ_OK)
        return r; /* a store that cannot be written, or a copy that is not what its entry says */
    snprintf(in.exe, sizeof in.exe, "%s/blobs/%s", to, in.sha256);
    uz_pool *pool = installed_match(e);
    if (pool) {
        /* The user's own engine gives this fingerprint: it is the one kept, never a
         * binary from elsewhere under its fingerprint (and the imported one never runs). */
        r = uz_engine_store_keep(to, pool, diag);
        uz_pool_destroy(pool);
        if (r == UZ_OK)
            r = find_entry(to, e->fingerprint, true, &have, diag);
        if (r != UZ_OK)
            return r;
        binary_used = strcmp(have.sha256, in.sha256) == 0;
        if (binary_used)
            snprintf(outcome, sizeof outcome, "added: the same binary as your installed engine");
        else
            snprintf(outcome, sizeof outcome,
                     "not imported: your installed engine gives this fingerprint; the store keeps it (SHA-256 %s)",
                     have.sha256);
        ++*added;
    } else {
        /* Usable only once running it gave its fingerprint (its SHA-256 is checked first). */
        uz_engine_settings s;
        uz_diag d = {0};
        if (uz_engine_store_settings(&in, &s, &d) != UZ_OK)
            snprintf(why, sizeof why, "%s", d.message);
        else
            pool = start_matching(&s, e->fingerprint, why, sizeof why);
        binary_used = pool != NULL;
        uz_pool_destroy(pool);
        if (binary_used && (r = write_entry(to, &in, ENTRY_MODE_IMPORTED, diag)) != UZ_OK)
            return r;
        if (binary_used)
            snprintf(outcome, sizeof outcome, "added: running it gave its fingerprint");
        else
            snprintf(outcome, sizeof outcome, "refused: %s", why);
        ++*(binary_used ? added : refused);
    }
    if (!binary_used && created)
        unlink(in.exe);
    if (report)
        report(user, e, outcome);
    return UZ_OK;
}

/* What an import reports to, and its counts. */
typedef struct import_job {
    uz_engine_store_report report;
    void *user;
    int *added, *refused;
} import_job;

static uz_result import_visit(const char *to, const uz_engine_store_entry *e, void *arg, uz_diag *diag)
{
    import_job *job = arg;
    return import_entry(to, e, job->report, job->user, job->added, job->refused, diag);
}

uz_result uz_engine_store_import_from(const char *from, const char *to, uz_engine_store_report report, void *user,
                                 int *added, int *refused, uz_diag *diag)
{
    *added = *refused = 0;
    import_job job = {report, user, added, refused};
    return for_each_entry(from, to, import_visit, &job, diag);
}
