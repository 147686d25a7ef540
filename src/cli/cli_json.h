/* JSON output of every --json option, built with jansson. Text that comes from the user's
 * input (tag values, file and engine names) may hold bytes that are not UTF-8: such a text
 * is written by the lossless rule of doc/json.md (a readable string, each byte that is not
 * part of valid UTF-8 read as Latin-1, plus its exact bytes in base64 beside it). */
#ifndef UCIZIP_CLI_JSON_H
#define UCIZIP_CLI_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* True if s[0..len) is valid UTF-8 (no overlong forms, surrogates or code points past
 * U+10FFFF). */
bool cli_json_is_utf8(const char *s, size_t len);

/* A JSON string of the text s (NULL: JSON null): s itself when it is valid UTF-8, else
 * with each byte outside valid UTF-8 sequences taken as the Latin-1 character of that
 * byte (U+0080..U+00FF). Returns a new reference, NULL when out of memory. */
json_t *cli_json_text(const char *s);

/* The exact bytes of s in base64 (RFC 4648, with padding) as a JSON string. */
json_t *cli_json_base64(const char *s, size_t len);

/* Sets obj[key] to cli_json_text(s) and, when s is not valid UTF-8, obj[key "_base64"] to
 * its exact bytes. Returns 0, or -1 when out of memory. */
int cli_json_set_text(json_t *obj, const char *key, const char *s);

/* A number rounded to the given decimals (printed with no more digits than that). */
json_t *cli_json_fixed(double v, int decimals);

/* Writes value on out (as cli_json_print, without the line end) and drops the reference.
 * For documents written piece by piece, such as a long array of records. */
int cli_json_write(FILE *out, json_t *value);

/* Prints value on out (one line, ASCII: every other character \u-escaped, so nothing in
 * it can act on a terminal) and drops the reference. Returns 0, or -1 when value is NULL
 * (out of memory) or the write failed; reports either. */
int cli_json_print(FILE *out, json_t *value);

#endif
