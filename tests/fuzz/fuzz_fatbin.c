/*
 * fuzz_fatbin.c - libFuzzer harness: the CUDA fatbinary parser of the runtime
 * library (src/cudart/fatbin.h): fatbin_container_size, fatbin_list,
 * fatbin_entry_ptx (plain, zstd and LZ4 entries) and fatbin_pick_ptx, the
 * path __cudaRegisterFatBinary takes (src/cudart/cudart.c, load_fatbin).
 *
 * The whole input is a .nv_fatbin section (one or more containers; not
 * NUL-terminated and exactly its size, so a read past its end is a finding).
 * A container size must lie inside the input and agree with the size computed
 * without a bound.  A listed entry's payload must lie inside the input, an
 * uncompressed entry's sizes agree.  Every PTX entry that claims at most
 * FZ_MAX_EACH bytes is extracted, and the PTX the runtime would load is
 * picked (at FATBIN_MAX_ARCH and at 75): PTX returned is NUL-terminated at
 * its length, no longer than the entry claims, a plain entry's is a prefix of
 * its payload, and the picked architecture is that of a PTX entry, chosen by
 * the documented rule.  A failure must give a terminated, non-empty message
 * (the message buffer is short, to exercise truncation); a list without PTX
 * must explain it.  Inputs over 64 KiB are ignored.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/fatbin.h"

#define FUZZ_MAX_INPUT (64u * 1024u)
/* entries extracted one by one claim at most this much (the picked one is extracted whatever it claims) */
#define FZ_MAX_EACH (1u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fz_fail(const char *what)
{
    fprintf(stderr, "fuzz_fatbin: %s\n", what);
    abort();
}

static void fz_msg(const char *err, size_t n)
{
    if (!memchr(err, '\0', n) || !err[0])
        fz_fail("a failure's message is not terminated or is empty");
}

/* PTX returned for entry e (or NULL with a message) */
static void fz_check_ptx(const struct fatbin_entry *e, const char *ptx, size_t len, const char *err, size_t n)
{
    if (!ptx) {
        fz_msg(err, n);
        return;
    }
    if (ptx[len] != '\0' || strlen(ptx) != len)
        fz_fail("the PTX is not NUL-terminated at its length");
    if (len > e->uncompressed_size)
        fz_fail("the PTX is longer than its entry claims");
    if (!(e->flags & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD)) && memcmp(ptx, e->payload, len) != 0)
        fz_fail("a plain entry's PTX is not its payload");
}

static void fz_check_list(const struct fatbin_list *l, const uint8_t *data, size_t size)
{
    if (l->n > FATBIN_MAX_ENTRIES)
        fz_fail("more entries than FATBIN_MAX_ENTRIES");
    for (unsigned i = 0; i < l->n; i++) {
        const struct fatbin_entry *e = &l->e[i];
        if (e->payload < data || e->payload > data + size)
            fz_fail("an entry's payload starts outside the input");
        if (e->payload_size > (uint64_t)(data + size - e->payload))
            fz_fail("an entry's payload ends outside the input");
        if (!(e->flags & (FATBIN_FLAG_LZ4 | FATBIN_FLAG_ZSTD)) && e->uncompressed_size != e->payload_size)
            fz_fail("an uncompressed entry's sizes differ");
    }
}

/* The pick at max_arch: the highest PTX arch <= max_arch, else the lowest. */
static void fz_pick(const struct fatbin_list *l, unsigned max_arch)
{
    int any = 0, have_le = 0;
    unsigned best_le = 0, best_gt = 0;
    for (unsigned i = 0; i < l->n; i++) {
        if (l->e[i].kind != FATBIN_KIND_PTX)
            continue;
        unsigned a = l->e[i].arch;
        if (a <= max_arch) {
            if (!have_le || a > best_le)
                best_le = a;
            have_le = 1;
        } else if (!any || a < best_gt) {
            best_gt = a;
        }
        any = 1;
    }
    char err[96];
    memset(err, 'x', sizeof err);
    size_t len = 0;
    unsigned arch = 0xdeadu;
    char *ptx = fatbin_pick_ptx(l, max_arch, &len, &arch, err, sizeof err);
    if (!any) {
        if (ptx)
            fz_fail("PTX picked from a list without PTX");
        fz_msg(err, sizeof err);
        if (!strstr(err, "no PTX"))
            fz_fail("a list without PTX is not explained");
        return;
    }
    if (!ptx) {
        fz_msg(err, sizeof err);
        return;
    }
    unsigned want = have_le ? best_le : best_gt;
    if (arch != want)
        fz_fail("the picked architecture breaks the rule (highest at or below the cap, else the lowest)");
    const struct fatbin_entry *e = NULL;
    for (unsigned i = 0; i < l->n && !e; i++)
        if (l->e[i].kind == FATBIN_KIND_PTX && l->e[i].arch == arch)
            e = &l->e[i];
    if (!e)
        fz_fail("the picked architecture is not one listed");
    if (ptx[len] != '\0' || strlen(ptx) != len)
        fz_fail("the picked PTX is not NUL-terminated at its length");
    free(ptx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > FUZZ_MAX_INPUT)
        return 0;
    size_t cs = size ? fatbin_container_size(data, size) : 0;   /* avail 0 means "not known" */
    if (cs && (cs < 16 || cs > size))
        fz_fail("a container size outside the input");
    if (size >= 16) {   /* the registration path: the size is not known */
        size_t cs0 = fatbin_container_size(data, 0);
        if (cs && cs0 != cs)
            fz_fail("the container size depends on the bound");
        if (cs0 && cs0 <= size && cs != cs0)
            fz_fail("a container that fits is rejected with the bound");
    }
    struct fatbin_list *l = malloc(sizeof *l);
    if (!l)
        return 0;
    char err[96];
    memset(err, 'x', sizeof err);
    int rc = fatbin_list(data, size, l, err, sizeof err);
    if (rc != 0) {
        if (rc != -1)
            fz_fail("fatbin_list returned neither 0 nor -1");
        fz_msg(err, sizeof err);
        free(l);
        return 0;
    }
    fz_check_list(l, data, size);
    for (unsigned i = 0; i < l->n; i++) {
        const struct fatbin_entry *e = &l->e[i];
        if (e->kind != FATBIN_KIND_PTX || e->uncompressed_size > FZ_MAX_EACH)
            continue;
        memset(err, 'x', sizeof err);
        size_t len = 0;
        char *ptx = fatbin_entry_ptx(e, &len, err, sizeof err);
        fz_check_ptx(e, ptx, len, err, sizeof err);
        free(ptx);
    }
    fz_pick(l, FATBIN_MAX_ARCH);
    fz_pick(l, 75);
    free(l);
    return 0;
}
