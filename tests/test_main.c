/* test_main.c - runner for the harness in test.h. */
#include "test.h"

int test_main_(int argc, char **argv)
{
    int passed = 0, failed = 0;
    const char *filter = argc > 1 ? argv[1] : NULL;
    for (int i = 0; i < test_count_; i++) {
        if (filter && !strstr(test_cases_[i].name, filter))
            continue;
        test_failed_now_ = 0;
        test_cases_[i].fn();
        if (test_failed_now_) {
            failed++;
            fprintf(stderr, "FAIL %s\n", test_cases_[i].name);
        } else {
            passed++;
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
