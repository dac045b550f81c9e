/* render_settings.h - what `raystream render` records about an image (the list of
 * host/render/image_settings.h, plus the program's build) and where each of its options stands:
 * on that list, or declared not to change the image, and why.
 *
 * Host C11, application layer. The list goes into checkpoints (checked on --resume), into the
 * ranks' agreement before an MPI render, and into the metadata of EXR outputs.
 * tests/app/test_render_settings.c walks `render --help` and checks every option against
 * rs_render_option_effect: an option said to feed an entry must change it, one said not to
 * change the image must leave the whole list as it was.
 */
#ifndef RS_APP_RENDER_SETTINGS_H
#define RS_APP_RENDER_SETTINGS_H

#include "app/command_args.h"
#include "app/render/cluster.h"
#include "host/render/image_settings.h"

typedef struct RsOptionEffect {
    const char* option;  /* "--seed" */
    const char* samples; /* values to try, '|'-separated ("sobol|independent"); NULL: a flag */
    const char* setting; /* the list entry it feeds, or NULL: it does not change the image ... */
    const char* why;     /* ... because of this */
} RsOptionEffect;

/* The row of `option` ("--seed"), or NULL for an option the table does not know. */
const RsOptionEffect* rs_render_option_effect(const char* option);
/* The whole table (*count rows). */
const RsOptionEffect* rs_render_option_effects(size_t* count);

/* The settings of this render: the scene after the command line's overrides (its accel options
 * and light sampler), the frame, the film planes, and, when files is not NULL, every input
 * file's content hash. */
int rs_render_settings(const RsRenderArgs* a, const RsScene* scene, const RsFrameDesc* frame, uint32_t film_planes,
                       uint32_t spp, const RsFileList* files, RsImageSettings* out, RsError* err);

/* Under mpirun: rank 0's list goes to every rank, and each compares it with its own. A rank
 * whose RS_SETTING_IMAGE or RS_SETTING_JOB entries differ says so ("rank 2 of 3: rank 0 uses
 * seed 1; this rank uses seed 2") and every rank returns -1; a RS_SETTING_ROUNDING difference is
 * a warning. Alone, returns 0 at once. */
int rs_render_agree(RsCluster* cl, const RsImageSettings* ours);

#endif /* RS_APP_RENDER_SETTINGS_H */
