/* exr_decode.c - OpenEXR images through the OpenEXR C API, OpenEXRCore (see image_decode.h).
 * Host C11.
 *
 * The first part of the file, scanline or tiled (its full-resolution level), with R, G and B
 * channels or a single Y; other channels (alpha, layers) are skipped, not decoded. The library
 * reads from the bytes in memory through read_fn / size_fn, as exr_io.c does, so every offset it
 * follows is checked against the file's size by memory_read. The data window's size is checked
 * against the budget right after the header; chunks are decoded straight into the image. A
 * chunk the library cannot find or decode is an error: no pixel is left unwritten.
 *
 * B44, B44A, DWAA and DWAB compression are refused by name: OpenEXRCore 3.1 (Debian 12) has no
 * DWA decoder (it fails with a misleading message unless a chunk happens to be stored raw) and
 * decodes B44 float channels into wrong values without a word, and B44 tiles at an image's
 * edge not at all. (Files the C++ library wrote with every compression, half and float, with and
 * without extra layers, scanline and tiled with partial tiles, decoded here and compared with
 * what the C++ library reads back: only these four differ.)
 */
#include <openexr.h>
#include <stdio.h>
#include <string.h>

#include "host/io/image_decode.h"

typedef struct ExrSource {
    const unsigned char* bytes;
    size_t size;
    char message[256];
} ExrSource;

static void on_error(exr_const_context_t ctxt, exr_result_t code, const char* msg)
{
    void* user = NULL;
    exr_get_user_data(ctxt, &user);
    ExrSource* s = user;
    if (s && !s->message[0])
        snprintf(s->message, sizeof s->message, "%s", msg ? msg : exr_get_default_error_message(code));
}

static int64_t memory_read(exr_const_context_t ctxt, void* user, void* buffer, uint64_t size, uint64_t offset,
                           exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    const ExrSource* s = user;
    if (offset >= s->size)
        return 0;
    uint64_t n = s->size - offset < size ? s->size - offset : size;
    memcpy(buffer, s->bytes + offset, n);
    return (int64_t)n;
}

static int64_t memory_size(exr_const_context_t ctxt, void* user)
{
    (void)ctxt;
    return (int64_t)((const ExrSource*)user)->size;
}

typedef struct Target {
    RsImage* image;
    exr_attr_box2i_t window;
    const char* names[3]; /* the channels that go to x, y, z; one name three times for Y */
    int grey;
} Target;

/* Points the decoder's channels at the image for a chunk of w x h pixels at (x0, y0) of the
 * data window. */
static void aim(exr_decode_pipeline_t* decoder, const Target* t, int64_t x0, int64_t y0)
{
    uint32_t width = t->image->width;
    RsFloat4* first = t->image->rgbaf + (size_t)y0 * width + (size_t)x0;
    for (int c = 0; c < decoder->channel_count; ++c) {
        exr_coding_channel_info_t* ch = &decoder->channels[c];
        ch->decode_to_ptr = NULL; /* skipped */
        for (int k = 0; k < (t->grey ? 1 : 3); ++k)
            if (strcmp(ch->channel_name, t->names[k]) == 0) {
                ch->user_bytes_per_element = 4;
                ch->user_data_type = EXR_PIXEL_FLOAT;
                ch->user_pixel_stride = (int32_t)sizeof(RsFloat4);
                ch->user_line_stride = (int32_t)(width * sizeof(RsFloat4));
                ch->decode_to_ptr = (uint8_t*)first + k * sizeof(float);
            }
    }
}

/* Decodes one chunk into the image; chunk x / y are pixel positions of the chunk's corner. */
static exr_result_t decode_chunk(exr_const_context_t ctxt, exr_decode_pipeline_t* decoder, int* started,
                                 const exr_chunk_info_t* chunk, const Target* t, int64_t x, int64_t y, ExrSource* s)
{
    int64_t x0 = x - t->window.min.x, y0 = y - t->window.min.y;
    if (x0 < 0 || y0 < 0 || chunk->width <= 0 || chunk->height <= 0 || x0 + chunk->width > t->image->width ||
        y0 + chunk->height > t->image->height) {
        snprintf(s->message, sizeof s->message, "a chunk lies outside the data window");
        return EXR_ERR_CORRUPT_CHUNK;
    }
    exr_result_t rv = *started ? exr_decoding_update(ctxt, 0, chunk, decoder)
                               : exr_decoding_initialize(ctxt, 0, chunk, decoder);
    if (rv != EXR_ERR_SUCCESS)
        return rv;
    aim(decoder, t, x0, y0);
    if (!*started) {
        rv = exr_decoding_choose_default_routines(ctxt, 0, decoder);
        *started = 1;
    }
    return rv == EXR_ERR_SUCCESS ? exr_decoding_run(ctxt, 0, decoder) : rv;
}

static exr_result_t decode_all(exr_const_context_t ctxt, exr_storage_t storage, const Target* t, ExrSource* s)
{
    exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
    int started = 0;
    exr_result_t rv = EXR_ERR_SUCCESS;
    exr_chunk_info_t chunk;
    if (storage == EXR_STORAGE_SCANLINE) {
        int32_t lines = 1;
        rv = exr_get_scanlines_per_chunk(ctxt, 0, &lines);
        if (rv == EXR_ERR_SUCCESS && lines <= 0)
            rv = EXR_ERR_INVALID_ATTR;
        for (int64_t y = t->window.min.y; y <= t->window.max.y && rv == EXR_ERR_SUCCESS;) {
            rv = exr_read_scanline_chunk_info(ctxt, 0, (int)y, &chunk);
            if (rv == EXR_ERR_SUCCESS)
                rv = decode_chunk(ctxt, &decoder, &started, &chunk, t, t->window.min.x, chunk.start_y, s);
            /* the next chunk starts where this one ends (the first may start above the window) */
            y = rv == EXR_ERR_SUCCESS ? (int64_t)chunk.start_y + chunk.height : y;
        }
    } else {
        int32_t tile_w = 0, tile_h = 0;
        rv = exr_get_tile_sizes(ctxt, 0, 0, 0, &tile_w, &tile_h);
        if (rv == EXR_ERR_SUCCESS && (tile_w <= 0 || tile_h <= 0))
            rv = EXR_ERR_INVALID_ATTR;
        int64_t tiles_x = rv ? 0 : ((int64_t)t->image->width + tile_w - 1) / tile_w;
        int64_t tiles_y = rv ? 0 : ((int64_t)t->image->height + tile_h - 1) / tile_h;
        for (int64_t ty = 0; ty < tiles_y && rv == EXR_ERR_SUCCESS; ++ty)
            for (int64_t tx = 0; tx < tiles_x && rv == EXR_ERR_SUCCESS; ++tx) {
                rv = exr_read_tile_chunk_info(ctxt, 0, (int)tx, (int)ty, 0, 0, &chunk);
                if (rv == EXR_ERR_SUCCESS)
                    rv = decode_chunk(ctxt, &decoder, &started, &chunk, t, t->window.min.x + tx * tile_w,
                                      t->window.min.y + ty * tile_h, s);
            }
    }
    if (started)
        exr_decoding_destroy(ctxt, &decoder);
    return rv;
}

/* The channels to read; 0, or -1 with err set. */
static int pick_channels(const exr_attr_chlist_t* list, Target* t, RsError* err)
{
    static const char* rgb[3] = {"R", "G", "B"};
    int found[3] = {0, 0, 0}, y = 0;
    for (int i = 0; i < list->num_channels; ++i) {
        const exr_attr_chlist_entry_t* e = &list->entries[i];
        int wanted = 0;
        for (int k = 0; k < 3; ++k)
            if (strcmp(e->name.str, rgb[k]) == 0)
                found[k] = wanted = 1;
        if (strcmp(e->name.str, "Y") == 0)
            y = wanted = 1;
        if (wanted && (e->x_sampling != 1 || e->y_sampling != 1))
            return rs_error_set(err, "OpenEXR channel %s is subsampled, which raystream does not read", e->name.str);
    }
    if (found[0] && found[1] && found[2]) {
        memcpy(t->names, rgb, sizeof rgb);
        t->grey = 0;
        return 0;
    }
    if (y) {
        t->names[0] = t->names[1] = t->names[2] = "Y";
        t->grey = 1;
        return 0;
    }
    return rs_error_set(err, "the OpenEXR image has no R, G, B or Y channels (its first is '%s')",
                        list->num_channels > 0 ? list->entries[0].name.str : "none");
}

static int read_image(exr_const_context_t ctxt, ExrSource* s, const RsImageLimits* limits, RsImage* image,
                      RsError* err)
{
    exr_storage_t storage;
    const exr_attr_chlist_t* list = NULL;
    Target t;
    memset(&t, 0, sizeof t);
    t.image = image;
    exr_result_t rv = exr_get_storage(ctxt, 0, &storage);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_data_window(ctxt, 0, &t.window);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_channels(ctxt, 0, &list);
    if (rv != EXR_ERR_SUCCESS || !list)
        return rs_error_set(err, "corrupt OpenEXR header: %s", s->message[0] ? s->message : exr_get_default_error_message(rv));
    if (storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED)
        return rs_error_set(err, "a deep OpenEXR image, which raystream does not read");
    exr_compression_t compression = EXR_COMPRESSION_NONE;
    if (exr_get_compression(ctxt, 0, &compression) != EXR_ERR_SUCCESS)
        return rs_error_set(err, "corrupt OpenEXR header: no compression attribute");
    if (compression == EXR_COMPRESSION_B44 || compression == EXR_COMPRESSION_B44A ||
        compression == EXR_COMPRESSION_DWAA || compression == EXR_COMPRESSION_DWAB)
        return rs_error_set(err, "an OpenEXR image with %s compression, which the OpenEXR C library cannot decode "
                            "reliably; save it with ZIP, PIZ, PXR24, RLE or no compression",
                            compression == EXR_COMPRESSION_B44    ? "B44"
                            : compression == EXR_COMPRESSION_B44A ? "B44A"
                            : compression == EXR_COMPRESSION_DWAA ? "DWAA"
                                                                  : "DWAB");
    int64_t w = (int64_t)t.window.max.x - t.window.min.x + 1, h = (int64_t)t.window.max.y - t.window.min.y + 1;
    if (w <= 0 || h <= 0)
        return rs_error_set(err, "the OpenEXR data window is empty");
    if (pick_channels(list, &t, err) ||
        rs_image_allocate(image, w > UINT32_MAX ? UINT32_MAX : (uint32_t)w, h > UINT32_MAX ? UINT32_MAX : (uint32_t)h, 1,
                          limits, err))
        return -1;
    image->format = RS_IMAGE_SOURCE_EXR;
    image->channels = t.grey ? 1 : 3;
    for (size_t i = 0; i < (size_t)image->width * image->height; ++i)
        image->rgbaf[i].w = 1.0f;
    rv = decode_all(ctxt, storage, &t, s);
    if (rv != EXR_ERR_SUCCESS)
        return rs_error_set(err, "corrupt OpenEXR data: %s", s->message[0] ? s->message : exr_get_default_error_message(rv));
    if (t.grey)
        for (size_t i = 0; i < (size_t)image->width * image->height; ++i)
            image->rgbaf[i].y = image->rgbaf[i].z = image->rgbaf[i].x;
    return 0;
}

int rs_exr_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    ExrSource s;
    memset(&s, 0, sizeof s);
    s.bytes = bytes;
    s.size = size;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &s;
    init.read_fn = memory_read;
    init.size_fn = memory_size;
    init.error_handler_fn = on_error;
    exr_context_t ctxt = NULL;
    int status = -1;
    exr_result_t rv = exr_start_read(&ctxt, "image", &init);
    if (rv != EXR_ERR_SUCCESS)
        rs_error_set(err, "corrupt OpenEXR: %s", s.message[0] ? s.message : exr_get_default_error_message(rv));
    else
        status = read_image(ctxt, &s, limits, image, err);
    if (ctxt)
        exr_finish(&ctxt);
    if (status)
        rs_image_free(image);
    return status;
}
