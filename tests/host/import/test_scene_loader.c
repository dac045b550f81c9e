/* test_scene_loader.c - the scene-loader dispatcher and the list of files a load read (host
 * suite). usage: test_scene_loader SCENES_DIR. Host C11 (POSIX).
 *
 * Formats by content before name: Mitsuba XML in a file named .json, a binary glTF named
 * .gltf and a glTF JSON named .json are refused naming the format and listing what raystream
 * reads; a pbrt-v4 scene loads, and one named .json reaches the pbrt-v4 loader; a raystream scene without an extension loads; a JSON object that does
 * not parse reaches the JSON loader whatever its name; an unknown binary file, an empty file, a
 * missing file and a directory get their exact messages. Then the files read: SCENES_DIR's
 * gltf.json (its glTF and the glTF's images), and a scene written here whose OBJ names an MTL
 * with a texture, whose material has an image, whose environment is a map and whose glTF keeps
 * its buffer in a .bin: exactly those files, each once, as the loader opened them.
 */
#define _XOPEN_SOURCE 700
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "host/import/scene_loader.h"
#include "tests/test.h"

#define READS "raystream reads: raystream JSON scene (.json), Mitsuba 3 XML scene (.xml), pbrt-v4 scene (.pbrt), glTF 2.0 scene (.gltf), binary glTF 2.0 scene (.glb)"

static char tmp[256];

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

static void copy_file(const char* from, const char* name)
{
    FILE* f = fopen(from, "rb");
    CHECK(f != NULL, "cannot read %s", from);
    if (!f)
        return;
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    write_bytes(name, buf, n);
}

/* Loading `path` fails with exactly `message` ("%s" stands for the path). */
static void expect_message(const char* path, const char* message)
{
    RsScene s;
    RsError err = {{0}};
    char want[1024];
    snprintf(want, sizeof want, message, path);
    int status = rs_scene_load(path, NULL, &s, NULL, &err);
    CHECK(status != 0, "%s loaded; expected: %s", path, want);
    CHECK(strcmp(err.message, want) == 0, "%s:\n  got      %s\n  expected %s", path, err.message, want);
    if (status == 0)
        rs_scene_free(&s);
}

static const char* small_scene =
    "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 3], \"look_at\": [0, 0, 0], \"resolution\": [8, 8]},\n"
    " \"materials\": [{\"name\": \"w\", \"type\": \"diffuse\", \"albedo\": [0.5, 0.5, 0.5]}],\n"
    " \"shapes\": [{\"type\": \"sphere\", \"center\": [0, 0, 0], \"radius\": 1, \"material\": \"w\"}]}\n";

static void test_formats(void)
{
    write_text("mitsuba.json", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- Cornell box -->\n"
                               "<scene version=\"3.0.0\">\n  <integrator type=\"path\"/>\n</scene>\n");
    /* read by the Mitsuba loader, whatever its name (which then finds no sensor) */
    expect_message(in_tmp("mitsuba.json"), "%s:3: scene: no sensor (raystream needs a perspective or thinlens sensor "
                                           "for its camera)");

    /* a binary glTF: the 12-byte header, then a JSON chunk */
    const char json[] = "{\"asset\":{\"version\":\"2.0\"}} "; /* 28 bytes: chunks are padded to 4 */
    unsigned char glb[12 + 8 + sizeof json - 1];
    uint32_t header[5] = {0x46546C67u, 2u, (uint32_t)sizeof glb, (uint32_t)(sizeof json - 1), 0x4E4F534Au};
    memcpy(glb, header, sizeof header);
    memcpy(glb + sizeof header, json, sizeof json - 1);
    write_bytes("model.gltf", glb, sizeof glb);
    /* by content, whatever the name: the glTF loader reads it (and finds nothing to render) */
    expect_message(in_tmp("model.gltf"), "%s: the file has no scenes: nothing to render");

    /* pbrt-v4 by content, whatever the name: a scene named .json reaches the pbrt loader */
    write_text("cbox.pbrt", "# pbrt-v4\n\nLookAt 0 1 4  0 1 0  0 1 0\nCamera \"perspective\" \"float fov\" [40]\n"
                            "WorldBegin\nShape \"sphere\"\n");
    RsScene pbrt_scene;
    RsError pbrt_err = {{0}};
    CHECK(rs_scene_load(in_tmp("cbox.pbrt"), NULL, &pbrt_scene, NULL, &pbrt_err) == 0, "cbox.pbrt: %s", pbrt_err.message);
    if (!pbrt_err.message[0])
        rs_scene_free(&pbrt_scene);
    write_text("pbrt_named.json", "WorldBegin\n");
    expect_message(in_tmp("pbrt_named.json"), "%s: the scene is empty (no shapes)");

    write_text("gltf.json", "{\n  \"scene\": 0,\n  \"asset\": {\"generator\": \"x\", \"version\": \"2.0\"},\n"
                            "  \"scenes\": [{\"nodes\": []}]\n}\n");
    expect_message(in_tmp("gltf.json"), "%s: the scene has no triangles to render");
    /* a glTF whose "asset" lies beyond what is sniffed: its name settles it */
    size_t big = 100000;
    char* text = malloc(big + 64);
    CHECK(text != NULL, "out of memory");
    if (text) {
        int n = snprintf(text, big + 64, "{\"extras\": \"");
        memset(text + n, 'a', big);
        snprintf(text + n + big, 64, "\", \"asset\": {\"version\": \"2.0\"}}");
        write_text("big.gltf", text);
        free(text);
        expect_message(in_tmp("big.gltf"), "%s: the file has no scenes: nothing to render");
    }

    /* a raystream scene loads whatever its name */
    write_text("scene", small_scene);
    write_text("scene.xml", small_scene);
    for (int i = 0; i < 2; ++i) {
        const char* path = in_tmp(i ? "scene.xml" : "scene");
        RsScene s;
        RsError err = {{0}};
        RsFileList files = {0};
        int status = rs_scene_load(path, NULL, &s, &files, &err);
        CHECK(status == 0, "%s: %s", path, err.message);
        CHECK(files.count == 1 && strcmp(files.paths[0], path) == 0, "%s: %zu files read", path, files.count);
        if (status == 0)
            rs_scene_free(&s);
        rs_file_list_free(&files);
    }

    /* a JSON object that does not parse reaches the JSON loader, whatever its name */
    write_text("broken.xml", "{\n  \"version\": 1,\n  oops\n}\n");
    expect_message(in_tmp("broken.xml"), "%s:3:4: JSON syntax error near 'ops'");
    write_text("not_object.json", "[1, 2, 3]\n");
    expect_message(in_tmp("not_object.json"), "%s: (top level): a scene must be a JSON object");

    /* by name only */
    write_text("notes.xml", "hello\n");
    expect_message(in_tmp("notes.xml"), "%s:1:1: XML syntax error: syntax error");

    const unsigned char binary[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0, 0, 0, 0xff, 0xfe};
    write_bytes("x.dat", binary, sizeof binary);
    expect_message(in_tmp("x.dat"), "%s: not a scene raystream can read; " READS);
    write_bytes("x.json", binary, sizeof binary);
    expect_message(in_tmp("x.json"), "%s: the file contains a NUL byte; a scene is JSON text");

    write_text("empty.json", "");
    expect_message(in_tmp("empty.json"), "%s:1:1: JSON syntax error at end of file");
    write_text("blank", "\n  \n");
    expect_message(in_tmp("blank"), "%s:3:1: JSON syntax error at end of file");
    expect_message(in_tmp("missing.json"), "%s: cannot open scene: No such file or directory");
    expect_message(tmp, "%s: cannot open scene: not a regular file (a directory)");
    expect_message("/dev/zero", "%s: cannot open scene: not a regular file (a character device)");
}

/* The load of `path` read exactly the `count` files of want[] (in any order). */
static void expect_files(const char* path, const char* const* want, size_t count)
{
    RsScene s;
    RsError err = {{0}};
    RsFileList files = {0};
    int status = rs_scene_load(path, NULL, &s, &files, &err);
    CHECK(status == 0, "%s: %s", path, err.message);
    CHECK(files.count == count, "%s: %zu files read, expected %zu", path, files.count, count);
    for (size_t i = 0; i < count; ++i)
        CHECK(rs_file_list_contains(&files, want[i]), "%s: %s is not in the list of files read", path, want[i]);
    for (size_t i = 0; i < files.count; ++i)
        printf("  read %s\n", files.paths[i]);
    if (status == 0)
        rs_scene_free(&s);
    rs_file_list_free(&files);
}

static void test_files_read(const char* scenes)
{
    char want[5][512];
    snprintf(want[0], sizeof want[0], "%s/gltf.json", scenes);
    snprintf(want[1], sizeof want[1], "%s/gltf/pyramid.gltf", scenes);
    snprintf(want[2], sizeof want[2], "%s/gltf/../textures/checker.png", scenes);
    snprintf(want[3], sizeof want[3], "%s/gltf/../textures/bumps_normal.png", scenes);
    snprintf(want[4], sizeof want[4], "%s/gltf/../textures/gold_mr.png", scenes);
    const char* const gltf_files[] = {want[0], want[1], want[2], want[3], want[4]};
    expect_files(want[0], gltf_files, 5);
    /* the same glTF given as the scene: the file and its images (its buffer is a data: URI) */
    expect_files(want[1], gltf_files + 1, 4);

    char from[512];
    snprintf(from, sizeof from, "%s/textures/checker.png", scenes);
    copy_file(from, "checker.png");
    snprintf(from, sizeof from, "%s/textures/marble.png", scenes);
    copy_file(from, "marble.png");
    snprintf(from, sizeof from, "%s/textures/sky.hdr", scenes);
    copy_file(from, "sky.hdr");
    mkdir(in_tmp("mesh"), 0777);
    write_text("mesh/tri.obj", "mtllib tri.mtl\nusemtl red\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvt 1 0\nvt 0 1\n"
                               "f 1/1 2/2 3/3\n");
    write_text("mesh/tri.mtl", "newmtl red\nKd 0.8 0.1 0.1\nmap_Kd ../checker.png\n");
    /* a glTF triangle whose positions are in tri.bin */
    const float positions[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    write_bytes("mesh/tri.bin", positions, sizeof positions);
    write_text("mesh/tri.gltf",
               "{\"asset\": {\"version\": \"2.0\"}, \"buffers\": [{\"uri\": \"tri.bin\", \"byteLength\": 36}],\n"
               " \"bufferViews\": [{\"buffer\": 0, \"byteLength\": 36}],\n"
               " \"accessors\": [{\"bufferView\": 0, \"componentType\": 5126, \"count\": 3, \"type\": \"VEC3\",\n"
               "                \"min\": [0, 0, 0], \"max\": [1, 1, 0]}],\n"
               " \"meshes\": [{\"primitives\": [{\"attributes\": {\"POSITION\": 0}}]}], \"nodes\": [{\"mesh\": 0}],\n"
               " \"scenes\": [{\"nodes\": [0]}], \"scene\": 0}\n");
    write_text("files.json",
               "{\"version\": 1, \"camera\": {\"eye\": [0, 0, 3], \"look_at\": [0, 0, 0], \"resolution\": [8, 8]},\n"
               " \"environment\": {\"type\": \"map\", \"file\": \"sky.hdr\"},\n"
               " \"materials\": [{\"name\": \"m\", \"type\": \"diffuse\", \"albedo\": {\"texture\": \"marble.png\"}}],\n"
               " \"shapes\": [{\"type\": \"mesh\", \"file\": \"mesh/tri.obj\"},\n"
               "            {\"type\": \"mesh\", \"file\": \"mesh/tri.obj\", \"material\": \"m\"},\n"
               "            {\"type\": \"mesh\", \"file\": \"mesh/tri.gltf\", \"material\": \"m\"},\n"
               "            {\"type\": \"quad\", \"vertices\": [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],\n"
               "             \"material\": \"m\"}]}\n");
    const char* const names[] = {"files.json",   "sky.hdr",      "marble.png",          "mesh/tri.obj",
                                 "mesh/tri.mtl", "mesh/tri.gltf", "mesh/../checker.png", "mesh/tri.bin"};
    char paths[8][512];
    const char* wanted[8];
    for (int i = 0; i < 8; ++i) {
        snprintf(paths[i], sizeof paths[i], "%s/%s", tmp, names[i]);
        wanted[i] = paths[i];
    }
    expect_files(in_tmp("files.json"), wanted, 8);
}

/* --camera N (options.camera) chooses among a glTF file's cameras; formats with one camera
 * refuse N other than 0 naming the option, instead of rendering their one camera silently. */
static void test_camera_option(void)
{
    write_text("one_camera.json", small_scene);
    write_text("one_camera.pbrt", "LookAt 0 1 4  0 1 0  0 1 0\nCamera \"perspective\" \"float fov\" [40]\n"
                                  "WorldBegin\nShape \"sphere\"\n");
    const char* paths[2] = {in_tmp("one_camera.json"), in_tmp("one_camera.pbrt")};
    const char* names[2] = {"raystream JSON scene", "pbrt-v4 scene"};
    for (int i = 0; i < 2; ++i) {
        for (int32_t camera = -1; camera <= 2; ++camera) {
            RsSceneLoadOptions options = {NULL, camera};
            RsScene s;
            RsError err = {{0}};
            int status = rs_scene_load_with(paths[i], &options, &s, NULL, &err);
            if (camera <= 0) {
                CHECK(status == 0, "%s --camera %d: %s", paths[i], (int)camera, err.message);
                if (status == 0)
                    rs_scene_free(&s);
                continue;
            }
            char want[1024];
            snprintf(want, sizeof want, "%s: --camera %d: a %s has one camera (--camera chooses among a glTF file's "
                     "cameras); leave the option out", paths[i], (int)camera, names[i]);
            CHECK(status != 0 && strcmp(err.message, want) == 0, "%s --camera %d:\n  got      %s\n  expected %s",
                  paths[i], (int)camera, status ? err.message : "(loaded)", want);
            if (status == 0)
                rs_scene_free(&s);
        }
    }
}

int main(int argc, char** argv)
{
    CHECK(argc == 2, "usage: test_scene_loader SCENES_DIR");
    if (argc != 2)
        return rs_test_finish("test_scene_loader");
    snprintf(tmp, sizeof tmp, "/tmp/raystream-test-loader-XXXXXX");
    CHECK(mkdtemp(tmp) != NULL, "cannot make a temporary directory");
    test_formats();
    test_camera_option();
    test_files_read(argv[1]);
    char command[512];
    snprintf(command, sizeof command, "rm -rf '%s'", tmp);
    CHECK(system(command) == 0, "cannot remove %s", tmp);
    return rs_test_finish("test_scene_loader");
}
