/*
 * kernel_trace.h - a GPU kernel's CPU instruction stream (HeteroPDP, seed 000
 * ch. 6: "running an OpenCL kernel on the CMP"; docs/heteropdp.md, "Kernels on
 * the CPU").
 *
 * An OpenCL CPU runtime runs a kernel by handing work-groups to the cores and
 * running the work-items of a work-group in SIMD batches of `simd` work-items
 * (the vectoriser's width, e.g. 8 for AVX2 and 32-bit data), one batch after
 * another through each region between barriers.  This module derives that
 * stream from the real (functional) execution of the kernel's PTX: each
 * executed warp instruction (struct warp_inst, with its active mask, registers
 * and per-lane addresses) becomes, for each SIMD batch of its warp with a live
 * lane, a few ChampSim records (cpu/trace.h):
 *
 *   vector ALU (int, fp32, fp64, special function, shfl/vote)
 *             one record; the PTX registers map to CPU registers
 *             (kt_cpu_reg), so dependences between records follow the PTX
 *   vector load/store (ld, st, tex, prefetch)
 *             the distinct 64-byte lines the batch's active lanes touch, each
 *             represented by the address of the first lane touching it (a real
 *             per-lane address), 4 per record for loads, 2 for stores; a
 *             batch with no active lane (predicated off) is one address-less
 *             record
 *   atomic    one record per active lane that both loads and stores the
 *             lane's address (a locked read-modify-write)
 *   branch    one scalar branch record, taken when any active lane of the
 *             batch takes it
 *   call, ret one scalar branch record, taken (a call inside the kernel)
 *   barrier, exit, the kernel's own ret
 *             one scalar branch record: the back edge of the runtime's loop
 *             over the batches of the region (taken except after the last
 *             batch of the work-group)
 *   membar    one scalar record without registers or memory
 *   nop       nothing
 *
 * Addresses: global addresses are the device addresses the kernel used.  The
 * other spaces go to disjoint regions below the global heap: shared memory to
 * a per-core buffer (a work-group's local memory, reused by the next
 * work-group on that core), local memory to per-core, per-work-item stacks,
 * const and param to their windows.
 *
 * Schedule (kt_run_grid): work-group (CTA) c runs on core c % cores, the
 * work-groups of a core one after another in launch order (x fastest).  In a
 * work-group, the warps run as the functional executor runs them (each until
 * it blocks on a barrier or exits, in warp order); the instructions a warp
 * executed in such a region are buffered and then emitted batch by batch:
 * batch 0 (lanes 0..simd-1) through the whole region, then batch 1, ... so a
 * core sees work-item batch after work-item batch between barriers, as a CPU
 * runtime runs them.  A region longer than KT_REGION_CAP warp instructions is
 * emitted in pieces of that size.
 */
#ifndef WARPSIM_CPU_KERNEL_TRACE_H
#define WARPSIM_CPU_KERNEL_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "cpu/cpu_core.h"
#include "cpu/cpu_mem_fixed.h"
#include "cpu/trace.h"
#include "fe/warp_inst.h"

#define KT_MAX_CORES 64
#define KT_REGION_CAP 16384      /* warp instructions buffered per region piece */
#define KT_LINE 64u              /* line granularity of the vector memory records */
#define KT_IP_BASE 0x400000ull   /* record ip = KT_IP_BASE + func * 2^20 + pc * 8 + sub-record */
#define KT_LOOP_REG 250          /* CPU register of the runtime's work-item loop counter */

/* CPU instruction classes of the emitted records (000 Table 6.4's CPU side). */
enum kt_class { KT_VALU = 0, KT_VMEM, KT_SCALAR, KT_BRANCH, KT_ATOMIC, KT_CLASS_COUNT };
const char *kt_class_name(enum kt_class c);

/* Where the records go: emit(user, core, record) returns 0, or -1 to stop. */
struct kt_sink {
    int (*emit)(void *user, unsigned core, const struct trace_rec *r, enum kt_class cls);
    void *user;
};

/* What the translation of one instruction needs to know about its warp. */
struct kt_where {
    unsigned core;               /* CPU core running the work-group */
    unsigned wid;                /* warp index in the CTA: lane l is work-item wid * 32 + l */
    uint64_t local_stride;       /* bytes of local memory per work-item */
    int last;                    /* this batch is the last of the work-group (barrier/exit back edge) */
    int kfunc;                   /* function index of the kernel: its `ret` ends the work-item (as exit) */
};

/* PTX register index -> CPU register number (1..249; 0 = none). */
static inline uint8_t kt_cpu_reg(int32_t r)
{
    return r < 0 ? 0 : (uint8_t)(1 + (uint32_t)r % 249u);
}
/* The CPU address of a lane's access (see the header comment). */
uint64_t kt_cpu_addr(const struct kt_where *w, uint8_t space, uint64_t addr, unsigned lane);

/* Translate warp instruction wi for SIMD batch `batch` (lanes batch*simd ..
   batch*simd + simd - 1; simd 1..32).  Emits through sink; returns the number
   of records emitted, or -1 when the sink refused one. */
int kt_translate(const struct warp_inst *wi, unsigned simd, unsigned batch, const struct kt_where *w,
                 const struct kt_sink *sink);

/* ---- tracing whole launches ------------------------------------------------------ */
struct kt_stats {
    uint64_t launches, ctas, warp_insns;
    uint64_t records[KT_MAX_CORES];          /* per core */
    uint64_t ctas_per_core[KT_MAX_CORES];
    uint64_t by_class[KT_CLASS_COUNT];
    uint64_t threads;                        /* work-items of the traced launches */
    uint64_t mem_bytes;                      /* most device memory allocated at a traced launch */
};

struct kt_tracer {
    unsigned simd, cores;
    int only_launch;             /* trace only this launch (0-based); -1: every launch */
    struct kt_sink sink;
    struct kt_stats st;
    int launch_index;            /* launches seen so far */
    int sink_failed;
    /* region buffer */
    struct warp_inst *buf;
    size_t nbuf;
};
/* 0, or -1 with msg (simd not 1..32, cores not 1..KT_MAX_CORES). */
int kt_tracer_init(struct kt_tracer *t, unsigned simd, unsigned cores, const struct kt_sink *sink, char *msg,
                   size_t n);
void kt_tracer_free(struct kt_tracer *t);

struct ptx_grid;
/* A functional grid runner (host/ws_internal.h ws_set_grid_runner): runs every
   CTA of g as ptx_grid_run would (same results, limits and errors) and emits
   the CPU records of the traced launches.  user is a struct kt_tracer.  0 or
   -1 with g->err / g->msg. */
int kt_run_grid(void *user, struct ptx_grid *g);

/* ---- per-core trace files ----------------------------------------------------------- */
/* A sink writing core i's records to DIR/core<i>.trace.gz (or .trace when plain). */
struct kt_files;
struct kt_files *kt_files_open(const char *dir, unsigned cores, int compress, char *err, size_t n);
struct kt_sink kt_files_sink(struct kt_files *f);
const char *kt_files_path(const struct kt_files *f, unsigned core);
/* Close every file: 0, or -1 with the first error. */
int kt_files_close(struct kt_files *f, char *err, size_t n);

/* ---- timing the traces on CPU cores ------------------------------------------------- */
/* Run trace file paths[i] on core i (cpu_core_params_default, clock domain of the
   cores), all cores sharing one fixed-latency, fixed-bandwidth memory channel
   (cpu/cpu_mem_fixed.h; its bandwidth is shared, no LLC).  The kernel's time is
   the cycle at which the last core finished.  NULL paths[i]: the core idles; mp NULL:
   cpu_mem_fixed_params_default.  0, or -1 with err (unreadable trace, no progress). */
struct kt_core_result {
    uint64_t insns, cycles;      /* cycles: from the start to the cycle the core finished */
    double ipc;
    uint64_t l1_misses, l2_misses;
    double avg_mem_latency;      /* chip runs (the CLI's --chip): cycles from leaving the core to the reply; else 0 */
};
int kt_run_cores(const char *const *paths, unsigned n, const struct cpu_mem_fixed_params *mp,
                 struct kt_core_result *res, uint64_t *total_cycles, char *err, size_t errn);

#endif
