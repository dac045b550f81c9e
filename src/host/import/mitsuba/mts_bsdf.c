/* mts_bsdf.c - Mitsuba BSDFs and textures as raystream materials. Host C11.
 *
 * Exact: diffuse, plastic (nonlinear or not: linear_plastic), pplastic (polarized_plastic; Mitsuba's
 * rgb variants have no polarization either), smooth conductor (named presets: mts_tables.c has Mitsuba's own RGB eta/k),
 * smooth dielectric (ior = int_ior / ext_ior, named IORs), thindielectric, GGX rough conductor
 * and dielectric (raystream's roughness = sqrt(alpha)), bitmap and checkerboard textures with
 * to_uv. Approximated, with a warning: the Beckmann distribution (Mitsuba's default for rough
 * conductors and plastics) as GGX of the same alpha, a textured plastic with nonlinear = false
 * (raystream's plastic is Mitsuba's nonlinear one), principled (a conductor or a plastic), normal and bump
 * maps (left out), one-sided BSDFs (Mitsuba's are black seen from behind, raystream's diffuse,
 * plastic and conductor reflect on both faces: warned once a scene). twosided needs nothing.
 * Anything else is an error naming the plugin.
 *
 * Texture coordinates: Mitsuba's v runs down the image (its OBJ reader flips v), raystream's up;
 * so raystream's (u, v) is Mitsuba's (u, 1 - v) on every shape, and to_uv T becomes
 * F T F with F(u, v) = (u, 1 - v). That turns a checkerboard's squares over, so its two colours
 * are swapped to compensate.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"
#include "host/scene/settings.h"

#define RS_MTS_MAX_BSDF_NESTING 8

static const float identity_uv[6] = {1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f};

static int read_ior(RsMts* m, RsMtsNode* obj, const char* name, double* out)
{
    RsMtsNode* c = rs_mts_child(m, obj, name);
    if (!c)
        return 0;
    const char* v = rs_mts_attr(c, "value");
    if (!v)
        return rs_mts_fail(m, c, "%s: needs a value", name);
    if (strcmp(c->tag, "string") == 0) {
        for (int i = 0; rs_mts_iors[i].name; ++i) {
            if (strcmp(rs_mts_iors[i].name, v) == 0) {
                *out = rs_mts_iors[i].ior;
                return 0;
            }
        }
        return rs_mts_fail(m, c, "%s: '%s' is not one of Mitsuba's named indices of refraction (bk7, water, air, "
                                 "diamond, ...)", name, v);
    }
    if (strcmp(c->tag, "float") != 0)
        return rs_mts_fail(m, c, "%s: expected a <float> or a named <string>", name);
    if (rs_mts_parse_number(m, c, name, v, out))
        return -1;
    if (!(*out >= RS_SCENE_MIN_IOR && *out <= RS_SCENE_MAX_IOR))
        return rs_mts_fail(m, c, "%s: must be in [%g, %g] (got %g)", name, RS_SCENE_MIN_IOR, RS_SCENE_MAX_IOR, *out);
    return 0;
}

static int read_iors(RsMts* m, RsMtsNode* n, double int_default, RsMaterialDesc* d)
{
    double in = int_default, ext = 1.000277;
    if (read_ior(m, n, "int_ior", &in) || read_ior(m, n, "ext_ior", &ext))
        return -1;
    RsMtsNode* eta = rs_mts_child(m, n, "eta");
    if (eta) {
        const char* v = rs_mts_attr(eta, "value");
        if (!v || rs_mts_parse_number(m, eta, "eta", v, &in))
            return v ? -1 : rs_mts_fail(m, eta, "eta: needs a value");
        ext = 1.0;
    }
    double ior = in / ext;
    if (!(ior >= RS_SCENE_MIN_IOR && ior <= RS_SCENE_MAX_IOR))
        return rs_mts_fail(m, n, "int_ior / ext_ior = %g is outside [%g, %g]", ior, RS_SCENE_MIN_IOR, RS_SCENE_MAX_IOR);
    d->ior = (float)ior;
    return 0;
}

static void set_uv(RsMts* m, const RsMtsNode* where, RsMaterialDesc* d, const RsTransform* t);

/* The texture element that parameter `name` of n is, or NULL (none, or not a texture). */
static RsMtsNode* texture_param(RsMts* m, RsMtsNode* n, const char* name)
{
    RsMtsNode* c = rs_mts_child(m, n, name);
    RsMtsNode* t = c ? rs_mts_deref(m, c) : NULL;
    if (c && !(t && strcmp(t->tag, "texture") == 0)) {
        c->used = 0;
        return NULL;
    }
    return t;
}

/* A checkerboard of alpha values: its two alphas and its to_uv. */
static int alpha_checker(RsMts* m, RsMtsNode* t, const char* plugin, float a[2], RsTransform* uv)
{
    const char* type = rs_mts_attr(t, "type");
    if (!type || strcmp(type, "checkerboard") != 0)
        return rs_mts_fail(m, t, "%s: a '%s' texture for alpha is not supported (a checkerboard is)", plugin,
                           type ? type : "?");
    RsVec3 c0 = rs_vec3_splat(0.4f), c1 = rs_vec3_splat(0.2f);
    if (rs_mts_get_colour(m, t, "color0", 0, &c0, NULL) || rs_mts_get_colour(m, t, "color1", 0, &c1, NULL) ||
        rs_mts_get_transform(m, t, "to_uv", uv))
        return -1;
    rs_mts_warn_unused(m, t, "checkerboard");
    a[0] = (c0.x + c0.y + c0.z) / 3.0f;
    a[1] = (c1.x + c1.y + c1.z) / 3.0f;
    if (!(a[0] >= 0.0f && a[0] <= 1.0f && a[1] >= 0.0f && a[1] <= 1.0f))
        return rs_mts_fail(m, t, "%s: alpha must be in [0, 1]", plugin);
    return 0;
}

/* A checkerboard for alpha (or the same one for alpha_u and alpha_v) as raystream's roughness
 * texture: a checkerboard of sqrt(alpha) (roughness = sqrt(alpha) as for numbers). Its colours
 * are NOT swapped as a colour checkerboard's (see the top): Mitsuba's checkerboard read as a
 * number (eval_1) puts color0 where read as a colour (eval) it puts color1, which the turned v
 * undoes (rough_checker.xml: the plate's means agree within 1.2%, swapped its squares differ by
 * tens of percent). Returns 1 if
 * there is no alpha texture. */
static int textured_roughness(RsMts* m, RsMtsNode* n, const char* plugin, RsMaterialDesc* d)
{
    RsMtsNode *t = texture_param(m, n, "alpha"), *tu = texture_param(m, n, "alpha_u"),
              *tv = texture_param(m, n, "alpha_v");
    if (!t && !tu && !tv)
        return 1;
    float a[2], b[2];
    RsTransform uv, uv_v;
    if (t && (tu || tv))
        return rs_mts_fail(m, n, "%s: give alpha or alpha_u and alpha_v, not both", plugin);
    if (!t && !(tu && tv))
        return rs_mts_fail(m, n, "%s: a texture for alpha_u needs one for alpha_v too", plugin);
    if (alpha_checker(m, t ? t : tu, plugin, a, &uv))
        return -1;
    if (!t) {
        if (alpha_checker(m, tv, plugin, b, &uv_v))
            return -1;
        if (a[0] != b[0] || a[1] != b[1] || memcmp(&uv, &uv_v, sizeof uv) != 0)
            return rs_mts_fail(m, tv, "%s: different textures for alpha_u and alpha_v (anisotropic textured "
                                      "roughness) are not supported", plugin);
    }
    int32_t index = rs_scene_add_checkerboard(m->scene, rs_vec3_splat(sqrtf(a[0])), rs_vec3_splat(sqrtf(a[1])),
                                              m->err);
    if (index < 0)
        return rs_mts_rethrow(m, t ? t : tu, "checkerboard");
    set_uv(m, t ? t : tu, d, &uv);
    rs_mts_warn(m, t ? t : tu, "%s: a checkerboard alpha is raystream's roughness texture, filtered over each pixel's "
                               "footprint (Mitsuba point-samples it: the squares' edges differ)", plugin);
    d->roughness_texture = (uint32_t)index;
    d->roughness_channel = 0;
    d->roughness_u = d->roughness_v = sqrtf(a[0] > a[1] ? a[0] : a[1]);
    return 0;
}

/* alpha (or alpha_u, alpha_v) and the distribution of a rough plugin. */
static int read_roughness(RsMts* m, RsMtsNode* n, const char* plugin, double alpha_default, RsMaterialDesc* d)
{
    double a = alpha_default, au = NAN, av = NAN;
    const char* dist = "beckmann";
    if (rs_mts_get_string(m, n, "distribution", &dist))
        return -1;
    int untextured = textured_roughness(m, n, plugin, d);
    if (untextured < 0)
        return -1;
    if (strcmp(dist, "beckmann") == 0)
        rs_mts_warn(m, n, "%s: the Beckmann distribution is rendered as GGX of the same alpha", plugin);
    else if (strcmp(dist, "ggx") != 0)
        return rs_mts_fail(m, n, "%s: distribution must be beckmann or ggx (got '%s')", plugin, dist);
    if (!untextured) {
        rs_mts_child(m, n, "sample_visible");
        return 0;
    }
    if (rs_mts_get_float(m, n, "alpha", &a) || rs_mts_get_float(m, n, "alpha_u", &au) ||
        rs_mts_get_float(m, n, "alpha_v", &av))
        return -1;
    if (isnan(au) != isnan(av))
        return rs_mts_fail(m, n, "%s: give both alpha_u and alpha_v", plugin);
    if (isnan(au))
        au = av = a;
    if (!(au >= 0.0 && au <= 1.0 && av >= 0.0 && av <= 1.0))
        return rs_mts_fail(m, n, "%s: alpha must be in [0, 1] (raystream's roughness is sqrt(alpha))", plugin);
    rs_mts_child(m, n, "sample_visible");
    d->roughness_u = (float)sqrt(au);
    d->roughness_v = (float)sqrt(av);
    return 0;
}

static void set_uv(RsMts* m, const RsMtsNode* where, RsMaterialDesc* d, const RsTransform* t)
{
    float a = t->m[0][0], b = t->m[0][1], c = t->m[0][3], dd = t->m[1][0], e = t->m[1][1], f = t->m[1][3];
    float uv[6] = {a, -b, b + c, -dd, e, 1.0f - e - f};
    if (memcmp(d->uv_transform, identity_uv, sizeof uv) != 0 && memcmp(d->uv_transform, uv, sizeof uv) != 0)
        rs_mts_warn(m, where, "to_uv: a material has one texture transform in raystream; the first one is used");
    else
        memcpy(d->uv_transform, uv, sizeof uv);
}

/* A texture element -> a texture index; its to_uv goes into d. mask: read as a cut-out mask. */
static int read_texture(RsMts* m, RsMtsNode* t, RsMaterialDesc* d, int mask, uint32_t* out)
{
    const char* type = rs_mts_attr(t, "type");
    if (!type)
        return rs_mts_fail(m, t, "texture: needs a type");
    RsTransform uv;
    if (strcmp(type, "checkerboard") == 0) {
        RsVec3 c0 = rs_vec3_splat(0.4f), c1 = rs_vec3_splat(0.2f);
        if (mask)
            return rs_mts_fail(m, t, "checkerboard: not supported as an opacity");
        if (rs_mts_get_colour(m, t, "color0", 0, &c0, NULL) || rs_mts_get_colour(m, t, "color1", 0, &c1, NULL) ||
            rs_mts_get_transform(m, t, "to_uv", &uv))
            return -1;
        int32_t index = rs_scene_add_checkerboard(m->scene, c1, c0, m->err); /* swapped: see the top */
        if (index < 0)
            return rs_mts_rethrow(m, t, "checkerboard");
        set_uv(m, t, d, &uv);
        rs_mts_warn_unused(m, t, "checkerboard");
        *out = (uint32_t)index;
        return 0;
    }
    if (strcmp(type, "bitmap") != 0)
        return rs_mts_fail(m, t, "texture '%s': not supported (raystream reads bitmap and checkerboard)", type);
    const char *filename = NULL, *filter = "bilinear", *wrap = "repeat";
    int raw = 0;
    if (rs_mts_get_string(m, t, "filename", &filename) || rs_mts_get_string(m, t, "filter_type", &filter) ||
        rs_mts_get_string(m, t, "wrap_mode", &wrap) || rs_mts_get_bool(m, t, "raw", &raw) ||
        rs_mts_get_transform(m, t, "to_uv", &uv))
        return -1;
    if (!filename)
        return rs_mts_fail(m, t, "bitmap: needs a filename (raystream cannot read inline data)");
    if (strcmp(filter, "nearest") == 0)
        rs_mts_warn(m, t, "bitmap: filter_type nearest is rendered filtered (bilinear, mipmapped)");
    uint32_t flags = raw ? 0u : RS_TEXTURE_SRGB;
    if (strcmp(wrap, "clamp") == 0)
        flags |= RS_TEXTURE_CLAMP;
    else if (strcmp(wrap, "mirror") == 0)
        rs_mts_warn(m, t, "bitmap: wrap_mode mirror is rendered as repeat");
    else if (strcmp(wrap, "repeat") != 0)
        return rs_mts_fail(m, t, "bitmap: wrap_mode must be repeat, mirror or clamp (got '%s')", wrap);
    if (mask && !raw)
        rs_mts_warn(m, t, "bitmap: an opacity is read as stored, its grey level or alpha linear (Mitsuba decodes an "
                          "8-bit image's sRGB and takes the luminance unless raw = true)");
    if (mask)
        flags = RS_TEXTURE_LOAD_MASK | (flags & RS_TEXTURE_CLAMP);
    char path[4096], where[4200];
    if (rs_mts_resolve_path(m, t, filename, path, sizeof path))
        return -1;
    snprintf(where, sizeof where, "%s:%d: bitmap", t->file, t->line);
    int32_t index = rs_texture_load(&m->scene->textures, path, flags, where, m->err);
    if (index < 0 || rs_file_list_add(m->files, path, m->err))
        return -1;
    set_uv(m, t, d, &uv);
    rs_mts_child(m, t, "format");
    rs_mts_warn_unused(m, t, "bitmap");
    *out = (uint32_t)index;
    return 0;
}

/* A colour property that may be a texture: into d->colour or d->colour_texture. */
static int read_albedo(RsMts* m, RsMtsNode* n, const char* name, RsMaterialDesc* d)
{
    RsMtsNode* tex = NULL;
    if (rs_mts_get_colour(m, n, name, 0, &d->colour, &tex))
        return -1;
    if (tex) {
        d->colour = rs_vec3_splat(1.0f);
        return read_texture(m, tex, d, 0, &d->colour_texture);
    }
    d->colour = rs_vmin(rs_vmax(d->colour, rs_vec3_splat(0.0f)), rs_vec3_splat(1.0f));
    return 0;
}

/* specular_reflectance: raystream has none on these plugins; warn unless it is white. */
static int no_specular_reflectance(RsMts* m, RsMtsNode* n, const char* plugin)
{
    RsVec3 s = rs_vec3_splat(1.0f);
    if (rs_mts_get_colour(m, n, "specular_reflectance", 0, &s, NULL))
        return -1;
    if (s.x != 1.0f || s.y != 1.0f || s.z != 1.0f)
        rs_mts_warn(m, n, "%s: specular_reflectance (%g, %g, %g) is not supported; rendered as 1", plugin, s.x, s.y,
                    s.z);
    return 0;
}

static int conductor(RsMts* m, RsMtsNode* n, const char* type, RsMaterialDesc* d)
{
    *d = rs_material_desc(RS_MAT_CONDUCTOR);
    int rough = strcmp(type, "roughconductor") == 0;
    if (rough && read_roughness(m, n, type, 0.1, d))
        return -1;
    const char* material = "none";
    if (rs_mts_get_string(m, n, "material", &material))
        return -1;
    RsVec3 eta = rs_vec3_splat(0.0f), k = rs_vec3_splat(1.0f), spec = rs_vec3_splat(1.0f);
    int found = strcmp(material, "none") == 0;
    for (int i = 0; !found && rs_mts_conductors[i].name; ++i) {
        if (strcmp(rs_mts_conductors[i].name, material) == 0) {
            const RsMtsConductor* c = &rs_mts_conductors[i];
            eta = rs_vec3(c->eta[0], c->eta[1], c->eta[2]);
            k = rs_vec3(c->k[0], c->k[1], c->k[2]);
            found = 1;
        }
    }
    if (!found)
        return rs_mts_fail(m, n, "%s: material '%s' is not one of Mitsuba's conductors (Au, Ag, Al, Cu, Cr, ...)",
                           type, material);
    RsMtsNode* e = rs_mts_child(m, n, "eta");
    if (e) {
        e->used = 0;
        if (rs_mts_get_colour(m, n, "eta", 1, &eta, NULL) || rs_mts_get_colour(m, n, "k", 1, &k, NULL))
            return -1;
    }
    if (rs_mts_get_colour(m, n, "specular_reflectance", 0, &spec, NULL))
        return -1;
    d->has_eta_k = 1;
    d->eta = eta;
    d->k = k;
    int white = spec.x == 1.0f && spec.y == 1.0f && spec.z == 1.0f;
    if (!white && !e && strcmp(material, "none") == 0 && !rough) {
        *d = rs_material_desc(RS_MAT_MIRROR);
        d->colour = rs_vmin(rs_vmax(spec, rs_vec3_splat(0.0f)), rs_vec3_splat(1.0f));
    } else if (!white) {
        rs_mts_warn(m, n, "%s: specular_reflectance (%g, %g, %g) is not supported with an eta/k; rendered as 1",
                    type, spec.x, spec.y, spec.z);
    }
    if (!(rs_max_abs_component(eta) <= 100.0f && rs_max_abs_component(k) <= 100.0f))
        return rs_mts_fail(m, n, "%s: eta and k must be within 100", type);
    return 0;
}

static int build(RsMts* m, RsMtsNode* n, RsMaterialDesc* d, int depth);

/* Mitsuba's plastic with nonlinear = false divides its base colour r by 1 - F, raystream's (and
 * Mitsuba's nonlinear one) by 1 - r F, F being the coat's internal diffuse reflectance
 * (kernel/bsdf/plastic.h). The base r' = k / (1 + k F), k = r / (1 - F), gives the same
 * r' / (1 - r' F) = r / (1 - F), so a constant base is converted exactly (r' <= r <= 1). Returns 1
 * if it cannot be (a texture). */
static int linear_plastic(RsMaterialDesc* d)
{
    if (d->colour_texture != RS_NO_TEXTURE)
        return 1;
    double ior = d->ior;
    double f = 1.0 - (1.0 - rs_fresnel_diffuse_reflectance(d->ior)) / (ior * ior);
    float* c[3] = {&d->colour.x, &d->colour.y, &d->colour.z};
    for (int i = 0; i < 3; ++i) {
        double k = *c[i] / (1.0 - f);
        *c[i] = (float)(k / (1.0 + k * f));
    }
    return 0;
}

/* Mitsuba's pplastic adds a microfacet reflection to a Lambertian base seen through two smooth
 * refractions, r (1 - F(cos_i)) (1 - F(cos_o)) / pi, without raystream's (and Mitsuba's nonlinear
 * plastic's) 1 / (eta^2 (1 - r F)) for the light kept inside the coat (F: its internal diffuse
 * reflectance, as in linear_plastic). The base r' = r eta^2 / (1 + r eta^2 F) gives
 * r' / (eta^2 (1 - r' F)) = r, the same diffuse lobe; r' <= 1 since r (1 - F_outside) <= 1.
 * Returns 1 if it cannot be converted (a texture). */
static int polarized_plastic(RsMaterialDesc* d)
{
    if (d->colour_texture != RS_NO_TEXTURE)
        return 1;
    double ior = d->ior, e2 = ior * ior;
    double f = 1.0 - (1.0 - rs_fresnel_diffuse_reflectance(d->ior)) / e2;
    float* c[3] = {&d->colour.x, &d->colour.y, &d->colour.z};
    for (int i = 0; i < 3; ++i)
        *c[i] = (float)(*c[i] * e2 / (1.0 + *c[i] * e2 * f));
    return 0;
}

/* The single nested BSDF of a wrapper (twosided, mask, normalmap, bumpmap). */
static int nested(RsMts* m, RsMtsNode* n, const char* type, RsMaterialDesc* d, int depth)
{
    RsMtsNode* inner = NULL;
    int count = 0;
    for (uint32_t i = 0; i < n->child_count; ++i) {
        RsMtsNode* c = n->children[i];
        RsMtsNode* t = rs_mts_deref(m, c);
        if (!t)
            return -1;
        if (strcmp(t->tag, "bsdf") == 0) {
            c->used = 1;
            if (count++ == 0)
                inner = t;
        }
    }
    if (!inner)
        return rs_mts_fail(m, n, "%s: needs a nested bsdf", type);
    if (count > 1)
        rs_mts_warn(m, n, "%s: a different BSDF for the back face is not supported; both faces use the first", type);
    return build(m, inner, d, depth + 1);
}

static int build(RsMts* m, RsMtsNode* n, RsMaterialDesc* d, int depth)
{
    if (depth > RS_MTS_MAX_BSDF_NESTING)
        return rs_mts_fail(m, n, "bsdf: nested deeper than %d", RS_MTS_MAX_BSDF_NESTING);
    const char* type = rs_mts_attr(n, "type");
    if (!type)
        return rs_mts_fail(m, n, "bsdf: needs a type");
    if (strcmp(type, "diffuse") == 0) {
        *d = rs_material_desc(RS_MAT_DIFFUSE);
        d->colour = rs_vec3_splat(0.5f);
        if (read_albedo(m, n, "reflectance", d))
            return -1;
    } else if (strcmp(type, "conductor") == 0 || strcmp(type, "roughconductor") == 0) {
        if (conductor(m, n, type, d))
            return -1;
    } else if (strcmp(type, "dielectric") == 0 || strcmp(type, "roughdielectric") == 0 ||
               strcmp(type, "thindielectric") == 0) {
        *d = rs_material_desc(type[0] == 't' ? RS_MAT_THIN_DIELECTRIC : RS_MAT_DIELECTRIC);
        RsVec3 t = rs_vec3_splat(1.0f);
        if (read_iors(m, n, 1.5046, d) || (type[0] == 'r' && read_roughness(m, n, type, 0.1, d)) ||
            no_specular_reflectance(m, n, type) || rs_mts_get_colour(m, n, "specular_transmittance", 0, &t, NULL))
            return -1;
        d->colour = rs_vmin(rs_vmax(t, rs_vec3_splat(0.0f)), rs_vec3_splat(1.0f));
    } else if (strcmp(type, "pplastic") == 0) {
        RsVec3 spec = rs_vec3_splat(1.0f);
        *d = rs_material_desc(RS_MAT_PLASTIC);
        d->colour = rs_vec3_splat(0.5f);
        if (read_albedo(m, n, "diffuse_reflectance", d) || read_iors(m, n, 1.49, d) ||
            read_roughness(m, n, type, 0.1, d) || rs_mts_get_colour(m, n, "specular_reflectance", 0, &spec, NULL))
            return -1;
        if (spec.x == 0.0f && spec.y == 0.0f && spec.z == 0.0f)
            return rs_mts_fail(m, n, "pplastic: specular_reflectance 0 (the diffuse lobe alone) is not supported");
        if (spec.x != 1.0f || spec.y != 1.0f || spec.z != 1.0f)
            rs_mts_warn(m, n, "pplastic: specular_reflectance (%g, %g, %g) rendered as 1", spec.x, spec.y, spec.z);
        if (polarized_plastic(d))
            rs_mts_warn(m, n, "pplastic: a textured diffuse_reflectance is rendered as roughplastic's base (brighter "
                              "where the base is bright, darker where it is dark)");
    } else if (strcmp(type, "plastic") == 0 || strcmp(type, "roughplastic") == 0) {
        *d = rs_material_desc(RS_MAT_PLASTIC);
        d->colour = rs_vec3_splat(0.5f);
        int nonlinear = 0;
        if (read_albedo(m, n, "diffuse_reflectance", d) || read_iors(m, n, 1.49, d) ||
            (type[0] == 'r' && read_roughness(m, n, type, 0.1, d)) || no_specular_reflectance(m, n, type) ||
            rs_mts_get_bool(m, n, "nonlinear", &nonlinear))
            return -1;
        if (!nonlinear && linear_plastic(d))
            rs_mts_warn(m, n, "%s: nonlinear = false with a textured base is rendered with nonlinear = true "
                              "(raystream's plastic counts the bounces inside the coat, which saturates colours)", type);
        else if (!nonlinear && type[0] == 'r')
            rs_mts_warn(m, n, "roughplastic: nonlinear = false is matched with the smooth coat's internal "
                              "reflectance (Mitsuba uses the rough coat's)");
    } else if (strcmp(type, "twosided") == 0) {
        if (nested(m, n, type, d, depth))
            return -1;
        if (d->type == RS_MAT_DIELECTRIC || d->type == RS_MAT_THIN_DIELECTRIC)
            return rs_mts_fail(m, n, "twosided: around a dielectric is not supported");
    } else if (strcmp(type, "mask") == 0) {
        if (nested(m, n, type, d, depth))
            return -1;
        RsMtsNode* op = rs_mts_child(m, n, "opacity");
        RsMtsNode* tex = op ? rs_mts_deref(m, op) : NULL;
        if (op && !tex)
            return -1;
        d->alpha_mode = RS_ALPHA_BLEND;
        if (tex && strcmp(tex->tag, "texture") == 0) {
            if (read_texture(m, tex, d, 1, &d->alpha_texture))
                return -1;
        } else if (op) {
            RsVec3 o = rs_vec3_splat(0.5f);
            op->used = 0;
            if (rs_mts_get_colour(m, n, "opacity", 0, &o, NULL))
                return -1;
            d->opacity = rs_clampf((o.x + o.y + o.z) / 3.0f, 0.0f, 1.0f);
        } else {
            d->opacity = 0.5f;
        }
    } else if (strcmp(type, "normalmap") == 0 || strcmp(type, "bumpmap") == 0) {
        for (uint32_t i = 0; i < n->child_count; ++i)
            if (strcmp(n->children[i]->tag, "texture") == 0)
                n->children[i]->used = 1;
        rs_mts_warn(m, n, "%s: not supported; the nested BSDF is rendered without it", type);
        if (nested(m, n, type, d, depth))
            return -1;
    } else if (strcmp(type, "principled") == 0) {
        double metallic = 0.0, roughness = 0.5, spec_trans = 0.0;
        RsMaterialDesc base = rs_material_desc(RS_MAT_DIFFUSE);
        base.colour = rs_vec3_splat(0.5f);
        if (read_albedo(m, n, "base_color", &base) || rs_mts_get_float(m, n, "metallic", &metallic) ||
            rs_mts_get_float(m, n, "roughness", &roughness) || rs_mts_get_float(m, n, "spec_trans", &spec_trans))
            return -1;
        *d = rs_material_desc(metallic >= 0.5 ? RS_MAT_CONDUCTOR : RS_MAT_PLASTIC);
        d->colour = base.colour;
        d->colour_texture = base.colour_texture;
        memcpy(d->uv_transform, base.uv_transform, sizeof d->uv_transform);
        d->roughness_u = d->roughness_v = (float)rs_clampf((float)roughness, 0.0f, 1.0f);
        if (metallic < 0.5 && read_iors(m, n, 1.5, d))
            return -1;
        for (uint32_t i = 0; i < n->child_count; ++i)
            n->children[i]->used = 1;
        rs_mts_warn(m, n, "principled: rendered as a %s of its base_color (metallic %g%s); its other lobes are "
                          "left out", metallic >= 0.5 ? "conductor" : "plastic", metallic,
                    spec_trans > 0.0 ? ", spec_trans ignored" : "");
    } else {
        return rs_mts_fail(m, n, "bsdf '%s': not supported (raystream reads diffuse, conductor, roughconductor, "
                                 "dielectric, roughdielectric, thindielectric, plastic, roughplastic, pplastic, twosided, mask, "
                                 "principled)", type);
    }
    rs_mts_warn_unused(m, n, type);
    return 0;
}

int rs_mts_material_textured(const RsMts* m, uint32_t material)
{
    const RsMaterialDesc* d = &m->scene->material_descs.data[material];
    return d->colour_texture != RS_NO_TEXTURE || d->alpha_texture != RS_NO_TEXTURE ||
           d->roughness_texture != RS_NO_TEXTURE;
}

int32_t rs_mts_material(RsMts* m, RsMtsNode* bsdf, RsMtsNode* emitter)
{
    for (size_t i = 0; i < m->materials.count; ++i)
        if (m->materials.data[i].bsdf == bsdf && m->materials.data[i].emitter == emitter)
            return m->materials.data[i].index;
    RsMaterialDesc d = rs_material_desc(RS_MAT_DIFFUSE);
    d.colour = rs_vec3_splat(0.5f);
    if (bsdf && build(m, bsdf, &d, 0))
        return -1;
    const char* outer = bsdf ? rs_mts_attr(bsdf, "type") : NULL;
    if (!m->warned_one_sided && d.type != RS_MAT_DIELECTRIC && d.type != RS_MAT_THIN_DIELECTRIC &&
        !(outer && strcmp(outer, "twosided") == 0)) {
        m->warned_one_sided = 1;
        rs_mts_warn(m, bsdf ? bsdf : emitter, "%s: one-sided in Mitsuba (black seen from behind); raystream's diffuse, plastic and "
                             "conductor reflect on both faces (said once per scene)", outer ? outer : "diffuse");
    }
    const RsMtsNode* where = emitter ? emitter : bsdf;
    if (emitter) {
        RsVec3 radiance = rs_vec3_splat(1.0f);
        if (rs_mts_get_colour(m, emitter, "radiance", 1, &radiance, NULL))
            return -1;
        if (!(radiance.x >= 0.0f && radiance.y >= 0.0f && radiance.z >= 0.0f))
            return rs_mts_fail(m, emitter, "area: radiance must not be negative");
        d.emission = radiance;
        rs_mts_child(m, emitter, "sampling_weight");
        rs_mts_warn_unused(m, emitter, "area");
    }
    char name[512];
    const char* id = bsdf ? rs_mts_attr(bsdf, "id") : NULL;
    if (id && !emitter)
        snprintf(name, sizeof name, "%s", id);
    else if (where)
        snprintf(name, sizeof name, "%s%s%s:%d#%u", id ? id : "", id ? "@" : "", where->file, where->line,
                 m->unnamed++);
    else
        snprintf(name, sizeof name, "default-diffuse#%u", m->unnamed++);
    int32_t index = rs_scene_add_material_desc(m->scene, name, &d, m->err);
    if (index < 0) {
        rs_mts_rethrow(m, where, outer ? outer : "bsdf");
        return -1;
    }
    RsMtsMaterial entry = {bsdf, emitter, index};
    if (rs_array_push(&m->materials, entry, m->err))
        return -1;
    return index;
}
