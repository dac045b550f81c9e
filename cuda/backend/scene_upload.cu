/* scene_upload.cu - the scene in device memory: set_scene copies the arrays of scene_arrays.h,
 * uploads the acceleration structure, builds the cut-outs and the environment map's CDF here,
 * swaps device pointers into the kernels' view and works out what memory is left for waves;
 * destroy frees it all through rs_cuda_backend_free_scene.
 *
 * Device-side host glue (nvcc).
 */
#include "cuda/backend/cuda_backend.cuh"
#include "cuda/backend/env_map_cdf.cuh"

template <class T>
static int upload(RsCudaBackend* b, T** dst, const T* src, size_t count)
{
    cudaFree(*dst);
    *dst = NULL;
    if (count == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)dst, count * sizeof(T)));
    RS_CUDA(&b->ctx, cudaMemcpy(*dst, src, count * sizeof(T), cudaMemcpyHostToDevice));
    return 0;
}

/* The environment map's CDF, built here from the uploaded image (already the view's texels)
 * by the GPU's own prefix sum rather than copied from the host's (env_map_cdf.cu). */
static int upload_env_map_cdf(RsCudaBackend* b, const RsSceneView* scene)
{
    cudaFree(b->env_row_cdf);
    cudaFree(b->env_marginal_cdf);
    b->env_row_cdf = b->env_marginal_cdf = NULL;
    RsEnvMapView* map = &b->kp.scene.env_map;
    map->row_cdf = map->marginal_cdf = NULL;
    size_t cells = (size_t)scene->env_map.width * scene->env_map.height;
    if (cells == 0)
        return 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->env_row_cdf, cells * sizeof(float)));
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->env_marginal_cdf, scene->env_map.height * sizeof(float)));
    RS_CUDA(&b->ctx, rs_cuda_env_cdf_build(map, b->env_row_cdf, b->env_marginal_cdf, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    map->row_cdf = b->env_row_cdf;
    map->marginal_cdf = b->env_marginal_cdf;
    return 0;
}

int rs_cuda_backend_set_scene(RsBackend* base, const RsSceneView* scene, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "scene upload", err))
        return -1;
    if (rs_backend_config_check(&base->config, scene->accel.kind, err))
        return -1;
    int instances = scene->accel.inst.instance_count != 0;
    if (instances && base->config.trace_kernel == RS_TRACE_PERSISTENT)
        return rs_error_set(err, "--trace-kernel persistent walks flat bvh8 scenes only; this scene has %u instances "
                                 "(use --trace-kernel plain or auto)",
                            scene->accel.inst.instance_count);
    if (instances != base->config.instances) { /* the wave's lanes change: reallocated by set_frame */
        rs_cuda_backend_free_wave(b);
        base->config.instances = instances;
    }
    rs_cuda_accel_free(&b->accel);
    /* textures and the environment map are the parts of a scene that can outgrow the GPU on
     * their own: say so in their terms rather than as a failed cudaMalloc */
    const RsTextureView* tex = &scene->textures;
    uint64_t texel_count = tex->texel_count;
    uint64_t env_cells = (uint64_t)scene->env_map.width * scene->env_map.height;
    uint64_t image_bytes = texel_count * 4 + env_cells * (sizeof(RsFloat4) + sizeof(float)) + scene->env_map.height * 4;
    size_t free_before = 0, total_before = 0;
    RS_CUDA(&b->ctx, cudaMemGetInfo(&free_before, &total_before));
    if (image_bytes > free_before)
        return rs_error_set(err,
                            "the scene's %u textures and its %ux%u environment map need %.1f MiB on the GPU, which has "
                            "%.1f MiB free (of %.1f)",
                            tex->count, scene->env_map.width, scene->env_map.height, (double)image_bytes / 1048576.0,
                            (double)free_before / 1048576.0, (double)total_before / 1048576.0);
    RS_CUDA(&b->ctx, rs_cuda_accel_upload(&scene->accel, &b->accel));
    /* one || chain in the rows' order: the first failure stops it */
#define RS_SCENE_ARRAY_UPLOAD(type, member, field, count) upload(b, &b->member, scene->field, count) ||
    if (RS_SCENE_ARRAYS(RS_SCENE_ARRAY_UPLOAD, scene) 0)
        return -1;
#undef RS_SCENE_ARRAY_UPLOAD
    b->kp.scene = *scene;
    b->kp.scene.accel = b->accel.view;
#define RS_SCENE_ARRAY_VIEW(type, member, field, count) b->kp.scene.field = b->member;
    RS_SCENE_ARRAYS(RS_SCENE_ARRAY_VIEW, scene)
#undef RS_SCENE_ARRAY_VIEW
    cudaFree(b->cutouts);
    b->cutouts = NULL;
    if (rs_accel_has_cutouts(&scene->accel)) {
        RsCutouts c;
        c.prims = b->prims;
        c.materials = b->materials;
        c.shading = b->shading;
        c.textures = b->kp.scene.textures;
        if (upload(b, &b->cutouts, &c, 1))
            return -1;
        b->kp.scene.accel.bvh2.cutouts = b->kp.scene.accel.bvh8.cutouts = b->kp.scene.accel.grid.cutouts = b->cutouts;
    }
    if (upload_env_map_cdf(b, scene))
        return -1;
    /* what is left for wave buffers, keeping a margin for the film, CUB and the driver */
    size_t free_bytes = 0, total = 0;
    RS_CUDA(&b->ctx, cudaMemGetInfo(&free_bytes, &total));
    uint64_t margin = 256ull << 20;
    uint64_t available = free_bytes > margin ? free_bytes - margin : 0;
    base->memory_budget = base->config.memory_limit && base->config.memory_limit < available
                              ? base->config.memory_limit
                              : available;
    return 0;
}

void rs_cuda_backend_free_scene(RsCudaBackend* b)
{
    rs_cuda_accel_free(&b->accel);
#define RS_SCENE_ARRAY_FREE(type, member, field, count) cudaFree(b->member);
    RS_SCENE_ARRAYS(RS_SCENE_ARRAY_FREE, scene)
#undef RS_SCENE_ARRAY_FREE
    cudaFree(b->cutouts);
    cudaFree(b->env_row_cdf);
    cudaFree(b->env_marginal_cdf);
}
