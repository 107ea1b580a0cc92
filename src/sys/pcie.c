/* pcie.c - PCIe transfer times and the DMA engine's host-memory stream (pcie.h). */
#include "sys/pcie.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "cpu/trace.h"

void pcie_params_default(struct pcie_params *p)
{
    p->gts = 8.0;
    p->lanes = 16;
    p->encoding = 128.0 / 130.0;
    p->efficiency = 0.8;
    p->latency_s = 10e-6;
}

double pcie_bandwidth(const struct pcie_params *p)
{
    return p->gts * 1e9 * (double)p->lanes * p->encoding / 8.0 * p->efficiency;
}

double pcie_transfer_seconds(const struct pcie_params *p, uint64_t bytes)
{
    if (!bytes)
        return 0;
    return p->latency_s + (double)bytes / pcie_bandwidth(p);
}

uint64_t pcie_dma_trace(const char *path, uint64_t bytes, uint64_t base, unsigned pace, char *err, size_t n)
{
    struct trace_writer *w = trace_create(path, err, n);
    if (!w)
        return 0;
    uint64_t lines = (bytes + PCIE_DMA_LINE - 1) / PCIE_DMA_LINE, recs = 0, lcg = 0x9e3779b97f4a7c15ull;
    if (!lines)
        lines = 1;
    struct trace_rec r;
    int rc = 0;
    for (uint64_t i = 0; i < lines && rc == 0; i++) {
        memset(&r, 0, sizeof r);
        r.ip = 0x200000;
        r.src_mem[0] = base + i * PCIE_DMA_LINE;
        r.dst_regs[0] = 1;
        rc = trace_write(w, &r);
        recs++;
        for (unsigned k = 0; k < pace && rc == 0; k++) {
            lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
            memset(&r, 0, sizeof r);
            r.ip = 0x200040 + 8u * k;
            r.is_branch = 1;
            r.branch_taken = (uint8_t)(lcg >> 63);
            rc = trace_write(w, &r);
            recs++;
        }
    }
    if (trace_finish(w, err, n) != 0 || rc != 0)
        return 0;
    return recs;
}
