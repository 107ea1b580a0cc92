/*
 * partition.c - memory sub-partition: L2 slice + path to its DRAM channel
 * (see partition.h).
 *
 * Queues (all bounded, all allocated in partition_new):
 *   rop_in    requests waiting the ROP latency (only when l2_rop_latency > 0)
 *                                             l2_queue + what can arrive in that time
 *                                             (one per interconnect cycle)
 *   in        icnt -> L2 tag lookup           l2_queue entries
 *   rop       L2 hits waiting l2_hit_latency  l2_hit_latency + l2_queue entries
 *   to_dram   L2 -> DRAM scheduler            max(l2_queue, 2) entries
 *   dram_lat  requests waiting dram_latency   (only when dram_latency > 0)
 *                                             l2_queue + what can enter in that time
 *                                             (one per DRAM cycle)
 *   from_dram DRAM -> L2 (fills, bypass reads) dram_return_queue_size (else l2_queue)
 *   stage     replies woken by one fill        mshr_max_merge + 1 entries
 *   reply     L2 -> icnt                      l2_queue entries
 *
 * Clock domains.  The owner passes each function its own domain's cycle
 * count: partition_push / partition_peek_reply core cycles,
 * partition_cycle_l2 L2 cycles, partition_cycle_dram DRAM cycles.  Times are
 * never compared across domains: a queue written in one domain and read in
 * another is pushed with ready cycle 0, i.e. "visible at the consumer's next
 * call".  Because the owner calls components at their clock edges in global
 * time order, that next call is the consumer's first edge after the push (or
 * the same instant when the consumer ticks later at that instant).  Only the
 * hit pipeline (`rop`), written and read in the L2 domain, carries real ready
 * cycles, and the two GPGPU-Sim latency queues carry ready times in
 * picoseconds (edge k of a domain of period P is at k * P, as in the engine):
 *   rop_in    -gpgpu_l2_rop_latency core cycles (every request but the texture
 *             cache's, which GPGPU-Sim sends straight to the L2's queue too):
 *             partition_push at core cycle
 *             c stamps c * P_core + l2_rop_latency * P_core; the first L2 edge
 *             at or after it moves the head into `in` (one per L2 cycle, while
 *             `in` has room).  partition_full is true when either queue is full.
 *   dram_lat  -dram_latency core cycles: at a DRAM edge t the head of to_dram
 *             enters it (when the channel has room, as GPGPU-Sim moves it only
 *             then) stamped t * P_dram + dram_latency * P_core; the head enters
 *             the channel at the first DRAM edge at or after it with room.
 * With both latencies 0 the queues are not used and requests take the direct
 * path (icnt -> in, to_dram -> channel) of earlier versions exactly.
 * Timestamps stored in mem_req: t_part_arrive (core, at push), t_dram_queue /
 * t_dram_issue (DRAM, set by the channel), t_reply (core, at peek).
 *
 * One L2 cycle, in order:
 *   1. reply queue full: count reply_stall and do nothing else (the L2 stops
 *      serving: no fill, no lookup) - backpressure from the reply network.
 *   2. fill: when the wake-up stage is empty, take one entry from DRAM: a line
 *      fill goes through cache_fill and every merged waiter that needs a reply
 *      (reads, atomics) enters the stage, merged writes are freed; a bypassed
 *      read goes to the stage directly.
 *   3. lookup: the oldest input request probes the L2 (one per L2 cycle).
 *      Before touching the tags it needs room for whatever the access may
 *      cause: 2 free to_dram slots unless the line is present (a miss read +
 *      a dirty eviction; full -> dram_stall, stall_MC), and a free ROP slot for
 *      reads/atomics (full -> l2_res_fail).  A reservation failure of the cache
 *      also counts l2_res_fail and the request retries next cycle.
 *        read/atomic hit   -> hit pipeline, ready at now + l2_hit_latency
 *        miss              -> line fill request (allocated here) to DRAM
 *        merged miss       -> nothing more; woken by the fill
 *        no-allocate miss  -> the request itself goes to DRAM (reads reply
 *                             when it returns, writes are freed then)
 *        write hit         -> absorbed (freed); write-through L2s also send it
 *                             to DRAM
 *      Atomics access the L2 as writes (the line ends dirty) and always reply.
 *      Dirty evictions become DRAM writes allocated here from the pool and
 *      freed when the DRAM completes them.
 *   4. output: at most one reply per L2 cycle enters the reply queue: a woken
 *      waiter from the stage first, else the hit pipeline's head once ready.
 *   5. ROP: the head of rop_in enters `in` when its time has come.
 * So an L2 read hit looked up at L2 cycle c is in the reply queue at the end of
 * L2 cycle c + l2_hit_latency (exactly, without contention), and a request
 * pushed between L2 edges c-1 and c is looked up at c (without a ROP latency;
 * with one, it enters `in` at the first L2 edge at or after its ready time and
 * is looked up at the next one, as GPGPU-Sim's ROP queue feeds its L2 queue at
 * the end of the L2 cycle).
 *
 * One DRAM cycle (this sub-partition's share; the owner runs dram_cycle of
 * the channel separately): finished requests of this sub-partition leave the
 * channel (write-backs and writes are freed, reads enter from_dram while it
 * has room), then the head of to_dram enters the channel scheduler if it has
 * room (else dram_note_full); with a DRAM latency the head goes through
 * dram_lat first (see above).  The channel is shared by the sub-partitions of
 * a memory channel: done requests are told apart by mem_req.partition, which
 * partition_push sets to this sub-partition's id.
 *
 * Statistics: l2_read_hits counts CACHE_HIT reads; l2_read_misses every other
 * read outcome (miss, merged, bypass); l2_write_misses writes other than
 * CACHE_HIT; requests = partition_push calls, replies = partition_pop_reply
 * calls.  Requests that need no reply (writes) are freed once absorbed, so
 * requests == replies + writes when drained.
 */
#include "mem/partition.h"

#include <string.h>

#include "core/fifo.h"

struct mem_partition {
    unsigned id, sub;
    unsigned map_chan;        /* its channel in `map`'s numbering */
    struct dram_channel *dram;
    const struct addr_map *map;
    struct mem_req_pool *pool;
    struct cache *l2;
    uint32_t line_size;
    int write_through;
    unsigned hit_latency;     /* L2 cycles */
    unsigned rop_core, dram_core;          /* GPGPU-Sim latencies, core cycles (0: queue not used) */
    sim_ps ps_core, ps_l2, ps_dram;        /* clock periods (1 when the config has none) */
    struct fifo rop_in, in, rop, to_dram, dram_lat, from_dram, reply;
    struct mem_req **stage;
    uint32_t stage_head, stage_n, stage_cap;
    uint64_t *waiters;
    unsigned wcap;
    uint64_t dram_out;        /* requests of this sub-partition in to_dram or the channel */
    uint8_t *busy;            /* PART_BUSY_* (partition_publish_busy), or busy_own */
    uint8_t busy_own;
    /* addresses used only as markers in mem_req.cookie of requests this
       sub-partition allocated itself (no SM-owned cookie can equal them) */
    char tag_fill, tag_wb;
    struct partition_stats st;
};

/* Entries of a latency queue of `lat` core cycles fed at most once per cycle of period `feed_ps`: all that
   can be in flight (so that, unloaded, it never limits the rate), plus `q`.  GPGPU-Sim's queues are unbounded. */
static uint32_t part_lat_cap(unsigned lat, sim_ps core_ps, sim_ps feed_ps, uint32_t q)
{
    if (!feed_ps)
        feed_ps = core_ps;
    uint64_t n = ((uint64_t)lat * core_ps + feed_ps - 1) / feed_ps + q;
    return n > (1u << 24) ? 1u << 24 : (uint32_t)n;
}

struct mem_partition *partition_new(struct arena *a, const struct gpu_config *g, unsigned id,
                                    struct dram_channel *dram, const struct addr_map *map,
                                    struct mem_req_pool *pool)
{
    struct cache_config cc;
    char msg[256];
    unsigned col = 0;
    if (cache_config_parse(g->cache_dl2, &cc, msg, sizeof msg, &col) != 0)
        return NULL;   /* gpu_config_load validated the string; this is a programming error upstream */
    struct mem_partition *p = arena_alloc(a, sizeof *p);
    if (!p)
        return NULL;
    char name[32];
    snprintf(name, sizeof name, "l2_%u", id);
    p->l2 = cache_new(a, &cc, name);
    if (!p->l2 || (g->repl_name[GPU_CACHE_L2] &&
                   cache_set_repl_name(p->l2, g->repl_name[GPU_CACHE_L2], NULL, msg, sizeof msg) != 0))
        return NULL;
    if (g->bypass_name[GPU_CACHE_L2] && cache_set_bypass_name(p->l2, g->bypass_name[GPU_CACHE_L2], NULL, msg, sizeof msg) != 0)
        return NULL;
    cache_set_bypass_mshr(p->l2, g->bypass_mshr != 0);
    unsigned nsub = g->n_sub_partition_per_mchannel ? g->n_sub_partition_per_mchannel : 1;
    p->id = id;
    /* its channel among those of its address map: with channels dedicated per class
       (-warpsim_mc_partition) the CPU cores' map numbers their channels from 0 */
    p->map_chan = id / nsub;
    if (g->mc_gpu && p->map_chan >= g->mc_gpu)
        p->map_chan -= g->mc_gpu;
    p->sub = id % nsub;
    p->dram = dram;
    p->map = map;
    p->pool = pool;
    p->busy = &p->busy_own;
    p->line_size = cc.line_size;
    p->write_through = cc.wr != CW_WRITE_BACK;   /* global writes: only a write-back L2 absorbs them */
    p->hit_latency = g->l2_hit_latency;
    p->rop_core = g->l2_rop_latency;
    p->dram_core = g->dram_latency;
    p->ps_core = g->ps_core ? g->ps_core : 1;
    p->ps_l2 = g->ps_l2 ? g->ps_l2 : 1;
    p->ps_dram = g->ps_dram ? g->ps_dram : 1;
    uint32_t q = g->l2_queue ? g->l2_queue : 1;
    uint32_t ret = g->dram_return_queue_size ? g->dram_return_queue_size : q;
    p->wcap = cc.mshr_max_merge + 1;
    p->stage_cap = p->wcap;
    p->stage = arena_alloc(a, sizeof *p->stage * p->stage_cap);
    p->waiters = arena_alloc(a, sizeof *p->waiters * p->wcap);
    if (!p->stage || !p->waiters || fifo_init(&p->in, a, q) || fifo_init(&p->rop, a, p->hit_latency + q) ||
        (p->rop_core && fifo_init(&p->rop_in, a, part_lat_cap(p->rop_core, p->ps_core, g->ps_icnt, q))) ||
        (p->dram_core && fifo_init(&p->dram_lat, a, part_lat_cap(p->dram_core, p->ps_core, p->ps_dram, q))) ||
        fifo_init(&p->to_dram, a, q > 2 ? q : 2) || fifo_init(&p->from_dram, a, ret) ||
        fifo_init(&p->reply, a, q))
        return NULL;
    return p;
}

void partition_reg_stats(struct mem_partition *p, struct stats *s, const char *prefix)
{
    struct partition_stats *t = &p->st;
    stats_reg(s, &t->l2_reads, "read requests looked up in the L2", "%s.l2_reads", prefix);
    stats_reg(s, &t->l2_writes, "write requests looked up in the L2", "%s.l2_writes", prefix);
    stats_reg(s, &t->l2_atomics, "atomic requests looked up in the L2", "%s.l2_atomics", prefix);
    stats_reg(s, &t->l2_read_hits, "reads that hit a valid L2 line", "%s.l2_read_hits", prefix);
    stats_reg(s, &t->l2_read_misses, "reads that missed (incl. merged and bypassed)", "%s.l2_read_misses",
              prefix);
    stats_reg(s, &t->l2_write_misses, "writes that did not hit", "%s.l2_write_misses", prefix);
    stats_reg(s, &t->l2_res_fail, "L2 cycles the head request could not be served (MSHR/ROP full)",
              "%s.l2_res_fail", prefix);
    stats_reg(s, &t->reply_stall, "L2 cycles stalled by a full reply queue (stall_net)", "%s.reply_stall",
              prefix);
    stats_reg(s, &t->dram_stall, "L2 cycles a request waited for the DRAM queue (stall_MC)", "%s.dram_stall",
              prefix);
    stats_reg(s, &t->requests, "requests received", "%s.requests", prefix);
    stats_reg(s, &t->replies, "replies handed to the interconnect", "%s.replies", prefix);
    char l2p[256];
    snprintf(l2p, sizeof l2p, "%s.l2", prefix);
    cache_reg_stats(p->l2, s, l2p);
}

const struct partition_stats *partition_get_stats(const struct mem_partition *p) { return &p->st; }

struct cache *partition_l2(struct mem_partition *p) { return p->l2; }

bool partition_full(const struct mem_partition *p)
{
    return fifo_full(&p->in) || (p->rop_core && fifo_full(&p->rop_in));
}

void partition_push(struct mem_partition *p, struct mem_req *r, sim_cycle now_core)
{
    SIM_ASSERT(!fifo_full(&p->in));
    r->t_part_arrive = now_core;
    r->partition = (uint16_t)p->id;   /* the DRAM channel routes completions by it */
    r->is_reply = 0;
    r->l2_hit = 0;
    p->st.requests++;
    *p->busy |= PART_BUSY_L2;
    if (p->rop_core && r->source != MRS_L1T) {   /* texture reads skip the ROP queue, as in GPGPU-Sim */
        SIM_ASSERT(!fifo_full(&p->rop_in));
        fifo_push(&p->rop_in, r, (now_core + p->rop_core) * p->ps_core);
    } else {
        fifo_push(&p->in, r, 0);
    }
}

static void part_stage_push(struct mem_partition *p, struct mem_req *r)
{
    SIM_ASSERT(p->stage_n < p->stage_cap);
    uint32_t i = p->stage_head + p->stage_n;
    if (i >= p->stage_cap)
        i -= p->stage_cap;
    p->stage[i] = r;
    p->stage_n++;
}

static struct mem_req *part_stage_pop(struct mem_partition *p)
{
    SIM_DASSERT(p->stage_n > 0);
    struct mem_req *r = p->stage[p->stage_head];
    if (++p->stage_head == p->stage_cap)
        p->stage_head = 0;
    p->stage_n--;
    return r;
}

static void part_to_dram(struct mem_partition *p, struct mem_req *r)
{
    SIM_ASSERT(!fifo_full(&p->to_dram));
    fifo_push(&p->to_dram, r, 0);
    p->dram_out++;
    *p->busy |= PART_BUSY_DRAM;
}

/* A request allocated here (line fill or write-back), routed back by cookie. */
static struct mem_req *part_new_req(struct mem_partition *p, uint64_t addr, uint8_t type, void *tag)
{
    struct mem_req *r = mem_req_alloc(p->pool);
    SIM_ASSERT(r != NULL);   /* host out of memory */
    r->addr = addr;
    r->size = p->line_size;
    r->type = type;
    r->source = MRS_WRITEBACK;
    r->partition = (uint16_t)p->id;
    r->sector_mask = UINT32_MAX;
    r->cookie = tag;
    return r;
}

/* The L2 slice holds sub-partition-local addresses (addr_map_local_addr). */
static uint64_t part_local(const struct mem_partition *p, uint64_t addr)
{
    return addr_map_local_addr(p->map, addr);
}

static void part_writeback(struct mem_partition *p, uint64_t wb_local)
{
    if (wb_local == UINT64_MAX)
        return;
    unsigned nsub = p->map->n_sub_per_chan;
    uint64_t addr = addr_map_global_addr(p->map, wb_local, p->map_chan, p->id % nsub);
    part_to_dram(p, part_new_req(p, addr, MRT_WRITE, &p->tag_wb));
}

static void part_fill(struct mem_partition *p, sim_cycle now)
{
    if (p->stage_n || fifo_empty(&p->from_dram) || fifo_full(&p->to_dram))
        return;   /* a fill may evict a dirty line (allocate-on-fill): keep a to_dram slot */
    struct mem_req *r = fifo_pop(&p->from_dram);
    if (r->cookie != &p->tag_fill) {
        part_stage_push(p, r);   /* a read/atomic that bypassed the L2 */
        return;
    }
    uint64_t wb = UINT64_MAX;
    unsigned n = cache_fill(p->l2, part_local(p, r->addr), now, p->waiters, p->wcap, &wb);
    SIM_ASSERT(n <= p->wcap);
    mem_req_free(p->pool, r);
    part_writeback(p, wb);
    for (unsigned i = 0; i < n; i++) {
        struct mem_req *w = (struct mem_req *)(uintptr_t)p->waiters[i];
        if (w->type == MRT_WRITE)
            mem_req_free(p->pool, w);   /* the write is merged into the now valid, dirty line */
        else
            part_stage_push(p, w);
    }
}

static void part_lookup(struct mem_partition *p, sim_cycle now)
{
    struct mem_req *r = fifo_peek(&p->in, now);
    if (!r)
        return;
    bool is_write = r->type != MRT_READ;   /* atomics dirty the line */
    bool wants_reply = r->type != MRT_WRITE;
    uint64_t local = part_local(p, r->addr);
    bool present = cache_probe(p->l2, local);
    uint32_t need = present ? (is_write && p->write_through ? 1u : 0u) : 2u;
    if (fifo_free(&p->to_dram) < need) {
        p->st.dram_stall++;
        return;
    }
    if (wants_reply && fifo_full(&p->rop)) {
        p->st.l2_res_fail++;
        return;
    }
    uint64_t wb = UINT64_MAX;
    enum cache_result res = cache_access(p->l2, local, is_write, r->pc, (uint64_t)(uintptr_t)r, now, &wb, NULL);
    if (res == CACHE_RESERVATION_FAIL) {
        p->st.l2_res_fail++;
        return;
    }
    fifo_pop(&p->in);
    if (r->type == MRT_READ) {
        p->st.l2_reads++;
        if (res == CACHE_HIT)
            p->st.l2_read_hits++;
        else
            p->st.l2_read_misses++;
    } else if (r->type == MRT_WRITE) {
        p->st.l2_writes++;
        if (res != CACHE_HIT)
            p->st.l2_write_misses++;
    } else {
        p->st.l2_atomics++;
    }
    switch (res) {
    case CACHE_HIT:
        if (wants_reply) {
            r->l2_hit = 1;
            fifo_push(&p->rop, r, now + p->hit_latency);
        } else if (p->write_through) {
            part_to_dram(p, r);   /* freed when the DRAM has written it */
        } else {
            mem_req_free(p->pool, r);   /* absorbed by the write-back L2 */
        }
        break;
    case CACHE_HIT_RESERVED:
        break;   /* the cache holds r as a waiter until the fill */
    case CACHE_MISS:
        part_to_dram(p, part_new_req(p, cache_block(p->l2, r->addr), MRT_READ, &p->tag_fill));
        break;
    case CACHE_MISS_NO_ALLOC:
        part_to_dram(p, r);   /* bypass: the request itself goes to DRAM */
        break;
    default:
        SIM_ASSERT(0);
    }
    part_writeback(p, wb);
}

static void part_output(struct mem_partition *p, sim_cycle now)
{
    if (fifo_full(&p->reply))
        return;
    struct mem_req *r = NULL;
    if (p->stage_n) {
        r = part_stage_pop(p);
    } else if (fifo_peek(&p->rop, now)) {
        r = fifo_pop(&p->rop);
    }
    if (!r)
        return;
    r->is_reply = 1;
    fifo_push(&p->reply, r, 0);
    *p->busy |= PART_BUSY_REPLY;
}

/* Has partition_cycle_l2 anything to do (PART_BUSY_L2)? */
static bool part_l2_busy(const struct mem_partition *p)
{
    return !fifo_empty(&p->in) || !fifo_empty(&p->rop) || !fifo_empty(&p->from_dram) || p->stage_n ||
           (p->rop_core && !fifo_empty(&p->rop_in)) || fifo_full(&p->reply);
}

void partition_cycle_l2(struct mem_partition *p, sim_cycle now_l2)
{
    if (fifo_full(&p->reply)) {
        p->st.reply_stall++;
        return;
    }
    part_fill(p, now_l2);
    part_lookup(p, now_l2);
    part_output(p, now_l2);
    if (p->rop_core && !fifo_full(&p->in) && fifo_peek(&p->rop_in, now_l2 * p->ps_l2))
        fifo_push(&p->in, fifo_pop(&p->rop_in), 0);
    if (!part_l2_busy(p))
        *p->busy &= (uint8_t)~PART_BUSY_L2;
}

void partition_cycle_dram(struct mem_partition *p, sim_cycle now_dram)
{
    while (!fifo_full(&p->from_dram)) {
        struct mem_req *r = dram_pop_done_sub(p->dram, p->sub, now_dram);
        if (!r)
            break;
        SIM_ASSERT(p->dram_out > 0);
        p->dram_out--;
        if (r->type == MRT_WRITE) {
            mem_req_free(p->pool, r);   /* write-back done, or a write that went through */
        } else {
            fifo_push(&p->from_dram, r, 0);
            *p->busy |= PART_BUSY_L2;
        }
    }
    if (!p->dram_out)   /* to_dram and the latency queue are empty too */
        *p->busy &= (uint8_t)~PART_BUSY_DRAM;
    struct fifo *src = &p->to_dram;
    sim_cycle when = now_dram;   /* what the source queue's ready stamps are compared with */
    if (p->dram_core) {
        /* GPGPU-Sim's order: L2->DRAM queue into the latency queue, then its ready head into the channel */
        when = now_dram * p->ps_dram;
        if (!fifo_empty(&p->to_dram) && !fifo_full(&p->dram_lat) && !dram_full(p->dram))
            fifo_push(&p->dram_lat, fifo_pop(&p->to_dram), when + (sim_ps)p->dram_core * p->ps_core);
        src = &p->dram_lat;
    }
    struct mem_req *h = fifo_peek(src, when);
    if (!h)
        return;
    if (dram_full(p->dram)) {
        dram_note_full(p->dram);
        return;
    }
    struct dram_loc loc;
    addr_map_decode(p->map, h->addr, &loc);
    fifo_pop(src);
    dram_push(p->dram, h, &loc, now_dram);
}

struct mem_req *partition_peek_reply(struct mem_partition *p, sim_cycle now_core)
{
    struct mem_req *r = fifo_peek(&p->reply, now_core);
    if (r)
        r->t_reply = now_core;
    return r;
}

void partition_pop_reply(struct mem_partition *p)
{
    fifo_pop(&p->reply);
    p->st.replies++;
    if (fifo_empty(&p->reply))
        *p->busy &= (uint8_t)~PART_BUSY_REPLY;
}

bool partition_busy(const struct mem_partition *p)
{
    return !fifo_empty(&p->in) || !fifo_empty(&p->rop) || (p->rop_core && !fifo_empty(&p->rop_in)) ||
           (p->dram_core && !fifo_empty(&p->dram_lat)) || !fifo_empty(&p->from_dram) || !fifo_empty(&p->reply) ||
           p->stage_n || p->dram_out || cache_mshr_used(p->l2);
}

sim_cycle partition_next_event_l2(const struct mem_partition *p, sim_cycle now_l2)
{
    /* a full reply queue is counted as reply_stall every L2 cycle; anything
       in the input, stage or DRAM return queue is served (or counted) now */
    if (fifo_full(&p->reply) || !fifo_empty(&p->in) || p->stage_n || !fifo_empty(&p->from_dram))
        return now_l2;
    sim_cycle t = fifo_next_ready(&p->rop);
    if (p->rop_core && !fifo_empty(&p->rop_in)) {
        /* the first L2 edge at or after the head's ready time */
        sim_ps r = fifo_next_ready(&p->rop_in);
        sim_cycle e = (r + p->ps_l2 - 1) / p->ps_l2;
        t = sim_min(t, e);
    }
    return t == SIM_NEVER ? t : sim_max(t, now_l2);
}

sim_cycle partition_next_event_dram(const struct mem_partition *p, sim_cycle now_dram)
{
    /* the to_dram head enters the channel (or the latency queue) or counts a full-queue cycle now */
    if (!fifo_empty(&p->to_dram))
        return now_dram;
    if (!p->dram_core || fifo_empty(&p->dram_lat))
        return SIM_NEVER;
    sim_ps r = fifo_next_ready(&p->dram_lat);
    return sim_max((r + p->ps_dram - 1) / p->ps_dram, now_dram);
}

void partition_publish_busy(struct mem_partition *p, uint8_t *flags)
{
    *flags = (uint8_t)((p->dram_out ? PART_BUSY_DRAM : 0u) | (part_l2_busy(p) ? PART_BUSY_L2 : 0u) |
                       (fifo_empty(&p->reply) ? 0u : PART_BUSY_REPLY));
    p->busy = flags;
}

void partition_check_busy(const struct mem_partition *p)
{
#ifdef WARPSIM_SLOW_CHECKS
    SIM_ASSERT(!(*p->busy & PART_BUSY_DRAM) == !p->dram_out);
    SIM_ASSERT((*p->busy & PART_BUSY_L2) || !part_l2_busy(p));
    SIM_ASSERT(!(*p->busy & PART_BUSY_REPLY) == fifo_empty(&p->reply));
#else
    (void)p;
#endif
}
