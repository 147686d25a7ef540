/* The one bounded string copy (include/common/common.h). */
#include "common/common.h"

#include <string.h>

bool uz_copy_str(char *dst, size_t cap, const char *src)
{
    if (!src)
        src = "";
    size_t n = strlen(src);
    if (cap == 0)
        return n == 0;
    bool fits = n < cap;
    if (!fits)
        n = cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
    return fits;
}
