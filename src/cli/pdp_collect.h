/*
 * pdp_collect.h - HeteroPDP's simulated training campaign (`warpsim pdp collect`, pdp_collect.c) and
 * what `warpsim study heteropdp` (study_heteropdp.c) and `pdp schedule` take from it.
 * docs/heteropdp.md, "The training campaign".
 */
#ifndef WARPSIM_CLI_PDP_COLLECT_H
#define WARPSIM_CLI_PDP_COLLECT_H

#include <stddef.h>
#include <stdint.h>

#include "pdp/bubble.h"
#include "pdp/dataset.h"
#include "pdp/features.h"

#define PC_HOST_CORES 4      /* the i7-3770's cores (pdp-host.config's cores 0-3) */
#define PC_DMA_CORE 4        /* the DMA requester of pdp-host.config */
#define PC_MAX_CO 2          /* co-runners per row */
#define PC_DEFAULT_GRID_SCALES "1,0.25"   /* pdp collect's and study heteropdp's thread axis */

struct pc_opts {
    const char *size;        /* "tiny" or "small" */
    const char *dir;         /* results directory */
    unsigned jobs;
    const char *kernels;     /* comma list of workloads, NULL: the size's default */
    const char *coruns;      /* comma list of co-runner sets ("mcf", "mcf+perlbench"), NULL: default */
    const char *bubble_apps; /* comma list of applications of the slowdown table, NULL: every co-runner */
    uint64_t quota;          /* instructions of the co-runners' alone, DMA and table runs; 0: the size's */
    const char *grid_scales; /* comma list of factors on the CTA count of the workloads that take one
                                (workload.grid_scale; `run --grid-scale`), NULL: their own grids only */
    int quiet;
};

/* One measured case: a kernel (workload at a size, launched with its grid x grid_scale) alone (nco 0)
   or beside co-runners. */
struct pc_row {
    char kernel[48], size[8];
    double grid_scale;                /* 1: the workload's own grid */
    unsigned nco;
    char co[PC_MAX_CO][32];
    struct pdp_features x;
    double t_alone[PDP_NTARGETS];     /* seconds: the kernel alone on each target */
    double t_coloc[PDP_NTARGETS];     /* seconds: beside the co-runners (= alone when nco 0) */
    unsigned kernel_cores;            /* CPU cores the kernel ran on when co-located */
    double gpu_kernel_s;              /* the discrete GPU's kernel time */
    double in_bytes, out_bytes;       /* PCIe transfers */
    double t_x_alone, t_x_coloc;      /* both transfers' seconds */
    double sd_co[PC_MAX_CO][PDP_NTARGETS];   /* the co-runners' measured slowdowns */
};

struct pc_campaign {
    struct pc_row *rows;
    size_t n;
    struct pdp_bubble_table bubble;
};

/* Run (or resume) the campaign and read back every row; writes DIR/pdp.csv and DIR/bubble.csv.
   EXIT_OK, or an exit status with a message on stderr.  Free with pc_campaign_free. */
int pc_collect(const struct pc_opts *o, struct pc_campaign *c);
void pc_campaign_free(struct pc_campaign *c);
/* The training set of the campaign (alone times in the rows without co-runners, co-located times in
   every row), groups by kernel. */
int pc_dataset(const struct pc_campaign *c, struct pdp_dataset *d, char *msg, size_t n);

/* `warpsim pdp collect` */
int cmd_pdp_collect(int argc, char **argv);

#endif
