/* json_light.h - the "lights" entries of a JSON scene: point and spot lights
 * (scenes/README.md). Host C11. */
#ifndef RS_HOST_JSON_LIGHT_H
#define RS_HOST_JSON_LIGHT_H

#include "host/import/json/json_reader.h"

/* Reads one light object at `path` and adds it to the reader's scene. */
int rs_json_read_light(const RsJsonReader* r, const cJSON* node, const char* path);

#endif /* RS_HOST_JSON_LIGHT_H */
