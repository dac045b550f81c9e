/* convert.c - `raystream convert IN -o scene.json`: any scene raystream reads, written as
 * raystream's scene JSON (format version 2) with its meshes as PLY files and its in-memory
 * textures as PNG files beside it. Host C11, application layer.
 *
 * Nothing is written until everything is known to be writable: the scene is loaded and the
 * whole output planned (convert_plan.h; what JSON cannot say is an error naming it), then every
 * file to write is checked against each other and against every file the scene read (the
 * output must not replace an input: output_paths.h), and only then written, each through a
 * temporary name, the JSON last.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/cli.h"
#include "app/commands.h"
#include "app/convert/convert_plan.h"
#include "app/options.h"
#include "app/output_paths.h"
#include "host/import/scene_loader.h"
#include "host/io/safe_file.h"

static void usage(FILE* f)
{
    fprintf(f,
            "usage: raystream convert SCENE -o OUT.json [options]\n"
            "\n"
            "Loads SCENE (any scene raystream renders) and writes it as raystream's scene JSON,\n"
            "format version 2 (scenes/README.md): camera, render settings, environment, materials,\n"
            "point, spot and directional lights, spheres, objects and instances. Triangles go into\n"
            "binary PLY files beside OUT.json (OUT.mesh-N.ply, one per run of triangles sharing a\n"
            "material), textures made in memory (such as images embedded in a glTF file) into PNG\n"
            "files (OUT.texture-N.png); files the scene read are cited by their paths, relative to\n"
            "OUT.json. The converted scene renders the same image, bit for bit (but for the last\n"
            "bits of a direction an importer normalized as floats: README, \"Converting\"). What\n"
            "scene JSON cannot express is an error naming it, and nothing is written then.\n"
            "\n"
            "  -o, --output FILE     the JSON file to write (ends in .json; its folder must exist)\n"
            "%s"
            "  -q, --quiet           no messages but errors\n"
            "\n"
            "Every file to write is checked first: none may be another one or a file the scene\n"
            "reads, and each is written through a temporary name.\n",
            rs_camera_option_help);
}

typedef struct ConvertArgs {
    const char* in;
    const char* out;
    int32_t camera;
    int quiet;
} ConvertArgs;

/* 0: run; 1: --help; -1: a usage error (printed). */
static int parse_args(int argc, char** argv, ConvertArgs* a)
{
    memset(a, 0, sizeof *a);
    a->camera = -1;
    for (int i = 0; i < argc; ++i) {
        int missing = 0;
        const char* v;
        int camera = rs_camera_option(argc, argv, &i, &a->camera); /* render's and view's --camera */
        if (camera < 0)
            return -1;
        if (camera > 0)
            continue;
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return 1;
        } else if ((v = rs_cli_value(argc, argv, &i, "--output", "-o", &missing))) {
            if (a->out) {
                rs_cli_error("convert: give one output (-o)");
                return -1;
            }
            if (rs_cli_path("--output", v))
                return -1;
            a->out = v;
        } else if (strcmp(argv[i], "--quiet") == 0 || strcmp(argv[i], "-q") == 0) {
            a->quiet = 1;
        } else if (missing) {
            return -1;
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            rs_cli_error("convert: unknown option '%s' (see raystream convert --help)", argv[i]);
            return -1;
        } else if (a->in) {
            rs_cli_error("convert: one scene at a time ('%s' and '%s')", a->in, argv[i]);
            return -1;
        } else {
            a->in = argv[i];
        }
    }
    if (!a->in || !a->out) {
        rs_cli_error("convert: give a scene and -o OUT.json (see raystream convert --help)");
        return -1;
    }
    size_t len = strlen(a->out);
    const char* base = strrchr(a->out, '/');
    base = base ? base + 1 : a->out;
    if (len < 5 || strcmp(a->out + len - 5, ".json") != 0 || strlen(base) <= 5) {
        rs_cli_error("--output: '%s': the scene to write is a .json file", a->out);
        return -1;
    }
    return 0;
}

/* Checks every path of the plan (and the JSON) against each other and the files read, then
 * writes the side files and the JSON. Returns RS_EXIT_*. */
static int write_plan(const ConvertArgs* a, const RsConvertPlan* plan, const RsFileList* files)
{
    RsError err = {{0}};
    RsPathSet paths = {0};
    int bad = rs_path_set_write(&paths, a->out, "converted scene (-o)", &err) ||
              rs_path_set_read(&paths, a->in, "scene", &err) || rs_path_set_read_list(&paths, files, &err);
    for (size_t i = 0; !bad && i < plan->file_count; ++i)
        bad = rs_path_set_write(&paths, plan->files[i].path, plan->files[i].role, &err);
    bad = bad || rs_path_set_check(&paths, &err);
    for (size_t i = 0; !bad && i < paths.write_count; ++i)
        rs_file_remove_stale_temps(paths.writes[i].path);
    rs_path_set_free(&paths);
    if (bad) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    char* text = cJSON_Print(plan->root);
    if (!text) {
        rs_cli_error("out of memory writing %s", a->out);
        return RS_EXIT_FAILURE;
    }
    for (size_t i = 0; i < plan->file_count; ++i) {
        if (rs_convert_write_file(&plan->files[i], &err)) {
            rs_cli_error("%s", err.message);
            free(text);
            return RS_EXIT_FAILURE;
        }
    }
    const RsBytes parts[2] = {{text, strlen(text)}, {"\n", 1}};
    int status = rs_file_write_atomic(a->out, parts, 2, &err);
    free(text);
    if (status) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    if (!a->quiet)
        rs_cli_note("wrote %s (%u mesh files, %u texture files beside it)", a->out, plan->mesh_count,
                    plan->texture_count);
    return RS_EXIT_OK;
}

int rs_cmd_convert(int argc, char** argv)
{
    ConvertArgs a;
    int parsed = parse_args(argc, argv, &a);
    if (parsed) {
        if (parsed > 0)
            usage(stdout);
        return parsed > 0 ? RS_EXIT_OK : RS_EXIT_USAGE;
    }
    /* the output against the scene before the (maybe long) load: the same file, or unwritable */
    RsError err = {{0}};
    RsPathSet paths = {0};
    int bad = rs_path_set_write(&paths, a.out, "converted scene (-o)", &err) ||
              rs_path_set_read(&paths, a.in, "scene", &err) || rs_path_set_check(&paths, &err);
    rs_path_set_free(&paths);
    if (bad) {
        rs_cli_error("%s", err.message);
        return RS_EXIT_FAILURE;
    }
    RsScene scene;
    RsFileList files = {0};
    RsSceneLoadOptions options = {NULL, a.camera};
    if (rs_scene_load_with(a.in, &options, &scene, &files, &err)) {
        rs_cli_error("%s", err.message);
        rs_file_list_free(&files);
        return RS_EXIT_FAILURE;
    }
    if (!a.quiet)
        rs_common_warn_unlit(&scene, a.in);
    RsConvertPlan plan;
    int status = RS_EXIT_FAILURE;
    if (rs_convert_plan(&plan, &scene, &files, a.out, &err) == 0)
        status = write_plan(&a, &plan, &files);
    else
        rs_cli_error("convert: %s", err.message);
    rs_convert_plan_free(&plan);
    rs_scene_free(&scene);
    rs_file_list_free(&files);
    return status;
}
