/* fuzz_scene.c - libFuzzer harness for the scene loader: the JSON reader and the mesh files a
 * scene points at (through assimp). Host C11.
 *
 * Input: a scene's JSON text, optionally followed by the line "#MESH" and a mesh file's bytes.
 * The mesh bytes are written as mesh.obj, mesh.ply and mesh.gltf beside the scene, so whichever
 * of them the JSON names exists. The harness loads and frees the scene; the sanitizers (ASan,
 * UBSan, LeakSanitizer) and libFuzzer's timeout turn any crash, leak, undefined behaviour or
 * hang into a finding. The same function runs in the unit suite over the corpus (corpus/) and
 * every input that ever failed (regressions/) through ../replay_main.c, without libFuzzer.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/json/scene_json.h"

static char dir[64];

static int write_file(const char* name, const uint8_t* data, size_t size)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = size == 0 || fwrite(data, 1, size, f) == size; /* fwrite(NULL, ...) is undefined even for 0 bytes */
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    if (!dir[0]) {
        /* assimp runs in a child process with a time limit (mesh_import.c); keep it well under
         * libFuzzer's -timeout so that a hang is reported as our error, not as a fuzzer timeout */
        setenv("RAYSTREAM_MESH_TIMEOUT", "3", 0);
        snprintf(dir, sizeof dir, "/tmp/raystream-fuzz-%ld", (long)getpid());
        char cmd[128];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
        if (system(cmd) != 0)
            abort();
    }
    static const char marker[] = "\n#MESH\n";
    size_t json_size = size;
    const uint8_t* mesh = NULL;
    size_t mesh_size = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= size; ++i) {
        if (memcmp(data + i, marker, sizeof marker - 1) == 0) {
            json_size = i;
            mesh = data + i + sizeof marker - 1;
            mesh_size = size - json_size - (sizeof marker - 1);
            break;
        }
    }
    if (write_file("scene.json", data, json_size) || write_file("mesh.obj", mesh, mesh_size) ||
        write_file("mesh.ply", mesh, mesh_size) || write_file("mesh.gltf", mesh, mesh_size))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    RsScene scene;
    RsError err = {{0}};
    if (rs_scene_load_json(path, NULL, &scene, &err) == 0)
        rs_scene_free(&scene);
    else if (err.message[0] == '\0')
        abort(); /* a failure must always say why */
    return 0;
}
