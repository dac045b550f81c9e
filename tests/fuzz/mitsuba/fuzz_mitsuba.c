/* fuzz_mitsuba.c - libFuzzer harness for the Mitsuba 3 XML importer: expat, $ substitution,
 * includes, every plugin reader and the .serialized reader (zlib). Host C11.
 *
 * Input: the scene's XML text, optionally followed by the line "#FILE" and a second file's
 * bytes, written beside the scene as inc.xml and mesh.serialized, so that an <include> or a
 * serialized shape naming either finds it (a scene may include itself as scene.xml: a cycle).
 * Meshes through assimp (obj, ply) are left to fuzz_scene. The harness loads and frees the
 * scene; a failure must say why. Replayed over corpus/ in the unit suite (../replay_main.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/scene_loader.h"

static char dir[64];

static int write_file(const char* name, const uint8_t* data, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = size == 0 || fwrite(data, 1, size, f) == size;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/raystream-fuzz-mitsuba-%ld", (long)getpid());
        char cmd[128];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
        if (system(cmd) != 0)
            abort();
    }
    static const char marker[] = "\n#FILE\n";
    size_t xml_size = size;
    const uint8_t* extra = NULL;
    size_t extra_size = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= size; ++i) {
        if (memcmp(data + i, marker, sizeof marker - 1) == 0) {
            xml_size = i;
            extra = data + i + sizeof marker - 1;
            extra_size = size - xml_size - (sizeof marker - 1);
            break;
        }
    }
    if (write_file("scene.xml", data, xml_size) || write_file("inc.xml", extra, extra_size) ||
        write_file("mesh.serialized", extra, extra_size))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/scene.xml", dir);
    RsScene scene;
    RsError err = {{0}};
    if (rs_scene_load(path, NULL, &scene, NULL, &err) == 0)
        rs_scene_free(&scene);
    else if (err.message[0] == '\0')
        abort(); /* a failure must always say why */
    return 0;
}
