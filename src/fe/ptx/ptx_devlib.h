/*
 * ptx_devlib.h - the device library behind PTX's calls to extern functions
 * that CUDA's toolchain leaves to the driver: `vprintf` (device printf),
 * `malloc` / `free` (the device heap) and `__assertfail` (assert).
 *
 * The executor (ptx_exec_ctrl.c, exec_call) hands a call of a function
 * without a body to ptx_devlib_call.  Everything it does happens at issue,
 * like any other instruction, for the active lanes in lane order: one printf
 * record per lane, one allocation per lane.  In timing mode a call is an
 * instruction that a parallel round of SMs stops before (docs/timing.md), so
 * these effects happen in the serial part of a cycle, in SM order: the output
 * and the heap are the same whatever the number of host threads.
 *
 * struct ptx_devlib is owned by whoever owns the device memory (the host
 * API's context) and outlives every launch; a grid points at it
 * (ptx_grid.dev, NULL = printf discarded, malloc returns NULL, assert traps).
 *
 * printf: the format string and the argument buffer are read from simulated
 * memory (any state space, through generic addresses) and formatted at once
 * into `out`; each argument sits at the next multiple of its own size, as
 * CUDA's ABI packs the local buffer (int, char, short: 4 bytes; long, long
 * long, pointers, strings: 8; float is promoted to double: 8).  The owner
 * writes `out` to the program's stdout (after each launch, or at the CUDA
 * runtime's synchronisation points).  The FIFO limit is applied to the
 * formatted text: a record that would take the pending text past fifo_size
 * bytes is dropped and counted.  vprintf returns the number of arguments its
 * format consumed, -1 for a NULL format (what CUDA's printf returns).
 *
 * Heap: one global allocation of heap_size bytes (created by the owner before
 * the first launch of a module that calls malloc; the memory checker sees it
 * as one allocation), carved first-fit into 16-byte aligned blocks whose
 * bookkeeping lives on the host.  malloc returns NULL when no gap is large
 * enough (and for size 0); free(NULL) does nothing; freeing anything but the
 * start of a live block is a fault.
 *
 * assert: every active lane prints CUDA's line
 *   "FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `EXPR` failed."
 * into `err`, `asserts` counts them, and the launch stops with PTX_EXEC_TRAP.
 */
#ifndef WARPSIM_PTX_DEVLIB_H
#define WARPSIM_PTX_DEVLIB_H

#include <stddef.h>
#include <stdint.h>

#define PTX_DEVLIB_HEAP_DEFAULT (8ull << 20)   /* cudaLimitMallocHeapSize */
#define PTX_DEVLIB_FIFO_DEFAULT (1ull << 20)   /* cudaLimitPrintfFifoSize */
#define PTX_DEVLIB_HEAP_ALIGN 16u

/* a growable text buffer */
struct ptx_devbuf {
    char *p;
    size_t len, cap;
};

struct ptx_heap_blk {
    uint64_t off, size;          /* offset in the heap, bytes asked for (rounded to the alignment) */
};

struct ptx_devlib {
    struct ptx_devbuf out;       /* device printf output not yet written */
    struct ptx_devbuf err;       /* assertion messages not yet written */
    uint64_t fifo_size;          /* bytes of pending printf text allowed */
    uint64_t dropped;            /* printf records dropped because the FIFO was full */
    uint64_t heap_size;          /* size of the heap (fixed once it is created) */
    uint64_t heap_base;          /* its global address, 0 until created */
    struct ptx_heap_blk *blks;   /* live blocks, sorted by offset */
    size_t nblks, cap_blks;
    uint64_t heap_in_use;        /* bytes in live blocks */
    uint64_t mallocs, failed_mallocs, frees;
    uint64_t asserts;            /* threads that failed an assert, over every launch */
};

void ptx_devlib_init(struct ptx_devlib *d);
void ptx_devlib_destroy(struct ptx_devlib *d);

/* Append n bytes to b (grows it).  Returns 0, or -1 when out of host memory. */
int ptx_devbuf_put(struct ptx_devbuf *b, const char *s, size_t n);

/* Read up to n bytes of simulated memory at address addr into buf: returns how many
   bytes starting at addr are readable (0 when addr is not mapped). */
typedef size_t (*ptx_devmem_read)(void *user, uint64_t addr, void *buf, size_t n);

/* Format one printf record: the NUL-terminated format at device address fmt, the
   packed arguments at device address args (0 = none), appended to out.  Returns the
   number of arguments the format consumed, -1 when fmt is 0 or unreadable, -2 when
   out of host memory.  Bytes of an argument that cannot be read count as 0; a %s
   string that cannot be read prints "(null)" like a NULL pointer. */
int ptx_devprintf_format(struct ptx_devbuf *out, ptx_devmem_read rd, void *user, uint64_t fmt, uint64_t args);

/* Heap blocks (offsets relative to the heap).  ptx_devheap_alloc returns 0 and the
   offset, or -1 when no gap fits (or size is 0, or out of host memory);
   ptx_devheap_free returns 0, or -1 when off is not the start of a live block. */
int ptx_devheap_alloc(struct ptx_devlib *d, uint64_t size, uint64_t *off);
int ptx_devheap_free(struct ptx_devlib *d, uint64_t off);

#endif
