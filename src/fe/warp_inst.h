/*
 * warp_inst.h - the seam between front ends and the timing model.
 *
 * A front end (the PTX executor, later trace readers) fills one warp_inst per
 * issued warp instruction.  The timing model (gpu/, mem/) consumes only this
 * record; PTX types never cross into it.
 */
#ifndef WARPSIM_WARP_INST_H
#define WARPSIM_WARP_INST_H

#include <stdint.h>

#define WI_MAX_DST 4
#define WI_MAX_SRC 6

enum wi_class {
    WI_ALU = 0,     /* integer / logic / move on the SP pipeline */
    WI_FP32,        /* single-precision arithmetic (SP) */
    WI_FP64,        /* double precision (DP unit) */
    WI_SFU,         /* transcendental / special function unit */
    WI_LD, WI_ST, WI_ATOM,   /* memory: see space */
    WI_TEX,
    WI_BRANCH, WI_CALL, WI_RET, WI_EXIT,
    WI_BARRIER, WI_MEMBAR,
    WI_WARP,        /* shfl / vote: cross-lane on SP */
    WI_NOP,
    WI_CLASS_COUNT
};

enum wi_space { WS_SPACE_NONE = 0, WS_SPACE_GLOBAL, WS_SPACE_SHARED, WS_SPACE_LOCAL,
                WS_SPACE_CONST, WS_SPACE_PARAM, WS_SPACE_TEX };

struct warp_inst {
    uint32_t pc;              /* instruction index in its function */
    uint16_t func;            /* function index in the module */
    uint8_t cls;              /* enum wi_class */
    uint8_t space;            /* enum wi_space, for memory classes (generic resolved per access) */
    uint32_t active_mask;     /* lanes that executed (after the guard predicate): their count is
                                 gpu_sim_insn's (GPGPU-Sim counts no guarded-off lane) */
    uint32_t issue_mask;      /* lanes active at issue (before the guard predicate): their count is
                                 warpsim_active_lane_insn's */
    uint8_t ndst, nsrc;       /* registers written / read (for the scoreboard) */
    uint8_t access_size;      /* bytes per lane per access (ld/st/atom; v2/v4 counted whole) */
    uint8_t is_write;         /* store / atomic */
    int32_t dst[WI_MAX_DST];
    int32_t src[WI_MAX_SRC];
    uint64_t addr[32];        /* per-lane address (valid for active lanes of memory classes) */
    /* control flow */
    uint8_t is_branch, taken_any, diverged, pad_;
    uint32_t taken_mask;      /* lanes that took the branch */
    uint32_t target_pc;       /* branch target */
    uint32_t reconv_pc;       /* reconvergence point (immediate post-dominator) */
    uint32_t next_pc;         /* pc the warp continues at */
    uint32_t ptx_line;        /* source line in the .ptx for reports */
};

#endif
