/*
 * test.h - minimal unit-test harness.  Each test binary defines tests with
 * TEST(name) { ... } and ends with TEST_MAIN().  Failures print file:line and
 * the values; the run ends with the line "N passed, N failed".
 */
#ifndef WARPSIM_TEST_H
#define WARPSIM_TEST_H

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*test_fn)(void);
struct test_case { const char *name; test_fn fn; };

#define TEST_MAX 512
extern struct test_case test_cases_[TEST_MAX];
extern int test_count_, test_failed_now_;

#define TEST(name)                                                               \
    static void test_##name(void);                                               \
    __attribute__((constructor)) static void test_reg_##name(void)               \
    {                                                                            \
        if (test_count_ < TEST_MAX)                                              \
            test_cases_[test_count_++] = (struct test_case){#name, test_##name}; \
    }                                                                            \
    static void test_##name(void)

#define T_FAIL_(...)                                                             \
    do {                                                                         \
        fprintf(stderr, "  %s:%d: ", __FILE__, __LINE__);                        \
        fprintf(stderr, __VA_ARGS__);                                            \
        fputc('\n', stderr);                                                     \
        test_failed_now_ = 1;                                                    \
    } while (0)

#define CHECK(cond) do { if (!(cond)) T_FAIL_("CHECK(%s) failed", #cond); } while (0)
#define REQUIRE(cond) do { if (!(cond)) { T_FAIL_("REQUIRE(%s) failed", #cond); return; } } while (0)
#define CHECK_EQ_INT(a, b) do { long long a_ = (long long)(a), b_ = (long long)(b); \
    if (a_ != b_) T_FAIL_("%s == %s: %lld != %lld", #a, #b, a_, b_); } while (0)
#define CHECK_EQ_U64(a, b) do { uint64_t a_ = (uint64_t)(a), b_ = (uint64_t)(b); \
    if (a_ != b_) T_FAIL_("%s == %s: 0x%" PRIx64 " != 0x%" PRIx64, #a, #b, a_, b_); } while (0)
#define CHECK_EQ_STR(a, b) do { const char *a_ = (a), *b_ = (b); \
    if (!a_ || !b_ || strcmp(a_, b_) != 0) T_FAIL_("%s == %s: \"%s\" != \"%s\"", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); } while (0)
#define CHECK_NEAR(a, b, tol) do { double a_ = (double)(a), b_ = (double)(b); \
    if (!(fabs(a_ - b_) <= (tol))) T_FAIL_("%s ~ %s: %.17g vs %.17g", #a, #b, a_, b_); } while (0)

/* Run all tests (or those whose name contains argv[1]). */
int test_main_(int argc, char **argv);
#define TEST_MAIN()                                  \
    struct test_case test_cases_[TEST_MAX];          \
    int test_count_, test_failed_now_;               \
    int main(int argc, char **argv) { return test_main_(argc, argv); }

#endif
