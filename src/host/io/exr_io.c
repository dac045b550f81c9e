/* exr_io.c - OpenEXR writing and reading (see exr_io.h). Host C11.
 *
 * Both directions give the library a memory stream (its write_fn / read_fn callbacks): the
 * writer so the file lands through rs_file_write_atomic, the reader so the file is opened the
 * way every input is (regular file, size limit) before the library sees a byte. Errors the
 * library reports go to the stream's message, which then names the file.
 */
#include "host/io/exr_io.h"

#include <openexr.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host/io/safe_file.h"

#define RS_EXR_MAX_BYTES (4ull << 30)
#define RS_EXR_MAX_CHANNELS 64

typedef struct MemoryStream {
    unsigned char* data;
    size_t size, capacity;
    char message[256]; /* the library's last error message */
} MemoryStream;

/* The stream of the call in progress on this thread, for on_error: the library may report an
 * error while it holds its context's lock (exr_attr_set_string on a write context does), and
 * exr_get_user_data takes that lock again, which never returns. */
static _Thread_local MemoryStream* current;

static void on_error(exr_const_context_t ctxt, exr_result_t code, const char* msg)
{
    (void)ctxt;
    MemoryStream* s = current;
    if (s && !s->message[0])
        snprintf(s->message, sizeof s->message, "%s", msg ? msg : exr_get_default_error_message(code));
}

static int64_t memory_write(exr_const_context_t ctxt, void* user, const void* buffer, uint64_t size, uint64_t offset,
                            exr_stream_error_func_ptr_t error_cb)
{
    MemoryStream* s = user;
    if (offset + size > s->capacity) {
        size_t want = s->capacity ? s->capacity : 1 << 16;
        while (want < offset + size)
            want *= 2;
        unsigned char* grown = realloc(s->data, want);
        if (!grown) {
            error_cb(ctxt, EXR_ERR_OUT_OF_MEMORY, "out of memory encoding the image");
            return -1;
        }
        s->data = grown;
        s->capacity = want;
    }
    memcpy(s->data + offset, buffer, size);
    if (offset + size > s->size)
        s->size = offset + size;
    return (int64_t)size;
}

static int64_t memory_read(exr_const_context_t ctxt, void* user, void* buffer, uint64_t size, uint64_t offset,
                           exr_stream_error_func_ptr_t error_cb)
{
    (void)ctxt;
    (void)error_cb;
    MemoryStream* s = user;
    if (offset >= s->size)
        return 0;
    uint64_t n = s->size - offset < size ? s->size - offset : size;
    memcpy(buffer, s->data + offset, n);
    return (int64_t)n;
}

static int64_t memory_size(exr_const_context_t ctxt, void* user)
{
    (void)ctxt;
    return (int64_t)((MemoryStream*)user)->size;
}

static int exr_fail(const char* path, const char* doing, exr_result_t rv, const MemoryStream* s, RsError* err)
{
    return rs_error_set(err, "%s: %s: %s", path, doing, s->message[0] ? s->message : exr_get_default_error_message(rv));
}

/* ---- writing ---- */

typedef struct ChannelSource {
    char name[64];
    const float* first; /* this channel's value of pixel 0 */
    int stride;         /* floats from one pixel to the next */
} ChannelSource;

static int list_sources(const char* path, const RsExrLayer* layers, int count, ChannelSource* out, int* n,
                        RsError* err)
{
    *n = 0;
    for (int l = 0; l < count; ++l) {
        int k = (int)strlen(layers[l].channels);
        for (int c = 0; c < k; ++c) {
            if (*n == RS_EXR_MAX_CHANNELS)
                return rs_error_set(err, "%s: more than %d channels", path, RS_EXR_MAX_CHANNELS);
            ChannelSource* s = &out[(*n)++];
            if (layers[l].name[0])
                snprintf(s->name, sizeof s->name, "%s.%c", layers[l].name, layers[l].channels[c]);
            else
                snprintf(s->name, sizeof s->name, "%c", layers[l].channels[c]);
            s->first = layers[l].data + c;
            s->stride = k;
        }
    }
    return 0;
}

static const ChannelSource* find_source(const ChannelSource* sources, int n, const char* name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(sources[i].name, name) == 0)
            return &sources[i];
    return NULL;
}

/* Encodes the image into s. */
static exr_result_t encode(exr_context_t ctxt, uint32_t width, uint32_t height, const ChannelSource* sources, int n,
                           const RsExrAttribute* attributes, int attribute_count, int half)
{
    int part = 0;
    exr_result_t rv = exr_add_part(ctxt, "raystream", EXR_STORAGE_SCANLINE, &part);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_initialize_required_attr_simple(ctxt, part, (int32_t)width, (int32_t)height, EXR_COMPRESSION_ZIP);
    for (int i = 0; i < n && rv == EXR_ERR_SUCCESS; ++i)
        rv = exr_add_channel(ctxt, part, sources[i].name, half ? EXR_PIXEL_HALF : EXR_PIXEL_FLOAT,
                             EXR_PERCEPTUALLY_LINEAR, 1, 1);
    int long_names = 0;
    for (int i = 0; i < attribute_count; ++i)
        long_names |= strlen(attributes[i].name) > 31; /* the format's short-name limit */
    if (rv == EXR_ERR_SUCCESS && long_names)
        rv = exr_set_longname_support(ctxt, 1);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_attr_set_string(ctxt, part, "software", "raystream");
    for (int i = 0; i < attribute_count && rv == EXR_ERR_SUCCESS; ++i)
        rv = exr_attr_set_string(ctxt, part, attributes[i].name, attributes[i].value);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_write_header(ctxt);
    int32_t lines = 1;
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_scanlines_per_chunk(ctxt, part, &lines);
    exr_encode_pipeline_t encoder = EXR_ENCODE_PIPELINE_INITIALIZER;
    int started = 0;
    for (uint32_t y = 0; y < height && rv == EXR_ERR_SUCCESS; y += (uint32_t)lines) {
        exr_chunk_info_t chunk;
        rv = exr_write_scanline_chunk_info(ctxt, part, (int)y, &chunk);
        if (rv == EXR_ERR_SUCCESS)
            rv = started ? exr_encoding_update(ctxt, part, &chunk, &encoder)
                         : exr_encoding_initialize(ctxt, part, &chunk, &encoder);
        if (rv != EXR_ERR_SUCCESS)
            break;
        for (int c = 0; c < encoder.channel_count; ++c) {
            exr_coding_channel_info_t* ch = &encoder.channels[c];
            const ChannelSource* src = find_source(sources, n, ch->channel_name);
            ch->user_bytes_per_element = 4;
            ch->user_data_type = EXR_PIXEL_FLOAT;
            ch->user_pixel_stride = src->stride * 4;
            ch->user_line_stride = (int32_t)width * src->stride * 4;
            ch->encode_from_ptr = (const uint8_t*)(src->first + (size_t)chunk.start_y * width * src->stride);
        }
        if (!started) {
            rv = exr_encoding_choose_default_routines(ctxt, part, &encoder);
            started = 1;
        }
        if (rv == EXR_ERR_SUCCESS)
            rv = exr_encoding_run(ctxt, part, &encoder);
    }
    if (started)
        exr_encoding_destroy(ctxt, &encoder);
    return rv;
}

int rs_exr_write(const char* path, uint32_t width, uint32_t height, const RsExrLayer* layers, int layer_count,
                 int half, RsError* err)
{
    return rs_exr_write_with_attributes(path, width, height, layers, layer_count, NULL, 0, half, err);
}

int rs_exr_write_with_attributes(const char* path, uint32_t width, uint32_t height, const RsExrLayer* layers,
                                 int layer_count, const RsExrAttribute* attributes, int attribute_count, int half,
                                 RsError* err)
{
    ChannelSource sources[RS_EXR_MAX_CHANNELS];
    int n = 0;
    if (width == 0 || height == 0 || width > INT32_MAX || height > INT32_MAX)
        return rs_error_set(err, "%s: cannot write a %ux%u image", path, width, height);
    if (list_sources(path, layers, layer_count, sources, &n, err))
        return -1;
    for (int i = 0; i < attribute_count; ++i) {
        size_t len = strlen(attributes[i].name);
        int control = 0;
        for (size_t k = 0; k < len; ++k)
            control |= (unsigned char)attributes[i].name[k] < 0x20;
        if (len == 0 || len > RS_EXR_MAX_ATTRIBUTE_NAME || control)
            return rs_error_set(err, "%s: cannot name an OpenEXR attribute '%.40s...' (%zu bytes)", path,
                                attributes[i].name, len);
    }
    MemoryStream s = {0};
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &s;
    init.write_fn = memory_write;
    init.error_handler_fn = on_error;
    exr_context_t ctxt = NULL;
    MemoryStream* outer = current;
    current = &s;
    exr_result_t rv = exr_start_write(&ctxt, path, EXR_WRITE_FILE_DIRECTLY, &init);
    if (rv == EXR_ERR_SUCCESS)
        rv = encode(ctxt, width, height, sources, n, attributes, attribute_count, half);
    if (ctxt) {
        exr_result_t finished = exr_finish(&ctxt);
        rv = rv == EXR_ERR_SUCCESS ? finished : rv;
    }
    int status = 0;
    if (rv != EXR_ERR_SUCCESS) {
        status = exr_fail(path, "encoding OpenEXR", rv, &s, err);
    } else {
        RsBytes part = {s.data, s.size};
        status = rs_file_write_atomic(path, &part, 1, err);
    }
    current = outer;
    free(s.data);
    return status;
}

/* ---- reading ---- */

void rs_exr_image_free(RsExrImage* image)
{
    for (int i = 0; i < image->channel_count && image->channels; ++i)
        free(image->channels[i]);
    free(image->channels);
    free(image->names);
    memset(image, 0, sizeof *image);
}

const float* rs_exr_channel(const RsExrImage* image, const char* name)
{
    for (int i = 0; i < image->channel_count; ++i)
        if (strcmp(image->names[i], name) == 0)
            return image->channels[i];
    return NULL;
}

static exr_result_t decode(exr_const_context_t ctxt, const exr_attr_box2i_t* dw, RsExrImage* image)
{
    int32_t lines = 1;
    exr_result_t rv = exr_get_scanlines_per_chunk(ctxt, 0, &lines);
    exr_decode_pipeline_t decoder = EXR_DECODE_PIPELINE_INITIALIZER;
    int started = 0;
    for (int32_t y = dw->min.y; y <= dw->max.y && rv == EXR_ERR_SUCCESS; y += lines) {
        exr_chunk_info_t chunk;
        rv = exr_read_scanline_chunk_info(ctxt, 0, y, &chunk);
        if (rv == EXR_ERR_SUCCESS)
            rv = started ? exr_decoding_update(ctxt, 0, &chunk, &decoder)
                         : exr_decoding_initialize(ctxt, 0, &chunk, &decoder);
        if (rv != EXR_ERR_SUCCESS)
            break;
        for (int c = 0; c < decoder.channel_count; ++c) {
            exr_coding_channel_info_t* ch = &decoder.channels[c];
            float* target = (float*)rs_exr_channel(image, ch->channel_name);
            ch->user_bytes_per_element = 4;
            ch->user_data_type = EXR_PIXEL_FLOAT;
            ch->user_pixel_stride = 4;
            ch->user_line_stride = (int32_t)image->width * 4;
            ch->decode_to_ptr = (uint8_t*)(target + (size_t)(chunk.start_y - dw->min.y) * image->width);
        }
        if (!started) {
            rv = exr_decoding_choose_default_routines(ctxt, 0, &decoder);
            started = 1;
        }
        if (rv == EXR_ERR_SUCCESS)
            rv = exr_decoding_run(ctxt, 0, &decoder);
    }
    if (started)
        exr_decoding_destroy(ctxt, &decoder);
    return rv;
}

/* Sizes the image from the header and allocates its channels; 0, or -1 with err set. */
static int describe(const char* path, exr_const_context_t ctxt, exr_attr_box2i_t* dw, RsExrImage* image,
                    MemoryStream* s, RsError* err)
{
    exr_storage_t storage;
    const exr_attr_chlist_t* list = NULL;
    exr_result_t rv = exr_get_storage(ctxt, 0, &storage);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_data_window(ctxt, 0, dw);
    if (rv == EXR_ERR_SUCCESS)
        rv = exr_get_channels(ctxt, 0, &list);
    if (rv != EXR_ERR_SUCCESS)
        return exr_fail(path, "reading the header", rv, s, err);
    if (storage != EXR_STORAGE_SCANLINE)
        return rs_error_set(err, "%s: only scanline OpenEXR files are read (this one is tiled or deep)", path);
    int64_t w = (int64_t)dw->max.x - dw->min.x + 1, h = (int64_t)dw->max.y - dw->min.y + 1;
    if (w <= 0 || h <= 0 || w * h > (1ll << 28) || list->num_channels <= 0 || list->num_channels > RS_EXR_MAX_CHANNELS)
        return rs_error_set(err, "%s: unsupported data window or channel count", path);
    image->width = (uint32_t)w;
    image->height = (uint32_t)h;
    image->names = calloc((size_t)list->num_channels, sizeof *image->names);
    image->channels = calloc((size_t)list->num_channels, sizeof *image->channels);
    if (!image->names || !image->channels)
        return rs_error_set(err, "%s: out of memory", path);
    image->half = list->entries[0].pixel_type == EXR_PIXEL_HALF;
    for (int i = 0; i < list->num_channels; ++i) {
        const exr_attr_chlist_entry_t* e = &list->entries[i];
        if (e->x_sampling != 1 || e->y_sampling != 1)
            return rs_error_set(err, "%s: channel %s is subsampled, which is not read", path, e->name.str);
        snprintf(image->names[i], sizeof image->names[i], "%s", e->name.str);
        image->channels[i] = calloc((size_t)(w * h), sizeof(float));
        image->channel_count = i + 1;
        if (!image->channels[i])
            return rs_error_set(err, "%s: out of memory", path);
    }
    return 0;
}

int rs_exr_read(const char* path, RsExrImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    MemoryStream s = {0};
    char why[256];
    s.data = (unsigned char*)rs_file_read_all(path, RS_EXR_MAX_BYTES, &s.size, why, sizeof why);
    if (!s.data)
        return rs_error_set(err, "cannot read '%s': %s", path, why);
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    init.user_data = &s;
    init.read_fn = memory_read;
    init.size_fn = memory_size;
    init.error_handler_fn = on_error;
    exr_context_t ctxt = NULL;
    exr_attr_box2i_t dw;
    int status = -1;
    MemoryStream* outer = current;
    current = &s;
    exr_result_t rv = exr_start_read(&ctxt, path, &init);
    if (rv != EXR_ERR_SUCCESS)
        exr_fail(path, "not a readable OpenEXR file", rv, &s, err);
    else if (describe(path, ctxt, &dw, image, &s, err) != 0)
        ; /* err says why */
    else if ((rv = decode(ctxt, &dw, image)) != EXR_ERR_SUCCESS)
        exr_fail(path, "decoding", rv, &s, err);
    else
        status = 0;
    if (ctxt)
        exr_finish(&ctxt);
    current = outer;
    free(s.data);
    if (status)
        rs_exr_image_free(image);
    return status;
}
