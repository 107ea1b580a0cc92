/* test_ptx_slice.c - address pre-computation (fe/ptx/ptx_slice.h): which
   accesses of real nvcc kernels are sliced and why not, addresses of chosen
   threads, row pitches and the access rectangles of known CTAs (worked out by
   hand from the CUDA source), warp footprints. */
#include <stdio.h>
#include <string.h>

#include "fe/ptx/ptx_ir.h"
#include "fe/ptx/ptx_slice.h"
#include "fe/ptx/ptx_exec.h"
#include "policy/cta_sched.h"
#include "sys/gpu_int.h"
#include "test.h"

#ifndef WARPSIM_SOURCE_DIR
#define WARPSIM_SOURCE_DIR "."
#endif

#define A0 0x10000000000ull   /* device addresses of three arrays (line aligned) */
#define A1 0x10000100000ull
#define A2 0x10000200000ull

static struct ptx_module *load(const char *wl)
{
    char path[512];
    snprintf(path, sizeof path, "%s/workloads/%s/%s.ptx", WARPSIM_SOURCE_DIR, wl, wl);
    struct ptx_error e;
    struct ptx_module *m = ptx_parse_file(path, &e);
    if (!m) {
        char buf[1024];
        ptx_error_format(&e, buf, sizeof buf);
        fprintf(stderr, "  %s\n", buf);
    }
    return m;
}

static struct ptx_module *parse_text(const char *body)
{
    char src[8192];
    snprintf(src, sizeof src,
             ".version 9.0\n.target sm_75\n.address_size 64\n"
             ".visible .entry k(.param .u64 k_p0, .param .u32 k_p1)\n{\n"
             ".reg .pred %%p<4>;\n.reg .b32 %%r<12>;\n.reg .b64 %%rd<12>;\n%s}\n",
             body);
    struct ptx_error e;
    struct ptx_module *m = ptx_parse(src, strlen(src), "slice.ptx", &e);
    if (!m) {
        char buf[1024];
        ptx_error_format(&e, buf, sizeof buf);
        fprintf(stderr, "  %s\n", buf);
    }
    return m;
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void env_dims(struct ptx_slice_env *env, uint32_t gx, uint32_t gy, uint32_t bx, uint32_t by)
{
    env->nctaid[0] = gx;
    env->nctaid[1] = gy;
    env->nctaid[2] = 1;
    env->ntid[0] = bx;
    env->ntid[1] = by;
    env->ntid[2] = 1;
}

#define CHECK_RECT(r, X, Y, W, H)   \
    do {                            \
        CHECK_EQ_INT((r).x, X);     \
        CHECK_EQ_INT((r).y, Y);     \
        CHECK_EQ_INT((r).w, W);     \
        CHECK_EQ_INT((r).h, H);     \
    } while (0)

static struct loc_rect to_loc(struct ptx_slice_rect r) { return (struct loc_rect){r.x, r.y, r.w, r.h}; }

/* mm_tiled: C[row * n + col] (the store after the k loop) is sliced; the loads
   of A and B walk with the loop (pointer / index bumped each iteration). */
TEST(mm_slices_and_c_rectangles)
{
    struct ptx_module *m = load("mm");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, ptx_find_func(m, "mm_tiled"), 0, msg, sizeof msg);
    REQUIRE(s);
    REQUIRE(s->naccess == 3);
    CHECK_EQ_INT(s->acc[0].status, PTX_SLICE_MULTIDEF);
    CHECK(strstr(s->acc[0].why, "loop-carried %rd15") != NULL);
    CHECK_EQ_INT(s->acc[0].is_store, 0);
    CHECK_EQ_INT(s->acc[1].status, PTX_SLICE_MULTIDEF);
    CHECK(strstr(s->acc[1].why, "loop-carried %r36") != NULL);
    CHECK_EQ_INT(s->acc[2].status, PTX_SLICE_OK);
    CHECK_EQ_INT(s->acc[2].is_store, 1);
    CHECK_EQ_INT(s->acc[2].bytes, 4);
    REQUIRE(s->narrays == 1);
    CHECK_EQ_INT(s->arrays[0].param, 2);
    CHECK_EQ_STR(s->arrays[0].name, "mm_tiled_param_2");

    /* m = 64, n = 128, k = 64: grid 8 x 4 of 16 x 16 */
    uint8_t params[36] = {0};
    put_u64(params + 0, A0);
    put_u64(params + 8, A1);
    put_u64(params + 16, A2);
    put_u32(params + 24, 64);
    put_u32(params + 28, 128);
    put_u32(params + 32, 64);
    struct ptx_slice_env env = {params, sizeof params, {0}, {0}};
    env_dims(&env, 8, 4, 16, 16);
    /* thread (3,5) of block (1,2): row 37, col 19 */
    uint32_t cta[1][3] = {{1, 2, 0}}, tid[1][3] = {{3, 5, 0}};
    uint64_t ad[1];
    REQUIRE(ptx_slice_eval(s, 2, &env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 1, ad) == 0);
    CHECK_EQ_U64(ad[0], A2 + 4 * (37 * 128 + 19));
    CHECK(ptx_slice_eval(s, 0, &env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 1, ad) != 0);

    struct ptx_slice_layout lay[1];
    REQUIRE(ptx_slice_layout(s, &env, 128, lay) == 0);
    CHECK_EQ_U64(lay[0].base, A2);
    CHECK_EQ_U64(lay[0].pitch, 512);   /* a row of C: 128 floats */
    /* block (x,y) covers rows 16y..16y+15 and bytes 64x..64x+63 of them: line x/2 */
    struct ptx_slice_rect r16[1], r17[1], r18[1];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 16, r16) == 0);   /* block (0,2) */
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 17, r17) == 0);   /* block (1,2) */
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 18, r18) == 0);   /* block (2,2) */
    CHECK_RECT(r16[0], 0, 32, 1, 16);
    CHECK_RECT(r17[0], 0, 32, 1, 16);
    CHECK_RECT(r18[0], 1, 32, 1, 16);
    struct loc_rect a = to_loc(r16[0]), b = to_loc(r17[0]), c = to_loc(r18[0]);
    CHECK_EQ_INT(loc_overlap(&a, &b), 16);   /* the two halves of the same 16 lines */
    CHECK_EQ_INT(loc_overlap(&b, &c), 0);
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* The loop_entry extension: mm's A and B loads are sliced for the first k tile, so CTAs of one block
   row share A's lines and CTAs of one block column share B's (003 fig. 2.2's row / column sharing). */
TEST(mm_loop_entry_slices_the_first_tile)
{
    struct ptx_module *m = load("mm");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, ptx_find_func(m, "mm_tiled"), PTX_SLICE_LOOP_ENTRY, msg, sizeof msg);
    REQUIRE(s);
    REQUIRE(s->naccess == 3);
    for (uint32_t k = 0; k < 3; k++)
        CHECK_EQ_INT(s->acc[k].status, PTX_SLICE_OK);
    CHECK_EQ_INT(s->acc[0].loop_entry, 1);
    CHECK(strstr(s->acc[0].why, "first iteration: loop-carried %rd15") != NULL);
    CHECK_EQ_INT(s->acc[1].loop_entry, 1);
    CHECK_EQ_INT(s->acc[2].loop_entry, 0);
    REQUIRE(s->narrays == 3);
    CHECK_EQ_INT(s->arrays[0].param, 0);
    CHECK_EQ_INT(s->arrays[1].param, 1);
    CHECK_EQ_INT(s->arrays[2].param, 2);
    uint8_t params[36] = {0};
    put_u64(params + 0, A0);
    put_u64(params + 8, A1);
    put_u64(params + 16, A2);
    put_u32(params + 24, 64);
    put_u32(params + 28, 128);
    put_u32(params + 32, 64);
    struct ptx_slice_env env = {params, sizeof params, {0}, {0}};
    env_dims(&env, 8, 4, 16, 16);
    struct ptx_slice_layout lay[3];
    REQUIRE(ptx_slice_layout(s, &env, 128, lay) == 0);
    CHECK_EQ_U64(lay[0].pitch, 64 * 4);    /* A is m x k */
    CHECK_EQ_U64(lay[1].pitch, 128 * 4);   /* B is k x n */
    /* block (1,2): A rows 32..47, columns 0..15 (line 0); B rows 0..15, columns 16..31 (line 0) */
    struct ptx_slice_rect r17[3], r21[3], r1[3];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 17, r17) == 0);
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 21, r21) == 0);   /* block (5,2): same block row */
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 1, r1) == 0);     /* block (1,0): same block column */
    CHECK_RECT(r17[0], 0, 32, 1, 16);
    CHECK_RECT(r17[1], 0, 0, 1, 16);
    CHECK_RECT(r21[0], 0, 32, 1, 16);
    CHECK_RECT(r21[1], 2, 0, 1, 16);   /* B columns 80..95: bytes 320..383 -> line 2 */
    CHECK_RECT(r1[0], 0, 0, 1, 16);    /* A rows 0..15 */
    CHECK_RECT(r1[1], 0, 0, 1, 16);
    struct loc_rect a17 = to_loc(r17[0]), a21 = to_loc(r21[0]), b17 = to_loc(r17[1]), b1 = to_loc(r1[1]);
    struct loc_rect b21 = to_loc(r21[1]), a1 = to_loc(r1[0]);
    CHECK_EQ_INT(loc_overlap(&a17, &a21), 16);
    CHECK_EQ_INT(loc_overlap(&b17, &b1), 16);
    CHECK_EQ_INT(loc_overlap(&b17, &b21), 0);
    CHECK_EQ_INT(loc_overlap(&a17, &a1), 0);
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* transpose_naive: in[y * cols + x] rows follow y, out[x * rows + y] rows follow x. */
TEST(transpose_rectangles_follow_each_arrays_rows)
{
    struct ptx_module *m = load("transpose");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, ptx_find_func(m, "transpose_naive"), 0, msg, sizeof msg);
    REQUIRE(s);
    REQUIRE(s->naccess == 2);
    CHECK_EQ_INT(s->acc[0].status, PTX_SLICE_OK);
    CHECK_EQ_INT(s->acc[1].status, PTX_SLICE_OK);
    REQUIRE(s->narrays == 2);
    CHECK_EQ_INT(s->arrays[0].param, 1);   /* in: the load comes first */
    CHECK_EQ_INT(s->arrays[1].param, 0);   /* out */
    /* rows = 64, cols = 96: grid 6 x 4 of 16 x 16 */
    uint8_t params[24] = {0};
    put_u64(params + 0, A0);
    put_u64(params + 8, A1);
    put_u32(params + 16, 64);
    put_u32(params + 20, 96);
    struct ptx_slice_env env = {params, sizeof params, {0}, {0}};
    env_dims(&env, 6, 4, 16, 16);
    struct ptx_slice_layout lay[2];
    REQUIRE(ptx_slice_layout(s, &env, 128, lay) == 0);
    CHECK_EQ_U64(lay[0].base, A1);
    CHECK_EQ_U64(lay[0].pitch, 96 * 4);
    CHECK_EQ_U64(lay[1].base, A0);
    CHECK_EQ_U64(lay[1].pitch, 64 * 4);
    /* block (2,1) = CTA 8: x = 32..47, y = 16..31.
       in: rows 16..31, bytes 128..191 -> line 1; out: rows 32..47, bytes 64..127 -> line 0 */
    struct ptx_slice_rect r[2];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 8, r) == 0);
    CHECK_RECT(r[0], 1, 16, 1, 16);
    CHECK_RECT(r[1], 0, 32, 1, 16);
    /* block (3,1) = CTA 9: in rows 16..31, bytes 192..255 -> line 1 (the line block (2,1) reads);
       out rows 48..63, line 0.  Block (2,2) = CTA 14: in rows 32..47 and out rows 32..47, both line 1 */
    struct ptx_slice_rect r9[2], r14[2];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 9, r9) == 0);
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 14, r14) == 0);
    CHECK_RECT(r9[0], 1, 16, 1, 16);
    CHECK_RECT(r9[1], 0, 48, 1, 16);
    CHECK_RECT(r14[0], 1, 32, 1, 16);
    CHECK_RECT(r14[1], 1, 32, 1, 16);
    struct loc_rect a = to_loc(r[0]), b = to_loc(r9[0]);
    CHECK_EQ_INT(loc_overlap(&a, &b), 16);
    /* warp 0 of CTA 8: threads (0..15, 0..1).  out: rows 32..47 at byte 64/68 -> 16 lines (0, 32..47);
       in: rows 16, 17 at bytes 128..188 -> lines (1,16), (1,17) */
    int64_t xs[64], ys[64];
    int np = ptx_slice_warp_points(s, &env, lay, 8, 0, 1, xs, ys, 64);
    REQUIRE(np == 16);
    for (int i = 0; i < 16; i++) {
        CHECK_EQ_INT(xs[i], 0);
        CHECK_EQ_INT(ys[i], 32 + i);
    }
    np = ptx_slice_warp_points(s, &env, lay, 8, 0, 0, xs, ys, 64);
    REQUIRE(np == 2);
    CHECK_EQ_INT(xs[0], 1);
    CHECK_EQ_INT(ys[0], 16);
    CHECK_EQ_INT(xs[1], 1);
    CHECK_EQ_INT(ys[1], 17);
    /* capped: the smallest points in (y, x) order */
    np = ptx_slice_warp_points(s, &env, lay, 8, 0, 1, xs, ys, 3);
    REQUIRE(np == 3);
    CHECK_EQ_INT(ys[2], 34);
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* hotspot_pyramid: tiles overlap by `border` cells (the halo), starting left of and above the chip. */
TEST(hotspot_halo_tiles_overlap)
{
    struct ptx_module *m = load("hotspot");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, ptx_find_func(m, "hotspot_pyramid"), 0, msg, sizeof msg);
    REQUIRE(s);
    REQUIRE(s->naccess == 3);
    for (uint32_t k = 0; k < 3; k++)
        CHECK_EQ_INT(s->acc[k].status, PTX_SLICE_OK);
    REQUIRE(s->narrays == 3);
    CHECK_EQ_INT(s->arrays[0].param, 1);   /* temp_src */
    CHECK_EQ_INT(s->arrays[1].param, 0);   /* power */
    CHECK_EQ_INT(s->arrays[2].param, 2);   /* temp_dst */
    /* cols = rows = 64, iters = 1, border = 1: inner 14, grid 5 x 5 */
    uint8_t params[60] = {0};
    put_u64(params + 0, A0);
    put_u64(params + 8, A1);
    put_u64(params + 16, A2);
    put_u32(params + 24, 64);
    put_u32(params + 28, 64);
    put_u32(params + 32, 1);
    put_u32(params + 36, 1);
    struct ptx_slice_env env = {params, sizeof params, {0}, {0}};
    env_dims(&env, 5, 5, 16, 16);
    struct ptx_slice_layout lay[3];
    REQUIRE(ptx_slice_layout(s, &env, 128, lay) == 0);
    for (int a = 0; a < 3; a++)
        CHECK_EQ_U64(lay[a].pitch, 256);
    /* thread (0,0) of block (1,1): cell (13, 13) */
    uint32_t cta[1][3] = {{1, 1, 0}}, tid[1][3] = {{0, 0, 0}};
    uint64_t ad[1];
    REQUIRE(ptx_slice_eval(s, 0, &env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 1, ad) == 0);
    CHECK_EQ_U64(ad[0], A1 + 4 * (13 * 64 + 13));
    /* block (1,1) = CTA 6: cells 13..28 in both directions -> bytes 52..112 -> line 0, rows 13..28;
       block (2,1) = CTA 7: columns 27..42 -> bytes 108..168 -> lines 0..1 */
    struct ptx_slice_rect r6[3], r7[3], r0[3];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 6, r6) == 0);
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 7, r7) == 0);
    CHECK_RECT(r6[0], 0, 13, 1, 16);
    CHECK_RECT(r7[0], 0, 13, 2, 16);
    CHECK_RECT(r7[2], 0, 13, 2, 16);
    struct loc_rect a = to_loc(r6[0]), b = to_loc(r7[0]);
    CHECK_EQ_INT(loc_overlap(&a, &b), 16);
    /* block (0,0): its first thread is cell (-1,-1), element -65 of the flattened array: the row
       above's line 1 (bytes -260 = row -2 + 252) */
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 0, r0) == 0);
    CHECK_EQ_INT(r0[0].y, -2);
    CHECK_EQ_INT(r0[0].h, 17);   /* rows -2 .. 14 */
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* bfs_expand: the neighbour gathers read an index from memory first. */
TEST(bfs_gathers_are_not_sliceable)
{
    struct ptx_module *m = load("bfs");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, ptx_find_func(m, "bfs_expand"), 0, msg, sizeof msg);
    REQUIRE(s);
    unsigned ok = 0, memory = 0, loop = 0;
    int gather = -1;
    for (uint32_t k = 0; k < s->naccess; k++) {
        ok += s->acc[k].status == PTX_SLICE_OK;
        memory += s->acc[k].status == PTX_SLICE_MEMORY;
        loop += s->acc[k].status == PTX_SLICE_MULTIDEF;
        if (gather < 0 && s->acc[k].status == PTX_SLICE_MEMORY)
            gather = (int)k;
    }
    CHECK_EQ_INT(s->naccess, 25);
    CHECK_EQ_INT(ok, 5);         /* the frontier flag, the row offsets and the cost of the node itself */
    CHECK_EQ_INT(memory, 15);    /* visited[], cost[], updating[] of each neighbour */
    CHECK_EQ_INT(loop, 5);       /* the edge-list walk */
    REQUIRE(gather >= 0);
    /* the first gather: visited[edges[i]], line 87, from the edge read at line 85 */
    CHECK_EQ_INT(s->acc[gather].line, 87);
    CHECK(strstr(s->acc[gather].why, "loaded from memory by ld.global (line 85)") != NULL);
    CHECK_EQ_INT(s->acc[gather].array, -1);
    char line[512];
    ptx_slice_describe(s, (uint32_t)gather, line, sizeof line);
    CHECK(strstr(line, "line 87: ld.global.u8") != NULL);
    CHECK(strstr(line, "not sliced") != NULL);
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* Hand-written cases: each reason, %laneid, and a direct global-variable-free pointer. */
TEST(unsliceable_reasons)
{
    struct ptx_module *m = parse_text(
        "ld.param.u64 %rd1, [k_p0];\n"
        "ld.param.u32 %r1, [k_p1];\n"
        "cvta.to.global.u64 %rd2, %rd1;\n"
        "mov.u32 %r2, %tid.x;\n"
        /* 0: depends on %clock */
        "mov.u32 %r3, %clock;\n"
        "mul.wide.u32 %rd3, %r3, 4;\n"
        "add.s64 %rd4, %rd2, %rd3;\n"
        "st.global.u32 [%rd4], %r1;\n"
        /* 1: a predicated definition */
        "setp.lt.u32 %p1, %r2, 16;\n"
        "mov.u32 %r4, 1;\n"
        "@%p1 mov.u32 %r4, 2;\n"
        "mul.wide.u32 %rd5, %r4, 4;\n"
        "add.s64 %rd6, %rd2, %rd5;\n"
        "st.global.u32 [%rd6], %r1;\n"
        /* 2: an if/else merge */
        "@%p1 bra $L1;\n"
        "mov.u32 %r5, 3;\n"
        "bra.uni $L2;\n"
        "$L1:\n"
        "mov.u32 %r5, 4;\n"
        "$L2:\n"
        "mul.wide.u32 %rd7, %r5, 4;\n"
        "add.s64 %rd8, %rd2, %rd7;\n"
        "st.global.u32 [%rd8], %r1;\n"
        /* 3: no base pointer */
        "mul.wide.u32 %rd9, %r2, 4;\n"
        "st.global.u32 [%rd9], %r1;\n"
        /* 4: %laneid, selp and an offset: base + 4 * laneid + 8, or + 12 for lanes >= 16 */
        "mov.u32 %r6, %laneid;\n"
        "setp.lt.u32 %p2, %r6, 16;\n"
        "selp.b32 %r7, 8, 12, %p2;\n"
        "mad.lo.s32 %r8, %r6, 4, %r7;\n"
        "cvt.u64.u32 %rd10, %r8;\n"
        "add.s64 %rd11, %rd2, %rd10;\n"
        "ld.global.u32 %r9, [%rd11+16];\n"
        "ret;\n");
    REQUIRE(m);
    char msg[256];
    struct ptx_slice_set *s = ptx_slice_build(m, 0, 0, msg, sizeof msg);
    REQUIRE(s);
    REQUIRE(s->naccess == 5);
    CHECK_EQ_INT(s->acc[0].status, PTX_SLICE_SREG);
    CHECK(strstr(s->acc[0].why, "%clock") != NULL);
    CHECK_EQ_INT(s->acc[1].status, PTX_SLICE_PREDICATED);
    CHECK(strstr(s->acc[1].why, "%r4") != NULL);
    CHECK_EQ_INT(s->acc[2].status, PTX_SLICE_MULTIDEF);
    CHECK(strstr(s->acc[2].why, "merged %r5") != NULL);
    CHECK_EQ_INT(s->acc[3].status, PTX_SLICE_NOBASE);
    CHECK_EQ_INT(s->acc[4].status, PTX_SLICE_OK);
    CHECK_EQ_INT(s->acc[4].array, 0);
    REQUIRE(s->narrays == 1);
    CHECK_EQ_INT(s->arrays[0].naccess, 1);
    uint8_t params[12] = {0};
    put_u64(params, A0);
    struct ptx_slice_env env = {params, sizeof params, {0}, {0}};
    env_dims(&env, 4, 1, 64, 1);
    /* threads 5 and 37 of a 64-thread block: lanes 5 -> +20+8, and 5 again; thread 52: lane 20 -> +80+12 */
    uint32_t cta[3][3] = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, tid[3][3] = {{5, 0, 0}, {37, 0, 0}, {52, 0, 0}};
    uint64_t ad[3];
    REQUIRE(ptx_slice_eval(s, 4, &env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 3, ad) == 0);
    CHECK_EQ_U64(ad[0], A0 + 20 + 8 + 16);
    CHECK_EQ_U64(ad[1], A0 + 20 + 8 + 16);
    CHECK_EQ_U64(ad[2], A0 + 80 + 12 + 16);
    /* 1D: pitch 0 (only x moves the address), rectangles are line ranges of height 1 */
    struct ptx_slice_layout lay[1];
    REQUIRE(ptx_slice_layout(s, &env, 128, lay) == 0);
    CHECK_EQ_U64(lay[0].pitch, 0);
    struct ptx_slice_rect r[1];
    REQUIRE(ptx_slice_cta_rects(s, &env, lay, 1, r) == 0);
    CHECK_RECT(r[0], 0, 0, 2, 1);   /* lane 0 at +24, lane 31 at +12+124+16 = 152 */
    /* a parameter buffer too short for the pointer */
    env.param_bytes = 4;
    CHECK(ptx_slice_eval(s, 4, &env, (const uint32_t(*)[3])cta, (const uint32_t(*)[3])tid, 1, ad) != 0);
    ptx_slice_free(s);
    ptx_module_free(m);
}

/* The GPU's locality table (gpu_locality_build) for kernel `func` of m on a gx x gy grid of bx x by
   blocks, with the `tiles` boxes when tiles. */
static struct cta_locality *loc_build(const struct ptx_module *m, const char *func, uint32_t gx, uint32_t gy,
                                      uint32_t bx, uint32_t by, const uint8_t *params, uint32_t nparams, bool tiles)
{
    static struct ptx_kinfo ki;
    static struct ptx_grid grid;
    memset(&ki, 0, sizeof ki);
    ki.func = ptx_find_func(m, func);
    if (ki.func < 0)
        return NULL;
    memset(&grid, 0, sizeof grid);
    grid.mod = m;
    grid.ki = &ki;
    grid.grid[0] = gx;
    grid.grid[1] = gy;
    grid.grid[2] = 1;
    grid.block[0] = bx;
    grid.block[1] = by;
    grid.block[2] = 1;
    grid.params = params;
    grid.param_bytes = nparams;
    grid.cta_warps = (bx * by + 31) / 32;
    char msg[256];
    return gpu_locality_build(&grid, 128, false, tiles, 0, msg, sizeof msg);
}

/* lud_internal reads two tiles of its one array and updates a third: the seed's one rectangle per
   array is their bounding box, the `tiles` extension keeps them apart (docs/studies.md, las
   ablation a).  n = 64, off = 0: grid 3 x 3 of 16 x 16, rows of 256 bytes = 2 lines of 32 floats.
   CTA (bx, by) reads rows 0..15 at column 16(bx+1), rows 16(by+1).. at column 0, and updates rows
   16(by+1).. at column 16(bx+1). */
TEST(lud_internal_tiles_are_separate_boxes)
{
    struct ptx_module *m = load("lud");
    REQUIRE(m);
    uint8_t params[16] = {0};
    put_u64(params + 0, A0);
    put_u32(params + 8, 64);
    put_u32(params + 12, 0);
    struct cta_locality *seed = loc_build(m, "lud_internal", 3, 3, 16, 16, params, sizeof params, false);
    struct cta_locality *tiles = loc_build(m, "lud_internal", 3, 3, 16, 16, params, sizeof params, true);
    REQUIRE(seed && tiles);
    REQUIRE(seed->narrays == 1 && tiles->narrays == 1);
    CHECK(seed->box == NULL);
    REQUIRE(tiles->box != NULL);
    /* CTA 4 = (1,1): rect rows 0..47, lines 0..1; boxes: the U tile (line 1, rows 0..15) and the L
       and own tiles side by side (lines 0..1, rows 32..47: one box, their union) */
    CHECK_RECT(seed->rect[4], 0, 0, 2, 48);
    REQUIRE(tiles->box_off != NULL);
    const struct loc_rect *b4 = &tiles->box[tiles->box_off[4]];
    CHECK_EQ_INT(tiles->box_off[5] - tiles->box_off[4], 2);
    CHECK_RECT(b4[0], 1, 0, 1, 16);
    CHECK_RECT(b4[1], 0, 32, 2, 16);
    /* CTA 0 = (0,0): all three tiles in line 0, rows 0..31 (the L and own tiles are the same lines) */
    const struct loc_rect *b0 = &tiles->box[tiles->box_off[0]];
    CHECK_EQ_INT(tiles->box_off[1] - tiles->box_off[0], 1);
    CHECK_RECT(b0[0], 0, 0, 1, 32);
    /* every other CTA keeps two boxes (the U tile and the L + own tiles; in the first block row the U
       and own tiles of CTAs 1 and 2 touch, so there they merge instead) */
    CHECK_EQ_INT(tiles->box_off[9], 1 + 8 * 2);
    /* (1,1) and (2,1) share the U tile's line and their L / own tiles' 32 lines; (1,1) and (0,0)
       share nothing, though their bounding boxes overlap in 32 lines */
    CHECK_EQ_U64(loc_cta_locality(tiles, 4, 5), 48);
    CHECK_EQ_U64(loc_cta_locality(seed, 4, 5), 96);
    CHECK_EQ_U64(loc_cta_locality(tiles, 4, 0), 0);
    CHECK_EQ_U64(loc_cta_locality(seed, 4, 0), 32);
    gpu_locality_free(seed);
    gpu_locality_free(tiles);
    ptx_module_free(m);
}

/* With tiles, a CTA's boxes on an array never reach beyond the seed's rectangle and together span
   it: the bounding box of every array's boxes is its rectangle.  The kernel reads p0, then p1, then
   writes p0 again (array ids 0 1 0), so each array's boxes must come from its own accesses only.
   One CTA of 32 threads, 1D: p0[tid] is line 0 of p0, p0[tid + 64] line 2, p1[tid + 1024] line 32
   of p1. */
TEST(tiles_boxes_span_each_arrays_rectangle)
{
    static const char src[] =
        ".version 9.0\n.target sm_75\n.address_size 64\n"
        ".visible .entry k2(.param .u64 k2_p0, .param .u64 k2_p1)\n{\n"
        ".reg .b32 %r<2>;\n.reg .b64 %rd<8>;\n.reg .f32 %f<4>;\n"
        "ld.param.u64 %rd1, [k2_p0];\nld.param.u64 %rd2, [k2_p1];\n"
        "cvta.to.global.u64 %rd3, %rd1;\ncvta.to.global.u64 %rd4, %rd2;\n"
        "mov.u32 %r1, %tid.x;\nmul.wide.u32 %rd5, %r1, 4;\n"
        "add.s64 %rd6, %rd3, %rd5;\nld.global.f32 %f1, [%rd6];\n"
        "add.s64 %rd7, %rd4, %rd5;\nld.global.f32 %f2, [%rd7+4096];\n"
        "add.f32 %f3, %f1, %f2;\nst.global.f32 [%rd6+256], %f3;\nret;\n}\n";
    struct ptx_error e;
    struct ptx_module *m = ptx_parse(src, strlen(src), "tiles.ptx", &e);
    REQUIRE(m);
    uint8_t params[16] = {0};
    put_u64(params + 0, A0);
    put_u64(params + 8, A1);
    struct cta_locality *l = loc_build(m, "k2", 1, 1, 32, 1, params, sizeof params, true);
    REQUIRE(l && l->box);
    REQUIRE(l->narrays == 2);
    CHECK_RECT(l->rect[0], 0, 0, 3, 1);
    CHECK_RECT(l->rect[1], 32, 0, 1, 1);
    for (unsigned a = 0; a < l->narrays; a++) {
        REQUIRE(l->box_off[a + 1] > l->box_off[a]);
        const struct loc_rect *b0 = &l->box[l->box_off[a]];
        int64_t x0 = b0->x, y0 = b0->y, x1 = b0->x + b0->w, y1 = b0->y + b0->h;
        for (uint32_t x = l->box_off[a] + 1; x < l->box_off[a + 1]; x++) {
            const struct loc_rect *bx = &l->box[x];
            x0 = bx->x < x0 ? bx->x : x0;
            y0 = bx->y < y0 ? bx->y : y0;
            x1 = bx->x + bx->w > x1 ? bx->x + bx->w : x1;
            y1 = bx->y + bx->h > y1 ? bx->y + bx->h : y1;
        }
        const struct loc_rect span = {x0, y0, x1 - x0, y1 - y0}, *r = &l->rect[a];
        if (span.x != r->x || span.y != r->y || span.w != r->w || span.h != r->h)
            T_FAIL_("array %u: boxes span (%lld,%lld %lldx%lld), rectangle (%lld,%lld %lldx%lld)", a,
                    (long long)span.x, (long long)span.y, (long long)span.w, (long long)span.h, (long long)r->x,
                    (long long)r->y, (long long)r->w, (long long)r->h);
    }
    CHECK_EQ_INT(l->box_off[1] - l->box_off[0], 2);   /* lines 0 and 2 of p0: two boxes */
    gpu_locality_free(l);
    ptx_module_free(m);
}

TEST(a_function_is_not_a_kernel)
{
    struct ptx_module *m = load("vecadd");
    REQUIRE(m);
    char msg[256];
    CHECK(ptx_slice_build(m, -1, 0, msg, sizeof msg) == NULL);
    CHECK(strstr(msg, "not a kernel") != NULL);
    ptx_module_free(m);
}

TEST_MAIN()
