/* scene_data.h - primitives, materials and the environment as per-ray code sees them: flat
 * arrays of 16-byte blocks (scene_view.h gathers them with the acceleration structure).
 *
 * Shared header (gcc C11, g++, nvcc). The host builds these arrays once (src/host/scene/scene.c);
 * the CPU backend reads them in place and the CUDA backend copies them to the device
 * unchanged, so both backends see exactly the same bytes.
 *
 * Layouts (every block is one RsFloat4; "bits" means a uint32 stored with rs_uint_as_float):
 *   RsPrim, triangle:  a = v0.xyz | material bits
 *                      b = e1.xyz | light bits          (e1 = v1 - v0)
 *                      c = e2.xyz | type bits (0)       (e2 = v2 - v0)
 *   RsPrim, sphere:    a = centre.xyz | material bits
 *                      b = (radius, 0, 0) | light bits
 *                      c = (0, 0, 0) | type bits (1)
 *     light bits = the primitive's entry in the light table, or RS_NO_LIGHT if it does not
 *     emit: what MIS needs to ask light_select.h how likely NEE was to sample a point that a
 *     BSDF ray happened to hit.
 *   RsMaterial:        a = colour .rgb | type bits (RS_MAT_*, plus RS_MAT_TWO_SIDED)
 *                      b = emitted radiance .rgb | index of refraction (dielectric, plastic coat)
 *                      c = conductor eta .rgb | alpha_x          (GGX roughness along the tangent)
 *                      d = conductor k .rgb   | alpha_y
 *                      e = x: texture of the colour (albedo, plastic base, tints) bits, or
 *                          RS_NO_TEXTURE; y: alpha texture (cutout.h) bits or RS_NO_TEXTURE;
 *                          z: emission texture bits (scales b.rgb) or RS_NO_TEXTURE;
 *                          w: roughness texture bits (perceptual roughness, channel f.w)
 *                      f = x: normal map bits (tangent space, normal_map.h) or RS_NO_TEXTURE;
 *                          y: bump map bits (height, first channel) or RS_NO_TEXTURE;
 *                          z: bump scale (float); w: bits, the roughness texture's channel (0..3)
 *                          | RS_MAT_ALPHA_BLEND | RS_MAT_UV_TRANSFORM
 *                      g = uv transform m0, m1, m2 | 1 - opacity
 *                      h = uv transform m3, m4, m5 | alpha cutoff (RS_ALPHA_MASK)
 *     every texture of the material reads at u' = m0 u + m1 v + m2, v' = m3 u + m4 v + m5 when
 *     RS_MAT_UV_TRANSFORM is set (rs_material_uv); the cut-out's alpha is the alpha texture's
 *     (1 without one) times the opacity, a hole where it is below the cutoff, or with
 *     RS_MAT_ALPHA_BLEND a hole with probability 1 - alpha (cutout.h). Zero blocks (a material
 *     built by hand) mean opaque, no transform.
 *     with a colour texture, a conductor's texel is its normal-incidence reflectance, turned
 *     into eta = 1, k = 2 sqrt(r / (1 - r)) per lookup as material.c does for a colour
 *     the colour is the diffuse albedo (diffuse, the base under a plastic coat), the reflectance
 *     of a mirror or the transmission tint of a dielectric or thin dielectric; a conductor's colour comes from its
 *     complex index eta + i k (scene.c converts artist colours). Plastic keeps its coat's
 *     diffuse reflectances from inside and outside in c.x and c.y (kernel/bsdf/plastic.h). alpha = roughness^2; alpha below
 *     RS_GGX_SMOOTH_ALPHA (microfacet.h) is a perfectly smooth surface.
 *   RsShading:         a, b, c = the unit vertex normals n0, n1, n2 of a triangle (at v0, v1, v2)
 *                                | texture coordinate u at that vertex
 *                      d = texture coordinate v at v0, v1, v2 | flag bits (RS_SHADING_*)
 *     one per primitive, in the scene's array `shading`, which exists only when some primitive
 *     brought vertex normals or texture coordinates; without the flag a primitive is shaded with
 *     its geometric normal, and a triangle without coordinates reads its texture at (0, 0).
 *     Spheres map (u, v) = (longitude / 2 pi, 1 - colatitude / pi) from +x around +y.
 *   RsPointLight:      a = position .xyz | type bits (RS_POINT_LIGHT_*)
 *                      b = radiant intensity .rgb (W/sr) | spot: cos of the cone angle
 *                      c = spot: unit axis .xyz | cos of the angle where the falloff starts
 *     directional: a = unit direction the light travels .xyz | type bits
 *                  b = irradiance .rgb (W/m^2 on a surface facing it) | 0
 *     lights without a surface (pbrt-v4's PointLight, SpotLight and DistantLight): no ray can
 *     hit them, so only next-event estimation finds them.
 *   light entry:       x = what emits, bits: a primitive's index, RS_LIGHT_POINT_BIT | index
 *                          for point_lights[index] (directional lights too), or
 *                          RS_LIGHT_ENVIRONMENT for the sky
 *                      y = area (0 for point, spot and environment lights)
 *                      z = emitted power (luminance; what selection weighs by), w = bits: the
 *                          instance + 1 of an object's emitter (one entry per instance), else 0
 *     the scene's light table (one entry per emitter: src/host/scene/lights.c); how NEE picks
 *     among them is light_select.h's business and has arrays of its own. The lights at
 *     infinity (directional lights, then the environment) are the table's last entries, from
 *     RsSceneView.infinite_first on.
 * Acceleration structures have their own arrays (accel.h); the scene's primitives stay in the
 * order the scene listed them, which is what hits, lights and shading refer to.
 */
#ifndef RS_KERNEL_SCENE_DATA_H
#define RS_KERNEL_SCENE_DATA_H

#include "kernel/util/vecmath.h"

enum { RS_PRIM_TRIANGLE = 0, RS_PRIM_SPHERE = 1 };

enum {
    RS_MAT_DIFFUSE = 0,
    RS_MAT_MIRROR = 1,
    RS_MAT_DIELECTRIC = 2,
    RS_MAT_CONDUCTOR = 3,
    RS_MAT_PLASTIC = 4,
    RS_MAT_THIN_DIELECTRIC = 5, /* a thin pane: reflects or passes light straight through (thin_dielectric.h) */
    RS_MAT_TYPE_MASK = 0xff,
    /* emission leaves both faces; otherwise only the front (geometric normal) side emits */
    RS_MAT_TWO_SIDED = 0x100
};

/* Flags in RsMaterial.f.w, above the roughness channel's two bits. */
enum { RS_MAT_ROUGHNESS_CHANNEL = 3, RS_MAT_ALPHA_BLEND = 0x100, RS_MAT_UV_TRANSFORM = 0x200 };

enum { RS_ENV_CONSTANT = 0, RS_ENV_SKY = 1, RS_ENV_MAP = 2 };

enum { RS_POINT_LIGHT_POINT = 0, RS_POINT_LIGHT_SPOT = 1, RS_POINT_LIGHT_DIRECTIONAL = 2 };

#define RS_LIGHT_ENVIRONMENT 0xffffffffu
#define RS_LIGHT_POINT_BIT 0x80000000u /* scenes hold fewer than 2^31 primitives (scene.c) */
#define RS_NO_HIT 0xffffffffu
#define RS_NO_LIGHT 0xffffffffu /* a primitive that does not emit; a scene without an environment light */

typedef struct RsPrim {
    RsFloat4 a, b, c;
} RsPrim;

typedef struct RsMaterial {
    RsFloat4 a, b, c, d, e, f, g, h;
} RsMaterial;

enum { RS_SHADING_NORMALS = 1, RS_SHADING_UVS = 2 };

typedef struct RsShading {
    RsFloat4 a, b, c, d;
} RsShading;

typedef struct RsPointLight {
    RsFloat4 a, b, c;
} RsPointLight;

RS_STATIC_ASSERT(sizeof(RsPrim) == 48, "RsPrim is three 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsPointLight) == 48, "RsPointLight is three 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsShading) == 64, "RsShading is four 16-byte blocks");
RS_STATIC_ASSERT(sizeof(RsMaterial) == 128, "RsMaterial is eight 16-byte blocks");

/* RS_ENV_MAP keeps its image in the scene view (RsEnvMapView, env_map.h); here zenith.xyz is
 * the scale its texels are multiplied by and horizon.xy the cosine and sine of its rotation
 * about +y (counter-clockwise seen from above). */
typedef struct RsEnvironment {
    RsFloat4 zenith;  /* rgb | type bits (RS_ENV_*); the constant colour for RS_ENV_CONSTANT */
    RsFloat4 horizon; /* rgb | unused */
    RsFloat4 ground;  /* rgb | unused */
} RsEnvironment;

/* Texture coordinates of a shading entry with RS_SHADING_UVS at barycentrics (b1, b2). */
RS_FN void rs_shading_uv(const RsShading* s, float b1, float b2, float* u, float* v)
{
    float b0 = 1.0f - b1 - b2;
    *u = b0 * s->a.w + b1 * s->b.w + b2 * s->c.w;
    *v = b0 * s->d.x + b1 * s->d.y + b2 * s->d.z;
}

RS_FN uint32_t rs_prim_type(const RsPrim* p) { return rs_float_as_uint(p->c.w); }
RS_FN uint32_t rs_prim_material(const RsPrim* p) { return rs_float_as_uint(p->a.w); }
RS_FN uint32_t rs_prim_light(const RsPrim* p) { return rs_float_as_uint(p->b.w); }

RS_FN uint32_t rs_light_emitter(RsFloat4 light) { return rs_float_as_uint(light.x); }
RS_FN float rs_light_area(RsFloat4 light) { return light.y; }
RS_FN float rs_light_power(RsFloat4 light) { return light.z; }

RS_FN uint32_t rs_material_type(const RsMaterial* m) { return rs_float_as_uint(m->a.w) & RS_MAT_TYPE_MASK; }
RS_FN int rs_material_two_sided(const RsMaterial* m) { return (rs_float_as_uint(m->a.w) & RS_MAT_TWO_SIDED) != 0; }
RS_FN RsVec3 rs_material_albedo(const RsMaterial* m) { return rs_xyz(m->a); }
RS_FN RsVec3 rs_material_emission(const RsMaterial* m) { return rs_xyz(m->b); }
RS_FN float rs_material_ior(const RsMaterial* m) { return m->b.w; }
RS_FN RsVec3 rs_material_eta(const RsMaterial* m) { return rs_xyz(m->c); }
RS_FN RsVec3 rs_material_k(const RsMaterial* m) { return rs_xyz(m->d); }
RS_FN float rs_material_alpha_x(const RsMaterial* m) { return m->c.w; }
RS_FN float rs_material_alpha_y(const RsMaterial* m) { return m->d.w; }
RS_FN uint32_t rs_material_colour_texture(const RsMaterial* m) { return rs_float_as_uint(m->e.x); }
RS_FN uint32_t rs_material_emission_texture(const RsMaterial* m) { return rs_float_as_uint(m->e.z); }
RS_FN uint32_t rs_material_roughness_texture(const RsMaterial* m) { return rs_float_as_uint(m->e.w); }
RS_FN uint32_t rs_material_roughness_channel(const RsMaterial* m) { return rs_float_as_uint(m->f.w) & RS_MAT_ROUGHNESS_CHANNEL; }
RS_FN uint32_t rs_material_normal_map(const RsMaterial* m) { return rs_float_as_uint(m->f.x); }
RS_FN uint32_t rs_material_bump_map(const RsMaterial* m) { return rs_float_as_uint(m->f.y); }
RS_FN float rs_material_bump_scale(const RsMaterial* m) { return m->f.z; }
RS_FN uint32_t rs_material_flags(const RsMaterial* m) { return rs_float_as_uint(m->f.w); }
RS_FN float rs_material_opacity(const RsMaterial* m) { return 1.0f - m->g.w; }
RS_FN float rs_material_alpha_cutoff(const RsMaterial* m) { return m->h.w; }

/* The texture coordinates every texture of m reads at (see RsMaterial's layout). */
RS_FN void rs_material_uv(const RsMaterial* m, float* u, float* v)
{
    if (!(rs_material_flags(m) & RS_MAT_UV_TRANSFORM))
        return;
    float u0 = *u, v0 = *v;
    *u = m->g.x * u0 + m->g.y * v0 + m->g.z;
    *v = m->h.x * u0 + m->h.y * v0 + m->h.z;
}

/* The determinant of m's uv transform: how much it scales areas of texture coordinates. */
RS_FN float rs_material_uv_det(const RsMaterial* m)
{
    if (!(rs_material_flags(m) & RS_MAT_UV_TRANSFORM))
        return 1.0f;
    return m->g.x * m->h.y - m->g.y * m->h.x;
}

#endif /* RS_KERNEL_SCENE_DATA_H */
