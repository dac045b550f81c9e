/* scene_files_fuzz.h - what the importers' libFuzzer harnesses (tests/fuzz/{mitsuba,pbrt,gltf})
 * share: one input becomes a scene file and, optionally, a file beside it that the scene may
 * name, and the scene is loaded and freed. Host C11.
 *
 * The input is split at the line `marker` ("\n#FILE\n", "\n#PLY\n"): the bytes before it are
 * written under every name of main_names, the bytes after it under every name of extra_names,
 * all in one folder per process under /tmp (so a scene can include itself, or name a mesh, a
 * buffer or an image that exists). main_names[0] is loaded. A load that fails must say why;
 * sanitizers and libFuzzer's timeout turn crashes, leaks, undefined behaviour and hangs into
 * findings. The unit suite replays each corpus through replay_main.c.
 */
#ifndef RS_TESTS_SCENE_FILES_FUZZ_H
#define RS_TESTS_SCENE_FILES_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/scene/scene.h"

/* Loads the scene at `path` into scene; 0 on success, else err says why. */
typedef int (*RsFuzzSceneLoad)(const char* path, size_t input_size, RsScene* scene, RsError* err);

static int rs_fuzz_write_file(const char* dir, const char* name, const uint8_t* data, size_t size)
{
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "wb");
    if (!f)
        return -1;
    int ok = size == 0 || fwrite(data, 1, size, f) == size;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static void rs_fuzz_scene_files(const uint8_t* data, size_t size, const char* tag, const char* marker,
                                const char* const* main_names, const char* const* extra_names, RsFuzzSceneLoad load)
{
    static char dir[96];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "/tmp/raystream-fuzz-%s-%ld", tag, (long)getpid());
        char cmd[128];
        snprintf(cmd, sizeof cmd, "mkdir -p %s", dir);
        if (system(cmd) != 0)
            abort();
    }
    size_t marker_size = strlen(marker), main_size = size, extra_size = 0;
    const uint8_t* extra = NULL;
    for (size_t i = 0; i + marker_size <= size; ++i) {
        if (memcmp(data + i, marker, marker_size) == 0) {
            main_size = i;
            extra = data + i + marker_size;
            extra_size = size - main_size - marker_size;
            break;
        }
    }
    for (int k = 0; main_names[k]; ++k)
        if (rs_fuzz_write_file(dir, main_names[k], data, main_size))
            abort();
    for (int k = 0; extra_names[k]; ++k)
        if (rs_fuzz_write_file(dir, extra_names[k], extra, extra_size))
            abort();
    char path[160];
    snprintf(path, sizeof path, "%s/%s", dir, main_names[0]);
    RsScene scene;
    RsError err = {{0}};
    if (load(path, size, &scene, &err) == 0)
        rs_scene_free(&scene);
    else if (err.message[0] == '\0')
        abort(); /* a failure must always say why */
}

#endif /* RS_TESTS_SCENE_FILES_FUZZ_H */
