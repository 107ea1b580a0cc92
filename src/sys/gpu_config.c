/*
 * gpu_config.c - the machine's option table, loading, validation and the
 * derived fields (see gpu_config.h).  Defaults are the GTX480 baseline of
 * configs/gtx480.config (000 Table 3.1; docs/config.md explains each number).
 */
#include "sys/gpu_config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mem/addr_map.h"
#include "mem/cache.h"
#include "mem/dram.h"
#include "noc/icnt.h"
#include "noc/mesh_place.h"
#include "sys/gpu_cpu.h"
#include "policy/bypass.h"
#include "policy/cm.h"
#include "policy/warp_sched.h"
#include "policy/repl.h"

#define GC_MAX_THREADS 2048u   /* threads per SM: 64 warps, the SM's warp masks are one 64-bit word */

#define O(name, type, field, def, lo, hi, doc) CFG_OPT(name, type, struct gpu_config, field, def, lo, hi, doc)

const struct cfg_opt gpu_config_opts[] = {
    /* ---- topology ---- */
    O("gpgpu_n_clusters", CFG_UINT, n_clusters, "15", 1, 256, "SM clusters (each shares one crossbar port)"),
    O("gpgpu_n_cores_per_cluster", CFG_UINT, n_cores_per_cluster, "1", 1, 64, "SMs per cluster"),
    O("gpgpu_n_mem", CFG_UINT, n_mem, "6", 1, 64, "memory channels (partitions), one DRAM controller each"),
    O("gpgpu_n_sub_partition_per_mchannel", CFG_UINT, n_sub_partition_per_mchannel, "1", 1, 8,
      "L2 slices (sub-partitions) per memory channel, a power of two"),

    /* ---- SM ---- */
    O("gpgpu_shader_core_pipeline", CFG_STRING, shader_core_pipeline, "1536:32", 0, 0,
      "<threads per SM>:<warp size>; warp size must be 32"),
    O("gpgpu_shader_cta", CFG_UINT, max_cta_per_core, "8", 1, 64, "max resident CTAs per SM"),
    O("gpgpu_shader_registers", CFG_UINT, registers_per_core, "32768", 256, 1048576, "32-bit registers per SM"),
    O("gpgpu_shmem_size", CFG_UINT, shmem_size, "49152", 0, 1048576, "shared memory bytes per SM"),
    O("gpgpu_shmem_num_banks", CFG_UINT, shmem_num_banks, "32", 1, 64, "shared memory banks (4-byte wide)"),
    O("gpgpu_smem_latency", CFG_UINT, shmem_latency, "3", 1, 1000,
      "cycles of a conflict-free shared-memory access"),
    O("gpgpu_num_sched_per_core", CFG_UINT, num_sched_per_core, "2", 1, 8, "warp schedulers per SM"),
    O("gpgpu_scheduler", CFG_STRING, scheduler, "lrr", 0, 0, "warp scheduling policy (warpsim list --policies)"),
    O("warpsim_cta_scheduler", CFG_STRING, cta_scheduler, "rr", 0, 0, "CTA scheduling policy"),
    O("warpsim_cta_pause_stops", CFG_UINT, cta_pause_stops, "0", 0, 1,
      "1: warps of paused CTAs never issue (an ablation; 001 sec. IV only deprioritises them, the default 0)"),
    O("warpsim_c_idle_fetch", CFG_UINT, c_idle_fetch, "1", 0, 1,
      "1: a warp waiting for instruction fetch or a branch redirect counts as idle in C_idle (GPGPU-Sim's "
      "\"no valid instruction\"); 0: only warps at a barrier and cores without warps (001 sec. III-A; an ablation)"),
    O("warpsim_cm", CFG_STRING, cm, "none", 0, 0,
      "concurrency manager (004 sec. 4: none, cm_cpu, cm_bal, cm_bal1..4): sets each core's warp limit through a "
      "warp scheduler that takes one (swl)"),
    O("gpgpu_max_insn_issue_per_warp", CFG_UINT, max_insn_issue_per_warp, "1", 1, 2,
      "instructions one scheduler may issue from one warp per cycle"),
    O("warpsim_ibuffer_size", CFG_UINT, ibuffer_size, "2", 1, 64, "decoded instructions buffered per warp"),
    O("warpsim_fetch_decode_latency", CFG_UINT, fetch_latency, "1", 0, 1000,
      "cycles from an I-cache hit to the instruction buffer"),
    O("gpgpu_num_sp_units", CFG_UINT, num_sp_units, "2", 1, 8, "SP pipelines per SM (int and fp32)"),
    O("gpgpu_num_sfu_units", CFG_UINT, num_sfu_units, "1", 1, 8, "SFU pipelines per SM"),
    O("gpgpu_num_dp_units", CFG_UINT, num_dp_units, "0", 0, 8, "DP pipelines per SM (0: DP runs on the SP units)"),
    O("warpsim_simd_width", CFG_UINT, simd_width, "32", 1, 32,
      "lanes per SP pipeline; a warp takes 32/width cycles (divides 32)"),
    O("warpsim_writeback_ports", CFG_UINT, wb_ports, "2", 1, 16, "results written back per cycle"),
    O("ptx_opcode_latency_int", CFG_STRING, opcode_latency_int, "4,13,4,5,145", 0, 0,
      "integer latency ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_initiation_int", CFG_STRING, opcode_initiation_int, "1,2,2,2,8", 0, 0,
      "integer initiation interval ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_latency_fp", CFG_STRING, opcode_latency_fp, "4,13,4,5,39", 0, 0, "fp32 latency ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_initiation_fp", CFG_STRING, opcode_initiation_fp, "1,2,1,1,4", 0, 0,
      "fp32 initiation interval ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_latency_dp", CFG_STRING, opcode_latency_dp, "8,19,8,8,330", 0, 0, "fp64 latency ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_initiation_dp", CFG_STRING, opcode_initiation_dp, "8,16,8,8,130", 0, 0,
      "fp64 initiation interval ADD,MAX,MUL,MAD,DIV"),
    O("ptx_opcode_latency_sfu", CFG_UINT, sfu_latency, "20", 1, 10000, "SFU latency"),
    O("ptx_opcode_initiation_sfu", CFG_UINT, sfu_initiation, "4", 1, 10000, "SFU initiation interval"),
    O("warpsim_branch_latency", CFG_UINT, branch_latency, "2", 0, 1000,
      "cycles until a branch's next PC is known (fetch waits)"),

    /* ---- memory pipeline of the SM ---- */
    O("gpgpu_cache:dl1", CFG_STRING, cache_dl1, "32:128:4,L:L:m:N:H,A:32:8,8", 0, 0, "L1 data cache per SM"),
    O("gpgpu_cache:il1", CFG_STRING, cache_il1, "4:128:4,L:R:f:N:L,A:2:32,4", 0, 0, "L1 instruction cache per SM"),
    O("gpgpu_const_cache:l1", CFG_STRING, cache_const, "64:64:2,L:R:f:N:L,A:2:32,4", 0, 0,
      "constant cache per SM"),
    O("gpgpu_tex_cache:l1", CFG_STRING, cache_tex, "4:128:24,L:R:m:N:L,F:128:4,128", 0, 0, "texture cache per SM"),
    O("gpgpu_l1_latency", CFG_UINT, l1d_latency, "1", 0, 1000, "L1D hit latency (core cycles)"),
    O("warpsim_const_latency", CFG_UINT, const_latency, "1", 0, 1000, "constant-cache hit latency (core cycles)"),
    O("warpsim_coalesce_sector", CFG_UINT, coalesce_sector, "0", 0, 128,
      "0: whole-line requests; else sector bytes (power of two, <= L1D line)"),
    O("warpsim_ldst_queue", CFG_UINT, ldst_queue, "16", 1, 4096, "SM -> interconnect request queue entries"),
    O("warpsim_reply_queue", CFG_UINT, reply_queue, "16", 1, 4096, "interconnect -> SM reply buffer entries"),

    /* ---- memory partitions ---- */
    O("gpgpu_cache:dl2", CFG_STRING, cache_dl2, "64:128:16,L:B:m:W:L,A:256:64,16", 0, 0,
      "L2 slice (one per sub-partition)"),
    O("warpsim_l1d_repl", CFG_STRING, l1d_repl, "", 0, 0,
      "L1D replacement policy by name (warpsim list --policies); \"\": the -gpgpu_cache:dl1 letter"),
    O("warpsim_l1i_repl", CFG_STRING, l1i_repl, "", 0, 0,
      "L1I replacement policy by name (warpsim list --policies); \"\": the -gpgpu_cache:il1 letter"),
    O("warpsim_l1c_repl", CFG_STRING, l1c_repl, "", 0, 0,
      "constant-cache replacement policy by name (warpsim list --policies); \"\": the -gpgpu_const_cache:l1 letter"),
    O("warpsim_l1t_repl", CFG_STRING, l1t_repl, "", 0, 0,
      "texture-cache replacement policy by name (warpsim list --policies); \"\": the -gpgpu_tex_cache:l1 letter"),
    O("warpsim_l2_repl", CFG_STRING, l2_repl, "", 0, 0,
      "L2 replacement policy by name (warpsim list --policies); \"\": the -gpgpu_cache:dl2 letter"),
    O("warpsim_l1d_bypass", CFG_STRING, l1d_bypass, "none", 0, 0,
      "L1D bypass policy by name (warpsim list --policies): none, all, pcbased, ctrlc, ..."),
    O("warpsim_l1i_bypass", CFG_STRING, l1i_bypass, "none", 0, 0,
      "L1I bypass policy by name (warpsim list --policies): a bypassed fetch miss is not allocated"),
    O("warpsim_l1c_bypass", CFG_STRING, l1c_bypass, "none", 0, 0,
      "constant-cache bypass policy by name (warpsim list --policies)"),
    O("warpsim_l1t_bypass", CFG_STRING, l1t_bypass, "none", 0, 0,
      "texture-cache bypass policy by name (warpsim list --policies)"),
    O("warpsim_l2_bypass", CFG_STRING, l2_bypass, "none", 0, 0, "L2 bypass policy by name (warpsim list --policies)"),
    O("warpsim_bypass_mshr", CFG_UINT, bypass_mshr, "0", 0, 1,
      "1: a bypassed read takes an MSHR entry (merged, no line at its fill); 0: none, it goes below as is "
      "(GPGPU-Sim -gpgpu_gmem_skip_L1D)"),
    O("gpgpu_l2_rop_latency", CFG_UINT, l2_rop_latency, "0", 0, 100000,
      "ROP queue: core cycles every request waits on entering a memory sub-partition, before the L2"),
    O("dram_latency", CFG_UINT, dram_latency, "0", 0, 100000,
      "DRAM latency queue: core cycles every request the L2 sends to DRAM waits before the DRAM scheduler"),
    O("warpsim_l2_hit_latency", CFG_UINT, l2_hit_latency, "100", 0, 100000,
      "L2 read/atomic hit pipeline after the tag lookup (L2 cycles); 0 unless set when a config sets "
      "-gpgpu_l2_rop_latency or -dram_latency"),
    O("warpsim_dram_return_latency", CFG_UINT, dram_return_latency, "250", 0, 100000,
      "fixed DRAM read return path after the data burst (DRAM cycles); 0 unless set when a config sets "
      "-gpgpu_l2_rop_latency or -dram_latency"),
    O("warpsim_l2_queue", CFG_UINT, l2_queue, "16", 1, 4096,
      "entries of the icnt->L2, L2->DRAM and L2 return queues"),
    O("gpgpu_dram_timing_opt", CFG_STRING, dram_timing_opt,
      "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2", 0, 0,
      "DRAM banks and timing (DRAM command cycles)"),
    O("gpgpu_dram_buswidth", CFG_UINT, dram_chip_buswidth, "8", 1, 64,
      "bytes per data-bus beat of one DRAM chip (a channel is -gpgpu_n_mem_per_ctrlr chips wide)"),
    O("gpgpu_n_mem_per_ctrlr", CFG_UINT, n_mem_per_ctrlr, "1", 1, 16,
      "DRAM chips side by side on one channel: a beat moves -gpgpu_dram_buswidth x this many bytes"),
    O("gpgpu_dram_burst_length", CFG_UINT, dram_burst_length, "8", 1, 64, "beats per access"),
    O("dram_data_command_freq_ratio", CFG_UINT, dram_data_command_freq_ratio, "4", 1, 16,
      "data beats per command cycle (2 DDR, 4 GDDR5)"),
    O("gpgpu_frfcfs_dram_sched_queue_size", CFG_UINT, frfcfs_queue_size, "16", 1, 4096,
      "DRAM scheduler queue entries per channel"),
    O("gpgpu_dram_return_queue_size", CFG_UINT, dram_return_queue_size, "116", 1, 4096,
      "DRAM return queue entries per channel"),
    O("gpgpu_dram_scheduler", CFG_UINT, dram_scheduler, "1", 0, 1, "0 FIFO, 1 FR-FCFS"),
    O("gpgpu_mem_addr_mapping", CFG_STRING, mem_addr_mapping,
      "dramid@8;00000000.00000000.00000000.00000000.0000RRRR.RRRRRRRR.RBBBCCCC.BCCSSSSS", 0, 0,
      "address bits -> row/bank/column/channel"),

    /* ---- interconnect ---- */
    O("icnt_flit_size", CFG_UINT, icnt_flit_size, "32", 4, 1024, "bytes per flit"),
    O("warpsim_icnt_latency", CFG_UINT, icnt_latency, "6", 0, 10000, "router + link cycles (icnt clock)"),
    O("warpsim_icnt_input_buffer", CFG_UINT, icnt_in_buffer, "16", 1, 4096, "flits buffered per input port"),
    O("warpsim_icnt_output_buffer", CFG_UINT, icnt_out_buffer, "16", 1, 4096, "flits buffered per output port"),
    O("warpsim_icnt_bandwidth", CFG_UINT, icnt_flits_per_cycle, "1", 1, 64, "flits an output accepts per cycle"),
    O("warpsim_icnt_vcs", CFG_UINT, icnt_vcs, "1", 1, 16,
      "crossbar only: virtual channels per input port, splitting -warpsim_icnt_input_buffer (1: one FIFO)"),
    O("warpsim_icnt_input_speedup", CFG_UINT, icnt_input_speedup, "1", 1, 16,
      "crossbar only: VCs of one input port that may send in the same cycle, to different outputs"),
    O("warpsim_icnt", CFG_STRING, icnt_kind_name, "xbar", 0, 0,
      "interconnect: xbar (input-buffered crossbar) or mesh (2D mesh, VCs, credits, XY routing)"),
    O("warpsim_mesh_cols", CFG_UINT, mesh_cols, "0", 0, 256,
      "mesh columns (0: the smallest near-square holding every SM and memory node)"),
    O("warpsim_mesh_rows", CFG_UINT, mesh_rows, "0", 0, 256, "mesh rows (0: enough for every SM and memory node)"),
    O("warpsim_mesh_vcs", CFG_UINT, mesh_vcs, "4", 1, 16, "mesh virtual channels per input port"),
    O("warpsim_mesh_vc_buf", CFG_UINT, mesh_vc_buf, "4", 1, 256, "mesh flits buffered per virtual channel"),
    O("warpsim_mesh_router_latency", CFG_UINT, mesh_router_latency, "2", 1, 1000,
      "mesh cycles from a flit's arrival in a router to its switch traversal (RC, VA, SA)"),
    O("warpsim_mesh_link_latency", CFG_UINT, mesh_link_latency, "1", 1, 1000,
      "mesh cycles from switch traversal to arrival at the next router"),
    O("warpsim_mesh_sm_nodes", CFG_STRING, mesh_sm_nodes, "", 0, 0,
      "mesh node of each SM, e.g. \"0-3,5\" (empty: fill the nodes without memory)"),
    O("warpsim_mesh_mem_nodes", CFG_STRING, mesh_mem_nodes, "", 0, 0,
      "mesh node of each memory sub-partition (empty: spread over rows and columns)"),
    O("warpsim_mesh_partition", CFG_STRING, mesh_partition, "", 0, 0,
      "mesh VCs and link width split between GPU and CPU traffic, <g>G<c>C (e.g. 3G1C); empty: shared"),

    /* ---- CPU cores on the chip (004; docs/hetero.md) ---- */
    O("warpsim_cpu_cores", CFG_UINT, cpu_cores, "0", 0, 1024,
      "trace-driven out-of-order CPU cores sharing the L2 (LLC), network and DRAM with the SMs (004)"),
    O("warpsim_cpu_clock", CFG_DOUBLE, cpu_clock_mhz, "2000", 1, 100000, "CPU core clock in MHz (004: 2000)"),
    O("warpsim_cpu_apps", CFG_STRING, cpu_apps, "", 0, 0,
      "what the CPU cores run, in core order: profiles (warpsim trace gen --list), mixes L1..H2 (14 profiles "
      "each) or trace files, comma-separated; cores without an item idle"),
    O("warpsim_cpu_warmup", CFG_U64, cpu_warmup, "50000", 0, 1e12,
      "instructions each CPU core runs before the GPU starts (004: 500K)"),
    O("warpsim_cpu_quota", CFG_U64, cpu_quota, "0", 0, 1e12,
      "instructions per CPU core measured from the GPU's start, every core running until the slowest has "
      "them (004: 5M); 0: each core is measured while the GPU runs, from its first kernel to its last"),
    O("warpsim_cpu_seed", CFG_UINT, cpu_seed, "1", 0, 4000000000.0, "seed of the synthetic profiles (the same on every core: a profile gives one stream wherever it runs)"),
    O("warpsim_cpu_width", CFG_UINT, cpu_width, "3", 1, 16, "CPU fetch/issue/retire width (004: 3)"),
    O("warpsim_cpu_rob", CFG_UINT, cpu_rob, "128", 4, 4096, "CPU instruction window entries (004: 128)"),
    O("warpsim_cpu_l1_latency", CFG_UINT, cpu_l1_lat, "2", 1, 1000, "CPU L1D lookup cycles (004: 2)"),
    O("warpsim_cpu_l2_latency", CFG_UINT, cpu_l2_lat, "8", 1, 1000, "CPU L2 lookup cycles (004: 8)"),
    O("warpsim_cpu_mispredict_penalty", CFG_UINT, cpu_mispredict, "12", 0, 10000,
      "CPU cycles after a mispredicted branch executes before fetch resumes"),
    O("warpsim_cpu_l1d", CFG_STRING, cpu_l1d, "64:128:4,L:B:m:W:L,A:16:8,16", 0, 0,
      "CPU L1D cache string (004: 32 KB 4-way, 128 B lines)"),
    O("warpsim_cpu_l2", CFG_STRING, cpu_l2, "256:128:8,L:B:m:L:L,A:32:8,16", 0, 0,
      "CPU private L2 cache string (004: 256 KB 8-way, 128 B lines)"),
    O("warpsim_mc_partition", CFG_STRING, mc_partition, "", 0, 0,
      "memory channels dedicated per class, <g>G<c>C (004 sec. 2.2, e.g. 4G4C: the first 4 channels serve "
      "the SMs, the other 4 the CPU cores); empty: every channel serves both"),
    O("warpsim_mesh_cpu_nodes", CFG_STRING, mesh_cpu_nodes, "", 0, 0,
      "mesh node of each CPU core (empty: the nodes after the SMs', skipping memory nodes)"),

    /* ---- clocks ---- */
    O("gpgpu_clock_domains", CFG_STRING, clock_domains, "700.0:700.0:700.0:924.0", 0, 0,
      "<core>:<icnt>:<l2>:<dram> clocks in MHz"),

    /* ---- simulation control ---- */
    O("warpsim_sample_interval", CFG_UINT, stats_interval, "10000", 1, 4000000000.0,
      "core cycles per time-series sample"),
    O("warpsim_deadlock_cycles", CFG_U64, deadlock_cycles, "1000000", 1, 1e15,
      "stop when nothing progressed for this many core cycles"),
    O("gpgpu_max_cycle", CFG_U64, max_cycles, "0", 0, 1e18,
      "stop the run after this many core cycles over all launches; statistics reported, outputs not verified "
      "(0: no limit)"),
    O("gpgpu_max_insn", CFG_U64, max_insns, "0", 0, 1e18,
      "stop the run after this many thread instructions (gpu_tot_sim_insn) over all launches (0: no limit)"),
    O("gpgpu_max_cta", CFG_U64, max_ctas, "0", 0, 1e18,
      "dispatch at most this many CTAs over all launches, then stop once they finished (0: no limit)"),
    O("warpsim_threads", CFG_UINT, threads, "1", 0, 256,
      "host threads that tick the SMs in parallel, results identical for every count (0: one per CPU "
      "core, at most one per 4 SMs)"),
    O("warpsim_lat_hist_bucket", CFG_UINT, lat_hist_bucket, "16", 1, 1000000, "lat_rt histogram bucket (cycles)"),
    O("warpsim_max_model_mib", CFG_UINT, max_model_mib, "4096", 1, 1048576,
      "host memory (MiB) the machine's structures may take (caches x SMs, L2 slices, queues); more is a "
      "config error"),
};
#undef O
const size_t gpu_config_nopts = sizeof gpu_config_opts / sizeof gpu_config_opts[0];

/* ------------------------------------------------------------------------ */

/* Error about option `name` (and, when it was not set, `other`): positioned at
   whichever of them came from the config, else reported against the defaults. */
static int gc_fail(const struct cfg *c, struct cfg_error *err, const char *name, const char *other, const char *fmt,
                   ...) __attribute__((format(printf, 5, 6)));
static int gc_fail(const struct cfg *c, struct cfg_error *err, const char *name, const char *other, const char *fmt,
                   ...)
{
    if (!err)
        return -1;
    const struct cfg_entry *e = cfg_find(c, name);
    if (!e && other)
        e = cfg_find(c, other);
    snprintf(err->file, sizeof err->file, "%s", e ? e->file : "built-in default");
    err->line = e ? e->line : 0;
    err->col = e ? e->col : 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

static int gc_is_pow2(unsigned v) { return v && !(v & (v - 1)); }

/* "a:b" with both unsigned integers */
static int gc_parse_pair(const char *s, unsigned *a, unsigned *b)
{
    char *end;
    if (!(*s >= '0' && *s <= '9'))
        return -1;
    errno = 0;
    unsigned long x = strtoul(s, &end, 10);
    if (*end != ':' || !(end[1] >= '0' && end[1] <= '9'))
        return -1;
    unsigned long y = strtoul(end + 1, &end, 10);
    if (*end || errno || x > 1u << 20 || y > 1u << 20)
        return -1;
    *a = (unsigned)x;
    *b = (unsigned)y;
    return 0;
}

/* Exactly OPL_COUNT comma-separated integers in [lo, hi]. */
/* OPL_COUNT integers in [lo, hi], comma-separated; with extra_ok one more may follow (GPGPU-Sim 4.x's
   integer lists add SHFL; warpsim times shfl/vote as an integer ADD, so the sixth value is checked
   and not used). */
static int gc_parse_list(const char *s, unsigned *out, unsigned lo, unsigned hi, int extra_ok)
{
    const char *p = s;
    unsigned v6[OPL_COUNT + 1];
    int n = 0;
    for (;;) {
        if (!(*p >= '0' && *p <= '9'))
            return -1;
        unsigned long v = 0;
        while (*p >= '0' && *p <= '9') {
            v = v * 10 + (unsigned long)(*p - '0');
            if (v > hi)
                return -1;
            p++;
        }
        if (v < lo)
            return -1;
        v6[n++] = (unsigned)v;
        if (!*p)
            break;
        if (*p++ != ',' || n == OPL_COUNT + (extra_ok ? 1 : 0))
            return -1;
    }
    if (n < OPL_COUNT)
        return -1;
    memcpy(out, v6, sizeof *out * OPL_COUNT);
    return 0;
}

/* 1e6 / MHz rounded to the nearest picosecond. */
static sim_ps gc_period_ps(double mhz) { return (sim_ps)llround(1e6 / mhz); }

static int gc_parse_clocks(const char *s, sim_ps out[4])
{
    const char *p = s;
    for (int i = 0; i < 4; i++) {
        char *end;
        if (!((*p >= '0' && *p <= '9') || *p == '.'))
            return -1;
        double mhz = strtod(p, &end);
        if (end == p || !(mhz >= 1.0 && mhz <= 100000.0))
            return -1;
        out[i] = gc_period_ps(mhz);
        p = end;
        if (i < 3 && *p++ != ':')
            return -1;
    }
    return *p ? -1 : 0;
}

struct gc_cache_opt {
    const char *name;
    size_t off;                  /* of the const char * field */
    /* the cache's replacement and bypass policy options (in GPU_CACHE_* order) */
    const char *repl_opt, *byp_opt;
    size_t repl_off, byp_off;
};

#define GC_CACHE(str, field, c)                                                                                 \
    {str, offsetof(struct gpu_config, field), "warpsim_" #c "_repl", "warpsim_" #c "_bypass",                     \
     offsetof(struct gpu_config, c##_repl), offsetof(struct gpu_config, c##_bypass)}
static const struct gc_cache_opt gc_caches[] = {
    GC_CACHE("gpgpu_cache:dl1", cache_dl1, l1d),       /* GPU_CACHE_L1D */
    GC_CACHE("gpgpu_cache:il1", cache_il1, l1i),       /* GPU_CACHE_L1I */
    GC_CACHE("gpgpu_const_cache:l1", cache_const, l1c), /* GPU_CACHE_CONST */
    GC_CACHE("gpgpu_tex_cache:l1", cache_tex, l1t),    /* GPU_CACHE_TEX */
    GC_CACHE("gpgpu_cache:dl2", cache_dl2, l2),        /* GPU_CACHE_L2 */
};
#undef GC_CACHE
_Static_assert(sizeof gc_caches / sizeof gc_caches[0] == GPU_NCACHES, "gc_caches follows GPU_CACHE_*");
#define GC_NCACHES (sizeof gc_caches / sizeof gc_caches[0])

/* ------------------------------------------------------------------------ */
/* host memory of the machine (checked before anything is allocated)       */

/* Bytes of the simulator's structures that do not depend on one option:
   an SM's warp slots, scheduler views, writeback ring (4096 reservations) and
   units, a partition's and a DRAM channel's fixed state. */
#define GC_SM_FIXED_BYTES (96u << 10)
#define GC_PART_FIXED_BYTES (4u << 10)
#define GC_CHAN_FIXED_BYTES (4u << 10)
#define GC_FIFO_ENTRY_BYTES 16u      /* core/fifo.h: a pointer and a ready cycle */
#define GC_DRAM_SLOT_BYTES 32u       /* mem/dram.c: struct dram_slot */
#define GC_XBAR_PKT_BYTES 32u        /* noc/xbar.c: struct xb_in_pkt / xb_out_pkt */
#define GC_MESH_VC_BYTES 48u         /* noc/mesh.c: an input VC, an output VC and their round-robin state */

static void gc_part(struct gpu_model_mem *m, const char *opt, unsigned count, const char *unit, uint64_t each)
{
    uint64_t b = (uint64_t)count * each;
    m->total += b;
    if (b > m->top_bytes) {
        m->top_bytes = b;
        m->top_opt = opt;
        m->top_count = count;
        m->top_unit = unit;
        m->top_each = each;
    }
}

void gpu_config_model_mem(const struct gpu_config *g, struct gpu_model_mem *m)
{
    memset(m, 0, sizeof *m);
    unsigned n_cores = g->n_clusters * g->n_cores_per_cluster;
    unsigned n_parts = g->n_mem * g->n_sub_partition_per_mchannel;
    for (size_t i = 0; i < GC_NCACHES; i++) {
        const char *str = *(const char *const *)(const void *)((const char *)g + gc_caches[i].off);
        struct cache_config cc;
        char msg[256];
        unsigned col;
        if (!str || cache_config_parse(str, &cc, msg, sizeof msg, &col) != 0)
            continue;
        if (i + 1 == GC_NCACHES)
            gc_part(m, gc_caches[i].name, n_parts, "L2 slices", cache_config_host_bytes(&cc));
        else
            gc_part(m, gc_caches[i].name, n_cores, "SMs", cache_config_host_bytes(&cc));
    }
    gc_part(m, "gpgpu_n_clusters", n_cores, "SMs", GC_SM_FIXED_BYTES);
    gc_part(m, "warpsim_ldst_queue", n_cores, "SMs", (uint64_t)g->ldst_queue * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "warpsim_reply_queue", n_cores, "SMs", (uint64_t)g->reply_queue * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "gpgpu_n_mem", n_parts, "L2 slices", GC_PART_FIXED_BYTES);
    gc_part(m, "gpgpu_l2_rop_latency", n_parts, "L2 slices",
            ((uint64_t)g->l2_rop_latency + g->l2_queue) * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "warpsim_l2_hit_latency", n_parts, "L2 slices",
            ((uint64_t)g->l2_hit_latency + g->l2_queue) * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "dram_latency", n_parts, "L2 slices",
            ((uint64_t)g->dram_latency + g->l2_queue) * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "warpsim_l2_queue", n_parts, "L2 slices", 3 * ((uint64_t)g->l2_queue + 1) * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "gpgpu_dram_return_queue_size", n_parts, "L2 slices",
            (uint64_t)g->dram_return_queue_size * GC_FIFO_ENTRY_BYTES);
    gc_part(m, "gpgpu_frfcfs_dram_sched_queue_size", g->n_mem, "DRAM channels",
            GC_CHAN_FIXED_BYTES + (uint64_t)g->frfcfs_queue_size * GC_DRAM_SLOT_BYTES);
    /* both crossbars: every SM and every slice has an input and an output port on one of them */
    gc_part(m, "warpsim_icnt_input_buffer", n_cores + n_parts, "crossbar ports",
            (uint64_t)g->icnt_in_buffer * GC_XBAR_PKT_BYTES);
    uint64_t req_words = (uint64_t)(n_cores > n_parts ? n_cores : n_parts) / 64 + 1;   /* request bit masks */
    gc_part(m, "warpsim_icnt_output_buffer", n_cores + n_parts, "crossbar ports",
            (uint64_t)g->icnt_out_buffer * GC_XBAR_PKT_BYTES + 8 * req_words);
    if (g->icnt_kind == ICNT_MESH) {
        /* both meshes: 5 ports x VCs x (buffer of ready cycles + VC state + output VC state) per router */
        uint64_t nodes = (uint64_t)g->mesh_cols * g->mesh_rows;
        gc_part(m, "warpsim_mesh_vc_buf", (unsigned)(2 * nodes), "mesh routers",
                5 * (uint64_t)g->mesh_vcs * (8 * (uint64_t)g->mesh_vc_buf + GC_MESH_VC_BYTES));
    }
}

/* A GPU/CPU split written "<g>G<c>C" (004 sec. 2.2: 3G1C, 4G4C).  0: shared ("" or "none", *gv = *cv = 0);
   1: a split with both parts >= 1; -1: malformed. */
static int gc_parse_split(const char *s, unsigned *gv, unsigned *cv)
{
    *gv = *cv = 0;
    if (!s[0] || !strcmp(s, "none"))
        return 0;
    int used = 0;
    if (sscanf(s, "%uG%uC%n", gv, cv, &used) != 2 || s[used] || *gv < 1 || *cv < 1)
        return -1;
    return 1;
}

/* -warpsim_icnt and, for a mesh, its size (resolved in place), -warpsim_mesh_partition and the placement. */
static int gc_icnt(struct gpu_config *g, struct cfg *c, struct cfg_error *err)
{
    if (!strcmp(g->icnt_kind_name, "xbar")) {
        g->icnt_kind = ICNT_XBAR;
        return 0;
    }
    if (strcmp(g->icnt_kind_name, "mesh"))
        return gc_fail(c, err, "warpsim_icnt", NULL, "-warpsim_icnt: unknown interconnect '%s' (valid: xbar, mesh)",
                       g->icnt_kind_name);
    g->icnt_kind = ICNT_MESH;
    mesh_place_size(g->mesh_cols, g->mesh_rows, g->n_cores + g->n_sub_partitions + g->cpu_cores, &g->mesh_cols,
                    &g->mesh_rows);
    if ((uint64_t)g->mesh_cols * g->mesh_rows > 65536)
        return gc_fail(c, err, "warpsim_mesh_cols", "warpsim_mesh_rows",
                       "-warpsim_mesh_cols x -warpsim_mesh_rows: %ux%u is more than 65536 nodes", g->mesh_cols,
                       g->mesh_rows);
    g->mesh_gpu_vcs = g->mesh_cpu_vcs = 0;
    const char *ps = g->mesh_partition;
    unsigned gv, cv;
    int split = gc_parse_split(ps, &gv, &cv);
    if (split) {
        if (split < 0)
            return gc_fail(c, err, "warpsim_mesh_partition", NULL,
                           "-warpsim_mesh_partition: expected <gpu VCs>G<cpu VCs>C such as 3G1C (or empty: shared), "
                           "got '%s'",
                           ps);
        if (gv + cv != g->mesh_vcs)
            return gc_fail(c, err, "warpsim_mesh_partition", "warpsim_mesh_vcs",
                           "-warpsim_mesh_partition %s: %u + %u VCs must equal -warpsim_mesh_vcs (%u)", ps, gv, cv,
                           g->mesh_vcs);
        /* the link width splits like the VCs (3G1C on 32 B links: 24 B GPU, 8 B CPU) */
        if ((uint64_t)g->icnt_flit_size * gv / g->mesh_vcs < 1 || (uint64_t)g->icnt_flit_size * cv / g->mesh_vcs < 1)
            return gc_fail(c, err, "warpsim_mesh_partition", "icnt_flit_size",
                           "-warpsim_mesh_partition %s: a %u-byte link (-icnt_flit_size) leaves a class less than "
                           "one byte",
                           ps, g->icnt_flit_size);
        g->mesh_gpu_vcs = gv;
        g->mesh_cpu_vcs = cv;
    }
    uint32_t *sm = malloc(sizeof *sm * (g->n_cores ? g->n_cores : 1));
    uint32_t *mem = malloc(sizeof *mem * (g->n_sub_partitions ? g->n_sub_partitions : 1));
    const char *opt = NULL;
    char msg[400];
    int rc = !sm || !mem ? -1 : mesh_place_gpu(g, sm, mem, &opt, msg, sizeof msg);
    free(sm);
    free(mem);
    if (rc)
        return gc_fail(c, err, opt ? opt : "warpsim_mesh_sm_nodes", NULL, "%s", opt ? msg : "out of host memory");
    return 0;
}

/* The CPU cores: their parameters, and that every item of -warpsim_cpu_apps names a profile, a mix or a
   readable trace file (gpu_cpu.c expands the list the same way). */
static int gc_cpu(struct gpu_config *g, struct cfg *c, struct cfg_error *err)
{
    struct cpu_core_params p;
    char msg[400];
    if (gpu_cpu_core_params(g, 0, &p) || cpu_core_params_check(&p, msg, sizeof msg))
        return gc_fail(c, err, "warpsim_cpu_width", NULL, "CPU core parameters: %s", msg);
    struct cache_config cc;
    unsigned col = 0;
    if (cache_config_parse(g->cpu_l1d, &cc, msg, sizeof msg, &col))
        return gc_fail(c, err, "warpsim_cpu_l1d", NULL, "-warpsim_cpu_l1d: %s (at character %u)", msg, col);
    if (cache_config_parse(g->cpu_l2, &cc, msg, sizeof msg, &col))
        return gc_fail(c, err, "warpsim_cpu_l2", NULL, "-warpsim_cpu_l2: %s (at character %u)", msg, col);
    unsigned n = 0;
    if (gpu_cpu_apps_check(g->cpu_apps, &n, msg, sizeof msg))
        return gc_fail(c, err, "warpsim_cpu_apps", NULL, "-warpsim_cpu_apps: %s", msg);
    if (n > g->cpu_cores)
        return gc_fail(c, err, "warpsim_cpu_apps", "warpsim_cpu_cores",
                       "-warpsim_cpu_apps: %u applications for %u CPU cores (-warpsim_cpu_cores; the presets "
                       "hetero-7tile and hetero-small have 14 and 3)",
                       n, g->cpu_cores);
    g->mc_gpu = g->mc_cpu = 0;
    const char *mp = g->mc_partition;
    unsigned gm, cm;
    int msplit = gc_parse_split(mp, &gm, &cm);
    if (msplit) {
        if (msplit < 0)
            return gc_fail(c, err, "warpsim_mc_partition", NULL,
                           "-warpsim_mc_partition: expected <gpu channels>G<cpu channels>C such as 4G4C (or empty: "
                           "shared), got '%s'",
                           mp);
        if (gm + cm != g->n_mem)
            return gc_fail(c, err, "warpsim_mc_partition", "gpgpu_n_mem",
                           "-warpsim_mc_partition %s: %u + %u channels must equal -gpgpu_n_mem (%u)", mp, gm, cm,
                           g->n_mem);
        if (!g->cpu_cores)
            return gc_fail(c, err, "warpsim_mc_partition", "warpsim_cpu_cores",
                           "-warpsim_mc_partition %s: the machine has no CPU cores (-warpsim_cpu_cores)", mp);
        g->mc_gpu = gm;
        g->mc_cpu = cm;
    }
    if (g->icnt_kind == ICNT_MESH && g->mesh_cpu_nodes[0]) {
        uint32_t *node = malloc(sizeof *node * (g->cpu_cores ? g->cpu_cores : 1));
        int rc = !node ? -1
                       : mesh_place_parse(g->mesh_cpu_nodes, g->cpu_cores, g->mesh_cols * g->mesh_rows, node, msg,
                                          sizeof msg);
        free(node);
        if (rc)
            return gc_fail(c, err, "warpsim_mesh_cpu_nodes", NULL, "-warpsim_mesh_cpu_nodes: %s",
                           node ? msg : "out of host memory");
    }
    return 0;
}

/* GPGPU-Sim's scheduler strings with parameters, mapped onto warpsim's policies and their parameters:
   "two_level_active:<active warps>:<inner>:<outer>" -> two_level with warp_sched.two_level.active_size
   (warpsim's two-level order is fixed: round robin among the active warps, the oldest ready pending warp
   promoted; the two prioritisation numbers are checked, not used), "warp_limiting:<prio>:<warps>" -> swl
   with warp_sched.swl.limit.  The derived parameter is placed right after -gpgpu_scheduler, so a later
   explicit -warp_sched.* value still wins.  A registered name (lrr, gto, two_level, ...) is kept as is. */
static int gc_gpgpusim_scheduler(struct gpu_config *g, struct cfg *c, struct cfg_error *err)
{
    static const struct {
        const char *prefix, *policy, *param;
        int nums;                  /* numbers after the prefix */
        int param_at;              /* which of them is the parameter */
    } map[] = {
        {"two_level_active", "two_level", "warp_sched.two_level.active_size", 3, 0},
        {"warp_limiting", "swl", "warp_sched.swl.limit", 2, 1},
    };
    const char *s = g->scheduler;
    if (!s || warp_sched_find(s))
        return 0;
    for (size_t m = 0; m < sizeof map / sizeof map[0]; m++) {
        size_t pl = strlen(map[m].prefix);
        if (strncmp(s, map[m].prefix, pl) != 0 || (s[pl] != ':' && s[pl] != '\0'))
            continue;
        unsigned long v[3] = {0, 0, 0};
        const char *p = s + pl;
        int n = 0;
        while (*p == ':' && n < 3) {
            char *end;
            p++;
            if (!(*p >= '0' && *p <= '9'))
                break;
            v[n++] = strtoul(p, &end, 10);
            p = end;
        }
        if (n != map[m].nums || *p)
            return gc_fail(c, err, "gpgpu_scheduler", NULL,
                           "-gpgpu_scheduler: expected '%s%s', got '%s'", map[m].prefix,
                           map[m].nums == 3 ? ":<active warps>:<inner order>:<outer order>"
                                            : ":<order>:<warp limit>",
                           s);
        g->scheduler = map[m].policy;
        const struct cfg_entry *at = cfg_find(c, "gpgpu_scheduler");
        char num[24];
        snprintf(num, sizeof num, "%lu", v[map[m].param_at]);
        if (at && cfg_insert_after(c, at, map[m].param, num))
            return gc_fail(c, err, "gpgpu_scheduler", NULL, "-gpgpu_scheduler: out of host memory");
        return 0;
    }
    return 0;
}

int gpu_config_load(struct gpu_config *g, struct cfg *c, struct cfg_error *err)
{
    memset(g, 0, sizeof *g);
    if (cfg_apply(c, gpu_config_opts, gpu_config_nopts, g, err))
        return -1;
    /* GPGPU-Sim's options that describe what warpsim does not model: accepted, listed in one line */
    gpgpusim_mark_ignored(c);
    if (gc_gpgpusim_scheduler(g, c, err))
        return -1;
    /* GPGPU-Sim's meaning: a channel is -gpgpu_n_mem_per_ctrlr chips of -gpgpu_dram_buswidth bytes */
    g->dram_buswidth = g->dram_chip_buswidth * g->n_mem_per_ctrlr;
    /* Latency: warpsim's defaults are the GTX480 calibration in warpsim's terms (L2 hit pipeline, DRAM
       return path; GPGPU-Sim's queues off), so the default machine is configs/gtx480.config exactly.  A
       config that speaks GPGPU-Sim's terms - it sets -gpgpu_l2_rop_latency or -dram_latency, as every
       gpgpusim.config does - gets GPGPU-Sim's latency model alone: warpsim's own latencies are 0 unless
       it sets them too. */
    if (cfg_find(c, "gpgpu_l2_rop_latency") || cfg_find(c, "dram_latency")) {
        if (!cfg_find(c, "warpsim_l2_hit_latency"))
            g->l2_hit_latency = 0;
        if (!cfg_find(c, "warpsim_dram_return_latency"))
            g->dram_return_latency = 0;
    }

    /* topology */
    g->n_cores = g->n_clusters * g->n_cores_per_cluster;
    if (g->n_cores > 4096)
        return gc_fail(c, err, "gpgpu_n_clusters", "gpgpu_n_cores_per_cluster",
                       "-gpgpu_n_clusters x -gpgpu_n_cores_per_cluster = %u SMs, more than 4096", g->n_cores);
    if (!gc_is_pow2(g->n_sub_partition_per_mchannel))
        return gc_fail(c, err, "gpgpu_n_sub_partition_per_mchannel", NULL,
                       "-gpgpu_n_sub_partition_per_mchannel: expected a power of two, got %u",
                       g->n_sub_partition_per_mchannel);
    g->n_sub_partitions = g->n_mem * g->n_sub_partition_per_mchannel;

    /* SM */
    unsigned threads, wsize;
    if (gc_parse_pair(g->shader_core_pipeline, &threads, &wsize))
        return gc_fail(c, err, "gpgpu_shader_core_pipeline", NULL,
                       "-gpgpu_shader_core_pipeline: expected '<threads>:<warp size>', got '%s'",
                       g->shader_core_pipeline);
    if (wsize != 32)
        return gc_fail(c, err, "gpgpu_shader_core_pipeline", NULL,
                       "-gpgpu_shader_core_pipeline: warp size must be 32 (the executor runs 32-thread warps), got %u",
                       wsize);
    if (threads < 32 || threads > GC_MAX_THREADS || threads % 32)
        return gc_fail(c, err, "gpgpu_shader_core_pipeline", NULL,
                       "-gpgpu_shader_core_pipeline: threads per SM must be a multiple of 32 in [32, %u], got %u",
                       GC_MAX_THREADS, threads);
    g->max_threads_per_core = threads;
    g->warp_size = wsize;
    g->max_warps_per_core = threads / wsize;
    if (g->num_sched_per_core > g->max_warps_per_core)
        return gc_fail(c, err, "gpgpu_num_sched_per_core", "gpgpu_shader_core_pipeline",
                       "-gpgpu_num_sched_per_core (%u) exceeds the warps per SM (%u)", g->num_sched_per_core,
                       g->max_warps_per_core);
    if (32 % g->simd_width)
        return gc_fail(c, err, "warpsim_simd_width", NULL, "-warpsim_simd_width: expected a divisor of 32, got %u",
                       g->simd_width);
    if (!g->scheduler[0])
        return gc_fail(c, err, "gpgpu_scheduler", NULL, "-gpgpu_scheduler: empty policy name");
    if (!g->cta_scheduler[0])
        return gc_fail(c, err, "warpsim_cta_scheduler", NULL, "-warpsim_cta_scheduler: empty policy name");
    {
        const struct cm_ops *cmo = cm_find(g->cm);
        if (!cmo) {
            char names[256];
            cm_names(names, sizeof names);
            return gc_fail(c, err, "warpsim_cm", NULL, "-warpsim_cm: unknown concurrency manager '%s' (valid: %s)",
                           g->cm, names);
        }
        const struct warp_sched_ops *wso = warp_sched_find(g->scheduler);
        if (cmo->decide && wso && !wso->set_limit)
            return gc_fail(c, err, "warpsim_cm", NULL,
                           "-warpsim_cm %s: the warp scheduler '%s' takes no warp limit; use -gpgpu_scheduler swl "
                           "(--warp-sched swl)",
                           g->cm, g->scheduler);
    }

#define GC_LIST(opt, str, arr) {opt, offsetof(struct gpu_config, str), offsetof(struct gpu_config, arr)}
    static const struct {
        const char *name;
        size_t str, arr;
    } lists[] = {
        GC_LIST("ptx_opcode_latency_int", opcode_latency_int, lat_int),
        GC_LIST("ptx_opcode_initiation_int", opcode_initiation_int, ii_int),
        GC_LIST("ptx_opcode_latency_fp", opcode_latency_fp, lat_fp),
        GC_LIST("ptx_opcode_initiation_fp", opcode_initiation_fp, ii_fp),
        GC_LIST("ptx_opcode_latency_dp", opcode_latency_dp, lat_dp),
        GC_LIST("ptx_opcode_initiation_dp", opcode_initiation_dp, ii_dp),
    };
#undef GC_LIST
    for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
        const char *s = *(const char *const *)(const void *)((const char *)g + lists[i].str);
        unsigned *arr = (unsigned *)(void *)((char *)g + lists[i].arr);
        int is_int = i < 2;   /* GPGPU-Sim 4.x: ADD,MAX,MUL,MAD,DIV,SHFL for the integer lists */
        if (gc_parse_list(s, arr, 1, 10000, is_int))
            return gc_fail(c, err, lists[i].name, NULL,
                           "-%s: expected %s comma-separated integers in [1, 10000] (ADD,MAX,MUL,MAD,DIV%s), got '%s'",
                           lists[i].name, is_int ? "5 or 6" : "5", is_int ? "[,SHFL]" : "", s);
    }

    /* caches: every string must parse; line sizes must nest */
    const struct gc_cache_opt *caches = gc_caches;
    struct cache_config cc[GC_NCACHES];
    for (size_t i = 0; i < 5; i++) {
        const char *s = *(const char *const *)(const void *)((const char *)g + caches[i].off);
        char msg[256] = "";
        unsigned col = 0;
        if (cache_config_parse(s, &cc[i], msg, sizeof msg, &col))
            return gc_fail(c, err, caches[i].name, NULL, "-%s: %s (at character %u of '%s')", caches[i].name, msg,
                           col, s);
    }
    /* replacement and bypass, one table for every cache (gc_caches, GPU_CACHE_* order): a
       replacement name overrides the cache string's letter ("" = the letter); a bypass name ""
       is none; names must be registered */
    for (size_t i = 0; i < GC_NCACHES; i++) {
        g->repl_name[i] = cache_config_repl_name(&cc[i]);
        const char *v = *(const char *const *)(const void *)((const char *)g + caches[i].repl_off);
        if (v && v[0]) {
            const struct repl_ops *ro = repl_find(v);
            if (!ro) {
                char names[256];
                repl_names(names, sizeof names);
                return gc_fail(c, err, caches[i].repl_opt, NULL, "-%s: unknown replacement policy '%s' (valid: %s)",
                               caches[i].repl_opt, v, names);
            }
            g->repl_name[i] = ro->name;
        } else if (i == GPU_CACHE_L1D && !strcmp(g->scheduler, "cawa")) {
            /* CAWA = CPL + gCAWS + CACP: the cawa warp scheduler brings CACP to the L1D unless
               -warpsim_l1d_repl names a policy (docs/policies.md) */
            g->repl_name[i] = "cacp";
        }
        v = *(const char *const *)(const void *)((const char *)g + caches[i].byp_off);
        const struct bypass_ops *bo = bypass_find(v && v[0] ? v : "none");
        if (!bo) {
            char names[256];
            bypass_names(names, sizeof names);
            return gc_fail(c, err, caches[i].byp_opt, NULL, "-%s: unknown bypass policy '%s' (valid: %s)",
                           caches[i].byp_opt, v, names);
        }
        g->bypass_name[i] = bo->name;
    }
    for (size_t i = 0; i < 4; i++)
        if (cc[i].line_size > cc[4].line_size)
            return gc_fail(c, err, caches[i].name, "gpgpu_cache:dl2",
                           "-%s: line size %u exceeds the L2 line size %u (-gpgpu_cache:dl2)", caches[i].name,
                           cc[i].line_size, cc[4].line_size);
    if (g->coalesce_sector &&
        (!gc_is_pow2(g->coalesce_sector) || g->coalesce_sector < 4 || g->coalesce_sector > cc[0].line_size))
        return gc_fail(c, err, "warpsim_coalesce_sector", NULL,
                       "-warpsim_coalesce_sector: expected 0 or a power of two in [4, %u] (the L1D line), got %u",
                       cc[0].line_size, g->coalesce_sector);
    /* a whole packet (the largest line plus a header flit) must fit each crossbar buffer, or nothing moves */
    unsigned max_line = cc[4].line_size;
    unsigned pkt_flits = (max_line + g->icnt_flit_size - 1) / g->icnt_flit_size + 1;
    if (g->icnt_in_buffer < pkt_flits)
        return gc_fail(c, err, "warpsim_icnt_input_buffer", "icnt_flit_size",
                       "-warpsim_icnt_input_buffer: %u flits cannot hold a %u-byte line in %u-byte flits (needs %u)",
                       g->icnt_in_buffer, max_line, g->icnt_flit_size, pkt_flits);
    if (g->icnt_out_buffer < pkt_flits)
        return gc_fail(c, err, "warpsim_icnt_output_buffer", "icnt_flit_size",
                       "-warpsim_icnt_output_buffer: %u flits cannot hold a %u-byte line in %u-byte flits (needs %u)",
                       g->icnt_out_buffer, max_line, g->icnt_flit_size, pkt_flits);
    /* every crossbar VC needs at least one flit of the input buffer; a packet larger than its VC still
       enters it when it is empty (src/noc/xbar.c), so a VC smaller than a line is slow, not stuck */
    if (g->icnt_vcs > g->icnt_in_buffer)
        return gc_fail(c, err, "warpsim_icnt_vcs", "warpsim_icnt_input_buffer",
                       "-warpsim_icnt_vcs: %u VCs cannot share a %u-flit input buffer (-warpsim_icnt_input_buffer)",
                       g->icnt_vcs, g->icnt_in_buffer);

    /* interconnect kind; the mesh's size, partitioning and placement */
    if (gc_icnt(g, c, err))
        return -1;

    /* DRAM */
    {
        char msg[256] = "";
        unsigned col = 0;
        if (dram_timing_parse(g->dram_timing_opt, &g->dram, msg, sizeof msg, &col))
            return gc_fail(c, err, "gpgpu_dram_timing_opt", NULL, "-gpgpu_dram_timing_opt: %s (at character %u)",
                           msg, col);
    }
    if (g->n_sub_partition_per_mchannel > g->dram.nbk)
        return gc_fail(c, err, "gpgpu_n_sub_partition_per_mchannel", "gpgpu_dram_timing_opt",
                       "-gpgpu_n_sub_partition_per_mchannel (%u) exceeds the DRAM banks per channel (nbk=%u)",
                       g->n_sub_partition_per_mchannel, g->dram.nbk);
    if (g->dram_burst_length % g->dram_data_command_freq_ratio)
        return gc_fail(c, err, "gpgpu_dram_burst_length", "dram_data_command_freq_ratio",
                       "-gpgpu_dram_burst_length (%u) must be a multiple of -dram_data_command_freq_ratio (%u)",
                       g->dram_burst_length, g->dram_data_command_freq_ratio);
    {
        struct addr_map m;
        char msg[256] = "";
        unsigned col = 0;
        if (addr_map_parse(&m, g->mem_addr_mapping, g->n_mem, g->n_sub_partition_per_mchannel, g->dram.nbk, msg,
                           sizeof msg, &col))
            return gc_fail(c, err, "gpgpu_mem_addr_mapping", NULL, "-gpgpu_mem_addr_mapping: %s (at character %u)",
                           msg, col);
    }

    /* clocks */
    sim_ps ps[4];
    if (gc_parse_clocks(g->clock_domains, ps))
        return gc_fail(c, err, "gpgpu_clock_domains", NULL,
                       "-gpgpu_clock_domains: expected 4 clocks in MHz in [1, 100000] as "
                       "'<core>:<icnt>:<l2>:<dram>', got '%s'",
                       g->clock_domains);
    g->ps_core = ps[0];
    g->ps_icnt = ps[1];
    g->ps_l2 = ps[2];
    g->ps_dram = ps[3];
    g->ps_cpu = (sim_ps)llround(1e6 / g->cpu_clock_mhz);
    if (gc_cpu(g, c, err))
        return -1;

    /* the whole machine must fit the host: checked here, before gpu_new allocates anything */
    struct gpu_model_mem mm;
    gpu_config_model_mem(g, &mm);
    uint64_t mib = (mm.total + (1u << 20) - 1) >> 20;
    if (mib > g->max_model_mib)
        return gc_fail(c, err, mm.top_opt, "warpsim_max_model_mib",
                       "-%s: the simulated machine would take about %llu MiB of host memory, more than "
                       "-warpsim_max_model_mib %u; the largest part is this option's: %u %s x %.1f MiB = %llu MiB",
                       mm.top_opt, (unsigned long long)mib, g->max_model_mib, mm.top_count, mm.top_unit,
                       (double)mm.top_each / (1 << 20), (unsigned long long)((mm.top_bytes + (1u << 20) - 1) >> 20));
    return 0;
}

void gpu_config_write(FILE *f, const struct gpu_config *g)
{
    fprintf(f, "# warpsim effective machine configuration (gpgpusim.config syntax)\n");
    cfg_write(f, gpu_config_opts, gpu_config_nopts, g);
}
