/* shade_surface.h - a hit as shading sees it: the surface point, the shading normal and the
 * material with its textures looked up, rebuilt from the ray that found it.
 *
 * Shared header (gcc C11, g++, nvcc). One function, so that the path tracer's shade
 * (stage_shade.h), the particles' shade (stage_particle.h) and SPPM's gather at a pixel's
 * visible point (particle/photon_grid.h) all see exactly the same surface: hit points from the
 * primitive (surface.h), an instance's primitive as its world-space copy with the error bound
 * widened by the transforms' rounding (accel/instance.h), vertex normals, normal and bump maps,
 * and textured colour, emission and roughness.
 *
 * Why two structs: the material and the primitive are returned as pointers, either into the
 * scene or into the caller's scratch (the textured copy, an instance's world-space primitive).
 * On the GPU a variable whose address is taken lives in local memory; had the point and normals
 * shared a struct with the scratch, every access to them would have gone there too (the path
 * tracer's shade lost a quarter of its speed on textured Sponza that way). RsShadeSurface holds
 * values only, so it stays in registers.
 */
#ifndef RS_KERNEL_SHADE_SURFACE_H
#define RS_KERNEL_SHADE_SURFACE_H

#include "kernel/accel/instance.h"
#include "kernel/state/kernel_params.h"
#include "kernel/texture/normal_map.h"
#include "kernel/texture/surface_texture.h"

/* Shade's verdict on a ray, a path's (stage_shade.h) or a particle's (stage_particle.h): bits. */
enum {
    RS_SHADE_TERMINATE = 0,
    RS_SHADE_CONTINUE = 1, /* the ray was rewritten as the next segment */
    RS_SHADE_SHADOW = 2    /* *shadow holds a shadow ray to append to the queue */
};

typedef struct RsShadeSurface {
    RsSurfacePoint sp; /* the point, its geometric normal, error bound and skip */
    RsVec3 ns;         /* shading normal (vertex normals, then normal or bump map) */
    RsVec3 wo;         /* towards where the ray came from */
} RsShadeSurface;

/* Where the textured material and an instance's world-space primitive are kept: the caller's. */
typedef struct RsShadeScratch {
    RsPrim world_prim;
    RsMaterial textured;
} RsShadeScratch;

/* A plain scene has neither textures nor instances. Shade's callers may pass that as a constant
 * (`plain` below): each kind then compiles to code of its own, and the plain one leaves out the
 * texture lookups, normal maps and instance transforms with the registers and the local-memory
 * scratch they hold. On an H100 the path tracer's shade kernel for plain scenes took Sponza's
 * frame (1080p, depth 8, 16 spp) from 23.4 to 19.2 ms. With no texture there is nothing a
 * material can refer to, so the plain code computes exactly what the general code would. */
RS_FN int rs_scene_is_plain(const RsSceneView* s)
{
    return s->textures.count == 0 && s->accel.inst.instance_count == 0;
}

/* Rebuilds the hit of a ray (origin4, dir4 as in RayState) that hit4 describes, on instance
 * hit_instance (RS_NO_HIT: the world); hit4.w must name a primitive. Returns the material to
 * shade with (the scene's, or its textured copy in *scratch) and sets *prim to the primitive as
 * shaded (the scene's, or its world-space copy in *scratch). `plain`: the scene is
 * (rs_scene_is_plain), so neither copy is made. */
RS_FN const RsMaterial* rs_shade_surface_with(const RsKernelParams* kp, RsFloat4 origin4, RsFloat4 dir4,
                                              RsFloat4 hit4, uint32_t hit_instance, RsShadeSurface* s,
                                              RsShadeScratch* scratch, const RsPrim** prim_out, int plain)
{
    const RsSceneView* scene = &kp->scene;
    uint32_t prim_index = rs_float_as_uint(hit4.w);
    const RsPrim* prim = &scene->prims[prim_index];
    const RsMaterial* mat = &scene->materials[rs_prim_material(prim)];
    const RsInstance* inst = !plain && hit_instance != RS_NO_HIT ? &scene->accel.inst.instances[hit_instance] : 0;
    if (inst) {
        scratch->world_prim = rs_instance_prim(inst, prim);
        prim = &scratch->world_prim;
    }
    RsVec3 dir = rs_xyz(dir4);
    RsSurfacePoint sp = rs_surface_at_hit(prim, prim_index, rs_xyz(origin4), dir, hit4);
    RsVec3 ns;
    if (inst && !(rs_instance_flags(inst) & RS_INSTANCE_IDENTITY)) { /* (an identity: the flat arithmetic) */
        sp.error = rs_add(sp.error, rs_instance_error(inst, &scene->prims[prim_index], sp.p));
        ns = rs_instance_shading_normal(inst, scene->shading, prim_index, hit4.y, hit4.z, sp.n);
    } else {
        ns = rs_shading_normal(scene->shading, prim_index, hit4.y, hit4.z, sp.n);
    }
    RsVec3 wo = rs_neg(dir);
    if (!plain && rs_material_has_textures(mat)) {
        RsTextureContext tc = rs_texture_context(kp, prim, prim_index, hit4, &sp, wo);
        ns = rs_mapped_normal(kp, mat, prim, prim_index, &sp, ns, wo, &tc);
        mat = rs_textured_material(kp, mat, &tc, &scratch->textured);
    }
    s->sp = sp;
    s->ns = ns;
    s->wo = wo;
    *prim_out = prim;
    return mat;
}

/* rs_shade_surface_with for any scene. */
RS_FN const RsMaterial* rs_shade_surface(const RsKernelParams* kp, RsFloat4 origin4, RsFloat4 dir4, RsFloat4 hit4,
                                         uint32_t hit_instance, RsShadeSurface* s, RsShadeScratch* scratch,
                                         const RsPrim** prim_out)
{
    return rs_shade_surface_with(kp, origin4, dir4, hit4, hit_instance, s, scratch, prim_out, 0);
}

#endif /* RS_KERNEL_SHADE_SURFACE_H */
