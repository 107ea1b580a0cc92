/*
 * gpgpusim_ignored.c - the options of GPGPU-Sim 4.x's gpgpusim.config that
 * warpsim accepts without modelling what they describe, so that GPGPU-Sim's
 * own configs load unmodified.  gpu_config_load marks them (cfg_mark_ignored);
 * cfg_check_unused lists the ones a config set in one warning line.  Any other
 * unknown option stays an error (with the nearest known name as a hint).
 *
 * Names are GPGPU-Sim's, spelled as its option parser registers them
 * (-ptx_opcode_latency_tesnor included).  An option warpsim models is in
 * gpu_config.c's table instead, never here (tests/unit/test_gpu_config.c
 * checks that the two lists do not overlap); docs/config.md lists these
 * groups and what warpsim does instead.
 */
#include "sys/gpu_config.h"

const char *const gpgpusim_ignored_opts[] = {
    /* functional simulation, PTX handling, device limits and compute capability (warpsim's PTX executor has its own) */
    "cdp_latency", "enable_ptx_file_line_stats", "gpgpu_TB_launch_latency", "gpgpu_cdp_enabled",
    "gpgpu_compute_capability_major", "gpgpu_compute_capability_minor", "gpgpu_concurrent_kernel_sm",
    "gpgpu_deadlock_detect", "gpgpu_experimental_lib_support", "gpgpu_heap_size_limit",
    "gpgpu_ignore_resources_limitation", "gpgpu_kernel_launch_latency", "gpgpu_local_mem_map",
    "gpgpu_max_completed_cta", "gpgpu_max_concurrent_kernel", "gpgpu_num_cta_barriers",
    "gpgpu_occupancy_sm_number", "gpgpu_perf_sim_memcpy", "gpgpu_ptx_convert_to_ptxplus",
    "gpgpu_ptx_force_max_capability", "gpgpu_ptx_inst_debug_file", "gpgpu_ptx_inst_debug_thread_uid",
    "gpgpu_ptx_inst_debug_to_file", "gpgpu_ptx_instruction_classification", "gpgpu_ptx_save_converted_ptxplus",
    "gpgpu_ptx_sim_mode", "gpgpu_ptx_use_cuobjdump", "gpgpu_registers_per_block",
    "gpgpu_runtime_pending_launch_count_limit", "gpgpu_runtime_stat", "gpgpu_runtime_sync_depth_limit",
    "gpgpu_shmem_per_block", "gpgpu_simd_model", "gpgpu_simt_core_sim_order", "gpgpu_stack_size_limit", "keep",
    "liveness_message_freq", "ptx_line_stats_filename", "save_embedded_ptx",
    /* checkpoints */
    "checkpoint_CTA", "checkpoint_CTA_t", "checkpoint_insn_Y", "checkpoint_kernel", "checkpoint_option",
    "resume_CTA", "resume_kernel", "resume_option",
    /* statistics, traces, visualiser */
    "gpgpu_cflog_interval", "gpgpu_mem_addr_test", "gpgpu_memlatency_stat", "gpgpu_warp_issue_shader",
    "gpgpu_warpdistro_shader", "icnt_verbose", "trace_components", "trace_enabled", "trace_sampling_core",
    "trace_sampling_memory_partition", "visualizer_enabled", "visualizer_outputfile", "visualizer_zlevel",
    /* power models */
    "accelwattch_hybrid_perfsim_CC_ACC", "accelwattch_hybrid_perfsim_CYCLES",
    "accelwattch_hybrid_perfsim_DRAM_RD", "accelwattch_hybrid_perfsim_DRAM_WR",
    "accelwattch_hybrid_perfsim_L1_RH", "accelwattch_hybrid_perfsim_L1_RM", "accelwattch_hybrid_perfsim_L1_WH",
    "accelwattch_hybrid_perfsim_L1_WM", "accelwattch_hybrid_perfsim_L2_RH", "accelwattch_hybrid_perfsim_L2_RM",
    "accelwattch_hybrid_perfsim_L2_WH", "accelwattch_hybrid_perfsim_L2_WM", "accelwattch_hybrid_perfsim_NOC",
    "accelwattch_hybrid_perfsim_NUM_SM_IDLE", "accelwattch_hybrid_perfsim_PIPE_DUTY",
    "accelwattch_hybrid_perfsim_SHARED_ACC", "accelwattch_hybrid_perfsim_VOLTAGE", "accelwattch_xml_file",
    "aggregate_power_stats", "dvfs_enabled", "gpgpu_clock_gated_lanes", "gpgpu_clock_gated_reg_file",
    "gpuwattch_xml_file", "hw_perf_bench_name", "hw_perf_file_name", "n_regfile_gating_group",
    "power_per_cycle_dump", "power_simulation_enabled", "power_simulation_mode", "power_trace_enabled",
    "power_trace_zlevel", "steady_power_levels_enabled", "steady_state_definition",
    /* SM pipeline: operand collectors, register banks, execution units, sub-cores */
    "gpgpu_coalesce_arch", "gpgpu_dual_issue_diff_exec_units", "gpgpu_enable_specialized_operand_collector",
    "gpgpu_inst_fetch_throughput", "gpgpu_mem_unit_ports", "gpgpu_n_cluster_ejection_buffer_size",
    "gpgpu_n_ldst_response_buffer_size", "gpgpu_num_int_units", "gpgpu_num_mem_units", "gpgpu_num_reg_banks",
    "gpgpu_num_tensor_core_units", "gpgpu_operand_collector_num_in_ports_dp",
    "gpgpu_operand_collector_num_in_ports_gen", "gpgpu_operand_collector_num_in_ports_int",
    "gpgpu_operand_collector_num_in_ports_mem", "gpgpu_operand_collector_num_in_ports_sfu",
    "gpgpu_operand_collector_num_in_ports_sp", "gpgpu_operand_collector_num_in_ports_tensor_core",
    "gpgpu_operand_collector_num_out_ports_dp", "gpgpu_operand_collector_num_out_ports_gen",
    "gpgpu_operand_collector_num_out_ports_int", "gpgpu_operand_collector_num_out_ports_mem",
    "gpgpu_operand_collector_num_out_ports_sfu", "gpgpu_operand_collector_num_out_ports_sp",
    "gpgpu_operand_collector_num_out_ports_tensor_core", "gpgpu_operand_collector_num_units_dp",
    "gpgpu_operand_collector_num_units_gen", "gpgpu_operand_collector_num_units_int",
    "gpgpu_operand_collector_num_units_mem", "gpgpu_operand_collector_num_units_sfu",
    "gpgpu_operand_collector_num_units_sp", "gpgpu_operand_collector_num_units_tensor_core",
    "gpgpu_pipeline_widths", "gpgpu_reg_bank_use_warp_id", "gpgpu_reg_file_port_throughput",
    "gpgpu_sub_core_model", "gpgpu_tensor_core_avail", "ptx_opcode_initiation_tensor",
    "ptx_opcode_latency_tesnor",
    /* L1 and shared memory: carve-out, banks, ideal caches, flushes */
    "gpgpu_adaptive_cache_config", "gpgpu_cache:dl1PrefL1", "gpgpu_cache:dl1PrefShared",
    "gpgpu_cache:dl2_texture_only", "gpgpu_flush_l1_cache", "gpgpu_flush_l2_cache", "gpgpu_gmem_skip_L1D",
    "gpgpu_l1_banks", "gpgpu_l1_banks_byte_interleaving", "gpgpu_l1_banks_hashing_function",
    "gpgpu_l1_cache_write_ratio", "gpgpu_perfect_inst_const_cache", "gpgpu_perfect_mem",
    "gpgpu_shmem_limited_broadcast", "gpgpu_shmem_option", "gpgpu_shmem_sizeDefault", "gpgpu_shmem_size_PrefL1",
    "gpgpu_shmem_size_PrefShared", "gpgpu_shmem_warp_parts", "gpgpu_unified_l1d_size", "l2_ideal",
    /* memory partition and DRAM details */
    "dram_bnk_indexing_policy", "dram_bnkgrp_indexing_policy", "dram_dual_bus_interface",
    "dram_elimnate_rw_turnaround", "dram_seperate_write_queue_enable", "dram_write_queue_size",
    "gpgpu_dram_partition_queues", "gpgpu_mem_address_mask", "gpgpu_memory_partition_indexing",
    "gpgpu_simple_dram_model",
    /* interconnect (warpsim's crossbar and mesh have their own -warpsim_icnt_* options) */
    "icnt_arbiter_algo", "icnt_grant_cycles", "icnt_in_buffer_limit", "icnt_out_buffer_limit", "icnt_subnets",
    "inter_config_file", "network_mode",
};
const size_t gpgpusim_ignored_nopts = sizeof gpgpusim_ignored_opts / sizeof gpgpusim_ignored_opts[0];

unsigned gpgpusim_mark_ignored(struct cfg *c) { return cfg_mark_ignored(c, gpgpusim_ignored_opts, gpgpusim_ignored_nopts); }
