/* time_limit.c - render's --time-limit (see time_limit.h). Host C11, application layer. */
#include "app/render/time_limit.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "app/cli.h"

int rs_time_limit_parse(const char* text, double* seconds)
{
    char* end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end != '\0' || !isfinite(v) || !(v > 0.0) || v > RS_TIME_LIMIT_MAX) {
        rs_cli_error("--time-limit: expected a number of seconds greater than 0 (at most %.0f), got '%s'",
                     RS_TIME_LIMIT_MAX, text);
        return -1;
    }
    *seconds = v;
    return 0;
}

void rs_time_limit_start(RsTimeLimit* t, double seconds, double now)
{
    t->seconds = seconds;
    t->start = now;
    t->reached = 0;
}

int rs_time_limit_check(RsTimeLimit* t, double now)
{
    if (!t->reached && t->seconds > 0.0 && now - t->start >= t->seconds)
        t->reached = 1;
    return t->reached;
}

void rs_time_limit_describe(const RsTimeLimit* t, char* out, size_t size)
{
    snprintf(out, size, "the time limit of %g s", t->seconds);
}
