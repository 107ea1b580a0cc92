/*
 * trace.h - instruction traces for the (future) trace-driven CPU cores, in
 * ChampSim's format (docs/traces.md): a stream of 64-byte little-endian
 * records, no header, stored plain, gzip- or xz-compressed.
 *
 * Record layout (byte offsets):
 *    0  uint64 ip
 *    8  uint8  is_branch
 *    9  uint8  branch_taken
 *   10  uint8  destination_registers[2]
 *   12  uint8  source_registers[4]
 *   16  uint64 destination_memory[2]
 *   32  uint64 source_memory[4]
 * Zero means "none" for a register or an address.
 *
 * Reading is streamed through a fixed buffer (never the whole file); the
 * compression is detected from the file's magic bytes.  Writing chooses it from
 * the path's extension (.gz, .xz, anything else plain).
 */
#ifndef WARPSIM_CPU_TRACE_H
#define WARPSIM_CPU_TRACE_H

#include <stddef.h>
#include <stdint.h>

#define TRACE_REC_BYTES 64
#define TRACE_NUM_DST_REGS 2
#define TRACE_NUM_SRC_REGS 4
#define TRACE_NUM_DST_MEM 2
#define TRACE_NUM_SRC_MEM 4

/* One decoded record. */
struct trace_rec {
    uint64_t ip;
    uint8_t is_branch;
    uint8_t branch_taken;
    uint8_t dst_regs[TRACE_NUM_DST_REGS];
    uint8_t src_regs[TRACE_NUM_SRC_REGS];
    uint64_t dst_mem[TRACE_NUM_DST_MEM];   /* stores */
    uint64_t src_mem[TRACE_NUM_SRC_MEM];   /* loads */
};

enum trace_comp { TRACE_PLAIN, TRACE_GZIP, TRACE_XZ };
const char *trace_comp_name(enum trace_comp c);   /* "plain", "gzip", "xz" */

/* byte-level encoding, independent of the host's layout and endianness */
void trace_decode(const unsigned char b[TRACE_REC_BYTES], struct trace_rec *r);
void trace_encode(const struct trace_rec *r, unsigned char b[TRACE_REC_BYTES]);

/* ---- reader ---- */
struct trace_reader;
/* NULL on failure, with "PATH: reason" in err[n]. */
struct trace_reader *trace_open(const char *path, char *err, size_t n);
/* 1: *r holds the next record; 0: clean end of the trace; -1: error (trace_error).
   An error is sticky: later calls return -1 again. */
int trace_next(struct trace_reader *t, struct trace_rec *r);
const char *trace_error(const struct trace_reader *t);   /* "" when none */
uint64_t trace_records_read(const struct trace_reader *t);
enum trace_comp trace_compression(const struct trace_reader *t);
void trace_close(struct trace_reader *t);

/* ---- writer ---- */
struct trace_writer;
/* NULL on failure, with "PATH: reason" in err[n]. */
struct trace_writer *trace_create(const char *path, char *err, size_t n);
int trace_write(struct trace_writer *w, const struct trace_rec *r);   /* 0, or -1 (trace_writer_error) */
const char *trace_writer_error(const struct trace_writer *w);
/* Flush, close and free w (also after a failed write).  0, or -1 with
   "PATH: reason" in err[n] (the first error of the writer). */
int trace_finish(struct trace_writer *w, char *err, size_t n);

#endif
