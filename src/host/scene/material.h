/* material.h - turning what a scene says about a material into the RsMaterial blocks that
 * per-ray code reads (src/kernel/scene/scene_data.h). Host C11.
 *
 * The description is in the user's terms (colours, index of refraction, perceptual roughness,
 * named metals); rs_material_from_desc derives what the models need: GGX alpha = roughness^2,
 * a conductor's complex index from an artist colour, a plastic coat's diffuse reflectances.
 */
#ifndef RS_HOST_MATERIAL_H
#define RS_HOST_MATERIAL_H

#include "kernel/scene/scene_data.h"
#include "kernel/texture/texture.h"

/* RsMaterialDesc.type of a material known only as kernel blocks (added by rs_scene_add_material). */
#define RS_MATERIAL_DESC_UNKNOWN 0xffffffffu

/* How a material's alpha (its alpha texture times `opacity`) cuts it out. */
enum {
    RS_ALPHA_MASK = 0,  /* not there where alpha < alpha_cutoff (glTF MASK, MTL map_d) */
    RS_ALPHA_BLEND = 1  /* there with probability alpha (glTF BLEND, Mitsuba's mask): a stochastic cut-out */
};

typedef struct RsMaterialDesc {
    uint32_t type;    /* RS_MAT_* */
    RsVec3 colour;    /* diffuse albedo, mirror reflectance, glass tint, plastic base; a
                         conductor's normal-incidence reflectance unless has_eta_k */
    RsVec3 emission;  /* radiance, emitted from the front (both faces if two_sided) */
    float ior;        /* dielectric, plastic coat */
    int has_eta_k;    /* conductor: eta and k below are its complex index */
    RsVec3 eta, k;
    float roughness_u, roughness_v; /* perceptual, in [0, 1]; u is along the tangent */
    int two_sided;
    uint32_t colour_texture; /* index in the scene's textures, or RS_NO_TEXTURE */
    uint32_t alpha_texture;  /* cut-out mask (its alpha channel), or RS_NO_TEXTURE */
    uint32_t emission_texture; /* scales `emission` per point, or RS_NO_TEXTURE */
    uint32_t roughness_texture; /* perceptual roughness in channel roughness_channel, or RS_NO_TEXTURE */
    uint32_t roughness_channel; /* 0 (red, the default) .. 3; glTF keeps roughness in green (1) */
    uint32_t normal_map;        /* tangent-space normals (linear RGB), or RS_NO_TEXTURE */
    uint32_t bump_map;          /* height in its first channel (linear), or RS_NO_TEXTURE */
    float bump_scale;           /* the bump map's strength (normal_map.h) */
    /* texture coordinates every texture of the material reads at, from the surface's (u, v):
     * u' = m[0] u + m[1] v + m[2], v' = m[3] u + m[4] v + m[5] (Mitsuba's to_uv, pbrt's
     * uscale/vscale/udelta/vdelta, glTF's KHR_texture_transform); identity by default */
    float uv_transform[6];
    uint32_t alpha_mode;        /* RS_ALPHA_* */
    float alpha_cutoff;         /* RS_ALPHA_MASK: default 0.5 */
    float opacity;              /* multiplies the alpha texture (1 without one); 1 = opaque */
} RsMaterialDesc;

/* Defaults: colour 0.5 (diffuse and plastic) or 1, ior 1.5, smooth, black emission. */
RsMaterialDesc rs_material_desc(uint32_t type);

RsMaterial rs_material_from_desc(const RsMaterialDesc* desc);

/* The old shorthand, kept for tests and mesh materials: smooth, no conductor index. */
RsMaterial rs_material_make(uint32_t type, RsVec3 albedo, RsVec3 emission, float ior, int two_sided);

/* Complex index of a named metal ("Ag", "Al", "Au", "Cu"); returns 0 for an unknown name.
 * rs_metal_names lists the known names, for messages. */
int rs_metal_index(const char* name, RsVec3* eta, RsVec3* k);
const char* rs_metal_names(void);

/* Cosine-weighted average over the hemisphere of the dielectric Fresnel reflectance for light
 * arriving from the side where the index ratio is eta (eta > 1: from outside into glass).
 * Integrated numerically with the kernel's own Fresnel function. */
double rs_fresnel_diffuse_reflectance(float eta);

#endif /* RS_HOST_MATERIAL_H */
