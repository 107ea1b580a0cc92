/*
 * xbar.c - input-buffered crossbar implementing icnt.h.
 *
 * Model (docs/timing_icnt.md has the timing rules with numbers):
 *  - A packet of B bytes is ceil(B / icnt_flit_size) flits (at least 1).
 *  - Each input (source) port buffers at most icnt_in_buffer flits, split
 *    evenly into icnt_vcs virtual channels (VCs; the lowest VCs get the
 *    remainder), each a FIFO of packets.  A packet enters a VC only whole
 *    (icnt_can_push); a packet larger than its VC enters an empty one, so a
 *    config with small buffers is slow but never deadlocks.  Flits leave the
 *    buffer one by one as they cross, freeing room immediately.
 *  - With one VC (the default) only the head packet of an input may cross
 *    and head-of-line blocking is part of the model.  With
 *    several VCs each VC's head requests its output on its own, so a packet
 *    for a free output need not wait behind one for a busy output.  A pushed
 *    packet goes to the VC with the most free room where it fits (lowest
 *    index on ties): the choice cannot depend on the destination because
 *    icnt_can_push does not know it.  Packets of one input for one output
 *    still cross in push order: a VC head requests only when no older packet
 *    of its input for the same output is still waiting in another VC.
 *  - An input sends from at most icnt_input_speedup VCs per cycle, each at
 *    most icnt_flits_per_cycle flits (its switch port).  A VC whose packet is
 *    crossing keeps its port; when more VCs could start a packet than ports
 *    are free, they take the ports in round-robin order over the VCs,
 *    starting after the VC granted last.
 *  - Each output (destination) port moves up to icnt_flits_per_cycle flits per
 *    cycle.  An idle output picks among the inputs with a VC head packet for
 *    it in round-robin order (starting after the last input it granted) and stays
 *    locked to that packet until its last flit crossed, so packets never
 *    interleave.  Within one cycle an output that finished a packet with
 *    bandwidth left re-arbitrates (work-conserving); each VC also sends at
 *    most icnt_flits_per_cycle flits per cycle (its switch port's width).
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
 * do (a requesting head packet, a packet crossing, a packet in flight) so that
 * icnt_cycle touches only those, and returns at once when the network is
 * empty.  Iteration is in port-index order: deterministic.
 */
#include "noc/icnt_int.h"

#include <string.h>

#define XB_NONE UINT32_MAX

struct xb_in_pkt {
    struct mem_req *r;
    sim_cycle t_push;
    uint64_t seq;        /* push order within its input: keeps per-output order across VCs */
    uint32_t flits, dst;
};

struct xb_out_pkt {
    struct mem_req *r;
    sim_cycle t_push;
    sim_cycle ready;     /* delivery cycle; SIM_NEVER while still crossing */
    uint32_t flits;
};

/* One virtual channel of an input port: a FIFO of packets. */
struct xb_vc {
    struct xb_in_pkt *q; /* ring of `ring` packets (each has >= 1 flit left) */
    uint32_t ring;       /* max(cap, 1): an oversize packet enters only an empty VC */
    uint32_t cap;        /* flits of the input buffer this VC owns */
    uint32_t head, count;
    uint32_t occ;        /* flits in the VC not yet crossed */
    uint32_t sent;       /* flits of the head packet already crossed */
    uint32_t used;       /* flits sent during cycle used_at (switch port bandwidth) */
    sim_cycle used_at;
    uint8_t req;         /* the head packet requests its output (bit set in that output's req) */
    uint8_t granted;     /* the head packet is crossing: its output is locked to it */
};

struct xb_in {
    struct xb_vc *vc;    /* n_vc channels */
    uint32_t rr;         /* VC round-robin for the switch ports: first VC to consider (n_vc > speedup only) */
    uint64_t seq;        /* sequence number of the next push */
};

struct xb_out {
    struct xb_out_pkt *q; /* ring of icnt_out_buffer packets, in crossing order */
    uint32_t head, count;
    uint32_t n_vis;      /* delivered packets at the front of q */
    uint32_t reserved;   /* flits of every packet in q */
    uint32_t lock;       /* input whose packet is crossing, or XB_NONE */
    uint32_t lock_vc;    /* and its VC */
    uint32_t rr;         /* round-robin: first input to consider next */
    uint32_t n_req;      /* bits set in req */
    uint64_t *req;       /* inputs with a VC head packet (not started) requesting this output; the
                            per-output order rule allows at most one such VC per input */
};

struct xbar {
    struct icnt base;               /* ops, kind, statistics */
    const char *name;
    uint32_t n_src, n_dst;
    uint32_t flit_size, latency, in_cap, out_cap, bw;
    uint32_t n_vc, speedup;
    int gated;                      /* n_vc > speedup: VCs compete for the input's switch ports */
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

/* Flits VC w may still send in cycle `now`. */
static uint32_t xb_vc_budget(const struct xbar *n, const struct xb_vc *w, sim_cycle now)
{
    return w->used_at == now ? n->bw - w->used : n->bw;
}

static struct xb_in_pkt *xb_vc_head(const struct xb_vc *w) { return &w->q[w->head]; }

/* The k-th packet of VC w (0: the head). */
static const struct xb_in_pkt *xb_vc_at(const struct xb_vc *w, uint32_t k)
{
    uint32_t j = w->head + k;
    if (j >= w->ring)
        j -= w->ring;
    return &w->q[j];
}

/* Is VC v's head the oldest packet of input i for its output that has not
   started crossing?  Only then may it request, so that the packets of one
   input for one output cross, and arrive, in push order. */
static int xb_vc_oldest_for_dst(const struct xbar *n, const struct xb_in *in, uint32_t v)
{
    const struct xb_in_pkt *p = xb_vc_head(&in->vc[v]);
    for (uint32_t u = 0; u < n->n_vc; u++) {
        if (u == v)
            continue;
        const struct xb_vc *w = &in->vc[u];
        /* a VC is in push order, so stop at the first younger packet */
        for (uint32_t k = w->granted ? 1u : 0u; k < w->count; k++) {
            const struct xb_in_pkt *q = xb_vc_at(w, k);
            if (q->seq > p->seq)
                break;
            if (q->dst == p->dst)
                return 0;
        }
    }
    return 1;
}

/* VC v of input i has a new head packet (pushed into an empty VC, the previous
   head finished crossing, or an older packet for the same output started):
   it requests its output if the per-output order allows. */
static void xb_vc_try_request(struct xbar *n, uint32_t i, uint32_t v)
{
    struct xb_in *in = &n->in[i];
    struct xb_vc *w = &in->vc[v];
    if (!w->count || w->req || w->granted || !xb_vc_oldest_for_dst(n, in, v))
        return;
    const struct xb_in_pkt *p = xb_vc_head(w);
    struct xb_out *o = &n->out[p->dst];
    w->req = 1;
    /* the order rule lets at most one VC of an input request one output */
    SIM_DASSERT(!(o->req[i / 64u] >> (i % 64u) & 1u));
    xb_bit_set(o->req, i);
    o->n_req++;
    xb_bit_set(n->out_busy, p->dst);
}

/* The VC of input i whose head requests output d (the bit is set in its req). */
static uint32_t xb_req_vc(const struct xbar *n, const struct xb_in *in, uint32_t d)
{
    for (uint32_t v = 0; v + 1 < n->n_vc; v++)
        if (in->vc[v].req && xb_vc_head(&in->vc[v])->dst == d)
            return v;
    return n->n_vc - 1;
}

/* Would a packet of `flits` fit in output o's buffer now? */
static int xb_out_fits(const struct xbar *n, const struct xb_out *o, uint32_t flits)
{
    return o->reserved == 0 || o->reserved + flits <= n->out_cap;
}

/* Could VC w start its head packet at cycle `now` if it had a switch port:
   it requests, is old enough, and its output is idle with room for it. */
static int xb_vc_candidate(const struct xbar *n, const struct xb_vc *w, sim_cycle now)
{
    if (!w->req)
        return 0;
    const struct xb_in_pkt *p = xb_vc_head(w);
    const struct xb_out *o = &n->out[p->dst];
    return p->t_push < now && o->lock == XB_NONE && xb_out_fits(n, o, p->flits);
}

/* Does VC v of input i hold one of the input's `speedup` switch ports at cycle
   `now`?  A VC that is crossing, or has sent this cycle, keeps its port; the
   free ports go to the candidate VCs in round-robin order from in->rr.  A
   function of the network's state and `now` only (nothing is recorded until a
   VC is granted), so idle skipping sees the same answers as ticking. */
static int xb_vc_selected(const struct xbar *n, const struct xb_in *in, uint32_t v, sim_cycle now)
{
    if (!n->gated)
        return 1;
    uint32_t held = 0;
    for (uint32_t u = 0; u < n->n_vc; u++)
        if (in->vc[u].granted || in->vc[u].used_at == now) {
            if (u == v)
                return 1;
            held++;
        }
    if (held >= n->speedup)
        return 0;
    uint32_t left = n->speedup - held;
    for (uint32_t k = 0; k < n->n_vc; k++) {
        uint32_t u = in->rr + k;
        if (u >= n->n_vc)
            u -= n->n_vc;
        const struct xb_vc *w = &in->vc[u];
        if (w->granted || w->used_at == now || !xb_vc_candidate(n, w, now))
            continue;
        if (u == v)
            return 1;
        if (--left == 0)
            return 0;
    }
    return 0;
}

/* Round-robin winner for idle output d at cycle `now`: the first requesting
   input at or after o->rr (wrapping) whose requesting VC's head was pushed
   before `now`, whose VC has bandwidth left and which holds a switch port.  A
   head that does not fit the output buffer competes without a port (it will
   not use one): when it wins, the output waits for room and counts
   output_blocked, and no smaller packet passes it.  XB_NONE if none; the VC
   in *vc. */
static uint32_t xb_pick(const struct xbar *n, uint32_t d, sim_cycle now, uint32_t *vc)
{
    const struct xb_out *o = &n->out[d];
    for (int pass = 0; pass < 2; pass++) {
        uint32_t from = pass == 0 ? o->rr : 0;
        uint32_t end = pass == 0 ? n->n_src : o->rr;
        for (uint32_t i = xb_bit_next(o->req, n->n_src, from); i != XB_NONE && i < end;
             i = xb_bit_next(o->req, n->n_src, i + 1)) {
            const struct xb_in *in = &n->in[i];
            uint32_t v = xb_req_vc(n, in, d);
            const struct xb_vc *w = &in->vc[v];
            const struct xb_in_pkt *p = xb_vc_head(w);
            if (p->t_push < now && xb_vc_budget(n, w, now) > 0 &&
                (!n->gated || !xb_out_fits(n, o, p->flits) || xb_vc_selected(n, in, v, now))) {
                *vc = v;
                return i;
            }
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
    /* 0 (a config built field by field) means the default: one FIFO, one port */
    uint32_t n_vc = g->icnt_vcs ? g->icnt_vcs : 1;
    uint32_t speedup = g->icnt_input_speedup ? g->icnt_input_speedup : 1;
    SIM_ASSERT(n_vc <= g->icnt_in_buffer && n_vc <= 32);

    struct xbar *n = arena_alloc(a, sizeof *n);
    if (!n)
        return NULL;
    if (!icnt_base_init(&n->base, a, &xbar_ops, ICNT_XBAR, n_src, n_dst))
        return NULL;
    n->name = arena_strdup(a, name ? name : "icnt");
    n->n_src = n_src;
    n->n_dst = n_dst;
    n->flit_size = g->icnt_flit_size;
    n->latency = g->icnt_latency;
    n->in_cap = g->icnt_in_buffer;
    n->out_cap = g->icnt_out_buffer;
    n->bw = g->icnt_flits_per_cycle;
    n->n_vc = n_vc;
    n->speedup = speedup;
    n->gated = n_vc > speedup;
    n->in_words = xb_words(n_src);
    n->out_words = xb_words(n_dst);
    n->in = arena_alloc(a, sizeof *n->in * n_src);
    n->out = arena_alloc(a, sizeof *n->out * n_dst);
    n->out_busy = arena_alloc(a, sizeof *n->out_busy * n->out_words);
    if (!n->name || !n->in || !n->out || !n->out_busy)
        return NULL;
    for (uint32_t i = 0; i < n_src; i++) {
        struct xb_in *in = &n->in[i];
        in->rr = 0;
        in->seq = 0;
        in->vc = arena_alloc(a, sizeof *in->vc * n_vc);
        if (!in->vc)
            return NULL;
        for (uint32_t v = 0; v < n_vc; v++) {
            struct xb_vc *w = &in->vc[v];
            memset(w, 0, sizeof *w);
            /* an even split; when n_vc does not divide the buffer, the lowest VCs get one flit more */
            w->cap = n->in_cap / n_vc + (v < n->in_cap % n_vc);
            /* every buffered packet has at least one flit left, so cap packets suffice */
            w->ring = w->cap ? w->cap : 1;
            w->q = arena_alloc(a, sizeof *w->q * w->ring);
            w->used_at = SIM_NEVER;
            if (!w->q)
                return NULL;
        }
    }
    for (uint32_t d = 0; d < n_dst; d++) {
        n->out[d].q = arena_alloc(a, sizeof *n->out[d].q * n->out_cap);
        n->out[d].req = arena_alloc(a, sizeof *n->out[d].req * n->in_words);
        n->out[d].lock = XB_NONE;
        n->out[d].lock_vc = 0;
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

static int xb_vc_fits(const struct xb_vc *w, uint32_t flits)
{
    return w->occ == 0 || w->occ + flits <= w->cap;
}

/* The VC a packet of `flits` enters: the one with the most free room among
   those it fits (lowest index on ties), or XB_NONE.  Most free room spreads
   consecutive packets over the VCs, so one waiting for a busy output blocks
   as few others as possible.  The destination plays no part: icnt_can_push
   does not know it. */
static uint32_t xb_choose_vc(const struct xbar *n, const struct xb_in *in, uint32_t flits)
{
    uint32_t best = XB_NONE, best_room = 0;
    for (uint32_t v = 0; v < n->n_vc; v++) {
        const struct xb_vc *w = &in->vc[v];
        if (!xb_vc_fits(w, flits))
            continue;
        uint32_t room = w->cap - w->occ;
        if (best == XB_NONE || room > best_room) {
            best = v;
            best_room = room;
        }
    }
    return best;
}

static bool xb_can_push(const struct icnt *nb, unsigned src, uint32_t bytes)
{
    const struct xbar *n = (const struct xbar *)nb;
    SIM_DASSERT(src < n->n_src);
    if (xb_choose_vc(n, &n->in[src], xb_flits(n, bytes)) != XB_NONE)
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
    uint32_t v = xb_choose_vc(n, in, flits);
    SIM_ASSERT(v != XB_NONE);   /* caller checks icnt_can_push */
    struct xb_vc *w = &in->vc[v];
    SIM_DASSERT(w->count < w->ring);
    uint32_t slot = w->head + w->count;
    if (slot >= w->ring)
        slot -= w->ring;
    w->q[slot] = (struct xb_in_pkt){.r = r, .t_push = now, .seq = in->seq++, .flits = flits, .dst = dst};
    w->count++;
    w->occ += flits;
    n->inside++;
    if (w->count == 1) {
        w->sent = 0;
        xb_vc_try_request(n, src, v);
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

/* VC v of input i: its head packet finished crossing; drop it, let the next one request. */
static void xb_vc_finish_head(struct xbar *n, uint32_t i, uint32_t v)
{
    struct xb_vc *w = &n->in[i].vc[v];
    if (++w->head == w->ring)
        w->head = 0;
    w->count--;
    w->sent = 0;
    w->granted = 0;
    if (w->count)
        xb_vc_try_request(n, i, v);
}

/* Input i's oldest waiting packet for output d started crossing: the next
   oldest, if it heads another VC, may request now. */
static void xb_in_release_dst(struct xbar *n, uint32_t i, uint32_t d)
{
    struct xb_in *in = &n->in[i];
    for (uint32_t u = 0; u < n->n_vc; u++) {
        const struct xb_vc *w = &in->vc[u];
        if (w->count && !w->req && !w->granted && xb_vc_head(w)->dst == d)
            xb_vc_try_request(n, i, u);
    }
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
        icnt_count_delivery(&n->base, (unsigned)(o - n->out), p->ready - p->t_push, p->flits);
    }
}

static void xb_out_cycle(struct xbar *n, uint32_t d, sim_cycle now)
{
    struct xb_out *o = &n->out[d];
    uint32_t budget = n->bw;
    while (budget > 0) {
        if (o->lock == XB_NONE) {
            uint32_t v = 0;
            uint32_t i = xb_pick(n, d, now, &v);
            if (i == XB_NONE)
                break;
            struct xb_vc *w = &n->in[i].vc[v];
            const struct xb_in_pkt *p = xb_vc_head(w);
            if (!xb_out_fits(n, o, p->flits)) {
                /* the round-robin winner waits for room (no bypass: big packets would starve) */
                n->base.st.output_blocked += budget;
                break;
            }
            xb_bit_clr(o->req, i);
            o->n_req--;
            w->req = 0;
            w->granted = 1;
            o->lock = i;
            o->lock_vc = v;
            o->rr = i + 1 == n->n_src ? 0 : i + 1;
            if (n->gated)
                n->in[i].rr = v + 1 == n->n_vc ? 0 : v + 1;
            uint32_t slot = o->head + o->count;
            if (slot >= n->out_cap)
                slot -= n->out_cap;
            SIM_DASSERT(o->count < n->out_cap);
            o->q[slot] = (struct xb_out_pkt){.r = p->r, .t_push = p->t_push, .ready = SIM_NEVER, .flits = p->flits};
            o->count++;
            o->reserved += p->flits;
            if (n->n_vc > 1)
                xb_in_release_dst(n, i, d);
        }
        uint32_t i = o->lock, v = o->lock_vc;
        struct xb_vc *w = &n->in[i].vc[v];
        const struct xb_in_pkt *p = xb_vc_head(w);
        uint32_t k = p->flits - w->sent;
        uint32_t ib = xb_vc_budget(n, w, now);
        if (k > budget)
            k = budget;
        if (k > ib)
            k = ib;
        if (k == 0)
            break;
        w->sent += k;
        w->occ -= k;
        n->base.room_version[i]++;
        n->base.room_version_any++;
        w->used = (w->used_at == now ? w->used : 0) + k;
        w->used_at = now;
        budget -= k;
        if (w->sent == p->flits) {
            uint32_t tail = o->head + o->count - 1;
            if (tail >= n->out_cap)
                tail -= n->out_cap;
            o->q[tail].ready = now + n->latency;
            o->lock = XB_NONE;
            xb_vc_finish_head(n, i, v);
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
static sim_cycle xb_out_walk(const struct xbar *n, uint32_t d, sim_cycle from, sim_cycle to, uint64_t *blocked)
{
    const struct xb_out *o = &n->out[d];
    if (o->lock != XB_NONE || o->n_req == 0)
        return SIM_NEVER;
    sim_cycle c = from;
    while (c <= to) {
        sim_cycle next = to == SIM_NEVER ? SIM_NEVER : to + 1;
        for (uint32_t j = xb_bit_next(o->req, n->n_src, 0); j != XB_NONE; j = xb_bit_next(o->req, n->n_src, j + 1)) {
            const struct xb_in *in = &n->in[j];
            /* with competing VCs, which VC holds the input's port also changes when any of the
               input's heads becomes old enough */
            for (uint32_t u = 0; u < n->n_vc; u++) {
                if (!in->vc[u].count || (!n->gated && !(in->vc[u].req && xb_vc_head(&in->vc[u])->dst == d)))
                    continue;
                sim_cycle e = xb_vc_head(&in->vc[u])->t_push + 1;
                if (e > c && e < next)
                    next = e;
            }
        }
        uint32_t v = 0;
        uint32_t w = xb_pick(n, d, c, &v);
        if (w != XB_NONE) {
            if (xb_out_fits(n, o, xb_vc_head(&n->in[w].vc[v])->flits))
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
    if (skipped && n->gated) {
        /* with competing VCs the port an input gives one output depends on its other VCs, so
           account for the skipped cycles before any output of this cycle changes the state */
        for (uint32_t d = xb_bit_next(n->out_busy, n->n_dst, 0); d != XB_NONE;
             d = xb_bit_next(n->out_busy, n->n_dst, d + 1)) {
            uint64_t blk = 0;
            (void)xb_out_walk(n, d, skip_from, now - 1, &blk);
            n->base.st.output_blocked += blk * n->bw;
        }
        skipped = 0;
    }
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
                (void)xb_out_walk(n, d, skip_from, now - 1, &blk);
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
        next = sim_min(next, xb_out_walk(n, d, now + 1, next == SIM_NEVER ? SIM_NEVER : next - 1, &blk));
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
