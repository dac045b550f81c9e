/* material.c - material descriptions to kernel material blocks (see material.h). Host C11. */
#include "host/scene/material.h"

#include <math.h>
#include <string.h>

#include "kernel/bsdf/fresnel.h"

RsMaterialDesc rs_material_desc(uint32_t type)
{
    RsMaterialDesc d;
    memset(&d, 0, sizeof d);
    d.type = type;
    d.colour = rs_vec3_splat(type == RS_MAT_DIFFUSE || type == RS_MAT_PLASTIC ? 0.5f : 1.0f);
    d.ior = 1.5f;
    d.eta = rs_vec3_splat(1.0f);
    d.colour_texture = RS_NO_TEXTURE;
    d.alpha_texture = RS_NO_TEXTURE;
    d.emission_texture = RS_NO_TEXTURE;
    d.roughness_texture = RS_NO_TEXTURE;
    d.normal_map = d.bump_map = RS_NO_TEXTURE;
    d.bump_scale = 1.0f;
    d.uv_transform[0] = d.uv_transform[4] = 1.0f;
    d.alpha_mode = RS_ALPHA_MASK;
    d.alpha_cutoff = 0.5f;
    d.opacity = 1.0f;
    return d;
}

double rs_fresnel_diffuse_reflectance(float eta)
{
    /* integral over mu = cos(theta) in [0, 1] of F(mu) 2 mu, by the composite Simpson rule;
     * F has a kink at the critical angle when eta < 1, so many intervals */
    enum { N = 20000 };
    double sum = 0.0;
    for (int i = 0; i <= N; ++i) {
        double mu = (double)i / N;
        double weight = (i == 0 || i == N) ? 1.0 : (i % 2 ? 4.0 : 2.0);
        sum += weight * rs_fresnel_dielectric((float)mu, eta) * 2.0 * mu;
    }
    return sum / (3.0 * N);
}

static float alpha_of(float roughness) { return roughness * roughness; }

RsMaterial rs_material_from_desc(const RsMaterialDesc* d)
{
    RsMaterial m;
    memset(&m, 0, sizeof m);
    m.a = rs_pack(d->colour, rs_uint_as_float(d->type | (d->two_sided ? RS_MAT_TWO_SIDED : 0u)));
    m.b = rs_pack(d->emission, d->ior);
    RsVec3 eta = rs_vec3_splat(1.0f), k = rs_vec3_splat(0.0f);
    if (d->type == RS_MAT_CONDUCTOR) {
        if (d->has_eta_k) {
            eta = d->eta;
            k = d->k;
        } else {
            k = rs_vec3(rs_conductor_k_for_reflectance(d->colour.x), rs_conductor_k_for_reflectance(d->colour.y),
                        rs_conductor_k_for_reflectance(d->colour.z));
        }
    }
    m.c = rs_pack(eta, alpha_of(d->roughness_u));
    m.d = rs_pack(k, alpha_of(d->roughness_v));
    m.e = rs_float4(rs_uint_as_float(d->colour_texture), rs_uint_as_float(d->alpha_texture),
                    rs_uint_as_float(d->emission_texture), rs_uint_as_float(d->roughness_texture));
    const float* t = d->uv_transform;
    int transformed = t[0] != 1.0f || t[1] != 0.0f || t[2] != 0.0f || t[3] != 0.0f || t[4] != 1.0f || t[5] != 0.0f;
    uint32_t flags = (d->roughness_channel & RS_MAT_ROUGHNESS_CHANNEL) |
                     (d->alpha_mode == RS_ALPHA_BLEND ? RS_MAT_ALPHA_BLEND : 0u) |
                     (transformed ? RS_MAT_UV_TRANSFORM : 0u);
    m.f = rs_float4(rs_uint_as_float(d->normal_map), rs_uint_as_float(d->bump_map), d->bump_scale,
                    rs_uint_as_float(flags));
    m.g = rs_float4(t[0], t[1], t[2], 1.0f - d->opacity);
    m.h = rs_float4(t[3], t[4], t[5], d->alpha_cutoff);
    if (d->type == RS_MAT_PLASTIC) {
        /* kernel/bsdf/plastic.h: 1 - Fdr_in = (1 - Fdr_out) / eta^2 */
        double fdr_out = rs_fresnel_diffuse_reflectance(d->ior);
        m.c.x = (float)(1.0 - (1.0 - fdr_out) / ((double)d->ior * d->ior));
        m.c.y = (float)fdr_out;
        m.c.z = 0.0f;
    }
    return m;
}

RsMaterial rs_material_make(uint32_t type, RsVec3 albedo, RsVec3 emission, float ior, int two_sided)
{
    RsMaterialDesc d = rs_material_desc(type);
    d.colour = albedo;
    d.emission = emission;
    d.ior = ior;
    d.two_sided = two_sided;
    return rs_material_from_desc(&d);
}

/* Widely used RGB approximations of the measured complex indices of these metals (red, green,
 * blue). Their normal-incidence reflectances: Ag (0.97, 0.96, 0.91), Al (0.93, 0.92, 0.92),
 * Au (0.97, 0.80, 0.32), Cu (0.95, 0.62, 0.51). For exact spectra give eta and k. */
static const struct {
    const char* name;
    float eta[3], k[3];
} metals[] = {
    {"Ag", {0.155265f, 0.116723f, 0.138342f}, {4.82835f, 3.12225f, 2.14696f}},
    {"Al", {1.65746f, 0.880369f, 0.521229f}, {9.22387f, 6.26952f, 4.837f}},
    {"Au", {0.143119f, 0.374957f, 1.44248f}, {3.98316f, 2.38572f, 1.60322f}},
    {"Cu", {0.200438f, 0.924033f, 1.10221f}, {3.91295f, 2.45285f, 2.14219f}},
};

int rs_metal_index(const char* name, RsVec3* eta, RsVec3* k)
{
    for (size_t i = 0; i < sizeof metals / sizeof metals[0]; ++i) {
        if (strcmp(name, metals[i].name) == 0) {
            *eta = rs_vec3(metals[i].eta[0], metals[i].eta[1], metals[i].eta[2]);
            *k = rs_vec3(metals[i].k[0], metals[i].k[1], metals[i].k[2]);
            return 1;
        }
    }
    return 0;
}

const char* rs_metal_names(void) { return "\"Ag\", \"Al\", \"Au\", \"Cu\""; }
