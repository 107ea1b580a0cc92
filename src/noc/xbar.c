/*
 * xbar.c - input-buffered crossbar implementing icnt.h.
 *
 * Model (docs/timing_icnt.md has the timing rules with numbers):
 *  - A packet of B bytes is ceil(B / icnt_flit_size) flits (at least 1).
 *  - Each input (source) port has a FIFO of packets holding at most
 *    icnt_in_buffer flits.  A packet enters only whole (icnt_can_push); a
 *    packet larger than the whole buffer enters an empty buffer, so a config
 *    with a small buffer is slow but never deadlocks.  Flits leave the input
 *    buffer one by one as they cross, freeing room immediately.
 *  - Only the head packet of an input may cross (one FIFO per input, no
 *    virtual output queues: head-of-line blocking is part of the model).
 *  - Each output (destination) port moves up to icnt_flits_per_cycle flits per
 *    cycle.  An idle output picks among the inputs whose head packet is for it
 *    in round-robin order (starting after the last input it granted) and stays
 *    locked to that packet until its last flit crossed, so packets never
 *    interleave.  Within one cycle an output that finished a packet with
 *    bandwidth left re-arbitrates (work-conserving); each input also sends at
 *    most icnt_flits_per_cycle flits per cycle (its link width).
 *  - Before a packet starts crossing it reserves all its flits in the output
 *    buffer (icnt_out_buffer flits, covering packets crossing, in flight and
 *    delivered but not yet popped); if they do not fit, the output is blocked
 *    until the consumer pops (an oversize packet starts when the buffer is
 *    empty).  Blocking at the output fills the inputs: backpressure.
 *  - A packet pushed at cycle t can cross from cycle t+1 on (push may come
 *    before or after icnt_cycle(t): the result is the same).  One whose last
 *    flit crossed in cycle c is delivered (icnt_peek sees it) by icnt_cycle(c
 *    + icnt_latency).  A lone packet of F flits thus arrives at
 *    t + ceil(F / flits_per_cycle) + icnt_latency.
 *
 * Storage: every ring buffer is sized from the config in icnt_new; the tick
 * path never allocates.  Work tracking: a bitset of outputs with something to
 * do (a waiting head packet, a packet crossing, a packet in flight) so that
 * icnt_cycle touches only those, and returns at once when the network is
 * empty.  Iteration is in port-index order: deterministic.
 */
#include "noc/icnt_int.h"

#include <string.h>

#define XB_NONE UINT32_MAX

struct xb_in_pkt {
    struct mem_req *r;
    sim_cycle t_push;
    uint32_t flits, dst;
};

struct xb_out_pkt {
    struct mem_req *r;
    sim_cycle t_push;
    sim_cycle ready;     /* delivery cycle; SIM_NEVER while still crossing */
    uint32_t flits;
};

struct xb_in {
    struct xb_in_pkt *q; /* ring of icnt_in_buffer packets (each has >= 1 flit left) */
    uint32_t head, count;
    uint32_t occ;        /* flits in the buffer not yet crossed */
    uint32_t sent;       /* flits of the head packet already crossed */
    uint32_t used;       /* flits sent during cycle used_at (link bandwidth) */
    sim_cycle used_at;
};

struct xb_out {
    struct xb_out_pkt *q; /* ring of icnt_out_buffer packets, in crossing order */
    uint32_t head, count;
    uint32_t n_vis;      /* delivered packets at the front of q */
    uint32_t reserved;   /* flits of every packet in q */
    uint32_t lock;       /* input whose packet is crossing, or XB_NONE */
    uint32_t rr;         /* round-robin: first input to consider next */
    uint32_t n_req;      /* bits set in req */
    uint64_t *req;       /* inputs whose head packet (not started) is for this output */
};

struct xbar {
    struct icnt base;               /* ops, kind, statistics */
    const char *name;
    uint32_t n_src, n_dst;
    uint32_t flit_size, latency, in_cap, out_cap, bw;
    uint32_t in_words, out_words;   /* bitset sizes in uint64_t words */
    struct xb_in *in;
    struct xb_out *out;
    uint64_t *out_busy;             /* outputs with work for icnt_cycle */
    uint64_t inside;                /* packets pushed and not yet popped */
    sim_cycle last_now;             /* cycle of the last icnt_cycle call */
    int ticked;
};

/* ---- small helpers ---------------------------------------------------------------------------- */

static uint32_t xb_words(uint32_t nbits) { return (nbits + 63u) / 64u; }

static void xb_bit_set(uint64_t *b, uint32_t i) { b[i / 64u] |= (uint64_t)1 << (i % 64u); }
static void xb_bit_clr(uint64_t *b, uint32_t i) { b[i / 64u] &= ~((uint64_t)1 << (i % 64u)); }

/* Lowest set bit with index in [from, nbits), or XB_NONE. */
static uint32_t xb_bit_next(const uint64_t *b, uint32_t nbits, uint32_t from)
{
    uint32_t words = xb_words(nbits);
    for (uint32_t w = from / 64u; w < words; w++) {
        uint64_t m = b[w];
        if (w == from / 64u)
            m &= ~(uint64_t)0 << (from % 64u);
        if (m) {
            uint32_t i = w * 64u + (uint32_t)__builtin_ctzll(m);
            return i < nbits ? i : XB_NONE;
        }
    }
    return XB_NONE;
}

static uint32_t xb_flits(const struct xbar *n, uint32_t bytes)
{
    uint32_t f = bytes / n->flit_size + (bytes % n->flit_size != 0);
    return f ? f : 1;
}

/* Flits input i may still send in cycle `now`. */
static uint32_t xb_in_budget(const struct xbar *n, const struct xb_in *in, sim_cycle now)
{
    return in->used_at == now ? n->bw - in->used : n->bw;
}

static struct xb_in_pkt *xb_in_head(const struct xb_in *in) { return &in->q[in->head]; }

/* The input's head packet is new (pushed into an empty FIFO, or the previous
   head finished crossing): it requests its output. */
static void xb_in_request(struct xbar *n, uint32_t i)
{
    const struct xb_in_pkt *p = xb_in_head(&n->in[i]);
    struct xb_out *o = &n->out[p->dst];
    xb_bit_set(o->req, i);
    o->n_req++;
    xb_bit_set(n->out_busy, p->dst);
}

/* Would a packet of `flits` fit in output o's buffer now? */
static int xb_out_fits(const struct xbar *n, const struct xb_out *o, uint32_t flits)
{
    return o->reserved == 0 || o->reserved + flits <= n->out_cap;
}

/* Round-robin winner for an idle output at cycle `now`: the first requesting
   input at or after o->rr (wrapping) whose head was pushed before `now` and
   whose link has bandwidth left.  XB_NONE if none. */
static uint32_t xb_pick(const struct xbar *n, const struct xb_out *o, sim_cycle now)
{
    for (int pass = 0; pass < 2; pass++) {
        uint32_t from = pass == 0 ? o->rr : 0;
        uint32_t end = pass == 0 ? n->n_src : o->rr;
        for (uint32_t i = xb_bit_next(o->req, n->n_src, from); i != XB_NONE && i < end;
             i = xb_bit_next(o->req, n->n_src, i + 1)) {
            const struct xb_in *in = &n->in[i];
            if (xb_in_head(in)->t_push < now && xb_in_budget(n, in, now) > 0)
                return i;
        }
    }
    return XB_NONE;
}

static int xb_out_has_work(const struct xb_out *o)
{
    return o->n_req > 0 || o->lock != XB_NONE || o->n_vis < o->count;
}

static const struct icnt_ops xbar_ops;

/* ---- construction and statistics -------------------------------------------------------------- */

struct icnt *xbar_new(struct arena *a, const struct gpu_config *g, unsigned n_src, unsigned n_dst, const char *name)
{
    /* the config loader validates these; a zero here is a programming error */
    SIM_ASSERT(n_src >= 1 && n_dst >= 1);
    SIM_ASSERT(g->icnt_flit_size >= 1 && g->icnt_in_buffer >= 1 && g->icnt_out_buffer >= 1);
    SIM_ASSERT(g->icnt_flits_per_cycle >= 1);

    struct xbar *n = arena_alloc(a, sizeof *n);
    if (!n)
        return NULL;
    n->base.ops = &xbar_ops;
    n->base.kind = ICNT_XBAR;
    n->name = arena_strdup(a, name ? name : "icnt");
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->flit_size = g->icnt_flit_size;
    n->latency = g->icnt_latency;
    n->in_cap = g->icnt_in_buffer;
    n->out_cap = g->icnt_out_buffer;
    n->bw = g->icnt_flits_per_cycle;
    n->in_words = xb_words(n_src);
    n->out_words = xb_words(n_dst);
    n->in = arena_alloc(a, sizeof *n->in * n_src);
    n->out = arena_alloc(a, sizeof *n->out * n_dst);
    n->out_busy = arena_alloc(a, sizeof *n->out_busy * n->out_words);
    if (!n->name || !n->in || !n->out || !n->out_busy)
        return NULL;
    for (uint32_t i = 0; i < n_src; i++) {
        /* every buffered packet has at least one flit left, so in_cap packets suffice */
        n->in[i].q = arena_alloc(a, sizeof *n->in[i].q * n->in_cap);
        n->in[i].used_at = SIM_NEVER;
        if (!n->in[i].q)
            return NULL;
    }
    for (uint32_t d = 0; d < n_dst; d++) {
        n->out[d].q = arena_alloc(a, sizeof *n->out[d].q * n->out_cap);
        n->out[d].req = arena_alloc(a, sizeof *n->out[d].req * n->in_words);
        n->out[d].lock = XB_NONE;
        if (!n->out[d].q || !n->out[d].req)
            return NULL;
    }
    return &n->base;
}

static void xb_reg_stats(struct icnt *nb, struct stats *s, const char *prefix)
{
    struct xbar *n = (struct xbar *)nb;
    stats_reg(s, &n->base.st.packets, "packets delivered", "%s.packets", prefix);
    stats_reg(s, &n->base.st.flits, "flits of the delivered packets", "%s.flits", prefix);
    stats_reg(s, &n->base.st.lat_sum, "icnt cycles from push to delivery, summed over packets", "%s.lat_sum", prefix);
    stats_reg(s, &n->base.st.lat_max, "longest push-to-delivery latency (icnt cycles)", "%s.lat_max", prefix);
    stats_reg(s, &n->base.st.input_full_stalls, "icnt_can_push calls refused (input buffer full)",
              "%s.input_full_stalls", prefix);
    stats_reg(s, &n->base.st.output_blocked, "flit slots of output bandwidth lost to a full output buffer",
              "%s.output_blocked", prefix);
}


/* ---- injection and ejection ------------------------------------------------------------------- */

static int xb_in_fits(const struct xbar *n, const struct xb_in *in, uint32_t flits)
{
    return in->occ == 0 || in->occ + flits <= n->in_cap;
}

static bool xb_can_push(const struct icnt *nb, unsigned src, uint32_t bytes)
{
    const struct xbar *n = (const struct xbar *)nb;
    SIM_DASSERT(src < n->n_src);
    if (xb_in_fits(n, &n->in[src], xb_flits(n, bytes)))
        return true;
    /* The refusal is a statistic of the network; the object is never const
       itself (xbar_new allocates it), so counting through a cast is defined. */
    ((struct xbar *)n)->base.st.input_full_stalls++;
    return false;
}

static void xb_push(struct icnt *nb, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now)
{
    struct xbar *n = (struct xbar *)nb;
    SIM_ASSERT(src < n->n_src && dst < n->n_dst && r != NULL);
    struct xb_in *in = &n->in[src];
    uint32_t flits = xb_flits(n, bytes);
    SIM_ASSERT(xb_in_fits(n, in, flits));   /* caller checks icnt_can_push */
    SIM_DASSERT(in->count < n->in_cap);
    uint32_t slot = in->head + in->count;
    if (slot >= n->in_cap)
        slot -= n->in_cap;
    in->q[slot] = (struct xb_in_pkt){.r = r, .t_push = now, .flits = flits, .dst = dst};
    in->count++;
    in->occ += flits;
    n->inside++;
    if (in->count == 1) {
        in->sent = 0;
        xb_in_request(n, src);
    }
}

static struct mem_req *xb_peek(const struct icnt *nb, unsigned dst)
{
    const struct xbar *n = (const struct xbar *)nb;
    SIM_DASSERT(dst < n->n_dst);
    const struct xb_out *o = &n->out[dst];
    return o->n_vis ? o->q[o->head].r : NULL;
}

static void xb_pop(struct icnt *nb, unsigned dst)
{
    struct xbar *n = (struct xbar *)nb;
    SIM_ASSERT(dst < n->n_dst);
    struct xb_out *o = &n->out[dst];
    SIM_ASSERT(o->n_vis > 0);
    o->reserved -= o->q[o->head].flits;
    if (++o->head == n->out_cap)
        o->head = 0;
    o->count--;
    o->n_vis--;
    n->inside--;
}

static bool xb_busy(const struct icnt *nb) { return ((const struct xbar *)nb)->inside > 0; }

/* ---- the cycle ------------------------------------------------------------------------------ */

/* Input i's head packet finished crossing: drop it, let the next one request. */
static void xb_in_finish_head(struct xbar *n, uint32_t i)
{
    struct xb_in *in = &n->in[i];
    if (++in->head == n->in_cap)
        in->head = 0;
    in->count--;
    in->sent = 0;
    if (in->count)
        xb_in_request(n, i);
}

static void xb_out_deliver(struct xbar *n, struct xb_out *o, sim_cycle now)
{
    while (o->n_vis < o->count) {
        uint32_t k = o->head + o->n_vis;
        if (k >= n->out_cap)
            k -= n->out_cap;
        const struct xb_out_pkt *p = &o->q[k];
        if (p->ready > now)   /* SIM_NEVER while crossing; in crossing order, so ready is monotonic */
            break;
        o->n_vis++;
        uint64_t lat = p->ready - p->t_push;
        n->base.st.packets++;
        n->base.st.flits += p->flits;
        n->base.st.lat_sum += lat;
        if (lat > n->base.st.lat_max)
            n->base.st.lat_max = lat;
    }
}

static void xb_out_cycle(struct xbar *n, uint32_t d, sim_cycle now)
{
    struct xb_out *o = &n->out[d];
    uint32_t budget = n->bw;
    while (budget > 0) {
        if (o->lock == XB_NONE) {
            uint32_t i = xb_pick(n, o, now);
            if (i == XB_NONE)
                break;
            const struct xb_in_pkt *p = xb_in_head(&n->in[i]);
            if (!xb_out_fits(n, o, p->flits)) {
                /* the round-robin winner waits for room (no bypass: big packets would starve) */
                n->base.st.output_blocked += budget;
                break;
            }
            xb_bit_clr(o->req, i);
            o->n_req--;
            o->lock = i;
            o->rr = i + 1 == n->n_src ? 0 : i + 1;
            uint32_t slot = o->head + o->count;
            if (slot >= n->out_cap)
                slot -= n->out_cap;
            SIM_DASSERT(o->count < n->out_cap);
            o->q[slot] = (struct xb_out_pkt){.r = p->r, .t_push = p->t_push, .ready = SIM_NEVER, .flits = p->flits};
            o->count++;
            o->reserved += p->flits;
        }
        uint32_t i = o->lock;
        struct xb_in *in = &n->in[i];
        const struct xb_in_pkt *p = xb_in_head(in);
        uint32_t k = p->flits - in->sent;
        uint32_t ib = xb_in_budget(n, in, now);
        if (k > budget)
            k = budget;
        if (k > ib)
            k = ib;
        if (k == 0)
            break;
        in->sent += k;
        in->occ -= k;
        in->used = (in->used_at == now ? in->used : 0) + k;
        in->used_at = now;
        budget -= k;
        if (in->sent == p->flits) {
            uint32_t tail = o->head + o->count - 1;
            if (tail >= n->out_cap)
                tail -= n->out_cap;
            o->q[tail].ready = now + n->latency;
            o->lock = XB_NONE;
            xb_in_finish_head(n, i);
        }
    }
    xb_out_deliver(n, o, now);
    if (!xb_out_has_work(o))
        xb_bit_clr(n->out_busy, d);
}

/*
 * What an idle output (not locked) would do in cycles from..to if nothing
 * were pushed or popped meanwhile.  Its state stays as it is except for which
 * requests are old enough to compete (a push at t competes from t+1), so walk
 * the stretch in pieces between those eligibility points.  Returns the first
 * cycle whose round-robin winner fits (a packet starts crossing), or
 * SIM_NEVER; adds the cycles before it whose winner did not fit to *blocked.
 * Serves both icnt_next_event and the accounting of skipped cycles, so the
 * two agree by construction.
 */
static sim_cycle xb_out_walk(const struct xbar *n, const struct xb_out *o, sim_cycle from, sim_cycle to,
                             uint64_t *blocked)
{
    if (o->lock != XB_NONE || o->n_req == 0)
        return SIM_NEVER;
    sim_cycle c = from;
    while (c <= to) {
        sim_cycle next = to == SIM_NEVER ? SIM_NEVER : to + 1;
        for (uint32_t j = xb_bit_next(o->req, n->n_src, 0); j != XB_NONE; j = xb_bit_next(o->req, n->n_src, j + 1)) {
            sim_cycle e = xb_in_head(&n->in[j])->t_push + 1;
            if (e > c && e < next)
                next = e;
        }
        uint32_t w = xb_pick(n, o, c);
        if (w != XB_NONE) {
            if (xb_out_fits(n, o, xb_in_head(&n->in[w])->flits))
                return c;
            *blocked += next - c;
        }
        if (next == SIM_NEVER)
            break;
        c = next;
    }
    return SIM_NEVER;
}

static void xb_cycle(struct icnt *nb, sim_cycle now)
{
    struct xbar *n = (struct xbar *)nb;
    int skipped = n->ticked && now > n->last_now + 1;
    sim_cycle skip_from = n->last_now + 1;
    n->last_now = now;
    n->ticked = 1;
    if (n->inside == 0)
        return;
    /* Iterate set bits reading the word afresh each step: a head packet that
       becomes current mid-cycle at a higher-numbered output is served now. */
    for (uint32_t w = 0; w < n->out_words; w++) {
        uint32_t from = 0;
        while (from < 64u) {
            uint64_t m = n->out_busy[w] >> from;
            if (!m)
                break;
            uint32_t b = from + (uint32_t)__builtin_ctzll(m);
            uint32_t d = w * 64u + b;
            if (skipped) {
                /* cycles the caller skipped trusting icnt_next_event: count the blocked ones as
                   icnt_cycle would have, so output_blocked does not depend on idle skipping */
                uint64_t blk = 0;
                (void)xb_out_walk(n, &n->out[d], skip_from, now - 1, &blk);
                n->base.st.output_blocked += blk * n->bw;
            }
            xb_out_cycle(n, d, now);
            from = b + 1;
        }
    }
}

static sim_cycle xb_next_event(const struct icnt *nb, sim_cycle now)
{
    const struct xbar *n = (const struct xbar *)nb;
    if (n->inside == 0)
        return SIM_NEVER;
    sim_cycle next = SIM_NEVER;
    for (uint32_t d = xb_bit_next(n->out_busy, n->n_dst, 0); d != XB_NONE;
         d = xb_bit_next(n->out_busy, n->n_dst, d + 1)) {
        const struct xb_out *o = &n->out[d];
        if (o->lock != XB_NONE)
            return now + 1;   /* flits left to cross */
        /* a waiting packet starts (a round-robin winner that fits); a winner blocked by a full
           output buffer waits for a pop, which is the consumer's event, not the network's */
        uint64_t blk = 0;
        next = sim_min(next, xb_out_walk(n, o, now + 1, next == SIM_NEVER ? SIM_NEVER : next - 1, &blk));
        if (next == now + 1)
            return next;
        if (o->n_vis < o->count) {
            uint32_t k = o->head + o->n_vis;
            if (k >= n->out_cap)
                k -= n->out_cap;
            next = sim_min(next, sim_max(o->q[k].ready, now + 1));
        }
    }
    /* Delivered packets waiting for icnt_pop are not events of the network:
       the consumer polls icnt_peek when it can take one. */
    return next;
}

static const struct icnt_ops xbar_ops = {
    .name = "xbar",
    .reg_stats = xb_reg_stats,
    .can_push = xb_can_push,
    .push = xb_push,
    .cycle = xb_cycle,
    .peek = xb_peek,
    .pop = xb_pop,
    .busy = xb_busy,
    .next_event = xb_next_event,
};
