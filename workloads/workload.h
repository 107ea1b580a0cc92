/*
 * workload.h - bundled workloads: a kernel source (NAME.cu), its generated PTX
 * (NAME.ptx, embedded into the binary at build time) and a C host driver that
 * makes deterministic inputs, launches the kernels through the public API and
 * checks the outputs against a CPU reference.
 *
 * A driver is one file workloads/NAME/NAME_host.c defining
 *     const struct workload wl_NAME = { ... };
 * and one line X(NAME) in workloads/registry.def.
 */
#ifndef WARPSIM_WORKLOAD_H
#define WARPSIM_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warpsim/warpsim.h"

enum wl_size { WL_TINY = 0, WL_SMALL, WL_PAPER };

struct wl_opts {
    enum wl_size size;
    uint64_t seed;
    const char *input;     /* --input FILE (bfs: Rodinia graph file), NULL = generate */
    int verbose;
    FILE *log;             /* where drivers print notes (never NULL) */
    double grid_scale;     /* --grid-scale: launch the driver's CTA count x this for the same input (0 or 1 =
                              the driver's grid); only drivers with workload.grid_scale set read it */
};

struct wl_result {
    int verified;          /* 1 = outputs match the CPU reference */
    char detail[512];      /* what was checked, or the first mismatch */
    double max_abs_err;    /* float workloads: largest error seen */
    unsigned launches;     /* kernel launches made */
    int bad_input;         /* 1 = the input file (--input) was rejected: a user error, detail says why */
};

struct workload {
    const char *name;      /* directory name under workloads/ */
    const char *summary;   /* one line: what it computes and what it stresses */
    const char *tolerance; /* "exact" or e.g. "rel 1e-4" */
    /* Run at the requested size with the module already loaded. Returns
       WS_SUCCESS when every API call succeeded (verification is separate, in r). */
    ws_status (*run)(ws_ctx *ctx, ws_module *mod, const struct wl_opts *o, struct wl_result *r);
    const char *input_format;   /* what --input reads (e.g. "a graph in Rodinia's BFS text format");
                                   NULL = the workload generates its inputs and takes no file */
    int micro;             /* 1 = microbenchmark (latency/bandwidth calibration, docs/microbench.md),
                              listed apart from the applications */
    int grid_scale;        /* 1 = the driver honours wl_opts.grid_scale: its kernels walk their input in
                              grid-stride loops, so any grid computes the same outputs and the number of
                              threads becomes independent of the input size (HeteroPDP's thread axis) */
};

/* The CTA count of a grid-stride launch under o->grid_scale: dflt (the driver's choice) scaled and
   rounded, at least 1 and at most max, the CTAs that still give every thread an element (more would
   only add threads that exit at once; a max below dflt is taken as dflt). */
static inline unsigned wl_grid_ctas(const struct wl_opts *o, unsigned dflt, unsigned max)
{
    double s = o->grid_scale;
    if (!(s > 0) || s == 1.0)
        return dflt;
    if (max < dflt)
        max = dflt;
    double c = (double)dflt * s + 0.5;
    if (c >= (double)max)
        return max;
    return c < 1.0 ? 1u : (unsigned)c;
}

/* registry (workloads/registry.c) */
size_t wl_count(void);
const struct workload *wl_get(size_t i);
const struct workload *wl_find(const char *name);
/* PTX text embedded at build time */
const char *wl_ptx_text(const char *name, size_t *len);

const char *wl_size_name(enum wl_size s);
int wl_size_parse(const char *s, enum wl_size *out);

#endif
