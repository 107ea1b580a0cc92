/*
 * ptx_exec.h - functional SIMT executor for decoded PTX (ptx_ir.h).
 *
 * Execute-at-issue: ptx_warp_step() runs exactly one warp instruction (the one
 * at the top of the warp's SIMT reconvergence stack) over its active lanes,
 * with real data, and optionally describes it in a struct warp_inst for a
 * timing model.  ptx_grid_run() is the functional driver: CTAs in order (x
 * fastest), the warps of a CTA round-robin, each running until it blocks on a
 * barrier or exits.
 *
 * Objects and ownership:
 *   struct ptx_kinfo  per-kernel facts computed once at module load
 *                     (ptx_kinfo_build): call-graph limits, shared layout.
 *                     Rejects recursion and indirect calls.
 *   struct ptx_grid   one launch: module, kernel, dims, param buffer, memory.
 *                     The caller owns the param buffer, const bank and memory;
 *                     they must outlive the grid.
 *   struct ptx_cta    one resident CTA: shared memory, warps, barriers.  All
 *                     per-warp storage (register stack, SIMT stack, frames,
 *                     local memory, param frames) is allocated by
 *                     ptx_cta_alloc() for the grid's worst case, so stepping
 *                     never allocates.  A CTA object can be reused for the
 *                     next CTA with ptx_cta_start().
 *   struct ptx_warp   32 lanes; lives inside its CTA.
 *
 * SIMT model: a stack of {pc, rpc, mask} entries.  A divergent branch at pc
 * whose immediate post-dominator is r turns the top entry into the
 * reconvergence entry {r, old rpc, mask} and pushes the not-taken path
 * {pc+1, r, N} and then the taken path {target, r, T}: the TAKEN path runs
 * first.  When the top entry's pc reaches its rpc (or its mask empties) it is
 * popped.  When r equals the top entry's own rpc no new reconvergence entry is
 * needed and the top entry is replaced by the two paths.  `exit` removes its
 * lanes from every entry; `ret` removes them from the entries of the current
 * call frame, and the frame returns when none of its entries is left.
 *
 * Calls: each call pushes a frame {function, registers, local and param
 * bases, first SIMT entry}; registers, local memory and param frames are
 * stacks sized by the deepest call chain of the kernel (no recursion).
 * Local addresses are offsets in the thread's local stack (so pointers into a
 * caller's frame stay valid in the callee), param-frame addresses offsets in
 * the thread's param stack.
 *
 * Errors: a fault (bad address, trap, unsupported instruction, SIMT stack
 * overflow, deadlock) stops the launch: the grid records err and a
 * memory-checker style message, the faulting instruction writes nothing.
 */
#ifndef WARPSIM_PTX_EXEC_H
#define WARPSIM_PTX_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ptx_ir.h"
#include "ptx_mem.h"
#include "../warp_inst.h"

#define PTX_MAX_BARRIERS 16
#define PTX_MAX_CTA_THREADS 1024
#define PTX_MAX_CTA_WARPS (PTX_MAX_CTA_THREADS / PTX_WARP_SIZE)
#define PTX_NWARPID 64            /* value of %nwarpid */

enum ptx_warp_status {
    PTX_WARP_READY = 0,          /* can issue */
    PTX_WARP_BARRIER,            /* waiting at bar.sync / barrier.sync */
    PTX_WARP_EXITED,             /* every thread exited */
    PTX_WARP_FAULT               /* the launch failed, see grid->err */
};

enum ptx_exec_err {
    PTX_EXEC_OK = 0,
    PTX_EXEC_ILLEGAL_ADDRESS,    /* memory checker */
    PTX_EXEC_DEADLOCK,           /* barrier that can never complete */
    PTX_EXEC_TRAP,               /* trap instruction */
    PTX_EXEC_UNSUPPORTED,        /* instruction form the executor or ALU does not implement */
    PTX_EXEC_FAILED,             /* other runtime failure (SIMT stack overflow, bad texture handle) */
    PTX_EXEC_NOMEM,              /* host allocation failed at launch */
    PTX_EXEC_LIMIT,              /* stopped at a limit (instructions, cycles, host seconds) */
    PTX_EXEC_CONFIG              /* timing mode: the machine or a policy cannot run this kernel as configured */
};

/* ---- per-kernel facts (computed at load) ------------------------------- */
/* Per-thread local and param frames are rounded up to this so every frame
   keeps the alignment its variables declare. */
#define PTX_FRAME_ALIGN 16u
static inline uint64_t ptx_frame_local_size(const struct ptx_func *f)
{
    return ((uint64_t)f->local_bytes + PTX_FRAME_ALIGN - 1) & ~(uint64_t)(PTX_FRAME_ALIGN - 1);
}
static inline uint64_t ptx_frame_param_size(const struct ptx_func *f)
{
    return ((uint64_t)f->frame_param_bytes + PTX_FRAME_ALIGN - 1) & ~(uint64_t)(PTX_FRAME_ALIGN - 1);
}

struct ptx_kinfo {
    int32_t func;                /* entry function index */
    uint32_t max_depth;          /* frames in the deepest call chain (1 = no calls) */
    uint64_t reg_lanes;          /* sum of nregs along the worst chain (x32 uint64 per warp) */
    uint64_t local_bytes;        /* per-thread local stack */
    uint64_t param_bytes;        /* per-thread param-frame stack */
    uint32_t simt_cap;           /* SIMT stack entries per warp */
    uint64_t shared_static;      /* static shared bytes (end of the static layout) */
    uint64_t shared_dyn_off;     /* where `.extern .shared` (dynamic shared memory) starts */
    uint64_t *shared_off;        /* [module nsyms]: CTA offset of each shared symbol the kernel uses
                                    (UINT64_MAX when unused); malloc'ed, see ptx_kinfo_free */
    uint32_t *live_regs;         /* the kernel's registers some thread may read before writing them
                                    (ptx_entry_live_regs): the only ones of the kernel's own frame that
                                    a CTA slot clears; NULL: clear the whole register file. malloc'ed */
    uint32_t nlive_regs;
};

/* Analyse kernel `func` of m.  Returns 0, or -1 with *err (position of the
   offending call) for recursion or an indirect call. */
int ptx_kinfo_build(const struct ptx_module *m, int func, struct ptx_kinfo *ki, struct ptx_error *err);
void ptx_kinfo_free(struct ptx_kinfo *ki);
/* The registers of f that some thread may read before it writes them, ascending, in a malloc'ed
   array (ptx_liveness.c).  Returns 0, or -1 when out of memory. */
int ptx_entry_live_regs(const struct ptx_func *f, uint32_t **regs, uint32_t *nlive);
/* Check the whole module's call graph: -1 with *err (position of the call)
   on recursion or an indirect call anywhere, else 0. */
int ptx_exec_check_calls(const struct ptx_module *m, struct ptx_error *err);

/* ---- one launch ---------------------------------------------------------- */
/* What executed instructions count.  Warps add to their CTA's block (ptx_cta.cnt): the grid's own,
   or, when SMs are simulated by several threads, a block per SM that the timing model adds to the
   grid's after each cycle. */
struct ptx_counts {
    uint64_t thread_insns, warp_insns;
    uint64_t iclass_warp[PIC_COUNT], iclass_thread[PIC_COUNT];
};

struct ptx_devlib;

struct ptx_grid {
    /* inputs (filled by the caller before ptx_grid_init) */
    const struct ptx_module *mod;
    const struct ptx_kinfo *ki;
    uint32_t grid[3], block[3];
    uint32_t dyn_smem;
    const uint8_t *params;       /* kernel param buffer, func->param_bytes long */
    uint32_t param_bytes;
    const uint8_t *cbank;        /* the module's const space */
    uint64_t cbank_size;
    struct ptx_mem *mem;
    uint32_t num_sms;            /* %nsmid; %smid = linear CTA id % num_sms */
    uint32_t gridid;             /* %gridid */
    uint64_t insn_limit;         /* stop after this many warp instructions (0 = none) */
    uint64_t cycle_limit;        /* timing mode: stop after this many core cycles (0 = none) */
    double deadline;             /* stop once the monotonic host clock passes this (seconds, 0 = none) */
    struct ptx_devlib *dev;      /* device printf / heap / assert state (ptx_devlib.h); NULL: printf
                                    output discarded, malloc returns NULL; owned by the caller */
    uint64_t deadline_next_check;   /* warp_insns at which the functional loop next reads the clock */

    /* derived by ptx_grid_init */
    const struct ptx_func *kfunc;
    uint32_t cta_threads, cta_warps;
    uint64_t smem_bytes;         /* static + dynamic */
    uint64_t dyn_smem_off;       /* where `.extern .shared` starts */

    /* broadcast lanes for special registers (so a source is just a pointer) */
    uint64_t bc_ntid[3][PTX_WARP_SIZE], bc_nctaid[3][PTX_WARP_SIZE];
    uint64_t bc_nsmid[PTX_WARP_SIZE], bc_gridid[PTX_WARP_SIZE], bc_nwarpid[PTX_WARP_SIZE];
    uint64_t bc_dsmem[PTX_WARP_SIZE], bc_tsmem[PTX_WARP_SIZE], bc_zero[PTX_WARP_SIZE];
    uint64_t lanemask[5][PTX_WARP_SIZE];   /* eq lt le gt ge */

    /* results */
    struct ptx_counts cnt;       /* executed instructions (warps count through ptx_cta.cnt) */
    uint64_t ctas_done;
    uint32_t err_key;            /* who set err (ptx_cta.key): with several threads the lowest key wins */
    int err;                     /* enum ptx_exec_err */
    char msg[2048];
    /* addition (timing mode): the current core cycle, for %clock / %clock64;
       the timing model (sys/gpu_run.c) points it at its clock and keeps it
       current.  NULL (functional mode): the clocks count issued instructions. */
    const uint64_t *clock;
};

/* Validate the inputs and derive the rest.  Returns 0 or -1 with err/msg. */
int ptx_grid_init(struct ptx_grid *g);

/* Run every CTA functionally.  Returns 0, or -1 with g->err / g->msg. */
int ptx_grid_run(struct ptx_grid *g);

/* The launch's limits.  ptx_grid_check_limits tests the instruction limit and,
   every 64K warp instructions (or at once with force), the host deadline; when
   one is reached it sets PTX_EXEC_LIMIT and a message saying how far the kernel
   got (ctas_done CTAs completed; `cycle` is the kernel's core cycle in timing
   mode, UINT64_MAX in functional mode) and returns -1, else 0.
   ptx_grid_stop_cycles does the same for the timing model's cycle limit. */
int ptx_grid_check_limits(struct ptx_grid *g, uint64_t ctas_done, uint64_t cycle, int force);
int ptx_grid_stop_cycles(struct ptx_grid *g, uint64_t ctas_done, uint64_t cycle);

/* ---- warps and CTAs ------------------------------------------------------------ */
struct ptx_simt_ent {
    uint32_t pc, rpc;            /* rpc = reconvergence pc; func->ninsns = function end */
    uint32_t mask;
    uint32_t pad_;
};

struct ptx_frame {
    const struct ptx_func *f;
    uint64_t *regs;              /* f->nregs x 32 lanes */
    uint64_t local_base, param_base;  /* offsets in the thread's local / param stacks */
    uint32_t simt_base;          /* first SIMT entry of this frame */
    uint32_t call_mask;          /* lanes that entered (frames above the first) */
    uint32_t call_pc;            /* call instruction in the caller */
    uint16_t fidx;
    uint16_t pad_;
    const struct ptx_call *call; /* call site in the caller, NULL for the kernel */
};

struct ptx_cta;

struct ptx_warp {
    struct ptx_cta *cta;
    struct ptx_grid *g;
    uint32_t wid;                /* warp index in the CTA (%warpid) */
    uint32_t status;             /* enum ptx_warp_status */
    uint32_t valid;              /* lanes that exist */
    uint32_t exited;             /* lanes that exited, plus lanes that do not exist */

    struct ptx_simt_ent *simt;
    uint32_t sp, simt_cap;
    struct ptx_frame *frames;
    uint32_t fp, frame_cap;
    uint64_t *regstack;          /* reg_lanes x 32 */
    uint8_t *local;              /* lane l's local stack at local + l * local_stride */
    uint64_t local_stride, local_top;
    uint8_t *pstack;             /* lane l's param stack at pstack + l * param_stride */
    uint64_t param_stride, param_top;

    uint64_t issued;             /* warp instructions issued (%clock in functional mode) */

    /* barrier wait: what to write when the barrier releases (bar.red) */
    uint8_t bar_id, bar_red, bar_waiting, pad_;
    int32_t bar_dst;             /* destination register, -1 none */
    uint32_t bar_mask;           /* lanes that receive the reduction */
    uint32_t bar_pc;             /* for deadlock reports */
    const struct ptx_func *bar_func;

    uint64_t tid[3][PTX_WARP_SIZE];  /* %tid per lane */
    uint64_t bc_warpid[PTX_WARP_SIZE];
    uint64_t scratch[6][PTX_WARP_SIZE];  /* materialised operands */
    uint64_t addr[PTX_WARP_SIZE];        /* per-lane addresses of the current memory instruction */
    uint8_t *hp[PTX_WARP_SIZE];          /* their host pointers */
};

struct ptx_bar {
    uint32_t arrived;            /* threads counted so far */
    uint32_t expected;           /* explicit thread count, 0 = every non-exited thread of the CTA */
    uint64_t waiting;            /* warps blocked on it */
    uint32_t red_popc;
    uint8_t red_and, red_or, pad_[2];
};

struct ptx_cta {
    struct ptx_grid *g;
    uint32_t ctaid[3];
    uint64_t linear;             /* x + y*gx + z*gx*gy */
    uint32_t nwarps;
    uint32_t live_threads;       /* threads not exited */
    uint32_t warps_done;
    uint8_t *smem;
    uint64_t smem_size;
    struct ptx_warp *warps;
    struct ptx_bar bars[PTX_MAX_BARRIERS];
    uint64_t bc_ctaid[3][PTX_WARP_SIZE], bc_smid[PTX_WARP_SIZE];
    /* backing storage, owned */
    uint64_t *regmem;
    uint8_t *localmem, *parammem;
    struct ptx_simt_ent *simtmem;
    struct ptx_frame *framemem;
    /* bytes allocated behind each buffer above (warps, regmem, localmem, parammem, simtmem,
       framemem, smem): ptx_cta_reuse keeps a buffer that is large enough */
    size_t cap[7];
    struct ptx_counts *cnt;      /* where its warps count instructions (ptx_cta_reuse: the grid's) */
    uint32_t key;                /* orders faults of one cycle across threads (the SM's id; 0 functional) */
};

/* Allocate a CTA for grid g (g initialised).  Returns 0 or -1 (host OOM). */
int ptx_cta_alloc(struct ptx_cta *c, struct ptx_grid *g);
void ptx_cta_free(struct ptx_cta *c);
/* Make an allocated (or zeroed) CTA ready for grid g as ptx_cta_alloc would, keeping every
   buffer that is already large enough: only the bytes grid g uses are cleared.  A timing
   model that holds CTA slots across kernel launches pays for what each kernel uses instead
   of a fresh allocation per launch.  Returns 0 or -1 (host OOM; c is then freed). */
int ptx_cta_reuse(struct ptx_cta *c, struct ptx_grid *g);
/* (Re)start the CTA with block index ctaid: zero shared memory, reset warps. */
void ptx_cta_start(struct ptx_cta *c, const uint32_t ctaid[3]);
/* Run every warp of the CTA to completion (functional mode).  Returns 0, or
   -1 on fault/deadlock with g->err set. */
int ptx_cta_run(struct ptx_cta *c);

/* Execute one warp instruction.  wi may be NULL.  Returns the warp status
   after the instruction (enum ptx_warp_status).  A warp not READY returns its
   status without doing anything.  When the instruction is a barrier that
   releases, other warps of the CTA become READY. */
int ptx_warp_step(struct ptx_warp *w, struct warp_inst *wi);

/* Run up to `budget` instructions without filling warp_inst (fast path).
   Returns the status when it stops. */
int ptx_warp_run(struct ptx_warp *w, uint64_t budget);

/* Map an instruction class to the warp_inst class. */
enum wi_class ptx_exec_wi_class(enum ptx_iclass c);
/* The state space a memory instruction class touches (WS_SPACE_NONE otherwise). */
enum wi_space ptx_exec_wi_space(enum ptx_iclass c);

/* ---- peeking for a timing model (ptx_exec_peek.c) ------------------------------------
   A cycle-level model decides whether a warp may issue BEFORE executing it:
   it needs the warp's next instruction and the registers that instruction
   reads and writes.  Register keys are distinct across call frames: key =
   index of the register in the warp's register stack (frame base + register
   index), always < ki->reg_lanes. */
#define PTX_PEEK_MAX_DST 6
#define PTX_PEEK_MAX_SRC 10

struct ptx_peek {
    const struct ptx_insn *insn;     /* next instruction; NULL when the warp is not READY */
    uint32_t pc;                     /* its index in the function */
    uint16_t func;                   /* function index in the module */
    uint8_t cls;                     /* enum wi_class */
    uint8_t lat_class;               /* 0 add/logic/move/compare, 1 min/max, 2 mul, 3 mad/fma, 4 div/rem
                                        (the order of GPGPU-Sim's -ptx_opcode_latency_* lists) */
    uint8_t ndst, nsrc;
    uint8_t space;                   /* enum wi_space from the instruction class (generic resolved at issue) */
    uint8_t pad_;
    uint32_t dst[PTX_PEEK_MAX_DST];  /* register keys written (scoreboard) */
    uint32_t src[PTX_PEEK_MAX_SRC];  /* register keys read, guard predicate included */
};

/* The part of a peek that depends only on the instruction (registers as the function's own
   numbers: a peek adds the frame's base). */
struct ptx_peek_tmpl {
    uint8_t cls, lat_class, space, ndst, nsrc;
    uint32_t dst[PTX_PEEK_MAX_DST];
    uint32_t src[PTX_PEEK_MAX_SRC];
};
/* Fill every function's peek templates (ptx_func.peek); called by ptx_cfg_analyze.  0, or -1 when
   out of memory. */
int ptx_peek_prepare(struct ptx_module *m);

/* Describe the instruction the warp would execute next, without executing it.
   Settles the warp's reconvergence stack first (exactly what the next
   ptx_warp_step would do before executing), so it can finish a warp whose
   remaining lanes ran off the end.  Returns the warp status; p->insn is NULL
   unless it is PTX_WARP_READY. */
int ptx_warp_peek(struct ptx_warp *w, struct ptx_peek *p);
/* The GPGPU-Sim latency class of an opcode (see ptx_peek.lat_class). */
unsigned ptx_insn_lat_class(const struct ptx_insn *in);

#endif
