/* info.c - `raystream info`: version, build configuration, CPU and CUDA devices.
 * Host C11, application layer. */
#include <stdio.h>
#include <string.h>

#include "../host/backend.h"
#include "../host/thread_pool.h"
#include "../kernel/ray_state.h"
#include "cli.h"
#include "commands.h"
#include "version.h"

int rs_cmd_info(int argc, char** argv)
{
    if (argc > 0) {
        if (strcmp(argv[0], "--help") == 0 || strcmp(argv[0], "-h") == 0) {
            printf("usage: raystream info\n\nPrints the version, the build configuration and the devices raystream "
                   "can render on.\n");
            return RS_EXIT_OK;
        }
        rs_cli_error("info: unexpected argument '%s'", argv[0]);
        return RS_EXIT_USAGE;
    }
    printf("raystream %s (%s build)\n", RS_VERSION, RS_BUILD_TYPE);
    printf("CUDA backend: %s (architectures: %s)\n", rs_cuda_built() ? "built" : "not built",
           rs_cuda_built() ? RS_CUDA_ARCHS : "-");
    printf("CPU: %u processors\n", rs_cpu_count());
    static const char* const fields[] = RS_RAY_STATE_FIELD_NAMES;
    printf("RayState: %d bytes per ray in %d 16-byte fields (", (int)RS_RAY_STATE_BYTES_PER_RAY,
           RS_RAY_STATE_FIELD_COUNT);
    for (int i = 0; i < RS_RAY_STATE_FIELD_COUNT; ++i)
        printf("%s%s", i ? ", " : "", fields[i]);
    printf("); shadow queue %d bytes in %d fields\n", (int)RS_SHADOW_STATE_BYTES_PER_RAY, RS_SHADOW_STATE_FIELD_COUNT);
    printf("dead-ray strategies: %s\n", rs_deadray_list());
    char cuda[8192];
    rs_cuda_describe(cuda, sizeof cuda);
    fputs(cuda, stdout);
    return RS_EXIT_OK;
}
