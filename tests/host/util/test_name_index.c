/* test_name_index.c - the material name index (host suite): a million names, found and not
 * found, with prefixes and near-collisions, through growth; and the scene's material lookup is
 * exact (no C-string truncation, no stale entries after a failed add). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/scene/scene.h"
#include "host/util/name_index.h"
#include "tests/test.h"

int main(void)
{
    enum { N = 1000000 };
    char** names = malloc(N * sizeof *names);
    RsNameIndex index = {0};
    RsError err = {{0}};
    int added = 1;
    for (uint32_t i = 0; i < N; ++i) {
        char buf[32];
        snprintf(buf, sizeof buf, "m%u", i);
        names[i] = strdup(buf);
        added &= rs_name_index_add(&index, names, i, &err) == 0;
    }
    CHECK(added, "adding failed: %s", err.message);
    CHECK(index.slot_count >= 2 * index.used && index.used == N, "%zu slots for %zu names", index.slot_count,
          index.used);
    int found = 1, absent = 1;
    for (uint32_t i = 0; i < N; ++i) {
        found &= rs_name_index_find(&index, names, names[i]) == (int32_t)i;
        char other[40];
        snprintf(other, sizeof other, "m%u_", i); /* a name with one of them as its prefix */
        absent &= rs_name_index_find(&index, names, other) == -1;
    }
    CHECK(found, "a name was not found at its position");
    CHECK(absent, "a name that was never added was found");
    CHECK(rs_name_index_find(&index, names, "") == -1 && rs_name_index_find(&index, names, "m") == -1, "prefixes");
    rs_name_index_free(&index);
    CHECK(rs_name_index_find(&index, names, "m1") == -1, "an empty index finds nothing");
    for (uint32_t i = 0; i < N; ++i)
        free(names[i]);
    free(names);

    RsScene scene;
    rs_scene_init(&scene);
    RsMaterial m = rs_material_make(RS_MAT_DIFFUSE, rs_vec3_splat(0.5f), rs_vec3_splat(0), 1, 0);
    CHECK(rs_scene_add_material(&scene, "w", m, &err) == 0, "add w");
    CHECK(rs_scene_add_material(&scene, "wx", m, &err) == 1, "add wx");
    CHECK(rs_scene_add_material(&scene, "w", m, &err) == -1 && strstr(err.message, "duplicate"), "duplicate w");
    CHECK(scene.materials.count == 2 && scene.material_names.count == 2, "a failed add changed the scene");
    CHECK(rs_scene_find_material(&scene, "wx") == 1 && rs_scene_find_material(&scene, "w") == 0 &&
              rs_scene_find_material(&scene, "x") == -1,
          "scene lookup");
    rs_scene_free(&scene);
    return rs_test_finish("test_name_index");
}
