/* message_text.h - making any text safe to show in a message: control characters escaped,
 * and a text too long for its buffer shortened in the middle, not cut at the end.
 *
 * Host C11. Messages quote what users and their files wrote: names from a scene, paths, command
 * arguments. A name holding "\x1b[2J" must not clear the user's terminal, and a path of several
 * kilobytes must not push the reason of the error ("No such file or directory"), which comes
 * last, out of a fixed-size buffer. Every RsError message and every line raystream prints
 * about user data goes through rs_message_text.
 */
#ifndef RS_HOST_MESSAGE_TEXT_H
#define RS_HOST_MESSAGE_TEXT_H

#include <stddef.h>

/* Writes `text` (length `len`) into out[0..size-1], NUL-terminated:
 *   - ASCII control characters and DEL become \n, \r, \t, \e or \xNN; C1 controls encoded in
 *     UTF-8 (U+0080..U+009F) become \u0080..\u009f; bytes that are not valid UTF-8 become \xNN;
 *     everything else, including other UTF-8 and the backslash, is kept;
 *   - if the escaped text does not fit, its start and its end are kept (about 30% and 70% of
 *     the room) with " [...] " between them, cut only at character boundaries.
 * Returns the escaped length of the whole text (before shortening). size must be >= 16. */
size_t rs_message_text(char* out, size_t size, const char* text, size_t len);

#endif /* RS_HOST_MESSAGE_TEXT_H */
