/* Result codes and diagnostics shared by every ucizip module. */
#ifndef UCIZIP_COMMON_H
#define UCIZIP_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define UZ_VERSION_STRING "0.1.0"

/* Every library function that can fail returns one of these. The library never
 * prints and never exits: the CLI formats a uz_diag and chooses the exit code. */
typedef enum uz_result {
    UZ_OK = 0,               /* success */
    UZ_DONE = 1,             /* end of input reached, nothing produced (not an error) */
    UZ_ERR_NOMEM = -1,       /* an allocation failed */
    UZ_ERR_IO = -2,          /* reading or writing a file failed (errno kept in diag) */
    UZ_ERR_SYNTAX = -3,      /* malformed PGN / FEN / SAN / UCI text */
    UZ_ERR_ILLEGAL = -4,     /* a move that is not legal in its position */
    UZ_ERR_AMBIGUOUS = -5,   /* a SAN move that matches more than one legal move */
    UZ_ERR_UNSUPPORTED = -6, /* valid input we do not handle (e.g. Chess960) */
    UZ_ERR_ENGINE = -7,      /* the engine failed: spawn, protocol, crash, garbage */
    UZ_ERR_TIMEOUT = -8,     /* the engine did not answer in time (after retries) */
    UZ_ERR_CORRUPT = -9,     /* an archive is damaged or truncated */
    UZ_ERR_MISMATCH = -10,   /* archive needs another engine / settings than the ones given */
    UZ_ERR_ARG = -11,        /* an invalid argument from the caller */
    UZ_ERR_LIMIT = -12,      /* input exceeds a documented limit (game size, nesting) */
} uz_result;

/* Short English name of a result ("syntax error", "illegal move", ...). */
const char *uz_result_str(uz_result r);

/* Where and why something failed. Fields that do not apply are 0 / empty.
 * line and column are 1-based; game is the 1-based game number in its input. */
typedef struct uz_diag {
    uz_result code;
    long line;
    long column;
    long game;
    long ply;
    char message[512];
} uz_diag;

/* Fills diag (if not NULL) with code, position and a printf-style message. */
void uz_diag_set(uz_diag *diag, uz_result code, long line, long column, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* Copies the string src (NULL reads as "") into dst of cap bytes, always NUL-terminated
 * when cap > 0. Returns false when src did not fit and was cut, so that a caller that must
 * not truncate can refuse. */
bool uz_copy_str(char *dst, size_t cap, const char *src);

#endif
