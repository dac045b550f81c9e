/* plane_compare.cuh - for the gpu tests: a plane the GPU made against the CPU's, bit for bit,
 * with what differs printed (how many entries, the largest difference, the first one in hex).
 * nvcc. */
#ifndef RS_TESTS_GPU_PLANE_COMPARE_CUH
#define RS_TESTS_GPU_PLANE_COMPARE_CUH

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <vector>

#include "kernel/util/vecmath.h"
#include "tests/test.h"

static void compare_planes(const char* what, const std::vector<RsFloat4>& gpu, const RsFloat4* cpu)
{
    uint32_t differ = 0, first = UINT32_MAX;
    double max_abs = 0.0;
    for (uint32_t p = 0; p < gpu.size(); ++p) {
        if (memcmp(&gpu[p], &cpu[p], sizeof(RsFloat4)) == 0)
            continue;
        ++differ;
        first = first == UINT32_MAX ? p : first;
        const float* g = &gpu[p].x;
        const float* c = &cpu[p].x;
        for (int k = 0; k < 4; ++k)
            max_abs = fmax(max_abs, fabs((double)g[k] - (double)c[k]));
    }
    printf("%s: %u of %zu entries differ, max abs difference %.9g", what, differ, gpu.size(), max_abs);
    if (differ)
        printf(", first %u: gpu %a %a %a %a, cpu %a %a %a %a", first, gpu[first].x, gpu[first].y, gpu[first].z,
               gpu[first].w, cpu[first].x, cpu[first].y, cpu[first].z, cpu[first].w);
    printf("\n");
    CHECK(differ == 0, "%s: %u entries differ from the CPU's (first %u)", what, differ, first);
}

#endif /* RS_TESTS_GPU_PLANE_COMPARE_CUH */
