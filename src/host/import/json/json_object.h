/* json_object.h - scene format version 2's objects and instances: the top-level "objects" key
 * (named groups of shapes, each recorded once through rs_scene_begin_object) and the "instance"
 * shape that places one with a transform (scenes/README.md). Host C11.
 */
#ifndef RS_HOST_JSON_OBJECT_H
#define RS_HOST_JSON_OBJECT_H

#include "host/import/json/json_reader.h"

typedef int (*RsJsonShapeFn)(const RsJsonReader* r, const cJSON* node, const char* path);

/* Reads root["objects"] if present: every object's shapes through read_shape, with instances
 * refused inside an object and names unique. Fills r->objects (the caller frees it with
 * rs_json_objects_free). */
int rs_json_read_objects(RsJsonReader* r, const cJSON* root, RsJsonShapeFn read_shape);

/* A shape {"type": "instance", "object": NAME, "transform": T} at `path`; `read_transform` reads T
 * as a mesh's "transform". */
int rs_json_read_instance(const RsJsonReader* r, const cJSON* node, const char* path,
                          int (*read_transform)(const RsJsonReader*, const cJSON*, const char*, RsTransform*));

void rs_json_objects_free(RsJsonReader* r);

#endif /* RS_HOST_JSON_OBJECT_H */
