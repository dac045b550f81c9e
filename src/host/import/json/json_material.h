/* json_material.h - the "materials" entries of a JSON scene (scenes/README.md). Host C11. */
#ifndef RS_HOST_JSON_MATERIAL_H
#define RS_HOST_JSON_MATERIAL_H

#include "host/import/json/json_reader.h"

/* Reads one material object at `path` and adds it to the reader's scene. */
int rs_json_read_material(const RsJsonReader* r, const cJSON* node, const char* path);

#endif /* RS_HOST_JSON_MATERIAL_H */
