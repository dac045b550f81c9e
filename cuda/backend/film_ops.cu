/* film_ops.cu - the film on the device and what leaves it: whole-film and span read-back and
 * upload (checkpoints, ranks), layer and denoised images, and the viewer's display pass with
 * its statistics.
 *
 * Device-side host glue (nvcc).
 */
#include <string.h>

#include "cuda/backend/cuda_backend.cuh"

int rs_cuda_backend_read_film(RsBackend* base, RsFloat4* film, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "film read-back", err))
        return -1;
    size_t bytes = rs_film_planes(&base->config) * (size_t)b->film_pixels * sizeof(RsFloat4);
    RS_CUDA(&b->ctx, cudaMemcpyAsync(film, b->film, bytes, cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += bytes;
    return 0;
}

int rs_cuda_backend_write_film(RsBackend* base, const RsFloat4* film, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "film upload", err))
        return -1;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(b->film, film, rs_film_planes(&base->config) * (size_t)b->film_pixels *
                                                         sizeof(RsFloat4),
                                     cudaMemcpyHostToDevice, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

/* Room for a span's packed film on the device. */
static int reserve_span_staging(RsCudaBackend* b, uint32_t pixels)
{
    if (pixels <= b->span_staging_capacity)
        return 0;
    cudaFree(b->span_staging);
    b->span_staging = NULL;
    b->span_staging_capacity = 0;
    RS_CUDA(&b->ctx, cudaMalloc((void**)&b->span_staging, (size_t)pixels * sizeof(RsFloat4)));
    b->span_staging_capacity = pixels;
    return 0;
}

int rs_cuda_backend_read_film_span(RsBackend* base, uint32_t first, uint32_t pixels, RsFloat4* values,
                                   RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    uint32_t planes = rs_film_planes(&base->config);
    if (enter(b, "film read-back", err) || reserve_span_staging(b, planes * pixels))
        return -1;
    RS_CUDA(&b->ctx, rs_launch_film_span_gather(b->film, b->kp.width, b->kp.height, planes, first, pixels,
                                                b->span_staging, b->stream));
    RS_CUDA(&b->ctx, cudaMemcpyAsync(values, b->span_staging, (size_t)planes * pixels * sizeof(RsFloat4),
                                     cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += (uint64_t)planes * pixels * sizeof(RsFloat4);
    return 0;
}

int rs_cuda_backend_write_film_span(RsBackend* base, uint32_t first, uint32_t pixels, const RsFloat4* values,
                                    RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    uint32_t planes = rs_film_planes(&base->config);
    if (enter(b, "film upload", err) || reserve_span_staging(b, planes * pixels))
        return -1;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(b->span_staging, values, (size_t)planes * pixels * sizeof(RsFloat4),
                                     cudaMemcpyHostToDevice, b->stream));
    RS_CUDA(&b->ctx, rs_launch_film_span_scatter(b->film, b->kp.width, b->kp.height, planes, first, pixels,
                                                 b->span_staging, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    return 0;
}

/* Queues the image on the stream (display and read_image wait for it). */
static int make_image(RsCudaBackend* b, const RsImageRequest* request)
{
    if (rs_image_request_check(&b->base.config, request, b->ctx.err))
        return -1;
    if (!b->image)
        RS_CUDA(&b->ctx, cudaMalloc((void**)&b->image, (size_t)b->film_pixels * sizeof(RsFloat4)));
    if (request->denoise) {
        RS_CUDA(&b->ctx, rs_denoise_scratch_gpu_reserve(&b->denoise, b->film_pixels));
        RS_CUDA(&b->ctx, rs_launch_denoise(b->film, b->kp.width, b->kp.height, &request->denoiser, &b->denoise,
                                           b->image, b->stream));
    } else {
        RS_CUDA(&b->ctx, rs_launch_film_layer(b->film, b->kp.width, b->kp.height, request->layer,
                                              request->for_display, b->image, b->stream));
    }
    return 0;
}

int rs_cuda_backend_make_image(RsBackend* base, const RsImageRequest* request, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, request->denoise ? "denoise" : "layer image", err))
        return -1;
    return make_image(b, request);
}

int rs_cuda_backend_read_image(RsBackend* base, RsFloat4* image, RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "image read-back", err))
        return -1;
    if (!b->image)
        return rs_error_set(err, "internal error: no image made yet");
    RS_CUDA(&b->ctx, cudaMemcpyAsync(image, b->image, (size_t)b->film_pixels * sizeof(RsFloat4),
                                     cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += (uint64_t)b->film_pixels * sizeof(RsFloat4);
    return 0;
}

/* The viewer hands the same RGBA buffer every frame (RsDisplaySettings.same_rgba). Copying 8 MB (1080p) into pageable memory
 * goes through a staging buffer at a few GB/s, milliseconds of every frame in which the GPU
 * has nothing queued; page-locked once, the copy runs at the bus's speed. Where the system
 * refuses (already registered by another device's backend, no page-locked memory left) the
 * copy stays pageable, which is slower but right, so the refusal is cleared, not reported. */
static void pin_display_buffer(RsCudaBackend* b, uint8_t* rgba)
{
    if (b->display_host == rgba)
        return;
    if (b->display_host)
        cudaHostUnregister(b->display_host);
    b->display_host = NULL;
    if (cudaHostRegister(rgba, (size_t)b->film_pixels * 4, cudaHostRegisterPortable) == cudaSuccess)
        b->display_host = rgba;
    else
        (void)cudaGetLastError();
}

int rs_cuda_backend_display(RsBackend* base, const RsDisplaySettings* settings, uint8_t* rgba, RsDisplayStats* stats,
                            RsError* err)
{
    RsCudaBackend* b = cuda_backend(base);
    if (enter(b, "display", err))
        return -1;
    if (b->display.capacity != b->film_pixels) {
        rs_display_scratch_free(&b->display);
        RS_CUDA(&b->ctx, rs_display_scratch_alloc(&b->display, b->film_pixels));
    }
    const RsFloat4* source = b->film;
    RsImageRequest request = rs_display_image_request(settings);
    if (request.layer != RS_LAYER_BEAUTY || request.denoise) {
        if (make_image(b, &request))
            return -1;
        source = b->image;
    }
    RS_CUDA(&b->ctx, rs_launch_display(source, b->film_pixels, settings->exposure, settings->auto_exposure,
                                       settings->curve, &b->display, b->stream));
    if (settings->same_rgba)
        pin_display_buffer(b, rgba);
    RsDeviceDisplayStats d;
    RS_CUDA(&b->ctx, cudaMemcpyAsync(&d, b->display.stats, sizeof d, cudaMemcpyDeviceToHost, b->stream));
    RS_CUDA(&b->ctx, cudaMemcpyAsync(rgba, b->display.rgba, (size_t)b->film_pixels * 4, cudaMemcpyDeviceToHost,
                                     b->stream));
    RS_CUDA(&b->ctx, cudaStreamSynchronize(b->stream));
    base->readback_bytes += sizeof d + (uint64_t)b->film_pixels * 4;
    stats->log_average = d.log_average;
    stats->max_luminance = d.max_luminance;
    stats->exposure = d.exposure;
    stats->pixels = d.pixels;
    memcpy(stats->histogram, d.histogram, sizeof stats->histogram);
    return 0;
}
