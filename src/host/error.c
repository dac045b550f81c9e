/* error.c - sticky error messages (see error.h). Host C11. */
#include "error.h"

#include <stdarg.h>
#include <stdio.h>

int rs_error_set(RsError* err, const char* fmt, ...)
{
    if (err && err->message[0] == '\0') {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void rs_error_clear(RsError* err)
{
    if (err)
        err->message[0] = '\0';
}
