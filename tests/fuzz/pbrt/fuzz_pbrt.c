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
#include "host/import/pbrt/pbrt_loader.h"
#include "tests/fuzz/scene_files_fuzz.h"

static int load(const char* path, size_t input_size, RsScene* scene, RsError* err)
{
    (void)input_size;
    return rs_pbrt_load(path, NULL, scene, NULL, err);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const scene_names[] = {"scene.pbrt", "inc.pbrt", NULL};
    static const char* const extra_names[] = {"mesh.ply", NULL};
    rs_fuzz_scene_files(data, size, "pbrt", "\n#PLY\n", scene_names, extra_names, load);
    return 0;
}
