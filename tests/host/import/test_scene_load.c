/* test_scene_load.c - every scene the repository ships loads (through the loader every command
 * uses), builds and can light itself (host suite). usage: test_scene_load SCENE.json... Host C11. */
#include "host/import/scene_loader.h"
#include "tests/test.h"

int main(int argc, char** argv)
{
    CHECK(argc > 1, "no scenes given");
    for (int i = 1; i < argc; ++i) {
        RsScene s;
        RsError err = {{0}};
        int status = rs_scene_load(argv[i], NULL, &s, NULL, &err);
        CHECK(status == 0, "%s", err.message);
        if (status)
            continue;
        CHECK(s.built && s.accel.stats.nodes > 0 && s.prims.count > 0, "%s: not built", argv[i]);
        CHECK(s.light_count > 0, "%s: no light and a black sky: it would render black", argv[i]);
        CHECK(s.render.width > 0 && s.render.height > 0 && s.render.spp > 0 && s.render.max_depth > 0,
              "%s: render settings", argv[i]);
        printf("%s: %zu primitives, %u materials, %u lights, %s of %u nodes (depth %u), built in %.3f s\n", argv[i],
               s.prims.count, (unsigned)s.materials.count, s.light_count, rs_accel_name(s.accel.view.kind), s.accel.stats.nodes, s.accel.stats.depth,
               s.accel.stats.build_seconds);
        rs_scene_free(&s);
    }
    return rs_test_finish("test_scene_load");
}
