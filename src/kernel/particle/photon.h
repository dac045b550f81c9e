/* photon.h - photons of stochastic progressive photon mapping (SPPM) and the queue they are
 * deposited into, and the visible points they are gathered at.
 *
 * Shared header (gcc C11, g++, nvcc). In a photon pass (stage_particle.h) a particle that
 * reaches a surface with a non-delta lobe, at its second surface vertex or later (the first is
 * direct light, which the camera pass's next-event estimation already counts; pbrt-v4's SPPM
 * does the same), appends a photon: where it landed, where it came from and its power. The
 * slot follows the scheduling (one atomic add), so every photon carries an order key, unique in
 * its chunk (rs_particle_order), and everything built from the queue (the photon grid,
 * photon_grid.h) sorts by it first: the bits of an image depend on the set of photons only,
 * never on which thread appended first (docs/architecture.md, sections 8 and 10.4).
 *
 * Overflow cannot happen when the queue holds chunk particles x (max_depth + 1) records (the
 * backends size it so); a count past the capacity is still reported, never silently dropped.
 */
#ifndef RS_KERNEL_PHOTON_H
#define RS_KERNEL_PHOTON_H

#include "kernel/util/compat.h"
#include "kernel/util/vecmath.h"

/* One photon: three 128-bit words.
 *   position  p.xyz | order key bits (rs_particle_order: unique within the chunk)
 *   direction wi.xyz (unit, from p back towards where the photon came from) | 0
 *   power     rgb carried (the particle's throughput) | 0 */
typedef struct RsPhoton {
    RsFloat4 position, direction, power;
} RsPhoton;

RS_STATIC_ASSERT(sizeof(RsPhoton) == 48, "RsPhoton must be three 128-bit words");

typedef struct RsPhotonQueue {
    RsPhoton* entries; /* capacity records */
    uint64_t* count;   /* appends since the last gather; past capacity means overflow */
    uint32_t capacity;
} RsPhotonQueue;

RS_FN uint32_t rs_photon_order(const RsPhoton* p) { return rs_float_as_uint(p->position.w); }

/* Appends a photon; any thread, any order. Returns whether it was written. */
RS_FN int rs_photon_add(RsPhotonQueue q, RsVec3 p, RsVec3 wi, RsVec3 power, uint32_t order)
{
    uint64_t slot = rs_atomic_add_u64(q.count, 1);
    if (slot >= q.capacity)
        return 0;
    RsPhoton ph;
    ph.position = rs_pack(p, rs_uint_as_float(order));
    ph.direction = rs_pack(wi, 0.0f);
    ph.power = rs_pack(power, 0.0f);
    q.entries[slot] = ph;
    return 1;
}

/* The visible points of the camera pass, one per pixel (structure of arrays, pixel index): the
 * first vertex of the pixel's camera path that has a non-delta lobe, kept as the ray that found
 * it and its hit so that the gather rebuilds the surface, its shading normal and its textured
 * material with the very code shade uses (stage_particle.h, rs_particle_surface).
 *   origin     the ray's origin.xyz | the instance it hit (bits; RS_NO_HIT: world)
 *   direction  the ray's direction.xyz | 0
 *   hit        the ray's hit: t | u | v | primitive bits (RS_NO_HIT: no visible point this pass)
 *   weight     the camera path's throughput to it .rgb | 0 */
typedef struct RsVisiblePoints {
    RsFloat4* origin;
    RsFloat4* direction;
    RsFloat4* hit;
    RsFloat4* weight;
} RsVisiblePoints;

#endif /* RS_KERNEL_PHOTON_H */
