/* cli.c - option parsing helpers (see cli.h). Host C11, application layer. */
#include "app/cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/util/message_text.h"

static FILE* messages;

void rs_cli_set_messages(FILE* f) { messages = f; }

FILE* rs_cli_messages(void) { return messages ? messages : stderr; }

/* "raystream: " + the message, escaped and shortened like every RsError (message_text.h):
 * messages quote arguments and scene names, which may hold terminal escape sequences. */
static void print_message(const char* prefix, const char* fmt, va_list ap)
{
    char text[4096], shown[4096];
    int len = vsnprintf(text, sizeof text, fmt, ap);
    if (len < 0)
        len = 0;
    if ((size_t)len >= sizeof text)
        len = (int)sizeof text - 1;
    rs_message_text(shown, sizeof shown, text, (size_t)len);
    fprintf(rs_cli_messages(), "raystream: %s%s\n", prefix, shown);
}

void rs_cli_error(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("", fmt, ap);
    va_end(ap);
}

void rs_cli_warning(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("warning: ", fmt, ap);
    va_end(ap);
}

void rs_cli_note(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    print_message("", fmt, ap);
    va_end(ap);
}

int rs_cli_uint(const char* option, const char* text, uint64_t lo, uint64_t hi, uint64_t* out)
{
    char* end = NULL;
    errno = 0;
    if (text[0] == '-' || text[0] == '\0') {
        rs_cli_error("%s: expected a whole number in [%llu, %llu], got '%s'", option, (unsigned long long)lo,
                     (unsigned long long)hi, text);
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end != '\0' || v < lo || v > hi) {
        rs_cli_error("%s: expected a whole number in [%llu, %llu], got '%s'", option, (unsigned long long)lo,
                     (unsigned long long)hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

int rs_cli_float(const char* option, const char* text, double lo, double hi, double* out)
{
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v) || v < lo || v > hi) {
        rs_cli_error("%s: expected a number in [%g, %g], got '%s'", option, lo, hi, text);
        return -1;
    }
    *out = v;
    return 0;
}

int rs_cli_size(const char* option, const char* text, uint64_t* out)
{
    char* end = NULL;
    errno = 0;
    if (text[0] == '-') {
        rs_cli_error("%s: expected a size such as 64M or 2G, got '%s'", option, text);
        return -1;
    }
    unsigned long long v = strtoull(text, &end, 10);
    uint64_t unit = 1;
    if (*end == 'K' || *end == 'k')
        unit = 1ull << 10;
    else if (*end == 'M' || *end == 'm')
        unit = 1ull << 20;
    else if (*end == 'G' || *end == 'g')
        unit = 1ull << 30;
    if (unit != 1)
        ++end;
    if (errno || end == text || *end != '\0' || v == 0 || v > UINT64_MAX / unit) {
        rs_cli_error("%s: expected a size such as 64M or 2G, got '%s'", option, text);
        return -1;
    }
    *out = v * unit;
    return 0;
}

int rs_cli_path(const char* option, const char* path)
{
    size_t n = strlen(path);
    if (n == 0) {
        rs_cli_error("%s: the path is empty", option);
        return -1;
    }
    if (n >= RS_PATH_BYTES - RS_PATH_SUFFIX_ROOM) {
        rs_cli_error("%s: the path is too long (%zu bytes; at most %d)", option, n,
                     RS_PATH_BYTES - RS_PATH_SUFFIX_ROOM - 1);
        return -1;
    }
    return 0;
}

const char* rs_cli_value(int argc, char** argv, int* i, const char* name, const char* alias, int* missing)
{
    const char* arg = argv[*i];
    size_t n = strlen(name);
    if (strncmp(arg, name, n) == 0 && arg[n] == '=')
        return arg + n + 1;
    if (strcmp(arg, name) == 0 || (alias && strcmp(arg, alias) == 0)) {
        if (*i + 1 >= argc) {
            *missing = 1;
            rs_cli_error("%s needs a value", arg);
            return NULL;
        }
        return argv[++*i];
    }
    return NULL;
}
