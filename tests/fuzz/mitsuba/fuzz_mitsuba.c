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
#include "host/import/scene_loader.h"
#include "tests/fuzz/scene_files_fuzz.h"

static int load(const char* path, size_t input_size, RsScene* scene, RsError* err)
{
    (void)input_size;
    return rs_scene_load(path, NULL, scene, NULL, err);
}

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    static const char* const scene_names[] = {"scene.xml", NULL};
    static const char* const extra_names[] = {"inc.xml", "mesh.serialized", NULL};
    rs_fuzz_scene_files(data, size, "mitsuba", "\n#FILE\n", scene_names, extra_names, load);
    return 0;
}
