/* error.c - sticky error messages (see error.h). Host C11.
 *
 * The formatted message goes through rs_message_text: control characters from names and paths
 * are escaped, and a message longer than RsError holds loses the middle of its longest part
 * (in practice a path), never the reason at its end. */
#include "host/util/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "host/util/message_text.h"

int rs_error_set(RsError* err, const char* fmt, ...)
{
    if (!err || err->message[0] != '\0')
        return -1;
    char small[2048];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (len < 0)
        len = 0;
    char* text = small;
    if ((size_t)len >= sizeof small) { /* too long for the stack buffer: format it whole */
        char* big = malloc((size_t)len + 1);
        if (big) {
            va_start(ap, fmt);
            vsnprintf(big, (size_t)len + 1, fmt, ap);
            va_end(ap);
            text = big;
        } else {
            len = (int)sizeof small - 1; /* out of memory: the start will have to do */
        }
    }
    rs_message_text(err->message, sizeof err->message, text, (size_t)len);
    if (text != small)
        free(text);
    if (err->message[0] == '\0') /* an empty message would read as "no error" */
        rs_message_text(err->message, sizeof err->message, "unknown error", 13);
    return -1;
}

void rs_error_clear(RsError* err)
{
    if (err)
        err->message[0] = '\0';
}
