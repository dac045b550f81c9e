/* jpeg_decode.c - JPEG through libjpeg-turbo's libjpeg API (see image_decode.h). Host C11.
 *
 * libjpeg reports fatal errors through error_exit, which jumps back to decode() (the library's
 * documented pattern), and damaged data through warnings, after which it carries on with
 * made-up coefficients: grey where the file ended early, garbage after a bad Huffman code. Every
 * warning about the data is therefore an error here; only the harmless ones (an unknown JFIF
 * revision or Adobe transform code, a bad ICC marker, which is not used, stray bytes between
 * segments) pass. The size is checked after the header, before the decompressor allocates
 * anything of the image's size, and a progressive file may have at most RS_JPEG_MAX_SCANS
 * scans, each of which costs a pass over the whole image.
 *
 * JPEG has no checksum: a flipped bit inside the entropy-coded data can decode to other pixels
 * without anything to notice. Truncation, bad markers, bad tables and bad codes are caught.
 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "host/io/image_decode.h"

#define RS_JPEG_MAX_SCANS 500

typedef struct JpegState {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 64];
} JpegState;

static void on_error_exit(j_common_ptr c)
{
    JpegState* s = (JpegState*)c->client_data;
    if (!s->message[0]) {
        char text[JMSG_LENGTH_MAX];
        c->err->format_message(c, text);
        snprintf(s->message, sizeof s->message, "corrupt JPEG: %s", text);
    }
    longjmp(s->jump, 1);
}

static void on_message(j_common_ptr c, int level)
{
    if (level >= 0) /* trace messages */
        return;
    int code = c->err->msg_code;
    if (code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM || code == JWRN_BOGUS_ICC || code == JWRN_EXTRANEOUS_DATA)
        return;
    JpegState* s = (JpegState*)c->client_data;
    if (code == JWRN_JPEG_EOF && !s->message[0])
        snprintf(s->message, sizeof s->message, "corrupt JPEG: the file is truncated (it ends inside the image)");
    on_error_exit(c);
}

static void on_output(j_common_ptr c)
{
    (void)c; /* library code never prints */
}

static void on_progress(j_common_ptr c)
{
    j_decompress_ptr d = (j_decompress_ptr)c;
    JpegState* s = (JpegState*)c->client_data;
    if (d->input_scan_number > RS_JPEG_MAX_SCANS) {
        snprintf(s->message, sizeof s->message, "corrupt JPEG: more than %d progressive scans", RS_JPEG_MAX_SCANS);
        longjmp(s->jump, 1);
    }
}

static int decode(JpegState* s, const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image,
                  RsError* err)
{
    j_decompress_ptr cinfo = &s->cinfo;
    if (setjmp(s->jump))
        return -1;
    jpeg_mem_src(cinfo, bytes, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    if (rs_image_allocate(image, cinfo->image_width, cinfo->image_height, 0, limits, err))
        return -1;
    image->format = RS_IMAGE_SOURCE_JPEG;
    image->channels = cinfo->num_components == 1 ? 1 : 3;
    if (cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK) {
        snprintf(s->message, sizeof s->message, "a CMYK JPEG, which raystream does not read (save it as RGB)");
        return -1;
    }
    /* the coefficient buffer of a progressive file is about 1.5x the RGBA image */
    cinfo->mem->max_memory_to_use = (long)(limits->max_bytes < (1ull << 40) ? 2 * limits->max_bytes : 1ull << 41);
    cinfo->out_color_space = JCS_EXT_RGBA;
    jpeg_start_decompress(cinfo);
    if (cinfo->output_width != image->width || cinfo->output_height != image->height ||
        cinfo->output_components != 4) {
        snprintf(s->message, sizeof s->message, "JPEG: unexpected output layout");
        return -1;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW row = image->rgba8 + (size_t)cinfo->output_scanline * image->width * 4;
        if (jpeg_read_scanlines(cinfo, &row, 1) != 1) {
            snprintf(s->message, sizeof s->message, "corrupt JPEG: the decoder stopped at row %u", cinfo->output_scanline);
            return -1;
        }
    }
    jpeg_finish_decompress(cinfo); /* reads on to the end: a file cut after its last row is caught */
    return 0;
}

int rs_jpeg_decode(const unsigned char* bytes, size_t size, const RsImageLimits* limits, RsImage* image, RsError* err)
{
    memset(image, 0, sizeof *image);
    JpegState* s = calloc(1, sizeof *s);
    if (!s)
        return rs_error_set(err, "out of memory starting libjpeg");
    s->cinfo.err = jpeg_std_error(&s->errors);
    s->errors.error_exit = on_error_exit;
    s->errors.emit_message = on_message;
    s->errors.output_message = on_output;
    s->cinfo.client_data = s;
    int status = -1;
    if (setjmp(s->jump) == 0) {
        jpeg_create_decompress(&s->cinfo);
        s->progress.progress_monitor = on_progress;
        s->cinfo.progress = &s->progress;
        status = decode(s, bytes, size, limits, image, err);
    } else {
        snprintf(s->message, sizeof s->message, "out of memory starting libjpeg");
    }
    jpeg_destroy_decompress(&s->cinfo);
    if (status) {
        if (s->message[0])
            rs_error_set(err, "%s", s->message);
        rs_image_free(image);
    }
    free(s);
    return status;
}
