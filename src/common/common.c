/* Result names and the diagnostic helper shared by all modules. */
#include "common/common.h"

#include <stdarg.h>
#include <stdio.h>

const char *uz_result_str(uz_result r)
{
    switch (r) {
    case UZ_OK: return "ok";
    case UZ_DONE: return "end of input";
    case UZ_ERR_NOMEM: return "out of memory";
    case UZ_ERR_IO: return "I/O error";
    case UZ_ERR_SYNTAX: return "syntax error";
    case UZ_ERR_ILLEGAL: return "illegal move";
    case UZ_ERR_AMBIGUOUS: return "ambiguous move";
    case UZ_ERR_UNSUPPORTED: return "unsupported";
    case UZ_ERR_ENGINE: return "engine error";
    case UZ_ERR_TIMEOUT: return "engine timeout";
    case UZ_ERR_CORRUPT: return "corrupt archive";
    case UZ_ERR_MISMATCH: return "engine mismatch";
    case UZ_ERR_ARG: return "invalid argument";
    case UZ_ERR_LIMIT: return "limit exceeded";
    }
    return "unknown error";
}

void uz_diag_set(uz_diag *diag, uz_result code, long line, long column, const char *fmt, ...)
{
    if (!diag)
        return;
    diag->code = code;
    diag->line = line;
    diag->column = column;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(diag->message, sizeof diag->message, fmt, ap);
    va_end(ap);
}
