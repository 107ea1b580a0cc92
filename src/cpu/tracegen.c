/*
 * tracegen.c - synthetic traces for the CPU applications of 004 Table III
 * (cpu/tracegen.h; docs/cpu.md).
 *
 * The program is a loop over a body of TG_BODY static instructions (fixed
 * IPs, types and registers, drawn from the seed), so that the branch
 * predictor sees recurring branches and register dependences recur.  Body
 * slots are ALU operations, branches, loads and stores; loads and stores go
 * to a hot region (16 KB, stays in the L1) or a warm one (64 KB, stays in the
 * L2).  The L2 misses come from a third region, the profile's footprint
 * (several MB, far larger than the L2), in the profile's pattern: every
 * instruction adds mpki / 1000 x cal x (accesses per line) to a credit, and
 * the next load or store slot reached with a credit of at least one goes to
 * that region instead (and takes one off), so the rate is exact rather than
 * drawn.  A prologue touches every hot and warm line once, so that after a
 * short warm-up the misses are those of the footprint region.
 */
#include <stdio.h>
#include <string.h>

#include "cpu/cpu_mem_fixed.h"
#include "cpu/tracegen.h"

#define TG_BODY 256
#define TG_LINE 128u
#define TG_HOT_BASE 0x10000000ull
#define TG_HOT_BYTES (16u << 10)
#define TG_WARM_BASE 0x20000000ull
#define TG_WARM_BYTES (64u << 10)
#define TG_COLD_BASE 0x100000000ull
#define TG_CODE_BASE 0x400000ull
#define TG_WARM_PCT 8       /* percent of load/store slots that use the warm region */
#define TG_NREGS 24        /* general registers 1..24 */
#define TG_REG_CHASE 30    /* the pointer of a chase */
#define TG_STRIDE_LINES 3  /* stride pattern: every third line */
#define TG_MAX_COLD_SHARE 0.25   /* stream: accesses per line chosen to keep cold accesses below this */

/* 004 Table III, in its order.  Pattern, footprint and branch behaviour are
   this generator's choices (the paper gives only the MPKI and the type).
   cal: the footprint accesses also evict hot and warm lines from the L2 (which
   does not see the L1's hits), so at high rates they cause a few more misses
   than they make themselves; cal < 1 compensates, measured on the default core
   with 1M-instruction traces, seed 1 (docs/cpu.md). */
static const struct tracegen_profile tg_profiles[] = {
    /* name, MPKI, type, pattern, footprint MB, % random branches, cal */
    {"perlbench", 0.2, 'L', TG_RANDOM, 8, 12, 1.0},
    {"povray", 0.2, 'L', TG_RANDOM, 8, 8, 1.0},
    {"tonto", 0.2, 'L', TG_STRIDE, 8, 4, 1.0},
    {"applu", 0.3, 'L', TG_STREAM, 16, 2, 1.0},
    {"calculix", 0.3, 'L', TG_STRIDE, 8, 4, 1.0},
    {"gcc", 0.3, 'L', TG_RANDOM, 16, 12, 1.0},
    {"namd", 0.4, 'L', TG_STRIDE, 8, 4, 1.0},
    {"barnes", 0.7, 'L', TG_CHASE, 8, 6, 1.0},
    {"gromacs", 0.7, 'L', TG_STRIDE, 8, 6, 1.0},
    {"sjeng", 0.8, 'L', TG_RANDOM, 16, 25, 1.0},
    {"dealII", 1.0, 'L', TG_RANDOM, 16, 8, 1.0},
    {"wrf", 1.3, 'L', TG_STREAM, 32, 3, 1.0},
    {"h264ref", 1.5, 'L', TG_STRIDE, 16, 8, 1.0},
    {"cactus", 1.6, 'L', TG_STREAM, 32, 2, 1.0},
    {"gobmk", 1.6, 'L', TG_RANDOM, 16, 25, 1.0},
    {"bzip2", 3.1, 'M', TG_RANDOM, 32, 18, 1.0},
    {"sjas", 4.0, 'M', TG_RANDOM, 64, 10, 1.0},
    {"tpcw", 4.8, 'M', TG_RANDOM, 64, 10, 1.0},
    {"Gems", 5.2, 'M', TG_STREAM, 64, 2, 1.0},
    {"hmmer", 7.0, 'M', TG_STRIDE, 32, 5, 1.0},
    {"astar", 7.1, 'M', TG_CHASE, 32, 20, 1.0},
    {"sjbb", 7.5, 'M', TG_RANDOM, 64, 10, 1.0},
    {"swim", 10.0, 'M', TG_STREAM, 64, 1, 0.997},
    {"ocean", 10.6, 'M', TG_STRIDE, 64, 3, 0.983},
    {"sphinx3", 12.0, 'M', TG_STRIDE, 64, 6, 1.0},
    {"libquantum", 12.5, 'M', TG_STREAM, 64, 2, 0.960},
    {"art", 13.6, 'M', TG_STRIDE, 32, 4, 0.996},
    {"lbm", 14.0, 'M', TG_STREAM, 128, 1, 0.940},
    {"leslie3d", 14.2, 'M', TG_STREAM, 64, 2, 0.975},
    {"xalan", 14.6, 'M', TG_CHASE, 64, 10, 0.988},
    {"milc", 25.0, 'H', TG_STRIDE, 128, 2, 0.922},
    {"omnetpp", 25.8, 'H', TG_CHASE, 64, 12, 0.932},
    {"mcf", 49.8, 'H', TG_CHASE, 128, 15, 0.901},
    {"soplex", 103.2, 'H', TG_RANDOM, 128, 8, 0.915},
};

/* 004 Table IV, as printed ("cactusADM" is Table III's "cactus") */
static const struct tracegen_mix tg_mixes[] = {
    {"L1", {"povray", "tonto", "applu", "calculix", "gcc", "namd", "barnes", "gromacs", "sjeng", "dealII", "wrf",
            "h264ref", "cactusADM", "gobmk"}},
    {"L2", {"sjeng", "dealII", "wrf", "h264ref", "cactusADM", "gobmk", "sjeng", "dealII", "wrf", "h264ref",
            "cactusADM", "gobmk", "sjeng", "dealII"}},
    {"M1", {"sjas", "tpcw", "Gems", "hmmer", "astar", "sjbb", "swim", "ocean", "sphinx3", "libquantum", "art", "lbm",
            "leslie3d", "xalan"}},
    {"M2", {"ocean", "sphinx3", "libquantum", "art", "lbm", "leslie3d", "xalan", "ocean", "sphinx3", "libquantum",
            "art", "lbm", "leslie3d", "xalan"}},
    {"H1", {"milc", "soplex", "milc", "omnetpp", "mcf", "soplex", "milc", "omnetpp", "mcf", "soplex", "mcf", "soplex",
            "omnetpp", "mcf"}},
    {"H2", {"omnetpp", "omnetpp", "omnetpp", "omnetpp", "omnetpp", "milc", "milc", "milc", "milc", "milc", "soplex",
            "soplex", "mcf", "mcf"}},
};

const char *tracegen_pattern_name(enum tracegen_pattern p)
{
    switch (p) {
    case TG_STREAM: return "stream";
    case TG_STRIDE: return "stride";
    case TG_RANDOM: return "random";
    case TG_CHASE: return "chase";
    }
    return "?";
}

const struct tracegen_profile *tracegen_profiles(size_t *n)
{
    *n = sizeof tg_profiles / sizeof tg_profiles[0];
    return tg_profiles;
}

const struct tracegen_profile *tracegen_find(const char *name)
{
    if (strcmp(name, "cactusADM") == 0)
        name = "cactus";
    for (size_t i = 0; i < sizeof tg_profiles / sizeof tg_profiles[0]; i++)
        if (strcmp(tg_profiles[i].name, name) == 0)
            return &tg_profiles[i];
    return NULL;
}

const struct tracegen_mix *tracegen_mixes(size_t *n)
{
    *n = sizeof tg_mixes / sizeof tg_mixes[0];
    return tg_mixes;
}

const struct tracegen_mix *tracegen_find_mix(const char *name)
{
    for (size_t i = 0; i < sizeof tg_mixes / sizeof tg_mixes[0]; i++)
        if (strcmp(tg_mixes[i].name, name) == 0)
            return &tg_mixes[i];
    return NULL;
}

/* ---- generator ---- */

enum tg_slot_kind { SK_ALU = 0, SK_BRANCH, SK_LOAD, SK_STORE };
enum tg_br_kind { BK_TAKEN = 0, BK_NOT_TAKEN, BK_LOOP, BK_RANDOM };

struct tg_slot {
    uint8_t kind, br, warm;    /* warm: a load/store slot of the warm region */
    uint8_t dst, s1, s2;
};

struct tracegen {
    const struct tracegen_profile *p;
    uint64_t seed;
    struct tg_slot body[TG_BODY];
    /* dynamic state */
    uint64_t rng;
    uint64_t n;                /* records produced */
    uint32_t slot;
    uint64_t iter;             /* body iterations */
    double credit, rate;       /* cold accesses owed, added per instruction */
    uint32_t per_line, in_line;   /* stream: accesses per line, accesses made to the current one */
    uint64_t cold_pos;         /* offset of the next cold access in the footprint */
    uint64_t cold_bytes;
    uint64_t prologue;
};

static uint64_t tg_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint32_t tg_below(uint64_t *s, uint32_t n)
{
    return (uint32_t)(tg_splitmix(s) % n);
}

static uint8_t tg_reg(uint64_t *s)
{
    return (uint8_t)(1 + tg_below(s, TG_NREGS));
}

/* The static code: one body drawn from the seed. */
static void tg_layout(struct tracegen *g)
{
    /* the profile's name enters the layout, so that profiles differ under one seed */
    uint64_t s = g->seed ^ 0x5eedc0de5eedc0deULL;
    for (const char *q = g->p->name; *q; q++)
        s = (s ^ (uint8_t)*q) * 0x100000001b3ULL;
    for (uint32_t i = 0; i < TG_BODY; i++) {
        struct tg_slot *t = &g->body[i];
        uint32_t d = tg_below(&s, 100);
        t->kind = d < 14 ? SK_BRANCH : d < 38 ? SK_LOAD : d < 48 ? SK_STORE : SK_ALU;
        t->dst = tg_reg(&s);
        t->s1 = tg_reg(&s);
        t->s2 = tg_below(&s, 2) ? tg_reg(&s) : 0;
        t->warm = (t->kind == SK_LOAD || t->kind == SK_STORE) && tg_below(&s, 100) < TG_WARM_PCT;
        if (t->kind == SK_BRANCH) {
            uint32_t b = tg_below(&s, 100);
            t->br = b < g->p->branch_random ? BK_RANDOM : b < 60 ? BK_TAKEN : b < 85 ? BK_NOT_TAKEN : BK_LOOP;
        }
    }
    g->body[TG_BODY - 1].kind = SK_BRANCH;   /* the loop's back edge */
    g->body[TG_BODY - 1].br = BK_TAKEN;
}

void tracegen_reset(struct tracegen *g)
{
    g->rng = g->seed;
    g->n = 0;
    g->slot = 0;
    g->iter = 0;
    g->credit = 0;
    g->in_line = 0;
    g->cold_pos = 0;
}

struct tracegen *tracegen_new(struct arena *a, const struct tracegen_profile *p, uint64_t seed)
{
    struct tracegen *g = arena_alloc(a, sizeof *g);
    SIM_ASSERT(g);
    g->p = p;
    g->seed = seed;
    tg_layout(g);
    g->cold_bytes = (uint64_t)p->footprint_mb << 20;
    g->per_line = 1;
    double miss_rate = p->mpki / 1000.0 * p->cal;
    if (p->pattern == TG_STREAM) {
        while (g->per_line < TG_LINE / 8 && miss_rate * (g->per_line * 2) <= TG_MAX_COLD_SHARE)
            g->per_line *= 2;
    }
    g->rate = miss_rate * g->per_line;
    g->prologue = (TG_HOT_BYTES + TG_WARM_BYTES) / TG_LINE;
    tracegen_reset(g);
    return g;
}

uint64_t tracegen_prologue(const struct tracegen *g) { return g->prologue; }

/* The next address of the footprint region. */
static uint64_t tg_cold_addr(struct tracegen *g)
{
    uint64_t lines = g->cold_bytes / TG_LINE;
    switch (g->p->pattern) {
    case TG_STREAM: {
        uint64_t a = g->cold_pos;
        if (++g->in_line == g->per_line) {
            g->in_line = 0;
            g->cold_pos = (g->cold_pos / TG_LINE + 1) % lines * TG_LINE;
        } else {
            g->cold_pos += TG_LINE / g->per_line;
        }
        return TG_COLD_BASE + a;
    }
    case TG_STRIDE: {
        /* a power-of-two number of lines and an odd stride: every line once per sweep */
        uint64_t a = g->cold_pos;
        g->cold_pos = (g->cold_pos / TG_LINE + TG_STRIDE_LINES) % lines * TG_LINE;
        return TG_COLD_BASE + a;
    }
    default:
        return TG_COLD_BASE + tg_splitmix(&g->rng) % lines * TG_LINE + 8 * tg_below(&g->rng, TG_LINE / 8);
    }
}

static uint64_t tg_region_addr(struct tracegen *g, bool warm)
{
    uint32_t bytes = warm ? TG_WARM_BYTES : TG_HOT_BYTES;
    return (warm ? TG_WARM_BASE : TG_HOT_BASE) + 8ull * tg_below(&g->rng, bytes / 8);
}

void tracegen_next(struct tracegen *g, struct trace_rec *r)
{
    memset(r, 0, sizeof *r);
    if (g->n < g->prologue) {
        /* touch every hot and warm line once: independent loads */
        uint64_t k = g->n++;
        uint64_t hot_lines = TG_HOT_BYTES / TG_LINE;
        r->ip = TG_CODE_BASE - 0x1000 + 4 * (k % 16);
        r->dst_regs[0] = (uint8_t)(1 + k % TG_NREGS);
        r->src_mem[0] = k < hot_lines ? TG_HOT_BASE + k * TG_LINE : TG_WARM_BASE + (k - hot_lines) * TG_LINE;
        return;
    }
    g->n++;
    const struct tg_slot *t = &g->body[g->slot];
    r->ip = TG_CODE_BASE + 4ull * g->slot;
    g->credit += g->rate;
    bool chase = g->p->pattern == TG_CHASE;
    switch (t->kind) {
    case SK_ALU:
        r->dst_regs[0] = t->dst;
        r->src_regs[0] = t->s1;
        r->src_regs[1] = t->s2;
        break;
    case SK_BRANCH: {
        r->is_branch = 1;
        r->src_regs[0] = t->s1;
        bool taken;
        if (t->br == BK_RANDOM)
            taken = tg_below(&g->rng, 2) != 0;
        else if (t->br == BK_LOOP)
            taken = g->iter % 16 != 15;
        else
            taken = t->br == BK_TAKEN;
        r->branch_taken = taken;
        break;
    }
    case SK_LOAD:
    case SK_STORE: {
        bool cold = g->credit >= 1.0;
        uint64_t addr;
        if (cold) {
            g->credit -= 1.0;
            addr = tg_cold_addr(g);
        } else {
            addr = tg_region_addr(g, t->warm != 0);
        }
        uint8_t areg = cold && chase ? TG_REG_CHASE : t->s1;
        if (t->kind == SK_LOAD) {
            r->src_mem[0] = addr;
            r->src_regs[0] = areg;
            r->dst_regs[0] = cold && chase ? TG_REG_CHASE : t->dst;
        } else {
            r->dst_mem[0] = addr;
            r->src_regs[0] = areg;
            r->src_regs[1] = t->s2;
        }
        break;
    }
    }
    if (++g->slot == TG_BODY) {
        g->slot = 0;
        g->iter++;
    }
}

/* ---- as an instruction source ---- */
struct tg_src {
    struct tracegen *g;
    uint64_t n, pos;
};

static int tg_src_next(void *ctx, struct trace_rec *r)
{
    struct tg_src *s = ctx;
    if (s->pos >= s->n)
        return 0;
    s->pos++;
    tracegen_next(s->g, r);
    return 1;
}

static int tg_src_rewind(void *ctx)
{
    struct tg_src *s = ctx;
    s->pos = 0;
    tracegen_reset(s->g);
    return 0;
}

static const char *tg_src_error(void *ctx)
{
    (void)ctx;
    return "";
}

struct cpu_src *tracegen_src(struct arena *a, struct tracegen *g, uint64_t n)
{
    struct tg_src *st = arena_alloc(a, sizeof *st);
    struct cpu_src *s = arena_alloc(a, sizeof *s);
    SIM_ASSERT(st && s);
    st->g = g;
    st->n = n;
    *s = (struct cpu_src){st, tg_src_next, tg_src_rewind, tg_src_error};
    return s;
}

int tracegen_write(const struct tracegen_profile *p, uint64_t seed, uint64_t n, const char *path, char *err,
                   size_t errn)
{
    struct arena *a = arena_new(0);
    if (!a) {
        snprintf(err, errn, "%s: out of memory", path);
        return -1;
    }
    struct tracegen *g = tracegen_new(a, p, seed);
    struct trace_writer *w = trace_create(path, err, errn);
    if (!w) {
        arena_free(a);
        return -1;
    }
    struct trace_rec r;
    for (uint64_t i = 0; i < n; i++) {
        tracegen_next(g, &r);
        if (trace_write(w, &r) != 0)
            break;   /* trace_finish reports the writer's first error */
    }
    arena_free(a);
    return trace_finish(w, err, errn);
}

uint64_t tracegen_default_warmup(uint64_t n)
{
    return n / 5;
}

int tracegen_measure(const struct tracegen_profile *p, uint64_t seed, uint64_t n, uint64_t warmup,
                     struct cpu_core_summary *out, char *err, size_t errn)
{
    struct arena *a = arena_new(0);
    if (!a) {
        snprintf(err, errn, "out of memory");
        return -1;
    }
    if (warmup == UINT64_MAX)
        warmup = tracegen_default_warmup(n);
    struct cpu_core_params cp;
    cpu_core_params_default(&cp);
    struct cpu_mem_fixed_params mp;
    cpu_mem_fixed_params_default(&mp);
    struct mem_req_pool pool;
    int rc = -1;
    if (mem_req_pool_init(&pool, a, 256) == 0) {
        struct tracegen *g = tracegen_new(a, p, seed);
        struct cpu_core *c = cpu_core_new(a, &cp, tracegen_src(a, g, n), &pool, err, errn);
        if (c)
            rc = cpu_run_fixed(c, cpu_mem_fixed_new(a, &mp, &pool), warmup, 0, out, err, errn);
    } else {
        snprintf(err, errn, "out of memory");
    }
    arena_free(a);
    return rc;
}
