/* error.h - how library code reports failure: a message in an RsError, never exit().
 *
 * Host C11. Functions that can fail take an RsError* last and return 0 on success, -1 on
 * failure. The first message set sticks (like Embree's sticky first error): when a failure
 * cascades, the user sees its cause, not its consequences.
 */
#ifndef RS_HOST_ERROR_H
#define RS_HOST_ERROR_H

#include <stddef.h>

typedef struct RsError {
    char message[1024];
} RsError;

/* printf-style; ignored if a message is already set. Returns -1 for `return rs_error_set(...)`.
 * The message is stored escaped and, if too long, shortened in the middle (message_text.h). */
int rs_error_set(RsError* err, const char* fmt, ...) __attribute__((format(printf, 2, 3)));
void rs_error_clear(RsError* err);

#endif /* RS_HOST_ERROR_H */
