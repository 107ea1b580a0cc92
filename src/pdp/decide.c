/*
 * decide.c - slowdown, fairness and HeteroPDP's target decision (decide.h).
 */
#include "pdp/decide.h"

#include <math.h>

static bool pos(double v) { return isfinite(v) && v > 0; }

double pdp_slowdown(double t_coloc, double t_alone)
{
    return pos(t_coloc) && pos(t_alone) ? t_coloc / t_alone : NAN;
}

double pdp_weighted_fairness(const double *slowdown, const double *weight, size_t n)
{
    if (n == 0)
        return NAN;
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        double w = weight ? weight[i] : 1.0;
        if (!pos(slowdown[i]) || !pos(w))
            return NAN;
        double v = slowdown[i] * w;
        if (v < lo)
            lo = v;
        if (v > hi)
            hi = v;
    }
    return lo / hi;
}

double pdp_fairness(const double *slowdown, size_t n) { return pdp_weighted_fairness(slowdown, NULL, n); }

/* the better of two targets by score (higher is better, NaN never wins); ties by the lower
   tie-break value, then the CPU */
static int pick(const double score[PDP_NTARGETS], const double tie[PDP_NTARGETS])
{
    bool c = !isnan(score[PDP_CPU]), g = !isnan(score[PDP_GPU]);
    if (!c && !g)
        return -1;
    if (c != g)
        return c ? PDP_CPU : PDP_GPU;
    if (score[PDP_CPU] != score[PDP_GPU])
        return score[PDP_CPU] > score[PDP_GPU] ? PDP_CPU : PDP_GPU;
    if (pos(tie[PDP_GPU]) && (!pos(tie[PDP_CPU]) || tie[PDP_GPU] < tie[PDP_CPU]))
        return PDP_GPU;
    return PDP_CPU;
}

int pdp_schedule(const struct pdp_schedule_in *in, struct pdp_schedule_out *out)
{
    size_t nco = in->nco > PDP_MAX_CORUN ? PDP_MAX_CORUN : in->nco;
    double kw = in->kernel_weight > 0 ? in->kernel_weight : 1.0;
    out->weighted = kw != 1.0;
    for (size_t i = 0; i < nco; i++)
        if (in->co[i].weight != 1.0)
            out->weighted = true;

    /* alone: least predicted time (scored as its negation) */
    double score[PDP_NTARGETS], tie[PDP_NTARGETS];
    for (int t = 0; t < PDP_NTARGETS; t++) {
        score[t] = pos(in->time[t][PDP_ALONE]) ? -in->time[t][PDP_ALONE] : NAN;
        tie[t] = NAN;
    }
    out->alone = pick(score, tie);

    double best_alone = NAN;
    for (int t = 0; t < PDP_NTARGETS; t++)
        if (pos(in->time[t][PDP_ALONE]) && (isnan(best_alone) || in->time[t][PDP_ALONE] < best_alone))
            best_alone = in->time[t][PDP_ALONE];
    double fs[PDP_NTARGETS], wfs[PDP_NTARGETS];
    for (int t = 0; t < PDP_NTARGETS; t++) {
        double ref = in->ref == PDP_REF_BEST ? best_alone : in->time[t][PDP_ALONE];
        out->kernel_slowdown[t] = pos(in->time[t][PDP_ALONE]) ? pdp_slowdown(in->time[t][PDP_COLOC], ref) : NAN;
        double sd[PDP_MAX_CORUN + 1], w[PDP_MAX_CORUN + 1];
        sd[0] = out->kernel_slowdown[t];
        w[0] = kw;
        for (size_t i = 0; i < nco; i++) {
            sd[i + 1] = in->co[i].slowdown[t];
            w[i + 1] = in->co[i].weight;
        }
        out->fairness[t] = fs[t] = pdp_fairness(sd, nco + 1);
        out->wfairness[t] = wfs[t] = pdp_weighted_fairness(sd, w, nco + 1);
        tie[t] = in->time[t][PDP_COLOC];
    }
    out->coloc = pick(fs, tie);
    out->coloc_weighted = pick(wfs, tie);
    return out->weighted ? out->coloc_weighted : out->coloc;
}
