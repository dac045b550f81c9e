/* test.h - the few assertion macros raystream's C tests use. Host C11.
 *
 * A failed check prints file:line and the values and counts as a failure; the test keeps
 * going so one run shows every broken thing. rs_test_finish() returns the exit status meson
 * expects (0 pass, 1 fail); RS_TEST_SKIP (77) is for GPU tests on machines without a GPU.
 */
#ifndef RS_TESTS_TEST_H
#define RS_TESTS_TEST_H

#include <math.h>
#include <stdio.h>

#define RS_TEST_SKIP 77

static int rs_test_failures = 0;
static int rs_test_checks = 0;

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        ++rs_test_checks;                                                  \
        if (!(cond)) {                                                     \
            ++rs_test_failures;                                            \
            fprintf(stderr, "%s:%d: CHECK(%s) failed: ", __FILE__, __LINE__, #cond); \
            fprintf(stderr, __VA_ARGS__);                                  \
            fputc('\n', stderr);                                           \
        }                                                                  \
    } while (0)

#define CHECK_NEAR(a, b, tol)                                                          \
    do {                                                                               \
        double a_ = (double)(a), b_ = (double)(b), tol_ = (double)(tol);               \
        CHECK(fabs(a_ - b_) <= tol_, "%s = %.9g, %s = %.9g, |diff| %.3g > %.3g", #a, a_, #b, b_, \
              fabs(a_ - b_), tol_);                                                     \
    } while (0)

static inline int rs_test_finish(const char* name)
{
    if (rs_test_failures)
        fprintf(stderr, "%s: %d of %d checks failed\n", name, rs_test_failures, rs_test_checks);
    else
        printf("%s: all %d checks passed\n", name, rs_test_checks);
    return rs_test_failures ? 1 : 0;
}

#endif /* RS_TESTS_TEST_H */
