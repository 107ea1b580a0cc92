/*
 * fuzz_pdp_model.c - libFuzzer harness: HeteroPDP's model file reader
 * (src/pdp/model.h, pdp_modelset_parse), the writer and prediction.
 *
 * The whole input is a model file (not NUL-terminated, so a read past its end
 * is a finding).  A rejected file must give a terminated "fuzz.model..."
 * message (the message buffer is short, to exercise truncation).  An accepted
 * one must keep the reader's promises: at least one model; each present model
 * has 1 to PDP_MAX_TERMS terms, factors that are features or 1, finite
 * coefficients and no term twice.  Every model predicts for an all-zero and a
 * fixed feature vector.  The set is written with pdp_modelset_write and read
 * again: the same name, models and terms (coefficients bit-identical, as
 * model.h promises), and writing that gives the same text.  Inputs over 64 KiB
 * are ignored.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pdp/model.h"

#define FUZZ_MAX_INPUT (64u * 1024u)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_pdp_model: %s\n", what);
    abort();
}

static void fz_check(const struct pdp_modelset *ms)
{
    int any = 0;
    struct pdp_features zero, some;
    memset(&zero, 0, sizeof zero);
    for (int f = 0; f < PDP_F_COUNT; f++)
        some.v[f] = 1.0 + f;
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            const struct pdp_model *m = &ms->m[t][s];
            if (!m->present) {
                if (!isnan(pdp_model_predict(m, &zero)))
                    fz_fail("a model that is not present predicts");
                continue;
            }
            any = 1;
            if (m->nterms == 0 || m->nterms > PDP_MAX_TERMS)
                fz_fail("a model with no terms or too many");
            for (unsigned i = 0; i < m->nterms; i++) {
                const struct pdp_term *a = &m->terms[i];
                if (a->f1 < PDP_ONE || a->f1 >= PDP_F_COUNT || a->f2 < PDP_ONE || a->f2 >= PDP_F_COUNT)
                    fz_fail("a term's factor is neither a feature nor 1");
                if (!isfinite(a->coef))
                    fz_fail("a coefficient is not finite");
                for (unsigned j = 0; j < i; j++) {
                    const struct pdp_term *b = &m->terms[j];
                    if ((a->f1 == b->f1 && a->f2 == b->f2) || (a->f1 == b->f2 && a->f2 == b->f1))
                        fz_fail("a term appears twice");
                }
            }
            bool used[PDP_F_COUNT];
            pdp_model_uses(m, used);
            (void)pdp_model_predict(m, &zero);
            (void)pdp_model_predict(m, &some);
        }
    if (!any)
        fz_fail("accepted a file without a model");
}

/* The set as a model file (malloc), or NULL. */
static char *fz_write(const struct pdp_modelset *ms, size_t *len)
{
    char *buf = NULL;
    *len = 0;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    int rc = pdp_modelset_write(ms, f);
    if (fclose(f) != 0 || rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* Written and read again: the same models, and the same text when written again. */
static void fz_round_trip(const struct pdp_modelset *ms)
{
    size_t len;
    char *text = fz_write(ms, &len);
    if (!text)
        return;
    struct pdp_modelset *e = malloc(sizeof *e);   /* some 20 KiB: not on the stack */
    if (!e) {
        free(text);
        return;
    }
    char msg[1024];
    if (pdp_modelset_parse(e, text, len, "written.model", msg, sizeof msg) != 0) {
        fprintf(stderr, "fuzz_pdp_model: the written model file does not read again: %s\n--- written:\n%s", msg,
                text);
        abort();
    }
    if (ms->name[0] && strcmp(ms->name, e->name) != 0)
        fz_fail("the name changes in the written file");
    for (int t = 0; t < PDP_NTARGETS; t++)
        for (int s = 0; s < PDP_NSCENS; s++) {
            const struct pdp_model *a = &ms->m[t][s], *b = &e->m[t][s];
            if (a->present != b->present)
                fz_fail("a model appears or disappears in the written file");
            if (!a->present)
                continue;
            if (a->nterms != b->nterms)
                fz_fail("a model's term count changes in the written file");
            for (unsigned i = 0; i < a->nterms; i++)
                if (a->terms[i].f1 != b->terms[i].f1 || a->terms[i].f2 != b->terms[i].f2 ||
                    memcmp(&a->terms[i].coef, &b->terms[i].coef, sizeof(double)) != 0)
                    fz_fail("a term changes in the written file (coefficients must be bit-identical)");
            if (a->st.rows && (a->st.rows != b->st.rows || a->st.rank != b->st.rank ||
                               a->st.folds != b->st.folds || a->st.groups != b->st.groups ||
                               (a->st.groups && a->st.groups_kept != b->st.groups_kept)))
                fz_fail("a count statistic changes in the written file");
        }
    size_t len2;
    char *again = fz_write(e, &len2);
    if (again && (len2 != len || memcmp(text, again, len) != 0)) {
        fprintf(stderr, "fuzz_pdp_model: the written file changes when read and written again\n--- first:\n%s"
                        "--- again:\n%s", text, again);
        abort();
    }
    free(again);
    free(e);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    struct pdp_modelset *ms = malloc(sizeof *ms);
    if (!ms)
        return 0;
    char err[96];
    memset(err, 'x', sizeof err);
    int rc = pdp_modelset_parse(ms, (const char *)data, size, "fuzz.model", err, sizeof err);
    if (rc == 0) {
        fz_check(ms);
        fz_round_trip(ms);
    } else {
        if (rc != -1)
            fz_fail("parse returned neither 0 nor -1");
        if (!memchr(err, '\0', sizeof err) || strncmp(err, "fuzz.model", 10) != 0)
            fz_fail("the error message is not terminated or does not name the input");
    }
    free(ms);
    return 0;
}
