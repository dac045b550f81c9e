/* material_sort.h - the key by which --sort-materials orders the live rays between extend and
 * shade.
 *
 * Shared header (gcc C11, g++, nvcc); the CPU backend sorts by it with a counting sort, the
 * CUDA backend computes it in a kernel and sorts with CUB's radix sort over only the key's bits
 * (ray_sort.cu). Shade's cost is mostly the material: its BSDF, its textures' fetches and the
 * branches that pick them. Neighbouring lanes that hit the same material take the same branches
 * and read the same textures, so a warp stays converged (Cycles sorts its shading queue by
 * shader for this reason). The key: the material of the hit primitive, and for a miss (shade
 * looks up the environment) material_count, one past every material. An instance's primitive
 * keeps its scene material (accel/instance.h), so the key needs no instance lookup.
 */
#ifndef RS_KERNEL_MATERIAL_SORT_H
#define RS_KERNEL_MATERIAL_SORT_H

#include "kernel/scene/scene_view.h"

/* hit4: the ray's hit as extend wrote it (w: the primitive's bits, RS_NO_HIT on a miss). */
RS_FN uint32_t rs_material_sort_key(const RsSceneView* scene, RsFloat4 hit4)
{
    uint32_t prim = rs_float_as_uint(hit4.w);
    return prim == RS_NO_HIT ? scene->material_count : rs_prim_material(&scene->prims[prim]);
}

/* The bits that hold every key 0..material_count: what the radix sort has to look at. */
RS_FN uint32_t rs_material_sort_bits(uint32_t material_count)
{
    uint32_t bits = 0;
    while (bits < 32 && (material_count >> bits) != 0)
        ++bits;
    return bits;
}

#endif /* RS_KERNEL_MATERIAL_SORT_H */
