/* deadray_table.h - THE list of dead-ray strategies (X-macro). Nothing else enumerates them.
 *
 * Host C11. backend.h expands it into the RsDeadRay enum; deadray.c into the names, the help
 * text, the compaction test, the bytes per path and the backends that have each strategy.
 * Adding a strategy is a row here plus its own code in the backends (deadray_cpu.c,
 * cuda/deadray_*.cu*); the options, the viewer's strategy key, bench and the tests take their
 * lists from this table.
 *
 *   X(ENUM, "name", compaction, extra bytes per path, backends, "help")
 *
 * compaction: 1: keeps a list of live rows (index list, optionally sorted); the stages run over
 *   it. 2 (auto only): may keep one, on the bounces where it picks a compaction.
 * extra bytes: wave memory per path beyond what every strategy has (rays, shadow rays, path
 *   radiance, an alive flag): stencil words are 4 bytes per 32 rows, rounded up to 1; a
 *   compaction's index list, its double buffer and the scan array are 12; auto keeps both.
 * AUTO is not a strategy of its own: the bounce loop picks one of the others per bounce from
 * what it measured (host/render/deadray_auto.h); the backends switch between them.
 * backends: RS_ON_CPU | RS_ON_CUDA.
 */
#ifndef RS_HOST_DEADRAY_TABLE_H
#define RS_HOST_DEADRAY_TABLE_H

#define RS_ON_CPU 1u
#define RS_ON_CUDA 2u

#define RS_DEADRAY_TABLE(X)                                                                                      \
    X(FLAGS, "flags", 0, 0, RS_ON_CPU | RS_ON_CUDA,                                                              \
      "an alive flag per ray; every stage visits the whole wave and skips dead rows")                            \
    X(STENCIL, "stencil", 0, 1, RS_ON_CPU | RS_ON_CUDA,                                                          \
      "a bit per ray written by warp ballot; a warp whose 32 bits are clear is skipped")                         \
    X(PERSISTENT, "persistent", 0, 1, RS_ON_CPU | RS_ON_CUDA,                                                    \
      "stencil bits, with persistent threads that take warps from a counter (task stealing)")                   \
    X(COMPACT_SCAN, "compact-scan", 1, 12, RS_ON_CPU | RS_ON_CUDA,                                               \
      "stream compaction by a prefix sum and a scatter into a list of live rows")                                \
    X(COMPACT_BLOCK, "compact-block", 1, 12, RS_ON_CPU | RS_ON_CUDA,                                             \
      "Roger et al.'s block-wise compaction: reduce inside blocks, then concatenate")                            \
    X(COMPACT_WARP, "compact-warp", 1, 12, RS_ON_CPU | RS_ON_CUDA,                                               \
      "warp-aggregated append: one atomic per warp for its ballot of live rows")                                 \
    X(COMPACT_CUB, "compact-cub", 1, 12, RS_ON_CUDA, "CUB's DeviceSelect (CUDA only)")                         \
    X(AUTO, "auto", 2, 13, RS_ON_CPU | RS_ON_CUDA,                                                               \
      "picks the cheapest as measured, per bounce, one family a wave (default)")

#endif /* RS_HOST_DEADRAY_TABLE_H */
