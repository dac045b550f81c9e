/* test_message_text.c - message text is safe to print (host suite): control characters, C1
 * controls and invalid UTF-8 are escaped, valid UTF-8 is kept, and a text too long for its
 * buffer keeps its start and its end, cut only between characters; RsError goes through it.
 * Host C11. */
#include <stdlib.h>
#include <string.h>

#include "host/util/error.h"
#include "host/util/message_text.h"
#include "tests/test.h"

static void expect(const char* in, size_t len, const char* want)
{
    char out[256];
    rs_message_text(out, sizeof out, in, len);
    CHECK(strcmp(out, want) == 0, "'%s' shown as '%s', expected '%s'", want, out, want);
}

/* Every byte is printable ASCII or part of a valid UTF-8 sequence of a non-control character. */
static int safe(const char* s)
{
    for (const unsigned char* p = (const unsigned char*)s; *p; ++p)
        if (*p < 0x20 || *p == 0x7f || (*p == 0xc2 && p[1] >= 0x80 && p[1] < 0xa0))
            return 0;
    return 1;
}

int main(void)
{
    expect("plain", 5, "plain");
    expect("a\x1b[2Jb", 6, "a\\e[2Jb");
    expect("tab\tnl\ncr\r", 10, "tab\\tnl\\ncr\\r");
    expect("\x01\x7f", 2, "\\x01\\x7f");
    expect("nul\0x", 5, "nul\\x00x");
    expect("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 14, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80");
    expect("c1\xc2\x9b", 4, "c1\\u009b");
    expect("lone\x9b", 5, "lone\\x9b");
    expect("overlong\xc0\x80", 10, "overlong\\xc0\\x80");
    expect("surrogate\xed\xa0\x80", 12, "surrogate\\xed\\xa0\\x80");
    expect("cut\xe2\x82", 5, "cut\\xe2\\x82");
    expect("big\xf5\x80\x80\x80", 7, "big\\xf5\\x80\\x80\\x80");
    expect("back\\slash", 10, "back\\slash");

    /* shortening: the start, " [...] ", the end; fits exactly; never splits a character */
    for (size_t size = 16; size < 200; size += 7) {
        char text[600], out[200];
        size_t n = 0;
        for (int i = 0; i < 100; ++i) {
            memcpy(text + n, i % 3 == 0 ? "\xe2\x82\xac" : i % 3 == 1 ? "\x1b" : "x", i % 3 == 0 ? 3 : 1);
            n += i % 3 == 0 ? 3 : 1;
        }
        memcpy(text + n, "REASON", 6);
        n += 6;
        size_t total = rs_message_text(out, size, text, n);
        CHECK(strlen(out) <= size - 1, "size %zu: %zu bytes written", size, strlen(out));
        CHECK(total > size - 1 ? strstr(out, " [...] ") != NULL : 1, "size %zu: no elision mark in '%s'", size, out);
        CHECK(size < 40 || strstr(out, "REASON") != NULL, "size %zu: the end was lost: '%s'", size, out);
        CHECK(safe(out), "size %zu: unsafe bytes in '%s'", size, out);
        /* no split euro sign: every 0xe2 is followed by 0x82 0xac */
        for (const char* p = out; (p = strchr(p, '\xe2')) != NULL; ++p)
            CHECK(p[1] == '\x82' && p[2] == '\xac', "size %zu: a character was split in '%s'", size, out);
    }

    /* RsError: escaped, and a long path loses its middle, not the reason at the end */
    RsError err = {{0}};
    char* path = malloc(5000);
    memset(path, 'd', 4999);
    path[4999] = '\0';
    rs_error_set(&err, "cannot read '%s\x1b[31m': %s", path, "No such file or directory");
    size_t len = strlen(err.message);
    CHECK(len < sizeof err.message, "message of %zu bytes", len);
    CHECK(strncmp(err.message, "cannot read 'ddd", 16) == 0, "the start was lost: '%.40s'", err.message);
    const char* reason = "\\e[31m': No such file or directory";
    CHECK(len > strlen(reason) && strcmp(err.message + len - strlen(reason), reason) == 0, "the reason was lost: '%s'",
          err.message + (len > 40 ? len - 40 : 0));
    CHECK(strstr(err.message, " [...] ") != NULL, "no elision mark");
    rs_error_clear(&err);
    rs_error_set(&err, "%s", "");
    CHECK(err.message[0] != '\0', "an empty message must not read as no error");
    free(path);
    return rs_test_finish("test_message_text");
}
