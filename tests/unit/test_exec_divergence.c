/*
 * test_exec_divergence.c - SIMT control flow of the functional executor on
 * real nvcc output: nested ifs, loops with divergent trip counts, early exit
 * followed by a barrier, divergent calls with divergent returns, barrier
 * reductions, shfl/vote/match under partial masks, deadlock detection.
 * Memory forms (atomics, vectors, local arrays, generic shared, param
 * structs) are in test_exec_data.c.
 *
 * ctrl_ptx below is `nvcc -ptx -arch=compute_75 -O3` (CUDA 13.0) of, with
 * comment lines dropped:
 *
 * extern "C" __global__ void nested_if(int *out) {
 *   int t = threadIdx.x, v = 0;
 *   if (t & 1) {
 *     if (t & 2) v = 10 + t; else v = 20 + t;
 *     if (t > 20) v *= 2;
 *   } else {
 *     if (t % 3 == 0) { v = 30; if (t % 9 == 0) v = 40; }
 *     else v = -t;
 *   }
 *   out[t] = v;
 * }
 *
 * extern "C" __global__ void loop_div(int *out) {
 *   int t = threadIdx.x + blockIdx.x * blockDim.x, s = 0;
 *   for (int i = 0; i < (t % 7) + (t % 3); i++) {
 *     s += i * t;
 *     if ((s & 7) == 3) continue;
 *     s ^= i;
 *   }
 *   out[t] = s;
 * }
 *
 * extern "C" __global__ void exit_bar(int *out, int n) {
 *   __shared__ int sm[128];
 *   int t = threadIdx.x;
 *   if (t >= n) return;
 *   sm[t] = t * 3;
 *   __syncthreads();
 *   out[t] = sm[n - 1 - t];
 * }
 *
 * __device__ __noinline__ int dfun(int a, int *p) {
 *   if (a % 5 == 0) return -a;
 *   int s = 0;
 *   for (int i = 0; i < a % 4; i++) { if (i == 2 && (a & 8)) return s + 1000; s += p[i]; }
 *   return s + a;
 * }
 *
 * extern "C" __global__ void div_call(int *out, int *p) {
 *   int t = threadIdx.x;
 *   int v = 7;
 *   if (t & 1) v = dfun(t, p);
 *   else if (t % 4 == 2) v = dfun(t + 1, p) * 2;
 *   out[t] = v;
 * }
 *
 * extern "C" __global__ void warp_ops(unsigned *out) {
 *   int t = threadIdx.x;
 *   unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0, r4 = 0;
 *   if (t < 20) {
 *     unsigned m = __activemask();
 *     r0 = m;
 *     r1 = __ballot_sync(m, t & 1);
 *     r2 = __shfl_down_sync(m, t * 10, 3);
 *     r3 = __any_sync(m, t == 19) | (__all_sync(m, t < 20) << 1) | (__all_sync(m, t < 10) << 2);
 *     r4 = __shfl_sync(m, t * 7, (t + 5) % 20);
 *   } else {
 *     r0 = __activemask();
 *     r2 = __shfl_xor_sync(r0, t, 1);
 *     r3 = __shfl_up_sync(r0, t, 2, 8);
 *     r4 = __match_any_sync(r0, t / 4);
 *   }
 *   out[t * 5 + 0] = r0; out[t * 5 + 1] = r1; out[t * 5 + 2] = r2; out[t * 5 + 3] = r3; out[t * 5 + 4] = r4;
 * }
 *
 * extern "C" __global__ void bar_red(int *out) {
 *   int t = threadIdx.x;
 *   int c = __syncthreads_count(t % 3 == 0);
 *   int a = __syncthreads_and(t < 1000);
 *   int o = __syncthreads_or(t == 5);
 *   int z = __syncthreads_or(0);
 *   out[t] = c * 1000 + a * 100 + o * 10 + z;
 * }
 */
#include <string.h>

#include "test.h"
#include "ws_fixture.h"
#include "warpsim/warpsim.h"
#include "host/ws_internal.h"

static const char ctrl_ptx[] =
    ".version 9.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".func (.param .b32 func_retval0) _Z4dfuniPi(\n"
    "  .param .b32 _Z4dfuniPi_param_0,\n"
    "  .param .b64 _Z4dfuniPi_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<7>;\n"
    "  .reg .b32 %r<31>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u32 %r12, [_Z4dfuniPi_param_0];\n"
    "  ld.param.u64 %rd2, [_Z4dfuniPi_param_1];\n"
    "  mul.hi.s32 %r13, %r12, 1717986919;\n"
    "  shr.u32 %r14, %r13, 31;\n"
    "  shr.s32 %r15, %r13, 1;\n"
    "  add.s32 %r16, %r15, %r14;\n"
    "  mul.lo.s32 %r17, %r16, 5;\n"
    "  sub.s32 %r18, %r12, %r17;\n"
    "  setp.eq.s32 %p1, %r18, 0;\n"
    "  @%p1 bra $L__BB0_7;\n"
    "  shr.s32 %r20, %r12, 31;\n"
    "  shr.u32 %r21, %r20, 30;\n"
    "  add.s32 %r22, %r12, %r21;\n"
    "  and.b32 %r23, %r22, -4;\n"
    "  sub.s32 %r1, %r12, %r23;\n"
    "  setp.lt.s32 %p2, %r1, 1;\n"
    "  mov.u32 %r28, 0;\n"
    "  @%p2 bra $L__BB0_5;\n"
    "  and.b32 %r2, %r12, 8;\n"
    "  cvta.to.global.u64 %rd1, %rd2;\n"
    "  mov.u32 %r27, 0;\n"
    "  mov.u32 %r28, %r27;\n"
    "$L__BB0_3:\n"
    "  setp.eq.s32 %p3, %r27, 2;\n"
    "  setp.ne.s32 %p4, %r2, 0;\n"
    "  and.pred %p5, %p4, %p3;\n"
    "  @%p5 bra $L__BB0_6;\n"
    "  mul.wide.s32 %rd3, %r27, 4;\n"
    "  add.s64 %rd4, %rd1, %rd3;\n"
    "  ld.global.u32 %r26, [%rd4];\n"
    "  add.s32 %r28, %r26, %r28;\n"
    "  add.s32 %r27, %r27, 1;\n"
    "  setp.lt.s32 %p6, %r27, %r1;\n"
    "  @%p6 bra $L__BB0_3;\n"
    "$L__BB0_5:\n"
    "  add.s32 %r30, %r28, %r12;\n"
    "  bra.uni $L__BB0_8;\n"
    "$L__BB0_7:\n"
    "  neg.s32 %r30, %r12;\n"
    "  bra.uni $L__BB0_8;\n"
    "$L__BB0_6:\n"
    "  add.s32 %r30, %r28, 1000;\n"
    "$L__BB0_8:\n"
    "  st.param.b32 [func_retval0+0], %r30;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry nested_if(\n"
    "  .param .u64 nested_if_param_0\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<9>;\n"
    "  .reg .b32 %r<23>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [nested_if_param_0];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r6, %r1, 1;\n"
    "  setp.eq.b32 %p1, %r6, 1;\n"
    "  mov.pred %p2, 0;\n"
    "  xor.pred %p3, %p1, %p2;\n"
    "  not.pred %p4, %p3;\n"
    "  @%p4 bra $L__BB1_2;\n"
    "  bra.uni $L__BB1_1;\n"
    "$L__BB1_2:\n"
    "  mul.hi.s32 %r11, %r1, 1431655766;\n"
    "  shr.u32 %r12, %r11, 31;\n"
    "  add.s32 %r13, %r11, %r12;\n"
    "  mul.lo.s32 %r14, %r13, 3;\n"
    "  sub.s32 %r15, %r1, %r14;\n"
    "  setp.eq.s32 %p7, %r15, 0;\n"
    "  @%p7 bra $L__BB1_4;\n"
    "  neg.s32 %r22, %r1;\n"
    "  bra.uni $L__BB1_5;\n"
    "$L__BB1_1:\n"
    "  and.b32 %r7, %r1, 2;\n"
    "  setp.eq.s32 %p5, %r7, 0;\n"
    "  selp.b32 %r8, 20, 10, %p5;\n"
    "  add.s32 %r9, %r8, %r1;\n"
    "  setp.gt.s32 %p6, %r1, 20;\n"
    "  selp.u32 %r10, 1, 0, %p6;\n"
    "  shl.b32 %r22, %r9, %r10;\n"
    "  bra.uni $L__BB1_5;\n"
    "$L__BB1_4:\n"
    "  mul.hi.s32 %r16, %r1, 954437177;\n"
    "  shr.u32 %r17, %r16, 31;\n"
    "  shr.s32 %r18, %r16, 1;\n"
    "  add.s32 %r19, %r18, %r17;\n"
    "  mul.lo.s32 %r20, %r19, 9;\n"
    "  sub.s32 %r21, %r1, %r20;\n"
    "  setp.eq.s32 %p8, %r21, 0;\n"
    "  selp.b32 %r22, 40, 30, %p8;\n"
    "$L__BB1_5:\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r22;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry loop_div(\n"
    "  .param .u64 loop_div_param_0\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<36>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [loop_div_param_0];\n"
    "  mov.u32 %r11, %ntid.x;\n"
    "  mov.u32 %r12, %ctaid.x;\n"
    "  mov.u32 %r13, %tid.x;\n"
    "  mad.lo.s32 %r1, %r12, %r11, %r13;\n"
    "  mul.hi.s32 %r14, %r1, -1840700269;\n"
    "  add.s32 %r15, %r14, %r1;\n"
    "  shr.u32 %r16, %r15, 31;\n"
    "  shr.s32 %r17, %r15, 2;\n"
    "  add.s32 %r18, %r17, %r16;\n"
    "  mul.lo.s32 %r19, %r18, 7;\n"
    "  sub.s32 %r20, %r1, %r19;\n"
    "  mul.hi.s32 %r21, %r1, 1431655766;\n"
    "  shr.u32 %r22, %r21, 31;\n"
    "  add.s32 %r23, %r21, %r22;\n"
    "  mul.lo.s32 %r24, %r23, 3;\n"
    "  sub.s32 %r25, %r1, %r24;\n"
    "  add.s32 %r2, %r20, %r25;\n"
    "  setp.lt.s32 %p1, %r2, 1;\n"
    "  mov.u32 %r35, 0;\n"
    "  @%p1 bra $L__BB2_3;\n"
    "  mov.u32 %r32, 0;\n"
    "  mov.u32 %r33, %r32;\n"
    "  mov.u32 %r35, %r32;\n"
    "$L__BB2_2:\n"
    "  add.s32 %r29, %r35, %r32;\n"
    "  and.b32 %r30, %r29, 7;\n"
    "  setp.eq.s32 %p2, %r30, 3;\n"
    "  selp.b32 %r31, 0, %r33, %p2;\n"
    "  xor.b32 %r35, %r31, %r29;\n"
    "  add.s32 %r32, %r32, %r1;\n"
    "  add.s32 %r33, %r33, 1;\n"
    "  setp.lt.s32 %p3, %r33, %r2;\n"
    "  @%p3 bra $L__BB2_2;\n"
    "$L__BB2_3:\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r35;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry exit_bar(\n"
    "  .param .u64 exit_bar_param_0,\n"
    "  .param .u32 exit_bar_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<12>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  .shared .align 4 .b8 _ZZ8exit_barE2sm[512];\n"
    "  ld.param.u64 %rd1, [exit_bar_param_0];\n"
    "  ld.param.u32 %r2, [exit_bar_param_1];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.s32 %p1, %r1, %r2;\n"
    "  @%p1 bra $L__BB3_2;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  shl.b32 %r3, %r1, 2;\n"
    "  mov.u32 %r4, _ZZ8exit_barE2sm;\n"
    "  add.s32 %r5, %r4, %r3;\n"
    "  mul.lo.s32 %r6, %r1, 3;\n"
    "  st.shared.u32 [%r5], %r6;\n"
    "  bar.sync 0;\n"
    "  not.b32 %r7, %r1;\n"
    "  add.s32 %r8, %r7, %r2;\n"
    "  shl.b32 %r9, %r8, 2;\n"
    "  add.s32 %r10, %r4, %r9;\n"
    "  ld.shared.u32 %r11, [%r10];\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r11;\n"
    "$L__BB3_2:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry div_call(\n"
    "  .param .u64 div_call_param_0,\n"
    "  .param .u64 div_call_param_1\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<6>;\n"
    "  .reg .b32 %r<15>;\n"
    "  .reg .b64 %rd<6>;\n"
    "  ld.param.u64 %rd1, [div_call_param_0];\n"
    "  ld.param.u64 %rd2, [div_call_param_1];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  and.b32 %r5, %r1, 1;\n"
    "  setp.eq.b32 %p1, %r5, 1;\n"
    "  mov.pred %p2, 0;\n"
    "  xor.pred %p3, %p1, %p2;\n"
    "  not.pred %p4, %p3;\n"
    "  @%p4 bra $L__BB4_2;\n"
    "  bra.uni $L__BB4_1;\n"
    "$L__BB4_2:\n"
    "  shr.s32 %r7, %r1, 31;\n"
    "  shr.u32 %r8, %r7, 30;\n"
    "  add.s32 %r9, %r1, %r8;\n"
    "  and.b32 %r10, %r9, -4;\n"
    "  sub.s32 %r11, %r1, %r10;\n"
    "  setp.ne.s32 %p5, %r11, 2;\n"
    "  mov.u32 %r14, 7;\n"
    "  @%p5 bra $L__BB4_4;\n"
    "  add.s32 %r12, %r1, 1;\n"
    "  { // callseq 1, 0\n"
    "  .reg .b32 temp_param_reg;\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0+0], %r12;\n"
    "  .param .b64 param1;\n"
    "  st.param.b64 [param1+0], %rd2;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0),\n"
    "  _Z4dfuniPi,\n"
    "  (\n"
    "  param0,\n"
    "  param1\n"
    "  );\n"
    "  ld.param.b32 %r13, [retval0+0];\n"
    "  } // callseq 1\n"
    "  shl.b32 %r14, %r13, 1;\n"
    "  bra.uni $L__BB4_4;\n"
    "$L__BB4_1:\n"
    "  { // callseq 0, 0\n"
    "  .reg .b32 temp_param_reg;\n"
    "  .param .b32 param0;\n"
    "  st.param.b32 [param0+0], %r1;\n"
    "  .param .b64 param1;\n"
    "  st.param.b64 [param1+0], %rd2;\n"
    "  .param .b32 retval0;\n"
    "  call.uni (retval0),\n"
    "  _Z4dfuniPi,\n"
    "  (\n"
    "  param0,\n"
    "  param1\n"
    "  );\n"
    "  ld.param.b32 %r14, [retval0+0];\n"
    "  } // callseq 0\n"
    "$L__BB4_4:\n"
    "  cvta.to.global.u64 %rd3, %rd1;\n"
    "  mul.wide.s32 %rd4, %r1, 4;\n"
    "  add.s64 %rd5, %rd3, %rd4;\n"
    "  st.global.u32 [%rd5], %r14;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry warp_ops(\n"
    "  .param .u64 warp_ops_param_0\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<14>;\n"
    "  .reg .b16 %rs<2>;\n"
    "  .reg .b32 %r<49>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [warp_ops_param_0];\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.s32 %p1, %r1, 20;\n"
    "  @%p1 bra $L__BB5_2;\n"
    "  bra.uni $L__BB5_1;\n"
    "$L__BB5_2:\n"
    "  activemask.b32 %r44;\n"
    "  and.b32 %r24, %r1, 1;\n"
    "  setp.eq.b32 %p4, %r24, 1;\n"
    "  mov.u32 %r25, 3;\n"
    "  vote.sync.ballot.b32 %r45, %p4, %r44;\n"
    "  mul.lo.s32 %r26, %r1, 10;\n"
    "  mov.u32 %r27, 31;\n"
    "  shfl.sync.down.b32 %r46|%p6, %r26, %r25, %r27, %r44;\n"
    "  setp.eq.s32 %p7, %r1, 19;\n"
    "  vote.sync.any.pred %p8, %p7, %r44;\n"
    "  selp.u32 %r29, 1, 0, %p8;\n"
    "  mov.pred %p9, -1;\n"
    "  vote.sync.all.pred %p10, %p9, %r44;\n"
    "  selp.u32 %r31, -1, 0, %p10;\n"
    "  bfi.b32 %r32, %r31, %r29, 1, 1;\n"
    "  setp.lt.s32 %p11, %r1, 10;\n"
    "  vote.sync.all.pred %p12, %p11, %r44;\n"
    "  selp.u16 %rs1, 1, 0, %p12;\n"
    "  mul.wide.u16 %r34, %rs1, 4;\n"
    "  or.b32 %r47, %r32, %r34;\n"
    "  add.s32 %r35, %r1, 5;\n"
    "  mul.hi.s32 %r36, %r35, 1717986919;\n"
    "  shr.u32 %r37, %r36, 31;\n"
    "  shr.s32 %r38, %r36, 3;\n"
    "  add.s32 %r39, %r38, %r37;\n"
    "  mul.lo.s32 %r40, %r39, 20;\n"
    "  sub.s32 %r41, %r35, %r40;\n"
    "  mul.lo.s32 %r42, %r1, 7;\n"
    "  shfl.sync.idx.b32 %r48|%p13, %r42, %r41, %r27, %r44;\n"
    "  bra.uni $L__BB5_3;\n"
    "$L__BB5_1:\n"
    "  activemask.b32 %r44;\n"
    "  mov.u32 %r18, 31;\n"
    "  mov.u32 %r19, 1;\n"
    "  shfl.sync.bfly.b32 %r46|%p2, %r1, %r19, %r18, %r44;\n"
    "  mov.u32 %r20, 6144;\n"
    "  mov.u32 %r21, 2;\n"
    "  shfl.sync.up.b32 %r47|%p3, %r1, %r21, %r20, %r44;\n"
    "  shr.u32 %r22, %r1, 2;\n"
    "  match.any.sync.b32 %r48, %r22, %r44;\n"
    "  mov.u32 %r45, 0;\n"
    "$L__BB5_3:\n"
    "  mul.lo.s32 %r43, %r1, 5;\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.s32 %rd3, %r43, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r44;\n"
    "  st.global.u32 [%rd4+4], %r45;\n"
    "  st.global.u32 [%rd4+8], %r46;\n"
    "  st.global.u32 [%rd4+12], %r47;\n"
    "  st.global.u32 [%rd4+16], %r48;\n"
    "  ret;\n"
    "}\n"
    ".visible .entry bar_red(\n"
    "  .param .u64 bar_red_param_0\n"
    ")\n"
    "{\n"
    "  .reg .pred %p<4>;\n"
    "  .reg .b32 %r<19>;\n"
    "  .reg .b64 %rd<5>;\n"
    "  ld.param.u64 %rd1, [bar_red_param_0];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  mul.hi.s32 %r2, %r1, 1431655766;\n"
    "  shr.u32 %r3, %r2, 31;\n"
    "  add.s32 %r4, %r2, %r3;\n"
    "  mul.lo.s32 %r5, %r4, 3;\n"
    "  sub.s32 %r6, %r1, %r5;\n"
    "  setp.eq.s32 %p1, %r6, 0;\n"
    "  mov.u32 %r7, 0;\n"
    "  selp.u32 %r8, 1, 0, %p1;\n"
    "  {\n"
    "  .reg .pred %p1;\n"
    "  setp.ne.u32 %p1, %r8, 0;\n"
    "  bar.red.popc.u32 %r9, 0, %p1;\n"
    "  }\n"
    "  setp.lt.s32 %p2, %r1, 1000;\n"
    "  selp.u32 %r10, 1, 0, %p2;\n"
    "  {\n"
    "  .reg .pred %p1;\n"
    "  .reg .pred %p2;\n"
    "  setp.ne.u32 %p1, %r10, 0;\n"
    "  bar.red.and.pred %p2, 0, %p1;\n"
    "  selp.u32 %r11, 1, 0, %p2;\n"
    "  }\n"
    "  setp.eq.s32 %p3, %r1, 5;\n"
    "  selp.u32 %r12, 1, 0, %p3;\n"
    "  {\n"
    "  .reg .pred %p1;\n"
    "  .reg .pred %p2;\n"
    "  setp.ne.u32 %p1, %r12, 0;\n"
    "  bar.red.or.pred %p2, 0, %p1;\n"
    "  selp.u32 %r13, 1, 0, %p2;\n"
    "  }\n"
    "  {\n"
    "  .reg .pred %p1;\n"
    "  .reg .pred %p2;\n"
    "  setp.ne.u32 %p1, %r7, 0;\n"
    "  bar.red.or.pred %p2, 0, %p1;\n"
    "  selp.u32 %r14, 1, 0, %p2;\n"
    "  }\n"
    "  mul.lo.s32 %r15, %r9, 1000;\n"
    "  mad.lo.s32 %r16, %r11, 100, %r15;\n"
    "  mad.lo.s32 %r17, %r13, 10, %r16;\n"
    "  add.s32 %r18, %r17, %r14;\n"
    "  mul.wide.s32 %rd3, %r1, 4;\n"
    "  add.s64 %rd4, %rd2, %rd3;\n"
    "  st.global.u32 [%rd4], %r18;\n"
    "  ret;\n"
    "}\n";

/* ---- fixture -------------------------------------------------------------------- */

#define OPEN(f) REQUIRE(fx_open(&(f), ctrl_ptx, sizeof ctrl_ptx - 1, "ctrl.ptx") == 0)

/* ---- control flow ------------------------------------------------------------------ */

TEST(nested_if)
{
    struct fx f;
    OPEN(f);
    int out[48];
    ws_devptr d = fx_buf(&f, NULL, sizeof out);
    void *args[] = {&d};
    REQUIRE(fx_launch(&f, "nested_if", ws_dim(1, 1, 1), ws_dim(48, 1, 1), args) == WS_SUCCESS);
    wsMemcpyDtoH(f.ctx, out, d, sizeof out);
    for (int t = 0; t < 48; t++) {
        int v;
        if (t & 1) {
            v = (t & 2) ? 10 + t : 20 + t;
            if (t > 20) v *= 2;
        } else if (t % 3 == 0) {
            v = t % 9 == 0 ? 40 : 30;
        } else {
            v = -t;
        }
        CHECK_EQ_INT(out[t], v);
    }
    /* 48 threads = one full warp and one half warp: thread instructions count lanes */
    const struct ws_launch_info *li = ws_last_launch(f.ctx);
    REQUIRE(li != NULL);
    CHECK(li->thread_insns > li->warp_insns);
    CHECK(li->thread_insns <= li->warp_insns * 32);
    wsDestroy(f.ctx);
}

TEST(loop_divergent_trip_counts)
{
    struct fx f;
    OPEN(f);
    int out[2 * 48];
    ws_devptr d = fx_buf(&f, NULL, sizeof out);
    void *args[] = {&d};
    REQUIRE(fx_launch(&f, "loop_div", ws_dim(2, 1, 1), ws_dim(48, 1, 1), args) == WS_SUCCESS);
    wsMemcpyDtoH(f.ctx, out, d, sizeof out);
    for (int t = 0; t < 96; t++) {
        int s = 0;
        for (int i = 0; i < (t % 7) + (t % 3); i++) {
            s += i * t;
            if ((s & 7) == 3) continue;
            s ^= i;
        }
        CHECK_EQ_INT(out[t], s);
    }
    wsDestroy(f.ctx);
}

TEST(early_exit_then_barrier)
{
    struct fx f;
    OPEN(f);
    int ns[] = {70, 33, 100, 1};
    for (unsigned k = 0; k < sizeof ns / sizeof ns[0]; k++) {
        int n = ns[k];
        int out[100];
        for (int i = 0; i < 100; i++) out[i] = -1;
        ws_devptr d = fx_buf(&f, out, sizeof out);
        void *args[] = {&d, &n};
        REQUIRE(fx_launch(&f, "exit_bar", ws_dim(1, 1, 1), ws_dim(100, 1, 1), args) == WS_SUCCESS);
        wsMemcpyDtoH(f.ctx, out, d, sizeof out);
        for (int t = 0; t < 100; t++)
            CHECK_EQ_INT(out[t], t < n ? (n - 1 - t) * 3 : -1);
        wsFree(f.ctx, d);
    }
    wsDestroy(f.ctx);
}

static int ref_dfun(int a, const int *p)
{
    if (a % 5 == 0) return -a;
    int s = 0;
    for (int i = 0; i < a % 4; i++) {
        if (i == 2 && (a & 8)) return s + 1000;
        s += p[i];
    }
    return s + a;
}

TEST(divergent_call_and_ret)
{
    struct fx f;
    OPEN(f);
    int p[4] = {1, 20, 300, 4000}, out[64];
    ws_devptr dp = fx_buf(&f, p, sizeof p), d = fx_buf(&f, NULL, sizeof out);
    void *args[] = {&d, &dp};
    REQUIRE(fx_launch(&f, "div_call", ws_dim(1, 1, 1), ws_dim(64, 1, 1), args) == WS_SUCCESS);
    wsMemcpyDtoH(f.ctx, out, d, sizeof out);
    for (int t = 0; t < 64; t++) {
        int v = 7;
        if (t & 1) v = ref_dfun(t, p);
        else if (t % 4 == 2) v = ref_dfun(t + 1, p) * 2;
        CHECK_EQ_INT(out[t], v);
    }
    wsDestroy(f.ctx);
}

TEST(barrier_reductions)
{
    struct fx f;
    OPEN(f);
    int out[96];
    ws_devptr d = fx_buf(&f, NULL, sizeof out);
    void *args[] = {&d};
    REQUIRE(fx_launch(&f, "bar_red", ws_dim(1, 1, 1), ws_dim(96, 1, 1), args) == WS_SUCCESS);
    wsMemcpyDtoH(f.ctx, out, d, sizeof out);
    for (int t = 0; t < 96; t++)
        CHECK_EQ_INT(out[t], 32 * 1000 + 100 + 10 + 0);
    wsDestroy(f.ctx);
}

/* ---- warp-level ops under partial masks ------------------------------------------------ */

TEST(shfl_vote_partial_masks)
{
    struct fx f;
    OPEN(f);
    unsigned out[64 * 5];
    ws_devptr d = fx_buf(&f, NULL, sizeof out);
    void *args[] = {&d};
    REQUIRE(fx_launch(&f, "warp_ops", ws_dim(1, 1, 1), ws_dim(64, 1, 1), args) == WS_SUCCESS);
    wsMemcpyDtoH(f.ctx, out, d, sizeof out);
    for (unsigned t = 0; t < 64; t++) {
        const unsigned *r = &out[t * 5];
        unsigned lane = t % 32;
        if (t < 20) {
            CHECK_EQ_U64(r[0], 0xfffffu);
            CHECK_EQ_U64(r[1], 0xaaaaau);              /* odd lanes of the 20 active */
            if (lane + 3 < 20)                          /* sources outside the mask are undefined */
                CHECK_EQ_U64(r[2], (t + 3) * 10);
            CHECK_EQ_U64(r[3], 3u);                     /* any(t==19)=1, all(t<20)=1, all(t<10)=0 */
            CHECK_EQ_U64(r[4], ((t + 5) % 20) * 7);
        } else {
            unsigned m = t < 32 ? 0xfff00000u : 0xffffffffu;
            CHECK_EQ_U64(r[0], m);
            CHECK_EQ_U64(r[1], 0u);
            CHECK_EQ_U64(r[2], t ^ 1u);
            /* shfl.up by 2 within segments of 8 lanes; lanes 20,21 would read inactive lanes 18,19 */
            if (lane % 8 < 2)
                CHECK_EQ_U64(r[3], t);
            else if (!(t < 32 && lane < 22))
                CHECK_EQ_U64(r[3], t - 2);
            CHECK_EQ_U64(r[4], (0xfu << (lane / 4 * 4)) & m);
        }
    }
    wsDestroy(f.ctx);
}

/* ---- barriers that cannot complete ------------------------------------------------------- */

static const char deadlock_ptx[] =
    ".version 7.0\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry two_bars(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.lt.u32 %p1, %r1, 32;\n"
    "  @%p1 bra LOW;\n"
    "  bar.sync 1;\n"
    "  bra.uni DONE;\n"
    "LOW:\n"
    "  bar.sync 0;\n"
    "DONE:\n"
    "  ret;\n"
    "}\n"
    ".visible .entry counted(.param .u64 out)\n"
    "{\n"
    "  .reg .pred %p<2>;\n"
    "  .reg .b32 %r<4>;\n"
    "  .reg .b64 %rd<4>;\n"
    "  mov.u32 %r1, %tid.x;\n"
    "  setp.ge.u32 %p1, %r1, 64;\n"
    "  @%p1 bra SKIP;\n"
    "  bar.sync 2, 64;\n"            /* the first two warps meet at a 64-thread barrier */
    "SKIP:\n"
    "  ld.param.u64 %rd1, [out];\n"
    "  cvta.to.global.u64 %rd2, %rd1;\n"
    "  mul.wide.u32 %rd3, %r1, 4;\n"
    "  add.s64 %rd2, %rd2, %rd3;\n"
    "  st.global.u32 [%rd2], %r1;\n"
    "  ret;\n"
    "}\n";

TEST(deadlock_reported)
{
    ws_ctx *ctx;
    ws_module *mod;
    REQUIRE(wsCreate(&ctx, NULL) == WS_SUCCESS);
    REQUIRE(wsModuleLoadData(ctx, &mod, deadlock_ptx, sizeof deadlock_ptx - 1, "dl.ptx") == WS_SUCCESS);
    ws_devptr d;
    REQUIRE(wsMalloc(ctx, &d, 128 * 4) == WS_SUCCESS);
    void *args[] = {&d};
    ws_status st = wsLaunchKernel(ctx, mod, "two_bars", ws_dim(1, 1, 1), ws_dim(64, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_ERROR_DEADLOCK);
    const char *msg = wsGetErrorMessage(ctx);
    CHECK(strstr(msg, "two_bars") != NULL);
    CHECK(strstr(msg, "block (0,0,0)") != NULL);
    CHECK(strstr(msg, "barrier 0") != NULL);
    CHECK(strstr(msg, "dl.ptx:14:") != NULL);
    /* a barrier with an explicit count completes with only the threads it names */
    st = wsLaunchKernel(ctx, mod, "counted", ws_dim(1, 1, 1), ws_dim(128, 1, 1), 0, args);
    CHECK_EQ_INT(st, WS_SUCCESS);
    unsigned out[128];
    wsMemcpyDtoH(ctx, out, d, sizeof out);
    CHECK_EQ_INT(out[0], 0);
    CHECK_EQ_INT(out[127], 127);
    wsDestroy(ctx);
}

TEST_MAIN()
