/* clock.c - the monotonic clock (see clock.h). Host C11 + POSIX. */
#define _POSIX_C_SOURCE 200809L
#include "host/util/clock.h"

#include <time.h>

double rs_clock_seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
