/* message_text.c - escaping and middle-shortening of message text (see message_text.h). Host C11. */
#include "host/util/message_text.h"

#include <stdio.h>
#include <string.h>

#define RS_ELISION " [...] "

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if the bytes there are not one (overlong
 * forms, surrogates and code points past U+10FFFF count as invalid). */
static size_t utf8_sequence(const unsigned char* s, size_t n)
{
    unsigned c = s[0];
    size_t len;
    unsigned min;
    if (c < 0x80)
        return 1;
    if (c >= 0xc2 && c <= 0xdf)
        len = 2, min = 0x80;
    else if (c >= 0xe0 && c <= 0xef)
        len = 3, min = 0x800;
    else if (c >= 0xf0 && c <= 0xf4)
        len = 4, min = 0x10000;
    else
        return 0;
    if (n < len)
        return 0;
    unsigned cp = c & (0x7fu >> len);
    for (size_t i = 1; i < len; ++i) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        cp = (cp << 6) | (s[i] & 0x3fu);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return 0;
    return len;
}

/* The next character of `text` as it is shown: writes up to 6 bytes to `shown`, returns how
 * many, and sets *used to the input bytes it stands for. */
static size_t escape_one(const unsigned char* s, size_t n, char shown[8], size_t* used)
{
    unsigned c = s[0];
    size_t seq = utf8_sequence(s, n);
    *used = seq ? seq : 1;
    if (c < 0x20 || c == 0x7f) {
        const char* named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == 0x1b ? "\\e" : NULL;
        if (named) {
            memcpy(shown, named, 2);
            return 2;
        }
        snprintf(shown, 8, "\\x%02x", c);
        return 4;
    }
    if (seq == 0) {
        snprintf(shown, 8, "\\x%02x", c);
        return 4;
    }
    if (seq == 2 && c == 0xc2 && s[1] < 0xa0) { /* C1 control, U+0080..U+009F */
        snprintf(shown, 8, "\\u%04x", (unsigned)s[1]);
        return 6;
    }
    memcpy(shown, s, seq);
    return seq;
}

size_t rs_message_text(char* out, size_t size, const char* text, size_t len)
{
    const unsigned char* s = (const unsigned char*)text;
    char shown[8];
    size_t used, total = 0;
    for (size_t i = 0; i < len; i += used)
        total += escape_one(s + i, len - i, shown, &used);

    size_t room = size - 1, head = room, tail_from = len;
    if (total > room) {
        size_t keep = room - (sizeof RS_ELISION - 1);
        head = keep * 3 / 10;
        /* the tail: the last characters whose escaped length fits keep - head */
        size_t tail_budget = keep - head, suffix = total;
        tail_from = 0;
        for (size_t i = 0; i < len; i += used) {
            if (suffix <= tail_budget) {
                tail_from = i;
                break;
            }
            suffix -= escape_one(s + i, len - i, shown, &used);
            tail_from = len;
        }
    }
    size_t o = 0, i = 0;
    for (; i < len; i += used) {
        size_t k = escape_one(s + i, len - i, shown, &used);
        if (o + k > head)
            break;
        memcpy(out + o, shown, k);
        o += k;
    }
    if (i < len) { /* shortened: the elision mark, then the tail */
        memcpy(out + o, RS_ELISION, sizeof RS_ELISION - 1);
        o += sizeof RS_ELISION - 1;
        for (i = tail_from > i ? tail_from : i; i < len; i += used) {
            size_t k = escape_one(s + i, len - i, shown, &used);
            memcpy(out + o, shown, k);
            o += k;
        }
    }
    out[o] = '\0';
    return total;
}
