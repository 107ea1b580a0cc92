/*
 * fuzz_ptx_run.h - what fuzz_ptx_exec and fuzz_ptx_timing share: decode the
 * launch shape from the first bytes of the input, load the rest as PTX and
 * launch every kernel of it with bounded grids, arguments pointing at small
 * device buffers, and a warp-instruction budget for the whole input.
 *
 * Input layout (docs/fuzzing.md):
 *     byte 0   grid shape   (index into a table of grids of at most 4 CTAs)
 *     byte 1   bits 0-2: block shape (index into a table of blocks of at most 64 threads);
 *              bits 3-7: the kernel launched first (the others follow in declaration order)
 *     byte 2   bits 0-1: dynamic shared memory, (byte % 4) * 64 bytes;
 *              fuzz_ptx_timing: bits 2-4 the warp scheduler, bits 5-7 the CTA scheduler
 *     byte 3   seed of the scalar argument values
 *     rest     PTX text (at most FUZZ_PTX_MAX_INPUT bytes; longer inputs are ignored)
 */
#ifndef WARPSIM_FUZZ_PTX_RUN_H
#define WARPSIM_FUZZ_PTX_RUN_H

#include <stddef.h>
#include <stdint.h>

#include "warpsim/warpsim.h"

#define FUZZ_PTX_HEADER 4u
#define FUZZ_PTX_MAX_INPUT (64u * 1024u)   /* whole input, header included */
#define FUZZ_PTX_MAX_KERNELS 8u            /* kernels launched per input */
#define FUZZ_PTX_INSN_BUDGET 20000u        /* warp instructions per input, over every launch */
#define FUZZ_PTX_BUF_BYTES 16384u          /* each of the two device buffers */

/* Load data[FUZZ_PTX_HEADER..size) into ctx as a module and launch its kernels.
   Failures of any kind (bad PTX, launch validation, memory checker, limits)
   are expected outcomes; the function returns the number of launches tried. */
unsigned fuzz_ptx_run(ws_ctx *ctx, const uint8_t *data, size_t size);

#endif
