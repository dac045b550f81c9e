/* fuzz_pbrt.c - libFuzzer harness for the pbrt-v4 importer (src/host/import/pbrt/): its
 * tokenizer, parameter lists, directives, includes and PLY reader. Host C11.
 *
 * Input: a pbrt scene's text, optionally followed by the line "#PLY" and a PLY file's bytes,
 * written as mesh.ply beside the scene (so "plymesh" "mesh.ply" reads it); the scene is also
 * there as inc.pbrt, so that Include "inc.pbrt" exercises the cycle check. The harness loads and
 * frees the scene; sanitizers and libFuzzer's timeout turn crashes, leaks, undefined behaviour
 * and hangs into findings. The unit suite replays the corpus through ../replay_main.c.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/pbrt/pbrt_loader.h"

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
        snprintf(dir, sizeof dir, "/tmp/raystream-fuzz-pbrt-%ld", (long)getpid());
        char cmd[128];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
        if (system(cmd) != 0)
            abort();
    }
    static const char marker[] = "\n#PLY\n";
    size_t scene_size = size;
    const uint8_t* ply = NULL;
    size_t ply_size = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= size; ++i) {
        if (memcmp(data + i, marker, sizeof marker - 1) == 0) {
            scene_size = i;
            ply = data + i + sizeof marker - 1;
            ply_size = size - scene_size - (sizeof marker - 1);
            break;
        }
    }
    if (write_file("scene.pbrt", data, scene_size) || write_file("inc.pbrt", data, scene_size) ||
        write_file("mesh.ply", ply, ply_size))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/scene.pbrt", dir);
    RsScene scene;
    RsError err = {{0}};
    if (rs_pbrt_load(path, NULL, &scene, NULL, &err) == 0)
        rs_scene_free(&scene);
    else if (err.message[0] == '\0')
        abort(); /* a failure must always say why */
    return 0;
}
