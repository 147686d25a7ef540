/* JSON output through jansson, with the lossless rule for text that is not UTF-8. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_json.h"
#include "cli_util.h"

/* The length of the valid UTF-8 sequence at s (at most n bytes left), or 0 if none. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len;
    uint32_t cp, min;
    if (s[0] >= 0xc2 && s[0] <= 0xdf)
        len = 2, cp = s[0] & 0x1f, min = 0x80;
    else if (s[0] >= 0xe0 && s[0] <= 0xef)
        len = 3, cp = s[0] & 0x0f, min = 0x800;
    else if (s[0] >= 0xf0 && s[0] <= 0xf4)
        len = 4, cp = s[0] & 0x07, min = 0x10000;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = cp << 6 | (s[i] & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

bool cli_json_is_utf8(const char *s, size_t len)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_seq(p + i, len - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

json_t *cli_json_text(const char *s)
{
    if (!s)
        return json_null();
    size_t len = strlen(s);
    if (cli_json_is_utf8(s, len))
        return json_stringn(s, len);
    /* Each stray byte becomes two bytes (U+0080..U+00FF), so 2 * len is enough. */
    unsigned char *out = malloc(2 * len + 1);
    if (!out)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_seq(p + i, len - i);
        if (k) {
            memcpy(out + n, p + i, k);
            n += k;
            i += k;
        } else {
            out[n++] = (unsigned char)(0xc0 | p[i] >> 6);
            out[n++] = (unsigned char)(0x80 | (p[i] & 0x3f));
            i++;
        }
    }
    json_t *j = json_stringn((const char *)out, n);
    free(out);
    return j;
}

json_t *cli_json_base64(const char *s, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char *out = malloc(4 * ((len + 2) / 3) + 1);
    if (!out)
        return NULL;
    const unsigned char *p = (const unsigned char *)s;
    size_t n = 0;
    for (size_t i = 0; i < len; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < len ? (uint32_t)p[i + 1] << 8 : 0) | (i + 2 < len ? p[i + 2] : 0);
        out[n++] = digits[v >> 18];
        out[n++] = digits[v >> 12 & 63];
        out[n++] = i + 1 < len ? digits[v >> 6 & 63] : '=';
        out[n++] = i + 2 < len ? digits[v & 63] : '=';
    }
    json_t *j = json_stringn(out, n);
    free(out);
    return j;
}

int cli_json_set_text(json_t *obj, const char *key, const char *s)
{
    if (json_object_set_new(obj, key, cli_json_text(s)) != 0)
        return -1;
    if (!s || cli_json_is_utf8(s, strlen(s)))
        return 0;
    char raw_key[128];
    snprintf(raw_key, sizeof raw_key, "%s_base64", key);
    return json_object_set_new(obj, raw_key, cli_json_base64(s, strlen(s)));
}

json_t *cli_json_fixed(double v, int decimals)
{
    /* Through text, so the number printed is the rounded one (no libm needed). */
    char text[64];
    snprintf(text, sizeof text, "%.*f", decimals, v);
    return json_real(strtod(text, NULL));
}

int cli_json_write(FILE *out, json_t *value)
{
    if (!value) {
        cli_error("out of memory");
        return -1;
    }
    int r = json_dumpf(value, out, JSON_COMPACT | JSON_ENSURE_ASCII | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(12));
    json_decref(value);
    if (r != 0) {
        cli_error("<stdout>: write error");
        return -1;
    }
    return 0;
}

int cli_json_print(FILE *out, json_t *value)
{
    if (cli_json_write(out, value) != 0)
        return -1;
    if (fputc('\n', out) == EOF) {
        cli_error("<stdout>: write error");
        return -1;
    }
    return 0;
}
