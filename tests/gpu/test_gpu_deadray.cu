/* test_gpu_deadray.cu - the dead-ray machinery on the GPU against CPU references (gpu suite;
 * exits 77 without a CUDA device). nvcc.
 *
 *  - every compaction (scan and block at every tile size, warp, CUB) on random verdicts with
 *    fill 0%, 1%, 50%, 99%, 100% and lengths that are not multiples of 32 or of a tile: the
 *    order-preserving ones must reproduce the CPU's sequence exactly, compact-warp the same
 *    set; nothing past the count may be written;
 *  - live counts of flags and stencil words;
 *  - stencil words written by a killing kernel (ballot + lane-0 store) equal the CPU's words,
 *    and dead warps run nothing;
 *  - persistent threads hand out every live ray exactly once, skip dead batches, and leave
 *    their counters at zero for the next launch (run twice);
 *  - --deadray auto's conversions: stencil words -> an index list holding exactly the set rows
 *    (any order) with the right count; an index list -> words with exactly those bits, stale
 *    bits cleared.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <algorithm>
#include <vector>

#include "cuda_ok.cuh"
#include "tests/test.h"

#include "cuda/deadray/deadray_compact.cuh"
#include "cuda/deadray/deadray_live.cuh"
#include "cuda/stages/kernels.cuh"
#include "kernel/sampling/rng.h"


static std::vector<uint32_t> random_keep(uint32_t n, double fill, uint32_t seed)
{
    std::vector<uint32_t> keep(n);
    for (uint32_t i = 0; i < n; ++i)
        keep[i] = rs_rng(rs_rng_path_key(seed, i, 0), 0, 0) < fill ? 1u + (i % 3) : 0u; /* any nonzero keeps */
    return keep;
}

static void test_compaction()
{
    const uint32_t lengths[] = {1, 31, 33, 255, 257, 2047, 2049, 100003, (1u << 20) + 77};
    const double fills[] = {0.0, 0.01, 0.5, 0.99, 1.0};
    const uint32_t max_n = (1u << 20) + 77;
    RsCompactScratch scratch;
    CUDA_OK(rs_compact_scratch_alloc(&scratch, max_n));
    uint32_t *d_in, *d_keep, *d_out, *d_count;
    CUDA_OK(cudaMalloc(&d_in, max_n * 4));
    CUDA_OK(cudaMalloc(&d_keep, max_n * 4));
    CUDA_OK(cudaMalloc(&d_out, (max_n + 64) * 4));
    CUDA_OK(cudaMalloc(&d_count, 4));
    struct { RsCompactMethod m; int items; const char* name; bool ordered; } methods[] = {
        {RS_COMPACT_SCAN, 1, "scan/1", true},   {RS_COMPACT_SCAN, 8, "scan/8", true},
        {RS_COMPACT_SCAN, 16, "scan/16", true}, {RS_COMPACT_BLOCK, 1, "block/1", true},
        {RS_COMPACT_BLOCK, 2, "block/2", true}, {RS_COMPACT_BLOCK, 4, "block/4", true},
        {RS_COMPACT_BLOCK, 8, "block/8", true}, {RS_COMPACT_BLOCK, 16, "block/16", true},
        {RS_COMPACT_WARP, 0, "warp", false},    {RS_COMPACT_CUB, 0, "cub", true},
    };
    for (uint32_t n : lengths) {
        std::vector<uint32_t> in(n);
        for (uint32_t i = 0; i < n; ++i)
            in[i] = i * 2654435761u ^ 0x5bd1e995u; /* distinct values */
        CUDA_OK(cudaMemcpy(d_in, in.data(), n * 4, cudaMemcpyHostToDevice));
        for (double fill : fills) {
            std::vector<uint32_t> keep = random_keep(n, fill, n * 7 + (uint32_t)(fill * 100));
            std::vector<uint32_t> expected;
            for (uint32_t i = 0; i < n; ++i)
                if (keep[i])
                    expected.push_back(in[i]);
            CUDA_OK(cudaMemcpy(d_keep, keep.data(), n * 4, cudaMemcpyHostToDevice));
            for (const auto& m : methods) {
                CUDA_OK(cudaMemset(d_out, 0xab, (max_n + 64) * 4)); /* poison */
                CUDA_OK(cudaMemset(d_count, 0xff, 4));
                CUDA_OK(rs_compact(m.m, d_in, d_keep, n, d_out, d_count, &scratch, m.items, 0));
                CUDA_OK(cudaDeviceSynchronize());
                uint32_t count = 0;
                CUDA_OK(cudaMemcpy(&count, d_count, 4, cudaMemcpyDeviceToHost));
                CHECK(count == expected.size(), "%s n=%u fill=%g: count %u, expected %zu", m.name, n, fill, count,
                      expected.size());
                std::vector<uint32_t> out(count + 64);
                CUDA_OK(cudaMemcpy(out.data(), d_out, (count + 64) * 4, cudaMemcpyDeviceToHost));
                bool past_end_clean = true;
                for (uint32_t k = count; k < count + 64; ++k)
                    past_end_clean &= out[k] == 0xabababab;
                CHECK(past_end_clean, "%s n=%u fill=%g: wrote past the count", m.name, n, fill);
                if (count != expected.size())
                    continue;
                std::vector<uint32_t> got(out.begin(), out.begin() + count), want = expected;
                if (!m.ordered) {
                    std::sort(got.begin(), got.end());
                    std::sort(want.begin(), want.end());
                }
                CHECK(got == want, "%s n=%u fill=%g: wrong entries", m.name, n, fill);
            }
        }
    }
    rs_compact_scratch_free(&scratch);
    cudaFree(d_in);
    cudaFree(d_keep);
    cudaFree(d_out);
    cudaFree(d_count);
}

static void test_counts()
{
    for (uint32_t n : {1u, 40u, 99999u}) {
        std::vector<uint32_t> flags = random_keep(n, 0.37, n);
        uint32_t expected = 0;
        for (uint32_t f : flags)
            expected += f != 0;
        std::vector<uint32_t> words((n + 31) / 32, 0);
        for (uint32_t i = 0; i < n; ++i)
            words[i / 32] |= (uint32_t)(flags[i] != 0) << (i % 32);
        uint32_t *d_flags, *d_words, *d_count, got = 0;
        CUDA_OK(cudaMalloc(&d_flags, n * 4));
        CUDA_OK(cudaMalloc(&d_words, words.size() * 4));
        CUDA_OK(cudaMalloc(&d_count, 4));
        CUDA_OK(cudaMemcpy(d_flags, flags.data(), n * 4, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemcpy(d_words, words.data(), words.size() * 4, cudaMemcpyHostToDevice));
        CUDA_OK(cudaMemset(d_count, 0, 4));
        CUDA_OK(rs_count_flags(d_flags, n, d_count, 0));
        CUDA_OK(cudaMemcpy(&got, d_count, 4, cudaMemcpyDeviceToHost));
        CHECK(got == expected, "count_flags n=%u: %u, expected %u", n, got, expected);
        CUDA_OK(cudaMemset(d_count, 0, 4));
        CUDA_OK(rs_count_stencil(d_words, (uint32_t)words.size(), d_count, 0));
        CUDA_OK(cudaMemcpy(&got, d_count, 4, cudaMemcpyDeviceToHost));
        CHECK(got == expected, "count_stencil n=%u: %u, expected %u", n, got, expected);
        cudaFree(d_flags);
        cudaFree(d_words);
        cudaFree(d_count);
    }
}

/* A stage stand-in: counts visits per row and ends every row whose number is a multiple of 3
 * (or, for the read-only pass, ends nothing). */
template <int Mode, bool Writes>
__global__ void visit_kernel(RsLiveSet set, uint32_t* visits)
{
    auto body = [&](uint32_t row) {
        atomicAdd(&visits[row], 1u);
        return row % 3u != 0u;
    };
    rs_for_live<Mode, Writes>(set, body);
}

static void test_stencil_and_persistent()
{
    const uint32_t n = 100003; /* not a multiple of 32 */
    const uint32_t words = (n + 31) / 32;
    /* initial words: random, with whole dead warps and the tail word's bits past n clear */
    std::vector<uint32_t> init(words);
    for (uint32_t w = 0; w < words; ++w) {
        uint32_t r = rs_hash_u32(w * 77u + 1u);
        init[w] = (w % 5 == 0) ? 0u : r;
    }
    init[words - 1] &= (1u << (n % 32)) - 1u;
    uint32_t *d_words, *d_visits, *d_counters;
    CUDA_OK(cudaMalloc(&d_words, words * 4));
    CUDA_OK(cudaMalloc(&d_visits, words * 32 * 4));
    CUDA_OK(cudaMalloc(&d_counters, RS_CTR_COUNT * 4));
    CUDA_OK(cudaMemset(d_counters, 0, RS_CTR_COUNT * 4));
    RsLiveSet set;
    memset(&set, 0, sizeof set);
    set.stencil = d_words;
    set.counters = d_counters;
    set.n = n;
    for (int mode = RS_LIVE_STENCIL; mode <= RS_LIVE_PERSISTENT; ++mode) {
        const char* name = mode == RS_LIVE_STENCIL ? "stencil" : "persistent";
        for (int pass = 0; pass < 2; ++pass) { /* pass 1: after a launch, counters must be reset */
            CUDA_OK(cudaMemcpy(d_words, init.data(), words * 4, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(d_visits, 0, words * 32 * 4));
            unsigned block = 256, grid = (words * 32 + block - 1) / block;
            if (mode == RS_LIVE_STENCIL) {
                visit_kernel<RS_LIVE_STENCIL, true><<<grid, block>>>(set, d_visits);
            } else {
                unsigned pgrid = rs_persistent_grid((const void*)visit_kernel<RS_LIVE_PERSISTENT, true>, block);
                visit_kernel<RS_LIVE_PERSISTENT, true><<<pgrid, block>>>(set, d_visits);
            }
            CUDA_OK(cudaGetLastError());
            CUDA_OK(cudaDeviceSynchronize());
            std::vector<uint32_t> visits(words * 32), after(words), counters(RS_CTR_COUNT);
            CUDA_OK(cudaMemcpy(visits.data(), d_visits, words * 32 * 4, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(after.data(), d_words, words * 4, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(counters.data(), d_counters, RS_CTR_COUNT * 4, cudaMemcpyDeviceToHost));
            uint32_t wrong_visits = 0, wrong_words = 0;
            for (uint32_t w = 0; w < words; ++w) {
                uint32_t expected_word = 0;
                for (uint32_t lane = 0; lane < 32; ++lane) {
                    uint32_t row = w * 32 + lane;
                    bool alive = (init[w] >> lane) & 1u;
                    wrong_visits += visits[row] != (alive ? 1u : 0u);
                    expected_word |= (uint32_t)(alive && row % 3u != 0u) << lane;
                }
                wrong_words += after[w] != expected_word;
            }
            CHECK(wrong_visits == 0, "%s pass %d: %u rows visited a wrong number of times", name, pass, wrong_visits);
            CHECK(wrong_words == 0, "%s pass %d: %u stencil words differ from the CPU's", name, pass, wrong_words);
            CHECK(counters[RS_CTR_TICKET] == 0 && counters[RS_CTR_DONE] == 0,
                  "%s pass %d: persistent counters not reset (%u, %u)", name, pass, counters[RS_CTR_TICKET],
                  counters[RS_CTR_DONE]);
        }
    }
    cudaFree(d_words);
    cudaFree(d_visits);
    cudaFree(d_counters);
}

static void test_conversions()
{
    const uint32_t lengths[] = {1, 31, 33, 2049, 100003};
    const double fills[] = {0.0, 0.01, 0.5, 1.0};
    const uint32_t max_n = 100003, max_words = (max_n + 31) / 32;
    uint32_t *d_words, *d_index, *d_cursor;
    CUDA_OK(cudaMalloc(&d_words, max_words * 4));
    CUDA_OK(cudaMalloc(&d_index, (max_n + 64) * 4));
    CUDA_OK(cudaMalloc(&d_cursor, 4));
    for (uint32_t n : lengths) {
        uint32_t words = (n + 31) / 32;
        for (double fill : fills) {
            std::vector<uint32_t> keep = random_keep(n, fill, 11), w(words, 0u), rows;
            for (uint32_t i = 0; i < n; ++i)
                if (keep[i]) {
                    w[i / 32] |= 1u << (i % 32);
                    rows.push_back(i);
                }
            /* stencil -> list */
            CUDA_OK(cudaMemcpy(d_words, w.data(), words * 4, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(d_index, 0xff, (max_n + 64) * 4));
            CUDA_OK(rs_stencil_to_index(d_words, n, d_index, d_cursor, 0));
            uint32_t count = 0;
            std::vector<uint32_t> list(n + 64);
            CUDA_OK(cudaMemcpy(&count, d_cursor, 4, cudaMemcpyDeviceToHost));
            CUDA_OK(cudaMemcpy(list.data(), d_index, (n + 64) * 4, cudaMemcpyDeviceToHost));
            CHECK(count == rows.size(), "stencil->index n %u fill %.2f: count %u, expected %zu", n, fill, count,
                  rows.size());
            if (count == rows.size()) {
                std::vector<uint32_t> got(list.begin(), list.begin() + count);
                std::sort(got.begin(), got.end());
                CHECK(got == rows, "stencil->index n %u fill %.2f: wrong set of rows", n, fill);
                CHECK(list[count] == 0xffffffffu, "stencil->index n %u fill %.2f: wrote past the count", n, fill);
            }
            /* list -> stencil: shuffled order, over stale words */
            std::vector<uint32_t> shuffled(rows.rbegin(), rows.rend());
            CUDA_OK(cudaMemcpy(d_index, shuffled.data(), shuffled.size() * 4, cudaMemcpyHostToDevice));
            CUDA_OK(cudaMemset(d_words, 0xa5, words * 4));
            CUDA_OK(rs_index_to_stencil(d_index, (uint32_t)shuffled.size(), n, d_words, 0));
            std::vector<uint32_t> back(words);
            CUDA_OK(cudaMemcpy(back.data(), d_words, words * 4, cudaMemcpyDeviceToHost));
            CHECK(back == w, "index->stencil n %u fill %.2f: words differ", n, fill);
        }
    }
    cudaFree(d_words);
    cudaFree(d_index);
    cudaFree(d_cursor);
}

int main()
{
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        printf("no CUDA device: skipped\n");
        return 77;
    }
    test_compaction();
    test_counts();
    test_stencil_and_persistent();
    test_conversions();
    return rs_test_finish("test_gpu_deadray");
}
