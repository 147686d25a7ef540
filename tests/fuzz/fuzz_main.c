/* Replay driver for fuzz targets built without libFuzzer: runs LLVMFuzzerTestOneInput over
 * each file given, or each file of each directory given. */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "fuzz_target.h"

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *grown = realloc(buf, cap *= 2);
            if (!grown)
                free(buf);
            buf = grown;
        }
    }
    int failed = !buf || ferror(f);
    fclose(f);
    if (!failed)
        LLVMFuzzerTestOneInput(buf, len);
    else
        fprintf(stderr, "%s: cannot read\n", path);
    free(buf);
    return failed;
}

int main(int argc, char **argv)
{
    int files = 0, failed = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) == 0 && S_ISDIR(st.st_mode)) {
            DIR *dir = opendir(argv[i]);
            struct dirent *e;
            while (dir && (e = readdir(dir))) {
                if (e->d_name[0] == '.')
                    continue;
                char path[4096];
                snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
                failed += run_file(path);
                files++;
            }
            if (dir)
                closedir(dir);
        } else {
            failed += run_file(argv[i]);
            files++;
        }
    }
    /* A failing input aborts inside the target, so reaching here means all passed. */
    printf("%d passed, %d failed\n", files - failed, failed);
    return failed != 0;
}
