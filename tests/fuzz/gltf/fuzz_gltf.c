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
#include "host/import/scene_loader.h"
#include "tests/fuzz/scene_files_fuzz.h"

/* --camera 1 when the input's size is odd */
static int load(const char* path, size_t input_size, RsScene* scene, RsError* err)
{
    RsSceneLoadOptions options = {NULL, (input_size & 1) ? 1 : -1};
    return rs_scene_load_with(path, &options, scene, NULL, err);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const scene_names[] = {"scene.gltf", NULL};
    static const char* const extra_names[] = {"b.bin", "t.png", NULL};
    rs_fuzz_scene_files(data, size, "gltf", "\n#FILE\n", scene_names, extra_names, load);
    return 0;
}
