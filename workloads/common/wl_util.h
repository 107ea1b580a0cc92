/*
 * wl_util.h - helpers for host drivers: deterministic random numbers, API
 * error propagation and result checking.
 */
#ifndef WARPSIM_WL_UTIL_H
#define WARPSIM_WL_UTIL_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "../workload.h"

/* splitmix64: small, fast, identical on every platform */
struct wl_rng { uint64_t s; };
static inline void wl_rng_seed(struct wl_rng *r, uint64_t seed) { r->s = seed ^ 0x9E3779B97F4A7C15ull; }
static inline uint64_t wl_rng_u64(struct wl_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
static inline uint32_t wl_rng_u32(struct wl_rng *r) { return (uint32_t)(wl_rng_u64(r) >> 32); }
/* uniform integer in [0, n) */
static inline uint32_t wl_rng_below(struct wl_rng *r, uint32_t n) { return n ? (uint32_t)(((wl_rng_u64(r) >> 32) * n) >> 32) : 0; }
/* uniform float in [lo, hi) */
static inline float wl_rng_float(struct wl_rng *r, float lo, float hi)
{
    return lo + (hi - lo) * (float)((double)(wl_rng_u64(r) >> 40) / (double)(1ull << 24));
}

/* Propagate API errors: WL_TRY(wsMalloc(ctx, &p, n)); */
#define WL_TRY(call) do { ws_status wl_st_ = (call); if (wl_st_ != WS_SUCCESS) return wl_st_; } while (0)

/* Pick a value by size. */
#define WL_BY_SIZE(o, tiny, small, paper) ((o)->size == WL_TINY ? (tiny) : (o)->size == WL_SMALL ? (small) : (paper))

/* Compare arrays.  The runner sets r->verified = 1 before calling a driver; a
   mismatch clears it and records the first mismatch in r->detail (later checks
   never overwrite an earlier failure).  Returns 1 if equal. */
int wl_check_i32(struct wl_result *r, const char *what, const int32_t *got, const int32_t *want, size_t n);
int wl_check_u32(struct wl_result *r, const char *what, const uint32_t *got, const uint32_t *want, size_t n);
/* |got - want| <= abs_tol + rel_tol * |want| element-wise; NaN never matches */
int wl_check_f32(struct wl_result *r, const char *what, const float *got, const float *want, size_t n,
                 double rel_tol, double abs_tol);
int wl_check_f64(struct wl_result *r, const char *what, const double *got, const double *want, size_t n,
                 double rel_tol, double abs_tol);

/* Allocate n bytes on the device and copy host data there (src may be NULL: zero-fill). */
ws_status wl_upload(ws_ctx *ctx, ws_devptr *dst, const void *src, size_t n);

/* The level-synchronous loop of the graph workloads: each round clears the
   device flag d_flag (an int32 the kernels set to 1 while work remains), then
   launches kernel ka and kernel kb over grid x block; the loop ends after a
   round that left the flag 0, or after max_rounds + 1 rounds (a correct run
   needs fewer: each round settles at least one element).  *rounds counts the
   rounds, r->launches the launches. */
ws_status wl_rounds_until_done(ws_ctx *ctx, ws_module *mod, ws_devptr d_flag, const char *ka, void **args_a,
                               const char *kb, void **args_b, ws_dim3 grid, ws_dim3 block, size_t max_rounds,
                               int32_t *rounds, struct wl_result *r);

/* Checked host allocation: aborts with a message on out-of-memory. */
void *wl_alloc(size_t n);

#endif
