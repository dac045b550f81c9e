/* json_camera.h - reading the scene file's camera (json_camera.c). Host C11. */
#ifndef RS_HOST_JSON_CAMERA_H
#define RS_HOST_JSON_CAMERA_H

#include "host/import/json/json_reader.h"

/* Fills r->scene->camera and the render size from `cam`; -1 with the error set on bad input. */
int rs_json_read_camera(const RsJsonReader* r, const cJSON* cam);

#endif /* RS_HOST_JSON_CAMERA_H */
