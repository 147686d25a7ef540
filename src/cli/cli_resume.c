/* Resume state files of interrupted compress runs. */
#include "cli_resume.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "cli_util.h"

#define STATE_FORMAT                                                                                         \
    "ucizip-resume 2\nkey %016llx\nblocks %llu\ngames_read %ld\ngames %ld\nmoves %ld\nmove_bytes %llu\n" \
    "inputs %016llx\narchive_bytes %llu\narchive %016llx\n"
#define STATE_MAX 1024

uint64_t cli_resume_key(uint64_t key, const char *text)
{
    if (key == 0)
        key = 1469598103934665603ULL;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        key ^= *p;
        key *= 1099511628211ULL;
    }
    key ^= 0xff; /* a separator, so "ab","c" differs from "a","bc" */
    key *= 1099511628211ULL;
    return key;
}

int cli_resume_save(const char *tmp_path, const cli_resume_state *s)
{
    char path[PATH_MAX], next[PATH_MAX];
    if (snprintf(path, sizeof path, "%s.state", tmp_path) >= (int)sizeof path ||
        snprintf(next, sizeof next, "%s.state.new", tmp_path) >= (int)sizeof next) {
        cli_error("%s: name too long for a resume state", tmp_path);
        return -1;
    }
    /* 0600 like the temporary archive it describes (and never through a link). */
    int fd = open(next, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        cli_error("%s: %s", next, strerror(errno));
        if (fd >= 0)
            close(fd);
        return -1;
    }
    char text[STATE_MAX];
    int len = snprintf(text, sizeof text, STATE_FORMAT, (unsigned long long)s->key, (unsigned long long)s->blocks,
                       s->games_read, s->games, s->moves, (unsigned long long)s->move_bytes,
                       (unsigned long long)s->inputs_hash, (unsigned long long)s->archive_bytes,
                       (unsigned long long)s->archive_hash);
    fprintf(f, "%scheck %016llx\n", text, (unsigned long long)XXH64(text, (size_t)len, 0));
    if (fclose(f) != 0 || rename(next, path) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        unlink(next);
        return -1;
    }
    return 0;
}

int cli_resume_parse(const char *text, size_t len, cli_resume_state *s)
{
    char buf[STATE_MAX];
    if (len >= sizeof buf || memchr(text, '\0', len))
        return -1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    unsigned long long key, blocks, move_bytes, inputs, archive_bytes, archive, check;
    int body = -1, end = -1;
    int n = sscanf(buf, STATE_FORMAT "%n" "check %llx\n%n", &key, &blocks, &s->games_read, &s->games, &s->moves,
                   &move_bytes, &inputs, &archive_bytes, &archive, &body, &check, &end);
    if (n != 10 || body < 0 || end != (int)len)
        return -1;
    s->key = key;
    s->blocks = blocks;
    s->move_bytes = move_bytes;
    s->inputs_hash = inputs;
    s->archive_bytes = archive_bytes;
    s->archive_hash = archive;
    bool sane = s->games_read >= 0 && s->games >= 0 && s->moves >= 0 && s->games <= s->games_read;
    return sane && XXH64(buf, (size_t)body, 0) == check ? 0 : 1;
}

const char *cli_resume_mismatch(const cli_resume_state *s, bool intact, uint64_t inputs_hash, const char *tmp_path)
{
    if (!intact)
        return "its state was edited or damaged (self-check differs)";
    if (s->inputs_hash != inputs_hash)
        return "the input changed since the interrupted run (contents differ)";
    cli_file_hash *h = NULL;
    uint64_t got = 0;
    int rc = cli_resume_hash_file(&h, tmp_path, s->archive_bytes, &got);
    cli_resume_hash_free(h);
    if (rc != 0 || got != s->archive_hash)
        return "the temporary archive is not the one its state describes";
    return NULL;
}

static int load(const char *path, cli_resume_state *s)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char text[STATE_MAX];
    size_t len = fread(text, 1, sizeof text, f);
    fclose(f);
    return cli_resume_parse(text, len, s);
}

int cli_resume_hash_inputs(const char *const *paths, size_t n, uint64_t *hash)
{
    XXH64_state_t *st = XXH64_createState();
    char buf[65536];
    int rc = st ? 0 : -1;
    if (st)
        XXH64_reset(st, 0);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        FILE *f = strcmp(paths[i], "-") != 0 ? fopen(paths[i], "rb") : NULL;
        uint64_t total = 0;
        size_t got;
        if (!f) {
            XXH64_update(st, paths[i], strlen(paths[i]));
            rc = strcmp(paths[i], "-") == 0 ? 0 : -1;
            continue;
        }
        while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
            XXH64_update(st, buf, got);
            total += got;
        }
        rc = ferror(f) ? -1 : 0;
        fclose(f);
        XXH64_update(st, &total, sizeof total); /* ends each input */
    }
    if (rc == 0)
        *hash = XXH64_digest(st);
    XXH64_freeState(st);
    return rc;
}

struct cli_file_hash {
    XXH64_state_t *st;
    uint64_t bytes; /* hashed so far */
};

int cli_resume_hash_file(cli_file_hash **state, const char *path, uint64_t bytes, uint64_t *hash)
{
    cli_file_hash *h = *state;
    if (!h) {
        if (!(h = calloc(1, sizeof *h)) || !(h->st = XXH64_createState())) {
            free(h);
            return -1;
        }
        XXH64_reset(h->st, 0);
        *state = h;
    }
    if (bytes < h->bytes)
        return -1;
    FILE *f = fopen(path, "rb");
    if (!f || fseeko(f, (off_t)h->bytes, SEEK_SET) != 0) {
        if (f)
            fclose(f);
        return -1;
    }
    char buf[65536];
    while (h->bytes < bytes) {
        size_t want = bytes - h->bytes < sizeof buf ? (size_t)(bytes - h->bytes) : sizeof buf;
        size_t got = fread(buf, 1, want, f);
        if (got == 0)
            break;
        XXH64_update(h->st, buf, got);
        h->bytes += got;
    }
    fclose(f);
    *hash = XXH64_digest(h->st);
    return h->bytes == bytes ? 0 : -1;
}

void cli_resume_hash_free(cli_file_hash *state)
{
    if (state)
        XXH64_freeState(state->st);
    free(state);
}

char *cli_resume_find(const char *final_path, uint64_t key, cli_resume_state *s, bool *intact)
{
    const char *slash = strrchr(final_path, '/');
    const char *base = slash ? slash + 1 : final_path;
    size_t base_len = strlen(base);
    char dir[PATH_MAX];
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", slash == final_path ? 1 : (int)(slash - final_path), final_path);
    else
        snprintf(dir, sizeof dir, ".");
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL) {
        const char *name = e->d_name;
        if (strncmp(name, base, base_len) != 0 || name[base_len] != '.')
            continue;
        char *end;
        long pid = strtol(name + base_len + 1, &end, 10);
        if (end == name + base_len + 1 || strcmp(end, ".tmp.state") != 0 || pid <= 0)
            continue;
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH)
            continue; /* that run is still going */
        char state[PATH_MAX], tmp[PATH_MAX];
        if (snprintf(state, sizeof state, "%s/%s", dir, name) >= (int)sizeof state)
            continue;
        snprintf(tmp, sizeof tmp, "%.*s", (int)(strlen(state) - strlen(".state")), state);
        cli_resume_state st;
        int loaded = load(state, &st);
        if (loaded >= 0 && st.key == key && access(tmp, R_OK) == 0) {
            *s = st;
            *intact = loaded == 0;
            found = malloc(strlen(tmp) + 1);
            if (found)
                memcpy(found, tmp, strlen(tmp) + 1);
        }
    }
    closedir(d);
    return found;
}

void cli_resume_remove(const char *tmp_path)
{
    char path[PATH_MAX];
    if (tmp_path && snprintf(path, sizeof path, "%s.state", tmp_path) < (int)sizeof path)
        unlink(path);
}
