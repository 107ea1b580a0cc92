/*
 * mem_req.h - one memory request travelling SM -> interconnect -> memory
 * partition (L2 slice, DRAM) -> interconnect -> SM.
 *
 * Requests come from a per-simulation pool (mem_req_pool): allocated when an
 * SM's L1 (or LD/ST unit, for uncached accesses) sends a miss, freed when the
 * reply has been consumed by the SM, or at the partition for writes that need
 * no reply.  The pool is preallocated and grows only outside the tick loop
 * (checked), so the tick loop never calls malloc.  Every request is issued
 * once and retired once: the pool counts both and the simulator checks they
 * match at the end of each kernel (debug builds also check per request).
 */
#ifndef WARPSIM_MEM_REQ_H
#define WARPSIM_MEM_REQ_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/sim.h"

enum mem_req_type {
    MRT_READ = 0,      /* global/local/const/texture/instruction read */
    MRT_WRITE,         /* store data (write-through or write-back eviction) */
    MRT_ATOMIC         /* read-modify-write performed at the L2 */
};

enum mem_req_source {  /* which L1-level structure sent it (reply routing, stats) */
    MRS_L1D = 0, MRS_L1I, MRS_L1C, MRS_L1T, MRS_UNCACHED, MRS_WRITEBACK
};

struct mem_req {
    uint64_t addr;             /* block (line or sector) address in the global space */
    uint32_t size;             /* bytes of data moved (request: writes carry data; reply: reads carry data) */
    uint32_t id;               /* unique in its pool, for tracing */
    uint8_t type;              /* enum mem_req_type */
    uint8_t source;            /* enum mem_req_source */
    uint8_t is_reply;          /* set by the partition when it turns the request around */
    uint8_t l2_hit;            /* set by the partition: served from the L2 */
    uint16_t sm;               /* source SM (global core id) */
    uint16_t warp;             /* source warp slot on that SM (stats, latency attribution) */
    uint32_t pc;               /* instruction that caused it (PC-indexed policies) */
    uint16_t partition;        /* destination memory sub-partition (set by the SM via the address map) */
    uint16_t pad_;
    uint32_t sector_mask;      /* 32-byte sectors of the line touched (4 bits for 128-byte lines) */
    /* timestamps in core cycles, for lat_rt, interconnect and DRAM latency statistics */
    sim_cycle t_issue;         /* left the SM (entered the interconnect queue) */
    sim_cycle t_part_arrive;   /* arrived at the memory partition (core cycles) */
    sim_cycle t_dram_queue;    /* entered the DRAM scheduler queue (DRAM cycles) */
    sim_cycle t_dram_issue;    /* its column command issued (DRAM cycles) */
    sim_cycle t_reply;         /* reply injected into the interconnect (core cycles) */
    struct mem_req *next;      /* intrusive link: free list, MSHR merge lists, DRAM queues */
    struct mem_req_pool *home; /* the pool it came from and goes back to */
    void *cookie;              /* owner data (e.g. the L1 MSHR entry waiting for it) */
};

struct mem_req_pool {
    struct arena *arena;
    struct mem_req *free;
    uint64_t allocated, retired;   /* conservation: equal when the machine is drained */
    uint32_t next_id;
    uint32_t chunk;                /* requests added per refill */
};

/* Preallocate `initial` requests. */
int mem_req_pool_init(struct mem_req_pool *p, struct arena *a, uint32_t initial);
/* Never fails in the tick loop: refills from the arena in chunks if needed
   (a refill is outside the steady state and counted). NULL only on host OOM. */
struct mem_req *mem_req_alloc(struct mem_req_pool *p);
/* Back to the pool it came from (r->home), whatever pool its consumer holds: each SM has a pool of
   its own that only its thread touches while SMs run in parallel (an SM frees only the replies to
   its own requests there; partitions free everything else, between parallel rounds).
   Conservation holds over the sum of the pools. */
void mem_req_free(struct mem_req_pool *p, struct mem_req *r);
static inline uint64_t mem_req_in_flight(const struct mem_req_pool *p) { return p->allocated - p->retired; }

#endif
