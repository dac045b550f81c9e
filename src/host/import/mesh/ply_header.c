/* ply_header.c - PLY header sanity and element counts against the file size (see
 * ply_header.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mesh/ply_header.h"

#include <stdlib.h>
#include <string.h>

enum { HEAD_BYTES = 65536 };

/* Bytes of a PLY scalar type, 0 if unknown. */
static unsigned type_size(const char* t)
{
    static const struct {
        const char* name;
        unsigned size;
    } types[] = {{"char", 1},  {"uchar", 1},   {"int8", 1},   {"uint8", 1},   {"short", 2},   {"ushort", 2},
                 {"int16", 2}, {"uint16", 2},  {"int", 4},    {"uint", 4},    {"int32", 4},   {"uint32", 4},
                 {"float", 4}, {"float32", 4}, {"double", 8}, {"float64", 8}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; ++i)
        if (strcmp(t, types[i].name) == 0)
            return types[i].size;
    return 0;
}

typedef struct Element {
    char name[64];
    double count;
    double min_bytes; /* per element */
} Element;

/* The least data a file with these elements can hold. */
static double least_data(const Element* e, int elements)
{
    double total = 0.0;
    for (int i = 0; i < elements; ++i)
        total += e[i].count * e[i].min_bytes;
    return total;
}

int rs_ply_header_check(FILE* f, uint64_t file_size, char* why, size_t why_size)
{
    char* head = malloc(HEAD_BYTES + 1);
    if (!head) {
        snprintf(why, why_size, "out of memory");
        return -1;
    }
    size_t n = fread(head, 1, HEAD_BYTES, f);
    head[n] = '\0';
    int status = -1, binary = 0, elements = 0;
    Element element[64];
    char* end = NULL;
    if (n < 4 || memcmp(head, "ply", 3) != 0 || (head[3] != '\n' && head[3] != '\r')) {
        snprintf(why, why_size, "not a PLY file (it must start with 'ply')");
        goto done;
    }
    for (char* line = head + 4; line < head + n;) {
        char* next = strchr(line, '\n');
        if (!next)
            break; /* no end_header within HEAD_BYTES */
        *next = '\0';
        char word[32] = "", a[64] = "", b[64] = "", c[64] = "";
        int got = sscanf(line, "%31s %63s %63s %63s", word, a, b, c);
        if (got >= 1 && strcmp(word, "end_header") == 0) {
            end = next + 1;
            break;
        }
        if (got >= 2 && strcmp(word, "format") == 0) {
            binary = strcmp(a, "ascii") != 0;
        } else if (got >= 3 && strcmp(word, "element") == 0) {
            if (elements == (int)(sizeof element / sizeof element[0])) {
                snprintf(why, why_size, "more than %d elements in the PLY header", elements);
                goto done;
            }
            Element* e = &element[elements++];
            snprintf(e->name, sizeof e->name, "%s", a);
            e->count = strtod(b, NULL);
            e->min_bytes = 0.0;
        } else if (got >= 3 && strcmp(word, "property") == 0 && elements > 0) {
            /* "property TYPE NAME" or "property list COUNT_TYPE ITEM_TYPE NAME" (an empty list
             * still stores its count) */
            unsigned size = type_size(a);
            if (strcmp(a, "list") == 0)
                size = type_size(b);
            element[elements - 1].min_bytes += binary ? (size ? size : 1) : 2.0;
        }
        line = next + 1;
    }
    if (!end) {
        snprintf(why, why_size, "not a PLY file (its header must end with end_header within %d KiB)",
                 HEAD_BYTES / 1024);
        goto done;
    }
    double data = (double)file_size - (double)(end - head);
    /* ASCII: the last value needs no separator after it */
    double least = least_data(element, elements) - (binary ? 0.0 : 1.0);
    if (least > data) {
        const Element* big = &element[0];
        for (int i = 1; i < elements; ++i)
            if (element[i].count * element[i].min_bytes > big->count * big->min_bytes)
                big = &element[i];
        snprintf(why, why_size,
                 "the header declares %.0f '%s' elements, but the file holds only %.0f bytes of data (at least %.0f "
                 "needed): truncated or malformed",
                 big->count, big->name, data > 0.0 ? data : 0.0, least);
        goto done;
    }
    status = 0;
done:
    free(head);
    return status;
}
