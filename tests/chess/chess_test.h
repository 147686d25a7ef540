/* Minimal check counting for the chess test programs. */
#ifndef UCIZIP_CHESS_TEST_H
#define UCIZIP_CHESS_TEST_H

#include <stdio.h>

static int test_passed, test_failed;

#define CHECK(cond, ...)                                                                                             \
    do {                                                                                                             \
        if (cond) {                                                                                                  \
            test_passed++;                                                                                           \
        } else {                                                                                                     \
            test_failed++;                                                                                           \
            fprintf(stderr, "%s:%d: FAIL: ", __FILE__, __LINE__);                                                    \
            fprintf(stderr, __VA_ARGS__);                                                                            \
            fputc('\n', stderr);                                                                                     \
        }                                                                                                            \
    } while (0)

/* Prints the closing line and returns the exit status. */
static int test_finish(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

#endif
