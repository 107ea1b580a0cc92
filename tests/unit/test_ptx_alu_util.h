/*
 * test_ptx_alu_util.h - helpers for the ALU unit tests: build a struct
 * ptx_insn by hand, run it over 32 lanes, and check that a partial mask gives
 * the same results on active lanes and leaves inactive lanes untouched.
 */
#ifndef WARPSIM_TEST_PTX_ALU_UTIL_H
#define WARPSIM_TEST_PTX_ALU_UTIL_H

#include "test.h"
#include "fe/ptx/ptx_alu.h"

#define W PTX_WARP_SIZE
#define SENTINEL UINT64_C(0xA5A5A5A5DEADBEEF)
#define PARTIAL_MASK 0x80F00F31u

static inline struct ptx_insn mk(unsigned op, unsigned type)
{
    struct ptx_insn in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.type = (uint8_t)type;
    in.guard = -1;
    in.call = -1;
    return in;
}

static inline uint64_t fb(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float bf(uint64_t v) { uint32_t u = (uint32_t)v; float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t db(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline double bd(uint64_t v) { double f; memcpy(&f, &v, 8); return f; }

/* Full result of one run over per-lane sources. */
struct alu_run {
    int rc;
    uint64_t d[W], d2[W], cc[W];
};

/* Run `in` on lanes (mask) with sources s[k][lane] (NULL = operand absent),
   d/d2/cc pre-filled with SENTINEL, carry input cc_in (NULL = zeros). */
static inline struct alu_run alu_run_lanes(const struct ptx_insn *in, uint32_t mask,
                                           const uint64_t *const s[4], const uint64_t *cc_in)
{
    struct alu_run r;
    for (int i = 0; i < W; i++) {
        r.d[i] = SENTINEL;
        r.d2[i] = SENTINEL;
        r.cc[i] = cc_in ? cc_in[i] : 0;
    }
    struct ptx_alu_args a = {
        .mask = mask, .d = r.d, .d2 = in->has_d2 ? r.d2 : NULL,
        .s = {s[0], s[1], s[2], s[3]}, .cc = r.cc,
    };
    r.rc = ptx_alu_exec(in, &a);
    return r;
}

/* Evaluate with every lane holding the same operands: checks support at load
   time, all 32 lanes agreeing, and that a partial mask writes exactly the
   active lanes with the same values.  Returns lane 0 of d (and *d2 if set). */
static inline uint64_t ev_(const struct ptx_insn *in, int nsrc, uint64_t a, uint64_t b, uint64_t c,
                           uint64_t e, uint64_t *d2, int line)
{
    uint64_t src[4][W];
    uint64_t v[4] = {a, b, c, e};
    const uint64_t *s[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; k++) {
        for (int i = 0; i < W; i++)
            src[k][i] = v[k];
        if (k < nsrc)
            s[k] = src[k];
    }
    char why[256];
    if (ptx_alu_supported(in, why, sizeof why) != 0) {
        fprintf(stderr, "  line %d: rejected: %s\n", line, why);
        test_failed_now_ = 1;
    }
    struct alu_run full = alu_run_lanes(in, 0xFFFFFFFFu, s, NULL);
    if (full.rc != 0) {
        fprintf(stderr, "  line %d: exec returned %d\n", line, full.rc);
        test_failed_now_ = 1;
        return SENTINEL;
    }
    struct alu_run part = alu_run_lanes(in, PARTIAL_MASK, s, NULL);
    for (int i = 0; i < W; i++) {
        bool on = (PARTIAL_MASK >> i) & 1u;
        if (full.d[i] != full.d[0] || part.d[i] != (on ? full.d[0] : SENTINEL) ||
            (in->has_d2 && part.d2[i] != (on ? full.d2[0] : SENTINEL))) {
            fprintf(stderr, "  line %d: lane %d mismatch (full 0x%" PRIx64 " part 0x%" PRIx64 ")\n",
                    line, i, full.d[i], part.d[i]);
            test_failed_now_ = 1;
            break;
        }
    }
    if (d2)
        *d2 = full.d2[0];
    return full.d[0];
}

#define EV1(in, a) ev_(&(in), 1, (a), 0, 0, 0, NULL, __LINE__)
#define EV2(in, a, b) ev_(&(in), 2, (a), (b), 0, 0, NULL, __LINE__)
#define EV3(in, a, b, c) ev_(&(in), 3, (a), (b), (c), 0, NULL, __LINE__)
#define EV4(in, a, b, c, e) ev_(&(in), 4, (a), (b), (c), (e), NULL, __LINE__)

/* deterministic pseudo-random 64-bit values (splitmix64) */
static inline uint64_t rnd64(uint64_t *st)
{
    uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* expect rejection by ptx_alu_supported with a non-empty reason */
#define CHECK_REJECT(in)                                                                  \
    do {                                                                                  \
        char why_[256] = "";                                                              \
        int rc_ = ptx_alu_supported(&(in), why_, sizeof why_);                            \
        if (rc_ != -1 || why_[0] == '\0')                                                 \
            T_FAIL_("expected rejection (rc %d, reason \"%s\")", rc_, why_);              \
    } while (0)

#endif
