/*
 * mesh.c - 2D mesh of input-buffered, pipelined routers implementing icnt.h.
 *
 * Model (docs/timing_icnt.md has the rules with numbers):
 *  - cols x rows routers, node n at column n % cols, row n / cols.  Each
 *    router has five ports (local, N, E, S, W); each input port has
 *    -warpsim_mesh_vcs virtual channels (VCs) of -warpsim_mesh_vc_buf flits.
 *    Links are -icnt_flit_size bytes wide: a packet of B bytes is
 *    ceil(B / link) flits (at least 1); the head flit carries the route.
 *  - Sources and destinations sit on nodes (mesh_place.c); several may share
 *    one.  Each source has an injection queue of -warpsim_icnt_input_buffer
 *    flits (a packet enters whole, as on the crossbar), each destination an
 *    ejection queue of -warpsim_icnt_output_buffer flits.
 *  - Pipeline: a flit that enters a router's input buffer in cycle a may
 *    cross the switch (ST) from cycle a + R on (R = router latency: route
 *    computation, VC allocation and switch allocation are folded into those
 *    R cycles; a head flit does VA and SA in its first eligible cycle); a
 *    flit crossing in cycle s enters the next router in cycle s + L (L =
 *    link latency).  The network interface injects the head of a packet
 *    pushed at t in cycle t+1 at the earliest, one flit per cycle.  A
 *    packet is delivered when its tail crosses into the ejection port.
 *    Alone in the network, a packet of F flits over H hops is delivered in
 *    cycle t + (H+1) R + H L + F.
 *  - Routing: XY (dimension order: X first, then Y).  Deadlock-free on a
 *    mesh: the channel dependency graph is acyclic.
 *  - Flow control: credits per VC; a credit is usable by the sender in the
 *    cycle after the flit left the buffer.  VC allocation is atomic: a VC
 *    holds one packet at a time and is reallocated once its previous tail
 *    has left the downstream buffer (the tail's credit came back).
 *  - Ejection: a head flit allocates the ejection port by reserving all its
 *    flits in the destination's ejection queue; if they do not fit it waits
 *    (output_blocked), and no later packet for that destination passes it in
 *    that cycle.  Once reserved, ejection never blocks, so a consumer that
 *    stops popping backs the network up to the sources (icnt_can_push turns
 *    false) and everything drains when it pops again.
 *  - Allocation: VC allocation per output port, round-robin over the input
 *    ports (the pointer moves past the last port served), at most one grant
 *    per input port, output port and lane in a cycle, the VCs of an input
 *    port in round-robin turn, free output VCs taken round-robin; switch
 *    allocation separable input-first, round-robin over the VCs of each
 *    input port, then over the input ports of each output port; injection
 *    round-robin over the node's sources.  Each input port and each output
 *    port moves one flit per cycle per lane.  Fair by input port: one with
 *    many waiting packets gets no more than its share.
 *  - Traffic classes (004 sec. 2.2): shared, every class uses every VC and
 *    the whole link.  With -warpsim_mesh_partition <g>G<c>C the VCs split
 *    g / c between GPU and CPU traffic and so does the link width (3G1C on
 *    32 B links: 24 B and 8 B), as two lanes that allocate independently.
 *
 * Storage: every buffer, queue and the packet descriptors are sized from the
 * config in mesh_new (the descriptors from the bound: injection queues + one
 * per VC + ejection queues); the tick path never allocates.  Work tracking: a
 * bitset of nodes with flits in their buffers or packets in their injection
 * queues; icnt_cycle visits only those, in node order (deterministic), and
 * returns at once when the network is empty.  Within a cycle routers do not
 * see each other's moves (a flit or a credit sent in cycle s is usable from
 * s+1 on), so the node order does not change the result.
 */
#include "noc/mesh.h"

#include <string.h>

#include "noc/icnt_int.h"
#include "noc/mesh_place.h"

#define M_NONE UINT32_MAX
#define M_LANES 2

enum { IV_IDLE = 0, IV_ROUTE, IV_ACTIVE };

struct m_pkt {
    struct mem_req *r;
    sim_cycle t_push;
    uint32_t src, dst, dst_node;
    uint32_t flits;       /* in flits of its lane */
    uint32_t fflits;      /* in -icnt_flit_size flits: injection and ejection queues, statistics */
    uint32_t hops;
    uint8_t lane, cls;
};

struct m_ivc {             /* an input VC: the flits of one packet at a time */
    uint32_t pkt;          /* M_NONE when idle */
    uint32_t head, count;  /* ring of vc_buf ready cycles */
    uint32_t sent;         /* flits of pkt that left */
    uint32_t out_vc;
    uint8_t state, out_port;
};

struct m_ovc {             /* the sender's side of a downstream input VC */
    sim_cycle ret_at;      /* cycle a credit came back (usable from ret_at+1); SIM_NEVER: none pending */
    uint32_t credits;
    uint8_t busy;          /* allocated, until the credit of its packet's tail is applied */
    uint8_t ret_tail;
};

struct m_src {
    uint32_t *q;           /* ring of in_cap packet indices */
    uint32_t head, count;
    uint32_t occ;          /* queue flits (-icnt_flit_size units) not yet injected */
    uint32_t vc;           /* local input VC the head packet streams into; M_NONE before allocation */
    uint32_t injected;     /* flits of the head packet injected */
    uint32_t node;
    uint8_t cls;
};

struct m_dst {
    uint32_t *q;           /* ring of out_cap delivered packets */
    uint32_t head, count;
    uint32_t reserved;     /* flits of the packets that won the ejection port and are not popped */
    sim_cycle blocked_at;  /* a packet found no room in this cycle: none passes it in the same cycle */
    uint32_t node;
    uint8_t cls;
};

struct m_node {
    uint32_t n_flits;      /* flits in its input buffers */
    uint32_t n_route;      /* input VCs whose head flit waits for VC allocation */
    uint32_t n_pkts;       /* packets in its sources' injection queues */
    uint32_t src_lo, src_hi; /* its sources: src_list[src_lo .. src_hi) */
    uint32_t ni_va_rr, ni_rr[M_LANES], ni_vc_rr[M_LANES];
    uint32_t va_rr[MESH_PORTS];       /* per output port: the input port to serve first */
    uint32_t va_vc_rr[MESH_PORTS];    /* per input port: the VC to serve first */
    uint32_t ovc_rr[MESH_PORTS][M_LANES];
    uint32_t sa_in_rr[MESH_PORTS][M_LANES];
    uint32_t sa_out_rr[MESH_PORTS][M_LANES];
};

struct mesh {
    struct icnt base;      /* ops, kind, statistics */
    const char *name;
    uint32_t cols, rows, nodes, n_src, n_dst;
    uint32_t V, B, R, L;
    uint32_t flit_size, in_cap, out_cap;
    uint32_t n_lanes, lane_lo[M_LANES], lane_n[M_LANES], lane_bytes[M_LANES];
    struct m_node *node;
    struct m_ivc *ivc;     /* [node][port][vc] */
    sim_cycle *buf;        /* [node][port][vc][vc_buf]: ready cycle of each buffered flit */
    struct m_ovc *ovc;     /* [node][port][vc]: output VCs (the local port's are unused: ejection reserves) */
    struct m_ovc *niv;     /* [node][vc]: the injection side of each local input VC */
    struct m_src *src;
    struct m_dst *dst;
    uint32_t *src_list;    /* source indices grouped by node */
    struct m_pkt *pkt;
    uint32_t *free_pkt, n_free, n_pkt;
    uint64_t *act;         /* nodes with flits or queued packets */
    uint32_t act_words;
    uint64_t *link;        /* [node][4]: flits out through N, E, S, W */
    uint64_t inside;       /* packets pushed and not yet popped */
    struct mesh_stats ms;
};

static const struct icnt_ops mesh_ops;

/* ---- small helpers ---------------------------------------------------------------------------- */

static struct mesh *M(struct icnt *n) { return (struct mesh *)(void *)n; }
static const struct mesh *MC(const struct icnt *n) { return (const struct mesh *)(const void *)n; }

static unsigned m_opp(unsigned p) { return (p - 1 + 2) % 4 + 1; }

static uint32_t m_neighbor(const struct mesh *m, uint32_t at, unsigned p)
{
    switch (p) {
    case MESH_N: return at - m->cols;
    case MESH_S: return at + m->cols;
    case MESH_E: return at + 1;
    default: return at - 1;
    }
}

/* XY routing: the output port at `at` towards `to`. */
static uint8_t m_route(const struct mesh *m, uint32_t at, uint32_t to)
{
    uint32_t ax = at % m->cols, ay = at / m->cols, tx = to % m->cols, ty = to / m->cols;
    if (tx > ax)
        return MESH_E;
    if (tx < ax)
        return MESH_W;
    if (ty > ay)
        return MESH_S;
    if (ty < ay)
        return MESH_N;
    return MESH_LOCAL;
}

static uint32_t m_ix(const struct mesh *m, uint32_t node, unsigned port, uint32_t v)
{
    return (node * MESH_PORTS + port) * m->V + v;
}

static sim_cycle m_front(const struct mesh *m, uint32_t ix) { return m->buf[(size_t)ix * m->B + m->ivc[ix].head]; }

static uint32_t m_ceil(uint32_t bytes, uint32_t w)
{
    uint32_t f = bytes / w + (bytes % w != 0);
    return f ? f : 1;
}

static void m_act_set(struct mesh *m, uint32_t node) { m->act[node / 64u] |= (uint64_t)1 << (node % 64u); }

/* Apply a returned credit once its cycle has passed. */
static void m_ovc_sync(struct m_ovc *o, sim_cycle now)
{
    if (o->ret_at < now) {
        o->credits++;
        if (o->ret_tail)
            o->busy = 0;
        o->ret_tail = 0;
        o->ret_at = SIM_NEVER;
    }
}

/* A flit left the downstream buffer in cycle now (at most one per VC per cycle). */
static void m_ovc_return(struct m_ovc *o, sim_cycle now, int tail)
{
    m_ovc_sync(o, now);
    SIM_DASSERT(o->ret_at == SIM_NEVER);
    o->ret_at = now;
    o->ret_tail = (uint8_t)tail;
}

/* Write a flit of packet k into input VC (node, port, v), usable from cycle `ready`. */
static void m_ivc_put(struct mesh *m, uint32_t node, unsigned port, uint32_t v, uint32_t k, sim_cycle ready)
{
    uint32_t ix = m_ix(m, node, port, v);
    struct m_ivc *iv = &m->ivc[ix];
    SIM_DASSERT(iv->count < m->B);
    uint32_t slot = iv->head + iv->count;
    if (slot >= m->B)
        slot -= m->B;
    m->buf[(size_t)ix * m->B + slot] = ready;
    iv->count++;
    struct m_node *nd = &m->node[node];
    if (iv->state == IV_IDLE) {   /* a head flit: route computation */
        iv->pkt = k;
        iv->sent = 0;
        iv->state = IV_ROUTE;
        iv->out_port = m_route(m, node, m->pkt[k].dst_node);
        nd->n_route++;
    }
    SIM_DASSERT(iv->pkt == k);
    nd->n_flits++;
    m_act_set(m, node);
}

/* ---- construction and statistics -------------------------------------------------------------- */

static uint8_t m_cls(const struct icnt_endpoints *e, uint32_t i)
{
    return e->cls ? e->cls[i] : (uint8_t)ICNT_CLASS_GPU;
}

struct icnt *mesh_new(struct arena *a, const struct gpu_config *g, const struct icnt_endpoints *src,
                      const struct icnt_endpoints *dst, const char *name)
{
    SIM_ASSERT(src->n >= 1 && dst->n >= 1);
    SIM_ASSERT(g->icnt_flit_size >= 1 && g->icnt_in_buffer >= 1 && g->icnt_out_buffer >= 1);
    SIM_ASSERT(g->mesh_vcs >= 1 && g->mesh_vc_buf >= 1 && g->mesh_router_latency >= 1 && g->mesh_link_latency >= 1);

    struct mesh *m = arena_alloc(a, sizeof *m);
    if (!m)
        return NULL;
    if (!icnt_base_init(&m->base, a, &mesh_ops, ICNT_MESH, src->n, dst->n))
        return NULL;
    m->name = arena_strdup(a, name ? name : "mesh");
    unsigned cols, rows;
    mesh_place_size(g->mesh_cols, g->mesh_rows, src->n + dst->n, &cols, &rows);
    m->cols = cols;
    m->rows = rows;
    m->nodes = cols * rows;
    m->n_src = src->n;
    m->n_dst = dst->n;
    m->V = g->mesh_vcs;
    m->B = g->mesh_vc_buf;
    m->R = g->mesh_router_latency;
    m->L = g->mesh_link_latency;
    m->flit_size = g->icnt_flit_size;
    m->in_cap = g->icnt_in_buffer;
    m->out_cap = g->icnt_out_buffer;
    if (g->mesh_gpu_vcs && g->mesh_cpu_vcs) {
        SIM_ASSERT(g->mesh_gpu_vcs + g->mesh_cpu_vcs == m->V);
        m->n_lanes = 2;
        m->lane_lo[0] = 0;
        m->lane_n[0] = g->mesh_gpu_vcs;
        m->lane_lo[1] = g->mesh_gpu_vcs;
        m->lane_n[1] = g->mesh_cpu_vcs;
        m->lane_bytes[0] = (uint32_t)((uint64_t)m->flit_size * g->mesh_gpu_vcs / m->V);
        m->lane_bytes[1] = m->flit_size - m->lane_bytes[0];
        SIM_ASSERT(m->lane_bytes[0] >= 1 && m->lane_bytes[1] >= 1);
    } else {
        m->n_lanes = 1;
        m->lane_lo[0] = 0;
        m->lane_n[0] = m->V;
        m->lane_bytes[0] = m->flit_size;
    }

    size_t nvc = (size_t)m->nodes * MESH_PORTS * m->V;
    m->node = arena_alloc(a, sizeof *m->node * m->nodes);
    m->ivc = arena_alloc(a, sizeof *m->ivc * nvc);
    m->buf = arena_alloc(a, sizeof *m->buf * nvc * m->B);
    m->ovc = arena_alloc(a, sizeof *m->ovc * nvc);
    m->niv = arena_alloc(a, sizeof *m->niv * m->nodes * m->V);
    m->src = arena_alloc(a, sizeof *m->src * m->n_src);
    m->dst = arena_alloc(a, sizeof *m->dst * m->n_dst);
    m->src_list = arena_alloc(a, sizeof *m->src_list * m->n_src);
    m->act_words = (m->nodes + 63u) / 64u;
    m->act = arena_alloc(a, sizeof *m->act * m->act_words);
    m->link = arena_alloc(a, sizeof *m->link * m->nodes * 4);
    m->n_pkt = m->n_src * m->in_cap + (uint32_t)nvc + m->n_dst * m->out_cap;
    m->pkt = arena_alloc(a, sizeof *m->pkt * m->n_pkt);
    m->free_pkt = arena_alloc(a, sizeof *m->free_pkt * m->n_pkt);
    if (!m->name || !m->node || !m->ivc || !m->buf || !m->ovc || !m->niv || !m->src || !m->dst || !m->src_list ||
        !m->act || !m->link || !m->pkt || !m->free_pkt)
        return NULL;

    /* placement: given, or destinations spread like memory nodes and sources on the other nodes */
    uint32_t *sn = arena_alloc(a, sizeof *sn * m->n_src), *dn = arena_alloc(a, sizeof *dn * m->n_dst);
    if (!sn || !dn)
        return NULL;
    if (!src->node || !dst->node) {
        int rc = mesh_place_default(cols, rows, m->n_src, m->n_dst, sn, dn);
        SIM_ASSERT(rc == 0);   /* more destinations than nodes: the config loader refuses that */
    }
    for (uint32_t i = 0; i < m->n_src; i++) {
        uint32_t v = src->node ? src->node[i] : sn[i];
        SIM_ASSERT(v < m->nodes);
        m->src[i] = (struct m_src){.q = arena_alloc(a, sizeof(uint32_t) * m->in_cap), .vc = M_NONE, .node = v,
                                   .cls = m_cls(src, i)};
        if (!m->src[i].q)
            return NULL;
        m->node[v].src_hi++;   /* count first, prefix sums below */
    }
    for (uint32_t d = 0; d < m->n_dst; d++) {
        uint32_t v = dst->node ? dst->node[d] : dn[d];
        SIM_ASSERT(v < m->nodes);
        m->dst[d] = (struct m_dst){.q = arena_alloc(a, sizeof(uint32_t) * m->out_cap), .blocked_at = SIM_NEVER,
                                   .node = v, .cls = m_cls(dst, d)};
        if (!m->dst[d].q)
            return NULL;
    }
    uint32_t sum = 0;
    for (uint32_t v = 0; v < m->nodes; v++) {
        uint32_t c = m->node[v].src_hi;
        m->node[v].src_lo = m->node[v].src_hi = sum;
        sum += c;
    }
    for (uint32_t i = 0; i < m->n_src; i++)
        m->src_list[m->node[m->src[i].node].src_hi++] = i;

    for (size_t i = 0; i < nvc; i++) {
        m->ivc[i].pkt = M_NONE;
        m->ovc[i] = (struct m_ovc){.ret_at = SIM_NEVER, .credits = m->B};
    }
    for (size_t i = 0; i < (size_t)m->nodes * m->V; i++)
        m->niv[i] = (struct m_ovc){.ret_at = SIM_NEVER, .credits = m->B};
    for (uint32_t k = 0; k < m->n_pkt; k++)
        m->free_pkt[k] = m->n_pkt - 1 - k;   /* lowest index first: deterministic */
    m->n_free = m->n_pkt;
    return &m->base;
}

static void mesh_reg_stats(struct icnt *nb, struct stats *s, const char *prefix)
{
    struct mesh *m = M(nb);
    struct icnt_stats *st = &m->base.st;
    stats_reg(s, &st->packets, "packets delivered", "%s.packets", prefix);
    stats_reg(s, &st->flits, "flits (-icnt_flit_size units) of the delivered packets", "%s.flits", prefix);
    stats_reg(s, &st->lat_sum, "icnt cycles from push to delivery, summed over packets", "%s.lat_sum", prefix);
    stats_reg(s, &st->lat_max, "longest push-to-delivery latency (icnt cycles)", "%s.lat_max", prefix);
    stats_reg(s, &st->input_full_stalls, "icnt_can_push calls refused (injection queue full)",
              "%s.input_full_stalls", prefix);
    stats_reg(s, &st->output_blocked, "head-flit cycles waiting for room in a full ejection queue",
              "%s.output_blocked", prefix);
    stats_reg(s, &m->ms.hops_sum, "router-to-router hops of the delivered packets, summed", "%s.hops_sum", prefix);
    stats_reg(s, &m->ms.va_stalls, "head-flit cycles without a free virtual channel", "%s.va_stalls", prefix);
    stats_reg(s, &m->ms.credit_stalls, "flit cycles without a credit (next buffer full)", "%s.credit_stalls",
              prefix);
    stats_reg(s, &m->ms.sw_stalls, "flit cycles lost in switch or injection allocation", "%s.sw_stalls", prefix);
    stats_reg(s, &m->ms.link_flits, "flits over router-to-router links", "%s.link_flits", prefix);
    stats_reg(s, &m->ms.cpu_packets, "delivered packets of the CPU class", "%s.cpu_packets", prefix);
}

/* ---- injection and ejection ------------------------------------------------------------------- */

static int m_src_fits(const struct mesh *m, const struct m_src *s, uint32_t ff)
{
    return s->occ == 0 || s->occ + ff <= m->in_cap;
}

static bool mesh_can_push(const struct icnt *nb, unsigned src, uint32_t bytes)
{
    const struct mesh *m = MC(nb);
    SIM_DASSERT(src < m->n_src);
    if (m_src_fits(m, &m->src[src], m_ceil(bytes, m->flit_size)))
        return true;
    /* the network is never const itself (mesh_new allocates it): counting through a cast is defined */
    ((struct mesh *)(void *)m)->base.st.input_full_stalls++;
    return false;
}

static void mesh_push(struct icnt *nb, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now)
{
    struct mesh *m = M(nb);
    SIM_ASSERT(src < m->n_src && dst < m->n_dst && r != NULL);
    struct m_src *s = &m->src[src];
    uint32_t ff = m_ceil(bytes, m->flit_size);
    SIM_ASSERT(m_src_fits(m, s, ff));   /* caller checks icnt_can_push */
    SIM_ASSERT(s->count < m->in_cap && m->n_free > 0);
    uint32_t k = m->free_pkt[--m->n_free];
    const struct m_dst *d = &m->dst[dst];
    uint8_t cls = s->cls != ICNT_CLASS_ANY ? s->cls : d->cls != ICNT_CLASS_ANY ? d->cls : (uint8_t)ICNT_CLASS_GPU;
    uint8_t lane = m->n_lanes == 2 && cls == ICNT_CLASS_CPU ? 1 : 0;
    m->pkt[k] = (struct m_pkt){.r = r, .t_push = now, .src = src, .dst = dst, .dst_node = d->node,
                               .flits = m_ceil(bytes, m->lane_bytes[lane]), .fflits = ff, .lane = lane, .cls = cls};
    uint32_t slot = s->head + s->count;
    if (slot >= m->in_cap)
        slot -= m->in_cap;
    s->q[slot] = k;
    s->count++;
    s->occ += ff;
    m->node[s->node].n_pkts++;
    m_act_set(m, s->node);
    m->inside++;
}

static struct mem_req *mesh_peek(const struct icnt *nb, unsigned dst)
{
    const struct mesh *m = MC(nb);
    SIM_DASSERT(dst < m->n_dst);
    const struct m_dst *d = &m->dst[dst];
    return d->count ? m->pkt[d->q[d->head]].r : NULL;
}

static void mesh_pop(struct icnt *nb, unsigned dst)
{
    struct mesh *m = M(nb);
    SIM_ASSERT(dst < m->n_dst);
    struct m_dst *d = &m->dst[dst];
    SIM_ASSERT(d->count > 0);
    uint32_t k = d->q[d->head];
    if (++d->head == m->out_cap)
        d->head = 0;
    d->count--;
    d->reserved -= m->pkt[k].fflits;
    m->pkt[k].r = NULL;
    m->free_pkt[m->n_free++] = k;
    m->inside--;
}

static bool mesh_busy(const struct icnt *nb) { return MC(nb)->inside > 0; }

/* The tail of packet k crossed into the ejection port in cycle now. */
static void m_deliver(struct mesh *m, uint32_t k, sim_cycle now)
{
    const struct m_pkt *p = &m->pkt[k];
    struct m_dst *d = &m->dst[p->dst];
    SIM_DASSERT(d->count < m->out_cap);
    uint32_t slot = d->head + d->count;
    if (slot >= m->out_cap)
        slot -= m->out_cap;
    d->q[slot] = k;
    d->count++;
    icnt_count_delivery(&m->base, p->dst, now - p->t_push, p->fflits);
    m->ms.hops_sum += p->hops;
    m->ms.cpu_packets += p->cls == ICNT_CLASS_CPU;
}

/* ---- the cycle ------------------------------------------------------------------------------ */

/* The front flit of input VC (node, p, v) crosses the switch in cycle now. */
static void m_cross(struct mesh *m, uint32_t node, unsigned p, uint32_t v, sim_cycle now)
{
    uint32_t ix = m_ix(m, node, p, v);
    struct m_ivc *iv = &m->ivc[ix];
    uint32_t k = iv->pkt;
    struct m_pkt *pk = &m->pkt[k];
    if (++iv->head == m->B)
        iv->head = 0;
    iv->count--;
    m->node[node].n_flits--;
    uint32_t seq = iv->sent++;
    int tail = iv->sent == pk->flits;
    /* the freed slot goes back to whoever feeds this VC */
    struct m_ovc *up = p == MESH_LOCAL ? &m->niv[node * m->V + v]
                                       : &m->ovc[m_ix(m, m_neighbor(m, node, p), m_opp(p), v)];
    m_ovc_return(up, now, tail);
    unsigned q = iv->out_port;
    if (q == MESH_LOCAL) {
        if (tail)
            m_deliver(m, k, now);
    } else {
        struct m_ovc *o = &m->ovc[m_ix(m, node, q, iv->out_vc)];
        SIM_DASSERT(o->credits > 0);
        o->credits--;
        if (seq == 0)
            pk->hops++;
        m->link[(size_t)node * 4 + q - 1]++;
        m->ms.link_flits++;
        m_ivc_put(m, m_neighbor(m, node, q), m_opp(q), iv->out_vc, k, now + m->L + m->R);
    }
    if (tail) {
        SIM_DASSERT(iv->count == 0);
        iv->state = IV_IDLE;
        iv->pkt = M_NONE;
    }
}

static int m_head_ready(const struct mesh *m, uint32_t ix, sim_cycle now)
{
    return m->ivc[ix].state == IV_ROUTE && m_front(m, ix) <= now;
}

/* Head flit of input VC (node, p, lo+w) gets output q: an output VC (round-robin among the free
   ones of its lane), or room in its destination's ejection queue.  Returns 0 when it must wait. */
static int m_va_one(struct mesh *m, uint32_t node, unsigned q, struct m_ivc *iv, sim_cycle now)
{
    struct m_node *nd = &m->node[node];
    const struct m_pkt *pk = &m->pkt[iv->pkt];
    if (q == MESH_LOCAL) {
        struct m_dst *d = &m->dst[pk->dst];
        if (d->blocked_at == now || (d->reserved != 0 && d->reserved + pk->fflits > m->out_cap)) {
            d->blocked_at = now;   /* no smaller packet for this destination passes it in this cycle */
            return 0;
        }
        d->reserved += pk->fflits;
    } else {
        uint32_t lo = m->lane_lo[pk->lane], nl = m->lane_n[pk->lane], got = M_NONE;
        for (uint32_t t = 0, w = nd->ovc_rr[q][pk->lane]; t < nl; t++, w = w + 1 == nl ? 0 : w + 1) {
            struct m_ovc *o = &m->ovc[m_ix(m, node, q, lo + w)];
            m_ovc_sync(o, now);
            if (!o->busy) {
                SIM_DASSERT(o->credits == m->B);
                o->busy = 1;
                got = w;
                break;
            }
        }
        if (got == M_NONE)
            return 0;
        nd->ovc_rr[q][pk->lane] = got + 1 == nl ? 0 : got + 1;
        iv->out_vc = lo + got;
    }
    iv->state = IV_ACTIVE;
    nd->n_route--;
    return 1;
}

/*
 * VC allocation (and ejection-port allocation) for the head flits waiting at
 * a router.  Per output port, the input ports take turns (round-robin, the
 * pointer moves past the last port served) and each input port gets at most
 * one grant per output port per cycle, its VCs taking turns among
 * themselves: an input port with many waiting packets gets no more than its
 * share.  Every head left waiting counts a stall.
 */
static void m_va(struct mesh *m, uint32_t node, sim_cycle now)
{
    struct m_node *nd = &m->node[node];
    const uint32_t V = m->V;
    unsigned req = 0;
    for (uint32_t k = 0; k < MESH_PORTS * V; k++)
        if (m_head_ready(m, m_ix(m, node, k / V, k % V), now))
            req |= 1u << m->ivc[m_ix(m, node, k / V, k % V)].out_port;
    for (unsigned q = 0; q < MESH_PORTS; q++) {
        if (!(req & (1u << q)))
            continue;
        unsigned last = MESH_PORTS;
        for (unsigned j = 0, p = nd->va_rr[q]; j < MESH_PORTS; j++, p = p + 1 == MESH_PORTS ? 0 : p + 1) {
            unsigned granted = 0;   /* lanes served: each lane allocates on its own */
            for (uint32_t t = 0, w = nd->va_vc_rr[p]; t < V; t++, w = w + 1 == V ? 0 : w + 1) {
                uint32_t ix = m_ix(m, node, p, w);
                struct m_ivc *iv = &m->ivc[ix];
                if (!m_head_ready(m, ix, now) || iv->out_port != q)
                    continue;
                unsigned lane_bit = 1u << m->pkt[iv->pkt].lane;
                if (!(granted & lane_bit) && m_va_one(m, node, q, iv, now)) {
                    granted |= lane_bit;
                    nd->va_vc_rr[p] = w + 1 == V ? 0 : w + 1;
                    last = p;
                } else if (q == MESH_LOCAL) {
                    m->base.st.output_blocked++;
                } else {
                    m->ms.va_stalls++;
                }
            }
        }
        if (last != MESH_PORTS)
            nd->va_rr[q] = last + 1 == MESH_PORTS ? 0 : last + 1;
    }
}

/* Switch allocation of one lane at a router: input-first, then output, both round-robin. */
static void m_sa(struct mesh *m, uint32_t node, unsigned lane, sim_cycle now)
{
    struct m_node *nd = &m->node[node];
    const uint32_t lo = m->lane_lo[lane], nl = m->lane_n[lane];
    uint32_t want[MESH_PORTS];
    uint8_t want_q[MESH_PORTS];
    unsigned outs = 0;
    for (unsigned p = 0; p < MESH_PORTS; p++) {
        want[p] = M_NONE;
        want_q[p] = 0;
        uint32_t elig = 0;
        for (uint32_t t = 0, w = nd->sa_in_rr[p][lane]; t < nl; t++, w = w + 1 == nl ? 0 : w + 1) {
            uint32_t ix = m_ix(m, node, p, lo + w);
            const struct m_ivc *iv = &m->ivc[ix];
            if (iv->state != IV_ACTIVE || iv->count == 0 || m_front(m, ix) > now)
                continue;
            if (iv->out_port != MESH_LOCAL) {
                struct m_ovc *o = &m->ovc[m_ix(m, node, iv->out_port, iv->out_vc)];
                m_ovc_sync(o, now);
                if (o->credits == 0) {
                    m->ms.credit_stalls++;
                    continue;
                }
            }
            if (want[p] == M_NONE) {
                want[p] = w;
                want_q[p] = iv->out_port;
            }
            elig++;
        }
        if (want[p] != M_NONE) {
            outs |= 1u << want_q[p];
            m->ms.sw_stalls += elig - 1;
        }
    }
    for (unsigned q = 0; q < MESH_PORTS; q++) {
        if (!(outs & (1u << q)))
            continue;
        unsigned win = MESH_PORTS;
        for (unsigned j = 0, p = nd->sa_out_rr[q][lane]; j < MESH_PORTS; j++, p = p + 1 == MESH_PORTS ? 0 : p + 1) {
            if (want[p] == M_NONE || want_q[p] != q)
                continue;
            if (win == MESH_PORTS)
                win = p;
            else
                m->ms.sw_stalls++;
        }
        uint32_t w = want[win];
        want[win] = M_NONE;
        nd->sa_out_rr[q][lane] = win + 1 == MESH_PORTS ? 0 : win + 1;
        nd->sa_in_rr[win][lane] = w + 1 == nl ? 0 : w + 1;
        m_cross(m, node, win, lo + w, now);
    }
}

/* The network interface of a node: local input VCs for new packets, then one flit per lane. */
static void m_inject(struct mesh *m, uint32_t node, sim_cycle now)
{
    struct m_node *nd = &m->node[node];
    const uint32_t ns = nd->src_hi - nd->src_lo;
    uint32_t last = M_NONE;
    for (uint32_t j = 0, x = nd->ni_va_rr; j < ns; j++, x = x + 1 == ns ? 0 : x + 1) {
        struct m_src *s = &m->src[m->src_list[nd->src_lo + x]];
        if (!s->count || s->vc != M_NONE)
            continue;
        const struct m_pkt *pk = &m->pkt[s->q[s->head]];
        if (pk->t_push >= now)   /* pushed in this cycle: from the next one on */
            continue;
        uint32_t lo = m->lane_lo[pk->lane], nl = m->lane_n[pk->lane];
        for (uint32_t t = 0, w = nd->ni_vc_rr[pk->lane]; t < nl; t++, w = w + 1 == nl ? 0 : w + 1) {
            struct m_ovc *o = &m->niv[node * m->V + lo + w];
            m_ovc_sync(o, now);
            if (!o->busy) {
                o->busy = 1;
                s->vc = lo + w;
                nd->ni_vc_rr[pk->lane] = w + 1 == nl ? 0 : w + 1;
                last = x;
                break;
            }
        }
        if (s->vc == M_NONE)
            m->ms.va_stalls++;
    }
    if (last != M_NONE)
        nd->ni_va_rr = last + 1 == ns ? 0 : last + 1;

    for (unsigned lane = 0; lane < m->n_lanes; lane++) {
        uint32_t pick = M_NONE, elig = 0;
        for (uint32_t j = 0, x = nd->ni_rr[lane]; j < ns; j++, x = x + 1 == ns ? 0 : x + 1) {
            struct m_src *s = &m->src[m->src_list[nd->src_lo + x]];
            if (!s->count || s->vc == M_NONE || m->pkt[s->q[s->head]].lane != lane)
                continue;
            struct m_ovc *o = &m->niv[node * m->V + s->vc];
            m_ovc_sync(o, now);
            if (o->credits == 0) {
                m->ms.credit_stalls++;
                continue;
            }
            if (pick == M_NONE)
                pick = x;
            elig++;
        }
        if (pick == M_NONE)
            continue;
        m->ms.sw_stalls += elig - 1;
        nd->ni_rr[lane] = pick + 1 == ns ? 0 : pick + 1;
        uint32_t si = m->src_list[nd->src_lo + pick];
        struct m_src *s = &m->src[si];
        uint32_t k = s->q[s->head];
        const struct m_pkt *pk = &m->pkt[k];
        m->niv[node * m->V + s->vc].credits--;
        m_ivc_put(m, node, MESH_LOCAL, s->vc, k, now + m->R);
        /* the queue's room (in -icnt_flit_size flits) comes back in proportion to the flits injected */
        uint32_t j1 = ++s->injected;
        uint32_t freed =
            (uint32_t)((uint64_t)j1 * pk->fflits / pk->flits - (uint64_t)(j1 - 1) * pk->fflits / pk->flits);
        s->occ -= freed;
        m->base.room_version[si] += freed != 0;
        m->base.room_version_any += freed != 0;
        if (s->injected == pk->flits) {
            if (++s->head == m->in_cap)
                s->head = 0;
            s->count--;
            s->vc = M_NONE;
            s->injected = 0;
            nd->n_pkts--;
        }
    }
}

static void mesh_cycle(struct icnt *nb, sim_cycle now)
{
    struct mesh *m = M(nb);
    if (m->inside == 0)
        return;
    /* read the word afresh each step: a node that receives a flit now is visited (it has nothing ready) */
    for (uint32_t w = 0; w < m->act_words; w++) {
        uint32_t from = 0;
        while (from < 64u) {
            uint64_t bits = m->act[w] >> from;
            if (!bits)
                break;
            uint32_t b = from + (uint32_t)__builtin_ctzll(bits);
            uint32_t node = w * 64u + b;
            struct m_node *nd = &m->node[node];
            if (nd->n_pkts)
                m_inject(m, node, now);
            if (nd->n_flits) {
                if (nd->n_route)
                    m_va(m, node, now);
                for (unsigned lane = 0; lane < m->n_lanes; lane++)
                    m_sa(m, node, lane, now);
            }
            if (!nd->n_flits && !nd->n_pkts)
                m->act[w] &= ~((uint64_t)1 << b);
            from = b + 1;
        }
    }
}

/*
 * Every cycle in which a flit is eligible (ready, whether or not it then
 * stalls) or a packet waits for injection is ticked, so the stall counters
 * do not depend on idle skipping; otherwise the next event is the earliest
 * ready cycle of a buffered front flit.  Delivered packets waiting for
 * icnt_pop are the consumer's events, not the network's.
 */
static sim_cycle mesh_next_event(const struct icnt *nb, sim_cycle now)
{
    const struct mesh *m = MC(nb);
    if (m->inside == 0)
        return SIM_NEVER;
    sim_cycle best = SIM_NEVER;
    for (uint32_t w = 0; w < m->act_words; w++) {
        for (uint64_t bits = m->act[w]; bits; bits &= bits - 1) {
            uint32_t node = w * 64u + (uint32_t)__builtin_ctzll(bits);
            const struct m_node *nd = &m->node[node];
            if (nd->n_pkts)
                return now + 1;
            if (!nd->n_flits)
                continue;
            const uint32_t base = node * MESH_PORTS * m->V;
            for (uint32_t k = 0; k < MESH_PORTS * m->V; k++) {
                if (!m->ivc[base + k].count)
                    continue;
                sim_cycle r = m_front(m, base + k);
                if (r <= now + 1)
                    return now + 1;
                best = sim_min(best, r);
            }
        }
    }
    return best;
}

static const struct icnt_ops mesh_ops = {
    .name = "mesh",
    .reg_stats = mesh_reg_stats,
    .can_push = mesh_can_push,
    .push = mesh_push,
    .cycle = mesh_cycle,
    .peek = mesh_peek,
    .pop = mesh_pop,
    .busy = mesh_busy,
    .next_event = mesh_next_event,
};

/* ---- mesh-only queries (mesh.h) --------------------------------------------------------------- */

const struct mesh_stats *mesh_get_stats(const struct icnt *n)
{
    return n && n->kind == ICNT_MESH ? &MC(n)->ms : NULL;
}

uint64_t mesh_link_flits(const struct icnt *n, unsigned node, unsigned dir)
{
    if (!n || n->kind != ICNT_MESH || dir < MESH_N || dir > MESH_W || node >= MC(n)->nodes)
        return 0;
    return MC(n)->link[(size_t)node * 4 + dir - 1];
}

void mesh_size(const struct icnt *n, unsigned *cols, unsigned *rows)
{
    int is = n && n->kind == ICNT_MESH;
    *cols = is ? MC(n)->cols : 0;
    *rows = is ? MC(n)->rows : 0;
}

unsigned mesh_links(const struct icnt *n)
{
    if (!n || n->kind != ICNT_MESH)
        return 0;
    const struct mesh *m = MC(n);
    return 2 * (m->rows * (m->cols - 1) + m->cols * (m->rows - 1));
}

unsigned mesh_src_node(const struct icnt *n, unsigned src)
{
    return n && n->kind == ICNT_MESH && src < MC(n)->n_src ? MC(n)->src[src].node : 0;
}

unsigned mesh_dst_node(const struct icnt *n, unsigned dst)
{
    return n && n->kind == ICNT_MESH && dst < MC(n)->n_dst ? MC(n)->dst[dst].node : 0;
}
