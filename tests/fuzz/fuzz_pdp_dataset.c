/*
 * fuzz_pdp_dataset.c - libFuzzer harness: HeteroPDP's training CSV reader
 * (src/pdp/dataset.h, pdp_dataset_parse_csv) and its writer.
 *
 * The whole input is CSV text (not NUL-terminated, so a read past its end is a
 * finding).  A rejected file must give a terminated "fuzz.csv..." message (the
 * message buffer is short, to exercise truncation).  An accepted one must keep
 * the reader's promises: at least one row; every row's kernel index inside the
 * kernel names and its source line set; features finite; a time either NaN
 * (not measured) or finite and positive, and only in a column the header has.
 * It is then written with pdp_dataset_write_csv and read again: the same rows,
 * features, times and kernel names, and writing that gives the same text.
 * Inputs over 64 KiB are ignored.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdp/dataset.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_pdp_dataset: %s\n", what);
    abort();
}

static void fz_check(const struct pdp_dataset *d)
{
    if (d->n == 0 || d->n > d->cap || d->ngroups == 0)
        fz_fail("accepted a dataset without rows or kernels");
    for (size_t i = 0; i < d->n; i++) {
        if (d->group[i] >= d->ngroups || !d->group_names[d->group[i]][0])
            fz_fail("a row's kernel is out of range or has an empty name");
        if (d->line[i] == 0)
            fz_fail("a row read from text has no source line");
        for (int f = 0; f < PDP_F_COUNT; f++)
            if (!isfinite(d->x[i].v[f]))
                fz_fail("a feature is not finite");
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++) {
                double y = d->y[i][t][s];
                if (!isnan(y) && (!isfinite(y) || !(y > 0) || !d->has_time[t][s]))
                    fz_fail("a measured time is not positive, or in a column the header lacks");
            }
    }
}

/* The dataset as CSV text (malloc), or NULL. */
static char *fz_write(const struct pdp_dataset *d, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    int rc = pdp_dataset_write_csv(d, f);
    if (fclose(f) != 0 || rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

static int fz_same_value(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* Written and read again: the same dataset, and the same text when written again. */
static void fz_round_trip(const struct pdp_dataset *d)
{
    size_t len;
    char *text = fz_write(d, &len);
    if (!text)
        return;
    struct pdp_dataset e;
    pdp_dataset_init(&e);
    char msg[512];
    if (pdp_dataset_parse_csv(&e, text, len, "written.csv", msg, sizeof msg) != 0) {
        fprintf(stderr, "fuzz_pdp_dataset: the written CSV does not read again: %s\n--- written:\n%s", msg, text);
        abort();
    }
    if (e.n != d->n)
        fz_fail("the written CSV has another row count");
    for (size_t i = 0; i < d->n; i++) {
        if (strcmp(d->group_names[d->group[i]], e.group_names[e.group[i]]) != 0) {
            fprintf(stderr, "fuzz_pdp_dataset: row %zu: kernel '%s' reads back as '%s'\n", i + 1,
                    d->group_names[d->group[i]], e.group_names[e.group[i]]);
            abort();
        }
        for (int f = 0; f < PDP_F_COUNT; f++)
            if (!fz_same_value(d->x[i].v[f], e.x[i].v[f]))
                fz_fail("a feature changes in the written CSV");
        for (int t = 0; t < PDP_NTARGETS; t++)
            for (int s = 0; s < PDP_NSCENS; s++)
                if (!fz_same_value(d->y[i][t][s], e.y[i][t][s]))
                    fz_fail("a time changes in the written CSV");
    }
    size_t len2;
    char *again = fz_write(&e, &len2);
    if (again && (len2 != len || memcmp(text, again, len) != 0))
        fz_fail("the written CSV changes when read and written again");
    free(again);
    pdp_dataset_free(&e);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    struct pdp_dataset d;
    pdp_dataset_init(&d);
    char err[96];
    memset(err, 'x', sizeof err);
    int rc = pdp_dataset_parse_csv(&d, (const char *)data, size, "fuzz.csv", err, sizeof err);
    if (rc == 0) {
        fz_check(&d);
        fz_round_trip(&d);
    } else {
        if (rc != -1)
            fz_fail("parse returned neither 0 nor -1");
        if (!memchr(err, '\0', sizeof err) || strncmp(err, "fuzz.csv", 8) != 0)
            fz_fail("the error message is not terminated or does not name the input");
    }
    pdp_dataset_free(&d);
    return 0;
}
