/* test_json_features.c - the scene keys of format version 2's features land in the in-memory
 * scene as scenes/README.md says (host suite). Host C11. (Bad values are the bad_scene_* tests.)
 *
 * One scene with an orthographic camera, a directional light, a thin dielectric with a
 * checkerboard tint, a material with uv_transform, alpha_mode blend and opacity, one with a mask
 * cutoff, and a checkerboard emission with a scale; checked field by field in the kernel blocks.
 */
#define _DEFAULT_SOURCE /* mkstemps */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "host/import/scene_loader.h"
#include "tests/test.h"

static const char* scene_text =
    "{\"version\": 2,\n"
    " \"camera\": {\"eye\": [0, 1, 4], \"look_at\": [0, 1, 0], \"projection\": \"orthographic\", \"ortho_height\": 3},\n"
    " \"materials\": [\n"
    "  {\"name\": \"pane\", \"type\": \"thin_dielectric\", \"ior\": 1.7,\n"
    "   \"color\": {\"checkerboard\": [[1, 0.5, 0.25], [0, 0.1, 0.2]]}},\n"
    "  {\"name\": \"leaf\", \"type\": \"diffuse\", \"albedo\": [0.2, 0.6, 0.2], \"uv_transform\": [2, 0, 0.5, 0, 3, 0.25],\n"
    "   \"alpha_mode\": \"blend\", \"opacity\": 0.4},\n"
    "  {\"name\": \"fence\", \"type\": \"plastic\", \"color\": [0.5, 0.5, 0.5], \"alpha_cutoff\": 0.3, \"opacity\": 0.9},\n"
    "  {\"name\": \"sign\", \"type\": \"emissive\", \"emission\": {\"checkerboard\": [[1, 1, 1], [0, 0, 0]], \"scale\": 5}}],\n"
    " \"shapes\": [{\"type\": \"sphere\", \"center\": [0, 1, 0], \"radius\": 1, \"material\": \"pane\"},\n"
    "  {\"type\": \"sphere\", \"center\": [3, 1, 0], \"radius\": 1, \"material\": \"leaf\"},\n"
    "  {\"type\": \"sphere\", \"center\": [6, 1, 0], \"radius\": 1, \"material\": \"fence\"},\n"
    "  {\"type\": \"sphere\", \"center\": [9, 1, 0], \"radius\": 1, \"material\": \"sign\"}],\n"
    " \"lights\": [{\"type\": \"directional\", \"direction\": [0, -2, 0], \"irradiance\": [1, 2, 3]}]}\n";

int main(void)
{
    char path[] = "/tmp/test_json_features_XXXXXX.json";
    int fd = mkstemps(path, 5);
    CHECK(fd >= 0, "cannot make a temporary file");
    FILE* f = fdopen(fd, "w");
    fputs(scene_text, f);
    fclose(f);
    RsError err = {{0}};
    RsScene s;
    int status = rs_scene_load(path, NULL, &s, NULL, &err);
    unlink(path);
    CHECK(status == 0, "%s", err.message);
    if (status)
        return rs_test_finish("test_json_features");
    CHECK(s.camera.projection == RS_PROJECTION_ORTHOGRAPHIC && s.camera.ortho_height == 3.0f, "camera: projection %u, "
          "height %g", s.camera.projection, s.camera.ortho_height);
    CHECK(s.point_lights.count == 1, "%zu lights without a surface", s.point_lights.count);
    const RsPointLight* l = &s.point_lights.data[0];
    CHECK(rs_float_as_uint(l->a.w) == RS_POINT_LIGHT_DIRECTIONAL && l->a.y == -1.0f && l->b.z == 3.0f,
          "the directional light: type %u, direction y %g, irradiance b %g", rs_float_as_uint(l->a.w), l->a.y, l->b.z);
    const RsMaterial* pane = &s.materials.data[rs_scene_find_material(&s, "pane")];
    CHECK(rs_material_type(pane) == RS_MAT_THIN_DIELECTRIC && rs_material_ior(pane) == 1.7f, "pane: type %u, ior %g",
          rs_material_type(pane), rs_material_ior(pane));
    uint32_t board = rs_material_colour_texture(pane);
    CHECK(board != RS_NO_TEXTURE && (rs_texture_flags(s.textures.descriptors.data[board]) & RS_TEXTURE_CHECKER),
          "pane: its tint must be a checkerboard");
    const RsMaterial* leaf = &s.materials.data[rs_scene_find_material(&s, "leaf")];
    float u = 0.1f, v = 0.2f;
    rs_material_uv(leaf, &u, &v);
    CHECK(fabsf(u - 0.7f) < 1e-6f && fabsf(v - 0.85f) < 1e-6f, "leaf: (0.1, 0.2) transforms to (%g, %g)", u, v);
    CHECK((rs_material_flags(leaf) & RS_MAT_ALPHA_BLEND) && fabsf(rs_material_opacity(leaf) - 0.4f) < 1e-6f,
          "leaf: blend with opacity 0.4 (flags %x, opacity %g)", rs_material_flags(leaf), rs_material_opacity(leaf));
    const RsMaterial* fence = &s.materials.data[rs_scene_find_material(&s, "fence")];
    CHECK(!(rs_material_flags(fence) & (RS_MAT_ALPHA_BLEND | RS_MAT_UV_TRANSFORM)) &&
          rs_material_alpha_cutoff(fence) == 0.3f && fabsf(rs_material_opacity(fence) - 0.9f) < 1e-6f,
          "fence: mask, cutoff %g, opacity %g", rs_material_alpha_cutoff(fence), rs_material_opacity(fence));
    CHECK(s.has_cutouts, "materials of opacity below 1 make cut-outs");
    const RsMaterial* sign = &s.materials.data[rs_scene_find_material(&s, "sign")];
    uint32_t glow = rs_material_emission_texture(sign);
    CHECK(glow != RS_NO_TEXTURE && (rs_texture_flags(s.textures.descriptors.data[glow]) & RS_TEXTURE_CHECKER) &&
          rs_material_emission(sign).x == 5.0f, "sign: a checkerboard emission of scale 5");
    /* the directional light, the sign's sphere (half of it glows: power by the mean) */
    CHECK(s.light_count == 2 && s.infinite_first == 1, "%u lights, infinite from %u", s.light_count, s.infinite_first);
    rs_scene_free(&s);
    return rs_test_finish("test_json_features");
}
