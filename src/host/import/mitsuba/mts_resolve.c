/* mts_resolve.c - what Mitsuba does to its XML before reading objects from it: <default>
 * parameters and $name substitution in attribute values, <include> of other files, and ids for
 * <ref>. Host C11 (POSIX).
 *
 * One walk in document order, as Mitsuba's parser reads: a <default> defines its name if not
 * yet defined (raystream has no -D on its command line, so defaults are the values); every
 * attribute after it has its $name replaced. A value may name another parameter (defined
 * before the use, not necessarily before the default naming it), which is replaced in turn, up to RS_MTS_MAX_SUBSTITUTION_DEPTH levels, so a parameter naming itself
 * fails instead of growing forever. An <include> is replaced by the children of the included
 * file's <scene>, walked the same way; includes nest at most RS_MTS_MAX_INCLUDE_DEPTH deep and a
 * file that includes itself, directly or not, is an error naming the chain's last link. Ids are
 * unique over all files.
 */
#define _XOPEN_SOURCE 700
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/mitsuba/mts_internal.h"

typedef struct RsMtsIncludes {
    char* real[RS_MTS_MAX_INCLUDE_DEPTH + 2];
    int count;
} RsMtsIncludes;

static int is_name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* One pass: every $name in `in` replaced; *changed says whether any was. */
static int substitute_once(RsMts* m, const RsMtsNode* node, const char* in, char** out, int* changed)
{
    size_t cap = strlen(in) + 1, n = 0;
    char* s = malloc(cap);
    if (!s)
        return rs_mts_fail(m, node, "out of memory");
    *changed = 0;
    for (const char* p = in; *p;) {
        const char* insert = p;
        size_t len = 1;
        if (*p == '$' && is_name_char(p[1])) {
            const char* e = p + 1;
            while (is_name_char(*e))
                ++e;
            char name[256];
            size_t nl = (size_t)(e - p - 1);
            if (nl >= sizeof name) {
                free(s);
                return rs_mts_fail(m, node, "$%.40s...: parameter name too long", p + 1);
            }
            memcpy(name, p + 1, nl);
            name[nl] = '\0';
            int32_t at = rs_name_index_find(&m->doc.param_index, m->doc.param_names.data, name);
            if (at < 0) {
                free(s);
                return rs_mts_fail(m, node, "$%s: no <default name=\"%s\"> defines this parameter", name, name);
            }
            insert = m->doc.param_values.data[at];
            len = strlen(insert);
            p = e;
            *changed = 1;
        } else {
            ++p;
        }
        if (n + len + 1 > RS_MTS_MAX_VALUE_BYTES) {
            free(s);
            return rs_mts_fail(m, node, "an attribute grows beyond %d bytes through $ substitution",
                               RS_MTS_MAX_VALUE_BYTES);
        }
        if (n + len + 1 > cap) {
            cap = (n + len + 1) * 2;
            char* t = realloc(s, cap);
            if (!t) {
                free(s);
                return rs_mts_fail(m, node, "out of memory");
            }
            s = t;
        }
        memcpy(s + n, insert, len);
        n += len;
    }
    s[n] = '\0';
    *out = s;
    return 0;
}

static int substitute(RsMts* m, RsMtsNode* node)
{
    for (uint32_t i = 0; i < node->attr_count; ++i) {
        char** value = &node->attrs[i].value;
        for (int level = 0;; ++level) {
            if (!strchr(*value, '$'))
                break;
            if (level == RS_MTS_MAX_SUBSTITUTION_DEPTH)
                return rs_mts_fail(m, node,
                                   "%s=\"%.60s\": $ substitution nested deeper than %d levels (a parameter naming "
                                   "itself?)",
                                   node->attrs[i].name, *value, RS_MTS_MAX_SUBSTITUTION_DEPTH);
            char* next = NULL;
            int changed = 0;
            if (substitute_once(m, node, *value, &next, &changed))
                return -1;
            free(*value);
            *value = next;
            if (!changed)
                break;
        }
    }
    return 0;
}

static int add_default(RsMts* m, const RsMtsNode* node)
{
    const char* name = rs_mts_attr(node, "name");
    const char* value = rs_mts_attr(node, "value");
    if (!name || !value)
        return rs_mts_fail(m, node, "default: needs a name and a value");
    if (!name[0] || strlen(name) > 200)
        return rs_mts_fail(m, node, "default: the name must have 1 to 200 characters");
    for (const char* p = name; *p; ++p)
        if (!is_name_char(*p))
            return rs_mts_fail(m, node, "default: '%s' is not a parameter name (letters, digits, _)", name);
    if (rs_name_index_find(&m->doc.param_index, m->doc.param_names.data, name) >= 0)
        return 0; /* the first definition holds, as a -D would */
    char* n = strdup(name);
    char* v = strdup(value);
    if (!n || !v || rs_array_push(&m->doc.param_values, v, m->err)) {
        free(n);
        free(v);
        return rs_mts_fail(m, node, "out of memory");
    }
    if (rs_array_push(&m->doc.param_names, n, m->err)) {
        free(n);
        --m->doc.param_values.count;
        free(v);
        return -1;
    }
    return rs_name_index_add(&m->doc.param_index, m->doc.param_names.data, (uint32_t)(m->doc.param_names.count - 1),
                             m->err);
}

static int register_id(RsMts* m, RsMtsNode* node)
{
    const char* id = rs_mts_attr(node, "id");
    if (!id || strcmp(node->tag, "ref") == 0)
        return 0;
    int32_t at = rs_name_index_find(&m->doc.id_index, m->doc.id_names.data, id);
    if (at >= 0) {
        const RsMtsNode* first = m->doc.id_nodes.data[at];
        return rs_mts_fail(m, node, "id '%s' is already used by the <%s> at %s:%d", id, first->tag, first->file,
                           first->line);
    }
    if (rs_array_push(&m->doc.id_names, (char*)id, m->err) || rs_array_push(&m->doc.id_nodes, node, m->err))
        return -1;
    return rs_name_index_add(&m->doc.id_index, m->doc.id_names.data, (uint32_t)(m->doc.id_names.count - 1), m->err);
}

static int walk(RsMts* m, RsMtsNode* node, RsMtsIncludes* inc);

/* <path value="..."/>: a folder where files named later are looked for, relative to the XML file
 * that names it (or found through the folders known so far). */
static int search_path(RsMts* m, const RsMtsNode* node)
{
    const char* value = rs_mts_attr(node, "value");
    if (!value)
        return rs_mts_fail(m, node, "path: needs a value");
    char dir[PATH_MAX];
    const char* slash = strrchr(node->file, '/');
    int n = value[0] == '/' || !slash ? snprintf(dir, sizeof dir, "%s", value)
                                      : snprintf(dir, sizeof dir, "%.*s/%s", (int)(slash - node->file), node->file, value);
    if (n < 0 || (size_t)n >= sizeof dir)
        return rs_mts_fail(m, node, "path: too long");
    if (access(dir, F_OK) != 0 && rs_mts_resolve_path(m, node, value, dir, sizeof dir))
        return -1;
    if (access(dir, F_OK) != 0)
        return rs_mts_fail(m, node, "path: folder '%s' not found", value);
    return rs_mts_add_search_path(m, node, dir);
}

/* Replaces parent->children[*i] (an <include>) by the included scene's children, walked. */
static int include(RsMts* m, RsMtsNode* parent, uint32_t* i, RsMtsIncludes* inc)
{
    RsMtsNode* node = parent->children[*i];
    const char* filename = rs_mts_attr(node, "filename");
    if (!filename)
        return rs_mts_fail(m, node, "include: needs a filename");
    char path[PATH_MAX];
    const char* slash = strrchr(node->file, '/');
    int n = filename[0] == '/' || !slash ? snprintf(path, sizeof path, "%s", filename)
                                         : snprintf(path, sizeof path, "%.*s/%s", (int)(slash - node->file), node->file,
                                                    filename);
    if (n < 0 || (size_t)n >= sizeof path)
        return rs_mts_fail(m, node, "include '%.60s': the path is too long", filename);
    if (access(path, F_OK) != 0 && rs_mts_resolve_path(m, node, filename, path, sizeof path))
        return -1;
    if (inc->count > RS_MTS_MAX_INCLUDE_DEPTH)
        return rs_mts_fail(m, node, "include '%s': includes nested deeper than %d", filename, RS_MTS_MAX_INCLUDE_DEPTH);
    char* real = realpath(path, NULL);
    if (!real)
        return rs_mts_fail(m, node, "include '%s': cannot open %s", filename, path);
    for (int k = 0; k < inc->count; ++k) {
        if (strcmp(inc->real[k], real) == 0) {
            free(real);
            return rs_mts_fail(m, node, "include '%s': a cycle (the file is already being included)", filename);
        }
    }
    RsMtsNode* root = NULL;
    if (rs_mts_parse_file(m, path, &root)) {
        free(real);
        return -1;
    }
    inc->real[inc->count++] = real;
    int status = 0;
    if (strcmp(root->tag, "scene") != 0)
        status = rs_mts_fail(m, root, "an included file must have <scene> as its root (got <%s>)", root->tag);
    else
        status = walk(m, root, inc);
    free(inc->real[--inc->count]);
    if (status) {
        rs_mts_node_free(root);
        return -1;
    }
    /* splice: children[*i] becomes root's children */
    uint32_t extra = root->child_count;
    if (extra > 1) {
        uint32_t need = parent->child_count + extra - 1;
        if (need > parent->child_capacity) {
            RsMtsNode** c = realloc(parent->children, need * sizeof *c);
            if (!c) {
                rs_mts_node_free(root);
                return rs_mts_fail(m, node, "out of memory");
            }
            parent->children = c;
            parent->child_capacity = need;
        }
    }
    memmove(parent->children + *i + extra, parent->children + *i + 1,
            (parent->child_count - *i - 1) * sizeof *parent->children);
    if (extra)
        memcpy(parent->children + *i, root->children, extra * sizeof *root->children);
    parent->child_count = parent->child_count + extra - 1;
    root->child_count = 0;
    rs_mts_node_free(root);
    rs_mts_node_free(node);
    *i += extra;
    return 0;
}

static int walk(RsMts* m, RsMtsNode* node, RsMtsIncludes* inc)
{
    for (uint32_t i = 0; i < node->child_count;) {
        RsMtsNode* c = node->children[i];
        if (strcmp(c->tag, "default") != 0 && substitute(m, c))
            return -1;
        if (strcmp(c->tag, "default") == 0) { /* its value is substituted where it is used */
            if (add_default(m, c))
                return -1;
            ++i;
            continue;
        }
        if (strcmp(c->tag, "path") == 0) {
            if (search_path(m, c))
                return -1;
            ++i;
            continue;
        }
        if (strcmp(c->tag, "include") == 0) {
            if (include(m, node, &i, inc))
                return -1;
            continue;
        }
        if (register_id(m, c) || walk(m, c, inc))
            return -1;
        ++i;
    }
    return 0;
}

int rs_mts_resolve(RsMts* m, RsMtsNode* root, const char* path)
{
    const char* slash = strrchr(path, '/');
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 0, path);
    if (rs_mts_add_search_path(m, NULL, dir))
        return -1;
    RsMtsIncludes inc = {{0}, 0};
    inc.real[0] = realpath(path, NULL);
    if (!inc.real[0])
        return rs_error_set(m->err, "%s: cannot resolve the path", path);
    inc.count = 1;
    int status = substitute(m, root) || walk(m, root, &inc) ? -1 : 0;
    free(inc.real[0]);
    return status;
}

RsMtsNode* rs_mts_deref(RsMts* m, RsMtsNode* node)
{
    if (strcmp(node->tag, "ref") != 0)
        return node;
    const char* id = rs_mts_attr(node, "id");
    if (!id) {
        rs_mts_fail(m, node, "ref: needs an id");
        return NULL;
    }
    int32_t at = rs_name_index_find(&m->doc.id_index, m->doc.id_names.data, id);
    if (at < 0) {
        rs_mts_fail(m, node, "ref: no object has id '%s'", id);
        return NULL;
    }
    return m->doc.id_nodes.data[at];
}
