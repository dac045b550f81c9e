/* mitsuba_loader.c - the Mitsuba 3 XML loader: parse, resolve, then one walk over the scene's
 * objects in document order. Host C11 (POSIX).
 *
 * Top-level objects: sensor (the first one is the camera), integrator, shape, emitter; bsdf and
 * texture declarations with an id are made when a shape refers to them (an unreferenced one is
 * never built, as in Mitsuba). The scene's version attribute must be 0.5 or later and below 4:
 * Mitsuba 3 reads 0.5-2.x files only through its upgrade tool, whose renamings raystream does
 * not apply, so versions below 2.0 are refused naming the version. On failure the scene is left
 * empty (rs_scene_free).
 */
#define _POSIX_C_SOURCE 200809L
#include "host/import/mitsuba/mitsuba_loader.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/import/mitsuba/mts_internal.h"

static int check_version(RsMts* m, RsMtsNode* root)
{
    const char* v = rs_mts_attr(root, "version");
    if (!v)
        return rs_mts_fail(m, root, "scene: needs a version attribute (e.g. version=\"3.0.0\")");
    int major = 0, minor = 0, patch = 0;
    if (sscanf(v, "%d.%d.%d", &major, &minor, &patch) < 1)
        return rs_mts_fail(m, root, "scene: version '%s' is not major.minor.patch", v);
    if (major < 2)
        return rs_mts_fail(m, root, "scene: version %s is a Mitsuba 0.x scene; raystream reads Mitsuba 2 and 3 "
                                    "scenes (convert it with Mitsuba 3's upgrade tool)", v);
    if (major > 3)
        return rs_mts_fail(m, root, "scene: version %s is newer than Mitsuba 3", v);
    return 0;
}

/* An envmap whose to_world is a rotation but not about +y (Mitsuba's z-up scenes turn theirs
 * about x): the whole scene is turned by the inverse rotation instead, which leaves the image as
 * it is, and the map is then upright. A to_world that scales or mirrors is left to envmap() to
 * refuse. */
static int choose_world(RsMts* m, RsMtsNode* root)
{
    m->world = rs_transform_identity();
    for (uint32_t i = 0; i < root->child_count; ++i) {
        RsMtsNode* c = root->children[i];
        const char* type = rs_mts_attr(c, "type");
        if (strcmp(c->tag, "emitter") != 0 || !type || strcmp(type, "envmap") != 0)
            continue;
        RsTransform xf;
        if (rs_mts_get_transform(m, c, "to_world", &xf))
            return -1;
        RsMtsNode* t = rs_mts_child(m, c, "to_world");
        if (t)
            t->used = 0;
        const float(*a)[4] = xf.m;
        if (fabsf(a[1][1] - 1.0f) < 1e-5f && fabsf(a[0][1]) < 1e-5f && fabsf(a[1][0]) < 1e-5f &&
            fabsf(a[1][2]) < 1e-5f && fabsf(a[2][1]) < 1e-5f)
            return 0; /* already about +y (or not a rotation: envmap() says so) */
        double dot[3][3];
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q)
                dot[p][q] = (double)a[0][p] * a[0][q] + (double)a[1][p] * a[1][q] + (double)a[2][p] * a[2][q];
        for (int p = 0; p < 3; ++p)
            for (int q = 0; q < 3; ++q)
                if (fabs(dot[p][q] - (p == q ? 1.0 : 0.0)) > 1e-4)
                    return 0;
        if (rs_mts_transform_det(&xf) < 0.0)
            return 0;
        for (int p = 0; p < 3; ++p) {
            for (int q = 0; q < 3; ++q)
                m->world.m[p][q] = a[q][p]; /* the inverse of a rotation is its transpose */
            m->world.m[p][3] = 0.0f;
        }
        return 0; /* raystream takes one map: the first decides */
    }
    return 0;
}

static int read_scene(RsMts* m, RsMtsNode* root)
{
    if (strcmp(root->tag, "scene") != 0)
        return rs_mts_fail(m, root, "the root element must be <scene> (got <%s>)", root->tag);
    if (check_version(m, root) || choose_world(m, root))
        return -1;
    for (uint32_t i = 0; i < root->child_count; ++i) {
        RsMtsNode* c = root->children[i];
        const char* tag = c->tag;
        int status = 0;
        if (strcmp(tag, "sensor") == 0)
            status = rs_mts_read_sensor(m, c);
        else if (strcmp(tag, "integrator") == 0)
            status = rs_mts_read_integrator(m, c);
        else if (strcmp(tag, "shape") == 0)
            status = rs_mts_read_shape(m, c, 0);
        else if (strcmp(tag, "emitter") == 0)
            status = rs_mts_read_emitter(m, c);
        else if (strcmp(tag, "bsdf") == 0 || strcmp(tag, "texture") == 0 || strcmp(tag, "default") == 0 ||
                 strcmp(tag, "path") == 0 ||
                 strcmp(tag, "spectrum") == 0 || strcmp(tag, "rgb") == 0)
            status = 0; /* made where used */
        else if (strcmp(tag, "ref") == 0)
            status = rs_mts_fail(m, c, "ref: a reference at the top of the scene places nothing; put it in a shape");
        else if (strcmp(tag, "medium") == 0 || strcmp(tag, "phase") == 0)
            status = rs_mts_fail(m, c, "%s: participating media are not supported", tag);
        else if (strcmp(tag, "film") == 0 || strcmp(tag, "sampler") == 0)
            rs_mts_warn(m, c, "%s: outside a sensor it has no effect and was ignored", tag);
        else
            status = rs_mts_fail(m, c, "<%s>: not a Mitsuba scene element raystream reads", tag);
        if (status)
            return -1;
    }
    if (!m->have_sensor)
        return rs_mts_fail(m, root, "scene: no sensor (raystream needs a perspective or thinlens sensor for its "
                                    "camera)");
    if (m->scene->prims.count == 0 && m->scene->instances.count == 0)
        return rs_mts_fail(m, root, "scene: no shapes");
    if (!m->have_light)
        rs_mts_warn(m, root, "scene: no emitter; the image will be black");
    return 0;
}

int rs_mitsuba_load(const char* path, const RsAccelOptions* accel, int32_t camera, RsScene* scene,
                    RsFileList* files_read, RsError* err)
{
    rs_scene_init(scene);
    if (accel)
        scene->accel_options = *accel;
    if (camera > 0) {
        rs_error_set(err, "%s: --camera %d: a Mitsuba scene's camera is its first sensor (only --camera 0)", path,
                     camera);
        return -1;
    }
    RsMts m;
    memset(&m, 0, sizeof m);
    m.scene = scene;
    m.err = err;
    m.files = files_read;
    scene->render.width = 768; /* Mitsuba's hdrfilm and sampler defaults */
    scene->render.height = 576;
    scene->render.spp = 4;
    scene->render.max_depth = 64; /* no integrator: Mitsuba's path with max_depth -1 (mts_sensor.c) */
    scene->file = strdup(path);
    int status = -1;
    if (!scene->file)
        rs_error_set(err, "%s: out of memory", path);
    else if (rs_mts_parse_file(&m, path, &m.root) == 0 && rs_mts_resolve(&m, m.root, path) == 0 &&
             read_scene(&m, m.root) == 0)
        status = rs_scene_build(scene, err);
    rs_mts_node_free(m.root);
    rs_mts_doc_free(&m.doc);
    rs_array_free(&m.materials);
    rs_array_free(&m.groups);
    for (size_t i = 0; i < m.search.count; ++i)
        free(m.search.data[i]);
    rs_array_free(&m.search);
    if (status)
        rs_scene_free(scene);
    return status;
}
