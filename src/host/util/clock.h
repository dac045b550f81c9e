/* clock.h - the one monotonic clock that timings, progress reports and time limits read.
 *
 * Host C11 + POSIX (clock_gettime). Monotonic, so a wall-clock change (NTP, the user) never
 * makes a duration negative; only differences of its values mean anything. A deadline that a
 * condition variable waits for is not this clock's: pthread_cond_timedwait takes
 * CLOCK_REALTIME (renderer_queue.c keeps that one).
 */
#ifndef RS_HOST_CLOCK_H
#define RS_HOST_CLOCK_H

/* Seconds since an arbitrary fixed point (CLOCK_MONOTONIC), with nanosecond resolution. */
double rs_clock_seconds(void);

#endif /* RS_HOST_CLOCK_H */
