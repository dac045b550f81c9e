/* test_gltf_import.c - what the glTF importer makes of materials, cameras and placements, read
 * back from the built scene (host suite). Host C11 (POSIX).
 *
 * Each case writes a small glTF into a temporary folder, loads it through the scene loader and
 * checks the scene's material descriptions (metal / plastic / glass, alpha modes, opacity,
 * KHR_texture_transform as a uv transform against the extension's formula, emissive strength,
 * doubleSided, glTF's default material), cameras (the node's frame, yfov, default size from
 * aspectRatio, the framing camera without one), instances (one object per reused mesh,
 * EXT_mesh_gpu_instancing) and warnings. The JSON twins of tests/data/import/gltf check the
 * renders; these check what the renders cannot show on their own.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/scene_loader.h"
#include "tests/test.h"

static char tmp[64];

/* A triangle's positions (36 bytes) and, after them, two instance translations (24 bytes). */
#define BUFFER                                                                                                         \
    "\"buffers\": [{\"byteLength\": 60, \"uri\": \"data:application/octet-stream;base64,"                          \
    "AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAgD8AAAAAAAAAAAAAAAAAAAAAAAAAQAAAAAAAAAAA\"}],"                         \
    "\"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}, {\"buffer\": 0, \"byteOffset\": 36, \"byteLength\": 24}],"  \
    "\"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\"},"                  \
    "{\"bufferView\": 1, \"componentType\": 5126, \"count\": 2, \"type\": \"VEC3\"}],"
#define PNG_2X2                                                                                                        \
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAFklEQVR4nGP4z8DQwPAfCBkY/oMAAwBB1wh5CjFDcwAA" \
    "AABJRU5ErkJggg=="

/* Loads the glTF text `body` (written as NAME.gltf); 0 on success with *s built. */
static int load(const char* name, const char* body, int32_t camera, RsScene* s, RsError* err)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s.gltf", tmp, name);
    FILE* f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (!f)
        return -1;
    fputs(body, f);
    fclose(f);
    RsSceneLoadOptions options = {NULL, camera};
    return rs_scene_load_with(path, &options, s, NULL, err);
}

static int has_warning(const RsScene* s, const char* text)
{
    for (size_t i = 0; i < s->warnings.count; ++i)
        if (strstr(s->warnings.data[i], text))
            return 1;
    return 0;
}

/* Materials 0..4 on five nodes, each placing mesh k with material k. */
static void test_materials(void)
{
    const char* body =
        "{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0, 1, 2, 3, 4, 5]}],"
        "\"extensionsUsed\": [\"KHR_texture_transform\", \"KHR_materials_emissive_strength\","
        " \"KHR_materials_transmission\", \"KHR_materials_ior\"],"
        "\"nodes\": [{\"mesh\": 0}, {\"mesh\": 1}, {\"mesh\": 2}, {\"mesh\": 3}, {\"mesh\": 4}, {\"mesh\": 5}],"
        "\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"material\": 0}]},"
        " {\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"material\": 1}]},"
        " {\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"material\": 2}]},"
        " {\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"material\": 3}]},"
        " {\"primitives\": [{\"attributes\": {\"POSITION\": 0}, \"material\": 4}]},"
        " {\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}],"
        "\"materials\": ["
        " {\"pbrMetallicRoughness\": {\"baseColorFactor\": [1, 1, 1, 0.8], \"metallicFactor\": 0,"
        "   \"baseColorTexture\": {\"index\": 0, \"extensions\": {\"KHR_texture_transform\":"
        "   {\"offset\": [0.5, 0.25], \"rotation\": 0.3, \"scale\": [2, 3]}}}},"
        "  \"alphaMode\": \"MASK\", \"alphaCutoff\": 0.3},"
        " {\"pbrMetallicRoughness\": {\"baseColorFactor\": [0.2, 0.4, 0.6, 0.5], \"metallicFactor\": 0},"
        "  \"alphaMode\": \"BLEND\", \"normalTexture\": {\"index\": 0, \"scale\": 2}},"
        " {\"pbrMetallicRoughness\": {\"baseColorFactor\": [0.9, 0.8, 0.7, 1], \"metallicFactor\": 1,"
        "   \"roughnessFactor\": 0.25}},"
        " {\"pbrMetallicRoughness\": {\"metallicFactor\": 0}, \"extensions\": {\"KHR_materials_transmission\":"
        "  {\"transmissionFactor\": 0.8}, \"KHR_materials_ior\": {\"ior\": 1.3}}},"
        " {\"pbrMetallicRoughness\": {\"metallicFactor\": 0}, \"emissiveFactor\": [1, 0.5, 0], \"doubleSided\": true,"
        "  \"extensions\": {\"KHR_materials_emissive_strength\": {\"emissiveStrength\": 5}}}],"
        "\"textures\": [{\"source\": 0, \"sampler\": 0}], \"samplers\": [{\"wrapS\": 33648}],"
        "\"images\": [{\"uri\": \"" PNG_2X2 "\"}]," BUFFER "\"extras\": {}}";
    RsScene s;
    RsError err = {{0}};
    if (load("materials", body, -1, &s, &err)) {
        CHECK(0, "materials: %s", err.message);
        return;
    }
    CHECK(s.material_descs.count == 6, "%zu materials", s.material_descs.count);
    if (s.material_descs.count == 6) {
        const RsMaterialDesc* m = s.material_descs.data;
        /* 0: MASK, cutoff, opacity from the factor's alpha, the colour texture's alpha */
        CHECK(m[0].type == RS_MAT_PLASTIC && m[0].alpha_mode == RS_ALPHA_MASK, "mask: type %u mode %u", m[0].type,
              m[0].alpha_mode);
        CHECK(fabsf(m[0].alpha_cutoff - 0.3f) < 1e-6f && fabsf(m[0].opacity - 0.8f) < 1e-6f, "cutoff %g opacity %g",
              m[0].alpha_cutoff, m[0].opacity);
        CHECK(m[0].colour_texture != RS_NO_TEXTURE && m[0].alpha_texture == m[0].colour_texture,
              "mask: colour texture %u, alpha texture %u", m[0].colour_texture, m[0].alpha_texture);
        /* the uv transform, against KHR_texture_transform's T * R * S in glTF's coordinates (v
         * down), seen from raystream's (v up) */
        double c = cos(0.3), sn = sin(0.3);
        const float* t = m[0].uv_transform;
        double uvs[3][2] = {{0, 0}, {1, 0}, {0.3, 0.7}};
        for (int i = 0; i < 3; ++i) {
            double u = uvs[i][0], v = 1.0 - uvs[i][1]; /* to glTF's */
            double gu = 2 * u, gv = 3 * v;             /* scale */
            double ru = c * gu + sn * gv, rv = -sn * gu + c * gv; /* rotation */
            double eu = ru + 0.5, ev = 1.0 - (rv + 0.25);         /* offset, back to ours */
            double au = t[0] * uvs[i][0] + t[1] * uvs[i][1] + t[2], av = t[3] * uvs[i][0] + t[4] * uvs[i][1] + t[5];
            CHECK(fabs(au - eu) < 1e-5 && fabs(av - ev) < 1e-5, "uv (%g, %g): transform gives (%g, %g), expected (%g, %g)",
                  uvs[i][0], uvs[i][1], au, av, eu, ev);
        }
        /* 1: BLEND without a texture: opacity only; the normal map's scale warned */
        CHECK(m[1].alpha_mode == RS_ALPHA_BLEND && fabsf(m[1].opacity - 0.5f) < 1e-6f &&
                  m[1].alpha_texture == RS_NO_TEXTURE, "blend: mode %u opacity %g", m[1].alpha_mode, m[1].opacity);
        CHECK(m[1].normal_map != RS_NO_TEXTURE, "normal map missing");
        CHECK(fabsf(m[1].colour.y - 0.4f) < 1e-6f, "colour %g", m[1].colour.y);
        /* 2: metal */
        CHECK(m[2].type == RS_MAT_CONDUCTOR && fabsf(m[2].roughness_u - 0.25f) < 1e-6f &&
                  fabsf(m[2].colour.x - 0.9f) < 1e-6f, "metal: type %u roughness %g", m[2].type, m[2].roughness_u);
        /* 3: glass */
        CHECK(m[3].type == RS_MAT_DIELECTRIC && fabsf(m[3].ior - 1.3f) < 1e-6f, "glass: type %u ior %g", m[3].type,
              m[3].ior);
        /* 4: emission times strength, two-sided */
        CHECK(fabsf(m[4].emission.x - 5.0f) < 1e-6f && fabsf(m[4].emission.y - 2.5f) < 1e-6f && m[4].emission.z == 0.0f &&
                  m[4].two_sided, "emission [%g, %g, %g] two-sided %d", m[4].emission.x, m[4].emission.y,
              m[4].emission.z, m[4].two_sided);
        /* 5: glTF's default material: white, metallic 1, roughness 1 */
        CHECK(m[5].type == RS_MAT_CONDUCTOR && m[5].roughness_u == 1.0f && m[5].colour.x == 1.0f,
              "default material: type %u roughness %g", m[5].type, m[5].roughness_u);
    }
    CHECK(has_warning(&s, "normalTexture: scale 2 rendered as 1"), "no warning for the normal map's scale");
    CHECK(has_warning(&s, "MIRRORED_REPEAT rendered as"), "no warning for MIRRORED_REPEAT");
    CHECK(has_warning(&s, "KHR_materials_transmission 0.8 rendered as a dielectric"), "no transmission warning");
    CHECK(!has_warning(&s, "no lights"), "an emissive material is a light: no white environment expected");
    rs_scene_free(&s);
}

static void test_cameras_and_instances(void)
{
    /* the mesh on two nodes and four GPU instances (two per node... one node instanced); a
     * camera turned 90 degrees about +Y (looking down -X) with aspectRatio 2 */
    const char* body =
        "{\"asset\": {\"version\": \"2.0\"}, \"scene\": 0, \"scenes\": [{\"nodes\": [0, 1, 2, 3]}],"
        "\"extensionsUsed\": [\"EXT_mesh_gpu_instancing\"],"
        "\"nodes\": [{\"mesh\": 0}, {\"mesh\": 0, \"translation\": [0, 0, -3]},"
        " {\"mesh\": 0, \"extensions\": {\"EXT_mesh_gpu_instancing\": {\"attributes\": {\"TRANSLATION\": 1}}}},"
        " {\"camera\": 0, \"translation\": [5, 0.5, 0], \"rotation\": [0, 0.70710678118654752, 0, 0.70710678118654752]}],"
        "\"cameras\": [{\"type\": \"perspective\", \"perspective\": {\"yfov\": 0.5, \"aspectRatio\": 2}}],"
        "\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}]," BUFFER "\"extras\": {}}";
    RsScene s;
    RsError err = {{0}};
    if (load("cameras", body, -1, &s, &err)) {
        CHECK(0, "cameras: %s", err.message);
        return;
    }
    CHECK(s.objects.count == 1 && s.instances.count == 4, "%zu objects, %zu instances (expected 1, 4)", s.objects.count,
          s.instances.count);
    RsVec3 d = rs_sub(s.camera.look_at, s.camera.eye);
    CHECK(fabsf(s.camera.eye.x - 5.0f) < 1e-6f && fabsf(s.camera.eye.y - 0.5f) < 1e-6f, "eye [%g, %g, %g]",
          s.camera.eye.x, s.camera.eye.y, s.camera.eye.z);
    CHECK(fabsf(d.x + 1.0f) < 1e-5f && fabsf(d.y) < 1e-5f && fabsf(d.z) < 1e-5f, "view direction [%g, %g, %g]", d.x, d.y,
          d.z);
    CHECK(fabsf(s.camera.up.y - 1.0f) < 1e-5f, "up [%g, %g, %g]", s.camera.up.x, s.camera.up.y, s.camera.up.z);
    CHECK(fabs(s.camera.fov_degrees - 0.5 * 180.0 / 3.14159265358979323846) < 1e-4, "fov %g", s.camera.fov_degrees);
    CHECK(s.render.width == 640 && s.render.height == 320, "size %ux%u", s.render.width, s.render.height);
    CHECK(has_warning(&s, "no lights"), "no warning about the white environment");
    rs_scene_free(&s);

    /* --camera 1 of one camera */
    CHECK(load("cameras", body, 1, &s, &err) != 0 && strstr(err.message, "--camera 1: the scene has 1 camera "
                                                                          "(numbered 0 to 0 in node order)"),
          "--camera 1: %s", err.message);

    /* no camera: the bounding sphere from +Z at 40 degrees */
    const char* bare = "{\"asset\": {\"version\": \"2.0\"}, \"scenes\": [{\"nodes\": [0]}], \"nodes\": [{\"mesh\": 0}],"
                       "\"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}]," BUFFER "\"extras\": {}}";
    RsError err2 = {{0}};
    if (load("bare", bare, -1, &s, &err2)) {
        CHECK(0, "bare: %s", err2.message);
        return;
    }
    double r = 0.5 * sqrt(2.0), dist = r / sin(20.0 * 3.14159265358979323846 / 180.0);
    CHECK(fabsf(s.camera.look_at.x - 0.5f) < 1e-6f && fabsf(s.camera.look_at.y - 0.5f) < 1e-6f &&
              fabs(s.camera.eye.z - dist) < 1e-4 && s.camera.fov_degrees == 40.0f,
          "framing camera: eye [%g, %g, %g], look_at [%g, %g, %g], fov %g", s.camera.eye.x, s.camera.eye.y,
          s.camera.eye.z, s.camera.look_at.x, s.camera.look_at.y, s.camera.look_at.z, s.camera.fov_degrees);
    CHECK(s.objects.count == 0 && s.prims.count == 1, "a mesh placed once: %zu objects, %zu primitives",
          s.objects.count, s.prims.count);
    rs_scene_free(&s);
}

int main(void)
{
    snprintf(tmp, sizeof tmp, "/tmp/raystream-test-gltf-%ld", (long)getpid());
    char cmd[128];
    snprintf(cmd, sizeof cmd, "mkdir -p %s", tmp);
    if (system(cmd) != 0)
        return 1;
    test_materials();
    test_cameras_and_instances();
    snprintf(cmd, sizeof cmd, "rm -rf %s", tmp);
    if (system(cmd) != 0)
        return 1;
    return rs_test_finish("test_gltf_import");
}
