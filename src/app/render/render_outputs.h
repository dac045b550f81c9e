/* render_outputs.h - the files `raystream render` writes at the end (or when it stops early):
 * every -o output in its format, with the denoised beauty and the AOV layers asked for.
 * Host C11, application layer. */
#ifndef RS_APP_RENDER_OUTPUTS_H
#define RS_APP_RENDER_OUTPUTS_H

#include <stddef.h>

#include "app/command_args.h"
#include "app/output_paths.h"
#include "host/render/image_settings.h"
#include "host/render/renderer.h"

/* "out.png" -> "out.partial.png" (what an interrupted render writes) */
void rs_render_partial_name(const char* path, char* out, size_t size);
/* "out.png" -> "out.noisy.png" (the noisy beauty beside a denoised non-EXR output) */
void rs_render_noisy_name(const char* path, char* out, size_t size);

/* Every file the render will write, or may (an interrupt's NAME.partial.EXT, --denoise's
 * NAME.noisy.EXT and NAME.partial.noisy.EXT beside non-EXR outputs, the checkpoint), as
 * writes, and the inputs known before the scene loads as reads: the scene, and --resume's
 * checkpoint unless it is the --checkpoint file (continuing a render in place). */
int rs_render_list_paths(const RsRenderArgs* args, RsPathSet* paths, RsError* err);

/* Writes the outputs from the renderer's film: PNGs through the display pipeline, linear
 * formats from the film; with --denoise the denoiser's image is the beauty; .exr outputs get
 * the AOV layers and the noisy beauty as layers, and the render's settings (render_settings.h;
 * may be NULL) as string attributes "raystream:NAME", with "raystream:spp_reached" the samples
 * per pixel the film holds, and "raystream:version", "raystream:scene_file" and the camera
 * ("raystream:camera.eye", ".look_at", ".up", ".fov" or ".projection" + ".ortho_height",
 * ".aperture" + ".focus_distance" for a thin lens; camera may be NULL). partial:
 * NAME.partial.EXT. Returns RS_EXIT_*. */
int rs_render_write_outputs(RsRenderer* renderer, uint32_t width, uint32_t height, const RsRenderArgs* args,
                            const RsCameraDesc* camera, const RsImageSettings* settings, int partial);

#endif /* RS_APP_RENDER_OUTPUTS_H */
