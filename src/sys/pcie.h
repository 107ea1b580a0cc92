/*
 * pcie.h - PCI Express transfers between the host and a discrete GPU (HeteroPDP, seed 000 ch. 6:
 * "moving a considerable amount of data between the host system and the accelerators";
 * docs/heteropdp.md, "The machine").
 *
 * A transfer of B bytes takes   latency + B / bandwidth   on the link, where the bandwidth is the
 * link's raw rate (lanes x GT/s x encoding efficiency) times a protocol efficiency (TLP headers,
 * flow control; 0.8 by default: PCIe 3.0 x16 moves ~12.6 of its 15.75 GB/s in practice).
 *
 * While it runs, the GPU's DMA engine reads (host to device) or writes (device to host) the buffer in
 * host memory, a line at a time, and that traffic contends with the CPU applications for the host's
 * LLC and DRAM.  warpsim models the engine as a requester on the host chip (an out-of-order core of
 * the chip) running a stream of line reads paced to about the link's bandwidth (pcie_dma_trace): per
 * 128-byte line one load and `pace` branches of pseudo-random outcome.  A mispredicted branch stops
 * the requester's fetch for a while without holding its reorder buffer, so its loads stay in flight
 * (a DMA engine with a bounded request rate) and it slows down when the host memory does.  The pace
 * is calibrated by measurement (docs/heteropdp.md).  Both directions are modelled as reads (the DRAM
 * moves the same bytes; write-specific DRAM timing is not modelled).
 */
#ifndef WARPSIM_SYS_PCIE_H
#define WARPSIM_SYS_PCIE_H

#include <stddef.h>
#include <stdint.h>

struct pcie_params {
    double gts;            /* transfers per lane, GT/s (PCIe 3.0: 8) */
    unsigned lanes;        /* 16 */
    double encoding;       /* 128b/130b: 128.0 / 130 */
    double efficiency;     /* protocol efficiency, 0..1 (0.8) */
    double latency_s;      /* per transfer: DMA setup, doorbell, completion (10 us) */
};
void pcie_params_default(struct pcie_params *p);   /* PCIe 3.0 x16 */
/* Effective bandwidth in bytes per second. */
double pcie_bandwidth(const struct pcie_params *p);
/* Seconds to move `bytes` over an uncontended link (0 bytes: 0). */
double pcie_transfer_seconds(const struct pcie_params *p, uint64_t bytes);

#define PCIE_DMA_LINE 128u
/* Write the DMA stream of `bytes` (at least one line) from address `base` to path (ChampSim format,
   .gz compresses): per 128-byte line one load record and `pace` branch records (outcomes from a fixed
   pseudo-random sequence).  Returns the number of records, or 0 with "PATH: reason" in err. */
uint64_t pcie_dma_trace(const char *path, uint64_t bytes, uint64_t base, unsigned pace, char *err, size_t n);

#endif
