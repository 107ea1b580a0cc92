/*
 * gpu_report.c - statistics of the simulated GPU: summary vectors gathered
 * from the components, the text report (GPGPU-Sim's `name = value` style),
 * the JSON report, and the time-series CSV.
 *
 * Definitions (docs/timing.md has the full list):
 *   gpu_sim_insn       thread instructions as GPGPU-Sim counts them: lanes active at
 *                      issue whose guard predicate holds; warpsim_active_lane_insn: every
 *                      lane active at issue
 *   gpu_ipc            thread instructions per core cycle (as GPGPU-Sim)
 *   gpu_warp_ipc       warp instructions per core cycle
 *   gpu_occupancy      active warps (dispatched, slot not yet freed) averaged over
 *                      core cycles and SMs, as a percentage of max_warps_per_core
 *                      (text: GPGPU-Sim's "45.1234% "); gpu_tot_occupancy: every kernel so far
 *   L2_BW              reply-crossbar bytes from the L2 slices per simulated second (GB/s)
 *   *_stats_breakdown  GPGPU-Sim's [TYPE][OUTCOME] tables (see gpgpusim_tables)
 *   *_MPKI             misses per 1000 WARP instructions
 *   RACT               mean over SMs (with at least one cycle with resident warps)
 *                      of N_act / (N_act + N_inact)
 *   util               mean over SMs of the fraction of the kernel's cycles with
 *                      at least one CTA resident
 *   idle_ratio         mean over SMs of C_idle / kernel cycles
 *   type hint          Type-X if idle_ratio > 20%, else Type-C if RACT > 66%,
 *                      else Type-M (001 sec. III-A)
 *   lat_rt             core cycles from a request leaving its SM (t_issue) to its
 *                      reply reaching the SM's reply buffer
 *   dram_bw_util       data-bus busy cycles / (DRAM cycles x channels)
 */
#include "core/json.h"
#include "gpu_int.h"
#include "sys/gpu_cpu.h"

#include "policy/bypass.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* ---- gathering ------------------------------------------------------------------------ */

static uint64_t edges_before(const struct gpu *g, enum gpu_dom d, sim_cycle boundary)
{
    sim_ps t = boundary * g->per[GD_CORE];
    return (t + g->per[d] - 1) / g->per[d];
}

void gpu_gather(const struct gpu *g, uint64_t *v, sim_cycle boundary)
{
    memset(v, 0, sizeof(uint64_t) * g->nsum);
    v[GS_CORE_CYCLES] = boundary;
    v[GS_ICNT_CYCLES] = edges_before(g, GD_ICNT, boundary);
    v[GS_L2_CYCLES] = edges_before(g, GD_L2, boundary);
    v[GS_DRAM_CYCLES] = edges_before(g, GD_DRAM, boundary);
    v[GS_RES_WARP_CYCLES] = g->ctr_res_warp_cycles;
    v[GS_STALL_DRAMFULL] = g->ctr_stall_dramfull;
    for (unsigned i = 0; i < g->n_sms; i++) {
        const struct sm_metrics *m = sm_get_metrics(g->sm[i]);
        uint64_t *pc = &v[GS_FIXED + i * PC_COUNT];
        v[GS_THREAD_INSNS] += m->issued_thread_insns;
        v[GS_WARP_INSNS] += m->issued_warp_insns;
        v[GS_CTAS_DONE] += m->ctas_done;
        v[GS_WARPS_DONE] += m->warps_done;
        v[GS_CPL_SAMPLES] += m->cpl_samples;
        v[GS_CPL_SLOW] += m->cpl_slow;
        v[GS_SCHED] += m->scheduling;
        v[GS_STALL_GPU] += m->stall_gpu;
        v[GS_PAUSED_WINSN] += m->paused_warp_insns;
        pc[PC_STALL_GPU] = m->stall_gpu;
        for (int s = 0; s < STALL_COUNT; s++)
            v[GS_STALL0 + s] += m->stall[s];
        const struct cache_stats *l1 = cache_stats(sm_cache(g->sm[i], GPU_CACHE_L1D));
        uint64_t acc = l1->accesses, miss = l1->misses;
        v[GS_L1D_ACC] += acc;
        v[GS_L1D_MISS] += miss;
        v[GS_L1D_HITRES] += l1->hit_reserved;
        v[GS_L1D_RESFAIL] += l1->res_fail;
        v[GS_L1D_RF_MSHR] += l1->res_fail_mshr;
        v[GS_L1D_RF_MERGE] += l1->res_fail_merge;
        v[GS_L1D_RF_LINE] += l1->res_fail_line;
        v[GS_L1D_READS] += l1->reads;
        v[GS_L1D_RMISS] += l1->read_misses;
        for (unsigned k = 0; k < 3; k++) {   /* L1I, constant, texture: reads only */
            const struct cache_stats *x = cache_stats(sm_cache(g->sm[i], (unsigned)GPU_CACHE_L1I + k));
            uint64_t *o = &v[GS_L1X + k * 5];
            o[0] += x->hits;
            o[1] += x->hit_reserved;
            o[2] += x->misses;
            o[3] += x->res_fail;
            o[4] += x->accesses;
        }
        v[GS_L1D_BYP] += l1->bypassed;
        v[GS_L1D_EVICT] += l1->evictions;
        v[GS_L1D_EVICT0] += l1->evicted_never_reused;
        v[GS_L1D_CACC] += l1->crit_accesses;
        v[GS_L1D_CHIT] += l1->crit_hits;
        v[GS_L1D_CPHIT] += l1->crit_part_hits;
        v[GS_L1D_NACC] += l1->nc_accesses;
        v[GS_L1D_NHIT] += l1->nc_hits;
        v[GS_L1D_NPHIT] += l1->nc_part_hits;
        pc[PC_CYCLES] = m->cycles;
        pc[PC_NACT] = m->n_act;
        pc[PC_NINACT] = m->n_inact;
        pc[PC_CIDLE] = m->c_idle;
        pc[PC_CMEM] = m->c_mem;
        pc[PC_UTIL] = m->util_cycles;
        pc[PC_WINSN] = m->issued_warp_insns;
        pc[PC_TINSN] = m->issued_thread_insns;
        pc[PC_CTAS] = m->ctas_done;
        pc[PC_L1D_ACC] = acc;
        pc[PC_L1D_MISS] = miss;
        pc[PC_RES_WARP_CYCLES] = g->ctr_res_warp_cycles_sm[i];
    }
    for (unsigned p = 0; p < g->n_parts; p++) {
        const struct cache_stats *cs = cache_stats(partition_l2(g->part[p]));
        v[GS_L2_ACC] += cs->accesses;
        v[GS_L2_MISS] += cs->misses;
        v[GS_L2_HITRES] += cs->hit_reserved;
        v[GS_L2_RESFAIL] += cs->res_fail;
        v[GS_L2_RF_MSHR] += cs->res_fail_mshr;
        v[GS_L2_RF_MERGE] += cs->res_fail_merge;
        v[GS_L2_RF_LINE] += cs->res_fail_line;
        v[GS_L2_READS] += cs->reads;
        v[GS_L2_RMISS] += cs->read_misses;
        v[GS_L2_BYP] += cs->bypassed;
        v[GS_L2_EVICT] += cs->evictions;
        v[GS_L2_EVICT0] += cs->evicted_never_reused;
        const struct partition_stats *ps = partition_get_stats(g->part[p]);
        v[GS_P_REQS] += ps->requests;
        v[GS_P_REPLIES] += ps->replies;
        v[GS_P_STALL_MC] += ps->dram_stall;
        v[GS_P_STALL_NET] += ps->reply_stall;
        v[GS_P_L2_RES_FAIL] += ps->l2_res_fail;
        v[GS_L2_RHIT] += ps->l2_read_hits;
    }
    const struct icnt_stats *is = icnt_get_stats(g->req_net);
    v[GS_IREQ_PKTS] = is->packets;
    v[GS_IREQ_FLITS] = is->flits;
    v[GS_IREQ_LAT] = is->lat_sum;
    v[GS_IREQ_STALL] = is->input_full_stalls;
    is = icnt_get_stats(g->rep_net);
    v[GS_IREP_PKTS] = is->packets;
    v[GS_IREP_FLITS] = is->flits;
    v[GS_IREP_LAT] = is->lat_sum;
    v[GS_IREP_STALL] = is->input_full_stalls;
    for (unsigned ch = 0; ch < g->n_chan; ch++) {
        const struct dram_stats *ds = dram_get_stats(g->dram[ch]);
        v[GS_D_READS] += ds->reads;
        v[GS_D_WRITES] += ds->writes;
        v[GS_D_ROWHIT] += ds->row_hits;
        v[GS_D_ROWMISS] += ds->row_misses;
        v[GS_D_ACT] += ds->activates;
        v[GS_D_QLAT] += ds->queue_lat_sum;
        v[GS_D_BUSY] += ds->data_busy_cycles;
    }
    v[GS_CM_DECISIONS] = g->cm_decisions;
    v[GS_CM_LIMIT_SUM] = g->cm_limit_sum;
    v[GS_LATRT_SUM] = g->ctr_lat_rt_sum;
    v[GS_LATRT_CNT] = g->ctr_lat_rt_cnt;
    uint64_t *h = &v[GS_FIXED + g->n_sms * PC_COUNT];
    for (unsigned b = 0; b < GPU_HIST_BUCKETS; b++)
        h[b] = g->hist[b];
    uint64_t *pp = h + GPU_HIST_BUCKETS;
    for (unsigned p = 0; p < g->n_parts; p++, pp += PP_COUNT) {
        const struct cache_stats *cs = cache_stats(partition_l2(g->part[p]));
        const struct partition_stats *ps = partition_get_stats(g->part[p]);
        pp[PP_REQS] = ps->requests;
        pp[PP_L2_ACC] = cs->accesses;
        pp[PP_L2_MISS] = cs->misses;
        pp[PP_IREQ_PKTS] = icnt_dst_packets(g->req_net, p);
        pp[PP_IREQ_LAT] = icnt_dst_lat_sum(g->req_net, p);
        pp[PP_STALL_MC] = ps->dram_stall;
        pp[PP_STALL_NET] = ps->reply_stall;
    }
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* A bypass policy other than none on any cache. */
static int gpu_bypass_in_use(const struct gpu *g)
{
    for (unsigned i = 0; i < GPU_NCACHES; i++)
        if (g->cfg.bypass_name[i] && strcmp(g->cfg.bypass_name[i], "none") != 0)
            return 1;
    return 0;
}

/* Bypassed requests per PC summed over the L1Ds, in PC order (at most cap PCs); *other: the
   requests of PCs the caches did not count one by one. */
#define GPU_BYP_PCS_PER_CACHE 64
static unsigned byp_gather(const struct gpu *g, uint32_t *pcs, uint64_t *cnt, size_t cap, uint64_t *other)
{
    uint32_t tmp_pc[GPU_BYP_PCS_PER_CACHE];
    uint64_t tmp_n[GPU_BYP_PCS_PER_CACHE];
    unsigned n = 0;
    *other = 0;
    for (unsigned i = 0; i < g->n_sms; i++) {
        uint64_t o = 0;
        unsigned k = cache_bypass_pcs(sm_cache(g->sm[i], GPU_CACHE_L1D), tmp_pc, tmp_n, GPU_BYP_PCS_PER_CACHE, &o);
        *other += o;
        for (unsigned j = 0; j < k; j++) {
            unsigned at = 0;
            while (at < n && pcs[at] < tmp_pc[j])
                at++;
            if (at == n || pcs[at] != tmp_pc[j]) {   /* insert, keeping PC order */
                if (n == cap) {
                    *other += tmp_n[j];
                    continue;
                }
                memmove(pcs + at + 1, pcs + at, (n - at) * sizeof *pcs);
                memmove(cnt + at + 1, cnt + at, (n - at) * sizeof *cnt);
                pcs[at] = tmp_pc[j];
                cnt[at] = 0;
                n++;
            }
            cnt[at] += tmp_n[j];
        }
    }
    return n;
}

/* The L1D bypass policy's state of one PC averaged over the SMs: AGG (-1: none) and insertion ratio. */
static void byp_pc_state(const struct gpu *g, uint32_t pc, double *agg, double *ins)
{
    unsigned got = 0;
    *agg = 0;
    *ins = 0;
    for (unsigned i = 0; i < g->n_sms; i++) {
        struct bypass_pc_info pi;
        if (cache_bypass_pc_info(sm_cache(g->sm[i], GPU_CACHE_L1D), pc, &pi) == 0) {
            *agg += pi.level;
            *ins += pi.insert_ratio;
            got++;
        }
    }
    *agg = got ? *agg / got : -1;
    *ins = got ? *ins / got : 0;
}

/* Time-series columns of the bypass policy: the followed PCs (free slots go to PCs with bypassed
   requests, in PC order, as they appear), then per slot PC, mean AGG and insertion ratio. */
static void ts_bypass(struct gpu *g, int header)
{
    if (header) {
        fputs(",l1d_bypassed_total", g->ts);
        for (unsigned k = 0; k < GPU_TS_BYP_PCS; k++)
            fprintf(g->ts, ",l1d_byp_pc%u,l1d_agg_pc%u,l1d_insert_ratio_pc%u", k, k, k);
        return;
    }
    uint32_t pcs[GPU_BYP_PCS_PER_CACHE];
    uint64_t cnt[GPU_BYP_PCS_PER_CACHE], other = 0, tot = 0;
    unsigned n = byp_gather(g, pcs, cnt, GPU_BYP_PCS_PER_CACHE, &other);
    for (unsigned j = 0; j < n; j++) {
        tot += cnt[j];
        int have = 0;
        for (unsigned k = 0; k < g->ts_byp_n; k++)
            have |= g->ts_byp_pc[k] == pcs[j];
        if (!have && g->ts_byp_n < GPU_TS_BYP_PCS)
            g->ts_byp_pc[g->ts_byp_n++] = pcs[j];
    }
    fprintf(g->ts, ",%" PRIu64, tot + other);
    for (unsigned k = 0; k < GPU_TS_BYP_PCS; k++) {
        if (k >= g->ts_byp_n) {
            fputs(",,,", g->ts);
            continue;
        }
        double agg, ins;
        byp_pc_state(g, g->ts_byp_pc[k], &agg, &ins);
        fprintf(g->ts, ",%u,%.4g,%.4g", g->ts_byp_pc[k], agg, ins);
    }
}

/* ---- time series ----------------------------------------------------------------------- */

void gpu_ts_sample(struct gpu *g, sim_cycle boundary, int final)
{
    (void)final;
    if (!g->ts || boundary <= g->sample_prev_cycle)
        return;
    if (!g->ts_header_done) {
        fputs("kernel_id,kernel,cycle,interval_cycles,ipc,warp_ipc,l1d_miss_rate,l2_miss_rate,dram_bw_util", g->ts);
        for (unsigned i = 0; i < g->n_sms; i++)
            fprintf(g->ts, ",sm%u_ctas,sm%u_warps", i, i);
        const struct warp_sched_ops *wo = warp_sched_find(g->cfg.scheduler);
        for (unsigned i = 0; wo && wo->sample && i < g->n_sms; i++)   /* the warp policy's own column */
            fprintf(g->ts, ",sm%u_%s", i, wo->sample_name ? wo->sample_name : "policy");
        for (unsigned i = 0; i < g->n_sms; i++)   /* CTA limit n and paused CTAs (docs/policies.md) */
            fprintf(g->ts, ",sm%u_n,sm%u_paused", i, i);
        fputs(",ctas_unissued", g->ts);   /* 001 Fig. 8-9 average n only while CTAs are still being issued */
        if (gpu_bypass_in_use(g))   /* only then: the default columns stay as they were */
            ts_bypass(g, 1);
        for (unsigned i = 0; i < g->n_cpus; i++)   /* 004 Fig. 13-14: each CPU core's IPC */
            if (g->cpu[i].core)
                fprintf(g->ts, ",cpu%u_ipc", i);
        if (gpu_cm_active(g)) {   /* 004 Fig. 13-14: congestion, per-core stall_GPU and warp limits */
            fputs(",stall_MC,stall_net", g->ts);
            for (unsigned i = 0; i < g->n_sms; i++)
                fprintf(g->ts, ",sm%u_stall_gpu,sm%u_warp_limit", i, i);
        }
        fputc('\n', g->ts);
        g->ts_header_done = 1;
    }
    uint64_t *now = g->sum_now, *prev = g->sum_prev_sample;
    gpu_gather(g, now, boundary);
    uint64_t cyc = now[GS_CORE_CYCLES] - prev[GS_CORE_CYCLES];
    uint64_t dcyc = (now[GS_DRAM_CYCLES] - prev[GS_DRAM_CYCLES]) * g->n_chan;
#define D(ix) (now[ix] - prev[ix])
    fprintf(g->ts, "%u,%s,%" PRIu64 ",%" PRIu64 ",%.4f,%.4f,%.4f,%.4f,%.4f", g->kernel_id,
            g->nkernels ? g->kernels[g->nkernels - 1].res.name : "", (uint64_t)boundary, cyc,
            ratio(D(GS_THREAD_INSNS), cyc), ratio(D(GS_WARP_INSNS), cyc), ratio(D(GS_L1D_MISS), D(GS_L1D_ACC)),
            ratio(D(GS_L2_MISS), D(GS_L2_ACC)), ratio(D(GS_D_BUSY), dcyc));
#undef D
    for (unsigned i = 0; i < g->n_sms; i++) {
        unsigned c = g->grid ? sm_resident_ctas(g->sm[i]) : 0;
        fprintf(g->ts, ",%u,%u", c, g->grid ? g->active_warps[i] : 0);
    }
    const struct warp_sched_ops *wso = warp_sched_find(g->cfg.scheduler);
    for (unsigned i = 0; wso && wso->sample && i < g->n_sms; i++) {
        double v = 0;
        if (g->grid)
            (void)sm_policy_sample(g->sm[i], &v);
        fprintf(g->ts, ",%.10g", v);
    }
    for (unsigned i = 0; i < g->n_sms; i++) {
        const struct gpu_cta_sm *c = g->grid && g->cta_sm ? &g->cta_sm[i] : NULL;
        fprintf(g->ts, ",%u,%u", c ? c->limit : 0, c ? c->paused : 0);
    }
    fprintf(g->ts, ",%" PRIu64, g->grid && g->n_ctas > g->ctas_issued ? g->n_ctas - g->ctas_issued : 0);
    if (gpu_bypass_in_use(g))
        ts_bypass(g, 0);
    if (g->cpu_active) {   /* CPU cycles of the sample: up to the CPU edge before the boundary */
        sim_cycle cc = (sim_cycle)((boundary * g->per[GD_CORE]) / g->per[GD_CPU]);
        uint64_t dc = cc > g->ts_cpu_cycle ? cc - g->ts_cpu_cycle : 0;
        for (unsigned i = 0; i < g->n_cpus; i++) {
            struct gpu_cpu_slot *k = &g->cpu[i];
            if (!k->core)
                continue;
            uint64_t ins = cpu_core_stats(k->core)->insns;
            fprintf(g->ts, ",%.4f", ratio(ins - k->ts_insns, dc));
            k->ts_insns = ins;
        }
        g->ts_cpu_cycle = cc;
    }
    if (gpu_cm_active(g)) {
        uint64_t l2c = now[GS_L2_CYCLES] - prev[GS_L2_CYCLES];
        fprintf(g->ts, ",%.4f,%.4f", ratio(now[GS_P_STALL_MC] - prev[GS_P_STALL_MC], l2c),
                ratio(now[GS_P_STALL_NET] - prev[GS_P_STALL_NET], l2c));
        for (unsigned i = 0; i < g->n_sms; i++) {
            size_t ix = GS_FIXED + i * PC_COUNT + PC_STALL_GPU;
            fprintf(g->ts, ",%" PRIu64 ",%u", now[ix] - prev[ix], gpu_cm_limit(g, i));
        }
    }
    fputc('\n', g->ts);
    memcpy(prev, now, sizeof(uint64_t) * g->nsum);
    g->sample_prev_cycle = boundary;
}

/* ---- emitters: one report body, written as text or as JSON (core/json.c) ----------------------- */

struct emit {
    FILE *f;
    int json;
    struct json j;        /* JSON: the writer */
    const char *prefix;   /* text: key prefix inside an object */
};

static void em_key(struct emit *e, const char *key)
{
    fprintf(e->f, "%s%s = ", e->prefix ? e->prefix : "", key ? key : "");
}

static void em_u64(struct emit *e, const char *key, uint64_t v)
{
    if (e->json) {
        json_u64(&e->j, key, v);
        return;
    }
    em_key(e, key);
    fprintf(e->f, "%" PRIu64 "\n", v);
}

static void em_dbl(struct emit *e, const char *key, double v)
{
    if (e->json) {
        json_dbl(&e->j, key, v);
        return;
    }
    em_key(e, key);
    fprintf(e->f, "%.4f\n", v);
}

static void em_str(struct emit *e, const char *key, const char *v)
{
    if (e->json) {
        json_str(&e->j, key, v);
        return;
    }
    em_key(e, key);
    fprintf(e->f, "%s\n", v);
}

static void em_arr_u64(struct emit *e, const char *key, const uint64_t *v, unsigned n, unsigned stride)
{
    if (e->json) {
        json_arr_u64(&e->j, key, v, n, stride);
        return;
    }
    em_key(e, key);
    for (unsigned i = 0; i < n; i++)
        fprintf(e->f, "%s%" PRIu64, i ? " " : "", v[(size_t)i * stride]);
    fputc('\n', e->f);
}

static void em_arr_dbl(struct emit *e, const char *key, const double *v, unsigned n)
{
    if (e->json) {
        json_arr_dbl(&e->j, key, v, n);
        return;
    }
    em_key(e, key);
    for (unsigned i = 0; i < n; i++)
        fprintf(e->f, "%s%.4f", i ? " " : "", v[i]);
    fputc('\n', e->f);
}

/* JSON: an object ('{') or array ('[') member; text: later keys get text_prefix */
static void em_open(struct emit *e, const char *key, char c, const char *text_prefix)
{
    if (e->json) {
        if (c == '[')
            json_arr(&e->j, key);
        else
            json_obj(&e->j, key);
    } else {
        e->prefix = text_prefix;
    }
}

static void em_close(struct emit *e, char c)
{
    (void)c;
    if (e->json)
        json_close(&e->j);
    else
        e->prefix = NULL;
}

/* ---- one report section (a kernel or the totals) ------------------------------------------ */

struct section {
    const char *name;
    unsigned kernel_id;            /* 0 for totals */
    uint64_t cycles, thread_insns, warp_insns;
    uint64_t tot_cycles, tot_thread_insns, tot_warp_insns;   /* running totals up to this kernel */
    uint64_t ctas, lat_rt_max;
    double host_seconds;
    const uint64_t *d;             /* summary difference */
    const uint64_t *cum;           /* summary over the kernels up to this one (totals: the run) */
    uint64_t active_lane_insns, tot_active_lane_insns;
    int stopped;                   /* 1: this kernel (the run) stopped at a -gpgpu_max_* limit */
};

/* ---- GPGPU-Sim's formats ------------------------------------------------------------------ */

/* "gpu_occupancy = 45.1234% " in text, a number in JSON */
static void em_pct(struct emit *e, const char *key, double v)
{
    if (e->json) {
        json_dbl(&e->j, key, v);
        return;
    }
    em_key(e, key);
    fprintf(e->f, "%.4f%% \n", v);
}

/* "L2_BW  = %12.4f GB/Sec" in text, GB/s as a number in JSON */
static void em_gbps(struct emit *e, const char *key, double v)
{
    if (e->json)
        json_dbl(&e->j, key, v);
    else
        fprintf(e->f, "%s  = %12.4f GB/Sec\n", key, v);
}

/* Bytes the L2 slices handed to the reply network (header flits included) per simulated second. */
static double l2_bw_gbps(const struct gpu *g, const uint64_t *d)
{
    double secs = (double)d[GS_CORE_CYCLES] * (double)g->per[GD_CORE] * 1e-12;
    return secs > 0 ? (double)d[GS_IREP_FLITS] * g->cfg.icnt_flit_size / secs / 1e9 : 0.0;
}

/* One access/outcome table, GPGPU-Sim's NAME[TYPE][OUTCOME] = N: per type the outcomes
   HIT, HIT_RESERVED, MISS, RESERVATION_FAIL and, for a type with accesses, TOTAL_ACCESS
   (hits + pending hits + misses, reservation failures not counted).  JSON: an object per type. */
#define BK_TYPES 5
enum { BK_GLOBAL_R = 0, BK_GLOBAL_W, BK_CONST_R, BK_TEX_R, BK_INST_R };
static const char *const bk_type_name[BK_TYPES] = {"GLOBAL_ACC_R", "GLOBAL_ACC_W", "CONST_ACC_R", "TEXTURE_ACC_R",
                                                   "INST_ACC_R"};
struct bk_row { uint64_t hit, hit_res, miss, res_fail; bool used; };

static void em_breakdown(struct emit *e, const char *name, const struct bk_row *rows)
{
    if (e->json)
        em_open(e, name, '{', NULL);
    for (unsigned t = 0; t < BK_TYPES; t++) {
        const struct bk_row *r = &rows[t];
        if (!r->used)
            continue;
        uint64_t tot = r->hit + r->hit_res + r->miss;
        const char *oc[] = {"HIT", "HIT_RESERVED", "MISS", "RESERVATION_FAIL", "TOTAL_ACCESS"};
        uint64_t v[] = {r->hit, r->hit_res, r->miss, r->res_fail, tot};
        if (e->json) {
            em_open(e, bk_type_name[t], '{', NULL);
            for (unsigned k = 0; k < 5; k++)
                em_u64(e, oc[k], v[k]);
            em_close(e, '}');
            continue;
        }
        for (unsigned k = 0; k < 5; k++)
            if (k < 4 || tot)
                fprintf(e->f, "\t%s[%s][%s] = %" PRIu64 "\n", name, bk_type_name[t], oc[k], v[k]);
    }
    if (e->json)
        em_close(e, '}');
}

/* The L1D's and the L2's rows from a summary difference: reads by outcome are counted (the L1D's
   read hits are its warps' read hits, the L2's its slices' read hits); writes (and, at the L2,
   atomics) are the rest.  Reservation failures are not split by reads and writes in warpsim's
   caches: they go to the read row.  Local-memory accesses are counted with the global ones, and
   at the L2 every read (instruction, constant and texture misses too) is a GLOBAL_ACC_R. */
static uint64_t sub0(uint64_t a, uint64_t b) { return a > b ? a - b : 0; }

static void bk_rw(struct bk_row *rows, uint64_t acc, uint64_t miss, uint64_t hit_res, uint64_t res_fail, uint64_t reads,
                  uint64_t rhit, uint64_t rmiss)
{
    uint64_t hits = sub0(acc, miss + hit_res);
    struct bk_row *r = &rows[BK_GLOBAL_R], *w = &rows[BK_GLOBAL_W];
    r->used = w->used = true;
    r->hit = rhit;
    r->miss = rmiss;
    r->hit_res = sub0(reads, rhit + rmiss);
    r->res_fail = res_fail;
    w->hit = sub0(hits, rhit);
    w->miss = sub0(miss, rmiss);
    w->hit_res = sub0(hit_res, r->hit_res);
    w->res_fail = 0;
}

static void bk_l1d(struct bk_row *rows, const uint64_t *d)
{
    bk_rw(rows, d[GS_L1D_ACC], d[GS_L1D_MISS], d[GS_L1D_HITRES], d[GS_L1D_RESFAIL], d[GS_L1D_READS],
          d[GS_L1D_CHIT] + d[GS_L1D_NHIT], d[GS_L1D_RMISS]);
}

static void gpgpusim_tables(struct emit *e, const uint64_t *d)
{
    struct bk_row l1d[BK_TYPES], l2[BK_TYPES], core[BK_TYPES];
    memset(l1d, 0, sizeof l1d);
    memset(l2, 0, sizeof l2);
    bk_l1d(l1d, d);
    bk_rw(l2, d[GS_L2_ACC], d[GS_L2_MISS], d[GS_L2_HITRES], d[GS_L2_RESFAIL], d[GS_L2_READS], d[GS_L2_RHIT],
          d[GS_L2_RMISS]);
    memcpy(core, l1d, sizeof core);   /* the SM's caches together: L1D, L1I, constant, texture */
    static const unsigned x_type[3] = {BK_INST_R, BK_CONST_R, BK_TEX_R};
    for (unsigned k = 0; k < 3; k++) {
        const uint64_t *x = &d[GS_L1X + k * 5];
        struct bk_row *r = &core[x_type[k]];
        r->used = true;
        r->hit = x[0];
        r->hit_res = x[1];
        r->miss = x[2];
        r->res_fail = x[3];
    }
    if (!e->json)
        fputs("L1D_total_cache_breakdown:\n", e->f);
    em_breakdown(e, "L1D_cache_stats_breakdown", l1d);
    if (!e->json)
        fputs("L2_total_cache_breakdown:\n", e->f);
    em_breakdown(e, "L2_cache_stats_breakdown", l2);
    if (!e->json)
        fputs("Total_core_cache_stats:\n", e->f);
    em_breakdown(e, "Total_core_cache_stats_breakdown", core);
}

/* The busiest sub-partition's requests over the mean of a block pp (gsum_part); 0 without requests. */
static double hottest_over_mean(const uint64_t *pp, unsigned np)
{
    uint64_t sum = 0, max = 0;
    for (unsigned p = 0; p < np; p++) {
        uint64_t r = pp[p * PP_COUNT + PP_REQS];
        sum += r;
        max = r > max ? r : max;
    }
    return sum ? (double)max * np / (double)sum : 0.0;
}

/* hottest_over_mean of every kernel, weighted by its cycles: each launch may load another slice, which
   the run's totals average away (docs/timing.md) */
static double hottest_per_launch(const struct gpu *g)
{
    size_t off = GS_FIXED + (size_t)g->n_sms * PC_COUNT + GPU_HIST_BUCKETS;
    double w = 0, c = 0;
    for (unsigned k = 0; k < g->nkernels; k++) {
        const uint64_t *d = g->kernels[k].sum;
        double h = hottest_over_mean(d + off, g->n_parts);
        if (h > 0) {
            w += h * (double)d[GS_CORE_CYCLES];
            c += (double)d[GS_CORE_CYCLES];
        }
    }
    return c > 0 ? w / c : 0.0;
}

/* Per memory sub-partition, from the section's block pp (gsum_part): the traffic each L2 slice took
   and how long the request network took to bring it (where requests concentrate on a few slices),
   and 004's congestion, the L2 cycles in which a request waited for a full DRAM queue (stall_MC)
   or a full reply queue (stall_net).  congestion_only: the text report's two lines. */
static void per_partition(const struct gpu *g, struct emit *e, const uint64_t *pp, int congestion_only,
                          int totals)
{
    unsigned np = g->n_parts;
    double *lat = calloc(np ? np : 1, sizeof *lat);
    if (!lat)
        return;
    for (unsigned p = 0; p < np; p++)
        lat[p] = ratio(pp[p * PP_COUNT + PP_IREQ_LAT], pp[p * PP_COUNT + PP_IREQ_PKTS]);
    em_open(e, "per_partition", '{', "per_partition.");
    if (!congestion_only) {
        em_arr_u64(e, "requests", &pp[PP_REQS], np, PP_COUNT);
        em_arr_u64(e, "L2_accesses", &pp[PP_L2_ACC], np, PP_COUNT);
        em_arr_u64(e, "L2_misses", &pp[PP_L2_MISS], np, PP_COUNT);
        em_arr_u64(e, "icnt_req_packets", &pp[PP_IREQ_PKTS], np, PP_COUNT);
        em_arr_dbl(e, "icnt_req_lat_avg", lat, np);
        em_dbl(e, "hottest_over_mean", hottest_over_mean(pp, np));
        if (totals)
            em_dbl(e, "hottest_over_mean_per_launch", hottest_per_launch(g));
    }
    em_arr_u64(e, "stall_MC", &pp[PP_STALL_MC], np, PP_COUNT);
    em_arr_u64(e, "stall_net", &pp[PP_STALL_NET], np, PP_COUNT);
    em_close(e, '}');
    free(lat);
}

static void section_body(const struct gpu *g, struct emit *e, const struct section *s)
{
    const uint64_t *d = s->d;
    const struct gpu_config *c = &g->cfg;
    const unsigned n = g->n_sms;
    em_str(e, "kernel_name", s->name);
    if (s->kernel_id)
        em_u64(e, "kernel_launch_uid", s->kernel_id);
    em_u64(e, "gpu_sim_cycle", s->cycles);
    if (s->stopped && (!e->json || !s->kernel_id))   /* a kernel's JSON object has its status already */
        em_str(e, "status", "stopped at limit");
    em_u64(e, "gpu_sim_insn", s->thread_insns);
    em_u64(e, "warpsim_active_lane_insn", s->active_lane_insns);
    em_u64(e, "gpu_sim_warp_insn", s->warp_insns);
    em_dbl(e, "gpu_ipc", ratio(s->thread_insns, s->cycles));
    em_dbl(e, "gpu_warp_ipc", ratio(s->warp_insns, s->cycles));
    /* CTA pausing deprioritises (001 sec. IV): what the paused CTAs still issued; in JSON, and in the
       text report when the CTA scheduler sets limits */
    if (e->json || (g->cta_ops && g->cta_ops->update))
        em_u64(e, "warpsim_paused_cta_warp_insn", d[GS_PAUSED_WINSN]);
    em_u64(e, "gpu_tot_sim_cycle", s->tot_cycles);
    em_u64(e, "gpu_tot_sim_insn", s->tot_thread_insns);
    em_u64(e, "gpu_tot_sim_warp_insn", s->tot_warp_insns);
    em_dbl(e, "gpu_tot_ipc", ratio(s->tot_thread_insns, s->tot_cycles));
    em_u64(e, "ctas_completed", d[GS_CTAS_DONE]);
    em_pct(e, "gpu_occupancy", 100.0 * ratio(d[GS_RES_WARP_CYCLES], d[GS_CORE_CYCLES] * n * c->max_warps_per_core));
    /* GPGPU-Sim's names for what warpsim models: run totals up to this kernel, congestion, L2 bandwidth */
    const uint64_t *cum = s->cum ? s->cum : d;
    em_pct(e, "gpu_tot_occupancy",
           100.0 * ratio(cum[GS_RES_WARP_CYCLES], cum[GS_CORE_CYCLES] * n * c->max_warps_per_core));
    em_u64(e, "warpsim_tot_active_lane_insn", s->tot_active_lane_insns);
    em_u64(e, "gpgpu_n_tot_thrd_icount", s->tot_thread_insns);
    em_u64(e, "gpgpu_n_tot_w_icount", s->tot_warp_insns);
    em_u64(e, "gpu_stall_dramfull", d[GS_STALL_DRAMFULL]);
    em_u64(e, "gpu_stall_icnt2sh", d[GS_IREP_STALL]);
    em_gbps(e, "L2_BW", l2_bw_gbps(g, d));
    em_gbps(e, "L2_BW_total", l2_bw_gbps(g, cum));

    em_u64(e, "L1D_total_cache_accesses", d[GS_L1D_ACC]);
    em_u64(e, "L1D_total_cache_misses", d[GS_L1D_MISS]);
    em_dbl(e, "L1D_total_cache_miss_rate", ratio(d[GS_L1D_MISS], d[GS_L1D_ACC]));
    em_u64(e, "L1D_total_cache_pending_hits", d[GS_L1D_HITRES]);
    em_u64(e, "L1D_total_cache_reservation_fails", d[GS_L1D_RESFAIL]);
    em_u64(e, "L2_total_cache_accesses", d[GS_L2_ACC]);
    em_u64(e, "L2_total_cache_misses", d[GS_L2_MISS]);
    em_dbl(e, "L2_total_cache_miss_rate", ratio(d[GS_L2_MISS], d[GS_L2_ACC]));
    em_u64(e, "L2_total_cache_pending_hits", d[GS_L2_HITRES]);
    em_u64(e, "L2_total_cache_reservation_fails", d[GS_L2_RESFAIL]);
    /* GPGPU-Sim breaks reservation failures down by reason in its *_fail_stats tables; warpsim's caches
       count three reasons (not by access type): JSON only, so the text report stays GPGPU-Sim's */
    if (e->json) {
        static const char *const rf_key[6] = {
            "L1D_reservation_fails_mshr", "L1D_reservation_fails_merge", "L1D_reservation_fails_line",
            "L2_reservation_fails_mshr",  "L2_reservation_fails_merge",  "L2_reservation_fails_line"};
        for (unsigned k = 0; k < 6; k++)
            em_u64(e, rf_key[k], d[GS_L1D_RF_MSHR + k]);
    }
    gpgpusim_tables(e, d);
    em_dbl(e, "L1D_MPKI_warp", 1000.0 * ratio(d[GS_L1D_MISS], s->warp_insns));
    em_dbl(e, "L2_MPKI_warp", 1000.0 * ratio(d[GS_L2_MISS], s->warp_insns));
    /* bypass and reuse: always in JSON; in the text report only with a bypass policy (the
       default text report stays as it was) */
    if (e->json || gpu_bypass_in_use(g)) {
        em_str(e, "L1D_bypass_policy", c->bypass_name[GPU_CACHE_L1D] ? c->bypass_name[GPU_CACHE_L1D] : "none");
        em_u64(e, "L1D_bypassed_requests", d[GS_L1D_BYP]);
        em_u64(e, "L1D_evicted_lines", d[GS_L1D_EVICT]);
        em_u64(e, "L1D_evicted_never_reused", d[GS_L1D_EVICT0]);
        em_dbl(e, "L1D_zero_reuse_fraction", ratio(d[GS_L1D_EVICT0], d[GS_L1D_EVICT]));
        em_str(e, "L2_bypass_policy", c->bypass_name[GPU_CACHE_L2] ? c->bypass_name[GPU_CACHE_L2] : "none");
        em_u64(e, "L2_bypassed_requests", d[GS_L2_BYP]);
        em_u64(e, "L2_evicted_lines", d[GS_L2_EVICT]);
        em_u64(e, "L2_evicted_never_reused", d[GS_L2_EVICT0]);
        em_dbl(e, "L2_zero_reuse_fraction", ratio(d[GS_L2_EVICT0], d[GS_L2_EVICT]));
        em_u64(e, "L1_to_L2_bytes", d[GS_IREQ_FLITS] * c->icnt_flit_size);
        em_u64(e, "L2_to_L1_bytes", d[GS_IREP_FLITS] * c->icnt_flit_size);
    }

    /* CAWA (docs/policies.md): L1D reads by warps the scheduler predicts critical and by the
       others; hits on the warp's own CACP partition.  Always in JSON; in the text report only
       with CACP at the L1D (the default text report stays as it was) */
    const char *l1r = c->repl_name[GPU_CACHE_L1D];
    if (e->json || (l1r && !strcmp(l1r, "cacp"))) {
        em_str(e, "L1D_repl_policy", l1r ? l1r : "");
        em_u64(e, "L1D_crit_warp_accesses", d[GS_L1D_CACC]);
        em_u64(e, "L1D_crit_warp_hits", d[GS_L1D_CHIT]);
        em_dbl(e, "L1D_crit_warp_hit_rate", ratio(d[GS_L1D_CHIT], d[GS_L1D_CACC]));
        em_u64(e, "L1D_crit_partition_hits", d[GS_L1D_CPHIT]);
        em_dbl(e, "L1D_crit_partition_hit_rate", ratio(d[GS_L1D_CPHIT], d[GS_L1D_CACC]));
        em_u64(e, "L1D_noncrit_warp_accesses", d[GS_L1D_NACC]);
        em_u64(e, "L1D_noncrit_warp_hits", d[GS_L1D_NHIT]);
        em_dbl(e, "L1D_noncrit_warp_hit_rate", ratio(d[GS_L1D_NHIT], d[GS_L1D_NACC]));
        em_u64(e, "L1D_noncrit_partition_hits", d[GS_L1D_NPHIT]);
        em_dbl(e, "L1D_noncrit_partition_hit_rate", ratio(d[GS_L1D_NPHIT], d[GS_L1D_NACC]));
        /* 000 sec. 4.3.3: how often each CTA's slowest warp was sampled as critical */
        em_u64(e, "CPL_slowest_warp_samples", d[GS_CPL_SAMPLES]);
        em_u64(e, "CPL_slowest_warp_samples_critical", d[GS_CPL_SLOW]);
        em_dbl(e, "CPL_prediction_accuracy", ratio(d[GS_CPL_SLOW], d[GS_CPL_SAMPLES]));
    }

    em_u64(e, "icnt_req_packets", d[GS_IREQ_PKTS]);
    em_dbl(e, "icnt_req_avg_latency_icnt_cycles", ratio(d[GS_IREQ_LAT], d[GS_IREQ_PKTS]));
    em_u64(e, "icnt_rep_packets", d[GS_IREP_PKTS]);
    em_dbl(e, "icnt_rep_avg_latency_icnt_cycles", ratio(d[GS_IREP_LAT], d[GS_IREP_PKTS]));
    em_u64(e, "stall_MC", d[GS_P_STALL_MC]);
    em_u64(e, "stall_net", d[GS_P_STALL_NET]);
    /* 004's congestion metrics per cycle and stall_GPU: in JSON, and in the text report when a
       concurrency manager runs (the default text report stays as it was) */
    if (e->json || gpu_cm_active(g)) {
        em_dbl(e, "stall_MC_per_cycle", ratio(d[GS_P_STALL_MC], d[GS_L2_CYCLES]));
        em_dbl(e, "stall_net_per_cycle", ratio(d[GS_P_STALL_NET], d[GS_L2_CYCLES]));
        em_u64(e, "stall_GPU", d[GS_STALL_GPU]);
        em_dbl(e, "stall_GPU_per_warp_insn", ratio(d[GS_STALL_GPU], d[GS_WARP_INSNS]));
        em_str(e, "cm", g->cm_ops ? g->cm_ops->name : "none");
        em_u64(e, "cm_decisions", d[GS_CM_DECISIONS]);
        em_dbl(e, "cm_avg_warp_limit", ratio(d[GS_CM_LIMIT_SUM], d[GS_CM_DECISIONS] * g->n_sms));
    }

    em_u64(e, "dram_reads", d[GS_D_READS]);
    em_u64(e, "dram_writes", d[GS_D_WRITES]);
    if (!e->json)   /* GPGPU-Sim's spelling of the same counts */
        fprintf(e->f, "total dram reads = %" PRIu64 "\ntotal dram writes = %" PRIu64 "\n", d[GS_D_READS],
                d[GS_D_WRITES]);
    em_u64(e, "dram_activates", d[GS_D_ACT]);
    em_dbl(e, "dram_avg_queue_latency_dram_cycles", ratio(d[GS_D_QLAT], d[GS_D_READS] + d[GS_D_WRITES]));
    em_dbl(e, "dram_row_buffer_hit_rate", ratio(d[GS_D_ROWHIT], d[GS_D_ROWHIT] + d[GS_D_ROWMISS]));
    em_dbl(e, "dram_bw_util", ratio(d[GS_D_BUSY], d[GS_DRAM_CYCLES] * g->n_chan));

    em_u64(e, "lat_rt_count", d[GS_LATRT_CNT]);
    em_dbl(e, "lat_rt_avg", ratio(d[GS_LATRT_SUM], d[GS_LATRT_CNT]));
    em_u64(e, "lat_rt_max", s->lat_rt_max);
    em_u64(e, "lat_rt_hist_bucket_cycles", c->lat_hist_bucket);
    em_arr_u64(e, "lat_rt_hist", &d[GS_FIXED + n * PC_COUNT], GPU_HIST_BUCKETS, 1);

    /* the seeds' per-core metrics */
    const uint64_t *pc = &d[GS_FIXED];
    double ract_sum = 0, util_sum = 0, idle_sum = 0, cmem_sum = 0;
    unsigned ract_n = 0;
    double *ract = calloc(3 * (size_t)(n ? n : 1), sizeof(double));
    if (!ract)
        return;
    double *util = ract + n, *occ = ract + 2 * (size_t)n;
    uint64_t cidle_tot = 0, cmem_tot = 0;
    for (unsigned i = 0; i < n; i++) {
        const uint64_t *p = &pc[i * PC_COUNT];
        uint64_t a = p[PC_NACT] + p[PC_NINACT];
        ract[i] = ratio(p[PC_NACT], a);
        if (a) {
            ract_sum += ract[i];
            ract_n++;
        }
        util[i] = ratio(p[PC_UTIL], s->cycles);
        util_sum += util[i];
        occ[i] = 100.0 * ratio(p[PC_RES_WARP_CYCLES], d[GS_CORE_CYCLES] * c->max_warps_per_core);
        idle_sum += ratio(p[PC_CIDLE], s->cycles);
        cmem_sum += ratio(p[PC_CMEM], s->cycles);
        cidle_tot += p[PC_CIDLE];
        cmem_tot += p[PC_CMEM];
    }
    double RACT = ract_n ? ract_sum / ract_n : 0, UTIL = n ? util_sum / n : 0, IDLE = n ? idle_sum / n : 0;
    em_dbl(e, "RACT", RACT);
    em_dbl(e, "util", UTIL);
    em_dbl(e, "idle_ratio", IDLE);
    em_dbl(e, "mem_wait_ratio", n ? cmem_sum / n : 0);
    em_u64(e, "C_idle", cidle_tot);
    em_u64(e, "C_mem", cmem_tot);
    em_str(e, "type_hint", IDLE > 0.20 ? "Type-X" : RACT > 0.66 ? "Type-C" : "Type-M");
    em_open(e, "per_core", '{', "per_core.");
    em_arr_u64(e, "N_act", &pc[PC_NACT], n, PC_COUNT);
    em_arr_u64(e, "N_inact", &pc[PC_NINACT], n, PC_COUNT);
    em_arr_dbl(e, "RACT", ract, n);
    em_arr_u64(e, "C_idle", &pc[PC_CIDLE], n, PC_COUNT);
    em_arr_u64(e, "C_mem", &pc[PC_CMEM], n, PC_COUNT);
    em_arr_dbl(e, "util", util, n);
    em_arr_u64(e, "warp_insns", &pc[PC_WINSN], n, PC_COUNT);
    em_arr_u64(e, "ctas", &pc[PC_CTAS], n, PC_COUNT);
    em_arr_u64(e, "L1D_accesses", &pc[PC_L1D_ACC], n, PC_COUNT);
    em_arr_u64(e, "L1D_misses", &pc[PC_L1D_MISS], n, PC_COUNT);
    if (e->json || gpu_cm_active(g))   /* 004's stall_GPU per core (the default text report stays as it was) */
        em_arr_u64(e, "stall_GPU", &pc[PC_STALL_GPU], n, PC_COUNT);
    if (e->json)   /* gpu_occupancy per core */
        em_arr_dbl(e, "occupancy", occ, n);
    em_close(e, '}');
    free(ract);
    if (e->json)
        per_partition(g, e, &d[GS_FIXED + n * PC_COUNT + GPU_HIST_BUCKETS], 0, !s->kernel_id);

    /* latency attribution (SPEC section 5), summed over warps */
    em_open(e, "stall_breakdown", '{', "stall_breakdown.");
    em_u64(e, "Scheduling", d[GS_SCHED]);
    for (int r = 0; r < STALL_COUNT; r++)
        em_u64(e, stall_reason_name((enum stall_reason)r), d[GS_STALL0 + r]);
    em_close(e, '}');
}

/* host-dependent lines: kept apart so that reports without them are deterministic */
static void section_host(struct emit *e, const struct section *s)
{
    double t = s->host_seconds > 1e-9 ? s->host_seconds : 1e-9;
    em_dbl(e, "gpgpu_simulation_time_sec", s->host_seconds);
    em_dbl(e, "gpgpu_simulation_rate_warp_insn_per_sec", (double)s->warp_insns / t);
    em_dbl(e, "gpgpu_simulation_rate_cycles_per_sec", (double)s->cycles / t);
    if (!e->json) {   /* GPGPU-Sim's formats of the same */
        unsigned long sec = (unsigned long)s->host_seconds;
        fprintf(e->f, "gpgpu_simulation_time = %lu days, %lu hrs, %lu min, %lu sec (%lu sec)\n", sec / 86400,
                sec / 3600 % 24, sec / 60 % 60, sec % 60, sec);
        fprintf(e->f, "gpgpu_simulation_rate = %.0f (inst/sec)\n", (double)s->thread_insns / t);
        fprintf(e->f, "gpgpu_simulation_rate = %.0f (cycle/sec)\n", (double)s->cycles / t);
    }
}

/* Bypassed requests per PC over the L1Ds (whole run: the caches' counters are
   not per kernel), with the policy's per-PC state averaged over the SMs:
   AGG (Ctrl-C) and insertion ratio.  JSON: every PC counted, in PC order;
   text: the 8 PCs with the most bypassed requests. */
static void bypass_by_pc(const struct gpu *g, struct emit *e)
{
    size_t cap = (size_t)g->n_sms * GPU_BYP_PCS_PER_CACHE + 1;
    uint32_t *pcs = calloc(cap, sizeof *pcs);
    uint64_t *cnt = calloc(cap, sizeof *cnt), *ord = calloc(cap, sizeof *ord);
    double *agg = calloc(2 * cap, sizeof *agg);
    unsigned n = 0;
    uint64_t other = 0;
    if (!pcs || !cnt || !ord || !agg)
        goto out;
    n = byp_gather(g, pcs, cnt, cap, &other);
    double *ins = agg + cap;
    for (unsigned j = 0; j < n; j++)
        byp_pc_state(g, pcs[j], &agg[j], &ins[j]);
    if (e->json) {
        for (unsigned j = 0; j < n; j++)
            ord[j] = pcs[j];
        em_arr_u64(e, "L1D_bypass_pcs", ord, n, 1);
        em_arr_u64(e, "L1D_bypassed_by_pc", cnt, n, 1);
        em_arr_dbl(e, "L1D_bypass_agg_by_pc", agg, n);
        em_arr_dbl(e, "L1D_insert_ratio_by_pc", ins, n);
        em_u64(e, "L1D_bypassed_other_pcs", other);
    } else {
        /* top 8 by count (ties: lower PC first) */
        unsigned top = n < 8 ? n : 8;
        for (unsigned t = 0; t < top; t++) {
            unsigned best = UINT32_MAX;
            for (unsigned j = 0; j < n; j++)
                if (cnt[j] != UINT64_MAX && (best == UINT32_MAX || cnt[j] > cnt[best]))
                    best = j;
            fprintf(e->f, "L1D_bypassed_by_pc[%u] = pc %u: %" PRIu64 " requests, AGG %.2f, insert_ratio %.4f\n", t,
                    pcs[best], cnt[best], agg[best], ins[best]);
            cnt[best] = UINT64_MAX;
        }
    }
out:
    free(pcs);
    free(cnt);
    free(ord);
    free(agg);
}

static void make_sections(const struct gpu *g, unsigned k, struct section *s, uint64_t *tot_d)
{
    /* running totals up to kernel k (inclusive) */
    memset(s, 0, sizeof *s);
    for (unsigned i = 0; i <= k && i < g->nkernels; i++) {
        const struct gpu_kernel_rec *r = &g->kernels[i];
        s->tot_cycles += r->res.cycles;
        s->tot_thread_insns += r->res.thread_insns;
        s->tot_warp_insns += r->res.warp_insns;
        s->tot_active_lane_insns += r->res.active_lane_insns;
        if (tot_d) {
            for (unsigned j = 0; j < g->nsum; j++)
                tot_d[j] += r->sum[j];
            if (r->lat_rt_max > s->lat_rt_max)
                s->lat_rt_max = r->lat_rt_max;
            s->ctas += r->n_ctas;
            s->host_seconds += r->host_seconds;
        }
    }
}

/* The chip's CPU cores (gpu_cpu.h): each core's application and its measured IPC, private L2 MPKI
   and memory latency; the means over the measured cores. */
static void cpu_section(const struct gpu *g, struct emit *e)
{
    if (e->json)
        em_open(e, "cpu", '{', NULL);
    else
        fprintf(e->f, "\n---- CPU cores: %u, %u running ----\n", g->n_cpus, g->cpu_active);
    em_u64(e, "cpu_cores", g->n_cpus);
    em_u64(e, "cpu_cores_running", g->cpu_active);
    em_u64(e, "cpu_warmup_insns", g->cfg.cpu_warmup);
    em_u64(e, "cpu_quota_insns", g->cfg.cpu_quota);
    double ipc_sum = 0;
    unsigned n = 0;
    if (e->json)
        em_open(e, "cores", '[', NULL);
    for (unsigned i = 0; i < g->n_cpus; i++) {
        struct gpu_cpu_result r;
        bool ok = gpu_cpu_result(g, i, &r);
        if (!r.app)
            continue;
        ipc_sum += ok ? r.ipc : 0;
        n += ok;
        if (e->json) {
            em_open(e, NULL, '{', NULL);
            em_u64(e, "core", i);
            em_str(e, "app", r.app);
            em_str(e, "status", ok ? "measured" : "not measured");
            em_u64(e, "insns", r.insns);
            em_u64(e, "cycles", r.cycles);
            em_u64(e, "start_insns", r.start_insns);
            em_dbl(e, "ipc", r.ipc);
            em_dbl(e, "l2_mpki", r.l2_mpki);
            em_dbl(e, "avg_mem_latency_core_cycles", r.avg_mem_latency);
            em_close(e, '}');
        } else if (ok) {
            fprintf(e->f, "cpu%u = %s: ipc %.4f, l2_mpki %.3f, avg_mem_latency %.1f core cycles (%" PRIu64
                          " insns in %" PRIu64 " cycles)\n",
                    i, r.app, r.ipc, r.l2_mpki, r.avg_mem_latency, r.insns, r.cycles);
        } else {
            fprintf(e->f, "cpu%u = %s: not measured\n", i, r.app);
        }
    }
    if (e->json)
        em_close(e, ']');
    em_dbl(e, "cpu_avg_ipc", n ? ipc_sum / n : 0);
    em_u64(e, "cpu_total_insns", gpu_cpu_total_insns(g));
    if (e->json)
        em_close(e, '}');
}

static void report(const struct gpu *g, struct emit *e, int per_kernel)
{
    uint64_t *tot = calloc(g->nsum ? 2 * (size_t)g->nsum : 1, sizeof(uint64_t));
    if (!tot)
        return;
    uint64_t *cum = tot + g->nsum;   /* the kernels so far */
    if (e->json)
        em_open(e, "kernels", '[', NULL);
    for (unsigned k = 0; k < g->nkernels; k++) {
        const struct gpu_kernel_rec *r = &g->kernels[k];
        struct section s;
        make_sections(g, k, &s, NULL);
        for (unsigned j = 0; j < g->nsum; j++)
            cum[j] += r->sum[j];
        s.cum = cum;
        s.stopped = r->failed == 2;
        s.active_lane_insns = r->res.active_lane_insns;
        s.name = r->res.name;
        s.kernel_id = r->res.kernel_id;
        s.cycles = r->res.cycles;
        s.thread_insns = r->res.thread_insns;
        s.warp_insns = r->res.warp_insns;
        s.ctas = r->n_ctas;
        s.lat_rt_max = r->lat_rt_max;
        s.host_seconds = r->host_seconds;
        s.d = r->sum;
        if (!e->json && !per_kernel) {
            fprintf(e->f, "kernel %u %s: gpu_sim_cycle = %" PRIu64 ", gpu_sim_insn = %" PRIu64 ", gpu_ipc = %.4f%s\n",
                    r->res.kernel_id, r->res.name, s.cycles, s.thread_insns, ratio(s.thread_insns, s.cycles),
                    r->failed == 2 ? " (stopped at limit)" : r->failed ? " (FAILED)" : "");
            continue;
        }
        if (e->json) {
            em_open(e, NULL, '{', NULL);
            char grid[96];
            snprintf(grid, sizeof grid, "%u,%u,%u", r->grid[0], r->grid[1], r->grid[2]);
            em_str(e, "grid", grid);
            snprintf(grid, sizeof grid, "%u,%u,%u", r->block[0], r->block[1], r->block[2]);
            em_str(e, "block", grid);
            em_u64(e, "start_cycle", r->start_cycle);
            em_str(e, "status", r->failed == 2 ? "stopped at limit" : r->failed ? "failed" : "ok");
        } else {
            fprintf(e->f, "\n---- kernel %u: %s ----\n", r->res.kernel_id, r->res.name);
        }
        section_body(g, e, &s);
        section_host(e, &s);
        if (e->json)
            em_close(e, '}');
    }
    if (e->json)
        em_close(e, ']');

    struct section s;
    make_sections(g, g->nkernels ? g->nkernels - 1 : 0, &s, tot);
    s.name = "(all kernels)";
    s.cycles = s.tot_cycles;
    s.thread_insns = s.tot_thread_insns;
    s.warp_insns = s.tot_warp_insns;
    s.active_lane_insns = s.tot_active_lane_insns;
    s.d = tot;
    s.cum = tot;
    s.stopped = g->nkernels && g->kernels[g->nkernels - 1].failed == 2;
    if (e->json)
        em_open(e, "totals", '{', NULL);
    else
        fprintf(e->f, "\n---- totals: %u kernel%s ----\n", g->nkernels, g->nkernels == 1 ? "" : "s");
    em_u64(e, "kernels", g->nkernels);
    section_body(g, e, &s);
    /* 004's congestion per memory partition (JSON: in every section, with the slices' traffic) */
    if (!e->json && (gpu_cm_active(g) || g->cpu_active))
        per_partition(g, e, &tot[GS_FIXED + g->n_sms * PC_COUNT + GPU_HIST_BUCKETS], 1, 1);
    em_u64(e, "engine_idle_skips", g->skips);
    em_u64(e, "engine_skipped_core_cycles", g->skipped_core_cycles);
    if (e->json || gpu_bypass_in_use(g))
        bypass_by_pc(g, e);
    section_host(e, &s);
    if (e->json)
        em_close(e, '}');
    free(tot);
    if (g->cpu_active)
        cpu_section(g, e);
}

void gpu_report_text_ex(const struct gpu *g, FILE *f, int per_kernel)
{
    struct emit e;
    memset(&e, 0, sizeof e);
    e.f = f;
    report(g, &e, per_kernel);
}

void gpu_report_text(const struct gpu *g, FILE *f) { gpu_report_text_ex(g, f, 1); }

void gpu_report_json(const struct gpu *g, FILE *f, int indent)
{
    struct emit e;
    memset(&e, 0, sizeof e);
    e.f = f;
    e.json = 1;
    json_begin_body(&e.j, f, indent);
    report(g, &e, 1);
}
