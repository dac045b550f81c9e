/* mts_sensor.c - Mitsuba's sensor (with its film and sampler) and integrator as raystream's
 * camera and render settings. Host C11.
 *
 * Camera: Mitsuba's sensor looks down its local +z with +y up, placed by to_world; raystream's
 * camera is eye, look_at and up, so eye = to_world(0), look_at = to_world(0, 0, 1), up = the
 * image of +y. A to_world that mirrors (negative determinant) would mirror the image, which a
 * look-at camera cannot: an error. fov is along fov_axis (x, the default; y; diagonal; smaller;
 * larger), raystream's is vertical: tan(v/2) = tan(f/2) * (H / that axis' extent).
 *
 * Depth: raystream's max_depth counts ray segments and its depth d is Mitsuba's max_depth
 * d + 1 (README, "What the numbers mean"). Mitsuba's -1 (unlimited) becomes raystream depth
 * RS_MTS_UNLIMITED_DEPTH with a warning; Mitsuba's 1 (emitters seen directly, no lighting) has
 * no raystream equivalent and becomes depth 1 (direct light) with a warning. `direct` is
 * raystream depth 1: one bounce of direct light, both strategies with MIS, as Mitsuba's.
 * `ptracer` is raystream's light tracer (`--integrator light`), its depth mapped as `path`'s.
 */
#include <math.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"
#include "host/scene/settings.h"

#define RS_MTS_UNLIMITED_DEPTH 64

static int read_film(RsMts* m, RsMtsNode* film)
{
    const char* type = rs_mts_attr(film, "type");
    if (!type || strcmp(type, "hdrfilm") != 0) {
        if (!type || strcmp(type, "specfilm") != 0)
            rs_mts_warn(m, film, "film '%s': read as an hdrfilm (its size only)", type ? type : "?");
    }
    int64_t w = 768, h = 576;
    if (rs_mts_get_int(m, film, "width", &w) || rs_mts_get_int(m, film, "height", &h))
        return -1;
    if (w < 1 || h < 1 || w > RS_SCENE_MAX_RESOLUTION || h > RS_SCENE_MAX_RESOLUTION)
        return rs_mts_fail(m, film, "film: width and height must be in [1, %d] (got %lld x %lld)",
                           RS_SCENE_MAX_RESOLUTION, (long long)w, (long long)h);
    m->scene->render.width = (uint32_t)w;
    m->scene->render.height = (uint32_t)h;
    /* what only changes the output file, not the image */
    static const char* const quiet[] = {"file_format", "pixel_format", "component_format", "banner",
                                        "high_quality_edges", "sample_border", "compensate", NULL};
    for (int i = 0; quiet[i]; ++i)
        rs_mts_child(m, film, quiet[i]);
    for (uint32_t i = 0; i < film->child_count; ++i) {
        RsMtsNode* c = film->children[i];
        if (strcmp(c->tag, "rfilter") == 0) {
            c->used = 1;
            const char* ft = rs_mts_attr(c, "type");
            if (!ft || strcmp(ft, "box") != 0)
                rs_mts_warn(m, c, "rfilter '%s': raystream reconstructs pixels with a box filter", ft ? ft : "?");
        }
    }
    rs_mts_warn_unused(m, film, "film");
    return 0;
}

static int read_sampler(RsMts* m, RsMtsNode* s)
{
    int64_t spp = 4;
    if (rs_mts_get_int(m, s, "sample_count", &spp))
        return -1;
    if (spp < 1 || spp > RS_SCENE_MAX_SPP)
        return rs_mts_fail(m, s, "sampler: sample_count must be in [1, %d] (got %lld)", RS_SCENE_MAX_SPP,
                           (long long)spp);
    m->scene->render.spp = (uint32_t)spp;
    int64_t seed = 0;
    if (rs_mts_get_int(m, s, "seed", &seed))
        return -1;
    m->scene->render.seed = (uint32_t)seed;
    rs_mts_child(m, s, "jitter");
    rs_mts_child(m, s, "scramble_seed");
    rs_mts_warn_unused(m, s, "sampler");
    return 0;
}

int rs_mts_read_sensor(RsMts* m, RsMtsNode* node)
{
    const char* type = rs_mts_attr(node, "type");
    if (m->have_sensor) {
        rs_mts_warn(m, node, "sensor: only the first sensor is rendered; this one is ignored");
        return 0;
    }
    m->have_sensor = 1;
    if (!type || (strcmp(type, "perspective") != 0 && strcmp(type, "thinlens") != 0 &&
                  strcmp(type, "orthographic") != 0))
        return rs_mts_fail(m, node, "sensor '%s': not supported (raystream reads perspective, thinlens and "
                                    "orthographic)", type ? type : "?");
    int ortho = strcmp(type, "orthographic") == 0;
    for (uint32_t i = 0; i < node->child_count; ++i) {
        RsMtsNode* c = node->children[i];
        if (strcmp(c->tag, "film") == 0) {
            c->used = 1;
            if (read_film(m, c))
                return -1;
        } else if (strcmp(c->tag, "sampler") == 0) {
            c->used = 1;
            if (read_sampler(m, c))
                return -1;
        }
    }
    RsTransform xf;
    double fov = NAN, near_clip = 0.0, far_clip = 0.0;
    const char* axis = "x";
    const char* focal = NULL;
    if (rs_mts_get_transform(m, node, "to_world", &xf) || rs_mts_get_float(m, node, "fov", &fov) ||
        rs_mts_get_string(m, node, "fov_axis", &axis) || rs_mts_get_string(m, node, "focal_length", &focal) ||
        rs_mts_get_float(m, node, "near_clip", &near_clip) || rs_mts_get_float(m, node, "far_clip", &far_clip))
        return -1;
    if (near_clip > 0.1)
        rs_mts_warn(m, node, "sensor: near_clip %g ignored (raystream has no near clipping plane)", near_clip);
    if (ortho && (!isnan(fov) || focal))
        return rs_mts_fail(m, node, "orthographic: has no fov or focal_length (its to_world's scale sizes the view)");
    if (ortho)
        fov = 90.0; /* unused; keeps the checks below simple */
    if (isnan(fov)) {
        double mm = 50.0;
        if (focal) {
            double v = 0.0;
            size_t n = strlen(focal);
            char digits[64];
            if (n < 3 || n >= sizeof digits || strcmp(focal + n - 2, "mm") != 0)
                return rs_mts_fail(m, node, "focal_length: expected a length such as \"50mm\" (got '%s')", focal);
            memcpy(digits, focal, n - 2);
            digits[n - 2] = '\0';
            if (rs_mts_parse_number(m, node, "focal_length", digits, &v))
                return -1;
            if (!(v > 0.0))
                return rs_mts_fail(m, node, "focal_length: must be > 0");
            mm = v;
        }
        /* Mitsuba: a 35 mm film's diagonal */
        fov = 2.0 * atan(sqrt(36.0 * 36.0 + 24.0 * 24.0) / (2.0 * mm)) * 180.0 / RS_PI;
        axis = "diagonal";
    }
    if (!(fov > 0.0 && fov < 180.0))
        return rs_mts_fail(m, node, "sensor: fov must be in (0, 180) degrees (got %g)", fov);
    double w = m->scene->render.width, h = m->scene->render.height, extent;
    if (strcmp(axis, "x") == 0)
        extent = w;
    else if (strcmp(axis, "y") == 0)
        extent = h;
    else if (strcmp(axis, "diagonal") == 0)
        extent = sqrt(w * w + h * h);
    else if (strcmp(axis, "smaller") == 0)
        extent = w < h ? w : h;
    else if (strcmp(axis, "larger") == 0)
        extent = w > h ? w : h;
    else
        return rs_mts_fail(m, node, "fov_axis: must be x, y, diagonal, smaller or larger (got '%s')", axis);
    double vertical = 2.0 * atan(tan(fov * RS_PI / 360.0) * h / extent) * 180.0 / RS_PI;

    xf = rs_transform_compose(&m->world, &xf);
    if (rs_mts_transform_det(&xf) < 0.0)
        return rs_mts_fail(m, node, "sensor: its to_world mirrors the image (negative determinant), which "
                                    "raystream's look-at camera cannot");
    RsCameraDesc* cam = &m->scene->camera;
    RsVec3 eye = rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 0.0f));
    RsVec3 ahead = rs_sub(rs_transform_point(&xf, rs_vec3(0.0f, 0.0f, 1.0f)), eye);
    RsVec3 up = rs_sub(rs_transform_point(&xf, rs_vec3(0.0f, 1.0f, 0.0f)), eye);
    if (!(rs_length(ahead) > 1e-12f) || !(rs_length(rs_cross(rs_normalize(ahead), up)) > 1e-6f * rs_length(up)))
        return rs_mts_fail(m, node, "sensor: its to_world is degenerate (no view direction or up)");
    cam->eye = eye;
    cam->look_at = rs_add(eye, rs_normalize(ahead));
    cam->up = rs_normalize(up);
    cam->fov_degrees = (float)vertical;
    cam->projection = RS_PROJECTION_PERSPECTIVE;
    if (ortho) {
        /* Mitsuba's orthographic view is x in [-1, 1] and y in [-h/w, h/w] before to_world */
        RsVec3 right = rs_sub(rs_transform_point(&xf, rs_vec3(1.0f, 0.0f, 0.0f)), eye);
        double sx = rs_length(right), sy = rs_length(up);
        if (!(fabs(sx - sy) <= 1e-4 * sy))
            return rs_mts_fail(m, node, "orthographic: its to_world scales x (%g) and y (%g) differently, which "
                                        "raystream's orthographic camera cannot", sx, sy);
        cam->projection = RS_PROJECTION_ORTHOGRAPHIC;
        cam->ortho_height = (float)(2.0 * sy * h / w);
    }
    if (strcmp(type, "thinlens") == 0) {
        double aperture = 0.0, focus = 0.0;
        if (rs_mts_get_float(m, node, "aperture_radius", &aperture) ||
            rs_mts_get_float(m, node, "focus_distance", &focus))
            return -1;
        if (!(aperture >= 0.0) || !(focus >= 0.0))
            return rs_mts_fail(m, node, "thinlens: aperture_radius and focus_distance must be >= 0");
        cam->aperture_radius = (float)aperture;
        cam->focus_distance = (float)focus;
    }
    if (strcmp(type, "perspective") == 0)
        rs_mts_child(m, node, "focus_distance"); /* Mitsuba's perspective ignores it too */
    rs_mts_child(m, node, "shutter_open");
    rs_mts_child(m, node, "shutter_close");
    rs_mts_child(m, node, "principal_point_offset_x");
    rs_mts_child(m, node, "principal_point_offset_y");
    rs_mts_warn_unused(m, node, type);
    return 0;
}

int rs_mts_read_integrator(RsMts* m, RsMtsNode* node)
{
    const char* type = rs_mts_attr(node, "type");
    if (!type)
        return rs_mts_fail(m, node, "integrator: needs a type");
    RsRenderDesc* rd = &m->scene->render;
    rd->integrator = RS_INTEGRATOR_PATH;
    if (strcmp(type, "moment") == 0 || strcmp(type, "aov") == 0 || strcmp(type, "stokes") == 0) {
        RsMtsNode* inner = NULL;
        for (uint32_t i = 0; i < node->child_count; ++i) {
            if (strcmp(node->children[i]->tag, "integrator") == 0 && !inner) {
                inner = node->children[i];
                inner->used = 1;
            }
        }
        if (!inner)
            return rs_mts_fail(m, node, "integrator '%s': not supported (raystream renders only radiance)", type);
        rs_mts_warn(m, node, "integrator '%s': rendered as its nested integrator (raystream writes radiance only%s)",
                    type, type[0] == 's' ? ", unpolarized: no Stokes components" : "");
        for (uint32_t i = 0; i < node->child_count; ++i)
            node->children[i]->used = 1;
        return rs_mts_read_integrator(m, inner);
    }
    if (strcmp(type, "direct") == 0) {
        rd->max_depth = 1;
        rs_mts_child(m, node, "emitter_samples");
        rs_mts_child(m, node, "bsdf_samples");
        rs_mts_child(m, node, "shading_samples");
        rs_mts_warn_unused(m, node, "direct");
        return 0;
    }
    int known = strcmp(type, "path") == 0;
    if (strcmp(type, "ptracer") == 0) {
        /* Mitsuba's particle tracer is raystream's light tracer; both count depth as the path
         * tracer does, so max_depth maps the same way. samples_per_pass only splits the work. */
        rd->integrator = RS_INTEGRATOR_LIGHT;
        rs_mts_child(m, node, "samples_per_pass");
        known = 1;
    }
    if (!known && (strcmp(type, "volpath") == 0 || strcmp(type, "volpathmis") == 0 || strcmp(type, "prb") == 0)) {
        rs_mts_warn(m, node, "integrator '%s': rendered by raystream's path tracer (without media)", type);
        known = 1;
    }
    if (!known)
        return rs_mts_fail(m, node, "integrator '%s': not supported (raystream reads path, direct and ptracer)", type);
    int64_t depth = -1;
    int hide = 0;
    if (rs_mts_get_int(m, node, "max_depth", &depth) || rs_mts_get_bool(m, node, "hide_emitters", &hide))
        return -1;
    rs_mts_child(m, node, "rr_depth");
    if (hide)
        rs_mts_warn(m, node, "integrator: hide_emitters is not supported; emitters stay visible");
    if (depth < 0) {
        rd->max_depth = RS_MTS_UNLIMITED_DEPTH;
        rs_mts_warn(m, node,
                    "integrator: max_depth %lld (unlimited) capped at raystream depth %d (Mitsuba's max_depth %d); "
                    "Russian roulette ends nearly every path before",
                    (long long)depth, RS_MTS_UNLIMITED_DEPTH, RS_MTS_UNLIMITED_DEPTH + 1);
    } else if (depth <= 1) {
        rd->max_depth = 1;
        rs_mts_warn(m, node, "integrator: max_depth %lld shows %s in Mitsuba; raystream's smallest depth adds direct "
                             "light", (long long)depth, depth == 0 ? "nothing" : "only emitters seen directly");
    } else {
        rd->max_depth = (uint32_t)(depth - 1 > RS_SCENE_MAX_DEPTH ? RS_SCENE_MAX_DEPTH : depth - 1);
    }
    rs_mts_warn_unused(m, node, type);
    return 0;
}
