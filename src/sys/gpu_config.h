/*
 * gpu_config.h - the simulated machine: every option of the timing model,
 * named as in GPGPU-Sim's gpgpusim.config where warpsim models the same
 * thing (warpsim's own options are -warpsim_*).  Presets live in configs/.
 *
 * gpu_config_load() fills the struct from defaults (the GTX480 preset), then
 * the config files and overrides in a struct cfg, validates every value and
 * computes the derived fields (marked "derived").  Components read it; nobody
 * writes it after load.
 */
#ifndef WARPSIM_GPU_CONFIG_H
#define WARPSIM_GPU_CONFIG_H

#include <stdint.h>
#include <stdio.h>

#include "core/config.h"
#include "core/sim.h"

/* the caches of the machine: L1D, L1I, constant, texture (per SM), L2 (per sub-partition) */
enum { GPU_CACHE_L1D = 0, GPU_CACHE_L1I, GPU_CACHE_CONST, GPU_CACHE_TEX, GPU_CACHE_L2, GPU_NCACHES };

/* opcode latency classes, in the order of GPGPU-Sim's -ptx_opcode_latency_* lists */
enum op_lat { OPL_ADD = 0, OPL_MAX, OPL_MUL, OPL_MAD, OPL_DIV, OPL_COUNT };

struct dram_timing {
    uint32_t nbk, nbkgrp;
    uint32_t tCCD, tCCDL, tRRD, tRCD, tRAS, tRP, tRC, tCL, tWL, tCDLR, tWR, tRTPL;
};

struct gpu_config {
    /* ---- topology ---- */
    unsigned n_clusters;            /* -gpgpu_n_clusters */
    unsigned n_cores_per_cluster;   /* -gpgpu_n_cores_per_cluster */
    unsigned n_mem;                 /* -gpgpu_n_mem: memory channels (partitions) */
    unsigned n_sub_partition_per_mchannel; /* -gpgpu_n_sub_partition_per_mchannel (L2 slices per channel) */

    /* ---- SM ---- */
    const char *shader_core_pipeline; /* -gpgpu_shader_core_pipeline "1536:32" = threads per SM : warp size */
    unsigned max_cta_per_core;      /* -gpgpu_shader_cta */
    unsigned registers_per_core;    /* -gpgpu_shader_registers */
    unsigned shmem_size;            /* -gpgpu_shmem_size (bytes per SM) */
    unsigned shmem_num_banks;       /* -gpgpu_shmem_num_banks */
    unsigned shmem_latency;         /* -gpgpu_smem_latency: cycles of a conflict-free shared access */
    unsigned num_sched_per_core;    /* -gpgpu_num_sched_per_core */
    const char *scheduler;          /* -gpgpu_scheduler: warp scheduler policy name (lrr, gto, ...) */
    const char *cta_scheduler;      /* -warpsim_cta_scheduler: CTA scheduler policy name (rr, ...) */
    const char *cm;                 /* -warpsim_cm: concurrency manager (policy/cm.h; "none") */
    unsigned max_insn_issue_per_warp; /* -gpgpu_max_insn_issue_per_warp (dual issue when 2) */
    unsigned cta_pause_stops;       /* -warpsim_cta_pause_stops: paused CTAs' warps never issue (ablation) */
    unsigned c_idle_fetch;          /* -warpsim_c_idle_fetch: fetch-waiting warps count toward C_idle */
    unsigned ibuffer_size;          /* -warpsim_ibuffer_size: instructions buffered per warp */
    unsigned fetch_latency;         /* -warpsim_fetch_decode_latency: cycles from I-cache hit to ibuffer */
    unsigned num_sp_units;          /* -gpgpu_num_sp_units: SP pipelines per SM (issue ports for int/fp32) */
    unsigned num_sfu_units;         /* -gpgpu_num_sfu_units */
    unsigned num_dp_units;          /* -gpgpu_num_dp_units (0: DP ops use the SP units) */
    unsigned simd_width;            /* -warpsim_simd_width: lanes per SP pipeline (32 = one warp per cycle) */
    unsigned wb_ports;              /* -warpsim_writeback_ports: results written back per cycle */
    const char *opcode_latency_int;    /* -ptx_opcode_latency_int "4,13,4,5,145" ADD,MAX,MUL,MAD,DIV */
    const char *opcode_initiation_int; /* -ptx_opcode_initiation_int "1,2,2,2,8" */
    const char *opcode_latency_fp;     /* -ptx_opcode_latency_fp "4,13,4,5,39" */
    const char *opcode_initiation_fp;  /* -ptx_opcode_initiation_fp "1,2,1,1,4" */
    const char *opcode_latency_dp;     /* -ptx_opcode_latency_dp "8,19,8,8,330" */
    const char *opcode_initiation_dp;  /* -ptx_opcode_initiation_dp "8,16,8,8,130" */
    unsigned sfu_latency;           /* -ptx_opcode_latency_sfu */
    unsigned sfu_initiation;        /* -ptx_opcode_initiation_sfu */
    unsigned branch_latency;        /* -warpsim_branch_latency: cycles until a branch's next PC is known */
    /* derived */
    unsigned max_threads_per_core, warp_size, max_warps_per_core, n_cores;
    unsigned lat_int[OPL_COUNT], ii_int[OPL_COUNT], lat_fp[OPL_COUNT], ii_fp[OPL_COUNT];
    unsigned lat_dp[OPL_COUNT], ii_dp[OPL_COUNT];

    /* ---- memory pipeline of the SM ---- */
    const char *cache_dl1;          /* -gpgpu_cache:dl1  "32:128:4,L:L:m:N:H,A:32:8,8" */
    const char *cache_il1;          /* -gpgpu_cache:il1 */
    const char *cache_const;        /* -gpgpu_const_cache:l1 */
    const char *cache_tex;          /* -gpgpu_tex_cache:l1 */
    unsigned l1d_latency;           /* -gpgpu_l1_latency: L1D hit latency (core cycles) */
    unsigned const_latency;         /* -warpsim_const_latency: constant-cache hit latency */
    unsigned coalesce_sector;       /* -warpsim_coalesce_sector: 0 = whole-line requests, 32 = sectored */
    unsigned ldst_queue;            /* -warpsim_ldst_queue: SM->interconnect request queue entries */
    unsigned reply_queue;           /* -warpsim_reply_queue: interconnect->SM reply buffer entries */

    /* ---- memory partitions: L2 + DRAM ---- */
    const char *cache_dl2;          /* -gpgpu_cache:dl2 (one L2 slice per sub-partition) */
    /* replacement policies by registry name (policy/registry.def, warpsim list --policies);
       "" = the cache string's letter (L = lru, F = fifo) */
    const char *l1d_repl;           /* -warpsim_l1d_repl */
    const char *l1i_repl;           /* -warpsim_l1i_repl */
    const char *l1c_repl;           /* -warpsim_l1c_repl (constant cache) */
    const char *l1t_repl;           /* -warpsim_l1t_repl (texture cache) */
    const char *l2_repl;            /* -warpsim_l2_repl */
    /* derived: the policy each cache uses, resolved (registered names), in the order
       L1D, L1I, constant, texture, L2 */
    const char *repl_name[GPU_NCACHES];
    /* bypass policies by registry name (policy/bypass.h; "none" = never bypass) */
    const char *l1d_bypass;         /* -warpsim_l1d_bypass */
    const char *l1i_bypass;         /* -warpsim_l1i_bypass */
    const char *l1c_bypass;         /* -warpsim_l1c_bypass */
    const char *l1t_bypass;         /* -warpsim_l1t_bypass */
    const char *l2_bypass;          /* -warpsim_l2_bypass */
    /* derived, resolved: the bypass policy of each cache, indexed like repl_name (GPU_CACHE_*) */
    const char *bypass_name[GPU_NCACHES];
    unsigned bypass_mshr;           /* -warpsim_bypass_mshr: a bypassed read takes an MSHR entry (every cache) */
    unsigned l2_rop_latency;        /* -gpgpu_l2_rop_latency: core cycles every request waits on entering a
                                       sub-partition, before the L2 (GPGPU-Sim's ROP queue) */
    unsigned dram_latency;          /* -dram_latency: core cycles every request the L2 sends to DRAM waits
                                       before the DRAM scheduler (GPGPU-Sim's DRAM latency queue) */
    unsigned l2_hit_latency;        /* -warpsim_l2_hit_latency: L2 read/atomic hit pipeline (L2 cycles) */
    unsigned dram_return_latency;   /* -warpsim_dram_return_latency: fixed DRAM read return path (DRAM cycles) */
    unsigned l2_queue;              /* -warpsim_l2_queue: icnt->L2, L2->DRAM and return queue entries */
    const char *dram_timing_opt;    /* -gpgpu_dram_timing_opt "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0" */
    unsigned dram_chip_buswidth;    /* -gpgpu_dram_buswidth: bytes per data-bus beat of one DRAM chip */
    unsigned n_mem_per_ctrlr;       /* -gpgpu_n_mem_per_ctrlr: DRAM chips side by side on one channel */
    unsigned dram_buswidth;         /* derived: bytes per data-bus beat of a channel = chip width x chips */
    unsigned dram_burst_length;     /* -gpgpu_dram_burst_length */
    unsigned dram_data_command_freq_ratio; /* -dram_data_command_freq_ratio (2 DDR, 4 GDDR5) */
    unsigned frfcfs_queue_size;     /* -gpgpu_frfcfs_dram_sched_queue_size (0 = unbounded: not allowed here) */
    unsigned dram_return_queue_size; /* -gpgpu_dram_return_queue_size */
    unsigned dram_scheduler;        /* -gpgpu_dram_scheduler: 0 FIFO, 1 FR-FCFS */
    const char *mem_addr_mapping;   /* -gpgpu_mem_addr_mapping "dramid@8;0000...RRRR.RBBBCCCC.BCCSSSSS" */
    /* derived */
    struct dram_timing dram;
    unsigned n_sub_partitions;

    /* ---- interconnect (crossbar between SMs and memory sub-partitions) ---- */
    unsigned icnt_flit_size;        /* -icnt_flit_size: bytes per flit */
    unsigned icnt_latency;          /* -warpsim_icnt_latency: router+link cycles (icnt clock) */
    unsigned icnt_in_buffer;        /* -warpsim_icnt_input_buffer: flits buffered per input port */
    unsigned icnt_out_buffer;       /* -warpsim_icnt_output_buffer: flits buffered per output port */
    unsigned icnt_flits_per_cycle;  /* -warpsim_icnt_bandwidth: flits an output port accepts per cycle */
    unsigned icnt_vcs;              /* -warpsim_icnt_vcs: crossbar VCs per input port (0 or 1: one FIFO) */
    unsigned icnt_input_speedup;    /* -warpsim_icnt_input_speedup: crossbar VCs of an input sending per cycle */

    /* ---- interconnect kind; the 2D mesh (src/noc/mesh.c, docs/timing_icnt.md) ---- */
    const char *icnt_kind_name;     /* -warpsim_icnt: xbar | mesh */
    unsigned mesh_cols, mesh_rows;  /* -warpsim_mesh_cols / _rows (0: the smallest near-square; resolved by load) */
    unsigned mesh_vcs;              /* -warpsim_mesh_vcs: virtual channels per input port */
    unsigned mesh_vc_buf;           /* -warpsim_mesh_vc_buf: flits buffered per virtual channel */
    unsigned mesh_router_latency;   /* -warpsim_mesh_router_latency: cycles from a flit's arrival to switch traversal */
    unsigned mesh_link_latency;     /* -warpsim_mesh_link_latency: cycles from switch traversal to the next router */
    const char *mesh_sm_nodes;      /* -warpsim_mesh_sm_nodes: node of each SM ("" = default placement) */
    const char *mesh_mem_nodes;     /* -warpsim_mesh_mem_nodes: node of each memory sub-partition ("" = default) */
    const char *mesh_partition;     /* -warpsim_mesh_partition: "" shared, or "<g>G<c>C" (004 sec. 2.2, e.g. 3G1C) */
    /* derived */
    unsigned icnt_kind;             /* enum icnt_kind (noc/icnt.h): 0 crossbar, 1 mesh */
    unsigned mesh_gpu_vcs, mesh_cpu_vcs; /* partitioned VCs per class; both 0 when shared */

    /* ---- CPU cores on the chip (seed 004's heterogeneous chip; src/sys/gpu_cpu.c, docs/hetero.md) ---- */
    unsigned cpu_cores;             /* -warpsim_cpu_cores: trace-driven OoO cores sharing the L2/LLC, network, DRAM */
    double cpu_clock_mhz;           /* -warpsim_cpu_clock */
    const char *cpu_apps;           /* -warpsim_cpu_apps: what the cores run, one item per core in order: a
                                       profile (warpsim trace gen --list), a mix (L1 .. H2: 14 profiles) or a
                                       trace file; "" = the cores idle.  Fewer items than cores: the rest idle */
    uint64_t cpu_warmup;            /* -warpsim_cpu_warmup: instructions per core before the GPU starts */
    uint64_t cpu_quota;             /* -warpsim_cpu_quota: instructions per core measured from the GPU's start
                                       (0: measured over the GPU's run) */
    unsigned cpu_seed;              /* -warpsim_cpu_seed: synthetic profiles' seed (every core) */
    unsigned cpu_width, cpu_rob, cpu_l1_lat, cpu_l2_lat, cpu_mispredict;   /* -warpsim_cpu_{width,rob,...} */
    const char *cpu_l1d, *cpu_l2;   /* -warpsim_cpu_l1d / _l2: cache strings (mem/cache.h) */
    const char *mesh_cpu_nodes;     /* -warpsim_mesh_cpu_nodes: node of each CPU core ("" = default) */
    const char *mc_partition;       /* -warpsim_mc_partition: "" shared, or "<g>G<c>C" dedicated memory
                                       channels (004 sec. 2.2, e.g. 4G4C, 7G1C) */
    unsigned mc_gpu, mc_cpu;        /* derived: channels of each class (both 0 when shared) */
    sim_ps ps_cpu;                  /* derived: picoseconds per CPU cycle */

    /* ---- clocks ---- */
    const char *clock_domains;      /* -gpgpu_clock_domains "core:icnt:l2:dram" MHz */
    /* derived: integer picoseconds per cycle */
    sim_ps ps_core, ps_icnt, ps_l2, ps_dram;

    /* ---- simulation control and statistics ---- */
    unsigned stats_interval;        /* -warpsim_sample_interval: core cycles per time-series sample */
    uint64_t deadlock_cycles;       /* -warpsim_deadlock_cycles: watchdog (no progress for this long) */
    uint64_t max_cycles;            /* -gpgpu_max_cycle: stop the run after this many core cycles (0 = none) */
    uint64_t max_insns;             /* -gpgpu_max_insn: ... after this many thread instructions (0 = none) */
    uint64_t max_ctas;              /* -gpgpu_max_cta: dispatch at most this many CTAs, then stop (0 = none) */
    unsigned threads;               /* -warpsim_threads: host threads for the SMs (0: per CPU core) */
    unsigned lat_hist_bucket;       /* -warpsim_lat_hist_bucket: lat_rt histogram bucket width (cycles) */
    unsigned max_model_mib;         /* -warpsim_max_model_mib: host memory the machine may take (MiB) */
};

/* A run stopped by -gpgpu_max_cycle/_insn/_cta ends as GPGPU-Sim's does: the launch fails with
   WS_ERROR_LIMIT and a message that starts with GPU_SIM_LIMIT_TAG, the statistics cover the run up
   to the stop, and tools report "stopped at limit" (outputs not verified) instead of an error. */
#define GPU_SIM_LIMIT_TAG "stopped at simulation limit: "

/* Option table (for listings and the effective config). */
extern const struct cfg_opt gpu_config_opts[];
extern const size_t gpu_config_nopts;
/* GPGPU-Sim 4.x options that warpsim accepts and does not model (src/sys/gpgpusim_ignored.c);
   gpu_config_load marks the ones a config sets, cfg_check_unused lists them in one line. */
extern const char *const gpgpusim_ignored_opts[];
extern const size_t gpgpusim_ignored_nopts;
unsigned gpgpusim_mark_ignored(struct cfg *c);

/* Defaults + c, validated, derived fields computed. Returns 0 or -1 with *err. */
int gpu_config_load(struct gpu_config *g, struct cfg *c, struct cfg_error *err);
/* Host memory the machine's structures take (what gpu_new allocates), estimated
   from the options before anything is allocated; gpu_config_load fails when
   it exceeds -warpsim_max_model_mib, naming the option of the largest part. */
struct gpu_model_mem {
    uint64_t total;                 /* bytes */
    const char *top_opt;            /* option of the largest part (without '-') */
    unsigned top_count;             /* the part is top_count x top_each bytes ... */
    const char *top_unit;           /* ... of these ("SMs", "L2 slices", ...) */
    uint64_t top_each, top_bytes;
};
void gpu_config_model_mem(const struct gpu_config *g, struct gpu_model_mem *m);
/* The effective config in gpgpusim.config syntax (reproduces the run). */
void gpu_config_write(FILE *f, const struct gpu_config *g);

#endif
