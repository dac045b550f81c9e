/* test_splat.c - the splat film's CPU resolve (host/backend/cpu/splat_cpu.c, kernel/film/splat.h):
 * the same synthetic splats (splat_synth.h) appended from 1, 2, 3 and 8 threads in different
 * interleavings resolve to bit-identical planes, equal to a brute-force reference (qsort, then
 * each pixel's run summed in key order); a different order would give other bits for this data,
 * so the comparison can fail; overflow, bad pixels and repeated keys are errors; an empty queue
 * changes nothing; chunks resolved one after another add in chunk order. Host C11.
 */
#include <stdlib.h>
#include <string.h>

#include "host/backend/cpu/splat_cpu.h"
#include "tests/host/backend/splat_synth.h"
#include "tests/test.h"

/* ---- the brute-force reference ---- */

static int by_key(const void* a, const void* b)
{
    uint64_t ka = ((const RsSplat*)a)->key, kb = ((const RsSplat*)b)->key;
    return ka < kb ? -1 : ka > kb;
}

/* Splats [first, first + n) added to plane: sorted with qsort, each pixel's run summed left to
 * right (forward) or right to left, then added to the pixel. */
static void reference(uint32_t first, uint32_t n, uint32_t pixels, int forward, RsFloat4* plane)
{
    RsSplat* s = malloc((n ? n : 1) * sizeof *s);
    for (uint32_t k = 0; k < n; ++k) {
        uint32_t i = first + k;
        s[k].key = rs_splat_key(splat_synth_pixel(i, pixels), i);
        s[k].value = rs_pack(splat_synth_value(i), 0.0f);
    }
    qsort(s, n, sizeof *s, by_key);
    for (uint32_t b = 0, e; b < n; b = e) {
        uint32_t p = rs_splat_key_pixel(s[b].key);
        for (e = b + 1; e < n && rs_splat_key_pixel(s[e].key) == p; ++e) {
        }
        float r, g, bl;
        if (forward) {
            r = s[b].value.x, g = s[b].value.y, bl = s[b].value.z;
            for (uint32_t j = b + 1; j < e; ++j)
                r += s[j].value.x, g += s[j].value.y, bl += s[j].value.z;
        } else {
            r = s[e - 1].value.x, g = s[e - 1].value.y, bl = s[e - 1].value.z;
            for (uint32_t j = e - 1; j-- > b;)
                r += s[j].value.x, g += s[j].value.y, bl += s[j].value.z;
        }
        plane[p].x += r, plane[p].y += g, plane[p].z += bl;
    }
    free(s);
}

static RsFloat4* base_plane(uint32_t pixels)
{
    RsFloat4* plane = malloc(pixels * sizeof *plane);
    for (uint32_t p = 0; p < pixels; ++p)
        plane[p] = splat_synth_base(p);
    return plane;
}

/* Pixels whose bits differ; the first one in *first. */
static uint32_t differing(const RsFloat4* a, const RsFloat4* b, uint32_t pixels, uint32_t* first)
{
    uint32_t count = 0;
    for (uint32_t p = pixels; p-- > 0;)
        if (memcmp(&a[p], &b[p], sizeof a[p]) != 0)
            ++count, *first = p;
    return count;
}

/* ---- appending from the thread pool ---- */

enum { STRIDED, BLOCKS_REVERSED, INTERLEAVINGS };

typedef struct Append {
    RsSplatQueue queue;
    uint32_t first, n, pixels, interleaving;
} Append;

/* STRIDED: worker w takes splats w, w + W, ... (odd workers from the top down);
 * BLOCKS_REVERSED: worker w takes the contiguous block of worker W - 1 - w, backwards. */
static void append_task(void* ctx, uint32_t worker, uint32_t workers)
{
    const Append* a = ctx;
    if (a->interleaving == STRIDED) {
        uint32_t mine = a->n > worker ? (a->n - worker + workers - 1) / workers : 0;
        for (uint32_t k = 0; k < mine; ++k) {
            uint32_t j = worker & 1u ? mine - 1 - k : k;
            splat_synth_add(a->queue, a->first + worker + j * workers, a->pixels);
        }
    } else {
        uint64_t begin, end;
        rs_pool_share(a->n, workers - 1 - worker, workers, &begin, &end);
        for (uint64_t i = end; i-- > begin;)
            splat_synth_add(a->queue, a->first + (uint32_t)i, a->pixels);
    }
}

typedef struct Queue {
    RsSplat* entries;
    uint64_t count;
    RsSplatQueue view;
} Queue;

static void queue_init(Queue* q, uint32_t capacity)
{
    q->entries = malloc((capacity ? capacity : 1) * sizeof *q->entries);
    q->count = 0;
    q->view.entries = q->entries;
    q->view.count = &q->count;
    q->view.capacity = capacity;
}

static void append(RsThreadPool* pool, Queue* q, uint32_t first, uint32_t n, uint32_t pixels, uint32_t interleaving)
{
    Append a = {q->view, first, n, pixels, interleaving};
    rs_pool_run(pool, append_task, &a);
}

/* ---- the checks ---- */

static void check_thread_counts(uint32_t n, uint32_t pixels)
{
    RsFloat4* expect = base_plane(pixels);
    reference(0, n, pixels, 1, expect);
    RsFloat4* backwards = base_plane(pixels);
    reference(0, n, pixels, 0, backwards);
    uint32_t first = 0, diff = differing(expect, backwards, pixels, &first);
    if (n > 1000)
        CHECK(diff > 0, "n=%u pixels=%u: summing runs backwards gives the same bits: the test could not fail", n,
              pixels);
    printf("n=%u pixels=%u: the backward order changes %u pixels\n", n, pixels, diff);

    RsFloat4* plane = malloc(pixels * sizeof *plane);
    const uint32_t threads[] = {1, 2, 3, 8};
    for (uint32_t t = 0; t < 4; ++t) {
        RsError err = {{0}};
        RsThreadPool* pool = rs_pool_create(threads[t], &err);
        RsSplatCpuScratch scratch = {0};
        Queue q;
        queue_init(&q, n + 17);
        for (uint32_t il = 0; il < INTERLEAVINGS; ++il) {
            for (uint32_t p = 0; p < pixels; ++p)
                plane[p] = splat_synth_base(p);
            append(pool, &q, 0, n, pixels, il);
            CHECK(q.count == n, "%u threads: %llu appends of %u", threads[t], (unsigned long long)q.count, n);
            RsSplatResolveStats stats;
            int rc = rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, &stats, &err);
            CHECK(rc == 0, "%u threads: %s", threads[t], err.message);
            CHECK(stats.count == n && stats.bad_pixels == 0 && stats.duplicates == 0,
                  "%u threads: stats %llu %u %u", threads[t], (unsigned long long)stats.count, stats.bad_pixels,
                  stats.duplicates);
            CHECK(q.count == 0, "the resolve leaves %llu in the queue", (unsigned long long)q.count);
            diff = differing(plane, expect, pixels, &first);
            CHECK(diff == 0, "n=%u pixels=%u, %u threads, interleaving %u: %u pixels differ from the reference, "
                  "first %u: %a %a %a vs %a %a %a", n, pixels, threads[t], il, diff, first, plane[first].x,
                  plane[first].y, plane[first].z, expect[first].x, expect[first].y, expect[first].z);
        }
        /* the queue's slots follow the scheduling, but a resolve through no pool gives the same */
        for (uint32_t p = 0; p < pixels; ++p)
            plane[p] = splat_synth_base(p);
        append(pool, &q, 0, n, pixels, STRIDED);
        CHECK(rs_splat_resolve_cpu(NULL, q.view, plane, pixels, &scratch, NULL, &err) == 0, "%s", err.message);
        CHECK(differing(plane, expect, pixels, &first) == 0, "%u threads, resolved without a pool: differs at %u",
              threads[t], first);
        free(q.entries);
        rs_splat_cpu_scratch_free(&scratch);
        rs_pool_destroy(pool);
    }
    free(plane);
    free(backwards);
    free(expect);
}

static void check_errors(RsThreadPool* pool, uint32_t pixels)
{
    RsSplatCpuScratch scratch = {0};
    RsFloat4* base = base_plane(pixels);
    RsFloat4* plane = base_plane(pixels);
    uint32_t first = 0;

    /* overflow: counted past the capacity, reported by name, nothing added, queue emptied */
    Queue q;
    queue_init(&q, 1000);
    append(pool, &q, 0, 2500, pixels, STRIDED);
    CHECK(q.count == 2500, "the count stops at %llu", (unsigned long long)q.count);
    RsError err = {{0}};
    RsSplatResolveStats stats;
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, &stats, &err) == -1, "overflow accepted");
    CHECK(strcmp(err.message, "splat queue overflow: 2500 splats for a capacity of 1000") == 0, "message: %s",
          err.message);
    CHECK(stats.count == 2500 && q.count == 0, "count %llu, left %llu", (unsigned long long)stats.count,
          (unsigned long long)q.count);
    CHECK(differing(plane, base, pixels, &first) == 0, "an overflowing resolve changed pixel %u", first);

    /* an empty queue changes nothing */
    RsError ok = {{0}};
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, &stats, &ok) == 0, "%s", ok.message);
    CHECK(stats.count == 0 && differing(plane, base, pixels, &first) == 0, "an empty resolve changed pixel %u",
          first);

    /* a pixel outside the plane, and a repeated key */
    rs_splat_add(q.view, 3, 7, rs_vec3(1.0f, 2.0f, 3.0f));
    rs_splat_add(q.view, pixels + 5, 8, rs_vec3(1.0f, 2.0f, 3.0f));
    rs_splat_add(q.view, 4, 9, rs_vec3(1.0f, 2.0f, 3.0f));
    RsError bad = {{0}};
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, &stats, &bad) == -1 && stats.bad_pixels == 1,
          "a pixel outside the plane: %u bad", stats.bad_pixels);
    CHECK(strstr(bad.message, "1 of 3 splats name a pixel outside the") != NULL, "message: %s", bad.message);
    CHECK(plane[3].x == base[3].x + 1.0f && plane[4].z == base[4].z + 3.0f && plane[3].w == base[3].w,
          "the good splats beside a bad one");
    rs_splat_add(q.view, 3, 7, rs_vec3(1.0f, 2.0f, 3.0f));
    rs_splat_add(q.view, 3, 7, rs_vec3(1.0f, 2.0f, 3.0f));
    RsError dup = {{0}};
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, &stats, &dup) == -1 && stats.duplicates == 1,
          "a repeated key: %u duplicates", stats.duplicates);
    CHECK(strstr(dup.message, "1 of 2 splats repeat the (pixel, order) key") != NULL, "message: %s", dup.message);

    free(q.entries);
    free(plane);
    free(base);
    rs_splat_cpu_scratch_free(&scratch);
}

/* Two chunks resolved one after another: plane + A, then + B, whatever the threads. */
static void check_chunks(RsThreadPool* pool, uint32_t n, uint32_t pixels)
{
    uint32_t half = n / 2, first = 0;
    RsFloat4* expect = base_plane(pixels);
    reference(0, half, pixels, 1, expect);
    reference(half, n - half, pixels, 1, expect);
    RsFloat4* swapped = base_plane(pixels);
    reference(half, n - half, pixels, 1, swapped);
    reference(0, half, pixels, 1, swapped);
    CHECK(differing(expect, swapped, pixels, &first) > 0, "chunk order shows in no pixel: the test could not fail");
    RsFloat4* one = base_plane(pixels);
    reference(0, n, pixels, 1, one);
    printf("chunks: B before A changes %u pixels, one resolve of both %u\n",
           differing(expect, swapped, pixels, &first), differing(expect, one, pixels, &first));

    RsFloat4* plane = base_plane(pixels);
    RsSplatCpuScratch scratch = {0};
    Queue q;
    queue_init(&q, n);
    RsError err = {{0}};
    append(pool, &q, 0, half, pixels, BLOCKS_REVERSED);
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, NULL, &err) == 0, "%s", err.message);
    append(pool, &q, half, n - half, pixels, STRIDED);
    CHECK(rs_splat_resolve_cpu(pool, q.view, plane, pixels, &scratch, NULL, &err) == 0, "%s", err.message);
    uint32_t diff = differing(plane, expect, pixels, &first);
    CHECK(diff == 0, "chunks A then B: %u pixels differ from plane + A + B, first %u", diff, first);
    free(q.entries);
    rs_splat_cpu_scratch_free(&scratch);
    free(plane);
    free(one);
    free(swapped);
    free(expect);
}

int main(void)
{
    /* heavy collisions (tens per pixel, thousands on the hot ones); a plane whose keys need more
     * sort passes; sizes on either side of the one-thread threshold */
    check_thread_counts(200003, 4099);
    check_thread_counts(200003, 1000003);
    check_thread_counts(5000, 257);
    check_thread_counts(7, 3);
    check_thread_counts(1, 1);
    RsError err = {{0}};
    RsThreadPool* pool = rs_pool_create(3, &err);
    check_errors(pool, 4099);
    check_chunks(pool, 100001, 4099);
    rs_pool_destroy(pool);
    return rs_test_finish("test_splat");
}
