/*
 * features.h - HeteroPDP's kernel features (seed 000, Lee ASU 2017, Table 6.4).
 *
 * A feature vector holds every feature of Table 6.4 by a fixed index:
 *   dynamic      threads (work-items spawned), buffer_bytes (memory buffers of the launch)
 *   CPU static   cpu_salu, cpu_smem, cpu_valu, cpu_vmem, cpu_branch, cpu_atomic
 *   GPU static   gpu_mem, gpu_int, gpu_fp, gpu_math, gpu_branch, gpu_barrier
 *   co-located   llc_misses (LLC misses of the co-runners), dram_util (their host DRAM
 *                bandwidth utilisation)
 * The names are the CSV column names of `warpsim pdp train` and the factor names of the
 * model files (model.h).  Static features are counted from a kernel's PTX
 * (pdp_features_from_ptx); the dynamic and co-located ones are given by the caller.
 *
 * Classification of a PTX instruction (docs/heteropdp.md has the table):
 *   GPU view  mem: ld, ldu, st, prefetch, tex, tld4, atom, red (every state space, .param included)
 *             math: rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, and div of a float type
 *             fp: other arithmetic, compare and select of a float type; cvt from or to a float
 *             branch: bra, call, ret
 *             barrier: bar / barrier (CTA-wide; bar.warp.sync is not counted)
 *             int: every other computing instruction (integer and bit arithmetic, mov, cvta,
 *                  integer cvt, shfl, vote, match, activemask, isspacep)
 *             not counted: exit, trap, membar, fence, nanosleep, pmevent, bar.warp.sync
 *   CPU view  (an OpenCL CPU runtime runs the work-items of a work-group in SIMD batches)
 *             atomic: atom, red
 *             branch: bra, call, ret
 *             vector or scalar MEM: ld, ldu, st, prefetch, tex, tld4
 *             vector or scalar ALU: the instructions counted int, fp or math in the GPU view
 *             not counted: exit, trap, membar, fence, bar, barrier, nanosleep, pmevent
 *   A memory instruction is vector when it is "varying": its address, stored value or guard
 *   predicate is varying, or it accesses the per-thread .local space (or a .func parameter).
 *   A computing instruction is vector when it is varying or writes a varying register (a
 *   per-lane register: under divergence a masked write).  Otherwise scalar: every lane of a
 *   SIMD batch would compute the same value, so the runtime computes it once.
 *   Varying (a fixpoint over the function; conservative: a register is varying when any of
 *   its definitions is):
 *     - %tid, %laneid, %warpid, %lanemask_*, %clock*, %globaltimer*, %pm0, %envreg are varying;
 *       %ntid, %ctaid, %nctaid, %nwarpid, %smid, %nsmid, %gridid, the smem sizes are uniform;
 *     - a definition by an instruction that reads a varying value or has a varying guard;
 *     - results of atom, shfl, vote, match, activemask; loads of .local; loads of a .func
 *       parameter or return value (callers are not analysed); a .local symbol's address;
 *     - sync dependence: for a bra whose guard is varying, every register defined in the
 *       divergent region (instructions reachable from the branch before its immediate
 *       post-dominator) that is read by an instruction outside that region.
 * A kernel's counts include the bodies of the .func functions it calls, each once.
 */
#ifndef WARPSIM_PDP_FEATURES_H
#define WARPSIM_PDP_FEATURES_H

#include <stddef.h>
#include <stdint.h>

#include "fe/ptx/ptx_ir.h"

#define PDP_FEATURES(X) \
    X(THREADS, "threads", "# of threads spawned") \
    X(BUFFER_BYTES, "buffer_bytes", "size of memory buffers (bytes)") \
    X(CPU_SALU, "cpu_salu", "# of scalar ALU inst.") \
    X(CPU_SMEM, "cpu_smem", "# of scalar MEM inst.") \
    X(CPU_VALU, "cpu_valu", "# of vector ALU inst.") \
    X(CPU_VMEM, "cpu_vmem", "# of vector MEM inst.") \
    X(CPU_BRANCH, "cpu_branch", "# of branch inst. (CPU view)") \
    X(CPU_ATOMIC, "cpu_atomic", "# of atomic inst.") \
    X(GPU_MEM, "gpu_mem", "# of MEM inst.") \
    X(GPU_INT, "gpu_int", "# of INT inst.") \
    X(GPU_FP, "gpu_fp", "# of FP inst.") \
    X(GPU_MATH, "gpu_math", "# of special math inst.") \
    X(GPU_BRANCH, "gpu_branch", "# of branch inst. (GPU view)") \
    X(GPU_BARRIER, "gpu_barrier", "# of barrier inst.") \
    X(LLC_MISSES, "llc_misses", "LLC miss count of the co-runners") \
    X(DRAM_UTIL, "dram_util", "host DRAM bandwidth utilisation of the co-runners")

enum pdp_feat {
#define PDP_X_ENUM(e, n, d) PDP_F_##e,
    PDP_FEATURES(PDP_X_ENUM)
#undef PDP_X_ENUM
    PDP_F_COUNT
};

struct pdp_features {
    double v[PDP_F_COUNT];
};

const char *pdp_feat_name(enum pdp_feat f);   /* "cpu_salu" */
const char *pdp_feat_desc(enum pdp_feat f);   /* the seed's wording */
int pdp_feat_lookup(const char *name);        /* index, or -1 */
/* "threads, buffer_bytes, ..." into buf */
void pdp_feat_names(char *buf, size_t n);

/* per-instruction classes of the two views */
enum pdp_cpu_class {
    PDP_CPU_SALU = 0, PDP_CPU_SMEM, PDP_CPU_VALU, PDP_CPU_VMEM, PDP_CPU_BRANCH, PDP_CPU_ATOMIC,
    PDP_CPU_NONE   /* not counted */
};
enum pdp_gpu_class {
    PDP_GPU_MEM = 0, PDP_GPU_INT, PDP_GPU_FP, PDP_GPU_MATH, PDP_GPU_BRANCH, PDP_GPU_BARRIER,
    PDP_GPU_NONE
};
const char *pdp_cpu_class_name(enum pdp_cpu_class c);   /* "salu", ..., "-" */
const char *pdp_gpu_class_name(enum pdp_gpu_class c);   /* "mem", ..., "-" */

/* Classify every instruction of function fi (ptx_cfg_analyze must have run: the
   divergence analysis needs the post-dominators).  cpu and gpu get ninsns entries
   (enum values).  Returns 0, or -1 with a message. */
int pdp_classify_func(const struct ptx_module *m, uint32_t fi, uint8_t *cpu, uint8_t *gpu, char *msg, size_t n);

/* Static counts of kernel fi (an .entry; the .func bodies it reaches counted once), or of
   every .entry of the module when fi < 0 (each called .func still once).  Fills the twelve
   static features of *out and leaves the others untouched.  Returns 0, or -1 with a message. */
int pdp_features_from_ptx(const struct ptx_module *m, int fi, struct pdp_features *out, char *msg, size_t n);

#endif
