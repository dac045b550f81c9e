/* pbrt_materials.c - pbrt-v4's Material and MakeNamedMaterial as raystream materials.
 * Host C11.
 *
 * diffuse, conductor, dielectric, thindielectric map exactly (up to spectra becoming RGB);
 * coateddiffuse becomes plastic, coatedconductor a conductor, diffusetransmission a diffuse
 * reflector, mix its dominant material, each with a warning; interface has no surface (its
 * shapes are skipped with a warning); the rest are refused, where a shape uses them. Roughness: pbrt-v4 turns
 * "roughness" r into the GGX alpha as sqrt(r) when remaproughness is true (its default) and
 * uses r itself otherwise; raystream's perceptual roughness p has alpha = p^2, so p = r^(1/4)
 * or sqrt(r).
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/pbrt/pbrt_context.h"
#include "host/import/pbrt/pbrt_spectra.h"
#include "host/scene/settings.h"

int rs_pbrt_find_material(const RsPbrtContext* ctx, const char* name)
{
    for (size_t i = ctx->materials.count; i-- > 0;)
        if (ctx->materials.data[i].name && strcmp(ctx->materials.data[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* A colour that may be a texture ("texture reflectance" "name"). */
static int colour_param(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, RsMaterialDesc* d, int* found)
{
    uint32_t texture = RS_NO_TEXTURE;
    float uv[6];
    RsVec3 value = d->colour;
    if (rs_pbrt_texture_param(ctx, params, name, 0, RS_TEXTURE_SRGB, &texture, uv, &value, found))
        return -1;
    if (!*found)
        return 0;
    if (texture != RS_NO_TEXTURE) {
        d->colour = rs_vec3_splat(1.0f);
        d->colour_texture = texture;
        memcpy(d->uv_transform, uv, sizeof uv);
        return 0;
    }
    if (value.x > 1.0f || value.y > 1.0f || value.z > 1.0f) {
        rs_scene_warn(ctx->scene, "%s: \"%s\" above 1 is clamped to 1", params->where, name);
        value = rs_vec3(fminf(value.x, 1.0f), fminf(value.y, 1.0f), fminf(value.z, 1.0f));
    }
    d->colour = value;
    return 0;
}

static int roughness(RsPbrtContext* ctx, RsPbrtParams* params, RsMaterialDesc* d)
{
    double r = 0.0, u = -1.0, v = -1.0;
    int remap = 1;
    RsPbrtParam* p = rs_pbrt_param(params, "roughness");
    if (p && strcmp(p->type, "texture") == 0)
        return rs_pbrt_param_fail(params, p, ctx->err, "a roughness texture is not supported");
    if (p)
        p->used = 0;
    if (rs_pbrt_get_float(params, "roughness", &r, ctx->err) || rs_pbrt_get_float(params, "uroughness", &u, ctx->err) ||
        rs_pbrt_get_float(params, "vroughness", &v, ctx->err) ||
        rs_pbrt_get_bool(params, "remaproughness", &remap, ctx->err))
        return -1;
    if (u < 0.0)
        u = r;
    if (v < 0.0)
        v = r;
    if (u < 0.0 || v < 0.0)
        return rs_pbrt_fail(params, ctx->err, "roughness must be >= 0");
    double pu = remap ? pow(u, 0.25) : sqrt(u), pv = remap ? pow(v, 0.25) : sqrt(v);
    if (pu > 1.0 || pv > 1.0)
        rs_scene_warn(ctx->scene, "%s: roughness beyond raystream's range (GGX alpha 1) is clamped", params->where);
    d->roughness_u = (float)fmin(pu, 1.0);
    d->roughness_v = (float)fmin(pv, 1.0);
    return 0;
}

/* "eta" of a dielectric: a number or a named glass (its index at the d line). */
static int dielectric_eta(RsPbrtContext* ctx, RsPbrtParams* params, RsMaterialDesc* d)
{
    RsPbrtParam* p = rs_pbrt_param(params, "eta");
    if (!p)
        return 0;
    double eta = 0.0;
    if ((strcmp(p->type, "float") == 0 || strcmp(p->type, "integer") == 0) && p->number_count == 1) {
        eta = p->numbers[0];
    } else if (strcmp(p->type, "spectrum") == 0 && p->string_count == 1 && strncmp(p->strings[0], "glass-", 6) == 0) {
        eta = rs_pbrt_glass_ior(p->strings[0]);
        if (eta == 0.0)
            return rs_pbrt_param_fail(params, p, ctx->err,
                                      "\"%s\": not a glass raystream knows (glass-BK7, glass-BAF10, glass-FK51A, "
                                      "glass-LASF9, glass-F5, glass-F10, glass-F11)",
                                      p->strings[0]);
        rs_scene_warn(ctx->scene, "%s: \"%s\" is rendered without dispersion, with its index %g at 587.6 nm",
                      params->where, p->strings[0], eta);
    } else if (strcmp(p->type, "spectrum") == 0) {
        /* inline or from a file: the index at 550 nm, piecewise linear between the samples */
        size_t count = 0;
        double* s = rs_pbrt_spectrum_pairs(params, p, &count, ctx->err);
        if (!s)
            return -1;
        size_t n = count / 2;
        eta = 550.0 <= s[0] ? s[1] : s[2 * n - 1];
        for (size_t i = 0; i + 1 < n; ++i)
            if (550.0 >= s[2 * i] && 550.0 <= s[2 * i + 2])
                eta = s[2 * i + 1] + (s[2 * i + 3] - s[2 * i + 1]) * (550.0 - s[2 * i]) / (s[2 * i + 2] - s[2 * i]);
        free(s);
        rs_scene_warn(ctx->scene, "%s: a spectral eta is rendered without dispersion, with its index %g at 550 nm",
                      params->where, eta);
    } else {
        return rs_pbrt_param_fail(params, p, ctx->err, "must be a float or a named glass spectrum");
    }
    if (!(eta >= RS_SCENE_MIN_IOR && eta <= RS_SCENE_MAX_IOR))
        return rs_pbrt_param_fail(params, p, ctx->err, "must be in [%g, %g] (got %g)", RS_SCENE_MIN_IOR,
                                  RS_SCENE_MAX_IOR, eta);
    d->ior = (float)eta;
    return 0;
}

/* A conductor's eta or k: "metal-Au-eta" and the like, rgb, or an inline spectrum. *metal gets
 * the metal's name when named. */
static int conductor_part(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, RsVec3* out, char* metal,
                          int* found)
{
    *found = 0;
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (!p)
        return 0;
    if (strcmp(p->type, "spectrum") == 0 && p->string_count == 1 && strncmp(p->strings[0], "metal-", 6) == 0) {
        const char* s = p->strings[0];
        char m[16];
        const char* suffix = strrchr(s, '-');
        size_t length = suffix ? (size_t)(suffix - s) : 0;
        RsVec3 eta, k;
        if (!suffix || length < 7 || length - 6 >= sizeof m ||
            strcmp(suffix, strcmp(name, "eta") == 0 || strstr(name, ".eta") ? "-eta" : "-k") != 0)
            return rs_pbrt_param_fail(params, p, ctx->err, "\"%s\": not a metal spectrum (metal-NAME-eta, -k)", s);
        memcpy(m, s + 6, length - 6);
        m[length - 6] = '\0';
        if (!rs_metal_index(m, &eta, &k))
            return rs_pbrt_param_fail(params, p, ctx->err, "\"%s\": raystream knows the metals %s", s,
                                      rs_metal_names());
        *out = suffix[1] == 'e' ? eta : k;
        snprintf(metal, 16, "%s", m);
        *found = 1;
        return 0;
    }
    p->used = 0;
    return rs_pbrt_get_colour(params, name, RS_PBRT_UNBOUNDED, out, found, ctx->err);
}

static int conductor(RsPbrtContext* ctx, RsPbrtParams* params, RsMaterialDesc* d, const char* prefix)
{
    char eta_name[32], k_name[32], metal_eta[16] = "", metal_k[16] = "";
    snprintf(eta_name, sizeof eta_name, "%seta", prefix);
    snprintf(k_name, sizeof k_name, "%sk", prefix);
    int found = 0, has_eta = 0, has_k = 0;
    if (colour_param(ctx, params, "reflectance", d, &found))
        return -1;
    if (found) {
        d->has_eta_k = 0;
        if (rs_pbrt_param(params, eta_name) || rs_pbrt_param(params, k_name))
            rs_scene_warn(ctx->scene, "%s: \"reflectance\" is given, so eta and k are ignored (as pbrt-v4 does)",
                          params->where);
        return 0;
    }
    RsVec3 eta, k;
    rs_metal_index("Cu", &eta, &k); /* pbrt-v4's default: metal-Cu-eta, metal-Cu-k */
    if (conductor_part(ctx, params, eta_name, &eta, metal_eta, &has_eta) ||
        conductor_part(ctx, params, k_name, &k, metal_k, &has_k))
        return -1;
    if (metal_eta[0] && metal_k[0] && strcmp(metal_eta, metal_k) != 0)
        rs_scene_warn(ctx->scene, "%s: eta of %s with k of %s", params->where, metal_eta, metal_k);
    d->has_eta_k = 1;
    d->eta = eta;
    d->k = k;
    return 0;
}

static int plain_float(RsPbrtContext* ctx, RsPbrtParams* params, const char* name, double* out)
{
    RsPbrtParam* p = rs_pbrt_param(params, name);
    if (p && strcmp(p->type, "texture") == 0)
        return rs_pbrt_param_fail(params, p, ctx->err, "a texture here is not supported");
    if (p)
        p->used = 0;
    return rs_pbrt_get_float(params, name, out, ctx->err);
}

static int build(RsPbrtContext* ctx, const char* type, RsPbrtParams* params, RsMaterialDesc* d, int* interface)
{
    int found = 0;
    *interface = 0;
    if (strcmp(type, "diffuse") == 0) {
        *d = rs_material_desc(RS_MAT_DIFFUSE);
        return colour_param(ctx, params, "reflectance", d, &found);
    }
    if (strcmp(type, "conductor") == 0) {
        *d = rs_material_desc(RS_MAT_CONDUCTOR);
        return conductor(ctx, params, d, "") || roughness(ctx, params, d);
    }
    if (strcmp(type, "coatedconductor") == 0) {
        *d = rs_material_desc(RS_MAT_CONDUCTOR);
        rs_scene_warn(ctx->scene, "%s: rendered as its conductor without the dielectric coat", params->where);
        static const char* const coat[] = {"interface.roughness", "interface.uroughness", "interface.vroughness",
                                           "interface.eta", "thickness", "albedo", "g", "maxdepth", "nsamples", NULL};
        for (int i = 0; coat[i]; ++i)
            rs_pbrt_param(params, coat[i]);
        double r = 0.0;
        int remap = 1;
        if (conductor(ctx, params, d, "conductor.") || plain_float(ctx, params, "conductor.roughness", &r) ||
            rs_pbrt_get_bool(params, "remaproughness", &remap, ctx->err))
            return -1;
        d->roughness_u = d->roughness_v = (float)fmin(remap ? pow(r, 0.25) : sqrt(r), 1.0);
        return 0;
    }
    if (strcmp(type, "dielectric") == 0 || strcmp(type, "thindielectric") == 0) {
        *d = rs_material_desc(type[0] == 'd' ? RS_MAT_DIELECTRIC : RS_MAT_THIN_DIELECTRIC);
        return dielectric_eta(ctx, params, d) || (type[0] == 'd' && roughness(ctx, params, d));
    }
    if (strcmp(type, "coateddiffuse") == 0) {
        *d = rs_material_desc(RS_MAT_PLASTIC);
        d->colour = rs_vec3_splat(0.5f);
        rs_scene_warn(ctx->scene, "%s: rendered as raystream's plastic (a diffuse base under a clear coat, no "
                                  "coat thickness or absorption)", params->where);
        static const char* const coat[] = {"thickness", "albedo", "g", "maxdepth", "nsamples", NULL};
        for (int i = 0; coat[i]; ++i)
            rs_pbrt_param(params, coat[i]);
        double eta = 1.5;
        if (colour_param(ctx, params, "reflectance", d, &found) || roughness(ctx, params, d) ||
            plain_float(ctx, params, "eta", &eta))
            return -1;
        if (!(eta >= RS_SCENE_MIN_IOR && eta <= RS_SCENE_MAX_IOR))
            return rs_pbrt_fail(params, ctx->err, "\"eta\" must be in [%g, %g] (got %g)", RS_SCENE_MIN_IOR,
                                RS_SCENE_MAX_IOR, eta);
        d->ior = (float)eta;
        return 0;
    }
    if (strcmp(type, "diffusetransmission") == 0) {
        *d = rs_material_desc(RS_MAT_DIFFUSE);
        d->colour = rs_vec3_splat(0.25f);
        rs_scene_warn(ctx->scene, "%s: rendered as diffuse reflection only (its transmission is left out)",
                      params->where);
        rs_pbrt_param(params, "transmittance");
        return colour_param(ctx, params, "reflectance", d, &found);
    }
    if (strcmp(type, "interface") == 0 || strcmp(type, "") == 0 || strcmp(type, "none") == 0) {
        *d = rs_material_desc(RS_MAT_DIFFUSE);
        *interface = 1;
        return 0;
    }
    if (strcmp(type, "mix") == 0) {
        RsPbrtParam* p = rs_pbrt_param(params, "materials");
        double amount = 0.5;
        if (!p || strcmp(p->type, "string") != 0 || p->string_count != 2)
            return rs_pbrt_fail(params, ctx->err, "needs \"string materials\" [ \"a\" \"b\" ]");
        if (plain_float(ctx, params, "amount", &amount))
            return -1;
        const char* chosen = p->strings[amount > 0.5 ? 1 : 0];
        int index = rs_pbrt_find_material(ctx, chosen);
        if (index < 0)
            return rs_pbrt_fail(params, ctx->err, "no material named \"%s\"", chosen);
        if (ctx->materials.data[index].refused)
            return rs_pbrt_fail(params, ctx->err, "\"%s\": %s", chosen, ctx->materials.data[index].refused);
        rs_scene_warn(ctx->scene, "%s: rendered as \"%s\" alone (its weight %g is the larger)", params->where, chosen,
                      amount > 0.5 ? amount : 1.0 - amount);
        *d = ctx->materials.data[index].desc;
        *interface = ctx->materials.data[index].interface;
        return 0;
    }
    return rs_pbrt_fail(params, ctx->err, "not supported (raystream reads diffuse, conductor, dielectric, "
                                          "thindielectric, coateddiffuse, coatedconductor, diffusetransmission, "
                                          "interface and mix)");
}

/* Reads the material; a feature raystream cannot render leaves it refused (its message kept
 * for the shapes that use it), since scenes often define materials they never use. Only
 * running out of memory fails here. */
static int read_material(RsPbrtContext* ctx, const char* type, RsPbrtParams* params, RsPbrtMaterial* m)
{
    if (build(ctx, type, params, &m->desc, &m->interface))
        return -1;
    const char* normal_map = NULL;
    if (rs_pbrt_get_string(params, "normalmap", &normal_map, ctx->err))
        return -1;
    if (normal_map && normal_map[0]) {
        char path[4096];
        if (rs_pbrt_resolve(rs_pbrt_lexer_file(&ctx->lexer), normal_map, path, sizeof path))
            return rs_pbrt_fail(params, ctx->err, "the normal map's name is too long");
        int32_t t = rs_texture_load(&ctx->scene->textures, path, 0, params->where, ctx->err);
        if (t < 0 || rs_file_list_add(ctx->files, path, ctx->err))
            return -1;
        m->desc.normal_map = (uint32_t)t;
    }
    return 0;
}

int rs_pbrt_material(RsPbrtContext* ctx, const char* name, const char* type, RsPbrtParams* params)
{
    RsPbrtMaterial m;
    memset(&m, 0, sizeof m);
    RsError* outer = ctx->err;
    RsError local = {{0}};
    ctx->err = &local;
    if (read_material(ctx, type, params, &m)) {
        m.refused = strdup(local.message);
        if (!m.refused) {
            ctx->err = outer;
            return rs_pbrt_fail(params, ctx->err, "out of memory");
        }
        for (size_t i = 0; i < params->count; ++i)
            params->items[i].used = 1; /* the refusal names what matters */
    }
    ctx->err = outer;
    char label[600];
    if (name)
        snprintf(label, sizeof label, "%s", name);
    else
        snprintf(label, sizeof label, "%s#%zu", params->where, ctx->materials.count);
    if (name && rs_pbrt_find_material(ctx, name) >= 0) {
        rs_scene_warn(ctx->scene, "%s: redefines the material \"%s\"; later shapes get the new one", params->where,
                      name);
        snprintf(label, sizeof label, "%s#%zu", name, ctx->materials.count);
    }
    m.name = name ? strdup(name) : NULL;
    m.label = strdup(label);
    if ((name && !m.name) || !m.label || rs_array_push(&ctx->materials, m, ctx->err)) {
        free(m.name);
        free(m.label);
        free(m.refused);
        return rs_pbrt_fail(params, ctx->err, "out of memory");
    }
    if (!name)
        ctx->gs.material = (int32_t)(ctx->materials.count - 1);
    return 0;
}
