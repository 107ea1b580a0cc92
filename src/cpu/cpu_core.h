/*
 * cpu_core.h - a trace-driven out-of-order CPU core (004 Table I; docs/cpu.md).
 *
 * The core replays ChampSim instruction records (cpu/trace.h) from an
 * instruction source, in cycles of its own clock domain: whoever owns it
 * calls cpu_core_tick(core, now) with increasing cycle numbers (gaps allowed:
 * see cpu_core_next_event) and never needs to know the frequency.
 *
 * Pipeline (one cpu_core_tick, in reverse pipeline order):
 *   retire    up to `width` completed instructions, in order, from the ROB
 *             head; a store retires into the store buffer (retirement waits
 *             for room there), which writes the L1 later;
 *   L2 stage  one access per cycle from the L1 -> L2 queue; L2 misses and
 *             dirty L2 evictions leave through the outgoing memory queue;
 *   issue     up to `width` ready instructions, oldest first, at most
 *             `mem_per_cycle` of them memory instructions; an instruction is
 *             ready when every producer of its source registers completed;
 *   store buffer drain: one write into the L1 when the L1 port is free
 *             (or always when the buffer is full);
 *   fetch     up to `width` instructions from the source into the ROB, with a
 *             gshare prediction checked against the trace's branch_taken;
 *             after a mispredicted branch fetch stops until the branch has
 *             executed, plus `mispredict_penalty` cycles.
 * Latencies: ALU 1 (every non-load instruction, branches and stores'
 * address generation included), load = L1 lookup (l1_lat) when it hits,
 * + L2 lookup (l2_lat) when the L2 hits, else the cycle its memory reply
 * arrives.  Instruction fetch always hits.
 *
 * Memory seam: an L2 miss becomes a struct mem_req (type MRT_READ, source
 * MRS_L1D, addr = the 128-byte block, sm = the core id) from the pool handed
 * to cpu_core_new; a dirty L2 eviction becomes an MRT_WRITE (source
 * MRS_WRITEBACK) that gets no reply.  Requests wait in a bounded outgoing
 * queue; the owner takes them with cpu_core_mem_peek/cpu_core_mem_pop (the
 * request is then the owner's), frees the writes itself once done with them
 * (mem_req_free) and hands each read back, the same struct, through
 * cpu_core_mem_reply(core, req, now), which frees it.
 *
 * Memory: everything is allocated from the arena given to cpu_core_new
 * (the core owns nothing else); the tick loop does not allocate, except
 * the request pool's refills (mem_req.h) and the reopening of a file source
 * when the trace loops (cpu_src_file).
 */
#ifndef WARPSIM_CPU_CORE_H
#define WARPSIM_CPU_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/sim.h"
#include "core/stats.h"
#include "cpu/trace.h"
#include "mem/mem_req.h"

/* ---- instruction sources ---- */
struct cpu_src {
    void *ctx;
    /* 1: *r holds the next instruction; 0: end of the trace; -1: error (error()) */
    int (*next)(void *ctx, struct trace_rec *r);
    /* back to the first instruction (looping); 0, or -1 (error()); NULL: cannot loop */
    int (*rewind)(void *ctx);
    const char *(*error)(void *ctx);
};
/* A trace file (cpu/trace.h): reading streams it, rewinding reopens it.
   NULL with "PATH: reason" in err on failure.  cpu_src_file_close closes the
   reader (the struct itself lives in the arena). */
struct cpu_src *cpu_src_file(struct arena *a, const char *path, char *err, size_t n);
void cpu_src_file_close(struct cpu_src *s);
/* n records in memory (not copied: they must outlive the source). */
struct cpu_src *cpu_src_array(struct arena *a, const struct trace_rec *recs, uint64_t n);

/* ---- parameters (defaults: cpu_core_params_default, sources in docs/cpu.md) ---- */
struct cpu_core_params {
    uint32_t width;              /* fetch, dispatch, issue and retire width: 3 (004 Table I) */
    uint32_t rob_size;           /* instruction window: 128 (004 Table I) */
    uint32_t mem_per_cycle;      /* memory instructions issued per cycle: 1 (004 Table I) */
    uint32_t alu_lat;            /* latency of every non-load instruction: 1 */
    uint32_t l1_lat, l2_lat;     /* lookup latencies: 2 and 8 (004 Table I) */
    const char *l1d, *l2;        /* cache strings (mem/cache.h): 32 KB 4-way and 256 KB 8-way, 128 B lines */
    uint32_t sb_size;            /* store buffer entries: 32 */
    uint32_t l2q_size;           /* L1 -> L2 request queue: 16 */
    uint32_t outq_size;          /* outgoing memory queue: 16 */
    uint32_t bp_log2;            /* gshare: 2^bp_log2 two-bit counters, as many history bits: 14 */
    uint32_t mispredict_penalty; /* cycles after the branch executes before fetch resumes: 12 */
    uint64_t quota;              /* stop fetching after this many instructions (0: no quota) */
    bool loop;                   /* at the trace's end start it again (needs a quota to end) */
    uint16_t id;                 /* core id: stats prefix "cpu<id>", mem_req.sm */
};
void cpu_core_params_default(struct cpu_core_params *p);
/* 0, or -1 with a message naming the parameter. */
int cpu_core_params_check(const struct cpu_core_params *p, char *msg, size_t n);

/* Counters of the core (the caches keep theirs: cpu_core_l1d/l2 + cache_stats). */
struct cpu_core_stats {
    uint64_t cycles;             /* cycles from the first tick to the last (skipped ones included) */
    uint64_t insns;              /* instructions retired */
    uint64_t fetched;            /* instructions fetched */
    uint64_t loads, stores;      /* retired instructions with a load / a store address */
    uint64_t branches, mispredicts;
    uint64_t rob_full_cycles;    /* fetch could have run but the ROB was full */
    uint64_t mem_stall_cycles;   /* nothing retired, the ROB head a load waiting for the L2 or memory */
    uint64_t sb_full_cycles;     /* retirement held up by a full store buffer */
    uint64_t mem_reads, mem_writes;   /* requests put into the outgoing queue */
    uint64_t loops;              /* times the trace was restarted */
};

struct cpu_core;
/* NULL with a message on a bad parameter or cache string.  The source and
   the pool must outlive the core. */
struct cpu_core *cpu_core_new(struct arena *a, const struct cpu_core_params *p, struct cpu_src *src,
                              struct mem_req_pool *pool, char *msg, size_t n);
/* Register "cpu<id>.<counter>" and the caches' counters ("cpu<id>.l1d.*", "cpu<id>.l2.*"). */
void cpu_core_reg_stats(struct cpu_core *c, struct stats *s);

/* One cycle.  Returns whether anything changed (false: cpu_core_next_event
   says when something can). */
bool cpu_core_tick(struct cpu_core *c, sim_cycle now);
/* After a tick at `now`: the earliest cycle > now at which a tick may change
   something without a memory reply arriving (SIM_NEVER: only a reply can;
   now + 1 when the last tick made progress).  Owners skip the cycles between. */
sim_cycle cpu_core_next_event(const struct cpu_core *c, sim_cycle now);
/* Finished: fetch stopped (trace end, quota or a trace error), the ROB and
   the store buffer are empty. */
bool cpu_core_done(const struct cpu_core *c);
/* "" or the source's error that stopped fetch. */
const char *cpu_core_error(const struct cpu_core *c);

/* ---- memory seam ---- */
/* The oldest outgoing request if it may leave at `now`, else NULL. */
struct mem_req *cpu_core_mem_peek(const struct cpu_core *c, sim_cycle now);
/* Remove the request cpu_core_mem_peek returned (it now belongs to the caller). */
void cpu_core_mem_pop(struct cpu_core *c);
/* Cycle at which the oldest outgoing request may leave (SIM_NEVER if none). */
sim_cycle cpu_core_mem_next(const struct cpu_core *c);
/* The data of a read this core sent arrived (the request is freed). */
void cpu_core_mem_reply(struct cpu_core *c, struct mem_req *r, sim_cycle now);

const struct cpu_core_stats *cpu_core_stats(const struct cpu_core *c);
const struct cpu_core_params *cpu_core_params(const struct cpu_core *c);
struct cache *cpu_core_l1d(const struct cpu_core *c);
struct cache *cpu_core_l2(const struct cpu_core *c);

/* Derived metrics between two points of a run (a zeroed start = from the beginning). */
struct cpu_core_sample {
    struct cpu_core_stats core;
    uint64_t l1_accesses, l1_misses, l2_accesses, l2_misses;   /* l2_misses: read misses (sent to memory) */
};
void cpu_core_sample(const struct cpu_core *c, struct cpu_core_sample *out);
struct cpu_core_summary {
    uint64_t insns, cycles, mispredicts, l1_accesses, l1_misses, l2_accesses, l2_misses;
    uint64_t rob_full_cycles, mem_stall_cycles;
    double ipc, l1_mpki, l2_mpki, mispredicts_pki;
};
void cpu_core_summarize(const struct cpu_core_sample *start, const struct cpu_core_sample *end,
                        struct cpu_core_summary *out);

#endif
