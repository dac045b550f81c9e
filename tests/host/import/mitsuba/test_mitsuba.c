/* test_mitsuba.c - the Mitsuba 3 XML importer: what it makes of the scenes in
 * tests/data/import/mitsuba/ (camera, counts, materials, instances), spectra against the values
 * Mitsuba 3.9's scalar_rgb gives, .serialized meshes written here with zlib, and bad input
 * with the expected message (missing include, include cycle, unknown plugin, bad numbers, deep
 * $ recursion, truncated serialized data, ...). Host C11 (POSIX).
 *
 *   test_mitsuba DATA_DIR   (tests/data/import/mitsuba)
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "host/import/scene_loader.h"
#include "host/scene/settings.h"
#include "tests/test.h"

static char tmp[256];
static const char* data_dir;

static const char* in_tmp(const char* name)
{
    static char path[4][512];
    static int next;
    char* p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", tmp, name);
    return p;
}

static void write_bytes(const char* name, const void* data, size_t size)
{
    FILE* f = fopen(in_tmp(name), "wb");
    CHECK(f != NULL, "cannot write %s", name);
    if (f) {
        fwrite(data, 1, size, f);
        fclose(f);
    }
}

static void write_text(const char* name, const char* text) { write_bytes(name, text, strlen(text)); }

static const char* camera =
    "<sensor type=\"perspective\"><float name=\"fov\" value=\"40\"/>"
    "<film type=\"hdrfilm\"><integer name=\"width\" value=\"8\"/><integer name=\"height\" value=\"8\"/></film>"
    "</sensor>\n";

/* A scene file of the given body (from line 4), with a camera and a light. */
static const char* scene_with(const char* name, const char* body)
{
    char text[8192];
    snprintf(text, sizeof text,
             "<scene version=\"3.0.0\">\n%s<emitter type=\"constant\"/>\n%s\n</scene>\n", camera, body);
    write_text(name, text);
    return in_tmp(name);
}

static int load(const char* path, RsScene* s, RsError* err)
{
    memset(err, 0, sizeof *err);
    return rs_scene_load(path, NULL, s, NULL, err);
}

/* Loading fails with a message that starts with the file's path and contains `part`. */
static void expect_error(const char* path, const char* part)
{
    RsScene s;
    RsError err;
    int status = load(path, &s, &err);
    CHECK(status != 0, "%s loaded; expected an error with: %s", path, part);
    if (status == 0) {
        rs_scene_free(&s);
        return;
    }
    CHECK(strstr(err.message, part) != NULL, "%s:\n  got      %s\n  expected ...%s...", path, err.message, part);
    CHECK(strstr(err.message, tmp) != NULL, "%s: the message does not name the file: %s", path, err.message);
}

static int has_warning(const RsScene* s, const char* part)
{
    for (size_t i = 0; i < s->warnings.count; ++i)
        if (strstr(s->warnings.data[i], part))
            return 1;
    return 0;
}

static void test_cbox(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/cbox.xml", data_dir);
    RsScene s;
    RsError err;
    RsFileList files = {0};
    memset(&err, 0, sizeof err);
    int status = rs_scene_load(path, NULL, &s, &files, &err);
    CHECK(status == 0, "cbox.xml: %s", err.message);
    if (status)
        return;
    CHECK_NEAR(s.camera.eye.z, 3.5, 0.0);
    CHECK_NEAR(s.camera.look_at.z, 2.5, 0.0);
    CHECK_NEAR(s.camera.fov_degrees, 40.0, 1e-5);
    CHECK(s.render.width == 64 && s.render.height == 64, "%ux%u", s.render.width, s.render.height);
    CHECK(s.render.spp == 16, "spp %u", s.render.spp);
    CHECK(s.render.max_depth == 4, "Mitsuba's max_depth 5 is raystream's 4, got %u", s.render.max_depth);
    CHECK(s.prims.count == 37, "6 rectangles, 2 cubes and a sphere are 37 primitives, got %zu", s.prims.count);
    CHECK(s.materials.count == 6, "%zu materials", s.materials.count);
    /* nothing approximated but the one thing said about every such scene */
    CHECK(s.warnings.count == 1 && has_warning(&s, "one-sided in Mitsuba"), "%zu warnings, the first: %s",
          s.warnings.count, s.warnings.count ? s.warnings.data[0] : "");
    int32_t white = rs_scene_find_material(&s, "white");
    CHECK(white >= 0, "no material 'white'");
    if (white >= 0)
        CHECK_NEAR(s.material_descs.data[white].colour.y, 0.71, 1e-7);
    int gold = 0, plastic = 0;
    for (size_t i = 0; i < s.material_descs.count; ++i) {
        const RsMaterialDesc* d = &s.material_descs.data[i];
        if (d->type == RS_MAT_CONDUCTOR) {
            gold = 1;
            CHECK_NEAR(d->roughness_u, 0.25, 1e-7); /* sqrt(alpha 0.0625) */
            CHECK_NEAR(d->eta.z, 1.44204533, 1e-6); /* Mitsuba's Au in its rgb variants */
            CHECK_NEAR(d->k.x, 3.98299694, 1e-6);
        }
        if (d->type == RS_MAT_PLASTIC) {
            plastic = 1;
            CHECK_NEAR(d->ior, 1.5, 0.0);
        }
    }
    CHECK(gold && plastic, "gold %d plastic %d", gold, plastic);
    CHECK(s.light_count == 2, "the area light's two triangles, got %u lights", s.light_count);
    CHECK(files.count == 1, "%zu files read", files.count);
    rs_file_list_free(&files);
    rs_scene_free(&s);

    /* the same with includes and defaults: every included file is read */
    snprintf(path, sizeof path, "%s/cbox_include.xml", data_dir);
    memset(&err, 0, sizeof err);
    status = rs_scene_load(path, NULL, &s, &files, &err);
    CHECK(status == 0, "cbox_include.xml: %s", err.message);
    if (status == 0) {
        CHECK(s.prims.count == 37 && s.render.spp == 16 && s.render.max_depth == 4, "%zu prims, %u spp, depth %u",
              s.prims.count, s.render.spp, s.render.max_depth);
        CHECK(files.count == 5, "the scene and 4 included files, got %zu", files.count);
        rs_scene_free(&s);
    }
    rs_file_list_free(&files);
}

static void test_instances(void)
{
    char path[600];
    snprintf(path, sizeof path, "%s/instances.xml", data_dir);
    RsScene s;
    RsError err;
    int status = load(path, &s, &err);
    CHECK(status == 0, "instances.xml: %s", err.message);
    if (status)
        return;
    CHECK(s.objects.count == 1, "one shapegroup, got %zu objects", s.objects.count);
    CHECK(s.instances.count == 3, "three instances, got %zu", s.instances.count);
    CHECK(s.objects.count == 0 || s.objects.data[0].prim_count == 12, "a cube of 12 triangles");
    CHECK(s.render.max_depth == 1, "direct is depth 1, got %u", s.render.max_depth);
    rs_scene_free(&s);
}

static void test_camera_and_spectra(void)
{
    RsScene s;
    RsError err;
    /* fov along x of a 200 x 100 image: vertical = 2 atan(tan(30) / 2) */
    const char* path = scene_with("fov.xml",
                                  "<sensor type=\"perspective\"><float name=\"fov\" value=\"60\"/>"
                                  "<transform name=\"to_world\"><rotate y=\"1\" angle=\"90\"/><translate x=\"5\"/>"
                                  "</transform><film type=\"hdrfilm\"><integer name=\"width\" value=\"200\"/>"
                                  "<integer name=\"height\" value=\"100\"/></film></sensor>"
                                  "<shape type=\"sphere\"/>");
    int status = load(path, &s, &err);
    CHECK(status == 0, "fov.xml: %s", err.message);
    if (status == 0) {
        /* the second sensor is ignored with a warning: the first (fov 40, 8x8) holds */
        CHECK(has_warning(&s, "only the first sensor"), "no warning about the second sensor");
        CHECK_NEAR(s.camera.fov_degrees, 40.0, 1e-5);
        rs_scene_free(&s);
    }
    path = in_tmp("fov2.xml");
    write_text("fov2.xml", "<scene version=\"3.0.0\"><sensor type=\"perspective\"><float name=\"fov\" value=\"60\"/>"
                           "<transform name=\"to_world\"><rotate y=\"1\" angle=\"90\"/><translate x=\"5\"/>"
                           "</transform><film type=\"hdrfilm\"><integer name=\"width\" value=\"200\"/>"
                           "<integer name=\"height\" value=\"100\"/></film></sensor><shape type=\"sphere\">"
                           "<emitter type=\"area\"/></shape></scene>");
    status = load(path, &s, &err);
    CHECK(status == 0, "fov2.xml: %s", err.message);
    if (status == 0) {
        CHECK_NEAR(s.camera.fov_degrees, 2.0 * atan(tan(30.0 * RS_PI / 180.0) / 2.0) * 180.0 / RS_PI, 1e-4);
        CHECK_NEAR(s.camera.eye.x, 5.0, 1e-6);
        CHECK_NEAR(s.camera.look_at.x - s.camera.eye.x, 1.0, 1e-6); /* +z turned 90 degrees about y is +x */
        rs_scene_free(&s);
    }
    /* spectra, against Mitsuba 3.9 scalar_rgb (traverse() of the loaded scene) */
    path = scene_with("spectra.xml",
                      "<bsdf type=\"diffuse\" id=\"a\"><spectrum name=\"reflectance\" "
                      "value=\"400:0.1, 500:0.5, 600:0.8, 700:0.3\"/></bsdf>"
                      "<bsdf type=\"diffuse\" id=\"b\"><spectrum name=\"reflectance\" value=\"0.4\"/></bsdf>"
                      "<shape type=\"sphere\"><ref id=\"a\"/><emitter type=\"area\">"
                      "<spectrum name=\"radiance\" value=\"400:1, 700:2\"/></emitter></shape>"
                      "<shape type=\"sphere\"><ref id=\"b\"/><emitter type=\"area\">"
                      "<spectrum name=\"radiance\" value=\"3\"/></emitter></shape>");
    status = load(path, &s, &err);
    CHECK(status == 0, "spectra.xml: %s", err.message);
    if (status == 0) {
        const RsMaterialDesc* a = &s.material_descs.data[0];
        const RsMaterialDesc* b = &s.material_descs.data[1];
        CHECK_NEAR(a->colour.x, 0.752186, 2e-5);
        CHECK_NEAR(a->colour.y, 0.64527, 2e-5);
        CHECK_NEAR(a->colour.z, 0.271707, 2e-5);
        CHECK_NEAR(a->emission.x, 2.14, 2e-4);
        CHECK_NEAR(a->emission.y, 1.40424, 2e-4);
        CHECK_NEAR(a->emission.z, 1.01714, 2e-4);
        CHECK_NEAR(b->colour.x, 0.4, 1e-7);
        CHECK_NEAR(b->emission.x, 3.61438, 2e-3); /* an equal-energy spectrum is not white in sRGB */
        CHECK_NEAR(b->emission.z, 2.72675, 2e-3);
        rs_scene_free(&s);
    }
}

/* A version 4 .serialized file of one quad (two triangles) with normals, then the offset
 * table; `cut` bytes are taken off the compressed stream. */
static void write_serialized_counts(const char* name, size_t cut, int version, uint64_t nv_on_file);

static void write_serialized(const char* name, size_t cut, int version)
{
    write_serialized_counts(name, cut, version, 4);
}

static void write_serialized_counts(const char* name, size_t cut, int version, uint64_t nv_on_file)
{
    unsigned char raw[512];
    size_t n = 0;
    uint32_t flags = 0x0001 | 0x1000;
    memcpy(raw + n, &flags, 4);
    n += 4;
    if (version == 4) {
        memcpy(raw + n, "quad", 5);
        n += 5;
    }
    uint64_t nv = nv_on_file, nt = 2;
    memcpy(raw + n, &nv, 8);
    memcpy(raw + n + 8, &nt, 8);
    n += 16;
    const float p[12] = {-1, -1, 0, 1, -1, 0, 1, 1, 0, -1, 1, 0};
    const float nn[12] = {0, 0, 1, 0, 0, 1, 0, 0, 1, 0, 0, 1};
    const uint32_t idx[6] = {0, 1, 2, 0, 2, 3};
    memcpy(raw + n, p, sizeof p);
    n += sizeof p;
    memcpy(raw + n, nn, sizeof nn);
    n += sizeof nn;
    memcpy(raw + n, idx, sizeof idx);
    n += sizeof idx;
    unsigned char file[1024];
    uint16_t head[2] = {0x041C, (uint16_t)version};
    memcpy(file, head, 4);
    uLongf zsize = sizeof file - 64;
    CHECK(compress(file + 4, &zsize, raw, n) == Z_OK, "zlib compress");
    size_t size = 4 + zsize - cut;
    if (version == 4) {
        uint64_t offset = 0;
        memcpy(file + size, &offset, 8);
        size += 8;
    } else {
        uint32_t offset = 0;
        memcpy(file + size, &offset, 4);
        size += 4;
    }
    uint32_t count = 1;
    memcpy(file + size, &count, 4);
    size += 4;
    write_bytes(name, file, size);
}

static void test_serialized(void)
{
    write_serialized("quad.serialized", 0, 4);
    write_serialized("quad3.serialized", 0, 3);
    write_serialized("cut.serialized", 20, 4);
    RsScene s;
    RsError err;
    const char* path = scene_with("ser.xml", "<shape type=\"serialized\"><string name=\"filename\" "
                                             "value=\"quad.serialized\"/><transform name=\"to_world\">"
                                             "<scale value=\"2\"/></transform></shape>"
                                             "<shape type=\"serialized\"><string name=\"filename\" "
                                             "value=\"quad3.serialized\"/><boolean name=\"face_normals\" "
                                             "value=\"true\"/></shape>");
    int status = load(path, &s, &err);
    CHECK(status == 0, "ser.xml: %s", err.message);
    if (status == 0) {
        CHECK(s.prims.count == 4, "two quads of two triangles, got %zu", s.prims.count);
        rs_scene_free(&s);
    }
    expect_error(scene_with("cut.xml", "<shape type=\"serialized\"><string name=\"filename\" "
                                       "value=\"cut.serialized\"/></shape>"),
                 "cut.xml:4: serialized: ");
    expect_error(in_tmp("cut.xml"), "truncated");
    expect_error(scene_with("index.xml", "<shape type=\"serialized\"><string name=\"filename\" "
                                         "value=\"quad.serialized\"/><integer name=\"shape_index\" value=\"1\"/>"
                                         "</shape>"),
                 "shape_index 1, but the file holds 1 shapes");
    write_serialized_counts("huge.serialized", 0, 4, 1ull << 40);
    expect_error(scene_with("huge_ser.xml", "<shape type=\"serialized\"><string name=\"filename\" "
                                            "value=\"huge.serialized\"/></shape>"),
                 "1099511627776 vertices and 2 triangles (each must be in [1, 268435456])");
    write_text("text.serialized", "not a mesh at all, just text");
    expect_error(scene_with("text.xml", "<shape type=\"serialized\"><string name=\"filename\" "
                                        "value=\"text.serialized\"/></shape>"),
                 "not a Mitsuba .serialized file");
}

static void test_bad_input(void)
{
    expect_error(scene_with("missing_include.xml", "<include filename=\"nowhere.xml\"/>"),
                 "missing_include.xml:4: include 'nowhere.xml': cannot open");
    write_text("cycle_b.xml", "<scene version=\"3.0.0\">\n<include filename=\"cycle_a.xml\"/>\n</scene>\n");
    expect_error(scene_with("cycle_a.xml", "<include filename=\"cycle_b.xml\"/>"),
                 "cycle_b.xml:2: include 'cycle_a.xml': a cycle");
    expect_error(scene_with("unknown.xml", "<shape type=\"teapot\"/>"), "unknown.xml:4: shape 'teapot': not supported");
    expect_error(scene_with("unknown_bsdf.xml", "<shape type=\"sphere\"><bsdf type=\"hair\"/></shape>"),
                 "unknown_bsdf.xml:4: bsdf 'hair': not supported");
    expect_error(scene_with("bad_number.xml", "<shape type=\"sphere\"><float name=\"radius\" value=\"1.5x\"/></shape>"),
                 "bad_number.xml:4: radius: '1.5x' is not a number");
    expect_error(scene_with("huge.xml", "<shape type=\"sphere\"><float name=\"radius\" value=\"1e300\"/></shape>"),
                 "huge.xml:4: radius: must be between -1e+18 and 1e+18 (got 1e300)");
    expect_error(scene_with("recursion.xml", "<default name=\"a\" value=\"x$a\"/>\n"
                                             "<shape type=\"sphere\"><float name=\"radius\" value=\"$a\"/></shape>"),
                 "recursion.xml:5: value=\"xxxxxxxxxxxxxxxx$a\": $ substitution nested deeper than 16 levels");
    expect_error(scene_with("undefined.xml", "<shape type=\"sphere\"><float name=\"radius\" value=\"$r\"/></shape>"),
                 "undefined.xml:4: $r: no <default name=\"r\"> defines this parameter");
    expect_error(scene_with("dup.xml", "<bsdf type=\"diffuse\" id=\"x\"/>\n<bsdf type=\"diffuse\" id=\"x\"/>"),
                 "dup.xml:5: id 'x' is already used by the <bsdf> at");
    expect_error(scene_with("badref.xml", "<shape type=\"sphere\"><ref id=\"nothing\"/></shape>"),
                 "badref.xml:4: ref: no object has id 'nothing'");
    expect_error(scene_with("syntax.xml", "<shape type=\"sphere\">"), "syntax.xml:");
    write_text("mirror.xml", "<scene version=\"3.0.0\">\n<sensor type=\"perspective\"><transform name=\"to_world\">"
                             "<scale x=\"-1\"/></transform></sensor><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("mirror.xml"), "mirror.xml:2: sensor: its to_world mirrors the image");
    write_text("ortho.xml", "<scene version=\"3.0.0\">\n<sensor type=\"radiancemeter\"/><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("ortho.xml"), "ortho.xml:2: sensor 'radiancemeter': not supported");
    write_text("ortho2.xml", "<scene version=\"3.0.0\">\n<sensor type=\"orthographic\"><transform name=\"to_world\">"
                             "<scale x=\"2\" y=\"1\"/></transform></sensor><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("ortho2.xml"), "ortho2.xml:2: orthographic: its to_world scales x (2) and y (1) differently");
    write_text("ortho3.xml", "<scene version=\"3.0.0\">\n<sensor type=\"orthographic\"><float name=\"fov\" "
                             "value=\"30\"/></sensor><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("ortho3.xml"), "ortho3.xml:2: orthographic: has no fov");
    /* includes 34 deep: inc0 includes inc1 ... */
    for (int i = 0; i < 34; ++i) {
        char name[32], text[256];
        snprintf(name, sizeof name, "inc%d.xml", i);
        snprintf(text, sizeof text, "<scene version=\"3.0.0\">\n<include filename=\"inc%d.xml\"/>\n</scene>\n", i + 1);
        write_text(name, text);
    }
    write_text("inc34.xml", "<scene version=\"3.0.0\"/>\n");
    expect_error(scene_with("deep_include.xml", "<include filename=\"inc0.xml\"/>"),
                 "inc31.xml:2: include 'inc32.xml': includes nested deeper than 32");
    /* elements 300 deep */
    {
        char text[8192];
        size_t n = (size_t)snprintf(text, sizeof text, "<scene version=\"3.0.0\">");
        for (int i = 0; i < 300; ++i)
            n += (size_t)snprintf(text + n, sizeof text - n, "<a>");
        write_text("nested.xml", text);
        expect_error(in_tmp("nested.xml"), "nested.xml:1: elements nested too deeply (the limit is 256)");
    }
    write_text("old.xml", "<scene version=\"0.5.0\"><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("old.xml"), "old.xml:1: scene: version 0.5.0 is a Mitsuba 0.x scene");
    write_text("nosensor.xml", "<scene version=\"3.0.0\"><shape type=\"sphere\"/></scene>");
    expect_error(in_tmp("nosensor.xml"), "nosensor.xml:1: scene: no sensor");
    expect_error(scene_with("envrot.xml", "<emitter type=\"envmap\"><string name=\"filename\" value=\"x.hdr\"/>"
                                          "<transform name=\"to_world\"><scale x=\"2\"/></transform>"
                                          "</emitter><shape type=\"sphere\"/>"),
                 "envmap: its to_world is not a rotation about +y");
    expect_error(scene_with("ellipsoid.xml", "<shape type=\"sphere\"><transform name=\"to_world\">"
                                             "<scale x=\"2\"/></transform></shape>"),
                 "sphere: its to_world must be a uniform scale");
    expect_error(scene_with("pp.xml", "<shape type=\"sphere\"><bsdf type=\"pplastic\"><rgb name=\"specular_reflectance\" "
                                      "value=\"0\"/></bsdf></shape>"),
                 "pplastic: specular_reflectance 0 (the diffuse lobe alone) is not supported");
    expect_error(scene_with("aniso.xml", "<shape type=\"sphere\"><bsdf type=\"roughconductor\">"
                                         "<texture type=\"checkerboard\" name=\"alpha_u\"/>"
                                         "<texture type=\"checkerboard\" name=\"alpha_v\"><float name=\"color0\" "
                                         "value=\"0.1\"/></texture></bsdf></shape>"),
                 "roughconductor: different textures for alpha_u and alpha_v");
    expect_error(scene_with("alphabmp.xml", "<shape type=\"sphere\"><bsdf type=\"roughdielectric\">"
                                            "<texture type=\"bitmap\" name=\"alpha\"/></bsdf></shape>"),
                 "roughdielectric: a 'bitmap' texture for alpha is not supported (a checkerboard is)");
    expect_error(scene_with("cyl.xml", "<shape type=\"cylinder\"><point name=\"p1\" value=\"0, 0, 0\"/></shape>"),
                 "cylinder: needs p0 != p1 and a radius > 0");

    /* approximations are warnings, never silent */
    RsScene s;
    RsError err;
    const char* path = scene_with("warn.xml", "<shape type=\"sphere\"><bsdf type=\"roughplastic\">"
                                              "<float name=\"unknown_thing\" value=\"1\"/></bsdf></shape>"
                                              "<shape type=\"disk\"/><integrator type=\"path\"/>"
                                              "<shape type=\"cylinder\"><float name=\"radius\" value=\"2\"/></shape>"
                                              "<integrator type=\"stokes\"><integrator type=\"path\"/></integrator>");
    int status = load(path, &s, &err);
    CHECK(status == 0, "warn.xml: %s", err.message);
    if (status == 0) {
        CHECK(has_warning(&s, "roughplastic: the Beckmann distribution is rendered as GGX"), "no Beckmann warning");
        CHECK(has_warning(&s, "roughplastic: nonlinear = false is matched with the smooth coat"), "no nonlinear warning");
        CHECK(has_warning(&s, "parameter 'unknown_thing' (<float>) is not supported"), "no unused warning");
        CHECK(has_warning(&s, "disk: triangulated"), "no disk warning");
        CHECK(has_warning(&s, "cylinder: triangulated into 256 triangles"), "no cylinder warning");
        CHECK(has_warning(&s, "integrator 'stokes': rendered as its nested integrator"), "no stokes warning");
        /* a sphere, the disk's 128 triangles and the cylinder's 256, all on the cylinder's radius 2 */
        CHECK(s.prims.count == 1 + 128 + 256, "%zu primitives", s.prims.count);
        CHECK(has_warning(&s, "max_depth -1 (unlimited) capped at raystream depth 64"), "no depth warning");
        CHECK(s.render.max_depth == 64, "depth %u", s.render.max_depth);
        rs_scene_free(&s);
    }
    /* a checkerboard of alpha becomes a roughness texture of sqrt(alpha) */
    path = scene_with("rough.xml", "<shape type=\"rectangle\"><bsdf type=\"roughconductor\"><texture "
                                   "type=\"checkerboard\" name=\"alpha\"><float name=\"color0\" value=\"0.25\"/>"
                                   "<float name=\"color1\" value=\"0.04\"/></texture></bsdf></shape>");
    status = load(path, &s, &err);
    CHECK(status == 0, "rough.xml: %s", err.message);
    if (status == 0) {
        const RsMaterialDesc* d = &s.material_descs.data[s.material_descs.count - 1];
        CHECK(d->roughness_texture != RS_NO_TEXTURE && fabsf(d->roughness_u - 0.5f) < 1e-6f,
              "roughness texture %u, roughness %g", d->roughness_texture, d->roughness_u);
        CHECK(has_warning(&s, "a checkerboard alpha is raystream's roughness texture"), "no roughness warning");
        rs_scene_free(&s);
    }
    /* ptracer is the light tracer, its depth mapped as path's, without a warning */
    path = scene_with("ptracer.xml", "<integrator type=\"ptracer\"><integer name=\"max_depth\" value=\"9\"/>"
                                     "<integer name=\"samples_per_pass\" value=\"4096\"/></integrator>"
                                     "<shape type=\"sphere\"/>");
    status = load(path, &s, &err);
    CHECK(status == 0, "ptracer.xml: %s", err.message);
    if (status == 0) {
        CHECK(strcmp(rs_integrator_name(s.render.integrator), "light") == 0, "ptracer became %s",
              rs_integrator_name(s.render.integrator));
        CHECK(s.render.max_depth == 8, "ptracer max_depth 9 became depth %u", s.render.max_depth);
        CHECK(!has_warning(&s, "integrator"), "a warning about ptracer");
        rs_scene_free(&s);
    }
}

int main(int argc, char** argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_mitsuba DATA_DIR\n");
        return 2;
    }
    data_dir = argv[1];
    snprintf(tmp, sizeof tmp, "/tmp/raystream-test-mitsuba-XXXXXX");
    if (!mkdtemp(tmp))
        return 1;
    test_cbox();
    test_instances();
    test_camera_and_spectra();
    test_serialized();
    test_bad_input();
    char cmd[512];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", tmp);
    return rs_test_finish("test_mitsuba");
}
