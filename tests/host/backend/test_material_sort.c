/* test_material_sort.c - the CPU backend's --sort-materials (sort_materials, backend_cpu.c;
 * material_sort.h's key): driven bounce by bounce like the wavefront loop, after each extend the
 * sorted live list must be a permutation of the list before it, in non-decreasing key order,
 * stable (rays of one material keep their order), with misses last; the scene has many
 * materials and an environment, so the list before the sort is out of key order and the sort
 * has work to do (checked, so the test cannot pass on a sort that does nothing). A strategy
 * without an index list is refused with a message naming the option. The image's bit-identity
 * is test_strategies' (tests/render). Host C11.
 *
 * usage: test_material_sort SCENE.json
 */
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/cpu_backend.h"
#include "host/import/json/scene_json.h"
#include "kernel/stages/material_sort.h"
#include "tests/render/render_util.h"
#include "tests/test.h"

typedef struct SortStats {
    uint32_t sorts, unsorted_before, keys_seen, misses;
} SortStats;

/* One sort_materials call, checked against the list it was given. */
static void check_one_sort(RsBackend* base, const RsSceneView* view, SortStats* st, const char* what)
{
    RsCpuBackend* b = rs_cpu_of(base);
    RsError err = {{0}};
    uint32_t n = b->live, rows = b->kp.wave_paths;
    uint32_t* before = malloc((n ? n : 1) * sizeof *before);
    uint32_t* position = malloc((rows ? rows : 1) * sizeof *position); /* row -> where it was */
    uint8_t* seen = calloc(view->material_count + 1, 1);
    uint8_t* taken = calloc(rows ? rows : 1, 1);
    for (uint32_t r = 0; r < rows; ++r)
        position[r] = UINT32_MAX;
    int unsorted = 0;
    for (uint32_t i = 0; i < n; ++i) {
        before[i] = rs_cpu_active_row(b, i);
        position[before[i]] = i;
        if (i > 0 && rs_material_sort_key(view, b->kp.rays.hit[before[i]]) <
                         rs_material_sort_key(view, b->kp.rays.hit[before[i - 1]]))
            unsorted = 1;
    }
    CHECK(base->ops->sort_materials(base, &err) == 0, "%s: %s", what, err.message);
    CHECK(b->live == n, "%s: the sort changed the live count (%u -> %u)", what, n, b->live);
    int permutation = 1, ordered = 1, stable = 1;
    for (uint32_t i = 0; i < n; ++i) {
        uint32_t row = rs_cpu_active_row(b, i);
        if (row >= rows || position[row] == UINT32_MAX || taken[row]) {
            permutation = 0; /* not in the list before, or twice */
            break;
        }
        taken[row] = 1;
        uint32_t key = rs_material_sort_key(view, b->kp.rays.hit[row]);
        if (key <= view->material_count)
            seen[key] = 1;
        if (i > 0) {
            uint32_t prev = rs_cpu_active_row(b, i - 1);
            uint32_t prev_key = rs_material_sort_key(view, b->kp.rays.hit[prev]);
            ordered &= prev_key <= key;
            stable &= prev_key != key || position[prev] < position[row];
        }
    }
    CHECK(permutation, "%s: the sorted list is not a permutation of the live rows", what);
    CHECK(ordered, "%s: keys out of order after the sort", what);
    CHECK(stable, "%s: rays of one material changed their order", what);
    uint32_t keys = 0;
    for (uint32_t k = 0; k <= view->material_count; ++k)
        keys += seen[k];
    st->sorts++;
    st->unsorted_before += (uint32_t)unsorted;
    st->keys_seen = keys > st->keys_seen ? keys : st->keys_seen;
    st->misses += seen[view->material_count];
    free(before);
    free(position);
    free(seen);
    free(taken);
}

/* One wave of every pixel, bounce by bounce as wavefront.c drives it, a sort before each shade. */
static void check_backend(const RsScene* scene, RsDeadRay d, int payload, const char* what)
{
    RsError err = {{0}};
    RsBackendConfig cfg = cpu_config(d, 2, payload);
    cfg.sort_materials = 1;
    RsSceneView view = rs_scene_view(scene);
    RsBackend* b = rs_backend_create(&cfg, &err);
    CHECK(b != NULL, "%s: %s", what, err.message);
    if (!b)
        return;
    const uint32_t w = 48, h = 40, pixels = w * h;
    RsFrameDesc frame = rs_frame_from_scene(scene, w, h, 6, RS_INTEGRATOR_PATH, 5);
    RsWaveRange wave = {0, pixels, 0, pixels, RS_PHASE_CAMERA, 0};
    SortStats st = {0, 0, 0, 0};
    int failed = b->ops->set_scene(b, &view, &err) || b->ops->set_frame(b, &frame, pixels, &err) ||
                 b->ops->generate(b, &wave, &err);
    for (uint32_t depth = 1; !failed && depth <= frame.max_depth + 1 && rs_cpu_of(b)->live; ++depth) {
        RsBounceCounts counts;
        failed = b->ops->extend(b, &err);
        if (!failed)
            check_one_sort(b, &view, &st, what);
        failed = failed || b->ops->shade(b, &err) || b->ops->connect(b, &err) || b->ops->drop_dead(b, &err) ||
                 b->ops->read_counts(b, &counts, &err);
    }
    CHECK(!failed, "%s: %s", what, err.message);
    printf("%s: %u sorts, %u lists out of key order before, at most %u keys in one, misses in %u\n", what, st.sorts,
           st.unsorted_before, st.keys_seen, st.misses);
    CHECK(st.sorts >= 3, "%s: only %u bounces had live rays", what, st.sorts);
    CHECK(st.unsorted_before > 0, "%s: every list was already in key order (the sort was never tested)", what);
    CHECK(st.keys_seen >= 4, "%s: only %u distinct keys in a bounce (the scene should mix materials)", what,
          st.keys_seen);
    CHECK(st.misses > 0, "%s: no miss (the environment's key) was ever sorted", what);
    rs_backend_destroy(b);
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_material_sort SCENE.json\n");
        return 2;
    }
    RsScene scene;
    RsError err = {{0}};
    if (rs_scene_load_json(argv[1], NULL, &scene, &err)) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    CHECK(rs_material_sort_bits(0) == 0 && rs_material_sort_bits(1) == 1 && rs_material_sort_bits(4) == 3 &&
              rs_material_sort_bits(7) == 3 && rs_material_sort_bits(0xffffffffu) == 32,
          "rs_material_sort_bits: wrong bit counts");
    check_backend(&scene, RS_DEADRAY_COMPACT_SCAN, 0, "compact-scan");
    check_backend(&scene, RS_DEADRAY_COMPACT_WARP, 1, "compact-warp, payload");

    /* without an index list there is nothing to sort: refused, naming the option */
    RsBackendConfig cfg = cpu_config(RS_DEADRAY_STENCIL, 1, 0);
    cfg.sort_materials = 1;
    RsSceneView view = rs_scene_view(&scene);
    RsBackend* b = rs_backend_create(&cfg, &err);
    int refused = !b || b->ops->set_scene(b, &view, &err) != 0;
    CHECK(refused && strstr(err.message, "--sort-materials") != NULL,
          "stencil with --sort-materials: not refused with a message naming it ('%s')", err.message);
    if (b)
        rs_backend_destroy(b);
    rs_scene_free(&scene);
    return rs_test_finish("test_material_sort");
}
