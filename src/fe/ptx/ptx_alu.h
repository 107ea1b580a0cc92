/*
 * ptx_alu.h - per-lane semantics of the PTX instructions that touch only
 * registers: integer, bit, floating-point, conversion, comparison and select.
 * No memory, no control flow, no cross-lane communication (those live in the
 * SIMT executor, ptx_exec.c).
 *
 * The executor prepares one 32-lane uint64_t array per operand (registers
 * point into the warp register file, immediates at ptx_opnd.lanes, special
 * registers and negated predicates into scratch arrays) and calls
 * ptx_alu_exec() once per warp instruction; only lanes set in `mask` are
 * written.  Values are zero-extended bit patterns of the operand type.
 */
#ifndef WARPSIM_PTX_ALU_H
#define WARPSIM_PTX_ALU_H

#include "ptx_ir.h"

struct ptx_alu_args {
    uint32_t mask;              /* lanes to compute */
    uint64_t *d;                /* first destination (NULL for `_`) */
    uint64_t *d2;               /* second destination: setp p|q, or NULL */
    const uint64_t *s[4];       /* sources in PTX order after the destination(s) */
    uint64_t *cc;               /* carry flag lanes (func->cc_reg), NULL if the function has none */
};

/* True when `op` is handled by ptx_alu_exec(). */
bool ptx_alu_handles(enum ptx_opcode op);

/* Execute one ALU instruction over the lanes in a->mask.  Returns 0, or -1
   when the instruction/type/modifier combination is not supported (the parser
   calls ptx_alu_supported() so this does not happen at run time). */
int ptx_alu_exec(const struct ptx_insn *in, const struct ptx_alu_args *a);

/* Load-time check: 0 if supported, else -1 and a short reason in buf. */
int ptx_alu_supported(const struct ptx_insn *in, char *buf, size_t n);

#endif
