/* info.c - `raystream info [SCENE]`: version, build configuration, CPU and CUDA devices; with a
 * scene, every acceleration structure built over it with its build time, SAH cost, node count
 * and bytes, and the light tree with its build time. Host C11, application layer. */
#include <stdio.h>
#include <string.h>

#include "app/cli.h"
#include "app/commands.h"
#include "host/backend/backend.h"
#include "host/import/scene_loader.h"
#include "host/util/thread_pool.h"
#include "kernel/state/ray_state.h"
#include "version.h"

/* Builds every structure (and the BVHs with spatial splits) over the scene; a table row each. */
static int describe_scene(const char* path, const RsAccelOptions* base)
{
    RsScene scene;
    RsError err = {{0}};
    RsAccelOptions opt = *base;
    if (rs_scene_load(path, &opt, &scene, NULL, &err)) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    printf("\n%s: %zu primitives, %u materials, %u lights", path, scene.prims.count, (unsigned)scene.materials.count,
           scene.light_count);
    if (scene.instances.count)
        printf("; %zu objects of %zu primitives placed by %zu instances", scene.objects.count, scene.object_prims.count,
               scene.instances.count);
    printf("\n");
    printf("%-10s %9s %10s %7s %9s %9s %10s %7s %10s\n", "accel", "build s", "SAH cost", "splits", "nodes", "leaves",
           "refs", "depth", "MiB");
    for (uint32_t kind = 0; kind < RS_ACCEL_COUNT; ++kind) {
        for (int spatial = 0; spatial < (kind == RS_ACCEL_GRID ? 1 : 2); ++spatial) {
            scene.accel_options.kind = kind;
            scene.accel_options.spatial_splits = spatial;
            if (rs_scene_build(&scene, &err)) {
                printf("%-10s %s\n", rs_accel_name(kind), err.message);
                rs_error_clear(&err);
                continue;
            }
            const RsAccelStats* st = &scene.accel.stats;
            char name[32], sah[32];
            snprintf(name, sizeof name, "%s%s", rs_accel_name(kind), spatial ? "+sbvh" : "");
            snprintf(sah, sizeof sah, kind == RS_ACCEL_GRID ? "-" : "%.2f", st->sah_cost);
            printf("%-10s %9.3f %10s %7u %9u %9u %10llu %7u %10.1f\n", name, st->build_seconds, sah,
                   st->spatial_splits, st->nodes, st->leaves, (unsigned long long)st->references, st->depth, (double)st->bytes / 1048576.0);
            if (scene.accel.view.camera_tree)
                printf("  camera tree (the binary tree camera rays walk): %u nodes, %.1f of the MiB\n",
                       scene.accel.view.bvh2.node_count, (double)st->camera_tree_bytes / 1048576.0);
            RsSceneAccelBytes m = rs_scene_accel_bytes(&scene);
            if (m.instance_count) /* the row above is the world's own structure */
                printf("  two-level: %u instances of %u objects in %.3f s: BLAS %.3f MiB (depth %u), TLAS %.3f MiB "
                       "(depth %u), instance records %.3f MiB\n",
                       m.instance_count, m.object_count, scene.two_level.build_seconds, m.blas / 1048576.0,
                       scene.two_level.blas_depth, m.tlas / 1048576.0, scene.two_level.tlas_depth,
                       m.instances / 1048576.0);
        }
    }
    printf("SAH cost: bvh2 counts 1 per node and per primitive test, bvh8 1 per node and 0.3 per\n"
           "primitive (Ylitie et al.); both per ray, over the root's area. splits: spatial splits made\n"
           "(+sbvh, the default; --no-sbvh builds the plain rows). Build times on %u threads.\n",
           base->threads ? base->threads : rs_cpu_count());
    if (scene.light_count > 0) { /* the light tree over the same scene (--light-sampler tree) */
        if (rs_scene_select_lights(&scene, RS_LIGHT_SELECT_TREE, &err) == 0) {
            const RsLightTree* tree = &scene.light_select.tree;
            printf("light tree: %u lights, %u nodes, depth %u, built in %.4f s\n", scene.light_count, tree->node_count,
                   tree->depth, scene.light_select.build_seconds);
        } else {
            printf("light tree: %s\n", err.message);
            rs_error_clear(&err);
        }
    }
    rs_scene_free(&scene);
    return RS_EXIT_OK;
}

int rs_cmd_info(int argc, char** argv)
{
    const char* scene_path = NULL;
    RsAccelOptions accel = rs_accel_options_default();
    for (int i = 0; i < argc; ++i) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: raystream info [SCENE] [--threads N] [--sah-bins N] [--two-level]\n\n"
                   "Prints the version, the build configuration and the devices raystream can render on.\n"
                   "With a scene, builds every acceleration structure over it and prints its build time,\n"
                   "SAH cost, spatial splits made, node count and memory, and the light tree's build\n"
                   "time: the BVHs without spatial splits and with them (+sbvh, the default for render,\n"
                   "view and bench; --no-sbvh turns it off); a scene with instances (or --two-level) also\n"
                   "its BLAS, TLAS and instance records.\n");
            return RS_EXIT_OK;
        }
        uint64_t n;
        if (strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
            if (rs_cli_uint("--threads", argv[++i], 1, 1024, &n))
                return RS_EXIT_USAGE;
            accel.threads = (uint32_t)n;
        } else if (strcmp(argv[i], "--two-level") == 0) {
            accel.two_level = 1;
        } else if (strcmp(argv[i], "--sah-bins") == 0 && i + 1 < argc) {
            if (rs_cli_uint("--sah-bins", argv[++i], 2, 64, &n))
                return RS_EXIT_USAGE;
            accel.bins = (uint32_t)n;
        } else if (argv[i][0] != '-' && !scene_path) {
            scene_path = argv[i];
        } else {
            rs_cli_error("info: unexpected argument '%s'", argv[i]);
            return RS_EXIT_USAGE;
        }
    }
    printf("raystream %s (%s build)\n", RS_VERSION, RS_BUILD_TYPE);
    printf("CUDA backend: %s (architectures: %s)\n", rs_cuda_built() ? "built" : "not built",
           rs_cuda_built() ? RS_CUDA_ARCHS : "-");
    printf("CPU: %u processors\n", rs_cpu_count());
    static const char* const fields[] = RS_RAY_STATE_FIELD_NAMES;
    printf("RayState: %d bytes per ray in %d 16-byte fields (", (int)RS_RAY_STATE_BYTES_PER_RAY,
           RS_RAY_STATE_FIELD_COUNT);
    for (int i = 0; i < RS_RAY_STATE_FIELD_COUNT; ++i)
        printf("%s%s", i ? ", " : "", fields[i]);
    printf("); shadow queue %d bytes in %d fields; the instance fields (16 bytes each) only for scenes with "
           "instances\n",
           (int)RS_SHADOW_STATE_BYTES_PER_RAY, RS_SHADOW_STATE_FIELD_COUNT);
    printf("dead-ray strategies:\n");
    for (int d = 0; d < RS_DEADRAY_COUNT; ++d)
        printf("  %-14s %-10s %s\n", rs_deadray_name((RsDeadRay)d),
               rs_deadray_supported((RsDeadRay)d, RS_BACKEND_CPU) ? "cpu, cuda" : "cuda", rs_deadray_help((RsDeadRay)d));
    printf("acceleration structures (default %s):\n", rs_accel_name(accel.kind));
    for (uint32_t k = 0; k < RS_ACCEL_COUNT; ++k)
        printf("  %-14s %s\n", rs_accel_name(k), rs_accel_help(k));
    char cuda[8192];
    rs_cuda_describe(cuda, sizeof cuda);
    fputs(cuda, stdout);
    int devices = rs_cuda_built() ? rs_cuda_device_count() : 0;
    if (devices > 0)
        printf("render, view and bench use: %d GPU%s (0..%d; choose with --devices LIST)\n", devices,
               devices == 1 ? "" : "s", devices - 1);
    else
        printf("render, view and bench use: the CPU (%u threads)\n", rs_cpu_count());
    return scene_path ? describe_scene(scene_path, &accel) : RS_EXIT_OK;
}
