/* texture.h - loading image textures and building their mip chains, into the arrays that
 * src/kernel/texture/texture.h reads. Host C11.
 *
 * host/io/image_decode.h reads the file (PNG or JPEG, recognised by content; other formats are
 * refused by name, high-dynamic-range ones before they are decoded); every image becomes RGBA8
 * with a full mip chain, each level the 2x2 box average of the one before (in linear light for
 * colour textures, which stay sRGB-encoded in memory). A file used by several materials with
 * the same flags is loaded once. Errors name the texture file and the caller's `where` (the
 * scene file and material): a missing or unreadable file, a truncated or corrupt image, an
 * empty image, one larger than RS_TEXTURE_MAX_SIZE on a side or RS_TEXTURE_MAX_BYTES decoded
 * (checked from the header, before decoding), and HDR and EXR images, which raystream does not
 * read as textures.
 */
#ifndef RS_HOST_TEXTURE_H
#define RS_HOST_TEXTURE_H

#include "host/util/array.h"
#include "host/util/error.h"
#include "host/util/name_index.h"
#include "kernel/texture/texture.h"

/* For rs_texture_load only: the image is a cut-out mask, whose coverage is its alpha channel if
 * it has one and its first channel otherwise (MTL map_d files are often greyscale). */
#define RS_TEXTURE_LOAD_MASK 0x80u

#define RS_TEXTURE_MAX_SIZE 16384               /* texels on a side */
#define RS_TEXTURE_MAX_BYTES (1ull << 30)       /* decoded RGBA8, before mips: 16384 x 16384 */
#define RS_TEXTURE_MAX_FILE_BYTES (1ull << 30)

typedef struct RsTextureSet {
    RS_ARRAY(char*) keys; /* flags and path, e.g. "1:/scenes/wood.png": one entry per texture */
    RsNameIndex index;
    RS_ARRAY(RsUint4) descriptors;
    RS_ARRAY(uint32_t) texels;
    float srgb_to_linear[256];
} RsTextureSet;

/* An sRGB-encoded value in [0, 1] as linear light (IEC 61966-2-1). */
float rs_srgb_decode(float c);

void rs_texture_set_init(RsTextureSet* set);
void rs_texture_set_free(RsTextureSet* set);

/* The texture of the image file at `path` with flags RS_TEXTURE_*: its index, or -1 with an
 * error "WHERE: texture 'PATH': problem". */
int32_t rs_texture_load(RsTextureSet* set, const char* path, uint32_t flags, const char* where, RsError* err);

/* A texture from RGBA8 pixels in memory (rows from the top), under `name`. */
int32_t rs_texture_add_rgba8(RsTextureSet* set, const char* name, const uint8_t* rgba, uint32_t width,
                             uint32_t height, uint32_t flags, RsError* err);

/* A procedural checkerboard of two linear colours (kernel/texture/texture.h,
 * RS_TEXTURE_CHECKER): its index (the same for the same colours), or -1. */
int32_t rs_texture_add_checkerboard(RsTextureSet* set, RsVec3 colour0, RsVec3 colour1, RsError* err);

RsTextureView rs_texture_set_view(const RsTextureSet* set);

/* The mean colour of texture `index` in linear light (its last mip level, one texel). */
RsVec3 rs_texture_mean(const RsTextureSet* set, uint32_t index);
/* The mean of one channel (0 red .. 3 alpha) of texture `index`, as stored (linear for 0..2 only
 * if the texture is not sRGB). */
float rs_texture_mean_channel(const RsTextureSet* set, uint32_t index, int channel);

#endif /* RS_HOST_TEXTURE_H */
