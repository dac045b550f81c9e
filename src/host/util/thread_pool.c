/* thread_pool.c - fork-join worker threads on pthreads (see thread_pool.h). Host C11. */
#define _POSIX_C_SOURCE 200809L
#include "host/util/thread_pool.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

struct RsThreadPool {
    uint32_t size;
    pthread_t* threads;
    pthread_mutex_t lock;
    pthread_cond_t work_ready, work_done;
    uint64_t generation; /* bumped once per rs_pool_run */
    uint32_t pending;    /* helper workers still running the current task */
    int quit;
    RsPoolTask task;
    void* ctx;
};

typedef struct {
    RsThreadPool* pool;
    uint32_t index;
} WorkerArg;

static void* worker_main(void* p)
{
    WorkerArg arg = *(WorkerArg*)p;
    free(p);
    RsThreadPool* pool = arg.pool;
    uint64_t seen = 0;
    pthread_mutex_lock(&pool->lock);
    for (;;) {
        while (!pool->quit && pool->generation == seen)
            pthread_cond_wait(&pool->work_ready, &pool->lock);
        if (pool->quit)
            break;
        seen = pool->generation;
        RsPoolTask task = pool->task;
        void* ctx = pool->ctx;
        pthread_mutex_unlock(&pool->lock);
        task(ctx, arg.index, pool->size);
        pthread_mutex_lock(&pool->lock);
        if (--pool->pending == 0)
            pthread_cond_signal(&pool->work_done);
    }
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

uint32_t rs_cpu_count(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (uint32_t)n : 1u;
}

RsThreadPool* rs_pool_create(uint32_t threads, RsError* err)
{
    if (threads == 0)
        threads = rs_cpu_count();
    RsThreadPool* pool = calloc(1, sizeof *pool);
    if (!pool) {
        rs_error_set(err, "out of memory creating the thread pool");
        return NULL;
    }
    pool->size = threads;
    pthread_mutex_init(&pool->lock, NULL);
    pthread_cond_init(&pool->work_ready, NULL);
    pthread_cond_init(&pool->work_done, NULL);
    pool->threads = calloc(threads, sizeof *pool->threads);
    if (!pool->threads) {
        rs_pool_destroy(pool);
        rs_error_set(err, "out of memory creating the thread pool");
        return NULL;
    }
    for (uint32_t i = 1; i < threads; ++i) {
        WorkerArg* arg = malloc(sizeof *arg);
        if (arg) {
            arg->pool = pool;
            arg->index = i;
        }
        if (!arg || pthread_create(&pool->threads[i], NULL, worker_main, arg) != 0) {
            free(arg);
            pool->size = i; /* only the threads started so far get joined */
            rs_pool_destroy(pool);
            rs_error_set(err, "could not start worker thread %u of %u", i, threads);
            return NULL;
        }
    }
    return pool;
}

void rs_pool_destroy(RsThreadPool* pool)
{
    if (!pool)
        return;
    pthread_mutex_lock(&pool->lock);
    pool->quit = 1;
    pthread_cond_broadcast(&pool->work_ready);
    pthread_mutex_unlock(&pool->lock);
    for (uint32_t i = 1; pool->threads && i < pool->size; ++i)
        pthread_join(pool->threads[i], NULL);
    pthread_cond_destroy(&pool->work_ready);
    pthread_cond_destroy(&pool->work_done);
    pthread_mutex_destroy(&pool->lock);
    free(pool->threads);
    free(pool);
}

uint32_t rs_pool_size(const RsThreadPool* pool) { return pool->size; }

void rs_pool_run(RsThreadPool* pool, RsPoolTask task, void* ctx)
{
    if (pool->size > 1) {
        pthread_mutex_lock(&pool->lock);
        pool->task = task;
        pool->ctx = ctx;
        pool->pending = pool->size - 1;
        pool->generation++;
        pthread_cond_broadcast(&pool->work_ready);
        pthread_mutex_unlock(&pool->lock);
    }
    task(ctx, 0, pool->size);
    if (pool->size > 1) {
        pthread_mutex_lock(&pool->lock);
        while (pool->pending != 0)
            pthread_cond_wait(&pool->work_done, &pool->lock);
        pthread_mutex_unlock(&pool->lock);
    }
}

uint32_t rs_pool_run_items(RsThreadPool* pool, RsPoolTask task, void* ctx, uint64_t items,
                           uint64_t min_items_per_worker)
{
    if (pool->size > 1 && items >= 2 * min_items_per_worker) {
        rs_pool_run(pool, task, ctx);
        return pool->size;
    }
    task(ctx, 0, 1);
    return 1;
}

void rs_pool_share(uint64_t n, uint32_t worker, uint32_t workers, uint64_t* begin, uint64_t* end)
{
    *begin = n * worker / workers;
    *end = n * (worker + 1) / workers;
}
