/* cli.c - option parsing helpers (see cli.h). Host C11, application layer. */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void rs_cli_error(const char* fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("raystream: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
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
