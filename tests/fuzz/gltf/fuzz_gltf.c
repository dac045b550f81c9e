/* fuzz_gltf.c - libFuzzer harness for the glTF 2.0 importer (src/host/import/gltf/): .gltf JSON
 * and .glb chunks, base64 data: URIs, accessors, the node hierarchy, materials, cameras and
 * lights. Host C11.
 *
 * Input: a glTF file's bytes (text or binary), optionally followed by the line "#FILE" and the
 * bytes of a file it may refer to, which is written beside it as b.bin and t.png (the names the
 * seeds use for an external buffer and image). The file is loaded through the scene-loader
 * dispatcher (so content decides the format, as for users), with --camera 1 when the input's
 * size is odd, and freed; the sanitizers and libFuzzer's timeout turn any crash, leak, undefined
 * behaviour or hang into a finding. The unit suite replays corpus/ and regressions/ through
 * ../replay_main.c without libFuzzer.
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
        snprintf(dir, sizeof dir, "/tmp/raystream-fuzz-gltf-%ld", (long)getpid());
        char cmd[128];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
        if (system(cmd) != 0)
            abort();
    }
    static const char marker[] = "\n#FILE\n";
    size_t main_size = size;
    const uint8_t* extra = NULL;
    size_t extra_size = 0;
    for (size_t i = 0; i + sizeof marker - 1 <= size; ++i) {
        if (memcmp(data + i, marker, sizeof marker - 1) == 0) {
            main_size = i;
            extra = data + i + sizeof marker - 1;
            extra_size = size - main_size - (sizeof marker - 1);
            break;
        }
    }
    if (write_file("scene.gltf", data, main_size) || write_file("b.bin", extra, extra_size) ||
        write_file("t.png", extra, extra_size))
        abort();
    char path[128];
    snprintf(path, sizeof path, "%s/scene.gltf", dir);
    RsSceneLoadOptions options = {NULL, (size & 1) ? 1 : -1};
    RsScene scene;
    RsError err = {{0}};
    if (rs_scene_load_with(path, &options, &scene, NULL, &err) == 0)
        rs_scene_free(&scene);
    else if (err.message[0] == '\0')
        abort(); /* a failure must always say why */
    return 0;
}
