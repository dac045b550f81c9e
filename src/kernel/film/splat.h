/* splat.h - the splat film: contributions to any pixel from any thread, summed in an order that
 * does not depend on the threads. The integrator seam of docs/architecture.md.
 *
 * Shared header (gcc C11, g++, nvcc). A path tracer writes each pixel from the one path that
 * owns it; light tracing (camera connections) and photon mapping (deposits) add to pixels that
 * no thread owns, many threads to one pixel. Float atomics would make the sum depend on the
 * order in which threads arrive. Instead:
 *
 *   append   rs_splat_add puts a record (pixel, order key, rgb) at the next slot of a queue
 *            (one atomic add on a 64-bit counter); slots follow the scheduling, which is fine:
 *            the record carries its own place in the sum.
 *   resolve  (host/backend/cpu/splat_cpu.c, cuda/post/splat.cu) sorts the records by their
 *            64-bit key, pixel high and order key low, and one thread per pixel sums the
 *            pixel's run in key order with rs_splat_resolve_run, then adds that sum to the
 *            pixel's entry of a splat plane (one RsFloat4 per pixel, rgb sums, w left alone).
 *
 * The plane's bits then depend only on the SET of records: not on thread count, scheduling,
 * device or backend. Both backends run the very same rs_splat_resolve_run (float additions
 * only, each rounded alone through rs_add_rn: nothing for nvcc to contract or reorder).
 *
 * The producer guarantees that order keys are unique within one resolve (a chunk): e.g.
 * particle index in the chunk * max vertices + vertex for light tracing, and that a chunk stays
 * under 2^32 splats. Resolve reports a repeated key as an error, since the order of two equal
 * keys would be the scheduler's. A resolve adds one run sum per pixel: plane += (s0 + s1 + ...),
 * so a chunk's contribution does not depend on what the plane held before; chunks resolved in
 * chunk order give the same bits on any device and any number of ranks.
 *
 * Overflow: the counter keeps counting past the capacity and records past it are not written.
 * Which records made it in would be the scheduler's choice, so resolve then adds nothing and
 * reports "splat queue overflow: N splats for a capacity of M"; never a silent drop.
 */
#ifndef RS_KERNEL_SPLAT_H
#define RS_KERNEL_SPLAT_H

#include "kernel/util/compat.h"
#include "kernel/util/vecmath.h"

/* One contribution: 32 bytes, 16-byte aligned, two 128-bit words (one 128-bit store each on
 * the GPU):
 *   bytes  0-7   key: rs_splat_key(pixel, order), pixel in the high 32 bits
 *   bytes  8-15  reserved (0)
 *   bytes 16-31  value: rgb contribution | w 0 (ignored by resolve) */
typedef struct RsSplat {
    RS_ALIGNAS(16) uint64_t key;
    uint64_t reserved;
    RsFloat4 value;
} RsSplat;

RS_STATIC_ASSERT(sizeof(RsSplat) == 32, "RsSplat must be two 128-bit words");
RS_STATIC_ASSERT(RS_ALIGNOF(RsSplat) == 16, "RsSplat must be 16-byte aligned");

/* The queue as kernels see it (a field of RsKernelParams once an integrator appends to it):
 * device pointers on the GPU, host pointers on the CPU. */
typedef struct RsSplatQueue {
    RsSplat* entries;  /* capacity records */
    uint64_t* count;   /* appends since the last resolve; past capacity means overflow */
    uint32_t capacity;
} RsSplatQueue;

/* What one resolve saw, filled by either backend; host/backend/cpu/splat_cpu.h turns it into
 * an error message (rs_splat_check). */
typedef struct RsSplatResolveStats {
    uint64_t count;      /* appends (may exceed the capacity: then nothing was added) */
    uint32_t bad_pixels; /* records whose pixel lies outside the plane (not added) */
    uint32_t duplicates; /* records whose key equals the one before them in key order */
} RsSplatResolveStats;

RS_FN uint64_t rs_splat_key(uint32_t pixel, uint32_t order) { return ((uint64_t)pixel << 32) | order; }
RS_FN uint32_t rs_splat_key_pixel(uint64_t key) { return (uint32_t)(key >> 32); }
RS_FN uint32_t rs_splat_key_order(uint64_t key) { return (uint32_t)key; }

/* Writes one record into slot `slot` (from rs_splat_add, or from a caller that reserved a
 * block of slots with one rs_atomic_add_u64, e.g. per warp). Slots past the capacity are
 * counted, not written. Returns whether it was written. */
RS_FN int rs_splat_put(RsSplatQueue q, uint64_t slot, uint32_t pixel, uint32_t order, RsVec3 rgb)
{
    if (slot >= q.capacity)
        return 0;
    RsSplat s;
    s.key = rs_splat_key(pixel, order);
    s.reserved = 0;
    s.value = rs_pack(rgb, 0.0f);
    q.entries[slot] = s;
    return 1;
}

/* Appends a contribution of rgb to `pixel`, summed in the place that `order` gives it among the
 * pixel's contributions. Any thread, any order. */
RS_FN int rs_splat_add(RsSplatQueue q, uint32_t pixel, uint32_t order, RsVec3 rgb)
{
    return rs_splat_put(q, rs_atomic_add_u64(q.count, 1), pixel, order, rgb);
}

/* ---- resolve: the steps both backends share ---- */

/* The key a resolve sorts: the record's own, except that a pixel outside the plane becomes the
 * sentinel pixel `pixels`, so bad records sort after every good one and the sort needs only
 * rs_splat_sort_bits(pixels) bits. */
RS_FN uint64_t rs_splat_sort_key(uint64_t key, uint32_t pixels)
{
    return rs_splat_key_pixel(key) < pixels ? key : rs_splat_key(pixels, rs_splat_key_order(key));
}

/* Key bits that carry information: the 32 order bits and enough for pixels 0..pixels. */
RS_FN int rs_splat_sort_bits(uint32_t pixels)
{
    int bits = 32;
    for (uint32_t p = pixels; p; p >>= 1)
        ++bits;
    return bits;
}

/* The one arithmetic step of a resolve: a.rgb + b.rgb, each channel rounded alone; a.w kept. */
RS_FN RsFloat4 rs_splat_sum(RsFloat4 a, RsFloat4 b)
{
    return rs_float4(rs_add_rn(a.x, b.x), rs_add_rn(a.y, b.y), rs_add_rn(a.z, b.z), a.w);
}

/* Whether sorted position i starts a pixel's run (keys in sorted order). */
RS_FN int rs_splat_run_starts(const uint64_t* keys, uint32_t i)
{
    return i == 0 || rs_splat_key_pixel(keys[i]) != rs_splat_key_pixel(keys[i - 1]);
}

/* Sums the run of sorted records that starts at `begin` (rs_splat_run_starts) in key order,
 * s = v0 + v1 + ... left to right, and adds s to the pixel's entry of the plane; entries[index[j]]
 * is the record with the j-th smallest sort key, of n. The caller has checked that the run's
 * pixel lies inside the plane. Returns the end of the run. */
RS_FN uint32_t rs_splat_resolve_run(const uint64_t* keys, const uint32_t* index, const RsSplat* entries,
                                    uint32_t begin, uint32_t n, RsFloat4* plane)
{
    uint32_t pixel = rs_splat_key_pixel(keys[begin]);
    RsFloat4 s = entries[index[begin]].value;
    uint32_t j = begin + 1;
    for (; j < n && rs_splat_key_pixel(keys[j]) == pixel; ++j)
        s = rs_splat_sum(s, entries[index[j]].value);
    plane[pixel] = rs_splat_sum(plane[pixel], s);
    return j;
}

#endif /* RS_KERNEL_SPLAT_H */
