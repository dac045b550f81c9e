/* shade_surface.h - a hit as shading sees it: the surface point, the shading normal and the
 * material with its textures looked up, rebuilt from the ray that found it.
 *
 * Shared header (gcc C11, g++, nvcc). One function, so that the path tracer's shade
 * (stage_shade.h), the particles' shade (stage_particle.h) and SPPM's gather at a pixel's
 * visible point (particle/photon_grid.h) all see exactly the same surface: hit points from the
 * primitive (surface.h), an instance's primitive as its world-space copy with the error bound
 * widened by the transforms' rounding (accel/instance.h), vertex normals, normal and bump maps,
 * and textured colour, emission and roughness.
 */
#ifndef RS_KERNEL_SHADE_SURFACE_H
#define RS_KERNEL_SHADE_SURFACE_H

#include "kernel/accel/instance.h"
#include "kernel/state/kernel_params.h"
#include "kernel/texture/normal_map.h"
#include "kernel/texture/surface_texture.h"

typedef struct RsShadeSurface {
    RsSurfacePoint sp;   /* the point, its geometric normal, error bound and skip */
    RsVec3 ns;           /* shading normal (vertex normals, then normal or bump map) */
    RsVec3 wo;           /* towards where the ray came from */
    const RsPrim* prim;  /* the primitive as shaded: world_prim for an instance's */
    RsPrim world_prim;
    RsMaterial textured; /* the material with its textures looked up, when it has any */
    int has_textured;    /* the material is `textured` (rs_shade_material) */
    uint32_t material;   /* the scene's material index */
} RsShadeSurface;

/* The material to shade with: the textured copy, or the scene's own. (A function rather than
 * a pointer in the struct, so that the struct may be copied.) */
RS_FN const RsMaterial* rs_shade_material(const RsKernelParams* kp, const RsShadeSurface* s)
{
    return s->has_textured ? &s->textured : &kp->scene.materials[s->material];
}

/* Rebuilds the hit of a ray (origin4, dir4 as in RayState) that hit4 describes, on instance
 * hit_instance (RS_NO_HIT: the world). hit4.w must name a primitive. */
RS_FN void rs_shade_surface(const RsKernelParams* kp, RsFloat4 origin4, RsFloat4 dir4, RsFloat4 hit4,
                            uint32_t hit_instance, RsShadeSurface* s)
{
    const RsSceneView* scene = &kp->scene;
    uint32_t prim_index = rs_float_as_uint(hit4.w);
    const RsPrim* prim = &scene->prims[prim_index];
    s->material = rs_prim_material(prim);
    const RsMaterial* mat = &scene->materials[s->material];
    const RsInstance* inst = hit_instance != RS_NO_HIT ? &scene->accel.inst.instances[hit_instance] : 0;
    if (inst) {
        s->world_prim = rs_instance_prim(inst, prim);
        prim = &s->world_prim;
    }
    RsVec3 dir = rs_xyz(dir4);
    s->sp = rs_surface_at_hit(prim, prim_index, rs_xyz(origin4), dir, hit4);
    if (inst && !(rs_instance_flags(inst) & RS_INSTANCE_IDENTITY)) { /* (an identity: the flat arithmetic) */
        s->sp.error = rs_add(s->sp.error, rs_instance_error(inst, &scene->prims[prim_index], s->sp.p));
        s->ns = rs_instance_shading_normal(inst, scene->shading, prim_index, hit4.y, hit4.z, s->sp.n);
    } else {
        s->ns = rs_shading_normal(scene->shading, prim_index, hit4.y, hit4.z, s->sp.n);
    }
    s->wo = rs_neg(dir);
    s->prim = inst ? &s->world_prim : &scene->prims[prim_index];
    s->has_textured = 0;
    if (rs_material_has_textures(mat)) {
        RsTextureContext tc = rs_texture_context(kp, prim, prim_index, hit4, &s->sp, s->wo);
        s->ns = rs_mapped_normal(kp, mat, prim, prim_index, &s->sp, s->ns, s->wo, &tc);
        const RsMaterial* t = rs_textured_material(kp, mat, &tc, &s->textured);
        s->has_textured = t == &s->textured;
    }
}

#endif /* RS_KERNEL_SHADE_SURFACE_H */
