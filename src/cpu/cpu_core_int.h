/*
 * cpu_core_int.h - the state of a CPU core, shared by cpu_core.c (pipeline)
 * and cpu_core_mem.c (L1, L2, store buffer, memory seam).  Not for other
 * files: they use cpu_core.h.
 */
#ifndef WARPSIM_CPU_CORE_INT_H
#define WARPSIM_CPU_CORE_INT_H

#include "cpu/cpu_core.h"
#include "mem/cache.h"

#define CPU_NREGS 256
#define CPU_NO_ENT UINT16_MAX
#define CPU_SRC_SLOTS TRACE_NUM_SRC_REGS
#define CPU_MAX_LD TRACE_NUM_SRC_MEM
#define CPU_MAX_ST TRACE_NUM_DST_MEM

/* L1 waiter tokens: a ROB index, or a store-buffer write (nobody waits) */
#define CPU_WAIT_STORE UINT64_MAX
/* L2 waiter tokens */
#define CPU_L2W_READ 0u        /* an L1 miss: fill the L1 */
#define CPU_L2W_WB 1u          /* an L1 write-back merged into a pending line */

enum rob_state { RS_WAIT = 0, RS_ISSUED, RS_DONE };

struct rob_ent {
    uint64_t seq;              /* program order, from 1 */
    uint64_t ip;
    sim_cycle ready_at;        /* latest completion among producers known so far */
    sim_cycle done_at;         /* completion cycle, SIM_NEVER until known */
    sim_cycle mem_done;        /* latest completion among this load's accesses so far */
    sim_cycle retry_epoch;     /* L1 fill epoch of a refused access: not retried before the next fill */
    uint64_t ld[CPU_MAX_LD];   /* distinct load blocks */
    uint64_t st[CPU_MAX_ST];   /* distinct store blocks */
    uint16_t cons_head;        /* first edge (consumer index * CPU_SRC_SLOTS + slot) waiting on me */
    uint16_t edge_next[CPU_SRC_SLOTS];   /* next edge in my producers' lists, one per source slot */
    uint8_t nld, nst, ld_next; /* ld_next: loads accesses accepted so far */
    uint8_t ld_wait;           /* accepted accesses whose data has not arrived */
    uint8_t n_wait;            /* producers whose completion cycle is unknown */
    uint8_t state;             /* enum rob_state */
    uint8_t is_branch, mispred, blocked;
    uint8_t ld_pending;        /* waiting for data from the L2 or memory (memory stall accounting) */
};

struct l2q_ent {               /* L1 -> L2 access */
    uint64_t addr;
    sim_cycle ready;
    uint8_t is_write;
};

struct fill_ev {               /* L1 fill after an L2 hit */
    uint64_t addr;
    sim_cycle at;
};

struct sb_ent {                /* retired store waiting to write the L1 */
    uint64_t addr;
    uint64_t ip;
};

struct cpu_core {
    struct cpu_core_params p;
    struct cpu_src *src;
    struct mem_req_pool *pool;
    struct cache *l1, *l2;
    char l1_name[24], l2_name[24];

    /* ROB: circular, head = oldest */
    struct rob_ent *rob;
    uint32_t rob_head, rob_count;
    uint32_t n_unissued;       /* entries in RS_WAIT */
    uint64_t next_seq;

    /* rename table: the latest in-flight writer of each register */
    uint16_t reg_ent[CPU_NREGS];
    uint64_t reg_seq[CPU_NREGS];

    /* front end */
    uint8_t *bp;               /* gshare: two-bit saturating counters */
    uint32_t bp_mask;
    uint32_t ghr;
    uint16_t fetch_wait_ent;   /* mispredicted branch fetch waits for, or CPU_NO_ENT */
    uint64_t fetch_wait_seq;
    sim_cycle fetch_resume;    /* fetch blocked until this cycle */
    bool src_done;             /* end of trace (no loop), quota or error */
    bool src_failed;
    char err[256];

    /* memory side */
    uint64_t l1_fill_epoch;    /* bumped by every L1 fill: refused accesses retry after one */
    uint64_t l2_epoch;         /* bumped by every L2 fill or outgoing pop */
    uint64_t l2_blocked_epoch; /* l2_epoch at which the L2 head was refused (UINT64_MAX: not blocked) */
    uint64_t sb_blocked_epoch; /* l1_fill_epoch at which the store buffer head was refused */
    struct l2q_ent *l2q;
    uint32_t l2q_head, l2q_count;
    struct fill_ev *fills;     /* L2-hit fills, in time order (fixed L2 latency) */
    uint32_t fills_head, fills_count, fills_cap;
    struct sb_ent *sb;
    uint32_t sb_head, sb_count;
    struct mem_req **outq;
    sim_cycle *outq_ready;
    uint32_t outq_head, outq_count;
    uint64_t *waiters;         /* scratch for cache_fill */
    uint32_t waiters_cap;
    bool l1_port_used;         /* this cycle */

    bool progress;             /* the last tick changed something */
    sim_cycle last_tick;       /* SIM_NEVER before the first */
    sim_cycle acct_next;       /* first cycle not yet counted in the statistics */
    struct cpu_core_stats st;
};

/* cpu_core.c */
void cpu_core_complete(struct cpu_core *c, uint32_t idx, sim_cycle at);
void cpu_core_catch_up(struct cpu_core *c, sim_cycle now);
/* cpu_core_mem.c */
int cpu_core_mem_init(struct cpu_core *c, struct arena *a, char *msg, size_t n);
/* Issue the next access of load `idx`; true when all of its accesses were accepted. */
bool cpu_core_load_access(struct cpu_core *c, uint32_t idx, sim_cycle now);
void cpu_core_mem_tick(struct cpu_core *c, sim_cycle now);   /* L2-hit fills and the L2 stage */
bool cpu_core_sb_drain(struct cpu_core *c, sim_cycle now);   /* one store-buffer write; true if one left */
sim_cycle cpu_core_mem_next_event(const struct cpu_core *c, sim_cycle now);

static inline uint32_t cpu_rob_idx(const struct cpu_core *c, uint32_t k)   /* k-th oldest */
{
    uint32_t i = c->rob_head + k;
    return i >= c->p.rob_size ? i - c->p.rob_size : i;
}

#endif
