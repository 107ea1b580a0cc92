/*
 * ptx_slice.h - address pre-computation for locality-aware scheduling (003
 * sec. 3.2-3.3): the seed's compiler extracts from a kernel the code that
 * computes the addresses of its array accesses, so the block scheduler can
 * compute any thread's addresses before the block runs.  Here the extraction
 * works on the PTX of the kernel.
 *
 * Slicing (ptx_slice_build, no launch needed): for every global load and
 * store of the kernel (ld/ldu/st with .global or generic addressing), the
 * backward slice of its address register through register-only instructions
 * (mov, add, sub, mul, mad, shl, shr, cvt, cvta, and, or, setp, selp, ...,
 * whatever ptx_alu executes) down to leaves that only depend on the launch:
 * %tid, %ntid, %ctaid, %nctaid (and %laneid, %warpid, %nwarpid, which follow
 * from %tid), kernel parameters (ld.param), global variables' addresses and
 * immediates.  Every register use in the slice must have exactly one reaching
 * definition, not guarded by a predicate.  An access is unsliceable, with
 * the reason recorded, when its address depends on
 *   - a value loaded from memory (data-dependent gather: bfs's neighbours),
 *   - a register with several reaching definitions (a loop-carried value, such
 *     as an induction pointer bumped every iteration, or an if/else merge),
 *   - a predicated definition, a special register other than the ones above
 *     (%clock, %smid, ...), an instruction outside the supported set (shfl,
 *     call results, carry arithmetic), or nothing that names a base pointer.
 * Accesses are grouped into data arrays by the base pointer their address
 * derives from (pointer provenance through mov/cvta/add/sub/mad: the kernel
 * parameter or global variable that supplies the 64-bit base).
 *
 * Evaluation (ptx_slice_eval): runs the slice of one access for up to 32
 * threads at once (one per lane, each with its own block and thread index)
 * with the launch's real parameter buffer, using the executor's ALU, so the
 * addresses are exactly those the kernel computes.
 *
 * Access ranges (003 sec. 3.3.1, figures 3.4-3.7): a data array is seen as a
 * 2D grid of cache lines, y = row, x = line within the row.  The row pitch
 * of an array (ptx_slice_layout) is the larger of the address steps one
 * thread further in x and one thread further in y (a block further when the
 * block is one thread wide in that dimension); when only one dimension moves
 * the address, or the pitch is smaller than a line, the array is 1D (height
 * 1, x = line index from the base).  A block's rectangle on an array
 * (ptx_slice_cta_rects) is the bounding box, over the array's accesses, of
 * the lines its first thread (0,0,0) and its last thread (ntid-1) touch:
 * start = upper-left corner, width and height in lines.  A warp's footprint
 * (ptx_slice_warp_points) is the set of lines its threads touch.
 *
 * Ownership: a slice set is malloc'ed by ptx_slice_build and holds its own
 * scratch (so evaluation never allocates); it refers to the module, which
 * must outlive it.  Evaluation is not reentrant on one set.
 */
#ifndef WARPSIM_PTX_SLICE_H
#define WARPSIM_PTX_SLICE_H

#include <stddef.h>
#include <stdint.h>

#include "ptx_ir.h"

#define PTX_SLICE_MAX_STEPS 128      /* instructions in one access's slice */
#define PTX_SLICE_WHY 160

enum ptx_slice_status {
    PTX_SLICE_OK = 0,
    PTX_SLICE_MEMORY,        /* depends on a value loaded from memory */
    PTX_SLICE_MULTIDEF,      /* a register with several reaching definitions (loop-carried / merge) */
    PTX_SLICE_PREDICATED,    /* a definition under a guard predicate */
    PTX_SLICE_UNDEFINED,     /* a register read before any definition on some path */
    PTX_SLICE_SREG,          /* a special register not derivable from the launch */
    PTX_SLICE_UNSUPPORTED,   /* an instruction or operand form the slicer does not evaluate */
    PTX_SLICE_NOBASE,        /* no base pointer (kernel parameter / global variable) */
    PTX_SLICE_TOOLONG        /* more than PTX_SLICE_MAX_STEPS instructions */
};
const char *ptx_slice_status_name(enum ptx_slice_status s);

struct ptx_slice_access {
    uint32_t insn;           /* instruction index in the kernel */
    uint32_t line;           /* PTX source line */
    uint8_t is_store;
    uint8_t status;          /* enum ptx_slice_status */
    uint8_t generic;         /* generic (not .global) addressing */
    uint8_t loop_entry;      /* sliced with loop-carried values taken on loop entry (PTX_SLICE_LOOP_ENTRY) */
    uint32_t bytes;          /* bytes per thread (type width x vector length) */
    int32_t array;           /* index into the set's arrays, -1 when unsliced */
    uint32_t nsteps;         /* slice length (instructions) */
    uint32_t step0;          /* first step (private) */
    int32_t addr_slot;       /* private: slot of the address register, -1 = constant */
    uint8_t addr32;          /* private: the address register is 32 bits wide */
    uint8_t pad2_[3];
    uint64_t addr_off;       /* private: constant part of the address */
    char why[PTX_SLICE_WHY]; /* reason when status != OK, e.g. "loop-carried %rd15 (defined at lines 66, 148)";
                                with loop_entry, which loop-carried register took its entry value */
};

/* A data array: the accesses whose address derives from one base pointer. */
struct ptx_slice_array {
    int32_t param;           /* kernel parameter index, or -1 */
    int32_t sym;             /* global variable symbol, or -1 */
    const char *name;        /* the parameter's / variable's name */
    uint32_t naccess;        /* sliced accesses of this array */
};

struct ptx_slice_step;       /* private */

struct ptx_slice_set {
    const struct ptx_module *mod;
    const struct ptx_func *f;
    uint32_t naccess;
    struct ptx_slice_access *acc;
    uint32_t narrays;
    struct ptx_slice_array *arrays;
    uint32_t ncalls;         /* call instructions: accesses in called functions are not analysed */
    /* private */
    uint32_t nsteps;
    struct ptx_slice_step *steps;
    uint64_t *slots;         /* evaluation scratch: 2 slots per step of the longest slice, 32 lanes each */
    uint32_t nslots;
};

/* Build flags.  PTX_SLICE_LOOP_ENTRY (an extension, off in the strict
   analysis above): a register with several reaching definitions, exactly one
   of them before the use in program order and the others after it (reaching
   it around a loop's back edge), takes the value it has on loop entry; the
   access is then sliced for its first iteration (loop_entry = 1, why says
   which register).  The rectangle of the first iteration stands for the
   loop's: CTAs that share lines in it (mm's A rows, B columns) share them in
   every iteration of a regular loop. */
#define PTX_SLICE_LOOP_ENTRY 1u

/* Slice every global load/store of kernel `func` of m.  Returns the set, or
   NULL with a message (not an entry, host out of memory). */
struct ptx_slice_set *ptx_slice_build(const struct ptx_module *m, int func, unsigned flags, char *msg, size_t n);
void ptx_slice_free(struct ptx_slice_set *s);

/* What a launch supplies to the slices. */
struct ptx_slice_env {
    const uint8_t *params;   /* the kernel parameter buffer */
    uint32_t param_bytes;
    uint32_t ntid[3], nctaid[3];
};

/* Evaluate the address of access k for nlanes (1..32) threads: lane l is
   thread tid[l] of block ctaid[l].  Returns 0, or -1 when the access is not
   sliced or a parameter read falls outside the buffer. */
int ptx_slice_eval(struct ptx_slice_set *s, uint32_t k, const struct ptx_slice_env *env, const uint32_t (*ctaid)[3],
                   const uint32_t (*tid)[3], unsigned nlanes, uint64_t *addr);

/* ---- access ranges in cache-line coordinates ---------------------------------------- */
struct ptx_slice_rect {
    int64_t x, y;            /* upper-left line: x = line within the row, y = row */
    int64_t w, h;            /* lines; w == 0 when the array has no range */
};

struct ptx_slice_layout {
    uint64_t base;           /* the base pointer's value in this launch */
    uint64_t pitch;          /* row pitch in bytes, 0 = 1D */
    uint32_t line;           /* cache-line bytes */
};

/* Per array, the base pointer value and row pitch of this launch (see the
   header comment).  lay[] has s->narrays entries.  Returns 0 or -1. */
int ptx_slice_layout(struct ptx_slice_set *s, const struct ptx_slice_env *env, uint32_t line,
                     struct ptx_slice_layout *lay);

/* Line coordinates of a byte address on an array laid out as lay. */
void ptx_slice_line_xy(const struct ptx_slice_layout *lay, uint64_t addr, int64_t *x, int64_t *y);

/* The rectangle of block cta_linear (x fastest) on every array (rect[narrays]). */
int ptx_slice_cta_rects(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                        const struct ptx_slice_layout *lay, uint64_t cta_linear, struct ptx_slice_rect *rect);

/* The rectangle of block cta_linear for each access on its own (rect[naccess]; w == 0 for an
   access that is not sliced): what the `tiles` extension of the las CTA scheduler builds its
   boxes from. */
int ptx_slice_cta_access_rects(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                               const struct ptx_slice_layout *lay, uint64_t cta_linear, struct ptx_slice_rect *rect);

/* The distinct lines warp `warp` (threads warp*32 .. warp*32+31 of the block,
   x fastest) of block cta_linear touches on array a, over the array's
   accesses: up to max points into xs/ys, sorted by (y, x).  Returns the
   count (capped at max), or -1. */
int ptx_slice_warp_points(struct ptx_slice_set *s, const struct ptx_slice_env *env,
                          const struct ptx_slice_layout *lay, uint64_t cta_linear, unsigned warp, uint32_t a,
                          int64_t *xs, int64_t *ys, unsigned max);

/* One line per access for `warpsim ptx-check --slices`. */
void ptx_slice_describe(const struct ptx_slice_set *s, uint32_t k, char *buf, size_t n);

#endif
