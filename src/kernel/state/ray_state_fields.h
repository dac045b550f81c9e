/* ray_state_fields.h - THE list of RayState fields (X-macro). Nothing else names them.
 *
 * Shared header (gcc C11, g++, nvcc). ray_state.h expands this list into the SoA pointer
 * struct, the register copy, load/store, the row move used by payload compaction and the
 * debug names; src/host/backend/cpu/backend_cpu.c and cuda/backend/cuda_buffers.cu expand it into allocation.
 *
 * Every field is exactly 16 bytes (RsFloat4 / RsUint4) so that one field of one ray is one
 * 128-bit access and a warp reads 512 contiguous bytes (GPU Gems 2, section 33.3.2; "Real-time
 * Raytracing part 3"). Scalars ride in the fourth lane:
 *
 *   X(type,     name,       lanes)
 */
#ifndef RS_KERNEL_RAY_STATE_FIELDS_H
#define RS_KERNEL_RAY_STATE_FIELDS_H

/* The fields every scene's rays have... */
#define RS_RAY_STATE_CORE_FIELDS(X) \
    X(RsFloat4, origin,     "origin.xyz | primitive it leaves, never hit (bits; RS_NO_HIT: none)") \
    X(RsFloat4, direction,  "direction.xyz (unit) | tmax") \
    X(RsFloat4, throughput, "throughput.rgb | pdf of the BSDF sample that made this ray (0: camera ray or delta lobe)") \
    X(RsUint4,  path,       "slot (stable path id) | pixel | depth (segments traced) | sample index (sampler.h)") \
    X(RsFloat4, hit,        "t | u | v | primitive index bits (RS_NO_HIT: the ray escaped)")

/* ...and all of them: a scene with instances also tracks which instance a ray leaves and hits.
 * The backends allocate that lane only for such a scene (RsBackendConfig.instances), so a scene
 * without instances has exactly the wave buffers, and the bytes per path, it always had. */
#define RS_RAY_STATE_FIELDS(X) \
    RS_RAY_STATE_CORE_FIELDS(X) \
    X(RsUint4,  instance,   "instance the ray leaves | instance hit (RS_NO_HIT: world or none) | 0 | 0; " \
                            "scenes with instances only: no stage of another scene reads or writes it")

#endif /* RS_KERNEL_RAY_STATE_FIELDS_H */
