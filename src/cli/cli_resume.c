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

#include "cli_util.h"

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
    fprintf(f, "ucizip-resume 1\nkey %016llx\nblocks %llu\ngames_read %ld\ngames %ld\nmoves %ld\nmove_bytes %llu\n",
            (unsigned long long)s->key, (unsigned long long)s->blocks, s->games_read, s->games, s->moves,
            (unsigned long long)s->move_bytes);
    if (fclose(f) != 0 || rename(next, path) != 0) {
        cli_error("%s: %s", path, strerror(errno));
        unlink(next);
        return -1;
    }
    return 0;
}

static int load(const char *path, cli_resume_state *s)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    unsigned long long key, blocks, move_bytes;
    int version;
    int n = fscanf(f, "ucizip-resume %d key %llx blocks %llu games_read %ld games %ld moves %ld move_bytes %llu",
                   &version, &key, &blocks, &s->games_read, &s->games, &s->moves, &move_bytes);
    fclose(f);
    if (n != 7 || version != 1)
        return -1;
    s->key = key;
    s->blocks = blocks;
    s->move_bytes = move_bytes;
    return 0;
}

char *cli_resume_find(const char *final_path, uint64_t key, cli_resume_state *s)
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
        if (load(state, &st) == 0 && st.key == key && access(tmp, R_OK) == 0) {
            *s = st;
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
