/* mts_xml.c - reading Mitsuba XML text into an element tree through expat, keeping each
 * element's file and line for messages. Host C11 (POSIX).
 *
 * Only elements and attributes matter to Mitsuba: text between elements must be whitespace,
 * comments are skipped. Limits: the file's size (RS_MTS_MAX_FILE_BYTES), elements over the
 * whole scene (RS_MTS_MAX_ELEMENTS) and nesting (RS_MTS_MAX_NESTING), so that hostile input
 * costs bounded time and memory. expat itself refuses entity expansion attacks (billion laughs)
 * since 2.4; DTD entities are refused here outright, as Mitsuba's scenes never need them.
 */
#define _POSIX_C_SOURCE 200809L
#include <expat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"
#include "host/io/safe_file.h"

typedef struct RsMtsParse {
    RsMts* m;
    XML_Parser parser;
    const char* file;
    RsMtsNode* root;
    RsMtsNode* stack[RS_MTS_MAX_NESTING];
    int depth;
    int failed;
} RsMtsParse;

const char* rs_mts_attr(const RsMtsNode* node, const char* name)
{
    for (uint32_t i = 0; i < node->attr_count; ++i)
        if (strcmp(node->attrs[i].name, name) == 0)
            return node->attrs[i].value;
    return NULL;
}

void rs_mts_node_free(RsMtsNode* node)
{
    if (!node)
        return;
    for (uint32_t i = 0; i < node->child_count; ++i)
        rs_mts_node_free(node->children[i]);
    for (uint32_t i = 0; i < node->attr_count; ++i) {
        free(node->attrs[i].name);
        free(node->attrs[i].value);
    }
    free(node->attrs);
    free(node->children);
    free(node->tag);
    free(node);
}

int rs_mts_node_add_child(RsMtsNode* parent, RsMtsNode* child, RsError* err)
{
    if (parent->child_count == parent->child_capacity) {
        uint32_t cap = parent->child_capacity ? parent->child_capacity * 2 : 4;
        RsMtsNode** c = realloc(parent->children, cap * sizeof *c);
        if (!c)
            return rs_error_set(err, "out of memory");
        parent->children = c;
        parent->child_capacity = cap;
    }
    parent->children[parent->child_count++] = child;
    return 0;
}

static void stop(RsMtsParse* p, const char* fmt, const char* arg)
{
    if (!p->failed) {
        rs_error_set(p->m->err, "%s:%lu: %s%s", p->file, (unsigned long)XML_GetCurrentLineNumber(p->parser), fmt,
                     arg ? arg : "");
        p->failed = 1;
    }
    XML_StopParser(p->parser, XML_FALSE);
}

static void on_start(void* data, const XML_Char* tag, const XML_Char** attrs)
{
    RsMtsParse* p = data;
    if (p->failed)
        return;
    if (++p->m->doc.element_count > RS_MTS_MAX_ELEMENTS)
        return stop(p, "too many XML elements (the limit is 4000000 over every file of a scene)", NULL);
    if (p->depth == RS_MTS_MAX_NESTING)
        return stop(p, "elements nested too deeply (the limit is 256)", NULL);
    if (p->depth == 0 && p->root)
        return stop(p, "more than one root element", NULL);
    RsMtsNode* n = calloc(1, sizeof *n);
    if (!n)
        return stop(p, "out of memory", NULL);
    n->file = p->file;
    n->line = (int)XML_GetCurrentLineNumber(p->parser);
    n->tag = strdup(tag);
    uint32_t count = 0;
    while (attrs[2 * count])
        ++count;
    n->attrs = count ? calloc(count, sizeof *n->attrs) : NULL;
    int ok = n->tag && (count == 0 || n->attrs);
    for (uint32_t i = 0; ok && i < count; ++i) {
        n->attrs[i].name = strdup(attrs[2 * i]);
        n->attrs[i].value = strdup(attrs[2 * i + 1]);
        n->attr_count = i + 1;
        ok = n->attrs[i].name && n->attrs[i].value;
    }
    if (ok && p->depth > 0)
        ok = rs_mts_node_add_child(p->stack[p->depth - 1], n, p->m->err) == 0;
    if (!ok) {
        rs_mts_node_free(n);
        return stop(p, "out of memory", NULL);
    }
    if (p->depth == 0)
        p->root = n;
    p->stack[p->depth++] = n;
}

static void on_end(void* data, const XML_Char* tag)
{
    (void)tag;
    RsMtsParse* p = data;
    if (!p->failed && p->depth > 0)
        --p->depth;
}

static void on_text(void* data, const XML_Char* s, int len)
{
    RsMtsParse* p = data;
    for (int i = 0; i < len && !p->failed; ++i)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n' && s[i] != '\r')
            return stop(p, "text between elements (Mitsuba reads only elements and their attributes)", NULL);
}

static void on_entity(void* data, const XML_Char* name, int is_parameter, const XML_Char* value, int value_length,
                      const XML_Char* base, const XML_Char* system_id, const XML_Char* public_id,
                      const XML_Char* notation)
{
    (void)is_parameter, (void)value, (void)value_length, (void)base, (void)system_id, (void)public_id, (void)notation;
    stop(data, "DTD entity declarations are not read (entity ", name ? name : "?");
}

int rs_mts_parse_text(RsMts* m, const char* file, const char* text, size_t size, RsMtsNode** out)
{
    *out = NULL;
    RsMtsParse p = {0};
    p.m = m;
    p.file = file;
    p.parser = XML_ParserCreate("UTF-8");
    if (!p.parser)
        return rs_error_set(m->err, "%s: out of memory", file);
    XML_SetUserData(p.parser, &p);
    XML_SetElementHandler(p.parser, on_start, on_end);
    XML_SetCharacterDataHandler(p.parser, on_text);
    XML_SetEntityDeclHandler(p.parser, on_entity);
    if (size > (size_t)0x7fffffff) {
        XML_ParserFree(p.parser);
        return rs_error_set(m->err, "%s: file too large", file);
    }
    enum XML_Status status = XML_Parse(p.parser, text, (int)size, 1);
    if (status != XML_STATUS_OK && !p.failed) {
        rs_error_set(m->err, "%s:%lu:%lu: XML syntax error: %s", file, (unsigned long)XML_GetCurrentLineNumber(p.parser),
                     (unsigned long)XML_GetCurrentColumnNumber(p.parser) + 1, XML_ErrorString(XML_GetErrorCode(p.parser)));
        p.failed = 1;
    }
    XML_ParserFree(p.parser);
    if (p.failed) {
        rs_mts_node_free(p.root);
        return -1;
    }
    if (!p.root)
        return rs_error_set(m->err, "%s: no XML element", file);
    *out = p.root;
    return 0;
}

int rs_mts_parse_file(RsMts* m, const char* path, RsMtsNode** out)
{
    *out = NULL;
    char* name = strdup(path);
    if (!name || rs_array_push(&m->doc.files, name, m->err)) {
        free(name);
        return rs_error_set(m->err, "%s: out of memory", path);
    }
    char why[256];
    size_t size = 0;
    char* text = rs_file_read_all(path, RS_MTS_MAX_FILE_BYTES, &size, why, sizeof why);
    if (!text)
        return rs_error_set(m->err, "%s: cannot open: %s", path, why);
    int status = rs_file_list_add(m->files, path, m->err);
    if (status == 0)
        status = rs_mts_parse_text(m, name, text, size, out);
    free(text);
    return status;
}

void rs_mts_doc_free(RsMtsDoc* doc)
{
    for (size_t i = 0; i < doc->files.count; ++i)
        free(doc->files.data[i]);
    for (size_t i = 0; i < doc->param_names.count; ++i) {
        free(doc->param_names.data[i]);
        free(doc->param_values.data[i]);
    }
    rs_array_free(&doc->files);
    rs_array_free(&doc->id_names); /* the names belong to the nodes */
    rs_array_free(&doc->id_nodes);
    rs_array_free(&doc->param_names);
    rs_array_free(&doc->param_values);
    rs_name_index_free(&doc->id_index);
    rs_name_index_free(&doc->param_index);
}
