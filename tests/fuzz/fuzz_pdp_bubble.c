/*
 * fuzz_pdp_bubble.c - libFuzzer harness: HeteroPDP's Bubble-up slowdown table reader (src/pdp/bubble.h,
 * pdp_bubble_parse), its writer and lookups.
 *
 * The whole input is a table file (not NUL-terminated, so a read past its end is a finding).  A rejected
 * file must give a terminated message naming "fuzz.csv".  An accepted one must keep the reader's promises:
 * at most PDP_BUBBLE_MAX entries, each with a non-empty name without a comma, a slowdown in (0, 1e6],
 * a finite non-negative footprint; lookups for every application return NaN or a positive number.  The
 * table is written and read again: the same entries (numbers bit-identical).  Inputs over 64 KiB are
 * ignored.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdp/bubble.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_pdp_bubble: %s\n", what);
    abort();
}

static void fz_check(const struct pdp_bubble_table *t)
{
    if (t->n > PDP_BUBBLE_MAX)
        fz_fail("more entries than PDP_BUBBLE_MAX");
    for (size_t i = 0; i < t->n; i++) {
        const struct pdp_bubble_entry *e = &t->e[i];
        if (!e->app[0] || strchr(e->app, ',') || !memchr(e->app, '\0', sizeof e->app))
            fz_fail("an entry's application name is empty, has a comma or is not terminated");
        if (!(e->slowdown > 0) || !(e->slowdown <= PDP_BUBBLE_MAX_SLOWDOWN) || !(e->footprint >= 0) ||
            !isfinite(e->footprint))
            fz_fail("an entry's slowdown or footprint is out of range");
        double c = pdp_bubble_cpu(t, e->app, 1 + (unsigned)(i % 4), 65536.0 * (double)(i + 1));
        double g = pdp_bubble_gpu(t, e->app, 0.25, 1.0);
        if ((!isnan(c) && !(c > 0)) || (!isnan(g) && !(g > 0)))
            fz_fail("a lookup gives a slowdown that is neither NaN nor positive");
        if (!pdp_bubble_has(t, e->app))
            fz_fail("an application in the table is not found");
    }
}

static void fz_round_trip(const struct pdp_bubble_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f)
        return;
    int rc = pdp_bubble_write(t, f);
    if (fclose(f) != 0 || rc != 0) {
        free(buf);
        return;
    }
    struct pdp_bubble_table *u = malloc(sizeof *u);
    if (!u) {
        free(buf);
        return;
    }
    char msg[256];
    if (pdp_bubble_parse(u, buf, len, "written.csv", msg, sizeof msg) != 0) {
        fprintf(stderr, "fuzz_pdp_bubble: the written table does not read again: %s\n--- written:\n%s", msg, buf);
        abort();
    }
    if (u->n != t->n)
        fz_fail("the written table has another number of entries");
    for (size_t i = 0; i < t->n; i++) {
        const struct pdp_bubble_entry *a = &t->e[i], *b = &u->e[i];
        if (strcmp(a->app, b->app) != 0 || a->dma != b->dma || a->cores != b->cores ||
            memcmp(&a->footprint, &b->footprint, sizeof(double)) != 0 ||
            memcmp(&a->slowdown, &b->slowdown, sizeof(double)) != 0)
            fz_fail("an entry changes in the written table (numbers must be bit-identical)");
    }
    free(u);
    free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    struct pdp_bubble_table *t = malloc(sizeof *t);
    if (!t)
        return 0;
    char err[96];
    memset(err, 'x', sizeof err);
    int rc = pdp_bubble_parse(t, (const char *)data, size, "fuzz.csv", err, sizeof err);
    if (rc == 0) {
        fz_check(t);
        fz_round_trip(t);
    } else {
        if (rc != -1)
            fz_fail("parse returned neither 0 nor -1");
        if (!memchr(err, '\0', sizeof err) || strncmp(err, "fuzz.csv", 8) != 0)
            fz_fail("the error message is not terminated or does not name the input");
    }
    free(t);
    return 0;
}
