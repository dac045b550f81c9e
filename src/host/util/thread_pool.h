/* thread_pool.h - a fixed set of worker threads that all run one task at a time. Host C11.
 *
 * rs_pool_run(pool, fn, ctx) calls fn(ctx, worker, workers) once on every worker (the calling
 * thread is worker 0) and returns when all have finished: a fork-join step, which is the CPU
 * picture of one kernel launch. How a task splits its work among workers (a static range, or
 * stealing 32-ray batches from an atomic counter) is the task's business.
 */
#ifndef RS_HOST_THREAD_POOL_H
#define RS_HOST_THREAD_POOL_H

#include <stdint.h>

#include "host/util/error.h"

typedef struct RsThreadPool RsThreadPool;
typedef void (*RsPoolTask)(void* ctx, uint32_t worker, uint32_t workers);

/* threads = 0 means one per online processor. */
RsThreadPool* rs_pool_create(uint32_t threads, RsError* err);
void rs_pool_destroy(RsThreadPool* pool);
uint32_t rs_pool_size(const RsThreadPool* pool);
void rs_pool_run(RsThreadPool* pool, RsPoolTask task, void* ctx);

/* The same for a task over `items` items, except that a task too small to pay for waking the
 * workers (fewer than 2 * min_items_per_worker items) runs on the calling thread alone, as
 * worker 0 of 1. Waking them costs tens of microseconds; a wave of a few hundred paths (under
 * --max-memory) is cheaper than that. Returns the number of workers that ran the task. */
uint32_t rs_pool_run_items(RsThreadPool* pool, RsPoolTask task, void* ctx, uint64_t items,
                           uint64_t min_items_per_worker);

/* The contiguous share [*begin, *end) of n items that worker w of `workers` gets. */
void rs_pool_share(uint64_t n, uint32_t worker, uint32_t workers, uint64_t* begin, uint64_t* end);

uint32_t rs_cpu_count(void);

#endif /* RS_HOST_THREAD_POOL_H */
