/* time_limit.h - `render --time-limit SECONDS`: once the render has traced that long, it stops
 * at the end of the sample pass in flight (the renderer's after-pass stop, as a first Ctrl-C)
 * and ends as a finished render would: the image under its own names, the checkpoint saved (so
 * --resume continues it), exit status 0, and a note saying how many samples per pixel it got.
 *
 * Host C11, application layer. The clock starts when tracing starts (after the scene is loaded
 * and the renderer made) and is read from render's tick; under mpirun rank 0's clock decides and
 * its stop reaches the other ranks like an interrupt's.
 */
#ifndef RS_APP_TIME_LIMIT_H
#define RS_APP_TIME_LIMIT_H

#include <stddef.h>

/* The largest limit accepted: a year. */
#define RS_TIME_LIMIT_MAX 31536000.0

typedef struct RsTimeLimit {
    double seconds; /* 0: no limit */
    double start;
    int reached;
} RsTimeLimit;

/* Parses --time-limit's value: a number of seconds > 0. Prints the error naming the option. */
int rs_time_limit_parse(const char* text, double* seconds);

void rs_time_limit_start(RsTimeLimit* t, double seconds, double now);

/* Whether the limit has been reached (from then on, always 1). */
int rs_time_limit_check(RsTimeLimit* t, double now);

/* "the time limit of 60 s" for notes. */
void rs_time_limit_describe(const RsTimeLimit* t, char* out, size_t size);

#endif /* RS_APP_TIME_LIMIT_H */
