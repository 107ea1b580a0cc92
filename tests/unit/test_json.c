/* test_json.c - the JSON writer (core/json.c) and its reader (core/json_read.c): what one writes the other
   reads back, NaN and infinity included. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "test.h"

/* the document json_begin..json_end writes, as a malloc'ed string */
static char *write_doc(void (*body)(struct json *j))
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    if (!f)
        return NULL;
    struct json j;
    json_begin(&j, f);
    body(&j);
    json_end(&j);
    fclose(f);
    return text;
}

static const double numbers[] = {0.1, 1.0 / 3.0, 2.5, 1e-300, 6.02214076e23, -0.0, 123456789012345678.0, 0.3};

static void numbers_body(struct json *j)
{
    json_obj(j, "n");
    char key[8];
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        snprintf(key, sizeof key, "x%zu", i);
        json_dbl(j, key, numbers[i]);
    }
    json_dbl(j, "nan", NAN);
    json_dbl(j, "pinf", INFINITY);
    json_dbl(j, "ninf", -INFINITY);
    json_u64(j, "big", UINT64_MAX);
    json_close(j);
}

TEST(json_numbers_read_back_exactly)
{
    char *t = write_doc(numbers_body);
    REQUIRE(t != NULL);
    CHECK(jr_valid(t));
    char path[16];
    for (size_t i = 0; i < sizeof numbers / sizeof numbers[0]; i++) {
        double v = 42;
        snprintf(path, sizeof path, "n.x%zu", i);
        CHECK_EQ_INT(jr_number(t, path, &v), 0);
        CHECK(memcmp(&v, &numbers[i], sizeof v) == 0 || v == numbers[i]);   /* -0.0 == 0.0 */
    }
    double v = 0;
    CHECK_EQ_INT(jr_number(t, "n.nan", &v), 0);
    CHECK(isnan(v));
    CHECK_EQ_INT(jr_number(t, "n.pinf", &v), 0);
    CHECK(isinf(v) && v > 0);
    CHECK_EQ_INT(jr_number(t, "n.ninf", &v), 0);
    CHECK(isinf(v) && v < 0);
    /* the shortest form that reads back: 0.1 is written as 0.1, not 0.10000000000000001 */
    CHECK(strstr(t, "\"x0\": 0.1,") != NULL);
    CHECK(strstr(t, "\"x2\": 2.5,") != NULL);
    /* JSON has no NaN or Infinity tokens */
    CHECK(strstr(t, ": nan") == NULL && strstr(t, ": inf") == NULL && strstr(t, ": -inf") == NULL);
    CHECK(strstr(t, "\"nan\": null") != NULL && strstr(t, "\"pinf\": 1e999") != NULL);
    CHECK(strstr(t, "\"big\": 18446744073709551615") != NULL);
    CHECK_EQ_INT(jr_number(t, "n.absent", &v), -1);
    free(t);
}

static void strings_body(struct json *j)
{
    json_str(j, "plain", "gtx480");
    json_str(j, "tricky", "a \"quoted\" back\\slash\nnew\tline\x01" "end");
    json_str(j, "with \"quote\" key", "k");
    json_str(j, "none", NULL);
    json_bool(j, "yes", 1);
    json_arr(j, "list");
    json_i64(j, NULL, -5);
    json_u64(j, NULL, 7);
    json_close(j);
}

TEST(json_strings_escaped_and_read_back)
{
    char *t = write_doc(strings_body);
    REQUIRE(t != NULL);
    CHECK(jr_valid(t));
    char buf[128];
    CHECK_EQ_INT(jr_string(t, "plain", buf, sizeof buf), 0);
    CHECK_EQ_STR(buf, "gtx480");
    CHECK_EQ_INT(jr_string(t, "tricky", buf, sizeof buf), 0);
    CHECK_EQ_STR(buf, "a \"quoted\" back\\slash\nnew\tline\x01" "end");
    CHECK(strstr(t, "\\u0001") != NULL);
    CHECK(strstr(t, "\"with \\\"quote\\\" key\": \"k\"") != NULL);   /* keys are escaped too */
    int b = 0;
    CHECK_EQ_INT(jr_bool(t, "yes", &b), 0);
    CHECK_EQ_INT(b, 1);
    double v = 0;
    CHECK_EQ_INT(jr_number(t, "none", &v), 0);   /* null: no value */
    CHECK(isnan(v));
    free(t);
}

TEST(json_reader_rejects_a_cut_document)
{
    char *t = write_doc(numbers_body);
    REQUIRE(t != NULL);
    size_t n = strlen(t);
    for (size_t cut = 1; cut + 2 < n; cut += 7) {
        char save = t[cut];
        t[cut] = '\0';
        CHECK(!jr_valid(t));
        t[cut] = save;
    }
    free(t);
}

TEST(json_reader_indexes_arrays)
{
    const char *t = "{\"k\": [ {\"c\": 1, \"n\": \"a\"}, {\"c\": 2.5, \"x\": [7, [8, 9]]} ], \"v\": [3, 4]}";
    double v = 0;
    CHECK_EQ_INT(jr_number(t, "k.0.c", &v), 0);
    CHECK(v == 1.0);
    CHECK_EQ_INT(jr_number(t, "k.1.c", &v), 0);
    CHECK(v == 2.5);
    CHECK_EQ_INT(jr_number(t, "k.1.x.1.0", &v), 0);   /* nested arrays */
    CHECK(v == 8.0);
    CHECK_EQ_INT(jr_number(t, "v.1", &v), 0);
    CHECK(v == 4.0);
    CHECK_EQ_INT(jr_number(t, "k.2.c", &v), -1);      /* past the end */
    CHECK_EQ_INT(jr_number(t, "v.2", &v), -1);
    CHECK_EQ_INT(jr_number(t, "k.c", &v), -1);        /* a name on an array */
    CHECK_EQ_INT(jr_number(t, "k.0x.c", &v), -1);     /* not all digits */
    CHECK(jr_lookup(t, "v.1.z") == NULL);             /* a member of a number */
    char buf[8];
    CHECK_EQ_INT(jr_string(t, "k.0.n", buf, sizeof buf), 0);
    CHECK(strcmp(buf, "a") == 0);
}

TEST_MAIN()
