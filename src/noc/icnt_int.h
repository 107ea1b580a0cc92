/*
 * icnt_int.h - what the interconnect implementations share (not for callers
 * of icnt.h): the ops table the public icnt_* functions dispatch through, and
 * the header every implementation's state starts with.
 */
#ifndef WARPSIM_ICNT_INT_H
#define WARPSIM_ICNT_INT_H

#include "noc/icnt.h"

struct icnt_ops {
    const char *name;
    void (*reg_stats)(struct icnt *n, struct stats *s, const char *prefix);
    /* const like icnt_can_push; a refusal is counted through a cast (the object is never const itself) */
    bool (*can_push)(const struct icnt *n, unsigned src, uint32_t bytes);
    void (*push)(struct icnt *n, unsigned src, unsigned dst, struct mem_req *r, uint32_t bytes, sim_cycle now);
    void (*cycle)(struct icnt *n, sim_cycle now);
    struct mem_req *(*peek)(const struct icnt *n, unsigned dst);
    void (*pop)(struct icnt *n, unsigned dst);
    bool (*busy)(const struct icnt *n);
    sim_cycle (*next_event)(const struct icnt *n, sim_cycle now);
};

/* First member of every implementation's state. */
struct icnt {
    const struct icnt_ops *ops;
    enum icnt_kind kind;
    struct icnt_stats st;
    unsigned n_dst;
    uint64_t *dst_packets, *dst_lat;   /* per destination, [n_dst] */
    uint64_t waiting;                  /* delivered packets not yet popped, all destinations */
    uint32_t *room_version;            /* per source, [n_src]: bumped whenever room frees at its input
                                          (icnt_room_version) */
    uint32_t room_version_any;         /* bumped with any of them */
};

/* Fills the header's shared part; false when the per-destination counters cannot be allocated. */
bool icnt_base_init(struct icnt *n, struct arena *a, const struct icnt_ops *ops, enum icnt_kind kind,
                    unsigned n_src, unsigned n_dst);
/* A packet delivered at dst after lat icnt cycles, of flits flits: the statistics. */
void icnt_count_delivery(struct icnt *n, unsigned dst, uint64_t lat, uint64_t flits);

struct icnt *xbar_new(struct arena *a, const struct gpu_config *g, unsigned n_src, unsigned n_dst, const char *name);
struct icnt *mesh_new(struct arena *a, const struct gpu_config *g, const struct icnt_endpoints *src,
                      const struct icnt_endpoints *dst, const char *name);

#endif
