/* pixel_order.h - the order in which a sample pass visits the image: 8x4 pixel tiles.
 *
 * Shared header (gcc C11, g++, nvcc). A pass's paths are numbered g = sample * pixels + index;
 * `index` walks the image in tiles of 8 x 4 pixels (bands of 4 rows, tiles left to right, rows
 * inside a tile), so the 32 paths of a warp (or of a CPU batch) start in one compact tile
 * instead of a 32 x 1 strip, and their camera rays, hit points and shadow rays stay close:
 * fewer distinct BVH nodes per warp, fewer idle lanes. Tiles at the right and bottom edges are
 * cut to the image. The mapping is a bijection, and random numbers and the film are keyed by
 * pixel, not by index, so the order changes no image. */
#ifndef RS_KERNEL_PIXEL_ORDER_H
#define RS_KERNEL_PIXEL_ORDER_H

#include "kernel/util/compat.h"

#define RS_TILE_W 8u
#define RS_TILE_H 4u

/* The pixel (y * width + x) that path index `index` of a pass covers. */
RS_FN uint32_t rs_pixel_of_index(uint32_t index, uint32_t width, uint32_t height)
{
    uint32_t band = index / (RS_TILE_H * width);
    uint32_t band_h = height - band * RS_TILE_H < RS_TILE_H ? height - band * RS_TILE_H : RS_TILE_H;
    uint32_t rest = index - band * RS_TILE_H * width;
    uint32_t tile = rest / (RS_TILE_W * band_h);
    uint32_t tile_w = width - tile * RS_TILE_W < RS_TILE_W ? width - tile * RS_TILE_W : RS_TILE_W;
    uint32_t within = rest - tile * RS_TILE_W * band_h;
    uint32_t y = band * RS_TILE_H + within / tile_w, x = tile * RS_TILE_W + within % tile_w;
    return y * width + x;
}

/* The inverse: the path index of a pass that covers `pixel`. */
RS_FN uint32_t rs_index_of_pixel(uint32_t pixel, uint32_t width, uint32_t height)
{
    uint32_t y = pixel / width, x = pixel % width;
    uint32_t band = y / RS_TILE_H, tile = x / RS_TILE_W;
    uint32_t band_h = height - band * RS_TILE_H < RS_TILE_H ? height - band * RS_TILE_H : RS_TILE_H;
    uint32_t tile_w = width - tile * RS_TILE_W < RS_TILE_W ? width - tile * RS_TILE_W : RS_TILE_W;
    return band * RS_TILE_H * width + tile * RS_TILE_W * band_h + (y % RS_TILE_H) * tile_w + x % RS_TILE_W;
}

#endif /* RS_KERNEL_PIXEL_ORDER_H */
