/*
 * test_exec_memcheck.c - the memory checker: out-of-bounds global reads and
 * writes, unallocated and freed addresses, misaligned scalar and vector
 * accesses, shared memory out of bounds.  Each launch fails with
 * WS_ERROR_ILLEGAL_ADDRESS and a report naming kernel, PTX line, thread,
 * block and address; the faulting instruction writes nothing; the next
 * good launch in the same context works.
 *
 * mc_ptx below is `nvcc -ptx -arch=compute_75 -O3` (CUDA 13.0) of, with
 * comment lines dropped:
 *
 * extern "C" __global__ void rd(const int *a, int *out, int off) {
 *   int t = threadIdx.x + blockIdx.x * blockDim.x;
 *   out[t] = a[t + off];
 * }
 * extern "C" __global__ void wr(int *a, int off) {
 *   int t = threadIdx.x + blockIdx.x * blockDim.x;
 *   a[t + off] = t;
 * }
 * extern "C" __global__ void mis(const char *p, int *out) {
 *   out[threadIdx.x] = *(const int *)(p + 1 + 4 * threadIdx.x);
 * }
 * extern "C" __global__ void mis2(const int2 *p, int *out) {
 *   int2 v = p[threadIdx.x];
 *   out[threadIdx.x] = v.x + v.y;
 * }
 * extern "C" __global__ void shr(int *out, int off) {
 *   extern __shared__ int s[];
 *   s[threadIdx.x + off] = 1;
 *   __syncthreads();
 *   out[threadIdx.x] = s[threadIdx.x];
 * }
 */
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"

static const char mc_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".extern .shared .align 16 .b8 s[];\n"
    ".visible .entry rd(\n"
    "  .param .u64 rd_param_0,\n"
    "  .param .u64 rd_param_1,\n"
    "  .param .u32 rd_param_2\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<9>;\n"
    "  ld.param.u64 %rd1, [rd_param_0];\n"
    "  ld.param.u64 %rd2, [rd_param_1];\n"
    "  ld.param.u32 %r1, [rd_param_2];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "  add.s32 %r6, %r5, %r1;\n"
    "  mul.wide.s32 %rd5, %r6, 4;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r7, [%rd6];\n"
    "  mul.wide.s32 %rd7, %r5, 4;\n"
    "  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r7;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry wr(\n"
    "  .param .u64 wr_param_0,\n"
    "  .param .u32 wr_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [wr_param_0];\n"
    "  ld.param.u32 %r1, [wr_param_1];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mov.u32 %r4, %ntid.x;\n"
    "  mad.lo.s32 %r5, %r3, %r4, %r2;\n"
    "  add.s32 %r6, %r5, %r1;\n"
    "  mul.wide.s32 %rd3, %r6, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r5;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry mis(\n"
    "  .param .u64 mis_param_0,\n"
    "  .param .u64 mis_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<9>;\n"
    "  ld.param.u64 %rd1, [mis_param_0];\n"
    "  ld.param.u64 %rd2, [mis_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  shl.b32 %r2, %r1, 2;\n"
    "  cvt.u64.u32 %rd5, %r2;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.u32 %r3, [%rd6+1];\n"
    "  mul.wide.u32 %rd7, %r1, 4;\n"
    "  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r3;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry mis2(\n"
    "  .param .u64 mis2_param_0,\n"
    "  .param .u64 mis2_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<7>;\n"
    "  .reg .b64 %rd<9>;\n"
    "  ld.param.u64 %rd1, [mis2_param_0];\n"
    "  ld.param.u64 %rd2, [mis2_param_1];\n"
    "  cvta.to.global.u64 %rd3, %rd2;\n"
    "  cvta.to.global.u64 %rd4, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.wide.u32 %rd5, %r1, 8;\n"
    "  add.s64 %rd6, %rd4, %rd5;\n"
    "  ld.global.v2.u32 {%r2, %r3}, [%rd6];\n"
    "  add.s32 %r6, %r2, %r3;\n"
    "  mul.wide.u32 %rd7, %r1, 4;\n"
    "  add.s64 %rd8, %rd3, %rd7;\n"
    "  st.global.u32 [%rd8], %r6;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry shr(\n"
    "  .param .u64 shr_param_0,\n"
    "  .param .u32 shr_param_1\n"
    ")\n"
    "{\n"
    "  .reg .b32 %r<11>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [shr_param_0];\n"
    "  ld.param.u32 %r1, [shr_param_1];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r2, %tid.x;\n"
    "  add.s32 %r3, %r2, %r1;\n"
    "  shl.b32 %r4, %r3, 2;\n"
    "  mov.u32 %r5, s;\n"
    "  add.s32 %r6, %r5, %r4;\n"
    "  mov.u32 %r7, 1;\n"
    "  st.shared.u32 [%r6], %r7;\n"
    "  bar.sync 0;\n"
    "  shl.b32 %r8, %r2, 2;\n"
    "  add.s32 %r9, %r5, %r8;\n"
    "  ld.shared.u32 %r10, [%r9];\n"
    "  mul.wide.u32 %rd3, %r2, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r10;\n"
    "  ret;\n"
    "}\n";

/* 1-based line of the n-th (0-based) line of mc_ptx containing needle */
static unsigned line_of(const char *needle, int nth)
{
    unsigned line = 1;
    const char *p = mc_ptx;
    while (*p) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        char buf[256];
        size_t n = len < sizeof buf - 1 ? len : sizeof buf - 1;
        memcpy(buf, p, n);
        buf[n] = '\0';
        if (strstr(buf, needle) && nth-- == 0)
            return line;
        if (!e)
            break;
        p = e + 1;
        line++;
    }
    return 0;
}

static int has(const char *msg, const char *needle)
{
    if (strstr(msg, needle))
        return 1;
    fprintf(stderr, "  message lacks \"%s\":\n%s\n", needle, msg);
    return 0;
}

struct fx {
    ws_ctx *ctx;
    ws_module *mod;
    ws_devptr a, out;    /* 100 ints each */
};

static int fx_open(struct fx *f)
{
    if (wsCreate(&f->ctx, NULL) != WS_SUCCESS)
        return -1;
    if (wsModuleLoadData(f->ctx, &f->mod, mc_ptx, sizeof mc_ptx - 1, "mc.ptx") != WS_SUCCESS) {
        fprintf(stderr, "  %s\n", wsGetErrorMessage(f->ctx));
        return -1;
    }
    int init[100];
    for (int i = 0; i < 100; i++)
        init[i] = 1000 + i;
    if (wsMalloc(f->ctx, &f->a, sizeof init) || wsMalloc(f->ctx, &f->out, sizeof init) ||
        wsMemcpyHtoD(f->ctx, f->a, init, sizeof init) || wsMemset(f->ctx, f->out, 0xff, sizeof init))
        return -1;
    return 0;
}

/* A correct launch after a failed one: rd over exactly the 100 elements. */
static void good_launch_works(struct fx *f)
{
    int off = 0, out[100], init[100];
    for (int i = 0; i < 100; i++)
        init[i] = 1000 + i;
    wsMemcpyHtoD(f->ctx, f->a, init, sizeof init);
    void *args[] = {&f->a, &f->out, &off};
    ws_status st = wsLaunchKernel(f->ctx, f->mod, "rd", ws_dim(1, 1, 1), ws_dim(100, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_SUCCESS);
    wsMemcpyDtoH(f->ctx, out, f->out, sizeof out);
    CHECK_EQ_INT(out[0], 1000);
    CHECK_EQ_INT(out[99], 1099);
}

TEST(global_read_out_of_bounds)
{
    struct fx f;
    REQUIRE(fx_open(&f) == 0);
    ws_devptr big;
    REQUIRE(wsMalloc(f.ctx, &big, 128 * 4) == WS_SUCCESS);
    int off = 0;
    void *args[] = {&f.a, &big, &off};
    /* 128 threads read a[t] of a 100-element buffer: thread 100 = (36,0,0) of block 1 faults first */
    ws_status st = wsLaunchKernel(f.ctx, f.mod, "rd", ws_dim(2, 1, 1), ws_dim(64, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    const char *msg = wsGetErrorMessage(f.ctx);
    char want[160];
    CHECK(has(msg, "Invalid __global__ read of size 4 bytes"));
    CHECK(has(msg, "kernel 'rd'"));
    snprintf(want, sizeof want, "mc.ptx:%u:", line_of("ld.global.u32", 0));
    CHECK(has(msg, want));
    CHECK(has(msg, "(ld.global.u32)"));
    CHECK(has(msg, "thread (36,0,0) in block (1,0,0)"));
    snprintf(want, sizeof want, "Address 0x%llx is out of bounds", (unsigned long long)(f.a + 400));
    CHECK(has(msg, want));
    snprintf(want, sizeof want, "0 bytes after the nearest allocation at 0x%llx of size 400 bytes",
             (unsigned long long)f.a);
    CHECK(has(msg, want));
    good_launch_works(&f);
    wsDestroy(f.ctx);
}

TEST(global_write_out_of_bounds_writes_nothing)
{
    struct fx f;
    REQUIRE(fx_open(&f) == 0);
    int off = 0;
    void *args[] = {&f.a, &off};
    /* the last warp has lanes 96..99 in bounds and 100..127 out: none of them may store */
    ws_status st = wsLaunchKernel(f.ctx, f.mod, "wr", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    const char *msg = wsGetErrorMessage(f.ctx);
    char want[160];
    CHECK(has(msg, "Invalid __global__ write of size 4 bytes"));
    CHECK(has(msg, "kernel 'wr'"));
    snprintf(want, sizeof want, "mc.ptx:%u:", line_of("st.global.u32", 1));
    CHECK(has(msg, want));
    CHECK(has(msg, "thread (100,0,0) in block (0,0,0)"));
    int a[100];
    wsMemcpyDtoH(f.ctx, a, f.a, sizeof a);
    CHECK_EQ_INT(a[95], 95);      /* earlier warps completed */
    CHECK_EQ_INT(a[96], 1096);    /* the faulting warp wrote nothing */
    CHECK_EQ_INT(a[99], 1099);
    /* a negative offset faults before the allocation */
    off = -8;
    st = wsLaunchKernel(f.ctx, f.mod, "wr", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    CHECK(has(wsGetErrorMessage(f.ctx), "32 bytes before the nearest allocation"));
    CHECK(has(wsGetErrorMessage(f.ctx), "thread (0,0,0) in block (0,0,0)"));
    good_launch_works(&f);
    wsDestroy(f.ctx);
}

TEST(unallocated_and_freed_addresses)
{
    struct fx f;
    REQUIRE(fx_open(&f) == 0);
    int off = 0;
    ws_devptr bogus = 0x1000;   /* never allocated: below every allocation */
    void *args[] = {&bogus, &f.out, &off};
    ws_status st = wsLaunchKernel(f.ctx, f.mod, "rd", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    CHECK(has(wsGetErrorMessage(f.ctx), "Address 0x1000 is out of bounds"));
    CHECK(has(wsGetErrorMessage(f.ctx), "kernel 'rd'"));
    good_launch_works(&f);

    ws_devptr gone;
    REQUIRE(wsMalloc(f.ctx, &gone, 256) == WS_SUCCESS);
    REQUIRE(wsFree(f.ctx, gone) == WS_SUCCESS);
    args[0] = &gone;
    st = wsLaunchKernel(f.ctx, f.mod, "rd", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    char want[80];
    snprintf(want, sizeof want, "Address 0x%llx is out of bounds", (unsigned long long)gone);
    CHECK(has(wsGetErrorMessage(f.ctx), want));
    good_launch_works(&f);
    wsDestroy(f.ctx);
}

TEST(misaligned_accesses)
{
    struct fx f;
    REQUIRE(fx_open(&f) == 0);
    void *args[] = {&f.a, &f.out};
    ws_status st = wsLaunchKernel(f.ctx, f.mod, "mis", ws_dim(1, 1, 1), ws_dim(8, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    const char *msg = wsGetErrorMessage(f.ctx);
    char want[120];
    CHECK(has(msg, "Invalid __global__ read of size 4 bytes"));
    CHECK(has(msg, "kernel 'mis'"));
    snprintf(want, sizeof want, "Address 0x%llx is misaligned", (unsigned long long)(f.a + 1));
    CHECK(has(msg, want));
    CHECK(has(msg, "thread (0,0,0) in block (0,0,0)"));
    good_launch_works(&f);

    /* an 8-byte vector load must be 8-byte aligned as a whole */
    ws_devptr p4 = f.a + 4;
    args[0] = &p4;
    st = wsLaunchKernel(f.ctx, f.mod, "mis2", ws_dim(1, 1, 1), ws_dim(4, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    msg = wsGetErrorMessage(f.ctx);
    CHECK(has(msg, "Invalid __global__ read of size 8 bytes"));
    CHECK(has(msg, "(ld.global.v2.u32)"));
    snprintf(want, sizeof want, "mc.ptx:%u:", line_of("ld.global.v2.u32", 0));
    CHECK(has(msg, want));
    good_launch_works(&f);
    wsDestroy(f.ctx);
}

TEST(shared_out_of_bounds)
{
    struct fx f;
    REQUIRE(fx_open(&f) == 0);
    int off = 1;
    void *args[] = {&f.out, &off};
    /* 64 threads, 256 bytes of dynamic shared memory, s[t + 1]: thread 63 writes past the end */
    ws_status st = wsLaunchKernel(f.ctx, f.mod, "shr", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 256, args);
    CHECK_EQ_INT(st, WS_ERROR_ILLEGAL_ADDRESS);
    const char *msg = wsGetErrorMessage(f.ctx);
    char want[80];
    CHECK(has(msg, "Invalid __shared__ write of size 4 bytes"));
    CHECK(has(msg, "kernel 'shr'"));
    snprintf(want, sizeof want, "mc.ptx:%u:", line_of("st.shared.u32", 0));
    CHECK(has(msg, want));
    CHECK(has(msg, "thread (63,0,0) in block (0,0,0)"));
    CHECK(has(msg, "Address 0x100 is out of bounds"));
    /* the same kernel in bounds */
    off = 0;
    st = wsLaunchKernel(f.ctx, f.mod, "shr", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 256, args);
    CHECK_EQ_INT(st, WS_SUCCESS);
    int out[64];
    wsMemcpyDtoH(f.ctx, out, f.out, sizeof out);
    CHECK_EQ_INT(out[0], 1);
    CHECK_EQ_INT(out[63], 1);
    good_launch_works(&f);
    wsDestroy(f.ctx);
}

TEST_MAIN()
