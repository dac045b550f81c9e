/* mtl_check.c - map statements of an MTL file, checked against what assimp 5.2 reads (see
 * mtl_check.h). Host C11; runs in the mesh import child, on the MTL files assimp opened.
 */
#include "host/import/mesh/mtl_check.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* assimp's strings hold 1023 bytes: a longer map path is dropped */
#define RS_MTL_PATH_MAX 1023

/* The texture options of the MTL format that assimp 5.2 reads, and how many arguments it takes
 * for each; numeric ones must be numbers (assimp reads -o, -s and -t as exactly three). */
typedef struct MtlOption {
    const char* name;
    int args;
    int numeric;
} MtlOption;

static const MtlOption options[] = {
    {"-blendu", 1, 0}, {"-blendv", 1, 0}, {"-boost", 1, 1}, {"-mm", 2, 1}, {"-o", 3, 1},      {"-s", 3, 1},
    {"-t", 3, 1},      {"-texres", 1, 1}, {"-clamp", 1, 0}, {"-bm", 1, 1}, {"-imfchan", 1, 0}, {"-type", 1, 0},
};

static int is_map_keyword(const char* word, size_t n)
{
    static const char* const plain[] = {"bump", "norm", "disp", "decal", "refl"};
    if (n > 4 && strncmp(word, "map_", 4) == 0)
        return 1;
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; ++i)
        if (strlen(plain[i]) == n && strncmp(word, plain[i], n) == 0)
            return 1;
    return 0;
}

/* The next white-space separated token of *p (advanced past it): its start, length in *n. */
static const char* token(const char** p, size_t* n)
{
    const char* s = *p;
    while (*s == ' ' || *s == '\t')
        ++s;
    const char* e = s;
    while (*e && !isspace((unsigned char)*e))
        ++e;
    *n = (size_t)(e - s);
    *p = e;
    return s;
}

static int is_number(const char* s, size_t n, double* value)
{
    char buf[64];
    if (n == 0 || n >= sizeof buf)
        return 0;
    memcpy(buf, s, n);
    buf[n] = '\0';
    char* end = NULL;
    *value = strtod(buf, &end);
    return end == buf + n;
}

/* One map statement (after its keyword `kw`): 0, or -1 with the problem in why[]. */
static int check_map(const char* kw, size_t kw_n, const char* rest, char* why, size_t size)
{
    size_t n;
    const char* p = rest;
    for (;;) {
        const char* save = p;
        const char* t = token(&p, &n);
        if (n == 0 || t[0] != '-') {
            p = save;
            break;
        }
        const MtlOption* o = NULL;
        for (size_t i = 0; i < sizeof options / sizeof options[0]; ++i)
            if (strlen(options[i].name) == n && strncmp(options[i].name, t, n) == 0)
                o = &options[i];
        if (!o) {
            snprintf(why, size,
                     "%.*s: unknown option '%.*s' (assimp, which reads MTL files for raystream, takes its argument "
                     "as part of the file name; it reads -blendu, -blendv, -boost, -bm, -clamp, -imfchan, -mm, -o, -s, "
                     "-t, -texres and -type)",
                     (int)kw_n, kw, (int)(n < 64 ? n : 64), t);
            return -1;
        }
        for (int a = 0; a < o->args; ++a) {
            double v = 0.0;
            size_t m;
            const char* arg = token(&p, &m);
            if (m == 0 || (o->numeric && !is_number(arg, m, &v))) {
                snprintf(why, size, "%.*s: option %s needs %d %s (assimp reads exactly that many before the file name)",
                         (int)kw_n, kw, o->name, o->args, o->numeric ? (o->args == 1 ? "number" : "numbers") : "argument");
                return -1;
            }
            if (strcmp(o->name, "-bm") == 0 && !(v >= 0.0 && v <= 1e18)) {
                snprintf(why, size, "%.*s: the bump multiplier -bm must be a number in [0, 1e18] (got %.*s)", (int)kw_n,
                         kw, (int)(m < 32 ? m : 32), arg);
                return -1;
            }
        }
    }
    while (*p == ' ' || *p == '\t')
        ++p;
    size_t len = strlen(p);
    while (len > 0 && isspace((unsigned char)p[len - 1]))
        --len;
    if (len == 0) {
        snprintf(why, size, "%.*s: no file named", (int)kw_n, kw);
        return -1;
    }
    if (len > RS_MTL_PATH_MAX) {
        snprintf(why, size, "%.*s: the file name is %zu bytes long, more than the %d assimp can hold (it would drop the map)",
                 (int)kw_n, kw, len, RS_MTL_PATH_MAX);
        return -1;
    }
    return 0;
}

int rs_mtl_check(FILE* f, const char* path, char* why, size_t why_size)
{
    size_t cap = 0;
    char* line = NULL;
    long number = 0;
    int status = 0;
    for (;;) {
        /* a line of any length: getline is POSIX, this stays C11 */
        size_t len = 0;
        int c;
        while ((c = fgetc(f)) != EOF && c != '\n') {
            if (len + 2 > cap) {
                size_t grown_cap = cap ? cap * 2 : 256;
                char* grown = realloc(line, grown_cap);
                if (!grown) {
                    snprintf(why, why_size, "%s: out of memory reading it", path);
                    free(line);
                    return -1;
                }
                line = grown;
                cap = grown_cap;
            }
            line[len++] = (char)c;
        }
        if (c == EOF && len == 0)
            break;
        ++number;
        if (!line)
            continue;
        line[len] = '\0';
        const char* p = line;
        size_t n;
        const char* kw = token(&p, &n);
        char problem[512];
        if (n > 0 && is_map_keyword(kw, n) && check_map(kw, n, p, problem, sizeof problem)) {
            snprintf(why, why_size, "%s:%ld: %s", path, number, problem);
            status = -1;
            break;
        }
        if (c == EOF)
            break;
    }
    free(line);
    return status;
}
