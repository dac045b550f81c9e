/* mesh_messages.h - what assimp says when an import fails, in raystream's words: what is wrong
 * and where, with assimp's own text kept after it as a detail. Host C11.
 */
#ifndef RS_HOST_MESH_MESSAGES_H
#define RS_HOST_MESH_MESSAGES_H

#include <stddef.h>

/* The sentence for assimp's error `assimp` on the file `path` (which it may read again, e.g. a
 * glTF's JSON to find the line of a syntax error) into out. */
void rs_mesh_explain_error(const char* path, const char* assimp, char* out, size_t size);

#endif /* RS_HOST_MESH_MESSAGES_H */
