/*
 * dram_timing.c - parser of -gpgpu_dram_timing_opt (declared in mem/dram.h).
 *
 * "nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=4:CCDL=3:RTPL=2"
 * Keys are GPGPU-Sim's, case-sensitive, separated by ':'.  Every key up to WR
 * is required (a DRAM without tCL is not a DRAM); nbkgrp, CCDL and RTPL are
 * optional (defaults 1, 0, 0: no bank groups, no read-to-precharge limit),
 * as in GPGPU-Sim's pre-GDDR5 configs.  All values are DRAM command cycles,
 * except nbk / nbkgrp (counts).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "mem/dram.h"

struct dram_key {
    const char *name;
    size_t offset;
    unsigned lo, hi;
    int required;
};

#define DK(name, field, lo, hi, req) {name, offsetof(struct dram_timing, field), lo, hi, req}
static const struct dram_key dram_keys[] = {
    DK("nbk", nbk, 1, 64, 1),       DK("CCD", tCCD, 1, 1000, 1),   DK("RRD", tRRD, 0, 1000, 1),
    DK("RCD", tRCD, 0, 1000, 1),    DK("RAS", tRAS, 0, 1000, 1),   DK("RP", tRP, 0, 1000, 1),
    DK("RC", tRC, 0, 1000, 1),      DK("CL", tCL, 0, 1000, 1),     DK("WL", tWL, 0, 1000, 1),
    DK("CDLR", tCDLR, 0, 1000, 1),  DK("WR", tWR, 0, 1000, 1),     DK("nbkgrp", nbkgrp, 1, 64, 0),
    DK("CCDL", tCCDL, 0, 1000, 0),  DK("RTPL", tRTPL, 0, 1000, 0),
};
#undef DK
#define DRAM_NKEYS (sizeof dram_keys / sizeof dram_keys[0])

static unsigned *dram_field(struct dram_timing *t, const struct dram_key *k)
{
    return (unsigned *)(void *)((char *)t + k->offset);
}

int dram_timing_parse(const char *s, struct dram_timing *t, char *msg, size_t n, unsigned *col)
{
    unsigned seen = 0;   /* bit per key */
    memset(t, 0, sizeof *t);
    t->nbkgrp = 1;
    const char *p = s;
    for (;;) {
        const char *key = p;
        while (*p && *p != '=' && *p != ':')
            p++;
        size_t kl = (size_t)(p - key);
        unsigned kcol = (unsigned)(key - s) + 1;
        if (*p != '=' || kl == 0) {
            snprintf(msg, n, "expected 'key=value', got '%.*s'", (int)(strcspn(key, ":")), key);
            *col = kcol;
            return -1;
        }
        size_t ki = 0;
        while (ki < DRAM_NKEYS && !(strlen(dram_keys[ki].name) == kl && memcmp(dram_keys[ki].name, key, kl) == 0))
            ki++;
        if (ki == DRAM_NKEYS) {
            snprintf(msg, n,
                     "unknown key '%.*s' (expected nbk, CCD, RRD, RCD, RAS, RP, RC, CL, WL, CDLR, WR, nbkgrp, CCDL, "
                     "RTPL)",
                     (int)kl, key);
            *col = kcol;
            return -1;
        }
        const struct dram_key *k = &dram_keys[ki];
        if (seen & (1u << ki)) {
            snprintf(msg, n, "key '%s' given twice", k->name);
            *col = kcol;
            return -1;
        }
        seen |= 1u << ki;
        const char *v = ++p;
        unsigned long val = 0;
        int digits = 0, big = 0;
        while (*p >= '0' && *p <= '9') {
            val = val * 10 + (unsigned long)(*p - '0');
            big |= val > 1000000;
            digits++;
            p++;
        }
        if (!digits || (*p && *p != ':') || big || val < k->lo || val > k->hi) {
            snprintf(msg, n, "%s: expected an integer in [%u, %u], got '%.*s'", k->name, k->lo, k->hi,
                     (int)strcspn(v, ":"), v);
            *col = (unsigned)(v - s) + 1;
            return -1;
        }
        *dram_field(t, k) = (unsigned)val;
        if (!*p)
            break;
        p++;   /* ':' */
    }
    for (size_t ki = 0; ki < DRAM_NKEYS; ki++) {
        if (dram_keys[ki].required && !(seen & (1u << ki))) {
            snprintf(msg, n, "missing key '%s'", dram_keys[ki].name);
            *col = (unsigned)strlen(s) + 1;
            return -1;
        }
    }
    if (t->nbk % t->nbkgrp) {
        snprintf(msg, n, "nbk (%u) must be a multiple of nbkgrp (%u)", t->nbk, t->nbkgrp);
        *col = 1;
        return -1;
    }
    return 0;
}
