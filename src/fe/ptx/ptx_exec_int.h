/*
 * ptx_exec_int.h - private helpers shared by the executor's files
 * (ptx_exec.c: dispatch and operands, ptx_exec_mem.c: memory instructions,
 * ptx_exec_ctrl.c: control flow, barriers, warp-level ops and the CTA runner).
 * Not part of the executor's interface.
 */
#ifndef WARPSIM_PTX_EXEC_INT_H
#define WARPSIM_PTX_EXEC_INT_H

#include "ptx_exec.h"

#define EXEC_FULL 0xffffffffu

/* for each set bit l of mask m, lowest first (lane order keeps results deterministic) */
#define FOR_LANES(m, l) \
    for (uint32_t mm_##l = (m), l = 0; mm_##l && ((l = (uint32_t)__builtin_ctz(mm_##l)), 1); \
         mm_##l &= mm_##l - 1)

static inline struct ptx_frame *exec_frame(struct ptx_warp *w) { return &w->frames[w->fp - 1]; }

static inline uint64_t exec_type_mask(unsigned bits)
{
    return bits >= 64 || bits == 0 ? ~0ull : (1ull << bits) - 1;
}

/* Lanes of predicate register lanes p that are set (negated when neg). */
static inline uint32_t exec_pred_mask(const uint64_t *p, int neg)
{
    uint32_t m = 0;
    for (unsigned l = 0; l < PTX_WARP_SIZE; l++)
        m |= (uint32_t)(p[l] & 1) << l;
    return neg ? ~m : m;
}

/* Width in bits of register r of the frame's function (64 when unknown). */
static inline unsigned exec_reg_bits(const struct ptx_frame *fr, int32_t r)
{
    unsigned b = ptx_type_bits((enum ptx_type)fr->f->regs[r].type);
    return b ? b : 64;
}

/* Record a launch failure at instruction `in` of the current frame: the
   message is "<what>\n=========     at kernel ... (insn)\n=========     by
   thread (..) in block (..)" for lane `lane` (-1: the first active lane), then
   `detail` lines if non-NULL.  Returns PTX_WARP_FAULT and sets w->status. */
int exec_fail(struct ptx_warp *w, const struct ptx_insn *in, int lane, int err, const char *what,
              const char *detail);
/* "ld.global.v2.u32"-style spelling of an instruction (for messages). */
void exec_insn_name(const struct ptx_insn *in, char *buf, size_t n);

/* 32-lane view of a source operand: registers point into the frame, other
   kinds are materialised into w->scratch[slot].  Returns NULL for an operand
   kind that cannot be a value. */
const uint64_t *exec_src(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_opnd *o, unsigned slot);
/* Address of a variable as a value (mov %r, sym).  generic: the generic
   address (cvta applied), else the address in the symbol's own space. */
uint64_t exec_sym_addr(const struct ptx_warp *w, const struct ptx_frame *fr, int32_t sym, bool generic);

/* memory instructions (ptx_exec_mem.c); all return a warp status */
int exec_ld(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi);
int exec_st(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi);
int exec_atom(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
              struct warp_inst *wi);
int exec_prefetch(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
                  struct warp_inst *wi);
int exec_tex(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi);
/* suld.b / sust.b over a surface object (1d, 2d) */
int exec_surf(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m, struct warp_inst *wi);
int exec_cvta(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);
int exec_isspacep(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);

/* control flow and warp-level ops (ptx_exec_ctrl.c) */
int exec_settle(struct ptx_warp *w);          /* pop finished entries/frames; returns status */
int exec_bra(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
             struct warp_inst *wi);
int exec_call(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m,
              struct warp_inst *wi);
int exec_ret(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);
int exec_exit(struct ptx_warp *w, uint32_t m);
int exec_bar(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);
int exec_shfl(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);
int exec_vote(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);
int exec_match(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in, uint32_t m);

/* the device library (ptx_devlib_exec.c): a call of vprintf, malloc, free or __assertfail
   (f has no body) for the lanes of m.  Returns the warp status, or -1 when f is none of them. */
int exec_devlib_call(struct ptx_warp *w, struct ptx_frame *fr, const struct ptx_insn *in,
                     const struct ptx_call *call, const struct ptx_func *f, uint32_t m);

#endif
