/*
 * test_host_api.c - the public host API (warpsim.h): memory round trips and
 * bad-pointer errors, module variables by name, module load errors, launch
 * validation, texture objects and their fetch results, statistics.
 *
 * host_ptx below is `nvcc -ptx -arch=compute_75 -O3` (CUDA 13.0) of, with
 * comment lines dropped:
 *
 * __constant__ int cvals[16];
 * __device__ int gvar[4] = {1, 2, 3, 4};
 *
 * extern "C" __global__ void use_syms(int *out) {
 *   int t = threadIdx.x;
 *   out[t] = cvals[t % 16] * 100 + gvar[t % 4];
 *   __syncthreads();
 *   if (t < 4) gvar[t] += 10;
 * }
 * extern "C" __global__ void tex_i1(cudaTextureObject_t t, int *out) {
 *   out[threadIdx.x] = tex1Dfetch<int>(t, (int)threadIdx.x - 2);
 * }
 * extern "C" __global__ void tex_f1(cudaTextureObject_t t, float *out) {
 *   out[threadIdx.x] = tex1Dfetch<float>(t, (int)threadIdx.x);
 * }
 * extern "C" __global__ void tex_s2(cudaTextureObject_t t, int *out) {
 *   short2 v = tex1Dfetch<short2>(t, (int)threadIdx.x);
 *   out[2 * threadIdx.x] = v.x;
 *   out[2 * threadIdx.x + 1] = v.y;
 * }
 * extern "C" __global__ void tex_2d(cudaTextureObject_t t, float4 *out) {
 *   int x = threadIdx.x, y = threadIdx.y;
 *   out[y * blockDim.x + x] = tex2D<float4>(t, x - 1 + 0.75f, y + 0.25f);
 * }
 */
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"
#include "host/ws_internal.h"

static const char host_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".const .align 4 .b8 cvals[64];\n"
    ".global .align 4 .b8 gvar[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};\n"
    ".visible .entry use_syms(\n"
    "  .param .u64 use_syms_param_0\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<16>;\n"
    "  .reg .b64 %rd<15>;\n"
    "  ld.param.u64 %rd2, [use_syms_param_0];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shr.s32 %r2, %r1, 31;\n"
    "  shr.u32 %r3, %r2, 28;\n"
    "  add.s32 %r4, %r1, %r3;\n"
    "  and.b32 %r5, %r4, -16;\n"
    "  sub.s32 %r6, %r1, %r5;\n"
    "  mul.wide.s32 %rd4, %r6, 4;\n"
    "  mov.u64 %rd5, cvals;\n"
    "  add.s64 %rd6, %rd5, %rd4;\n"
    "  ld.const.u32 %r7, [%rd6];\n"
    "  shr.u32 %r8, %r2, 30;\n"
    "  add.s32 %r9, %r1, %r8;\n"
    "  and.b32 %r10, %r9, -4;\n"
    "  sub.s32 %r11, %r1, %r10;\n"
    "  mul.wide.s32 %rd7, %r11, 4;\n"
    "  mov.u64 %rd8, gvar;\n"
    "  add.s64 %rd9, %rd8, %rd7;\n"
    "  ld.global.u32 %r12, [%rd9];\n"
    "  mad.lo.s32 %r13, %r7, 100, %r12;\n"
    "  cvt.s64.s32 %rd1, %r1;\n"
    "  mul.wide.s32 %rd10, %r1, 4;\n"
    "  add.s64 %rd11, %rd3, %rd10;\n"
    "  st.global.u32 [%rd11], %r13;\n"
    "  bar.sync 0;\n"
    "  setp.gt.s32 %p1, %r1, 3;\n"
    "  @%p1 bra $L__BB0_2;\n"
    "  shl.b64 %rd12, %rd1, 2;\n"
    "  add.s64 %rd14, %rd8, %rd12;\n"
    "  ld.global.u32 %r14, [%rd14];\n"
    "  add.s32 %r15, %r14, 10;\n"
    "  st.global.u32 [%rd14], %r15;\n"
    "$L__BB0_2:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex_i1(\n"
    "  .param .u64 tex_i1_param_0,\n"
    "  .param .u64 tex_i1_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [tex_i1_param_0];\n"
    "  ld.param.u64 %rd2, [tex_i1_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  add.s32 %r2, %r1, -2;\n"
    "  tex.1d.v4.s32.s32 {%r3, %r4, %r5, %r6}, [%rd1, {%r2}];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.u32 [%rd5], %r3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex_f1(\n"
    "  .param .u64 tex_f1_param_0,\n"
    "  .param .u64 tex_f1_param_1\n"
    ")\n"
    "{\n"
    "  .reg .f32 %f<5>;\n"
    "  .reg .b32 %r<2>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [tex_f1_param_0];\n"
    "  ld.param.u64 %rd2, [tex_f1_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1}];\n"
    "  mul.wide.u32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.f32 [%rd5], %f1;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex_s2(\n"
    "  .param .u64 tex_s2_param_0,\n"
    "  .param .u64 tex_s2_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<9>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [tex_s2_param_0];\n"
    "  ld.param.u64 %rd2, [tex_s2_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  tex.1d.v4.s32.s32 {%r2, %r3, %r4, %r5}, [%rd1, {%r1}];\n"
    "  cvt.s32.s16 %r6, %r2;\n"
    "  shl.b32 %r7, %r1, 1;\n"
    "  mul.wide.u32 %rd4, %r7, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.u32 [%rd5], %r6;\n"
    "  cvt.s32.s16 %r8, %r3;\n"
    "  st.global.u32 [%rd5+4], %r8;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry tex_2d(\n"
    "  .param .u64 tex_2d_param_0,\n"
    "  .param .u64 tex_2d_param_1\n"
    ")\n"
    "{\n"
    "  .reg .f32 %f<9>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [tex_2d_param_0];\n"
    "  ld.param.u64 %rd2, [tex_2d_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %tid.y;\n"
    "  add.s32 %r3, %r1, -1;\n"
    "  cvt.rn.f32.s32 %f1, %r3;\n"
    "  add.f32 %f2, %f1, 0f3F400000;\n"
    "  cvt.rn.f32.s32 %f3, %r2;\n"
    "  add.f32 %f4, %f3, 0f3E800000;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r2, %r4, %r1;\n"
    "  mul.wide.u32 %rd4, %r5, 16;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  tex.2d.v4.f32.f32 {%f5, %f6, %f7, %f8}, [%rd1, {%f2, %f4}];\n"
    "  st.global.v4.f32 [%rd5], {%f5, %f6, %f7, %f8};\n"
    "  ret;\n"
    "}\n";

static int has(const char *msg, const char *needle)
{
    if (msg && strstr(msg, needle))
        return 1;
    fprintf(stderr, "  message lacks \"%s\":\n%s\n", needle, msg ? msg : "(null)");
    return 0;
}

static ws_ctx *open_ctx(ws_module **mod)
{
    ws_ctx *ctx = NULL;
    if (wsCreate(&ctx, NULL) != WS_SUCCESS)
        return NULL;
    if (mod && wsModuleLoadData(ctx, mod, host_ptx, sizeof host_ptx - 1, "host.ptx") != WS_SUCCESS) {
        fprintf(stderr, "  %s\n", wsGetErrorMessage(ctx));
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

/* ---- memory -------------------------------------------------------------------------- */

TEST(memory_round_trips)
{
    ws_ctx *ctx = open_ctx(NULL);
    REQUIRE(ctx != NULL);
    unsigned char h[1000], back[1000];
    for (int i = 0; i < 1000; i++)
        h[i] = (unsigned char)(i * 7);
    ws_devptr a, b;
    REQUIRE(wsMalloc(ctx, &a, 1000) == WS_SUCCESS);
    REQUIRE(wsMalloc(ctx, &b, 1000) == WS_SUCCESS);
    CHECK(a != 0 && b != 0 && a != b);
    CHECK_EQ_U64(a % 256, 0);
    CHECK_EQ_U64(b % 256, 0);
    CHECK(b >= a + 1000 + 1);     /* an unmapped gap separates allocations */
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, a, h, 1000), WS_SUCCESS);
    CHECK_EQ_INT(wsMemcpyDtoD(ctx, b, a, 1000), WS_SUCCESS);
    memset(back, 0, sizeof back);
    CHECK_EQ_INT(wsMemcpyDtoH(ctx, back, b, 1000), WS_SUCCESS);
    CHECK(memcmp(h, back, 1000) == 0);
    /* partial copies at an offset, memset of a sub-range */
    CHECK_EQ_INT(wsMemset(ctx, b + 10, 0xab, 20), WS_SUCCESS);
    CHECK_EQ_INT(wsMemcpyDtoH(ctx, back, b + 5, 30), WS_SUCCESS);
    CHECK_EQ_INT(back[4], h[9]);
    CHECK_EQ_INT(back[5], 0xab);
    CHECK_EQ_INT(back[24], 0xab);
    CHECK_EQ_INT(back[25], h[30]);
    /* fresh memory is zeroed */
    ws_devptr z;
    REQUIRE(wsMalloc(ctx, &z, 64) == WS_SUCCESS);
    CHECK_EQ_INT(wsMemcpyDtoH(ctx, back, z, 64), WS_SUCCESS);
    CHECK_EQ_INT(back[0] | back[63], 0);
    /* zero-byte cases */
    ws_devptr n0 = 123;
    CHECK_EQ_INT(wsMalloc(ctx, &n0, 0), WS_SUCCESS);
    CHECK_EQ_U64(n0, 0);
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, a, h, 0), WS_SUCCESS);
    CHECK_EQ_INT(wsFree(ctx, 0), WS_SUCCESS);
    CHECK_EQ_INT(wsFree(ctx, a), WS_SUCCESS);
    CHECK_EQ_INT(wsFree(ctx, b), WS_SUCCESS);
    CHECK_EQ_INT(wsFree(ctx, z), WS_SUCCESS);
    wsDestroy(ctx);
}

TEST(memory_bad_pointers)
{
    ws_ctx *ctx = open_ctx(NULL);
    REQUIRE(ctx != NULL);
    unsigned char h[256] = {0};
    ws_devptr a, b;
    REQUIRE(wsMalloc(ctx, &a, 100) == WS_SUCCESS);
    REQUIRE(wsMalloc(ctx, &b, 100) == WS_SUCCESS);
    /* one byte past the end */
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, a + 1, h, 100), WS_ERROR_INVALID_VALUE);
    CHECK(has(wsGetErrorMessage(ctx), "wsMemcpyHtoD"));
    CHECK(has(wsGetErrorMessage(ctx), "past the end of the allocation"));
    CHECK_EQ_INT(wsMemcpyDtoH(ctx, h, a, 101), WS_ERROR_INVALID_VALUE);
    /* spanning two allocations is not allowed even if both exist */
    CHECK_EQ_INT(wsMemcpyDtoD(ctx, a, a + 50, 200), WS_ERROR_INVALID_VALUE);
    /* unallocated and NULL */
    CHECK_EQ_INT(wsMemset(ctx, 0, 0, 4), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, 0x42, h, 4), WS_ERROR_INVALID_VALUE);
    CHECK(has(wsGetErrorMessage(ctx), "0x42"));
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, a, NULL, 4), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsMemcpyDtoH(ctx, NULL, a, 4), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsMalloc(ctx, NULL, 4), WS_ERROR_INVALID_VALUE);
    /* free: interior pointer, double free, use after free */
    CHECK_EQ_INT(wsFree(ctx, a + 4), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsFree(ctx, a), WS_SUCCESS);
    CHECK_EQ_INT(wsFree(ctx, a), WS_ERROR_INVALID_VALUE);
    CHECK(has(wsGetErrorMessage(ctx), "wsFree"));
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, a, h, 4), WS_ERROR_INVALID_VALUE);
    /* the other allocation is untouched and usable */
    CHECK_EQ_INT(wsMemcpyHtoD(ctx, b, h, 100), WS_SUCCESS);
    /* NULL context */
    CHECK_EQ_INT(wsMalloc(NULL, &a, 4), WS_ERROR_INVALID_VALUE);
    CHECK(wsGetErrorMessage(NULL) != NULL);
    wsDestroy(ctx);
}

TEST(status_names)
{
    CHECK_EQ_STR(wsStatusName(WS_SUCCESS), "WS_SUCCESS");
    CHECK_EQ_STR(wsStatusName(WS_ERROR_ILLEGAL_ADDRESS), "WS_ERROR_ILLEGAL_ADDRESS");
    CHECK_EQ_STR(wsStatusName(WS_ERROR_DEADLOCK), "WS_ERROR_DEADLOCK");
    CHECK_EQ_STR(wsStatusName(WS_ERROR_UNSUPPORTED), "WS_ERROR_UNSUPPORTED");
    CHECK_EQ_STR(wsStatusName((ws_status)999), "WS_ERROR_UNKNOWN");
}

/* ---- module variables ------------------------------------------------------------------ */

TEST(symbols_round_trip)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod);
    REQUIRE(ctx != NULL);
    int g[4];
    /* __device__ initialiser is visible before any write */
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, "gvar", g, sizeof g, 0), WS_SUCCESS);
    CHECK_EQ_INT(g[0], 1);
    CHECK_EQ_INT(g[3], 4);
    int c[16];
    for (int i = 0; i < 16; i++)
        c[i] = i + 1;
    CHECK_EQ_INT(wsMemcpyToSymbol(ctx, mod, "cvals", c, sizeof c, 0), WS_SUCCESS);
    int seven = 70;
    CHECK_EQ_INT(wsMemcpyToSymbol(ctx, mod, "cvals", &seven, sizeof seven, 7 * sizeof(int)), WS_SUCCESS);
    int c2[16];
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, "cvals", c2, sizeof c2, 0), WS_SUCCESS);
    CHECK_EQ_INT(c2[6], 7);
    CHECK_EQ_INT(c2[7], 70);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 32 * sizeof(int)) == WS_SUCCESS);
    void *args[] = {&out};
    REQUIRE(wsLaunchKernel(ctx, mod, "use_syms", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args) == WS_SUCCESS);
    int o[32];
    wsMemcpyDtoH(ctx, o, out, sizeof o);
    for (int t = 0; t < 32; t++)
        CHECK_EQ_INT(o[t], (t % 16 == 7 ? 70 : t % 16 + 1) * 100 + (t % 4 + 1));
    /* the kernel's writes to the __device__ variable are visible to the host */
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, "gvar", g, sizeof g, 0), WS_SUCCESS);
    CHECK_EQ_INT(g[0], 11);
    CHECK_EQ_INT(g[3], 14);
    /* errors */
    CHECK_EQ_INT(wsMemcpyToSymbol(ctx, mod, "nosuch", c, 4, 0), WS_ERROR_NOT_FOUND);
    CHECK(has(wsGetErrorMessage(ctx), "nosuch"));
    CHECK_EQ_INT(wsMemcpyToSymbol(ctx, mod, "cvals", c, sizeof c, 4), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, "gvar", g, 20, 0), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, NULL, g, 4, 0), WS_ERROR_INVALID_VALUE);
    /* the variable is real device memory: freeing it is refused */
    wsDestroy(ctx);
}

/* ---- module loading ------------------------------------------------------------------------ */

static const char recursive_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 r) f(.param .b32 a)\n"
    "{\n"
    "  .reg .b32 %r<3>;\n"
    "  ld.param.b32 %r1, [a];\n"
    "  {\n"
    "  .param .b32 pa;\n"
    "  .param .b32 pr;\n"
    "  st.param.b32 [pa], %r1;\n"
    "  call (pr), f, (pa);\n"
    "  ld.param.b32 %r2, [pr];\n"
    "  }\n"
    "  st.param.b32 [r], %r2;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry k()\n"
    "{\n"
    "  .reg .b32 %r<2>;\n"
    "  {\n"
    "  .param .b32 pa;\n"
    "  .param .b32 pr;\n"
    "  st.param.b32 [pa], 1;\n"
    "  call (pr), f, (pa);\n"
    "  }\n"
    "  ret;\n"
    "}\n";

TEST(module_load_errors)
{
    ws_ctx *ctx = open_ctx(NULL);
    REQUIRE(ctx != NULL);
    ws_module *mod = NULL;
    static const char bad[] = ".version 7.0\n.target sm_75\n.address_size 64\n.visible .entry k()\n{\n  bogus.op %r1;\n}\n";
    CHECK_EQ_INT(wsModuleLoadData(ctx, &mod, bad, sizeof bad - 1, "bad.ptx"), WS_ERROR_INVALID_PTX);
    CHECK(mod == NULL);
    CHECK(has(wsGetErrorMessage(ctx), "bad.ptx:6:"));
    CHECK(has(wsGetErrorMessage(ctx), "error"));
    CHECK_EQ_INT(wsModuleLoadData(ctx, &mod, recursive_ptx, sizeof recursive_ptx - 1, "rec.ptx"), WS_ERROR_UNSUPPORTED);
    CHECK(has(wsGetErrorMessage(ctx), "rec.ptx:12:"));
    CHECK(has(wsGetErrorMessage(ctx), "recursion"));
    CHECK_EQ_INT(wsModuleLoadFile(ctx, &mod, "/nonexistent/dir/x.ptx"), WS_ERROR_NOT_FOUND);
    CHECK(has(wsGetErrorMessage(ctx), "/nonexistent/dir/x.ptx"));
    CHECK_EQ_INT(wsModuleLoadData(ctx, NULL, bad, sizeof bad - 1, "x"), WS_ERROR_INVALID_VALUE);
    /* the context still loads good modules */
    CHECK_EQ_INT(wsModuleLoadData(ctx, &mod, host_ptx, sizeof host_ptx - 1, "host.ptx"), WS_SUCCESS);
    wsDestroy(ctx);
}

/* ---- launch validation -------------------------------------------------------------------- */

TEST(launch_validation)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 4096) == WS_SUCCESS);
    void *args[] = {&out};
    ws_dim3 g1 = ws_dim(1, 1, 1);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "nosuch", g1, ws_dim(32, 1, 1), 0, args), WS_ERROR_NOT_FOUND);
    CHECK(has(wsGetErrorMessage(ctx), "nosuch"));
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(0, 1, 1), 0, args), WS_ERROR_LAUNCH_FAILED);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(1025, 1, 1), 0, args), WS_ERROR_LAUNCH_FAILED);
    CHECK(has(wsGetErrorMessage(ctx), "1025"));
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(1, 1, 65), 0, args), WS_ERROR_LAUNCH_FAILED);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(64, 32, 1), 0, args), WS_ERROR_LAUNCH_FAILED);
    CHECK(has(wsGetErrorMessage(ctx), "2048 threads"));
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", ws_dim(1, 65536, 1), ws_dim(32, 1, 1), 0, args),
                 WS_ERROR_LAUNCH_FAILED);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", ws_dim(0, 1, 1), ws_dim(32, 1, 1), 0, args),
                 WS_ERROR_LAUNCH_FAILED);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(32, 1, 1), 48 * 1024 + 1, args),
                 WS_ERROR_LAUNCH_FAILED);
    CHECK(has(wsGetErrorMessage(ctx), "shared memory"));
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(32, 1, 1), 0, NULL), WS_ERROR_INVALID_VALUE);
    void *null_arg[] = {NULL};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(32, 1, 1), 0, null_arg), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsLaunchKernel(ctx, NULL, "use_syms", g1, ws_dim(32, 1, 1), 0, args), WS_ERROR_INVALID_VALUE);
    /* none of these ran anything */
    ws_stats s;
    CHECK_EQ_INT(wsGetStats(ctx, &s), WS_SUCCESS);
    CHECK_EQ_U64(s.kernels_launched, 0);
    /* the largest legal shapes are accepted */
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(1024, 1, 1), 48 * 1024, args), WS_SUCCESS);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "use_syms", g1, ws_dim(16, 1, 64), 0, args), WS_SUCCESS);
    wsDestroy(ctx);
}

TEST(stats_and_launch_records)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 64 * sizeof(int)) == WS_SUCCESS);
    void *args[] = {&out};
    REQUIRE(wsLaunchKernel(ctx, mod, "use_syms", ws_dim(2, 1, 1), ws_dim(32, 1, 1), 0, args) == WS_SUCCESS);
    REQUIRE(wsLaunchKernel(ctx, mod, "use_syms", ws_dim(1, 1, 1), ws_dim(20, 1, 1), 0, args) == WS_SUCCESS);
    ws_stats s;
    CHECK_EQ_INT(wsGetStats(ctx, &s), WS_SUCCESS);
    CHECK_EQ_U64(s.kernels_launched, 2);
    CHECK_EQ_U64(s.ctas_executed, 3);
    CHECK_EQ_U64(s.gpu_cycles, 0);
    CHECK_EQ_U64(ws_launch_count(ctx), 2);
    const struct ws_launch_info *a = ws_launch_get(ctx, 0), *b = ws_launch_get(ctx, 1);
    REQUIRE(a != NULL && b != NULL);
    CHECK_EQ_STR(a->kernel, "use_syms");
    CHECK_EQ_U64(a->grid.x, 2);
    CHECK_EQ_U64(b->block.x, 20);
    CHECK_EQ_U64(s.thread_insns, a->thread_insns + b->thread_insns);
    CHECK_EQ_U64(s.warp_insns, a->warp_insns + b->warp_insns);
    /* same code per warp, but a's warps have 32 lanes active where b's has 20 */
    CHECK(a->thread_insns > 2 * b->thread_insns);
    CHECK(a->thread_insns <= 32 * a->warp_insns);
    /* the partial warp of 20 threads: every warp instruction counts at most 20 */
    CHECK(b->thread_insns <= 20 * b->warp_insns);
    CHECK_EQ_U64(b->warp_insns * 2, a->warp_insns);
    uint64_t sum = 0;
    for (unsigned i = 0; i < PIC_COUNT; i++)
        sum += a->iclass_warp[i];
    CHECK_EQ_U64(sum, a->warp_insns);
    CHECK(a->iclass_warp[PIC_BARRIER] == 2);
    CHECK(ws_launch_get(ctx, 2) == NULL);
    wsDestroy(ctx);
}

/* ---- textures ----------------------------------------------------------------------------- */

static ws_texobj make_tex(ws_ctx *ctx, ws_devptr base, ws_tex_format fmt, unsigned ch, unsigned bits, size_t w,
                          size_t h, size_t pitch)
{
    ws_tex_desc d = {base, fmt, ch, bits, w, h, pitch};
    ws_texobj t = 0;
    if (wsCreateTextureObject(ctx, &t, &d) != WS_SUCCESS)
        return 0;
    return t;
}

TEST(texture_fetches)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 4096) == WS_SUCCESS);

    /* 1D int texture, integer coordinates t-2 clamped to [0, 9] */
    int iv[10];
    for (int i = 0; i < 10; i++)
        iv[i] = i * 7 - 3;
    ws_devptr di;
    REQUIRE(wsMalloc(ctx, &di, sizeof iv) == WS_SUCCESS);
    wsMemcpyHtoD(ctx, di, iv, sizeof iv);
    ws_texobj ti = make_tex(ctx, di, WS_TEX_SIGNED, 1, 32, 10, 0, 0);
    REQUIRE(ti != 0);
    void *a1[] = {&ti, &out};
    REQUIRE(wsLaunchKernel(ctx, mod, "tex_i1", ws_dim(1, 1, 1), ws_dim(16, 1, 1), 0, a1) == WS_SUCCESS);
    int o[64];
    wsMemcpyDtoH(ctx, o, out, 16 * sizeof(int));
    for (int t = 0; t < 16; t++) {
        int x = t - 2 < 0 ? 0 : t - 2 > 9 ? 9 : t - 2;
        CHECK_EQ_INT(o[t], iv[x]);
    }

    /* 1D half-float texture read as float */
    unsigned short hv[4] = {0x3e00 /* 1.5 */, 0xc000 /* -2 */, 0x3400 /* 0.25 */, 0x7bff /* 65504 */};
    ws_devptr dh;
    REQUIRE(wsMalloc(ctx, &dh, sizeof hv) == WS_SUCCESS);
    wsMemcpyHtoD(ctx, dh, hv, sizeof hv);
    ws_texobj th = make_tex(ctx, dh, WS_TEX_FLOAT, 1, 16, 4, 1, 0);
    REQUIRE(th != 0);
    void *a2[] = {&th, &out};
    REQUIRE(wsLaunchKernel(ctx, mod, "tex_f1", ws_dim(1, 1, 1), ws_dim(4, 1, 1), 0, a2) == WS_SUCCESS);
    float fo[64];
    wsMemcpyDtoH(ctx, fo, out, 4 * sizeof(float));
    CHECK_NEAR(fo[0], 1.5, 0);
    CHECK_NEAR(fo[1], -2.0, 0);
    CHECK_NEAR(fo[2], 0.25, 0);
    CHECK_NEAR(fo[3], 65504.0, 0);

    /* 1D short2 texture: signed 16-bit channels, sign-extended */
    short sv[8] = {-300, 0, -200, -1, 100, -2, 32767, -32768};
    ws_devptr ds;
    REQUIRE(wsMalloc(ctx, &ds, sizeof sv) == WS_SUCCESS);
    wsMemcpyHtoD(ctx, ds, sv, sizeof sv);
    ws_texobj ts = make_tex(ctx, ds, WS_TEX_SIGNED, 2, 16, 4, 0, 0);
    REQUIRE(ts != 0);
    void *a3[] = {&ts, &out};
    REQUIRE(wsLaunchKernel(ctx, mod, "tex_s2", ws_dim(1, 1, 1), ws_dim(4, 1, 1), 0, a3) == WS_SUCCESS);
    wsMemcpyDtoH(ctx, o, out, 8 * sizeof(int));
    for (int i = 0; i < 8; i++)
        CHECK_EQ_INT(o[i], sv[i]);

    /* 2D uchar4 texture, pitched rows, float coordinates (point sampling,
       clamp to edge), read as normalised floats */
    unsigned char px[2][16];
    memset(px, 0, sizeof px);
    for (int y = 0; y < 2; y++)
        for (int x = 0; x < 3; x++)
            for (int c = 0; c < 4; c++)
                px[y][x * 4 + c] = (unsigned char)(y * 100 + x * 20 + c * 5);
    ws_devptr dp;
    REQUIRE(wsMalloc(ctx, &dp, sizeof px) == WS_SUCCESS);
    wsMemcpyHtoD(ctx, dp, px, sizeof px);
    ws_texobj t2 = make_tex(ctx, dp, WS_TEX_UNSIGNED, 4, 8, 3, 2, 16);
    REQUIRE(t2 != 0);
    void *a4[] = {&t2, &out};
    REQUIRE(wsLaunchKernel(ctx, mod, "tex_2d", ws_dim(1, 1, 1), ws_dim(5, 3, 1), 0, a4) == WS_SUCCESS);
    wsMemcpyDtoH(ctx, fo, out, 15 * 4 * sizeof(float));
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 5; x++) {
            int sx = x - 1 < 0 ? 0 : x - 1 > 2 ? 2 : x - 1;   /* floor(x - 0.25) clamped */
            int sy = y > 1 ? 1 : y;
            for (int c = 0; c < 4; c++)
                CHECK_NEAR(fo[(y * 5 + x) * 4 + c], px[sy][sx * 4 + c] / 255.0, 1e-6);
        }

    /* descriptor errors and handle lifetime */
    CHECK(make_tex(ctx, di, WS_TEX_SIGNED, 3, 32, 10, 0, 0) == 0);           /* 3 channels */
    CHECK(make_tex(ctx, di, WS_TEX_FLOAT, 1, 8, 10, 0, 0) == 0);             /* 8-bit float */
    CHECK(make_tex(ctx, di, WS_TEX_SIGNED, 1, 32, 11, 0, 0) == 0);           /* past the buffer */
    CHECK(make_tex(ctx, 0x1234, WS_TEX_SIGNED, 1, 32, 1, 0, 0) == 0);        /* not device memory */
    CHECK_EQ_INT(wsDestroyTextureObject(ctx, ti), WS_SUCCESS);
    CHECK_EQ_INT(wsDestroyTextureObject(ctx, ti), WS_ERROR_INVALID_VALUE);
    /* fetching through a destroyed handle fails the launch cleanly */
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "tex_i1", ws_dim(1, 1, 1), ws_dim(16, 1, 1), 0, a1),
                 WS_ERROR_ILLEGAL_ADDRESS);
    CHECK(has(wsGetErrorMessage(ctx), "Texture object"));
    wsDestroy(ctx);
}

TEST(timing_mode_and_bad_options)
{
    /* timing mode builds the default machine; a missing config file fails cleanly */
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_TIMING, 0, NULL};
    CHECK_EQ_INT(wsCreate(&ctx, &o), WS_SUCCESS);
    CHECK(ctx != NULL);
    wsDestroy(ctx);
    ctx = NULL;
    o.config_path = "/nonexistent/machine.config";
    CHECK(wsCreate(&ctx, &o) != WS_SUCCESS);
    CHECK(ctx == NULL);
    o.config_path = NULL;
    o.mode = (ws_mode)7;
    CHECK_EQ_INT(wsCreate(&ctx, &o), WS_ERROR_INVALID_VALUE);
    o.mode = WS_MODE_FUNCTIONAL;
    o.num_sms = -1;
    CHECK_EQ_INT(wsCreate(&ctx, &o), WS_ERROR_INVALID_VALUE);
    CHECK_EQ_INT(wsCreate(NULL, NULL), WS_ERROR_INVALID_VALUE);
}

TEST_MAIN()
