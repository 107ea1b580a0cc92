/*
 * icnt.c - the public icnt_* functions (icnt.h): construction by kind and
 * dispatch to the implementation's ops (noc/xbar.c, noc/mesh.c).
 */
#include "noc/icnt_int.h"

#include <string.h>

#include "noc/mesh_place.h"

struct icnt *icnt_new(struct arena *a, const struct gpu_config *g, unsigned n_src, unsigned n_dst,
                      const char *name)
{
    if (g->icnt_kind != ICNT_MESH)
        return xbar_new(a, g, n_src, n_dst, name);
    struct icnt_endpoints src = {.n = n_src}, dst = {.n = n_dst};
    return mesh_new(a, g, &src, &dst, name);
}

struct icnt *icnt_new_at(struct arena *a, const struct gpu_config *g, const struct icnt_endpoints *src,
                         const struct icnt_endpoints *dst, const char *name)
{
    if (g->icnt_kind != ICNT_MESH)
        return xbar_new(a, g, src->n, dst->n, name);
    return mesh_new(a, g, src, dst, name);
}

/* CPU cores' nodes: the list given, else the nodes holding neither memory nor an SM in row-major order
   (then again over the nodes without memory when there are more cores than such nodes) */
static void icnt_place_cpus(const struct gpu_config *g, const uint32_t *sm, const uint32_t *mem, uint32_t *cpu)
{
    unsigned nodes = g->mesh_cols * g->mesh_rows, nc = g->cpu_cores;
    if (g->mesh_cpu_nodes && g->mesh_cpu_nodes[0]) {
        char msg[200];
        int rc = mesh_place_parse(g->mesh_cpu_nodes, nc, nodes, cpu, msg, sizeof msg);
        SIM_ASSERT(rc == 0);   /* gpu_config_load checked it */
        return;
    }
    unsigned char taken[65536];
    memset(taken, 0, nodes);
    for (unsigned p = 0; p < g->n_sub_partitions; p++)
        taken[mem[p]] = 2;
    for (unsigned i = 0; i < g->n_cores; i++)
        taken[sm[i]] = taken[sm[i]] ? taken[sm[i]] : 1;
    unsigned k = 0;
    for (unsigned v = 0; v < nodes && k < nc; v++)
        if (!taken[v])
            cpu[k++] = v;
    for (unsigned v = 0; k < nc; v = (v + 1) % nodes)
        if (taken[v] != 2)
            cpu[k++] = v;
}

struct icnt *icnt_new_gpu(struct arena *a, const struct gpu_config *g, bool reply, const char *name)
{
    /* the cores' endpoints: the SMs, then the chip's CPU cores (sys/gpu_cpu.h) */
    unsigned nsm = g->n_cores, ns = nsm + g->cpu_cores, np = g->n_sub_partitions;
    if (g->icnt_kind != ICNT_MESH)
        return reply ? xbar_new(a, g, np, ns, name) : xbar_new(a, g, ns, np, name);
    uint32_t *sm = arena_alloc(a, sizeof *sm * ns), *mem = arena_alloc(a, sizeof *mem * np);
    uint8_t *sm_cls = arena_alloc(a, ns), *mem_cls = arena_alloc(a, np);
    if (!sm || !mem || !sm_cls || !mem_cls)
        return NULL;
    const char *opt = NULL;
    char msg[400];
    int rc = mesh_place_gpu(g, sm, mem, &opt, msg, sizeof msg);
    SIM_ASSERT(rc == 0);   /* gpu_config_load checked the placement */
    if (g->cpu_cores)
        icnt_place_cpus(g, sm, mem, sm + nsm);
    for (unsigned i = 0; i < ns; i++)
        sm_cls[i] = i < nsm ? ICNT_CLASS_GPU : ICNT_CLASS_CPU;
    for (unsigned p = 0; p < np; p++)
        mem_cls[p] = ICNT_CLASS_ANY;   /* a memory partition answers every class */
    struct icnt_endpoints e_sm = {.n = ns, .node = sm, .cls = sm_cls}, e_mem = {.n = np, .node = mem, .cls = mem_cls};
    return reply ? mesh_new(a, g, &e_mem, &e_sm, name) : mesh_new(a, g, &e_sm, &e_mem, name);
}

enum icnt_kind icnt_kind_of(const struct icnt *n) { return n->kind; }

void icnt_reg_stats(struct icnt *n, struct stats *s, const char *prefix) { n->ops->reg_stats(n, s, prefix); }

const struct icnt_stats *icnt_get_stats(const struct icnt *n) { return &n->st; }

uint64_t icnt_dst_packets(const struct icnt *n, unsigned dst) { return dst < n->n_dst ? n->dst_packets[dst] : 0; }

uint64_t icnt_dst_lat_sum(const struct icnt *n, unsigned dst) { return dst < n->n_dst ? n->dst_lat[dst] : 0; }

bool icnt_base_init(struct icnt *n, struct arena *a, const struct icnt_ops *ops, enum icnt_kind kind,
                    unsigned n_src, unsigned n_dst)
{
    n->ops = ops;
    n->kind = kind;
    n->n_dst = n_dst;
    n->dst_packets = arena_alloc(a, sizeof *n->dst_packets * n_dst);
    n->dst_lat = arena_alloc(a, sizeof *n->dst_lat * n_dst);
    n->room_version = arena_alloc(a, sizeof *n->room_version * n_src);
    return n->dst_packets && n->dst_lat && n->room_version;
}

void icnt_count_delivery(struct icnt *n, unsigned dst, uint64_t lat, uint64_t flits)
{
    n->st.packets++;
    n->st.flits += flits;
    n->st.lat_sum += lat;
    if (lat > n->st.lat_max)
        n->st.lat_max = lat;
    n->dst_packets[dst]++;
    n->dst_lat[dst] += lat;
    n->waiting++;
}

bool icnt_can_push(const struct icnt *n, unsigned src, uint32_t bytes) { return n->ops->can_push(n, src, bytes); }

void icnt_push(struct icnt *n, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now)
{
    n->ops->push(n, src, dst, r, bytes, now);
}

void icnt_cycle(struct icnt *n, sim_cycle now) { n->ops->cycle(n, now); }

struct mem_req *icnt_peek(const struct icnt *n, unsigned dst) { return n->ops->peek(n, dst); }

void icnt_pop(struct icnt *n, unsigned dst)
{
    n->ops->pop(n, dst);
    SIM_ASSERT(n->waiting > 0);
    n->waiting--;
}

bool icnt_any_delivered(const struct icnt *n) { return n->waiting > 0; }

uint32_t icnt_room_version(const struct icnt *n, unsigned src) { return n->room_version[src]; }

uint32_t icnt_room_version_any(const struct icnt *n) { return n->room_version_any; }

void icnt_count_refused_push(struct icnt *n, uint64_t calls) { n->st.input_full_stalls += calls; }

bool icnt_busy(const struct icnt *n) { return n->ops->busy(n); }

sim_cycle icnt_next_event(const struct icnt *n, sim_cycle now) { return n->ops->next_event(n, now); }
