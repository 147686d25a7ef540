/* Check counting and test-data paths shared by the test programs. */
#ifndef UZ_TEST_H
#define UZ_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int uz_test_passed, uz_test_failed;

/* Counts a check; on failure prints where, the condition and, when given, the printf-style
 * explanation: CHECK(cond) or CHECK(cond, "fmt", ...). */
#define CHECK(cond, ...)                                                    \
    do {                                                                    \
        if (cond) {                                                         \
            uz_test_passed++;                                               \
        } else {                                                            \
            uz_test_failed++;                                               \
            fprintf(stderr, "%s:%d: FAIL: %s", __FILE__, __LINE__, #cond); \
            __VA_OPT__(fputs(": ", stderr); fprintf(stderr, __VA_ARGS__);)  \
            fputc('\n', stderr);                                            \
        }                                                                   \
    } while (0)

/* Prints the closing "N passed, N failed" line and returns the exit status. */
static inline int test_finish(void)
{
    printf("%d passed, %d failed\n", uz_test_passed, uz_test_failed);
    return uz_test_failed ? 1 : 0;
}

/* The step between the bytes a damage loop changes (and cuts the stream at): every byte in
 * the plain run; every other byte under UZ_TEST_SHORT (CI's sanitizer run, where each
 * damaged read costs several times more; the plain run has damaged every byte). */
static inline size_t test_damage_stride(void)
{
    return getenv("UZ_TEST_SHORT") ? 2 : 1;
}

/* Exit status meson counts as "skipped". */
#define UZ_TEST_SKIP 77

/* Path of a file of the shared corpus ($UZ_CORPUS_DIR) or samples ($UZ_SAMPLES_DIR) into
 * buf. When the directory is missing the test is skipped, unless UZ_REQUIRE_CORPUS is
 * set (CI), where a missing corpus is a failure. */
static inline const char *test_data_path(const char *env, const char *file, char *buf, size_t cap)
{
    const char *dir = getenv(env);
    snprintf(buf, cap, "%s/%s", dir ? dir : ".", file);
    FILE *f = fopen(buf, "rb");
    if (f) {
        fclose(f);
        return buf;
    }
    if (getenv("UZ_REQUIRE_CORPUS")) {
        fprintf(stderr, "missing test data %s\n", buf);
        exit(1);
    }
    printf("skipped: test data %s not found\n", buf);
    exit(UZ_TEST_SKIP);
}

#define corpus_path(file, buf) test_data_path("UZ_CORPUS_DIR", file, buf, sizeof buf)
#define samples_path(file, buf) test_data_path("UZ_SAMPLES_DIR", file, buf, sizeof buf)

/* The whole file at path in a malloc'd buffer (one spare byte), its size in *len; NULL
 * (and *len 0) when it cannot be read. */
static inline char *test_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    *len = 0;
    if (f && fseek(f, 0, SEEK_END) == 0) {
        long size = ftell(f);
        rewind(f);
        buf = size >= 0 ? malloc((size_t)size + 1) : NULL;
        *len = buf ? fread(buf, 1, (size_t)size, f) : 0;
    }
    if (f)
        fclose(f);
    return buf;
}

#endif
