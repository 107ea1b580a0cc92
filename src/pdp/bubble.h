/*
 * bubble.h - native CPU applications' slowdown from a Bubble-up style table (seed 000 sec. 6.4.5;
 * Mars et al.'s Bubble-up): per application, the slowdown measured against contention generators
 * ("bubbles") of increasing pressure on the shared LLC and DRAM bandwidth, looked up at the pressure
 * the OpenCL kernel is estimated to exert (docs/heteropdp.md, "Co-runners' slowdown").
 *
 * Two kinds of entries per application:
 *   cpu  the kernel on the host CPU: `cores` bubble cores, each streaming over `footprint` bytes of
 *        its own (pseudo-random lines, loads only: pdp_bubble_trace).  The kernel's pressure is its
 *        concurrent threads (the cores it runs on) and its working set per core (buffer bytes /
 *        cores); the lookup takes the entry of that core count (the nearest measured one) and
 *        interpolates in log2(footprint) between measured footprints (clamped at the ends).
 *   dma  the kernel on the discrete GPU: the application beside the PCIe DMA stream (sys/pcie.h),
 *        one entry (cores 1, footprint 0): its slowdown while a transfer runs.  The kernel's
 *        pressure is its transfer bytes: a transfer of t_x seconds in a co-located run of T seconds
 *        gives  slowdown = T / (t_x / s_dma + (T - t_x))  (the application runs at 1/s_dma of its
 *        alone speed during the transfers and at full speed while the GPU computes).
 *
 * File (CSV, written by `warpsim pdp collect`): header "app,kind,cores,footprint,slowdown", then one
 * row per entry.  '#' lines and blank lines are skipped.
 */
#ifndef WARPSIM_PDP_BUBBLE_H
#define WARPSIM_PDP_BUBBLE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PDP_BUBBLE_MAX 512
/* A slowdown above this is not a measurement (and would overflow the interpolation between entries) */
#define PDP_BUBBLE_MAX_SLOWDOWN 1e6

struct pdp_bubble_entry {
    char app[48];
    int dma;               /* 1: the DMA entry */
    unsigned cores;
    double footprint;      /* bytes per bubble core */
    double slowdown;       /* time with the bubble / time alone (>= some small positive number) */
};

struct pdp_bubble_table {
    size_t n;
    struct pdp_bubble_entry e[PDP_BUBBLE_MAX];
};

/* Append an entry: 0, or -1 when full or invalid. */
int pdp_bubble_add(struct pdp_bubble_table *t, const char *app, int dma, unsigned cores, double footprint,
                   double slowdown);
int pdp_bubble_write(const struct pdp_bubble_table *t, FILE *f);
/* 0, or -1 with "PATH:LINE:COL: error: ..." (or the reason the file cannot be read) in msg. */
int pdp_bubble_load(struct pdp_bubble_table *t, const char *path, char *msg, size_t n);
/* The same from text[0..len) (need not be NUL-terminated); name is the file named in messages. */
int pdp_bubble_parse(struct pdp_bubble_table *t, const char *text, size_t len, const char *name, char *msg,
                     size_t n);
/* 1 when the table has entries for app. */
int pdp_bubble_has(const struct pdp_bubble_table *t, const char *app);
/* The application's slowdown with the kernel on the CPU (cores, working set bytes per core); NaN
   when the table has no cpu entry for it. */
double pdp_bubble_cpu(const struct pdp_bubble_table *t, const char *app, unsigned cores, double footprint);
/* Its slowdown with the kernel on the GPU: transfers of t_x seconds in a run of t_total seconds;
   NaN without a dma entry or when the times are not positive (t_x is clamped to t_total). */
double pdp_bubble_gpu(const struct pdp_bubble_table *t, const char *app, double t_x, double t_total);

/* The contention generator of a cpu entry: `recs` records streaming loads over `footprint` bytes
   (128-byte lines in a fixed pseudo-random order that covers them all) from address base, with one
   independent ALU record after each load.  ChampSim format (.gz compresses).  0, or -1 with err. */
int pdp_bubble_trace(const char *path, uint64_t footprint, uint64_t recs, uint64_t base, char *err, size_t n);

#endif
