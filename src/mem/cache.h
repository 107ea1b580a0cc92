/*
 * cache.h - set-associative tag array with MSHRs, configured by GPGPU-Sim's
 * cache string, used for the L1 data, instruction, constant and texture
 * caches of an SM and for the L2 slices.
 *
 * Tags only: data values live in the functional memory (the executor already
 * ran the instruction).  The cache decides hit/miss/reservation failure,
 * allocates lines (on miss or on fill), merges misses to a pending line in its
 * MSHR, picks victims through a replacement policy (policy/repl.h) and
 * reports dirty evictions.  It never sends anything: on CACHE_MISS the caller
 * sends the request below, and must check before calling that its outgoing
 * queue has room (a full queue is the caller's reservation failure).
 *
 * Cache string: "<nsets>:<line>:<assoc>,<rep>:<wr>:<alloc>:<wr_alloc>:<index>,
 *                <mshr_type>:<mshr_entries>:<mshr_max_merge>,<miss_queue>[...]"
 *   rep      L = LRU, F = FIFO (the default; any name of the policy/repl registry
 *            overrides it: cache_set_repl_name, -warpsim_{l1d,l1i,l1c,l1t,l2}_repl)
 *   wr       T = write-through, B = write-back, E = write-evict,
 *            L = local write-back / global write-through (Fermi L1D),
 *            R = read-only (I/const/tex caches; a write behaves as write-through)
 *   alloc    m = allocate on miss, f = allocate on fill, s = streaming (no reservation:
 *            allocate on fill with at least one MSHR entry per line)
 *   wr_alloc N = no write-allocate, W = write-allocate, F = fetch-on-write, L = lazy fetch-on-read
 *   index    L = linear, H = Fermi hash, P = IPOLY hash, X = XOR (may be omitted:
 *            linear; H, P and X need a power-of-two number of sets)
 *   mshr     A = associative, F = FIFO (texture)
 *   e.g. Fermi L1D "32:128:4,L:L:m:N:H,A:32:8,8"; trailing fields after the
 *   miss-queue size are accepted and ignored.
 *   Bounds (cache_config.c): sets [1, 2^20], line a power of two in [16, 4096],
 *   ways [1, 1024], sets x ways <= 2^24, MSHR entries [1, 65536], max merge
 *   [1, 1024], entries x merge <= 2^24, miss queue [1, 65536].
 */
#ifndef WARPSIM_CACHE_H
#define WARPSIM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/arena.h"
#include "core/sim.h"
#include "core/stats.h"

enum cache_wr { CW_WRITE_THROUGH = 0, CW_WRITE_BACK, CW_WRITE_EVICT, CW_LOCAL_WB_GLOBAL_WT, CW_READ_ONLY };
enum cache_alloc { CA_ON_MISS = 0, CA_ON_FILL, CA_STREAMING };
enum cache_wralloc { CWA_NONE = 0, CWA_WRITE, CWA_FETCH_ON_WRITE, CWA_LAZY_FETCH };
enum cache_index { CI_LINEAR = 0, CI_FERMI_HASH, CI_IPOLY, CI_XOR };
enum cache_mshr_kind { CM_ASSOC = 0, CM_FIFO };

struct cache_config {
    uint32_t nsets, line_size, assoc;
    char rep;                  /* 'L' or 'F' as written */
    uint8_t wr, alloc, wralloc, index, mshr_kind;   /* enums above */
    uint32_t mshr_entries, mshr_max_merge, miss_queue;
};
/* Parse a cache string. On error returns -1, writes a message and the 1-based
   column of the offending field in the string. */
int cache_config_parse(const char *s, struct cache_config *out, char *msg, size_t n, unsigned *col);
static inline uint64_t cache_config_bytes(const struct cache_config *c)
{
    return (uint64_t)c->nsets * c->line_size * c->assoc;
}
/* addition: the replacement policy the cache string's letter names: "fifo"
   for F, "lru" for L (and anything else). */
const char *cache_config_repl_name(const struct cache_config *c);
/* Host memory cache_new() takes for this geometry, in bytes (tags, state, MSHRs). */
uint64_t cache_config_host_bytes(const struct cache_config *c);

enum cache_result {
    CACHE_HIT = 0,             /* line present and valid */
    CACHE_HIT_RESERVED,        /* line pending (miss in flight): merged into its MSHR entry */
    CACHE_MISS,                /* new MSHR entry: the caller must send a request for the line */
    CACHE_MISS_NO_ALLOC,       /* miss that allocates nothing (write miss without write-allocate,
                                  write-evict, streaming bypass): caller sends the access below */
    CACHE_RESERVATION_FAIL     /* no MSHR entry / merge slot / allocatable line: retry later */
};
enum cache_fail { CF_NONE = 0, CF_MSHR_FULL, CF_MERGE_FULL, CF_NO_LINE };

struct cache_stats {
    uint64_t accesses, hits, hit_reserved, misses, res_fail, res_fail_mshr, res_fail_merge, res_fail_line;
    uint64_t reads, writes, read_misses, write_misses, evictions, dirty_evictions, fills, bypasses;
    /* addition: read misses a bypass policy sent below unallocated (policy/bypass.h; also in
       misses/read_misses), and replaced lines that saw no hit since their fill */
    uint64_t bypassed, evicted_never_reused;
    /* addition: accepted reads made by a warp (cache_access_wc), split by the critical flag:
       accesses, hits (line valid; merges into a pending line are not hits), and hits on a way
       of the warp's own partition (critical warps: a critical way, others: a non-critical way)
       when the replacement policy partitions the ways (repl_ops.way_critical, CACP), else 0 */
    uint64_t crit_accesses, crit_hits, crit_part_hits, nc_accesses, nc_hits, nc_part_hits;
};

struct cache;   /* opaque: allocate with cache_new */

struct cache *cache_new(struct arena *a, const struct cache_config *cfg, const char *name);
/* Register the counters as "<prefix>.<counter>" (e.g. "sm0.l1d"). */
void cache_reg_stats(struct cache *c, struct stats *s, const char *prefix);
const struct cache_config *cache_cfg(const struct cache *c);
const struct cache_stats *cache_stats(const struct cache *c);

/* Line (block) address of a byte address. */
uint64_t cache_block(const struct cache *c, uint64_t addr);

/* The set a byte address maps to under the cache's index function. */
uint32_t cache_set_of(const struct cache *c, uint64_t addr);

/* One access of one line.  `waiter` is an opaque token kept in the MSHR entry
   (for a miss or a merged miss) and handed back by cache_fill().  `pc` is the
   instruction's PC (for PC-indexed policies).  When the access evicts a dirty
   line, *wb_addr receives its block address (else UINT64_MAX) and the caller
   must write it back.  `fail` (may be NULL) tells why a reservation failed. */
enum cache_result cache_access(struct cache *c, uint64_t addr, bool is_write, uint32_t pc, uint64_t waiter,
                               sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail);

/* Data for block `addr` arrived from below: validate (allocate on fill if
   configured) the line and release its MSHR entry.  Writes up to `max`
   waiters (in arrival order) into `waiters` and returns how many there were
   (all of them are released, even beyond max).  *wb_addr as above. */
/* Whether cache_fill(c, addr) may hand back a line to write back (so the fill
   needs room on the way out).  False when the line was reserved at miss time
   (allocate-on-miss wrote any victim back then) and for a clean bypassed read. */
bool cache_fill_may_write_back(const struct cache *c, uint64_t addr);
unsigned cache_fill(struct cache *c, uint64_t addr, sim_cycle now, uint64_t *waiters, unsigned max,
                    uint64_t *wb_addr);

/* addition: whether the last reservation failure changed nothing but the failure counts (no
   policy hook that may change its state was called: repl_ops.on_access, a victim() that is not
   victim_pure, a bypass policy's should_bypass).  The same access then fails again, the same
   way, until the cache's state changes (a fill, another access); a caller that skips such
   retries counts them with cache_count_refusals. */
bool cache_refusal_repeats(const struct cache *c);
/* addition: n reservation failures of kind why (res_fail and its breakdown) */
void cache_count_refusals(struct cache *c, enum cache_fail why, uint64_t n);

/* Tag lookup without side effects (tests, policies). */
bool cache_probe(const struct cache *c, uint64_t addr);
/* Outstanding MSHR entries (misses in flight). */
unsigned cache_mshr_used(const struct cache *c);
/* Invalidate every line (kernel boundary for L1 caches, as GPGPU-Sim does). */
void cache_invalidate_all(struct cache *c);

/* ---- additions (cache model) ----
   cache_access() with the address space of the access: `local` selects the
   write-back half of the Fermi L1D's "L" policy (local memory) instead of its
   write-through half (global); other write policies ignore it.  cache_access()
   is cache_access_ex(..., local = false).
   Write semantics, by policy (the return value tells the caller what to send):
     write-through (T, R, L global), write-evict (E): the caller always sends the
       write below; CACHE_HIT = the line was present (write-through: updated,
       stays clean; write-evict: invalidated), CACHE_MISS_NO_ALLOC = it was not
       (or only pending).  These never allocate on a write (wr_alloc ignored).
     write-back (B, L local): a hit marks the line dirty, nothing is sent;
       a miss with wr_alloc N is CACHE_MISS_NO_ALLOC (send the write below);
       with W or F it allocates like a read miss (CACHE_MISS: fetch the line;
       the line is dirty after its fill; a write to a pending line merges,
       CACHE_HIT_RESERVED); with L (lazy fetch-on-read, no partial-line
       tracking) it installs the line dirty at once and returns CACHE_HIT.
   The waiter of a write that gets CACHE_MISS/CACHE_HIT_RESERVED comes back
   from cache_fill() like a read's. */
enum cache_result cache_access_ex(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc,
                                  uint64_t waiter, sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail);
struct repl_ops;
struct policy_params;
/* Switch the replacement policy (setup time, before the first access: it may
   allocate the policy's state from the cache's arena, and resets that state;
   the policy's parameters take their defaults). */
void cache_set_repl(struct cache *c, const struct repl_ops *ops);
/* addition: the same by registry name (policy/registry.def; NULL or "": the
   cache string's letter, cache_config_repl_name), with the dotted parameters
   "repl.<name>.<param>" of pp (NULL: defaults).  Setup time only.  Returns 0,
   or -1 with a message (unknown name listing the valid ones, bad parameter). */
int cache_set_repl_name(struct cache *c, const char *name, const struct policy_params *pp, char *msg, size_t n);
/* addition: the registry name of the cache's replacement policy */
const char *cache_repl_name(const struct cache *c);

/* ---- addition: bypass policies (policy/bypass.h) ----
   cache_access_ex() with the warp (its slot in the SM) that makes the access,
   for the bypass policy; CACHE_NO_WARP when none (L2, fetch).  The bypass
   policy is asked on a read miss that would fetch its block, once the miss
   could allocate (free MSHR entry; on miss also an evictable way); a bypassed
   read returns CACHE_MISS_NO_ALLOC (counted in misses and bypassed), takes no
   MSHR entry and no line: the caller sends the access below and hands the
   reply to the waiter itself.  Writes keep the write policy. */
#define CACHE_NO_WARP UINT32_MAX
enum cache_result cache_access_w(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc, uint32_t warp,
                                 uint64_t waiter, sim_cycle now, uint64_t *wb_addr, enum cache_fail *fail);
/* addition: cache_access_w() with whether the warp scheduler predicts the
   requesting warp critical (CAWA, policy/warp_sched.h is_critical): handed to
   the replacement policy in its access record (repl_ops.on_access) and
   counted in cache_stats.crit_*.  cache_access_w() is critical = false. */
enum cache_result cache_access_wc(struct cache *c, uint64_t addr, bool is_write, bool local, uint32_t pc,
                                  uint32_t warp, bool critical, uint64_t waiter, sim_cycle now, uint64_t *wb_addr,
                                  enum cache_fail *fail);
/* Select the bypass policy by registry name (NULL or "": "none") with the
   dotted parameters "bypass.<name>.<param>" of pp (NULL: defaults).  Setup
   time only (the policy's state is reset).  Returns 0, or -1 with a message
   (unknown name listing the valid ones, bad parameter). */
int cache_set_bypass_name(struct cache *c, const char *name, const struct policy_params *pp, char *msg, size_t n);
const char *cache_bypass_name(const struct cache *c);
/* Whether a bypassed read takes an MSHR entry (default false: none, CACHE_MISS_NO_ALLOC).
   true: it takes an entry of its own with no line and returns CACHE_MISS (the caller fetches
   the block as for any miss); later reads of the block merge into it; its fill hands the data
   to the waiters and allocates nothing.  Setup time only. */
void cache_set_bypass_mshr(struct cache *c, bool on);
struct bypass_pc_info;
/* The policy's per-PC state (Ctrl-C's AGG, insertion ratio); -1 when the
   policy has none (none, or no pc_info hook). */
int cache_bypass_pc_info(const struct cache *c, uint32_t pc, struct bypass_pc_info *out);
/* Bypassed misses per PC, in PC order: up to max (PC, count) pairs; the
   first 64 distinct PCs are counted one by one, later ones only in *other
   (may be NULL).  Returns the number of pairs written. */
unsigned cache_bypass_pcs(const struct cache *c, uint32_t *pcs, uint64_t *counts, unsigned max, uint64_t *other);

#endif
