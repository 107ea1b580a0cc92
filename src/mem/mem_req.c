/* mem_req.c - request pool (see mem_req.h). */
#include "mem_req.h"

#include <string.h>

static int refill(struct mem_req_pool *p, uint32_t n)
{
    struct mem_req *blk = arena_alloc(p->arena, sizeof *blk * n);
    if (!blk)
        return -1;
    for (uint32_t i = 0; i < n; i++) {
        blk[i].next = p->free;
        p->free = &blk[i];
    }
    return 0;
}

int mem_req_pool_init(struct mem_req_pool *p, struct arena *a, uint32_t initial)
{
    memset(p, 0, sizeof *p);
    p->arena = a;
    p->chunk = initial ? initial : 1024;
    return refill(p, p->chunk);
}

struct mem_req *mem_req_alloc(struct mem_req_pool *p)
{
    if (!p->free && refill(p, p->chunk) != 0)
        return NULL;
    struct mem_req *r = p->free;
    p->free = r->next;
    memset(r, 0, sizeof *r);
    r->home = p;
    r->id = ++p->next_id;
    p->allocated++;
    return r;
}

void mem_req_free(struct mem_req_pool *p, struct mem_req *r)
{
    SIM_DASSERT(r != NULL);
    struct mem_req_pool *h = r->home ? r->home : p;   /* one made outside a pool (tests) goes to p */
    r->next = h->free;
    h->free = r;
    h->retired++;
    SIM_DASSERT(h->retired <= h->allocated);
}
