/* scene_arrays.h - THE list of the scene arrays the CUDA backend copies to the device (X-macro,
 * after Cycles' kernel/data_arrays.h). Nothing else in cuda/backend/ names them one by one.
 *
 * Device-side host glue (nvcc only). cuda_backend.cuh expands the list into RsCudaBackend's
 * device-copy members; scene_upload.cu into the upload (in the order of the rows), the swap of
 * device pointers into the kernels' view (kp.scene) and the free at destroy.
 *
 *   X(type, member, field, count)
 *
 * type:   the element type;
 * member: RsCudaBackend's `type*` holding the device copy (NULL while the array is empty);
 * field:  the RsSceneView field (a path such as textures.texels) that holds the host pointer;
 *         the device pointer goes into the same field of the backend's view;
 * count:  the number of elements, an expression in `scene`, the list's second argument, which
 *         names the `const RsSceneView*` being uploaded (expansions that do not read counts
 *         pass any name). An array whose count is 0 is not allocated.
 *
 * To add an array (the light-selection rows at the end were added this way):
 *   1. give RsSceneView (src/kernel/scene/scene_view.h) the host pointer, at the top level or in
 *      a member struct (`const float* cdf;` in RsLightSelectView light_select), with a count the
 *      view holds or implies, and fill them in rs_scene_view (src/host/scene/scene.c);
 *   2. add one row at the end of the list below:
 *      X(float, light_select_cdf, light_select.cdf, (scene)->light_select.cdf ? (scene)->light_count : 0)
 * That is all the CUDA backend needs: member, upload, view and free come from the row. Where
 * the row goes is not observable (each array is its own allocation and a failed one reports the
 * same call); new rows go at the end.
 *
 * Not rows, because they are not plain copies of a host array (scene_upload.cu):
 *   - the acceleration structure: up to three allocations of builder-specific types and a whole
 *     RsAccelView of device pointers (RsCudaAccel, accel_upload.cu);
 *   - the cut-outs: no host array but one RsCutouts built here from the device pointers of the
 *     prims, materials, shading and textures rows, and hung on every accelerator's view;
 *   - the environment map's row and marginal CDFs: built on the GPU from the uploaded texels
 *     (env_map_cdf.cu) rather than copied.
 */
#ifndef RS_CUDA_SCENE_ARRAYS_H
#define RS_CUDA_SCENE_ARRAYS_H

#define RS_SCENE_ARRAYS(X, scene)                                                                              \
    X(RsPrim, prims, prims, (scene)->prim_count)                                                               \
    X(RsMaterial, materials, materials, (scene)->material_count)                                               \
    /* NULL when the scene has no vertex normals */                                                            \
    X(RsShading, shading, shading, (scene)->shading ? (scene)->prim_count : 0)                                 \
    X(RsPointLight, point_lights, point_lights, (scene)->point_light_count)                                    \
    X(RsUint4, texture_descriptors, textures.descriptors, (scene)->textures.count)                             \
    X(uint32_t, texels, textures.texels, (size_t)(scene)->textures.texel_count)                                \
    X(float, srgb_to_linear, textures.srgb_to_linear, (scene)->textures.count ? 256 : 0)                       \
    X(RsFloat4, lights, lights, (scene)->light_count)                                                          \
    /* the environment map's image; its CDFs are built from it on the GPU */                                   \
    X(RsFloat4, env_texels, env_map.texels, (size_t)((uint64_t)(scene)->env_map.width * (scene)->env_map.height)) \
    /* how NEE picks a light (light_select.h): RS_LIGHT_SELECT_POWER's tables */                              \
    X(float, light_select_cdf, light_select.cdf, (scene)->light_select.cdf ? (scene)->light_count : 0)         \
    X(float, light_select_pmf, light_select.pmf, (scene)->light_select.pmf ? (scene)->light_count : 0)         \
    /* where particles leave the lights (every method: the power table) */                                    \
    X(float, light_power_cdf, light_select.power_cdf, (scene)->light_select.power_cdf ? (scene)->light_count : 0) \
    X(float, light_power_pmf, light_select.power_pmf, (scene)->light_select.power_pmf ? (scene)->light_count : 0) \
    /* RS_LIGHT_SELECT_TREE's nodes (four blocks each) and per-light trails (light_tree.h) */                  \
    X(RsFloat4, light_tree_nodes, light_select.nodes, 4 * (size_t)(scene)->light_select.node_count)            \
    X(uint64_t, light_tree_trails, light_select.trails, (scene)->light_select.trails ? (scene)->light_count : 0)

#endif /* RS_CUDA_SCENE_ARRAYS_H */
