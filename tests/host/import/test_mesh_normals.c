/* test_mesh_normals.c - vertex normals come through mesh import and transforms (host suite).
 * Host C11 (POSIX).
 *
 * Writes, in a temporary directory, an OBJ with vn lines, the same OBJ without them, and an
 * ASCII PLY with nx ny nz, and a scene placing them (the first with a non-uniform scale). Checks
 * that the loaded scene has a shading entry per primitive, that each normal is the file's
 * normal turned by the inverse transpose of the transform (normalized), and that a mesh without
 * normals stays flat (a zero entry). A scene without any vertex normals has no shading array.
 * With an argument (scenes/gltf.json, whose glTF pyramid tools/make_gltf.py writes): every
 * triangle of the glTF mesh arrives with normals and texture coordinates; the sides' material
 * (metallic 0, roughness 0.4, textured, a normal map) becomes a textured plastic of roughness
 * 0.4 with that normal map, the base's (metallic 1 from its metallic-roughness map, gold) a
 * conductor reflecting the gold head-on whose roughness is that map's green channel. Then an
 * OBJ whose MTL names map_Kd, map_Ke, norm and (in a second material) map_bump -bm 2.5 with the
 * images of the scene's textures directory: the maps arrive as colour, emission (replacing Ke),
 * normal and bump maps with their scale.
 */
#define _XOPEN_SOURCE 700
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host/import/json/scene_json.h"
#include "kernel/bsdf/fresnel.h"
#include "tests/test.h"

static void write_text(const char* dir, const char* name, const char* text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE* f = fopen(path, "w");
    CHECK(f != NULL, "cannot write %s", path);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static const char* obj_with_normals = "v 0 0 0\nv 1 0 0\nv 0 1 0\n"
                                      "vn 0.70710678 0 0.70710678\nvn 0 0 1\nvn 0 0.70710678 0.70710678\n"
                                      "f 1//1 2//2 3//3\n";
static const char* obj_flat = "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n";
static const char* ply_with_normals = "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                                      "property float z\nproperty float nx\nproperty float ny\nproperty float nz\n"
                                      "element face 1\nproperty list uchar int vertex_indices\nend_header\n"
                                      "0 0 0 0 0 1\n1 0 0 0 0 1\n0 1 0 0.6 0 0.8\n3 0 1 2\n";

static RsVec3 normal_of(const RsScene* s, size_t prim, int vertex)
{
    const RsShading* e = &s->shading.data[prim];
    return rs_xyz(vertex == 0 ? e->a : vertex == 1 ? e->b : e->c);
}

static void check_normal(RsVec3 got, RsVec3 want, const char* what)
{
    want = rs_normalize(want);
    CHECK(rs_length(rs_sub(got, want)) < 1e-5f, "%s: (%g, %g, %g), expected (%g, %g, %g)", what, got.x, got.y, got.z,
          want.x, want.y, want.z);
}

static int load(const char* dir, const char* scene_text, RsScene* s)
{
    write_text(dir, "scene.json", scene_text);
    char path[512];
    snprintf(path, sizeof path, "%s/scene.json", dir);
    RsError err = {{0}};
    int status = rs_scene_load_json(path, NULL, s, &err);
    CHECK(status == 0, "%s", err.message);
    return status;
}

static void test_gltf(const char* scene_path)
{
    RsScene s;
    RsError err = {{0}};
    if (rs_scene_load_json(scene_path, NULL, &s, &err)) {
        CHECK(0, "%s", err.message);
        return;
    }
    CHECK(s.prims.count == 2 + 6 && s.shading.count == s.prims.count, "%zu primitives, %zu shading entries",
          s.prims.count, s.shading.count);
    int sides = 0, bases = 0;
    for (size_t i = 2; i < s.shading.count; ++i) {
        uint32_t flags = rs_float_as_uint(s.shading.data[i].d.w);
        CHECK(flags == (RS_SHADING_NORMALS | RS_SHADING_UVS), "pyramid triangle %zu has flags %u", i - 2, flags);
        const RsMaterial* m = &s.materials.data[rs_prim_material(&s.prims.data[i])];
        if (rs_material_type(m) == RS_MAT_PLASTIC) {
            ++sides;
            CHECK(rs_material_colour_texture(m) == 0, "a side's material has no texture");
            CHECK(rs_material_normal_map(m) != RS_NO_TEXTURE, "a side's material has no normal map");
            CHECK_NEAR(rs_material_alpha_x(m), 0.4 * 0.4, 1e-6);
        } else if (rs_material_type(m) == RS_MAT_CONDUCTOR) {
            ++bases;
            CHECK(rs_material_roughness_texture(m) != RS_NO_TEXTURE && rs_material_roughness_channel(m) == 1,
                  "the base's roughness is not the green channel of its metallic-roughness map");
            RsVec3 f = rs_fresnel_conductor(1.0f, rs_material_eta(m), rs_material_k(m));
            CHECK(fabsf(f.x - 1.0f) < 1e-3f && fabsf(f.y - 0.766f) < 1e-3f && fabsf(f.z - 0.336f) < 1e-3f,
                  "the gold base reflects (%g, %g, %g) head-on", f.x, f.y, f.z);
        }
    }
    CHECK(sides == 4 && bases == 2, "%d plastic sides and %d conductor base triangles", sides, bases);
    CHECK(s.textures.descriptors.count == 3 && s.textures.descriptors.data[0].y == 64, "%zu textures",
          s.textures.descriptors.count);
    rs_scene_free(&s);
}

/* An OBJ whose MTL uses every map raystream reads, the images from `textures` (absolute). */
static void test_mtl_maps(const char* dir, const char* textures)
{
    char mtl[4096], scene[1024], path[600];
    snprintf(mtl, sizeof mtl,
             "newmtl painted\nKd 0.5 0.5 0.5\nKe 0 0 0\nmap_Kd %s/checker.png\nmap_Ke %s/marble.png\n"
             "norm %s/bumps_normal.png\n\nnewmtl bumpy\nKd 0.7 0.7 0.7\nmap_bump -bm 2.5 %s/bumps_height.png\n",
             textures, textures, textures, textures);
    write_text(dir, "maps.mtl", mtl);
    write_text(dir, "maps.obj",
               "mtllib maps.mtl\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nvt 0 0\nvt 1 0\nvt 0 1\nvt 1 1\n"
               "usemtl painted\nf 1/1 2/2 3/3\nusemtl bumpy\nf 2/2 4/4 3/3\n");
    snprintf(scene, sizeof scene,
             "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 4], \"look_at\": [0, 0, 0]}, \"materials\": [], "
             "\"shapes\": [{\"type\": \"mesh\", \"file\": \"maps.obj\"}]}");
    write_text(dir, "maps.json", scene);
    snprintf(path, sizeof path, "%s/maps.json", dir);
    RsScene s;
    RsError err = {{0}};
    if (rs_scene_load_json(path, NULL, &s, &err)) {
        CHECK(0, "%s", err.message);
        return;
    }
    CHECK(s.prims.count == 2, "%zu primitives", s.prims.count);
    for (size_t i = 0; i < s.prims.count && s.prims.count == 2; ++i) {
        const RsMaterial* m = &s.materials.data[rs_prim_material(&s.prims.data[i])];
        if (i == 0) {
            CHECK(rs_material_colour_texture(m) != RS_NO_TEXTURE, "map_Kd is not the colour texture");
            CHECK(rs_material_emission_texture(m) != RS_NO_TEXTURE, "map_Ke is not the emission texture");
            CHECK(rs_material_emission(m).x == 1.0f, "map_Ke does not replace Ke (emission %g)",
                  rs_material_emission(m).x);
            CHECK(rs_material_normal_map(m) != RS_NO_TEXTURE && rs_material_bump_map(m) == RS_NO_TEXTURE,
                  "norm is not the normal map");
        } else {
            CHECK(rs_material_bump_map(m) != RS_NO_TEXTURE && rs_material_normal_map(m) == RS_NO_TEXTURE,
                  "map_bump is not the bump map");
            CHECK_NEAR(rs_material_bump_scale(m), 2.5, 1e-6);
            CHECK(rs_material_emission_texture(m) == RS_NO_TEXTURE, "a material without map_Ke emits a texture");
        }
    }
    rs_scene_free(&s);
}

int main(int argc, char** argv)
{
    if (argc > 1)
        test_gltf(argv[1]);
    char dir[] = "/tmp/raystream-normals-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp failed");
    write_text(dir, "smooth.obj", obj_with_normals);
    write_text(dir, "flat.obj", obj_flat);
    write_text(dir, "smooth.ply", ply_with_normals);
    const char* head = "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 5], \"look_at\": [0, 0, 0], \"fov\": 40, "
                       "\"resolution\": [8, 8]}, \"environment\": {\"type\": \"constant\", \"color\": [1, 1, 1]}, "
                       "\"materials\": [{\"name\": \"w\", \"type\": \"diffuse\", \"albedo\": [0.5, 0.5, 0.5]}], ";
    char text[2048];
    snprintf(text, sizeof text,
             "%s\"shapes\": [{\"type\": \"mesh\", \"file\": \"smooth.obj\", \"material\": \"w\", "
             "\"transform\": {\"scale\": [2, 1, 1]}}, {\"type\": \"mesh\", \"file\": \"flat.obj\", \"material\": \"w\"}, "
             "{\"type\": \"mesh\", \"file\": \"smooth.ply\", \"material\": \"w\"}]}",
             head);
    RsScene s;
    if (load(dir, text, &s) == 0) {
        CHECK(s.prims.count == 3 && s.shading.count == 3, "%zu primitives, %zu shading entries", s.prims.count,
              s.shading.count);
        if (s.shading.count == 3) {
            /* scale (2, 1, 1): normals scale by (1/2, 1, 1), as the cofactor (1, 2, 2) does */
            check_normal(normal_of(&s, 0, 0), rs_vec3(0.5f, 0.0f, 1.0f), "OBJ vertex 1 under scale");
            check_normal(normal_of(&s, 0, 1), rs_vec3(0.0f, 0.0f, 1.0f), "OBJ vertex 2 under scale");
            check_normal(normal_of(&s, 0, 2), rs_vec3(0.0f, 1.0f, 1.0f), "OBJ vertex 3 under scale");
            CHECK(rs_is_black(normal_of(&s, 1, 0)), "the OBJ without vn got normals");
            check_normal(normal_of(&s, 2, 2), rs_vec3(0.6f, 0.0f, 0.8f), "PLY vertex 3");
        }
        rs_scene_free(&s);
    }
    snprintf(text, sizeof text, "%s\"shapes\": [{\"type\": \"mesh\", \"file\": \"flat.obj\", \"material\": \"w\"}]}",
             head);
    if (load(dir, text, &s) == 0) {
        CHECK(s.shading.count == 0, "a scene without vertex normals has %zu shading entries", s.shading.count);
        rs_scene_free(&s);
    }
    if (argc > 1) { /* the scene's textures directory, next to scenes/gltf.json */
        char scenes[4096], textures[4200];
        if (realpath(argv[1], scenes)) {
            char* slash = strrchr(scenes, '/');
            if (slash)
                *slash = '\0';
            snprintf(textures, sizeof textures, "%s/textures", scenes);
            test_mtl_maps(dir, textures);
        } else {
            CHECK(0, "cannot resolve %s", argv[1]);
        }
    }
    const char* names[] = {"smooth.obj", "flat.obj", "smooth.ply", "scene.json", "maps.obj", "maps.mtl", "maps.json"};
    for (int i = 0; i < 7; ++i) {
        char path[512];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        unlink(path);
    }
    rmdir(dir);
    return rs_test_finish("test_mesh_normals");
}
