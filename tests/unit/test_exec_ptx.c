/*
 * test_exec_ptx.c - executor features that nvcc output rarely shows,
 * on hand-written PTX: special registers, mov pack/unpack, sub-word loads
 * with sign/zero extension, vector forms, const and local through generic
 * pointers, isspacep, 64-bit and floating-point atomics, inc/dec, prefetch,
 * shfl with segments, vote.uni, guarded activemask, match.all, bar.arrive,
 * exit inside a called function, trap, the watchdog, and driving warps one
 * instruction at a time through ptx_warp_step with warp_inst records.
 */
#include <string.h>

#include "test.h"
#include "warpsim/warpsim.h"
#include "host/ws_internal.h"

static const char hand_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    "\n"
    ".const .align 4 .b32 ctab[4] = {10, 20, 30, 40};\n"
    ".shared .align 4 .b32 sdata[32];\n"
    ".global .align 8 .b64 gcount;\n"
    "\n"
    ".visible .entry sregs(.param .u64 out)\n"
    "{\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, %ntid.x;\n"
    "  mov.u32 %r3, %ctaid.x;\n"
    "  mad.lo.u32 %r4, %r3, %r2, %r1;\n"
    "  mul.wide.u32 %rd2, %r4, 48;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  mov.u32 %r8, sdata;\n"
    "  st.shared.u32 [%r8], %r1;\n"
    "  mov.u32 %r5, %laneid;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "  mov.u32 %r5, %warpid;\n"
    "  st.global.u32 [%rd3+4], %r5;\n"
    "  mov.u32 %r5, %nwarpid;\n"
    "  st.global.u32 [%rd3+8], %r5;\n"
    "  mov.u32 %r5, %lanemask_lt;\n"
    "  st.global.u32 [%rd3+12], %r5;\n"
    "  mov.u32 %r5, %lanemask_ge;\n"
    "  st.global.u32 [%rd3+16], %r5;\n"
    "  mov.u32 %r5, %smid;\n"
    "  st.global.u32 [%rd3+20], %r5;\n"
    "  mov.u32 %r5, %nsmid;\n"
    "  st.global.u32 [%rd3+24], %r5;\n"
    "  mov.u32 %r5, %dynamic_smem_size;\n"
    "  st.global.u32 [%rd3+28], %r5;\n"
    "  mov.u32 %r5, %total_smem_size;\n"
    "  st.global.u32 [%rd3+32], %r5;\n"
    "  mov.u32 %r5, %nctaid.x;\n"
    "  st.global.u32 [%rd3+36], %r5;\n"
    "  mov.u32 %r6, %clock;\n"
    "  mov.u32 %r7, %clock;\n"
    "  sub.u32 %r5, %r7, %r6;\n"
    "  st.global.u32 [%rd3+40], %r5;\n"
    "  mov.u64 %rd4, %clock64;\n"
    "  cvt.u32.u64 %r5, %rd4;\n"
    "  st.global.u32 [%rd3+44], %r5;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry packs(.param .u64 out)\n"
    "{\n"
    "  .reg .b16 %h<3>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r4, sdata;\n"
    "  sub.u32 %r5, %r4, 64;\n"
    "  st.shared.u32 [%r5+64], 77;\n"
    "  ld.shared.u32 %r6, [%r4];\n"
    "  st.global.u32 [%rd1+28], %r6;\n"
    "  mov.b64 %rd2, 0x1122334455667788;\n"
    "  mov.b64 {%r1, %r2}, %rd2;\n"
    "  mov.b32 {%h1, %h2}, %r1;\n"
    "  mov.b32 %r3, {%h2, %h1};\n"
    "  mov.b64 %rd3, {%r2, %r1};\n"
    "  st.global.u32 [%rd1], %r1;\n"
    "  st.global.u32 [%rd1+4], %r2;\n"
    "  st.global.u32 [%rd1+8], %r3;\n"
    "  st.global.u64 [%rd1+16], %rd3;\n"
    "  st.global.u16 [%rd1+24], %h2;\n"
    "  mov.b32 %r7, {0x1234, %h2};\n"
    "  st.global.v2.u32 [%rd1+32], {%r7, 9};\n"
    "  ret;\n"
    "}\n"
    "\n"
    "// in: 64 bytes of input, out: results (see test_exec_ptx.c)\n"
    ".visible .entry memforms(.param .u64 in, .param .u64 out)\n"
    "{\n"
    "  .local .align 8 .b8 loc[16];\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b16 %rs<8>;\n"
    "  .reg .b32 %r<24>;\n"
    "  .reg .f64 %fd<4>;\n"
    "  .reg .b64 %rd<16>;\n"
    "  ld.param.u64 %rd1, [in];\n"
    "  ld.param.u64 %rd2, [out];\n"
    "  ld.global.s8 %r1, [%rd1];\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ld.global.u8 %r2, [%rd1];\n"
    "  st.global.u32 [%rd2+4], %r2;\n"
    "  ld.global.s16 %r3, [%rd1+2];\n"
    "  st.global.u32 [%rd2+8], %r3;\n"
    "  ld.global.s8 %rs1, [%rd1];\n"
    "  cvt.u32.u16 %r4, %rs1;\n"
    "  st.global.u32 [%rd2+12], %r4;\n"
    "  ld.global.v4.u16 {%rs2, %rs3, %rs4, %rs5}, [%rd1+8];\n"
    "  st.global.v4.u16 [%rd2+16], {%rs5, %rs4, %rs3, %rs2};\n"
    "  ld.global.nc.v2.f64 {%fd1, %fd2}, [%rd1+16];\n"
    "  add.f64 %fd3, %fd1, %fd2;\n"
    "  st.global.f64 [%rd2+24], %fd3;\n"
    "  ldu.global.u32 %r5, [%rd1+4];\n"
    "  st.global.u32 [%rd2+32], %r5;\n"
    "  st.global.b8 [%rd2+36], %r1;\n"
    "  st.global.b8 [%rd2+37], 0x5a;\n"
    "  // const through its own space and through a generic pointer\n"
    "  ld.const.u32 %r6, [ctab+12];\n"
    "  st.global.u32 [%rd2+40], %r6;\n"
    "  mov.u64 %rd5, ctab;\n"
    "  cvta.const.u64 %rd6, %rd5;\n"
    "  ld.u32 %r7, [%rd6+8];\n"
    "  st.global.u32 [%rd2+44], %r7;\n"
    "  isspacep.const %p1, %rd6;\n"
    "  selp.u32 %r8, 1, 0, %p1;\n"
    "  isspacep.global %p2, %rd6;\n"
    "  selp.u32 %r9, 2, 0, %p2;\n"
    "  add.u32 %r8, %r8, %r9;\n"
    "  // local through a generic pointer\n"
    "  mov.u64 %rd7, loc;\n"
    "  cvta.local.u64 %rd8, %rd7;\n"
    "  st.u32 [%rd8+4], 5;\n"
    "  ld.local.u32 %r10, [loc+4];\n"
    "  isspacep.local %p3, %rd8;\n"
    "  selp.u32 %r11, 4, 0, %p3;\n"
    "  add.u32 %r8, %r8, %r11;\n"
    "  cvta.to.local.u64 %rd9, %rd8;\n"
    "  setp.eq.u64 %p3, %rd9, %rd7;\n"
    "  selp.u32 %r11, 8, 0, %p3;\n"
    "  add.u32 %r8, %r8, %r11;\n"
    "  st.global.u32 [%rd2+48], %r8;\n"
    "  st.global.u32 [%rd2+52], %r10;\n"
    "  // atomics of other types; gcount is a module variable\n"
    "  mov.u64 %rd10, gcount;\n"
    "  atom.global.add.u64 %rd11, [%rd10], 5;\n"
    "  red.global.add.u64 [%rd10], 7;\n"
    "  atom.global.cas.b64 %rd12, [%rd10], 12, 100;\n"
    "  atom.global.exch.b64 %rd13, [%rd10], 200;\n"
    "  add.s64 %rd11, %rd11, %rd12;\n"
    "  add.s64 %rd11, %rd11, %rd13;\n"
    "  st.global.u64 [%rd2+56], %rd11;\n"
    "  atom.global.add.f64 %fd1, [%rd1+16], 0d3FF0000000000000;\n"
    "  atom.global.dec.u32 %r12, [%rd1+32], 3;\n"
    "  atom.global.dec.u32 %r13, [%rd1+32], 3;\n"
    "  atom.global.inc.u32 %r14, [%rd1+36], 3;\n"
    "  atom.global.and.b32 %r15, [%rd1+40], 12;\n"
    "  atom.global.xor.b32 %r16, [%rd1+44], 255;\n"
    "  atom.global.max.u32 %r17, [%rd1+48], 7;\n"
    "  atom.global.min.s64 %rd14, [%rd1+56], -9;\n"
    "  st.global.u32 [%rd2+64], %r12;\n"
    "  st.global.u32 [%rd2+68], %r13;\n"
    "  st.global.u32 [%rd2+72], %r14;\n"
    "  st.global.u32 [%rd2+76], %r15;\n"
    "  st.global.u32 [%rd2+80], %r16;\n"
    "  st.global.u32 [%rd2+84], %r17;\n"
    "  st.global.u64 [%rd2+88], %rd14;\n"
    "  prefetch.global.L2 [%rd1];\n"
    "  prefetch.global.L1 [0];\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry warp2(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<6>;\n"
    "  .reg .b32 %r<16>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %laneid;\n"
    "  mul.wide.u32 %rd2, %r1, 28;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  mul.lo.u32 %r2, %r1, 3;\n"
    "  shfl.sync.idx.b32 %r3|%p1, %r2, 2, 0x181f, -1;\n"
    "  st.global.u32 [%rd3], %r3;\n"
    "  setp.lt.u32 %p2, %r1, 40;\n"
    "  vote.sync.uni.pred %p3, %p2, -1;\n"
    "  and.b32 %r4, %r1, 1;\n"
    "  setp.eq.u32 %p4, %r4, 1;\n"
    "  vote.sync.uni.pred %p5, %p4, -1;\n"
    "  selp.u32 %r5, 1, 0, %p3;\n"
    "  selp.u32 %r6, 2, 0, %p5;\n"
    "  add.u32 %r5, %r5, %r6;\n"
    "  vote.sync.any.pred %p5, !%p4, 0x0000ffff;\n"
    "  selp.u32 %r6, 4, 0, %p5;\n"
    "  add.u32 %r5, %r5, %r6;\n"
    "  st.global.u32 [%rd3+4], %r5;\n"
    "  mov.u32 %r7, 0;\n"
    "  @%p4 activemask.b32 %r7;\n"
    "  st.global.u32 [%rd3+8], %r7;\n"
    "  shr.u32 %r8, %r1, 5;\n"
    "  match.all.sync.b32 %r9|%p1, %r8, -1;\n"
    "  selp.u32 %r10, 1, 0, %p1;\n"
    "  st.global.u32 [%rd3+12], %r9;\n"
    "  match.all.sync.b32 %r11|%p1, %r4, -1;\n"
    "  selp.u32 %r12, 2, 0, %p1;\n"
    "  add.u32 %r10, %r10, %r12;\n"
    "  st.global.u32 [%rd3+16], %r11;\n"
    "  st.global.u32 [%rd3+20], %r10;\n"
    "  shfl.sync.down.b32 %r13|%p1, %r1, 3, 0x1f, -1;\n"
    "  selp.u32 %r14, 1000, 0, %p1;\n"
    "  add.u32 %r13, %r13, %r14;\n"
    "  st.global.u32 [%rd3+24], %r13;\n"
    "  ret;\n"
    "}\n"
    "\n"
    "// warp 0 produces and arrives, warp 1 waits at the same barrier and consumes\n"
    ".visible .entry arrive(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<8>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mov.u32 %r2, sdata;\n"
    "  setp.ge.u32 %p1, %r1, 32;\n"
    "  @%p1 bra CONSUME;\n"
    "  shl.b32 %r3, %r1, 2;\n"
    "  add.u32 %r4, %r2, %r3;\n"
    "  mul.lo.u32 %r5, %r1, %r1;\n"
    "  st.shared.u32 [%r4], %r5;\n"
    "  bar.arrive 1, 64;\n"
    "  ret;\n"
    "CONSUME:\n"
    "  bar.sync 1, 64;\n"
    "  sub.u32 %r3, %r1, 32;\n"
    "  xor.b32 %r3, %r3, 31;\n"
    "  shl.b32 %r3, %r3, 2;\n"
    "  add.u32 %r4, %r2, %r3;\n"
    "  ld.shared.u32 %r5, [%r4];\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r5;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".func fexit()\n"
    "{\n"
    "  exit;\n"
    "}\n"
    "\n"
    "// odd threads exit inside a call; the rest pass a barrier and write\n"
    ".visible .entry exit_in_call(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r2, %r1, 1;\n"
    "  setp.eq.u32 %p1, %r2, 1;\n"
    "  @%p1 call fexit;\n"
    "  bar.sync 0;\n"
    "  mul.wide.u32 %rd2, %r1, 4;\n"
    "  add.s64 %rd3, %rd1, %rd2;\n"
    "  st.global.u32 [%rd3], %r1;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry trapper()\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<2>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.eq.u32 %p1, %r1, 5;\n"
    "  @%p1 trap;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry narrow_cvt(.param .u64 out, .param .u32 v)\n"
    "{\n"
    "  .reg .b16 %rs<3>;\n"
    "  .reg .b32 %r<6>;\n"
    "  .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  ld.param.u32 %r1, [v];\n"
    "  cvt.s8.s32 %rs1, %r1;\n"      /* into a 16-bit register: sign-extended to 16 bits */
    "  cvt.s32.s16 %r2, %rs1;\n"
    "  st.global.u32 [%rd1], %r2;\n"
    "  cvt.s16.s32 %r3, %r1;\n"      /* into a 32-bit register: sign-extended to 32 bits */
    "  st.global.u32 [%rd1+4], %r3;\n"
    "  cvt.u8.u32 %rs2, %r1;\n"      /* unsigned: zero-extended */
    "  cvt.u32.u16 %r4, %rs2;\n"
    "  st.global.u32 [%rd1+8], %r4;\n"
    "  ret;\n"
    "}\n"
    "\n"
    ".visible .entry forever()\n"
    "{\n"
    "LOOP:\n"
    "  bra.uni LOOP;\n"
    "}\n";

static int has(const char *msg, const char *needle)
{
    if (msg && strstr(msg, needle))
        return 1;
    fprintf(stderr, "  message lacks \"%s\":\n%s\n", needle, msg ? msg : "(null)");
    return 0;
}

static ws_ctx *open_ctx(ws_module **mod, int sms)
{
    ws_ctx *ctx = NULL;
    ws_ctx_opts o = {WS_MODE_FUNCTIONAL, sms, NULL};
    if (wsCreate(&ctx, &o) != WS_SUCCESS)
        return NULL;
    if (wsModuleLoadData(ctx, mod, hand_ptx, sizeof hand_ptx - 1, "hand.ptx") != WS_SUCCESS) {
        fprintf(stderr, "  %s\n", wsGetErrorMessage(ctx));
        wsDestroy(ctx);
        return NULL;
    }
    return ctx;
}

TEST(special_registers)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 4);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 120 * 48) == WS_SUCCESS);
    void *args[] = {&out};
    REQUIRE(wsLaunchKernel(ctx, mod, "sregs", ws_dim(3, 1, 1), ws_dim(40, 1, 1), 100, args) == WS_SUCCESS);
    unsigned r[120 * 12];
    wsMemcpyDtoH(ctx, r, out, sizeof r);
    for (unsigned g = 0; g < 120; g++) {
        const unsigned *v = &r[g * 12];
        unsigned t = g % 40, c = g / 40, lane = t % 32;
        unsigned lt = (unsigned)((1ull << lane) - 1);
        CHECK_EQ_U64(v[0], lane);
        CHECK_EQ_U64(v[1], t / 32);
        CHECK_EQ_U64(v[2], 64);
        CHECK_EQ_U64(v[3], lt);
        CHECK_EQ_U64(v[4], ~lt);
        CHECK_EQ_U64(v[5], c % 4);
        CHECK_EQ_U64(v[6], 4);
        CHECK_EQ_U64(v[7], 100);
        CHECK_EQ_U64(v[8], 128 + 100);   /* static sdata (128 bytes) + dynamic */
        CHECK_EQ_U64(v[9], 3);
        CHECK(v[10] > 0);                 /* %clock advances with issued instructions */
        CHECK(v[11] > 0);
    }
    wsDestroy(ctx);
}

TEST(mov_pack_unpack)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 48) == WS_SUCCESS);
    void *args[] = {&out};
    REQUIRE(wsLaunchKernel(ctx, mod, "packs", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args) == WS_SUCCESS);
    unsigned char b[48];
    wsMemcpyDtoH(ctx, b, out, sizeof b);
    unsigned r[3];
    unsigned long long q;
    unsigned short h;
    memcpy(r, b, 12);
    memcpy(&q, b + 16, 8);
    memcpy(&h, b + 24, 2);
    CHECK_EQ_U64(r[0], 0x55667788u);
    CHECK_EQ_U64(r[1], 0x11223344u);
    CHECK_EQ_U64(r[2], 0x77885566u);
    CHECK_EQ_U64(q, 0x5566778811223344ull);
    CHECK_EQ_U64(h, 0x5566u);
    unsigned wrapped;
    memcpy(&wrapped, b + 28, 4);
    CHECK_EQ_U64(wrapped, 77);   /* [%r5+64] with a 32-bit register wraps at 2^32 */
    unsigned vi[2];
    memcpy(vi, b + 32, 8);
    CHECK_EQ_U64(vi[0], 0x55661234u);   /* mov pack with an immediate element */
    CHECK_EQ_U64(vi[1], 9);             /* st.v2 with an immediate element */
    wsDestroy(ctx);
}

TEST(narrow_signed_cvt_sign_extends_to_register)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 12) == WS_SUCCESS);
    unsigned v = 0x1234F0FFu;   /* low byte 0xFF = -1 as s8; low half 0xF0FF = -3841 as s16 */
    void *args[] = {&out, &v};
    REQUIRE(wsLaunchKernel(ctx, mod, "narrow_cvt", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args) == WS_SUCCESS);
    int r[3];
    wsMemcpyDtoH(ctx, r, out, sizeof r);
    CHECK_EQ_INT(r[0], -1);
    CHECK_EQ_INT(r[1], -3841);
    CHECK_EQ_INT(r[2], 0xFF);
    wsDestroy(ctx);
}

TEST(memory_forms_and_atomics)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    unsigned char in[64];
    memset(in, 0, sizeof in);
    in[0] = 0x80;
    in[1] = 0x01;
    in[2] = 0xfe;
    in[3] = 0xff;
    unsigned u = 0xdeadbeefu;
    memcpy(in + 4, &u, 4);
    unsigned short s4[4] = {1, 2, 3, 4};
    memcpy(in + 8, s4, 8);
    double d2[2] = {1.5, 2.25};
    memcpy(in + 16, d2, 16);
    unsigned w[6] = {0, 3, 0xff, 0x0f, 5, 0};
    memcpy(in + 32, w, 24);
    long long s64 = 4;
    memcpy(in + 56, &s64, 8);
    ws_devptr din, dout;
    REQUIRE(wsMalloc(ctx, &din, sizeof in) == WS_SUCCESS);
    REQUIRE(wsMalloc(ctx, &dout, 96) == WS_SUCCESS);
    wsMemcpyHtoD(ctx, din, in, sizeof in);
    wsMemset(ctx, dout, 0, 96);
    void *args[] = {&din, &dout};
    REQUIRE(wsLaunchKernel(ctx, mod, "memforms", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args) == WS_SUCCESS);
    unsigned char o[96];
    wsMemcpyDtoH(ctx, o, dout, sizeof o);
    unsigned ov[24];
    memcpy(ov, o, sizeof ov);
    CHECK_EQ_U64(ov[0], 0xffffff80u);   /* ld.s8 sign-extends to the 32-bit register */
    CHECK_EQ_U64(ov[1], 0x80u);         /* ld.u8 zero-extends */
    CHECK_EQ_U64(ov[2], 0xfffffffeu);   /* ld.s16 */
    CHECK_EQ_U64(ov[3], 0xff80u);       /* ld.s8 into a 16-bit register */
    unsigned short rv[4];
    memcpy(rv, o + 16, 8);
    CHECK_EQ_INT(rv[0], 4);
    CHECK_EQ_INT(rv[3], 1);
    double sum;
    memcpy(&sum, o + 24, 8);
    CHECK_NEAR(sum, 3.75, 0);
    CHECK_EQ_U64(ov[8], 0xdeadbeefu);   /* ldu */
    CHECK_EQ_INT(o[36], 0x80);          /* st.b8 of a register */
    CHECK_EQ_INT(o[37], 0x5a);          /* st.b8 of an immediate */
    CHECK_EQ_U64(ov[10], 40);           /* ld.const [ctab+12] */
    CHECK_EQ_U64(ov[11], 30);           /* ld through cvta.const */
    CHECK_EQ_U64(ov[12], 1 + 4 + 8);    /* isspacep const/global/local, cvta.to.local round trip */
    CHECK_EQ_U64(ov[13], 5);            /* st through cvta.local, ld.local */
    unsigned long long q;
    memcpy(&q, o + 56, 8);
    CHECK_EQ_U64(q, 0 + 12 + 100);      /* atom.add / red.add / cas / exch on a module .global */
    CHECK_EQ_U64(ov[16], 0);            /* dec: old values */
    CHECK_EQ_U64(ov[17], 3);
    CHECK_EQ_U64(ov[18], 3);            /* inc */
    CHECK_EQ_U64(ov[19], 0xff);         /* and */
    CHECK_EQ_U64(ov[20], 0x0f);         /* xor */
    CHECK_EQ_U64(ov[21], 5);            /* max.u32 */
    long long m64;
    memcpy(&m64, o + 88, 8);
    CHECK_EQ_INT(m64, 4);               /* min.s64 old value */
    /* memory after the atomics */
    unsigned char after[64];
    wsMemcpyDtoH(ctx, after, din, sizeof after);
    double d;
    memcpy(&d, after + 16, 8);
    CHECK_NEAR(d, 2.5, 0);              /* atom.add.f64 */
    unsigned wa[6];
    memcpy(wa, after + 32, 24);
    CHECK_EQ_U64(wa[0], 2);             /* dec(dec(0,3),3) = 2 */
    CHECK_EQ_U64(wa[1], 0);             /* inc wraps at 3 */
    CHECK_EQ_U64(wa[2], 0x0c);
    CHECK_EQ_U64(wa[3], 0xf0);
    CHECK_EQ_U64(wa[4], 7);
    memcpy(&m64, after + 56, 8);
    CHECK_EQ_INT(m64, -9);
    unsigned long long gc = 0;
    CHECK_EQ_INT(wsMemcpyFromSymbol(ctx, mod, "gcount", &gc, 8, 0), WS_SUCCESS);
    CHECK_EQ_U64(gc, 200);
    wsDestroy(ctx);
}

TEST(warp_ops_more)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 32 * 28) == WS_SUCCESS);
    void *args[] = {&out};
    REQUIRE(wsLaunchKernel(ctx, mod, "warp2", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, args) == WS_SUCCESS);
    unsigned r[32 * 7];
    wsMemcpyDtoH(ctx, r, out, sizeof r);
    for (unsigned l = 0; l < 32; l++) {
        const unsigned *v = &r[l * 7];
        /* shfl.down 3 with clamp 31: lanes 29..31 keep their value and get p = 0 */
        CHECK_EQ_U64(v[6], l + 3 <= 31 ? l + 3 + 1000 : l);
        CHECK_EQ_U64(v[0], ((l & ~7u) + 2) * 3);   /* shfl.idx 2 within segments of 8 */
        CHECK_EQ_U64(v[1], 1 + 4);                 /* uni(true), !uni(odd), any(even) over 16 members */
        CHECK_EQ_U64(v[2], (l & 1) ? 0xaaaaaaaau : 0);
        CHECK_EQ_U64(v[3], 0xffffffffu);           /* match.all of equal values */
        CHECK_EQ_U64(v[4], 0);                      /* match.all of differing values */
        CHECK_EQ_U64(v[5], 1);
    }
    wsDestroy(ctx);
}

TEST(bar_arrive_and_exit_in_call)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 64 * 4) == WS_SUCCESS);
    void *args[] = {&out};
    unsigned r[64];
    wsMemset(ctx, out, 0xff, sizeof r);
    REQUIRE(wsLaunchKernel(ctx, mod, "arrive", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, args) == WS_SUCCESS);
    wsMemcpyDtoH(ctx, r, out, sizeof r);
    for (unsigned t = 32; t < 64; t++) {
        unsigned src = (t - 32) ^ 31;
        CHECK_EQ_U64(r[t], src * src);
    }
    CHECK_EQ_U64(r[0], 0xffffffffu);
    wsMemset(ctx, out, 0xff, sizeof r);
    REQUIRE(wsLaunchKernel(ctx, mod, "exit_in_call", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, args) == WS_SUCCESS);
    wsMemcpyDtoH(ctx, r, out, sizeof r);
    for (unsigned t = 0; t < 64; t++)
        CHECK_EQ_U64(r[t], (t & 1) ? 0xffffffffu : t);
    wsDestroy(ctx);
}

TEST(trap_and_watchdog)
{
    ws_module *mod;
    ws_ctx *ctx = open_ctx(&mod, 0);
    REQUIRE(ctx != NULL);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "trapper", ws_dim(1, 1, 1), ws_dim(32, 1, 1), 0, NULL),
                 WS_ERROR_LAUNCH_FAILED);
    CHECK(has(wsGetErrorMessage(ctx), "trap"));
    CHECK(has(wsGetErrorMessage(ctx), "thread (5,0,0) in block (0,0,0)"));
    ws_set_insn_limit(ctx, 100000);
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "forever", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, NULL), WS_ERROR_LIMIT);
    CHECK(has(wsGetErrorMessage(ctx), "forever"));
    const struct ws_launch_info *li = ws_last_launch(ctx);
    REQUIRE(li != NULL);
    CHECK_EQ_INT(li->status, WS_ERROR_LIMIT);
    /* still usable */
    ws_devptr out;
    REQUIRE(wsMalloc(ctx, &out, 48) == WS_SUCCESS);
    void *args[] = {&out};
    CHECK_EQ_INT(wsLaunchKernel(ctx, mod, "packs", ws_dim(1, 1, 1), ws_dim(1, 1, 1), 0, args), WS_SUCCESS);
    wsDestroy(ctx);
}

TEST_MAIN()
